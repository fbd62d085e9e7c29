//! Compile options: the engine's ([`EngineOptions`]) and, decided in one place from those, the
//! decorator and the target's defaults, the effective options one function is compiled with
//! ([`effective_boundscheck`], [`option_key`]). The pipeline, both backends and the cache keys
//! read them from here, so they cannot disagree.

use twinjit_ir::{FunctionAttrs, FunctionKind};

/// Engine-wide options.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// When compiled code is kept in the on-disk cache: for `cache=True` functions (the
    /// default, as in Numba), for every function, or never.
    pub cache: crate::CacheMode,
    /// The cache directory (default: `TWINJIT_CACHE_DIR`, else `~/.cache/twinjit`).
    pub cache_dir: Option<std::path::PathBuf>,
    /// Overrides every function's bounds checking (`None`: the decorator decides; on by
    /// default for host functions). With checks off, an out-of-bounds index is undefined
    /// behaviour, as in Numba: turn them off only for code you trust.
    pub boundscheck: Option<bool>,
    /// CUDA: let LLVM contract `a * b + c` into one FMA instruction (`None`: yes, as nvcc and
    /// numba-cuda do). Off, float results match the host's bit for bit except for libdevice's
    /// math functions.
    pub fp_contract: Option<bool>,
    /// CUDA: recursion deeper than this raises `RecursionError` (`None`: 64). Each level costs
    /// stack for every thread the GPU can hold at once, so the GPU limit is lower than the
    /// host's 1000.
    pub gpu_recursion_limit: Option<i64>,
    /// Compile every undecorated module-level function too, as `numba.njit(pyfunc)` would at
    /// run time (how Numba's own tests compile their functions); one that does not compile is
    /// refused on its own (`Module::refused`), not an error for the module. Off by default, as
    /// in Numba, where only decorated functions are compiled.
    pub compile_plain_functions: bool,
    /// Host: how many threads the parallel loops (`prange` in `parallel=True` functions) of
    /// this engine's functions use, at most the pool's size (`None`: the calling thread's
    /// [`crate::parallel::set_num_threads`] choice, by default the whole pool). The pool has
    /// `TWINJIT_NUM_THREADS` threads, else one per available CPU, as Numba's
    /// `NUMBA_NUM_THREADS`. Results do not depend on it.
    pub num_threads: Option<usize>,
    /// CUDA: specialise each kernel on what its launch knows of the array arguments (none
    /// overlaps another: `noalias` pointers; each has fewer than 2^31 elements: dimensions known
    /// to fit 31 bits; see `twinjit::cuda::LaunchFacts`). `None`: yes, unless the environment sets
    /// `TWINJIT_LAUNCH_FACTS=0` (or names one fact, `noalias` or `index32`, to allow only it).
    /// A launch whose arrays do not meet a fact runs a kernel compiled without it, so results
    /// never depend on this option; it is there to measure it.
    pub launch_facts: Option<bool>,
}

impl EngineOptions {
    /// PTX options for this engine's choices, the entry function's decorator (`fastmath=`) and
    /// `arch`.
    #[cfg(feature = "cuda")]
    pub(crate) fn ptx_options(
        &self,
        arch: &str,
        entry: crate::cuda::EntryKind,
        attrs: Option<&FunctionAttrs>,
    ) -> crate::cuda::PtxOptions {
        crate::cuda::PtxOptions {
            arch: arch.to_string(),
            entry,
            contract: self.fp_contract.unwrap_or(true),
            fastmath: attrs.is_some_and(|a| a.fastmath),
            max_recursion: self.gpu_recursion_limit.unwrap_or(twinjit_ir::abi::GPU_MAX_RECURSION),
            ..Default::default()
        }
    }

    /// The launch facts kernels may be specialised on ([`EngineOptions::launch_facts`]): both,
    /// unless the option says no or `TWINJIT_LAUNCH_FACTS` is `0` (or `general`), `noalias` or
    /// `index32` (only that one); read once per process.
    #[cfg(feature = "cuda")]
    pub(crate) fn launch_facts_allowed(&self) -> twinjit_ptx::LaunchFacts {
        static FROM_ENV: std::sync::OnceLock<twinjit_ptx::LaunchFacts> = std::sync::OnceLock::new();
        match self.launch_facts {
            Some(false) => twinjit_ptx::LaunchFacts::default(),
            Some(true) => twinjit_ptx::LaunchFacts::ALL,
            None => *FROM_ENV.get_or_init(|| match std::env::var("TWINJIT_LAUNCH_FACTS") {
                Ok(v) if v.trim() == "0" => twinjit_ptx::LaunchFacts::default(),
                Ok(v) => twinjit_ptx::LaunchFacts::parse(v.trim()).unwrap_or(twinjit_ptx::LaunchFacts::ALL),
                Err(_) => twinjit_ptx::LaunchFacts::ALL,
            }),
        }
    }
}

/// Whether a function is compiled with bounds checks: the engine's override, else the
/// decorator's `boundscheck=`, else on for host functions and off for kernels and device
/// functions (as in numba-cuda). `attrs` is `None` for a function the module does not know
/// (treated as a host function).
pub(crate) fn effective_boundscheck(engine_override: Option<bool>, attrs: Option<&FunctionAttrs>) -> bool {
    boundscheck_rule(engine_override, attrs.and_then(|a| a.boundscheck), attrs.map(|a| a.kind))
}

fn boundscheck_rule(engine: Option<bool>, decorator: Option<bool>, kind: Option<FunctionKind>) -> bool {
    engine.or(decorator).unwrap_or(kind.is_none_or(|k| k == FunctionKind::Host))
}

/// The options part of a function's cache key (each `name=value`), shared by both targets;
/// a target appends what only it has.
pub(crate) fn option_key(engine: &EngineOptions, attrs: Option<&FunctionAttrs>) -> Vec<String> {
    vec![
        format!("boundscheck={}", effective_boundscheck(engine.boundscheck, attrs)),
        format!("fastmath={}", attrs.is_some_and(|a| a.fastmath)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use FunctionKind::*;

    #[test]
    fn bounds_checks_follow_override_then_decorator_then_kind() {
        let check = |engine, decorator, kind, expect: bool| {
            assert_eq!(boundscheck_rule(engine, decorator, kind), expect, "{engine:?} {decorator:?} {kind:?}");
        };
        check(None, None, Some(Host), true);
        check(None, None, Some(Kernel), false);
        check(None, None, Some(Device), false);
        check(None, Some(false), Some(Host), false);
        check(None, Some(true), Some(Kernel), true);
        check(Some(false), Some(true), Some(Kernel), false);
        check(Some(true), None, Some(Kernel), true);
        check(None, None, None, true);
    }
}
