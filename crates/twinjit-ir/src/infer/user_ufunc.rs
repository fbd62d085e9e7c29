//! Typing of user ufuncs (`@vectorize`, `@guvectorize`): `ufunc_call(inner, inputs..., out)` and
//! `gufunc_call(inner, inputs..., outputs...)`, which the front end puts in the body of the
//! ufunc it makes for such a function (see "User ufuncs" in ARCHITECTURE.md).
//!
//! The inner function (the decorated `def`) is specialised for the loop Numba would choose: with
//! a signature list, the first loop the inputs' dtypes cast to safely (NumPy's ufunc type
//! resolution, [`typing::pick_ufunc_loop`]); without one (a lazy ufunc), the inputs' own
//! dtypes. A `@vectorize` inner function gets numbers; a `@guvectorize` one gets views of the
//! core dimensions of its arguments (a `()` input as a number, a `()` output as a 1-element
//! array, as Numba passes them). The rewrite (`rewrite/user_ufunc.rs`) builds the loops from
//! the same [`Plan`].

use super::err;
use super::fixpoint::Inferencer;
use crate::builtins::Builtin;
use crate::function::Value;
use crate::module::{Module, UfuncSpec};
use crate::types::{ArrayType, Layout, Scalar, Signature, Type};
use crate::typing;
use twinjit_diag::{Diagnostic, Span};

/// How one call of a user ufunc applies its inner function, from the argument types.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Plan {
    /// The inner function's module index.
    pub(super) inner: usize,
    /// Its argument types for this call (one specialisation).
    pub(super) inner_args: Vec<Type>,
    /// The loop's declared result (`@vectorize` with a signature list), if any.
    pub(super) declared_ret: Option<Type>,
    /// `@guvectorize`: per output, its dtype and whether the caller passed it.
    pub(super) outputs: Vec<(Scalar, bool)>,
    /// `@guvectorize`: the number of loop dimensions (broadcast over the inputs).
    pub(super) loop_ndim: u8,
}

/// The inner function a user-ufunc call applies: its module index, name and specification.
pub(super) fn inner_of<'m>(
    module: &'m Module,
    types: &[Type],
    args: &[Value],
    span: Span,
) -> Result<(usize, &'m str, &'m UfuncSpec), Diagnostic> {
    let internal = || err(span, "internal: a ufunc call without its inner function", "here");
    let Some(Type::Function(name)) = args.first().map(|a| &types[a.index()]) else { return Err(internal()) };
    let cidx = module.functions.iter().position(|m| &m.name == name).ok_or_else(internal)?;
    let mf = &module.functions[cidx];
    let spec = mf.options.ufunc.as_ref().ok_or_else(internal)?;
    Ok((cidx, mf.name.strip_suffix(".inner").unwrap_or(&mf.name), spec))
}

/// The element dtype of a ufunc argument: an array's dtype or a number's type.
fn elem(t: &Type, name: &str, k: usize, span: Span) -> Result<Scalar, Diagnostic> {
    typing::elementwise_operand(t)
        .map(|(s, _)| s)
        .ok_or_else(|| err(span, format!("ufunc `{name}` takes numbers and arrays; argument {} is {t}", k + 1), "here"))
}

/// The input dtypes of each declared loop.
fn loop_inputs(loops: &[Signature], nin: usize) -> Vec<Vec<Scalar>> {
    loops
        .iter()
        .map(|s| {
            s.args
                .iter()
                .take(nin)
                .map(|t| t.scalar().or(t.array().map(|a| a.dtype)))
                .collect::<Option<Vec<_>>>()
                .unwrap_or_default()
        })
        .collect()
}

fn no_loop(name: &str, ins: &[Scalar], span: Span) -> Diagnostic {
    let given: Vec<&str> = ins.iter().map(|s| s.name()).collect();
    err(
        span,
        format!(
            "ufunc `{name}` not supported for the input types ({}), and the inputs could not be safely coerced to any supported types",
            given.join(", ")
        ),
        "no loop of the signature list fits",
    )
    .with_hint("add a signature for these types to the decorator's list, or leave the list out to compile lazily")
}

/// Which inputs are weak in loop selection ([`typing::pick_ufunc_loop`]): when `entry` (the
/// ufunc called as itself, from Rust or the CLI, as Python calls it), the Python-typed numbers
/// (int64, float64, complex128) beside at least one array.
pub(super) fn weak_inputs(ins: &[Type], entry: bool) -> Vec<bool> {
    let arrays = ins.iter().any(|t| matches!(t, Type::Array(_)));
    ins.iter()
        .map(|t| entry && arrays && matches!(t, Type::Scalar(Scalar::Int64 | Scalar::Float64 | Scalar::Complex128)))
        .collect()
}

/// The plan of a `@vectorize` call on `ins` (input types, known; `entry`: see
/// [`weak_inputs`]).
pub(super) fn vectorize_plan(
    module: &Module,
    (inner, name, spec): (usize, &str, &UfuncSpec),
    ins: &[Type],
    entry: bool,
    span: Span,
) -> Result<Plan, Diagnostic> {
    let dts: Vec<Scalar> = ins.iter().enumerate().map(|(k, t)| elem(t, name, k, span)).collect::<Result<_, _>>()?;
    let nparams = module.functions[inner].body.params().len();
    if nparams != dts.len() {
        return Err(err(span, format!("ufunc `{name}` takes {nparams} inputs but {} were given", dts.len()), "here"));
    }
    let (args, ret) = if spec.loops.is_empty() {
        (dts, None)
    } else {
        let loops = loop_inputs(&spec.loops, nparams);
        let weak = weak_inputs(ins, entry);
        let k = typing::pick_ufunc_loop(loops.iter().map(Vec::as_slice), &dts, &weak)
            .ok_or_else(|| no_loop(name, &dts, span))?;
        (loops[k].clone(), spec.loops[k].ret.clone())
    };
    Ok(Plan {
        inner,
        inner_args: args.into_iter().map(Type::Scalar).collect(),
        declared_ret: ret,
        outputs: Vec::new(),
        loop_ndim: 0,
    })
}

/// The plan of a `@guvectorize` call with `args` (input then output types, known; an output
/// not passed is None).
pub(super) fn gufunc_plan(
    (inner, name, spec): (usize, &str, &UfuncSpec),
    args: &[Type],
    entry: bool,
    span: Span,
) -> Result<Plan, Diagnostic> {
    let layout = spec.layout.as_ref().expect("a gufunc has a layout");
    let (nin, nout) = (layout.inputs.len(), layout.outputs.len());
    if args.len() != nin + nout {
        return Err(err(span, format!("gufunc `{name}` takes {nin} inputs and {nout} outputs"), "here"));
    }
    let mut loop_ndim = 0u8;
    let mut dts = Vec::new();
    for (k, (t, core)) in args.iter().zip(layout.inputs.iter().chain(&layout.outputs)).enumerate() {
        let is_out = k >= nin;
        match t {
            Type::None if is_out => continue,
            Type::Array(a) if (a.ndim as usize) < core.len() => {
                return Err(err(
                    span,
                    format!(
                        "gufunc `{name}`: argument {} has {} dimension{} but its core `({})` needs {}",
                        k + 1,
                        a.ndim,
                        if a.ndim == 1 { "" } else { "s" },
                        core.join(","),
                        core.len()
                    ),
                    "too few dimensions",
                ))
            }
            Type::Array(a) => {
                loop_ndim = loop_ndim.max(a.ndim - core.len() as u8);
            }
            Type::Scalar(_) if is_out => {
                return Err(err(span, format!("gufunc `{name}`: output {} must be an array", k - nin + 1), "a number"))
            }
            Type::Scalar(_) if !core.is_empty() => {
                return Err(err(
                    span,
                    format!("gufunc `{name}`: argument {} is a number but its core is `({})`", k + 1, core.join(",")),
                    "here",
                ))
            }
            _ => {}
        }
        dts.push((k, elem(t, name, k, span)?));
    }
    let in_dts: Vec<Scalar> = dts.iter().filter(|(k, _)| *k < nin).map(|&(_, s)| s).collect();
    // Per parameter of the inner function: the dtype it gets.
    let (param_dtypes, declared): (Vec<Scalar>, Option<&Signature>) = if spec.loops.is_empty() {
        let mut all = in_dts.clone();
        for j in 0..nout {
            match &args[nin + j] {
                Type::Array(a) => all.push(a.dtype),
                _ => {
                    return Err(err(
                        span,
                        format!("gufunc `{name}` has no signatures, so its output {} must be passed", j + 1),
                        "output not given",
                    )
                    .with_hint("Numba's lazy gufuncs take the outputs as arguments: call it as `g(x, ..., out)`"))
                }
            }
        }
        (all, None)
    } else {
        let loops = loop_inputs(&spec.loops, nin + nout);
        let weak = weak_inputs(&args[..nin], entry);
        let k = typing::pick_ufunc_loop(loops.iter().map(|l| &l[..l.len().min(nin)]), &in_dts, &weak)
            .ok_or_else(|| no_loop(name, &in_dts, span))?;
        (loops[k].clone(), Some(&spec.loops[k]))
    };
    let mut inner_args = Vec::new();
    let mut outputs = Vec::new();
    for (k, core) in layout.inputs.iter().chain(&layout.outputs).enumerate() {
        let dtype = param_dtypes[k];
        let is_out = k >= nin;
        // A declared array type for a `()` input takes a 1-element view, as outputs do.
        let declared_array = declared.is_some_and(|s| matches!(s.args.get(k), Some(Type::Array(_))));
        inner_args.push(if core.is_empty() && !is_out && !declared_array {
            Type::Scalar(dtype)
        } else {
            Type::Array(ArrayType { dtype, ndim: core.len().max(1) as u8, layout: Layout::A })
        });
        if let Some(Type::Array(d)) = declared.and_then(|s| s.args.get(k)) {
            if d.ndim as usize != core.len().max(1) {
                return Err(err(
                    span,
                    format!(
                        "gufunc `{name}`: argument {} is declared with {} dimension{} but its core `({})` has {}",
                        k + 1,
                        d.ndim,
                        if d.ndim == 1 { "" } else { "s" },
                        core.join(","),
                        core.len()
                    ),
                    "signature and layout disagree",
                ));
            }
        }
        if is_out {
            if let Type::Array(a) = &args[k] {
                if dtype != a.dtype {
                    return Err(err(
                        span,
                        format!(
                            "gufunc `{name}`: output {} is {} but the loop writes {}",
                            k - nin + 1,
                            a.dtype.name(),
                            dtype.name()
                        ),
                        "output of another dtype",
                    )
                    .with_hint("pass an output array of the loop's dtype"));
                }
            }
            outputs.push((dtype, matches!(args[k], Type::Array(_))));
        }
    }
    Ok(Plan { inner, inner_args, declared_ret: Some(Type::None), outputs, loop_ndim })
}

/// The result type of a `@guvectorize` call: its output (a tuple of them when there are
/// several), a number for a `()` output of a call without loop dimensions.
pub(super) fn gufunc_result(spec: &UfuncSpec, plan: &Plan, args: &[Type]) -> Type {
    let layout = spec.layout.as_ref().expect("a gufunc has a layout");
    let nin = layout.inputs.len();
    let outs: Vec<Type> = plan
        .outputs
        .iter()
        .enumerate()
        .map(|(j, &(dtype, given))| {
            if given {
                return args[nin + j].clone();
            }
            let core = layout.outputs[j].len() as u8;
            if plan.loop_ndim + core == 0 {
                Type::Scalar(dtype)
            } else {
                Type::Array(ArrayType { dtype, ndim: plan.loop_ndim + core, layout: Layout::C })
            }
        })
        .collect();
    match <[Type; 1]>::try_from(outs) {
        Ok([t]) => t,
        Err(ts) => Type::Tuple(ts),
    }
}

impl Inferencer<'_> {
    /// The result type of `ufunc_call` / `gufunc_call` in instance `i` (specialising the inner
    /// function for the chosen loop).
    pub(super) fn user_ufunc_type(
        &mut self,
        i: usize,
        bi: Builtin,
        args: &[Value],
        types: &[Type],
        span: Span,
    ) -> Result<Type, Diagnostic> {
        let (cidx, name, spec) = inner_of(self.module, types, args, span)?;
        // The ufunc's own body (its call from Rust or the CLI) sees Python's weak numbers.
        let entry = self.mf(i).name == name;
        let arg_types: Vec<Type> = args[1..].iter().map(|a| types[a.index()].unwrapped().clone()).collect();
        if arg_types.iter().any(|t| !t.is_known()) {
            return Ok(Type::Unknown);
        }
        let specialise = |cx: &mut Self, plan: &Plan| -> Type {
            let c = cx.instance(plan.inner, plan.inner_args.clone(), plan.declared_ret.clone());
            if !cx.instances[c].callers.contains(&i) {
                cx.instances[c].callers.push(i);
            }
            cx.instances[c].ret.clone()
        };
        if bi == Builtin::UfuncReduce {
            let Type::Array(at) = &arg_types[0] else {
                return Err(err(span, format!("`{name}.reduce` takes an array, found {}", arg_types[0]), "here"));
            };
            if self.module.functions[cidx].body.params().len() != 2 {
                return Err(err(span, "reduce only supported for binary functions", "here")
                    .with_hint("ufunc.reduce folds a function of two arguments along an axis"));
            }
            let e = Type::Scalar(at.dtype);
            let plan = vectorize_plan(self.module, (cidx, name, spec), &[e.clone(), e.clone()], false, span)?;
            let r = match specialise(self, &plan) {
                Type::Unknown => return Ok(Type::Unknown),
                Type::Scalar(s) => s,
                t => return Err(err(span, format!("ufunc `{name}` returns {t}, not a number"), "here")),
            };
            // The running value is of the loop's result type; the later steps take it.
            if Type::Scalar(r) != e {
                let plan = vectorize_plan(self.module, (cidx, name, spec), &[Type::Scalar(r), e], false, span)?;
                specialise(self, &plan);
            }
            return Ok(match &arg_types[1] {
                _ if at.ndim == 1 => Type::Scalar(r),
                Type::Scalar(s) if s.is_int() => {
                    Type::Array(ArrayType { dtype: r, ndim: at.ndim - 1, layout: Layout::C })
                }
                t => {
                    return Err(err(span, format!("`{name}.reduce`: the axis must be an integer, found {t}"), "axis")
                        .with_hint("axis=None (every element) is supported for 1-D arrays only"))
                }
            });
        }
        if bi == Builtin::GufuncCall {
            let plan = gufunc_plan((cidx, name, spec), &arg_types, entry, span)?;
            let ret = specialise(self, &plan);
            if ret.is_known() && ret != Type::None {
                return Err(err(span, format!("gufunc `{name}` must return nothing"), "its function returns a value")
                    .with_hint("a @guvectorize function writes its results into its output arguments"));
            }
            return Ok(gufunc_result(spec, &plan, &arg_types));
        }
        let (ins, out) = arg_types.split_at(arg_types.len() - 1);
        let plan = vectorize_plan(self.module, (cidx, name, spec), ins, entry, span)?;
        let ret = match specialise(self, &plan) {
            Type::Unknown => return Ok(Type::Unknown),
            Type::Scalar(s) => s,
            t => {
                return Err(err(span, format!("ufunc `{name}` returns {t}, not a number"), "here")
                    .with_hint("a @vectorize function computes one number from numbers"))
            }
        };
        Ok(match &out[0] {
            Type::Array(o) => {
                let nd = ins.iter().filter_map(|t| t.array()).map(|a| a.ndim).max().unwrap_or(0);
                if nd > o.ndim || !typing::same_kind(ret, o.dtype) {
                    return Err(err(
                        span,
                        format!(
                            "ufunc `{name}`: the output is {}, which cannot hold {}-dimensional {} results",
                            out[0],
                            nd,
                            ret.name()
                        ),
                        "output argument",
                    ));
                }
                out[0].clone()
            }
            Type::None if ins.iter().any(|t| t.array().is_some()) => typing::elementwise_result(ret, ins),
            Type::None => Type::Scalar(ret),
            t => return Err(err(span, format!("ufunc `{name}`: `out` must be an array, found {t}"), "here")),
        })
    }
}
