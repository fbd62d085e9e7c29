//! The crate's one error type, and the conversions from the driver's result codes.
//!
//! Every driver failure keeps the driver's own code name (`CUDA_ERROR_OUT_OF_MEMORY`) and its
//! `cuGetErrorString` text, so a message can be looked up in NVIDIA's documentation.

use cudarc::driver::{result::DriverError, sys};

/// Everything that can go wrong in this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CudaError {
    /// No CUDA driver library (`libcuda.so`) could be loaded, or `cuInit` failed.
    #[error("the CUDA driver is not available: {reason}")]
    NoDriver { reason: String },

    /// The driver works but has no device with this ordinal.
    #[error("there is no CUDA device {ordinal}: the driver sees {count} device(s)")]
    NoDevice { ordinal: usize, count: usize },

    /// A driver call failed outside a launch.
    #[error("{call} failed: {code}: {message}")]
    Driver { call: String, code: String, message: String },

    /// `cuModuleLoadDataEx` rejected the PTX; `log` is the JIT compiler's (ptxas's) error log.
    #[error("the CUDA driver could not load the PTX module: {code}{}", log_suffix(.log))]
    ModuleLoad { code: String, log: String },

    /// The module has no `.entry` with this name.
    #[error("the PTX module has no kernel named `{name}`")]
    MissingKernel { name: String },

    /// A launch configuration exceeds a limit of the device or of the kernel; found before the
    /// launch is submitted, so nothing ran.
    #[error(
        "launch of `{kernel}` asks for {value} {limit}, but {device} allows {} ({attribute})",
        allowed_range(.value, .max)
    )]
    LaunchLimit {
        kernel: String,
        /// What is limited, as a phrase: "threads per block", "threads in block dimension z".
        limit: String,
        value: u64,
        max: u64,
        /// The device's name, e.g. "NVIDIA H200".
        device: String,
        /// Where the maximum comes from, e.g. `CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK`.
        attribute: String,
    },

    /// `cuLaunchKernel` (or its preparation) failed; nothing ran.
    #[error("launch of `{kernel}` failed: {code}: {message}")]
    Launch { kernel: String, code: String, message: String },

    /// An error found when waiting for the device (synchronize, a copy, an event), caused by a
    /// kernel that failed while running, e.g. `CUDA_ERROR_ILLEGAL_ADDRESS`.
    ///
    /// Kernel errors surface at the next synchronization, so `kernel` names the last kernel
    /// launched on the device; an earlier one since the last synchronization may be at fault.
    /// The driver treats these errors as sticky: the context is unusable afterwards.
    #[error("kernel `{kernel}` failed on the device: {code}: {message}")]
    Fault { kernel: String, code: String, message: String },

    /// Host data and a device array disagree in length, or a shape is invalid.
    #[error("{message}")]
    Shape { message: String },
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, CudaError>;

fn log_suffix(log: &str) -> String {
    if log.trim().is_empty() {
        " (the JIT compiler wrote no log)".to_string()
    } else {
        format!("\n{}", log.trim_end())
    }
}

fn allowed_range(value: &u64, max: &u64) -> String {
    if *value == 0 {
        format!("1 to {max}")
    } else {
        format!("at most {max}")
    }
}

/// The code name of a driver result, e.g. `CUDA_ERROR_INVALID_VALUE`. Needs no driver call.
pub(crate) fn code_name(code: sys::CUresult) -> String {
    format!("{code:?}")
}

/// The driver's description of a result code (`cuGetErrorString`).
///
/// Only called with a code the driver itself returned, so the driver library is loaded.
pub(crate) fn code_message(error: DriverError) -> String {
    match error.error_string() {
        Ok(text) => text.to_string_lossy().into_owned(),
        Err(_) => "(cuGetErrorString knows no description)".to_string(),
    }
}

/// A failed driver call outside a launch.
pub(crate) fn driver_error(call: &str, error: DriverError) -> CudaError {
    CudaError::Driver { call: call.to_string(), code: code_name(error.0), message: code_message(error) }
}

/// A failed launch (or a failed step of preparing one).
pub(crate) fn launch_error(kernel: &str, error: DriverError) -> CudaError {
    CudaError::Launch { kernel: kernel.to_string(), code: code_name(error.0), message: code_message(error) }
}

/// Whether a result code reports a kernel that failed while running. The driver reports these
/// at the next synchronizing call, and they poison the context.
pub(crate) fn is_kernel_fault(code: sys::CUresult) -> bool {
    use sys::CUresult::*;
    matches!(
        code,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_ASSERT
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_LAUNCH_TIMEOUT
            | CUDA_ERROR_ECC_UNCORRECTABLE
    )
}
