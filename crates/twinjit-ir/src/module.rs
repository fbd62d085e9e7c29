//! A module: the functions of one source file with their decorator attributes, as the front end
//! produced them (untyped IR), plus the source text the cache key needs.

use crate::function::{Const, Function};
use crate::types::{Scalar, Signature};
use twinjit_diag::{Diagnostic, Span};

/// What kind of function a decorator made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// `@njit` / `@jit`: runs on the host.
    Host,
    /// `@cuda.jit`: a kernel launched over a grid (returns nothing).
    Kernel,
    /// `@cuda.jit(device=True)`: called from kernels.
    Device,
}

impl FunctionKind {
    /// Human name.
    pub fn describe(self) -> &'static str {
        match self {
            FunctionKind::Host => "host function",
            FunctionKind::Kernel => "kernel",
            FunctionKind::Device => "device function",
        }
    }
}

/// Numba's `error_model`: what division by zero does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorModel {
    /// Raise `ZeroDivisionError` (host default).
    Python,
    /// IEEE results (inf/nan), integer division by zero gives 0 (CUDA default).
    Numpy,
}

/// Decorator options of a function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionAttrs {
    /// Host function, kernel or device function.
    pub kind: FunctionKind,
    /// Signatures written in the decorator (compiled eagerly).
    pub signatures: Vec<Signature>,
    /// `cache=True`.
    pub cache: bool,
    /// `boundscheck=` if written.
    pub boundscheck: Option<bool>,
    /// `fastmath=True`.
    pub fastmath: bool,
    /// `error_model=` (defaults from `kind`).
    pub error_model: ErrorModel,
    /// The decorator as written, for messages (`@njit(cache=True)`).
    pub decorator: String,
}

/// The decorator options Numba has that do not change the code twinjit generates today; they
/// are read, checked and recorded here. They live beside [`FunctionAttrs`] rather than in it
/// because the facade's outline (which stores `FunctionAttrs` in the disk cache) does not
/// encode them: each is either already applied by the front end (`locals`) or has no effect,
/// and the cache key covers the decorator's text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecoratorOptions {
    /// `nopython=True` written explicitly (it is the default since Numba 0.59).
    pub nopython: bool,
    /// `nogil=True`: compiled code never holds a GIL here.
    pub nogil: bool,
    /// `parallel=True` (or an options dict): the front end marks the outermost `prange` loops, which
    /// the `parallel` pass runs on the thread pool (see "Parallel loops" in ARCHITECTURE.md).
    pub parallel: bool,
    /// `inline='never'|'always'` (Numba's IR-level inlining; the backends inline on their own).
    pub inline: Option<String>,
    /// `debug=True`.
    pub debug: bool,
    /// `opt=` as written (`True`, `False`, `3`).
    pub opt: Option<String>,
    /// `lineinfo=True`.
    pub lineinfo: bool,
    /// `target_backend='cpu'` written explicitly (`'cuda'` refuses the function).
    pub target_backend: Option<String>,
    /// `locals={'x': float32}`: the front end casts every assignment to `x` to that type, so
    /// inference sees the declared type.
    pub locals: Vec<(String, Scalar)>,
    /// `@vectorize` / `@guvectorize`: this function is the ufunc's inner function (the one
    /// element, or one core, computation), named `NAME.inner`; the front end adds the ufunc
    /// `NAME` itself, whose body applies it over its arguments (see "User ufuncs" in
    /// ARCHITECTURE.md).
    pub ufunc: Option<UfuncSpec>,
}

/// What `@vectorize` or `@guvectorize` declared.
#[derive(Clone, Debug, PartialEq)]
pub struct UfuncSpec {
    /// The loops of the signature list, in order (`float64(float64, float64)`); empty when the
    /// ufunc is lazy (compiled for the argument types it is called with, like a dispatcher).
    pub loops: Vec<Signature>,
    /// `None` for `@vectorize`; the layout (`(n),()->(n)`) of a `@guvectorize`.
    pub layout: Option<GufuncLayout>,
    /// `target='parallel'`: the loop over the elements runs on the thread pool.
    pub parallel: bool,
    /// `target='cuda'`: the ufunc is a kernel of one element per thread over its inputs and
    /// `out` (the inner function a device function); see `twinjit_front::ufunc::split_cuda`.
    pub cuda: bool,
    /// `@guvectorize(..., writable_args=...)`: the inputs (by position) whose writes reach
    /// the caller's array even when the loop's dtype made a converted copy of it.
    pub writable: Vec<usize>,
    /// `identity=0` (a number): where `f.reduce` starts (an empty reduction gives it). None for
    /// no identity (and for `'reorderable'`).
    pub identity: Option<Const>,
}

/// A generalised ufunc's layout: per input and per output, the names of its core dimensions
/// (`(m,n),(n)->(m)` is inputs `[[m, n], [n]]`, outputs `[[m]]`).
#[derive(Clone, Debug, PartialEq)]
pub struct GufuncLayout {
    pub inputs: Vec<Vec<String>>,
    pub outputs: Vec<Vec<String>>,
}

impl GufuncLayout {
    /// Reads Numba's layout string; the message of what is wrong otherwise.
    pub fn parse(text: &str) -> Result<GufuncLayout, String> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let Some((ins, outs)) = t.split_once("->") else {
            return Err(format!("a layout has inputs, `->` and outputs, as in \"(n),()->(n)\"; got {text:?}"));
        };
        fn groups(s: &str, what: &str) -> Result<Vec<Vec<String>>, String> {
            let mut out = Vec::new();
            let mut rest = s;
            while !rest.is_empty() {
                let Some(body) = rest.strip_prefix('(') else {
                    return Err(format!("expected `(` in the {what} of the layout at {rest:?}"));
                };
                let Some(end) = body.find(')') else { return Err(format!("unclosed `(` in the {what} of the layout")) };
                let dims: Vec<String> = body[..end].split(',').filter(|d| !d.is_empty()).map(str::to_string).collect();
                if let Some(bad) = dims.iter().find(|d| !d.chars().all(|c| c.is_alphanumeric() || c == '_')) {
                    return Err(format!("`{bad}` is not a dimension name"));
                }
                out.push(dims);
                rest = &body[end + 1..];
                if let Some(r) = rest.strip_prefix(',') {
                    rest = r;
                    if rest.is_empty() {
                        return Err(format!("a trailing `,` in the {what} of the layout"));
                    }
                }
            }
            Ok(out)
        }
        let layout = GufuncLayout { inputs: groups(ins, "inputs")?, outputs: groups(outs, "outputs")? };
        if layout.inputs.is_empty() || layout.outputs.is_empty() {
            return Err("a layout needs at least one input and one output".into());
        }
        Ok(layout)
    }
}

/// One function of a module.
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleFunction {
    /// Source name.
    pub name: String,
    /// Decorator attributes.
    pub attrs: FunctionAttrs,
    /// The decorator's other options.
    pub options: DecoratorOptions,
    /// Untyped IR.
    pub body: Function,
    /// The source text of the `def` (decorators included): part of the cache key.
    pub source: String,
    /// Span of the name in the `def`.
    pub name_span: Span,
    /// Names of the module functions it calls directly.
    pub callees: Vec<String>,
    /// Python's `__defaults__`: the values of the last `defaults.len()` parameters, which a
    /// call that omits them passes (typed as the constant's type, as Numba does).
    pub defaults: Vec<Const>,
}

/// A decorated function the front end refused on its own while the rest of the module loads
/// (`@jit(target_backend='cuda')`, which Numba silently ran on the CPU, and a function whose
/// body does not compile, as Numba fails only when it is called). It is not
/// in [`Module::functions`]; a compiled function that calls it gets a located error at the call.
#[derive(Clone, Debug, PartialEq)]
pub struct RefusedFunction {
    /// Source name.
    pub name: String,
    /// Span of the name in the `def`.
    pub name_span: Span,
    /// Why, located (at least one).
    pub diagnostics: Vec<Diagnostic>,
    /// When every use of the function passes compile-time arguments (a dtype, a builtin, a
    /// shape), the copies compiled for them instead (`g__lit1`, ...): the function itself is
    /// then not an error of the module, as Numba never compiles it either.
    pub specialised_as: Vec<String>,
    /// A device function whose only error is a shape read from its parameters
    /// (`cuda.shared.array(n, dtype)` with `n` a parameter) and that nothing here calls: it
    /// compiles, as a copy, wherever it is called with constants for these parameters (as
    /// numba-cuda compiles it for literal arguments), so it is not an error of the module either.
    pub needs_constants: Vec<String>,
    /// A generator function whose only errors are its `yield`s: it compiles inlined into the
    /// `for` loops that iterate it, so it is not an error of the module either.
    pub generator: bool,
}

impl RefusedFunction {
    /// Whether the refusal is an error of the module: not when the function exists only as
    /// copies specialised for its calls, compiles once called with constants, or is a
    /// generator (inlined where a loop iterates it).
    pub fn is_error(&self) -> bool {
        self.specialised_as.is_empty() && self.needs_constants.is_empty() && !self.generator
    }
}

/// The compiled view of one source file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// Functions in source order.
    pub functions: Vec<ModuleFunction>,
    /// Decorated functions refused one by one, in source order; the module loads without them.
    pub refused: Vec<RefusedFunction>,
}

impl Module {
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&ModuleFunction> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The refused function named `name`.
    pub fn refused_function(&self, name: &str) -> Option<&RefusedFunction> {
        self.refused.iter().find(|f| f.name == name)
    }

    /// Names of `name` and every function it calls, transitively, sorted (for cache keys).
    pub fn call_closure(&self, name: &str) -> Vec<String> {
        call_closure(name, |f| self.function(f).map(|f| f.callees.as_slice()))
    }
}

/// `name` and every function it calls, directly or not, sorted; `callees` gives a function's
/// direct callees (`None` for a name that is not a module function).
pub fn call_closure<'a>(name: &str, callees: impl Fn(&str) -> Option<&'a [String]>) -> Vec<String> {
    let mut seen = vec![name.to_string()];
    let mut i = 0;
    while i < seen.len() {
        for c in callees(&seen[i]).unwrap_or_default() {
            if !seen.contains(c) {
                seen.push(c.clone());
            }
        }
        i += 1;
    }
    seen.sort();
    seen
}

#[cfg(test)]
mod layout_tests {
    use super::GufuncLayout;

    #[test]
    fn gufunc_layouts_parse_as_numba_writes_them() {
        let l = GufuncLayout::parse("(m, n),(n)->(m)").unwrap();
        assert_eq!(l.inputs, vec![vec!["m".to_string(), "n".into()], vec!["n".into()]]);
        assert_eq!(l.outputs, vec![vec!["m".to_string()]]);
        let l = GufuncLayout::parse("(n),()->(),()").unwrap();
        assert_eq!(l.inputs, vec![vec!["n".to_string()], vec![]]);
        assert_eq!(l.outputs, vec![Vec::<String>::new(), vec![]]);
        for bad in ["(n)", "(n)->(n", "(n),->(n)", "(n+1)->()", "->()", "(n)->"] {
            assert!(GufuncLayout::parse(bad).is_err(), "{bad} accepted");
        }
    }
}
