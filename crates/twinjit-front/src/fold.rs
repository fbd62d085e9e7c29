//! CPython's compile-time folding of literal-only arithmetic in function bodies, which Numba
//! inherits: CPython folds `2 ** -1` to `0.5`, `~True` to `-2` and `2**62 * 4` to an integer
//! that does not fit int64 (Numba then rejects it) before Numba sees the code. Folding the same
//! expressions here keeps twinjit's results identical to Numba's on the same file.
//!
//! The arithmetic is `const_eval`'s, in its literal scope; this file is the policy of function
//! bodies: what CPython would raise (`1 / 0`) is not folded but left to run time, where it
//! raises the same exception; an integer that does not fit int64 is a located error (Numba's
//! "Int value is too large"). One deviation: CPython stops folding where an operand passes 128
//! bits (`2 ** 200`), and Numba then wraps at run time; twinjit folds exactly to i128 and reports
//! anything larger, rather than wrap silently.

use crate::const_eval::{eval, ConstValue, NoValue, Scope, Why};
use ruff_python_ast::Expr;
use twinjit_diag::{Diagnostic, Span};

/// The constant CPython folds `e` to, if `e` is a unary or binary operator over literals that
/// CPython folds; `Err` for a folded integer Numba rejects. `None`: not folded. An integer in
/// `2**63..2**64` is a `uint64` constant, as Numba types it.
pub(crate) fn fold(e: &Expr, span: Span) -> Option<Result<ConstValue, Diagnostic>> {
    if !matches!(e, Expr::UnaryOp(_) | Expr::BinOp(_)) {
        return None;
    }
    match eval(e, Scope::Literals) {
        Ok(ConstValue::Int(i)) if (i64::MIN as i128..1i128 << 64).contains(&i) => Some(Ok(ConstValue::Int(i))),
        Ok(ConstValue::Int(i)) => Some(Err(too_large(Some(i), span))),
        Ok(v @ (ConstValue::Float(_) | ConstValue::Bool(_) | ConstValue::Complex(..))) => Some(Ok(v)),
        Err(NoValue { why: Why::TooLarge, .. }) => Some(Err(too_large(None, span))),
        // The literal scope builds no tuples; what would raise is left to run time.
        Ok(ConstValue::Tuple(_) | ConstValue::Str(_))
        | Err(NoValue { why: Why::NotConstant(_) | Why::Raises { .. }, .. }) => None,
    }
}

fn too_large(_value: Option<i128>, span: Span) -> Diagnostic {
    Diagnostic::error("integer constant does not fit in int64", span, "too large")
        .with_hint("Numba rejects it too (CPython folds it to a big integer first)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Folds `src` as a function body would: `int:…`, `float:…`, `bool:…`, `not folded` or the
    /// error's message and hint.
    fn check(src: &str, expect: &str) {
        let e = ruff_python_parser::parse_expression(src).expect("parses").into_syntax().body;
        let got = match fold(&e, Span::DUMMY) {
            None => "not folded".to_string(),
            Some(Ok(ConstValue::Int(i))) => format!("int:{i}"),
            Some(Ok(ConstValue::Float(x))) => format!("float:{x:?}"),
            Some(Ok(ConstValue::Bool(b))) => format!("bool:{b}"),
            Some(Ok(ConstValue::Complex(re, im))) => format!("complex:{re:?},{im:?}"),
            Some(Ok(ConstValue::Tuple(_))) => "tuple".to_string(),
            Some(Ok(ConstValue::Str(s))) => format!("str:{s}"),
            Some(Err(d)) => format!("error: {} ({})", d.message, d.hint.unwrap_or_default()),
        };
        assert_eq!(got, expect, "{src}");
    }

    #[test]
    fn folds_like_cpython() {
        check("2 ** -1", "float:0.5");
        check("~True", "int:-2");
        check("not 0", "bool:true");
        check("True + True", "int:2");
        check("-7 // 2", "int:-4");
        check("-7 % 2", "int:1");
        check("-7.5 // 2", "float:-4.0");
        check("True & False", "bool:false");
        check("-9223372036854775808", "int:-9223372036854775808");
        check("-(2 ** 63)", "int:-9223372036854775808");
        check("(1 << 63) - 1", "int:9223372036854775807");
        check("2 ** 100 // 2 ** 90", "int:1024");
        check("x + 1", "not folded");
        check("(1, 2) + (3,)", "not folded");
    }

    #[test]
    fn leaves_what_raises_to_run_time() {
        check("1 / 0", "not folded");
        check("1 % 0", "not folded");
        check("1.0 // 0.0", "not folded");
        check("0 ** -1", "not folded");
        check("0.0 ** -1", "not folded");
        check("1 << -1", "not folded");
        check("2.0 ** 10000", "not folded");
        check("~1.5", "not folded");
        check("1j / 0", "not folded");
        check("0j ** -1", "not folded");
    }

    #[test]
    fn folds_complex_like_cpython() {
        // CPython's float_pow hands a negative base with a fractional exponent to complex.
        check("(-8.0) ** 0.5", "complex:1.7319121124709868e-16,2.8284271247461903");
        check("1 - 2j", "complex:1.0,-2.0");
        check("-(1j)", "complex:-0.0,-1.0");
    }

    #[test]
    fn rejects_integers_past_int64() {
        let big = "Numba rejects it too (CPython folds it to a big integer first)";
        check("2**62 * 4", &format!("error: integer constant does not fit in int64 ({big})"));
        check("1 << 63", "int:9223372036854775808");
        check("1 << 64", &format!("error: integer constant does not fit in int64 ({big})"));
        check("-(1 << 63) - 1", &format!("error: integer constant does not fit in int64 ({big})"));
        check("10 ** 400", &format!("error: integer constant does not fit in int64 ({big})"));
    }
}
