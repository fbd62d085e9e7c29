//! (c) Structured random programs of the supported subset, compiled for the host target and
//! run against the reference interpreter on random inputs: any difference in results, in the
//! array written, or in the error raised is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use twinjit::ir::interp::{ArrayData, ArrayRef, RtValue};
use twinjit::{ArgValue, Engine, Target, Value};

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    program: twinjit_fuzz::Program,
    n: i64,
    x: f64,
    a: [f64; 5],
}

fn to_rt(v: &Value) -> RtValue {
    match v {
        Value::None => RtValue::None,
        Value::Bool(b) => RtValue::Bool(*b),
        Value::I32(i) => RtValue::I32(*i),
        Value::I64(i) => RtValue::I64(*i),
        Value::F32(x) => RtValue::F32(*x),
        Value::F64(x) => RtValue::F64(*x),
        Value::Tuple(vs) => RtValue::Tuple(vs.iter().map(to_rt).collect()),
    }
}

fuzz_target!(|input: Input| {
    let src = input.program.to_python();
    let Ok(oracle) = twinjit::SourceModule::parse("gen.py", &src) else { return };
    let arr = ArrayRef::from_vec(ArrayData::F64(input.a.to_vec()));
    let expected = oracle.interpret("f", &[RtValue::I64(input.n), RtValue::F64(input.x), RtValue::Array(arr.clone())]);
    if let Err(twinjit::Error::Compile(_)) = &expected {
        return; // a typing corner the generator does not avoid (e.g. none); not a backend bug
    }
    let engine = Engine::new(Target::Host).expect("host");
    let module = engine.load("gen.py", &src).expect("the interpreter accepted it");
    let mut a = input.a;
    let got: Result<Value, _> =
        module.function("f").unwrap().call((input.n, input.x, ArgValue::array_mut(&mut a, &[5])));
    match (&got, &expected) {
        (Ok(g), Ok(e)) => assert!(to_rt(g).same(e), "result differs: host {g:?} interpreter {e:?}\n{src}"),
        (Err(g), Err(e)) => assert_eq!(g.python_exception(), e.python_exception(), "{g} vs {e}\n{src}"),
        _ => panic!("host {got:?} but interpreter {expected:?}\n{src}"),
    }
    if got.is_ok() {
        let after = RtValue::Array(ArrayRef::from_vec(ArrayData::F64(a.to_vec())));
        assert!(after.same(&RtValue::Array(arr)), "array differs after the call\n{src}");
    }
});
