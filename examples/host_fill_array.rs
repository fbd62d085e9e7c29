//! The `a[k] += 1` loop over 1e8 float64 on the host target.
//! Run: `cargo run --release --example host_fill_array`

use std::time::Instant;
use twinjit::{Engine, Target};

fn main() -> Result<(), twinjit::Error> {
    let engine = Engine::new(Target::Host)?;
    let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/host_kernels.py"))?;
    let fill = module.function("fill_array")?;
    let n = 100_000_000usize;
    let mut a = vec![0.5f64; n];
    let t = Instant::now();
    let spec = fill.specialize((&mut a[..],))?;
    let compile = t.elapsed();
    let t = Instant::now();
    spec.call_with::<()>((&mut a[..],))?;
    let run = t.elapsed();
    let ok = a.iter().all(|&x| x == 1.5);
    println!("fill_array: n = {n}, every element 1.5: {ok}");
    println!(
        "compile {:.2} ms, run {:.1} ms ({:.2} ns/element)",
        compile.as_secs_f64() * 1e3,
        run.as_secs_f64() * 1e3,
        run.as_secs_f64() * 1e9 / n as f64
    );
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
