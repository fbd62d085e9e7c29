//! Host benchmark driver for `benches/compare/compare_numba.py`: runs the eight benchmark
//! kernels of `examples/kernels/host_kernels.py` and prints one JSON object per line with the
//! cold compile time (front end to callable code), the steady run time (median), and the
//! per-call overhead through the dispatcher and through a typed handle.
//! Run: `cargo run --release --example bench_host`

use std::hint::black_box;
use std::time::{Duration, Instant};
use twinjit::{ArgValue, Engine, Function, Target, Value};

#[path = "common/numpy_alloc.rs"]
mod numpy_alloc;
use numpy_alloc::numpy_vec;

const SRC: &str = include_str!("kernels/host_kernels.py");

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn min(v: &[Duration]) -> Duration {
    v.iter().copied().min().unwrap_or_default()
}

/// Cold compile: a fresh engine loads the source (front end over the whole module) and
/// compiles one signature (inference, passes, Cranelift). Returns (total, specialise only).
fn cold(name: &str, args: Vec<ArgValue>) -> (Duration, Duration) {
    let t = Instant::now();
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine.load("host_kernels.py", SRC).unwrap();
    let t1 = Instant::now();
    m.function(name).unwrap().specialize(args).unwrap();
    (t.elapsed(), t1.elapsed())
}

/// The cold compile figures of `name` over five fresh engines.
fn cold5(name: &str, args: impl Fn() -> Vec<ArgValue<'static>>) -> (Duration, Duration) {
    median2((0..5).map(|_| cold(name, args())).collect())
}

fn median2(v: Vec<(Duration, Duration)>) -> (Duration, Duration) {
    (median(v.iter().map(|x| x.0).collect()), median(v.iter().map(|x| x.1).collect()))
}

/// (median, min) of `reps` timed calls after one warm-up call.
fn time_calls(f: &Function, reps: usize, mut call: impl FnMut(&Function)) -> (Duration, Duration) {
    call(f);
    let v: Vec<Duration> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            call(f);
            t.elapsed()
        })
        .collect();
    (median(v.clone()), min(&v))
}

fn report(name: &str, compile: (Duration, Duration), run: (Duration, Duration)) {
    println!(
        "{{\"kernel\": \"{name}\", \"compile_ms\": {:.4}, \"specialize_ms\": {:.4}, \"run_ms\": {:.4}, \"run_min_ms\": {:.4}}}",
        compile.0.as_secs_f64() * 1e3,
        compile.1.as_secs_f64() * 1e3,
        run.0.as_secs_f64() * 1e3,
        run.1.as_secs_f64() * 1e3
    );
}

fn main() {
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine.load("host_kernels.py", SRC).unwrap();
    let n = 10_000_000usize;
    let reps = 15;

    let mut a = numpy_vec(n, |_| 0.0f64);
    let f = m.function("fill_array").unwrap();
    let c = median2((0..5).map(|_| cold("fill_array", vec![ArgValue::array_mut(&mut a, &[n])])).collect());
    report("fill_array", c, time_calls(&f, reps, |f| f.call::<()>((&mut a[..],)).unwrap()));

    let side = 2000usize;
    let spins: Vec<f64> = numpy_vec(side * side, |i| if (i * 7919 + 13) % 5 < 2 { 1.0 } else { -1.0 });
    let f = m.function("ising_energy").unwrap();
    let c = median2(
        (0..5)
            .map(|_| cold("ising_energy", vec![ArgValue::array(&spins, &[side, side]), ArgValue::F64(1.0)]))
            .collect(),
    );
    report(
        "ising_energy",
        c,
        time_calls(&f, reps, |f| {
            black_box(f.call::<f64>((ArgValue::array(&spins, &[side, side]), 1.0f64)).unwrap());
        }),
    );
    let f = m.function("ising_field").unwrap();
    let c = median2(
        (0..5)
            .map(|_| {
                cold(
                    "ising_field",
                    vec![ArgValue::array(&spins, &[side, side]), ArgValue::F64(1.0), ArgValue::F64(0.5)],
                )
            })
            .collect(),
    );
    report(
        "ising_field",
        c,
        time_calls(&f, reps, |f| {
            black_box(f.call::<f64>((ArgValue::array(&spins, &[side, side]), 1.0f64, 0.5f64)).unwrap());
        }),
    );

    let mut img = numpy_vec(1000 * 1000, |_| 0i32);
    let f = m.function("mandelbrot").unwrap();
    let c = median2(
        (0..5)
            .map(|_| cold("mandelbrot", vec![ArgValue::array_mut(&mut img, &[1000, 1000]), ArgValue::I64(100)]))
            .collect(),
    );
    report(
        "mandelbrot",
        c,
        time_calls(&f, 7, |f| f.call::<()>((ArgValue::array_mut(&mut img, &[1000, 1000]), 100i64)).unwrap()),
    );

    let k = 256usize;
    let ma: Vec<f64> = (0..k * k).map(|i| (i % 17) as f64 * 0.5).collect();
    let mb: Vec<f64> = (0..k * k).map(|i| (i % 13) as f64 * 0.25).collect();
    let mut mc = vec![0.0f64; k * k];
    let f = m.function("matmul").unwrap();
    let c = median2(
        (0..5)
            .map(|_| {
                cold(
                    "matmul",
                    vec![
                        ArgValue::array(&ma, &[k, k]),
                        ArgValue::array(&mb, &[k, k]),
                        ArgValue::array_mut(&mut mc, &[k, k]),
                    ],
                )
            })
            .collect(),
    );
    report(
        "matmul",
        c,
        time_calls(&f, reps, |f| {
            f.call::<()>((
                ArgValue::array(&ma, &[k, k]),
                ArgValue::array(&mb, &[k, k]),
                ArgValue::array_mut(&mut mc, &[k, k]),
            ))
            .unwrap()
        }),
    );

    let x: Vec<f64> = numpy_vec(n, |i| ((i * 2654435761) % 1000) as f64 * 1e-3);
    let mut out = numpy_vec(n, |_| 0.0f64);
    let f = m.function("prefix_sum").unwrap();
    let c = median2(
        (0..5)
            .map(|_| cold("prefix_sum", vec![ArgValue::array(&x, &[n]), ArgValue::array_mut(&mut out, &[n])]))
            .collect(),
    );
    report("prefix_sum", c, time_calls(&f, reps, |f| f.call::<()>((&x[..], &mut out[..])).unwrap()));

    let mut counts = vec![0i64; 100];
    let f = m.function("histogram").unwrap();
    let c = median2(
        (0..5)
            .map(|_| {
                cold(
                    "histogram",
                    vec![
                        ArgValue::array(&x, &[n]),
                        ArgValue::F64(0.0),
                        ArgValue::F64(1.0),
                        ArgValue::array_mut(&mut counts, &[100]),
                    ],
                )
            })
            .collect(),
    );
    report("histogram", c, time_calls(&f, reps, |f| f.call::<()>((&x[..], 0.0f64, 1.0f64, &mut counts[..])).unwrap()));

    let f = m.function("dot").unwrap();
    let c = median2((0..5).map(|_| cold("dot", vec![ArgValue::array(&x, &[n]), ArgValue::array(&x, &[n])])).collect());
    report(
        "dot",
        c,
        time_calls(&f, reps, |f| {
            black_box(f.call::<f64>((&x[..], &x[..])).unwrap());
        }),
    );

    let f = m.function("exp_decay").unwrap();
    let c = median2(
        (0..5)
            .map(|_| {
                cold(
                    "exp_decay",
                    vec![ArgValue::array(&x, &[n]), ArgValue::F64(0.5), ArgValue::array_mut(&mut out, &[n])],
                )
            })
            .collect(),
    );
    report("exp_decay", c, time_calls(&f, reps, |f| f.call::<()>((&x[..], 0.5f64, &mut out[..])).unwrap()));

    // The variants: the same kernels written the other ways users write them. Their inputs
    // live for the whole run (leaked), so that one closure can make the arguments of every
    // call, cold or timed.
    let x: &'static [f64] = Box::leak(x.into_boxed_slice());
    let spins: &'static [f64] = Box::leak(spins.into_boxed_slice());
    let (ma, mb): (&'static [f64], &'static [f64]) =
        (Box::leak(ma.into_boxed_slice()), Box::leak(mb.into_boxed_slice()));
    let buf = |len: usize| -> *mut f64 { Box::leak(numpy_vec(len, |_| 0.0f64).into_boxed_slice()).as_mut_ptr() };
    let (out_p, mc_p) = (buf(n), buf(k * k));
    let img_p: *mut i32 = Box::leak(numpy_vec(1000 * 1000, |_| 0i32).into_boxed_slice()).as_mut_ptr();
    let counts_p: *mut i64 = Box::leak(vec![0i64; 100].into_boxed_slice()).as_mut_ptr();
    let shape = |d: &[usize]| -> &'static [usize] { Box::leak(d.to_vec().into_boxed_slice()) };
    let (s_n, s_kk, s_img, s_100, s_side) =
        (shape(&[n]), shape(&[k, k]), shape(&[1000, 1000]), shape(&[100]), shape(&[side, side]));
    // SAFETY: each pointer is a leaked buffer of the given length; one call at a time uses it.
    let out = move || ArgValue::array_mut(unsafe { std::slice::from_raw_parts_mut(out_p, n) }, s_n);
    let mc = move || ArgValue::array_mut(unsafe { std::slice::from_raw_parts_mut(mc_p, k * k) }, s_kk);
    let img = move || ArgValue::array_mut(unsafe { std::slice::from_raw_parts_mut(img_p, 1000 * 1000) }, s_img);
    let counts = move || ArgValue::array_mut(unsafe { std::slice::from_raw_parts_mut(counts_p, 100) }, s_100);
    let xs = move || ArgValue::array(x, s_n);
    type Args = Box<dyn Fn() -> Vec<ArgValue<'static>>>;
    let variants: Vec<(&str, usize, Args)> = vec![
        ("fill_array_len", reps, Box::new(move || vec![out()])),
        ("ising_rows", reps, Box::new(move || vec![ArgValue::array(spins, s_side), ArgValue::F64(1.0)])),
        ("mandelbrot_complex", 7, Box::new(move || vec![img(), ArgValue::I64(100)])),
        ("matmul_ikj", reps, Box::new(move || vec![ArgValue::array(ma, s_kk), ArgValue::array(mb, s_kk), mc()])),
        ("prefix_sum_prev", reps, Box::new(move || vec![xs(), out()])),
        ("histogram_iter", reps, Box::new(move || vec![xs(), ArgValue::F64(0.0), ArgValue::F64(1.0), counts()])),
        ("dot_zip", reps, Box::new(move || vec![xs(), xs()])),
        ("exp_decay_np", reps, Box::new(move || vec![xs(), ArgValue::F64(0.5), out()])),
    ];
    for (name, reps, args) in &variants {
        let c = cold5(name, args);
        let f = m.function(name).unwrap();
        report(
            name,
            c,
            time_calls(&f, *reps, |f| {
                black_box(f.call::<Value>(args()).unwrap());
            }),
        );
    }

    // Per-call overhead: one slice and one int, 1e6 calls.
    let small = [1.0f64; 8];
    let f = m.function("call_overhead").unwrap();
    let calls = 1_000_000;
    let dyn_ns = median(
        (0..7)
            .map(|_| {
                let t = Instant::now();
                for i in 0..calls {
                    black_box(f.call::<i64>((black_box(&small[..]), black_box(i as i64))).unwrap());
                }
                t.elapsed()
            })
            .collect(),
    )
    .as_secs_f64()
        * 1e9
        / calls as f64;
    let spec = f.specialize((&small[..], 0i64)).unwrap();
    let typed_ns = median(
        (0..7)
            .map(|_| {
                let t = Instant::now();
                for i in 0..calls {
                    black_box(spec.call_with::<i64>((black_box(&small[..]), black_box(i as i64))).unwrap());
                }
                t.elapsed()
            })
            .collect(),
    )
    .as_secs_f64()
        * 1e9
        / calls as f64;
    println!("{{\"kernel\": \"call_overhead\", \"dispatcher_ns\": {dyn_ns:.1}, \"typed_ns\": {typed_ns:.1}}}");
}
