//! `twinjit run` and `twinjit bench`: bind `--arg NAME=...` by parameter name (a parameter
//! with a default may be left out), call, report one JSON object on stdout.

use crate::npy::{self, Npy, NpyData};
use std::path::PathBuf;
use std::time::Instant;
use twinjit::{ArgValue, Engine, Error, Target, Value};

/// Common options of `run` and `bench`.
pub struct RunArgs {
    pub file: String,
    pub func: String,
    pub target: String,
    pub launch: Option<String>,
    pub args: Vec<String>,
    pub boundscheck: Option<bool>,
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    pub shared_mem: u32,
    pub cache: String,
    /// `--compile-plain`: undecorated functions compile as `njit(pyfunc)` would.
    pub compile_plain: bool,
    /// `--race-check` (with `--target interp`).
    pub race_check: bool,
}

impl RunArgs {
    /// The engine for `--target` with `--boundscheck`.
    pub(crate) fn engine(&self, target: Target) -> Result<Engine, String> {
        let cache = match self.cache.as_str() {
            "decorator" => twinjit::CacheMode::Decorator,
            "always" | "on" => twinjit::CacheMode::Always,
            "off" => twinjit::CacheMode::Off,
            other => return Err(format!("error: --cache {other}: expected decorator, always or off")),
        };
        let options = twinjit::EngineOptions {
            boundscheck: self.boundscheck,
            cache,
            compile_plain_functions: self.compile_plain,
            ..Default::default()
        };
        Engine::with_options(target, options).map_err(|e| format!("error: {e}"))
    }
}

pub(crate) enum Bound {
    /// A scalar or `None` (never an array: those are `Array`).
    Scalar(ArgValue<'static>),
    /// A tuple of scalars and `None`s.
    Tuple(Vec<ArgValue<'static>>),
    Array(Npy),
}

/// `--arg NAME=none` or a scalar `DTYPE:VALUE`, or a flat tuple of them in parentheses:
/// `(int64:3, float64:0.5)`.
fn parse_bound(name: &str, text: &str) -> Result<Bound, String> {
    // A string is taken as written, spaces included.
    if let Some(s) = text.strip_prefix("str:") {
        return Ok(Bound::Scalar(ArgValue::Str(twinjit::ir::intern(s))));
    }
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let items = inner.split(',').map(str::trim).filter(|s| !s.is_empty());
        let parts = items.map(|x| parse_scalar(name, x)).collect::<Result<Vec<_>, _>>()?;
        return Ok(Bound::Tuple(parts));
    }
    parse_scalar(name, t).map(Bound::Scalar)
}

fn parse_scalar(name: &str, text: &str) -> Result<ArgValue<'static>, String> {
    if text == "none" || text == "None" {
        return Ok(ArgValue::None);
    }
    let (dtype, value) = text.split_once(':').ok_or_else(|| {
        format!(
            "--arg {name}={text}: expected PATH.npy, DTYPE:VALUE (e.g. int64:10), str:TEXT, none, (DTYPE:VALUE, ...) or \
             xoroshiro128p:N:SEED"
        )
    })?;
    if dtype == "str" {
        // A string: the function is specialised for its value (interned for the process).
        return Ok(ArgValue::Str(twinjit::ir::intern(value)));
    }
    let bad = || format!("--arg {name}: `{value}` is not a valid {dtype}");
    fn int<T: std::str::FromStr>(v: &str) -> Option<T> {
        v.parse().ok()
    }
    Ok(match twinjit::ir::Scalar::parse(dtype) {
        Some(twinjit::ir::Scalar::Float64) => ArgValue::F64(parse_float(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::Float32) => ArgValue::F32(parse_float(value).ok_or_else(bad)? as f32),
        Some(twinjit::ir::Scalar::Float16) => ArgValue::F16(twinjit::f16::from_f64(parse_float(value).ok_or_else(bad)?)),
        Some(twinjit::ir::Scalar::Int64) => ArgValue::I64(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::Int32) => ArgValue::I32(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::Int16) => ArgValue::I16(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::Int8) => ArgValue::I8(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::UInt64) => ArgValue::U64(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::UInt32) => ArgValue::U32(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::UInt16) => ArgValue::U16(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::UInt8) => ArgValue::U8(int(value).ok_or_else(bad)?),
        Some(twinjit::ir::Scalar::Complex128) => {
            let (re, im) = parse_complex(value).ok_or_else(bad)?;
            ArgValue::C128(twinjit::Complex64::new(re, im))
        }
        Some(twinjit::ir::Scalar::Complex64) => {
            let (re, im) = parse_complex(value).ok_or_else(bad)?;
            ArgValue::C64(twinjit::Complex32::new(re as f32, im as f32))
        }
        Some(twinjit::ir::Scalar::Bool) => ArgValue::Bool(match value {
            "true" | "True" | "1" => true,
            "false" | "False" | "0" => false,
            _ => return Err(bad()),
        }),
        None => {
            return Err(format!(
                "--arg {name}: unknown dtype `{dtype}` (float64 float32 float16 int8..int64 uint8..uint64 bool complex64 complex128)"
            ))
        }
    })
}

/// A complex number as Python writes it: `1+2j`, `-1.5e3-2j`, `2j`, `3`, `nan+infj`.
fn parse_complex(s: &str) -> Option<(f64, f64)> {
    let s = s.trim();
    let Some(body) = s.strip_suffix('j').or_else(|| s.strip_suffix('J')) else {
        return Some((parse_float(s)?, 0.0));
    };
    // The imaginary part starts at the last sign that is not the first character and does
    // not follow an exponent's `e`.
    let b = body.as_bytes();
    let split = (1..b.len()).rev().find(|&k| matches!(b[k], b'+' | b'-') && !matches!(b[k - 1], b'e' | b'E'));
    let imag = |t: &str| match t {
        "" | "+" => Some(1.0),
        "-" => Some(-1.0),
        t => parse_float(t.strip_prefix('+').unwrap_or(t)),
    };
    match split {
        Some(k) => Some((parse_float(&body[..k])?, imag(&body[k..])?)),
        None => Some((0.0, imag(body)?)),
    }
}

fn parse_float(s: &str) -> Option<f64> {
    match s {
        "nan" | "NaN" => Some(f64::NAN),
        "inf" | "Infinity" => Some(f64::INFINITY),
        "-inf" | "-Infinity" => Some(f64::NEG_INFINITY),
        _ => s.parse().ok(),
    }
}

pub(crate) fn json_float(x: f64) -> String {
    if x.is_nan() {
        "\"NaN\"".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "\"Infinity\"".into()
        } else {
            "\"-Infinity\"".into()
        }
    } else {
        let s = format!("{x:?}");
        s
    }
}

/// A returned value as JSON (tuples and lists as lists, None as null, a dict as an object
/// whose keys are Python's `str()` of the keys, as `json.dumps` writes int and float keys).
pub fn json_value(v: &Value) -> String {
    match v {
        Value::Dict(kvs) => format!(
            "{{{}}}",
            kvs.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Value::Str(text) => text.clone(),
                        Value::Bool(b) => b.to_string(),
                        other => other.to_string(),
                    };
                    format!("{}: {}", json_string(&key), json_value(v))
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::None => "null".into(),
        Value::Str(text) => json_string(text),
        Value::Bool(b) => b.to_string(),
        Value::I32(i) => i.to_string(),
        Value::I64(i) => i.to_string(),
        Value::I8(i) => i.to_string(),
        Value::I16(i) => i.to_string(),
        Value::U8(i) => i.to_string(),
        Value::U16(i) => i.to_string(),
        Value::U32(i) => i.to_string(),
        Value::U64(i) => i.to_string(),
        Value::F32(x) => json_float(*x as f64),
        Value::F64(x) => json_float(*x),
        Value::F16(x) => json_float(x.to_f64()),
        Value::C64(z) => format!("{{\"real\": {}, \"imag\": {}}}", json_float(z.re as f64), json_float(z.im as f64)),
        Value::C128(z) => format!("{{\"real\": {}, \"imag\": {}}}", json_float(z.re), json_float(z.im)),
        Value::Tuple(vs) | Value::List(vs) | Value::Set(vs) => {
            format!("[{}]", vs.iter().map(json_value).collect::<Vec<_>>().join(", "))
        }
        Value::Array(a) => format!(
            "{{\"dtype\": \"{}\", \"shape\": [{}]{}}}",
            a.dtype().name(),
            a.shape().iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "),
            array_data(a).map(|d| format!(", \"data\": {d}")).unwrap_or_default()
        ),
    }
}

/// Arrays of at most this many elements show their elements in the JSON of a result (larger
/// ones only in `--out`'s `.npy` files).
const INLINE_ARRAY_ELEMENTS: usize = 4096;

/// The elements of a small array as nested JSON lists (C order), as `a.tolist()` would give.
fn array_data(a: &twinjit::Array) -> Option<String> {
    use twinjit::ir::Scalar;
    if a.shape().iter().product::<usize>() > INLINE_ARRAY_ELEMENTS {
        return None;
    }
    fn each<T: twinjit::Element>(a: &twinjit::Array, f: impl Fn(T) -> Value) -> Option<Vec<String>> {
        Some(a.to_vec::<T>()?.into_iter().map(|x| json_value(&f(x))).collect())
    }
    let flat = match a.dtype() {
        Scalar::Bool => each(a, Value::Bool),
        Scalar::Int8 => each(a, Value::I8),
        Scalar::Int16 => each(a, Value::I16),
        Scalar::Int32 => each(a, Value::I32),
        Scalar::Int64 => each(a, Value::I64),
        Scalar::UInt8 => each(a, Value::U8),
        Scalar::UInt16 => each(a, Value::U16),
        Scalar::UInt32 => each(a, Value::U32),
        Scalar::UInt64 => each(a, Value::U64),
        Scalar::Float16 => each(a, Value::F16),
        Scalar::Float32 => each(a, Value::F32),
        Scalar::Float64 => each(a, Value::F64),
        Scalar::Complex64 => each(a, Value::C64),
        Scalar::Complex128 => each(a, Value::C128),
    }?;
    fn nest(flat: &[String], shape: &[usize]) -> String {
        match shape.split_first() {
            None => flat.first().cloned().unwrap_or_default(),
            Some((&n, rest)) => {
                let step = rest.iter().product::<usize>();
                let parts: Vec<String> = (0..n).map(|k| nest(&flat[k * step..(k + 1) * step], rest)).collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }
    Some(nest(&flat, a.shape()))
}

/// Writes the arrays of a result to `DIR/return.npy`, or for a tuple `DIR/return_K.npy` per
/// element (`return_K_L.npy` inside nested tuples).
fn write_returned(dir: &std::path::Path, v: &Value, name: &str) -> Result<(), String> {
    match v {
        Value::Array(a) => {
            use twinjit::ir::Scalar;
            let data = match a.dtype() {
                Scalar::Bool => NpyData::Bool(a.to_vec().unwrap_or_default()),
                Scalar::Int32 => NpyData::I32(a.to_vec().unwrap_or_default()),
                Scalar::Int64 => NpyData::I64(a.to_vec().unwrap_or_default()),
                Scalar::Float32 => NpyData::F32(a.to_vec().unwrap_or_default()),
                Scalar::Float64 => NpyData::F64(a.to_vec().unwrap_or_default()),
                Scalar::Int8 => NpyData::I8(a.to_vec().unwrap_or_default()),
                Scalar::Int16 => NpyData::I16(a.to_vec().unwrap_or_default()),
                Scalar::UInt8 => NpyData::U8(a.to_vec().unwrap_or_default()),
                Scalar::UInt16 => NpyData::U16(a.to_vec().unwrap_or_default()),
                Scalar::UInt32 => NpyData::U32(a.to_vec().unwrap_or_default()),
                Scalar::UInt64 => NpyData::U64(a.to_vec().unwrap_or_default()),
                Scalar::Complex64 => NpyData::C64(a.to_vec().unwrap_or_default()),
                Scalar::Complex128 => NpyData::C128(a.to_vec().unwrap_or_default()),
                Scalar::Float16 => NpyData::F16(a.to_vec().unwrap_or_default()),
            };
            let path = dir.join(format!("{name}.npy"));
            npy::write(&path, &Npy { data, shape: a.shape().to_vec(), fortran: false })
                .map_err(|e| format!("error: writing {}: {e}", path.display()))
        }
        Value::Tuple(vs) => vs.iter().enumerate().try_for_each(|(k, e)| write_returned(dir, e, &format!("{name}_{k}"))),
        _ => Ok(()),
    }
}

pub(crate) fn ms(d: std::time::Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

pub(crate) struct Prepared {
    pub(crate) function: twinjit::Function,
    pub(crate) params: Vec<String>,
    pub(crate) bound: Vec<Bound>,
    load: std::time::Duration,
}

/// `--target interp` runs only under `run`; `--race-check` only with it.
pub(crate) fn check_interp_flags(a: &RunArgs, command: &str) -> Result<(), String> {
    if a.target == "cuda-sim" && !matches!(command, "run" | "bench") {
        return Err(format!("error: --target cuda-sim is for `twinjit run` and `twinjit bench`, not `{command}`"));
    }
    if a.target == "interp" && command != "run" {
        return Err(format!(
            "error: --target interp is for `twinjit run`, not `{command}` (the interpreter is the reference, not a target to time or verify)"
        ));
    }
    if a.race_check && a.target != "interp" && a.target != "cuda-sim" {
        return Err(
            "error: --race-check needs --target cuda-sim or interp (kernels without a GPU, where races are checked)"
                .into(),
        );
    }
    Ok(())
}

pub(crate) fn prepare(a: &RunArgs) -> Result<Prepared, String> {
    let target: Target = a.target.parse()?;
    if a.launch.is_some() && target == Target::Host {
        return Err("error: --launch is only meaningful for --target cuda".into());
    }
    let engine = a.engine(target)?;
    let t = Instant::now();
    let module = engine.load_file(&a.file).map_err(|e| e.to_string())?;
    let load = t.elapsed();
    warn_refused(&module, &a.func);
    let function = module.function(&a.func).map_err(err_text)?;
    let params = function.params().to_vec();
    let bound = bind_with_defaults(a, &params, |k| function.param_default(k))?;
    Ok(Prepared { function, params, bound, load })
}

/// One line on stderr for each function of `module` the front end refused (other than `func`,
/// whose error the run reports in full).
pub(crate) fn warn_refused(module: &twinjit::Module, func: &str) {
    for (name, error) in module.refused() {
        if name != func {
            let first = error.to_string().lines().next().unwrap_or_default().to_string();
            eprintln!("twinjit: warning: `{name}` is not compiled ({})", first.trim_start_matches("error: "));
        }
    }
}

/// Binds every `--arg NAME=VALUE` to a parameter by name; every parameter must be bound once
/// (kernels: a launch passes every argument).
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) fn bind(a: &RunArgs, params: &[String]) -> Result<Vec<Bound>, String> {
    bind_with_defaults(a, params, |_| None)
}

/// [`bind`], where a parameter without an `--arg` takes `default(k)` if it has one.
fn bind_with_defaults(
    a: &RunArgs,
    params: &[String],
    default: impl Fn(usize) -> Option<ArgValue<'static>>,
) -> Result<Vec<Bound>, String> {
    let mut slots: Vec<Option<Bound>> = params.iter().map(|_| None).collect();
    for spec in &a.args {
        let (name, value) =
            spec.split_once('=').ok_or_else(|| format!("error: --arg expects NAME=VALUE, got `{spec}`"))?;
        let Some(k) = params.iter().position(|p| p == name) else {
            return Err(format!("error: `{}` has no parameter `{name}` (parameters: {})", a.func, params.join(", ")));
        };
        if slots[k].is_some() {
            return Err(format!("error: parameter `{name}` given twice"));
        }
        let bound = if value.ends_with(".npy") {
            let bytes = std::fs::read(value).map_err(|e| format!("error: cannot read `{value}`: {e}"))?;
            let arr = npy::parse(&bytes).map_err(|e| format!("error: `{value}`: {e}"))?;
            if let Err(why) = twinjit::ir::types::check_ndim(arr.shape.len()) {
                return Err(format!("error: `{value}` is {why}"));
            }
            Bound::Array(arr)
        } else if let Some(spec) = value.strip_prefix("xoroshiro128p:") {
            // numba.cuda.random's `create_xoroshiro128p_states(N, SEED)`.
            let parsed =
                spec.split_once(':').and_then(|(n, s)| Some((n.parse::<usize>().ok()?, s.parse::<u64>().ok()?)));
            let Some((n, seed)) = parsed.filter(|(n, _)| *n <= 1 << 24) else {
                return Err(format!(
                    "error: --arg {name}={value}: expected xoroshiro128p:N:SEED (N generators, up to 16777216, and a seed)"
                ));
            };
            let states = twinjit::xoroshiro128p_states(n, seed, 0);
            Bound::Array(npy::Npy { data: npy::NpyData::U64(states), shape: vec![n, 2], fortran: false })
        } else {
            parse_bound(name, value).map_err(|e| format!("error: {e}"))?
        };
        slots[k] = Some(bound);
    }
    for (k, slot) in slots.iter_mut().enumerate() {
        if slot.is_none() {
            *slot = default(k)
                .filter(|d| d.scalar().is_some() || matches!(d, ArgValue::None | ArgValue::Str(_)))
                .map(Bound::Scalar);
        }
    }
    let missing: Vec<&str> = params.iter().zip(&slots).filter(|(_, s)| s.is_none()).map(|(p, _)| p.as_str()).collect();
    if !missing.is_empty() {
        return Err(format!(
            "error: missing --arg for parameter{} {}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        ));
    }
    Ok(slots.into_iter().map(|s| s.expect("checked")).collect())
}

pub(crate) fn arg_values(bound: &mut [Bound]) -> Vec<ArgValue<'_>> {
    bound
        .iter_mut()
        .map(|b| match b {
            Bound::Scalar(s) => *s,
            Bound::Tuple(items) => ArgValue::Tuple(items),
            Bound::Array(a) => {
                let fortran = a.fortran;
                crate::npy::each_npy!(&mut a.data, v => if fortran {
                    ArgValue::array_fortran_mut(v, &a.shape)
                } else {
                    ArgValue::array_mut(v, &a.shape)
                })
            }
        })
        .collect()
}

pub(crate) fn err_text(e: Error) -> String {
    match e {
        Error::Compile(c) => c.rendered,
        other => format!("error: {other}"),
    }
}

/// `twinjit run`.
pub fn run(a: &RunArgs, out: Option<PathBuf>) -> Result<String, String> {
    check_interp_flags(a, "run")?;
    if a.target == "interp" {
        return crate::run_interp::run(a, out);
    }
    if a.target == "cuda-sim" {
        return crate::run_interp::run_sim(a, out);
    }
    if is_cuda(&a.target) {
        return crate::run_cuda::run(a, out);
    }
    let mut p = prepare(a)?;
    let t0 = Instant::now();
    let spec = p.function.specialize(arg_values(&mut p.bound)).map_err(err_text)?;
    let compile = t0.elapsed();
    let t1 = Instant::now();
    let r: Value = spec.call(&spec.convert(&arg_values(&mut p.bound))).map_err(err_text)?;
    let run = t1.elapsed();
    if let Some(dir) = out {
        write_outputs(&dir, &p.params, &p.bound)?;
        write_returned(&dir, &r, "return")?;
    }
    Ok(format!(
        "{{\"return\": {}, \"compile_ms\": {}, \"run_ms\": {}, \"load_ms\": {}}}\n",
        json_value(&r),
        ms(compile),
        ms(run),
        ms(p.load)
    ))
}

/// `twinjit bench`.
pub fn bench(a: &RunArgs, warmup: usize, reps: usize) -> Result<String, String> {
    if reps == 0 {
        return Err("error: --reps must be at least 1".into());
    }
    check_interp_flags(a, "bench")?;
    if a.target == "cuda-sim" {
        return crate::run_interp::bench_sim(a, warmup, reps);
    }
    if is_cuda(&a.target) {
        return crate::run_cuda::bench(a, warmup, reps);
    }
    let mut p = prepare(a)?;
    let t0 = Instant::now();
    let spec = p.function.specialize(arg_values(&mut p.bound)).map_err(err_text)?;
    let compile = t0.elapsed();
    for _ in 0..warmup {
        spec.call::<Value>(&spec.convert(&arg_values(&mut p.bound))).map_err(err_text)?;
    }
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let args = spec.convert(&arg_values(&mut p.bound));
        let t = Instant::now();
        spec.call::<Value>(&args).map_err(err_text)?;
        times.push(t.elapsed());
    }
    times.sort();
    let median = median(&times);
    Ok(format!(
        "{{\"compile_ms\": {}, \"median_ms\": {}, \"min_ms\": {}, \"max_ms\": {}, \"reps\": {reps}}}\n",
        ms(compile),
        ms(median),
        ms(times[0]),
        ms(times[reps - 1])
    ))
}

fn is_cuda(target: &str) -> bool {
    target == "cuda" || target.starts_with("cuda:")
}

/// Writes every bound array to `DIR/NAME.npy`.
pub(crate) fn write_outputs(dir: &std::path::Path, params: &[String], bound: &[Bound]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("error: cannot create `{}`: {e}", dir.display()))?;
    for (name, b) in params.iter().zip(bound) {
        if let Bound::Array(arr) = b {
            let path = dir.join(format!("{name}.npy"));
            npy::write(&path, arr).map_err(|e| format!("error: cannot write `{}`: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The median of sorted durations.
pub(crate) fn median<T: Copy + std::ops::Add<Output = T> + std::ops::Div<u32, Output = T>>(sorted: &[T]) -> T {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

/// A string as a JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
