//! Arithmetic, negation and basic indexing of module-level arrays, computed as NumPy computes
//! them: `np.arange(10) / 2.0`, `(np.arange(8, dtype=np.complex64) + 1j) / 2j`, `-W`,
//! `np.array([1, 2, 3])[::-1]`, `A[1:, ::2]`.
//!
//! Types follow NumPy 2 (NEP 50): two arrays promote as `np.result_type` does; a Python number
//! is "weak" and takes the array's dtype when its kind allows (an `int` with an `int8` array
//! stays `int8`, and one out of its range is NumPy's `OverflowError`; a `float` with an integer
//! array gives `float64`, a `complex` with `float32` gives `complex64`); `/` of integers gives
//! `float64`. Each element is computed in the result's dtype: integers wrap to its width,
//! float32 and float16 results round after every operation (float16 through float32, as
//! NumPy's half loops compute), complex numbers with NumPy's formulas (Smith's division).
//! Cases NumPy warns about or raises on (an integer division by zero, a negative integer
//! power) are refused, as are `**` of complex numbers, float powers other than NumPy's exact
//! ones (`x ** 2`, `** 0.5`, `** -1`, `** 1`, `** 0`: the others come from the CPU's vector
//! math library, so their last bit depends on the machine) and arithmetic on boolean arrays.

use super::{checked_len, convert, real_f64, Elem, Nd};
use ruff_python_ast::Operator;
use twinjit_ir::half::f16;
use twinjit_ir::{Const, Scalar};

/// An operand of array arithmetic: an array, or a Python number.
pub(super) enum Operand {
    Array(Nd),
    Number(Elem),
}

impl Operand {
    fn shape(&self) -> &[i64] {
        match self {
            Operand::Array(a) => &a.shape,
            Operand::Number(_) => &[],
        }
    }
}

/// The dtype of `array OP number` (NEP 50's weak Python scalars).
fn weak(a: Scalar, x: Elem) -> Scalar {
    match x {
        Elem::Real(Const::Bool(_) | Const::None | Const::Str(_)) => a,
        Elem::Real(Const::Int(_)) => {
            if a == Scalar::Bool {
                Scalar::Int64
            } else {
                a
            }
        }
        Elem::Real(Const::Float(_)) => {
            if a.is_float() || a.is_complex() {
                a
            } else {
                Scalar::Float64
            }
        }
        Elem::Complex(..) => {
            if a.is_complex() {
                a
            } else if matches!(a, Scalar::Float16 | Scalar::Float32) {
                Scalar::Complex64
            } else {
                Scalar::Complex128
            }
        }
    }
}

/// An operand's elements as the result reads them.
enum Side {
    /// Of the result's shape: element `k` is the result's `k`.
    Own(Vec<Elem>),
    /// Broadcast: element `k` of the result reads the one at the `k`th source index.
    Broadcast(Vec<Elem>, Vec<usize>),
    /// A Python number, read by every element.
    One(Elem),
}

impl Side {
    fn at(&self, k: usize) -> Elem {
        match self {
            Side::Own(xs) => xs[k],
            Side::Broadcast(xs, idx) => xs[idx[k]],
            Side::One(x) => *x,
        }
    }
}

/// NumPy's broadcast of two shapes.
fn broadcast(a: &[i64], b: &[i64]) -> Result<Vec<i64>, String> {
    let n = a.len().max(b.len());
    let at = |s: &[i64], k: usize| if k + s.len() >= n { s[k + s.len() - n] } else { 1 };
    (0..n)
        .map(|k| match (at(a, k), at(b, k)) {
            (x, y) if x == y => Ok(x),
            (1, y) => Ok(y),
            (x, 1) => Ok(x),
            _ => Err(format!("arrays of shapes {a:?} and {b:?}, which do not broadcast (NumPy raises ValueError)")),
        })
        .collect()
}

/// For each element of `shape` (C order), the index of the element of an operand of shape
/// `of` that broadcasts to it.
fn sources(of: &[i64], shape: &[i64]) -> Vec<usize> {
    let n: i64 = shape.iter().product();
    let pad = shape.len() - of.len();
    let mut strides = vec![0i64; shape.len()];
    let mut s = 1i64;
    for k in (0..of.len()).rev() {
        strides[pad + k] = if of[k] == 1 { 0 } else { s };
        s *= of[k];
    }
    (0..n)
        .map(|flat| {
            let (mut rem, mut off) = (flat, 0i64);
            for k in (0..shape.len()).rev() {
                off += (rem % shape[k]) * strides[k];
                rem /= shape[k];
            }
            off as usize
        })
        .collect()
}

/// `l OP r` where at least one side is an array.
pub(super) fn binary(op: Operator, l: Operand, r: Operand) -> Result<Nd, String> {
    let result = match (&l, &r) {
        (Operand::Array(a), Operand::Array(b)) => twinjit_ir::typing::unify_scalar(a.dtype, b.dtype),
        (Operand::Array(a), Operand::Number(x)) | (Operand::Number(x), Operand::Array(a)) => weak(a.dtype, *x),
        _ => return Err("arithmetic without an array".into()),
    };
    let dtype =
        if op == Operator::Div && !(result.is_float() || result.is_complex()) { Scalar::Float64 } else { result };
    let sym = op.as_str();
    if dtype == Scalar::Bool {
        return Err(format!("`{sym}` of boolean arrays"));
    }
    let supported = matches!(
        op,
        Operator::Add
            | Operator::Sub
            | Operator::Mult
            | Operator::Div
            | Operator::FloorDiv
            | Operator::Mod
            | Operator::Pow
    );
    if !supported || (dtype.is_complex() && matches!(op, Operator::FloorDiv | Operator::Mod | Operator::Pow)) {
        return Err(format!("`{sym}` of a module-level array of {}", dtype.name()));
    }
    // NumPy computes a float power through the CPU's vector math library where it has one
    // (SVML on AVX-512 machines), whose last bit differs from libm's: only the exponents
    // NumPy turns into exact operations (`fast_scalar_power`: square, sqrt, reciprocal,
    // identity, ones) give the values Numba freezes on every machine.
    if op == Operator::Pow && (dtype.is_float() || dtype.is_complex()) {
        // (`fast_scalar_power` applies to float arrays only: an integer array goes through
        // `np.power`'s float loop.)
        let exact = match (&l, &r) {
            (Operand::Array(a), Operand::Number(x)) if a.dtype.is_float() => {
                matches!(convert(*x, Scalar::Float64, false), Ok(Elem::Real(Const::Float(e))) if [2.0, 0.5, 1.0, -1.0, 0.0].contains(&e))
            }
            _ => false,
        };
        if !exact || dtype.is_complex() {
            return Err(format!(
                "`**` of {} other than by 2, 0.5, 1, -1 or 0 (NumPy's result depends on the CPU's vector math library)",
                dtype.name()
            ));
        }
    }
    let shape = broadcast(l.shape(), r.shape())?;
    checked_len(dtype, &shape)?;
    // The operands in the computation's dtype: arrays cast (promotion makes it exact), Python
    // numbers converted as NumPy does (an integer out of range is its OverflowError).
    let side = |o: Operand| -> Result<Side, String> {
        match o {
            Operand::Array(a) => {
                let xs = a.elems.iter().map(|&x| convert(x, dtype, true)).collect::<Result<_, _>>()?;
                Ok(if a.shape == shape { Side::Own(xs) } else { Side::Broadcast(xs, sources(&a.shape, &shape)) })
            }
            Operand::Number(x) => Ok(Side::One(convert(x, dtype, false)?)),
        }
    };
    let (l, r) = (side(l)?, side(r)?);
    let n: i64 = shape.iter().product();
    let elems = (0..n as usize).map(|k| element(op, dtype, l.at(k), r.at(k))).collect::<Result<Vec<_>, _>>()?;
    Ok(Nd { dtype, shape, elems })
}

/// `-a` and `+a`.
pub(super) fn negate(a: Nd, minus: bool) -> Result<Nd, String> {
    if a.dtype == Scalar::Bool {
        return Err("the sign of a boolean array (NumPy raises TypeError)".into());
    }
    if !minus {
        return Ok(a);
    }
    let dtype = a.dtype;
    let elems = a
        .elems
        .into_iter()
        .map(|x| match x {
            Elem::Complex(re, im) => Elem::Complex(-re, -im),
            Elem::Real(Const::Float(f)) => Elem::Real(Const::Float(-f)),
            Elem::Real(c) => Elem::Real(Const::Int(wrap(-int(c, dtype), dtype))),
        })
        .collect();
    Ok(Nd { elems, ..a })
}

/// An integer element's value (`uint64` elements are kept as their bit pattern).
fn int(c: Const, dtype: Scalar) -> i128 {
    match c {
        Const::Int(i) if dtype == Scalar::UInt64 => i128::from(i as u64),
        Const::Int(i) => i128::from(i),
        Const::Bool(b) => i128::from(b),
        Const::Float(f) => f as i128,
        Const::None | Const::Str(_) => 0,
    }
}

/// `v` wrapped to the width of the integer dtype, as an element (`uint64` as its bit pattern).
fn wrap(v: i128, dtype: Scalar) -> i64 {
    let bits = dtype.bits();
    let m = v & ((1i128 << bits) - 1);
    if dtype.is_signed() && m >= 1i128 << (bits - 1) {
        (m - (1i128 << bits)) as i64
    } else {
        m as u64 as i64
    }
}

/// `x` rounded to the float dtype (float16 through float32, as NumPy's half loops).
fn round(x: f64, dtype: Scalar) -> f64 {
    match dtype {
        Scalar::Float32 | Scalar::Complex64 => f64::from(x as f32),
        Scalar::Float16 => f16::from_f32(x as f32).to_f64(),
        _ => x,
    }
}

fn float(c: Elem) -> f64 {
    match c {
        Elem::Real(c) => real_f64(c),
        Elem::Complex(..) => 0.0,
    }
}

/// NumPy's `npy_divmod` on floats, each step rounded to the dtype: (floor quotient, remainder).
fn divmod(a: f64, b: f64, r: impl Fn(f64) -> f64) -> (f64, f64) {
    if b == 0.0 {
        return (r(a / b), a % b);
    }
    let mut m = a % b;
    let mut div = r(r(a - m) / b);
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m = r(m + b);
            div = r(div - 1.0);
        }
    } else {
        m = 0.0f64.copysign(b);
    }
    let floordiv = if div != 0.0 {
        let f = div.floor();
        if r(div - f) > 0.5 {
            r(f + 1.0)
        } else {
            f
        }
    } else {
        0.0f64.copysign(a / b)
    };
    (floordiv, m)
}

fn element(op: Operator, dtype: Scalar, a: Elem, b: Elem) -> Result<Elem, String> {
    if dtype.is_complex() {
        let (Elem::Complex(ar, ai), Elem::Complex(br, bi)) = (a, b) else {
            return Err("a complex operand that is not complex".into());
        };
        let r = |x: f64| round(x, dtype);
        let (re, im) = match op {
            Operator::Add => (r(ar + br), r(ai + bi)),
            Operator::Sub => (r(ar - br), r(ai - bi)),
            Operator::Mult => (r(r(ar * br) - r(ai * bi)), r(r(ar * bi) + r(ai * br))),
            _ => {
                // NumPy's complex division (Smith's method).
                if br.abs() >= bi.abs() {
                    if br == 0.0 && bi == 0.0 {
                        (r(ar / br.abs()), r(ai / br.abs()))
                    } else {
                        let rat = r(bi / br);
                        let scl = r(1.0 / r(br + r(bi * rat)));
                        (r(r(ar + r(ai * rat)) * scl), r(r(ai - r(ar * rat)) * scl))
                    }
                } else {
                    let rat = r(br / bi);
                    let scl = r(1.0 / r(bi + r(br * rat)));
                    (r(r(r(ar * rat) + ai) * scl), r(r(r(ai * rat) - ar) * scl))
                }
            }
        };
        return Ok(Elem::Complex(re, im));
    }
    if dtype.is_float() {
        let (x, y) = (float(a), float(b));
        let r = |v: f64| round(v, dtype);
        let v = match op {
            Operator::Add => r(x + y),
            Operator::Sub => r(x - y),
            Operator::Mult => r(x * y),
            Operator::Div => r(x / y),
            Operator::FloorDiv => divmod(x, y, r).0,
            Operator::Mod => divmod(x, y, r).1,
            // `binary` lets through only the exponents NumPy computes exactly.
            _ if y == 2.0 => r(x * x),
            _ if y == 0.5 => r(x.sqrt()),
            _ if y == -1.0 => r(1.0 / x),
            _ if y == 0.0 => 1.0,
            _ => x,
        };
        return Ok(Elem::Real(Const::Float(v)));
    }
    let (Elem::Real(a), Elem::Real(b)) = (a, b) else { return Err("a complex integer".into()) };
    let (x, y) = (int(a, dtype), int(b, dtype));
    let v = match op {
        Operator::Add => x + y,
        Operator::Sub => x - y,
        Operator::Mult => x.wrapping_mul(y),
        Operator::FloorDiv | Operator::Mod if y == 0 => {
            return Err("an integer division by zero (NumPy gives 0 with a RuntimeWarning)".into())
        }
        Operator::FloorDiv => {
            let q = x / y;
            if x % y != 0 && ((x < 0) != (y < 0)) {
                q - 1
            } else {
                q
            }
        }
        Operator::Mod => {
            let m = x % y;
            if m != 0 && ((m < 0) != (y < 0)) {
                m + y
            } else {
                m
            }
        }
        _ => {
            if y < 0 {
                return Err("an integer to a negative power (NumPy raises ValueError)".into());
            }
            let (mut base, mut e, mut acc) = (x, y, 1i128);
            while e > 0 {
                if e & 1 == 1 {
                    acc = i128::from(wrap(acc.wrapping_mul(base), dtype));
                }
                base = i128::from(wrap(base.wrapping_mul(base), dtype));
                e >>= 1;
            }
            acc
        }
    };
    Ok(Elem::Real(Const::Int(wrap(v, dtype))))
}

/// One index of a subscript: a slice's (start, stop, step) as written, or an integer.
pub(super) enum Index {
    Slice(Option<i64>, Option<i64>, Option<i64>),
    At(i64),
}

/// `a[index]` with integers and slices (NumPy's basic indexing; fewer indices than dimensions
/// take the rest whole). The result is a copy, as the frozen array is.
pub(super) fn index(a: Nd, ix: &[Index]) -> Result<Nd, String> {
    if ix.len() > a.shape.len() {
        return Err(format!("{} indices into an array of {} dimensions", ix.len(), a.shape.len()));
    }
    // Per axis, the source positions it keeps, and whether it stays an axis.
    let mut axes: Vec<(Vec<i64>, bool)> = Vec::new();
    for (k, &n) in a.shape.iter().enumerate() {
        match ix.get(k) {
            None => axes.push(((0..n).collect(), true)),
            Some(Index::At(i)) => {
                let j = if *i < 0 { i + n } else { *i };
                if !(0..n).contains(&j) {
                    return Err(format!(
                        "index {i} out of bounds for axis {k} with size {n} (NumPy raises IndexError)"
                    ));
                }
                axes.push((vec![j], false));
            }
            Some(Index::Slice(start, stop, step)) => {
                let step = step.unwrap_or(1);
                if step == 0 {
                    return Err("a slice step of zero (NumPy raises ValueError)".into());
                }
                // Python's slice.indices(n).
                let clamp = |v: i64, lo: i64, hi: i64| v.clamp(lo, hi);
                let norm = |v: i64| if v < 0 { v + n } else { v };
                let (lo, hi) = if step > 0 { (0, n) } else { (-1, n - 1) };
                let start = start.map_or(if step > 0 { lo } else { hi }, |v| clamp(norm(v), lo, hi));
                let stop = stop.map_or(if step > 0 { hi } else { lo }, |v| clamp(norm(v), lo, hi));
                let mut keep = Vec::new();
                let mut i = start;
                while (step > 0 && i < stop) || (step < 0 && i > stop) {
                    keep.push(i);
                    i += step;
                }
                axes.push((keep, true));
            }
        }
    }
    let shape: Vec<i64> = axes.iter().filter(|(_, kept)| *kept).map(|(v, _)| v.len() as i64).collect();
    if shape.is_empty() {
        return Err("an index that gives one element, not an array".into());
    }
    let strides = a.strides();
    let mut offsets = vec![0i64];
    for (k, (keep, _)) in axes.iter().enumerate() {
        let stride = strides[k];
        offsets = offsets.iter().flat_map(|&o| keep.iter().map(move |&j| o + j * stride)).collect();
    }
    let elems = offsets.iter().map(|&o| a.elems[o as usize]).collect();
    Ok(Nd { dtype: a.dtype, shape, elems })
}
