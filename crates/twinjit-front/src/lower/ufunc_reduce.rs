//! Calls of a `@vectorize` ufunc's methods in compiled code: `f.reduce(a, axis=0)` (Numba
//! 0.59's `ufunc.reduce`, its first two arguments), lowered to `ufunc_reduce`.

use super::Lower;
use crate::ufunc::inner_name;
use ruff_python_ast as ast;
use ruff_text_size::Ranged;
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::{Builtin, Const, InstKind, Value};

impl Lower<'_> {
    /// `f.reduce(a)` / `f.reduce(a, axis)` / `f.reduce(a, axis=k)` of a `@vectorize` ufunc
    /// `name`: `ufunc_reduce(inner, a, axis)` (an absent axis is 0, as in NumPy).
    pub(super) fn ufunc_reduce(&mut self, name: &str, c: &ast::ExprCall, span: Span) -> Value {
        let a = &c.arguments;
        let mut axis = a.args.get(1);
        for k in a.keywords.iter() {
            match k.arg.as_ref().map(|n| n.id.as_str()) {
                Some("axis") if axis.is_none() => axis = Some(&k.value),
                _ => {
                    let d = Diagnostic::error(
                        format!("`{name}.reduce` takes the array and `axis` here"),
                        self.sp(k.range()),
                        "unsupported argument",
                    )
                    .with_hint("dtype=, out=, keepdims= and initial= of ufunc.reduce are not supported");
                    return self.fail(d);
                }
            }
        }
        if a.args.is_empty() || a.args.len() > 2 || a.args.iter().any(|e| matches!(e, ast::Expr::Starred(_))) {
            let d = Diagnostic::error(format!("`{name}.reduce` takes the array and `axis` here"), span, "here");
            return self.fail(d);
        }
        let inner = inner_name(name);
        if !self.callees.contains(&inner) {
            self.callees.push(inner.clone());
        }
        let k = self.emit(InstKind::FuncRef(inner), span);
        let arr = self.expr(&a.args[0]);
        let ax = match axis {
            Some(e) => self.expr(e),
            None => self.emit(InstKind::Const(Const::Int(0)), span),
        };
        self.emit(InstKind::Builtin(Builtin::UfuncReduce, vec![k, arr, ax]), span)
    }
}
