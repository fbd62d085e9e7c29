//! Functions with signatures in their decorator (`@njit(["float64(int32, float64)"])`) are not
//! compiled for other argument types, as in Numba: a call picks the declared signature its
//! arguments convert to most cheaply (`twinjit_ir::typing::pick_signature`, Numba's overload
//! resolution) and converts them; no signature fits → an argument error listing the declared
//! ones.

use super::args::ArgValue;
use twinjit_ir::interp::cast;
use twinjit_ir::{Signature, Type};

/// Converts a scalar argument with the interpreter's `cast` (what compiled code's conversions
/// do: floats to ints truncate and saturate, int64 to int32 wraps).
fn convert(a: &ArgValue<'_>, to: &Type) -> Option<ArgValue<'static>> {
    ArgValue::from_rt(&cast(&a.to_rt()?, to.scalar()?))
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
