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

/// [`packed`] for a function of another corpus file.
fn packed_in(file: &str, func: &str, sig: &str) -> bool {
    let engine = Engine::new(Target::Host).expect("host engine");
    let path = format!("{}/tests/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
    let module = engine.load_file(&path).expect("loads");
    let sig = parse_signature(sig).expect("signature");
    let (_, asm) = Specialization::listings(&module, func, &sig).expect("compiles");
    let text: String = asm.iter().map(|(_, t)| t.as_str()).collect();
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
        ("doubling_chain", "(float64[::1],)"),
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
