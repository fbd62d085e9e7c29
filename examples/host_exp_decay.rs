//! `out[i] = exp(-rate * x[i])` over 1e7 float64, checked against Rust's `f64::exp`.
//! Run: `cargo run --release --example host_exp_decay`

use std::time::Instant;
use twinjit::{Engine, Target};

fn main() -> Result<(), twinjit::Error> {
    let engine = Engine::new(Target::Host)?;
    let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/host_kernels.py"))?;
    let f = module.function("exp_decay")?;
    let n = 10_000_000;
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 1e-6).collect();
    let mut out = vec![0f64; n];
    let spec = f.specialize((&x[..], 0.5f64, &mut out[..]))?;
    let t = Instant::now();
    spec.call_with::<()>((&x[..], 0.5f64, &mut out[..]))?;
    let run = t.elapsed();
    let ok = out.iter().zip(&x).all(|(&o, &xi)| o == (-0.5 * xi).exp());
    println!(
        "exp_decay n = {n}: bit-identical to Rust: {ok}; compile {:.2} ms, run {:.2} ms",
        spec.compile_time().as_secs_f64() * 1e3,
        run.as_secs_f64() * 1e3
    );
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
