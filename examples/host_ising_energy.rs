//! 2-D Ising energy with periodic boundaries (2000 x 2000 spins), checked against Rust.
//! Run: `cargo run --release --example host_ising_energy`

use std::time::Instant;
use twinjit::{ArgValue, Engine, Target};

fn main() -> Result<(), twinjit::Error> {
    let engine = Engine::new(Target::Host)?;
    let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/host_kernels.py"))?;
    let f = module.function("ising_energy")?;
    let n = 2000usize;
    // A deterministic pseudo-random spin field.
    let mut state = 12345u64;
    let spins: Vec<f64> = (0..n * n)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if state >> 63 == 1 {
                1.0
            } else {
                -1.0
            }
        })
        .collect();
    let t = Instant::now();
    let e: f64 = f.call((ArgValue::array(&spins, &[n, n]), 1.0f64))?;
    let first = t.elapsed();
    let t = Instant::now();
    let e2: f64 = f.call((ArgValue::array(&spins, &[n, n]), 1.0f64))?;
    let steady = t.elapsed();
    let mut want = 0.0;
    for i in 0..n {
        for k in 0..n {
            let s = spins[i * n + k];
            want += s * (spins[i * n + (k + 1) % n] + spins[((i + 1) % n) * n + k]);
        }
    }
    let want = -want;
    let ok = e == want && e2 == want;
    println!("ising_energy {n}x{n}: {e} (Rust reference {want}) match: {ok}");
    println!(
        "first call (compile + run) {:.2} ms, steady call {:.2} ms",
        first.as_secs_f64() * 1e3,
        steady.as_secs_f64() * 1e3
    );
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
