//! The CUDA target in the facade (feature `cuda`): kernels specialised per argument types,
//! compiled to PTX by `twinjit-ptx`, loaded and launched on the engine's device by
//! `twinjit-cuda`.
//!
//! Launches are asynchronous, as in numba-cuda. [`crate::Engine::synchronize`] waits for the
//! device and reports what went wrong since the last synchronisation: a fault
//! (`CUDA_ERROR_ILLEGAL_ADDRESS`) or an error a kernel raised (an `IndexError` with bounds
//! checking on), naming the kernel, the source line and the first failing thread.

use crate::args::Element;
use crate::disk_cache::{wanted, Reader, Site, Writer};
use crate::error::Error;
use smallvec::SmallVec;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use twinjit_ir::abi::{self, GpuRecord, RaiseSite, GPU_RECORD_BYTES};
use twinjit_ir::{Scalar, Signature, Type};

pub use twinjit_cuda::{
    device_count, driver_available, driver_version, CudaError, Device, DeviceArray, DeviceElement, DeviceProperties,
    ElementType, Event, LaunchConfig, Stream,
};
pub use twinjit_ptx::{EntryKind, PtxModule, PtxOptions};

/// The CUDA side of an engine: its device, the PTX architecture and the kernels launched since
/// the last synchronisation that can report errors.
pub(crate) struct CudaBackend {
    pub(crate) device: Device,
    pub(crate) arch: String,
    pending: Mutex<Vec<Arc<CompiledKernel>>>,
}

impl std::fmt::Debug for CudaBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CudaBackend({}, {})", self.device.properties().name, self.arch)
    }
}

/// The architecture to generate PTX for on a device: its own if LLVM 19 knows it, else the
/// newest older one (PTX is forward compatible: the driver compiles it for the device).
pub(crate) fn arch_for(props: &DeviceProperties) -> String {
    let own = props.arch();
    if twinjit_ptx::KNOWN_ARCHS.contains(&own.as_str()) {
        return own;
    }
    let cc = props.compute_capability.0 * 10 + props.compute_capability.1;
    twinjit_ptx::KNOWN_ARCHS
        .iter()
        .filter(|a| !a.ends_with('a'))
        .filter_map(|a| a[3..].parse::<u32>().ok().map(|n| (n, *a)))
        .filter(|(n, _)| *n <= cc)
        .max()
        .map(|(_, a)| a.to_string())
        .unwrap_or_else(|| "sm_50".into())
}

impl CudaBackend {
    pub(crate) fn open(ordinal: usize) -> Result<CudaBackend, String> {
        let device = Device::open(ordinal).map_err(|e| e.to_string())?;
        let arch = arch_for(device.properties());
        Ok(CudaBackend { device, arch, pending: Mutex::new(Vec::new()) })
    }

    /// Remembers a launched kernel that can raise, so `synchronize` reads its error record.
    /// (Faults are attributed by the driver layer, which tracks the last kernel launched.)
    pub(crate) fn note_launch(&self, k: &Arc<CompiledKernel>) {
        if k.can_raise {
            let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if !p.iter().any(|x| Arc::ptr_eq(x, k)) {
                p.push(k.clone());
            }
        }
    }

    /// Waits for the device; reports a fault, then the first error a kernel raised.
    pub(crate) fn synchronize(&self) -> Result<(), Error> {
        self.device.synchronize().map_err(|e| cuda_error(e, None))?;
        let pending = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        for k in pending {
            k.check_errors()?;
        }
        Ok(())
    }
}

/// A host array passed where a kernel wants a device array.
pub(crate) fn host_array_error(kernel: &str, param: &str, dtype: &str) -> Error {
    Error::Argument {
        function: kernel.to_string(),
        param: Some(param.to_string()),
        message: format!(
            "a host array ({dtype}) was passed to a kernel; copy it to the device first \
             (engine.to_device(&data)?) and copy results back with copy_to_host"
        ),
    }
}

/// A CUDA driver error as a facade error.
pub(crate) fn cuda_error(e: CudaError, kernel: Option<&str>) -> Error {
    let kernel = match &e {
        CudaError::Fault { kernel, .. } | CudaError::Launch { kernel, .. } | CudaError::LaunchLimit { kernel, .. } => {
            Some(kernel.clone())
        }
        _ => kernel.map(str::to_string),
    };
    let message = match (&e, &kernel) {
        (CudaError::Driver { .. }, Some(k)) => format!("{e} (after launching `{k}`)"),
        _ => e.to_string(),
    };
    Error::Cuda { kernel, message }
}

/// A kernel argument: a scalar, a device array, or a host array (refused with a hint).
#[derive(Clone, Copy, Debug)]
pub enum KernelArg<'a> {
    /// `bool`, `int32`, `int64`, `float32`, `float64`.
    Scalar(crate::ArgValue<'static>),
    /// A device array: pointer, element type, shape (C order).
    Device {
        /// Device pointer.
        ptr: u64,
        /// Element type.
        dtype: Scalar,
        /// Dimensions (1 to 3).
        ndim: u8,
        /// Shape.
        shape: [i64; 3],
        /// Ties the argument to the borrow of the array.
        _life: PhantomData<&'a ()>,
    },
    /// A host slice where a device array belongs.
    Host {
        /// Its element type's name.
        dtype: &'static str,
    },
}

impl KernelArg<'_> {
    fn ty(&self) -> Option<Type> {
        match self {
            KernelArg::Scalar(a) => a.ty(),
            KernelArg::Device { dtype, ndim, .. } => {
                Some(Type::Array(twinjit_ir::ArrayType { dtype: *dtype, ndim: *ndim, layout: twinjit_ir::Layout::C }))
            }
            KernelArg::Host { .. } => None,
        }
    }

    fn write_slots(&self, out: &mut SmallVec<[u64; 24]>) {
        match self {
            KernelArg::Scalar(a) => {
                let mut s = [0u64; 1];
                a.write_slots(&mut s, 0);
                out.push(s[0]);
            }
            KernelArg::Device { ptr, ndim, shape, .. } => {
                let shape = &shape[..*ndim as usize];
                out.extend(abi::array_slots(*ptr, shape, abi::c_strides(shape)));
            }
            KernelArg::Host { .. } => {}
        }
    }
}

fn scalar_of_element(t: ElementType) -> Scalar {
    match t {
        ElementType::Bool => Scalar::Bool,
        ElementType::Int32 => Scalar::Int32,
        ElementType::Int64 => Scalar::Int64,
        ElementType::Float32 => Scalar::Float32,
        ElementType::Float64 => Scalar::Float64,
    }
}

/// Converts a Rust value into a kernel argument.
pub trait IntoKernelArg<'a> {
    /// The argument.
    fn into_kernel_arg(self) -> KernelArg<'a>;
}

macro_rules! scalar_kernel_arg {
    ($($t:ty => $v:ident),*) => {$(
        impl<'a> IntoKernelArg<'a> for $t {
            fn into_kernel_arg(self) -> KernelArg<'a> { KernelArg::Scalar(crate::ArgValue::$v(self)) }
        }
    )*};
}
scalar_kernel_arg!(bool => Bool, i32 => I32, i64 => I64, f32 => F32, f64 => F64);

fn device_arg<'a, T: DeviceElement>(a: &DeviceArray<T>) -> KernelArg<'a> {
    let mut shape = [0i64; 3];
    for (k, d) in a.shape().iter().take(3).enumerate() {
        shape[k] = *d as i64;
    }
    KernelArg::Device {
        ptr: a.device_ptr(),
        dtype: scalar_of_element(T::TYPE),
        ndim: a.ndim() as u8,
        shape,
        _life: PhantomData,
    }
}

impl<'a, T: DeviceElement> IntoKernelArg<'a> for &'a DeviceArray<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        device_arg(self)
    }
}
impl<'a, T: DeviceElement> IntoKernelArg<'a> for &'a mut DeviceArray<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        device_arg(self)
    }
}
impl<'a, T: Element> IntoKernelArg<'a> for &'a [T] {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::Host { dtype: T::SCALAR.name() }
    }
}
impl<'a, T: Element> IntoKernelArg<'a> for &'a mut [T] {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::Host { dtype: T::SCALAR.name() }
    }
}
impl<'a, T: Element> IntoKernelArg<'a> for &'a Vec<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::Host { dtype: T::SCALAR.name() }
    }
}
impl<'a> IntoKernelArg<'a> for KernelArg<'a> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        self
    }
}

/// A list of kernel arguments: tuples of up to 10 [`IntoKernelArg`] values, or a slice.
pub trait IntoKernelArgs<'a> {
    /// The arguments.
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]>;
}
impl<'a> IntoKernelArgs<'a> for &[KernelArg<'a>] {
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
        self.iter().copied().collect()
    }
}
impl<'a> IntoKernelArgs<'a> for Vec<KernelArg<'a>> {
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
        self.into_iter().collect()
    }
}
macro_rules! tuple_kernel_args {
    ($(($($n:ident),*)),*) => {$(
        impl<'a, $($n: IntoKernelArg<'a>),*> IntoKernelArgs<'a> for ($($n,)*) {
            #[allow(non_snake_case)]
            fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
                let ($($n,)*) = self;
                smallvec::smallvec![$($n.into_kernel_arg()),*]
            }
        }
    )*};
}
tuple_kernel_args!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H),
    (A, B, C, D, E, F, G, H, I),
    (A, B, C, D, E, F, G, H, I, J)
);
impl<'a> IntoKernelArgs<'a> for () {
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
        SmallVec::new()
    }
}

/// Where a kernel's machine code came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelOrigin {
    /// Compiled in this process: type inference, LLVM, the driver's JIT.
    Compiled,
    /// PTX from the disk cache, compiled by the driver's JIT.
    CachedPtx,
    /// The device's cubin from the disk cache: no compilation at all.
    CachedCubin,
}

/// One kernel compiled for one signature and loaded on the device.
pub struct CompiledKernel {
    pub(crate) name: String,
    params: Vec<String>,
    args: Vec<Type>,
    kernel: twinjit_cuda::Kernel,
    /// The error record (64 bytes) the entry receives; only read back when `can_raise`.
    gerr: Mutex<DeviceArray<i64>>,
    gerr_ptr: u64,
    can_raise: bool,
    sites: Vec<(String, Option<String>)>,
    ptx: String,
    compile_time: std::time::Duration,
    origin: KernelOrigin,
}

impl std::fmt::Debug for CompiledKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CompiledKernel({}{})", self.name, Signature { args: self.args.clone(), ret: Some(Type::None) })
    }
}

impl CompiledKernel {
    /// A kernel from its PTX and the module loaded from it on `backend`'s device.
    pub(crate) fn build(
        backend: &CudaBackend,
        sources: &twinjit_diag::SourceMap,
        name: String,
        args: Vec<Type>,
        (ptx, module, origin): (PtxModule, twinjit_cuda::CudaModule, KernelOrigin),
        params: Vec<String>,
        started: std::time::Instant,
    ) -> Result<CompiledKernel, Error> {
        if let Some(bytes) = ptx.stack_bytes {
            backend.device.ensure_stack_size(bytes).map_err(|e| cuda_error(e, Some(&name)))?;
        }
        let kernel = module.kernel(&ptx.entry).map_err(|e| cuda_error(e, Some(&name)))?;
        let gerr = DeviceArray::<i64>::zeros(&backend.device, &[GPU_RECORD_BYTES / 8])
            .map_err(|e| cuda_error(e, Some(&name)))?;
        let sites = ptx
            .sites
            .iter()
            .map(|s| {
                let loc = sources.location(s.span).map(|(f, lc)| format!("{f}:{}:{}", lc.line, lc.col));
                (s.function.clone(), loc)
            })
            .collect();
        Ok(CompiledKernel {
            name,
            params,
            args,
            kernel,
            gerr_ptr: gerr.device_ptr(),
            gerr: Mutex::new(gerr),
            can_raise: !ptx.sites.is_empty(),
            sites,
            ptx: ptx.ptx,
            compile_time: started.elapsed(),
            origin,
        })
    }

    /// The PTX it was loaded from.
    pub fn ptx(&self) -> &str {
        &self.ptx
    }

    /// Whether it was compiled here or came from the disk cache (as PTX or as a cubin).
    pub fn origin(&self) -> KernelOrigin {
        self.origin
    }

    /// Time from the source module to the loaded kernel (type inference, passes, LLVM, the
    /// driver's module load).
    pub fn compile_time(&self) -> std::time::Duration {
        self.compile_time
    }

    /// The signature.
    pub fn signature(&self) -> Signature {
        Signature { args: self.args.clone(), ret: Some(Type::None) }
    }

    /// Registers, static shared memory and local memory per thread, as the driver reports them.
    pub fn attributes(&self) -> &twinjit_cuda::KernelAttributes {
        self.kernel.attributes()
    }

    /// Enqueues a launch on `stream` (asynchronous). Arguments must have exactly this
    /// specialisation's types.
    pub fn launch_on(&self, stream: &Stream, cfg: &LaunchConfig, args: &[KernelArg<'_>]) -> Result<(), Error> {
        if args.len() != self.args.len() {
            return Err(Error::Argument {
                function: self.name.clone(),
                param: None,
                message: format!("takes {} arguments but {} were given", self.args.len(), args.len()),
            });
        }
        for (k, a) in args.iter().enumerate() {
            if let KernelArg::Host { dtype } = a {
                return Err(host_array_error(&self.name, &self.params[k], dtype));
            }
            if a.ty().as_ref() != Some(&self.args[k]) {
                return Err(Error::Argument {
                    function: self.name.clone(),
                    param: Some(self.params[k].clone()),
                    message: format!(
                        "expected {}, got {}",
                        self.args[k].numba_name(),
                        a.ty().map(|t| t.numba_name()).unwrap_or_else(|| "an invalid argument".into())
                    ),
                });
            }
        }
        self.enqueue(stream, cfg, args)
    }

    /// Launches with arguments already known to have this kernel's types (the dispatcher
    /// found it by exactly these types).
    pub(crate) fn enqueue(&self, stream: &Stream, cfg: &LaunchConfig, args: &[KernelArg<'_>]) -> Result<(), Error> {
        let mut slots: SmallVec<[u64; 24]> = SmallVec::new();
        slots.push(self.gerr_ptr);
        for a in args {
            a.write_slots(&mut slots);
        }
        // SAFETY: the slots follow the entry's parameter list (the error record, then every
        // argument's flattened parts; the arguments have the compiled signature's types, checked
        // by `launch_on` or by the dispatcher's lookup); device pointers come from live
        // `DeviceArray` borrows and the error record is owned by `self`. Out-of-bounds accesses
        // with bounds checking off are the kernel's own behaviour, as in CUDA C and numba-cuda;
        // faults are reported at synchronize.
        unsafe { self.kernel.launch(cfg, stream, &slots) }.map_err(|e| cuda_error(e, Some(&self.name)))
    }

    /// After a synchronize: the first error a thread raised, if any (and clears the record).
    pub(crate) fn check_errors(&self) -> Result<(), Error> {
        let mut rec = [0i64; GPU_RECORD_BYTES / 8];
        let mut g = self.gerr.lock().unwrap_or_else(|e| e.into_inner());
        g.copy_to_host(&mut rec).map_err(|e| cuda_error(e, Some(&self.name)))?;
        let kind = rec[0] as u32;
        if kind == 0 {
            return Ok(());
        }
        // The record is small; re-uploading zeros is simpler than a memset binding.
        let zero = [0i64; GPU_RECORD_BYTES / 8];
        g.copy_from_host(&zero).map_err(|e| cuda_error(e, Some(&self.name)))?;
        drop(g);
        let GpuRecord { record, thread: [tx, ty, tz], block: [bx, by, bz] } = GpuRecord::decode(&rec);
        let (site, index, len, axis) = (record.site as usize, record.index, record.len, record.axis);
        let (function, location) = self.sites.get(site).cloned().unwrap_or((self.name.clone(), None));
        let (kind, what) = crate::error::raised(kind, index, len, axis);
        let at = location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
        let message = format!(
            "{what} in `{function}`{at}, thread ({tx}, {ty}, {tz}) of block ({bx}, {by}, {bz}) of kernel `{}`",
            self.name
        );
        Err(Error::Runtime { kind, function, location, message })
    }
}

pub(crate) fn ptx_error(e: twinjit_ptx::PtxError, sources: &twinjit_diag::SourceMap, kernel: &str) -> Error {
    match e {
        twinjit_ptx::PtxError::Unsupported(u) => crate::error::unsupported(u, "CUDA", sources),
        twinjit_ptx::PtxError::Internal(m) => Error::Internal(m),
        other => Error::Cuda { kernel: Some(kernel.to_string()), message: other.to_string() },
    }
}

/// The cache key of a PTX compilation.
pub(crate) fn ptx_cache_key(
    m: &crate::engine::ModuleInner,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> twinjit_cache::CacheKey {
    let bc = m.options.boundscheck.or_else(|| m.source.outline().function(name).and_then(|f| f.attrs.boundscheck));
    let opts = vec![
        format!("entry={:?}", options.entry),
        format!("boundscheck={bc:?}"),
        format!("contract={}", options.contract),
        format!("fastmath={}", options.fastmath),
        format!("max_recursion={}", options.max_recursion),
    ];
    crate::disk_cache::key(&m.source, name, sig, &format!("cuda {} (LLVM 19 NVPTX)", options.arch), &opts)
}

/// The PTX of `name` for `sig`, from the disk cache when it has it (no inference, no LLVM),
/// else compiled (and stored when the function is cached).
pub(crate) fn ptx_for(
    m: &crate::engine::ModuleInner,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> Result<PtxModule, Error> {
    ptx_with_origin(m, name, sig, options).map(|(p, _)| p)
}

/// [`ptx_for`], saying whether the PTX came from the cache.
fn ptx_with_origin(
    m: &crate::engine::ModuleInner,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> Result<(PtxModule, KernelOrigin), Error> {
    let cache_key = wanted(&m.options.cache, &m.source, name).then(|| ptx_cache_key(m, name, sig, options));
    if let Some(k) = &cache_key {
        if let Some(p) = m.disk.get(k).and_then(|bytes| decode_ptx(m, &mut Reader(&bytes))) {
            return Ok((p, KernelOrigin::CachedPtx));
        }
    }
    let program = m.source.parsed_module()?.specialize(name, sig, m.options.boundscheck)?;
    let ptx = twinjit_ptx::compile(&program, options).map_err(|e| ptx_error(e, m.source.sources(), name))?;
    if let Some(k) = &cache_key {
        m.disk.put(k, &encode_ptx(m, &ptx).0);
    }
    Ok((ptx, KernelOrigin::Compiled))
}

/// The payload of a PTX entry: the PTX and what launching it needs; raise sites relative to
/// their function.
fn encode_ptx(m: &crate::engine::ModuleInner, ptx: &PtxModule) -> Writer {
    let mut w = Writer::default();
    w.str(&ptx.ptx).str(&ptx.entry).str(&ptx.arch).u64(ptx.stack_bytes.unwrap_or(0) as u64);
    w.u64(ptx.used_libdevice as u64).u64(ptx.sites.len() as u64);
    for site in &ptx.sites {
        Site { function: site.function.clone(), at: m.source.relative_span(site.span) }.encode(&mut w);
    }
    w
}

fn decode_ptx(m: &crate::engine::ModuleInner, r: &mut Reader<'_>) -> Option<PtxModule> {
    let ptx = r.str()?.to_string();
    let entry = r.str()?.to_string();
    let arch = r.str()?.to_string();
    let stack = r.u64()?;
    let used_libdevice = r.u64()? == 1;
    let n = r.u64()?;
    let mut sites = Vec::new();
    for _ in 0..n {
        let site = Site::decode(r)?;
        // A site whose place no longer fits is reported without a location.
        let span = site.span(&m.source).unwrap_or(twinjit_diag::Span::DUMMY);
        sites.push(RaiseSite { function: site.function, span });
    }
    let stack_bytes = (stack != 0).then_some(stack as usize);
    Some(PtxModule { ptx, entry, arch, sites, used_libdevice, stack_bytes })
}

/// The cache key of a kernel's cubin for `backend`'s device: the PTX key, plus the compute
/// capability and the CUDA version the driver reports (`cuDriverGetVersion`, e.g. 13.0). That
/// is the driver's API version, not its release: two releases of one CUDA version share
/// cubins, which is safe (a cubin runs on every driver for its architecture) but means a JIT
/// fix in a driver update reaches cached kernels only after `twinjit cache clear`.
fn cubin_cache_key(
    m: &crate::engine::ModuleInner,
    backend: &CudaBackend,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> twinjit_cache::CacheKey {
    let mut key = ptx_cache_key(m, name, sig, options);
    let (major, minor) = backend.device.properties().compute_capability;
    let driver = twinjit_cuda::driver_version().map(|(a, b)| format!("{a}.{b}")).unwrap_or_else(|_| "?".into());
    key.target = format!("{} cubin for compute {major}.{minor}, driver {driver}", key.target);
    key
}

/// The PTX of a kernel, its module loaded on `backend`'s device, and where the code came from.
/// For a cached function the module comes from a stored cubin when there is one for this
/// device and driver (neither LLVM nor the driver's PTX JIT runs); otherwise the PTX (from the
/// PTX entry or compiled) goes through the driver's JIT linker and the cubin is stored for the
/// next process. If the linker path fails, the PTX is loaded as for an uncached function: the
/// cache never changes whether a kernel runs.
pub(crate) fn loaded_for(
    m: &crate::engine::ModuleInner,
    backend: &CudaBackend,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> Result<(PtxModule, twinjit_cuda::CudaModule, KernelOrigin), Error> {
    let device = &backend.device;
    let key = wanted(&m.options.cache, &m.source, name).then(|| cubin_cache_key(m, backend, name, sig, options));
    if let Some(k) = &key {
        if let Some(bytes) = m.disk.get(k) {
            let mut r = Reader(&bytes);
            if let Some((ptx, cubin)) = decode_ptx(m, &mut r).and_then(|p| Some((p, r.bytes()?))) {
                // SAFETY: the cubin is the payload of a verified cache entry (its checksum
                // matched), which `ptx_to_cubin` produced.
                match unsafe { device.load_cubin(cubin) } {
                    Ok(module) => return Ok((ptx, module, KernelOrigin::CachedCubin)),
                    Err(e) => {
                        eprintln!("twinjit: warning: cached cubin for `{name}` does not load ({e}); using its PTX")
                    }
                }
            }
        }
    }
    let (ptx, origin) = ptx_with_origin(m, name, sig, options)?;
    if let Some(k) = &key {
        // SAFETY: the bytes come straight from the driver's linker.
        let linked = device.ptx_to_cubin(&ptx.ptx).and_then(|c| unsafe { device.load_cubin(&c) }.map(|m| (c, m)));
        match linked {
            Ok((cubin, module)) => {
                let mut w = encode_ptx(m, &ptx);
                w.bytes(&cubin);
                m.disk.put(k, &w.0);
                return Ok((ptx, module, origin));
            }
            Err(e) => eprintln!("twinjit: warning: cannot make a cubin of `{name}` to cache ({e}); loading its PTX"),
        }
    }
    let module = device.load_ptx(&ptx.ptx).map_err(|e| cuda_error(e, Some(name)))?;
    Ok((ptx, module, origin))
}
