//! Benchmark driver of issue 15's NumPy-style suite for `benches/compare/compare_numpy.py`:
//! runs the kernels of `examples/kernels/numpy_kernels.py` on the same inputs as the Python
//! side and prints one JSON object per line with the median and minimum time of one call,
//! through a typed handle. Run: `cargo run --release --example bench_numpy`

use std::hint::black_box;
use std::time::{Duration, Instant};
use twinjit::{ArgValue, Array, Engine, Target};

const SRC: &str = include_str!("kernels/numpy_kernels.py");

/// (median, min) of `reps` timed calls after one warm-up call.
fn time(reps: usize, mut call: impl FnMut()) -> (Duration, Duration) {
    call();
    let mut v: Vec<Duration> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            call();
            t.elapsed()
        })
        .collect();
    v.sort();
    (v[v.len() / 2], v[0])
}

fn report(name: &str, (median, min): (Duration, Duration)) {
    println!(
        "{{\"kernel\": \"{name}\", \"run_us\": {:.4}, \"run_min_us\": {:.4}}}",
        median.as_secs_f64() * 1e6,
        min.as_secs_f64() * 1e6
    );
}

/// The inputs of the Python side: a multiplicative hash of the index, scaled to [0, 1).
fn hashed(n: usize, salt: u64) -> Vec<f64> {
    (0..n as u64).map(|i| ((i.wrapping_mul(2654435761).wrapping_add(salt)) % 1_000_003) as f64 / 1_000_003.0).collect()
}

fn main() {
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine.load("numpy_kernels.py", SRC).unwrap();
    let n = 10_000_000;
    let (x, y) = (hashed(n, 0), hashed(n, 12345));

    let spec = m.function("hypot").unwrap().specialize((&x[..], &y[..])).unwrap();
    report("hypot", time(7, || black_box(spec.call_with::<Array>((&x[..], &y[..])).unwrap()).drop_now()));
    let spec = m.function("zscore").unwrap().specialize((&x[..],)).unwrap();
    report("zscore", time(7, || black_box(spec.call_with::<Array>((&x[..],)).unwrap()).drop_now()));
    let spec = m.function("masked_sum").unwrap().specialize((&x[..],)).unwrap();
    report(
        "masked_sum",
        time(7, || {
            black_box(spec.call_with::<f64>((&x[..],)).unwrap());
        }),
    );
    let spec = m.function("running_sum").unwrap().specialize((&x[..],)).unwrap();
    report("cumsum", time(7, || black_box(spec.call_with::<Array>((&x[..],)).unwrap()).drop_now()));

    let s = hashed(1_000_000, 777);
    let spec = m.function("order").unwrap().specialize((&s[..],)).unwrap();
    report("argsort", time(5, || black_box(spec.call_with::<Array>((&s[..],)).unwrap()).drop_now()));

    let pts = hashed(2000 * 16, 99);
    let f = m.function("pairwise").unwrap();
    let spec = f.specialize(vec![ArgValue::array(&pts, &[2000, 16])]).unwrap();
    report(
        "pairwise",
        time(3, || {
            black_box(spec.call::<Array>(&[ArgValue::array(&pts, &[2000, 16])]).unwrap());
        }),
    );

    let (a, b) = (hashed(512 * 512, 1), hashed(512 * 512, 2));
    let f = m.function("matmul").unwrap();
    let spec = f.specialize(vec![ArgValue::array(&a, &[512, 512]), ArgValue::array(&b, &[512, 512])]).unwrap();
    report(
        "dot",
        time(5, || {
            black_box(
                spec.call::<Array>(&[ArgValue::array(&a, &[512, 512]), ArgValue::array(&b, &[512, 512])]).unwrap(),
            );
        }),
    );

    let spec = m.function("monte_carlo_pi").unwrap().specialize((n as i64,)).unwrap();
    report(
        "monte_carlo",
        time(5, || {
            black_box(spec.call_with::<f64>((n as i64,)).unwrap());
        }),
    );
}

trait DropNow {
    fn drop_now(self);
}

impl DropNow for Array {
    fn drop_now(self) {}
}
