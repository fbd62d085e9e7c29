//! twinjit: a JIT engine for the Numba Python subset.
//!
//! This facade ties the crates together: [`SourceModule::parse`] runs the front end on a
//! Python source, [`SourceModule::specialize`] infers types for one signature and runs the IR
//! pipeline, and [`SourceModule::interpret`] runs the reference interpreter (the oracle that
//! defines twinjit's semantics). Every failure is an [`Error`] value carrying located,
//! rendered diagnostics; nothing here panics on bad input.
//!
//! ```
//! use twinjit::{SourceModule, ir::interp::RtValue};
//! let src = "from numba import njit\n\n@njit\ndef add(a, b):\n    return a + b\n";
//! let m = SourceModule::parse("add.py", src).unwrap();
//! let r = m.interpret("add", &[RtValue::I64(2), RtValue::F64(0.5)]).unwrap();
//! assert_eq!(r.to_string(), "2.5");
//! ```

pub use twinjit_diag as diag;
pub use twinjit_ir as ir;

use std::fmt;
use twinjit_diag::{render_all, Diagnostic, FileId, SourceMap};
use twinjit_ir::interp::{InterpOptions, RtValue, RuntimeError};
use twinjit_ir::{FunctionKind, Module, ModuleFunction, Signature, TypedProgram};

/// Compilation failed: the diagnostics, rendered against their sources.
#[derive(Clone, Debug)]
pub struct CompileError {
    /// Every diagnostic found.
    pub diagnostics: Vec<Diagnostic>,
    /// The diagnostics rendered like rustc (file, line, column, excerpt, label, hint).
    pub rendered: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rendered.trim_end())
    }
}

/// Any twinjit failure.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The source or a signature was rejected.
    #[error("{0}")]
    Compile(CompileError),
    /// The function raised at run time (`ZeroDivisionError`, `IndexError`, ...).
    #[error("{message}")]
    Runtime {
        /// The error value.
        error: RuntimeError,
        /// The message with its source location resolved.
        message: String,
    },
    /// An internal invariant broke (an IR verifier failure): a twinjit bug, reported as a
    /// value rather than a panic.
    #[error("internal compiler error: {0}")]
    Internal(String),
}

impl Error {
    /// The diagnostics of a compile error (empty for other errors).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Compile(c) => &c.diagnostics,
            _ => &[],
        }
    }
}

/// A parsed Python module: its sources and the untyped IR of every decorated function.
#[derive(Debug)]
pub struct SourceModule {
    sources: SourceMap,
    file: FileId,
    module: Module,
}

impl SourceModule {
    /// Runs the front end on `text` (named `name` in diagnostics).
    pub fn parse(name: &str, text: &str) -> Result<SourceModule, Error> {
        let mut sources = SourceMap::new();
        let file = sources.add(name, text);
        match twinjit_front::lower_module(&sources, file) {
            Ok(module) => Ok(SourceModule { sources, file, module }),
            Err(diags) => Err(compile_error(diags, &sources)),
        }
    }

    /// The source map (for rendering diagnostics and runtime error locations).
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// The file id of the module's source.
    pub fn file(&self) -> FileId {
        self.file
    }

    /// The untyped module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The compiled functions in source order.
    pub fn functions(&self) -> &[ModuleFunction] {
        &self.module.functions
    }

    /// Infers `func` for `sig` and runs the IR pipeline. `boundscheck` overrides the
    /// decorator's choice; without either, bounds checking is on for host functions and off
    /// for kernels (as in numba-cuda).
    pub fn specialize(&self, func: &str, sig: &Signature, boundscheck: Option<bool>) -> Result<TypedProgram, Error> {
        let mut program = twinjit_ir::infer(&self.module, func, &sig.args, sig.ret.clone(), Default::default())
            .map_err(|d| compile_error(d, &self.sources))?;
        let module = &self.module;
        twinjit_ir::passes::run_pipeline(&mut program, |name| {
            boundscheck.unwrap_or_else(|| {
                let f = module.function(name);
                f.and_then(|f| f.attrs.boundscheck)
                    .unwrap_or_else(|| f.is_none_or(|f| f.attrs.kind == FunctionKind::Host))
            })
        })
        .map_err(|e| Error::Internal(e.to_string()))?;
        Ok(program)
    }

    /// Runs `func` on `args` in the reference interpreter (specialised for the arguments'
    /// types). Arrays are shared: the function's writes are visible through `args`.
    pub fn interpret(&self, func: &str, args: &[RtValue]) -> Result<RtValue, Error> {
        let sig = Signature { args: args.iter().map(RtValue::ty).collect(), ret: None };
        let program = self.specialize(func, &sig, None)?;
        twinjit_ir::interp::run(&program, args, InterpOptions::default())
            .map_err(|error| Error::Runtime { message: error.describe(&self.sources), error })
    }
}

fn compile_error(diagnostics: Vec<Diagnostic>, sources: &SourceMap) -> Error {
    let rendered = render_all(&diagnostics, sources);
    Error::Compile(CompileError { diagnostics, rendered })
}
