//! Shared test support: the `# check:` lines of the kernel corpus (`tests/kernels/*.py`).
//!
//! Format (the same lines `tests/kernels/verify_numba.py` checks under real Numba):
//! `# check: CALL -> EXPECTED [; argN == LIST]...` or `# check: CALL raises ExceptionName`,
//! optionally with the message `str(exc)`: `# check: CALL raises ValueError: negative input`
//! ([`Check::message`]; twinjit's own wording of ZeroDivisionError and IndexError is never
//! compared, so those checks carry a message only when the program raised them itself).
//! CALL arguments are Python literals, `np.int32(..)`-style scalars and `np.array/zeros/ones/
//! full/arange(...)` arrays (optionally `.reshape(...)`); EXPECTED is a literal, a tuple, `None`
//! or `math.nan/inf`.
//!
//! The CUDA corpus (`tests/kernels_cuda/*.py`, checked by `verify_numba_cudasim.py`) writes
//! kernel launches: `# check: KERNEL[GRID, BLOCK](ARGS) -> None ; argN == LIST`, GRID and
//! BLOCK an int or a tuple of up to three ints (`(2, 3)`); [`Check::launch`] holds them.
//! Numba's four-part form `KERNEL[GRID, BLOCK, 0, SHARED_BYTES]` (stream 0) sets the dynamic
//! shared memory ([`Check::shared_bytes`]).

#![allow(dead_code)]

pub mod kernel_corpus;

use ruff_python_ast::{self as ast, Expr};
use twinjit::ir::interp::{ArrayData, ArrayRef, RtValue};

/// What a check expects.
#[derive(Debug)]
pub enum Expect {
    /// Return value plus array arguments after the call.
    Value { ret: Lit, arrays: Vec<(usize, Lit)> },
    /// The named exception.
    Raises(String),
}

/// A Python literal of an expectation.
#[derive(Clone, Debug)]
pub enum Lit {
    Int(i64),
    /// An integer past `i64::MAX` (a uint64).
    UInt(u64),
    Float(f64),
    Bool(bool),
    None,
    Seq(Vec<Lit>),
    /// A complex number (`1+2j`, `complex(math.nan, 1.0)`).
    Complex(f64, f64),
    /// A string (`'linear'`).
    Str(String),
}

/// One `# check:` line.
#[derive(Debug)]
pub struct Check {
    pub file: String,
    pub line: usize,
    pub func: String,
    pub call_text: String,
    pub args: Vec<Expr>,
    pub expect: Expect,
    /// `KERNEL[GRID, BLOCK](...)`: (grid, block) with missing dimensions 1.
    pub launch: Option<([u32; 3], [u32; 3])>,
    /// Dynamic shared memory of the launch, in bytes.
    pub shared_bytes: u32,
    /// For `raises Class: message`, the message (`str(exc)`).
    pub message: Option<String>,
}

impl Check {
    /// Whether `e` is the exception this check expects (class and, when given, message).
    pub fn raised(&self, e: &twinjit::Error) -> bool {
        let Expect::Raises(class) = &self.expect else { return false };
        e.python_exception() == Some(class.as_str())
            && self.message.as_ref().is_none_or(|m| e.exception_message() == Some(m.as_str()))
    }
}

/// Reads every check of a corpus file.
pub fn read_checks(file: &str, text: &str) -> Result<Vec<Check>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("# check:") else { continue };
        let rest = rest.trim();
        let at = format!("{file}:{}", i + 1);
        let mut message = None;
        let (call, expect) = if let Some((c, exc)) = rest.split_once(" raises ") {
            // Array contents after a raise are not compared: compiled code may have stored
            // some elements before raising, exactly as Numba does, but that is not part of
            // the contract.
            let exc = exc.split(" ; ").next().unwrap_or("").trim();
            let (class, m) = match exc.split_once(": ") {
                Some((class, m)) => (class, Some(m.to_string())),
                None => (exc, None),
            };
            message = m;
            (c.trim(), Expect::Raises(class.to_string()))
        } else {
            let (c, e) = rest.split_once(" -> ").ok_or(format!("{at}: no ` -> ` in check"))?;
            let mut parts = e.split(" ; ");
            let ret = lit(&parse_expr(parts.next().unwrap_or("").trim()).map_err(|m| format!("{at}: {m}"))?)
                .ok_or(format!("{at}: bad expected value"))?;
            let mut arrays = Vec::new();
            for p in parts {
                let (name, val) = p.split_once("==").ok_or(format!("{at}: bad array check `{p}`"))?;
                let k: usize = name
                    .trim()
                    .strip_prefix("arg")
                    .and_then(|n| n.parse().ok())
                    .ok_or(format!("{at}: bad `{name}`"))?;
                let v =
                    lit(&parse_expr(val.trim()).map_err(|m| format!("{at}: {m}"))?).ok_or(format!("{at}: bad list"))?;
                arrays.push((k, v));
            }
            (c.trim(), Expect::Value { ret, arrays })
        };
        let Expr::Call(c) = parse_expr(call).map_err(|m| format!("{at}: {m}"))? else {
            return Err(format!("{at}: check is not a call"));
        };
        if !c.arguments.keywords.is_empty() {
            // The API takes positional arguments only; omitted trailing ones take defaults.
            return Err(format!("{at}: keyword arguments in a check (write them by position)"));
        }
        let (n, launch, shared_bytes) = match &*c.func {
            Expr::Name(n) => (n, None, 0),
            Expr::Subscript(s) => {
                let Expr::Name(n) = &*s.value else { return Err(format!("{at}: launched callee is not a name")) };
                let Expr::Tuple(cfg) = &*s.slice else { return Err(format!("{at}: launch is not [GRID, BLOCK]")) };
                let (grid, block, shared) = match &cfg.elts[..] {
                    [grid, block] => (grid, block, 0),
                    [grid, block, stream, shared] => {
                        if !matches!(lit(stream), Some(Lit::Int(0))) {
                            return Err(format!("{at}: only stream 0 is supported in checks"));
                        }
                        let Some(Lit::Int(b)) = lit(shared) else { return Err(format!("{at}: bad shared bytes")) };
                        (grid, block, u32::try_from(b).map_err(|_| format!("{at}: bad shared bytes"))?)
                    }
                    _ => return Err(format!("{at}: launch is not [GRID, BLOCK] or [GRID, BLOCK, 0, SHARED]")),
                };
                let grid = dims(grid).ok_or(format!("{at}: bad grid"))?;
                let block = dims(block).ok_or(format!("{at}: bad block"))?;
                (n, Some((grid, block)), shared)
            }
            _ => return Err(format!("{at}: callee is not a name")),
        };
        out.push(Check {
            file: file.to_string(),
            line: i + 1,
            func: n.id.to_string(),
            call_text: call.to_string(),
            args: c.arguments.args.to_vec(),
            expect,
            launch,
            shared_bytes,
            message,
        });
    }
    Ok(out)
}

/// A launch dimension: `N` or a tuple of one to three positive ints; missing ones are 1.
fn dims(e: &Expr) -> Option<[u32; 3]> {
    let ds: Vec<i64> = match lit(e)? {
        Lit::Int(n) => vec![n],
        Lit::Seq(items) => {
            items.iter().map(|x| if let Lit::Int(n) = x { Some(*n) } else { None }).collect::<Option<_>>()?
        }
        _ => return None,
    };
    if ds.is_empty() || ds.len() > 3 {
        return None;
    }
    let mut out = [1u32; 3];
    for (o, d) in out.iter_mut().zip(ds) {
        *o = u32::try_from(d).ok()?;
    }
    Some(out)
}

fn parse_expr(s: &str) -> Result<Expr, String> {
    ruff_python_parser::parse_expression(s).map(|p| *p.into_syntax().body).map_err(|e| format!("`{s}`: {e}"))
}

fn num(e: &Expr) -> Option<Lit> {
    match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => Some(match i.as_i64() {
                Some(v) => Lit::Int(v),
                None => Lit::UInt(i.as_u64()?),
            }),
            ast::Number::Float(f) => Some(Lit::Float(*f)),
            ast::Number::Complex { real, imag } => Some(Lit::Complex(*real, *imag)),
        },
        // `1+2j`, `-1.5-0.5j`: a real and an imaginary literal.
        Expr::BinOp(b) if matches!(b.op, ast::Operator::Add | ast::Operator::Sub) => {
            let re = match num(&b.left)? {
                Lit::Int(i) => i as f64,
                Lit::Float(x) => x,
                _ => return None,
            };
            let Lit::Complex(0.0, im) = num(&b.right)? else { return None };
            Some(Lit::Complex(re, if b.op == ast::Operator::Sub { -im } else { im }))
        }
        // `complex(re, im)` of real literals.
        Expr::Call(c) if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "complex") => {
            let part = |e: &Expr| match num(e)? {
                Lit::Int(i) => Some(i as f64),
                Lit::Float(x) => Some(x),
                _ => None,
            };
            match &c.arguments.args[..] {
                [re, im] => Some(Lit::Complex(part(re)?, part(im)?)),
                [re] => Some(Lit::Complex(part(re)?, 0.0)),
                _ => None,
            }
        }
        Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => match &*u.operand {
            Expr::NumberLiteral(n) if matches!(&n.value, ast::Number::Int(i) if i.as_u64() == Some(1 << 63)) => {
                Some(Lit::Int(i64::MIN))
            }
            operand => match num(operand)? {
                Lit::Int(i) => Some(Lit::Int(-i)),
                Lit::Float(f) => Some(Lit::Float(-f)),
                Lit::Complex(re, im) => Some(Lit::Complex(-re, -im)),
                _ => None,
            },
        },
        Expr::Attribute(a) => match a.attr.id.as_str() {
            "nan" => Some(Lit::Float(f64::NAN)),
            "inf" => Some(Lit::Float(f64::INFINITY)),
            "pi" => Some(Lit::Float(std::f64::consts::PI)),
            "e" => Some(Lit::Float(std::f64::consts::E)),
            _ => None,
        },
        _ => None,
    }
}

/// A literal (numbers, bools, None, tuples and lists).
pub fn lit(e: &Expr) -> Option<Lit> {
    match e {
        Expr::BooleanLiteral(b) => Some(Lit::Bool(b.value)),
        Expr::NoneLiteral(_) => Some(Lit::None),
        Expr::StringLiteral(s) => Some(Lit::Str(s.value.to_str().to_string())),
        Expr::Tuple(t) => t.elts.iter().map(lit).collect::<Option<_>>().map(Lit::Seq),
        Expr::List(l) => l.elts.iter().map(lit).collect::<Option<_>>().map(Lit::Seq),
        e => num(e),
    }
}

fn np_call(e: &Expr) -> Option<(&str, &ast::ExprCall)> {
    let Expr::Call(c) = e else { return None };
    let Expr::Attribute(a) = &*c.func else { return None };
    Some((a.attr.id.as_str(), c))
}

fn dtype_kw(c: &ast::ExprCall) -> Option<String> {
    c.arguments.keywords.iter().find(|k| k.arg.as_ref().is_some_and(|a| a.id.as_str() == "dtype")).and_then(
        |k| match &k.value {
            Expr::Attribute(a) => Some(a.attr.id.to_string()),
            _ => None,
        },
    )
}

/// The leaves of a nested literal in row-major order, and its shape.
pub fn flatten(l: &Lit, shape: &mut Vec<i64>, depth: usize, out: &mut Vec<Lit>) {
    match l {
        Lit::Seq(items) => {
            if shape.len() <= depth {
                shape.push(items.len() as i64);
            }
            for it in items {
                flatten(it, shape, depth + 1, out);
            }
        }
        other => out.push(other.clone()),
    }
}

fn make_array(dtype: &str, shape: Vec<i64>, vals: &[Lit]) -> Option<RtValue> {
    let f = |l: &Lit| match l {
        Lit::Int(i) => *i as f64,
        Lit::Float(x) => *x,
        Lit::Bool(b) => *b as i64 as f64,
        _ => 0.0,
    };
    let i = |l: &Lit| match l {
        Lit::Int(i) => *i,
        Lit::UInt(u) => *u as i64,
        Lit::Float(x) => *x as i64,
        Lit::Bool(b) => *b as i64,
        _ => 0,
    };
    let c = |l: &Lit| match l {
        Lit::Complex(re, im) => [*re, *im],
        l => [f(l), 0.0],
    };
    let data = match dtype {
        "complex128" => ArrayData::C128(vals.iter().map(c).collect()),
        "complex64" => ArrayData::C64(vals.iter().map(|v| c(v).map(|x| x as f32)).collect()),
        "float64" => ArrayData::F64(vals.iter().map(f).collect()),
        "float32" => ArrayData::F32(vals.iter().map(|v| f(v) as f32).collect()),
        "float16" => ArrayData::F16(vals.iter().map(|v| twinjit::f16::from_f64(f(v))).collect()),
        "int64" => ArrayData::I64(vals.iter().map(i).collect()),
        "int32" => ArrayData::I32(vals.iter().map(|v| i(v) as i32).collect()),
        "int16" => ArrayData::I16(vals.iter().map(|v| i(v) as i16).collect()),
        "int8" => ArrayData::I8(vals.iter().map(|v| i(v) as i8).collect()),
        "uint64" => ArrayData::U64(vals.iter().map(|v| i(v) as u64).collect()),
        "uint32" => ArrayData::U32(vals.iter().map(|v| i(v) as u32).collect()),
        "uint16" => ArrayData::U16(vals.iter().map(|v| i(v) as u16).collect()),
        "uint8" => ArrayData::U8(vals.iter().map(|v| i(v) as u8).collect()),
        "bool_" => ArrayData::Bool(vals.iter().map(|v| i(v) != 0).collect()),
        _ => return None,
    };
    Some(RtValue::Array(ArrayRef::new(data, shape)?))
}

fn shape_of(e: &Expr) -> Option<Vec<i64>> {
    match lit(e)? {
        Lit::Int(n) => Some(vec![n]),
        Lit::Seq(items) => items.iter().map(|x| if let Lit::Int(n) = x { Some(*n) } else { None }).collect(),
        _ => None,
    }
}

/// Builds a fresh runtime value for a check argument.
pub fn arg_value(e: &Expr) -> Option<RtValue> {
    // numba.cuda.random's `create_xoroshiro128p_states(n, seed)`: the states as twinjit holds
    // them, a (n, 2) uint64 array (the draws' results are checked against numba's).
    if let Expr::Call(c) = e {
        if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "create_xoroshiro128p_states") {
            let a = &c.arguments;
            let int = |e: &Expr| if let Some(Lit::Int(i)) = num(e) { Some(i) } else { None };
            let kw = |name: &str| a.keywords.iter().find(|k| k.arg.as_ref().is_some_and(|x| x.id.as_str() == name));
            let n = int(a.args.first()?)?;
            let seed = match (a.args.get(1), kw("seed")) {
                (Some(s), None) => int(s)?,
                (None, Some(k)) => int(&k.value)?,
                _ => return None,
            };
            let states = twinjit::ir::random::xoroshiro128p::states(usize::try_from(n).ok()?, seed as u64, 0);
            return ArrayRef::new(ArrayData::U64(states), vec![n, 2]).map(RtValue::Array);
        }
    }
    if let Some((name, c)) = np_call(e) {
        // `ARRAY.reshape(d0, d1)` / `.reshape((d0, d1))`: the same elements, C order.
        if let (Expr::Attribute(a), "reshape") = (&*c.func, name) {
            let RtValue::Array(inner) = arg_value(&a.value)? else { return None };
            let shape = match &c.arguments.args[..] {
                [one] => shape_of(one)?,
                many => many
                    .iter()
                    .map(|d| if let Lit::Int(n) = num(d)? { Some(n) } else { None })
                    .collect::<Option<_>>()?,
            };
            let data = inner.data.borrow().clone();
            return ArrayRef::new(data, shape).map(RtValue::Array);
        }
        let dt = dtype_kw(c);
        let a0 = c.arguments.args.first();
        return match name {
            "int32" => match num(a0?)? {
                Lit::Int(i) => Some(RtValue::I32(i as i32)),
                Lit::Float(x) => Some(RtValue::I32(x as i32)),
                _ => None,
            },
            "int64" => match num(a0?)? {
                Lit::Int(i) => Some(RtValue::I64(i)),
                _ => None,
            },
            // NumPy's narrower integer scalars, from a literal in range.
            t @ ("int8" | "int16" | "uint8" | "uint16" | "uint32" | "uint64") => {
                let s = twinjit::ir::Scalar::parse(t)?;
                let bits = match num(a0?)? {
                    Lit::Int(i) => i,
                    Lit::UInt(u) => u as i64,
                    _ => return None,
                };
                Some(RtValue::int(s, bits))
            }
            "float32" => match num(a0?)? {
                Lit::Int(i) => Some(RtValue::F32(i as f32)),
                Lit::Float(x) => Some(RtValue::F32(x as f32)),
                _ => None,
            },
            "float16" => match num(a0?)? {
                Lit::Int(i) => Some(RtValue::F16(twinjit::f16::from_f64(i as f64))),
                Lit::Float(x) => Some(RtValue::F16(twinjit::f16::from_f64(x))),
                _ => None,
            },
            "float64" => match num(a0?)? {
                Lit::Int(i) => Some(RtValue::F64(i as f64)),
                Lit::Float(x) => Some(RtValue::F64(x)),
                _ => None,
            },
            t @ ("complex64" | "complex128") => {
                let [re, im] = match num(a0?)? {
                    Lit::Int(i) => [i as f64, 0.0],
                    Lit::Float(x) => [x, 0.0],
                    Lit::Complex(re, im) => [re, im],
                    _ => return None,
                };
                Some(if t == "complex64" { RtValue::C64([re as f32, im as f32]) } else { RtValue::C128([re, im]) })
            }
            "array" => {
                let l = lit(a0?)?;
                let mut shape = Vec::new();
                let mut vals = Vec::new();
                flatten(&l, &mut shape, 0, &mut vals);
                let default = if vals.iter().any(|v| matches!(v, Lit::Complex(..))) {
                    "complex128"
                } else if vals.iter().any(|v| matches!(v, Lit::Float(_))) {
                    "float64"
                } else if !vals.is_empty() && vals.iter().all(|v| matches!(v, Lit::Bool(_))) {
                    "bool_"
                } else if vals.is_empty() {
                    "float64"
                } else {
                    "int64"
                };
                make_array(dt.as_deref().unwrap_or(default), shape, &vals)
            }
            "zeros" | "ones" => {
                let shape = shape_of(a0?)?;
                let n: i64 = shape.iter().product();
                let v = if name == "ones" { Lit::Int(1) } else { Lit::Int(0) };
                make_array(dt.as_deref().unwrap_or("float64"), shape, &vec![v; n as usize])
            }
            "full" => {
                let shape = shape_of(a0?)?;
                let n: i64 = shape.iter().product();
                let v = num(c.arguments.args.get(1)?)?;
                let default = if matches!(v, Lit::Float(_)) { "float64" } else { "int64" };
                make_array(dt.as_deref().unwrap_or(default), shape, &vec![v; n as usize])
            }
            // `np.arange(24.0)`, `np.arange(-8.0, 16.0)`: float64, NumPy's `ceil((stop - start) / step)`
            // elements `start + k * step`.
            "arange" if c.arguments.args.iter().any(|a| matches!(num(a), Some(Lit::Float(_)))) => {
                let fs: Vec<f64> = c
                    .arguments
                    .args
                    .iter()
                    .map(|a| match num(a)? {
                        Lit::Int(n) => Some(n as f64),
                        Lit::Float(x) => Some(x),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                let (start, stop, step) = match fs[..] {
                    [n] => (0.0, n, 1.0),
                    [a, b] => (a, b, 1.0),
                    [a, b, s] if s != 0.0 => (a, b, s),
                    _ => return None,
                };
                let n = ((stop - start) / step).ceil().max(0.0) as i64;
                let vals: Vec<Lit> = (0..n).map(|k| Lit::Float(start + k as f64 * step)).collect();
                make_array(dt.as_deref().unwrap_or("float64"), vec![n], &vals)
            }
            "arange" => {
                let ints: Vec<i64> = c
                    .arguments
                    .args
                    .iter()
                    .map(|a| if let Lit::Int(n) = num(a)? { Some(n) } else { None })
                    .collect::<Option<_>>()?;
                let (start, stop, step) = match ints[..] {
                    [n] => (0, n, 1),
                    [a, b] => (a, b, 1),
                    [a, b, s] if s != 0 => (a, b, s),
                    _ => return None,
                };
                let vals: Vec<Lit> = if step > 0 {
                    (start..stop).step_by(step as usize).map(Lit::Int).collect()
                } else {
                    (stop + 1..=start).rev().step_by((-step) as usize).map(Lit::Int).collect()
                };
                let n = vals.len() as i64;
                make_array(dt.as_deref().unwrap_or("int64"), vec![n], &vals)
            }
            _ => None,
        };
    }
    if let Expr::Tuple(t) = e {
        return t.elts.iter().map(arg_value).collect::<Option<_>>().map(RtValue::Tuple);
    }
    // A dtype (`np.int32`) is passed as its name, as twinjit takes dtype arguments.
    if let Expr::Attribute(a) = e {
        if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "np") {
            if let Some(s) = twinjit::ir::dtype_name(a.attr.id.as_str()) {
                return Some(RtValue::Str(s.name().into()));
            }
        }
    }
    match lit(e)? {
        Lit::Int(i) => Some(RtValue::I64(i)),
        Lit::UInt(u) => Some(RtValue::U64(u)),
        Lit::Float(x) => Some(RtValue::F64(x)),
        Lit::Bool(b) => Some(RtValue::Bool(b)),
        Lit::None => Some(RtValue::None),
        Lit::Complex(re, im) => Some(RtValue::C128([re, im])),
        Lit::Str(s) => Some(RtValue::Str(s.as_str().into())),
        Lit::Seq(_) => None,
    }
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || ((a - b).abs() <= 1e-12 * a.abs().max(b.abs()))
}

/// Whether `got` matches `want` (ints exact and int-typed, floats within 1e-12 relative).
pub fn matches(got: &RtValue, want: &Lit) -> bool {
    match (got, want) {
        (RtValue::I64(g), Lit::Int(w)) => g == w,
        (RtValue::I32(g), Lit::Int(w)) => *g as i64 == *w,
        (RtValue::U64(g), Lit::UInt(w)) => g == w,
        (g, Lit::Int(w)) if g.int_bits().is_some_and(|(s, _)| s.is_int()) => {
            g.int_bits().is_some_and(|(s, b)| s.int_value(b) == *w as i128)
        }
        (RtValue::F64(g), Lit::Float(w)) => close(*g, *w),
        (RtValue::F32(g), Lit::Float(w)) => close(*g as f64, *w),
        (RtValue::C128([re, im]), Lit::Complex(a, b)) => close(*re, *a) && close(*im, *b),
        (RtValue::C64([re, im]), Lit::Complex(a, b)) => close(*re as f64, *a) && close(*im as f64, *b),
        (RtValue::Bool(g), Lit::Bool(w)) => g == w,
        (RtValue::None, Lit::None) => true,
        (RtValue::Str(g), Lit::Str(w)) => **g == **w,
        (RtValue::Tuple(g), Lit::Seq(w)) => g.len() == w.len() && g.iter().zip(w).all(|(a, b)| matches(a, b)),
        (RtValue::List(l), Lit::Seq(w)) => {
            let g = l.items.borrow();
            g.len() == w.len() && g.iter().zip(w).all(|(a, b)| matches(a, b))
        }
        (RtValue::Array(a), w @ Lit::Seq(_)) => {
            let mut shape = Vec::new();
            let mut vals = Vec::new();
            flatten(w, &mut shape, 0, &mut vals);
            let got = a.to_vec();
            let shape_ok = shape.is_empty() && a.shape.iter().product::<i64>() == 0
                || shape.iter().zip(&a.shape).all(|(x, y)| x == y);
            shape_ok && got.len() == vals.len() && got.iter().zip(&vals).all(|(g, w)| matches(g, w))
        }
        _ => false,
    }
}

/// Whether a CUDA-target error is a refusal of something host-only by design (as in Numba:
/// compiled code allocates arrays and lists only on the CPU, and a GPU call cannot hand an
/// array back to Rust).
#[allow(dead_code)]
pub fn host_only(e: &str) -> bool {
    [
        "allocating arrays (np.empty, np.zeros, ...) is not supported",
        "returning an array from the GPU is not supported",
        "building or using a list is not supported",
        "np.random and the random module are not available in kernels",
    ]
    .iter()
    .any(|m| e.contains(m))
}

/// All corpus files with their text: `tests/kernels`, or the directory of `tests/` that
/// `TWINJIT_CORPUS_DIR` names (for trying the pending corpus, e.g. `numpy_pending`).
pub fn corpus() -> Vec<(String, String)> {
    corpus_in(&std::env::var("TWINJIT_CORPUS_DIR").unwrap_or_else(|_| "kernels".into()))
}

/// The `.py` files of `tests/DIR` (but the `verify*` scripts) with their text, sorted.
pub fn corpus_in(dir: &str) -> Vec<(String, String)> {
    let dir = format!("{}/tests/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus directory exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "py")
                && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("verify"))
                // While iterating on some files: `TWINJIT_CORPUS_ONLY=prange_loops,tuples`.
                && std::env::var("TWINJIT_CORPUS_ONLY")
                    .map_or(true, |only| {
                        p.file_stem().is_some_and(|n| only.split(',').any(|o| n.to_string_lossy() == o))
                    })
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

/// Native buffers for a check's arguments, so compiled code can run on them.
pub enum Native {
    /// A scalar.
    Scalar(twinjit::ArgValue<'static>),
    /// An array's elements (C order) and shape.
    Array(ArrayData, Vec<usize>),
    /// A tuple of scalars (and `None`s).
    Tuple(Vec<twinjit::ArgValue<'static>>),
}

/// A scalar interpreter value (or `None`) as an argument.
pub fn scalar_arg(v: &RtValue) -> Option<twinjit::ArgValue<'static>> {
    twinjit::ArgValue::from_rt(v)
}

impl Native {
    /// Copies an interpreter value into a native buffer.
    pub fn from_rt(v: &RtValue) -> Native {
        match v {
            RtValue::Array(a) => {
                let shape: Vec<usize> = a.shape.iter().map(|&d| d as usize).collect();
                Native::Array(a.data.borrow().clone(), shape)
            }
            RtValue::Tuple(items) if items.iter().all(|x| scalar_arg(x).is_some()) => {
                Native::Tuple(items.iter().filter_map(scalar_arg).collect())
            }
            other => Native::Scalar(scalar_arg(other).unwrap_or_else(|| panic!("no native form for {other:?}"))),
        }
    }

    /// The argument (arrays passed mutably).
    pub fn arg(&mut self) -> twinjit::ArgValue<'_> {
        match self {
            Native::Scalar(s) => *s,
            Native::Array(d, s) => twinjit::ir::each_array_data!(d, v => twinjit::ArgValue::array_mut(v, s)),
            Native::Tuple(items) => twinjit::ArgValue::Tuple(items),
        }
    }

    /// Back to an interpreter value (for comparisons).
    pub fn to_rt(&self) -> RtValue {
        match self {
            Native::Scalar(s) => arg_to_rt(s),
            Native::Array(d, s) => {
                RtValue::Array(ArrayRef::new(d.clone(), s.iter().map(|&x| x as i64).collect()).unwrap())
            }
            Native::Tuple(items) => RtValue::Tuple(items.iter().map(arg_to_rt).collect()),
        }
    }
}

/// A scalar, `None` or tuple argument as an interpreter value.
pub fn arg_to_rt(a: &twinjit::ArgValue<'_>) -> RtValue {
    match a {
        twinjit::ArgValue::Tuple(items) => RtValue::Tuple(items.iter().map(arg_to_rt).collect()),
        a => a.to_rt().unwrap_or(RtValue::None),
    }
}

/// A compiled result as an interpreter value (for comparisons).
pub fn value_to_rt(v: &twinjit::Value) -> RtValue {
    use twinjit::Value as V;
    match v {
        V::None => RtValue::None,
        V::Str(text) => RtValue::Str(text.as_str().into()),
        V::Bool(b) => RtValue::Bool(*b),
        V::I32(i) => RtValue::I32(*i),
        V::I64(i) => RtValue::I64(*i),
        V::F32(x) => RtValue::F32(*x),
        V::F64(x) => RtValue::F64(*x),
        V::I8(i) => RtValue::I8(*i),
        V::I16(i) => RtValue::I16(*i),
        V::U8(i) => RtValue::U8(*i),
        V::U16(i) => RtValue::U16(*i),
        V::U32(i) => RtValue::U32(*i),
        V::U64(i) => RtValue::U64(*i),
        V::C64(z) => RtValue::C64([z.re, z.im]),
        V::C128(z) => RtValue::C128([z.re, z.im]),
        V::F16(x) => RtValue::F16(*x),
        V::Tuple(vs) => RtValue::Tuple(vs.iter().map(value_to_rt).collect()),
        // (The corpus returns no dicts: a dict's pairs as a list of 2-tuples.)
        V::Dict(kvs) => {
            let items: Vec<RtValue> =
                kvs.iter().map(|(k, v)| RtValue::Tuple(vec![value_to_rt(k), value_to_rt(v)])).collect();
            let elem = items.first().map(RtValue::ty).unwrap_or(twinjit::ir::Type::Unknown);
            RtValue::List(twinjit::ir::interp::ListRef::lent(items, elem))
        }
        V::List(vs) | V::Set(vs) => {
            let items: Vec<RtValue> = vs.iter().map(value_to_rt).collect();
            let elem = items.first().map(RtValue::ty).unwrap_or(twinjit::ir::Type::Unknown);
            RtValue::List(twinjit::ir::interp::ListRef::lent(items, elem))
        }
        V::Array(a) => {
            use twinjit::ir::Scalar;
            let data = match a.dtype() {
                Scalar::Bool => ArrayData::Bool(a.to_vec().unwrap()),
                Scalar::Int32 => ArrayData::I32(a.to_vec().unwrap()),
                Scalar::Int64 => ArrayData::I64(a.to_vec().unwrap()),
                Scalar::Float32 => ArrayData::F32(a.to_vec().unwrap()),
                Scalar::Float64 => ArrayData::F64(a.to_vec().unwrap()),
                Scalar::Int8 => ArrayData::I8(a.to_vec().unwrap()),
                Scalar::Int16 => ArrayData::I16(a.to_vec().unwrap()),
                Scalar::UInt8 => ArrayData::U8(a.to_vec().unwrap()),
                Scalar::UInt16 => ArrayData::U16(a.to_vec().unwrap()),
                Scalar::UInt32 => ArrayData::U32(a.to_vec().unwrap()),
                Scalar::UInt64 => ArrayData::U64(a.to_vec().unwrap()),
                Scalar::Complex64 => ArrayData::C64(a.to_vec().unwrap()),
                Scalar::Complex128 => ArrayData::C128(a.to_vec().unwrap()),
                Scalar::Float16 => ArrayData::F16(a.to_vec().unwrap()),
            };
            RtValue::Array(ArrayRef::new(data, a.shape().iter().map(|&d| d as i64).collect()).unwrap())
        }
    }
}

/// How the `infer_signature` fuzz target (and the tests that replay its corpus) turn a byte into
/// an argument type: `TYPES[byte % TYPES.len()]`.
pub const FUZZ_SIGNATURE_TYPES: &[&str] = &[
    "int64",
    "int32",
    "float64",
    "float32",
    "boolean",
    "float64[:]",
    "int64[:]",
    "float32[:, :]",
    "float64[::1]",
    "int32[:, :, :]",
];

/// The signature the `infer_signature` fuzz target gives a function of `params` parameters: one
/// type per byte of `sig_bytes` from `*next` on (0 past the end), `*next` advanced past them.
pub fn fuzz_signature(sig_bytes: &[u8], next: &mut usize, params: usize) -> String {
    let args: Vec<&str> = (0..params)
        .map(|_| {
            let b = sig_bytes.get(*next).copied().unwrap_or(0);
            *next += 1;
            FUZZ_SIGNATURE_TYPES[b as usize % FUZZ_SIGNATURE_TYPES.len()]
        })
        .collect();
    format!("({})", args.join(", "))
}
