//! The thread pool that runs `parallel_for` (the chunks of a `prange` loop), and the number of
//! threads it uses.
//!
//! The pool is `rayon`'s (a dedicated `ThreadPool`, so an embedding program's own use of
//! rayon's global pool is untouched): a well-kept work-stealing pool whose `scope` blocks the
//! caller until every task it spawned has finished, which is exactly a parallel loop's
//! contract, and which copes with being entered from one of its own threads. Its size is
//! fixed when first used: `TWINJIT_NUM_THREADS` if set, else the machine's available
//! parallelism (Numba's `NUMBA_NUM_THREADS`). [`set_num_threads`] limits how many of them the
//! calling thread's loops use (Numba's `set_num_threads`, which is per thread too).
//!
//! A loop's chunks are split among at most that many tasks into contiguous ranges, each run
//! front to back (neighbouring chunks, which often write neighbouring memory, stay on one
//! thread, as Numba's static schedule keeps them); a task that runs out takes chunks from the
//! front of the others' ranges, so uneven iterations stay balanced. A chunk that raises stops
//! the loop: no chunk with a larger index starts afterwards, the chunks with smaller indices
//! still run, and the error of the smallest failing chunk is
//! the loop's, so the error is the same whatever the thread count (the first failing
//! iteration in iteration order). A `parallel_for` reached inside another one (a parallel
//! function called from a `prange` body) runs its chunks on the current thread, as Numba runs
//! nested parallel regions serially.

use crate::memory::Scope;
use std::cell::Cell;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex, OnceLock};
use twinjit_ir::abi::ErrorRecord;
use twinjit_ir::threads;

/// A chunk trampoline: `F.chunk(err, env, c)` (see `compile_inner`).
type ChunkFn = unsafe extern "C" fn(*mut ErrorRecord, *const u64, i64) -> u32;

thread_local! {
    /// Whether this thread is running a chunk.
    static IN_CHUNK: Cell<bool> = const { Cell::new(false) };
}

fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads::max())
            .thread_name(|k| format!("twinjit-parallel-{k}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// The pool `cuda-sim` runs a launch's blocks on (the same threads).
pub(crate) fn sim_pool() -> Option<&'static rayon::ThreadPool> {
    pool()
}

/// The number of threads in the pool (`numba.config.NUMBA_NUM_THREADS`): `TWINJIT_NUM_THREADS`,
/// else one per available CPU.
pub fn max_threads() -> usize {
    threads::max()
}

/// How many threads the calling thread's parallel loops use (`numba.get_num_threads()`).
pub fn get_num_threads() -> usize {
    threads::get()
}

/// Limits the calling thread's parallel loops to `n` threads (`numba.set_num_threads(n)`).
/// Returns false, changing nothing, unless `1 <= n <= max_threads()` (Numba raises
/// `ValueError` there).
pub fn set_num_threads(n: usize) -> bool {
    threads::set(n)
}

/// This thread's index in the pool while it runs a parallel loop's chunk, else 0
/// (`numba.get_thread_id()`).
pub fn thread_id() -> usize {
    if IN_CHUNK.with(|f| f.get()) {
        rayon::current_thread_index().unwrap_or(0)
    } else {
        0
    }
}

/// Runs one chunk with the memory manager's bookkeeping of the thread it runs on: what a
/// failing chunk allocated is freed there (a chunk returns nothing, so nothing it allocated
/// outlives it).
///
/// # Safety
/// `chunk` and `env` come from compiled code (`parallel_for`).
unsafe fn run_chunk(chunk: ChunkFn, env: *const u64, c: i64, rec: &mut ErrorRecord) -> u32 {
    let scope = Scope::enter();
    let was = IN_CHUNK.with(|f| f.replace(true));
    // SAFETY: the trampoline's contract: `env` holds the chunk function's arguments.
    let status = unsafe { chunk(rec, env, c) };
    IN_CHUNK.with(|f| f.set(was));
    if status != 0 {
        scope.fail();
    } else if scope.allocated() {
        scope.succeed(&[]);
    }
    status
}

/// `parallel_for`: calls `chunk(err', env, c)` for every `c` in `0..n` on the pool (see the
/// module docs); on a failure, copies the smallest failing chunk's record to `err` and returns
/// its status.
///
/// # Safety
/// Called by compiled code only: `chunk` is a chunk trampoline, `env` its arguments (alive
/// until this returns), `err` the caller's error record.
pub unsafe extern "C" fn twinjit_parallel_for(chunk: ChunkFn, env: *const u64, n: i64, err: *mut ErrorRecord) -> u32 {
    if n <= 0 {
        return 0;
    }
    // SAFETY: the caller's live error record.
    let base = unsafe { *err };
    let threads = (get_num_threads() as i64).min(n);
    let pool = pool();
    if threads <= 1 || IN_CHUNK.with(|f| f.get()) || pool.is_none() {
        for c in 0..n {
            let mut rec = base;
            // SAFETY: as this function's.
            let status = unsafe { run_chunk(chunk, env, c, &mut rec) };
            if status != 0 {
                // SAFETY: the caller's live error record.
                unsafe { *err = rec };
                return status;
            }
        }
        return 0;
    }
    struct Shared(*const u64);
    // SAFETY: the arguments are read only, by chunks that end before this function returns.
    unsafe impl Sync for Shared {}
    let env = Shared(env);
    // Task `t` owns the chunks `[t * n / T, (t + 1) * n / T)` and runs them front to back
    // (neighbouring chunks, which often write neighbouring memory, stay on one thread); a task
    // that has run out takes chunks from the front of the others' ranges.
    let tasks = threads as usize;
    let ranges: Vec<(AtomicI64, i64)> =
        (0..threads).map(|t| (AtomicI64::new(t * n / threads), (t + 1) * n / threads)).collect();
    let failed_at = AtomicI64::new(i64::MAX);
    let first: Mutex<Option<(i64, ErrorRecord, u32)>> = Mutex::new(None);
    let active = get_num_threads();
    pool.expect("checked").scope(|s| {
        for t in 0..tasks {
            let (env, ranges, failed_at, first) = (&env, &ranges, &failed_at, &first);
            s.spawn(move |_| {
                // The caller's thread limit, for `numba.get_num_threads()` in its chunks.
                threads::set(active);
                for v in (0..tasks).map(|k| (t + k) % tasks) {
                    let (next, end) = (&ranges[v].0, ranges[v].1);
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        // Chunks are claimed in increasing order within a range, so after one
                        // past a failure every later one is too.
                        if c >= end || c > failed_at.load(Ordering::Relaxed) {
                            break;
                        }
                        let mut rec = base;
                        // SAFETY: as this function's.
                        let status = unsafe { run_chunk(chunk, env.0, c, &mut rec) };
                        if status != 0 {
                            failed_at.fetch_min(c, Ordering::Relaxed);
                            let mut g = first.lock().unwrap_or_else(|e| e.into_inner());
                            if g.as_ref().is_none_or(|(at, _, _)| c < *at) {
                                *g = Some((c, rec, status));
                            }
                        }
                    }
                }
            });
        }
    });
    match first.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some((_, rec, status)) => {
            // SAFETY: the caller's live error record.
            unsafe { *err = rec };
            status
        }
        None => 0,
    }
}
