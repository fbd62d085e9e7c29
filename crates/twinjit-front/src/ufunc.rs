//! `@vectorize` and `@guvectorize` at module level: the decorated `def` is the ufunc's inner
//! function, renamed `NAME.inner`; the ufunc `NAME` is a function the front end makes, with the
//! inner function's parameters (plus `out=None` for `@vectorize`; a gufunc's outputs default
//! to None), whose body is one `ufunc_call` / `gufunc_call` of the inner function. So the
//! ufunc is an ordinary module function to everything after the front end: the dispatcher
//! calls it from Rust and the CLI, compiled functions call it, and inference types the one
//! builtin (see "User ufuncs" in ARCHITECTURE.md).

use crate::params::Params;
use twinjit_ir::{
    BlockCall, Builtin, CmpOp, Const, Function, FunctionKind, GufuncLayout, InstKind, ModuleFunction, Terminator, Type,
    UfuncSpec,
};

/// The name of a ufunc's inner function.
pub(crate) fn inner_name(name: &str) -> String {
    format!("{name}.inner")
}

/// The builtin a call of the ufunc is.
pub(crate) fn builtin(u: &UfuncSpec) -> Builtin {
    if u.layout.is_some() {
        Builtin::GufuncCall
    } else {
        Builtin::UfuncCall
    }
}

/// `f.nin`, `f.nout`, `f.nargs`, `f.identity` of a ufunc whose parameters (as calls bind) are
/// `params`, as constants (Numba 0.59's ufunc attributes in compiled code).
pub(crate) fn attribute(u: &UfuncSpec, params: &Params, attr: &str) -> Option<Const> {
    let (nin, nout) = match &u.layout {
        None => (params.names.len() - 1, 1),
        Some(l) => (l.inputs.len(), l.outputs.len()),
    };
    Some(match attr {
        "nin" => Const::Int(nin as i64),
        "nout" => Const::Int(nout as i64),
        "nargs" => Const::Int((nin + nout) as i64),
        "identity" => u.identity.unwrap_or(Const::None),
        _ => return None,
    })
}

/// The parameters calls of the ufunc bind to: `out=None` after a `@vectorize` function's,
/// and None defaults for a `@guvectorize` function's outputs.
pub(crate) fn params(mut p: Params, u: &UfuncSpec) -> Params {
    match &u.layout {
        // The kernel of a CUDA ufunc takes its output array like any other argument.
        None if u.cuda => {
            p.names.push("out".into());
        }
        None => {
            p.names.push("out".into());
            p.defaults.push(Ok(Const::None));
        }
        // The kernel of a CUDA gufunc takes its outputs like its inputs.
        Some(_) if u.cuda => {}
        Some(l) => {
            if p.defaults.len() < l.outputs.len() {
                p.defaults = vec![Ok(Const::None); l.outputs.len().min(p.names.len())];
            }
        }
    }
    p
}

/// The ufunc and its inner function, from the lowered `def`.
pub(crate) fn split(mut inner: ModuleFunction) -> [ModuleFunction; 2] {
    let spec = inner.options.ufunc.clone().expect("a ufunc");
    let name = inner.name.clone();
    inner.name = inner_name(&name);
    inner.body.name = inner.name.clone();
    let span = inner.body.span;
    let mut body = Function::new(name.clone(), span);
    body.param_names = inner.body.param_names.clone();
    body.param_spans = inner.body.param_spans.clone();
    // The front end took the defaults of the ufunc's parameters ([`params`]) for the `def`.
    let defaults = inner.defaults.clone();
    if spec.layout.is_none() {
        inner.defaults.pop();
        body.param_names.push("out".into());
        if !body.param_spans.is_empty() {
            body.param_spans.push(inner.name_span);
        }
    }
    let mut args = vec![body
        .push(Function::ENTRY, InstKind::FuncRef(inner.name.clone()), Some(Type::Unknown), span)
        .expect("has a result")];
    for _ in 0..body.param_names.len() {
        args.push(body.add_block_param(Function::ENTRY, Type::Unknown));
    }
    let r = body.push(Function::ENTRY, InstKind::Builtin(builtin(&spec), args), Some(Type::Unknown), span);
    body.terminate(Function::ENTRY, Terminator::Return(r), span);
    let mut options = inner.options.clone();
    options.ufunc = None;
    let ufunc = ModuleFunction {
        name,
        attrs: inner.attrs.clone(),
        options,
        body,
        source: inner.source.clone(),
        name_span: inner.name_span,
        callees: vec![inner.name.clone()],
        defaults,
    };
    [ufunc, inner]
}

/// A CUDA ufunc (`@vectorize(..., target='cuda')`) and its inner function: the `def` becomes
/// the device function `NAME.inner`, and `NAME` a kernel over the inputs and `out`, one element
/// per thread, as numba-cuda's ufunc kernel:
///
/// ```text
/// i = cuda.grid(1)
/// if i < out.size:
///     out[i] = inner(a[0 if a.size == 1 else i], b[...], ...)
/// ```
///
/// Inputs and `out` are 1-D views of contiguous arrays (the API flattens them), an input of
/// one element broadcasts (a scalar argument arrives as one), so one specialisation per
/// dtype combination serves every shape.
pub(crate) fn split_cuda(mut inner: ModuleFunction) -> [ModuleFunction; 2] {
    if let Some(layout) = inner.options.ufunc.as_ref().and_then(|u| u.layout.clone()) {
        return split_cuda_gufunc(inner, &layout);
    }
    let name = inner.name.clone();
    inner.name = inner_name(&name);
    inner.body.name = inner.name.clone();
    // The inner function keeps the spec: its signature list is the ufunc's loops, from which
    // the facade takes the output dtype (`Kernel::ufunc_result_type`).
    let span = inner.body.span;
    let mut k = Function::new(name.clone(), span);
    k.param_names = inner.body.param_names.clone();
    k.param_names.push("out".into());
    k.param_spans = inner.body.param_spans.clone();
    if !k.param_spans.is_empty() {
        k.param_spans.push(inner.name_span);
    }
    let e = Function::ENTRY;
    let ins: Vec<_> = (0..inner.body.param_names.len()).map(|_| k.add_block_param(e, Type::Unknown)).collect();
    let out = k.add_block_param(e, Type::Unknown);
    let push = |k: &mut Function, b, kind| k.push(b, kind, Some(Type::Unknown), span).expect("has a result");
    let one = push(&mut k, e, InstKind::Const(Const::Int(1)));
    let zero = push(&mut k, e, InstKind::Const(Const::Int(0)));
    let i = push(&mut k, e, InstKind::Builtin(Builtin::Grid, vec![one]));
    let n = push(&mut k, e, InstKind::Builtin(Builtin::Size, vec![out]));
    let (body, exit) = guard(&mut k, i, Some(n), span);
    let mut args = Vec::new();
    for a in ins {
        let size = push(&mut k, body, InstKind::Builtin(Builtin::Size, vec![a]));
        let scalar = push(&mut k, body, InstKind::Compare(CmpOp::Eq, size, one));
        let idx = push(&mut k, body, InstKind::Select(scalar, zero, i));
        args.push(push(&mut k, body, InstKind::GetItem(a, vec![idx])));
    }
    let r = push(&mut k, body, InstKind::Call(inner.name.clone(), args));
    k.push(body, InstKind::SetItem(out, vec![i], r), None, span);
    k.terminate(body, Terminator::Jump(BlockCall { block: exit, args: Vec::new() }), span);
    k.terminate(exit, Terminator::Return(None), span);
    [kernel_of(&inner, name, k), inner]
}

/// The blocks of `if i < n:` at the end of the entry (`n` absent: the body never runs):
/// (body, exit).
fn guard(
    k: &mut Function,
    i: twinjit_ir::Value,
    n: Option<twinjit_ir::Value>,
    span: twinjit_diag::Span,
) -> (twinjit_ir::Block, twinjit_ir::Block) {
    let e = Function::ENTRY;
    let body = k.add_block();
    let exit = k.add_block();
    let to = |block| BlockCall { block, args: Vec::new() };
    match n {
        Some(n) => {
            let inside =
                k.push(e, InstKind::Compare(CmpOp::Lt, i, n), Some(Type::Unknown), span).expect("has a result");
            k.terminate(e, Terminator::Branch(inside, to(body), to(exit)), span);
        }
        None => k.terminate(e, Terminator::Jump(to(exit)), span),
    }
    (body, exit)
}

/// The kernel `name` with body `k` that calls the CUDA ufunc's inner function `inner`.
fn kernel_of(inner: &ModuleFunction, name: String, k: Function) -> ModuleFunction {
    let mut attrs = inner.attrs.clone();
    attrs.kind = FunctionKind::Kernel;
    // The inner function's signatures are its loops; the kernel's arguments are other types.
    attrs.signatures.clear();
    let mut options = inner.options.clone();
    options.ufunc = None;
    ModuleFunction {
        name,
        attrs,
        options,
        body: k,
        source: inner.source.clone(),
        name_span: inner.name_span,
        callees: vec![inner.name.clone()],
        defaults: Vec::new(),
    }
}

/// A CUDA gufunc (`@guvectorize([...], "(n),()->(n)", target='cuda')`) and its inner
/// function: the `def` becomes the device function `NAME.inner`, and `NAME` a kernel over the
/// inputs and outputs, one loop index per thread, as numba-cuda's gufunc kernel. Each argument
/// arrives with one leading loop axis (the API flattens the loop dimensions into it); one of
/// length 1 broadcasts:
///
/// ```text
/// i = cuda.grid(1)
/// if i < len(out0):
///     inner(a[0 if len(a) == 1 else i], ...)   # a view of the core dimensions
/// ```
///
/// An argument with no core dimensions is the element itself where the signature declares a
/// number, and a one-element view `a[k:k + 1]` where it declares an array (Numba's way of
/// returning a scalar from a gufunc: `res[0] = ...`).
fn split_cuda_gufunc(mut inner: ModuleFunction, layout: &GufuncLayout) -> [ModuleFunction; 2] {
    let name = inner.name.clone();
    inner.name = inner_name(&name);
    inner.body.name = inner.name.clone();
    let span = inner.body.span;
    let declared: Vec<bool> = inner
        .options
        .ufunc
        .as_ref()
        .and_then(|u| u.loops.first())
        .map(|l| l.args.iter().map(|t| matches!(t, Type::Scalar(_))).collect())
        .unwrap_or_default();
    let mut k = Function::new(name.clone(), span);
    k.param_names = inner.body.param_names.clone();
    k.param_spans = inner.body.param_spans.clone();
    let e = Function::ENTRY;
    let params: Vec<_> = (0..inner.body.param_names.len()).map(|_| k.add_block_param(e, Type::Unknown)).collect();
    let push = |k: &mut Function, b, kind| k.push(b, kind, Some(Type::Unknown), span).expect("has a result");
    let one = push(&mut k, e, InstKind::Const(Const::Int(1)));
    let zero = push(&mut k, e, InstKind::Const(Const::Int(0)));
    let i = push(&mut k, e, InstKind::Builtin(Builtin::Grid, vec![one]));
    let first_out = params.get(layout.inputs.len()).or(params.last()).copied();
    let n = first_out.map(|out| push(&mut k, e, InstKind::Builtin(Builtin::Len, vec![out])));
    let (body, exit) = guard(&mut k, i, n, span);
    let cores: Vec<&Vec<String>> = layout.inputs.iter().chain(&layout.outputs).collect();
    let mut args = Vec::new();
    for (p, &a) in params.iter().enumerate() {
        let len = push(&mut k, body, InstKind::Builtin(Builtin::Len, vec![a]));
        let single = push(&mut k, body, InstKind::Compare(CmpOp::Eq, len, one));
        let idx = push(&mut k, body, InstKind::Select(single, zero, i));
        let scalar_core = cores.get(p).is_none_or(|c| c.is_empty());
        let declared_number = declared.get(p).copied().unwrap_or(false);
        args.push(if scalar_core && !declared_number {
            let hi = push(&mut k, body, InstKind::Binary(twinjit_ir::BinaryOp::Add, idx, one));
            let none = push(&mut k, body, InstKind::Const(Const::None));
            let sl = push(&mut k, body, InstKind::Builtin(Builtin::SliceIndex, vec![idx, hi, none]));
            push(&mut k, body, InstKind::GetItem(a, vec![sl]))
        } else {
            push(&mut k, body, InstKind::GetItem(a, vec![idx]))
        });
    }
    k.push(body, InstKind::Call(inner.name.clone(), args), Some(Type::Unknown), span);
    k.terminate(body, Terminator::Jump(BlockCall { block: exit, args: Vec::new() }), span);
    k.terminate(exit, Terminator::Return(None), span);
    [kernel_of(&inner, name, k), inner]
}
