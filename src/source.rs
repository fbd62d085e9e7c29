//! A parsed module: front end, specialisation and the reference interpreter.

use crate::error::{CompileError, Error};
use twinjit_diag::{render_all, Diagnostic, FileId, SourceMap};
use twinjit_ir::interp::{InterpOptions, RtValue};
use twinjit_ir::{FunctionKind, Module, ModuleFunction, Signature, TypedProgram};

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

    /// The module's source text.
    pub fn text(&self) -> &str {
        self.sources.get(self.file).map(|f| f.text()).unwrap_or("")
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
            .map_err(|error| Error::from_interp(error, &self.sources))
    }
}

pub(crate) fn compile_error(diagnostics: Vec<Diagnostic>, sources: &SourceMap) -> Error {
    let rendered = render_all(&diagnostics, sources);
    Error::Compile(CompileError { diagnostics, rendered })
}
