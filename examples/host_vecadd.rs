//! Vector add of 2^24 float32 on the host target, checked element by element.
//! Run: `cargo run --release --example host_vecadd`

use std::time::Instant;
use twinjit::{Engine, Target};

fn main() -> Result<(), twinjit::Error> {
    let engine = Engine::new(Target::Host)?;
    let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/host_kernels.py"))?;
    let f = module.function("vecadd")?;
    let n = 1 << 24;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (2 * i) as f32).collect();
    let mut out = vec![0f32; n];
    let spec = f.specialize((&a[..], &b[..], &mut out[..]))?;
    let t = Instant::now();
    spec.call_with::<()>((&a[..], &b[..], &mut out[..]))?;
    let run = t.elapsed();
    let ok = out.iter().enumerate().all(|(i, &x)| x == a[i] + b[i]);
    println!(
        "vecadd n = {n}: correct: {ok}; compile {:.2} ms, run {:.2} ms",
        spec.compile_time().as_secs_f64() * 1e3,
        run.as_secs_f64() * 1e3
    );
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
