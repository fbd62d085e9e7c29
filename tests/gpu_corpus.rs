//! Feature `cuda`, on a machine with a GPU (run through `scripts/gpu-test.sh`): both corpora on
//! the device, compared with the reference interpreter.
//!
//! - `tests/kernels_cuda`: every check launches its kernel over its grid with `Module::kernel`
//!   and compares every array argument with `interp::run_kernel` on the same inputs, and with
//!   the values numba-cuda's simulator gave (the `# check:` lines).
//! - `tests/kernels`: every host-function check runs on the GPU through a one-thread `.entry`
//!   that calls the function (the PTX backend's `EntryKind::Call`), and its result, raised
//!   exception and arrays are compared with the interpreter's.
//!
//! Integers and bools must be equal. Floats may differ by what CUDA does differently from the
//! host, by design: libdevice's transcendentals (within 2 ulp) and, for kernels, FMA
//! contraction (nvcc's and numba-cuda's default; host functions run with it off), so they are
//! compared with a relative tolerance (1e-12 for float64, 1e-5 for float32) scaled by the
//! array's largest magnitude; NaN must match NaN.
//!
//! Without a CUDA driver or device the tests print why and pass, unless `TWINJIT_REQUIRE_GPU`
//! is set (the GPU script sets it), which turns that into a failure.

#![cfg(feature = "cuda")]

mod common;

use common::{arg_value, corpus_in, matches, read_checks, Expect, Native};
use twinjit::cuda::{DeviceArray, KernelArg, KernelOrigin, LaunchConfig};
use twinjit::ir::interp::{run_kernel, ArrayData, InterpOptions, KernelLaunch, RtValue};
use twinjit::ir::{abi, Scalar, Signature, Type};
use twinjit::{Engine, EngineOptions, Error, SourceModule, Target};

fn gpu_engine(options: EngineOptions) -> Option<Engine> {
    match Engine::with_options(Target::Cuda { device: 0 }, options) {
        Ok(e) => Some(e),
        Err(Error::TargetUnavailable { reason, .. }) => {
            if std::env::var_os("TWINJIT_REQUIRE_GPU").is_some() {
                panic!("TWINJIT_REQUIRE_GPU is set but the CUDA target is unavailable: {reason}");
            }
            println!("skipped: no usable GPU here ({reason})");
            None
        }
        Err(other) => panic!("unexpected error opening the CUDA target: {other}"),
    }
}

fn libdevice_from_repo() {
    let wheels = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/nvidia");
    if std::env::var_os("TWINJIT_NVIDIA_WHEELS").is_none() && wheels.exists() {
        std::env::set_var("TWINJIT_NVIDIA_WHEELS", &wheels);
    }
}

/// Float closeness: `|a - b| <= rtol * scale` where `scale` is the larger magnitude (or the
/// array's largest, passed in); NaN equals NaN; infinities must be equal.
fn close(a: f64, b: f64, rtol: f64, scale: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    (a - b).abs() <= rtol * scale.max(a.abs()).max(b.abs()).max(f64::MIN_POSITIVE)
}

fn floats(v: &RtValue) -> Option<(Vec<f64>, f64)> {
    match v {
        RtValue::F64(x) => Some((vec![*x], 1e-12)),
        RtValue::F32(x) => Some((vec![*x as f64], 1e-5)),
        RtValue::F16(x) => Some((vec![x.to_f64()], 1e-3)),
        RtValue::C128([re, im]) => Some((vec![*re, *im], 1e-12)),
        RtValue::C64([re, im]) => Some((vec![*re as f64, *im as f64], 1e-5)),
        RtValue::Array(a) => match &*a.data.borrow() {
            ArrayData::F64(v) => Some((v.clone(), 1e-12)),
            ArrayData::F32(v) => Some((v.iter().map(|&x| x as f64).collect(), 1e-5)),
            ArrayData::F16(v) => Some((v.iter().map(|x| x.to_f64()).collect(), 1e-3)),
            ArrayData::C128(v) => Some((v.iter().flatten().copied().collect(), 1e-12)),
            ArrayData::C64(v) => Some((v.iter().flatten().map(|&x| x as f64).collect(), 1e-5)),
            _ => None,
        },
        _ => None,
    }
}

/// Equal up to the float tolerance above (exact for everything else).
fn agree(got: &RtValue, want: &RtValue) -> bool {
    match (got, want) {
        (RtValue::Tuple(a), RtValue::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| agree(x, y)),
        _ => match (floats(got), floats(want)) {
            (Some((a, rtol)), Some((b, _))) => {
                let scale = b.iter().filter(|x| x.is_finite()).fold(0.0f64, |m, x| m.max(x.abs()));
                a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| close(*x, *y, rtol, scale))
            }
            _ => got.same(want),
        },
    }
}

enum Dev {
    B(DeviceArray<bool>),
    I32(DeviceArray<i32>),
    I64(DeviceArray<i64>),
    F32(DeviceArray<f32>),
    F64(DeviceArray<f64>),
    I8(DeviceArray<i8>),
    I16(DeviceArray<i16>),
    U8(DeviceArray<u8>),
    U16(DeviceArray<u16>),
    U32(DeviceArray<u32>),
    U64(DeviceArray<u64>),
    C64(DeviceArray<[f32; 2]>),
    C128(DeviceArray<[f64; 2]>),
    F16(DeviceArray<twinjit::f16>),
    Scalar(twinjit::ArgValue<'static>),
    Tuple(Vec<twinjit::ArgValue<'static>>),
}

/// `$body` on a device array and host vector of one dtype (`$d`, `$h`); `$else` otherwise.
macro_rules! each_pair {
    ($dev:expr, $host:expr, |$d:ident, $h:ident| $body:expr, $else:expr) => {
        match ($dev, $host) {
            (Dev::B($d), ArrayData::Bool($h)) => $body,
            (Dev::I32($d), ArrayData::I32($h)) => $body,
            (Dev::I64($d), ArrayData::I64($h)) => $body,
            (Dev::F32($d), ArrayData::F32($h)) => $body,
            (Dev::F64($d), ArrayData::F64($h)) => $body,
            (Dev::I8($d), ArrayData::I8($h)) => $body,
            (Dev::I16($d), ArrayData::I16($h)) => $body,
            (Dev::U8($d), ArrayData::U8($h)) => $body,
            (Dev::U16($d), ArrayData::U16($h)) => $body,
            (Dev::U32($d), ArrayData::U32($h)) => $body,
            (Dev::U64($d), ArrayData::U64($h)) => $body,
            (Dev::C64($d), ArrayData::C64($h)) => $body,
            (Dev::C128($d), ArrayData::C128($h)) => $body,
            (Dev::F16($d), ArrayData::F16($h)) => $body,
            _ => $else,
        }
    };
}

fn to_device(engine: &Engine, n: &Native) -> Result<Dev, Error> {
    let (d, s) = match n {
        Native::Scalar(a) => return Ok(Dev::Scalar(*a)),
        Native::Tuple(items) => return Ok(Dev::Tuple(items.clone())),
        Native::Array(d, s) => (d, s),
    };
    Ok(match d {
        ArrayData::Bool(v) => Dev::B(engine.to_device_shaped(v, s)?),
        ArrayData::I32(v) => Dev::I32(engine.to_device_shaped(v, s)?),
        ArrayData::I64(v) => Dev::I64(engine.to_device_shaped(v, s)?),
        ArrayData::F32(v) => Dev::F32(engine.to_device_shaped(v, s)?),
        ArrayData::F64(v) => Dev::F64(engine.to_device_shaped(v, s)?),
        ArrayData::I8(v) => Dev::I8(engine.to_device_shaped(v, s)?),
        ArrayData::I16(v) => Dev::I16(engine.to_device_shaped(v, s)?),
        ArrayData::U8(v) => Dev::U8(engine.to_device_shaped(v, s)?),
        ArrayData::U16(v) => Dev::U16(engine.to_device_shaped(v, s)?),
        ArrayData::U32(v) => Dev::U32(engine.to_device_shaped(v, s)?),
        ArrayData::U64(v) => Dev::U64(engine.to_device_shaped(v, s)?),
        ArrayData::C64(v) => Dev::C64(engine.to_device_shaped(v, s)?),
        ArrayData::C128(v) => Dev::C128(engine.to_device_shaped(v, s)?),
        ArrayData::F16(v) => Dev::F16(engine.to_device_shaped(v, s)?),
    })
}

impl Dev {
    fn arg(&self) -> KernelArg<'_> {
        use twinjit::cuda::IntoKernelArg;
        match self {
            Dev::B(a) => a.into_kernel_arg(),
            Dev::I32(a) => a.into_kernel_arg(),
            Dev::I64(a) => a.into_kernel_arg(),
            Dev::F32(a) => a.into_kernel_arg(),
            Dev::F64(a) => a.into_kernel_arg(),
            Dev::I8(a) => a.into_kernel_arg(),
            Dev::I16(a) => a.into_kernel_arg(),
            Dev::U8(a) => a.into_kernel_arg(),
            Dev::U16(a) => a.into_kernel_arg(),
            Dev::U32(a) => a.into_kernel_arg(),
            Dev::U64(a) => a.into_kernel_arg(),
            Dev::C64(a) => a.into_kernel_arg(),
            Dev::C128(a) => a.into_kernel_arg(),
            Dev::F16(a) => a.into_kernel_arg(),
            Dev::Scalar(s) => KernelArg::Scalar(*s),
            Dev::Tuple(items) => KernelArg::Scalar(twinjit::ArgValue::Tuple(items)),
        }
    }

    /// Copies a device array back into `n` (scalars are left alone).
    fn copy_back(&self, n: &mut Native) -> Result<(), String> {
        let e = |e: twinjit::cuda::CudaError| e.to_string();
        let Native::Array(data, _) = n else { return Ok(()) };
        each_pair!(self, data, |a, v| a.copy_to_host(v).map_err(e), Ok(()))
    }
}

#[test]
fn kernel_corpus_matches_the_interpreter_on_the_gpu() {
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions::default()) else { return };
    corpus_through_the_engine(&engine, "the GPU");
}

/// The same program on `Target::CudaSim`: the engine API written for a GPU (device arrays,
/// launches, synchronize, copies back) runs unchanged against kernels compiled for this CPU.
/// Needs no GPU.
#[test]
fn kernel_corpus_matches_the_interpreter_on_cuda_sim_through_the_gpu_api() {
    let engine = Engine::new(Target::CudaSim).expect("cuda-sim needs no GPU");
    corpus_through_the_engine(&engine, "cuda-sim");
}

/// Every launch of the CUDA corpus through `engine`'s API, against the interpreter and the
/// expected values.
fn corpus_through_the_engine(engine: &Engine, label: &str) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (name, text) in corpus_in("kernels_cuda") {
        let module = engine.load(&name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let oracle = SourceModule::parse(&name, &text).unwrap();
        for c in read_checks(&name, &text).unwrap() {
            let Some((grid, block)) = c.launch else { continue };
            ran += 1;
            let at = format!("{}:{} {}", c.file, c.line, c.call_text);
            let rt: Vec<RtValue> = c.args.iter().map(|e| arg_value(e).expect("argument")).collect();
            // The oracle.
            let sig = Signature { args: rt.iter().map(RtValue::ty).collect(), ret: None };
            let program = match oracle.specialize(&c.func, &sig, None) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{at}: does not compile: {e}"));
                    continue;
                }
            };
            let launch = KernelLaunch { grid, block, dynamic_shared_bytes: c.shared_bytes };
            let interp = run_kernel(&program, &rt, &launch, InterpOptions::default());
            // The GPU, on fresh copies of the inputs.
            let mut native: Vec<Native> =
                c.args.iter().map(|e| Native::from_rt(&arg_value(e).expect("argument"))).collect();
            let gpu = (|| -> Result<(), String> {
                let dev: Vec<Dev> =
                    native.iter().map(|n| to_device(engine, n)).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
                let args: Vec<KernelArg> = dev.iter().map(Dev::arg).collect();
                let k = module.kernel(&c.func).map_err(|e| e.to_string())?;
                k.launch(LaunchConfig::new(grid, block).with_shared_mem_bytes(c.shared_bytes), args)
                    .map_err(|e| e.to_string())?;
                engine.synchronize().map_err(|e| e.to_string())?;
                for (d, n) in dev.iter().zip(native.iter_mut()) {
                    d.copy_back(n)?;
                }
                Ok(())
            })();
            match (gpu, interp) {
                (Ok(()), Ok(())) => {
                    for (k, (n, o)) in native.iter().zip(&rt).enumerate() {
                        if !agree(&n.to_rt(), o) {
                            failures.push(format!("{at}: arg{k} on {label} {} but in the interpreter {o}", n.to_rt()));
                        }
                    }
                    if let Expect::Value { arrays, .. } = &c.expect {
                        for (k, want) in arrays {
                            if !native.get(*k).is_some_and(|a| matches_close(&a.to_rt(), want)) {
                                failures.push(format!("{at}: arg{k} on {label} is not the expected {want:?}"));
                            }
                        }
                    }
                }
                (Err(e), Ok(())) => failures.push(format!("{at}: {label} failed: {e}")),
                (Ok(()), Err(e)) => failures.push(format!("{at}: interpreter failed but {label} ran: {e}")),
                (Err(_), Err(_)) => {}
            }
        }
    }
    println!("kernel corpus on {label}: {} of {ran} checks match", ran - failures.len());
    assert!(ran >= 20, "only {ran} kernel checks ran");
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
}

/// `matches` with float tolerance: the expected lists were printed by Python with full
/// precision, so compare through `agree` on a rebuilt value when the exact match fails.
fn matches_close(got: &RtValue, want: &common::Lit) -> bool {
    if matches(got, want) {
        return true;
    }
    let (Some((g, rtol)), Some(w)) = (floats(got), flat_lit(want)) else { return false };
    let scale = w.iter().filter(|x| x.is_finite()).fold(0.0f64, |m, x| m.max(x.abs()));
    g.len() == w.len() && g.iter().zip(&w).all(|(a, b)| close(*a, *b, rtol, scale))
}

fn flat_lit(l: &common::Lit) -> Option<Vec<f64>> {
    use common::Lit;
    let mut out = Vec::new();
    fn walk(l: &Lit, out: &mut Vec<f64>) -> Option<()> {
        match l {
            Lit::Float(x) => out.push(*x),
            Lit::Int(i) => out.push(*i as f64),
            Lit::UInt(u) => out.push(*u as f64),
            Lit::Bool(b) => out.push(*b as i64 as f64),
            Lit::Seq(v) => v.iter().try_for_each(|x| walk(x, out))?,
            Lit::None | Lit::Complex(..) | Lit::Str(_) => return None,
        }
        Some(())
    }
    walk(l, &mut out)?;
    Some(out)
}

/// Decodes result slots (8 bytes per flattened part) of type `t`.
fn decode(t: &Type, slots: &[i64], k: &mut usize) -> RtValue {
    let mut take = || {
        let v = slots[*k];
        *k += 1;
        v
    };
    match t {
        Type::Scalar(Scalar::Bool) => RtValue::Bool(take() as u8 != 0),
        Type::Scalar(Scalar::Int32) => RtValue::I32(take() as u32 as i32),
        Type::Scalar(Scalar::Int64) => RtValue::I64(take()),
        Type::Scalar(Scalar::Float32) => RtValue::F32(f32::from_bits(take() as u32)),
        Type::Scalar(Scalar::Float64) => RtValue::F64(f64::from_bits(take() as u64)),
        Type::Scalar(Scalar::Complex64) => {
            let re = f32::from_bits(take() as u32);
            RtValue::C64([re, f32::from_bits(take() as u32)])
        }
        Type::Scalar(Scalar::Complex128) => {
            let re = f64::from_bits(take() as u64);
            RtValue::C128([re, f64::from_bits(take() as u64)])
        }
        Type::Scalar(s) => RtValue::int(*s, take()),
        Type::Tuple(ts) => RtValue::Tuple(ts.iter().map(|t| decode(t, slots, k)).collect()),
        // A string has no slots: its value is its type.
        Type::Str(text) => RtValue::Str(text.as_str().into()),
        // The flag, then the value (read either way, to step past its slots).
        Type::Optional(t) => {
            let present = take() as u8 != 0;
            let v = decode(t, slots, k);
            if present {
                v
            } else {
                RtValue::None
            }
        }
        _ => RtValue::None,
    }
}

/// The kernel parameters of a scalar, `None` (none) or tuple argument, in the ABI's order.
fn scalar_slots(a: &twinjit::ArgValue<'_>, out: &mut Vec<u64>) {
    use twinjit::ArgValue as A;
    match *a {
        A::Bool(b) => out.push(b as u64),
        A::I32(i) => out.push(i as u32 as u64),
        A::I64(i) => out.push(i as u64),
        A::F32(x) => out.push(x.to_bits() as u64),
        A::F64(x) => out.push(x.to_bits()),
        A::I8(i) => out.push(i as u8 as u64),
        A::I16(i) => out.push(i as u16 as u64),
        A::U8(i) => out.push(i as u64),
        A::U16(i) => out.push(i as u64),
        A::U32(i) => out.push(i as u64),
        A::U64(i) => out.push(i),
        A::C64(z) => out.extend([z.re.to_bits() as u64, z.im.to_bits() as u64]),
        A::C128(z) => out.extend([z.re.to_bits(), z.im.to_bits()]),
        A::F16(x) => out.push(x.to_bits() as u64),
        A::Tuple(items) => items.iter().for_each(|x| scalar_slots(x, out)),
        A::None | A::Array(_) | A::Invalid(_) | A::Str(_) => {}
    }
}

fn exception_of(kind: u32) -> &'static str {
    match kind {
        1 => "ZeroDivisionError",
        2 => "IndexError",
        3 => "RecursionError",
        _ => "unknown",
    }
}

#[test]
fn host_corpus_runs_on_the_gpu_like_the_interpreter() {
    libdevice_from_repo();
    // Host functions are compared with the host's semantics: no FMA contraction (a chaotic
    // iteration such as logistic_map amplifies one rounding difference into any other), and a
    // recursion limit the corpus's deepest recursion (tri_recursive(100)) fits under.
    let options = EngineOptions { fp_contract: Some(false), gpu_recursion_limit: Some(200), ..Default::default() };
    let Some(engine) = gpu_engine(options) else { return };
    let device = engine.device().expect("a CUDA engine has a device").clone();
    let mut failures = Vec::new();
    let mut ran = 0;
    for (name, text) in corpus_in("kernels") {
        let module = engine.load(&name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let oracle = SourceModule::parse(&name, &text).unwrap();
        for c in read_checks(&name, &text).unwrap() {
            ran += 1;
            let at = format!("{}:{} {}", c.file, c.line, c.call_text);
            // The interpreter's run writes into `given`'s arrays (its after-state, compared
            // below); the GPU runs on fresh copies, bound as the engine binds a call (defaults,
            // declared signatures).
            let fresh = || -> Vec<RtValue> { c.args.iter().map(|e| arg_value(e).expect("argument")).collect() };
            let given = fresh();
            let expected = oracle.interpret(&c.func, &given);
            let (sig, rt) = match oracle.bind(&c.func, &fresh()) {
                Ok(b) => b,
                Err(e) => {
                    failures.push(format!("{at}: does not bind: {e}"));
                    continue;
                }
            };
            let run = (|| -> Result<(Result<RtValue, String>, Vec<Native>), String> {
                let ptx = module.ptx(&c.func, &sig.to_string()).map_err(|e| e.to_string())?;
                let ret_ty =
                    oracle.specialize(&c.func, &sig, None).map_err(|e| e.to_string())?.entry().func.ret.clone();
                if let Some(bytes) = ptx.stack_bytes {
                    device.ensure_stack_size(bytes).map_err(|e| e.to_string())?;
                }
                let cm = device.load_ptx(&ptx.ptx).map_err(|e| e.to_string())?;
                let kernel = cm.kernel(&ptx.entry).map_err(|e| e.to_string())?;
                let gerr = engine.zeros::<i64>(&[abi::GPU_RECORD_BYTES / 8]).map_err(|e| e.to_string())?;
                let gret = engine.zeros::<i64>(&[64]).map_err(|e| e.to_string())?;
                let mut native: Vec<Native> = rt.iter().map(Native::from_rt).collect();
                let dev: Vec<Dev> = native
                    .iter()
                    .map(|n| to_device(&engine, n))
                    .collect::<Result<_, _>>()
                    .map_err(|e| e.to_string())?;
                let mut slots = vec![gerr.device_ptr(), gret.device_ptr()];
                for d in &dev {
                    let arg = d.arg();
                    match arg {
                        KernelArg::Scalar(s) => scalar_slots(&s, &mut slots),
                        KernelArg::Device { ptr, ndim, shape, .. } => {
                            // The corpus's array signatures are layout `A` or `C`: strides are
                            // always passed.
                            let shape = &shape[..ndim as usize];
                            slots.extend(abi::array_slots(ptr, shape, abi::c_strides(shape)));
                        }
                        KernelArg::Host { .. } => unreachable!("device arguments only"),
                    }
                }
                // SAFETY: the slots follow the call entry's parameters (error record, result
                // slots, the flattened arguments of the signature just compiled); every
                // pointer is a live device allocation of the right size.
                unsafe { kernel.launch(&LaunchConfig::new([1, 1, 1], [1, 1, 1]), &device.default_stream(), &slots) }
                    .map_err(|e| e.to_string())?;
                device.synchronize().map_err(|e| e.to_string())?;
                let err = gerr.to_vec().map_err(|e| e.to_string())?;
                let status = err[abi::GPU_THREAD_IDS_OFFSET / 8] as u32;
                let result = if status != 0 {
                    let words: [i64; abi::GPU_RECORD_BYTES / 8] =
                        err[..abi::GPU_RECORD_BYTES / 8].try_into().expect("the record's words");
                    let record = abi::GpuRecord::decode(&words).record;
                    let class = match ptx.sites.get(record.site as usize).and_then(|s| s.render(&record)) {
                        Some((class, _)) => class,
                        None => exception_of(record.kind).to_string(),
                    };
                    Err(class)
                } else {
                    let ret = gret.to_vec().map_err(|e| e.to_string())?;
                    Ok(decode(&ret_ty, &ret, &mut 0))
                };
                for (d, n) in dev.iter().zip(native.iter_mut()) {
                    d.copy_back(n)?;
                }
                Ok((result, native))
            })();
            match (run, &expected) {
                // Host-only by design (tests/ptx_corpus.rs checks the refusal is located).
                (Err(e), _) if common::host_only(&e) => {
                    ran -= 1;
                }
                (Err(e), _) => failures.push(format!("{at}: GPU run failed: {e}")),
                (Ok((Ok(v), native)), Ok(o)) => {
                    if !agree(&v, o) {
                        failures.push(format!("{at}: GPU returned {v} but the interpreter {o}"));
                    }
                    // Arrays after the call (scalars are passed by value, and may have been
                    // converted to a declared signature's types).
                    for (k, (n, o)) in native.iter().zip(&given).enumerate() {
                        if matches!(o, RtValue::Array(_)) && !agree(&n.to_rt(), o) {
                            failures.push(format!("{at}: arg{k} on the GPU {} but in the interpreter {o}", n.to_rt()));
                        }
                    }
                }
                (Ok((Err(exc), _)), Err(e)) if Some(exc.as_str()) == e.python_exception() => {}
                (Ok((got, _)), want) => failures.push(format!("{at}: GPU {got:?} but interpreter {want:?}")),
            }
        }
    }
    println!("host corpus on the GPU: {} of {ran} checks match the interpreter", ran - failures.len());
    assert!(ran > 300, "only {ran} checks ran");
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
}

/// Bounds-checked kernels (`boundscheck=True` or the engine option): an out-of-bounds access
/// stops that thread, and `synchronize` reports an `IndexError` naming the kernel, the source
/// line, the index, the dimension and the first failing thread; memory is not corrupted.
#[test]
fn bounds_checked_kernel_reports_the_failing_thread() {
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions { boundscheck: Some(true), ..Default::default() }) else { return };
    let src = "from numba import cuda\n\n@cuda.jit\ndef shift(a, out):\n    i = cuda.grid(1)\n    if i < a.size:\n        out[i] = a[i + 1]\n";
    let k = engine.load("shift.py", src).unwrap().kernel("shift").unwrap();
    let a = engine.to_device(&[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let out = engine.zeros::<f32>(&[4]).unwrap();
    k.launch(LaunchConfig::linear(1, 32), (&a, &out)).unwrap();
    match engine.synchronize() {
        Err(Error::Runtime { kind, message, location, .. }) => {
            assert_eq!(kind, twinjit::RuntimeErrorKind::Index { index: 4, len: 4, axis: 0 }, "{message}");
            assert_eq!(location.as_deref(), Some("shift.py:7:18"), "{message}");
            for part in ["IndexError", "index 4", "size 4", "thread (3, 0, 0) of block (0, 0, 0)", "kernel `shift`"] {
                assert!(message.contains(part), "`{part}` missing from: {message}");
            }
        }
        other => panic!("expected an IndexError at synchronize, got {other:?}"),
    }
    // The threads in bounds finished their work; the failing one stored nothing.
    assert_eq!(out.to_vec().unwrap(), vec![2.0, 3.0, 4.0, 0.0]);
    // The record was cleared: a launch that stays in bounds reports nothing.
    let a5 = engine.to_device(&[1.0f32, 2.0, 3.0, 4.0, 5.0]).unwrap();
    k.launch(LaunchConfig::linear(1, 4), (&a5, &out)).unwrap();
    engine.synchronize().unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![2.0, 3.0, 4.0, 5.0]);
    let ok = engine.load("ok.py", "from numba import cuda\n@cuda.jit\ndef one(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = 1.0\n").unwrap();
    ok.kernel("one").unwrap().launch(LaunchConfig::linear(1, 32), (&out,)).unwrap();
    engine.synchronize().unwrap();
}

/// Launch facts (issue 17 item 4): a launch whose arrays overlap runs the general kernel, so
/// a store through one argument is seen by a later load through another, as in Python; a
/// launch of distinct arrays runs the `noalias` kernel. Both give Python's result.
#[test]
fn overlapping_arrays_run_the_general_kernel() {
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions::default()) else { return };
    let src = "from numba import cuda\n\n@cuda.jit\ndef probe(a, b, out):\n    if cuda.grid(1) == 0:\n        x = a[0]\n        b[0] = 5.0\n        out[0] = x + a[0]\n";
    let k = engine.load("probe.py", src).unwrap().kernel("probe").unwrap();
    let out = engine.zeros::<f64>(&[1]).unwrap();
    let a = engine.to_device(&[1.0f64]).unwrap();
    k.launch(LaunchConfig::linear(1, 32), (&a, &a, &out)).unwrap();
    engine.synchronize().unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![6.0], "a store through `b` must reach the load through `a`");
    let (a, b) = (engine.to_device(&[1.0f64]).unwrap(), engine.zeros::<f64>(&[1]).unwrap());
    k.launch(LaunchConfig::linear(1, 32), (&a, &b, &out)).unwrap();
    engine.synchronize().unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![2.0]);
    assert_eq!(b.to_vec().unwrap(), vec![5.0]);
}

/// A cached kernel in a second module (a second process behaves alike): the cubin entry
/// loads without the front end, LLVM or the driver's PTX JIT, computes the same result, and
/// reports errors at the right place.
#[test]
fn cached_kernels_load_from_their_cubin() {
    libdevice_from_repo();
    let dir = std::env::temp_dir().join(format!("twinjit-gpu-cubin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = EngineOptions { cache_dir: Some(dir.clone()), ..Default::default() };
    let Some(engine) = gpu_engine(options) else { return };
    let src = "from numba import cuda\n\n@cuda.jit(cache=True, boundscheck=True)\ndef shift(a, out):\n    i = cuda.grid(1)\n    if i < a.size:\n        out[i] = a[i + 1] * 2.0\n";
    let a = engine.to_device(&[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let a5 = engine.to_device(&[1.0f32, 2.0, 3.0, 4.0, 5.0]).unwrap();
    let mut times = Vec::new();
    for round in 0..2 {
        let m = engine.load("shift.py", src).unwrap();
        assert_eq!(m.is_parsed(), round == 0);
        let k = m.kernel("shift").unwrap();
        let out = engine.zeros::<f32>(&[4]).unwrap();
        let t = std::time::Instant::now();
        let compiled = k.specialize((&a5, &out)).unwrap();
        k.launch(LaunchConfig::linear(1, 4), (&a5, &out)).unwrap();
        times.push(t.elapsed());
        let want = if round == 0 { KernelOrigin::Compiled } else { KernelOrigin::CachedCubin };
        assert_eq!(compiled.origin(), want, "round {round}");
        engine.synchronize().unwrap();
        assert_eq!(out.to_vec().unwrap(), vec![4.0, 6.0, 8.0, 10.0], "round {round}");
        assert!(!m.is_parsed() || round == 0, "the second module ran the front end");
        k.launch(LaunchConfig::linear(1, 32), (&a, &out)).unwrap();
        match engine.synchronize() {
            Err(Error::Runtime { location, message, .. }) => {
                assert_eq!(location.as_deref(), Some("shift.py:7:18"), "round {round}: {message}")
            }
            other => panic!("round {round}: expected an IndexError, got {other:?}"),
        }
    }
    let cache = twinjit::cache::Cache::open(&dir, Default::default()).unwrap();
    let targets: Vec<String> = cache.entries().into_iter().map(|e| e.target).collect();
    assert!(targets.iter().any(|t| t.contains(" cubin for compute ")), "{targets:?}");
    println!("first launch (compile, JIT, load): {:?}; from the cubin entry: {:?}", times[0], times[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A host slice where a device array belongs is an argument error with a hint; a launch over
/// the device's limits names the limit, the value and the device; neither poisons the context.
#[test]
fn host_arrays_and_impossible_launches_are_clear_errors() {
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions::default()) else { return };
    let src = "from numba import cuda\n@cuda.jit\ndef vecadd(a, b, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = a[i] + b[i]\n";
    let k = engine.load("v.py", src).unwrap().kernel("vecadd").unwrap();
    let host = vec![1.0f32; 8];
    let d = engine.to_device(&host).unwrap();
    let out = engine.zeros::<f32>(&[8]).unwrap();
    match k.launch(LaunchConfig::linear(1, 8), (&host[..], &d, &out)) {
        Err(Error::Argument { param: Some(p), message, .. }) => {
            assert_eq!(p, "a");
            assert!(message.contains("copy it to the device first"), "{message}");
        }
        other => panic!("expected an argument error, got {other:?}"),
    }
    match k.launch(LaunchConfig::linear(1, 2048), (&d, &d, &out)) {
        Err(Error::Cuda { kernel, message }) => {
            assert_eq!(kernel.as_deref(), Some("vecadd"));
            let name = &engine.device().unwrap().properties().name;
            for part in ["2048 threads per block", "1024", name.as_str()] {
                assert!(message.contains(part), "`{part}` missing from: {message}");
            }
        }
        other => panic!("expected a launch-limit error, got {other:?}"),
    }
    k.launch(LaunchConfig::linear(1, 8), (&d, &d, &out)).unwrap();
    engine.synchronize().unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![2.0f32; 8]);
    let nd = engine.to_host_ndarray(&out).unwrap();
    assert_eq!(nd.shape(), &[8]);
}

/// `Engine::create_xoroshiro128p_states` makes numba-cuda's states on the device, and a kernel
/// drawing from them gives numba's numbers (the first float64 uniforms of seed 42, as Numba's
/// CUDA simulator draws them in `tests/kernels_cuda/random_draws.py`); the states advance.
#[test]
fn xoroshiro_states_on_the_device_draw_numbas_numbers() {
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions::default()) else { return };
    let states = engine.create_xoroshiro128p_states(4, 42, 0).unwrap();
    assert_eq!(states.shape(), &[4, 2]);
    assert_eq!(states.to_vec().unwrap(), twinjit::xoroshiro128p_states(4, 42, 0));
    let src = "from numba import cuda\nfrom numba.cuda.random import xoroshiro128p_uniform_float64\n\n@cuda.jit\ndef first(states, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = xoroshiro128p_uniform_float64(states, i)\n";
    let k = engine.load("draw.py", src).unwrap().kernel("first").unwrap();
    let out = engine.zeros::<f64>(&[4]).unwrap();
    k.launch(LaunchConfig::linear(1, 4), (&states, &out)).unwrap();
    engine.synchronize().unwrap();
    assert_eq!(
        out.to_vec().unwrap(),
        vec![0.48312975754364673, 0.03927229372037966, 0.9412365399038057, 0.9836598357118856]
    );
    assert_ne!(states.to_vec().unwrap(), twinjit::xoroshiro128p_states(4, 42, 0));
}

/// CUDA ufuncs called from Rust as numba-cuda calls them: `f(a, b)` (a new device array of the
/// loop's type), a number broadcast, `f(a, b, out=o, stream=s)`, and the errors. The expected
/// values are those of tests/kernels_cuda/cuda_ufuncs.py (checked under numba-cuda with
/// `verify_numba_cudasim.py --gpu`).
#[test]
fn cuda_ufuncs_are_called_like_numba_cuda() {
    use twinjit::cuda::IntoKernelArg;
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions::default()) else { return };
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kernels_cuda/cuda_ufuncs.py")).unwrap();
    let m = engine.load("cuda_ufuncs.py", &text).unwrap();
    let axpb = m.kernel("axpb").unwrap();
    assert!(axpb.is_ufunc());
    let a = engine.to_device(&[0.5f64, 1.0, -2.0, 3.25, 8.0]).unwrap();
    let b = engine.to_device(&[1.0f64, 1.0, 0.5, -6.5, 0.0]).unwrap();
    let r = axpb.call_ufunc::<f64>(&[(&a).into_kernel_arg(), (&b).into_kernel_arg()]).unwrap();
    assert_eq!(r.to_vec().unwrap(), vec![2.0, 3.0, -3.5, 0.0, 16.0]);
    // The same on host arrays, with the copies, and a one-element array broadcast.
    let (ha, hb) = ([0.5f64, 1.0, -2.0, 3.25, 8.0], [1.0f64, 1.0, 0.5, -6.5, 0.0]);
    let r = axpb.call_ufunc_host(&[twinjit::ArgValue::array(&ha, &[5]), twinjit::ArgValue::array(&hb, &[5])]).unwrap();
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![2.0, 3.0, -3.5, 0.0, 16.0]);
    let r = axpb
        .call_ufunc_host(&[twinjit::ArgValue::array(&[2.0f64], &[1]), twinjit::ArgValue::array(&hb, &[5])])
        .unwrap();
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![5.0, 5.0, 4.5, -2.5, 4.0]);
    // NumPy's broadcasting of host arrays: a column against a row (values from Numba's
    // `@vectorize` of the same function; tests/cuda_sim_api.rs has more shapes).
    let (col, row) = ([1.0f64, 2.0, 3.0], [0.25f64, 0.5, 0.75, 1.0]);
    let r =
        axpb.call_ufunc_host(&[twinjit::ArgValue::array(&col, &[3, 1]), twinjit::ArgValue::array(&row, &[4])]).unwrap();
    assert_eq!(r.shape(), &[3, 4]);
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![2.25, 2.5, 2.75, 3.0, 4.25, 4.5, 4.75, 5.0, 6.25, 6.5, 6.75, 7.0]);
    // A 2-D input keeps its shape; a number broadcasts.
    let g = engine.to_device_shaped(&[1.5f32, 2.5, 3.5, 4.5, 5.5, 6.5], &[2, 3]).unwrap();
    let r = axpb.call_ufunc::<f32>(&[(&g).into_kernel_arg(), KernelArg::Scalar(twinjit::ArgValue::F32(0.25))]).unwrap();
    assert_eq!(r.shape(), &[2, 3]);
    assert_eq!(r.to_vec().unwrap(), vec![3.25, 5.25, 7.25, 9.25, 11.25, 13.25]);
    // Into `out`, on a non-blocking stream.
    let stream = engine.stream(true).unwrap();
    let x = engine.to_device(&[0i64, 1, 4, -9, 16, -25, 100]).unwrap();
    let mut out = engine.zeros::<f64>(&[7]).unwrap();
    let sq = m.kernel("safe_sqrt").unwrap();
    sq.call_ufunc_into(&[(&x).into_kernel_arg()], &mut out, Some(&stream)).unwrap();
    stream.synchronize().unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![0.0, 1.0, 2.0, -3.0, 4.0, -5.0, 10.0]);
    // The wrong result type, a length that does not broadcast, a plain kernel: errors.
    let e = sq.call_ufunc::<f32>(&[(&x).into_kernel_arg()]).unwrap_err();
    assert!(e.to_string().contains("gives float64") && e.to_string().contains("float32"), "{e}");
    let short = engine.to_device(&[1.0f64, 2.0]).unwrap();
    let e = axpb.call_ufunc::<f64>(&[(&a).into_kernel_arg(), (&short).into_kernel_arg()]).unwrap_err();
    assert!(e.to_string().contains("2 elements where `out` has 5"), "{e}");
    let ints = engine.to_device(&[1i32, 2, 3]).unwrap();
    let e = axpb.call_ufunc::<f64>(&[(&ints).into_kernel_arg(), (&ints).into_kernel_arg()]).unwrap_err();
    assert!(e.to_string().contains("no loop of the signature list"), "{e}");
    let plain = engine
        .load("plain.py", "from numba import cuda\n@cuda.jit\ndef one(out):\n    out[0] = 1.0\n")
        .unwrap()
        .kernel("one")
        .unwrap();
    assert!(!plain.is_ufunc());
    let e = plain.call_ufunc::<f64>(&[]).unwrap_err();
    assert!(e.to_string().contains("not a CUDA ufunc"), "{e}");
}

/// CUDA gufuncs called from Rust as numba-cuda calls them: `f(a, b, out)` with loop
/// dimensions of any shape (flattened), a broadcast input, a number for a scalar core, on a
/// stream, and the errors. Expected values are those of tests/kernels_cuda/cuda_gufuncs.py
/// (the same functions as CPU gufuncs under Numba 0.68.1).
#[test]
fn cuda_gufuncs_are_called_like_numba_cuda() {
    use twinjit::cuda::IntoKernelArg;
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions::default()) else { return };
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kernels_cuda/cuda_gufuncs.py")).unwrap();
    let m = engine.load("cuda_gufuncs.py", &text).unwrap();
    let dot = m.kernel("row_dot").unwrap();
    assert!(dot.gufunc_layout().is_some() && !dot.is_ufunc());
    // A (2, 2) loop of 2-vectors: the loop dimensions flatten into one; `b` has no loop
    // dimensions and broadcasts, as numba-cuda broadcasts it.
    let a = engine.to_device_shaped(&[1.0f64, 2.0, 3.0, 4.0, 0.5, -1.0, 2.0, 2.0], &[2, 2, 2]).unwrap();
    let b = engine.to_device_shaped(&[2.0f64, 0.5], &[2]).unwrap();
    let out = engine.zeros::<f64>(&[2, 2]).unwrap();
    dot.call_gufunc(&[(&a).into_kernel_arg(), (&b).into_kernel_arg(), (&out).into_kernel_arg()], None).unwrap();
    engine.synchronize().unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![3.0, 8.0, 0.5, 5.0]);
    // A number for the `()` input, on a non-blocking stream.
    let stream = engine.stream(true).unwrap();
    let shift = m.kernel("scale_shift").unwrap();
    let x = engine.to_device_shaped(&[1.0f64, 2.0, 3.0, 0.5, -1.0, 4.0], &[2, 3]).unwrap();
    let o = engine.zeros::<f64>(&[2, 3]).unwrap();
    let three = KernelArg::Scalar(twinjit::ArgValue::F64(3.0));
    shift.call_gufunc(&[(&x).into_kernel_arg(), three, (&o).into_kernel_arg()], Some(&stream)).unwrap();
    stream.synchronize().unwrap();
    assert_eq!(o.to_vec().unwrap(), vec![4.0, 7.0, 10.0, 2.5, -2.0, 13.0]);
    // Two core dimensions.
    let mv = m.kernel("matvec").unwrap();
    let mats = [1.0f64, 2.0, 3.0, 0.0, 1.0, 0.0, 2.0, 2.0, 2.0, 1.0, -1.0, 0.5];
    let mats = engine.to_device_shaped(&mats, &[2, 2, 3]).unwrap();
    let vecs = engine.to_device_shaped(&[1.0f64, 0.5, 2.0, 3.0, 1.0, -2.0], &[2, 3]).unwrap();
    let res = engine.zeros::<f64>(&[2, 2]).unwrap();
    mv.call_gufunc(&[(&mats).into_kernel_arg(), (&vecs).into_kernel_arg(), (&res).into_kernel_arg()], None).unwrap();
    engine.synchronize().unwrap();
    assert_eq!(res.to_vec().unwrap(), vec![8.0, 0.5, 4.0, 1.0]);
    // Mismatched core dimensions, a wrong count, a plain kernel: errors.
    let c3 = engine.zeros::<f64>(&[2, 3]).unwrap();
    let e = dot.call_gufunc(&[(&a).into_kernel_arg(), (&c3).into_kernel_arg(), (&out).into_kernel_arg()], None);
    assert!(e.unwrap_err().to_string().contains("core dimension `n` is 3 here but 2"));
    let e = dot.call_gufunc(&[(&a).into_kernel_arg()], None).unwrap_err();
    assert!(e.to_string().contains("takes 2 inputs and 1 outputs"), "{e}");
    let e = m.kernel("row_dot").unwrap().call_ufunc::<f64>(&[(&a).into_kernel_arg()]).unwrap_err();
    assert!(e.to_string().contains("not a CUDA ufunc"), "{e}");
}

/// `Kernel::verify` on the GPU: an agreeing kernel, and a deliberate race (every thread adds
/// to one counter without an atomic) that the comparison reports with the element.
#[test]
fn kernel_verify_agrees_and_finds_a_race() {
    libdevice_from_repo();
    let Some(engine) = gpu_engine(EngineOptions::default()) else { return };
    let src = "from numba import cuda\n\n@cuda.jit\ndef double(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n\n@cuda.jit\ndef racy(c):\n    c[0] += 1\n";
    let m = engine.load("verify.py", src).unwrap();
    let a = engine.to_device(&(0..1000).map(f64::from).collect::<Vec<_>>()).unwrap();
    let r = m.kernel("double").unwrap().verify(LaunchConfig::linear(4, 256), (&a,), None).unwrap();
    assert!(r.agrees(), "{r}");
    assert_eq!(r.values, 1000);
    assert_eq!(a.to_vec().unwrap()[999], 1998.0, "the device array keeps the GPU's result");
    let c = engine.zeros::<i64>(&[1]).unwrap();
    let r = m.kernel("racy").unwrap().verify(LaunchConfig::linear(64, 256), (&c,), None).unwrap();
    assert!(!r.agrees(), "lost updates on the GPU: {r}");
    assert!(r.first[0].starts_with("c[0]: ") && r.first[0].contains("16384 (cuda-sim)"), "{r}");
}
