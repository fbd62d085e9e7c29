//! Device arrays: one allocation of 1 to 8 dimensions in C order.
//!
//! Invariants: the allocation holds at least `max(len, 1)` elements (the driver refuses a 0-byte
//! allocation, so an empty array still owns one element, which nothing reads); `shape` has
//! 1..=8 entries whose product is `len`. Copies go through the legacy default stream and are
//! synchronous from the caller's view, so they are ordered after every launch on this crate's
//! streams.

use std::fmt;
use std::marker::PhantomData;

use cudarc::driver::{result, sys::CUdeviceptr};

use crate::device::Device;
use crate::element::DeviceElement;
use crate::error::{driver_error, CudaError, Result};

/// The most dimensions a device array may have (twinjit's arrays have at most 8:
/// `twinjit_ir::types::MAX_NDIM`).
pub const MAX_DIMS: usize = 8;

/// The number of elements of an array of `shape`: `Err(Shape)` unless it has 1 to 8 dimensions
/// and the product fits in `usize`.
pub fn element_count(shape: &[usize]) -> Result<usize> {
    if shape.is_empty() || shape.len() > MAX_DIMS {
        return Err(CudaError::Shape {
            message: format!("a device array has 1 to {MAX_DIMS} dimensions, but shape {shape:?} has {}", shape.len()),
        });
    }
    shape
        .iter()
        .try_fold(1usize, |count, &extent| count.checked_mul(extent))
        .ok_or_else(|| CudaError::Shape { message: format!("shape {shape:?} has more elements than fit in memory") })
}

/// Checks that host data of `len` elements fills an array of `shape`; returns the count.
pub fn check_shape(shape: &[usize], len: usize) -> Result<usize> {
    let count = element_count(shape)?;
    if count != len {
        return Err(CudaError::Shape {
            message: format!("shape {shape:?} holds {count} elements, but the host data has {len}"),
        });
    }
    Ok(count)
}

/// Who frees an array's memory.
pub(crate) enum Owner {
    /// This crate allocated it (`cuMemAlloc`) and frees it (`cuMemFree`).
    Driver,
    /// Another library lent it through DLPack: its deleter runs on drop.
    DlPack(Managed),
    /// cuda-sim's device memory: host memory (16-byte aligned), freed with the array.
    Host(#[allow(dead_code)] Vec<u128>),
}

/// A DLPack managed tensor the array owns (its deleter may run on any thread, as DLPack allows).
pub(crate) struct Managed(pub(crate) *mut crate::dlpack::DLManagedTensor);

// SAFETY: the pointer is only dereferenced once, in `Drop`, to call the producer's deleter,
// which DLPack requires to be callable from any thread.
unsafe impl Send for Managed {}
// SAFETY: shared references never touch the pointer.
unsafe impl Sync for Managed {}

/// An array in device memory, freed on drop.
pub struct DeviceArray<T: DeviceElement> {
    device: Device,
    ptr: CUdeviceptr,
    len: usize,
    shape: [usize; MAX_DIMS],
    strides: [usize; MAX_DIMS],
    ndim: usize,
    owner: Owner,
    _element: PhantomData<T>,
}

impl<T: DeviceElement> fmt::Debug for DeviceArray<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceArray")
            .field("device", &self.device.ordinal())
            .field("dtype", &T::TYPE.name())
            .field("shape", &self.shape())
            .field("ptr", &format_args!("{:#x}", self.ptr))
            .finish()
    }
}

impl<T: DeviceElement> DeviceArray<T> {
    /// Copies `data` to a new device array of `shape` (C order).
    pub fn from_slice(device: &Device, data: &[T], shape: &[usize]) -> Result<Self> {
        check_shape(shape, data.len())?;
        let array = Self::alloc(device, shape, data.len())?;
        if device.is_simulated() {
            // SAFETY: the host allocation holds `data.len()` elements of T.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), array.ptr as *mut T, data.len()) };
            return Ok(array);
        }
        if !data.is_empty() {
            // SAFETY: the allocation holds `data.len()` elements of T, and the context is current
            // (alloc bound it; nothing since changed the thread's context).
            unsafe { T::upload(array.ptr, data) }.map_err(|e| device.wait_error("cuMemcpyHtoD", e))?;
        }
        Ok(array)
    }

    /// A new device array of `shape`, every byte zero (0, 0.0, false).
    pub fn zeros(device: &Device, shape: &[usize]) -> Result<Self> {
        let len = element_count(shape)?;
        let array = Self::alloc(device, shape, len)?;
        if device.is_simulated() {
            // Host memory starts zeroed (`alloc`).
            return Ok(array);
        }
        // SAFETY: the allocation holds at least `byte_len` bytes (see `alloc`).
        unsafe { result::memset_d8_sync(array.ptr, 0, array.allocated_bytes()) }
            .map_err(|e| device.wait_error("cuMemsetD8", e))?;
        Ok(array)
    }

    fn alloc(device: &Device, shape: &[usize], len: usize) -> Result<Self> {
        let bytes = len.checked_mul(T::TYPE.size()).ok_or_else(|| CudaError::Shape {
            message: format!("shape {shape:?} of {} needs more bytes than fit in memory", T::TYPE.name()),
        })?;
        if device.is_simulated() {
            let words = bytes.max(T::TYPE.size()).div_ceil(16);
            let mut host: Vec<u128> = Vec::new();
            host.try_reserve_exact(words).map_err(|_| CudaError::Shape {
                message: format!("cuda-sim could not allocate {bytes} bytes of host memory for shape {shape:?}"),
            })?;
            host.resize(words, 0);
            let ptr = host.as_mut_ptr() as CUdeviceptr;
            return Self::adopt(device, ptr, shape, Owner::Host(host));
        }
        device.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        // SAFETY: allocating has no preconditions beyond a current context; the memory is
        // uninitialised, which is fine for the plain-data elements written before any read.
        let ptr = unsafe { result::malloc_sync(bytes.max(T::TYPE.size())) }
            .map_err(|e| device.wait_error(&format!("cuMemAlloc({bytes} bytes)"), e))?;
        Self::adopt(device, ptr, shape, Owner::Driver)
    }

    /// An array over memory that `owner` frees (`ptr` holds `shape`'s elements in C order).
    pub(crate) fn adopt(device: &Device, ptr: CUdeviceptr, shape: &[usize], owner: Owner) -> Result<Self> {
        let len = element_count(shape)?;
        let mut dims = [1usize; MAX_DIMS];
        dims[..shape.len()].copy_from_slice(shape);
        let mut strides = [1usize; MAX_DIMS];
        for axis in (0..shape.len().saturating_sub(1)).rev() {
            strides[axis] = strides[axis + 1] * dims[axis + 1];
        }
        Ok(DeviceArray {
            device: device.clone(),
            ptr,
            len,
            shape: dims,
            strides,
            ndim: shape.len(),
            owner,
            _element: PhantomData,
        })
    }

    fn allocated_bytes(&self) -> usize {
        self.len.max(1) * T::TYPE.size()
    }

    fn check_host_len(&self, host_len: usize, what: &str) -> Result<()> {
        if host_len != self.len {
            return Err(CudaError::Shape {
                message: format!(
                    "{what}: the device array of shape {:?} has {} elements, but the host slice has {host_len}",
                    self.shape(),
                    self.len
                ),
            });
        }
        Ok(())
    }

    /// Copies the whole array into `out`, which must have exactly `len()` elements. Waits for
    /// earlier launches; a failed kernel gives [`CudaError::Fault`].
    pub fn copy_to_host(&self, out: &mut [T]) -> Result<()> {
        self.check_host_len(out.len(), "copy to host")?;
        self.device.bind().map_err(|e| self.device.wait_error("cuCtxSetCurrent", e))?;
        if out.is_empty() {
            return Ok(());
        }
        if self.device.is_simulated() {
            // SAFETY: the host allocation is live (owned by self) and holds `len` elements.
            unsafe { std::ptr::copy_nonoverlapping(self.ptr as *const T, out.as_mut_ptr(), out.len()) };
            return Ok(());
        }
        // SAFETY: the allocation is live (owned by self) and holds `len` == `out.len()` elements.
        unsafe { T::download(out, self.ptr) }.map_err(|e| self.device.wait_error("cuMemcpyDtoH", e))
    }

    /// The whole array, copied to a new vector.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let mut out = vec![T::default(); self.len];
        self.copy_to_host(&mut out)?;
        Ok(out)
    }

    /// Overwrites the whole array with `data`, which must have exactly `len()` elements.
    pub fn copy_from_host(&mut self, data: &[T]) -> Result<()> {
        self.check_host_len(data.len(), "copy from host")?;
        self.device.bind().map_err(|e| self.device.wait_error("cuCtxSetCurrent", e))?;
        if data.is_empty() {
            return Ok(());
        }
        if self.device.is_simulated() {
            // SAFETY: the host allocation is live (owned by self) and holds `len` elements.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), self.ptr as *mut T, data.len()) };
            return Ok(());
        }
        // SAFETY: the allocation is live (owned by self) and holds `len` == `data.len()` elements.
        unsafe { T::upload(self.ptr, data) }.map_err(|e| self.device.wait_error("cuMemcpyHtoD", e))
    }

    /// The extent of each dimension (1 to 8 entries).
    pub fn shape(&self) -> &[usize] {
        &self.shape[..self.ndim]
    }

    /// C-order strides in elements, one per dimension.
    pub fn strides(&self) -> &[usize] {
        &self.strides[..self.ndim]
    }

    pub fn ndim(&self) -> usize {
        self.ndim
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes per element.
    pub fn itemsize(&self) -> usize {
        T::TYPE.size()
    }

    /// The raw device address (`CUdeviceptr`), to pass as a kernel parameter. Valid while the
    /// array lives; never null, even for an empty array.
    pub fn device_ptr(&self) -> u64 {
        self.ptr
    }

    /// The device holding the array.
    pub fn device(&self) -> &Device {
        &self.device
    }
}

impl<T: DeviceElement> Drop for DeviceArray<T> {
    fn drop(&mut self) {
        if let Owner::DlPack(Managed(m)) = self.owner {
            // SAFETY: `from_dlpack`'s caller handed over a valid managed tensor, released only
            // here, once.
            unsafe {
                if let Some(deleter) = (*m).deleter {
                    deleter(m);
                }
            }
            return;
        }
        if matches!(self.owner, Owner::Host(_)) {
            // The host memory goes with `owner`.
            return;
        }
        if self.device.bind().is_ok() {
            // SAFETY: `ptr` came from cuMemAlloc in this context and is freed only here, once.
            // Kernels still using it are excluded by `Kernel::launch`'s contract (pointers stay
            // live until a synchronization after the kernel).
            let _ = unsafe { result::free_sync(self.ptr) };
        }
    }
}
