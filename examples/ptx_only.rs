//! PTX without a GPU: compiles the vector-add kernel for sm_90 and prints the PTX (the same
//! text `twinjit ptx` prints). Needs the `cuda` feature (LLVM 19), not a GPU or CUDA.
//! Run: `cargo run --features cuda --example ptx_only`

use twinjit::{Engine, Target};

fn main() -> Result<(), twinjit::Error> {
    let engine = Engine::new(Target::Ptx { arch: "sm_90".into() })?;
    let module = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/cuda_kernels.py"))?;
    let ptx = module.ptx("vecadd", "void(float32[::1], float32[::1], float32[::1])")?;
    print!("{}", ptx.ptx);
    Ok(())
}
