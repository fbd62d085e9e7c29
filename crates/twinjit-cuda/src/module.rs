//! Modules loaded from PTX text, and the kernels in them.
//!
//! Loading uses `cuModuleLoadDataEx` with the JIT's error and info log buffers, so rejected PTX
//! comes back with ptxas's message (cudarc's `load_module` gives only the result code). A
//! [`Kernel`] reads its attributes once, at lookup, so launching queries nothing.

use std::ffi::{c_void, CString};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use cudarc::driver::{result, sys, sys::CUfunction_attribute as FuncAttr, sys::CUjit_option as Jit};

use crate::device::Device;
use crate::driver::optional_symbol;
use crate::error::{code_message, code_name, driver_error, CudaError, Result};

/// Bytes of each JIT log buffer; ptxas messages are short, this bounds a pathological one.
const LOG_BYTES: usize = 64 * 1024;

/// Most kernel parameters probed with `cuFuncGetParamInfo` (the driver allows 32764 bytes of
/// parameters; 8-byte slots give at most 4095).
const MAX_PARAMS: usize = 4096;

/// A module loaded into a device's context; unloaded when the last handle (including every
/// [`Kernel`] from it) is dropped.
#[derive(Clone)]
pub struct CudaModule {
    inner: Arc<ModuleInner>,
}

struct ModuleInner {
    device: Device,
    raw: sys::CUmodule,
    info_log: String,
}

// SAFETY: a CUmodule is a driver handle usable from any thread once its context is current,
// and every use here binds the context first; the handle is never mutated after loading.
unsafe impl Send for ModuleInner {}
// SAFETY: as above; shared references only pass the handle to thread-safe driver calls.
unsafe impl Sync for ModuleInner {}

impl Drop for ModuleInner {
    fn drop(&mut self) {
        if self.device.bind().is_ok() {
            // SAFETY: the module was loaded in this context and is unloaded only here, once; no
            // Kernel outlives it (each holds a CudaModule).
            let _ = unsafe { result::module::unload(self.raw) };
        }
    }
}

impl fmt::Debug for CudaModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CudaModule").field("device", &self.inner.device.ordinal()).finish_non_exhaustive()
    }
}

/// PTX text as the driver takes it (NUL-terminated); a NUL inside is a load error.
fn ptx_image(ptx: &str) -> Result<CString> {
    CString::new(ptx).map_err(|e| CudaError::ModuleLoad {
        code: "CUDA_ERROR_INVALID_PTX".to_string(),
        log: format!("the PTX text has a NUL byte at offset {}", e.nul_position()),
    })
}

/// The text the JIT wrote into a log buffer: up to the size it reports and the first NUL.
fn log_text(buffer: &[u8], reported: usize) -> String {
    let filled = &buffer[..reported.min(buffer.len())];
    let end = filled.iter().position(|&b| b == 0).unwrap_or(filled.len());
    String::from_utf8_lossy(&filled[..end]).trim_end().to_string()
}

/// What loading machine code on cuda-sim's device gives: it has no driver (kernels reach it
/// compiled for the CPU, through the facade).
fn simulated_no_ptx() -> CudaError {
    CudaError::NoDriver {
        reason: "cuda-sim's device runs kernels compiled for this CPU (twinjit::sim), not PTX or cubins".into(),
    }
}

impl Device {
    /// Loads PTX text into this device's context (the driver JIT-compiles it for the device).
    /// Rejected PTX gives [`CudaError::ModuleLoad`] with the JIT's error log.
    pub fn load_ptx(&self, ptx: &str) -> Result<CudaModule> {
        if self.is_simulated() {
            return Err(simulated_no_ptx());
        }
        let image = ptx_image(ptx)?;
        self.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;

        let mut error_log = vec![0u8; LOG_BYTES];
        let mut info_log = vec![0u8; LOG_BYTES];
        let mut options = [
            Jit::CU_JIT_ERROR_LOG_BUFFER,
            Jit::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            Jit::CU_JIT_INFO_LOG_BUFFER,
            Jit::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        ];
        // Size options pass the number itself in the pointer slot; the driver writes back how
        // many bytes it filled.
        let mut values: [*mut c_void; 4] = [
            error_log.as_mut_ptr().cast(),
            std::ptr::without_provenance_mut(LOG_BYTES),
            info_log.as_mut_ptr().cast(),
            std::ptr::without_provenance_mut(LOG_BYTES),
        ];
        let mut raw: sys::CUmodule = std::ptr::null_mut();
        // SAFETY: `image` is a NUL-terminated PTX string; the four options and values match in
        // number and kind, the log buffers are LOG_BYTES long and outlive the call, and `raw`
        // is a valid out pointer. The context is current.
        let code = unsafe {
            sys::cuModuleLoadDataEx(
                &mut raw,
                image.as_ptr().cast(),
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        let error_text = log_text(&error_log, values[1].addr());
        let info_text = log_text(&info_log, values[3].addr());
        if let Err(error) = code.result() {
            let log = if error_text.is_empty() { info_text } else { error_text };
            let log = if log.is_empty() { code_message(error) } else { log };
            return Err(CudaError::ModuleLoad { code: code_name(error.0), log });
        }
        Ok(CudaModule { inner: Arc::new(ModuleInner { device: self.clone(), raw, info_log: info_text }) })
    }
}

impl Device {
    /// Compiles PTX text for this device with the driver's JIT linker and returns the cubin
    /// (machine code for this device's architecture), which [`Device::load_cubin`] loads
    /// without compiling again: what a cache stores so that a later process skips the JIT.
    /// Rejected PTX gives [`CudaError::ModuleLoad`] with the JIT's error log.
    pub fn ptx_to_cubin(&self, ptx: &str) -> Result<Vec<u8>> {
        if self.is_simulated() {
            return Err(simulated_no_ptx());
        }
        let image = ptx_image(ptx)?;
        self.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let mut error_log = vec![0u8; LOG_BYTES];
        let mut options = [Jit::CU_JIT_ERROR_LOG_BUFFER, Jit::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
        let mut values: [*mut c_void; 2] = [error_log.as_mut_ptr().cast(), std::ptr::without_provenance_mut(LOG_BYTES)];
        let mut state: sys::CUlinkState = std::ptr::null_mut();
        // SAFETY: two options with matching values (a buffer of LOG_BYTES that outlives the
        // link state, and its size); `state` is a valid out pointer; the context is current.
        let code = unsafe { sys::cuLinkCreate_v2(2, options.as_mut_ptr(), values.as_mut_ptr(), &mut state) };
        code.result().map_err(|e| driver_error("cuLinkCreate", e))?;
        let link = LinkState(state);
        let bytes = image.as_bytes_with_nul();
        // SAFETY: `bytes` is the NUL-terminated PTX of the given length, read during the call;
        // the name is a C string; no per-input options.
        let code = unsafe {
            sys::cuLinkAddData_v2(
                link.0,
                sys::CUjitInputType::CU_JIT_INPUT_PTX,
                bytes.as_ptr() as *mut c_void,
                bytes.len(),
                c"twinjit.ptx".as_ptr(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        let mut cubin: *mut c_void = std::ptr::null_mut();
        let mut size = 0usize;
        let code = code.result().and_then(|()| {
            // SAFETY: valid out pointers; the cubin stays owned by the link state, which lives
            // until `link` is dropped below, after the copy.
            unsafe { sys::cuLinkComplete(link.0, &mut cubin, &mut size) }.result()
        });
        if let Err(error) = code {
            let log = log_text(&error_log, values[1].addr());
            let log = if log.is_empty() { code_message(error) } else { log };
            return Err(CudaError::ModuleLoad { code: code_name(error.0), log });
        }
        if cubin.is_null() || size == 0 {
            return Err(CudaError::ModuleLoad {
                code: "CUDA_ERROR_UNKNOWN".into(),
                log: "the linker returned no cubin".into(),
            });
        }
        // SAFETY: the driver returned `size` readable bytes at `cubin`, valid until the link
        // state is destroyed (after this copy).
        Ok(unsafe { std::slice::from_raw_parts(cubin.cast::<u8>(), size) }.to_vec())
    }

    /// Loads a cubin from [`Device::ptx_to_cubin`] (no JIT compilation). A cubin for another
    /// architecture gives [`CudaError::ModuleLoad`] (the caller loads the PTX instead), as does
    /// an image whose ELF header or section and program tables do not fit in `cubin`.
    ///
    /// # Safety
    /// `cuModuleLoadData` takes no length: the driver trusts the image's own offsets. The
    /// checks here keep the ELF tables inside the slice, but not everything the driver reads,
    /// so `cubin` must be an image a CUDA toolchain or driver produced (such as the bytes of
    /// [`Device::ptx_to_cubin`], or a cache entry whose checksum covers them).
    pub unsafe fn load_cubin(&self, cubin: &[u8]) -> Result<CudaModule> {
        if self.is_simulated() {
            return Err(simulated_no_ptx());
        }
        check_elf(cubin).map_err(|why| CudaError::ModuleLoad {
            code: "CUDA_ERROR_INVALID_IMAGE".into(),
            log: format!("not a well-formed cubin: {why}"),
        })?;
        self.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let mut raw: sys::CUmodule = std::ptr::null_mut();
        // SAFETY: `cubin` is an ELF image whose tables lie within the slice (checked above)
        // and, by the caller's contract, was produced by CUDA; it stays in memory for the call
        // (the driver copies what it needs); `raw` is a valid out pointer; the context is
        // current.
        let code = unsafe { sys::cuModuleLoadData(&mut raw, cubin.as_ptr().cast()) };
        if let Err(error) = code.result() {
            return Err(CudaError::ModuleLoad { code: code_name(error.0), log: code_message(error) });
        }
        Ok(CudaModule { inner: Arc::new(ModuleInner { device: self.clone(), raw, info_log: String::new() }) })
    }
}

/// A 64-bit little-endian ELF image whose section and program header tables, and every
/// section and segment with file contents, lie within `image`.
fn check_elf(image: &[u8]) -> std::result::Result<(), &'static str> {
    let u16_at = |at: usize| image.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]) as usize);
    let u32_at = |at: usize| image.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let u64_at =
        |at: usize| image.get(at..at + 8).and_then(|b| usize::try_from(u64::from_le_bytes(b.try_into().ok()?)).ok());
    let fits = |off: usize, len: usize| off.checked_add(len).is_some_and(|end| end <= image.len());
    if image.len() < 64 || &image[..4] != b"\x7fELF" {
        return Err("no ELF header");
    }
    if image[4] != 2 || image[5] != 1 {
        return Err("not a 64-bit little-endian ELF image");
    }
    let bad = "an ELF table points outside the image";
    let (phoff, shoff) = (u64_at(0x20).ok_or(bad)?, u64_at(0x28).ok_or(bad)?);
    let (phentsize, phnum) = (u16_at(0x36).ok_or(bad)?, u16_at(0x38).ok_or(bad)?);
    let (shentsize, shnum) = (u16_at(0x3a).ok_or(bad)?, u16_at(0x3c).ok_or(bad)?);
    if (phnum > 0 && phentsize < 56) || (shnum > 0 && shentsize < 64) {
        return Err("ELF table entries are too small");
    }
    if !fits(phoff, phentsize * phnum) || !fits(shoff, shentsize * shnum) {
        return Err(bad);
    }
    for i in 0..shnum {
        let h = shoff + i * shentsize;
        const SHT_NOBITS: u32 = 8;
        if u32_at(h + 4).ok_or(bad)? != SHT_NOBITS && !fits(u64_at(h + 0x18).ok_or(bad)?, u64_at(h + 0x20).ok_or(bad)?)
        {
            return Err("an ELF section lies outside the image");
        }
    }
    for i in 0..phnum {
        let h = phoff + i * phentsize;
        if !fits(u64_at(h + 0x08).ok_or(bad)?, u64_at(h + 0x20).ok_or(bad)?) {
            return Err("an ELF segment lies outside the image");
        }
    }
    Ok(())
}

/// A JIT link in progress, destroyed on drop.
struct LinkState(sys::CUlinkState);

impl Drop for LinkState {
    fn drop(&mut self) {
        // SAFETY: created by cuLinkCreate and destroyed only here.
        let _ = unsafe { sys::cuLinkDestroy(self.0) };
    }
}

impl CudaModule {
    /// The device the module is loaded on.
    pub fn device(&self) -> &Device {
        &self.inner.device
    }

    /// The JIT compiler's informational log (often empty).
    pub fn info_log(&self) -> &str {
        &self.inner.info_log
    }

    /// Looks up a kernel (`.entry`) by name and reads its attributes.
    pub fn kernel(&self, name: &str) -> Result<Kernel> {
        let missing = || CudaError::MissingKernel { name: name.to_string() };
        // The driver answers CUDA_ERROR_INVALID_VALUE, not NOT_FOUND, for an empty name.
        if name.is_empty() {
            return Err(missing());
        }
        let c_name = CString::new(name).map_err(|_| missing())?;
        let device = &self.inner.device;
        device.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let mut raw: sys::CUfunction = std::ptr::null_mut();
        // SAFETY: the module is live (held by self), the name is NUL-terminated, `raw` is a
        // valid out pointer, and the context is current.
        let code = unsafe { sys::cuModuleGetFunction(&mut raw, self.inner.raw, c_name.as_ptr()) };
        match code {
            sys::CUresult::CUDA_SUCCESS => {}
            sys::CUresult::CUDA_ERROR_NOT_FOUND => return Err(missing()),
            other => return Err(driver_error("cuModuleGetFunction", result::DriverError(other))),
        }

        let attribute = |which: FuncAttr| -> Result<u32> {
            // SAFETY: `raw` is a function of the live module; the context is current.
            let value = unsafe { result::function::get_function_attribute(raw, which) }
                .map_err(|e| driver_error(&format!("cuFuncGetAttribute({which:?})"), e))?;
            Ok(u32::try_from(value).unwrap_or(0))
        };
        let attributes = KernelAttributes {
            max_threads_per_block: attribute(FuncAttr::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            static_shared_bytes: attribute(FuncAttr::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
            num_registers: attribute(FuncAttr::CU_FUNC_ATTRIBUTE_NUM_REGS)?,
            local_bytes: attribute(FuncAttr::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?,
            const_bytes: attribute(FuncAttr::CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)?,
            ptx_version: attribute(FuncAttr::CU_FUNC_ATTRIBUTE_PTX_VERSION)?,
            binary_version: attribute(FuncAttr::CU_FUNC_ATTRIBUTE_BINARY_VERSION)?,
        };
        Ok(Kernel {
            inner: Arc::new(KernelInner {
                module: self.clone(),
                raw,
                name: Arc::from(name),
                attributes,
                param_sizes: param_sizes(raw),
                shared_opted_in: AtomicBool::new(false),
                cooperative: AtomicBool::new(false),
            }),
        })
    }
}

type ParamInfoFn = unsafe extern "C" fn(sys::CUfunction, usize, *mut usize, *mut usize) -> sys::CUresult;

/// The byte size of each kernel parameter, from `cuFuncGetParamInfo` (drivers from CUDA 12.4);
/// `None` when the driver cannot say. Called with the kernel's context current.
fn param_sizes(function: sys::CUfunction) -> Option<Vec<usize>> {
    // SAFETY: a Kernel exists only after the driver loaded; the symbol's C signature is
    // `CUresult (CUfunction, size_t, size_t*, size_t*)`.
    let get_info = unsafe { optional_symbol::<ParamInfoFn>(&["cuFuncGetParamInfo"]) }?;
    let mut sizes = Vec::new();
    for index in 0..MAX_PARAMS {
        let (mut offset, mut size) = (0usize, 0usize);
        // SAFETY: `function` is live and its context current; both out pointers are valid.
        let code = unsafe { get_info(function, index, &mut offset, &mut size) };
        match code {
            sys::CUresult::CUDA_SUCCESS => sizes.push(size),
            // The index is past the last parameter.
            sys::CUresult::CUDA_ERROR_INVALID_VALUE => return Some(sizes),
            _ => return None,
        }
    }
    None
}

/// What the driver reports about a compiled kernel (`cuFuncGetAttribute`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KernelAttributes {
    /// The most threads per block this kernel can be launched with (its registers or launch
    /// bounds may make it lower than the device's limit).
    pub max_threads_per_block: u32,
    pub static_shared_bytes: u32,
    /// Registers per thread.
    pub num_registers: u32,
    /// Local memory per thread (spills and stack), in bytes.
    pub local_bytes: u32,
    pub const_bytes: u32,
    /// PTX ISA version the kernel was compiled from, major * 10 + minor.
    pub ptx_version: u32,
    /// SASS architecture it was compiled to, major * 10 + minor.
    pub binary_version: u32,
}

/// A kernel of a loaded module. Keeps the module loaded; cloning is cheap.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) inner: Arc<KernelInner>,
}

pub(crate) struct KernelInner {
    pub(crate) module: CudaModule,
    pub(crate) raw: sys::CUfunction,
    pub(crate) name: Arc<str>,
    pub(crate) attributes: KernelAttributes,
    pub(crate) param_sizes: Option<Vec<usize>>,
    /// Whether `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` was raised to the device's
    /// opt-in maximum (needed once a launch asks for more than the default 48 KiB).
    pub(crate) shared_opted_in: AtomicBool,
    /// Whether launches are cooperative (`cuLaunchCooperativeKernel`): the kernel syncs its
    /// grid, so every block must be resident at once.
    pub(crate) cooperative: AtomicBool,
}

// SAFETY: a CUfunction is a driver handle usable from any thread once its context is current,
// and every use here binds the context first; the handle is never mutated after lookup.
unsafe impl Send for KernelInner {}
// SAFETY: as above; the only shared mutable state is an atomic.
unsafe impl Sync for KernelInner {}

impl fmt::Debug for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.inner.name)
            .field("attributes", &self.inner.attributes)
            .finish_non_exhaustive()
    }
}

impl Kernel {
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    pub fn attributes(&self) -> &KernelAttributes {
        &self.inner.attributes
    }

    pub fn max_threads_per_block(&self) -> u32 {
        self.inner.attributes.max_threads_per_block
    }

    pub fn static_shared_bytes(&self) -> u32 {
        self.inner.attributes.static_shared_bytes
    }

    pub fn num_registers(&self) -> u32 {
        self.inner.attributes.num_registers
    }

    pub fn local_bytes(&self) -> u32 {
        self.inner.attributes.local_bytes
    }

    /// The byte size of each parameter, where the driver can report it (CUDA 12.4 or later).
    pub fn param_sizes(&self) -> Option<&[usize]> {
        self.inner.param_sizes.as_deref()
    }

    pub fn module(&self) -> &CudaModule {
        &self.inner.module
    }

    /// Makes every later launch cooperative (`cuLaunchCooperativeKernel`), as a kernel that
    /// syncs its grid needs; such a launch is refused when its grid is larger than
    /// [`Kernel::max_cooperative_grid_blocks`].
    pub fn set_cooperative(&self, cooperative: bool) {
        self.inner.cooperative.store(cooperative, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether launches are cooperative.
    pub fn is_cooperative(&self) -> bool {
        self.inner.cooperative.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The most blocks of `block` threads (with `dynamic_shared_bytes` of dynamic shared memory
    /// each) the device can hold at once: the largest grid a cooperative launch accepts
    /// (numba-cuda's `max_cooperative_grid_blocks`), from the driver's occupancy calculator.
    pub fn max_cooperative_grid_blocks(&self, block: [u32; 3], dynamic_shared_bytes: u32) -> Result<u32> {
        let device = self.module().device();
        device.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let threads = block.iter().fold(1u64, |t, &b| t.saturating_mul(u64::from(b)));
        let threads = i32::try_from(threads).unwrap_or(i32::MAX);
        // SAFETY: the function belongs to the live module held by this kernel; its context is
        // current.
        let per_sm = unsafe {
            cudarc::driver::result::occupancy::max_active_block_per_multiprocessor(
                self.inner.raw,
                threads,
                dynamic_shared_bytes as usize,
            )
        }
        .map_err(|e| driver_error("cuOccupancyMaxActiveBlocksPerMultiprocessor", e))?;
        Ok(u32::try_from(per_sm).unwrap_or(0).saturating_mul(device.properties().multiprocessors))
    }

    pub fn device(&self) -> &Device {
        &self.inner.module.inner.device
    }
}

#[cfg(test)]
mod tests {
    use super::check_elf;

    /// A 64-byte ELF64 header with one section header of `sh` (type, offset, size) at 64.
    fn image(sh: Option<(u32, u64, u64)>) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = 2;
        b[5] = 1;
        if let Some((ty, off, size)) = sh {
            b[0x28..0x30].copy_from_slice(&64u64.to_le_bytes());
            b[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
            b[0x3c..0x3e].copy_from_slice(&1u16.to_le_bytes());
            let mut h = vec![0u8; 64];
            h[4..8].copy_from_slice(&ty.to_le_bytes());
            h[0x18..0x20].copy_from_slice(&off.to_le_bytes());
            h[0x20..0x28].copy_from_slice(&size.to_le_bytes());
            b.extend_from_slice(&h);
        }
        b
    }

    #[test]
    fn elf_tables_must_lie_inside_the_image() {
        assert_eq!(check_elf(&image(None)), Ok(()));
        assert_eq!(check_elf(&image(Some((1, 0, 128)))), Ok(()));
        assert!(check_elf(&image(Some((1, 100, 29)))).is_err(), "section past the end");
        assert!(check_elf(&image(Some((1, u64::MAX, 2)))).is_err(), "offset overflow");
        // A section without file contents may claim any size.
        assert_eq!(check_elf(&image(Some((8, 0, 1 << 40)))), Ok(()));
        let full = image(Some((1, 0, 128)));
        for cut in [0, 4, 63, 64, 100] {
            assert!(check_elf(&full[..cut]).is_err(), "cut at {cut}");
        }
        let mut class32 = image(None);
        class32[4] = 1;
        assert!(check_elf(&class32).is_err());
        assert!(check_elf(b"not an elf image at all, but long enough to be read as a header....").is_err());
    }
}
