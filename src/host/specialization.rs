//! A compiled host specialisation: a typed handle whose call checks only that the arguments
//! have its exact types, writes them into 8-byte slots (`twinjit_ir::abi`) and jumps to the
//! machine code; runtime errors come back as located [`Error::Runtime`] values.

use super::args::{ArgValue, FromValue, IntoArgs, Value};
use super::host_error;
use crate::dispatcher::type_mismatch;
use crate::engine::Module;
use crate::error::Error;
use std::sync::Arc;
use twinjit_host::memory;
use twinjit_host::{CompiledProgram, HostOptions};
use twinjit_ir::abi::ErrorRecord;
use twinjit_ir::{Signature, Type};

/// `(function name, text)` per compiled function.
pub type Listing = Vec<(String, String)>;

/// One compiled specialisation: a typed handle. Calling it checks only that the arguments
/// have its exact types, then jumps to machine code.
pub struct Specialization {
    name: String,
    params: Vec<String>,
    pub(super) args: Vec<Type>,
    pub(super) ret: Type,
    pub(super) written: Vec<bool>,
    /// Per raise site: the function raising and where (rendered when an error is raised).
    sites: Vec<twinjit_ir::abi::RaiseSite>,
    sources: Arc<twinjit_diag::SourceMap>,
    pub(super) compiled: CompiledProgram,
    compile_time: std::time::Duration,
    /// `EngineOptions::num_threads`: the threads its parallel loops use.
    pub(super) threads: Option<usize>,
}

impl std::fmt::Debug for Specialization {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Specialization({}{})", self.name, self.signature())
    }
}

impl Specialization {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        name: String,
        params: Vec<String>,
        args: Vec<Type>,
        ret: Type,
        written: Vec<bool>,
        sites: Vec<twinjit_ir::abi::RaiseSite>,
        compiled: CompiledProgram,
        compile_time: std::time::Duration,
        sources: Arc<twinjit_diag::SourceMap>,
    ) -> Specialization {
        Specialization { name, params, args, ret, written, sites, sources, compiled, compile_time, threads: None }
    }

    /// The signature in Numba's spelling.
    pub fn signature(&self) -> Signature {
        Signature { args: self.args.clone(), ret: Some(self.ret.clone()) }
    }

    /// Time the compilation took (front end excluded: the module was parsed at load).
    pub fn compile_time(&self) -> std::time::Duration {
        self.compile_time
    }

    /// Calls with arguments of exactly this specialisation's types.
    #[inline]
    pub fn call<'a, R: FromValue>(&self, args: &[ArgValue<'a>]) -> Result<R, Error> {
        let mut ret = [0u64; 8];
        // A result holding arrays goes through `Value`, which owns their references (dropping
        // it on a type mismatch frees them).
        let convert = |slots: &[u64]| {
            if R::IGNORES_RESULT {
                // Release what compiled code allocated for the result; a lent array is the
                // caller's and needs nothing (and no copy).
                if Value::owners_in_slots(&self.ret, slots).iter().any(|p| !p.is_null()) {
                    drop(Value::from_slots(&self.ret, slots, &mut 0));
                }
                return R::from_value(Value::None);
            }
            if self.ret.holds_array() {
                Value::from_slots(&self.ret, slots, &mut 0).and_then(R::from_value)
            } else {
                R::from_slots(&self.ret, slots)
            }
        };
        let r = if self.compiled.ret_slots <= ret.len() {
            self.invoke(args, &mut ret).map(|()| convert(&ret))
        } else {
            let mut big = vec![0u64; self.compiled.ret_slots];
            self.invoke(args, &mut big).map(|()| convert(&big))
        };
        r?.ok_or_else(|| Error::Argument {
            function: self.name.clone(),
            param: None,
            message: format!("returns {}, which does not convert to {}", self.ret.numba_name(), R::describe()),
        })
    }

    /// `args` converted to this specialisation's scalar types (as compiled code converts:
    /// floats to ints truncate, float64 to float32 rounds); arrays are passed as they are. For
    /// a function typed in its decorator, `Function::specialize` may pick a signature the
    /// arguments only convert to; its `call` needs the converted arguments.
    pub fn convert<'a>(&self, args: &[ArgValue<'a>]) -> Vec<ArgValue<'a>> {
        super::overload::converted(&self.signature(), args)
    }

    /// [`Specialization::call`] taking a tuple of arguments.
    pub fn call_with<'a, R: FromValue>(&self, args: impl IntoArgs<'a>) -> Result<R, Error> {
        self.call(args.into_args().as_ref())
    }

    fn invoke(&self, args: &[ArgValue], ret: &mut [u64]) -> Result<(), Error> {
        if args.len() != self.args.len() {
            return Err(Error::Argument {
                function: self.name.clone(),
                param: None,
                message: format!("takes {} arguments but {} were given", self.args.len(), args.len()),
            });
        }
        // Most calls fit 64 slots (eight arguments of at most 8 slots, a 3-D array, each).
        let mut small = [0u64; 8 * 8];
        let mut big = Vec::new();
        let slots: &mut [u64] = if args.len() <= 8 && args.iter().all(|a| !matches!(a, ArgValue::Tuple(_))) {
            &mut small
        } else {
            big.resize(args.iter().map(ArgValue::slot_count).sum::<usize>().max(1), 0);
            &mut big
        };
        let mut used = 0;
        for (k, a) in args.iter().enumerate() {
            let ok = match (a, &self.args[k]) {
                (a, Type::Scalar(s)) if a.scalar() == Some(*s) => true,
                (ArgValue::None, Type::None) => true,
                (ArgValue::Str(s), Type::Str(t)) => s == t,
                (ArgValue::Tuple(_), Type::Tuple(_)) if a.holds_array() => {
                    return Err(Error::Argument {
                        function: self.name.clone(),
                        param: Some(self.params[k].clone()),
                        message: "arrays inside tuple arguments are not supported; pass the arrays separately".into(),
                    })
                }
                (ArgValue::Tuple(_), t @ Type::Tuple(_)) => a.is(t),
                (ArgValue::Array(arr), Type::Array(t)) => {
                    if !arr.writable && self.written[k] {
                        return Err(Error::Argument {
                            function: self.name.clone(),
                            param: Some(self.params[k].clone()),
                            message: "the function writes to this array; pass it mutably (&mut [T] or an ArrayViewMut)"
                                .into(),
                        });
                    }
                    // A C-contiguous array also satisfies an any-layout specialisation.
                    arr.dtype == t.dtype
                        && arr.ndim == t.ndim
                        && (arr.c_contiguous || t.layout == twinjit_ir::Layout::A)
                }
                _ => false,
            };
            if !ok {
                return Err(type_mismatch(&self.name, &self.params[k], &self.args[k], a.ty()));
            }
            used = a.write_slots(slots, used);
        }
        // SAFETY: the slots were built from arguments whose types match the compiled
        // signature (checked above), so the entry reads exactly the parts it expects; array
        // pointers come from live borrows held by `args` for the duration of the call; `ret`
        // has at least `ret_slots` slots (the caller sizes it); and with bounds checking on
        // every access is checked against the shapes passed.
        let scope = memory::Scope::enter();
        let outer = self.threads.map(|n| {
            let outer = twinjit_host::parallel::get_num_threads();
            twinjit_host::parallel::set_num_threads(n.clamp(1, twinjit_host::parallel::max_threads()));
            outer
        });
        let r = unsafe { self.compiled.call(&slots[..used], ret) };
        if let Some(n) = outer {
            twinjit_host::parallel::set_num_threads(n);
        }
        match r {
            Ok(()) => {
                if scope.allocated() {
                    scope.succeed(&Value::owners_in_slots(&self.ret, ret));
                }
                Ok(())
            }
            Err(info) => {
                scope.fail();
                Err(self.runtime_error(info))
            }
        }
    }

    fn runtime_error(&self, info: ErrorRecord) -> Error {
        let site = self.sites.get(info.site as usize);
        let function = site.map_or_else(|| self.name.clone(), |s| s.function.clone());
        let span = site.map(|s| s.span).filter(|s| !s.is_dummy());
        let location = span.and_then(|s| self.sources.location(s)).map(|(f, lc)| format!("{f}:{}:{}", lc.line, lc.col));
        let (kind, what) = crate::error::raised(&info, site);
        let message = match &location {
            Some(l) => format!("{what} in `{function}` at {l}"),
            None => format!("{what} in `{function}`"),
        };
        Error::Runtime { kind, function, location, message }
    }

    /// Cranelift IR and machine code listings, by compiling this signature again with
    /// listings enabled (for `twinjit clif` / `twinjit asm`).
    pub fn listings(module: &Module, name: &str, sig: &Signature) -> Result<(Listing, Listing), Error> {
        let m = module.inner();
        let program = m.source.parsed_module()?.specialize(name, sig, m.options.boundscheck)?;
        let c = twinjit_host::compile(&program, &HostOptions { keep_clif: true, keep_asm: true })
            .map_err(|e| host_error(e, m.source.sources()))?;
        Ok((c.clif.clone(), c.asm.clone()))
    }
}
