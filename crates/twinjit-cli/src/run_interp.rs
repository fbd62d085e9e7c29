//! Kernels without a GPU from the command line.
//!
//! `twinjit run --target interp`: a function or a kernel in the reference interpreter (the
//! oracle every backend is tested against), no compiler and no GPU. A kernel runs over the
//! `--launch` grid in the interpreter's grid runner, deterministically; with `--race-check` two
//! threads that touch one element with nothing ordering them, one of them writing, fail the
//! launch with both threads, the element and both lines (shared memory between barriers, array
//! arguments within the launch): what compute-sanitizer's racecheck reports on a GPU.
//!
//! `twinjit run|bench --target cuda-sim`: a kernel compiled for this CPU (`twinjit::sim`) and
//! launched over the grid with the same model, bounds checks on (and `--race-check` as in the
//! interpreter); the fast way to run realistic sizes in CI.

use crate::npy::{Npy, NpyData};
use crate::run::{bind, err_text, json_float, ms, write_outputs, Bound, RunArgs};
use std::path::PathBuf;
use std::time::Instant;
use twinjit::ir::interp::{ArrayData, ArrayRef, KernelLaunch, RtValue};
use twinjit::ir::FunctionKind;
use twinjit::sim::SimKernel;
use twinjit::{Complex32, Complex64, SourceModule};

fn to_data(d: &NpyData) -> ArrayData {
    match d {
        NpyData::Bool(v) => ArrayData::Bool(v.clone()),
        NpyData::I32(v) => ArrayData::I32(v.clone()),
        NpyData::I64(v) => ArrayData::I64(v.clone()),
        NpyData::F32(v) => ArrayData::F32(v.clone()),
        NpyData::F64(v) => ArrayData::F64(v.clone()),
        NpyData::I8(v) => ArrayData::I8(v.clone()),
        NpyData::I16(v) => ArrayData::I16(v.clone()),
        NpyData::U8(v) => ArrayData::U8(v.clone()),
        NpyData::U16(v) => ArrayData::U16(v.clone()),
        NpyData::U32(v) => ArrayData::U32(v.clone()),
        NpyData::U64(v) => ArrayData::U64(v.clone()),
        NpyData::C64(v) => ArrayData::C64(v.iter().map(|z| [z.re, z.im]).collect()),
        NpyData::C128(v) => ArrayData::C128(v.iter().map(|z| [z.re, z.im]).collect()),
        NpyData::F16(v) => ArrayData::F16(v.clone()),
    }
}

fn from_data(d: &ArrayData) -> NpyData {
    match d {
        ArrayData::Bool(v) => NpyData::Bool(v.clone()),
        ArrayData::I32(v) => NpyData::I32(v.clone()),
        ArrayData::I64(v) => NpyData::I64(v.clone()),
        ArrayData::F32(v) => NpyData::F32(v.clone()),
        ArrayData::F64(v) => NpyData::F64(v.clone()),
        ArrayData::I8(v) => NpyData::I8(v.clone()),
        ArrayData::I16(v) => NpyData::I16(v.clone()),
        ArrayData::U8(v) => NpyData::U8(v.clone()),
        ArrayData::U16(v) => NpyData::U16(v.clone()),
        ArrayData::U32(v) => NpyData::U32(v.clone()),
        ArrayData::U64(v) => NpyData::U64(v.clone()),
        ArrayData::C64(v) => NpyData::C64(v.iter().map(|z| Complex32::new(z[0], z[1])).collect()),
        ArrayData::C128(v) => NpyData::C128(v.iter().map(|z| Complex64::new(z[0], z[1])).collect()),
        ArrayData::F16(v) => NpyData::F16(v.clone()),
    }
}

/// An argument as the interpreter's value (arrays in C order, shared with the run).
fn rt_value(b: &Bound) -> Result<RtValue, String> {
    let scalar = |v: &twinjit::ArgValue<'_>| match v {
        twinjit::ArgValue::None => Ok(RtValue::None),
        v => v.to_rt().ok_or_else(|| "error: an argument the interpreter cannot take".to_string()),
    };
    match b {
        Bound::Scalar(v) => scalar(v),
        Bound::Tuple(items) => items.iter().map(scalar).collect::<Result<_, _>>().map(RtValue::Tuple),
        Bound::Array(a) => {
            let shape = a.shape.iter().map(|&d| d as i64).collect();
            ArrayRef::new(to_data(&a.data), shape)
                .map(RtValue::Array)
                .ok_or_else(|| "error: an array argument does not fit its shape".into())
        }
    }
}

/// A result as JSON (as `run` prints a compiled function's).
fn json(v: &RtValue) -> String {
    match v {
        RtValue::None => "null".into(),
        RtValue::Bool(b) => b.to_string(),
        RtValue::F64(x) => json_float(*x),
        RtValue::F32(x) => json_float(f64::from(*x)),
        RtValue::F16(x) => json_float(x.to_f64()),
        RtValue::C64([re, im]) => {
            format!("{{\"real\": {}, \"imag\": {}}}", json_float(f64::from(*re)), json_float(f64::from(*im)))
        }
        RtValue::C128([re, im]) => format!("{{\"real\": {}, \"imag\": {}}}", json_float(*re), json_float(*im)),
        RtValue::Tuple(vs) => format!("[{}]", vs.iter().map(json).collect::<Vec<_>>().join(", ")),
        RtValue::List(l) => format!("[{}]", l.items.borrow().iter().map(json).collect::<Vec<_>>().join(", ")),
        RtValue::Array(a) => format!(
            "{{\"dtype\": \"{}\", \"shape\": [{}]}}",
            a.data.borrow().dtype().name(),
            a.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
        ),
        v => match v.int_bits() {
            Some((s, bits)) => s.int_value(bits).to_string(),
            None => "null".into(),
        },
    }
}

/// The module, the function's parameters and its arguments as the interpreter's values (arrays
/// in C order, shared with the run), and whether it is a kernel.
struct Loaded {
    module: SourceModule,
    params: Vec<String>,
    bound: Vec<Bound>,
    args: Vec<RtValue>,
    kernel: bool,
    load: std::time::Duration,
}

fn load(a: &RunArgs) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(&a.file).map_err(|e| format!("error: reading {}: {e}", a.file))?;
    let t = Instant::now();
    let module = SourceModule::parse(&a.file, &text).map_err(err_text)?;
    let load = t.elapsed();
    let Some(f) = module.module().function(&a.func) else {
        let refused = module.module().refused.iter().find(|r| r.name == a.func);
        return Err(match refused {
            Some(r) => twinjit::diag::render_all(&r.diagnostics, module.sources()),
            None => format!("error: no compiled function `{}` in {}", a.func, a.file),
        });
    };
    let kernel = f.attrs.kind == FunctionKind::Kernel;
    let params = f.body.param_names.clone();
    let bound: Vec<Bound> = bind(a, &params)?
        .into_iter()
        .map(|b| match b {
            Bound::Array(arr) => Bound::Array(arr.into_c_order()),
            other => other,
        })
        .collect();
    let args = bound.iter().map(rt_value).collect::<Result<Vec<_>, _>>()?;
    Ok(Loaded { module, params, bound, args, kernel, load })
}

/// The arrays the run wrote, copied back into the bound arguments (for `--out`).
fn copy_back(bound: &mut [Bound], args: &[RtValue]) {
    for (b, v) in bound.iter_mut().zip(args) {
        if let (Bound::Array(npy), RtValue::Array(arr)) = (b, v) {
            *npy = Npy { data: from_data(&arr.data.borrow()), shape: npy.shape.clone(), fortran: false };
        }
    }
}

fn launch_of(a: &RunArgs) -> Result<KernelLaunch, String> {
    let launch = a.launch.as_deref().ok_or("error: a kernel needs --launch GRID,BLOCK")?;
    let (grid, block) = crate::run_cuda::parse_launch(launch)?;
    Ok(KernelLaunch { grid, block, dynamic_shared_bytes: a.shared_mem })
}

/// `twinjit run --target interp`.
pub fn run(a: &RunArgs, out: Option<PathBuf>) -> Result<String, String> {
    let Loaded { module, params, mut bound, args, kernel, load } = self::load(a)?;
    let t = Instant::now();
    let result = if kernel {
        let launch = launch_of(a)?;
        module.interpret_kernel(&a.func, launch, &args, a.race_check).map(|()| RtValue::None)
    } else {
        if a.launch.is_some() {
            return Err(format!("error: `{}` is not a kernel: --launch is for kernels", a.func));
        }
        if a.race_check {
            return Err("error: --race-check is for kernels (races are between the threads of a launch)".into());
        }
        module.interpret(&a.func, &args)
    };
    let run = t.elapsed();
    let r = result.map_err(err_text)?;
    // The run wrote into the interpreter's arrays: copy them back for --out.
    copy_back(&mut bound, &args);
    if let Some(dir) = out {
        write_outputs(&dir, &params, &bound)?;
    }
    Ok(format!("{{\"return\": {}, \"run_ms\": {}, \"load_ms\": {}}}\n", json(&r), ms(run), ms(load)))
}

/// The kernel of `--target cuda-sim`, compiled, with its arguments.
fn sim_kernel(a: &RunArgs) -> Result<(Loaded, SimKernel, std::time::Duration), String> {
    let l = load(a)?;
    if !l.kernel {
        return Err(format!(
            "error: `{}` is not a @cuda.jit kernel: --target cuda-sim launches kernels (use --target host for @njit functions)",
            a.func
        ));
    }
    let t = Instant::now();
    let sig = twinjit::ir::Signature { args: l.args.iter().map(RtValue::ty).collect(), ret: None };
    // Bounds are always checked: the kernel runs in this process's memory, which nothing else
    // protects (a GPU faults; the host would be corrupted).
    if a.boundscheck == Some(false) {
        return Err("error: --target cuda-sim always checks bounds (the kernel runs in this process's memory)".into());
    }
    let kernel = if a.race_check {
        SimKernel::compile_race_checked(&l.module, &a.func, &sig)
    } else {
        SimKernel::compile(&l.module, &a.func, &sig)
    }
    .map_err(err_text)?;
    Ok((l, kernel, t.elapsed()))
}

/// `twinjit run --target cuda-sim`.
pub fn run_sim(a: &RunArgs, out: Option<PathBuf>) -> Result<String, String> {
    let (mut l, kernel, compile) = sim_kernel(a)?;
    let launch = launch_of(a)?;
    let t = Instant::now();
    kernel.launch(&l.args, &launch).map_err(|e| format!("error: {}", e.describe(l.module.sources())))?;
    let run = t.elapsed();
    copy_back(&mut l.bound, &l.args);
    if let Some(dir) = out {
        write_outputs(&dir, &l.params, &l.bound)?;
    }
    Ok(format!(
        "{{\"return\": null, \"compile_ms\": {}, \"run_ms\": {}, \"load_ms\": {}}}\n",
        ms(compile),
        ms(run),
        ms(l.load)
    ))
}

/// `twinjit bench --target cuda-sim`: launches timed one by one (the arguments keep what the
/// previous launch wrote, as on a GPU).
pub fn bench_sim(a: &RunArgs, warmup: usize, reps: usize) -> Result<String, String> {
    let (l, kernel, compile) = sim_kernel(a)?;
    let launch = launch_of(a)?;
    let go = || kernel.launch(&l.args, &launch).map_err(|e| format!("error: {}", e.describe(l.module.sources())));
    for _ in 0..warmup {
        go()?;
    }
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        go()?;
        times.push(t.elapsed());
    }
    times.sort();
    Ok(format!(
        "{{\"compile_ms\": {}, \"min_ms\": {}, \"median_ms\": {}, \"reps\": {reps}, \"load_ms\": {}}}\n",
        ms(compile),
        ms(times[0]),
        ms(times[times.len() / 2]),
        ms(l.load)
    ))
}
