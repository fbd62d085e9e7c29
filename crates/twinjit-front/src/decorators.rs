//! Decorators → [`FunctionAttrs`]: `@njit`, `@jit(...)`, `@numba.njit`, `@cuda.jit`,
//! `@cuda.jit(device=True)`, with signature strings and the options twinjit honours.

use crate::env::{Env, Global};
use crate::span;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;
use twinjit_diag::{Diagnostic, FileId, Span};
use twinjit_ir::{parse_signature, ErrorModel, FunctionAttrs, FunctionKind, Signature};

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Njit,
    Jit,
    CudaJit,
}

fn which(e: &Expr, env: &Env) -> Option<Which> {
    match e {
        Expr::Name(n) => match env.get(n.id.as_str()) {
            Some(Global::Decorator("njit")) => Some(Which::Njit),
            Some(Global::Decorator("jit")) => Some(Which::Jit),
            _ => None,
        },
        Expr::Attribute(a) => {
            let attr = a.attr.id.as_str();
            match &*a.value {
                Expr::Name(m) => match (env.get(m.id.as_str()), attr) {
                    (Some(Global::NumbaModule), "njit") => Some(Which::Njit),
                    (Some(Global::NumbaModule), "jit") => Some(Which::Jit),
                    (Some(Global::CudaModule), "jit") => Some(Which::CudaJit),
                    _ => None,
                },
                Expr::Attribute(inner) if attr == "jit" && inner.attr.id.as_str() == "cuda" => match &*inner.value {
                    Expr::Name(m) if env.get(m.id.as_str()) == Some(&Global::NumbaModule) => Some(Which::CudaJit),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// Reads the decorators of `fd`. `Ok(None)`: no JIT decorator (a plain Python function).
pub(crate) fn read_decorators(
    fd: &ast::StmtFunctionDef,
    env: &Env,
    file: FileId,
    text: &str,
) -> Result<Option<FunctionAttrs>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut attrs: Option<FunctionAttrs> = None;
    for dec in &fd.decorator_list {
        let (callee, call) = match &dec.expression {
            Expr::Call(c) => (&*c.func, Some(c)),
            other => (other, None),
        };
        let Some(w) = which(callee, env) else {
            diags.push(
                Diagnostic::error(
                    format!(
                        "unsupported decorator `{}`",
                        &text[dec.expression.range().start().into()..dec.expression.range().end().into()]
                    ),
                    span(file, dec.range),
                    "not a JIT decorator twinjit knows",
                )
                .with_hint("use @njit, @jit, @cuda.jit or @cuda.jit(device=True) (imported from numba)"),
            );
            continue;
        };
        if attrs.is_some() {
            diags.push(Diagnostic::error("more than one JIT decorator", span(file, dec.range), "second decorator"));
            continue;
        }
        let kind = if w == Which::CudaJit { FunctionKind::Kernel } else { FunctionKind::Host };
        let mut a = FunctionAttrs {
            kind,
            signatures: Vec::new(),
            cache: false,
            boundscheck: None,
            fastmath: false,
            error_model: if kind == FunctionKind::Host { ErrorModel::Python } else { ErrorModel::Numpy },
            decorator: text[dec.range.start().into()..dec.range.end().into()].to_string(),
        };
        if let Some(call) = call {
            for arg in call.arguments.args.iter() {
                read_signatures(arg, file, &mut a.signatures, &mut diags);
            }
            for kw in call.arguments.keywords.iter() {
                let Some(name) = kw.arg.as_ref().map(|n| n.id.as_str()) else {
                    diags.push(Diagnostic::error(
                        "`**kwargs` in a decorator is not supported",
                        span(file, kw.range),
                        "here",
                    ));
                    continue;
                };
                let kspan = span(file, kw.range);
                match name {
                    "nopython" => match bool_lit(&kw.value) {
                        Some(true) => {}
                        Some(false) => diags.push(
                            Diagnostic::error("object mode is not supported", kspan, "nopython=False")
                                .with_hint("twinjit compiles only nopython code; remove `nopython=False`"),
                        ),
                        None => diags.push(expect_bool(kspan, name)),
                    },
                    "cache" => set_bool(&kw.value, kspan, name, &mut a.cache, &mut diags),
                    "fastmath" => {
                        // fastmath={'contract'} style sets are also accepted as "on".
                        if matches!(kw.value, Expr::Set(_)) {
                            a.fastmath = true;
                        } else {
                            set_bool(&kw.value, kspan, name, &mut a.fastmath, &mut diags)
                        }
                    }
                    "boundscheck" => match &kw.value {
                        Expr::NoneLiteral(_) => a.boundscheck = None,
                        v => match bool_lit(v) {
                            Some(b) => a.boundscheck = Some(b),
                            None => diags.push(expect_bool(kspan, name)),
                        },
                    },
                    "error_model" => match &kw.value {
                        Expr::StringLiteral(s) if s.value.to_str() == "python" => a.error_model = ErrorModel::Python,
                        Expr::StringLiteral(s) if s.value.to_str() == "numpy" => a.error_model = ErrorModel::Numpy,
                        _ => diags.push(Diagnostic::error("error_model must be 'python' or 'numpy'", kspan, "here")),
                    },
                    "device" if w == Which::CudaJit => match bool_lit(&kw.value) {
                        Some(true) => a.kind = FunctionKind::Device,
                        Some(false) => a.kind = FunctionKind::Kernel,
                        None => diags.push(expect_bool(kspan, name)),
                    },
                    // Accepted and without effect on the generated code (documented).
                    "nogil" | "parallel" | "inline" | "debug" | "lineinfo" | "opt" | "forceinline" | "link" => {}
                    "signature" | "signature_or_function" => {
                        read_signatures(&kw.value, file, &mut a.signatures, &mut diags)
                    }
                    other => diags.push(
                        Diagnostic::error(format!("unknown decorator option `{other}`"), kspan, "not supported")
                            .with_hint(
                            "supported: nopython, cache, fastmath, boundscheck, error_model, device, nogil, parallel",
                        ),
                    ),
                }
            }
        }
        for s in &a.signatures {
            if a.kind == FunctionKind::Kernel && s.ret.as_ref().is_some_and(|r| *r != twinjit_ir::Type::None) {
                diags.push(Diagnostic::error(
                    "a kernel signature must return void",
                    span(file, dec.range),
                    format!("`{s}` returns a value"),
                ));
            }
        }
        attrs = Some(a);
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(attrs)
}

fn bool_lit(e: &Expr) -> Option<bool> {
    match e {
        Expr::BooleanLiteral(b) => Some(b.value),
        _ => None,
    }
}

fn expect_bool(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(format!("`{name}` must be True or False"), span, "not a boolean literal")
}

fn set_bool(e: &Expr, span: Span, name: &str, out: &mut bool, diags: &mut Vec<Diagnostic>) {
    match bool_lit(e) {
        Some(b) => *out = b,
        None => diags.push(expect_bool(span, name)),
    }
}

fn read_signatures(e: &Expr, file: FileId, out: &mut Vec<Signature>, diags: &mut Vec<Diagnostic>) {
    match e {
        Expr::StringLiteral(s) => {
            let text = s.value.to_str();
            match parse_signature(text) {
                Ok(sig) => out.push(sig),
                Err(err) => {
                    // Point into the string literal (after its opening quote) when it is a
                    // plain one-part literal.
                    let r = s.range;
                    let start = u32::from(r.start()) + 1 + err.offset as u32;
                    let sp = if s.value.as_slice().len() == 1 && start < u32::from(r.end()) {
                        Span::new(file, start, start + 1)
                    } else {
                        span(file, r)
                    };
                    diags.push(
                        Diagnostic::error(format!("bad signature: {}", err.message), sp, "here")
                            .with_hint("write signatures as Numba does: \"float64(float64[:], int64)\""),
                    );
                }
            }
        }
        Expr::List(l) => l.elts.iter().for_each(|x| read_signatures(x, file, out, diags)),
        Expr::Tuple(t) => t.elts.iter().for_each(|x| read_signatures(x, file, out, diags)),
        other => diags.push(
            Diagnostic::error(
                "unsupported decorator argument",
                span(file, other.range()),
                "expected a signature string",
            )
            .with_hint("write signatures as strings, e.g. @njit(\"float64(float64[:])\")"),
        ),
    }
}
