//! Module-level NumPy arrays, computed at load time and frozen into the code.
//!
//! Numba freezes a global array when it compiles a function that reads it: the function sees
//! a read-only constant (`readonly array(...)`) with the values the module computed. twinjit
//! never runs module code, so it computes the arrays NumPy's constructors build from
//! constants, with NumPy's algorithms (dtype inference of `np.array`, `arange`'s fill from its
//! first two elements, `linspace`'s step and exact last element), and refuses the rest at the
//! read, as for any other global it cannot evaluate.
//!
//! Forms: `np.array` / `np.asarray` / `np.ascontiguousarray` / `np.asfortranarray` of nested
//! lists and tuples of constants or of another of these forms, `np.zeros ones empty full
//! arange linspace eye identity`, each with `dtype=`, and on their results `.reshape(...)`,
//! `.astype(dtype)`, `.copy()`, `.ravel()`, `.flatten()` and `.T`; arithmetic (`+ - * / // %
//! **`, unary `-`) between them, module-level arrays and Python numbers, and basic indexing
//! with integers and slices (`ops.rs`). Elements are booleans, integers, floats and complex
//! numbers. Every frozen array is C-ordered: `np.asfortranarray` gives the same elements (what
//! indexing reads), not Fortran strides.

use crate::const_eval::{eval, ConstValue, Scope};
use crate::env::{dtype_name, dtype_string, qualified, Env, Global};
use crate::globals::ModuleNames;
use ruff_python_ast::{self as ast, Expr};
use twinjit_ir::{Const, ConstArray, Scalar};

mod ops;

/// The largest frozen array, in bytes (it is copied into every program that reads it).
pub(crate) const MAX_BYTES: usize = 16 << 20;

/// An array being computed: its dtype, shape and elements in C order, each already a value of
/// the dtype (`Int` within its range, `Float` rounded to float32 where it is one, `Bool`,
/// `Complex` for the complex dtypes, its parts rounded to float32 for complex64).
struct Nd {
    dtype: Scalar,
    shape: Vec<i64>,
    elems: Vec<Elem>,
}

/// An element: a real number, or a complex number's parts.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Elem {
    Real(Const),
    Complex(f64, f64),
}

/// The array `e` builds, if it is a NumPy array constructor: `Ok(None)` if it is not one at
/// all, `Err(why)` if it is one twinjit cannot compute.
pub(crate) fn eval_array(name: &str, e: &Expr, env: &Env) -> Result<Option<ConstArray>, String> {
    let Some(nd) = build(e, env)? else { return Ok(None) };
    twinjit_ir::types::check_ndim(nd.shape.len())?;
    let parts: Vec<Const> = nd
        .elems
        .iter()
        .flat_map(|e| match *e {
            Elem::Real(c) => vec![c],
            Elem::Complex(re, im) => vec![Const::Float(re), Const::Float(im)],
        })
        .collect();
    Ok(Some(ConstArray::from_parts(name, nd.dtype, nd.shape, &parts)))
}

fn build(e: &Expr, env: &Env) -> Result<Option<Nd>, String> {
    match e {
        Expr::Call(c) => {
            if let Expr::Attribute(m) = &*c.func {
                if let Some(inner) = build(&m.value, env)? {
                    return method(inner, m.attr.id.as_str(), c, env).map(Some);
                }
            }
            let Some(path) = qualified(&c.func, env) else { return Ok(None) };
            let Some(f) = path.strip_prefix("numpy.") else { return Ok(None) };
            constructor(f, c, env)
        }
        Expr::Attribute(a) if a.attr.id.as_str() == "T" => match build(&a.value, env)? {
            Some(inner) => Ok(Some(transpose(inner))),
            None => Ok(None),
        },
        // A module-level array frozen above.
        Expr::Name(n) => match env.get(n.id.as_str()) {
            Some(Global::Array(a)) => Ok(Some(from_frozen(a))),
            _ => Ok(None),
        },
        Expr::BinOp(b) => {
            let (l, r) = (operand(&b.left, env)?, operand(&b.right, env)?);
            match (l, r) {
                (Some(l), Some(r)) if matches!(l, ops::Operand::Array(_)) || matches!(r, ops::Operand::Array(_)) => {
                    ops::binary(b.op, l, r).map(Some)
                }
                _ => Ok(None),
            }
        }
        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub | ast::UnaryOp::UAdd) => match build(&u.operand, env)? {
            Some(a) => ops::negate(a, u.op == ast::UnaryOp::USub).map(Some),
            None => Ok(None),
        },
        Expr::Subscript(s) => match build(&s.value, env)? {
            Some(a) => {
                let items: Vec<&Expr> = match &*s.slice {
                    Expr::Tuple(t) => t.elts.iter().collect(),
                    one => vec![one],
                };
                let ix = items.into_iter().map(|x| index_item(x, env)).collect::<Result<Vec<_>, _>>()?;
                ops::index(a, &ix).map(Some)
            }
            None => Ok(None),
        },
        _ => Ok(None),
    }
}

/// An operand of array arithmetic: an array this module can compute, or a Python number;
/// `None` for anything else.
fn operand(e: &Expr, env: &Env) -> Result<Option<ops::Operand>, String> {
    if let Some(a) = build(e, env)? {
        return Ok(Some(ops::Operand::Array(a)));
    }
    Ok(match eval(e, Scope::Module(&ModuleNames(env))) {
        Ok(v @ (ConstValue::Int(_) | ConstValue::Float(_) | ConstValue::Bool(_) | ConstValue::Complex(..))) => {
            Some(ops::Operand::Number(scalar(&v)?))
        }
        _ => None,
    })
}

/// One item of a subscript: an integer, or a slice of constant integers.
fn index_item(e: &Expr, env: &Env) -> Result<ops::Index, String> {
    let bound = |b: &Option<Box<Expr>>| -> Result<Option<i64>, String> {
        match b.as_deref() {
            None | Some(Expr::NoneLiteral(_)) => Ok(None),
            Some(x) => int_arg(x, env, "a slice bound").map(Some),
        }
    };
    match e {
        Expr::Slice(s) => Ok(ops::Index::Slice(bound(&s.lower)?, bound(&s.upper)?, bound(&s.step)?)),
        e => int_arg(e, env, "an index")
            .map(ops::Index::At)
            .map_err(|_| "an index that is not an integer or a slice".into()),
    }
}

/// A frozen array's elements, to compute with.
fn from_frozen(a: &ConstArray) -> Nd {
    let parts = a.parts();
    let elems = if a.dtype.is_complex() {
        parts.chunks_exact(2).map(|p| Elem::Complex(real_f64(p[0]), real_f64(p[1]))).collect()
    } else {
        parts.into_iter().map(Elem::Real).collect()
    };
    Nd { dtype: a.dtype, shape: a.shape.clone(), elems }
}

/// A real element's value as a float (`None`, which no array holds, as 0).
fn real_f64(c: Const) -> f64 {
    match c {
        Const::Float(x) => x,
        Const::Int(i) => i as f64,
        Const::Bool(b) => f64::from(u8::from(b)),
        Const::None | Const::Str(_) => 0.0,
    }
}

impl Nd {
    /// C strides, in elements.
    fn strides(&self) -> Vec<i64> {
        (0..self.shape.len()).map(|k| self.shape[k + 1..].iter().product()).collect()
    }
}

/// Binds the arguments of `c` to `names` as Python would (positional, then keywords).
fn bind<'a>(c: &'a ast::ExprCall, f: &str, names: &[&str]) -> Result<Vec<Option<&'a Expr>>, String> {
    let a = &c.arguments;
    if a.args.len() > names.len() || a.args.iter().any(|x| matches!(x, Expr::Starred(_))) {
        return Err(format!("np.{f}() with these positional arguments"));
    }
    let mut out: Vec<Option<&Expr>> = vec![None; names.len()];
    for (k, x) in a.args.iter().enumerate() {
        out[k] = Some(x);
    }
    for kw in &a.keywords {
        let Some(n) = kw.arg.as_ref().map(|n| n.id.as_str()) else {
            return Err(format!("np.{f}(**kwargs)"));
        };
        match names.iter().position(|x| *x == n) {
            Some(k) if out[k].is_none() => out[k] = Some(&kw.value),
            _ => return Err(format!("np.{f}() with the keyword argument `{n}`")),
        }
    }
    Ok(out)
}

fn constant(e: &Expr, env: &Env) -> Result<ConstValue, String> {
    eval(e, Scope::Module(&ModuleNames(env))).map_err(|_| "an element that is not a constant".to_string())
}

fn int_arg(e: &Expr, env: &Env, what: &str) -> Result<i64, String> {
    match constant(e, env)? {
        ConstValue::Int(i) => i64::try_from(i).map_err(|_| format!("{what} out of range")),
        ConstValue::Bool(b) => Ok(i64::from(b)),
        _ => Err(format!("{what} that is not an integer")),
    }
}

fn dtype_arg(e: Option<&Expr>, env: &Env) -> Result<Option<Scalar>, String> {
    let Some(e) = e else { return Ok(None) };
    let s = match e {
        Expr::NoneLiteral(_) => return Ok(None),
        Expr::StringLiteral(s) => dtype_string(s.value.to_str()),
        Expr::Name(n) => match env.get(n.id.as_str()) {
            Some(Global::NumbaType(s)) => Some(*s),
            Some(_) => None,
            None => match n.id.as_str() {
                "float" => Some(Scalar::Float64),
                "int" => Some(Scalar::Int64),
                "bool" => Some(Scalar::Bool),
                "complex" => Some(Scalar::Complex128),
                _ => None,
            },
        },
        e => qualified(e, env)
            .and_then(|p| p.rsplit_once('.').map(|(m, l)| (m.to_string(), l.to_string())))
            .filter(|(m, _)| matches!(m.as_str(), "numpy" | "numba" | "numba.types"))
            .and_then(|(_, l)| dtype_name(&l)),
    };
    match s {
        Some(s) => Ok(Some(s)),
        None => Err("a dtype twinjit does not know".into()),
    }
}

fn shape_arg(e: &Expr, env: &Env) -> Result<Vec<i64>, String> {
    let dims = match constant(e, env)? {
        ConstValue::Tuple(vs) => vs
            .iter()
            .map(|v| match v {
                ConstValue::Int(i) => i64::try_from(*i).map_err(|_| "a dimension out of range".to_string()),
                _ => Err("a shape that is not integers".to_string()),
            })
            .collect::<Result<Vec<_>, _>>()?,
        ConstValue::Int(i) => vec![i64::try_from(i).map_err(|_| "a dimension out of range".to_string())?],
        _ => return Err("a shape that is not integers".into()),
    };
    if dims.iter().any(|&d| d < 0) {
        return Err("a negative dimension (NumPy raises ValueError)".into());
    }
    Ok(dims)
}

/// `n` elements of `dtype`, refused past [`MAX_BYTES`].
fn checked_len(dtype: Scalar, shape: &[i64]) -> Result<usize, String> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(usize::try_from(d).ok()?))
        .filter(|n| n.checked_mul(dtype.size()).is_some_and(|b| b <= MAX_BYTES))
        .ok_or_else(|| format!("an array larger than {} MiB", MAX_BYTES >> 20))
}

/// A Python number as an element of `to`. A real number becomes a complex one with a zero
/// imaginary part (parts rounded for complex64); a complex number becomes no real dtype (NumPy
/// raises TypeError, or drops the imaginary part with a ComplexWarning in `astype`).
fn convert(x: Elem, to: Scalar, wrap: bool) -> Result<Elem, String> {
    let part = |x: f64| if to == Scalar::Complex64 { f64::from(x as f32) } else { x };
    match (x, to.is_complex()) {
        (Elem::Complex(re, im), true) => Ok(Elem::Complex(part(re), part(im))),
        (Elem::Complex(..), false) => Err(format!("a complex element converted to {}", to.name())),
        (Elem::Real(c), true) => {
            let x = match c {
                Const::Int(i) => i as f64,
                Const::Float(x) => x,
                Const::Bool(b) => f64::from(u8::from(b)),
                Const::None | Const::Str(_) => return Err("None as an element".into()),
            };
            Ok(Elem::Complex(part(x), 0.0))
        }
        (Elem::Real(c), false) => convert_real(c, to, wrap).map(Elem::Real),
    }
}

/// A Python number (`Int`, `Float`, `Bool`) as an element of the real dtype `to`. `wrap` gives
/// `astype`'s C casts (integers wrap to the width); otherwise an integer out of range is
/// NumPy's `OverflowError` (refused). Floats to integers truncate; NaN and out-of-range
/// floats, whose conversion C leaves undefined, are refused.
fn convert_real(x: Const, to: Scalar, wrap: bool) -> Result<Const, String> {
    let int = |i: i128| -> Result<Const, String> {
        let (lo, hi) = to.int_range();
        if (lo..=hi).contains(&i) {
            Ok(Const::Int(i as i64))
        } else if wrap {
            // The low bits, as the IR keeps integers (`ConstArray::from_parts` stores them).
            Ok(Const::Int(i as i64))
        } else {
            Err(format!("the integer {i} out of bounds for {}", to.name()))
        }
    };
    match (x, to) {
        (x, Scalar::Bool) => Ok(Const::Bool(match x {
            Const::Int(i) => i != 0,
            Const::Float(f) => f != 0.0,
            Const::Bool(b) => b,
            Const::None | Const::Str(_) => false,
        })),
        (Const::Float(f), Scalar::Float32) => Ok(Const::Float(f64::from(f as f32))),
        (Const::Float(f), Scalar::Float64) => Ok(Const::Float(f)),
        (Const::Float(f), Scalar::Float16) => Ok(Const::Float(twinjit_ir::half::f16::from_f64(f).to_f64())),
        (Const::Int(i), Scalar::Float16) => Ok(Const::Float(twinjit_ir::half::f16::from_f64(i as f64).to_f64())),
        (Const::Int(i), s) if s.is_float() => {
            Ok(Const::Float(if s == Scalar::Float32 { f64::from(i as f32) } else { i as f64 }))
        }
        (Const::Bool(b), s) if s.is_float() => Ok(Const::Float(f64::from(u8::from(b)))),
        (Const::Int(i), s) if s.is_int() => int(i128::from(i)),
        (Const::Bool(b), s) if s.is_int() => Ok(Const::Int(i64::from(b))),
        (Const::Float(f), s) if s.is_int() => {
            let t = f.trunc();
            let (lo, hi) = s.int_range();
            if t.is_finite() && t >= lo as f64 && t <= hi as f64 {
                Ok(Const::Int(t as i64))
            } else {
                Err(format!("the float {f} converted to {}", s.name()))
            }
        }
        _ => Err(format!("an element converted to {}", to.name())),
    }
}

/// A Python scalar constant as an element value (`Int` must fit int64, as NumPy's default
/// integer).
fn scalar(v: &ConstValue) -> Result<Elem, String> {
    match v {
        ConstValue::Int(i) => {
            i64::try_from(*i).map(|i| Elem::Real(Const::Int(i))).map_err(|_| format!("the integer {i} past int64"))
        }
        ConstValue::Float(x) => Ok(Elem::Real(Const::Float(*x))),
        ConstValue::Bool(b) => Ok(Elem::Real(Const::Bool(*b))),
        ConstValue::Complex(re, im) => Ok(Elem::Complex(*re, *im)),
        ConstValue::Tuple(_) => Err("a nested sequence here".into()),
        ConstValue::Str(_) => Err("a string element".into()),
    }
}

/// A real element, for the arguments that must be one (`arange`, `linspace`).
fn real(e: Elem) -> Result<Const, String> {
    match e {
        Elem::Real(c) => Ok(c),
        Elem::Complex(..) => Err("a complex bound".into()),
    }
}

/// NumPy's default dtype for these Python scalars: bool, int64, float64 if any is a float
/// (and for none), complex128 if any is complex.
fn natural(xs: &[Elem]) -> Scalar {
    if xs.iter().any(|x| matches!(x, Elem::Complex(..))) {
        Scalar::Complex128
    } else if xs.is_empty() || xs.iter().any(|x| matches!(x, Elem::Real(Const::Float(_)))) {
        Scalar::Float64
    } else if xs.iter().all(|x| matches!(x, Elem::Real(Const::Bool(_)))) {
        Scalar::Bool
    } else {
        Scalar::Int64
    }
}

fn with_dtype(xs: Vec<Elem>, shape: Vec<i64>, dtype: Option<Scalar>, wrap: bool) -> Result<Nd, String> {
    let dtype = dtype.unwrap_or_else(|| natural(&xs));
    checked_len(dtype, &shape)?;
    let elems = xs.into_iter().map(|x| convert(x, dtype, wrap)).collect::<Result<Vec<_>, _>>()?;
    Ok(Nd { dtype, shape, elems })
}

/// A nested list/tuple expression (or a constant tuple) as a tree of constants.
fn tree(e: &Expr, env: &Env) -> Result<ConstValue, String> {
    match e {
        Expr::List(ast::ExprList { elts, .. }) | Expr::Tuple(ast::ExprTuple { elts, .. }) => {
            Ok(ConstValue::Tuple(elts.iter().map(|x| tree(x, env)).collect::<Result<_, _>>()?))
        }
        e => constant(e, env),
    }
}

/// The shape (along first elements) and elements of a rectangular tree; NumPy refuses ragged
/// nesting.
fn flatten(t: &ConstValue) -> Result<(Vec<i64>, Vec<Elem>), String> {
    let mut shape = Vec::new();
    let mut node = t;
    while let ConstValue::Tuple(vs) = node {
        shape.push(vs.len() as i64);
        match vs.first() {
            Some(first) => node = first,
            None => break,
        }
    }
    fn walk(t: &ConstValue, depth: usize, shape: &[i64], out: &mut Vec<Elem>) -> Result<(), String> {
        match (t, shape.get(depth)) {
            (ConstValue::Tuple(vs), Some(&n)) if vs.len() as i64 == n => {
                vs.iter().try_for_each(|v| walk(v, depth + 1, shape, out))
            }
            (ConstValue::Tuple(_), _) => Err("ragged nested sequences".into()),
            (v, None) => {
                out.push(scalar(v)?);
                Ok(())
            }
            (_, Some(_)) => Err("ragged nested sequences".into()),
        }
    }
    let mut out = Vec::new();
    walk(t, 0, &shape, &mut out)?;
    Ok((shape, out))
}

fn constructor(f: &str, c: &ast::ExprCall, env: &Env) -> Result<Option<Nd>, String> {
    let nd = match f {
        "array" | "asarray" | "ascontiguousarray" | "asfortranarray" => {
            let a = bind(c, f, &["object", "dtype"])?;
            let Some(obj) = a[0] else { return Err(format!("np.{f}() without an object")) };
            if let Some(inner) = build(obj, env)? {
                // A copy (or the array itself), cast as `astype` casts.
                let dtype = dtype_arg(a[1], env)?.unwrap_or(inner.dtype);
                return with_dtype(inner.elems, inner.shape, Some(dtype), true).map(Some);
            }
            let (shape, elems) = flatten(&tree(obj, env)?)?;
            with_dtype(elems, shape, dtype_arg(a[1], env)?, false)?
        }
        "zeros" | "ones" | "empty" => {
            let a = bind(c, f, &["shape", "dtype"])?;
            let shape = shape_arg(a[0].ok_or("np.zeros() without a shape")?, env)?;
            let dtype = dtype_arg(a[1], env)?.unwrap_or(Scalar::Float64);
            let n = checked_len(dtype, &shape)?;
            // `np.empty`'s elements are whatever memory held: zeros are as good as any.
            let one = Elem::Real(Const::Int(i64::from(f == "ones")));
            with_dtype(vec![one; n], shape, Some(dtype), false)?
        }
        "full" => {
            let a = bind(c, f, &["shape", "fill_value", "dtype"])?;
            let shape = shape_arg(a[0].ok_or("np.full() without a shape")?, env)?;
            let fill = scalar(&constant(a[1].ok_or("np.full() without a fill value")?, env)?)?;
            let dtype = dtype_arg(a[2], env)?.unwrap_or_else(|| natural(&[fill]));
            let n = checked_len(dtype, &shape)?;
            with_dtype(vec![fill; n], shape, Some(dtype), false)?
        }
        "arange" => arange(c, env)?,
        "linspace" => linspace(c, env)?,
        "eye" | "identity" => {
            let (n, m, k, dtype) = if f == "eye" {
                let a = bind(c, f, &["N", "M", "k", "dtype"])?;
                let n = int_arg(a[0].ok_or("np.eye() without N")?, env, "N")?;
                let m = match a[1] {
                    None | Some(Expr::NoneLiteral(_)) => n,
                    Some(e) => int_arg(e, env, "M")?,
                };
                let k = a[2].map(|e| int_arg(e, env, "k")).transpose()?.unwrap_or(0);
                (n, m, k, dtype_arg(a[3], env)?)
            } else {
                let a = bind(c, f, &["n", "dtype"])?;
                let n = int_arg(a[0].ok_or("np.identity() without n")?, env, "n")?;
                (n, n, 0, dtype_arg(a[1], env)?)
            };
            if n < 0 || m < 0 {
                return Err("a negative dimension (NumPy raises ValueError)".into());
            }
            let dtype = dtype.unwrap_or(Scalar::Float64);
            checked_len(dtype, &[n, m])?;
            let elems =
                (0..n).flat_map(|i| (0..m).map(move |j| Elem::Real(Const::Int(i64::from(j - i == k))))).collect();
            with_dtype(elems, vec![n, m], Some(dtype), false)?
        }
        // A scalar type applied to a list: `np.float64([1.0, 2.0])` is an array of that dtype.
        _ => match (dtype_name(f), &*c.arguments.args) {
            (Some(dtype), [obj @ (Expr::List(_) | Expr::Tuple(_))]) if c.arguments.keywords.is_empty() => {
                let (shape, elems) = flatten(&tree(obj, env)?)?;
                with_dtype(elems, shape, Some(dtype), false)?
            }
            _ => return Ok(None),
        },
    };
    Ok(Some(nd))
}

/// `np.arange` as NumPy fills it: the first element `start`, the second `start + step`, and
/// element `i` `start + i * delta` with `delta` the difference of the first two, computed in
/// the result's dtype; the length `ceil((stop - start) / step)`.
fn arange(c: &ast::ExprCall, env: &Env) -> Result<Nd, String> {
    let a = bind(c, "arange", &["start", "stop", "step", "dtype"])?;
    let mut nums = Vec::new();
    for e in a[..3].iter().flatten() {
        nums.push(real(scalar(&constant(e, env)?)?)?);
    }
    let (start, stop, step) = match nums.as_slice() {
        [stop] => (Const::Int(0), *stop, Const::Int(1)),
        [start, stop] => (*start, *stop, Const::Int(1)),
        [start, stop, step] => (*start, *stop, *step),
        _ => return Err("np.arange() without a stop".into()),
    };
    let all_int = [start, stop, step].iter().all(|x| !matches!(x, Const::Float(_)));
    let dtype = dtype_arg(a[3], env)?.unwrap_or(if all_int { Scalar::Int64 } else { Scalar::Float64 });
    let f = real_f64;
    let i = |x: Const| match x {
        Const::Int(i) => i128::from(i),
        Const::Bool(b) => i128::from(b),
        _ => 0,
    };
    if all_int {
        let (s0, s1, st) = (i(start), i(stop), i(step));
        if st == 0 {
            return Err("a zero step (NumPy raises ZeroDivisionError)".into());
        }
        let n = ((s1 - s0) + st - st.signum()).div_euclid(st).max(0);
        let n = usize::try_from(n).map_err(|_| "an array too large".to_string())?;
        checked_len(dtype, &[n as i64])?;
        let elems: Vec<Elem> = (0..n as i128)
            .map(|k| {
                let v = s0 + k * st;
                i64::try_from(v).map(|v| Elem::Real(Const::Int(v))).map_err(|_| "an element past int64".to_string())
            })
            .collect::<Result<_, _>>()?;
        return with_dtype(elems, vec![n as i64], Some(dtype), true);
    }
    if !dtype.is_float() {
        return Err(format!("np.arange() of floats with dtype {}", dtype.name()));
    }
    let (s0, s1, st) = (f(start), f(stop), f(step));
    let len = ((s1 - s0) / st).ceil();
    if len.is_nan() || st == 0.0 {
        return Err("np.arange() of this length (NumPy raises ValueError or ZeroDivisionError)".into());
    }
    let n = if len <= 0.0 { 0 } else { len as i64 };
    checked_len(dtype, &[n])?;
    let elems: Vec<Elem> = if dtype == Scalar::Float32 {
        let first = s0 as f32;
        let second = (s0 + st) as f32;
        let delta = second - first;
        (0..n)
            .map(|k| Elem::Real(Const::Float(f64::from(if k == 1 { second } else { first + k as f32 * delta }))))
            .collect()
    } else {
        let delta = (s0 + st) - s0;
        (0..n).map(|k| Elem::Real(Const::Float(if k == 1 { s0 + st } else { s0 + k as f64 * delta }))).collect()
    };
    with_dtype(elems, vec![n], Some(dtype), false)
}

/// `np.linspace` as NumPy computes it: `arange(num) * step + start` with `step = (stop -
/// start) / div` (`(arange(num) / div) * delta` when the step is zero), the last element
/// exactly `stop` with `endpoint`; then converted to `dtype` (integers truncate).
fn linspace(c: &ast::ExprCall, env: &Env) -> Result<Nd, String> {
    let a = bind(c, "linspace", &["start", "stop", "num", "endpoint", "retstep", "dtype"])?;
    let num = |e: &Expr| -> Result<f64, String> {
        match real(scalar(&constant(e, env)?)?)? {
            Const::Int(i) => Ok(i as f64),
            Const::Float(x) => Ok(x),
            Const::Bool(b) => Ok(f64::from(u8::from(b))),
            Const::None | Const::Str(_) => Err("a bad bound".into()),
        }
    };
    let start = num(a[0].ok_or("np.linspace() without a start")?)?;
    let stop = num(a[1].ok_or("np.linspace() without a stop")?)?;
    let n = a[2].map(|e| int_arg(e, env, "num")).transpose()?.unwrap_or(50);
    if n < 0 {
        return Err("a negative number of samples (NumPy raises ValueError)".into());
    }
    let endpoint = match a[3].map(|e| constant(e, env)).transpose()? {
        None => true,
        Some(ConstValue::Bool(b)) => b,
        Some(ConstValue::Int(i)) => i != 0,
        Some(_) => return Err("a non-boolean endpoint".into()),
    };
    if a[4].is_some() {
        return Err("np.linspace(retstep=...), which returns a tuple".into());
    }
    let dtype = dtype_arg(a[5], env)?.unwrap_or(Scalar::Float64);
    checked_len(dtype, &[n])?;
    let div = if endpoint { n - 1 } else { n } as f64;
    let delta = stop - start;
    let step = delta / div;
    let mut y: Vec<f64> = (0..n)
        .map(|k| {
            let k = k as f64;
            if div > 0.0 && step == 0.0 {
                k / div * delta + start
            } else if div > 0.0 {
                k * step + start
            } else {
                k * delta + start
            }
        })
        .collect();
    if endpoint && n > 1 {
        y[n as usize - 1] = stop;
    }
    with_dtype(y.into_iter().map(|x| Elem::Real(Const::Float(x))).collect(), vec![n], Some(dtype), false)
}

fn method(inner: Nd, m: &str, c: &ast::ExprCall, env: &Env) -> Result<Nd, String> {
    let a = &c.arguments;
    match m {
        "reshape" => {
            if !a.keywords.is_empty() {
                return Err("reshape() with keyword arguments".into());
            }
            let mut dims = Vec::new();
            for x in a.args.iter() {
                match constant(x, env)? {
                    ConstValue::Tuple(vs) if a.args.len() == 1 => {
                        for v in vs {
                            dims.push(match v {
                                ConstValue::Int(i) => i64::try_from(i).map_err(|_| "a bad dimension".to_string())?,
                                _ => return Err("a shape that is not integers".into()),
                            })
                        }
                    }
                    ConstValue::Int(i) => dims.push(i64::try_from(i).map_err(|_| "a bad dimension".to_string())?),
                    _ => return Err("a shape that is not integers".into()),
                }
            }
            let n = inner.elems.len() as i64;
            let known: i64 = dims.iter().filter(|&&d| d != -1).product();
            match dims.iter().filter(|&&d| d == -1).count() {
                0 => {}
                1 if known > 0 && n % known == 0 => {
                    let fill = n / known;
                    dims.iter_mut().filter(|d| **d == -1).for_each(|d| *d = fill);
                }
                _ => return Err("a reshape NumPy refuses".into()),
            }
            if dims.iter().any(|&d| d < 0) || dims.iter().product::<i64>() != n {
                return Err("a reshape to a different number of elements (NumPy raises ValueError)".into());
            }
            Ok(Nd { shape: dims, ..inner })
        }
        "astype" => {
            let dtype = dtype_arg(a.args.first(), env)?.ok_or("astype() without a dtype")?;
            if a.args.len() != 1 || !a.keywords.is_empty() {
                return Err("astype() with more arguments".into());
            }
            let shape = inner.shape;
            with_dtype(inner.elems, shape, Some(dtype), true)
        }
        "copy" | "ravel" | "flatten" if a.args.is_empty() && a.keywords.is_empty() => {
            if m == "copy" {
                Ok(inner)
            } else {
                Ok(Nd { shape: vec![inner.elems.len() as i64], ..inner })
            }
        }
        _ => Err(format!("the method `.{m}()` of a module-level array")),
    }
}

/// `a.T`, computed: the axes reversed, in C order.
fn transpose(a: Nd) -> Nd {
    let shape: Vec<i64> = a.shape.iter().rev().copied().collect();
    let n = a.elems.len();
    let rstrides: Vec<i64> = a.strides().into_iter().rev().collect();
    let mut elems = Vec::with_capacity(n);
    for flat in 0..n as i64 {
        let (mut rem, mut off) = (flat, 0i64);
        for k in (0..shape.len()).rev() {
            off += (rem % shape[k]) * rstrides[k];
            rem /= shape[k];
        }
        elems.push(a.elems[off as usize]);
    }
    Nd { dtype: a.dtype, shape, elems }
}
