//! The `operator` module: `operator.add(a, b)` is `a + b`, `operator.lt(a, b)` is `a < b`,
//! `operator.neg(x)` is `-x` (the in-place forms `iadd`, `imul`, … are the same on numbers),
//! lowered through the very paths the operators themselves take, as Numba types them.
//!
//! Knows only the names of the functional forms; which operators exist and how they type is
//! the expression lowering's and inference's business.

use super::{unsupported, Lower};
use ruff_python_ast::{self as ast, Expr};
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::{InstKind, Value};

/// What an `operator` function stands for.
enum OperatorFn {
    Binary(ast::Operator),
    Compare(ast::CmpOp),
    /// `contains(a, b)` is `b in a`.
    Contains,
    Unary(ast::UnaryOp),
}

fn operator_fn(name: &str) -> Option<OperatorFn> {
    use ast::CmpOp as C;
    use OperatorFn::*;
    // The in-place forms: `iadd` is `add`, `iand` is `and_`.
    if let Some(op) = name.strip_prefix('i').and_then(|n| binary(n).or_else(|| binary(&format!("{n}_")))) {
        return Some(Binary(op));
    }
    if let Some(op) = binary(name) {
        return Some(Binary(op));
    }
    Some(match name {
        "eq" => Compare(C::Eq),
        "ne" => Compare(C::NotEq),
        "lt" => Compare(C::Lt),
        "le" => Compare(C::LtE),
        "gt" => Compare(C::Gt),
        "ge" => Compare(C::GtE),
        "is_" => Compare(C::Is),
        "is_not" => Compare(C::IsNot),
        "contains" => Contains,
        "neg" => Unary(ast::UnaryOp::USub),
        "pos" => Unary(ast::UnaryOp::UAdd),
        "not_" => Unary(ast::UnaryOp::Not),
        // `truth`, `abs`, `index` and `matmul` are not compiled by Numba either.
        "invert" | "inv" => Unary(ast::UnaryOp::Invert),
        _ => return None,
    })
}

fn binary(name: &str) -> Option<ast::Operator> {
    use ast::Operator::*;
    Some(match name {
        "add" => Add,
        "sub" => Sub,
        "mul" => Mult,
        "truediv" => Div,
        "floordiv" => FloorDiv,
        "mod" => Mod,
        "pow" => Pow,
        "and_" => BitAnd,
        "or_" => BitOr,
        "xor" => BitXor,
        "lshift" => LShift,
        "rshift" => RShift,
        _ => return None,
    })
}

impl Lower<'_> {
    /// `operator.NAME(args)` (`path` as the import resolves it), or `None` when `path` is not
    /// an `operator` function twinjit knows.
    pub(super) fn operator_call(&mut self, path: &str, c: &ast::ExprCall, span: Span) -> Option<Value> {
        let f = operator_fn(path.strip_prefix("operator.")?)?;
        let args = &c.arguments.args;
        let want = match f {
            OperatorFn::Binary(_) | OperatorFn::Compare(_) | OperatorFn::Contains => 2,
            OperatorFn::Unary(_) => 1,
        };
        if !c.arguments.keywords.is_empty() || args.len() != want || args.iter().any(|a| matches!(a, Expr::Starred(_)))
        {
            return Some(self.fail(Diagnostic::error(
                format!("`{path}` takes {want} positional argument{}", if want == 1 { "" } else { "s" }),
                span,
                "called here",
            )));
        }
        let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        Some(match f {
            OperatorFn::Binary(op) => match super::binop(op) {
                Some(op) => self.emit(InstKind::Binary(op, vals[0], vals[1]), span),
                None => self.fail(unsupported(span, "the `@` operator is", "write the matrix product as loops")),
            },
            OperatorFn::Compare(op) => self.compare_one(op, vals[0], vals[1], span),
            OperatorFn::Contains => self.compare_one(ast::CmpOp::In, vals[1], vals[0], span),
            OperatorFn::Unary(op) => self.unary(op, vals[0], span),
        })
    }
}
