//! Numba's typing rules for one operation at a time: unification, arithmetic, comparisons and
//! builtins. `infer` drives these over a function; keeping the rules here keeps them in one
//! place and testable without IR.
//!
//! Deviations from Numba (documented, deliberate): a value that is `None` on some paths and a
//! number on others is an error (Numba makes it `Optional`); `bool` unified with an integer
//! gives that integer type; arrays unify only with the identical array type (Numba relaxes
//! the layout to `A`).

use crate::function::{BinaryOp, CmpOp, UnaryOp};
use crate::types::{Scalar, Type};

/// The least type both values convert to, or `None` when they cannot meet (array vs float).
pub fn unify(a: &Type, b: &Type) -> Option<Type> {
    match (a, b) {
        (Type::Unknown, t) | (t, Type::Unknown) => Some(t.clone()),
        _ if a == b => Some(a.clone()),
        (Type::Scalar(x), Type::Scalar(y)) => Some(Type::Scalar(unify_scalar(*x, *y))),
        (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
            let mut out = Vec::with_capacity(xs.len());
            for (x, y) in xs.iter().zip(ys) {
                out.push(unify(x, y)?);
            }
            Some(Type::Tuple(out))
        }
        _ => None,
    }
}

/// Numeric unification of two scalars.
pub fn unify_scalar(a: Scalar, b: Scalar) -> Scalar {
    use Scalar::*;
    match (a, b) {
        _ if a == b => a,
        (Float32, Float32) => Float32,
        (Float32, Bool) | (Bool, Float32) => Float32,
        (Float32 | Float64, _) | (_, Float32 | Float64) => Float64,
        (Int64, _) | (_, Int64) => Int64,
        _ => Int32,
    }
}

/// Types of an arithmetic operation: operands are converted to `lhs`/`rhs`, the result is
/// `result`.
#[derive(Clone, Debug, PartialEq)]
pub struct OpTypes {
    /// Left operand type after conversion.
    pub lhs: Scalar,
    /// Right operand type after conversion.
    pub rhs: Scalar,
    /// Result type.
    pub result: Scalar,
}

fn promote_int(a: Scalar, b: Scalar) -> Scalar {
    // Numba computes integer arithmetic in at least intp (int64) width.
    let _ = (a, b);
    Scalar::Int64
}

fn float_of(a: Scalar, b: Scalar) -> Scalar {
    match unify_scalar(a, b) {
        Scalar::Float32 => Scalar::Float32,
        _ => Scalar::Float64,
    }
}

/// Typing of `a OP b` on scalars.
pub fn binary(op: BinaryOp, a: Scalar, b: Scalar) -> Result<OpTypes, String> {
    let same = |s: Scalar| OpTypes { lhs: s, rhs: s, result: s };
    let any_float = a.is_float() || b.is_float();
    Ok(match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::FloorDiv | BinaryOp::Mod => {
            if any_float {
                same(float_of(a, b))
            } else {
                same(promote_int(a, b))
            }
        }
        BinaryOp::Div => {
            if any_float {
                same(float_of(a, b))
            } else {
                same(Scalar::Float64)
            }
        }
        BinaryOp::Pow => {
            if a.is_float() && !b.is_float() {
                // float ** int: repeated squaring in the base's type.
                OpTypes { lhs: a, rhs: Scalar::Int64, result: a }
            } else if any_float {
                same(float_of(a, b))
            } else {
                same(Scalar::Int64)
            }
        }
        BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => {
            if any_float {
                return Err(format!("unsupported operand types for {}: {} and {}", op.symbol(), a.name(), b.name()));
            }
            if a == Scalar::Bool && b == Scalar::Bool {
                same(Scalar::Bool)
            } else {
                same(promote_int(a, b))
            }
        }
        BinaryOp::Shl | BinaryOp::Shr => {
            if any_float {
                return Err(format!("unsupported operand types for {}: {} and {}", op.symbol(), a.name(), b.name()));
            }
            same(Scalar::Int64)
        }
    })
}

/// Typing of a unary operator: (operand type after conversion, result type).
pub fn unary(op: UnaryOp, a: Scalar) -> Result<(Scalar, Scalar), String> {
    Ok(match op {
        UnaryOp::Not => (a, Scalar::Bool),
        UnaryOp::Neg | UnaryOp::Pos => {
            if a.is_float() {
                (a, a)
            } else {
                (Scalar::Int64, Scalar::Int64)
            }
        }
        UnaryOp::Invert => match a {
            Scalar::Bool => (Scalar::Bool, Scalar::Bool),
            s if s.is_int() => (Scalar::Int64, Scalar::Int64),
            s => return Err(format!("bad operand type for unary ~: {}", s.name())),
        },
    })
}

/// Typing of a comparison: the common operand type.
pub fn compare(_op: CmpOp, a: Scalar, b: Scalar) -> Scalar {
    if a == b {
        a
    } else if a.is_float() || b.is_float() {
        float_of(a, b)
    } else {
        Scalar::Int64
    }
}

/// The result of a one-argument `math` function on `a` (int arguments become float64).
pub fn math_unary(a: Scalar) -> Scalar {
    if a == Scalar::Float32 {
        Scalar::Float32
    } else {
        Scalar::Float64
    }
}

/// The result of a two-argument `math` function.
pub fn math_binary(a: Scalar, b: Scalar) -> Scalar {
    if a == Scalar::Float32 && b == Scalar::Float32 {
        Scalar::Float32
    } else {
        Scalar::Float64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ArrayType, Layout};
    use Scalar::*;

    fn check(op: BinaryOp, a: Scalar, b: Scalar, expect: &str) {
        let got = match binary(op, a, b) {
            Ok(t) => format!("{} {} -> {}", t.lhs.name(), t.rhs.name(), t.result.name()),
            Err(e) => e,
        };
        assert_eq!(got, expect, "{a:?} {} {b:?}", op.symbol());
    }

    #[test]
    fn numba_arithmetic_rules() {
        check(BinaryOp::Add, Int32, Int32, "int64 int64 -> int64");
        check(BinaryOp::Add, Int64, Float32, "float64 float64 -> float64");
        check(BinaryOp::Mul, Float32, Float32, "float32 float32 -> float32");
        check(BinaryOp::Mul, Float32, Float64, "float64 float64 -> float64");
        check(BinaryOp::Div, Int64, Int64, "float64 float64 -> float64");
        check(BinaryOp::Div, Float32, Float32, "float32 float32 -> float32");
        check(BinaryOp::FloorDiv, Int64, Int64, "int64 int64 -> int64");
        check(BinaryOp::Pow, Int64, Int64, "int64 int64 -> int64");
        check(BinaryOp::Pow, Float32, Int32, "float32 int64 -> float32");
        check(BinaryOp::Pow, Int64, Float64, "float64 float64 -> float64");
        check(BinaryOp::Add, Bool, Bool, "int64 int64 -> int64");
        check(BinaryOp::BitAnd, Bool, Bool, "bool bool -> bool");
        check(BinaryOp::BitXor, Float64, Int64, "unsupported operand types for ^: float64 and int64");
    }

    #[test]
    fn unification() {
        assert_eq!(unify(&Type::I64, &Type::F64), Some(Type::F64));
        assert_eq!(unify(&Type::I32, &Type::I64), Some(Type::I64));
        assert_eq!(unify(&Type::F32, &Type::I32), Some(Type::F64));
        assert_eq!(unify(&Type::Unknown, &Type::F32), Some(Type::F32));
        let c = Type::Array(ArrayType { dtype: Float64, ndim: 1, layout: Layout::C });
        let a = Type::Array(ArrayType { dtype: Float64, ndim: 1, layout: Layout::A });
        // Arrays of different layouts do not meet (deviation: Numba gives layout A).
        assert_eq!(unify(&c, &a), None);
        assert_eq!(unify(&c, &Type::F64), None);
        assert_eq!(unify(&Type::None, &Type::F64), None);
    }

    #[test]
    fn unary_rules() {
        assert_eq!(unary(UnaryOp::Invert, Bool), Ok((Bool, Bool)));
        assert_eq!(unary(UnaryOp::Neg, Int32), Ok((Int64, Int64)));
        assert_eq!(unary(UnaryOp::Neg, Float32), Ok((Float32, Float32)));
        assert!(unary(UnaryOp::Invert, Float64).is_err());
    }
}
