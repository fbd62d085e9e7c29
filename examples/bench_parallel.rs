//! Parallel host benchmark driver for `benches/compare/compare_parallel.py`: runs the
//! `parallel=True` kernels of `examples/kernels/parallel_kernels.py` with the whole thread pool
//! and with one thread, and prints one JSON object per line (median and minimum run times).
//! Run: `cargo run --release --example bench_parallel`

#[path = "common/timing.rs"]
mod timing;

use std::time::Duration;
use timing::time_calls;
use twinjit::{Engine, Target};

const SRC: &str = include_str!("kernels/parallel_kernels.py");
const SERIAL: &str = include_str!("kernels/host_kernels.py");

fn main() {
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine.load("parallel_kernels.py", SRC).unwrap();
    let serial = engine.load("host_kernels.py", SERIAL).unwrap();
    let n = 10_000_000usize;
    let reps = 11;
    let side = 2000usize;
    let spins: Vec<f64> = (0..side * side).map(|i| if (i * 7919 + 13) % 5 < 2 { 1.0 } else { -1.0 }).collect();
    let x: Vec<f64> = (0..n as u64).map(|i| ((i * 2654435761) % 1000) as f64 * 1e-3).collect();
    let mut img = vec![0i32; 1000 * 1000];
    let mut partial = vec![0i64; 64 * 100];
    let mut out = vec![0.0f64; n];
    let all = twinjit::parallel::max_threads();
    // threads 0: the `range` versions of the same kernels (host_kernels.py; its histogram
    // counts into one row).
    for threads in [all, 1, 0] {
        let m = if threads == 0 { &serial } else { &m };
        twinjit::parallel::set_num_threads(threads.max(1));
        let run = |name: &str, t: (Duration, Duration)| {
            println!(
                "{{\"kernel\": \"{name}\", \"threads\": {threads}, \"run_ms\": {:.4}, \"run_min_ms\": {:.4}}}",
                t.0.as_secs_f64() * 1e3,
                t.1.as_secs_f64() * 1e3
            );
        };
        let f = m.function("mandelbrot").unwrap();
        run(
            "mandelbrot",
            time_calls(&f, 5, |f| {
                f.call::<()>((twinjit::ArgValue::array_mut(&mut img, &[1000, 1000]), 100i64)).unwrap()
            }),
        );
        let f = m.function("ising_energy").unwrap();
        run(
            "ising_energy",
            time_calls(&f, reps, |f| {
                std::hint::black_box(f.call::<f64>((twinjit::ArgValue::array(&spins, &[side, side]), 1.0f64)).unwrap());
            }),
        );
        let f = m.function("histogram").unwrap();
        run(
            "histogram",
            time_calls(&f, reps, |f| {
                partial.iter_mut().for_each(|c| *c = 0);
                if threads == 0 {
                    f.call::<()>((&x[..], 0.0f64, 1.0f64, &mut partial[..100])).unwrap();
                } else {
                    let p = twinjit::ArgValue::array_mut(&mut partial, &[64, 100]);
                    std::hint::black_box(f.call::<i64>((&x[..], 0.0f64, 1.0f64, p)).unwrap());
                }
            }),
        );
        let f = m.function("dot").unwrap();
        run(
            "dot",
            time_calls(&f, reps, |f| {
                std::hint::black_box(f.call::<f64>((&x[..], &x[..])).unwrap());
            }),
        );
        let f = m.function("exp_decay").unwrap();
        run("exp_decay", time_calls(&f, reps, |f| f.call::<()>((&x[..], 0.5f64, &mut out[..])).unwrap()));
    }
}
