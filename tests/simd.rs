//! Which loops the host runs in vector registers (the results are checked by the corpus:
//! `tests/kernels/simd_loops.py` under `corpus_host`, equal to Numba's and the interpreter's).
//! Here: the machine code of the loops that qualify has packed arithmetic, and that of the ones
//! that do not (a strided view) has none.

use twinjit::{Engine, Specialization, Target};
use twinjit_ir::parse_signature;

/// Whether the machine code of `func` for `sig` has packed (vector) float instructions.
fn packed(func: &str, sig: &str) -> bool {
    packed_in("simd_loops.py", func, sig)
}

/// The machine code of `func` of corpus file `file` for `sig`.
fn listing(file: &str, func: &str, sig: &str) -> String {
    let engine = Engine::new(Target::Host).expect("host engine");
    let path = format!("{}/tests/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
    let module = engine.load_file(&path).expect("loads");
    let sig = parse_signature(sig).expect("signature");
    let (_, asm) = Specialization::listings(&module, func, &sig).expect("compiles");
    asm.iter().map(|(_, t)| t.as_str()).collect()
}

/// Whether the machine code has packed integer arithmetic (`paddq`, `vpsubq`, `pmuludq`).
fn packed_int(file: &str, func: &str, sig: &str) -> bool {
    listing(file, func, sig).lines().any(|l| {
        let op = l.split_whitespace().next().unwrap_or("");
        let op = op.strip_prefix('v').unwrap_or(op);
        ["padd", "psub", "pmul"].iter().any(|p| op.starts_with(p))
    })
}

/// [`packed`] for a function of another corpus file.
fn packed_in(file: &str, func: &str, sig: &str) -> bool {
    let text = listing(file, func, sig);
    // `addpd`/`vaddpd`, `mulps`, `sqrtpd`, `movupd`, ...: an instruction on packed doubles or
    // singles (scalar ones end in `sd`/`ss`).
    text.lines().any(|l| {
        let op = l.split_whitespace().next().unwrap_or("");
        ["add", "sub", "mul", "div", "sqrt", "movup"].iter().any(|p| op.contains(p))
            && (op.ends_with("pd") || op.ends_with("ps"))
    })
}

#[test]
fn elementwise_loops_run_in_vectors() {
    for (func, sig) in [
        ("scale_shift", "(float64[::1], float64, float64)"),
        ("f32_mix", "(float32[::1],)"),
        ("in_place_square", "(float64[::1],)"),
        ("rows_normalised", "(float64[:, ::1],)"),
        ("specials", "(float64[::1],)"),
        ("expr_loop", "(float64[::1], float64[::1])"),
        // Vectorised with a run-time overlap test that sends these inputs to the scalar loop.
        // (`doubling_chain`, `a[i + 1] = a[i] * 2.0`, is not: `forward_store` carries the value
        // it stores to the next iteration, so its loop is a scalar recurrence with no load.)
        ("two_apart", "(float64[::1],)"),
        ("two_apart_f32", "(float32[::1],)"),
    ] {
        assert!(packed(func, sig), "{func}{sig} has no packed instructions");
    }
}

#[test]
fn strided_loops_stay_scalar() {
    // `a[::2]`: the element offset grows by the stride, not by one.
    assert!(!packed("every_other", "(float64[::1],)"));
}

/// A loop indexing an array with a length of its own keeps a bounds check per element; the
/// copy `loop_version` makes for when the lengths fit has none, so it runs in vectors.
#[test]
fn versioned_loops_run_in_vectors() {
    assert!(packed_in("loop_versions.py", "scaled_into", "(float64[::1], float64[::1], float64)"));
}

/// Integer reductions run in vectors always (they wrap, so every order gives the same bits);
/// float reductions only under `fastmath=True` (`tests/kernels/simd_reductions.py` checks the
/// results against Numba's).
#[test]
fn reductions_run_in_vectors_where_the_order_may_change() {
    for (func, sig) in [
        ("int_sum", "(int64[::1],)"),
        ("folds", "(int64[::1],)"),
        ("int_dot", "(int64[::1], int64[::1], int64)"),
        ("scaled_total", "(int64[::1], int64)"),
        ("row_sums", "(int64[:, ::1],)"),
        // Conditional updates (`if a[i] > t: c += 1`): a compare of float64 lanes selects
        // between the step and zero for an int64 count.
        ("count_above", "(float64[::1], float64)"),
        ("int_positive_sum", "(int64[::1],)"),
    ] {
        assert!(packed_int("simd_reductions.py", func, sig), "{func}{sig} has no packed integer instructions");
    }
    for (func, sig) in [
        ("fm_sum", "(float64[::1],)"),
        ("fm_dot32", "(float32[::1], float32[::1])"),
        ("fm_prod_sub", "(float64[::1],)"),
        ("fm_masked_sum", "(float64[::1], float64)"),
    ] {
        assert!(packed_in("simd_reductions.py", func, sig), "{func}{sig} has no packed instructions");
    }
    // Without fastmath a float sum keeps Python's order: no vector loop.
    assert!(!packed_in("simd_reductions.py", "ordered_sum", "(float64[::1],)"));
}

const REDUCTIONS: &str = r#"
from numba import njit

@njit
def folds(a, start):
    s = start
    d = start
    p = 1
    x = 0
    o = 0
    n = -1
    for i in range(a.shape[0]):
        v = a[i]
        s += v
        d -= v * 3
        p *= v
        x ^= v
        o |= v + 7
        n &= ~v
    return s, d, p, x, o, n

@njit(fastmath=True)
def fm_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * 2.0
    return s

@njit
def counts(x, t, a):
    c = 0
    p = 0
    for i in range(x.shape[0]):
        if x[i] > t:
            c += 1
        if a[i] > 0:
            p += a[i]
    return c, p
"#;

fn reductions_module() -> &'static twinjit::Module {
    static M: std::sync::OnceLock<twinjit::Module> = std::sync::OnceLock::new();
    M.get_or_init(|| Engine::new(Target::Host).unwrap().load("reductions.py", REDUCTIONS).unwrap())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// On every length (the vector loop, its unrolled form and the scalar tail all take part)
    /// and on values that wrap, the vectorised integer folds give what a plain Rust fold gives.
    #[test]
    fn vector_integer_reductions_equal_a_sequential_fold(
        a in proptest::collection::vec(proptest::prop_oneof![proptest::prelude::any::<i64>(), -9i64..9], 0..41),
        start in proptest::prelude::any::<i64>(),
    ) {
        let f = reductions_module().function("folds").unwrap();
        let got: (i64, i64, i64, i64, i64, i64) = f.call((&a[..], start)).unwrap();
        let mut want = (start, start, 1i64, 0i64, 0i64, -1i64);
        for &v in &a {
            want.0 = want.0.wrapping_add(v);
            want.1 = want.1.wrapping_sub(v.wrapping_mul(3));
            want.2 = want.2.wrapping_mul(v);
            want.3 ^= v;
            want.4 |= v.wrapping_add(7);
            want.5 &= !v;
        }
        proptest::prop_assert_eq!(got, want);
    }

    /// A fastmath float sum of small integers is exact in every order.
    #[test]
    fn fastmath_sums_of_exact_values(a in proptest::collection::vec(-1000i32..1000, 0..41)) {
        let xs: Vec<f64> = a.iter().map(|&v| v as f64).collect();
        let f = reductions_module().function("fm_sum").unwrap();
        let got: f64 = f.call((&xs[..],)).unwrap();
        proptest::prop_assert_eq!(got, xs.iter().map(|x| x * 2.0).sum::<f64>());
    }
}

/// The loops left scalar (a float sum without fastmath keeps Python's order) run two iterations
/// per trip (`unroll`): the checked loop and the check-free copy `loop_version` makes each get
/// a two-iteration body in front of the one-iteration loop, so the listing multiplies at least
/// four times where the rolled loops multiplied twice.
#[test]
fn scalar_loops_run_two_iterations_per_trip() {
    let text = listing("unrolled_loops.py", "ordered_dot", "(float64[::1], float64[::1])");
    let muls = text.lines().filter(|l| l.split_whitespace().next().is_some_and(|op| op.ends_with("mulsd"))).count();
    assert!(muls >= 4, "{muls} scalar multiplications:\n{text}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Conditional updates count and sum the lanes where the condition holds (a NaN compares
    /// false), as a sequential loop does.
    #[test]
    fn vector_conditional_reductions_equal_a_sequential_loop(
        xs in proptest::collection::vec(proptest::prop_oneof![-4.0f64..4.0, proptest::strategy::Just(f64::NAN)], 0..41),
        t in -2.0f64..2.0,
        seed in proptest::prelude::any::<i64>(),
    ) {
        let a: Vec<i64> = (0..xs.len() as i64).map(|k| seed.wrapping_mul(k + 1).rotate_left(k as u32)).collect();
        let f = reductions_module().function("counts").unwrap();
        let got: (i64, i64) = f.call((&xs[..], t, &a[..])).unwrap();
        let want = (
            xs.iter().filter(|&&x| x > t).count() as i64,
            a.iter().filter(|&&v| v > 0).fold(0i64, |s, &v| s.wrapping_add(v)),
        );
        proptest::prop_assert_eq!(got, want);
    }
}
