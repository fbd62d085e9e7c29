//! Property tests: on random inputs the host target computes exactly what the interpreter
//! (the definition of the semantics) computes, errors included.

mod common;

use common::value_to_rt;
use proptest::prelude::*;
use twinjit::ir::interp::RtValue;
use twinjit::{Engine, Module, SourceModule, Target, Value};

const SRC: &str = r#"
import math
from numba import njit

@njit
def int_ops(a, b):
    return a + b, a - b, a * b, a // b, a % b, a / b

@njit
def int_bits(a, b):
    return a & b, a | b, a ^ b, a << (b % 70), a >> (b % 70), ~a, -a

@njit
def int_pow(a, b):
    return a ** (b % 70 - 5)

@njit
def float_ops(x, y):
    return x + y, x - y, x * y, x / y, x // y, x % y

@njit
def float_pow(x, n):
    return x ** n, x ** 2, x ** 3, x * 2.0, 2.0 * x, x * 2

@njit
def mixed(x, a, f):
    return x * a + f, min(x, a, f), max(a, f), abs(a), int(x), float(a) / 3.0

@njit
def f32_ops(x, y):
    return x * y + x, x / y, x // y, math.sqrt(x)

@njit
def casts(x):
    return int(x), bool(x), math.floor(x), math.ceil(x)
"#;

struct Both {
    host: Module,
    oracle: SourceModule,
}

/// Compiled once for all cases: specialisations are cached by the dispatcher.
fn both() -> &'static Both {
    static B: std::sync::OnceLock<Both> = std::sync::OnceLock::new();
    B.get_or_init(|| Both {
        host: Engine::new(Target::Host).unwrap().load("p.py", SRC).unwrap(),
        oracle: SourceModule::parse("p.py", SRC).unwrap(),
    })
}

fn same(b: &Both, f: &str, host_args: Vec<twinjit::ArgValue>, rt_args: Vec<RtValue>) -> Result<(), TestCaseError> {
    let h = b.host.function(f).unwrap().call::<Value>(host_args);
    let o = b.oracle.interpret(f, &rt_args);
    match (h, o) {
        (Ok(h), Ok(o)) => prop_assert!(value_to_rt(&h).same(&o), "{f}{rt_args:?}: host {h} vs interpreter {o}"),
        (Err(h), Err(o)) => prop_assert_eq!(h.python_exception(), o.python_exception()),
        (h, o) => prop_assert!(false, "{f}{rt_args:?}: host {h:?} vs interpreter {o:?}"),
    }
    Ok(())
}

fn edge_i64() -> impl Strategy<Value = i64> {
    // 0 .. 2**33 crosses the 32-bit boundary where `//` and `%` take their narrow division.
    prop_oneof![any::<i64>(), -10i64..10, 0i64..(1 << 33), Just(i64::MIN), Just(i64::MAX), Just(-1), Just(0)]
}

fn edge_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        -10.0f64..10.0,
        Just(0.0),
        Just(-0.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(1e308),
        Just(-2.5)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn integer_arithmetic(a in edge_i64(), b in edge_i64()) {
        let bb = both();
        use twinjit::ArgValue::I64;
        same(bb, "int_ops", vec![I64(a), I64(b)], vec![RtValue::I64(a), RtValue::I64(b)])?;
        same(bb, "int_bits", vec![I64(a), I64(b)], vec![RtValue::I64(a), RtValue::I64(b)])?;
        same(bb, "int_pow", vec![I64(a), I64(b)], vec![RtValue::I64(a), RtValue::I64(b)])?;
    }

    #[test]
    fn float_arithmetic(x in edge_f64(), y in edge_f64(), n in -40i64..40) {
        let bb = both();
        use twinjit::ArgValue::{F64, I64};
        same(bb, "float_ops", vec![F64(x), F64(y)], vec![RtValue::F64(x), RtValue::F64(y)])?;
        same(bb, "float_pow", vec![F64(x), I64(n)], vec![RtValue::F64(x), RtValue::I64(n)])?;
        same(bb, "casts", vec![F64(x)], vec![RtValue::F64(x)])?;
    }

    #[test]
    fn mixed_and_float32(x in edge_f64(), a in edge_i64(), f in -1e6f32..1e6f32, g in -1e6f32..1e6f32) {
        let bb = both();
        use twinjit::ArgValue::{F32, F64, I64};
        same(bb, "mixed", vec![F64(x), I64(a), F32(f)], vec![RtValue::F64(x), RtValue::I64(a), RtValue::F32(f)])?;
        same(bb, "f32_ops", vec![F32(f), F32(g)], vec![RtValue::F32(f), RtValue::F32(g)])?;
    }
}
