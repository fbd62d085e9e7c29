//! The README's main job: load a Numba-style module, call functions on the host target,
//! check results, and show what an error looks like. Needs nothing but Rust.
//! Run: `cargo run --release --example quickstart`

use std::time::Instant;
use twinjit::{ArgValue, Engine, Error, Target};

const SOURCE: &str = r#"
import math
from numba import njit

@njit
def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s

@njit
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

@njit
def divmod_py(a, b):
    return a // b, a % b

@njit
def ising_energy(s, j):
    n = s.shape[0]
    m = s.shape[1]
    e = 0.0
    for i in range(n):
        for k in range(m):
            e += s[i, k] * (s[i, (k + 1) % m] + s[(i + 1) % n, k])
    return -j * e
"#;

fn main() -> Result<(), Error> {
    let engine = Engine::new(Target::Host)?;
    println!("host: {}", twinjit::host_description());
    let module = engine.load("quickstart.py", SOURCE)?;

    let a: Vec<f64> = (0..1_000_000).map(|i| i as f64 * 0.001).collect();
    let t = Instant::now();
    let d: f64 = module.function("dot")?.call((&a[..], &a[..]))?;
    let want: f64 = a.iter().map(|x| x * x).sum::<f64>();
    println!(
        "dot(a, a) over 1e6 = {d:.6e} (Rust: {want:.6e}) in {:.2} ms incl. compile",
        t.elapsed().as_secs_f64() * 1e3
    );

    let t = Instant::now();
    let f: i64 = module.function("fib")?.call((30i64,))?;
    println!("fib(30) = {f} in {:.2} ms incl. compile", t.elapsed().as_secs_f64() * 1e3);

    let (q, r): (i64, i64) = module.function("divmod_py")?.call((-7i64, 2i64))?;
    println!("divmod_py(-7, 2) = ({q}, {r})  # Python semantics: floor division");

    let spins: Vec<f64> = (0..64 * 64).map(|i| if (i * 7919) % 3 == 0 { 1.0 } else { -1.0 }).collect();
    let e: f64 = module.function("ising_energy")?.call((ArgValue::array(&spins, &[64, 64]), 1.0f64))?;
    println!("ising_energy(64x64) = {e}");

    // Runtime errors come back as values, with the source location.
    match module.function("divmod_py")?.call::<(i64, i64)>((1i64, 0i64)) {
        Err(e) => println!("divmod_py(1, 0) -> {e}"),
        Ok(v) => println!("unexpected: {v:?}"),
    }
    // So does asking for a target this build cannot use: never a silent fallback.
    if let Err(e) = Engine::new(Target::Cuda { device: 0 }) {
        println!("Target::Cuda -> {e}");
    }
    let ok = (d - want).abs() <= 1e-9 * want && f == 832040 && (q, r) == (-4, 1);
    println!("all checks passed: {ok}");
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
