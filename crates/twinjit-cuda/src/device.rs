//! An opened device: its (primary) context and its properties.
//!
//! Every object that uses device resources (arrays, modules, streams, events) holds a `Device`,
//! so the context outlives them. Every driver call is preceded by binding the context to the
//! calling thread, so all types here can be used from any thread.

use std::fmt;
use std::sync::{Arc, Mutex};

use cudarc::driver::{result::DriverError, sys, CudaContext};

use crate::driver::{device_count, ready};
use crate::error::{code_message, code_name, driver_error, is_kernel_fault, CudaError, Result};
use crate::properties::{query, DeviceProperties};
use crate::stream::Stream;

/// One CUDA device, opened. Cloning is cheap and shares the context.
#[derive(Clone)]
pub struct Device {
    inner: Arc<DeviceInner>,
}

struct DeviceInner {
    /// `None` for the simulated device of `cuda-sim` (host memory, no driver).
    context: Option<Arc<CudaContext>>,
    properties: DeviceProperties,
    /// The last kernel launched through any handle of this device, named in [`CudaError::Fault`].
    last_kernel: Mutex<Option<Arc<str>>>,
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Device")
            .field("ordinal", &self.inner.properties.ordinal)
            .field("name", &self.inner.properties.name)
            .finish_non_exhaustive()
    }
}

impl Device {
    /// Opens device `ordinal` (retaining its primary context) and reads its properties.
    ///
    /// [`CudaError::NoDriver`] without a usable driver, [`CudaError::NoDevice`] when there is no
    /// such device; never panics.
    pub fn open(ordinal: usize) -> Result<Device> {
        let count = device_count()?;
        if ordinal >= count {
            return Err(CudaError::NoDevice { ordinal, count });
        }
        ready()?;
        let context = CudaContext::new(ordinal).map_err(|e| driver_error("cuDevicePrimaryCtxRetain", e))?;
        let properties = query(ordinal, context.cu_device())?;
        Ok(Device {
            inner: Arc::new(DeviceInner { context: Some(context), properties, last_kernel: Mutex::new(None) }),
        })
    }

    /// The device of `cuda-sim`: no driver and no GPU; its "device memory" is host memory, its
    /// copies are `memcpy`, its streams and events order nothing (launches run to completion
    /// before they return) and time with the host's clock, and its limits are
    /// [`DeviceProperties::cuda_sim_model`]'s. Every API of this crate works on it, so a program
    /// written for a GPU runs unchanged; kernels are launched by the facade (`twinjit::sim`).
    pub fn simulated() -> Device {
        Device {
            inner: Arc::new(DeviceInner {
                context: None,
                properties: DeviceProperties::cuda_sim_model(),
                last_kernel: Mutex::new(None),
            }),
        }
    }

    /// Whether this is `cuda-sim`'s device ([`Device::simulated`]).
    pub fn is_simulated(&self) -> bool {
        self.inner.context.is_none()
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.inner.properties.ordinal
    }

    /// The properties read when the device was opened.
    pub fn properties(&self) -> &DeviceProperties {
        &self.inner.properties
    }

    /// Waits for all work on the device. A kernel that failed while running gives
    /// [`CudaError::Fault`].
    pub fn synchronize(&self) -> Result<()> {
        if self.is_simulated() {
            return Ok(());
        }
        self.bind().map_err(|e| self.wait_error("cuCtxSetCurrent", e))?;
        cudarc::driver::result::ctx::synchronize().map_err(|e| self.wait_error("cuCtxSynchronize", e))
    }

    /// The legacy default stream: it waits for, and is waited for by, every other stream of this
    /// crate (they are created blocking). Array copies use it.
    pub fn default_stream(&self) -> Stream {
        Stream::default_of(self.clone())
    }

    /// A new stream. It is a blocking stream, so work on it is ordered with the default stream
    /// (and therefore with array copies).
    pub fn new_stream(&self) -> Result<Stream> {
        Stream::create(self.clone(), false)
    }

    /// A new non-blocking stream (`CU_STREAM_NON_BLOCKING`): its work runs concurrently with
    /// the default stream's, and is ordered only with the work queued on it (launches, the
    /// asynchronous copies of [`crate::PinnedBuffer`]) and by events and synchronization.
    pub fn new_non_blocking_stream(&self) -> Result<Stream> {
        Stream::create(self.clone(), true)
    }

    /// Copies `dst.len()` bytes of device memory at `src` into `dst` (synchronous, after the
    /// work queued before it on the default stream).
    ///
    /// # Safety
    /// `src` must be live device memory of this device holding at least `dst.len()` bytes.
    pub unsafe fn copy_bytes_to_host(&self, src: u64, dst: &mut [u8]) -> Result<()> {
        self.bind().map_err(|e| self.wait_error("cuCtxSetCurrent", e))?;
        if dst.is_empty() {
            return Ok(());
        }
        if self.is_simulated() {
            // SAFETY: the caller guarantees `src` holds `dst.len()` bytes (host memory here).
            unsafe { std::ptr::copy_nonoverlapping(src as *const u8, dst.as_mut_ptr(), dst.len()) };
            return Ok(());
        }
        // SAFETY: the caller guarantees `src` holds `dst.len()` bytes; any byte is a valid u8.
        unsafe { cudarc::driver::result::memcpy_dtoh_sync(dst, src) }.map_err(|e| self.wait_error("cuMemcpyDtoH", e))
    }

    /// (free, total) device memory in bytes.
    pub fn memory_info(&self) -> Result<(u64, u64)> {
        if self.is_simulated() {
            let total = self.inner.properties.total_memory;
            return Ok((total, total));
        }
        self.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let (free, total) = cudarc::driver::result::mem_get_info().map_err(|e| driver_error("cuMemGetInfo", e))?;
        Ok((free as u64, total as u64))
    }

    /// Raises the per-thread stack (`CU_LIMIT_STACK_SIZE`, 1 KiB by default) to at least
    /// `bytes`; never lowers it. Recursive kernels need more than the default. The driver
    /// reserves this much local memory for every thread that can be resident at once.
    pub fn ensure_stack_size(&self, bytes: usize) -> Result<()> {
        use cudarc::driver::sys::CUlimit;
        if self.is_simulated() {
            return Ok(());
        }
        self.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let now = cudarc::driver::result::ctx::get_limit(CUlimit::CU_LIMIT_STACK_SIZE)
            .map_err(|e| driver_error("cuCtxGetLimit", e))?;
        if now < bytes {
            cudarc::driver::result::ctx::set_limit(CUlimit::CU_LIMIT_STACK_SIZE, bytes)
                .map_err(|e| driver_error("cuCtxSetLimit", e))?;
        }
        Ok(())
    }

    /// Makes this device's context current on the calling thread.
    pub(crate) fn bind(&self) -> std::result::Result<(), DriverError> {
        match &self.inner.context {
            Some(c) => c.bind_to_thread(),
            None => Ok(()),
        }
    }

    pub(crate) fn raw_context(&self) -> sys::CUcontext {
        match &self.inner.context {
            Some(c) => c.cu_ctx(),
            None => std::ptr::null_mut(),
        }
    }

    /// Whether two handles use the same CUDA context (two opens of one ordinal share the
    /// primary context).
    pub(crate) fn same_context(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (!self.is_simulated() && !other.is_simulated() && self.raw_context() == other.raw_context())
    }

    /// Records the kernel just launched, for [`CudaError::Fault`] messages.
    pub(crate) fn note_launch(&self, kernel: &Arc<str>) {
        let mut last = self.inner.last_kernel.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match &*last {
            Some(previous) if Arc::ptr_eq(previous, kernel) => {}
            _ => *last = Some(kernel.clone()),
        }
    }

    /// Converts an error from a call that waits for the device: a kernel failure becomes
    /// [`CudaError::Fault`] naming the last kernel launched; anything else a driver error.
    pub(crate) fn wait_error(&self, call: &str, error: DriverError) -> CudaError {
        if !is_kernel_fault(error.0) {
            return driver_error(call, error);
        }
        let last = self.inner.last_kernel.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let kernel = match &*last {
            Some(name) => name.to_string(),
            None => "(no kernel launched through twinjit)".to_string(),
        };
        CudaError::Fault { kernel, code: code_name(error.0), message: code_message(error) }
    }
}
