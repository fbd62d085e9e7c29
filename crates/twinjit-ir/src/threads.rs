//! How many threads parallel loops use: the one setting the host's thread pool and the
//! interpreter share (`numba.get_num_threads()` gives the same answer in both).
//!
//! The pool's size is `TWINJIT_NUM_THREADS` if set (a positive integer), else the machine's
//! available parallelism, read once (Numba's `NUMBA_NUM_THREADS`). Each thread may lower the
//! number its own loops use with [`set`] (Numba's `set_num_threads`, also per thread).

use std::cell::Cell;
use std::sync::OnceLock;

thread_local! {
    /// The threads this thread's loops use (0: all of them).
    static ACTIVE: Cell<usize> = const { Cell::new(0) };
}

/// The pool's size.
pub fn max() -> usize {
    static MAX: OnceLock<usize> = OnceLock::new();
    *MAX.get_or_init(|| {
        std::env::var("TWINJIT_NUM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
    })
}

/// The threads the calling thread's parallel loops use.
pub fn get() -> usize {
    match ACTIVE.with(|a| a.get()) {
        0 => max(),
        n => n,
    }
}

/// Sets them for the calling thread; false (nothing changed) unless `1 <= n <= max()`.
pub fn set(n: usize) -> bool {
    if n == 0 || n > max() {
        return false;
    }
    ACTIVE.with(|a| a.set(n));
    true
}
