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
    code: Code,
    pub(super) can_raise: bool,
    /// Raise sites with their `file:line:col`.
    sites: Vec<(twinjit_ir::abi::RaiseSite, Option<String>)>,
    ptx: String,
    compile_time: std::time::Duration,
    origin: KernelOrigin,
}

/// The parts of [`Code::Sim`].
type SimCode<'a> = (
    &'a crate::sim::SimKernel,
    &'a twinjit_cuda::KernelAttributes,
    &'a Mutex<Option<Error>>,
    &'a std::sync::Arc<twinjit_diag::SourceMap>,
);

/// The machine code of a [`CompiledKernel`].
enum Code {
    /// Loaded on a GPU.
    Gpu {
        kernel: twinjit_cuda::Kernel,
        /// The error record (`GPU_RECORD_BYTES`) the entry receives; only read back when
        /// `can_raise`.
        gerr: Mutex<DeviceArray<i64>>,
        gerr_ptr: u64,
    },
    /// Compiled for this CPU (`Target::CudaSim`): launches run to completion; the first error
    /// one raised waits for the next synchronize, as a GPU's does.
    Sim {
        kernel: Box<crate::sim::SimKernel>,
        attributes: twinjit_cuda::KernelAttributes,
        error: Mutex<Option<Error>>,
        sources: std::sync::Arc<twinjit_diag::SourceMap>,
    },
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
            code: Code::Gpu { kernel, gerr_ptr: gerr.device_ptr(), gerr: Mutex::new(gerr) },
            can_raise: !ptx.sites.is_empty(),
            sites,
            ptx: ptx.ptx,
            compile_time: started.elapsed(),
            origin,
        })
    }

    /// A kernel of `Target::CudaSim`: `program` compiled for this CPU.
    pub(crate) fn build_sim(
        sources: &std::sync::Arc<twinjit_diag::SourceMap>,
        name: String,
        args: Vec<Type>,
        program: &twinjit_ir::TypedProgram,
        params: Vec<String>,
        started: std::time::Instant,
    ) -> Result<CompiledKernel, Error> {
        let kernel = crate::sim::SimKernel::compile_program(program, sources, false)?;
        let attributes = twinjit_cuda::KernelAttributes {
            max_threads_per_block: 1024,
            static_shared_bytes: kernel.static_shared_bytes() as u32,
            ..Default::default()
        };
        Ok(CompiledKernel {
            name,
            params,
            args,
            code: Code::Sim { kernel: Box::new(kernel), attributes, error: Mutex::new(None), sources: sources.clone() },
            can_raise: true,
            sites: Vec::new(),
            ptx: String::new(),
            compile_time: started.elapsed(),
            origin: KernelOrigin::Compiled,
        })
    }

    /// The PTX it was loaded from (empty on `Target::CudaSim`, which compiles for the CPU).
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
        match &self.code {
            Code::Gpu { kernel, .. } => kernel.is_cooperative(),
            Code::Sim { kernel, .. } => kernel.grid_sync(),
        }
    }

    /// The largest grid of `block`-sized blocks (with `dynamic_shared_bytes` each) a
    /// cooperative launch of this kernel accepts on its device (numba-cuda's
    /// `max_cooperative_grid_blocks`).
    /// On `Target::CudaSim`: what the modelled H200 holds at 2048 threads per multiprocessor
    /// (at most 32 blocks each), shared memory aside.
    pub fn max_cooperative_grid_blocks(&self, block: [u32; 3], dynamic_shared_bytes: u32) -> Result<u32, Error> {
        match &self.code {
            Code::Gpu { kernel, .. } => kernel
                .max_cooperative_grid_blocks(block, dynamic_shared_bytes)
                .map_err(|e| cuda_error(e, Some(&self.name))),
            Code::Sim { .. } => {
                let threads = block.iter().map(|&d| d.max(1)).product::<u32>().max(1);
                let props = twinjit_cuda::DeviceProperties::cuda_sim_model();
                Ok(props.multiprocessors * (2048 / threads).clamp(1, 32))
            }
        }
    }

    /// Registers, static shared memory and local memory per thread, as the driver reports them
    /// (on `Target::CudaSim`: the thread limit and the static shared memory, the rest 0).
    pub fn attributes(&self) -> &twinjit_cuda::KernelAttributes {
        match &self.code {
            Code::Gpu { kernel, .. } => kernel.attributes(),
            Code::Sim { attributes, .. } => attributes,
        }
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
        let (kernel, gerr_ptr) = match &self.code {
            Code::Gpu { kernel, gerr_ptr, .. } => (kernel, *gerr_ptr),
            Code::Sim { kernel, attributes, error, sources } => {
                return self.enqueue_sim(stream, cfg, args, (kernel, attributes, error, sources));
            }
        };
        let mut slots: SmallVec<[u64; 24]> = SmallVec::new();
        slots.push(gerr_ptr);
        for a in args {
            a.write_slots(&mut slots);
        }
        // SAFETY: the slots follow the entry's parameter list (the error record, then every
        // argument's flattened parts; the arguments have the compiled signature's types, checked
        // by `launch_on` or by the dispatcher's lookup); device pointers come from live
        // `DeviceArray` borrows and the error record is owned by `self`. Out-of-bounds accesses
        // with bounds checking off are the kernel's own behaviour, as in CUDA C and numba-cuda;
        // faults are reported at synchronize.
        unsafe { kernel.launch(cfg, stream, &slots) }.map_err(|e| cuda_error(e, Some(&self.name)))
    }

    /// A launch on `Target::CudaSim`: checked against the modelled device's limits, then run to
    /// completion on this CPU; a raised error is kept for the next synchronize.
    fn enqueue_sim(
        &self,
        stream: &Stream,
        cfg: &LaunchConfig,
        args: &[KernelArg<'_>],
        (kernel, attributes, error, sources): SimCode<'_>,
    ) -> Result<(), Error> {
        let props = stream.device().properties();
        twinjit_cuda::check_launch(
            props,
            &self.name,
            cfg,
            attributes.max_threads_per_block,
            attributes.static_shared_bytes,
        )
        .map_err(|e| cuda_error(e, Some(&self.name)))?;
        // The host calling convention: an array's slots end with its owner (none: borrowed).
        let mut slots: SmallVec<[u64; 24]> = SmallVec::new();
        for a in args {
            a.write_slots(&mut slots);
            if let KernelArg::Device { .. } = a {
                slots.push(0);
            }
        }
        let launch = twinjit_ir::interp::KernelLaunch {
            grid: cfg.grid,
            block: cfg.block,
            dynamic_shared_bytes: cfg.shared_mem_bytes,
        };
        // SAFETY: the slots follow the kernel's signature (the arguments have its types); every
        // device pointer is a live `DeviceArray` borrow of cuda-sim's device, so host memory of
        // the array's extent, which the kernel's bounds-checked code stays inside.
        if let Err(e) = unsafe { kernel.launch_slots(&slots, &launch) } {
            let mut first = error.lock().unwrap_or_else(|p| p.into_inner());
            if first.is_none() {
                *first = Some(Error::from_interp(e, sources));
            }
        }
        Ok(())
    }

    /// After a synchronize: the first error a thread raised, if any (and clears the record).
    pub(crate) fn check_errors(&self) -> Result<(), Error> {
        let gerr = match &self.code {
            Code::Gpu { gerr, .. } => gerr,
            Code::Sim { error, .. } => {
                return match error.lock().unwrap_or_else(|p| p.into_inner()).take() {
                    Some(e) => Err(e),
                    None => Ok(()),
                };
            }
        };
        let mut rec = [0i64; GPU_RECORD_BYTES / 8];
        let mut g = gerr.lock().unwrap_or_else(|e| e.into_inner());
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
