//! Iteration twinjit accepts beyond Numba: `reversed(range(...))` (an untyped global in Numba)
//! and heterogeneous tuples unrolled without `literal_unroll`; expected values from CPython.

use twinjit::ir::interp::RtValue;
use twinjit::SourceModule;

const SRC: &str = "from numba import njit

@njit
def rev(a, b, c):
    s = 0
    for i in reversed(range(a, b, c)):
        s = s * 100 + i
    return s

@njit
def hetero(x):
    s = 0.0
    for t in (1, 2.5, True):
        s = s * x + t
    return s
";

fn run(f: &str, args: &[RtValue]) -> String {
    let m = SourceModule::parse("t.py", SRC).expect("loads");
    m.interpret(f, args).expect("runs").to_string()
}

#[test]
fn reversed_range_counts_down() {
    let i = RtValue::I64;
    // CPython: list(reversed(range(1, 10, 3))) == [7, 4, 1]
    assert_eq!(run("rev", &[i(1), i(10), i(3)]), "70401");
    assert_eq!(run("rev", &[i(10), i(1), i(-3)]), "40710");
    assert_eq!(run("rev", &[i(5), i(5), i(1)]), "0");
    assert_eq!(run("rev", &[i(2), i(9), i(2)]), "8060402");
}

#[test]
fn heterogeneous_tuple_is_unrolled() {
    assert_eq!(run("hetero", &[RtValue::F64(2.0)]), "10.0");
}
