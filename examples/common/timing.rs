//! Timing for the benchmark drivers (`#[path = "common/timing.rs"] mod timing;`).

use std::time::{Duration, Instant};
use twinjit::Function;

/// (median, min) of `reps` timed calls after one warm-up call.
pub fn time_calls(f: &Function, reps: usize, mut call: impl FnMut(&Function)) -> (Duration, Duration) {
    call(f);
    let mut v: Vec<Duration> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            call(f);
            t.elapsed()
        })
        .collect();
    v.sort();
    (v[v.len() / 2], v[0])
}
