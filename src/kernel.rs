//! The kernel dispatcher (feature `cuda`): like [`crate::Function`] for host functions, a
//! [`Kernel`] compiles once per argument-type signature (lazily on the first launch, eagerly for
//! signatures written in `@cuda.jit("void(...)")`), and concurrent first launches compile once.

use crate::cuda::{CompiledKernel, IntoKernelArgs, KernelArg, LaunchConfig, Stream};
use crate::engine::{Backend, Dispatcher, ModuleInner};
use crate::error::Error;
use smallvec::SmallVec;
use std::sync::Arc;
use twinjit_ir::{Signature, Type};

/// A `@cuda.jit` kernel of a module loaded by a `Target::Cuda` engine. Cheap to clone.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) module: Arc<ModuleInner>,
    pub(crate) index: usize,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kernel({})", self.dispatcher().name)
    }
}

impl Kernel {
    fn dispatcher(&self) -> &Dispatcher {
        &self.module.functions[self.index]
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.dispatcher().name
    }

    /// The names of its parameters.
    pub fn params(&self) -> &[String] {
        &self.dispatcher().params
    }

    fn backend(&self) -> Result<&crate::cuda::CudaBackend, Error> {
        match &self.module.backend {
            Backend::Cuda(b) => Ok(b),
            _ => Err(Error::TargetUnavailable {
                target: self.module.target.clone(),
                reason: "kernels launch only on a Target::Cuda engine".into(),
            }),
        }
    }

    /// Launches on the device's default stream (asynchronous: call
    /// [`crate::Engine::synchronize`] to wait and to collect errors), compiling for these
    /// argument types on first use.
    pub fn launch<'a>(&self, cfg: LaunchConfig, args: impl IntoKernelArgs<'a>) -> Result<(), Error> {
        let backend = self.backend()?;
        self.launch_on(&backend.device.default_stream(), cfg, args)
    }

    /// Launches on `stream`.
    pub fn launch_on<'a>(
        &self,
        stream: &Stream,
        cfg: LaunchConfig,
        args: impl IntoKernelArgs<'a>,
    ) -> Result<(), Error> {
        let args = args.into_kernel_args();
        let k = self.specialization(&args)?;
        // Found by exactly these arguments' types: no second check.
        k.enqueue(stream, &cfg, &args)?;
        if let Backend::Cuda(b) = &self.module.backend {
            b.note_launch(&k);
        }
        Ok(())
    }

    /// The compiled kernel for these arguments' types (compiled and loaded if needed).
    pub fn specialize<'a>(&self, args: impl IntoKernelArgs<'a>) -> Result<Arc<CompiledKernel>, Error> {
        self.specialization(&args.into_kernel_args())
    }

    /// Compiles for a signature in Numba's spelling (`"void(float32[:], int64)"`).
    pub fn compile(&self, signature: &str) -> Result<Arc<CompiledKernel>, Error> {
        let sig = twinjit_ir::parse_signature(signature).map_err(|e| Error::Argument {
            function: self.name().to_string(),
            param: None,
            message: e.to_string(),
        })?;
        self.compile_signature(&sig)
    }

    pub(crate) fn compile_signature(&self, sig: &Signature) -> Result<Arc<CompiledKernel>, Error> {
        self.lookup_or_compile(sig.args.iter().cloned().collect(), sig.ret.clone())
    }

    fn specialization(&self, args: &[KernelArg<'_>]) -> Result<Arc<CompiledKernel>, Error> {
        let d = self.dispatcher();
        d.check_arity(args.len())?;
        let mut types: SmallVec<[Type; 4]> = SmallVec::new();
        for (k, a) in args.iter().enumerate() {
            match a {
                KernelArg::Host { dtype } => return Err(crate::cuda::host_array_error(&d.name, &d.params[k], dtype)),
                KernelArg::Scalar(crate::ArgValue::Invalid(why)) => {
                    return Err(Error::Argument {
                        function: d.name.clone(),
                        param: Some(d.params[k].clone()),
                        message: why.to_string(),
                    })
                }
                KernelArg::Scalar(s) => types.extend(s.ty()),
                KernelArg::Device { dtype, ndim, .. } => types.push(Type::Array(twinjit_ir::ArrayType {
                    dtype: *dtype,
                    ndim: *ndim,
                    layout: twinjit_ir::Layout::C,
                })),
            }
        }
        self.lookup_or_compile(types, None)
    }

    fn lookup_or_compile(&self, types: SmallVec<[Type; 4]>, ret: Option<Type>) -> Result<Arc<CompiledKernel>, Error> {
        self.dispatcher().kernels.get_or_build(types, |t| self.build(t, ret))
    }

    fn build(&self, types: &[Type], ret: Option<Type>) -> Result<Arc<CompiledKernel>, Error> {
        let backend = self.backend()?;
        let d = self.dispatcher();
        let m = &self.module;
        let started = std::time::Instant::now();
        let sig = Signature { args: types.to_vec(), ret };
        let options = m.options.ptx_options(&backend.arch, crate::cuda::EntryKind::Kernel);
        let loaded = crate::cuda::loaded_for(m, backend, &d.name, &sig, &options)?;
        CompiledKernel::build(
            backend,
            m.source.sources(),
            d.name.clone(),
            types.to_vec(),
            loaded,
            d.params.clone(),
            started,
        )
        .map(Arc::new)
    }
}
