//! The kernel dispatcher (feature `cuda`): like [`crate::Function`] for host functions, a
//! [`Kernel`] compiles once per argument-type signature (lazily on the first launch, eagerly for
//! signatures written in `@cuda.jit("void(...)")`), and concurrent first launches compile once.

use super::{CompiledKernel, IntoKernelArgs, KernelArg, LaunchConfig, LaunchFacts, Stream};
use crate::dispatcher::{parse_signature, Dispatcher};
use crate::engine::{Backend, Dispatchers, ModuleInner};
use crate::error::Error;
use std::sync::{Arc, OnceLock};
use twinjit_ir::types::MAX_NDIM;
use twinjit_ir::Signature;

/// The kernels of one argument-type signature, one per set of launch facts
/// ([`LaunchFacts`]: `noalias`, `index32`), each compiled on the first launch that has exactly
/// those facts (concurrent first launches compile once).
pub(crate) struct KernelVariants {
    sig: Signature,
    by_facts: [OnceLock<Result<Arc<CompiledKernel>, Error>>; 4],
}

impl KernelVariants {
    fn new(sig: &Signature) -> KernelVariants {
        KernelVariants { sig: sig.clone(), by_facts: Default::default() }
    }
}

/// What a launch with `args` guarantees of its arrays: `noalias` when no two device arrays
/// overlap in memory (address ranges of their bytes; empty arrays overlap nothing), `index32`
/// when every one has fewer than 2^31 elements and every dimension is below 2^31.
pub(crate) fn launch_facts(args: &[KernelArg<'_>]) -> LaunchFacts {
    let mut ranges = smallvec::SmallVec::<[(u64, u64); 8]>::new();
    let mut index32 = true;
    for a in args {
        if let KernelArg::Device { ptr, dtype, ndim, shape, .. } = *a {
            let dims = &shape[..usize::from(ndim).min(MAX_NDIM as usize)];
            let n = dims.iter().fold(1i64, |p, &d| p.saturating_mul(d.max(0)));
            // (Each dimension too: an empty array may have a long one.)
            index32 &= n <= i64::from(i32::MAX) && dims.iter().all(|&d| d <= i64::from(i32::MAX));
            let bytes = (n as u64).saturating_mul(dtype.size() as u64);
            if bytes > 0 {
                ranges.push((ptr, ptr.saturating_add(bytes)));
            }
        }
    }
    ranges.sort_unstable();
    let noalias = ranges.windows(2).all(|w| w[0].1 <= w[1].0);
    LaunchFacts { noalias, index32 }
}

/// A `@cuda.jit` kernel of a module loaded by a `Target::Cuda` engine. Cheap to clone.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) module: Arc<ModuleInner>,
    pub(crate) index: usize,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kernel({})", self.name())
    }
}

impl Kernel {
    fn dispatcher(&self) -> Result<&Dispatcher<KernelVariants>, Error> {
        match &self.module.dispatchers {
            Dispatchers::Cuda(d) => Ok(&d[self.index]),
            _ => Err(Error::TargetUnavailable {
                target: self.module.target.clone(),
                reason: "kernels launch only on a Target::Cuda engine".into(),
            }),
        }
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.module.source.outline().functions[self.index].name
    }

    /// The names of its parameters.
    pub fn params(&self) -> &[String] {
        &self.module.source.outline().functions[self.index].params
    }

    fn backend(&self) -> Result<&crate::cuda::CudaBackend, Error> {
        match &self.module.backend {
            Backend::Cuda(b) => Ok(b),
            _ => Err(Error::TargetUnavailable {
                target: self.module.target.clone(),
                reason: "kernels launch only on a Target::Cuda engine".into(),
            }),
        }
    }

    /// Launches on the device's default stream (asynchronous: call
    /// [`crate::Engine::synchronize`] to wait and to collect errors), compiling for these
    /// argument types on first use.
    pub fn launch<'a>(&self, cfg: LaunchConfig, args: impl IntoKernelArgs<'a>) -> Result<(), Error> {
        let backend = self.backend()?;
        self.launch_on(&backend.device.default_stream(), cfg, args)
    }

    /// Launches on `stream`.
    pub fn launch_on<'a>(
        &self,
        stream: &Stream,
        cfg: LaunchConfig,
        args: impl IntoKernelArgs<'a>,
    ) -> Result<(), Error> {
        let args = args.into_kernel_args();
        let k = self.specialization(&args)?;
        // Found by exactly these arguments' types: no second check.
        k.enqueue(stream, &cfg, &args)?;
        if let Backend::Cuda(b) = &self.module.backend {
            b.note_launch(&k);
        }
        Ok(())
    }

    /// Runs the kernel on the GPU and on `cuda-sim` (compiled for this CPU, bounds checked, its
    /// blocks in order) over the same launch, on copies of the same arguments (the device arrays are read back before the
    /// launch), and compares every array argument after it ([`crate::verify`]; floats within
    /// `rtol`, by default 1e-12 for float64, 1e-5 for float32 and 1e-3 for float16). Synchronises the device; a
    /// launch or a kernel error on either side is part of the comparison. The device arrays
    /// keep the GPU's results.
    pub fn verify<'a>(
        &self,
        cfg: LaunchConfig,
        args: impl IntoKernelArgs<'a>,
        rtol: Option<f64>,
    ) -> Result<crate::verify::Report, Error> {
        use crate::verify::{gpu_rtol, read_array, rt_items, Item, Items};
        use twinjit_ir::interp::{ArrayRef, KernelLaunch, RtValue};
        let backend = self.backend()?;
        let device = &backend.device;
        if device.is_simulated() {
            return Err(Error::TargetUnavailable {
                target: self.module.target.clone(),
                reason: "verify compares a GPU's results with cuda-sim's; this engine is cuda-sim itself, and \
                         verify never compares the CPU with itself"
                    .into(),
            });
        }
        let args = args.into_kernel_args();
        let download = |a: &KernelArg<'_>| -> Result<Option<RtValue>, Error> {
            let KernelArg::Device { ptr, dtype, ndim, shape, .. } = *a else { return Ok(None) };
            let dims = &shape[..ndim as usize];
            let n: i64 = dims.iter().product();
            let mut bytes = vec![0u8; n as usize * dtype.size()];
            // SAFETY: a device-array argument holds `n` elements of `dtype` (its shape, C order).
            unsafe { device.copy_bytes_to_host(ptr, &mut bytes) }
                .map_err(|e| super::cuda_error(e, Some(self.name())))?;
            let strides: Vec<i64> = twinjit_ir::abi::c_strides(dims).collect();
            // SAFETY: `bytes` holds every element of the C-ordered shape.
            let data = unsafe { read_array(bytes.as_ptr(), dtype, dims, &strides) };
            Ok(data.and_then(|d| ArrayRef::new(d, dims.to_vec())).map(RtValue::Array))
        };
        let mut inputs = Vec::with_capacity(args.len());
        for a in args.iter() {
            inputs.push(match a {
                KernelArg::Scalar(v) => crate::verify::rt_of_arg(v)?,
                KernelArg::Device { .. } => download(a)?.unwrap_or(RtValue::None),
                KernelArg::Host { dtype } => {
                    return Err(Error::Unsupported(format!(
                        "verify takes device arrays: a host slice of {dtype} was given"
                    )))
                }
            });
        }
        let gpu = self.launch(cfg, args.as_slice()).and_then(|_| backend.synchronize());
        let sig = twinjit_ir::Signature { args: inputs.iter().map(RtValue::ty).collect(), ret: None };
        // The CPU side checks bounds: an access the GPU made out of bounds shows as an error.
        let parsed = self.module.source.parsed_module()?;
        let program = parsed.specialize(self.name(), &sig, Some(true))?;
        let launch = KernelLaunch { grid: cfg.grid, block: cfg.block, dynamic_shared_bytes: cfg.shared_mem_bytes };
        let k = crate::sim::SimKernel::compile_program(&program, parsed.sources(), false)?;
        // Blocks in order: the reference is deterministic even where the GPU's blocks race.
        let oracle = k.launch_in_order(&inputs, &launch);
        let reference = crate::verify::Reference::CudaSim;
        let (mut got, mut want) = (Items::new(), Items::new());
        let text = |s: String| Item::Text(s);
        match (&gpu, &oracle) {
            (Ok(()), Ok(())) => {}
            (Err(g), Err(w)) => {
                got.push(("launch".into(), text(format!("raised {}", g.python_exception().unwrap_or("an error")))));
                want.push(("launch".into(), text(format!("raised {}", w.python_name()))));
            }
            (Err(g), Ok(())) => {
                got.push(("launch".into(), text(format!("failed: {g}"))));
                want.push(("launch".into(), text("ran".into())));
            }
            (Ok(()), Err(w)) => {
                got.push(("launch".into(), text("ran".into())));
                want.push(("launch".into(), text(format!("failed: {w}"))));
            }
        }
        for (k, (a, w)) in args.iter().zip(&inputs).enumerate() {
            if let Some(after) = download(a)? {
                let name = self.params().get(k).cloned().unwrap_or_else(|| format!("arg{k}"));
                rt_items(&name, &after, &mut got);
                rt_items(&name, w, &mut want);
            }
        }
        let rtol = rtol.unwrap_or_else(|| gpu_rtol(&want));
        let subject = format!("`{}` on the GPU ({})", self.name(), device.properties().name);
        Ok(crate::verify::compare(&subject, reference, &got, &want, rtol))
    }

    /// The compiled kernel for these arguments' types (compiled and loaded if needed).
    pub fn specialize<'a>(&self, args: impl IntoKernelArgs<'a>) -> Result<Arc<CompiledKernel>, Error> {
        self.specialization(&args.into_kernel_args())
    }

    /// Compiles for a signature in Numba's spelling (`"void(float32[:], int64)"`), for launches
    /// of distinct arrays of fewer than 2^31 elements each (the common case, [`LaunchFacts::ALL`];
    /// a launch without those facts compiles its own variant on first use).
    pub fn compile(&self, signature: &str) -> Result<Arc<CompiledKernel>, Error> {
        self.compile_signature(&parse_signature(self.name(), signature)?)
    }

    pub(crate) fn compile_signature(&self, sig: &Signature) -> Result<Arc<CompiledKernel>, Error> {
        self.compile_with_facts(sig, self.module.options.launch_facts_allowed())
    }

    /// Compiles for a signature and given launch facts: the kernel that launches with those
    /// facts run.
    pub fn compile_with_facts(&self, signature: &Signature, facts: LaunchFacts) -> Result<Arc<CompiledKernel>, Error> {
        let variants = self.dispatcher()?.for_signature(signature, |s| Ok(KernelVariants::new(s)))?;
        self.variant(&variants, facts)
    }

    fn specialization(&self, args: &[KernelArg<'_>]) -> Result<Arc<CompiledKernel>, Error> {
        let d = self.dispatcher()?;
        let variants = d.get_or_build(d.arg_types(args)?, None, |s| Ok(KernelVariants::new(s)))?;
        self.variant(&variants, launch_facts(args).and(self.module.options.launch_facts_allowed()))
    }

    /// The variant of `facts`, compiled on first use.
    fn variant(&self, variants: &KernelVariants, facts: LaunchFacts) -> Result<Arc<CompiledKernel>, Error> {
        let slot = &variants.by_facts[usize::from(facts.noalias) | usize::from(facts.index32) << 1];
        slot.get_or_init(|| self.build(&variants.sig, facts).map(Arc::new)).clone()
    }

    fn build(&self, sig: &Signature, facts: LaunchFacts) -> Result<CompiledKernel, Error> {
        let backend = self.backend()?;
        let m = &self.module;
        let started = std::time::Instant::now();
        if backend.device.is_simulated() {
            // cuda-sim: compiled for this CPU, bounds always checked (its memory is the host's).
            let program = m.source.parsed_module()?.specialize(self.name(), sig, Some(true))?;
            return CompiledKernel::build_sim(
                m.source.sources(),
                self.name().to_string(),
                sig.args.clone(),
                &program,
                self.params().to_vec(),
                started,
            );
        }
        let attrs = &m.source.outline().functions[self.index].attrs;
        let mut options = m.options.ptx_options(&backend.arch, super::EntryKind::Kernel, Some(attrs));
        options.facts = facts;
        let loaded = super::cache::loaded_for(m, backend, self.name(), sig, &options)?;
        CompiledKernel::build(
            backend,
            m.source.sources(),
            self.name().to_string(),
            sig.args.clone(),
            loaded,
            self.params().to_vec(),
            started,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::marker::PhantomData;
    use twinjit_ir::Scalar;

    fn dev(ptr: u64, dtype: Scalar, shape: &[i64]) -> KernelArg<'static> {
        let mut s = [1i64; MAX_NDIM as usize];
        s[..shape.len()].copy_from_slice(shape);
        KernelArg::Device { ptr, dtype, ndim: shape.len() as u8, shape: s, _life: PhantomData }
    }

    #[test]
    fn distinct_arrays_are_noalias_and_overlapping_ones_are_not() {
        let n = 1000;
        // Adjacent (one ends where the next begins): no overlap.
        let a = dev(0x1000, Scalar::Float32, &[n]);
        let b = dev(0x1000 + 4 * n as u64, Scalar::Float32, &[n]);
        let scalar = KernelArg::Scalar(crate::ArgValue::I64(7));
        assert_eq!(launch_facts(&[a, scalar, b]), LaunchFacts::ALL);
        // The same array twice, and a view that starts inside another: general.
        assert!(!launch_facts(&[a, a]).noalias);
        let inside = dev(0x1000 + 4, Scalar::Float32, &[2]);
        assert!(!launch_facts(&[inside, b, a]).noalias);
        // A 2-D array's extent is the product of its dimensions, in bytes of its dtype.
        let m = dev(0x10_0000, Scalar::Float64, &[10, 10]);
        let after = dev(0x10_0000 + 799, Scalar::Int8, &[1]);
        assert!(!launch_facts(&[m, after]).noalias);
        let past = dev(0x10_0000 + 800, Scalar::Int8, &[1]);
        assert!(launch_facts(&[m, past]).noalias);
        // Empty arrays overlap nothing, even at the same address.
        let empty = dev(0x1000, Scalar::Float32, &[0]);
        assert!(launch_facts(&[a, empty]).noalias);
    }

    #[test]
    fn index32_needs_every_array_below_two_to_the_31_elements() {
        let small = dev(0x1000, Scalar::Int8, &[i64::from(i32::MAX)]);
        assert!(launch_facts(&[small]).index32);
        let big = dev(0x1_0000_0000, Scalar::Int8, &[1 << 16, 1 << 15]);
        let facts = launch_facts(&[small, big]);
        assert!(!facts.index32 && facts.noalias);
        // An empty array with a dimension past 2^31: its dimension parameter would break the
        // 32-bit range the index32 kernel promises LLVM.
        let empty_long = dev(0x1000, Scalar::Float32, &[0, 1 << 32]);
        assert!(!launch_facts(&[empty_long]).index32);
    }
}
