//! Decorators → [`FunctionAttrs`] and [`DecoratorOptions`]: `@njit`, `@jit`, `@numba.njit`,
//! `@nb.jit(...)`, `@register_jitable`, `@cuda.jit`, `@cuda.jit(device=True)`, with signatures
//! (strings, type objects, lists of them) and every option Numba has that matters here.
//!
//! `@vectorize` and `@guvectorize` give a [`UfuncSpec`] in [`DecoratorOptions::ufunc`] (the
//! module level then makes the ufunc, `ufunc.rs`).
//!
//! A function whose decorators are all foreign (`@functools.lru_cache`, `@staticmethod`) is
//! plain Python and is not compiled; a Numba decorator twinjit does not compile
//! (`@stencil`, `@cfunc`) is an error. `@jit(target_backend='cuda')` is refused on its own
//! ([`Decorated::Refused`]): Numba never compiled it for a GPU.

use crate::env::{qualified, Env, Global};
use crate::signature::TypeReader;
use crate::span;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;
use twinjit_diag::{Diagnostic, FileId, Span};
use twinjit_ir::{
    parse_signature, DecoratorOptions, ErrorModel, FunctionAttrs, FunctionKind, GufuncLayout, Signature, UfuncSpec,
};

/// The options twinjit reads (Numba's `jit` and `cuda.jit` options that matter here).
const KNOWN_OPTIONS: &str = "nopython, forceobj, looplift, cache, fastmath, nogil, parallel, boundscheck, \
error_model, inline, locals, target_backend, debug, opt, lineinfo, device (cuda.jit), link, forceinline, \
no_cpython_wrapper, no_cfunc_wrapper, signature_or_function, lto and shared_memory_carveout (cuda.jit)";

/// What the decorators of a `def` make of it (a short-lived value: its size does not matter).
#[allow(clippy::large_enum_variant)]
pub(crate) enum Decorated {
    /// No JIT decorator: a plain Python function, not compiled.
    Plain,
    /// Compiled, with these attributes.
    Compiled(FunctionAttrs, DecoratorOptions),
    /// Refused on its own (the module's other functions still load): why.
    Refused(Vec<Diagnostic>),
}

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Njit,
    Jit,
    CudaJit,
    RegisterJitable,
    /// `@vectorize`: a ufunc of the function, elementwise.
    Vectorize,
    /// `@guvectorize`: a generalised ufunc over core dimensions.
    Guvectorize,
}

enum Kind {
    Jit(Which),
    /// A Numba decorator twinjit does not compile (`numba.vectorize`).
    OtherNumba(String),
    /// Not from Numba.
    Foreign,
}

fn classify(e: &Expr, env: &Env) -> Kind {
    match qualified(e, env).as_deref() {
        Some("numba.njit") => Kind::Jit(Which::Njit),
        Some("numba.jit") => Kind::Jit(Which::Jit),
        Some("numba.cuda.jit") => Kind::Jit(Which::CudaJit),
        Some("numba.extending.register_jitable" | "numba.core.extending.register_jitable") => {
            Kind::Jit(Which::RegisterJitable)
        }
        Some("numba.vectorize" | "numba.np.ufunc.vectorize") => Kind::Jit(Which::Vectorize),
        Some("numba.guvectorize" | "numba.np.ufunc.guvectorize") => Kind::Jit(Which::Guvectorize),
        Some(p) if p.starts_with("numba.") => Kind::OtherNumba(p.to_string()),
        _ => Kind::Foreign,
    }
}

/// Whether `e` is a decorator twinjit compiles (`njit`, `jit(...)`, `cuda.jit(device=True)`,
/// `vectorize([...])`, ...), read as the decorator's callee is.
pub(crate) fn is_jit_decorator(e: &Expr, env: &Env) -> bool {
    let callee = match e {
        Expr::Call(c) => &*c.func,
        other => other,
    };
    matches!(classify(callee, env), Kind::Jit(_))
}

/// Reads the decorators of `fd`.
pub(crate) fn read_decorators(
    fd: &ast::StmtFunctionDef,
    env: &Env,
    file: FileId,
    text: &str,
) -> Result<Decorated, Vec<Diagnostic>> {
    fn callee(dec: &ast::Decorator) -> &Expr {
        match &dec.expression {
            Expr::Call(c) => &c.func,
            other => other,
        }
    }
    let kinds: Vec<Kind> = fd.decorator_list.iter().map(|d| classify(callee(d), env)).collect();
    if kinds.iter().all(|k| matches!(k, Kind::Foreign)) {
        return Ok(Decorated::Plain);
    }
    let mut diags = Vec::new();
    let mut attrs: Option<(FunctionAttrs, DecoratorOptions)> = None;
    let mut refusal = Vec::new();
    for (dec, kind) in fd.decorator_list.iter().zip(kinds) {
        let dtext = &text[dec.expression.range()];
        let w = match kind {
            Kind::Jit(w) => w,
            Kind::OtherNumba(path) => {
                diags.push(
                    Diagnostic::error(format!("unsupported decorator `@{dtext}` ({path})"), span(file, dec.range), "not compiled by twinjit")
                        .with_hint("twinjit compiles @njit, @jit, @register_jitable, @vectorize, @guvectorize, @cuda.jit and @cuda.jit(device=True) functions"),
                );
                continue;
            }
            Kind::Foreign => {
                diags.push(
                    Diagnostic::error(
                        format!("unsupported decorator `{dtext}`"),
                        span(file, dec.range),
                        "not a JIT decorator twinjit knows",
                    )
                    .with_hint("use @njit, @jit, @cuda.jit or @cuda.jit(device=True) (imported from numba)"),
                );
                continue;
            }
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
            decorator: text[dec.range].to_string(),
        };
        let mut o = DecoratorOptions::default();
        let is_ufunc = matches!(w, Which::Vectorize | Which::Guvectorize);
        let mut ufunc = UfuncSpec {
            loops: Vec::new(),
            layout: None,
            parallel: false,
            cuda: false,
            writable: Vec::new(),
            identity: None,
        };
        let mut layout_given = false;
        if let Expr::Call(call) = &dec.expression {
            let types = TypeReader { env, file, text };
            for arg in call.arguments.args.iter() {
                match arg {
                    // A gufunc's layout: `'(n),()->(n)'`.
                    Expr::StringLiteral(l) if w == Which::Guvectorize && l.value.to_str().contains("->") => {
                        layout_given = true;
                        match GufuncLayout::parse(l.value.to_str()) {
                            Ok(layout) => ufunc.layout = Some(layout),
                            Err(m) => diags.push(Diagnostic::error(
                                format!("bad gufunc layout: {m}"),
                                span(file, l.range),
                                "here",
                            )),
                        }
                    }
                    _ if is_ufunc => read_signatures(arg, &types, file, &mut ufunc.loops, &mut diags),
                    _ => read_signatures(arg, &types, file, &mut a.signatures, &mut diags),
                }
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
                let v = &kw.value;
                // A literal, or a module-level constant (`debug=DEBUG`), as Python evaluates it
                // when the decorator runs.
                let bool_lit = |e: &Expr| bool_lit(e).or_else(|| module_bool(e, env));
                let flag = |out: &mut bool, diags: &mut Vec<Diagnostic>| match bool_lit(v) {
                    Some(b) => *out = b,
                    None => diags.push(expect_bool(kspan, name)),
                };
                match name {
                    "nopython" => match bool_lit(v) {
                        Some(true) => o.nopython = true,
                        Some(false) => diags.push(object_mode(kspan, "nopython=False", "remove `nopython=False`")),
                        None => diags.push(expect_bool(kspan, name)),
                    },
                    "forceobj" => match bool_lit(v) {
                        Some(true) => diags.push(object_mode(kspan, "forceobj=True", "remove `forceobj=True`")),
                        Some(false) => {}
                        None => diags.push(expect_bool(kspan, name)),
                    },
                    // Loop lifting happens only in object mode.
                    "looplift" => flag(&mut false, &mut diags),
                    "cache" => flag(&mut a.cache, &mut diags),
                    "fastmath" => {
                        // fastmath={'contract'} style sets are also accepted as "on".
                        if matches!(v, Expr::Set(_)) {
                            a.fastmath = true;
                        } else {
                            flag(&mut a.fastmath, &mut diags)
                        }
                    }
                    "boundscheck" => match v {
                        Expr::NoneLiteral(_) => a.boundscheck = None,
                        v => match bool_lit(v) {
                            Some(b) => a.boundscheck = Some(b),
                            None => diags.push(expect_bool(kspan, name)),
                        },
                    },
                    "error_model" => match v {
                        Expr::StringLiteral(s) if s.value.to_str() == "python" => a.error_model = ErrorModel::Python,
                        Expr::StringLiteral(s) if s.value.to_str() == "numpy" => a.error_model = ErrorModel::Numpy,
                        _ => diags.push(Diagnostic::error("error_model must be 'python' or 'numpy'", kspan, "here")),
                    },
                    "device" if w == Which::CudaJit => match bool_lit(v) {
                        Some(true) => a.kind = FunctionKind::Device,
                        Some(false) => a.kind = FunctionKind::Kernel,
                        None => diags.push(expect_bool(kspan, name)),
                    },
                    "device" => diags.push(
                        Diagnostic::error("`device=` is an option of @cuda.jit", kspan, "not a host option")
                            .with_hint("write @cuda.jit(device=True) for a function called from kernels"),
                    ),
                    "nogil" => flag(&mut o.nogil, &mut diags),
                    "debug" => flag(&mut o.debug, &mut diags),
                    "lineinfo" => flag(&mut o.lineinfo, &mut diags),
                    "parallel" => match v {
                        Expr::Dict(_) => o.parallel = true,
                        _ => flag(&mut o.parallel, &mut diags),
                    },
                    "opt" => match v {
                        Expr::BooleanLiteral(_) | Expr::NumberLiteral(_) => o.opt = Some(text[v.range()].to_string()),
                        _ => diags.push(Diagnostic::error("`opt` must be True, False or an integer", kspan, "here")),
                    },
                    "inline" => match v {
                        Expr::StringLiteral(s) if matches!(s.value.to_str(), "never" | "always") => {
                            o.inline = Some(s.value.to_str().to_string())
                        }
                        // numba-cuda's `inline=True`.
                        Expr::BooleanLiteral(b) => {
                            o.inline = Some(if b.value { "always" } else { "never" }.to_string())
                        }
                        // A cost model (`inline=CostModel(3)`, `inline=my_policy`): Numba asks it
                        // at each call site whether to inline there. Inlining changes no result
                        // and twinjit's own inliner decides, so the model is accepted and unused.
                        Expr::Call(_) | Expr::Name(_) | Expr::Attribute(_) | Expr::Lambda(_) => {}
                        _ => diags.push(
                            Diagnostic::error(
                                "`inline` must be 'never', 'always', True, False or a cost model",
                                kspan,
                                "here",
                            )
                            .with_hint("Numba takes 'never', 'always' or a function deciding per call site"),
                        ),
                    },
                    "locals" => read_locals(v, &types, file, &mut o, &mut diags),
                    "target_backend" => match v {
                        Expr::StringLiteral(s) if s.value.to_str() == "cpu" => o.target_backend = Some("cpu".into()),
                        Expr::StringLiteral(s) if s.value.to_str() == "cuda" => {
                            refusal.push(target_backend_cuda(kspan, fd))
                        }
                        _ => diags.push(
                            Diagnostic::error("unknown `target_backend`", kspan, "not 'cpu'")
                                .with_hint("@jit compiles for the CPU; write a @cuda.jit kernel for the GPU"),
                        ),
                    },
                    // Accepted and without effect on the generated code (documented): numba-cuda's
                    // link-time optimisation, shared-memory carve-out hint and debug switches too.
                    "forceinline" | "link" | "no_cpython_wrapper" | "no_cfunc_wrapper" => {}
                    "lto" | "shared_memory_carveout" | "_dbg_optnone" | "_dbg_extend_lifetimes"
                        if w == Which::CudaJit => {}
                    "target" if is_ufunc => match v {
                        Expr::StringLiteral(t) if t.value.to_str() == "cpu" => {}
                        Expr::StringLiteral(t) if t.value.to_str() == "parallel" => ufunc.parallel = true,
                        Expr::StringLiteral(t) if t.value.to_str() == "cuda" => ufunc.cuda = true,
                        _ => diags.push(Diagnostic::error(
                            "`target` must be 'cpu', 'parallel' or 'cuda'",
                            kspan,
                            "unknown target",
                        )),
                    },
                    // Where `.reduce` starts; `'reorderable'` and None are no value.
                    "identity" if is_ufunc => match v {
                        Expr::NumberLiteral(n) => match &n.value {
                            ast::Number::Int(i) => ufunc.identity = i.as_i64().map(twinjit_ir::Const::Int),
                            ast::Number::Float(x) => ufunc.identity = Some(twinjit_ir::Const::Float(*x)),
                            _ => diags.push(Diagnostic::error("a complex identity is not supported", kspan, "here")),
                        },
                        Expr::BooleanLiteral(b) => ufunc.identity = Some(twinjit_ir::Const::Bool(b.value)),
                        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub) => match &*u.operand {
                            Expr::NumberLiteral(n) => match &n.value {
                                ast::Number::Int(i) => ufunc.identity = i.as_i64().map(|k| twinjit_ir::Const::Int(-k)),
                                ast::Number::Float(x) => ufunc.identity = Some(twinjit_ir::Const::Float(-*x)),
                                _ => {
                                    diags.push(Diagnostic::error("a complex identity is not supported", kspan, "here"))
                                }
                            },
                            _ => diags.push(Diagnostic::error("`identity` must be a number literal", kspan, "here")),
                        },
                        Expr::NoneLiteral(_) | Expr::StringLiteral(_) => {}
                        _ => diags.push(Diagnostic::error(
                            "`identity` must be a number literal, None or 'reorderable'",
                            kspan,
                            "here",
                        )),
                    },
                    "writable_args" if w == Which::Guvectorize => {
                        let params: Vec<&str> = fd
                            .parameters
                            .posonlyargs
                            .iter()
                            .chain(&fd.parameters.args)
                            .map(|a| a.parameter.name.id.as_str())
                            .collect();
                        let items = match v {
                            Expr::Tuple(t) => t.elts.iter().collect::<Vec<_>>(),
                            Expr::List(l) => l.elts.iter().collect(),
                            e => vec![e],
                        };
                        for it in items {
                            let k = match it {
                                Expr::StringLiteral(n) => params.iter().position(|p| *p == n.value.to_str()),
                                Expr::NumberLiteral(n) => match &n.value {
                                    ast::Number::Int(i) => i.as_usize().filter(|&k| k < params.len()),
                                    _ => None,
                                },
                                _ => None,
                            };
                            match k {
                                Some(k) => ufunc.writable.push(k),
                                None => diags.push(
                                    Diagnostic::error(
                                        "`writable_args` names a parameter by name or position",
                                        span(file, it.range()),
                                        "not a parameter of this function",
                                    )
                                    .with_hint("write writable_args=('x',) or writable_args=(0,)"),
                                ),
                            }
                        }
                    }
                    "signature" | "signature_or_function" => {
                        read_signatures(v, &types, file, &mut a.signatures, &mut diags)
                    }
                    other => diags.push(
                        Diagnostic::error(
                            format!("unknown decorator option `{other}`"),
                            kspan,
                            "not a Numba option twinjit knows",
                        )
                        .with_hint(format!("the options are: {KNOWN_OPTIONS}")),
                    ),
                }
            }
        }
        // numba-cuda compiles a `@cuda.jit` function lazily: launched, it is a kernel; called
        // from a kernel, a device function. One that returns a value can only be the latter.
        let device_given = matches!(&dec.expression, Expr::Call(c) if c.arguments.keywords.iter().any(|k| k.arg.as_ref().is_some_and(|n| n.id.as_str() == "device")));
        if a.kind == FunctionKind::Kernel && !device_given && a.signatures.is_empty() && returns_value(&fd.body) {
            a.kind = FunctionKind::Device;
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
        if is_ufunc {
            if !(layout_given && ufunc.layout.is_none()) {
                check_ufunc(&ufunc, w == Which::Guvectorize, fd, span(file, dec.range), &mut diags);
            }
            if ufunc.cuda {
                // The `def` is the device function each thread calls; `ufunc::split_cuda` makes
                // the kernel.
                a.kind = FunctionKind::Device;
            }
            o.ufunc = Some(ufunc);
        }
        attrs = Some((a, o));
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    if !refusal.is_empty() {
        return Ok(Decorated::Refused(refusal));
    }
    Ok(attrs.map_or(Decorated::Plain, |(a, o)| Decorated::Compiled(a, o)))
}

/// Checks a ufunc's signatures and layout against each other and the `def`'s parameters.
fn check_ufunc(u: &UfuncSpec, gu: bool, fd: &ast::StmtFunctionDef, at: Span, diags: &mut Vec<Diagnostic>) {
    let nparams = fd.parameters.posonlyargs.len() + fd.parameters.args.len();
    let ps = |n: usize| if n == 1 { "" } else { "s" };
    if fd.parameters.vararg.is_some() || fd.parameters.kwarg.is_some() || !fd.parameters.kwonlyargs.is_empty() {
        diags.push(Diagnostic::error("a ufunc's function takes positional parameters only", at, "here"));
        return;
    }
    for s in &u.loops {
        if s.args.len() != nparams {
            diags.push(Diagnostic::error(
                format!(
                    "signature `{s}` has {} argument{} but `{}` has {nparams} parameter{}",
                    s.args.len(),
                    ps(s.args.len()),
                    fd.name.id,
                    ps(nparams)
                ),
                at,
                "here",
            ));
        }
        if !gu && (s.ret.is_none() || s.ret == Some(twinjit_ir::Type::None)) {
            diags.push(
                Diagnostic::error(format!("@vectorize signature `{s}` has no return type"), at, "here")
                    .with_hint("write the result type first: \"float64(float64, float64)\""),
            );
        } else if !gu && s.args.iter().chain(&s.ret).any(|t| t.scalar().is_none()) {
            diags.push(Diagnostic::error(format!("@vectorize signature `{s}` must have numbers only"), at, "here"));
        }
        if gu && s.ret.as_ref().is_some_and(|r| *r != twinjit_ir::Type::None) {
            diags.push(
                Diagnostic::error(format!("@guvectorize signature `{s}` must return void"), at, "here")
                    .with_hint("a gufunc writes its results into its output arguments"),
            );
        }
    }
    if gu {
        match &u.layout {
            None => diags.push(
                Diagnostic::error("@guvectorize needs a layout", at, "no layout string")
                    .with_hint("write the core dimensions after the signatures: @guvectorize([...], \"(n),()->(n)\")"),
            ),
            Some(l) if l.inputs.len() + l.outputs.len() != nparams => diags.push(Diagnostic::error(
                format!(
                    "the layout has {} input{} and {} output{} but `{}` has {nparams} parameter{}",
                    l.inputs.len(),
                    ps(l.inputs.len()),
                    l.outputs.len(),
                    ps(l.outputs.len()),
                    fd.name.id,
                    ps(nparams)
                ),
                at,
                "here",
            )),
            Some(_) => {}
        }
    } else if nparams == 0 {
        diags.push(Diagnostic::error("a @vectorize function needs at least one parameter", at, "here"));
    }
}

/// Whether `body` has a `return` of a value other than `None` (not counting nested functions
/// and classes).
fn returns_value(body: &[ast::Stmt]) -> bool {
    use ast::Stmt;
    body.iter().any(|s| match s {
        Stmt::Return(r) => r.value.as_ref().is_some_and(|v| !matches!(**v, Expr::NoneLiteral(_))),
        Stmt::If(i) => returns_value(&i.body) || i.elif_else_clauses.iter().any(|c| returns_value(&c.body)),
        Stmt::For(f) => returns_value(&f.body) || returns_value(&f.orelse),
        Stmt::While(w) => returns_value(&w.body) || returns_value(&w.orelse),
        Stmt::With(w) => returns_value(&w.body),
        Stmt::Try(t) => {
            returns_value(&t.body)
                || returns_value(&t.orelse)
                || returns_value(&t.finalbody)
                || t.handlers.iter().any(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    returns_value(&h.body)
                })
        }
        _ => false,
    })
}

fn object_mode(span: Span, label: &str, fix: &str) -> Diagnostic {
    Diagnostic::error("object mode is not supported", span, label)
        .with_hint(format!("twinjit compiles only nopython code; {fix}"))
}

/// The Numba trap: `@jit(target_backend='cuda')` was accepted and quietly ran on the CPU.
fn target_backend_cuda(span: Span, fd: &ast::StmtFunctionDef) -> Diagnostic {
    let name = fd.name.id.as_str();
    let params: Vec<&str> = fd.parameters.args.iter().map(|a| a.parameter.name.id.as_str()).collect();
    let params = if params.is_empty() { "out".to_string() } else { params.join(", ") };
    Diagnostic::error(
        format!("`{name}`: `target_backend='cuda'` does not compile for a GPU"),
        span,
        "Numba ran this function on the CPU",
    )
    .with_note("Numba accepted `@jit(target_backend='cuda')` but never compiled it for a GPU: it silently ran on the CPU")
    .with_hint(format!(
        "for the GPU write a kernel that each thread runs for one element:\n    \
         @cuda.jit\n    def {name}({params}):\n        i = cuda.grid(1)\n        if i < out.size:\n            out[i] = ...\n\
         or drop `target_backend` to compile it for the host"
    ))
}

fn read_locals(v: &Expr, types: &TypeReader<'_>, file: FileId, o: &mut DecoratorOptions, diags: &mut Vec<Diagnostic>) {
    let Expr::Dict(d) = v else {
        diags.push(
            Diagnostic::error("`locals` must be a dict literal", span(file, v.range()), "here")
                .with_hint("write locals={'acc': float32}"),
        );
        return;
    };
    for item in &d.items {
        let Some(Expr::StringLiteral(k)) = &item.key else {
            diags.push(Diagnostic::error(
                "a `locals` key must be a variable name in quotes",
                span(file, item.value.range()),
                "here",
            ));
            continue;
        };
        match types.scalar(&item.value) {
            Ok(s) => o.locals.push((k.value.to_str().to_string(), s)),
            Err(d) => diags.push(d),
        }
    }
}

fn bool_lit(e: &Expr) -> Option<bool> {
    match e {
        Expr::BooleanLiteral(b) => Some(b.value),
        _ => None,
    }
}

/// The expression a module-level name was assigned (once: `sig = "void(float32[:])"`), for a
/// name the module level could not freeze into a constant (a string, a call of types). Read
/// from the module's text again, so its ranges are the module's.
pub(crate) fn assigned_value(types: &TypeReader<'_>, name: &str) -> Option<Expr> {
    let Some(Global::Unfrozen(u)) = types.env.get(name) else { return None };
    let parsed = ruff_python_parser::parse_module(types.text).ok()?;
    parsed.into_syntax().body.into_iter().find_map(|stmt| match stmt {
        ast::Stmt::Assign(a)
            if u32::from(a.range.start()) == u.assigned.start
                && matches!(&a.targets[..], [Expr::Name(t)] if t.id.as_str() == name) =>
        {
            Some(*a.value)
        }
        _ => None,
    })
}

/// The value of a name bound to a module-level bool constant.
fn module_bool(e: &Expr, env: &Env) -> Option<bool> {
    match e {
        Expr::Name(n) => match env.get(n.id.as_str()) {
            Some(Global::Const(crate::const_eval::ConstValue::Bool(b))) => Some(*b),
            _ => None,
        },
        _ => None,
    }
}

fn expect_bool(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(format!("`{name}` must be True or False"), span, "not a boolean literal")
}

fn read_signatures(
    e: &Expr,
    types: &TypeReader<'_>,
    file: FileId,
    out: &mut Vec<Signature>,
    diags: &mut Vec<Diagnostic>,
) {
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
        Expr::List(l) => l.elts.iter().for_each(|x| read_signatures(x, types, file, out, diags)),
        // A tuple of types is one signature of argument types (as in Numba); of strings, several.
        Expr::Tuple(t) if !t.elts.is_empty() && t.elts.iter().all(|x| types.is_type_like(x)) => {
            match types.signature(e) {
                Ok(s) => out.push(s),
                Err(d) => diags.push(d),
            }
        }
        Expr::Tuple(t) => t.elts.iter().for_each(|x| read_signatures(x, types, file, out, diags)),
        e if types.is_type_like(e) => match types.signature(e) {
            Ok(s) => out.push(s),
            Err(d) => diags.push(d),
        },
        // `sig = "void(float32[:])"` (or `void(float32[:])`, a tuple of types, a list) at module
        // level, then `@cuda.jit(sig)`: the assigned expression, read as if written here.
        Expr::Name(n) => match assigned_value(types, n.id.as_str()) {
            Some(value) => read_signatures(&value, types, file, out, diags),
            None => diags.push(not_a_signature(file, e)),
        },
        other => diags.push(not_a_signature(file, other)),
    }
}

fn not_a_signature(file: FileId, e: &Expr) -> Diagnostic {
    Diagnostic::error("unsupported decorator argument", span(file, e.range()), "expected a signature")
        .with_hint("write signatures as Numba does: @njit(\"float64(float64[:])\") or @njit(float64(float64[:]))")
}
