//! The engine and its modules: an [`Engine`] is created for one [`Target`] and loads
//! [`Module`]s; a module holds one dispatcher per function for the engine's target (host
//! functions in `crate::host`, kernels in `crate::cuda`). Signatures written in a decorator
//! compile when the module is loaded.

use crate::dispatcher::{parse_signature, Dispatcher};
use crate::error::Error;
use crate::host::{Function, Specialization};
use crate::source::{LoadedSource, SourceModule};
use crate::Target;
use std::sync::Arc;
use twinjit_ir::FunctionKind;
#[cfg(feature = "cuda")]
use twinjit_ir::{Signature, Type};

use crate::options::EngineOptions;

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
            #[cfg(feature = "cuda")]
            Target::CudaSim => Backend::Cuda(Arc::new(crate::cuda::CudaBackend::simulated())),
            #[cfg(not(feature = "cuda"))]
            Target::Cuda { .. } | Target::Ptx { .. } | Target::CudaSim => {
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

    /// Copies a slice to a new device array of `shape` (C order, 1 to 8 dimensions).
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

    /// `numba.cuda.random.create_xoroshiro128p_states(n, seed, subsequence_start)`: the states of
    /// `n` generators for kernels that draw with `xoroshiro128p_uniform_float32(states, i)` and
    /// its float64 and normal forms, the very states numba-cuda makes (computed on the host, as
    /// numba-cuda does, then copied). A `(n, 2)` uint64 array: numba-cuda's `(s0, s1)` records,
    /// byte for byte. Host functions draw from [`crate::xoroshiro128p_states`] in an ordinary
    /// array.
    #[cfg(feature = "cuda")]
    pub fn create_xoroshiro128p_states(
        &self,
        n: usize,
        seed: u64,
        subsequence_start: u64,
    ) -> Result<crate::cuda::DeviceArray<u64>, Error> {
        self.to_device_shaped(&crate::xoroshiro128p_states(n, seed, subsequence_start), &[n, 2])
    }

    /// A new stream on this engine's device. `non_blocking: false` gives a stream ordered with
    /// the default stream (which the synchronous copies use); `true` a stream that runs
    /// concurrently with it (numba-cuda's `cuda.stream()`), for launches
    /// ([`crate::cuda::Kernel::launch_on`]) and the asynchronous copies of pinned buffers.
    #[cfg(feature = "cuda")]
    pub fn stream(&self, non_blocking: bool) -> Result<crate::cuda::Stream, Error> {
        let device = self.cuda_device()?;
        let s = if non_blocking { device.new_non_blocking_stream() } else { device.new_stream() };
        s.map_err(|e| crate::cuda::cuda_error(e, None))
    }

    /// `len` zeros in page-locked host memory (numba-cuda's `cuda.pinned_array`), the source
    /// and destination of asynchronous copies
    /// ([`crate::cuda::PinnedBuffer::copy_to_device_async`]).
    #[cfg(feature = "cuda")]
    pub fn pinned_zeros<T: crate::cuda::DeviceElement>(
        &self,
        len: usize,
    ) -> Result<crate::cuda::PinnedBuffer<T>, Error> {
        crate::cuda::PinnedBuffer::zeros(self.cuda_device()?, len).map_err(|e| crate::cuda::cuda_error(e, None))
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
        let front = crate::source::LowerOptions { plain_as_njit: self.options.compile_plain_functions };
        let source = crate::disk_cache::load_source(name, source, &self.options.cache, &self.disk, front)?;
        let outline = source.outline();
        fn each<C>(outline: &crate::outline::Outline) -> Vec<Dispatcher<C>> {
            outline
                .functions
                .iter()
                .map(|f| Dispatcher::new(f.name.clone(), f.params.clone(), f.defaults.clone()))
                .collect()
        }
        let dispatchers = match &self.backend {
            Backend::Host => Dispatchers::Host(each(outline)),
            #[cfg(feature = "cuda")]
            Backend::Cuda(_) => Dispatchers::Cuda(each(outline)),
            #[cfg(feature = "cuda")]
            Backend::Ptx(_) => Dispatchers::None,
        };
        let module = Module {
            inner: Arc::new(ModuleInner {
                source,
                options: self.options.clone(),
                disk: self.disk.clone(),
                dispatchers,
                backend: self.backend.clone(),
                target: self.target.clone(),
                #[cfg(feature = "cuda")]
                ufunc_results: Default::default(),
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
    pub(crate) dispatchers: Dispatchers,
    pub(crate) backend: Backend,
    /// Named in errors about using a module on the wrong target (only CUDA builds have one).
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    pub(crate) target: Target,
    /// CUDA ufuncs' result dtypes by (function, input types), so a call infers them once.
    #[cfg(feature = "cuda")]
    pub(crate) ufunc_results:
        std::sync::Mutex<std::collections::HashMap<(usize, Vec<twinjit_ir::Type>), twinjit_ir::Scalar>>,
}

/// A module's dispatchers, one per function (in the outline's order), for the engine's target
/// only: a host engine keeps host specialisations, a CUDA engine kernels.
pub(crate) enum Dispatchers {
    Host(Vec<Dispatcher<Specialization>>),
    #[cfg(feature = "cuda")]
    Cuda(Vec<Dispatcher<crate::cuda::KernelVariants>>),
    /// A PTX engine keeps nothing compiled.
    #[cfg(feature = "cuda")]
    None,
}

/// A loaded module: cheap to clone, `Send + Sync`.
#[derive(Clone)]
pub struct Module {
    inner: Arc<ModuleInner>,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.inner.source.outline().functions.iter().map(|f| f.name.as_str()).collect();
        f.debug_struct("Module").field("functions", &names).finish()
    }
}

impl Module {
    /// The function `name`, or [`Error::UnknownFunction`].
    pub fn function(&self, name: &str) -> Result<Function, Error> {
        match self.inner.source.outline().functions.iter().position(|f| f.name == name) {
            Some(i) => Ok(self.function_at(i)),
            None => Err(match self.refusal(name) {
                Some(error) => error,
                None => Error::UnknownFunction { name: name.to_string(), available: self.function_names() },
            }),
        }
    }

    /// The functions the front end refused while it accepted the rest of the module
    /// (`@jit(target_backend='cuda')`, which Numba never compiled for a GPU, and functions whose
    /// body does not compile: Numba too fails only when one is called), each as the located
    /// compile error that asking for it returns.
    pub fn refused(&self) -> Vec<(String, Error)> {
        self.refusals(false)
    }

    /// [`Module::refused`]; with `all`, also the functions used only through copies specialised
    /// for their calls' compile-time arguments, or compiled only when called with constants (not
    /// errors of the module, but asking for one gives why it does not compile on its own).
    fn refusals(&self, all: bool) -> Vec<(String, Error)> {
        // A module loaded from a cached outline has none: modules with refusals keep no outline.
        if !self.inner.source.is_parsed() {
            return Vec::new();
        }
        let Ok(parsed) = self.inner.source.parsed_module() else { return Vec::new() };
        parsed
            .module()
            .refused
            .iter()
            .filter(|r| all || r.is_error())
            .map(|r| (r.name.clone(), crate::source::compile_error(r.diagnostics.clone(), parsed.sources())))
            .collect()
    }

    fn refusal(&self, name: &str) -> Option<Error> {
        self.refusals(true).into_iter().find(|(n, _)| n == name).map(|(_, e)| e)
    }

    pub(crate) fn inner(&self) -> &ModuleInner {
        &self.inner
    }

    fn function_at(&self, index: usize) -> Function {
        Function { module: self.inner.clone(), index }
    }

    /// The kernel `name` (a `@cuda.jit` function) of a `Target::Cuda` engine's module.
    #[cfg(feature = "cuda")]
    pub fn kernel(&self, name: &str) -> Result<crate::cuda::Kernel, Error> {
        let f = self.function(name)?;
        let kind = self.inner.source.outline().functions[f.index].attrs.kind;
        if kind != FunctionKind::Kernel {
            return Err(Error::Unsupported(format!(
                "`{name}` is a {}, not a kernel; only @cuda.jit functions (without device=True) that return nothing are launched{}",
                kind.describe(),
                if kind == FunctionKind::Device { " (numba-cuda compiles a @cuda.jit function that returns a value as a device function)" } else { "" }
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
    fn kernel_at(&self, index: usize) -> crate::cuda::Kernel {
        crate::cuda::Kernel { module: self.inner.clone(), index }
    }

    /// The PTX of `name` for `signature` (Numba spelling), for the engine's architecture
    /// (`Target::Ptx { arch }`, or the device's on `Target::Cuda`). Kernels get a `.entry` of
    /// their own name; other functions a one-thread `.entry` that calls them.
    /// This is the general kernel, which runs for any arguments; [`Module::ptx_for_launch`] gives
    /// the one a launch with given facts runs.
    #[cfg(feature = "cuda")]
    pub fn ptx(&self, name: &str, signature: &str) -> Result<crate::cuda::PtxModule, Error> {
        self.ptx_for_launch(name, signature, crate::cuda::LaunchFacts::default())
    }

    /// [`Module::ptx`] specialised on launch facts (`noalias` arrays, 32-bit indices; see
    /// [`crate::cuda::LaunchFacts`]): the PTX of the kernel a launch with those facts runs.
    /// Facts apply to kernels only: a function's one-thread entry ignores them.
    #[cfg(feature = "cuda")]
    pub fn ptx_for_launch(
        &self,
        name: &str,
        signature: &str,
        facts: crate::cuda::LaunchFacts,
    ) -> Result<crate::cuda::PtxModule, Error> {
        let (sig, options) = self.ptx_request(name, signature, facts)?;
        if options.entry == crate::cuda::EntryKind::Kernel {
            self.check_kernel_signature(name, &sig)?;
        }
        crate::cuda::cache::ptx_for(&self.inner, name, &sig, &options)
    }

    /// The LLVM IR twinjit hands to LLVM for `name` and `signature` (before optimisation), for
    /// a launch with `facts` (`LaunchFacts::default()`: the general kernel).
    #[cfg(feature = "cuda")]
    pub fn llvm_ir(&self, name: &str, signature: &str) -> Result<String, Error> {
        self.llvm_ir_for_launch(name, signature, crate::cuda::LaunchFacts::default())
    }

    /// [`Module::llvm_ir`] for a launch with `facts`.
    #[cfg(feature = "cuda")]
    pub fn llvm_ir_for_launch(
        &self,
        name: &str,
        signature: &str,
        facts: crate::cuda::LaunchFacts,
    ) -> Result<String, Error> {
        let (sig, options) = self.ptx_request(name, signature, facts)?;
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
    fn ptx_request(
        &self,
        name: &str,
        signature: &str,
        facts: crate::cuda::LaunchFacts,
    ) -> Result<(Signature, crate::cuda::PtxOptions), Error> {
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
        let sig = parse_signature(name, signature)?;
        let kind = self.inner.source.outline().functions[f.index].attrs.kind;
        let entry =
            if kind == FunctionKind::Kernel { crate::cuda::EntryKind::Kernel } else { crate::cuda::EntryKind::Call };
        let attrs = &self.inner.source.outline().functions[f.index].attrs;
        let mut options = self.inner.options.ptx_options(&arch, entry, Some(attrs));
        if entry == crate::cuda::EntryKind::Kernel {
            options.facts = facts;
        }
        Ok((sig, options))
    }

    /// The on-disk cache's key for `name` compiled for `signature` on this engine's target.
    pub fn cache_key(&self, name: &str, signature: &str) -> Result<crate::cache::CacheKey, Error> {
        let f = self.function(name)?;
        match &self.inner.backend {
            Backend::Host => {
                let sig = parse_signature(name, signature)?;
                Ok(crate::host::cache_key(&f, &sig))
            }
            #[cfg(feature = "cuda")]
            _ => {
                let (sig, options) = self.ptx_request(name, signature, crate::cuda::LaunchFacts::default())?;
                Ok(crate::cuda::cache::ptx_cache_key(&self.inner, name, &sig, &options))
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
        self.inner.source.outline().functions.iter().map(|f| f.name.clone()).collect()
    }
}
