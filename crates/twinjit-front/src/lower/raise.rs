//! `raise` and `assert` statements: a block ending in the IR's `raise` terminator, with the
//! exception's class resolved here (a builtin exception, or a class of the module that derives
//! from one) and its arguments split into constants (baked into the raise site's message) and
//! runtime values (at most `MAX_RUNTIME_ARGS`, scalars checked by inference).

use super::{unsupported, Lower};
use crate::env::Global;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::exception::{BUILTIN_EXCEPTIONS, MAX_RUNTIME_ARGS, TYPING_ERROR};
use twinjit_ir::{Const, Exception, ExceptionArg, InstKind, Terminator, Value};

/// A piece of an f-string: text, or a field's value.
pub(super) enum FPiece {
    Text(String),
    Value(Value),
}

impl Lower<'_> {
    pub(super) fn raise_stmt(&mut self, r: &ast::StmtRaise) {
        let span = self.sp(r.range);
        if let Some(cause) = &r.cause {
            self.diags.push(unsupported(
                self.sp(cause.range()),
                "`raise ... from ...` is",
                "raise the exception without `from` (Numba rejects `from` too)",
            ));
        }
        let Some(exc) = &r.exc else {
            self.diags.push(unsupported(
                span,
                "a bare `raise` (re-raising) is",
                "raise an exception class or instance",
            ));
            return;
        };
        let (class_expr, args): (&Expr, &[Expr]) = match &**exc {
            Expr::Call(c) => {
                if let Some(k) = c.arguments.keywords.first() {
                    self.diags.push(unsupported(
                        self.sp(k.range),
                        "keyword arguments to an exception are",
                        "pass the message positionally: `raise ValueError(\"message\")`",
                    ));
                }
                (&c.func, &c.arguments.args)
            }
            other => (other, &[]),
        };
        let Some(class) = self.exception_class(class_expr) else { return };
        self.raise_with(class, args, span);
    }

    /// `assert test[, msg]`: raises `AssertionError(msg)` when `test` is false.
    pub(super) fn assert_stmt(&mut self, a: &ast::StmtAssert) {
        let span = self.sp(a.range);
        let fail = self.new_block();
        let ok = self.new_block();
        self.cond_branch(&a.test, ok, fail);
        self.seal(fail);
        self.seal(ok);
        self.cur = fail;
        let args: &[Expr] = a.msg.as_deref().map(std::slice::from_ref).unwrap_or_default();
        self.raise_with("AssertionError".to_string(), args, span);
        self.cur = ok;
    }

    /// Ends the current block with `raise class(args)`; code after it is unreachable.
    fn raise_with(&mut self, class: String, args: &[Expr], span: Span) {
        let mut out = Vec::new();
        if class == TYPING_ERROR {
            // Typing-time code: the message as written (an f-string of types has no value here).
            let text: Vec<String> = args
                .iter()
                .map(|a| match a {
                    Expr::StringLiteral(s) => s.value.to_str().to_string(),
                    e => self.text[e.range()].to_string(),
                })
                .collect();
            let shown = if args.is_empty() { String::new() } else { format!("TypingError: {}", text.join(" ")) };
            out.push(ExceptionArg::Str(shown));
            let exception = Exception { class, args: out };
            self.f.terminate(self.cur, Terminator::Raise(Box::new(exception)), span);
            self.dead();
            return;
        }
        for a in args {
            match a {
                Expr::StringLiteral(s) => out.push(ExceptionArg::Str(s.value.to_str().to_string())),
                // `f"bad value {x}"`: the text with each value's `str()` (a string's text, known
                // when the function is typed; a number's at run time), as Numba formats it.
                Expr::FString(fs) => {
                    let Some(pieces) = self.fstring_pieces(fs) else { continue };
                    let pieces = pieces
                        .into_iter()
                        .map(|p| match p {
                            FPiece::Text(t) => ExceptionArg::Str(t),
                            FPiece::Value(v) => self.constant_arg(v).unwrap_or(ExceptionArg::Runtime(v)),
                        })
                        .collect();
                    out.push(ExceptionArg::Format(pieces));
                }
                Expr::Starred(s) => {
                    self.diags.push(unsupported(self.sp(s.range), "`*args` in an exception is", "list the arguments"))
                }
                e => {
                    let v = self.expr(e);
                    out.push(self.constant_arg(v).unwrap_or(ExceptionArg::Runtime(v)));
                }
            }
        }
        let exception = Exception { class, args: out };
        if exception.runtime().count() > MAX_RUNTIME_ARGS {
            self.diags.push(
                Diagnostic::error(
                    format!("an exception carries at most {MAX_RUNTIME_ARGS} values computed at run time"),
                    span,
                    format!("{} runtime values", exception.runtime().count()),
                )
                .with_hint("constants (strings, numbers) are not limited; combine the others or raise fewer"),
            );
        }
        self.f.terminate(self.cur, Terminator::Raise(Box::new(exception)), span);
        self.dead();
    }

    /// The pieces of an f-string: its text and the values of its `{expr}` fields, in order.
    /// A field with a conversion (`!r`), a format spec (`:.2f`) or `=` is refused (located).
    pub(super) fn fstring_pieces(&mut self, fs: &ast::ExprFString) -> Option<Vec<FPiece>> {
        let mut out = Vec::new();
        for part in fs.value.iter() {
            match part {
                ast::FStringPart::Literal(s) => out.push(FPiece::Text(s.value.to_string())),
                ast::FStringPart::FString(f) => {
                    for el in f.elements.iter() {
                        match el {
                            ast::InterpolatedStringElement::Literal(l) => out.push(FPiece::Text(l.value.to_string())),
                            ast::InterpolatedStringElement::Interpolation(i) => {
                                if i.conversion != ast::ConversionFlag::None
                                    || i.format_spec.is_some()
                                    || i.debug_text.is_some()
                                {
                                    self.diags.push(unsupported(
                                        self.sp(i.range),
                                        "an f-string field with a conversion, a format spec or `=` is",
                                        "write the value plainly (`{x}`): twinjit formats plain fields only",
                                    ));
                                    return None;
                                }
                                out.push(FPiece::Value(self.expr(&i.expression)));
                            }
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// A constant argument (a literal, a folded expression, a frozen global).
    fn constant_arg(&self, v: Value) -> Option<ExceptionArg<Value>> {
        match self.f.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Int(i))) => Some(ExceptionArg::Int(*i)),
            Some(InstKind::Const(Const::Float(x))) => Some(ExceptionArg::Float(*x)),
            Some(InstKind::Const(Const::Bool(b))) => Some(ExceptionArg::Bool(*b)),
            _ => None,
        }
    }

    /// An exception class read as a value (`e = ValueError("x")`, `f(MyError)`).
    pub(super) fn exception_value(&mut self, id: &str, span: Span) -> Value {
        self.fail(
            Diagnostic::error(format!("exception class `{id}` used as a value"), span, "not raised")
                .with_hint(format!("compiled code can only raise exceptions: `raise {id}(\"message\")`")),
        )
    }

    /// The class `e` names: a builtin exception or an exception class of the module.
    fn exception_class(&mut self, e: &Expr) -> Option<String> {
        let span = self.sp(e.range());
        if let Expr::Name(n) = e {
            let id = n.id.as_str();
            if !self.locals.contains(id) {
                match self.env.get(id) {
                    Some(Global::ExceptionClass(c)) => return Some(c.clone()),
                    None if BUILTIN_EXCEPTIONS.contains(&id) => return Some(id.to_string()),
                    None if id == crate::overload::RAISE_NAME => return Some(TYPING_ERROR.to_string()),
                    _ => {}
                }
            }
        }
        let shown = match dotted(e) {
            Some(d) => format!("`{d}`"),
            None => "this expression".to_string(),
        };
        self.diags.push(
            Diagnostic::error(
                format!("{shown} is not an exception class compiled code can raise"),
                span,
                "raised here",
            )
            .with_hint(format!(
                "raise a builtin exception ({}) or a module-level class that derives from one, \
                     e.g. `class MyError(ValueError): pass`",
                BUILTIN_EXCEPTIONS.join(" ")
            )),
        );
        None
    }
}

/// `a.b.c` for a name or attribute chain.
fn dotted(e: &Expr) -> Option<String> {
    match e {
        Expr::Name(n) => Some(n.id.to_string()),
        Expr::Attribute(a) => Some(format!("{}.{}", dotted(&a.value)?, a.attr.id)),
        _ => None,
    }
}
