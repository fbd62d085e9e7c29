//! Benchmark driver of arrays as values for `benches/compare/compare_arrays.py`: runs the
//! kernels of `examples/kernels/array_kernels.py` (allocation per loop pass, an allocating
//! function returning its result, views in a loop, a zeroed 2-D result, a list grown by
//! append, a sorted comprehension) and prints one JSON
//! object per line with the median and minimum time of one call, through a typed handle.
//! Run: `cargo run --release --example bench_arrays`

use std::hint::black_box;
use std::time::{Duration, Instant};
use twinjit::{ArgValue, Array, Engine, Target};

const SRC: &str = include_str!("kernels/array_kernels.py");

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

fn main() {
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine.load("array_kernels.py", SRC).unwrap();

    let f = m.function("temp_per_iteration").unwrap();
    let spec = f.specialize((100_000i64, 16i64)).unwrap();
    report(
        "temp_per_iteration",
        time(31, || {
            black_box(spec.call_with::<f64>((100_000i64, 16i64)).unwrap());
        }),
    );

    for n in [100usize, 100_000] {
        let x: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64 * 1e-3).collect();
        let f = m.function("normalized_copy").unwrap();
        let spec = f.specialize((&x[..],)).unwrap();
        let reps = if n < 1000 { 20_001 } else { 301 };
        report(
            &format!("normalized_copy_{n}"),
            time(reps, || {
                let out: Array = spec.call_with((&x[..],)).unwrap();
                black_box(out);
            }),
        );
    }

    let a: Vec<f64> = (0..100_000).map(|i| ((i * 2654435761u64 as usize) % 1000) as f64).collect();
    let f = m.function("window_max_sum").unwrap();
    let spec = f.specialize((&a[..], 16i64)).unwrap();
    report(
        "window_max_sum",
        time(31, || {
            black_box(spec.call_with::<f64>((&a[..], 16i64)).unwrap());
        }),
    );

    let f = m.function("zeros_grid").unwrap();
    let spec = f.specialize(vec![ArgValue::I64(1000), ArgValue::I64(1000)]).unwrap();
    report(
        "zeros_grid",
        time(31, || {
            let g: Array = spec.call_with((1000i64, 1000i64)).unwrap();
            black_box(g);
        }),
    );

    let f = m.function("primes_list").unwrap();
    let spec = f.specialize((200_000i64,)).unwrap();
    report(
        "primes_list",
        time(11, || {
            black_box(spec.call_with::<i64>((200_000i64,)).unwrap());
        }),
    );

    let x: Vec<f64> = (0..100_000u64).map(|i| ((i * 2654435761) % 100_003) as f64).collect();
    let f = m.function("sorted_squares").unwrap();
    let spec = f.specialize((&x[..],)).unwrap();
    report(
        "sorted_squares",
        time(11, || {
            black_box(spec.call_with::<f64>((&x[..],)).unwrap());
        }),
    );
}
