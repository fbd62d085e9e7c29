//! Finding and initialising the CUDA driver library.
//!
//! cudarc loads `libcuda` lazily and panics when it is missing, so every public entry point
//! goes through [`ready`] first, which checks for the library once per process and calls
//! `cuInit` once. Invariant: no cudarc function is called unless [`ready`] returned `Ok` (or a
//! value that can only exist after it did, such as a `Device`).

use std::sync::OnceLock;

use cudarc::driver::{result, sys};

use crate::error::{code_message, code_name, driver_error, CudaError, Result};

#[derive(Clone, Copy)]
enum DriverState {
    /// No `libcuda` could be loaded.
    Missing,
    /// The library loaded but `cuInit` failed with this code.
    InitFailed(sys::CUresult),
    Ready,
}

fn state() -> DriverState {
    static STATE: OnceLock<DriverState> = OnceLock::new();
    *STATE.get_or_init(|| {
        // SAFETY: this only tries to dlopen the CUDA driver library under its usual names and
        // closes it again; running the driver's own initialisers is what any CUDA program does.
        let present = unsafe { sys::is_culib_present() };
        if !present {
            return DriverState::Missing;
        }
        match result::init() {
            Ok(()) => DriverState::Ready,
            Err(error) => DriverState::InitFailed(error.0),
        }
    })
}

const MISSING_REASON: &str = "no CUDA driver library (libcuda.so) could be loaded; install the NVIDIA driver, \
     or add the directory holding libcuda.so to LD_LIBRARY_PATH";

fn init_failed_reason(code: sys::CUresult) -> String {
    format!("cuInit failed: {}: {}", code_name(code), code_message(result::DriverError(code)))
}

/// `Ok` when the driver library is loaded and `cuInit` succeeded.
pub(crate) fn ready() -> Result<()> {
    match state() {
        DriverState::Ready => Ok(()),
        DriverState::Missing => Err(CudaError::NoDriver { reason: MISSING_REASON.to_string() }),
        DriverState::InitFailed(code) => Err(CudaError::NoDriver { reason: init_failed_reason(code) }),
    }
}

/// Whether the CUDA driver can be used: `Err` says why not (no `libcuda`, or `cuInit` failed,
/// which includes "no CUDA-capable device is detected").
pub fn driver_available() -> std::result::Result<(), String> {
    match state() {
        DriverState::Ready => Ok(()),
        DriverState::Missing => Err(MISSING_REASON.to_string()),
        DriverState::InitFailed(code) => Err(init_failed_reason(code)),
    }
}

/// The CUDA version the installed driver supports, as (major, minor), e.g. (13, 0).
pub fn driver_version() -> Result<(u32, u32)> {
    if let DriverState::Missing = state() {
        return Err(CudaError::NoDriver { reason: MISSING_REASON.to_string() });
    }
    let mut version: std::ffi::c_int = 0;
    // SAFETY: the library is loaded (checked above); cuDriverGetVersion needs no cuInit and
    // writes one int through the valid pointer.
    let code = unsafe { sys::cuDriverGetVersion(&mut version) };
    code.result().map_err(|e| driver_error("cuDriverGetVersion", e))?;
    let version = u32::try_from(version).unwrap_or(0);
    Ok((version / 1000, (version % 1000) / 10))
}

/// How many CUDA devices the driver sees. A driver that reports "no device" at `cuInit` gives
/// `Ok(0)`; a missing driver gives [`CudaError::NoDriver`].
pub fn device_count() -> Result<usize> {
    match state() {
        DriverState::Missing => Err(CudaError::NoDriver { reason: MISSING_REASON.to_string() }),
        DriverState::InitFailed(sys::CUresult::CUDA_ERROR_NO_DEVICE) => Ok(0),
        DriverState::InitFailed(code) => Err(CudaError::NoDriver { reason: init_failed_reason(code) }),
        DriverState::Ready => {
            let count = result::device::get_count().map_err(|e| driver_error("cuDeviceGetCount", e))?;
            Ok(usize::try_from(count).unwrap_or(0))
        }
    }
}

/// Looks up the first of `names` that the loaded driver exports, without panicking when none
/// is (cudarc's own bindings panic on a missing symbol, e.g. a `_v2` entry point that an older
/// driver lacks).
///
/// # Safety
/// [`ready`] must have returned `Ok` (the library is loaded), and `F` must be the exact C
/// signature of every symbol in `names`.
pub(crate) unsafe fn optional_symbol<F: Copy>(names: &[&str]) -> Option<F> {
    // SAFETY: the caller guarantees the library is present, so culib() finds it, not panics.
    let library = unsafe { sys::culib() };
    names.iter().find_map(|name| {
        // SAFETY: the caller guarantees `F` is the symbol's signature.
        let symbol = unsafe { library.get::<F>(name.as_bytes()) };
        symbol.ok().map(|symbol| *symbol)
    })
}
