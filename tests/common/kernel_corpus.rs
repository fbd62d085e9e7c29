//! The CUDA kernel corpus (`tests/kernels_cuda/*.py`) run by a kernel runner (the reference
//! interpreter, `cuda-sim`), each launch's arrays compared with the `# check:` lines, whose
//! expected values come from numba-cuda's simulator (`verify_numba_cudasim.py`): ints and bools
//! exactly, floats exactly unless the kernel calls a `math` function or `cuda.fma` (then within
//! 1e-12 relative for float64 and 1e-6 for float32: the simulator computes `math.*` in float64,
//! GPUs and twinjit in the argument's type).

use super::{corpus_in, flatten, read_checks, Expect, Lit};
use twinjit::ir::interp::{KernelLaunch, RtValue, RuntimeError};
use twinjit::ir::{Builtin, InstKind, Signature, TypedProgram};
use twinjit::SourceModule;

/// Whether the program calls a float math function (results may differ in the last bits
/// between libm, libdevice and the simulator's float64 `math`).
pub fn uses_math(p: &TypedProgram) -> bool {
    p.functions.iter().flat_map(|f| &f.func.insts).any(|i| match &i.kind {
        InstKind::Builtin(b, _) => b.name().starts_with("math.") || *b == Builtin::Fma,
        _ => false,
    })
}

pub fn close(got: f64, want: f64, rel: f64) -> bool {
    got == want || (got.is_nan() && want.is_nan()) || (got - want).abs() <= rel * got.abs().max(want.abs())
}

/// Whether array element `got` is `want` (ints and bools exact and of the array's kind).
pub fn element_matches(got: &RtValue, want: &Lit, math: bool) -> bool {
    match (got, want) {
        (RtValue::I64(g), Lit::Int(w)) => g == w,
        (RtValue::I32(g), Lit::Int(w)) => *g as i64 == *w,
        (g, Lit::Int(w)) if g.int_bits().is_some_and(|(s, _)| s.is_int()) => {
            g.int_bits().is_some_and(|(s, b)| s.int_value(b) == *w as i128)
        }
        (RtValue::U64(g), Lit::UInt(w)) => g == w,
        (RtValue::Bool(g), Lit::Bool(w)) => g == w,
        (RtValue::F64(g), Lit::Float(w)) => close(*g, *w, if math { 1e-12 } else { 0.0 }),
        // A float32 is compared as the float64 the simulator's `tolist()` printed.
        (RtValue::F32(g), Lit::Float(w)) => close(*g as f64, *w, if math { 1e-6 } else { 0.0 }),
        // A float16 likewise; math on float16 rounds to 11 bits, so half an ulp is 2**-11.
        (RtValue::F16(g), Lit::Float(w)) => close(g.to_f64(), *w, if math { 5e-4 } else { 0.0 }),
        (RtValue::C128([re, im]), Lit::Complex(a, b)) => {
            let rel = if math { 1e-12 } else { 0.0 };
            close(*re, *a, rel) && close(*im, *b, rel)
        }
        (RtValue::C64([re, im]), Lit::Complex(a, b)) => {
            let rel = if math { 1e-6 } else { 0.0 };
            close(*re as f64, *a, rel) && close(*im as f64, *b, rel)
        }
        _ => false,
    }
}

/// `None` when the array equals `want`, else what differs.
pub fn compare_array(got: &RtValue, want: &Lit, math: bool) -> Option<String> {
    let RtValue::Array(a) = got else { return Some(format!("{got} is not an array")) };
    let mut shape = Vec::new();
    let mut vals = Vec::new();
    flatten(want, &mut shape, 0, &mut vals);
    if shape != a.shape {
        return Some(format!("shape {:?}, expected {shape:?}", a.shape));
    }
    let got = a.to_vec();
    let bad: Vec<String> = got
        .iter()
        .zip(&vals)
        .enumerate()
        .filter(|(_, (g, w))| !element_matches(g, w, math))
        .map(|(k, (g, w))| format!("[{k}] {g} != {w:?}"))
        .collect();
    if bad.is_empty() {
        None
    } else {
        let more = if bad.len() > 8 { format!(" (and {} more)", bad.len() - 8) } else { String::new() };
        Some(format!("{}{more}", bad[..bad.len().min(8)].join(", ")))
    }
}

pub fn launch_of(grid: [u32; 3], block: [u32; 3], dynamic_shared_bytes: u32) -> KernelLaunch {
    KernelLaunch { grid, block, dynamic_shared_bytes }
}

/// What a runner did with one launch.
pub enum Run {
    /// It ran: the launch's result (the arrays are compared on success).
    Ran(Result<(), RuntimeError>),
    /// It could not run the launch (a compile error).
    Failed(String),
}

/// The outcome of the whole corpus.
pub struct Outcome {
    /// Checks found.
    pub ran: usize,
    /// Files read.
    pub files: usize,
    /// What failed, located.
    pub failures: Vec<String>,
}

/// Runs every check of the corpus through `run` (specialised with bounds checks on).
pub fn run_corpus(mut run: impl FnMut(&SourceModule, &TypedProgram, &[RtValue], &KernelLaunch) -> Run) -> Outcome {
    let mut out = Outcome { ran: 0, files: 0, failures: Vec::new() };
    let failures = &mut out.failures;
    for (name, text) in corpus_in("kernels_cuda") {
        out.files += 1;
        let module = match SourceModule::parse(&name, &text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: front end failed:\n{e}"));
                continue;
            }
        };
        let checks = match read_checks(&name, &text) {
            Ok(c) => c,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        for c in checks {
            out.ran += 1;
            let at = format!("{}:{} {}", c.file, c.line, c.call_text);
            let Some((grid, block)) = c.launch else {
                failures.push(format!("{at}: not a kernel launch"));
                continue;
            };
            let Some(args) = c.args.iter().map(super::arg_value).collect::<Option<Vec<RtValue>>>() else {
                failures.push(format!("{at}: unreadable argument"));
                continue;
            };
            let sig = Signature { args: args.iter().map(RtValue::ty).collect(), ret: None };
            let program = match module.specialize(&c.func, &sig, Some(true)) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{at}: compile failed:\n{e}"));
                    continue;
                }
            };
            let math = uses_math(&program);
            let result = match run(&module, &program, &args, &launch_of(grid, block, c.shared_bytes)) {
                Run::Ran(r) => r,
                Run::Failed(why) => {
                    failures.push(format!("{at}: {why}"));
                    continue;
                }
            };
            match (&c.expect, result) {
                (Expect::Raises(exc), Err(e)) if e.python_name() == exc.as_str() => {}
                (Expect::Raises(exc), other) => failures.push(format!("{at}: expected {exc}, got {other:?}")),
                (Expect::Value { ret, arrays }, Ok(())) => {
                    if !matches!(ret, Lit::None) {
                        failures.push(format!("{at}: a kernel returns None, the check expects {ret:?}"));
                    }
                    for (k, want) in arrays {
                        let Some(got) = args.get(*k) else {
                            failures.push(format!("{at}: no arg{k}"));
                            continue;
                        };
                        if let Some(diff) = compare_array(got, want, math) {
                            failures.push(format!("{at}: arg{k}: {diff}"));
                        }
                    }
                }
                (Expect::Value { .. }, Err(e)) => {
                    failures.push(format!("{at}: failed: {}", e.describe(module.sources())))
                }
            }
        }
    }
    out
}
