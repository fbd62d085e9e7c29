//! The CUDA programming guide's vector add: 2^24 + 11 float32 elements, 256 threads per block,
//! verified against the same sum computed on the host.
//! Run: `cargo run --release --features cuda --example cuda_vecadd`

use std::time::Instant;
use twinjit::cuda::LaunchConfig;
use twinjit::Error;

mod common;

fn main() -> Result<(), Error> {
    let engine = common::cuda_engine()?;
    let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/cuda_kernels.py"))?;
    let vecadd = module.kernel("vecadd")?;
    let n = (1usize << 24) + 11;
    let a: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32 - 3.0).collect();
    let (da, db) = (engine.to_device(&a)?, engine.to_device(&b)?);
    let dout = engine.zeros::<f32>(&[n])?;
    let block = 256u32;
    let grid = n.div_ceil(block as usize) as u32;
    let t = Instant::now();
    vecadd.launch(LaunchConfig::linear(grid, block), (&da, &db, &dout))?;
    engine.synchronize()?;
    let first = t.elapsed();
    let t = Instant::now();
    vecadd.launch(LaunchConfig::linear(grid, block), (&da, &db, &dout))?;
    engine.synchronize()?;
    let second = t.elapsed();
    let out = dout.to_vec().map_err(|e| Error::Cuda { kernel: None, message: e.to_string() })?;
    let bad = out.iter().zip(a.iter().zip(&b)).filter(|(o, (x, y))| **o != **x + **y).count();
    println!(
        "vecadd on {}: n = {n}, grid {grid} x block {block}",
        engine.device().map(|d| d.properties().name.clone()).unwrap_or_default()
    );
    println!(
        "first launch (compile + load + run) {:.1} ms, second {:.3} ms",
        first.as_secs_f64() * 1e3,
        second.as_secs_f64() * 1e3
    );
    println!("verified against the host: {} of {n} elements differ", bad);
    if bad != 0 {
        std::process::exit(1);
    }
    Ok(())
}
