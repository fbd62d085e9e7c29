//! CPython's compile-time folding of literal-only arithmetic, which Numba inherits: CPython
//! folds `2 ** -1` to `0.5`, `~True` to `-2` and `2**62 * 4` to an integer that does not fit
//! int64 (Numba then rejects it) before Numba sees the code. Folding the same expressions here
//! keeps twinjit's results identical to Numba's on the same file.

use ruff_python_ast::{self as ast, Expr};

/// A folded Python constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Folded {
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// Why an expression was not folded.
#[derive(Debug, PartialEq)]
pub(crate) enum NoFold {
    /// Not made only of literals, or CPython would raise (left to run time).
    NotConstant,
    /// An integer result outside int64 (Numba: "Int value is too large").
    TooLarge,
}

/// Folds `e` if it is a unary/binary operator tree over number and boolean literals.
pub(crate) fn fold(e: &Expr) -> Result<Folded, NoFold> {
    match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i.as_i64().map(Folded::Int).ok_or(NoFold::TooLarge),
            ast::Number::Float(x) => Ok(Folded::Float(*x)),
            ast::Number::Complex { .. } => Err(NoFold::NotConstant),
        },
        Expr::BooleanLiteral(b) => Ok(Folded::Bool(b.value)),
        Expr::UnaryOp(u) => {
            // `-9223372036854775808` is a negated literal that only fits after negation.
            if let (ast::UnaryOp::USub, Expr::NumberLiteral(n)) = (u.op, &*u.operand) {
                if let ast::Number::Int(i) = &n.value {
                    if i.as_u64() == Some(1 << 63) {
                        return Ok(Folded::Int(i64::MIN));
                    }
                }
            }
            let v = fold(&u.operand)?;
            Ok(match (u.op, v) {
                (ast::UnaryOp::Not, v) => Folded::Bool(!truthy(v)),
                (ast::UnaryOp::USub, Folded::Float(x)) => Folded::Float(-x),
                (ast::UnaryOp::UAdd, Folded::Float(x)) => Folded::Float(x),
                (ast::UnaryOp::Invert, Folded::Float(_)) => return Err(NoFold::NotConstant),
                (op, v) => {
                    let i = as_int(v).expect("not a float");
                    match op {
                        ast::UnaryOp::USub => Folded::Int(i.checked_neg().ok_or(NoFold::TooLarge)?),
                        ast::UnaryOp::UAdd => Folded::Int(i),
                        _ => Folded::Int(!i),
                    }
                }
            })
        }
        Expr::BinOp(b) => binop(b.op, fold(&b.left)?, fold(&b.right)?),
        _ => Err(NoFold::NotConstant),
    }
}

fn truthy(v: Folded) -> bool {
    match v {
        Folded::Int(i) => i != 0,
        Folded::Float(x) => x != 0.0,
        Folded::Bool(b) => b,
    }
}

fn as_int(v: Folded) -> Option<i64> {
    match v {
        Folded::Int(i) => Some(i),
        Folded::Bool(b) => Some(b as i64),
        Folded::Float(_) => None,
    }
}

fn as_float(v: Folded) -> f64 {
    match v {
        Folded::Int(i) => i as f64,
        Folded::Bool(b) => b as i64 as f64,
        Folded::Float(x) => x,
    }
}

fn binop(op: ast::Operator, l: Folded, r: Folded) -> Result<Folded, NoFold> {
    use ast::Operator::*;
    use twinjit_ir::interp::{divmod_f64, int_floordiv, int_mod};
    let nc = NoFold::NotConstant;
    if let (Folded::Bool(a), Folded::Bool(b), BitAnd | BitOr | BitXor) = (l, r, op) {
        return Ok(Folded::Bool(match op {
            BitAnd => a & b,
            BitOr => a | b,
            _ => a ^ b,
        }));
    }
    if let (Some(a), Some(b)) = (as_int(l), as_int(r)) {
        let big = NoFold::TooLarge;
        return Ok(match op {
            Add => Folded::Int(a.checked_add(b).ok_or(big)?),
            Sub => Folded::Int(a.checked_sub(b).ok_or(big)?),
            Mult => Folded::Int(a.checked_mul(b).ok_or(big)?),
            Div if b != 0 => Folded::Float(a as f64 / b as f64),
            FloorDiv if b != 0 => Folded::Int(int_floordiv(a, b)),
            Mod if b != 0 => Folded::Int(int_mod(a, b)),
            Pow if b < 0 && a != 0 => Folded::Float((a as f64).powi(b.max(i32::MIN as i64) as i32)),
            Pow if b >= 0 => Folded::Int(u32::try_from(b).ok().and_then(|e| a.checked_pow(e)).ok_or(big)?),
            LShift if b >= 0 => Folded::Int(if b < 64 {
                a.checked_mul(1i64.checked_shl(b as u32).ok_or(NoFold::TooLarge)?).ok_or(NoFold::TooLarge)?
            } else if a == 0 {
                0
            } else {
                return Err(NoFold::TooLarge);
            }),
            RShift if b >= 0 => Folded::Int(a >> b.min(63)),
            BitAnd => Folded::Int(a & b),
            BitOr => Folded::Int(a | b),
            BitXor => Folded::Int(a ^ b),
            _ => return Err(nc),
        });
    }
    let (a, b) = (as_float(l), as_float(r));
    Ok(Folded::Float(match op {
        Add => a + b,
        Sub => a - b,
        Mult => a * b,
        Div if b != 0.0 => a / b,
        FloorDiv if b != 0.0 => divmod_f64(a, b).0,
        Mod if b != 0.0 => divmod_f64(a, b).1,
        // A negative base to a fractional power is complex in Python: not folded.
        Pow if !((a < 0.0 && b.fract() != 0.0) || (a == 0.0 && b < 0.0)) => a.powf(b),
        _ => return Err(nc),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &str, expect: Result<Folded, NoFold>) {
        let e = ruff_python_parser::parse_expression(src).expect("parses").into_syntax().body;
        assert_eq!(fold(&e), expect, "{src}");
    }

    #[test]
    fn folds_like_cpython() {
        check("2 ** -1", Ok(Folded::Float(0.5)));
        check("~True", Ok(Folded::Int(-2)));
        check("not 0", Ok(Folded::Bool(true)));
        check("True + True", Ok(Folded::Int(2)));
        check("-7 // 2", Ok(Folded::Int(-4)));
        check("-7 % 2", Ok(Folded::Int(1)));
        check("2**62 * 4", Err(NoFold::TooLarge));
        check("1 / 0", Err(NoFold::NotConstant));
        check("(-8.0) ** 0.5", Err(NoFold::NotConstant));
        check("-9223372036854775808", Ok(Folded::Int(i64::MIN)));
        check("x + 1", Err(NoFold::NotConstant));
        check("True & False", Ok(Folded::Bool(false)));
    }
}
