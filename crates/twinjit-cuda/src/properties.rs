//! What a device is and what it allows, read once when the device is opened.
//!
//! [`DeviceProperties`] is plain data so that launch checks ([`crate::check_launch`]) are pure
//! functions that tests can feed a fabricated device.

use cudarc::driver::{result, sys, sys::CUdevice_attribute as Attr};

use crate::error::{driver_error, Result};

/// A device's identity and limits, as the driver reports them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceProperties {
    pub ordinal: usize,
    /// E.g. "NVIDIA H200".
    pub name: String,
    /// (major, minor), e.g. (9, 0).
    pub compute_capability: (u32, u32),
    pub total_memory: u64,
    pub multiprocessors: u32,
    pub max_threads_per_block: u32,
    pub max_block_dim: [u32; 3],
    pub max_grid_dim: [u32; 3],
    /// Shared memory a block gets without opting in (48 KiB on every current GPU).
    pub max_shared_memory_per_block: u32,
    /// Shared memory a block may use after opting in with
    /// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` (227 KiB on an H100/H200).
    pub max_shared_memory_per_block_optin: u32,
    pub warp_size: u32,
    /// 0 where the driver no longer reports it.
    pub clock_rate_khz: u32,
    /// 0 where the driver no longer reports it.
    pub memory_clock_rate_khz: u32,
    pub memory_bus_width: u32,
    pub l2_cache_bytes: u32,
    /// `domain:bus:device.function` in hex, e.g. "0000:18:00.0".
    pub pci_bus_id: String,
}

impl DeviceProperties {
    /// The device `cuda-sim` stands in for: an NVIDIA H200's limits (compute capability 9.0,
    /// 132 multiprocessors, 1024 threads per block, 48 KiB of shared memory per block, 227 KiB
    /// with opt-in), so a launch the H200 would refuse is refused on the CPU too.
    pub fn cuda_sim_model() -> DeviceProperties {
        DeviceProperties {
            ordinal: 0,
            name: "cuda-sim (an NVIDIA H200's limits, on this CPU)".to_string(),
            compute_capability: (9, 0),
            total_memory: 150_000_000_000,
            multiprocessors: 132,
            max_threads_per_block: 1024,
            max_block_dim: [1024, 1024, 64],
            max_grid_dim: [2147483647, 65535, 65535],
            max_shared_memory_per_block: 48 * 1024,
            max_shared_memory_per_block_optin: 227 * 1024,
            warp_size: 32,
            clock_rate_khz: 0,
            memory_clock_rate_khz: 0,
            memory_bus_width: 0,
            l2_cache_bytes: 50 * 1024 * 1024,
            pci_bus_id: "cuda-sim".to_string(),
        }
    }

    /// The PTX target name of this device, e.g. "sm_90".
    pub fn arch(&self) -> String {
        format!("sm_{}{}", self.compute_capability.0, self.compute_capability.1)
    }
}

/// Reads every property of `device` (an ordinal the driver accepted).
pub(crate) fn query(ordinal: usize, device: sys::CUdevice) -> Result<DeviceProperties> {
    let get = |attribute: Attr| -> Result<u32> {
        // SAFETY: `device` came from cuDeviceGet, and the driver is initialised.
        let value = unsafe { result::device::get_attribute(device, attribute) }
            .map_err(|e| driver_error(&format!("cuDeviceGetAttribute({attribute:?})"), e))?;
        Ok(u32::try_from(value).unwrap_or(0))
    };
    // Attributes that newer drivers may stop reporting read as 0 rather than failing the open.
    let get_or_zero = |attribute: Attr| get(attribute).unwrap_or(0);

    let name = result::device::get_name(device).map_err(|e| driver_error("cuDeviceGetName", e))?;
    // SAFETY: as above.
    let total_memory = unsafe { result::device::total_mem(device) }.map_err(|e| driver_error("cuDeviceTotalMem", e))?;
    let pci_bus_id = format!(
        "{:04x}:{:02x}:{:02x}.0",
        get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
        get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
        get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
    );
    Ok(DeviceProperties {
        ordinal,
        name,
        compute_capability: (
            get(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            get(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ),
        total_memory: total_memory as u64,
        multiprocessors: get(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        max_threads_per_block: get(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
        max_block_dim: [
            get(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
            get(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
            get(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
        ],
        max_grid_dim: [
            get(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
            get(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
            get(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
        ],
        max_shared_memory_per_block: get(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
        max_shared_memory_per_block_optin: get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
        warp_size: get(Attr::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
        clock_rate_khz: get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
        memory_clock_rate_khz: get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
        memory_bus_width: get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
        l2_cache_bytes: get_or_zero(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
        pci_bus_id,
    })
}
