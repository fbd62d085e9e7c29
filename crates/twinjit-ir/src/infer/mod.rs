//! Type inference: specialises untyped functions of a [`Module`] for argument types.
//!
//! One request (function + argument types) yields a [`TypedProgram`]: the entry specialisation
//! and every specialisation it calls, transitively. Two named passes, driven by [`infer`]:
//! `fixpoint` (`fixpoint.rs`) types every value of every specialisation (it changes no IR, so
//! there is nothing to dump); type errors are then reported once each in source order; then
//! `rewrite` (`rewrite.rs`) builds the typed IR of each specialisation (`TWINJIT_DUMP=rewrite`
//! prints it; `TWINJIT_DUMP=infer` prints the same output as the pipeline receives it). The
//! per-operation rules, pure functions of types, live in [`crate::typing`].
//!
//! This module does not know the passes after it or any backend. Invariants: a specialisation
//! with a type error is never rewritten; the output is typed IR (verified by the pipeline at
//! `Level::Typed`); every error is a located diagnostic, never a panic.

mod fixpoint;
mod rewrite;
mod strings;
mod typed_program;
mod user_ufunc;

pub use typed_program::{mangle, TypedFunction, TypedProgram};

use crate::function::{Function, InstKind, Terminator, Value};
use crate::module::{ErrorModel, Module};
use crate::passes::dump_requested;
use crate::types::Type;
use fixpoint::Inferencer;
use twinjit_diag::{Diagnostic, Span};

/// Options that change typing.
#[derive(Clone, Copy, Debug, Default)]
pub struct InferOptions {
    /// Overrides every function's error model (CUDA compiles with `Numpy`).
    pub error_model: Option<ErrorModel>,
}

/// Infers `name` for `args` (and a declared return type, if the signature wrote one).
pub fn infer(
    module: &Module,
    name: &str,
    args: &[Type],
    declared_ret: Option<Type>,
    options: InferOptions,
) -> Result<TypedProgram, Vec<Diagnostic>> {
    let Some(fidx) = module.functions.iter().position(|f| f.name == name) else {
        return Err(vec![Diagnostic::error_unlocated(format!("no function named `{name}` in this module"))]);
    };
    let mf = &module.functions[fidx];
    if mf.body.params().len() != args.len() {
        return Err(vec![Diagnostic::error(
            format!(
                "`{name}` takes {} argument{} but the signature has {}",
                mf.body.params().len(),
                if mf.body.params().len() == 1 { "" } else { "s" },
                args.len()
            ),
            mf.name_span,
            "defined here",
        )]);
    }
    let mut cx = Inferencer::new(module, options);
    cx.instance(fidx, args.to_vec(), declared_ret);
    let mut work: std::collections::VecDeque<usize> = [0].into();
    let mut steps = 0usize;
    while let Some(i) = work.pop_front() {
        steps += 1;
        if steps > 100_000 || cx.instances.len() > 2_000 {
            return Err(vec![Diagnostic::error(
                "type inference does not terminate (too many specialisations)",
                mf.name_span,
                "while inferring this function",
            )
            .with_hint("a recursive call probably changes its argument types on every level")]);
        }
        let before = cx.instances.len();
        let old_ret = cx.instances[i].ret.clone();
        cx.solve(i);
        for n in before..cx.instances.len() {
            work.push_back(n);
        }
        if cx.instances[i].ret != old_ret {
            for &c in &cx.instances[i].callers.clone() {
                if !work.contains(&c) {
                    work.push_back(c);
                }
            }
        }
    }
    // Type errors were treated as "unknown" during the fixpoint; report them now, once each,
    // in source order, before rewriting anything.
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut typing_errors = false;
    let mut bad = vec![false; cx.instances.len()];
    for (i, bad_i) in bad.iter_mut().enumerate() {
        let f = &cx.mf(i).body;
        let types = std::mem::take(&mut cx.instances[i].types);
        let mut found = Vec::new();
        for b in f.reverse_postorder() {
            if !cx.instances[i].live.get(b.index()).copied().unwrap_or(true) {
                continue;
            }
            for &inst in &f.blocks[b.index()].insts {
                if let Err(d) = cx.result_type(i, f, &f.insts[inst.index()], &types) {
                    found.push(d);
                }
            }
            // An `@overload`'s typing error its argument types reach.
            let bd = &f.blocks[b.index()];
            if let Terminator::Raise(e) = &bd.term {
                if e.class == crate::exception::TYPING_ERROR {
                    let mut d = typing_error(f, e, &types, bd.term_span);
                    // Where the rejected call is (its first caller's call of this function).
                    let name = &cx.mf(i).name;
                    let call = cx.instances[i].callers.iter().find_map(|&c| {
                        let body = &cx.mf(c).body;
                        body.insts.iter().find(|d| matches!(&d.kind, InstKind::Call(n, _) if n == name)).map(|d| d.span)
                    });
                    if let Some(at) = call {
                        d = d.with_secondary(at, "called here");
                    }
                    found.push(d);
                    typing_errors = true;
                }
            }
        }
        cx.instances[i].types = types;
        found.sort_by_key(|d| d.span().map(|s| s.start));
        for d in found {
            *bad_i = true;
            if !diags.contains(&d) {
                diags.push(d);
            }
        }
    }
    // The callers of a function an `@overload` rejected would only report its missing value.
    if typing_errors {
        return Err(diags);
    }
    let mut out = Vec::new();
    for (i, _) in bad.iter().enumerate().filter(|(_, b)| !**b) {
        match rewrite::rewrite(&cx, i) {
            Ok(tf) => {
                if dump_requested("rewrite") {
                    eprintln!("; after rewrite\n{}", tf.func);
                }
                out.push(tf)
            }
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() {
        let program = TypedProgram { functions: out };
        match crate::written_params::const_array_write(&program) {
            Some(d) => Err(vec![d]),
            None => Ok(program),
        }
    } else {
        Err(diags)
    }
}

fn err(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error(message, span, label)
}

/// The error of a live `raise` of [`crate::exception::TYPING_ERROR`] (an `@overload` that
/// rejects its argument types, or none that returned an implementation), with the types.
fn typing_error(f: &Function, e: &crate::exception::Exception<Value>, types: &[Type], span: Span) -> Diagnostic {
    let args: Vec<String> = f.params().iter().map(|p| types[p.index()].to_string()).collect();
    let message = e.message(|_| crate::exception::PyScalar::Int(0));
    use crate::exception::{OVERLOAD_ATTRIBUTE_PREFIX, OVERLOAD_METHOD_PREFIX};
    let what = if let Some(m) = f.name.strip_prefix(OVERLOAD_METHOD_PREFIX) {
        format!("method `.{m}()`")
    } else if let Some(a) = f.name.strip_prefix(OVERLOAD_ATTRIBUTE_PREFIX) {
        format!("attribute `.{a}`")
    } else {
        format!("`{}`", f.name)
    };
    let message = if message.is_empty() {
        format!("no implementation of {what} for argument types ({})", args.join(", "))
    } else {
        format!("{message} (argument types ({}))", args.join(", "))
    };
    err(span, message, "raised at typing time for these argument types")
        .with_hint("an `@overload` chose no implementation for the call's argument types")
}
