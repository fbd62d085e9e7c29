//! `twinjit verify FILE FUNC --arg ...`: runs a function compiled for its target and the
//! reference interpreter (the oracle every backend is tested against) on the same inputs, and
//! compares the result and every array argument after the call.
//!
//! - Host target (the default): the compiled `@njit` function against the interpreter.
//! - `--target cuda --launch GRID,BLOCK`: the kernel on the GPU against the interpreter's grid
//!   runner over the same launch. Without a usable GPU it says so and exits 2: it never
//!   compares the CPU with itself. (The compiled CPU target for kernels is not built yet, so the
//!   CPU side is the interpreter.)
//!
//! Integers, bools and shapes must be equal; floats within a relative tolerance scaled by the
//! largest magnitude of the array (`--rtol`; by default 0 on the host, whose code and the
//! interpreter agree to the bit, and on the GPU 1e-12 for float64 and 1e-5 for float32, what
//! libdevice's transcendentals and FMA contraction explain); NaN matches NaN. Exit 0 when they
//! agree, 1 when they do not (the first differing elements are printed with their index and
//! both values), 2 when there is no GPU.

use crate::npy::{Npy, NpyData};
use crate::run::Bound;
use twinjit::ir::interp::{ArrayData, ArrayRef, RtValue};
use twinjit::Value;

/// One compared item: a path (`return`, `return[1]`, `out[3, 2]`) and its value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Leaf {
    None,
    Bool(bool),
    Int(i128),
    /// The value and whether it is a float32.
    Float(f64, bool),
    /// An array's shape (compared first).
    Shape(Vec<usize>),
    /// Anything else, by its text.
    Text(String),
}

impl std::fmt::Display for Leaf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Leaf::None => write!(f, "None"),
            Leaf::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Leaf::Int(i) => write!(f, "{i}"),
            Leaf::Float(x, _) => write!(f, "{x:?}"),
            Leaf::Shape(s) => write!(f, "shape {s:?}"),
            Leaf::Text(t) => write!(f, "{t}"),
        }
    }
}

/// Items of one value: scalars one leaf each, arrays their shape then their elements in C
/// order (paths with the index), tuples and lists their items.
pub(crate) type Leaves = Vec<(String, Leaf)>;

fn index_text(i: usize, shape: &[usize]) -> String {
    let mut idx = vec![0; shape.len()];
    let mut r = i;
    for (k, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            idx[k] = r % d;
            r /= d;
        }
    }
    idx.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

fn push_elements(path: &str, shape: &[usize], items: Vec<Leaf>, out: &mut Leaves) {
    out.push((path.to_string(), Leaf::Shape(shape.to_vec())));
    for (i, l) in items.into_iter().enumerate() {
        out.push((format!("{path}[{}]", index_text(i, shape)), l));
    }
}

fn complex(re: f64, im: f64, f32: bool) -> [Leaf; 2] {
    [Leaf::Float(re, f32), Leaf::Float(im, f32)]
}

/// The leaves of a `.npy` argument after the call (C order, whatever its file's order).
pub(crate) fn npy_leaves(path: &str, a: &Npy, out: &mut Leaves) {
    let c = a.clone().into_c_order();
    let items: Vec<Leaf> = match &c.data {
        NpyData::Bool(v) => v.iter().map(|&b| Leaf::Bool(b)).collect(),
        NpyData::I8(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::I16(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::I32(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::I64(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::U8(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::U16(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::U32(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::U64(v) => v.iter().map(|&x| Leaf::Int(x.into())).collect(),
        NpyData::F32(v) => v.iter().map(|&x| Leaf::Float(x.into(), true)).collect(),
        NpyData::F64(v) => v.iter().map(|&x| Leaf::Float(x, false)).collect(),
        NpyData::C64(v) => v.iter().flat_map(|z| complex(z.re.into(), z.im.into(), true)).collect(),
        NpyData::C128(v) => v.iter().flat_map(|z| complex(z.re, z.im, false)).collect(),
    };
    let complex_shape;
    let shape = if matches!(c.data, NpyData::C64(_) | NpyData::C128(_)) {
        complex_shape = [c.shape.clone(), vec![2]].concat();
        &complex_shape
    } else {
        &c.shape
    };
    push_elements(path, shape, items, out);
}

/// The leaves of a compiled function's result.
pub(crate) fn value_leaves(path: &str, v: &Value, out: &mut Leaves) {
    let leaf = match v {
        Value::None => Leaf::None,
        Value::Bool(b) => Leaf::Bool(*b),
        Value::I8(x) => Leaf::Int((*x).into()),
        Value::I16(x) => Leaf::Int((*x).into()),
        Value::I32(x) => Leaf::Int((*x).into()),
        Value::I64(x) => Leaf::Int((*x).into()),
        Value::U8(x) => Leaf::Int((*x).into()),
        Value::U16(x) => Leaf::Int((*x).into()),
        Value::U32(x) => Leaf::Int((*x).into()),
        Value::U64(x) => Leaf::Int((*x).into()),
        Value::F32(x) => Leaf::Float((*x).into(), true),
        Value::F64(x) => Leaf::Float(*x, false),
        Value::C64(z) => {
            let [a, b] = complex(z.re.into(), z.im.into(), true);
            out.push((format!("{path}.real"), a));
            out.push((format!("{path}.imag"), b));
            return;
        }
        Value::C128(z) => {
            let [a, b] = complex(z.re, z.im, false);
            out.push((format!("{path}.real"), a));
            out.push((format!("{path}.imag"), b));
            return;
        }
        Value::Tuple(vs) | Value::List(vs) => {
            out.push((path.to_string(), Leaf::Shape(vec![vs.len()])));
            for (k, x) in vs.iter().enumerate() {
                value_leaves(&format!("{path}[{k}]"), x, out);
            }
            return;
        }
        Value::Array(a) => {
            // The interpreter's elements, by the same route as for its own arrays.
            let texts: Vec<Leaf> = array_value_leaves(a);
            push_elements(path, a.shape(), texts, out);
            return;
        }
    };
    out.push((path.to_string(), leaf));
}

fn array_value_leaves(a: &twinjit::Array) -> Vec<Leaf> {
    use twinjit::ir::Scalar;
    fn ints<T: twinjit::Element + Into<i128>>(a: &twinjit::Array) -> Vec<Leaf> {
        a.to_vec::<T>().unwrap_or_default().into_iter().map(|x| Leaf::Int(x.into())).collect()
    }
    match a.dtype() {
        Scalar::Bool => a.to_vec::<bool>().unwrap_or_default().into_iter().map(Leaf::Bool).collect(),
        Scalar::Int8 => ints::<i8>(a),
        Scalar::Int16 => ints::<i16>(a),
        Scalar::Int32 => ints::<i32>(a),
        Scalar::Int64 => ints::<i64>(a),
        Scalar::UInt8 => ints::<u8>(a),
        Scalar::UInt16 => ints::<u16>(a),
        Scalar::UInt32 => ints::<u32>(a),
        Scalar::UInt64 => ints::<u64>(a),
        Scalar::Float32 => {
            a.to_vec::<f32>().unwrap_or_default().into_iter().map(|x| Leaf::Float(x.into(), true)).collect()
        }
        Scalar::Float64 => a.to_vec::<f64>().unwrap_or_default().into_iter().map(|x| Leaf::Float(x, false)).collect(),
        other => vec![Leaf::Text(format!("an array of {}", other.name()))],
    }
}

/// The leaves of an interpreter value.
pub(crate) fn rt_leaves(path: &str, v: &RtValue, out: &mut Leaves) {
    let leaf = match v {
        RtValue::None => Leaf::None,
        RtValue::Bool(b) => Leaf::Bool(*b),
        RtValue::F32(x) => Leaf::Float((*x).into(), true),
        RtValue::F64(x) => Leaf::Float(*x, false),
        RtValue::C64([re, im]) => {
            out.push((format!("{path}.real"), Leaf::Float((*re).into(), true)));
            out.push((format!("{path}.imag"), Leaf::Float((*im).into(), true)));
            return;
        }
        RtValue::C128([re, im]) => {
            out.push((format!("{path}.real"), Leaf::Float(*re, false)));
            out.push((format!("{path}.imag"), Leaf::Float(*im, false)));
            return;
        }
        RtValue::Tuple(vs) => {
            out.push((path.to_string(), Leaf::Shape(vec![vs.len()])));
            for (k, x) in vs.iter().enumerate() {
                rt_leaves(&format!("{path}[{k}]"), x, out);
            }
            return;
        }
        RtValue::List(l) => {
            let items = l.items.borrow();
            out.push((path.to_string(), Leaf::Shape(vec![items.len()])));
            for (k, x) in items.iter().enumerate() {
                rt_leaves(&format!("{path}[{k}]"), x, out);
            }
            return;
        }
        RtValue::Array(a) => {
            let shape: Vec<usize> = a.shape.iter().map(|&d| d as usize).collect();
            let complex = a.dtype().is_complex();
            let mut items = Vec::new();
            for x in a.to_vec() {
                let mut one = Vec::new();
                rt_leaves("", &x, &mut one);
                items.extend(one.into_iter().map(|(_, l)| l));
            }
            let shape = if complex { [shape, vec![2]].concat() } else { shape };
            push_elements(path, &shape, items, out);
            return;
        }
        other => match other.int_bits() {
            Some((s, bits)) if s.is_unsigned() => Leaf::Int(Leaf::unsigned(bits, s.bits())),
            Some((_, bits)) => Leaf::Int(bits.into()),
            None => Leaf::Text(other.to_string()),
        },
    };
    out.push((path.to_string(), leaf));
}

impl Leaf {
    fn unsigned(bits: i64, width: u32) -> i128 {
        let mask: u128 = if width >= 64 { u64::MAX as u128 } else { (1u128 << width) - 1 };
        (bits as u64 as u128 & mask) as i128
    }
}

/// An interpreter array holding a copy of a `.npy` argument (C order; the interpreter's own
/// arrays are C-ordered).
pub(crate) fn rt_array(a: &Npy) -> RtValue {
    let c = a.clone().into_c_order();
    let data = match c.data {
        NpyData::Bool(v) => ArrayData::Bool(v),
        NpyData::I8(v) => ArrayData::I8(v),
        NpyData::I16(v) => ArrayData::I16(v),
        NpyData::I32(v) => ArrayData::I32(v),
        NpyData::I64(v) => ArrayData::I64(v),
        NpyData::U8(v) => ArrayData::U8(v),
        NpyData::U16(v) => ArrayData::U16(v),
        NpyData::U32(v) => ArrayData::U32(v),
        NpyData::U64(v) => ArrayData::U64(v),
        NpyData::F32(v) => ArrayData::F32(v),
        NpyData::F64(v) => ArrayData::F64(v),
        NpyData::C64(v) => ArrayData::C64(v.iter().map(|z| [z.re, z.im]).collect()),
        NpyData::C128(v) => ArrayData::C128(v.iter().map(|z| [z.re, z.im]).collect()),
    };
    let shape = c.shape.iter().map(|&d| d as i64).collect();
    match ArrayRef::new(data, shape) {
        Some(r) => RtValue::Array(r),
        None => RtValue::None,
    }
}

/// The interpreter's inputs: the bound arguments, arrays copied.
pub(crate) fn rt_inputs(bound: &[Bound]) -> Vec<RtValue> {
    bound
        .iter()
        .map(|b| match b {
            Bound::Array(a) => rt_array(a),
            Bound::Scalar(s) => scalar_rt(s),
            Bound::Tuple(items) => RtValue::Tuple(items.iter().map(scalar_rt).collect()),
        })
        .collect()
}

fn scalar_rt(s: &twinjit::ArgValue<'_>) -> RtValue {
    use twinjit::ArgValue as A;
    match *s {
        A::Bool(b) => RtValue::Bool(b),
        A::I8(x) => RtValue::I8(x),
        A::I16(x) => RtValue::I16(x),
        A::I32(x) => RtValue::I32(x),
        A::I64(x) => RtValue::I64(x),
        A::U8(x) => RtValue::U8(x),
        A::U16(x) => RtValue::U16(x),
        A::U32(x) => RtValue::U32(x),
        A::U64(x) => RtValue::U64(x),
        A::F32(x) => RtValue::F32(x),
        A::F64(x) => RtValue::F64(x),
        A::C64(z) => RtValue::C64([z.re, z.im]),
        A::C128(z) => RtValue::C128([z.re, z.im]),
        _ => RtValue::None,
    }
}

/// Compares two leaf lists item by item; the differences (at most `limit` are described).
pub(crate) fn compare(got: &Leaves, want: &Leaves, rtol: Option<f64>, limit: usize) -> (usize, Vec<String>) {
    let mut diffs = 0;
    let mut lines = Vec::new();
    if got.len() != want.len() {
        lines.push(format!("the two runs give {} and {} items", got.len(), want.len()));
        diffs += 1;
    }
    // The scale of each array: its largest finite magnitude (on the oracle's side).
    let mut scale = 1.0f64;
    for ((gp, g), (_, w)) in got.iter().zip(want) {
        if let Leaf::Shape(_) = w {
            let prefix = format!("{gp}[");
            scale = want
                .iter()
                .filter(|(p, _)| p.starts_with(&prefix))
                .filter_map(|(_, l)| match l {
                    Leaf::Float(x, _) if x.is_finite() => Some(x.abs()),
                    _ => None,
                })
                .fold(1.0f64, f64::max);
        }
        let same = match (g, w) {
            (Leaf::Float(a, a32), Leaf::Float(b, b32)) => {
                let tol = rtol.unwrap_or(0.0) * scale;
                a32 == b32 && ((a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= tol)
            }
            (a, b) => a == b,
        };
        if !same {
            diffs += 1;
            if lines.len() < limit {
                lines.push(format!("{gp}: {g} (compiled) != {w} (interpreter)"));
            }
        }
    }
    (diffs, lines)
}

/// The GPU's default tolerance: 1e-12 relative for float64, 1e-5 for float32 (what the
/// leaves hold decides which applies, so it is passed per float kind).
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) fn gpu_rtol(leaves: &Leaves) -> f64 {
    if leaves.iter().any(|(_, l)| matches!(l, Leaf::Float(_, true))) {
        1e-5
    } else {
        1e-12
    }
}

/// The report and the exit code (0 agree, 1 differ, 2 not compared).
pub(crate) type Verdict = (String, u8);

/// Formats the comparison of `got` (compiled) with `want` (interpreter).
pub(crate) fn verdict(what: &str, got: &Leaves, want: &Leaves, rtol: Option<f64>) -> Verdict {
    let (diffs, lines) = compare(got, want, rtol, 10);
    let tol = match rtol {
        Some(t) if t > 0.0 => format!(" (floats within {t:e} relative)"),
        _ => " (floats exactly)".to_string(),
    };
    let items = want.iter().filter(|(_, l)| !matches!(l, Leaf::Shape(_))).count();
    if diffs == 0 {
        (format!("agree: {what} and the reference interpreter give the same {items} values{tol}\n"), 0)
    } else {
        let mut out =
            format!("DIFFER: {diffs} of {items} values differ between {what} and the reference interpreter{tol}:\n");
        for l in lines {
            out.push_str("  ");
            out.push_str(&l);
            out.push('\n');
        }
        (out, 1)
    }
}

/// `twinjit verify` on the host target.
pub(crate) fn host(a: &crate::run::RunArgs, rtol: Option<f64>) -> Result<Verdict, String> {
    let mut p = crate::run::prepare(a)?;
    let source = std::fs::read_to_string(&a.file).map_err(|e| format!("error: {}: {e}", a.file))?;
    let module = twinjit::SourceModule::parse(&a.file, &source).map_err(|e| e.to_string())?;
    let inputs = rt_inputs(&p.bound);
    let compiled = p.function.specialize(crate::run::arg_values(&mut p.bound)).map_err(crate::run::err_text)?;
    let got_result = compiled.call::<Value>(&compiled.convert(&crate::run::arg_values(&mut p.bound)));
    let want_result = module.interpret(&a.func, &inputs);
    let (mut got, mut want) = (Leaves::new(), Leaves::new());
    match (&got_result, &want_result) {
        (Ok(g), Ok(w)) => {
            value_leaves("return", g, &mut got);
            rt_leaves("return", w, &mut want);
        }
        (Err(g), Err(w)) => {
            got.push(("raised".into(), Leaf::Text(g.python_exception().unwrap_or("an error").to_string())));
            want.push(("raised".into(), Leaf::Text(w.python_exception().unwrap_or("an error").to_string())));
        }
        (Ok(g), Err(w)) => {
            value_leaves("return", g, &mut got);
            want.push(("return".into(), Leaf::Text(format!("raised {w}"))));
        }
        (Err(g), Ok(w)) => {
            got.push(("return".into(), Leaf::Text(format!("raised {g}"))));
            rt_leaves("return", w, &mut want);
        }
    }
    for ((name, b), w) in p.params.iter().zip(&p.bound).zip(&inputs) {
        if let Bound::Array(arr) = b {
            npy_leaves(name, arr, &mut got);
            rt_leaves(name, w, &mut want);
        }
    }
    Ok(verdict(&format!("`{}` compiled for the host", a.func), &got, &want, rtol))
}

/// The report of a `verify --target cuda` that found no GPU (exit 2).
pub(crate) fn no_gpu(why: &str) -> String {
    format!(
        "NOT COMPARED: no usable GPU ({}).\nverify compares the GPU's results with the reference interpreter's; it never compares the CPU with itself.\n",
        why.trim_start_matches("error: ").trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floats(path: &str, xs: &[f64]) -> Leaves {
        let mut out = vec![(path.to_string(), Leaf::Shape(vec![xs.len()]))];
        out.extend(xs.iter().enumerate().map(|(i, &x)| (format!("{path}[{i}]"), Leaf::Float(x, false))));
        out
    }

    #[test]
    fn differences_are_counted_and_described_with_their_index() {
        let want = floats("out", &[1.0, 2.0, f64::NAN, 4.0]);
        assert_eq!(compare(&want, &want, None, 10).0, 0, "NaN matches NaN");
        let got = floats("out", &[1.0, 2.5, f64::NAN, 4.0 + 1e-15]);
        let (n, lines) = compare(&got, &want, None, 10);
        assert_eq!(n, 2);
        assert_eq!(lines[0], "out[1]: 2.5 (compiled) != 2.0 (interpreter)");
        // A relative tolerance scaled by the array's largest magnitude (4.0) admits the last.
        assert_eq!(compare(&got, &want, Some(1e-15), 10).0, 1);
        let (text, code) = verdict("f", &got, &want, None);
        assert_eq!(code, 1);
        assert!(text.starts_with("DIFFER: 2 of 4 values"), "{text}");
        let (text, code) = verdict("f", &want, &want, None);
        assert_eq!((code, text.starts_with("agree:")), (0, true), "{text}");
    }

    #[test]
    fn shapes_ints_and_kinds_must_be_equal() {
        let a = vec![("r".to_string(), Leaf::Shape(vec![2, 2]))];
        let b = vec![("r".to_string(), Leaf::Shape(vec![4]))];
        assert_eq!(compare(&a, &b, Some(1.0), 10).0, 1);
        let i = vec![("r".to_string(), Leaf::Int(3))];
        let f = vec![("r".to_string(), Leaf::Float(3.0, false))];
        assert_eq!(compare(&i, &f, Some(1.0), 10).0, 1);
        let f32 = vec![("r".to_string(), Leaf::Float(3.0, true))];
        assert_eq!(compare(&f32, &f, Some(1.0), 10).0, 1, "float32 against float64 differs");
        assert_eq!(index_text(5, &[2, 3]), "1, 2");
    }
}
