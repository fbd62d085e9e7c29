//! The CUDA guide's classic mistake: 2048 threads per block. twinjit checks the launch against
//! the device's limits before calling the driver and names the limit, the value and the device.
//! The example catches the error, prints it and exits 0. Without a GPU it prints why the CUDA
//! target is unavailable, and also exits 0.
//! Run: `cargo run --release --features cuda --example cuda_launch_error`

use twinjit::cuda::LaunchConfig;
use twinjit::{Engine, Error, Target};

fn main() {
    let engine = match Engine::new(Target::Cuda { device: 0 }) {
        Ok(e) => e,
        Err(e) => {
            println!("no launch to try: {e}");
            return;
        }
    };
    let run = || -> Result<(), Error> {
        let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/cuda_kernels.py"))?;
        let k = module.kernel("vecadd")?;
        let n = 4096usize;
        let a = engine.to_device(&vec![1.0f32; n])?;
        let out = engine.zeros::<f32>(&[n])?;
        k.launch(LaunchConfig::linear(2, 2048), (&a, &a, &out))?;
        engine.synchronize()
    };
    match run() {
        Err(e) => println!("caught, as expected: {e}"),
        Ok(()) => {
            eprintln!("the 2048-thread launch was accepted; this device allows it?");
            std::process::exit(1);
        }
    }
}
