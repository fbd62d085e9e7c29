//! The engine, its modules and the dispatcher.
//!
//! Like Numba's dispatcher, a [`Function`] compiles lazily on the first call for the argument
//! types it is given, keeps one specialisation per signature, and compiles the signatures
//! written in its decorator eagerly when the module is loaded. Concurrent first calls with the
//! same types compile once (the others wait for that result).

use crate::args::{ArgValue, FromValue, IntoArgs};
use crate::disk_cache::Site;
use crate::error::Error;
use crate::source::{LoadedSource, SourceModule};
use crate::spec_table::SpecTable;
use crate::Target;
use smallvec::SmallVec;
use std::sync::Arc;
use twinjit_host::{CompiledProgram, HostOptions};
use twinjit_ir::abi::ErrorRecord;
use twinjit_ir::{FunctionKind, Signature, Type};

/// Engine-wide options.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// When compiled code is kept in the on-disk cache: for `cache=True` functions (the
    /// default, as in Numba), for every function, or never.
    pub cache: crate::CacheMode,
    /// The cache directory (default: `TWINJIT_CACHE_DIR`, else `~/.cache/twinjit`).
    pub cache_dir: Option<std::path::PathBuf>,
    /// Overrides every function's bounds checking (`None`: the decorator decides; on by
    /// default for host functions). With checks off, an out-of-bounds index is undefined
    /// behaviour, as in Numba: turn them off only for code you trust.
    pub boundscheck: Option<bool>,
    /// CUDA: let LLVM contract `a * b + c` into one FMA instruction (`None`: yes, as nvcc and
    /// numba-cuda do). Off, float results match the host's bit for bit except for libdevice's
    /// math functions.
    pub fp_contract: Option<bool>,
    /// CUDA: recursion deeper than this raises `RecursionError` (`None`: 64). Each level costs
    /// stack for every thread the GPU can hold at once, so the GPU limit is lower than the
    /// host's 1000.
    pub gpu_recursion_limit: Option<i64>,
}

impl EngineOptions {
    /// PTX options for this engine's choices and `arch`.
    #[cfg(feature = "cuda")]
    pub(crate) fn ptx_options(&self, arch: &str, entry: crate::cuda::EntryKind) -> crate::cuda::PtxOptions {
        crate::cuda::PtxOptions {
            arch: arch.to_string(),
            entry,
            contract: self.fp_contract.unwrap_or(true),
            max_recursion: self.gpu_recursion_limit.unwrap_or(twinjit_ir::abi::GPU_MAX_RECURSION),
            ..Default::default()
        }
    }
}

/// Compiles Python-subset modules for one target. `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Engine {
    target: Target,
    options: EngineOptions,
    backend: Backend,
    disk: Arc<crate::disk_cache::DiskCache>,
}

/// What an engine compiles with: only the named target, never another.
#[derive(Clone, Debug)]
pub(crate) enum Backend {
    Host,
    #[cfg(feature = "cuda")]
    Cuda(Arc<crate::cuda::CudaBackend>),
    #[cfg(feature = "cuda")]
    Ptx(String),
}

impl Engine {
    /// An engine for `target`, or [`Error::TargetUnavailable`] if that target cannot be used
    /// here. Never falls back to another target.
    ///
    /// ```
    /// use twinjit::{Engine, Error, Target};
    /// let host = Engine::new(Target::Host).unwrap();
    /// # let _ = host;
    /// match Engine::new(Target::Cuda { device: 0 }) {
    ///     Err(Error::TargetUnavailable { reason, .. }) => println!("no GPU here: {reason}"),
    ///     Err(other) => panic!("unexpected error: {other}"),
    ///     Ok(_) => println!("CUDA is available"),
    /// }
    /// ```
    pub fn new(target: Target) -> Result<Engine, Error> {
        Engine::with_options(target, EngineOptions::default())
    }

    /// [`Engine::new`] with options.
    pub fn with_options(target: Target, options: EngineOptions) -> Result<Engine, Error> {
        let backend = match &target {
            Target::Host => Backend::Host,
            #[cfg(feature = "cuda")]
            Target::Cuda { device } => match crate::cuda::CudaBackend::open(*device) {
                Ok(b) => Backend::Cuda(Arc::new(b)),
                Err(reason) => return Err(Error::TargetUnavailable { reason, target }),
            },
            #[cfg(feature = "cuda")]
            Target::Ptx { arch } => {
                if !twinjit_ptx::KNOWN_ARCHS.contains(&arch.as_str()) {
                    return Err(Error::TargetUnavailable {
                        reason: format!(
                            "unknown GPU architecture `{arch}` (LLVM 19 knows {})",
                            twinjit_ptx::KNOWN_ARCHS.join(", ")
                        ),
                        target,
                    });
                }
                Backend::Ptx(arch.clone())
            }
            #[cfg(not(feature = "cuda"))]
            Target::Cuda { .. } | Target::Ptx { .. } => {
                return Err(Error::TargetUnavailable {
                    reason: "this build of twinjit has no CUDA support (rebuild with `--features cuda`)".into(),
                    target,
                })
            }
        };
        let disk = crate::disk_cache::DiskCache::new(options.cache_dir.clone());
        Ok(Engine { target, options, backend, disk })
    }

    /// The CUDA device of a `Target::Cuda` engine.
    #[cfg(feature = "cuda")]
    pub fn device(&self) -> Option<&crate::cuda::Device> {
        match &self.backend {
            Backend::Cuda(b) => Some(&b.device),
            _ => None,
        }
    }

    #[cfg(feature = "cuda")]
    fn cuda_device(&self) -> Result<&crate::cuda::Device, Error> {
        self.device().ok_or_else(|| Error::TargetUnavailable {
            target: self.target.clone(),
            reason: "device memory exists only on a Target::Cuda engine".into(),
        })
    }

    /// Copies a slice to a new 1-D device array on this engine's device.
    #[cfg(feature = "cuda")]
    pub fn to_device<T: crate::cuda::DeviceElement>(&self, data: &[T]) -> Result<crate::cuda::DeviceArray<T>, Error> {
        self.to_device_shaped(data, &[data.len()])
    }

    /// Copies a slice to a new device array of `shape` (C order, 1 to 3 dimensions).
    #[cfg(feature = "cuda")]
    pub fn to_device_shaped<T: crate::cuda::DeviceElement>(
        &self,
        data: &[T],
        shape: &[usize],
    ) -> Result<crate::cuda::DeviceArray<T>, Error> {
        crate::cuda::DeviceArray::from_slice(self.cuda_device()?, data, shape)
            .map_err(|e| crate::cuda::cuda_error(e, None))
    }

    /// Copies an `ndarray` (any strides) to a new C-ordered device array.
    #[cfg(all(feature = "cuda", feature = "ndarray"))]
    pub fn to_device_ndarray<T: crate::cuda::DeviceElement, D: ndarray::Dimension>(
        &self,
        a: ndarray::ArrayView<'_, T, D>,
    ) -> Result<crate::cuda::DeviceArray<T>, Error> {
        let shape = a.shape().to_vec();
        let data: Vec<T> = a.iter().copied().collect();
        self.to_device_shaped(&data, &shape)
    }

    /// Copies a device array back into a new `ndarray` of its shape.
    #[cfg(all(feature = "cuda", feature = "ndarray"))]
    pub fn to_host_ndarray<T: crate::cuda::DeviceElement>(
        &self,
        a: &crate::cuda::DeviceArray<T>,
    ) -> Result<ndarray::ArrayD<T>, Error> {
        let data = a.to_vec().map_err(|e| crate::cuda::cuda_error(e, None))?;
        ndarray::ArrayD::from_shape_vec(a.shape().to_vec(), data).map_err(|e| Error::Internal(e.to_string()))
    }

    /// A zero-filled device array of `shape`.
    #[cfg(feature = "cuda")]
    pub fn zeros<T: crate::cuda::DeviceElement>(&self, shape: &[usize]) -> Result<crate::cuda::DeviceArray<T>, Error> {
        crate::cuda::DeviceArray::zeros(self.cuda_device()?, shape).map_err(|e| crate::cuda::cuda_error(e, None))
    }

    /// Waits for every launch on the device, then reports a fault or the first error a kernel
    /// raised since the last synchronisation (bounds-checked kernels). A no-op on the host.
    pub fn synchronize(&self) -> Result<(), Error> {
        match &self.backend {
            #[cfg(feature = "cuda")]
            Backend::Cuda(b) => b.synchronize(),
            _ => Ok(()),
        }
    }

    /// The target.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Parses `source` (named `name` in messages) and compiles every signature written in a
    /// decorator.
    ///
    /// ```
    /// let engine = twinjit::Engine::new(twinjit::Target::Host).unwrap();
    /// let m = engine.load("k.py", "from numba import njit\n@njit\ndef sq(x):\n    return x * x\n").unwrap();
    /// let y: f64 = m.function("sq").unwrap().call((1.5f64,)).unwrap();
    /// assert_eq!(y, 2.25);
    /// ```
    ///
    /// With the disk cache in use for the module, a module loaded before (same text, same
    /// twinjit) is read from its cached outline: the front end runs only when a signature
    /// misses the cache.
    pub fn load(&self, name: &str, source: &str) -> Result<Module, Error> {
        let source = crate::disk_cache::load_source(name, source, &self.options.cache, &self.disk)?;
        let functions = source
            .outline()
            .functions
            .iter()
            .map(|f| Dispatcher {
                name: f.name.clone(),
                params: f.params.clone(),
                specs: Default::default(),
                #[cfg(feature = "cuda")]
                kernels: Default::default(),
            })
            .collect();
        let module = Module {
            inner: Arc::new(ModuleInner {
                source,
                options: self.options.clone(),
                disk: self.disk.clone(),
                functions,
                backend: self.backend.clone(),
                target: self.target.clone(),
            }),
        };
        for (i, f) in module.inner.source.outline().functions.iter().enumerate() {
            match (&self.backend, f.attrs.kind) {
                (Backend::Host, FunctionKind::Host) => {
                    for sig in &f.attrs.signatures {
                        module.function_at(i).compile_signature(sig)?;
                    }
                }
                #[cfg(feature = "cuda")]
                (Backend::Cuda(_), FunctionKind::Kernel) => {
                    for sig in &f.attrs.signatures {
                        module.kernel_at(i).compile_signature(sig)?;
                    }
                }
                _ => {}
            }
        }
        Ok(module)
    }

    /// Reads and loads a file.
    pub fn load_file(&self, path: impl AsRef<std::path::Path>) -> Result<Module, Error> {
        let path = path.as_ref();
        let bytes =
            std::fs::read(path).map_err(|e| Error::Unsupported(format!("cannot read `{}`: {e}", path.display())))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            Error::Unsupported(format!(
                "`{}` is not valid UTF-8 (at byte {}); Python source must be UTF-8",
                path.display(),
                e.utf8_error().valid_up_to()
            ))
        })?;
        self.load(&path.display().to_string(), &text)
    }
}

pub(crate) struct ModuleInner {
    pub(crate) source: LoadedSource,
    pub(crate) options: EngineOptions,
    pub(crate) disk: Arc<crate::disk_cache::DiskCache>,
    pub(crate) functions: Vec<Dispatcher>,
    pub(crate) backend: Backend,
    pub(crate) target: Target,
}

/// Compiled specialisations of one function, keyed by argument types.
pub(crate) struct Dispatcher {
    pub(crate) name: String,
    pub(crate) params: Vec<String>,
    specs: SpecTable<Specialization>,
    #[cfg(feature = "cuda")]
    pub(crate) kernels: SpecTable<crate::cuda::CompiledKernel>,
}

impl Dispatcher {
    /// The error for a call with `given` arguments, when that is not the parameter count.
    pub(crate) fn check_arity(&self, given: usize) -> Result<(), Error> {
        let n = self.params.len();
        if given == n {
            return Ok(());
        }
        Err(Error::Argument {
            function: self.name.clone(),
            param: None,
            message: format!(
                "takes {n} argument{} ({}) but {given} were given",
                if n == 1 { "" } else { "s" },
                self.params.join(", ")
            ),
        })
    }
}

/// A loaded module: cheap to clone, `Send + Sync`.
#[derive(Clone)]
pub struct Module {
    inner: Arc<ModuleInner>,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.inner.functions.iter().map(|d| d.name.as_str()).collect();
        f.debug_struct("Module").field("functions", &names).finish()
    }
}

impl Module {
    /// The function `name`, or [`Error::UnknownFunction`].
    pub fn function(&self, name: &str) -> Result<Function, Error> {
        match self.inner.functions.iter().position(|d| d.name == name) {
            Some(i) => Ok(self.function_at(i)),
            None => Err(Error::UnknownFunction {
                name: name.to_string(),
                available: self.inner.functions.iter().map(|d| d.name.clone()).collect(),
            }),
        }
    }

    fn function_at(&self, index: usize) -> Function {
        Function { module: self.inner.clone(), index }
    }

    /// The kernel `name` (a `@cuda.jit` function) of a `Target::Cuda` engine's module.
    #[cfg(feature = "cuda")]
    pub fn kernel(&self, name: &str) -> Result<crate::kernel::Kernel, Error> {
        let f = self.function(name)?;
        let kind = self.inner.source.outline().functions[f.index].attrs.kind;
        if kind != FunctionKind::Kernel {
            return Err(Error::Unsupported(format!(
                "`{name}` is a {}, not a kernel; only @cuda.jit functions (without device=True) are launched",
                kind.describe()
            )));
        }
        match &self.inner.backend {
            Backend::Cuda(_) => Ok(self.kernel_at(f.index)),
            _ => Err(Error::TargetUnavailable {
                target: self.inner.target.clone(),
                reason: format!("kernel `{name}` can only be launched by an engine for Target::Cuda"),
            }),
        }
    }

    #[cfg(feature = "cuda")]
    fn kernel_at(&self, index: usize) -> crate::kernel::Kernel {
        crate::kernel::Kernel { module: self.inner.clone(), index }
    }

    /// The PTX of `name` for `signature` (Numba spelling), for the engine's architecture
    /// (`Target::Ptx { arch }`, or the device's on `Target::Cuda`). Kernels get a `.entry` of
    /// their own name; other functions a one-thread `.entry` that calls them.
    #[cfg(feature = "cuda")]
    pub fn ptx(&self, name: &str, signature: &str) -> Result<crate::cuda::PtxModule, Error> {
        let (sig, options) = self.ptx_request(name, signature)?;
        if options.entry == crate::cuda::EntryKind::Kernel {
            self.check_kernel_signature(name, &sig)?;
        }
        crate::cuda::ptx_for(&self.inner, name, &sig, &options)
    }

    /// The LLVM IR twinjit hands to LLVM for `name` and `signature` (before optimisation).
    #[cfg(feature = "cuda")]
    pub fn llvm_ir(&self, name: &str, signature: &str) -> Result<String, Error> {
        let (sig, options) = self.ptx_request(name, signature)?;
        let program = self.inner.source.parsed_module()?.specialize(name, &sig, self.inner.options.boundscheck)?;
        twinjit_ptx::emit_llvm(&program, &options)
            .map(|t| t.text)
            .map_err(|e| crate::cuda::ptx_error(e, self.inner.source.sources(), name))
    }

    /// Kernels return nothing: a signature that says otherwise is refused before the cache.
    #[cfg(feature = "cuda")]
    fn check_kernel_signature(&self, name: &str, sig: &Signature) -> Result<(), Error> {
        match &sig.ret {
            None | Some(Type::None) => Ok(()),
            Some(t) => Err(Error::Argument {
                function: name.to_string(),
                param: None,
                message: format!("a kernel returns nothing, but the signature says {}", t.numba_name()),
            }),
        }
    }

    #[cfg(feature = "cuda")]
    fn ptx_request(&self, name: &str, signature: &str) -> Result<(Signature, crate::cuda::PtxOptions), Error> {
        let arch = match &self.inner.backend {
            Backend::Ptx(arch) => arch.clone(),
            Backend::Cuda(b) => b.arch.clone(),
            Backend::Host => {
                return Err(Error::TargetUnavailable {
                    target: self.inner.target.clone(),
                    reason: "PTX is generated by engines for Target::Ptx or Target::Cuda".into(),
                })
            }
        };
        let f = self.function(name)?;
        let sig = twinjit_ir::parse_signature(signature).map_err(|e| Error::Argument {
            function: name.to_string(),
            param: None,
            message: e.to_string(),
        })?;
        let kind = self.inner.source.outline().functions[f.index].attrs.kind;
        let entry =
            if kind == FunctionKind::Kernel { crate::cuda::EntryKind::Kernel } else { crate::cuda::EntryKind::Call };
        Ok((sig, self.inner.options.ptx_options(&arch, entry)))
    }

    /// The on-disk cache's key for `name` compiled for `signature` on this engine's target.
    pub fn cache_key(&self, name: &str, signature: &str) -> Result<crate::cache::CacheKey, Error> {
        let f = self.function(name)?;
        match &self.inner.backend {
            Backend::Host => {
                let sig = twinjit_ir::parse_signature(signature).map_err(|e| Error::Argument {
                    function: name.to_string(),
                    param: None,
                    message: e.to_string(),
                })?;
                Ok(crate::disk_cache::key(&self.inner.source, name, &sig, &f.target_key(), &f.option_key()))
            }
            #[cfg(feature = "cuda")]
            _ => {
                let (sig, options) = self.ptx_request(name, signature)?;
                Ok(crate::cuda::ptx_cache_key(&self.inner, name, &sig, &options))
            }
        }
    }

    /// Why `name` for `signature` would hit or miss the on-disk cache (which part of the key
    /// changed since a cached entry for the same function and signature was written).
    pub fn cache_explain(&self, name: &str, signature: &str) -> Result<crate::cache::Explanation, Error> {
        let key = self.cache_key(name, signature)?;
        let dir = self
            .inner
            .disk
            .dir()
            .ok_or_else(|| Error::Unsupported("no cache directory (set TWINJIT_CACHE_DIR)".into()))?;
        let cache = crate::cache::Cache::open(&dir, Default::default())
            .map_err(|e| Error::Unsupported(format!("cannot open the cache: {e}")))?;
        Ok(cache.explain(&key))
    }

    /// The parsed source (untyped IR, diagnostics' source map). A module loaded from a cached
    /// outline runs the front end now, the first time this is asked for.
    pub fn source(&self) -> Result<&SourceModule, Error> {
        self.inner.source.parsed_module()
    }

    /// Whether the front end has run on this module: always after a load that parsed it;
    /// after a load from a cached outline, only once a signature missed the cache or
    /// [`Module::source`] was asked for.
    pub fn is_parsed(&self) -> bool {
        self.inner.source.is_parsed()
    }

    /// Names of the compiled functions.
    pub fn function_names(&self) -> Vec<String> {
        self.inner.functions.iter().map(|d| d.name.clone()).collect()
    }
}

/// A function of a module: the dispatcher. Cheap to clone, `Send + Sync`.
#[derive(Clone)]
pub struct Function {
    module: Arc<ModuleInner>,
    index: usize,
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Function({})", self.dispatcher().name)
    }
}

impl Function {
    fn dispatcher(&self) -> &Dispatcher {
        &self.module.functions[self.index]
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.dispatcher().name
    }

    /// The names of its parameters.
    pub fn params(&self) -> &[String] {
        &self.dispatcher().params
    }

    /// Calls the function, compiling it for these argument types on first use.
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
    /// ```
    pub fn call<'a, R: FromValue>(&self, args: impl IntoArgs<'a>) -> Result<R, Error> {
        let args = args.into_args();
        let args = args.as_ref();
        // Fast path: an existing specialisation whose types match the arguments exactly, found
        // without building a signature; the lock is released before the call, so a long call
        // never blocks another signature's compilation.
        let found = self.dispatcher().specs.find(|t| t.len() == args.len() && t.iter().zip(args).all(|(t, a)| a.is(t)));
        if let Some(Ok(spec)) = found {
            return spec.call(args);
        }
        let spec = self.specialization(args)?;
        spec.call(args)
    }

    /// The specialisation for these arguments' types (compiled if needed): a typed handle
    /// whose calls skip the dispatcher's lookup.
    pub fn specialize<'a>(&self, args: impl IntoArgs<'a>) -> Result<Arc<Specialization>, Error> {
        self.specialization(args.into_args().as_ref())
    }

    /// Compiles for a signature in Numba's spelling (`"(float64[:], int64)"`).
    pub fn compile(&self, signature: &str) -> Result<Arc<Specialization>, Error> {
        let sig = twinjit_ir::parse_signature(signature).map_err(|e| Error::Argument {
            function: self.name().to_string(),
            param: None,
            message: e.to_string(),
        })?;
        self.compile_signature(&sig)
    }

    fn compile_signature(&self, sig: &Signature) -> Result<Arc<Specialization>, Error> {
        let types: SmallVec<[Type; 4]> = sig.args.iter().cloned().collect();
        self.lookup_or_compile(types, sig.ret.clone())
    }

    fn specialization(&self, args: &[ArgValue]) -> Result<Arc<Specialization>, Error> {
        let d = self.dispatcher();
        d.check_arity(args.len())?;
        let mut types: SmallVec<[Type; 4]> = SmallVec::new();
        for (k, a) in args.iter().enumerate() {
            match a {
                ArgValue::Invalid(why) => {
                    return Err(Error::Argument {
                        function: d.name.clone(),
                        param: Some(d.params[k].clone()),
                        message: why.to_string(),
                    })
                }
                a => types.push(a.ty().expect("valid")),
            }
        }
        self.lookup_or_compile(types, None)
    }

    fn lookup_or_compile(&self, types: SmallVec<[Type; 4]>, ret: Option<Type>) -> Result<Arc<Specialization>, Error> {
        self.dispatcher().specs.get_or_build(types, |t| self.build(t, ret))
    }

    fn build(&self, types: &[Type], ret: Option<Type>) -> Result<Arc<Specialization>, Error> {
        let d = self.dispatcher();
        let m = &self.module;
        if !matches!(m.backend, Backend::Host) {
            return Err(Error::TargetUnavailable {
                target: m.target.clone(),
                reason: format!(
                    "`{}` would run on the host, but this engine targets {}; launch kernels with \
                     Module::kernel, or call host functions through an Engine for Target::Host",
                    d.name, m.target
                ),
            });
        }
        let sig = Signature { args: types.to_vec(), ret };
        let started = std::time::Instant::now();
        let cache_key = crate::disk_cache::wanted(&m.options.cache, &m.source, &d.name)
            .then(|| crate::disk_cache::key(&m.source, &d.name, &sig, &self.target_key(), &self.option_key()));
        if let Some(key) = &cache_key {
            if let Some(spec) = m.disk.get(key).and_then(|bytes| self.load_cached(&bytes, started)) {
                return Ok(Arc::new(spec));
            }
        }
        let program = m.source.parsed_module()?.specialize(&d.name, &sig, m.options.boundscheck)?;
        let entry = program.entry();
        if contains_array(&entry.func.ret) {
            return Err(Error::Unsupported(format!(
                "`{}` returns an array; returning arrays is not supported (write into an array argument instead)",
                d.name
            )));
        }
        let written = twinjit_ir::written_params::written_params(&program);
        let compiled = if cache_key.is_some() {
            twinjit_host::compile_with_artifact(&program, &HostOptions::default())
        } else {
            twinjit_host::compile(&program, &HostOptions::default())
        }
        .map_err(|e| host_error(e, m.source.sources()))?;
        let site_refs: Vec<Site> = compiled
            .sites
            .iter()
            .map(|s| Site { function: s.function.clone(), at: m.source.relative_span(s.span) })
            .collect();
        let sites = compiled.sites.iter().map(|s| (s.function.clone(), Some(s.span))).collect();
        let spec = Specialization {
            name: d.name.clone(),
            params: d.params.clone(),
            args: types.to_vec(),
            ret: entry.func.ret.clone(),
            written,
            sites,
            compiled,
            compile_time: started.elapsed(),
            sources: self.module.source.sources().clone(),
        };
        if let (Some(key), Some(bytes)) = (&cache_key, spec.to_cache(&site_refs)) {
            m.disk.put(key, &bytes);
        }
        Ok(Arc::new(spec))
    }

    /// `host` plus the CPU triple and features the code was generated for.
    fn target_key(&self) -> String {
        ["host ", &twinjit_host::host_description()].concat()
    }

    fn option_key(&self) -> Vec<String> {
        let m = &self.module;
        let f = m.source.outline().function(self.name());
        let bc = m.options.boundscheck.or_else(|| f.and_then(|f| f.attrs.boundscheck)).unwrap_or(true);
        vec![format!("boundscheck={bc}"), format!("fastmath={}", f.is_some_and(|f| f.attrs.fastmath))]
    }

    /// A specialisation from a cache entry's payload, without inference or Cranelift; `None`
    /// if the payload does not load here (the caller compiles instead).
    fn load_cached(&self, bytes: &[u8], started: std::time::Instant) -> Option<Specialization> {
        use crate::disk_cache::Reader;
        let d = self.dispatcher();
        let mut r = Reader(bytes);
        let args = crate::disk_cache::decode_types(&mut r)?;
        let ret = crate::disk_cache::decode_types(&mut r)?.pop()?;
        let written: Vec<bool> = r.bytes()?.iter().map(|&b| b != 0).collect();
        let nsites = r.u64()?;
        let mut sites = Vec::new();
        for _ in 0..nsites {
            let site = Site::decode(&mut r)?;
            sites.push((site.function.clone(), site.span(&self.module.source)));
        }
        let code = r.bytes()?;
        if args.len() != d.params.len() || written.len() != args.len() {
            return None;
        }
        let compiled = match twinjit_host::load(code) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("twinjit: warning: cache entry for `{}` does not load ({e}); compiling", d.name);
                return None;
            }
        };
        Some(Specialization {
            name: d.name.clone(),
            params: d.params.clone(),
            args,
            ret,
            written,
            sites,
            compiled,
            compile_time: started.elapsed(),
            sources: self.module.source.sources().clone(),
        })
    }
}

fn contains_array(t: &Type) -> bool {
    match t {
        Type::Array(_) => true,
        Type::Tuple(ts) => ts.iter().any(contains_array),
        _ => false,
    }
}

pub(crate) fn host_error(e: twinjit_host::HostError, sources: &twinjit_diag::SourceMap) -> Error {
    match e {
        twinjit_host::HostError::Unsupported(u) => crate::error::unsupported(u, "host", sources),
        twinjit_host::HostError::Isa(m) => Error::TargetUnavailable { target: Target::Host, reason: m },
        twinjit_host::HostError::Internal(m) => Error::Internal(m),
    }
}

/// `(function name, text)` per compiled function.
pub type Listing = Vec<(String, String)>;

/// One compiled specialisation: a typed handle. Calling it checks only that the arguments
/// have its exact types, then jumps to machine code.
pub struct Specialization {
    name: String,
    params: Vec<String>,
    args: Vec<Type>,
    ret: Type,
    written: Vec<bool>,
    /// Per raise site: the function raising and where (rendered when an error is raised).
    sites: Vec<(String, Option<twinjit_diag::Span>)>,
    sources: Arc<twinjit_diag::SourceMap>,
    compiled: CompiledProgram,
    compile_time: std::time::Duration,
}

impl std::fmt::Debug for Specialization {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Specialization({}{})", self.name, self.signature())
    }
}

impl Specialization {
    /// The signature in Numba's spelling.
    pub fn signature(&self) -> Signature {
        Signature { args: self.args.clone(), ret: Some(self.ret.clone()) }
    }

    /// Time the compilation took (front end excluded: the module was parsed at load).
    pub fn compile_time(&self) -> std::time::Duration {
        self.compile_time
    }

    /// The cache payload: argument and return types, written parameters, raise sites, then
    /// the host backend's serialized machine code.
    fn to_cache(&self, sites: &[Site]) -> Option<Vec<u8>> {
        let code = self.compiled.to_bytes()?;
        let mut w = crate::disk_cache::Writer::default();
        crate::disk_cache::encode_types(&mut w, &self.args);
        crate::disk_cache::encode_types(&mut w, std::slice::from_ref(&self.ret));
        w.bytes(&self.written.iter().map(|&b| b as u8).collect::<Vec<u8>>());
        w.u64(sites.len() as u64);
        for site in sites {
            site.encode(&mut w);
        }
        w.bytes(&code);
        Some(w.0)
    }

    /// Calls with arguments of exactly this specialisation's types.
    #[inline]
    pub fn call<'a, R: FromValue>(&self, args: &[ArgValue<'a>]) -> Result<R, Error> {
        let mut ret = [0u64; 8];
        let r = if self.compiled.ret_slots <= ret.len() {
            self.invoke(args, &mut ret).map(|()| R::from_slots(&self.ret, &ret))
        } else {
            let mut big = vec![0u64; self.compiled.ret_slots];
            self.invoke(args, &mut big).map(|()| R::from_slots(&self.ret, &big))
        };
        r?.ok_or_else(|| Error::Argument {
            function: self.name.clone(),
            param: None,
            message: format!("returns {}, which does not convert to {}", self.ret.numba_name(), R::describe()),
        })
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
        // Every argument takes at most 7 slots (a 3-D array).
        let mut small = [0u64; 8 * 7];
        let mut big = Vec::new();
        let slots: &mut [u64] = if args.len() <= 8 {
            &mut small
        } else {
            big.resize(args.len() * 7, 0);
            &mut big
        };
        let mut used = 0;
        for (k, a) in args.iter().enumerate() {
            let ok = match (a, &self.args[k]) {
                (ArgValue::Bool(_), Type::Scalar(twinjit_ir::Scalar::Bool))
                | (ArgValue::I32(_), Type::Scalar(twinjit_ir::Scalar::Int32))
                | (ArgValue::I64(_), Type::Scalar(twinjit_ir::Scalar::Int64))
                | (ArgValue::F32(_), Type::Scalar(twinjit_ir::Scalar::Float32))
                | (ArgValue::F64(_), Type::Scalar(twinjit_ir::Scalar::Float64)) => true,
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
                return Err(Error::Argument {
                    function: self.name.clone(),
                    param: Some(self.params[k].clone()),
                    message: format!(
                        "expected {}, got {}",
                        self.args[k].numba_name(),
                        a.ty().map(|t| t.numba_name()).unwrap_or_else(|| "an invalid array".into())
                    ),
                });
            }
            used = a.write_slots(slots, used);
        }
        // SAFETY: the slots were built from arguments whose types match the compiled
        // signature (checked above), so the entry reads exactly the parts it expects; array
        // pointers come from live borrows held by `args` for the duration of the call; `ret`
        // has at least `ret_slots` slots (the caller sizes it); and with bounds checking on
        // every access is checked against the shapes passed.
        let r = unsafe { self.compiled.call(&slots[..used], ret) };
        r.map_err(|info| self.runtime_error(info))
    }

    fn runtime_error(&self, info: ErrorRecord) -> Error {
        let (function, span) = self.sites.get(info.site as usize).cloned().unwrap_or((self.name.clone(), None));
        let location = span.and_then(|s| self.sources.location(s)).map(|(f, lc)| format!("{f}:{}:{}", lc.line, lc.col));
        let (kind, what) = crate::error::raised(info.kind, info.index, info.len, info.axis);
        let message = match &location {
            Some(l) => format!("{what} in `{function}` at {l}"),
            None => format!("{what} in `{function}`"),
        };
        Error::Runtime { kind, function, location, message }
    }

    /// Cranelift IR and machine code listings, by compiling this signature again with
    /// listings enabled (for `twinjit clif` / `twinjit asm`).
    pub fn listings(module: &Module, name: &str, sig: &Signature) -> Result<(Listing, Listing), Error> {
        let m = &module.inner;
        let program = m.source.parsed_module()?.specialize(name, sig, m.options.boundscheck)?;
        let c = twinjit_host::compile(&program, &HostOptions { keep_clif: true, keep_asm: true })
            .map_err(|e| host_error(e, m.source.sources()))?;
        Ok((c.clif.clone(), c.asm.clone()))
    }
}
