//! twinjit's CUDA runtime: devices, device arrays, modules loaded from PTX text, and kernel
//! launches, through the CUDA driver API (cudarc).
//!
//! This is the only twinjit crate that talks to the CUDA driver. It never links LLVM (PTX comes
//! in as text from `twinjit-ptx`) and knows nothing of Python, the IR or type signatures: a
//! launch takes raw 8-byte parameter slots that the facade marshals.
//!
//! Invariants:
//! - **No panic across the public API, and a machine without a driver gets an error value.**
//!   cudarc panics when `libcuda` is missing, so every entry point checks for the library (once
//!   per process) before calling it; see `driver.rs`.
//! - Every object holding device resources holds its [`Device`], so the context outlives it, and
//!   binds the context to the calling thread before each driver call: all types are usable from
//!   any thread.
//! - Streams are blocking streams, so array copies (on the legacy default stream) are ordered
//!   after launches on any stream of this crate.
//! - A launch is checked against the device's and the kernel's limits first ([`check_launch`]),
//!   so an impossible configuration is a [`CudaError::LaunchLimit`] naming the limit, not a
//!   bare `CUDA_ERROR_INVALID_VALUE`.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod array;
mod device;
pub mod dlpack;
mod driver;
mod element;
mod error;
mod launch;
mod module;
mod pinned;
mod properties;
mod stream;

pub use array::{check_shape, element_count, DeviceArray, MAX_DIMS};
pub use device::Device;
pub use driver::{device_count, driver_available, driver_version};
pub use element::{DeviceElement, ElementType};
pub use error::{CudaError, Result};
pub use launch::{check_launch, LaunchConfig, INLINE_PARAMS};
pub use module::{CudaModule, Kernel, KernelAttributes};
pub use pinned::PinnedBuffer;
pub use properties::DeviceProperties;
pub use stream::{Event, Stream};
