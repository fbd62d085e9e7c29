//! Array expressions are fused (Numba's array-expression rewrite): a chain of elementwise
//! operations in one statement becomes one loop nest with one output allocation, and an
//! in-place update or a slice assignment stores straight into its target without any.

use twinjit::ir::parse_signature;
use twinjit::ir::{Function, InstKind};
use twinjit::SourceModule;

const SOURCE: &str = r#"
import math
import numpy as np
from numba import njit, vectorize, guvectorize, float64

@vectorize(["float64(float64, float64)"])
def hyp(x, y):
    return math.sqrt(x * x + y * y)

@njit
def with_ufunc(x, y):
    return hyp(x, y) * 2.0 + 1.0

@njit
def band(v):
    if v < 0.0:
        return 0.0
    elif v < 10.0:
        return v * 0.5
    return 5.0 + (v - 10.0) * 0.25

@njit
def fee(amount):
    # A piecewise function of four pieces, as SQL writes a CASE.
    if amount <= 100.0:
        return 1.5
    elif amount <= 1000.0:
        return 1.5 + (amount - 100.0) * 0.02
    elif amount <= 10000.0:
        return 19.5 + (amount - 1000.0) * 0.01
    return 109.5 + (amount - 10000.0) * 0.005

@njit
def fees(x, out):
    for i in range(x.shape[0]):
        out[i] = fee(x[i])

@vectorize
def banded(v):
    return band(v) + 1.0

@njit
def chain(x, y):
    return np.sqrt(x * x + y * y)

@njit
def kept(x, y):
    t = x + y
    return t * t, t

@njit
def in_place(x, y):
    x += 2.0 * y

@njit
def into_slice(u, lap):
    u[1:-1] += 0.5 * lap

@njit
def reduce_chain(x):
    return np.sum(x * x + 1.0)

@guvectorize([(float64[:], float64[:])], "(n)->()")
def row_sq(x, res):
    s = 0.0
    for v in x:
        s += v * v
    res[0] = s

@njit
def rows(a, out):
    row_sq(a, out)

@njit
def add_row(a, i, v):
    for j in range(a.shape[1]):
        a[i, j] += v

@njit
def add_rows(a):
    for i in range(a.shape[0]):
        add_row(a, i, 1.0)

@njit(boundscheck=False)
def add_row_unchecked(a, i, v):
    for j in range(a.shape[1]):
        a[i, j] += v

@njit(boundscheck=True)
def add_rows_checked(a):
    for i in range(a.shape[0]):
        add_row_unchecked(a, i, 1.0)
"#;

/// (allocations, loops) of the typed, lowered IR of `name` under `sig`.
fn shape_of(name: &str, sig: &str) -> (usize, usize) {
    let m = SourceModule::parse("fusion.py", SOURCE).expect("parses");
    let sig = parse_signature(sig).expect("signature");
    let p = m.specialize(name, &sig, None).expect("compiles");
    let f: &Function = &p.functions[0].func;
    let allocs = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| matches!(f.insts[i.index()].kind, InstKind::NewArray { .. }))
        .count();
    // A loop is a back edge: a jump to a block that comes earlier in reverse postorder.
    let order = f.reverse_postorder();
    let pos = |b: twinjit::ir::Block| order.iter().position(|&x| x == b).unwrap_or(usize::MAX);
    let loops = order
        .iter()
        .flat_map(|&b| f.blocks[b.index()].term.targets().into_iter().map(move |t| (b, t.block)))
        .filter(|&(from, to)| pos(to) <= pos(from))
        .count();
    (allocs, loops)
}

/// How many calls the lowered IR of `name` under `sig` makes.
fn calls_of(name: &str, sig: &str) -> usize {
    let m = SourceModule::parse("fusion.py", SOURCE).expect("parses");
    let p = m.specialize(name, &parse_signature(sig).expect("signature"), None).expect("compiles");
    let f: &Function = &p.functions[0].func;
    f.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(f.insts[i.index()].kind, InstKind::Call(..))).count()
}

// Every elementwise loop comes in two versions: one flat loop, taken when every operand has
// the result's shape and is C-contiguous at run time, and the broadcasting loop nest (one loop
// per dimension) for the rest. Only one of them runs. So an n-D expression has 1 + n loops;
// without fusion a three-operation chain would have three allocations and three times the loops.

#[test]
fn a_three_operation_chain_allocates_one_array_and_runs_one_loop() {
    assert_eq!(shape_of("chain", "(float64[::1], float64[::1])"), (1, 2));
    assert_eq!(shape_of("chain", "(float64[:], float64[:])"), (1, 2));
    assert_eq!(shape_of("chain", "(float64[:, :], float64[:, :])"), (1, 3));
}

#[test]
fn a_kept_temporary_is_computed_once_and_reused() {
    // `t` is used twice, so it is its own array; `t * t` is another: two arrays, two loops.
    assert_eq!(shape_of("kept", "(float64[::1], float64[::1])"), (2, 4));
}

#[test]
fn in_place_updates_and_slice_assignment_allocate_nothing() {
    assert_eq!(shape_of("in_place", "(float64[:], float64[:])"), (0, 2));
    assert_eq!(shape_of("into_slice", "(float64[::1], float64[::1])"), (0, 2));
}

#[test]
fn a_reduction_folds_its_expression_without_a_temporary() {
    // `np.sum(x * x + 1.0)` evaluates the expression inside the sum's loop: no array.
    assert_eq!(shape_of("reduce_chain", "(float64[::1],)"), (0, 2));
    assert_eq!(shape_of("reduce_chain", "(float64[:, :],)"), (0, 3));
}

#[test]
fn a_vectorize_ufunc_fuses_with_its_expression_and_its_element_function_is_inlined() {
    // `hyp(x, y) * 2.0 + 1.0`: one array, the flat loop and the broadcasting one, and no call
    // per element (the element function is copied into both loops).
    assert_eq!(shape_of("with_ufunc", "(float64[::1], float64[::1])"), (1, 2));
    assert_eq!(calls_of("with_ufunc", "(float64[::1], float64[::1])"), 0);
    // The ufunc itself, called from Rust (its `out` left to its None default).
    assert_eq!(shape_of("hyp", "(float64[::1], float64[::1])"), (1, 2));
    assert_eq!(calls_of("hyp", "(float64[::1], float64[::1])"), 0);
    // An element function that calls an `@njit` helper: both are copied into the loop (the
    // element function becomes a leaf once the helper is inlined into it).
    assert_eq!(calls_of("banded", "(float64[::1],)"), 0);
}

/// (blocks reachable, branches, selects) of the lowered IR of `name` under `sig`.
fn branches_of(name: &str, sig: &str) -> (usize, usize, usize) {
    let m = SourceModule::parse("fusion.py", SOURCE).expect("parses");
    let p = m.specialize(name, &parse_signature(sig).expect("signature"), None).expect("compiles");
    let f: &Function = &p.functions[0].func;
    let order = f.reverse_postorder();
    let branches =
        order.iter().filter(|b| matches!(f.blocks[b.index()].term, twinjit::ir::Terminator::Branch(..))).count();
    let selects = order
        .iter()
        .flat_map(|b| &f.blocks[b.index()].insts)
        .filter(|i| matches!(f.insts[i.index()].kind, InstKind::Select(..)))
        .count();
    (order.len(), branches, selects)
}

#[test]
fn a_piecewise_function_in_an_elementwise_loop_becomes_straight_line_code() {
    // Inlined into a loop whose only loop-carried value is its counter, `if_convert` turns the
    // whole chain of four `return`s into three selects (vector blends once the loop is
    // vectorised): no branch a CPU could mispredict on random amounts (issue 19's `CASE`-like
    // UDFs). The two versions of the loop (`loop_version`) each branch once per iteration,
    // and the entry tests twice.
    let (_, branches, selects) = branches_of("fees", "(float64[::1], float64[::1])");
    assert_eq!(selects, 6, "three per version of the loop");
    assert!(branches <= 4, "{branches} branches");
    // Called on its own, only the innermost `if` (two small `return`s) becomes a select: a
    // float select outside a vector loop is still a branch in Cranelift's x86-64 code.
    assert_eq!(branches_of("fee", "(float64,)"), (5, 2, 1));
}

#[test]
fn small_functions_of_arrays_are_inlined_where_bounds_are_checked_alike() {
    // A gufunc's kernel runs in its row loop with no call per row.
    assert_eq!(calls_of("rows", "(float64[:, ::1], float64[::1])"), 0);
    // An `@njit` helper that writes a row of its argument.
    assert_eq!(calls_of("add_rows", "(float64[:, ::1],)"), 0);
    // Compiled without bounds checks, called from a function with them: inlining would check
    // its accesses, so it stays a call.
    assert_eq!(calls_of("add_rows_checked", "(float64[:, ::1],)"), 1);
}
