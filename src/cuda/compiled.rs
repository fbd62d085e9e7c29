//! One kernel compiled for one signature and loaded on the device, with the error record its
//! entry fills in (decoded through `twinjit_ir::abi::GpuRecord` after a synchronize).

use super::{cuda_error, host_array_error, CudaBackend, DeviceArray, KernelArg, LaunchConfig, PtxModule, Stream};
use crate::dispatcher::type_mismatch;
use crate::error::Error;
use smallvec::SmallVec;
use std::sync::Mutex;
use twinjit_ir::abi::{GpuRecord, GPU_RECORD_BYTES};
use twinjit_ir::{Signature, Type};

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
    /// The error record (`GPU_RECORD_BYTES`) the entry receives; only read back when `can_raise`.
    gerr: Mutex<DeviceArray<i64>>,
    gerr_ptr: u64,
    pub(super) can_raise: bool,
    /// Raise sites with their `file:line:col`.
    sites: Vec<(twinjit_ir::abi::RaiseSite, Option<String>)>,
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
        kernel.set_cooperative(ptx.grid_sync());
        let gerr = DeviceArray::<i64>::zeros(&backend.device, &[GPU_RECORD_BYTES / 8])
            .map_err(|e| cuda_error(e, Some(&name)))?;
        let sites = ptx
            .sites
            .iter()
            .map(|s| {
                let loc = sources.location(s.span).map(|(f, lc)| format!("{f}:{}:{}", lc.line, lc.col));
                (s.clone(), loc)
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

    /// Whether the kernel syncs its grid (`cuda.cg.this_grid().sync()`), so that its launches
    /// are cooperative and limited to [`CompiledKernel::max_cooperative_grid_blocks`].
    pub fn grid_sync(&self) -> bool {
        self.kernel.is_cooperative()
    }

    /// The largest grid of `block`-sized blocks (with `dynamic_shared_bytes` each) a
    /// cooperative launch of this kernel accepts on its device (numba-cuda's
    /// `max_cooperative_grid_blocks`).
    pub fn max_cooperative_grid_blocks(&self, block: [u32; 3], dynamic_shared_bytes: u32) -> Result<u32, Error> {
        self.kernel
            .max_cooperative_grid_blocks(block, dynamic_shared_bytes)
            .map_err(|e| cuda_error(e, Some(&self.name)))
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
                return Err(type_mismatch(&self.name, &self.params[k], &self.args[k], a.ty()));
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
        let site = self.sites.get(record.site as usize);
        let function = site.map_or_else(|| self.name.clone(), |(s, _)| s.function.clone());
        let location = site.and_then(|(_, l)| l.clone());
        let (kind, what) = crate::error::raised(&record, site.map(|(s, _)| s));
        let at = location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
        let message = format!(
            "{what} in `{function}`{at}, thread ({tx}, {ty}, {tz}) of block ({bx}, {by}, {bz}) of kernel `{}`",
            self.name
        );
        Err(Error::Runtime { kind, function, location, message })
    }
}
