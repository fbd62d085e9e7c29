//! The memory manager of arrays that compiled code allocates (Numba's NRT, `MemInfo`).
//!
//! A buffer is one allocation from the system allocator's cheap (16-byte aligned) path, holding
//! a 64-byte header ([`MemInfo`]) right before the elements, which start at a 64-byte boundary
//! (a cache line; every SIMD width). An array value carries a pointer to
//! its header (its *owner*) next to `data, shape, strides`; arrays the caller lent have a null
//! owner and are never freed or counted. The header holds an atomic reference count: compiled
//! code increments and decrements it inline (`incref`/`decref` from the refcount pass) and
//! calls [`twinjit_nrt_free`] when a decrement drops it to zero.
//!
//! Every buffer is also linked, while a call is running, into its thread's list of live
//! buffers (an intrusive list through the headers, one thread-local access per allocation and
//! free), so that the facade can settle a call ([`Scope`]): when the call fails
//! (an exception, a bounds error, anything), every buffer it allocated and did not free is
//! freed, so error paths need no cleanup code; when it succeeds, the buffers the result holds
//! are detached (they now belong to the Rust caller, and may be dropped on any thread) and any
//! other survivor is a reference-count bug: it is freed and counted in [`Stats::leaked`], which
//! the test suite asserts is zero over the whole corpus.
//!
//! Small buffers (at most [`CACHE_MAX`] bytes with their headers, e.g. `np.empty(16)` in a
//! loop) are rounded up to a multiple of 64 bytes, and a freed one is kept in its freeing
//! thread's cache of blocks of its size ([`CACHE_DEPTH`] at most per size), which the next
//! allocation of that size on that thread takes back: two pointer moves instead of the system
//! allocator's `malloc` and `free`. The cache holds at most 112 KiB per thread and gives its
//! blocks back to the system allocator when the thread ends.

use std::alloc::{alloc, alloc_zeroed, dealloc, Layout};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicI64, Ordering};

/// Bytes of the header before the data (the data is aligned to this too).
pub const HEADER: usize = 64;

/// The alignment the system allocator is asked for (its cheap path); the data is aligned to
/// [`HEADER`] inside the allocation.
const RAW_ALIGN: usize = 16;

/// The header of a buffer, right before its data.
#[repr(C)]
pub struct MemInfo {
    /// References held (offset 0: compiled code updates it with atomic instructions).
    pub refcount: AtomicI64,
    /// The allocation (the header and data lie inside it) and its size, for `dealloc`.
    raw: *mut u8,
    size: usize,
    /// Allocation order on its thread, for settling a call.
    seq: u64,
    /// The thread's list of live buffers (newest first), while `tracked`.
    prev: *mut MemInfo,
    next: *mut MemInfo,
    tracked: bool,
    /// Whether the buffer is a list object (its payload is a [`ListPayload`], whose element
    /// storage and element references it releases when freed).
    list: bool,
}

const _: () = assert!(std::mem::size_of::<MemInfo>() <= HEADER);

/// The largest allocation (header and data) the per-thread block cache keeps.
pub const CACHE_MAX: usize = 1024;
/// Blocks kept per size.
pub const CACHE_DEPTH: usize = 8;
/// Sizes the cache keeps: every multiple of 64 bytes from 128 (two headers) to [`CACHE_MAX`].
const CLASSES: usize = CACHE_MAX / 64 - 1;

/// Freed small blocks of one thread, by size: a stack per size, linked through each block's
/// first word.
struct BlockCache {
    heads: [*mut u8; CLASSES],
    counts: [u8; CLASSES],
}

impl Drop for BlockCache {
    fn drop(&mut self) {
        for c in 0..CLASSES {
            let mut b = self.heads[c];
            while !b.is_null() {
                // SAFETY: every cached block is a live allocation of `class_size(c)` bytes
                // whose first word links the next one.
                unsafe {
                    let next = *(b as *mut *mut u8);
                    dealloc(b, Layout::from_size_align_unchecked(class_size(c), RAW_ALIGN));
                    b = next;
                }
            }
        }
    }
}

thread_local! {
    static CACHE: UnsafeCell<BlockCache> =
        const { UnsafeCell::new(BlockCache { heads: [std::ptr::null_mut(); CLASSES], counts: [0; CLASSES] }) };
}

/// The cache's size class of an allocation of `size` bytes (at least two headers), if small.
fn size_class(size: usize) -> Option<usize> {
    (size <= CACHE_MAX).then(|| size.div_ceil(64) - 2)
}

fn class_size(c: usize) -> usize {
    (c + 2) * 64
}

/// A cached block of class `c`, if this thread has one.
fn cache_take(c: usize) -> *mut u8 {
    // SAFETY: the cell is this thread's and nothing else touches it during this closure; a
    // cached block's first word links the next block.
    CACHE
        .try_with(|cache| unsafe {
            let cache = &mut *cache.get();
            let b = cache.heads[c];
            if !b.is_null() {
                cache.heads[c] = *(b as *mut *mut u8);
                cache.counts[c] -= 1;
            }
            b
        })
        .unwrap_or(std::ptr::null_mut())
}

/// Keeps a freed block of class `c` for this thread's next allocation of its size; false
/// when the cache is full (or the thread is ending) and the caller must free it.
///
/// # Safety
/// `b` is an allocation of `class_size(c)` bytes nothing refers to any more.
unsafe fn cache_put(c: usize, b: *mut u8) -> bool {
    // SAFETY: as in `cache_take`; the block is the caller's to give away.
    CACHE
        .try_with(|cache| unsafe {
            let cache = &mut *cache.get();
            if cache.counts[c] as usize >= CACHE_DEPTH {
                return false;
            }
            *(b as *mut *mut u8) = cache.heads[c];
            cache.heads[c] = b;
            cache.counts[c] += 1;
            true
        })
        .unwrap_or(false)
}

/// A thread's bookkeeping: one thread-local access per allocation and per free.
struct Local {
    head: *mut MemInfo,
    next_seq: u64,
    /// Exceptions caught by `try` handlers on this thread.
    caught: u64,
    stats: Stats,
}

thread_local! {
    static LOCAL: UnsafeCell<Local> = const {
        UnsafeCell::new(Local {
            head: std::ptr::null_mut(),
            next_seq: 0,
            caught: 0,
            stats: Stats { allocated: 0, freed: 0, leaked: 0 },
        })
    };
}

fn with_local<T>(f: impl FnOnce(&mut Local) -> T) -> T {
    // SAFETY: the cell is this thread's, and no caller re-enters `with_local` from `f`.
    LOCAL.with(|l| f(unsafe { &mut *l.get() }))
}

/// Counts of this thread's buffers since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Buffers allocated.
    pub allocated: u64,
    /// Buffers freed.
    pub freed: u64,
    /// Buffers a successful call left with references no value held (a compiler bug; they
    /// are freed when the call is settled).
    pub leaked: u64,
}

/// This thread's counts.
pub fn stats() -> Stats {
    with_local(|l| l.stats)
}

/// Asks Linux to back a large buffer with transparent huge pages (as NumPy does for its own
/// arrays of 4 MiB or more): one page fault per 2 MiB instead of per 4 KiB when the buffer is
/// first written. Advice only; nothing changes where the kernel does not follow it.
#[cfg(all(target_os = "linux", not(miri)))]
fn advise_huge_pages(raw: *mut u8, size: usize) {
    const HUGE: usize = 4 << 20;
    const PAGE: usize = 4096;
    if size < HUGE {
        return;
    }
    let start = (raw as usize).next_multiple_of(PAGE);
    let end = (raw as usize + size) & !(PAGE - 1);
    if end > start {
        // SAFETY: [start, end) is page-aligned and inside this live allocation; madvise with
        // MADV_HUGEPAGE changes no contents and fails harmlessly where unsupported.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(any(not(target_os = "linux"), miri))]
fn advise_huge_pages(_raw: *mut u8, _size: usize) {}

/// The product of two dimensions of an array being allocated, or -1 when either is negative
/// or the product overflows (so that [`twinjit_nrt_new`] fails): an array of more than three
/// dimensions passes the product of its last ones as `n2`.
pub extern "C" fn twinjit_dims_product(a: i64, b: i64) -> i64 {
    if a < 0 || b < 0 {
        return -1;
    }
    a.checked_mul(b).unwrap_or(-1)
}

/// Allocates a buffer for `n0 * n1 * n2` elements of `itemsize` bytes (dimensions past the
/// array's are 1), with one reference; its elements are zeros when `zeroed` is non-zero.
/// Returns null when the size overflows or the memory cannot be had (compiled code raises
/// `MemoryError`).
pub extern "C" fn twinjit_nrt_new(n0: i64, n1: i64, n2: i64, itemsize: i64, zeroed: i8) -> *mut MemInfo {
    let bytes = [n0, n1, n2]
        .iter()
        .try_fold(itemsize as u64, |acc, &d| u64::try_from(d).ok().and_then(|d| acc.checked_mul(d)))
        .and_then(|b| usize::try_from(b).ok())
        .and_then(|b| b.checked_add(2 * HEADER))
        .filter(|&b| b <= isize::MAX as usize - HEADER);
    let Some(mut size) = bytes else { return std::ptr::null_mut() };
    let class = size_class(size);
    let cached = match class {
        Some(c) => {
            size = class_size(c);
            cache_take(c)
        }
        None => std::ptr::null_mut(),
    };
    let raw = if cached.is_null() {
        let Ok(layout) = Layout::from_size_align(size, RAW_ALIGN) else { return std::ptr::null_mut() };
        // SAFETY: the layout has a non-zero size (at least two headers).
        let raw = unsafe {
            if zeroed != 0 {
                alloc_zeroed(layout)
            } else {
                alloc(layout)
            }
        };
        if raw.is_null() {
            return std::ptr::null_mut();
        }
        advise_huge_pages(raw, size);
        raw
    } else {
        if zeroed != 0 {
            // SAFETY: a cached block of `size` bytes, now this allocation's.
            unsafe { std::ptr::write_bytes(cached, 0, size) };
        }
        cached
    };
    // The data at the first multiple of HEADER at least HEADER bytes in; the header before it.
    // (An offset from `raw`, so the pointer keeps the allocation's provenance.)
    let data = raw.wrapping_add((raw as usize + HEADER).next_multiple_of(HEADER) - raw as usize);
    let mi = data.wrapping_sub(HEADER) as *mut MemInfo;
    with_local(|l| {
        let seq = l.next_seq;
        l.next_seq += 1;
        l.stats.allocated += 1;
        // SAFETY: `mi` lies inside the fresh allocation (data - HEADER >= raw), aligned for
        // `MemInfo` (a multiple of 64); the old head, if any, is a live header of this thread.
        unsafe {
            mi.write(MemInfo {
                refcount: AtomicI64::new(1),
                raw,
                size,
                seq,
                prev: std::ptr::null_mut(),
                next: l.head,
                tracked: true,
                list: false,
            });
            if !l.head.is_null() {
                (*l.head).prev = mi;
            }
        }
        l.head = mi;
    });
    mi
}

/// Takes a live header of this thread out of its list.
///
/// # Safety
/// `mi` is a live, tracked header of this thread.
unsafe fn unlink(l: &mut Local, mi: *mut MemInfo) {
    // SAFETY: the caller's contract; neighbours in the list are live headers of this thread.
    unsafe {
        let (p, n) = ((*mi).prev, (*mi).next);
        if p.is_null() {
            l.head = n;
        } else {
            (*p).next = n;
        }
        if !n.is_null() {
            (*n).prev = p;
        }
        (*mi).tracked = false;
    }
}

/// Frees a buffer whose count reached zero (compiled code calls it after its decrement); a
/// list releases what its elements hold and its element storage too.
///
/// # Safety
/// `mi` came from [`twinjit_nrt_new`] and nothing refers to it any more.
pub unsafe extern "C" fn twinjit_nrt_free(mi: *mut MemInfo) {
    // SAFETY: the caller's contract.
    unsafe { release(mi, false) }
}

/// Frees a buffer; `sweeping` (settling a failed call, which frees every buffer it made in
/// any order) skips the element references of a list, which are freed by the sweep itself.
///
/// # Safety
/// `mi` is a live header nothing refers to any more.
unsafe fn release(mi: *mut MemInfo, sweeping: bool) {
    // SAFETY: the caller passes a live header it no longer uses; a tracked one belongs to this
    // thread (buffers are detached before they can reach another thread).
    unsafe {
        if (*mi).list {
            let p = payload(mi);
            if !sweeping {
                drop_elements(p, 0, (*p).len);
            }
            free_items(p);
        }
        let (raw, size, tracked) = ((*mi).raw, (*mi).size, (*mi).tracked);
        with_local(|l| {
            if tracked {
                unlink(l, mi);
            }
            l.stats.freed += 1;
        });
        match size_class(size) {
            Some(c) if cache_put(c, raw) => {}
            _ => dealloc(raw, Layout::from_size_align_unchecked(size, RAW_ALIGN)),
        }
    }
}

/// The payload of a list object, right after its header (`twinjit_ir::abi::list_layout`).
#[repr(C)]
pub struct ListPayload {
    /// Elements in use.
    pub len: i64,
    /// Elements the storage has room for.
    pub cap: i64,
    /// The element storage (null while `cap` is 0): `cap * elem_size` bytes, 8-aligned.
    pub items: *mut u8,
    /// Bytes per element.
    pub elem_size: i64,
    /// Bit `k` set: slot `k` of an element is a reference the list holds.
    pub owners: u64,
}

const _: () = {
    use twinjit_ir::abi::list_layout as ll;
    assert!(std::mem::offset_of!(ListPayload, len) == ll::LEN as usize);
    assert!(std::mem::offset_of!(ListPayload, cap) == ll::CAP as usize);
    assert!(std::mem::offset_of!(ListPayload, items) == ll::ITEMS as usize);
    assert!(std::mem::offset_of!(ListPayload, elem_size) == ll::ELEM_SIZE as usize);
    assert!(std::mem::offset_of!(ListPayload, owners) == ll::OWNERS as usize);
    assert!(std::mem::size_of::<ListPayload>() == ll::SIZE);
};

/// The payload of a list.
pub fn payload(mi: *mut MemInfo) -> *mut ListPayload {
    data(mi) as *mut ListPayload
}

/// Releases the references elements `from..to` hold.
///
/// # Safety
/// `p` is a live list payload and `from..to` lies within its length.
unsafe fn drop_elements(p: *mut ListPayload, from: i64, to: i64) {
    // SAFETY: the caller's contract; owner slots hold null or live headers.
    unsafe {
        let (mask, es) = ((*p).owners, (*p).elem_size as usize);
        if mask == 0 {
            return;
        }
        for i in from..to {
            let e = (*p).items.add(i as usize * es);
            for k in 0..64 {
                if mask & (1 << k) != 0 {
                    decref(*(e.add(k * 8) as *const *mut MemInfo));
                }
            }
        }
    }
}

/// Frees a list's element storage.
///
/// # Safety
/// `p` is a live list payload.
unsafe fn free_items(p: *mut ListPayload) {
    // SAFETY: `items` was allocated by `twinjit_list_resize` with this layout.
    unsafe {
        if !(*p).items.is_null() {
            let bytes = (*p).cap as usize * (*p).elem_size as usize;
            dealloc((*p).items, Layout::from_size_align_unchecked(bytes, 8));
            (*p).items = std::ptr::null_mut();
        }
    }
}

/// A new list of `n` zeroed elements of `elem_size` bytes whose slots in `owners` are
/// references, with one reference; null when the memory cannot be had.
pub extern "C" fn twinjit_list_new(n: i64, elem_size: i64, owners: u64) -> *mut MemInfo {
    if elem_size <= 0 {
        return std::ptr::null_mut();
    }
    let mi = twinjit_nrt_new(1, 1, 1, twinjit_ir::abi::list_layout::SIZE as i64, 1);
    if mi.is_null() {
        return mi;
    }
    // SAFETY: a fresh, zeroed buffer with room for the payload.
    unsafe {
        (*mi).list = true;
        let p = payload(mi);
        (*p).elem_size = elem_size;
        (*p).owners = owners;
        if twinjit_list_resize(mi, n) == 0 {
            release(mi, false);
            return std::ptr::null_mut();
        }
    }
    mi
}

/// Sets a list's length to `n`: new elements are zeros, dropped ones release their
/// references, the storage grows to at least twice its size when it must. Returns 0 when the
/// memory cannot be had (the list is unchanged).
///
/// # Safety
/// `mi` is a live list.
pub unsafe extern "C" fn twinjit_list_resize(mi: *mut MemInfo, n: i64) -> i8 {
    // SAFETY: a live list (the caller's contract); `items` holds `cap` elements.
    unsafe {
        let p = payload(mi);
        let (len, cap, es) = ((*p).len, (*p).cap, (*p).elem_size as usize);
        if n < 0 {
            return 0;
        }
        if n < len {
            drop_elements(p, n, len);
            (*p).len = n;
            return 1;
        }
        if n > cap {
            let new_cap = n.max(cap.saturating_mul(2)).max(4);
            let Some(bytes) = (new_cap as usize).checked_mul(es).filter(|&b| b <= isize::MAX as usize) else {
                return 0;
            };
            let Ok(layout) = Layout::from_size_align(bytes, 8) else { return 0 };
            let items = if (*p).items.is_null() {
                alloc(layout)
            } else {
                std::alloc::realloc((*p).items, Layout::from_size_align_unchecked(cap as usize * es, 8), bytes)
            };
            if items.is_null() {
                return 0;
            }
            (*p).items = items;
            (*p).cap = new_cap;
        }
        std::ptr::write_bytes((*p).items.add(len as usize * es), 0, (n - len) as usize * es);
        (*p).len = n;
        1
    }
}

/// One more reference (null: an array the caller lent, nothing to do).
///
/// # Safety
/// `mi` is null or a live header.
pub unsafe fn incref(mi: *mut MemInfo) {
    if !mi.is_null() {
        // SAFETY: a live header (caller's contract).
        unsafe { (*mi).refcount.fetch_add(1, Ordering::Relaxed) };
    }
}

/// One reference fewer, freeing the buffer at zero (null: nothing to do).
///
/// # Safety
/// `mi` is null or a live header the caller holds a reference to.
pub unsafe fn decref(mi: *mut MemInfo) {
    if !mi.is_null() {
        // SAFETY: a live header (caller's contract); at zero nobody else refers to it.
        unsafe {
            if (*mi).refcount.fetch_sub(1, Ordering::AcqRel) == 1 {
                twinjit_nrt_free(mi);
            }
        }
    }
}

/// A buffer for `n` elements of `itemsize` bytes that belongs to Rust code from the start
/// (not tracked by any call); null when it cannot be allocated.
pub fn new_detached(n: usize, itemsize: usize) -> *mut MemInfo {
    let Ok(n) = i64::try_from(n) else { return std::ptr::null_mut() };
    let mi = twinjit_nrt_new(n, 1, 1, itemsize as i64, 0);
    if !mi.is_null() {
        // SAFETY: just allocated on this thread.
        unsafe { detach(mi) };
    }
    mi
}

/// The data of a buffer.
pub fn data(mi: *mut MemInfo) -> *mut u8 {
    (mi as *mut u8).wrapping_add(HEADER)
}

/// A `try` handler of compiled code caught an exception: the references held where it was
/// raised are abandoned, so the buffers they keep alive are the call's to settle.
pub extern "C" fn twinjit_nrt_caught() {
    with_local(|l| l.caught += 1);
}

/// The bookkeeping of one call from Rust into compiled code on this thread.
pub struct Scope {
    first_seq: u64,
    caught: u64,
}

impl Scope {
    /// Starts a call.
    pub fn enter() -> Scope {
        with_local(|l| Scope { first_seq: l.next_seq, caught: l.caught })
    }

    /// Whether anything was allocated on this thread since the call started (when not, there
    /// is nothing to settle).
    pub fn allocated(&self) -> bool {
        with_local(|l| l.next_seq) != self.first_seq
    }

    /// The buffers allocated since the call started that are still alive (the list is newest
    /// first, so they lead it).
    fn survivors(&self) -> Vec<*mut MemInfo> {
        let mut out = Vec::new();
        let mut m = with_local(|l| l.head);
        // SAFETY: every header in the list is live and of this thread.
        while !m.is_null() && unsafe { (*m).seq } >= self.first_seq {
            out.push(m);
            m = unsafe { (*m).next };
        }
        out
    }

    /// The call failed: frees every buffer it allocated that is still alive (nothing outside
    /// the call can refer to them: results are not returned on an error).
    pub fn fail(self) {
        if !self.allocated() {
            return;
        }
        for m in self.survivors() {
            // SAFETY: allocated during this call, unreachable now that it has failed.
            unsafe { release(m, true) };
        }
    }

    /// The call succeeded and its result holds `owners` (one entry per array, null for a
    /// lent one): detaches those from the thread, then frees (and counts as leaked) any other
    /// buffer the call allocated that is still alive.
    ///
    /// When a `try` handler caught an exception during the call, the references held where it
    /// was raised were abandoned: the result's buffers get exactly one reference per place the
    /// result holds them, and the other survivors are freed as garbage, not counted as leaks.
    pub fn succeed(self, owners: &[*mut MemInfo]) {
        let caught = with_local(|l| l.caught) != self.caught;
        if caught {
            // SAFETY: live headers the result holds references to.
            unsafe { set_counts_to_holders(owners) };
        }
        for &m in owners.iter().filter(|m| !m.is_null()) {
            // SAFETY: a live header the result holds a reference to.
            unsafe { detach(m) };
        }
        for m in self.survivors() {
            if !caught {
                with_local(|l| l.stats.leaked += 1);
            }
            // SAFETY: allocated during this call and held by nothing the call returned (a
            // leaked list's elements are survivors too: swept, not released through it).
            unsafe { release(m, true) };
        }
    }
}

/// Sets the count of every buffer the result holds (`owners`, and the elements of the lists
/// among them, recursively) to the number of places holding it.
///
/// # Safety
/// Every non-null entry is a live header; a list's owner slots hold null or live headers.
unsafe fn set_counts_to_holders(owners: &[*mut MemInfo]) {
    let mut holders: hashbrown::HashMap<*mut MemInfo, i64> = hashbrown::HashMap::new();
    let mut stack: Vec<*mut MemInfo> = owners.iter().copied().filter(|m| !m.is_null()).collect();
    while let Some(m) = stack.pop() {
        let n = holders.entry(m).or_default();
        *n += 1;
        // SAFETY: a live header (the caller's contract), visited once as a list.
        unsafe {
            if *n == 1 && (*m).list {
                let p = payload(m);
                let (mask, es) = ((*p).owners, (*p).elem_size as usize);
                for i in 0..(*p).len.max(0) as usize {
                    for k in (0..64).filter(|k| mask & (1 << k) != 0) {
                        let o = *((*p).items.add(i * es + k * 8) as *const *mut MemInfo);
                        if !o.is_null() {
                            stack.push(o);
                        }
                    }
                }
            }
        }
    }
    for (m, n) in holders {
        // SAFETY: a live header.
        unsafe { (*m).refcount.store(n, Ordering::Relaxed) };
    }
}

/// Takes a buffer out of its thread's live list (it now belongs to Rust code), with what a
/// list's elements hold.
///
/// # Safety
/// `mi` is a live header of this thread.
unsafe fn detach(mi: *mut MemInfo) {
    // SAFETY: a live header (caller's contract); a list's owner slots hold null or live
    // headers.
    unsafe {
        if (*mi).tracked {
            with_local(|l| unlink(l, mi));
        }
        if (*mi).list {
            let p = payload(mi);
            let (mask, es) = ((*p).owners, (*p).elem_size as usize);
            for i in 0..(*p).len.max(0) as usize {
                for k in (0..64).filter(|k| mask & (1 << k) != 0) {
                    let o = *((*p).items.add(i * es + k * 8) as *const *mut MemInfo);
                    if !o.is_null() {
                        detach(o);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_aligned_counted_and_freed() {
        let before = stats();
        let m = twinjit_nrt_new(10, 3, 1, 8, 1);
        assert!(!m.is_null());
        assert_eq!(data(m) as usize % HEADER, 0);
        // SAFETY: 240 zeroed bytes follow the header.
        let first = unsafe { *(data(m) as *const f64).add(29) };
        assert_eq!(first, 0.0);
        // SAFETY: `m` is live and held once.
        unsafe {
            incref(m);
            decref(m);
            decref(m);
        }
        let after = stats();
        assert_eq!((after.allocated - before.allocated, after.freed - before.freed), (1, 1));
    }

    #[test]
    fn lists_grow_shrink_and_release_what_their_elements_hold() {
        let before = stats();
        // Elements of two slots: a number, then a reference (bit 1 of the owner mask).
        let l = twinjit_list_new(0, 16, 0b10);
        assert!(!l.is_null());
        let a = twinjit_nrt_new(4, 1, 1, 8, 1);
        // SAFETY: `l` is a live list of 16-byte elements; `a` is live, held once by this test.
        unsafe {
            for n in [1, 5, 9, 3] {
                assert_eq!(twinjit_list_resize(l, n), 1);
                assert_eq!((*payload(l)).len, n);
            }
            assert!((*payload(l)).cap >= 9);
            // The list takes a reference to `a` in element 2 (as `listset` does).
            incref(a);
            *((*payload(l)).items.add(2 * 16 + 8) as *mut *mut MemInfo) = a;
            // Shrinking past element 2 releases it; `a` survives on the test's reference.
            assert_eq!(twinjit_list_resize(l, 2), 1);
            assert_eq!((*a).refcount.load(Ordering::Relaxed), 1);
            // Growing again gives zeros (null references), and freeing the list releases
            // what element 1 holds.
            assert_eq!(twinjit_list_resize(l, 4), 1);
            assert!((*((*payload(l)).items.add(2 * 16 + 8) as *const *mut MemInfo)).is_null());
            *((*payload(l)).items.add(16 + 8) as *mut *mut MemInfo) = a;
            // A negative length is refused and changes nothing.
            assert_eq!(twinjit_list_resize(l, -1), 0);
            assert_eq!((*payload(l)).len, 4);
            decref(l);
        }
        let after = stats();
        assert_eq!((after.allocated - before.allocated, after.freed - before.freed), (2, 2));
    }

    #[test]
    fn impossible_sizes_are_null_not_aborts() {
        assert!(twinjit_nrt_new(i64::MAX, 2, 1, 8, 0).is_null());
        assert!(twinjit_nrt_new(-1, 1, 1, 8, 0).is_null());
        assert!(twinjit_nrt_new(1 << 40, 1 << 20, 1, 8, 1).is_null());
    }

    #[test]
    fn small_blocks_are_reused_zeroed_when_asked_and_freed_when_the_thread_ends() {
        // On a thread of its own, so that its cache starts empty and is dropped at the end
        // (Miri reports the blocks as leaked if the cache's destructor does not free them).
        std::thread::spawn(|| {
            let a = twinjit_nrt_new(16, 1, 1, 8, 0);
            let a_data = data(a);
            // SAFETY: 128 bytes follow the header; `a` is held once.
            unsafe {
                std::ptr::write_bytes(a_data, 0xAB, 128);
                decref(a);
            }
            // The same size again: the freed block comes back, and is zeroed when asked.
            let b = twinjit_nrt_new(4, 4, 1, 8, 1);
            assert_eq!(data(b), a_data);
            // SAFETY: 128 zeroed bytes follow the header.
            assert!(unsafe { std::slice::from_raw_parts(data(b), 128) }.iter().all(|&x| x == 0));
            // More frees of one size than the cache keeps: the rest go to the allocator.
            let many: Vec<_> = (0..CACHE_DEPTH + 3).map(|_| twinjit_nrt_new(16, 1, 1, 8, 0)).collect();
            // SAFETY: each is live and held once.
            unsafe {
                decref(b);
                many.into_iter().for_each(|m| decref(m));
            }
            // A size past the cache's largest is never cached.
            let big = twinjit_nrt_new(CACHE_MAX as i64, 1, 1, 1, 0);
            // SAFETY: live and held once.
            unsafe { decref(big) };
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_failed_call_frees_what_it_allocated_and_a_result_survives() {
        let before = stats();
        let s = Scope::enter();
        let _a = twinjit_nrt_new(4, 1, 1, 8, 0);
        let _b = twinjit_nrt_new(4, 1, 1, 8, 0);
        s.fail();
        let mid = stats();
        assert_eq!(mid.freed - before.freed, 2);
        let s = Scope::enter();
        let kept = twinjit_nrt_new(4, 1, 1, 8, 0);
        let stray = twinjit_nrt_new(4, 1, 1, 8, 0);
        let _ = stray;
        s.succeed(&[kept]);
        let after = stats();
        assert_eq!(after.leaked - mid.leaked, 1);
        // The detached result is freed by its owner, from any thread.
        struct Owned(*mut MemInfo);
        // SAFETY: a detached buffer may be released from any thread (its count is atomic).
        unsafe impl Send for Owned {}
        let k = Owned(kept);
        std::thread::spawn(move || {
            let k = k;
            // SAFETY: the one reference the result held.
            unsafe { decref(k.0) }
        })
        .join()
        .unwrap();
    }
}
