//! Arrow types and buffers as twinjit's: the dtype map, arguments borrowed from Arrow arrays,
//! results written into Arrow buffers.

use datafusion::arrow::array::{Array, ArrayRef, AsArray, BooleanArray, PrimitiveArray};
use datafusion::arrow::buffer::{BooleanBuffer, NullBuffer};
use datafusion::arrow::datatypes::*;
use datafusion::common::{DataFusionError, Result, ScalarValue};
use std::sync::Arc;
use twinjit::ir::Scalar;
use twinjit::{ArgValue, IntoArg, Value};

/// The twinjit scalar of an Arrow type the UDFs take as it is.
pub(crate) fn scalar_of(dt: &DataType) -> Option<Scalar> {
    Some(match dt {
        DataType::Boolean => Scalar::Bool,
        DataType::Int8 => Scalar::Int8,
        DataType::Int16 => Scalar::Int16,
        DataType::Int32 => Scalar::Int32,
        DataType::Int64 => Scalar::Int64,
        DataType::UInt8 => Scalar::UInt8,
        DataType::UInt16 => Scalar::UInt16,
        DataType::UInt32 => Scalar::UInt32,
        DataType::UInt64 => Scalar::UInt64,
        DataType::Float32 => Scalar::Float32,
        DataType::Float64 => Scalar::Float64,
        _ => return None,
    })
}

/// The Arrow type of a twinjit scalar (complex and float16 have none on the host).
pub(crate) fn data_type_of(s: Scalar) -> Option<DataType> {
    Some(match s {
        Scalar::Bool => DataType::Boolean,
        Scalar::Int8 => DataType::Int8,
        Scalar::Int16 => DataType::Int16,
        Scalar::Int32 => DataType::Int32,
        Scalar::Int64 => DataType::Int64,
        Scalar::UInt8 => DataType::UInt8,
        Scalar::UInt16 => DataType::UInt16,
        Scalar::UInt32 => DataType::UInt32,
        Scalar::UInt64 => DataType::UInt64,
        Scalar::Float32 => DataType::Float32,
        Scalar::Float64 => DataType::Float64,
        _ => return None,
    })
}

/// What a lazily typed function takes for an argument of Arrow type `dt`: numbers and booleans
/// as they are; float16 as float32 (the host has no float16 arithmetic, as Numba's CPU target);
/// decimals and `NULL` literals as float64. `None` for the rest (strings, dates, lists).
pub(crate) fn coerce_lazy(dt: &DataType) -> Option<DataType> {
    match dt {
        DataType::Float16 => Some(DataType::Float32),
        DataType::Null
        | DataType::Decimal32(..)
        | DataType::Decimal64(..)
        | DataType::Decimal128(..)
        | DataType::Decimal256(..) => Some(DataType::Float64),
        d if scalar_of(d).is_some() => Some(d.clone()),
        _ => None,
    }
}

/// An argument's data, kept alive while compiled code reads it.
pub(crate) enum Held {
    /// A primitive Arrow array (its values buffer is passed as it is).
    Array(ArrayRef),
    /// A boolean array unpacked to one byte a value (Arrow packs 8 to a byte).
    Bools(Vec<bool>),
    /// A non-null scalar (a literal): broadcast by the ufunc loop.
    Scalar(ScalarValue),
}

impl Held {
    pub(crate) fn from_array(a: ArrayRef) -> Held {
        match a.data_type() {
            DataType::Boolean => Held::Bools(a.as_boolean().values().iter().collect()),
            _ => Held::Array(a),
        }
    }

    /// The argument compiled code receives.
    pub(crate) fn arg(&self) -> Result<ArgValue<'_>> {
        Ok(match self {
            Held::Bools(v) => v.as_slice().into_arg(),
            Held::Scalar(s) => scalar_arg(s)?,
            Held::Array(a) => {
                macro_rules! prim {
                    ($($dt:ident => $t:ty),*) => {
                        match a.data_type() {
                            $(DataType::$dt => a.as_primitive::<$t>().values().as_ref().into_arg(),)*
                            other => return Err(unsupported(other)),
                        }
                    };
                }
                prim!(Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
                      UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
                      Float32 => Float32Type, Float64 => Float64Type)
            }
        })
    }

    /// Row `i`'s value as a scalar argument (for finding the row an error comes from).
    pub(crate) fn row(&self, i: usize) -> Result<ArgValue<'static>> {
        match self {
            Held::Bools(v) => Ok(ArgValue::Bool(v[i])),
            Held::Scalar(s) => scalar_arg(s),
            Held::Array(a) => scalar_arg(&ScalarValue::try_from_array(a.as_ref(), i)?),
        }
    }
}

fn unsupported(dt: &DataType) -> DataFusionError {
    DataFusionError::Internal(format!("twinjit UDF argument of type {dt} reached compiled code"))
}

/// A non-null scalar as an argument.
pub(crate) fn scalar_arg(s: &ScalarValue) -> Result<ArgValue<'static>> {
    Ok(match s {
        ScalarValue::Boolean(Some(v)) => ArgValue::Bool(*v),
        ScalarValue::Int8(Some(v)) => ArgValue::I8(*v),
        ScalarValue::Int16(Some(v)) => ArgValue::I16(*v),
        ScalarValue::Int32(Some(v)) => ArgValue::I32(*v),
        ScalarValue::Int64(Some(v)) => ArgValue::I64(*v),
        ScalarValue::UInt8(Some(v)) => ArgValue::U8(*v),
        ScalarValue::UInt16(Some(v)) => ArgValue::U16(*v),
        ScalarValue::UInt32(Some(v)) => ArgValue::U32(*v),
        ScalarValue::UInt64(Some(v)) => ArgValue::U64(*v),
        ScalarValue::Float32(Some(v)) => ArgValue::F32(*v),
        ScalarValue::Float64(Some(v)) => ArgValue::F64(*v),
        other => return Err(unsupported(&other.data_type())),
    })
}

/// Python's spelling of a scalar argument, for error messages.
pub(crate) fn python_repr(a: &ArgValue) -> String {
    match a {
        ArgValue::Bool(b) => if *b { "True" } else { "False" }.to_string(),
        ArgValue::I8(v) => v.to_string(),
        ArgValue::I16(v) => v.to_string(),
        ArgValue::I32(v) => v.to_string(),
        ArgValue::I64(v) => v.to_string(),
        ArgValue::U8(v) => v.to_string(),
        ArgValue::U16(v) => v.to_string(),
        ArgValue::U32(v) => v.to_string(),
        ArgValue::U64(v) => v.to_string(),
        ArgValue::F32(v) => float_repr(f64::from(*v)),
        ArgValue::F64(v) => float_repr(*v),
        other => format!("{other:?}"),
    }
}

fn float_repr(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else if v == v.trunc() && v.abs() < 1e16 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

/// A value a compiled function returned, as a scalar of Arrow type `dt` (`None` gives null).
pub(crate) fn value_to_scalar(v: Value, dt: &DataType) -> Result<ScalarValue> {
    let s = match v {
        Value::None => return ScalarValue::try_from(dt),
        Value::Bool(b) => ScalarValue::Boolean(Some(b)),
        Value::I8(x) => ScalarValue::Int8(Some(x)),
        Value::I16(x) => ScalarValue::Int16(Some(x)),
        Value::I32(x) => ScalarValue::Int32(Some(x)),
        Value::I64(x) => ScalarValue::Int64(Some(x)),
        Value::U8(x) => ScalarValue::UInt8(Some(x)),
        Value::U16(x) => ScalarValue::UInt16(Some(x)),
        Value::U32(x) => ScalarValue::UInt32(Some(x)),
        Value::U64(x) => ScalarValue::UInt64(Some(x)),
        Value::F32(x) => ScalarValue::Float32(Some(x)),
        Value::F64(x) => ScalarValue::Float64(Some(x)),
        other => {
            return Err(DataFusionError::Execution(format!(
                "a twinjit UDF returned {other:?}, which has no Arrow type"
            )))
        }
    };
    if &s.data_type() == dt {
        Ok(s)
    } else {
        s.cast_to(dt)
    }
}

/// Runs `fill` on a buffer of `len` elements of Arrow type `dt` (passed to compiled code as
/// `out`, which must write every element: numbers are not zeroed first), then makes the Arrow
/// array of it with `nulls`. With `scatter`, the buffer holds
/// only the valid rows, which are spread to their places in an array of `scatter`'s length.
pub(crate) fn build_output(
    dt: &DataType,
    len: usize,
    nulls: Option<NullBuffer>,
    fill: &mut dyn FnMut(ArgValue<'_>) -> Result<()>,
) -> Result<ArrayRef> {
    let scatter = nulls.as_ref().map(|n| (n.len(), n));
    macro_rules! prim {
        ($($dt:ident => $t:ty),*) => {
            match dt {
                DataType::Boolean => {
                    let mut out = vec![false; len];
                    fill((&mut out[..]).into_arg())?;
                    let out = match scatter {
                        Some((full, n)) => spread(&out, full, n, false),
                        None => out,
                    };
                    Arc::new(BooleanArray::new(BooleanBuffer::from(&out[..]), nulls)) as ArrayRef
                }
                $(DataType::$dt => {
                    let mut out = Vec::<<$t as ArrowPrimitiveType>::Native>::with_capacity(len);
                    // The batch loop is a ufunc called with `out=`: it writes every element of
                    // `out`, so the buffer is not zeroed first (that was a pass over the output).
                    // SAFETY: a host function (compiled code) fills the spare capacity, and the
                    // length is set only after it returned without an error.
                    fill(unsafe { ArgValue::array_uninit_mut(&mut out.spare_capacity_mut()[..len]) })?;
                    unsafe { out.set_len(len) };
                    let out = match scatter {
                        Some((full, n)) => spread(&out, full, n, Default::default()),
                        None => out,
                    };
                    Arc::new(PrimitiveArray::<$t>::new(out.into(), nulls)) as ArrayRef
                })*
                other => return Err(unsupported(other)),
            }
        };
    }
    Ok(prim!(Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
             UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
             Float32 => Float32Type, Float64 => Float64Type))
}

/// The valid rows' values `compact` at their places in `full` rows (nulls get `zero`).
fn spread<T: Copy>(compact: &[T], full: usize, nulls: &NullBuffer, zero: T) -> Vec<T> {
    let mut out = vec![zero; full];
    for (v, i) in compact.iter().zip(nulls.valid_indices()) {
        out[i] = *v;
    }
    out
}
