//! Input arrays allocated the way NumPy allocates them, so that a benchmark against Numba
//! gives both sides the same memory: NumPy asks Linux for transparent huge pages on every
//! array of 4 MiB or more (`madvise(MADV_HUGEPAGE)`), which makes a loop that streams through
//! a large array up to a third faster (fewer TLB misses). The Numba side of the comparison
//! scripts gets that from NumPy; the Rust side gets it from here.

/// NumPy's threshold for the huge-page advice.
const HUGE: usize = 4 << 20;

/// `n` elements `f(0) .. f(n - 1)` in a buffer advised as NumPy advises its own.
pub fn numpy_vec<T: Copy>(n: usize, mut f: impl FnMut(usize) -> T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    let bytes = n * std::mem::size_of::<T>();
    #[cfg(target_os = "linux")]
    if bytes >= HUGE {
        const PAGE: usize = 4096;
        let start = (v.as_mut_ptr() as usize).next_multiple_of(PAGE);
        let end = (v.as_mut_ptr() as usize + bytes) & !(PAGE - 1);
        if end > start {
            // SAFETY: [start, end) lies inside the vector's allocation; the advice changes no
            // contents (nothing is written yet) and fails harmlessly where unsupported.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    let _ = bytes;
    v.extend((0..n).map(&mut f));
    v
}
