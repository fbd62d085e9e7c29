//! Zero-copy exchange of device arrays with other libraries through DLPack (the C ABI of
//! `dlpack.h`, version 0.8's `DLManagedTensor`, which PyTorch, CuPy, JAX and numba-cuda's
//! `__dlpack__` all read and write).
//!
//! - [`DeviceArray::into_dlpack`] hands an array to a consumer: the managed tensor owns it, and
//!   the consumer's call of its `deleter` frees the memory (exactly once; never calling it
//!   leaks the array, as DLPack specifies).
//! - [`DeviceArray::from_dlpack`] takes a producer's tensor: the array views the producer's
//!   memory without a copy, and dropping it calls the producer's `deleter`. The tensor must be
//!   CUDA memory of the array's device and element type, 1 to 8 dimensions, C-contiguous
//!   (`strides` null or compact); otherwise the error says why and the tensor stays the caller's.
//!
//! The structs are written out here from the DLPack header (it is a plain C ABI, small enough
//! that a crate for it would add more than it saves).

use std::ffi::c_void;

use crate::array::{DeviceArray, Owner, MAX_DIMS};
use crate::device::Device;
use crate::element::{DeviceElement, ElementType};
use crate::error::{CudaError, Result};

/// `kDLCPU`: host memory (cuda-sim's device arrays live there).
pub const DL_CPU: i32 = 1;
/// `kDLCUDA`: memory of a CUDA device.
pub const DL_CUDA: i32 = 2;
/// `kDLCUDAManaged`: CUDA managed (unified) memory, which kernels of the device also read.
pub const DL_CUDA_MANAGED: i32 = 13;

/// `DLDevice`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDevice {
    /// `DLDeviceType` (`kDLCUDA` is 2).
    pub device_type: i32,
    /// The device ordinal.
    pub device_id: i32,
}

/// `DLDataType`: type code, bits per lane, lanes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDataType {
    /// `kDLInt` 0, `kDLUInt` 1, `kDLFloat` 2, `kDLComplex` 5, `kDLBool` 6.
    pub code: u8,
    /// Bits of one lane.
    pub bits: u8,
    /// Lanes (1 for scalars).
    pub lanes: u16,
}

/// `DLTensor`.
#[repr(C)]
#[derive(Debug)]
pub struct DLTensor {
    /// The data pointer (a device pointer for CUDA tensors).
    pub data: *mut c_void,
    /// Where the data lives.
    pub device: DLDevice,
    /// Number of dimensions.
    pub ndim: i32,
    /// Element type.
    pub dtype: DLDataType,
    /// `ndim` extents.
    pub shape: *mut i64,
    /// `ndim` strides in elements, or null for a compact C-order tensor.
    pub strides: *mut i64,
    /// Bytes from `data` to the first element.
    pub byte_offset: u64,
}

/// `DLManagedTensor`: a tensor and how to release it.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensor {
    /// The tensor.
    pub dl_tensor: DLTensor,
    /// The producer's context, for `deleter`.
    pub manager_ctx: *mut c_void,
    /// Releases the tensor (called once by the consumer); may be absent.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// The DLPack type of an element type.
pub fn dl_dtype(t: ElementType) -> DLDataType {
    let (code, bits) = match t {
        ElementType::Bool => (6, 8),
        ElementType::Int8 => (0, 8),
        ElementType::Int16 => (0, 16),
        ElementType::Int32 => (0, 32),
        ElementType::Int64 => (0, 64),
        ElementType::UInt8 => (1, 8),
        ElementType::UInt16 => (1, 16),
        ElementType::UInt32 => (1, 32),
        ElementType::UInt64 => (1, 64),
        ElementType::Float16 => (2, 16),
        ElementType::Float32 => (2, 32),
        ElementType::Float64 => (2, 64),
        ElementType::Complex64 => (5, 64),
        ElementType::Complex128 => (5, 128),
    };
    DLDataType { code, bits, lanes: 1 }
}

/// Checks a producer's tensor for an array of `T` on device `ordinal`: the first element's
/// device pointer and the shape, or why it cannot be one.
///
/// # Safety
/// `t.shape` (and `t.strides` unless null) must point to `t.ndim` values.
pub unsafe fn check_tensor<T: DeviceElement>(t: &DLTensor, ordinal: usize) -> Result<(u64, Vec<usize>)> {
    if t.device.device_type != DL_CUDA && t.device.device_type != DL_CUDA_MANAGED {
        return Err(CudaError::Shape {
            message: format!("DLPack tensor: device type {} is not CUDA memory (kDLCUDA = 2)", t.device.device_type),
        });
    }
    // SAFETY: the caller's contract.
    unsafe { check_layout::<T>(t, ordinal) }
}

/// [`check_tensor`] for cuda-sim's device, whose arrays are host memory: a `kDLCPU` tensor.
///
/// # Safety
/// As [`check_tensor`].
unsafe fn check_host_tensor<T: DeviceElement>(t: &DLTensor) -> Result<(u64, Vec<usize>)> {
    if t.device.device_type != DL_CPU {
        return Err(CudaError::Shape {
            message: format!(
                "DLPack tensor: device type {} is not host memory (kDLCPU = 1), which cuda-sim's arrays are",
                t.device.device_type
            ),
        });
    }
    // SAFETY: the caller's contract.
    unsafe { check_layout::<T>(t, t.device.device_id.max(0) as usize) }
}

/// The checks of a tensor's device ordinal, element type, shape and strides.
///
/// # Safety
/// As [`check_tensor`].
unsafe fn check_layout<T: DeviceElement>(t: &DLTensor, ordinal: usize) -> Result<(u64, Vec<usize>)> {
    let bad = |message: String| Err(CudaError::Shape { message: format!("DLPack tensor: {message}") });
    if t.device.device_id as i64 != ordinal as i64 {
        return bad(format!("it lives on CUDA device {}, this array's device is {ordinal}", t.device.device_id));
    }
    let want = dl_dtype(T::TYPE);
    if t.dtype != want {
        return bad(format!(
            "element type (code {}, {} bits, {} lanes) is not {} (code {}, {} bits)",
            t.dtype.code,
            t.dtype.bits,
            t.dtype.lanes,
            T::TYPE.name(),
            want.code,
            want.bits
        ));
    }
    if t.ndim < 1 || t.ndim as usize > MAX_DIMS {
        return bad(format!("{} dimensions (a device array has 1 to {MAX_DIMS})", t.ndim));
    }
    let n = t.ndim as usize;
    // SAFETY: the caller guarantees `ndim` extents (and strides, when present).
    let shape: Vec<i64> = unsafe { std::slice::from_raw_parts(t.shape, n) }.to_vec();
    if shape.iter().any(|&d| d < 0) {
        return bad(format!("negative extent in shape {shape:?}"));
    }
    let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    if !t.strides.is_null() {
        // SAFETY: as above.
        let strides = unsafe { std::slice::from_raw_parts(t.strides, n) };
        let mut expect = 1i64;
        for k in (0..n).rev() {
            // An axis of extent 1 may have any stride (NumPy and PyTorch write such strides).
            if shape[k] > 1 && strides[k] != expect {
                return bad(format!("strides {strides:?} are not C-contiguous for shape {shape:?} (copy it first)"));
            }
            expect *= shape[k] as i64;
        }
    }
    if t.data.is_null() && shape.iter().product::<usize>() > 0 {
        return bad("null data pointer".into());
    }
    Ok((t.data as u64 + t.byte_offset, shape))
}

/// What an exported array's managed tensor owns: the array, and the extents and strides its
/// `DLTensor` points to.
struct Exported<T: DeviceElement> {
    _array: DeviceArray<T>,
    shape: [i64; MAX_DIMS],
    strides: [i64; MAX_DIMS],
}

unsafe extern "C" fn delete_exported<T: DeviceElement>(m: *mut DLManagedTensor) {
    if m.is_null() {
        return;
    }
    // SAFETY: `m` and its context were made by `into_dlpack::<T>` with `Box::into_raw`, and the
    // DLPack contract calls the deleter once.
    unsafe {
        let managed = Box::from_raw(m);
        drop(Box::from_raw(managed.manager_ctx as *mut Exported<T>));
    }
}

impl<T: DeviceElement> DeviceArray<T> {
    /// Hands the array to another library as a DLPack managed tensor (no copy). The consumer
    /// owns it: its call of the tensor's `deleter` frees the device memory.
    pub fn into_dlpack(self) -> *mut DLManagedTensor {
        let ndim = self.ndim();
        let mut shape = [1i64; MAX_DIMS];
        let mut strides = [1i64; MAX_DIMS];
        for k in 0..ndim {
            shape[k] = self.shape()[k] as i64;
            strides[k] = self.strides()[k] as i64;
        }
        let device = if self.device().is_simulated() {
            DLDevice { device_type: DL_CPU, device_id: 0 }
        } else {
            DLDevice { device_type: DL_CUDA, device_id: self.device().ordinal() as i32 }
        };
        let data = self.device_ptr() as *mut c_void;
        let ctx = Box::into_raw(Box::new(Exported { _array: self, shape, strides }));
        // SAFETY: `ctx` is a live box; its arrays stay where they are until the deleter.
        let (shape_ptr, strides_ptr) = unsafe { ((*ctx).shape.as_mut_ptr(), (*ctx).strides.as_mut_ptr()) };
        Box::into_raw(Box::new(DLManagedTensor {
            dl_tensor: DLTensor {
                data,
                device,
                ndim: ndim as i32,
                dtype: dl_dtype(T::TYPE),
                shape: shape_ptr,
                strides: strides_ptr,
                byte_offset: 0,
            },
            manager_ctx: ctx as *mut c_void,
            deleter: Some(delete_exported::<T>),
        }))
    }

    /// Takes another library's DLPack managed tensor as a device array of `device` (no copy);
    /// dropping the array calls the tensor's `deleter`. On an error the tensor is left to the
    /// caller, untouched.
    ///
    /// # Safety
    /// `tensor` must be a valid `DLManagedTensor` whose memory stays allocated until its deleter
    /// runs, and must not be used by the caller after a successful call (the array owns it).
    pub unsafe fn from_dlpack(device: &Device, tensor: *mut DLManagedTensor) -> Result<Self> {
        if tensor.is_null() {
            return Err(CudaError::Shape { message: "DLPack tensor: null pointer".into() });
        }
        // SAFETY: the caller guarantees a valid managed tensor.
        let (ptr, shape) = if device.is_simulated() {
            // SAFETY: as below.
            unsafe { check_host_tensor::<T>(&(*tensor).dl_tensor)? }
        } else {
            // SAFETY: the caller guarantees a valid managed tensor.
            unsafe { check_tensor::<T>(&(*tensor).dl_tensor, device.ordinal())? }
        };
        DeviceArray::adopt(device, ptr, &shape, Owner::DlPack(crate::array::Managed(tensor)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensor(device_type: i32, dtype: DLDataType, shape: &mut [i64], strides: Option<&mut [i64]>) -> DLTensor {
        DLTensor {
            data: 0x1000 as *mut c_void,
            device: DLDevice { device_type, device_id: 0 },
            ndim: shape.len() as i32,
            dtype,
            shape: shape.as_mut_ptr(),
            strides: strides.map_or(std::ptr::null_mut(), |s| s.as_mut_ptr()),
            byte_offset: 16,
        }
    }

    #[test]
    fn dtypes_follow_the_dlpack_codes() {
        assert_eq!(dl_dtype(ElementType::Float32), DLDataType { code: 2, bits: 32, lanes: 1 });
        assert_eq!(dl_dtype(ElementType::UInt8), DLDataType { code: 1, bits: 8, lanes: 1 });
        assert_eq!(dl_dtype(ElementType::Complex128), DLDataType { code: 5, bits: 128, lanes: 1 });
        assert_eq!(dl_dtype(ElementType::Bool), DLDataType { code: 6, bits: 8, lanes: 1 });
    }

    /// [`check_tensor`] of a test tensor, whose shape and strides are live slices of `ndim`.
    fn check(t: &DLTensor, ordinal: usize) -> Result<(u64, Vec<usize>)> {
        // SAFETY: `tensor` points `shape` and `strides` at slices of `ndim` values.
        unsafe { check_tensor::<f32>(t, ordinal) }
    }

    #[test]
    fn tensors_are_checked_before_they_are_taken() {
        let f32 = dl_dtype(ElementType::Float32);
        let mut shape = [2i64, 3];
        // C-contiguous strides, or none, give the pointer past the byte offset and the shape.
        let t = tensor(DL_CUDA, f32, &mut shape, Some(&mut [3, 1]));
        assert_eq!(check(&t, 0).unwrap(), (0x1010, vec![2, 3]));
        let t = tensor(DL_CUDA, f32, &mut shape, None);
        assert!(check(&t, 0).is_ok());
        let mut one_row = [1i64, 3];
        let t = tensor(DL_CUDA, f32, &mut one_row, Some(&mut [99, 1]));
        assert!(check(&t, 0).is_ok(), "an axis of extent 1 takes any stride");
        let err = |t: &DLTensor, ordinal| check(t, ordinal).unwrap_err().to_string();
        assert!(err(&tensor(1, f32, &mut shape, None), 0).contains("not CUDA memory"));
        assert!(err(&tensor(DL_CUDA, f32, &mut shape, None), 1).contains("lives on CUDA device 0"));
        let f64 = dl_dtype(ElementType::Float64);
        assert!(err(&tensor(DL_CUDA, f64, &mut shape, None), 0).contains("is not float32"));
        assert!(err(&tensor(DL_CUDA, f32, &mut shape, Some(&mut [1, 2])), 0).contains("not C-contiguous"));
        let mut nine = [1i64; 9];
        assert!(err(&tensor(DL_CUDA, f32, &mut nine, None), 0).contains("9 dimensions"));
    }
}
