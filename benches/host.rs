//! Criterion benchmarks of the host target on the eight benchmark kernels of
//! `examples/kernels/host_kernels.py`: cold compile (front end to callable code), steady run,
//! and the per-call overhead through the dispatcher and a typed handle.
//! Run: `cargo bench --bench host` (the Numba comparison is `benches/compare/compare_numba.py`).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use twinjit::{ArgValue, Engine, Target};

const SRC: &str = include_str!("../examples/kernels/host_kernels.py");

fn engine_module() -> twinjit::Module {
    Engine::new(Target::Host).unwrap().load("host_kernels.py", SRC).unwrap()
}

fn benches(c: &mut Criterion) {
    let n = 10_000_000usize;
    let x: Vec<f64> = (0..n).map(|i| ((i * 2654435761) % 1000) as f64 * 1e-3).collect();
    let side = 2000usize;
    let spins: Vec<f64> = (0..side * side).map(|i| if (i * 7919 + 13) % 5 < 2 { 1.0 } else { -1.0 }).collect();
    let k = 256usize;
    let ma: Vec<f64> = (0..k * k).map(|i| (i % 17) as f64 * 0.5).collect();
    let mb: Vec<f64> = (0..k * k).map(|i| (i % 13) as f64 * 0.25).collect();
    let m = engine_module();

    let mut g = c.benchmark_group("compile");
    g.sample_size(20);
    g.bench_function("dot", |b| {
        b.iter(|| engine_module().function("dot").unwrap().specialize((&x[..8], &x[..8])).unwrap())
    });
    g.bench_function("ising_energy", |b| {
        b.iter(|| {
            engine_module()
                .function("ising_energy")
                .unwrap()
                .specialize((ArgValue::array(&spins[..4], &[2, 2]), 1.0f64))
                .unwrap()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("run");
    g.sample_size(10);
    let mut a = vec![0.0f64; n];
    let f = m.function("fill_array").unwrap();
    g.bench_function("fill_array", |b| b.iter(|| f.call::<()>((&mut a[..],)).unwrap()));
    let f = m.function("ising_energy").unwrap();
    g.bench_function("ising_energy", |b| {
        b.iter(|| black_box(f.call::<f64>((ArgValue::array(&spins, &[side, side]), 1.0f64)).unwrap()))
    });
    let mut img = vec![0i32; 1000 * 1000];
    let f = m.function("mandelbrot").unwrap();
    g.bench_function("mandelbrot", |b| {
        b.iter(|| f.call::<()>((ArgValue::array_mut(&mut img, &[1000, 1000]), 100i64)).unwrap())
    });
    let mut mc = vec![0.0f64; k * k];
    let f = m.function("matmul").unwrap();
    g.bench_function("matmul", |b| {
        b.iter(|| {
            f.call::<()>((
                ArgValue::array(&ma, &[k, k]),
                ArgValue::array(&mb, &[k, k]),
                ArgValue::array_mut(&mut mc, &[k, k]),
            ))
            .unwrap()
        })
    });
    let mut out = vec![0.0f64; n];
    let f = m.function("prefix_sum").unwrap();
    g.bench_function("prefix_sum", |b| b.iter(|| f.call::<()>((&x[..], &mut out[..])).unwrap()));
    let mut counts = vec![0i64; 100];
    let f = m.function("histogram").unwrap();
    g.bench_function("histogram", |b| b.iter(|| f.call::<()>((&x[..], 0.0f64, 1.0f64, &mut counts[..])).unwrap()));
    let f = m.function("dot").unwrap();
    g.bench_function("dot", |b| b.iter(|| black_box(f.call::<f64>((&x[..], &x[..])).unwrap())));
    let f = m.function("exp_decay").unwrap();
    g.bench_function("exp_decay", |b| b.iter(|| f.call::<()>((&x[..], 0.5f64, &mut out[..])).unwrap()));
    g.finish();

    let mut g = c.benchmark_group("call_overhead");
    let small = [1.0f64; 8];
    let f = m.function("call_overhead").unwrap();
    g.bench_function("dispatcher", |b| {
        b.iter(|| black_box(f.call::<i64>((black_box(&small[..]), black_box(3i64))).unwrap()))
    });
    let spec = f.specialize((&small[..], 0i64)).unwrap();
    g.bench_function("typed_handle", |b| {
        b.iter_batched(
            || (),
            |_| black_box(spec.call_with::<i64>((black_box(&small[..]), black_box(3i64))).unwrap()),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// The on-disk cache's host path: compiling a specialisation against loading its stored bytes
/// (`twinjit_host::load`: no inference, no Cranelift).
fn cache_load(c: &mut Criterion) {
    let src = "from numba import njit\n@njit\ndef sq(x):\n    return x * x + 1\n@njit\ndef sum_sq(n):\n    t = 0\n    for i in range(n):\n        t += sq(i)\n    return t\n";
    let m = twinjit::SourceModule::parse("b.py", src).unwrap();
    let sig = twinjit::ir::parse_signature("(int64,)").unwrap();
    let p = m.specialize("sum_sq", &sig, None).unwrap();
    let opts = twinjit_host::HostOptions::default();
    let bytes = twinjit_host::compile_with_artifact(&p, &opts).unwrap().to_bytes().unwrap();
    c.bench_function("cache/compile sum_sq (Cranelift)", |b| b.iter(|| twinjit_host::compile(black_box(&p), &opts)));
    c.bench_function("cache/load sum_sq (stored bytes)", |b| b.iter(|| twinjit_host::load(black_box(&bytes))));
    c.bench_function("cache/load sum_sq through a JITModule", |b| {
        b.iter(|| twinjit_host::load_through_jit_module(black_box(&bytes)))
    });
}

criterion_group!(host, benches, cache_load);
criterion_main!(host);
