//! twinjit's front end: reads a Python module as a Numba user writes it and lowers every
//! decorated function to untyped SSA IR with a source span on every instruction.
//!
//! It uses the Ruff parser (`rustpython-ruff_python_parser`) for syntax, then walks the AST:
//! the whole module as Numba reads it (any import, any module-level statement, never run),
//! frozen constants for the globals compiled code reads, decorators (`@njit`, `@jit`,
//! `@cuda.jit`, `@register_jitable`, signatures as strings or type objects) as
//! [`twinjit_ir::FunctionAttrs`] and [`twinjit_ir::DecoratorOptions`], and function bodies
//! through [`lower`]. It reports every error it can find, each a located [`Diagnostic`] with
//! a hint where one helps, and never panics.
//!
//! A function refused on its own (`@jit(target_backend='cuda')`) is not an error of the load:
//! [`lower_module`] returns `Ok` with it in [`twinjit_ir::Module::refused`] when the module has
//! no other error.
//!
//! It knows nothing of types beyond syntax (typing is `twinjit_ir::infer`) nor of backends.

#![forbid(unsafe_code)]
// Diagnostics travel only on the (cold) error path; their size does not matter there.
#![allow(clippy::result_large_err)]

mod const_array;
mod const_eval;
mod decorators;
mod env;
mod fold;
mod globals;
mod imports;
mod limits;
mod lower;
mod module_level;
mod overload;
mod params;
mod signature;
mod specialise;
mod ssa;
mod ufunc;

use twinjit_diag::{Diagnostic, FileId, SourceMap, Span};
use twinjit_ir::Module;

/// Stack for the front end's thread: the parser and the AST are recursive. With the nesting
/// limits of [`limits`] checked first, this is far more than any accepted input needs.
const FRONT_END_STACK: usize = 256 << 20;

/// How the front end reads a module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// Compile every undecorated module-level function too, as `numba.njit(pyfunc)` compiles a
    /// plain function at run time (how Numba's own tests and many users compile); one that
    /// does not compile is refused (`Module::refused`), not an error for the module.
    pub plain_as_njit: bool,
}

/// Lowers the source file `file` of `sources` to a module; on failure, every diagnostic found.
///
/// Runs on a thread of its own with a large stack, after a scan that rejects nesting deeper
/// than CPython accepts, so that no input can overflow the stack.
pub fn lower_module(sources: &SourceMap, file: FileId) -> Result<Module, Vec<Diagnostic>> {
    lower_module_with(sources, file, LowerOptions::default())
}

/// [`lower_module`] with options.
pub fn lower_module_with(sources: &SourceMap, file: FileId, options: LowerOptions) -> Result<Module, Vec<Diagnostic>> {
    let Some(src) = sources.get(file) else {
        return Err(vec![Diagnostic::error_unlocated("internal: unknown source file")]);
    };
    let text = src.text();
    let name = src.name();
    limits::check(text, file).map_err(|d| vec![d])?;
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("twinjit-front".into())
            .stack_size(FRONT_END_STACK)
            .spawn_scoped(s, || module_level::lower(text, file, name, options));
        match worker {
            Ok(h) => h.join().unwrap_or_else(|_| {
                Err(vec![Diagnostic::error_unlocated("internal compiler error: the front end panicked")])
            }),
            // No thread available: lower on this one (the limits still bound the depth).
            Err(_) => module_level::lower(text, file, name, options),
        }
    })
}

/// Convenience: adds `text` under `name` to a fresh [`SourceMap`] and lowers it.
pub fn lower_source(name: &str, text: &str) -> (SourceMap, Result<Module, Vec<Diagnostic>>) {
    let mut sm = SourceMap::new();
    let id = sm.add(name, text);
    let r = lower_module(&sm, id);
    (sm, r)
}

pub(crate) fn span(file: FileId, r: ruff_text_size::TextRange) -> Span {
    Span::new(file, u32::from(r.start()), u32::from(r.end()))
}
