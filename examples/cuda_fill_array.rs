//! The host example's `a[k] += 1` over 1e8 float64, as a grid-stride kernel, timed against the
//! host target on the same data.
//! Run: `cargo run --release --features cuda --example cuda_fill_array`

use std::time::Instant;
use twinjit::cuda::LaunchConfig;
use twinjit::{Engine, Error, Target};

mod common;

fn main() -> Result<(), Error> {
    let gpu = common::cuda_engine()?;
    let dir = env!("CARGO_MANIFEST_DIR");
    let kernel = gpu.load_file(format!("{dir}/examples/kernels/cuda_kernels.py"))?.kernel("fill_array")?;
    let n = 100_000_000usize;
    let a = vec![0.5f64; n];
    let da = gpu.to_device(&a)?;
    let sms = gpu.device().map(|d| d.properties().multiprocessors).unwrap_or(80);
    let cfg = LaunchConfig::linear(sms * 32, 256);
    let t = Instant::now();
    kernel.launch(cfg, (&da,))?;
    gpu.synchronize()?;
    let first = t.elapsed();
    let t = Instant::now();
    kernel.launch(cfg, (&da,))?;
    gpu.synchronize()?;
    let gpu_run = t.elapsed();
    let back = da.to_vec().map_err(|e| Error::Cuda { kernel: None, message: e.to_string() })?;
    let ok = back.iter().all(|&x| x == 2.5);

    let host = Engine::new(Target::Host)?;
    let fill = host.load_file(format!("{dir}/examples/kernels/host_kernels.py"))?.function("fill_array")?;
    let mut h = vec![0.5f64; n];
    let spec = fill.specialize((&mut h[..],))?;
    let t = Instant::now();
    spec.call_with::<()>((&mut h[..],))?;
    let host_run = t.elapsed();

    println!("fill_array: n = {n}, every element 2.5 after two launches: {ok}");
    println!(
        "GPU: first launch {:.1} ms (compile + load + run), second {:.3} ms ({:.0} GB/s); host: {:.1} ms; GPU/host speed-up {:.0}x",
        first.as_secs_f64() * 1e3,
        gpu_run.as_secs_f64() * 1e3,
        16.0 * n as f64 / gpu_run.as_secs_f64() / 1e9,
        host_run.as_secs_f64() * 1e3,
        host_run.as_secs_f64() / gpu_run.as_secs_f64()
    );
    if !ok || h.iter().any(|&x| x != 1.5) {
        std::process::exit(1);
    }
    Ok(())
}
