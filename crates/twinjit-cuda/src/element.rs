//! The element types a [`crate::DeviceArray`] can hold, and how each crosses the bus.
//!
//! Every element is stored on the device exactly as on the host (little-endian, `bool` as one
//! byte 0 or 1, matching NumPy's `bool_`). Copies back to the host must not trust the device's
//! bytes to be valid host values, so `bool` is read as bytes and converted (`!= 0`).

use cudarc::driver::{result, result::DriverError, sys::CUdeviceptr};

/// The scalar kind of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementType {
    Bool,
    Int32,
    Int64,
    Float32,
    Float64,
    Int8,
    Int16,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    /// Two `float32`s (real, imaginary).
    Complex64,
    /// Two `float64`s.
    Complex128,
    /// IEEE binary16 (`half::f16`).
    Float16,
}

impl ElementType {
    /// The Numba/NumPy name: `bool`, `int8` .. `uint64`, `float32`, `float64`.
    pub fn name(self) -> &'static str {
        match self {
            ElementType::Bool => "bool",
            ElementType::Int32 => "int32",
            ElementType::Int64 => "int64",
            ElementType::Float32 => "float32",
            ElementType::Float64 => "float64",
            ElementType::Int8 => "int8",
            ElementType::Int16 => "int16",
            ElementType::UInt8 => "uint8",
            ElementType::UInt16 => "uint16",
            ElementType::UInt32 => "uint32",
            ElementType::UInt64 => "uint64",
            ElementType::Complex64 => "complex64",
            ElementType::Complex128 => "complex128",
            ElementType::Float16 => "float16",
        }
    }

    /// Bytes per element on the device.
    pub fn size(self) -> usize {
        match self {
            ElementType::Bool | ElementType::Int8 | ElementType::UInt8 => 1,
            ElementType::Int16 | ElementType::UInt16 | ElementType::Float16 => 2,
            ElementType::Int32 | ElementType::UInt32 | ElementType::Float32 => 4,
            ElementType::Int64 | ElementType::UInt64 | ElementType::Float64 | ElementType::Complex64 => 8,
            ElementType::Complex128 => 16,
        }
    }
}

/// A scalar type that device arrays can hold: `bool`, the integers, `f32`, `f64`. Sealed.
pub trait DeviceElement: sealed::Transfer + Copy + Default + Send + Sync + 'static {
    /// The element's scalar kind.
    const TYPE: ElementType;
}

pub(crate) mod sealed {
    use super::*;

    /// Host ↔ device copies of a slice of elements (synchronous, on the legacy default stream).
    pub trait Transfer: Sized {
        /// # Safety
        /// `dst` must be live device memory of at least `size_of_val(src)` bytes in the
        /// current context.
        unsafe fn upload(dst: CUdeviceptr, src: &[Self]) -> Result<(), DriverError>;

        /// # Safety
        /// `src` must be live device memory of at least `size_of_val(dst)` bytes in the
        /// current context.
        unsafe fn download(dst: &mut [Self], src: CUdeviceptr) -> Result<(), DriverError>;
    }
}

macro_rules! plain_element {
    ($ty:ty, $kind:ident) => {
        impl DeviceElement for $ty {
            const TYPE: ElementType = ElementType::$kind;
        }

        impl sealed::Transfer for $ty {
            unsafe fn upload(dst: CUdeviceptr, src: &[Self]) -> Result<(), DriverError> {
                // SAFETY: the caller guarantees `dst` holds `size_of_val(src)` bytes.
                unsafe { result::memcpy_htod_sync(dst, src) }
            }

            unsafe fn download(dst: &mut [Self], src: CUdeviceptr) -> Result<(), DriverError> {
                // SAFETY: the caller guarantees `src` holds `size_of_val(dst)` bytes, and every
                // bit pattern is a valid value of this integer or float type.
                unsafe { result::memcpy_dtoh_sync(dst, src) }
            }
        }
    };
}

plain_element!(i8, Int8);
plain_element!(i16, Int16);
plain_element!(u8, UInt8);
plain_element!(u16, UInt16);
plain_element!(u32, UInt32);
plain_element!(u64, UInt64);
plain_element!(i32, Int32);
plain_element!(i64, Int64);
plain_element!(f32, Float32);
plain_element!(f64, Float64);

// A complex element is its two float parts, as NumPy stores it: copied as twice as many floats.
macro_rules! complex_element {
    ($ty:ty, $f:ty, $kind:ident) => {
        impl DeviceElement for $ty {
            const TYPE: ElementType = ElementType::$kind;
        }

        impl sealed::Transfer for $ty {
            unsafe fn upload(dst: CUdeviceptr, src: &[Self]) -> Result<(), DriverError> {
                // SAFETY: `$ty` is two `$f`s with no padding (`repr(C)`), so the slice is
                // `2 * src.len()` floats; the caller guarantees `dst` holds that many bytes.
                unsafe {
                    let parts = std::slice::from_raw_parts(src.as_ptr() as *const $f, 2 * src.len());
                    result::memcpy_htod_sync(dst, parts)
                }
            }

            unsafe fn download(dst: &mut [Self], src: CUdeviceptr) -> Result<(), DriverError> {
                // SAFETY: as above, and every bit pattern is a valid float.
                unsafe {
                    let parts = std::slice::from_raw_parts_mut(dst.as_mut_ptr() as *mut $f, 2 * dst.len());
                    result::memcpy_dtoh_sync(parts, src)
                }
            }
        }
    };
}

complex_element!(num_complex::Complex32, f32, Complex64);
complex_element!(num_complex::Complex64, f64, Complex128);
complex_element!([f32; 2], f32, Complex64);
complex_element!([f64; 2], f64, Complex128);

impl DeviceElement for half::f16 {
    const TYPE: ElementType = ElementType::Float16;
}

// A float16 crosses the bus as its 16 bits.
impl sealed::Transfer for half::f16 {
    unsafe fn upload(dst: CUdeviceptr, src: &[Self]) -> Result<(), DriverError> {
        // SAFETY: `f16` is `repr(transparent)` over `u16`; the caller guarantees `dst` holds
        // `size_of_val(src)` bytes.
        unsafe {
            let bits = std::slice::from_raw_parts(src.as_ptr() as *const u16, src.len());
            result::memcpy_htod_sync(dst, bits)
        }
    }

    unsafe fn download(dst: &mut [Self], src: CUdeviceptr) -> Result<(), DriverError> {
        // SAFETY: as above, and every 16-bit pattern is a valid `f16`.
        unsafe {
            let bits = std::slice::from_raw_parts_mut(dst.as_mut_ptr() as *mut u16, dst.len());
            result::memcpy_dtoh_sync(bits, src)
        }
    }
}

impl DeviceElement for bool {
    const TYPE: ElementType = ElementType::Bool;
}

impl sealed::Transfer for bool {
    unsafe fn upload(dst: CUdeviceptr, src: &[Self]) -> Result<(), DriverError> {
        // SAFETY: the caller guarantees `dst` holds `src.len()` bytes; a host bool is one byte,
        // 0 or 1, which is the device representation.
        unsafe { result::memcpy_htod_sync(dst, src) }
    }

    unsafe fn download(dst: &mut [Self], src: CUdeviceptr) -> Result<(), DriverError> {
        // A kernel may have stored any byte; reading it straight into a `bool` would be UB.
        let mut bytes = vec![0u8; dst.len()];
        // SAFETY: the caller guarantees `src` holds `dst.len()` bytes; any byte is a valid u8.
        unsafe { result::memcpy_dtoh_sync(&mut bytes, src) }?;
        for (out, byte) in dst.iter_mut().zip(&bytes) {
            *out = *byte != 0;
        }
        Ok(())
    }
}
