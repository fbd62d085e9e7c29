//! Per-call overhead of a compiled function taking one slice and one int, through the
//! dispatcher and through a typed handle (a profiling target; `bench_host` reports the same).
//! Run: `cargo run --release --example call_overhead`

use std::hint::black_box;
use std::time::Instant;
use twinjit::{Engine, Target};

fn main() {
    let m = Engine::new(Target::Host)
        .unwrap()
        .load("o.py", "from numba import njit\n@njit\ndef f(a, n):\n    return n\n")
        .unwrap();
    let f = m.function("f").unwrap();
    let small = [1.0f64; 8];
    let spec = f.specialize((&small[..], 0i64)).unwrap();
    let calls = 5_000_000;
    for (label, typed) in [("dispatcher", false), ("typed handle", true)] {
        let t = Instant::now();
        for i in 0..calls {
            let r: i64 = if typed {
                spec.call_with((black_box(&small[..]), black_box(i as i64))).unwrap()
            } else {
                f.call((black_box(&small[..]), black_box(i as i64))).unwrap()
            };
            black_box(r);
        }
        println!("{label}: {:.1} ns/call", t.elapsed().as_secs_f64() * 1e9 / calls as f64);
    }
}
