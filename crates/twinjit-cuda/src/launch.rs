//! Launch configurations, the pure check of a configuration against device and kernel limits,
//! and the launch itself.
//!
//! [`check_launch`] runs before every launch so that a configuration the driver would refuse
//! with a bare `CUDA_ERROR_INVALID_VALUE` is reported with the limit, the value and the device.
//! The launch path queries nothing and allocates nothing for up to [`INLINE_PARAMS`] parameters.

use std::ffi::c_void;
use std::sync::atomic::Ordering;

use cudarc::driver::{result, sys::CUfunction_attribute as FuncAttr};

use crate::error::{launch_error, CudaError, Result};
use crate::module::Kernel;
use crate::properties::DeviceProperties;
use crate::stream::Stream;

/// Parameters passed without a heap allocation.
pub const INLINE_PARAMS: usize = 32;

/// Grid and block extents of a launch, and its dynamic shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Blocks in x, y, z.
    pub grid: [u32; 3],
    /// Threads per block in x, y, z.
    pub block: [u32; 3],
    /// Dynamic shared memory per block, in bytes.
    pub shared_mem_bytes: u32,
}

impl LaunchConfig {
    /// A launch of `grid` blocks and `block` threads per block, no dynamic shared memory.
    pub fn new(grid: [u32; 3], block: [u32; 3]) -> Self {
        LaunchConfig { grid, block, shared_mem_bytes: 0 }
    }

    /// A one-dimensional launch: `grid` blocks of `block` threads.
    pub fn linear(grid: u32, block: u32) -> Self {
        Self::new([grid, 1, 1], [block, 1, 1])
    }

    /// The same launch with `bytes` of dynamic shared memory per block.
    pub fn with_shared_mem_bytes(self, bytes: u32) -> Self {
        LaunchConfig { shared_mem_bytes: bytes, ..self }
    }

    /// Threads per block (x * y * z); saturates at `u64::MAX` (far past any device's limit).
    pub fn threads_per_block(&self) -> u64 {
        self.block.iter().fold(1u64, |threads, &extent| threads.saturating_mul(u64::from(extent)))
    }
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// Checks `cfg` against the limits of the device (`props`) and of the kernel: every extent is at
/// least 1; threads per block fit the device's and the kernel's maximum (`kernel_max_threads`,
/// 0 for "no kernel limit"); each block and grid extent fits the device's; static plus dynamic
/// shared memory fits the device's opt-in maximum. The first violation is a
/// [`CudaError::LaunchLimit`].
pub fn check_launch(
    props: &DeviceProperties,
    kernel: &str,
    cfg: &LaunchConfig,
    kernel_max_threads: u32,
    static_shared: u32,
) -> Result<()> {
    let limit = |limit: String, value: u64, max: u64, attribute: &str| CudaError::LaunchLimit {
        kernel: kernel.to_string(),
        limit,
        value,
        max,
        device: props.name.clone(),
        attribute: attribute.to_string(),
    };

    let block_limit = |axis: usize, name: &str, value: u32| {
        limit(
            format!("threads in block dimension {name}"),
            u64::from(value),
            u64::from(props.max_block_dim[axis]),
            &format!("CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_{}", name.to_uppercase()),
        )
    };
    let grid_limit = |axis: usize, name: &str, value: u32| {
        limit(
            format!("blocks in grid dimension {name}"),
            u64::from(value),
            u64::from(props.max_grid_dim[axis]),
            &format!("CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_{}", name.to_uppercase()),
        )
    };

    for (axis, name) in AXES.iter().enumerate() {
        if cfg.block[axis] == 0 {
            return Err(block_limit(axis, name, 0));
        }
        if cfg.grid[axis] == 0 {
            return Err(grid_limit(axis, name, 0));
        }
    }

    let threads = cfg.threads_per_block();
    if threads > u64::from(props.max_threads_per_block) {
        return Err(limit(
            "threads per block".to_string(),
            threads,
            u64::from(props.max_threads_per_block),
            "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
        ));
    }
    if kernel_max_threads != 0 && threads > u64::from(kernel_max_threads) {
        return Err(limit(
            "threads per block".to_string(),
            threads,
            u64::from(kernel_max_threads),
            "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: this kernel's register use or launch bounds",
        ));
    }

    for (axis, name) in AXES.iter().enumerate() {
        if cfg.block[axis] > props.max_block_dim[axis] {
            return Err(block_limit(axis, name, cfg.block[axis]));
        }
    }
    for (axis, name) in AXES.iter().enumerate() {
        if cfg.grid[axis] > props.max_grid_dim[axis] {
            return Err(grid_limit(axis, name, cfg.grid[axis]));
        }
    }

    let shared = u64::from(static_shared) + u64::from(cfg.shared_mem_bytes);
    let (shared_max, attribute) = if props.max_shared_memory_per_block_optin > props.max_shared_memory_per_block {
        (props.max_shared_memory_per_block_optin, "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN")
    } else {
        (props.max_shared_memory_per_block, "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK")
    };
    if shared > u64::from(shared_max) {
        return Err(limit(
            format!("bytes of shared memory per block ({static_shared} static + {} dynamic)", cfg.shared_mem_bytes),
            shared,
            u64::from(shared_max),
            attribute,
        ));
    }
    Ok(())
}

impl Kernel {
    /// Checks `cfg` ([`check_launch`]) and queues the kernel on `stream`. Returns once the launch
    /// is queued; errors while the kernel runs surface at the next synchronization as
    /// [`CudaError::Fault`].
    ///
    /// Each parameter occupies one 8-byte slot; the driver reads each parameter's size (from
    /// the kernel's PTX signature) from the start of its slot, so on this little-endian host a
    /// 1-, 4- or 8-byte scalar or a device pointer sits in the low bytes.
    ///
    /// Where the driver reports parameter sizes (CUDA 12.4 or later), a parameter count that
    /// differs from the kernel's, or a parameter wider than 8 bytes, is a [`CudaError::Launch`]
    /// error instead of undefined behaviour.
    ///
    /// # Safety
    /// The caller guarantees that `params` match the kernel's PTX signature in number, and each
    /// in type and size (none wider than 8 bytes), and that every pointer parameter points to
    /// live device memory of this device, large enough for every access the kernel makes, for
    /// as long as the kernel runs (until a later synchronization).
    pub unsafe fn launch(&self, cfg: &LaunchConfig, stream: &Stream, params: &[u64]) -> Result<()> {
        let kernel = &*self.inner;
        let device = self.device();
        let props = device.properties();
        check_launch(
            props,
            &kernel.name,
            cfg,
            kernel.attributes.max_threads_per_block,
            kernel.attributes.static_shared_bytes,
        )?;
        if let Some(sizes) = &kernel.param_sizes {
            self.check_params(sizes, params.len())?;
        }
        if !stream.device().same_context(device) {
            return Err(CudaError::Launch {
                kernel: kernel.name.to_string(),
                code: "CUDA_ERROR_INVALID_CONTEXT".to_string(),
                message: format!(
                    "the stream belongs to device {}, the kernel to device {}",
                    stream.device().ordinal(),
                    device.ordinal()
                ),
            });
        }
        device.bind().map_err(|e| launch_error(&kernel.name, e))?;

        let shared = u64::from(kernel.attributes.static_shared_bytes) + u64::from(cfg.shared_mem_bytes);
        if shared > u64::from(props.max_shared_memory_per_block) && !kernel.shared_opted_in.load(Ordering::Relaxed) {
            // Raise the kernel's dynamic shared memory cap to the device's opt-in maximum once;
            // the value never changes afterwards, so racing launches write the same value.
            let cap = props.max_shared_memory_per_block_optin.saturating_sub(kernel.attributes.static_shared_bytes);
            // SAFETY: the function belongs to the live module held by `kernel`; the context is
            // current.
            unsafe {
                result::function::set_function_attribute(
                    kernel.raw,
                    FuncAttr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    i32::try_from(cap).unwrap_or(i32::MAX),
                )
            }
            .map_err(|e| launch_error(&kernel.name, e))?;
            kernel.shared_opted_in.store(true, Ordering::Relaxed);
        }

        // One pointer per parameter, each to its 8-byte slot in `params`. The driver only reads
        // through them (cuLaunchKernel copies the values before returning).
        let mut inline = [std::ptr::null_mut::<c_void>(); INLINE_PARAMS];
        let mut spilled = Vec::new();
        let slots: &mut [*mut c_void] = if params.len() <= INLINE_PARAMS {
            for (slot, param) in inline.iter_mut().zip(params) {
                *slot = (param as *const u64).cast_mut().cast();
            }
            &mut inline[..params.len()]
        } else {
            spilled.extend(params.iter().map(|param| (param as *const u64).cast_mut().cast::<c_void>()));
            &mut spilled
        };
        let [gx, gy, gz] = cfg.grid;
        let [bx, by, bz] = cfg.block;
        if self.is_cooperative() {
            let max = self.max_cooperative_grid_blocks(cfg.block, cfg.shared_mem_bytes)?;
            let blocks = u64::from(gx) * u64::from(gy) * u64::from(gz);
            if blocks > u64::from(max) {
                return Err(CudaError::LaunchLimit {
                    kernel: kernel.name.to_string(),
                    limit: "blocks in a cooperative grid (the kernel syncs its grid: every block must be resident)"
                        .to_string(),
                    value: blocks,
                    max: u64::from(max),
                    device: props.name.clone(),
                    attribute: "cuOccupancyMaxActiveBlocksPerMultiprocessor x CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT"
                        .to_string(),
                });
            }
            // SAFETY: as for the plain launch below; a cooperative launch takes the same
            // arguments, and the grid fits the device's co-resident blocks (checked above).
            unsafe {
                cudarc::driver::sys::cuLaunchCooperativeKernel(
                    kernel.raw,
                    gx,
                    gy,
                    gz,
                    bx,
                    by,
                    bz,
                    cfg.shared_mem_bytes,
                    stream.raw(),
                    slots.as_mut_ptr(),
                )
                .result()
            }
            .map_err(|e| launch_error(&kernel.name, e))?;
            device.note_launch(&kernel.name);
            return Ok(());
        }
        // SAFETY: the function is live (its module is held by `kernel`), the stream is live and
        // in the current context, the configuration passed check_launch, and every slot points
        // to 8 readable bytes that outlive the call. That the parameters match the kernel's
        // signature and point to valid memory is this function's safety contract.
        unsafe {
            result::launch_kernel(kernel.raw, (gx, gy, gz), (bx, by, bz), cfg.shared_mem_bytes, stream.raw(), slots)
        }
        .map_err(|e| launch_error(&kernel.name, e))?;
        device.note_launch(&kernel.name);
        Ok(())
    }

    fn check_params(&self, sizes: &[usize], given: usize) -> Result<()> {
        let error = |message: String| CudaError::Launch {
            kernel: self.inner.name.to_string(),
            code: "CUDA_ERROR_INVALID_VALUE".to_string(),
            message,
        };
        if sizes.len() != given {
            return Err(error(format!("the kernel takes {} parameters, but {given} were given", sizes.len())));
        }
        if let Some((index, size)) = sizes.iter().enumerate().find(|(_, &size)| size > 8) {
            return Err(error(format!("parameter {index} is {size} bytes; launches pass 8-byte parameters")));
        }
        Ok(())
    }
}
