//! A parsed module: front end, specialisation and the reference interpreter.

use crate::error::{CompileError, Error};
use twinjit_diag::{render_all, Diagnostic, FileId, SourceMap};
use twinjit_ir::interp::{InterpOptions, RtValue};
use twinjit_ir::{Const, Module, ModuleFunction, Signature, Type, TypedProgram};

use crate::outline::Outline;
use std::sync::{Arc, OnceLock};
pub use twinjit_front::LowerOptions;

/// A parsed Python module: its sources and the untyped IR of every decorated function.
#[derive(Debug)]
pub struct SourceModule {
    sources: Arc<SourceMap>,
    file: FileId,
    module: Module,
}

impl SourceModule {
    /// Runs the front end on `text` (named `name` in diagnostics).
    pub fn parse(name: &str, text: &str) -> Result<SourceModule, Error> {
        SourceModule::parse_with(name, text, LowerOptions::default())
    }

    /// [`SourceModule::parse`] with front-end options (`plain_as_njit`: compile undecorated
    /// functions as `numba.njit(pyfunc)` would, refusing those that do not compile).
    pub fn parse_with(name: &str, text: &str, options: LowerOptions) -> Result<SourceModule, Error> {
        let mut sources = SourceMap::new();
        let file = sources.add(name, text);
        SourceModule::lower(Arc::new(sources), file, options)
    }

    /// Runs the front end on `file` of `sources`.
    fn lower(sources: Arc<SourceMap>, file: FileId, options: LowerOptions) -> Result<SourceModule, Error> {
        match twinjit_front::lower_module_with(&sources, file, options) {
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
    ///
    /// A signature that leaves out trailing parameters with defaults types them as the
    /// defaults' constants (`(float64[:], float64[:])` for a `@vectorize` ufunc, whose `out`
    /// defaults to None).
    pub fn specialize(&self, func: &str, sig: &Signature, boundscheck: Option<bool>) -> Result<TypedProgram, Error> {
        let mut args = sig.args.clone();
        if let Some(f) = self.module.function(func) {
            let n = f.body.params().len();
            if args.len() < n && n - args.len() <= f.defaults.len() {
                let omitted = n - args.len();
                args.extend(f.defaults[f.defaults.len() - omitted..].iter().map(|c| match c {
                    Const::Int(_) => Type::I64,
                    Const::Float(_) => Type::F64,
                    Const::Bool(_) => Type::BOOL,
                    Const::None => Type::None,
                    Const::Str(text) => Type::Str(text.to_string()),
                }));
            }
        }
        let mut program = twinjit_ir::infer(&self.module, func, &args, sig.ret.clone(), Default::default())
            .map_err(|d| compile_error(d, &self.sources))?;
        let module = &self.module;
        twinjit_ir::passes::run_pipeline(&mut program, |name| {
            crate::options::effective_boundscheck(boundscheck, module.function(name).map(|f| &f.attrs))
        })
        .map_err(|e| match e {
            twinjit_ir::passes::PipelineError::Verify(e) => Error::Internal(e.to_string()),
            twinjit_ir::passes::PipelineError::Diagnostics(d) => compile_error(d, &self.sources),
        })?;
        Ok(program)
    }

    /// Runs `func` on `args` in the reference interpreter (specialised for the arguments'
    /// types). Arrays are shared: the function's writes are visible through `args`. Omitted
    /// trailing arguments take their defaults, as in [`crate::Function::call`].
    ///
    /// A function with signatures in its decorator runs as the engine runs it: the arguments
    /// are converted to the declared signature they convert to most cheaply.
    pub fn interpret(&self, func: &str, args: &[RtValue]) -> Result<RtValue, Error> {
        let (sig, args) = self.bind(func, args)?;
        let program = self.specialize(func, &sig, None)?;
        twinjit_ir::interp::run(&program, &args, InterpOptions::default()).map_err(|mut error| {
            // An error in code inlined from a callee (`passes/inline.rs`) is the callee's.
            if let Some(f) = self.function_at(error.span) {
                error.function = f.to_string();
            }
            Error::from_interp(error, &self.sources)
        })
    }

    /// Launches kernel `func` over `launch` in the reference interpreter's grid runner (the
    /// CUDA execution model, deterministically: see `twinjit_ir::interp::run_kernel`), no GPU
    /// needed. Arrays are shared: the kernel's writes are visible through `args`. With
    /// `race_check`, two threads that touch one element, one of them writing (an atomic races
    /// only with a plain write), with nothing ordering them, fail the launch with a `RuntimeError` naming both
    /// threads, the element and both source lines (what compute-sanitizer's racecheck reports
    /// on a GPU; numba-cuda's simulator does not): of a `cuda.shared.array`, two threads of a
    /// block between two barriers; of an array argument, also two blocks without a grid sync
    /// between.
    pub fn interpret_kernel(
        &self,
        func: &str,
        launch: twinjit_ir::interp::KernelLaunch,
        args: &[RtValue],
        race_check: bool,
    ) -> Result<(), Error> {
        let sig = twinjit_ir::Signature { args: args.iter().map(RtValue::ty).collect(), ret: None };
        let program = self.specialize(func, &sig, None)?;
        let options = InterpOptions { race_check, ..InterpOptions::default() };
        twinjit_ir::interp::run_kernel(&program, args, &launch, options)
            .map_err(|error| Error::from_interp(error, &self.sources))
    }

    /// The function whose `def` holds `span` (a ufunc, not its inner function, which has the
    /// same source).
    fn function_at(&self, span: twinjit_diag::Span) -> Option<&str> {
        let holds = |f: &&ModuleFunction| {
            let s = f.body.span;
            s.file == span.file && s.start <= span.start && span.end <= s.end
        };
        self.module.functions.iter().find(holds).map(|f| f.name.as_str())
    }

    /// The signature a call of `func` with `args` compiles for, and the arguments it runs with,
    /// as the engine binds them: omitted trailing arguments take their defaults, and a function
    /// with signatures in its decorator gets its arguments converted to the declared signature
    /// they convert to most cheaply.
    pub fn bind(&self, func: &str, args: &[RtValue]) -> Result<(Signature, Vec<RtValue>), Error> {
        let mut args = args.to_vec();
        if let Some(f) = self.module.function(func) {
            let omitted = crate::dispatcher::arity(func, &f.body.param_names, f.defaults.len(), args.len())?;
            args.extend(f.defaults[f.defaults.len() - omitted..].iter().map(|c| match *c {
                Const::Int(i) => RtValue::I64(i),
                Const::Float(x) => RtValue::F64(x),
                Const::Bool(b) => RtValue::Bool(b),
                Const::None => RtValue::None,
                Const::Str(text) => RtValue::Str(text.into()),
            }));
        }
        let types: Vec<_> = args.iter().map(RtValue::ty).collect();
        let declared = self.module.function(func).map(|f| f.attrs.signatures.as_slice()).unwrap_or_default();
        let (sig, args) = match twinjit_ir::typing::pick_signature(declared, &types) {
            Some(k) => {
                let sig = declared[k].clone();
                let converted = args
                    .iter()
                    .zip(&sig.args)
                    .map(|(a, t)| match t.scalar() {
                        Some(s) => twinjit_ir::interp::cast(a, s),
                        None => a.clone(),
                    })
                    .collect();
                (sig, converted)
            }
            None => (Signature { args: types, ret: None }, args),
        };
        Ok((sig, args))
    }
}

/// A module's source as an engine holds it: the text and its [`Outline`] always, the untyped
/// IR from the first time something needs it (at once when the module was parsed at load; on
/// the first cache miss when it was loaded from a cached outline).
#[derive(Debug)]
pub(crate) struct LoadedSource {
    /// Shared with the parsed module, once there is one.
    sources: Arc<SourceMap>,
    file: FileId,
    outline: Outline,
    /// What the front end was, or will be, run with.
    options: LowerOptions,
    lowered: OnceLock<SourceModule>,
}

impl LoadedSource {
    /// A module the front end has just parsed with `options`.
    pub(crate) fn parsed(module: SourceModule, options: LowerOptions) -> LoadedSource {
        let outline = Outline::of(module.module(), module.text());
        let (sources, file) = (module.sources.clone(), module.file);
        LoadedSource { sources, file, outline, options, lowered: OnceLock::from(module) }
    }

    /// A module known only by its outline (read from the cache); not parsed yet.
    pub(crate) fn from_outline(name: &str, text: &str, outline: Outline, options: LowerOptions) -> LoadedSource {
        let mut sources = SourceMap::new();
        let file = sources.add(name, text);
        LoadedSource { sources: sources.into(), file, outline, options, lowered: OnceLock::new() }
    }

    pub(crate) fn outline(&self) -> &Outline {
        &self.outline
    }

    /// The source map for locations (the parsed module's own).
    pub(crate) fn sources(&self) -> &Arc<SourceMap> {
        &self.sources
    }

    pub(crate) fn text(&self) -> &str {
        self.sources.get(self.file).map(|f| f.text()).unwrap_or("")
    }

    /// The parsed module, running the front end now if it has not run yet.
    pub(crate) fn parsed_module(&self) -> Result<&SourceModule, Error> {
        if let Some(m) = self.lowered.get() {
            return Ok(m);
        }
        let m = SourceModule::lower(self.sources.clone(), self.file, self.options)?;
        Ok(self.lowered.get_or_init(|| m))
    }

    /// Whether the front end has run on this module (tests of the lazy path).
    pub(crate) fn is_parsed(&self) -> bool {
        self.lowered.get().is_some()
    }

    /// Where `span` lies as cache entries store it: the function whose source contains it and
    /// the offsets from that function's start, so that an entry stays right when code outside
    /// the function (which its key does not cover) moves it.
    pub(crate) fn relative_span(&self, span: twinjit_diag::Span) -> Option<(String, u32, u32)> {
        if span.file != self.file || span.end < span.start {
            return None;
        }
        let (f, start) = self.outline.containing(span.start as usize)?;
        let start = u32::try_from(start).ok()?;
        (span.end as usize <= f.source.end).then(|| (f.name.clone(), span.start - start, span.end - start))
    }

    /// `site` with the function whose source holds its span (a raise inlined into another
    /// function stays its own function's).
    pub(crate) fn attributed(&self, site: &twinjit_ir::abi::RaiseSite) -> twinjit_ir::abi::RaiseSite {
        let mut s = site.clone();
        if let Some((f, _, _)) = self.relative_span(site.span) {
            s.function = f;
        }
        s
    }

    /// The span in this module of what [`LoadedSource::relative_span`] stored.
    pub(crate) fn absolute_span(&self, function: &str, start: u32, end: u32) -> Option<twinjit_diag::Span> {
        let f = self.outline.function(function)?;
        let (s, e) = (f.source.start + start as usize, f.source.start + end as usize);
        (s <= e && e <= f.source.end).then(|| twinjit_diag::Span::new(self.file, s as u32, e as u32))
    }
}

pub(crate) fn compile_error(diagnostics: Vec<Diagnostic>, sources: &SourceMap) -> Error {
    let rendered = render_all(&diagnostics, sources);
    Error::Compile(CompileError { diagnostics, rendered })
}

#[cfg(test)]
mod tests {
    use super::*;
    use twinjit_diag::Span;

    #[test]
    fn spans_map_to_their_function_and_back() {
        let src = "from numba import njit\n@njit\ndef f(a):\n    return a[1]\n\nX = 1\n";
        let m = LoadedSource::parsed(SourceModule::parse("s.py", src).unwrap(), LowerOptions::default());
        let at = src.find("a[1]").unwrap() as u32;
        let span = Span::new(m.file, at, at + 4);
        let rel = m.relative_span(span).unwrap();
        assert_eq!(rel.0, "f");
        assert_eq!(m.absolute_span(&rel.0, rel.1, rel.2), Some(span));
        // Outside every function, in no file, or malformed: no place to store.
        let x = src.find("X = 1").unwrap() as u32;
        assert_eq!(m.relative_span(Span::new(m.file, x, x + 1)), None);
        assert_eq!(m.relative_span(Span::DUMMY), None);
        assert_eq!(m.relative_span(Span::new(m.file, at + 4, at)), None);
        // A stored place that no longer fits the function is dropped, not misplaced.
        assert_eq!(m.absolute_span("f", 0, 10_000), None);
        assert_eq!(m.absolute_span("g", 0, 1), None);
    }
}
