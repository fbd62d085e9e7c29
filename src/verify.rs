//! Verification against a reference: [`crate::Function::verify`] runs a function compiled for
//! the host and in the reference interpreter on copies of the same arguments,
//! [`crate::Kernel::verify`] a kernel on the GPU and on cuda-sim (compiled for this CPU, its
//! blocks in order; the interpreter for float16 kernels) over the same launch, and both compare
//! the result and every array argument after the call ([`Reference`] names the other side).
//! `twinjit verify` is the command-line form.
//!
//! Values are compared as path-labelled [`Item`]s (an array's shape first, then its elements in
//! C order): integers, bools and shapes exactly, floats within a relative tolerance scaled by
//! the largest magnitude of their array (`rtol`; 0 on the host, whose code and the interpreter
//! agree to the bit; on the GPU 1e-12 for float64, 1e-5 for float32 and 1e-3 for float16, what
//! libdevice's transcendentals and FMA contraction explain). NaN matches NaN, and floats of two
//! widths never match.

use crate::error::Error;
use crate::host::{ArgValue, Value};
use twinjit_ir::half::f16;
use twinjit_ir::interp::{ArrayData, ArrayRef, RtValue};
use twinjit_ir::Scalar;

/// One compared value.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `None`.
    None,
    /// A bool.
    Bool(bool),
    /// An integer of any width.
    Int(i128),
    /// A float and its width in bits (16, 32 or 64).
    Float(f64, u8),
    /// An array's shape (or a tuple's length).
    Shape(Vec<usize>),
    /// Anything else (an exception raised, a failed launch), by its text.
    Text(String),
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Item::None => write!(f, "None"),
            Item::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Item::Int(i) => write!(f, "{i}"),
            Item::Float(x, _) => write!(f, "{x:?}"),
            Item::Shape(s) => write!(f, "shape {s:?}"),
            Item::Text(t) => write!(f, "{t}"),
        }
    }
}

/// Path-labelled items of one side.
pub type Items = Vec<(String, Item)>;

/// The side a compiled run is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The reference interpreter (host functions; kernels `cuda-sim` cannot compile).
    Interpreter,
    /// `cuda-sim`, the kernel compiled for this CPU (itself tested against the interpreter).
    CudaSim,
}

impl Reference {
    /// The side in a sentence.
    pub fn describe(self) -> &'static str {
        match self {
            Reference::Interpreter => "the reference interpreter",
            Reference::CudaSim => "cuda-sim (the kernel compiled for this CPU)",
        }
    }

    /// The side's label after a value.
    pub fn label(self) -> &'static str {
        match self {
            Reference::Interpreter => "interpreter",
            Reference::CudaSim => "cuda-sim",
        }
    }
}

/// The outcome of a comparison.
#[derive(Clone, Debug)]
pub struct Report {
    /// What ran (`` `f` compiled for the host ``, `` `k` on the GPU (NVIDIA H200) ``).
    pub subject: String,
    /// What it was compared with.
    pub reference: Reference,
    /// The relative tolerance floats were compared with.
    pub rtol: f64,
    /// Values compared (shapes not counted).
    pub values: usize,
    /// Values that differ.
    pub differences: usize,
    /// The first differences: `path: compiled != reference`.
    pub first: Vec<String>,
}

impl Report {
    /// Whether the two runs agree.
    pub fn agrees(&self) -> bool {
        self.differences == 0
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tol = if self.rtol > 0.0 {
            format!(" (floats within {:e} relative)", self.rtol)
        } else {
            " (floats exactly)".to_string()
        };
        if self.agrees() {
            return writeln!(
                f,
                "agree: {} and {} give the same {} values{tol}",
                self.subject,
                self.reference.describe(),
                self.values
            );
        }
        writeln!(
            f,
            "DIFFER: {} of {} values differ between {} and {}{tol}:",
            self.differences,
            self.values,
            self.subject,
            self.reference.describe()
        )?;
        for l in &self.first {
            writeln!(f, "  {l}")?;
        }
        Ok(())
    }
}

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

/// Pushes an array: its shape, then its elements labelled with their index.
pub fn push_array(path: &str, shape: &[usize], elements: Vec<Item>, out: &mut Items) {
    out.push((path.to_string(), Item::Shape(shape.to_vec())));
    for (i, l) in elements.into_iter().enumerate() {
        out.push((format!("{path}[{}]", index_text(i, shape)), l));
    }
}

fn unsigned(bits: i64, width: u32) -> i128 {
    let mask: u128 = if width >= 64 { u64::MAX as u128 } else { (1u128 << width) - 1 };
    (bits as u64 as u128 & mask) as i128
}

/// The items of an interpreter value (complex numbers as `.real`/`.imag`; a complex array
/// gets a trailing axis of 2).
pub fn rt_items(path: &str, v: &RtValue, out: &mut Items) {
    let item = match v {
        RtValue::None => Item::None,
        RtValue::Bool(b) => Item::Bool(*b),
        RtValue::F32(x) => Item::Float((*x).into(), 32),
        RtValue::F64(x) => Item::Float(*x, 64),
        RtValue::F16(x) => Item::Float((*x).into(), 16),
        RtValue::C64([re, im]) => {
            out.push((format!("{path}.real"), Item::Float((*re).into(), 32)));
            out.push((format!("{path}.imag"), Item::Float((*im).into(), 32)));
            return;
        }
        RtValue::C128([re, im]) => {
            out.push((format!("{path}.real"), Item::Float(*re, 64)));
            out.push((format!("{path}.imag"), Item::Float(*im, 64)));
            return;
        }
        RtValue::Tuple(vs) => {
            out.push((path.to_string(), Item::Shape(vec![vs.len()])));
            for (k, x) in vs.iter().enumerate() {
                rt_items(&format!("{path}[{k}]"), x, out);
            }
            return;
        }
        RtValue::List(l) => {
            let items = l.items.borrow();
            out.push((path.to_string(), Item::Shape(vec![items.len()])));
            for (k, x) in items.iter().enumerate() {
                rt_items(&format!("{path}[{k}]"), x, out);
            }
            return;
        }
        RtValue::Array(a) => {
            let mut shape: Vec<usize> = a.shape.iter().map(|&d| d as usize).collect();
            if a.dtype().is_complex() {
                shape.push(2);
            }
            let mut elements = Vec::new();
            for x in a.to_vec() {
                let mut one = Vec::new();
                rt_items("", &x, &mut one);
                elements.extend(one.into_iter().map(|(_, l)| l));
            }
            push_array(path, &shape, elements, out);
            return;
        }
        other => match other.int_bits() {
            Some((s, bits)) if s.is_unsigned() => Item::Int(unsigned(bits, s.bits())),
            Some((_, bits)) => Item::Int(bits.into()),
            None => Item::Text(other.to_string()),
        },
    };
    out.push((path.to_string(), item));
}

/// The items of a compiled host function's result.
pub fn value_items(path: &str, v: &Value, out: &mut Items) {
    let item = match v {
        Value::None => Item::None,
        Value::Str(text) => Item::Text(format!("{text:?}")),
        Value::Bool(b) => Item::Bool(*b),
        Value::I8(x) => Item::Int((*x).into()),
        Value::I16(x) => Item::Int((*x).into()),
        Value::I32(x) => Item::Int((*x).into()),
        Value::I64(x) => Item::Int((*x).into()),
        Value::U8(x) => Item::Int((*x).into()),
        Value::U16(x) => Item::Int((*x).into()),
        Value::U32(x) => Item::Int((*x).into()),
        Value::U64(x) => Item::Int((*x).into()),
        Value::F32(x) => Item::Float((*x).into(), 32),
        Value::F64(x) => Item::Float(*x, 64),
        Value::F16(x) => Item::Float((*x).into(), 16),
        Value::C64(z) => {
            out.push((format!("{path}.real"), Item::Float(z.re.into(), 32)));
            out.push((format!("{path}.imag"), Item::Float(z.im.into(), 32)));
            return;
        }
        Value::C128(z) => {
            out.push((format!("{path}.real"), Item::Float(z.re, 64)));
            out.push((format!("{path}.imag"), Item::Float(z.im, 64)));
            return;
        }
        // As a list of (key, value) pairs.
        Value::Dict(kvs) => {
            out.push((path.to_string(), Item::Shape(vec![kvs.len()])));
            for (k, (key, v)) in kvs.iter().enumerate() {
                out.push((format!("{path}[{k}]"), Item::Shape(vec![2])));
                value_items(&format!("{path}[{k}][0]"), key, out);
                value_items(&format!("{path}[{k}][1]"), v, out);
            }
            return;
        }
        Value::Tuple(vs) | Value::List(vs) | Value::Set(vs) => {
            out.push((path.to_string(), Item::Shape(vec![vs.len()])));
            for (k, x) in vs.iter().enumerate() {
                value_items(&format!("{path}[{k}]"), x, out);
            }
            return;
        }
        Value::Array(a) => {
            // Through the interpreter's representation, so both sides read elements alike.
            let data = a.as_array_data();
            let mut shape = a.shape().to_vec();
            match data.and_then(|d| ArrayRef::new(d, shape.iter().map(|&s| s as i64).collect())) {
                Some(r) => rt_items(path, &RtValue::Array(r), out),
                None => {
                    shape.push(0);
                    out.push((path.to_string(), Item::Text(format!("an array of {}", a.dtype().name()))));
                }
            }
            return;
        }
    };
    out.push((path.to_string(), item));
}

/// Compares `got` (compiled) with `want` (the reference's).
pub fn compare(subject: &str, reference: Reference, got: &Items, want: &Items, rtol: f64) -> Report {
    let mut differences = 0;
    let mut first = Vec::new();
    if got.len() != want.len() {
        differences += 1;
        first.push(format!("the two runs give {} and {} items", got.len(), want.len()));
    }
    let mut scale = 1.0f64;
    for ((gp, g), (_, w)) in got.iter().zip(want) {
        if let Item::Shape(_) = w {
            let prefix = format!("{gp}[");
            scale = want
                .iter()
                .filter(|(p, _)| p.starts_with(&prefix))
                .filter_map(|(_, l)| match l {
                    Item::Float(x, _) if x.is_finite() => Some(x.abs()),
                    _ => None,
                })
                .fold(1.0f64, f64::max);
        }
        let same = match (g, w) {
            (Item::Float(a, abits), Item::Float(b, bbits)) => {
                abits == bbits && ((a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= rtol * scale)
            }
            (a, b) => a == b,
        };
        if !same {
            differences += 1;
            if first.len() < 10 {
                first.push(format!("{gp}: {g} (compiled) != {w} ({})", reference.label()));
            }
        }
    }
    let values = want.iter().filter(|(_, l)| !matches!(l, Item::Shape(_))).count();
    Report { subject: subject.to_string(), reference, rtol, values, differences, first }
}

/// The GPU's default tolerance for these items: 1e-3 where float16 values are compared (an
/// ulp of float16 is 2**-10 relative), 1e-5 where float32 ones are, else 1e-12.
pub fn gpu_rtol(items: &Items) -> f64 {
    let narrowest =
        items.iter().filter_map(|(_, l)| if let Item::Float(_, bits) = l { Some(*bits) } else { None }).min();
    match narrowest {
        Some(16) => 1e-3,
        Some(32) => 1e-5,
        _ => 1e-12,
    }
}

/// The elements of a strided array of `dtype` at `data`, in C order.
///
/// # Safety
/// Every element `data + itemsize * sum(i_k * strides[k])` for `i` inside `shape` is readable.
pub(crate) unsafe fn read_array(data: *const u8, dtype: Scalar, shape: &[i64], strides: &[i64]) -> Option<ArrayData> {
    let n: i64 = shape.iter().product();
    let offsets: Vec<isize> = (0..n.max(0))
        .map(|flat| {
            let mut r = flat;
            let mut off = 0i64;
            for k in (0..shape.len()).rev() {
                let d = shape[k].max(1);
                off += (r % d) * strides[k];
                r /= d;
            }
            off as isize
        })
        .collect();
    macro_rules! gather {
        ($t:ty) => {
            offsets
                .iter()
                // SAFETY: the caller guarantees each element is readable.
                .map(|&o| unsafe { (data as *const $t).offset(o).read_unaligned() })
                .collect()
        };
    }
    Some(match dtype {
        // SAFETY: as above; any non-zero byte is true, as numba-cuda and NumPy read bools.
        Scalar::Bool => ArrayData::Bool(offsets.iter().map(|&o| unsafe { data.offset(o).read() != 0 }).collect()),
        Scalar::Int8 => ArrayData::I8(gather!(i8)),
        Scalar::Int16 => ArrayData::I16(gather!(i16)),
        Scalar::Int32 => ArrayData::I32(gather!(i32)),
        Scalar::Int64 => ArrayData::I64(gather!(i64)),
        Scalar::UInt8 => ArrayData::U8(gather!(u8)),
        Scalar::UInt16 => ArrayData::U16(gather!(u16)),
        Scalar::UInt32 => ArrayData::U32(gather!(u32)),
        Scalar::UInt64 => ArrayData::U64(gather!(u64)),
        Scalar::Float32 => ArrayData::F32(gather!(f32)),
        Scalar::Float64 => ArrayData::F64(gather!(f64)),
        Scalar::Float16 => ArrayData::F16(gather!(f16)),
        Scalar::Complex64 => ArrayData::C64(gather!([f32; 2])),
        Scalar::Complex128 => ArrayData::C128(gather!([f64; 2])),
    })
}

/// An interpreter copy of a scalar or array argument.
pub(crate) fn rt_of_arg(a: &ArgValue<'_>) -> Result<RtValue, Error> {
    Ok(match a {
        ArgValue::None => RtValue::None,
        ArgValue::Tuple(items) => RtValue::Tuple(items.iter().map(rt_of_arg).collect::<Result<_, _>>()?),
        ArgValue::Array(arr) => rt_of_array(arr)?,
        ArgValue::Invalid(why) => return Err(Error::Unsupported(format!("an argument cannot be verified: {why}"))),
        scalar => scalar.to_rt().ok_or_else(|| Error::Internal("a scalar without an interpreter value".into()))?,
    })
}

fn rt_of_array(arr: &crate::host::ArrayArg<'_>) -> Result<RtValue, Error> {
    let nd = arr.ndim as usize;
    // SAFETY: an ArrayArg borrows a live array whose elements lie at its strides.
    let data = unsafe { read_array(arr.data, arr.dtype, &arr.shape[..nd], &arr.strides[..nd]) };
    data.and_then(|d| ArrayRef::new(d, arr.shape[..nd].to_vec()))
        .map(RtValue::Array)
        .ok_or_else(|| Error::Internal("an array argument could not be copied for the interpreter".into()))
}

/// The items of an argument after the call (arrays read where they lie; other kinds have
/// nothing to compare).
pub(crate) fn arg_items(path: &str, a: &ArgValue<'_>, out: &mut Items) -> Result<(), Error> {
    if let ArgValue::Array(arr) = a {
        rt_items(path, &rt_of_array(arr)?, out);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floats(path: &str, xs: &[f64]) -> Items {
        let mut out = vec![(path.to_string(), Item::Shape(vec![xs.len()]))];
        out.extend(xs.iter().enumerate().map(|(i, &x)| (format!("{path}[{i}]"), Item::Float(x, 64))));
        out
    }

    #[test]
    fn differences_are_counted_and_described_with_their_index() {
        let want = floats("out", &[1.0, 2.0, f64::NAN, 4.0]);
        assert!(compare("f", Reference::Interpreter, &want, &want, 0.0).agrees(), "NaN matches NaN");
        let got = floats("out", &[1.0, 2.5, f64::NAN, 4.0 + 1e-15]);
        let r = compare("f", Reference::Interpreter, &got, &want, 0.0);
        assert_eq!((r.differences, r.values), (2, 4));
        assert_eq!(r.first[0], "out[1]: 2.5 (compiled) != 2.0 (interpreter)");
        assert!(r.to_string().starts_with("DIFFER: 2 of 4 values"), "{r}");
        // A tolerance relative to the array's largest magnitude (4.0) admits the last one.
        assert_eq!(compare("f", Reference::Interpreter, &got, &want, 1e-15).differences, 1);
        assert!(compare("f", Reference::Interpreter, &want, &want, 0.0).to_string().starts_with("agree:"));
    }

    #[test]
    fn shapes_ints_and_kinds_must_be_equal() {
        let a = vec![("r".to_string(), Item::Shape(vec![2, 2]))];
        let b = vec![("r".to_string(), Item::Shape(vec![4]))];
        assert_eq!(compare("f", Reference::Interpreter, &a, &b, 1.0).differences, 1);
        let i = vec![("r".to_string(), Item::Int(3))];
        let f = vec![("r".to_string(), Item::Float(3.0, 64))];
        assert_eq!(compare("f", Reference::Interpreter, &i, &f, 1.0).differences, 1);
        let f32 = vec![("r".to_string(), Item::Float(3.0, 32))];
        assert_eq!(
            compare("f", Reference::Interpreter, &f32, &f, 1.0).differences,
            1,
            "float32 against float64 differs"
        );
        let f16 = vec![("r".to_string(), Item::Float(3.0, 16))];
        assert_eq!(
            compare("f", Reference::Interpreter, &f16, &f32, 1.0).differences,
            1,
            "float16 against float32 differs"
        );
        assert_eq!((gpu_rtol(&f16), gpu_rtol(&f32), gpu_rtol(&f)), (1e-3, 1e-5, 1e-12));
        assert_eq!(index_text(5, &[2, 3]), "1, 2");
    }

    #[test]
    fn strided_arrays_are_read_in_c_order() {
        // A 2x3 view of a 3x2 buffer (a transpose): strides (1, 2).
        let buf: Vec<f64> = (0..6).map(f64::from).collect();
        // SAFETY: every element of the view lies in `buf`.
        let d = unsafe { read_array(buf.as_ptr().cast(), Scalar::Float64, &[2, 3], &[1, 2]) }.unwrap();
        assert_eq!(d, ArrayData::F64(vec![0.0, 2.0, 4.0, 1.0, 3.0, 5.0]));
    }
}
