//! The host target in the facade: functions compiled by Cranelift (`twinjit-host`) and called
//! in-process. [`Function`] is the dispatcher handle (one specialisation per argument types,
//! compiled lazily, eagerly for decorator signatures); [`Specialization`] the compiled code
//! with its marshalling (`specialization.rs`, `args.rs`); `cache.rs` its disk-cache payloads.

mod args;
mod array;
mod cache;
mod overload;
mod specialization;

pub use args::{
    ArgValue, Array, ArrayArg, Complex32, Complex64, Element, FromValue, Ignored, IntoArg, IntoArgs, Value,
};
pub use specialization::Specialization;

use crate::dispatcher::{parse_signature, CallArg, Dispatcher};
use crate::engine::{Dispatchers, ModuleInner};
use crate::error::Error;
use crate::Target;
use std::sync::Arc;
use twinjit_host::HostOptions;
use twinjit_ir::{Const, Signature, Type};

impl CallArg for ArgValue<'_> {
    fn arg_type(&self) -> Result<Type, String> {
        match self {
            ArgValue::Invalid(why) => Err(why.to_string()),
            a => a.ty().ok_or_else(|| "an invalid argument".to_string()),
        }
    }
}

/// A function of a module: the dispatcher. Cheap to clone, `Send + Sync`.
#[derive(Clone)]
pub struct Function {
    pub(crate) module: Arc<ModuleInner>,
    pub(crate) index: usize,
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Function({})", self.name())
    }
}

impl Function {
    /// The host dispatcher, or the error of calling a host function on another target.
    fn dispatcher(&self) -> Result<&Dispatcher<Specialization>, Error> {
        match &self.module.dispatchers {
            Dispatchers::Host(d) => Ok(&d[self.index]),
            #[cfg(feature = "cuda")]
            _ => Err(Error::TargetUnavailable {
                target: self.module.target.clone(),
                reason: format!(
                    "`{}` would run on the host, but this engine targets {}; launch kernels with \
                     Module::kernel, or call host functions through an Engine for Target::Host",
                    self.name(),
                    self.module.target
                ),
            }),
        }
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.module.source.outline().functions[self.index].name
    }

    /// The names of its parameters.
    pub fn params(&self) -> &[String] {
        &self.module.source.outline().functions[self.index].params
    }

    /// The default of parameter `k` (`def f(x, n=3)`: `n`'s is `ArgValue::I64(3)`), as the
    /// argument a call that omits it passes; `None` for a parameter without one.
    pub fn param_default(&self, k: usize) -> Option<ArgValue<'static>> {
        let f = &self.module.source.outline().functions[self.index];
        let first = f.params.len().checked_sub(f.defaults.len())?;
        f.defaults.get(k.checked_sub(first)?).map(|c| default_arg(*c))
    }

    /// Calls the function, compiling it for these argument types on first use.
    ///
    /// Arguments are positional, in the order of [`Function::params`]; trailing parameters
    /// with a default (`def f(x, n=3)`) may be omitted and take it, typed as Numba types the
    /// constant (`3` int64, `1.0` float64, `True` bool). Keyword arguments are not taken from
    /// Rust: pass every argument before the last one you give.
    ///
    /// ```
    /// let engine = twinjit::Engine::new(twinjit::Target::Host).unwrap();
    /// let src = "from numba import njit\n@njit\ndef total(a, n):\n    s = 0.0\n    for i in range(n):\n        s += a[i]\n    return s\n";
    /// let f = engine.load("t.py", src).unwrap().function("total").unwrap();
    /// let a = [1.0, 2.0, 3.5];
    /// let s: f64 = f.call((&a[..], 3i64)).unwrap();
    /// assert_eq!(s, 6.5);
    /// // Out of bounds with bounds checking on (the default): an error, not a crash.
    /// let e = f.call::<f64>((&a[..], 4i64)).unwrap_err();
    /// assert_eq!(e.python_exception(), Some("IndexError"));
    /// // A default: `scaled(x, k=2.0)` called as `scaled(x)`.
    /// let src = "from numba import njit\n@njit\ndef scaled(x, k=2.0):\n    return x * k\n";
    /// let g = engine.load("s.py", src).unwrap().function("scaled").unwrap();
    /// assert_eq!(g.call::<f64>((1.5,)).unwrap(), 3.0);
    /// assert_eq!(g.call::<f64>((1.5, 3.0)).unwrap(), 4.5);
    /// ```
    pub fn call<'a, R: FromValue>(&self, args: impl IntoArgs<'a>) -> Result<R, Error> {
        let args = args.into_args();
        let d = self.dispatcher()?;
        let filled;
        let args = match with_defaults(d, args.as_ref())? {
            Some(all) => {
                filled = all;
                &filled[..]
            }
            None => args.as_ref(),
        };
        // Fast path: an existing specialisation whose types match the arguments exactly, found
        // without building a signature; the lock is released before the call, so a long call
        // never blocks another signature's compilation.
        let found = d.specs.find(|t| t.len() == args.len() && t.iter().zip(args).all(|(t, a)| a.is(t)));
        if let Some(Ok(spec)) = found {
            return spec.call(args);
        }
        let declared = &self.module.source.outline().functions[self.index].attrs.signatures;
        if !declared.is_empty() {
            // Typed in the decorator: convert to a declared signature, never compile another.
            let sig = self.declared_for(declared, args)?;
            let spec = self.compile_signature(sig)?;
            return spec.call(&overload::converted(sig, args));
        }
        let spec = self.specialization(args)?;
        spec.call(args)
    }

    /// The declared signature a call's arguments convert to, or the argument error Numba gives.
    fn declared_for<'s>(&self, declared: &'s [Signature], args: &[ArgValue]) -> Result<&'s Signature, Error> {
        let d = self.dispatcher()?;
        d.arg_types(args)?;
        let k = overload::pick(declared, args).ok_or_else(|| {
            let got: Vec<String> = args.iter().filter_map(|a| a.ty()).map(|t| t.numba_name()).collect();
            let list: Vec<String> = declared.iter().map(|s| s.to_string()).collect();
            Error::Argument {
                function: self.name().to_string(),
                param: None,
                message: format!(
                    "no matching definition for argument types ({}); the decorator declares {}",
                    got.join(", "),
                    list.join(", ")
                ),
            }
        })?;
        Ok(&declared[k])
    }

    /// The specialisation for these arguments' types (compiled if needed): a typed handle
    /// whose calls skip the dispatcher's lookup.
    ///
    /// Omitted trailing arguments take their defaults, as in [`Function::call`]; the
    /// specialisation's signature includes the defaulted parameters' types.
    pub fn specialize<'a>(&self, args: impl IntoArgs<'a>) -> Result<Arc<Specialization>, Error> {
        let args = args.into_args();
        match with_defaults(self.dispatcher()?, args.as_ref())? {
            Some(all) => self.specialization(&all),
            None => self.specialization(args.as_ref()),
        }
    }

    /// Runs the function compiled for the host and in the reference interpreter on copies of
    /// the same arguments, and compares the result (or the exception raised) and every array
    /// argument after the call ([`crate::verify`]): floats within `rtol` relative, by default
    /// exactly, as the host and the interpreter agree to the bit. The caller's arrays receive
    /// the compiled call's writes.
    pub fn verify<'a>(&self, args: impl IntoArgs<'a>, rtol: Option<f64>) -> Result<crate::verify::Report, Error> {
        use crate::verify::{arg_items, rt_items, rt_of_arg, value_items, Item, Items};
        let args = args.into_args();
        let all = match with_defaults(self.dispatcher()?, args.as_ref())? {
            Some(all) => all,
            None => args.as_ref().to_vec(),
        };
        let inputs = all.iter().map(rt_of_arg).collect::<Result<Vec<_>, _>>()?;
        let spec = self.specialization(&all)?;
        let got_result = spec.call::<Value>(&spec.convert(&all));
        let want_result = self.module.source.parsed_module()?.interpret(self.name(), &inputs);
        let (mut got, mut want) = (Items::new(), Items::new());
        let raised = |e: &Error| Item::Text(format!("raised {}", e.python_exception().unwrap_or("an error")));
        match (&got_result, &want_result) {
            (Ok(g), Ok(w)) => {
                value_items("return", g, &mut got);
                rt_items("return", w, &mut want);
            }
            (Ok(g), Err(w)) => {
                value_items("return", g, &mut got);
                want.push(("return".into(), raised(w)));
            }
            (Err(g), Ok(w)) => {
                got.push(("return".into(), raised(g)));
                rt_items("return", w, &mut want);
            }
            (Err(g), Err(w)) => {
                got.push(("return".into(), raised(g)));
                want.push(("return".into(), raised(w)));
            }
        }
        let params = self.params().to_vec();
        for (k, (a, w)) in all.iter().zip(&inputs).enumerate() {
            let name = params.get(k).cloned().unwrap_or_else(|| format!("arg{k}"));
            let before = got.len();
            arg_items(&name, a, &mut got)?;
            if got.len() > before {
                rt_items(&name, w, &mut want);
            }
        }
        let subject = format!("`{}` compiled for the host", self.name());
        Ok(crate::verify::compare(&subject, crate::verify::Reference::Interpreter, &got, &want, rtol.unwrap_or(0.0)))
    }

    /// Compiles for a signature in Numba's spelling (`"(float64[:], int64)"`).
    pub fn compile(&self, signature: &str) -> Result<Arc<Specialization>, Error> {
        self.compile_signature(&parse_signature(self.name(), signature)?)
    }

    pub(crate) fn compile_signature(&self, sig: &Signature) -> Result<Arc<Specialization>, Error> {
        self.dispatcher()?.for_signature(sig, |sig| self.build(sig))
    }

    fn specialization(&self, args: &[ArgValue]) -> Result<Arc<Specialization>, Error> {
        let d = self.dispatcher()?;
        let types = d.arg_types(args)?;
        let declared = &self.module.source.outline().functions[self.index].attrs.signatures;
        if !declared.is_empty() {
            // The declared signature these arguments convert to; its handle takes exactly its
            // types (`Specialization::convert` converts arguments to them).
            return self.compile_signature(self.declared_for(declared, args)?);
        }
        d.get_or_build(types, None, |sig| self.build(sig))
    }

    fn build(&self, sig: &Signature) -> Result<Specialization, Error> {
        let m = &self.module;
        let name = self.name();
        let started = std::time::Instant::now();
        let cache_key = crate::disk_cache::wanted(&m.options.cache, &m.source, name).then(|| cache_key(self, sig));
        if let Some(key) = &cache_key {
            if let Some(spec) = m.disk.get(key).and_then(|bytes| cache::load(self, &bytes, started)) {
                return Ok(spec);
            }
        }
        let program = m.source.parsed_module()?.specialize(name, sig, m.options.boundscheck)?;
        let entry = program.entry();
        let written = twinjit_ir::written_params::written_params(&program);
        let compiled = if cache_key.is_some() {
            twinjit_host::compile_with_artifact(&program, &HostOptions::default())
        } else {
            twinjit_host::compile(&program, &HostOptions::default())
        }
        .map_err(|e| host_error(e, m.source.sources()))?;
        let mut spec = Specialization::new(
            name.to_string(),
            self.params().to_vec(),
            sig.args.clone(),
            entry.func.ret.clone(),
            written,
            // A raise inlined from a callee (`passes/inline.rs`) is the callee's: the function
            // is the one whose source holds the span.
            compiled.sites.iter().map(|s| m.source.attributed(s)).collect(),
            compiled,
            started.elapsed(),
            m.source.sources().clone(),
        );
        spec.threads = m.options.num_threads;
        if let Some(key) = &cache_key {
            if let Some(bytes) = cache::store(&spec, &m.source) {
                m.disk.put(key, &bytes);
            }
        }
        Ok(spec)
    }
}

/// `args` followed by the defaults of the parameters they omit; `None` when they omit none.
fn with_defaults<'a>(
    d: &Dispatcher<Specialization>,
    args: &[ArgValue<'a>],
) -> Result<Option<Vec<ArgValue<'a>>>, Error> {
    let omitted = d.omitted(args.len())?;
    if omitted.is_empty() {
        return Ok(None);
    }
    let mut all = args.to_vec();
    all.extend(omitted.iter().map(|c| default_arg(*c)));
    Ok(Some(all))
}

/// A default as the argument a call that omits it passes (Numba's types for the constant).
fn default_arg(c: Const) -> ArgValue<'static> {
    match c {
        Const::Int(i) => ArgValue::I64(i),
        Const::Float(x) => ArgValue::F64(x),
        Const::Bool(b) => ArgValue::Bool(b),
        Const::None => ArgValue::None,
        Const::Str(text) => ArgValue::Str(text),
    }
}

/// The disk cache's key of `f` compiled for `sig` on the host: the CPU triple and features the
/// code is generated for, and the function's effective options.
pub(crate) fn cache_key(f: &Function, sig: &Signature) -> crate::cache::CacheKey {
    let m = &f.module;
    let target = ["host ", &twinjit_host::host_description()].concat();
    let options = crate::options::option_key(&m.options, m.source.outline().function(f.name()).map(|o| &o.attrs));
    crate::disk_cache::key(&m.source, f.name(), sig, &target, &options)
}

/// A host backend error as a facade error.
pub(crate) fn host_error(e: twinjit_host::HostError, sources: &twinjit_diag::SourceMap) -> Error {
    match e {
        twinjit_host::HostError::Unsupported(u) => crate::error::unsupported(u, "host", sources),
        twinjit_host::HostError::Isa(m) => Error::TargetUnavailable { target: Target::Host, reason: m },
        twinjit_host::HostError::Internal(m) => Error::Internal(m),
    }
}
