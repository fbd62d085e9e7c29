//! Bounds-check elimination keeps every check it cannot prove and drops the ones a loop bound
//! or a dominating condition proves. `check(body, sig, expected number of checkindex left)`.

use twinjit::ir::{parse_signature, InstKind};
use twinjit::SourceModule;

fn check(body: &str, sig: &str, expect_checks: usize) {
    let src = format!("from numba import njit\n\n@njit\ndef f{body}");
    let m = SourceModule::parse("t.py", &src).unwrap();
    let p = m.specialize("f", &parse_signature(sig).unwrap(), None).unwrap();
    let f = &p.entry().func;
    let n = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| matches!(f.insts[i.index()].kind, InstKind::CheckIndex(..)))
        .count();
    assert_eq!(n, expect_checks, "{body}\n{f}");
}

#[test]
fn proven_accesses_lose_their_checks() {
    check("(a):\n    s = 0.0\n    for i in range(len(a)):\n        s += a[i]\n    return s\n", "(float64[:],)", 0);
    check(
        "(a):\n    for i in range(a.shape[0]):\n        for j in range(a.shape[1]):\n            a[i, j] = 1.0\n",
        "(float64[:, :],)",
        0,
    );
    check(
        "(a):\n    n = a.shape[0]\n    s = 0.0\n    for i in range(n):\n        s += a[(i + 1) % n]\n    return s\n",
        "(float64[:],)",
        0,
    );
    check("(a, i):\n    if i >= 0 and i < len(a):\n        return a[i]\n    return 0.0\n", "(float64[:], int64)", 0);
}

#[test]
fn unproven_accesses_keep_their_checks() {
    // The loop bound is a separate argument: it may exceed the array.
    check("(a, n):\n    s = 0.0\n    for i in range(n):\n        s += a[i]\n    return s\n", "(float64[:], int64)", 1);
    // Bounded by another array's length.
    check(
        "(a, b):\n    s = 0.0\n    for i in range(len(a)):\n        s += b[i]\n    return s\n",
        "(float64[:], float64[:])",
        1,
    );
    // i + 1 can reach len(a).
    check("(a):\n    s = 0.0\n    for i in range(len(a)):\n        s += a[i + 1]\n    return s\n", "(float64[:],)", 1);
    // A negative step counts down from an arbitrary start.
    check(
        "(a, k):\n    s = 0.0\n    for i in range(k, -1, -1):\n        s += a[i]\n    return s\n",
        "(float64[:], int64)",
        1,
    );
    // Only one side of the range is known.
    check("(a, i):\n    if i < len(a):\n        return a[i]\n    return 0.0\n", "(float64[:], int64)", 1);
}

#[test]
fn periodic_wraparound_needs_no_division() {
    let src = "from numba import njit\n\n@njit\ndef f(a):\n    n = a.shape[0]\n    s = 0.0\n    for i in range(n):\n        s += a[(i + 1) % n]\n    return s\n";
    let m = SourceModule::parse("t.py", src).unwrap();
    let p = m.specialize("f", &parse_signature("(float64[:],)").unwrap(), None).unwrap();
    let f = &p.entry().func;
    let mods = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| matches!(f.insts[i.index()].kind, InstKind::Binary(twinjit::ir::BinaryOp::Mod, ..)))
        .count();
    assert_eq!(mods, 0, "{f}");
    // And the result is still Python's: the last element wraps to index 0.
    let a = twinjit::ir::interp::RtValue::Array(twinjit::ir::interp::ArrayRef::from_vec(
        twinjit::ir::interp::ArrayData::F64(vec![1.0, 2.0, 4.0]),
    ));
    let r = m.interpret("f", &[a]).unwrap();
    assert_eq!(r.to_string(), "7.0");
}
