//! `cuda-sim`: `@cuda.jit` kernels compiled by Cranelift for this CPU and launched over a grid,
//! for testing GPU code on machines without a GPU. The execution model is the reference
//! interpreter's (`interp::run_kernel`): blocks of threads, barriers, warps of 32 in lockstep
//! for shuffles and votes, per-block shared memory, local arrays, atomics, bounds checks on by
//! default; barrier divergence is an error naming the thread and the line, never a hang. How
//! the threads of a block are run (coroutines) is in `twinjit_host::sim` and ARCHITECTURE.md.
//!
//! Only ever used when named: `SourceModule::simulate_kernel`, [`SimKernel`], or
//! `twinjit run --target cuda-sim`.

use crate::error::Error;
use crate::source::SourceModule;
use twinjit_ir::interp::{KernelLaunch, KernelThread, RtValue, RuntimeError, RuntimeErrorKind};
use twinjit_ir::{FunctionKind, TypedProgram};

/// A kernel specialisation compiled for `cuda-sim`, launchable many times.
#[derive(Debug)]
pub struct SimKernel {
    program: twinjit_host::sim::SimProgram,
    name: String,
    span: twinjit_diag::Span,
    params: Vec<String>,
}

impl SimKernel {
    /// Compiles kernel `func` of `module` for `sig`, with bounds checks on whatever the
    /// decorator says: the kernel runs in this process's memory, which nothing else protects.
    pub fn compile(module: &SourceModule, func: &str, sig: &twinjit_ir::Signature) -> Result<SimKernel, Error> {
        let program = module.specialize(func, sig, Some(true))?;
        Self::compile_program(&program, module.sources(), false)
    }

    /// [`SimKernel::compile`] with the race checker: every launch fails with a `DataRace` error
    /// when two threads touch one element with nothing ordering them, one of them writing (a
    /// shared array between barriers, an array argument within the launch; atomics do not race
    /// with each other), naming both threads, both lines and the element, as
    /// compute-sanitizer's racecheck does on a GPU. Its blocks run one after another on the
    /// calling thread.
    pub fn compile_race_checked(
        module: &SourceModule,
        func: &str,
        sig: &twinjit_ir::Signature,
    ) -> Result<SimKernel, Error> {
        let program = module.specialize(func, sig, Some(true))?;
        Self::compile_program(&program, module.sources(), true)
    }

    pub(crate) fn compile_program(
        program: &TypedProgram,
        sources: &twinjit_diag::SourceMap,
        race_check: bool,
    ) -> Result<SimKernel, Error> {
        let entry = program.entry();
        if entry.kind != FunctionKind::Kernel {
            return Err(Error::Unsupported(format!(
                "`{}` is a {}: the cuda-sim target launches @cuda.jit kernels",
                entry.source_name,
                entry.kind.describe()
            )));
        }
        let options = twinjit_host::HostOptions::default();
        let compiled = twinjit_host::sim::compile(program, &options, race_check).map_err(|e| match e {
            twinjit_host::HostError::Unsupported(u) => crate::error::unsupported(u, "cuda-sim", sources),
            twinjit_host::HostError::Isa(m) => Error::Unsupported(format!("the host CPU cannot run cuda-sim: {m}")),
            twinjit_host::HostError::Internal(m) => Error::Internal(m),
        })?;
        Ok(SimKernel {
            program: compiled,
            name: entry.source_name.clone(),
            span: entry.func.span,
            params: entry.func.param_names.clone(),
        })
    }

    /// Launches the kernel over `launch` on `args` (the interpreter's values: arrays are shared,
    /// so the kernel's writes are visible through them, as with `interp::run_kernel`). Blocks
    /// run concurrently on the host's thread pool, as on a GPU: a kernel whose blocks race
    /// (a plain `c[0] += 1` from every block) may give a different result each time.
    pub fn launch(&self, args: &[RtValue], launch: &KernelLaunch) -> Result<(), RuntimeError> {
        self.launch_with(args, launch, false)
    }

    /// [`SimKernel::launch`] with the blocks run one after another in linear order on this
    /// thread: deterministic even for racing blocks, the order the interpreter runs them in.
    pub fn launch_in_order(&self, args: &[RtValue], launch: &KernelLaunch) -> Result<(), RuntimeError> {
        self.launch_with(args, launch, true)
    }

    fn launch_with(&self, args: &[RtValue], launch: &KernelLaunch, in_order: bool) -> Result<(), RuntimeError> {
        let launch_error =
            |kind: RuntimeErrorKind| RuntimeError { kind, function: self.name.clone(), span: self.span, thread: None };
        if args.len() != self.params.len() {
            return Err(launch_error(RuntimeErrorKind::InvalidLaunch(format!(
                "the kernel takes {} arguments but {} were given",
                self.params.len(),
                args.len()
            ))));
        }
        launch.validate().map_err(|m| launch_error(RuntimeErrorKind::InvalidLaunch(m)))?;
        let mut slots = Vec::with_capacity(self.program.arg_slots());
        for a in args {
            if !push_slots(a, &mut slots) {
                return Err(launch_error(RuntimeErrorKind::Unsupported(format!("a cuda-sim argument {a}"))));
            }
        }
        if slots.len() != self.program.arg_slots() {
            return Err(launch_error(RuntimeErrorKind::InvalidLaunch(
                "the arguments do not match the kernel's signature".into(),
            )));
        }
        let l = twinjit_host::sim::SimLaunch {
            grid: launch.grid,
            block: launch.block,
            dynamic_shared_bytes: launch.dynamic_shared_bytes,
        };
        // The array arguments' storage, for the race checker's messages.
        let arrays = self
            .params
            .iter()
            .zip(args)
            .filter_map(|(name, a)| match a {
                RtValue::Array(arr) => {
                    let data = arr.data.borrow();
                    let bytes = data.len() * data.dtype().size();
                    // SAFETY: a pointer, not a borrow (see `push_slots`).
                    let start = unsafe { (*arr.data.as_ptr()).as_mut_ptr() } as usize;
                    Some(twinjit_host::sim::ArgRange { start, end: start + bytes, name: name.clone() })
                }
                _ => None,
            })
            .collect();
        let run = twinjit_host::sim::RunOptions { in_order, arrays };
        // SAFETY: the slots were made from `args` for this signature (the count is checked);
        // every array's storage outlives the launch (`args` is borrowed for it), compiled code
        // checks its bounds, and nothing else runs on the storage meanwhile.
        unsafe { self.program.launch(&l, &slots, &run) }.map_err(|e| self.runtime_error(e))
    }

    /// Whether the kernel syncs its grid.
    pub fn grid_sync(&self) -> bool {
        self.program.grid_sync()
    }

    /// Bytes of the kernel's static shared arrays.
    pub fn static_shared_bytes(&self) -> usize {
        self.program.static_shared_bytes()
    }

    /// Launches on arguments already flattened into the host calling convention's slots
    /// (`Target::CudaSim`'s device arrays).
    ///
    /// # Safety
    /// As `twinjit_host::sim::SimProgram::launch`.
    #[cfg(feature = "cuda")]
    pub(crate) unsafe fn launch_slots(&self, slots: &[u64], launch: &KernelLaunch) -> Result<(), RuntimeError> {
        let l = twinjit_host::sim::SimLaunch {
            grid: launch.grid,
            block: launch.block,
            dynamic_shared_bytes: launch.dynamic_shared_bytes,
        };
        if slots.len() != self.program.arg_slots() {
            return Err(RuntimeError {
                kind: RuntimeErrorKind::InvalidLaunch("the arguments do not match the kernel's signature".into()),
                function: self.name.clone(),
                span: self.span,
                thread: None,
            });
        }
        let run = twinjit_host::sim::RunOptions::default();
        // SAFETY: the caller's contract.
        unsafe { self.program.launch(&l, slots, &run) }.map_err(|e| self.runtime_error(e))
    }

    fn runtime_error(&self, e: twinjit_host::sim::SimError) -> RuntimeError {
        use twinjit_host::sim::SimError;
        let sites = self.program.sites();
        let at = |site: u32| sites.get(site as usize);
        let who = |t: twinjit_host::sim::SimThreadId| Some(KernelThread { block: t.block, thread: t.thread });
        match e {
            SimError::Raised { record, thread } => {
                let site = at(record.site);
                let (kind, _) = crate::error::raised(&record, site);
                RuntimeError {
                    kind,
                    function: site.map_or_else(|| self.name.clone(), |s| s.function.clone()),
                    span: site.map_or(self.span, |s| s.span),
                    thread: who(thread),
                }
            }
            SimError::Divergence { site, thread, message } => {
                let s = at(site);
                RuntimeError {
                    kind: RuntimeErrorKind::BarrierDivergence(message),
                    function: s.map_or_else(|| self.name.clone(), |s| s.function.clone()),
                    span: s.map_or(self.span, |s| s.span),
                    thread: who(thread),
                }
            }
            SimError::Race { site, thread, what, other_site } => {
                let s = at(site);
                RuntimeError {
                    kind: RuntimeErrorKind::DataRace { what, other: at(other_site).map_or(self.span, |o| o.span) },
                    function: s.map_or_else(|| self.name.clone(), |s| s.function.clone()),
                    span: s.map_or(self.span, |s| s.span),
                    thread: who(thread),
                }
            }
            SimError::Resources(m) => RuntimeError {
                kind: RuntimeErrorKind::Unsupported(m),
                function: self.name.clone(),
                span: self.span,
                thread: None,
            },
        }
    }
}

/// Appends `v`'s 8-byte slots (the host calling convention's flattened parts); `false` for a
/// value a kernel cannot take.
fn push_slots(v: &RtValue, out: &mut Vec<u64>) -> bool {
    match v {
        RtValue::None => true,
        RtValue::Tuple(items) => items.iter().all(|x| push_slots(x, out)),
        RtValue::Array(a) => {
            let size = a.view.unwrap_or_else(|| a.data.borrow().dtype()).size() as i64;
            // SAFETY: a pointer into the storage, not a borrow: the storage is alive for the
            // launch and is only read and written through the kernel's bounds-checked code.
            let base = unsafe { (*a.data.as_ptr()).as_mut_ptr() };
            out.push(base.wrapping_offset((a.base * size) as isize) as u64);
            out.extend(a.shape.iter().map(|&d| d as u64));
            out.extend(a.strides.iter().map(|&s| s as u64));
            // Lent by the caller: no owner.
            out.push(0);
            true
        }
        scalar => match crate::ArgValue::from_rt(scalar) {
            Some(av) => {
                let mut buf = [0u64; 2];
                let n = av.write_slots(&mut buf, 0);
                out.extend_from_slice(&buf[..n]);
                true
            }
            None => false,
        },
    }
}

impl SourceModule {
    /// Compiles `func` for `cuda-sim` for the types of `args` and launches it over `launch` (the
    /// counterpart of [`SourceModule::interpret_kernel`]: arrays are shared, so the kernel's
    /// writes are visible through `args`). Bounds are checked whatever the decorator says: the
    /// kernel runs in this process's memory, which nothing else protects, and an access a GPU
    /// would make out of bounds is an `IndexError` naming the thread.
    /// With `race_check`, the launch fails on a data race ([`SimKernel::compile_race_checked`]).
    pub fn simulate_kernel(
        &self,
        func: &str,
        launch: KernelLaunch,
        args: &[RtValue],
        race_check: bool,
    ) -> Result<(), Error> {
        let sig = twinjit_ir::Signature { args: args.iter().map(RtValue::ty).collect(), ret: None };
        let kernel = if race_check {
            SimKernel::compile_race_checked(self, func, &sig)?
        } else {
            SimKernel::compile(self, func, &sig)?
        };
        kernel.launch(args, &launch).map_err(|error| Error::from_interp(error, self.sources()))
    }
}
