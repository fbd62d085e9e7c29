//! User-ufunc benchmark driver for `benches/compare/compare_ufunc.py`: calls the `@vectorize`
//! and `@guvectorize` functions of `examples/kernels/ufunc_kernels.py` from Rust on the inputs
//! the script gives Numba, and prints one JSON object per line (median and minimum run times).
//! Run: `cargo run --release --example bench_ufunc`

#[path = "common/numpy_alloc.rs"]
mod numpy_alloc;
#[path = "common/timing.rs"]
mod timing;

use numpy_alloc::numpy_vec;
use std::time::Duration;
use timing::time_calls;
use twinjit::{ArgValue, Array, Engine, Target};

const SRC: &str = include_str!("kernels/ufunc_kernels.py");

fn main() {
    let m = Engine::new(Target::Host).unwrap().load("ufunc_kernels.py", SRC).unwrap();
    let n = 10_000_000usize;
    let reps = 11;
    // The inputs compare_ufunc.py builds with NumPy, in memory advised as NumPy advises its own
    // (huge pages from 4 MiB).
    let x: Vec<f64> = numpy_vec(n, |i| ((i as u64 * 2654435761) % 1000) as f64 * 1e-3);
    let y: Vec<f64> = numpy_vec(n, |i| ((i as u64 * 40503) % 997) as f64 * 1e-3);
    let z: Vec<f64> = numpy_vec(n, |i| 40.0 * x[i] - 10.0);
    let w: Vec<f64> = numpy_vec(n, |i| x[i] * 200000.0);
    let mut out = numpy_vec(n, |_| 1.0f64);
    let run = |name: &str, t: (Duration, Duration)| {
        println!(
            "{{\"kernel\": \"{name}\", \"run_ms\": {:.4}, \"run_min_ms\": {:.4}}}",
            t.0.as_secs_f64() * 1e3,
            t.1.as_secs_f64() * 1e3
        );
    };
    let f = m.function("hypot2").unwrap();
    run(
        "hypot2 (new array)",
        time_calls(&f, reps, |f| drop(std::hint::black_box(f.call::<Array>((&x[..], &y[..])).unwrap()))),
    );
    run(
        "hypot2 (out=)",
        time_calls(&f, reps, |f| {
            let twinjit::Ignored = f.call((&x[..], &y[..], &mut out[..])).unwrap();
        }),
    );
    let f = m.function("clamp").unwrap();
    run(
        "clamp (lazy, scalars broadcast)",
        time_calls(&f, reps, |f| drop(std::hint::black_box(f.call::<Array>((&z[..], 0.0f64, 20.0f64)).unwrap()))),
    );
    let f = m.function("income_tax").unwrap();
    run(
        "income_tax (4 pieces, out=)",
        time_calls(&f, reps, |f| {
            let twinjit::Ignored = f.call((&w[..], &mut out[..])).unwrap();
        }),
    );
    let f = m.function("softplus_serial").unwrap();
    run("softplus", time_calls(&f, 5, |f| drop(std::hint::black_box(f.call::<Array>((&z[..],)).unwrap()))));
    let f = m.function("softplus").unwrap();
    run(
        "softplus (target='parallel')",
        time_calls(&f, 5, |f| drop(std::hint::black_box(f.call::<Array>((&z[..],)).unwrap()))),
    );
    let f = m.function("row_norm").unwrap();
    let rows = ArgValue::array(&x, &[n / 100, 100]);
    run(
        "row_norm (gufunc, 1e5 x 100)",
        time_calls(&f, reps, |f| drop(std::hint::black_box(f.call::<Array>((rows,)).unwrap()))),
    );
    // The cost of a call on tiny inputs (what the per-element loop does not pay).
    let f = m.function("hypot2").unwrap();
    let (a1, b1) = ([1.0f64], [2.0f64]);
    run(
        "call overhead (1 element)",
        time_calls(&f, 1001, |f| drop(std::hint::black_box(f.call::<Array>((&a1[..], &b1[..])).unwrap()))),
    );
}
