//! twinjit: a JIT engine for the Numba Python subset.
//!
//! Users write functions as a Numba user does (`@njit`, `@cuda.jit`, the same `.py` file runs
//! under Numba); twinjit parses them, infers types per argument signature on one shared SSA IR
//! and compiles them with Cranelift for this machine (and, with the `cuda` feature, to PTX).
//!
//! ```
//! use twinjit::{Engine, Target};
//! let engine = Engine::new(Target::Host)?;
//! let module = engine.load("dot.py", r#"
//! from numba import njit
//!
//! @njit
//! def dot(a, b):
//!     s = 0.0
//!     for i in range(len(a)):
//!         s += a[i] * b[i]
//!     return s
//! "#)?;
//! let dot = module.function("dot")?;
//! let r: f64 = dot.call((&[1.0, 2.0][..], &[3.0, 4.0][..]))?;
//! assert_eq!(r, 11.0);
//! # Ok::<(), twinjit::Error>(())
//! ```
//!
//! Crate map: [`SourceModule`] runs the front end and the reference interpreter (the oracle);
//! [`Engine`] / [`Module`] are the embedding API; [`Function`] (`host/`) and, with feature
//! `cuda`, `Kernel` (`cuda/`) are the per-target handles over one dispatcher skeleton
//! (`dispatcher.rs`); `options.rs` decides each function's effective options; errors are one
//! [`Error`] type with located, rendered diagnostics. Nothing here panics on bad input.

#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(feature = "cuda")]
pub mod cuda;
mod disk_cache;
mod dispatcher;
mod engine;
mod error;
mod host;
mod options;
mod outline;
pub mod sim;
mod source;
mod spec_table;
mod target;
pub mod verify;

pub use disk_cache::CacheMode;
pub use host::{
    ArgValue, Array, ArrayArg, Complex32, Complex64, Element, FromValue, Ignored, IntoArg, IntoArgs, Value,
};
/// The element type of `float16` arrays and scalars (IEEE binary16, from the `half` crate),
/// for CUDA kernels: numba-cuda's `float16`.
pub use twinjit_ir::half::f16;

/// The memory manager of arrays compiled code allocates (ARCHITECTURE.md, "Memory model"):
/// this thread's counts of buffers allocated, freed, and leaked by a reference-count bug (the
/// test suite asserts none over the whole corpus).
/// The host's thread pool for parallel loops (`prange` in `parallel=True` functions), as
/// Numba's `numba.set_num_threads` / `get_num_threads` / `config.NUMBA_NUM_THREADS`.
pub mod parallel {
    pub use twinjit_host::parallel::{get_num_threads, max_threads, set_num_threads};
}

pub mod memory {
    pub use twinjit_host::memory::{stats, Stats};
}

/// The on-disk compilation cache's store (directory, entries, explanations), for tools such as
/// `twinjit cache`.
pub mod cache {
    pub use twinjit_cache::{
        Cache, CacheError, CacheKey, CacheOptions, CacheStats, EntryInfo, Explanation, KeyDifference, Outcome,
    };

    /// The directory engines use by default: `TWINJIT_CACHE_DIR`, else `~/.cache/twinjit`.
    pub fn default_dir() -> Option<std::path::PathBuf> {
        Cache::default_dir()
    }
}
#[cfg(feature = "cuda")]
pub use cuda::Kernel;
pub use engine::{Engine, Module};
pub use error::{CompileError, Error, RuntimeErrorKind};
pub use host::{Function, Specialization};
pub use options::EngineOptions;
pub use source::{LowerOptions, SourceModule};
pub use target::Target;

/// `numba.cuda.random.create_xoroshiro128p_states(n, seed, subsequence_start)` on the host:
/// the states of `n` xoroshiro128+ generators, flattened as the C-contiguous `(n, 2)` uint64
/// array a function drawing with `xoroshiro128p_uniform_float32(states, i)` takes (numba-cuda's
/// `(s0, s1)` records, byte for byte). `Engine::create_xoroshiro128p_states` copies them to a
/// device.
pub fn xoroshiro128p_states(n: usize, seed: u64, subsequence_start: u64) -> Vec<u64> {
    twinjit_ir::random::xoroshiro128p::states(n, seed, subsequence_start)
}
pub use twinjit_diag as diag;
pub use twinjit_ir as ir;

/// A short description of the host this build compiles for (triple and CPU features).
pub fn host_description() -> String {
    twinjit_host::host_description()
}
