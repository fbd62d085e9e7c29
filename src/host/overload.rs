//! Functions with signatures in their decorator (`@njit(["float64(int32, float64)"])`) are not
//! compiled for other argument types, as in Numba: a call picks the declared signature its
//! arguments convert to most cheaply (`twinjit_ir::typing::pick_signature`, Numba's overload
//! resolution) and converts them; no signature fits → an argument error listing the declared
//! ones.

use super::args::ArgValue;
use twinjit_ir::interp::{cast, RtValue};
use twinjit_ir::{Signature, Type};

/// Converts a scalar argument with the interpreter's `cast` (what compiled code's conversions
/// do: floats to ints truncate and saturate, int64 to int32 wraps).
fn convert(a: &ArgValue<'_>, to: &Type) -> Option<ArgValue<'static>> {
    let s = to.scalar()?;
    let v = match *a {
        ArgValue::Bool(b) => RtValue::Bool(b),
        ArgValue::I32(x) => RtValue::I32(x),
        ArgValue::I64(x) => RtValue::I64(x),
        ArgValue::F32(x) => RtValue::F32(x),
        ArgValue::F64(x) => RtValue::F64(x),
        ArgValue::I8(x) => RtValue::I8(x),
        ArgValue::I16(x) => RtValue::I16(x),
        ArgValue::U8(x) => RtValue::U8(x),
        ArgValue::U16(x) => RtValue::U16(x),
        ArgValue::U32(x) => RtValue::U32(x),
        ArgValue::U64(x) => RtValue::U64(x),
        ArgValue::Array(_) | ArgValue::None | ArgValue::Tuple(_) | ArgValue::Invalid(_) => return None,
    };
    Some(match cast(&v, s) {
        RtValue::Bool(b) => ArgValue::Bool(b),
        RtValue::I32(x) => ArgValue::I32(x),
        RtValue::I64(x) => ArgValue::I64(x),
        RtValue::F32(x) => ArgValue::F32(x),
        RtValue::F64(x) => ArgValue::F64(x),
        RtValue::I8(x) => ArgValue::I8(x),
        RtValue::I16(x) => ArgValue::I16(x),
        RtValue::U8(x) => ArgValue::U8(x),
        RtValue::U16(x) => ArgValue::U16(x),
        RtValue::U32(x) => ArgValue::U32(x),
        RtValue::U64(x) => ArgValue::U64(x),
        _ => return None,
    })
}

/// The declared signature `args` convert to most cheaply (its index), if any
/// (`twinjit_ir::typing::pick_signature`, the rule the interpreter follows too).
pub(super) fn pick(declared: &[Signature], args: &[ArgValue]) -> Option<usize> {
    let types: Option<Vec<Type>> = args.iter().map(ArgValue::ty).collect();
    twinjit_ir::typing::pick_signature(declared, &types?)
}

/// `args` converted to `sig`'s types (arrays passed as they are); `pick` chose `sig`, so every
/// argument converts.
pub(super) fn converted<'a>(sig: &Signature, args: &[ArgValue<'a>]) -> Vec<ArgValue<'a>> {
    args.iter()
        .zip(&sig.args)
        .map(|(a, t)| if t.scalar().is_some() { convert(a, t).unwrap_or(*a) } else { *a })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use twinjit_ir::Scalar;

    #[test]
    fn conversions_are_the_interpreters_casts() {
        let t = Type::Scalar;
        assert!(matches!(convert(&ArgValue::F64(12.25), &t(Scalar::Float32)), Some(ArgValue::F32(x)) if x == 12.25));
        assert!(matches!(convert(&ArgValue::F64(-3.9), &t(Scalar::Int64)), Some(ArgValue::I64(-3))));
        assert!(matches!(convert(&ArgValue::I32(7), &t(Scalar::Float64)), Some(ArgValue::F64(x)) if x == 7.0));
        assert!(matches!(convert(&ArgValue::Bool(true), &t(Scalar::Int64)), Some(ArgValue::I64(1))));
    }
}
