//! `out[i] = exp(-rate * x[i])` on the GPU through a device function (libdevice's `__nv_exp`),
//! compared with the host's libm to within 2 ulp.
//! Run: `cargo run --release --features cuda --example cuda_exp_decay`

use twinjit::cuda::LaunchConfig;
use twinjit::Error;

mod common;

fn main() -> Result<(), Error> {
    let engine = common::cuda_engine()?;
    let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/cuda_kernels.py"))?;
    let k = module.kernel("exp_decay")?;
    let n = 1usize << 22;
    let rate = 0.75f64;
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 1e-5).collect();
    let dx = engine.to_device(&x)?;
    let dout = engine.zeros::<f64>(&[n])?;
    k.launch(LaunchConfig::linear(n.div_ceil(256) as u32, 256), (&dx, rate, &dout))?;
    engine.synchronize()?;
    let out = dout.to_vec().map_err(|e| Error::Cuda { kernel: None, message: e.to_string() })?;
    let mut worst = 0.0f64;
    for (o, xi) in out.iter().zip(&x) {
        let want = (-rate * xi).exp();
        worst = worst.max(((o - want) / want).abs());
    }
    println!("exp_decay: n = {n}, largest relative difference from the host's exp: {worst:.2e}");
    if worst > 5e-16 {
        eprintln!("too far from the host result");
        std::process::exit(1);
    }
    Ok(())
}
