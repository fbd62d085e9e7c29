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
    // The chained comparison, and a computed index tested by one (a histogram's bin).
    check("(a, i):\n    if 0 <= i < len(a):\n        return a[i]\n    return 0.0\n", "(float64[:], int64)", 0);
    check(
        "(x, c):\n    for v in x:\n        b = int(v * 10.0)\n        if 0 <= b < len(c):\n            c[b] += 1\n",
        "(float64[:], int64[:])",
        0,
    );
    // `not (i < 0 or i >= n)`: both fail where the `or` fails.
    check("(a, i):\n    if i < 0 or i >= len(a):\n        return 0.0\n    return a[i]\n", "(float64[:], int64)", 0);
}

/// A check the same index already passed on every path is dropped: `a[i]` read in a condition
/// and again in its branch keeps one check (in the loop `loop_version` keeps for when `a` is
/// shorter; its check-free copy has none).
#[test]
fn a_check_already_passed_is_not_repeated() {
    check(
        "(x, a):\n    p = 0\n    for i in range(x.shape[0]):\n        if a[i] > 0:\n            p += a[i]\n    return p\n",
        "(float64[:], int64[:])",
        1,
    );
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
    // An `or` that holds proves neither side.
    check("(a, i):\n    if i >= 0 or i < len(a):\n        return a[i]\n    return 0.0\n", "(float64[:], int64)", 1);
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

/// Counts `checknonzero` left in the entry specialisation.
fn nonzero_checks(body: &str, sig: &str) -> usize {
    let src = format!("from numba import njit\n\n@njit\ndef f{body}");
    let m = SourceModule::parse("t.py", &src).unwrap();
    let p = m.specialize("f", &parse_signature(sig).unwrap(), None).unwrap();
    let f = &p.entry().func;
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| matches!(f.insts[i.index()].kind, InstKind::CheckNonZero(..)))
        .count()
}

#[test]
fn dimensions_unpacked_from_the_shape_tuple_prove_as_much_as_the_shape_itself() {
    // `n, m = a.shape` (the tuple is forwarded), neighbours `a[i - 1, j]` (Python's wrap of
    // i - 1 stays in range) and `a[i, (j + 1) % m]` (no division: `m` bounds the counter).
    let ising = "(s, J, h):\n    n, m = s.shape\n    e = 0.0\n    for i in range(n):\n        for j in range(m):\n            x = s[i, j]\n            nb = s[i - 1, j] + s[i, (j + 1) % m]\n            e += -J * x * nb - h * x\n    return e\n";
    check(ising, "(float64[:, ::1], float64, float64)", 0);
    assert_eq!(nonzero_checks(ising, "(float64[:, ::1], float64, float64)"), 0);
    // `i - 2` may wrap to len - 2, which is out of range for len 1: kept.
    check("(a):\n    s = 0.0\n    for i in range(len(a)):\n        s += a[i - 2]\n    return s\n", "(float64[:],)", 1);
    // A modulo by a value no loop bounds keeps its zero check.
    assert_eq!(
        nonzero_checks(
            "(a, k):\n    s = 0\n    for i in range(len(a)):\n        s += i % k\n    return s\n",
            "(float64[:], int64)"
        ),
        1
    );
}

#[test]
fn loop_invariant_arithmetic_leaves_the_inner_loop() {
    // The wrap of `i - 1` and the row offsets depend on the outer counter only.
    let src = "from numba import njit\n\n@njit\ndef f(s, J, h):\n    n, m = s.shape\n    e = 0.0\n    for i in range(n):\n        for j in range(m):\n            x = s[i, j]\n            e += -J * x * (s[i - 1, j] + s[i, (j + 1) % m]) - h * x\n    return e\n";
    let m = SourceModule::parse("t.py", src).unwrap();
    let p = m.specialize("f", &parse_signature("(float64[:, ::1], float64, float64)").unwrap(), None).unwrap();
    let f = &p.entry().func;
    // The inner loop is the block that branches back to itself.
    let (bi, inner) = f
        .blocks
        .iter()
        .enumerate()
        .find(|(bi, b)| b.term.targets().iter().any(|t| t.block.index() == *bi))
        .expect("an inner loop");
    let defined_here: Vec<_> =
        inner.params.iter().copied().chain(inner.insts.iter().filter_map(|i| f.insts[i.index()].result)).collect();
    for &i in &inner.insts {
        let d = &f.insts[i.index()];
        let movable =
            matches!(d.kind, InstKind::Binary(..) | InstKind::Compare(..) | InstKind::Select(..) | InstKind::Unary(..));
        let ops = d.kind.operands();
        assert!(
            !movable || ops.iter().any(|v| defined_here.contains(v)),
            "block{bi}: {:?} depends on nothing the loop computes\n{f}",
            d.kind
        );
    }
}

/// Conditional branches of the typed, lowered IR of `f` (the loop's own test included).
fn branches(body: &str, sig: &str) -> usize {
    let src = format!("from numba import njit\n\n@njit\ndef clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n\n@njit\ndef f{body}");
    let m = SourceModule::parse("t.py", &src).unwrap();
    let p = m.specialize("f", &parse_signature(sig).unwrap(), None).unwrap();
    let f = &p.entry().func;
    f.reverse_postorder()
        .iter()
        .filter(|b| matches!(f.blocks[b.index()].term, twinjit::ir::Terminator::Branch(..)))
        .count()
}

#[test]
fn small_branches_that_only_compute_numbers_become_selects() {
    // `if x > hi: x = hi` in the loop, and an inlined clamp with two returns: only the loop's
    // own tests branch (a rotated loop has two: entry and latch).
    let plain = "(a, lo, hi):\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += a[i]\n    return s\n";
    let loop_only = branches(plain, "(float64[::1], float64, float64)");
    let own = "(a, lo, hi):\n    s = 0.0\n    for i in range(a.shape[0]):\n        x = a[i]\n        if x > hi:\n            x = hi\n        if x < lo:\n            x = lo\n        s += x\n    return s\n";
    assert_eq!(branches(own, "(float64[::1], float64, float64)"), loop_only);
    let via_call =
        "(a, lo, hi):\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += clamp(a[i], lo, hi)\n    return s\n";
    assert_eq!(branches(via_call, "(float64[::1], float64, float64)"), loop_only);
    // An arm that may raise (integer division under the Python error model) keeps its branch.
    let raises = "(a, k):\n    s = 0\n    for i in range(a.shape[0]):\n        if a[i] > 0:\n            s += a[i] // k\n    return s\n";
    assert!(branches(raises, "(int64[::1], int64)") > loop_only);
}

/// A branch on a condition that a dominating branch decided is a jump (`branch_fold`): the
/// same test nested in its own arm, and the bounds test of a list element read twice.
#[test]
fn a_condition_decided_by_a_dominating_branch_is_not_tested_again() {
    let nested = "(a, c):\n    if c > 0:\n        a[0] = 1.0\n        if c > 0:\n            a[1] = 2.0\n";
    assert_eq!(branches(nested, "(float64[::1], int64)"), 1);
    // In the other arm the inner test is decided the other way: its store goes.
    let other_arm = "(a, c):\n    if c > 0:\n        a[0] = 1.0\n    else:\n        if c > 0:\n            a[1] = 2.0\n        a[2] = 3.0\n";
    assert_eq!(branches(other_arm, "(float64[::1], int64)"), 1);
    // Not dominated (after the join), so tested again.
    let after_join = "(a, c):\n    if c > 0:\n        a[0] = 1.0\n    a[2] = 3.0\n    if c > 0:\n        a[1] = 2.0\n";
    assert_eq!(branches(after_join, "(float64[::1], int64)"), 2);
    // `l[i] * l[i]`: one bounds test, not two.
    let twice = "(n, i):\n    l = [n, n + 1, n + 2]\n    return l[i] * l[i]\n";
    let once = "(n, i):\n    l = [n, n + 1, n + 2]\n    return l[i] * 2\n";
    assert_eq!(branches(twice, "(int64, int64)"), branches(once, "(int64, int64)"));
}

/// `out[i] = f(out[i - 1], x[i])`: the check-free copy of the loop carries the value it stored
/// to the next iteration as a block parameter instead of loading it back (`forward_store`);
/// the original loop, with its checks, still loads it.
#[test]
fn a_recurrence_through_the_output_is_carried_in_a_register() {
    let carried = |body: &str, sig: &str| {
        let src = format!("from numba import njit\n\n@njit(boundscheck=True)\ndef f{body}");
        let m = SourceModule::parse("t.py", &src).unwrap();
        let p = m.specialize("f", &parse_signature(sig).unwrap(), None).unwrap();
        let f = &p.entry().func;
        f.blocks
            .iter()
            .filter(|b| {
                b.params.iter().any(|&v| f.ty(v).to_string() == "float64")
                    && b.insts.iter().any(|i| matches!(f.insts[i.index()].kind, InstKind::Store(..)))
            })
            .count()
    };
    let recurrence =
        "(x, out):\n    out[0] = x[0]\n    for i in range(1, len(x)):\n        out[i] = 0.5 * out[i - 1] + x[i]\n";
    assert_eq!(carried(recurrence, "(float64[:], float64[:])"), 1);
    // Reading two elements back: only the one just stored is carried... and `out[i - 2]` is not.
    let two_back = "(x, out):\n    for i in range(2, len(x)):\n        out[i] = out[i - 2] + x[i]\n";
    assert_eq!(carried(two_back, "(float64[:], float64[:])"), 0);
    // A second store in the loop (to another array, which may alias `out`): not carried.
    let two_stores =
        "(x, out, y):\n    for i in range(1, len(x)):\n        out[i] = out[i - 1] + x[i]\n        y[i] = 1.0\n";
    assert_eq!(carried(two_stores, "(float64[:], float64[:], float64[:])"), 0);
}

/// Index checks and negative-index wraps (`select(i < 0, i + len, i)`) left in a
/// `@cuda.jit(boundscheck=True)` kernel, before and after `narrow_to_index32`.
fn kernel_checks(body: &str, sig: &str) -> ((usize, usize), (usize, usize)) {
    let src = format!("import numpy as np\nfrom numba import cuda\n\n@cuda.jit(boundscheck=True)\ndef k{body}");
    let m = SourceModule::parse("t.py", &src).unwrap();
    let mut p = m.specialize("k", &parse_signature(sig).unwrap(), None).unwrap();
    let count = |f: &twinjit::ir::Function| {
        let is_wrap = |c: &twinjit::ir::Value| {
            matches!(f.def_inst(*c).map(|d| &d.kind),
                Some(InstKind::Compare(twinjit::ir::CmpOp::Lt, _, z)) if f.const_int(*z) == Some(0))
        };
        let insts = || f.blocks.iter().flat_map(|b| &b.insts).map(|i| &f.insts[i.index()].kind);
        (
            insts().filter(|k| matches!(k, InstKind::CheckIndex(..))).count(),
            insts().filter(|k| matches!(k, InstKind::Select(c, ..) if is_wrap(c))).count(),
        )
    };
    let general = count(&p.entry().func);
    twinjit::ir::passes::narrow_to_index32(&mut p).unwrap();
    (general, count(&p.entry().func))
}

#[test]
fn thread_positions_are_never_negative() {
    // Guarded by the dimension: the check and the wrap go in every variant.
    let guarded = "(a):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        a[i] = 1.0\n";
    assert_eq!(kernel_checks(guarded, "(float32[:],)"), ((0, 0), (0, 0)));
    let guarded2 = "(a):\n    x, y = cuda.grid(2)\n    if x < a.shape[0] and y < a.shape[1]:\n        a[x, y] = 1.0\n";
    assert_eq!(kernel_checks(guarded2, "(float32[:, :],)"), ((0, 0), (0, 0)));
    // A shared array indexed by the thread: only the upper bound is unknown.
    let shared = "(a):\n    h = cuda.shared.array(256, dtype=np.float32)\n    h[cuda.threadIdx.x] = 0.0\n";
    assert_eq!(kernel_checks(shared, "(float32[:],)").0, (1, 0));
}

#[test]
fn a_grid_stride_counter_is_non_negative_when_dimensions_are_small() {
    // `i + stride` could wrap past 2^63 next to an axis that long; under 2^31 it cannot.
    let stride = "(a):\n    i = cuda.grid(1)\n    s = cuda.gridsize(1)\n    while i < a.shape[0]:\n        a[i] = 2.0 * a[i]\n        i += s\n";
    assert_eq!(kernel_checks(stride, "(float32[:],)"), ((1, 1), (0, 0)));
    // The same loop as a `range` with the grid's size as its step (whose sign the range tests:
    // a grid extent is at least 1).
    let range = "(a):\n    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):\n        a[i] *= 2.0\n";
    assert_eq!(kernel_checks(range, "(float32[:],)"), ((1, 1), (0, 0)));
    // Bounded by a small constant, it is non-negative in every variant.
    let constant =
        "(a):\n    i = cuda.grid(1)\n    while i < 1000:\n        a[i] = 1.0\n        i += cuda.gridsize(1)\n";
    assert_eq!(kernel_checks(constant, "(float32[:],)"), ((1, 0), (1, 0)));
    // A step that may be negative proves nothing.
    let any_step = "(a, s):\n    i = cuda.grid(1)\n    while i < a.shape[0]:\n        a[i] = 1.0\n        i += s\n";
    assert_eq!(kernel_checks(any_step, "(float32[:], int64)"), ((1, 1), (1, 1)));
}

/// `(checkindex instructions, loads)` of `f` for `sig`.
fn checks_and_loads(body: &str, sig: &str) -> (usize, usize) {
    let src = format!("from numba import njit\n\n@njit\ndef f{body}");
    let m = SourceModule::parse("t.py", &src).unwrap();
    let p = m.specialize("f", &parse_signature(sig).unwrap(), None).unwrap();
    let f = &p.entry().func;
    let count = |pred: &dyn Fn(&InstKind) -> bool| {
        f.blocks.iter().flat_map(|b| &b.insts).filter(|i| pred(&f.insts[i.index()].kind)).count()
    };
    (count(&|k| matches!(k, InstKind::CheckIndex(..))), count(&|k| matches!(k, InstKind::Load(..))))
}

/// A loop over a range the caller gives (its start may be negative, its end past the array)
/// keeps its checks, and `loop_version` adds a copy without them for when the range is inside
/// the array, also when the body branches (a histogram's bin test) or leaves early (`break`):
/// the element is loaded in both copies and checked in one.
#[test]
fn loops_with_branches_get_a_copy_without_checks() {
    let histogram = "(x, c, lo, hi):\n    for i in range(lo, hi):\n        b = int(x[i])\n        if b >= 0 and b < len(c):\n            c[b] += 1\n";
    assert_eq!(checks_and_loads(histogram, "(float64[:], int64[:], int64, int64)"), (1, 4));
    let search = "(x, lo, t):\n    k = -1\n    for i in range(lo, len(x)):\n        if x[i] > t:\n            k = i\n            break\n    return k\n";
    assert_eq!(checks_and_loads(search, "(float64[:], int64, float64)"), (1, 2));
}
