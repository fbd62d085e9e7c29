//! The CUDA target in the facade (feature `cuda`): kernels specialised per argument types,
//! compiled to PTX by `twinjit-ptx`, loaded and launched on the engine's device by
//! `twinjit-cuda`. [`Kernel`] is the dispatcher handle (`kernel.rs`), [`CompiledKernel`] the
//! loaded code with its error record (`compiled.rs`), [`KernelArg`] the marshalling
//! (`args.rs`), `cache.rs` the PTX and cubin entries of the disk cache.
//!
//! Launches are asynchronous, as in numba-cuda. [`crate::Engine::synchronize`] waits for the
//! device and reports what went wrong since the last synchronisation: a fault
//! (`CUDA_ERROR_ILLEGAL_ADDRESS`) or an error a kernel raised (an `IndexError` with bounds
//! checking on), naming the kernel, the source line and the first failing thread.

mod args;
pub(crate) mod cache;
mod compiled;
mod gufunc;
mod kernel;
mod ufunc;

pub use args::{IntoKernelArg, IntoKernelArgs, KernelArg};
pub use compiled::{CompiledKernel, KernelOrigin};
pub use kernel::Kernel;
pub(crate) use kernel::KernelVariants;

use crate::error::Error;
use std::sync::{Arc, Mutex};

/// DLPack: `DeviceArray::into_dlpack` / `DeviceArray::from_dlpack` exchange device arrays with
/// other libraries (PyTorch, CuPy, JAX) without a copy.
pub use twinjit_cuda::dlpack;
pub use twinjit_cuda::{
    device_count, driver_available, driver_version, CudaError, Device, DeviceArray, DeviceElement, DeviceProperties,
    ElementType, Event, LaunchConfig, PinnedBuffer, Stream,
};
pub use twinjit_ptx::{EntryKind, LaunchFacts, PtxModule, PtxOptions};

/// The CUDA side of an engine: its device, the PTX architecture and the kernels launched since
/// the last synchronisation that can report errors.
pub(crate) struct CudaBackend {
    pub(crate) device: Device,
    pub(crate) arch: String,
    pending: Mutex<Vec<Arc<CompiledKernel>>>,
}

impl std::fmt::Debug for CudaBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CudaBackend({}, {})", self.device.properties().name, self.arch)
    }
}

/// The architecture to generate PTX for on a device: its own if LLVM 19 knows it, else the
/// newest older one (PTX is forward compatible: the driver compiles it for the device).
pub(crate) fn arch_for(props: &DeviceProperties) -> String {
    let own = props.arch();
    if twinjit_ptx::KNOWN_ARCHS.contains(&own.as_str()) {
        return own;
    }
    let cc = props.compute_capability.0 * 10 + props.compute_capability.1;
    twinjit_ptx::KNOWN_ARCHS
        .iter()
        .filter(|a| !a.ends_with('a'))
        .filter_map(|a| a[3..].parse::<u32>().ok().map(|n| (n, *a)))
        .filter(|(n, _)| *n <= cc)
        .max()
        .map(|(_, a)| a.to_string())
        .unwrap_or_else(|| "sm_50".into())
}

impl CudaBackend {
    /// `Target::CudaSim`'s backend: cuda-sim's device (host memory, an H200's limits).
    pub(crate) fn simulated() -> CudaBackend {
        CudaBackend { device: Device::simulated(), arch: "sm_90".into(), pending: Mutex::new(Vec::new()) }
    }

    pub(crate) fn open(ordinal: usize) -> Result<CudaBackend, String> {
        let device = Device::open(ordinal).map_err(|e| e.to_string())?;
        let arch = arch_for(device.properties());
        Ok(CudaBackend { device, arch, pending: Mutex::new(Vec::new()) })
    }

    /// Remembers a launched kernel that can raise, so `synchronize` reads its error record.
    /// (Faults are attributed by the driver layer, which tracks the last kernel launched.)
    pub(crate) fn note_launch(&self, k: &Arc<CompiledKernel>) {
        if k.can_raise {
            let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if !p.iter().any(|x| Arc::ptr_eq(x, k)) {
                p.push(k.clone());
            }
        }
    }

    /// Waits for the device; reports a fault, then the first error a kernel raised.
    pub(crate) fn synchronize(&self) -> Result<(), Error> {
        self.device.synchronize().map_err(|e| cuda_error(e, None))?;
        let pending = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        for k in pending {
            k.check_errors()?;
        }
        Ok(())
    }
}

/// A host array passed where a kernel wants a device array.
pub(crate) fn host_array_error(kernel: &str, param: &str, dtype: &str) -> Error {
    Error::Argument { function: kernel.to_string(), param: Some(param.to_string()), message: host_array_message(dtype) }
}

fn host_array_message(dtype: &str) -> String {
    format!(
        "a host array ({dtype}) was passed to a kernel; copy it to the device first \
         (engine.to_device(&data)?) and copy results back with copy_to_host"
    )
}

/// A CUDA driver error as a facade error.
pub(crate) fn cuda_error(e: CudaError, kernel: Option<&str>) -> Error {
    let kernel = match &e {
        CudaError::Fault { kernel, .. } | CudaError::Launch { kernel, .. } | CudaError::LaunchLimit { kernel, .. } => {
            Some(kernel.clone())
        }
        _ => kernel.map(str::to_string),
    };
    let message = match (&e, &kernel) {
        (CudaError::Driver { .. }, Some(k)) => format!("{e} (after launching `{k}`)"),
        _ => e.to_string(),
    };
    Error::Cuda { kernel, message }
}

pub(crate) fn ptx_error(e: twinjit_ptx::PtxError, sources: &twinjit_diag::SourceMap, kernel: &str) -> Error {
    match e {
        twinjit_ptx::PtxError::Unsupported(u) => crate::error::unsupported(u, "CUDA", sources),
        twinjit_ptx::PtxError::Internal(m) => Error::Internal(m),
        other => Error::Cuda { kernel: Some(kernel.to_string()), message: other.to_string() },
    }
}
