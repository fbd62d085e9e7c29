//! The kernel dispatcher (feature `cuda`): like [`crate::Function`] for host functions, a
//! [`Kernel`] compiles once per argument-type signature (lazily on the first launch, eagerly for
//! signatures written in `@cuda.jit("void(...)")`), and concurrent first launches compile once.

use super::{CompiledKernel, IntoKernelArgs, KernelArg, LaunchConfig, Stream};
use crate::dispatcher::{parse_signature, Dispatcher};
use crate::engine::{Backend, Dispatchers, ModuleInner};
use crate::error::Error;
use std::sync::Arc;
use twinjit_ir::Signature;

/// A `@cuda.jit` kernel of a module loaded by a `Target::Cuda` engine. Cheap to clone.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) module: Arc<ModuleInner>,
    pub(crate) index: usize,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kernel({})", self.name())
    }
}

impl Kernel {
    fn dispatcher(&self) -> Result<&Dispatcher<CompiledKernel>, Error> {
        match &self.module.dispatchers {
            Dispatchers::Cuda(d) => Ok(&d[self.index]),
            _ => Err(Error::TargetUnavailable {
                target: self.module.target.clone(),
                reason: "kernels launch only on a Target::Cuda engine".into(),
            }),
        }
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.module.source.outline().functions[self.index].name
    }

    /// The names of its parameters.
    pub fn params(&self) -> &[String] {
        &self.module.source.outline().functions[self.index].params
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
        self.compile_signature(&parse_signature(self.name(), signature)?)
    }

    pub(crate) fn compile_signature(&self, sig: &Signature) -> Result<Arc<CompiledKernel>, Error> {
        self.dispatcher()?.for_signature(sig, |sig| self.build(sig))
    }

    fn specialization(&self, args: &[KernelArg<'_>]) -> Result<Arc<CompiledKernel>, Error> {
        let d = self.dispatcher()?;
        d.get_or_build(d.arg_types(args)?, None, |sig| self.build(sig))
    }

    fn build(&self, sig: &Signature) -> Result<CompiledKernel, Error> {
        let backend = self.backend()?;
        let m = &self.module;
        let started = std::time::Instant::now();
        let attrs = &m.source.outline().functions[self.index].attrs;
        let options = m.options.ptx_options(&backend.arch, super::EntryKind::Kernel, Some(attrs));
        let loaded = super::cache::loaded_for(m, backend, self.name(), sig, &options)?;
        CompiledKernel::build(
            backend,
            m.source.sources(),
            self.name().to_string(),
            sig.args.clone(),
            loaded,
            self.params().to_vec(),
            started,
        )
    }
}
