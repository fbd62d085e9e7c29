//! Page-locked ("pinned") host buffers and the asynchronous copies they allow.
//!
//! A copy between pageable host memory and the device is synchronous: the driver stages it
//! through a pinned bounce buffer. A [`PinnedBuffer`] is host memory the driver has locked
//! (`cuMemHostAlloc`), so `cuMemcpyHtoDAsync`/`cuMemcpyDtoHAsync` copy it by DMA while the host
//! goes on and while kernels on other streams run, as `cuda.pinned_array` and `copy_to_device(
//! ..., stream=s)` do in numba-cuda.
//!
//! Safety without `unsafe` for the caller: an asynchronous copy records an event after itself on
//! its stream and leaves it in the buffer (and in the device array it touches, through the
//! copy's own event). Every access to the buffer's elements ([`PinnedBuffer::as_slice`],
//! [`PinnedBuffer::as_mut_slice`]) and its drop first wait for that event, so Rust code never
//! reads memory the device is still writing, nor frees memory a copy still reads. A copy into
//! the buffer takes it by `&mut`, so no slice of it can be alive while the device writes it.

use std::fmt;
use std::sync::Mutex;

use cudarc::driver::result;

use crate::array::DeviceArray;
use crate::device::Device;
use crate::element::DeviceElement;
use crate::error::{driver_error, CudaError, Result};
use crate::stream::{Event, Stream};

/// Host memory locked for DMA, holding `len` elements of `T` (zeros when made).
pub struct PinnedBuffer<T: DeviceElement> {
    device: Device,
    ptr: *mut T,
    len: usize,
    /// The event after the last asynchronous copy that touches this buffer, until waited for.
    pending: Mutex<Option<Event>>,
    /// cuda-sim's buffer: plain host memory (`ptr` points into it), freed with it.
    host: Option<Vec<u128>>,
}

// SAFETY: the buffer owns its allocation (plain data elements); the only shared state is the
// mutex-guarded pending event, and every access to the elements waits for the device first.
unsafe impl<T: DeviceElement> Send for PinnedBuffer<T> {}
// SAFETY: as above; `&self` gives only shared reads of the elements, after the wait.
unsafe impl<T: DeviceElement> Sync for PinnedBuffer<T> {}

impl<T: DeviceElement> fmt::Debug for PinnedBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PinnedBuffer")
            .field("device", &self.device.ordinal())
            .field("dtype", &T::TYPE.name())
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl<T: DeviceElement> PinnedBuffer<T> {
    /// `len` zeros in page-locked host memory of `device`'s context.
    pub fn zeros(device: &Device, len: usize) -> Result<Self> {
        let bytes = len.checked_mul(T::TYPE.size()).ok_or_else(|| CudaError::Shape {
            message: format!("{len} elements of {} need more bytes than fit in memory", T::TYPE.name()),
        })?;
        if device.is_simulated() {
            let mut host = vec![0u128; bytes.max(T::TYPE.size()).div_ceil(16)];
            let ptr = host.as_mut_ptr().cast::<T>();
            return Ok(PinnedBuffer { device: device.clone(), ptr, len, pending: Mutex::new(None), host: Some(host) });
        }
        device.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let alloc = bytes.max(T::TYPE.size());
        // SAFETY: a context is current; flags 0 is a plain page-locked allocation.
        let raw = unsafe { result::malloc_host(alloc, 0) }
            .map_err(|e| driver_error(&format!("cuMemHostAlloc({bytes} bytes)"), e))?;
        // SAFETY: the allocation holds `alloc` writable bytes; all-zero bytes are a valid value of
        // every element type (numbers and bools).
        unsafe { std::ptr::write_bytes(raw.cast::<u8>(), 0, alloc) };
        Ok(PinnedBuffer { device: device.clone(), ptr: raw.cast(), len, pending: Mutex::new(None), host: None })
    }

    /// A pinned copy of `data`.
    pub fn from_slice(device: &Device, data: &[T]) -> Result<Self> {
        let mut buffer = Self::zeros(device, data.len())?;
        buffer.as_mut_slice()?.copy_from_slice(data);
        Ok(buffer)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Waits for the asynchronous copy that last touched the buffer, if any.
    pub fn wait(&self) -> Result<()> {
        let pending = self.pending.lock().unwrap_or_else(|p| p.into_inner()).take();
        match pending {
            Some(event) => event.synchronize(),
            None => Ok(()),
        }
    }

    /// The elements, once any copy in flight has finished.
    pub fn as_slice(&self) -> Result<&[T]> {
        self.wait()?;
        // SAFETY: `ptr` holds `len` initialised elements owned by self; no copy is in flight
        // (waited above) and a new one that writes needs `&mut self`.
        Ok(unsafe { std::slice::from_raw_parts(self.ptr, self.len) })
    }

    /// The elements, writable, once any copy in flight has finished.
    pub fn as_mut_slice(&mut self) -> Result<&mut [T]> {
        self.wait()?;
        // SAFETY: as for `as_slice`, and `&mut self` excludes every other access.
        Ok(unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) })
    }

    fn set_pending(&self, event: Event) {
        *self.pending.lock().unwrap_or_else(|p| p.into_inner()) = Some(event);
    }

    /// Checks a copy between the buffer and `array` on `stream`, waits for the buffer's last
    /// copy and makes the stream's context current; whether there is anything to copy.
    fn ready_to_copy(&self, array: &DeviceArray<T>, stream: &Stream, what: &str) -> Result<bool> {
        self.check(array, stream, what)?;
        self.wait()?;
        if self.len == 0 {
            return Ok(false);
        }
        stream.device().bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        Ok(true)
    }

    fn check(&self, array: &DeviceArray<T>, stream: &Stream, what: &str) -> Result<()> {
        if array.len() != self.len {
            return Err(CudaError::Shape {
                message: format!(
                    "{what}: the device array of shape {:?} has {} elements, but the pinned buffer has {}",
                    array.shape(),
                    array.len(),
                    self.len
                ),
            });
        }
        if !stream.device().same_context(array.device()) || !self.device.same_context(array.device()) {
            return Err(CudaError::Driver {
                call: what.to_string(),
                code: "CUDA_ERROR_INVALID_CONTEXT".to_string(),
                message: format!(
                    "the stream, the pinned buffer and the array must belong to one device (array: device {})",
                    array.device().ordinal()
                ),
            });
        }
        Ok(())
    }

    /// Queues a copy of the buffer into `array` on `stream` and returns at once; the copy runs
    /// after the work queued on `stream` before it. The buffer's elements become accessible
    /// again (through `as_mut_slice`) once it has been read.
    pub fn copy_to_device_async(&self, array: &mut DeviceArray<T>, stream: &Stream) -> Result<()> {
        if !self.ready_to_copy(array, stream, "cuMemcpyHtoDAsync")? {
            return Ok(());
        }
        if self.host.is_some() {
            // SAFETY: cuda-sim: both are `len` elements of host memory (checked), distinct
            // allocations.
            unsafe { std::ptr::copy_nonoverlapping(self.ptr, array.device_ptr() as *mut T, self.len) };
            return Ok(());
        }
        // SAFETY: the device allocation holds `len` elements (checked), the source is `len`
        // pinned elements that stay allocated and unwritten until the event recorded next is
        // reached (every access and the drop wait for it), and the stream is live.
        let src = unsafe { std::slice::from_raw_parts(self.ptr, self.len) };
        // SAFETY: see above.
        unsafe { result::memcpy_htod_async(array.device_ptr(), src, stream.raw()) }
            .map_err(|e| driver_error("cuMemcpyHtoDAsync", e))?;
        self.set_pending(stream.record_event()?);
        Ok(())
    }

    /// Queues a copy of `array` into the buffer on `stream` and returns at once; the copy runs
    /// after the work queued on `stream` before it (a kernel's writes included). Reading the
    /// buffer waits for it.
    pub fn copy_from_device_async(&mut self, array: &DeviceArray<T>, stream: &Stream) -> Result<()> {
        if !self.ready_to_copy(array, stream, "cuMemcpyDtoHAsync")? {
            return Ok(());
        }
        if self.host.is_some() {
            // SAFETY: as in `copy_to_device_async`.
            unsafe { std::ptr::copy_nonoverlapping(array.device_ptr() as *const T, self.ptr, self.len) };
            return Ok(());
        }
        // SAFETY: as above; the destination is `len` pinned elements that no Rust reference
        // reaches until the event recorded next is reached (`&mut self` now, a wait later).
        let dst = unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) };
        // SAFETY: see above.
        unsafe { result::memcpy_dtoh_async(dst, array.device_ptr(), stream.raw()) }
            .map_err(|e| driver_error("cuMemcpyDtoHAsync", e))?;
        self.set_pending(stream.record_event()?);
        Ok(())
    }
}

impl<T: DeviceElement> Drop for PinnedBuffer<T> {
    fn drop(&mut self) {
        // A copy still reading or writing the buffer finishes before it is freed.
        let _ = self.wait();
        if self.host.is_none() && self.device.bind().is_ok() {
            // SAFETY: `ptr` came from cuMemHostAlloc and is freed only here, once, with no copy
            // in flight.
            let _ = unsafe { result::free_host(self.ptr.cast()) };
        }
    }
}
