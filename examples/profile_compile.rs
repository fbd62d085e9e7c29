//! Where a cold compile's time goes: front end (parse + lower), inference and passes, and
//! Cranelift, each timed over many repetitions of one kernel.
//! Run: `cargo run --release --example profile_compile`

use std::time::Instant;
use twinjit::{ArgValue, Engine, SourceModule, Target};

const SRC: &str = include_str!("kernels/host_kernels.py");

fn main() {
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        SourceModule::parse("k.py", SRC).unwrap();
    }
    let front = t.elapsed() / n;
    let m = SourceModule::parse("k.py", SRC).unwrap();
    let sig = twinjit::ir::parse_signature("(float64[:, ::1], float64)").unwrap();
    let t = Instant::now();
    for _ in 0..n {
        m.specialize("ising_energy", &sig, None).unwrap();
    }
    let middle = t.elapsed() / n;
    let engine = Engine::new(Target::Host).unwrap();
    let spins = vec![1.0f64; 4];
    let t = Instant::now();
    for _ in 0..n {
        let module = engine.load("k.py", SRC).unwrap();
        module.function("ising_energy").unwrap().specialize((ArgValue::array(&spins, &[2, 2]), 1.0f64)).unwrap();
    }
    let total = t.elapsed() / n;
    println!("front end (whole module, 10 functions): {front:?}");
    println!("inference + IR passes (ising_energy): {middle:?}");
    println!("total cold compile (load + specialise): {total:?}");
    println!("so Cranelift + JIT module: ~{:?}", total.saturating_sub(front + middle));
}
