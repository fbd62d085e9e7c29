//! `cuda-sim`: `@cuda.jit` kernels compiled by Cranelift for this CPU and run over a launch's
//! grid, with the CUDA execution model the reference interpreter defines (`interp::kernel`).
//!
//! # Code
//!
//! A kernel and its device functions compile as host functions do (`lower`), with one
//! difference: the error-record pointer every compiled function receives points at a
//! [`SimThread`], whose first field is the [`ErrorRecord`]. The CUDA builtins read the thread's
//! registers (`threadIdx`, `blockIdx`, its lane, the warp's lanes) from the fields after it, at
//! the offsets of [`offset`], so device functions see them with no extra parameter.
//! `cuda.shared.array` is the block's shared buffer plus the allocation site's offset (every
//! site of the program has its own, laid out at compile time: [`SimLayout`]); a dynamic shared
//! array (`shape 0`) gets the launch's bytes after the static part, one region per site as in
//! the interpreter. `cuda.local.array` is a stack slot, zero-filled each time it executes (as
//! the interpreter does; CUDA leaves it uninitialised). Atomics are real atomics (a
//! compare-and-swap loop in [`atomic`]), because blocks run on several host threads at once.
//!
//! # Threads of a block: continuations
//!
//! A kernel that never synchronises (no barrier, no warp operation anywhere in its program)
//! runs each thread as one call, thread after thread. Otherwise every thread of a block is a
//! coroutine (`corosensei`: its own stack, switched in user space) and a synchronisation point
//! is a call into this module that suspends it ([`sync`], [`warp`]). The block's scheduler
//! then does exactly what the interpreter's does: it runs every runnable thread, in linear
//! order, until it returns or suspends; once none can run, it first completes the warp
//! operations every named lane waits at (shuffles, votes, `syncwarp`: lockstep within the warp),
//! and otherwise resolves the block barrier every live thread waits at. A thread that exited
//! while others wait at a barrier, threads waiting at different barriers, or lanes of one warp
//! at different warp operations, is a [`SimError::Divergence`] naming the thread, the barrier
//! and its source line, never a hang. (Region formation, the other way, would split each
//! function at its barriers into resumable pieces; coroutines also handle barriers inside loops
//! and device functions, at the price of a stack per thread.)
//!
//! # Blocks
//!
//! Blocks run on the host's thread pool (`parallel`), each block on one host thread. A block
//! that fails stops the launch: no block with a larger linear index starts afterwards, and the
//! error of the failing block with the smallest index is the launch's (so the error does not
//! depend on the thread count). A kernel that syncs the grid (`cuda.cg.this_grid().sync()`)
//! runs its blocks on the calling thread, parking each block at the grid sync until all have
//! arrived, as the interpreter does.

use crate::abi::{EntryFn, ErrorCode, ErrorRecord};
use crate::{CompiledProgram, HostError, HostOptions};
use corosensei::stack::{DefaultStack, Stack};
use corosensei::{Coroutine, CoroutineResult, Yielder};
use hashbrown::HashMap;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;
use twinjit_ir::builtins::{AtomicOp, BarrierReduce, KernelOp, ShuffleKind, VoteOp};
use twinjit_ir::interp::race::{verbs, AccessKind, Record};
use twinjit_ir::{AddressSpace, InstKind, Scalar, TypedProgram};

/// One GPU thread as compiled code sees it (through its error-record pointer) and as the
/// scheduler drives it.
#[repr(C)]
pub struct SimThread {
    /// What a raising operation writes (must stay first: compiled code's `err` points here).
    pub err: ErrorRecord,
    /// `threadIdx`.
    pub tid: [u32; 3],
    /// `blockIdx`.
    pub ctaid: [u32; 3],
    /// `blockDim`.
    pub ntid: [u32; 3],
    /// `gridDim`.
    pub nctaid: [u32; 3],
    /// `cuda.laneid`.
    pub lane: u32,
    /// The lanes present in this thread's warp (`cuda.activemask()`).
    pub warp_lanes: u32,
    /// The block's shared memory (static arrays at their offsets).
    pub shared: *mut u8,
    /// The first dynamic shared region.
    pub dyn_shared: *mut u8,
    /// Bytes of each dynamic shared region (the launch's), and the distance between two.
    pub dyn_bytes: i64,
    /// Distance between two dynamic regions.
    pub dyn_stride: i64,
    // The scheduler's side, not read by compiled code.
    yielder: *const Yielder<(), ()>,
    wait: Wait,
    resume_value: i64,
    /// The block's race checker (null when off).
    race: *mut RaceBlock,
    /// The race this thread found: what, and the raise site of the other access.
    race_found: Option<Box<(String, u32)>>,
}

/// Byte offsets of [`SimThread`]'s fields that compiled code reads.
pub mod offset {
    use super::SimThread;
    use std::mem::offset_of;
    /// `threadIdx` (three u32).
    pub const TID: i32 = offset_of!(SimThread, tid) as i32;
    /// `blockIdx`.
    pub const CTAID: i32 = offset_of!(SimThread, ctaid) as i32;
    /// `blockDim`.
    pub const NTID: i32 = offset_of!(SimThread, ntid) as i32;
    /// `gridDim`.
    pub const NCTAID: i32 = offset_of!(SimThread, nctaid) as i32;
    /// `laneid` (u32).
    pub const LANE: i32 = offset_of!(SimThread, lane) as i32;
    /// The warp's lanes (u32).
    pub const WARP_LANES: i32 = offset_of!(SimThread, warp_lanes) as i32;
    /// The shared buffer (pointer).
    pub const SHARED: i32 = offset_of!(SimThread, shared) as i32;
    /// The first dynamic region (pointer).
    pub const DYN_SHARED: i32 = offset_of!(SimThread, dyn_shared) as i32;
    /// Bytes of a dynamic region (i64).
    pub const DYN_BYTES: i32 = offset_of!(SimThread, dyn_bytes) as i32;
    /// Distance between dynamic regions (i64).
    pub const DYN_STRIDE: i32 = offset_of!(SimThread, dyn_stride) as i32;
}

/// What a suspended thread waits at.
#[derive(Clone, Copy, Debug, Default)]
struct Wait {
    op: i64,
    site: i64,
    mask: i64,
    value: i64,
    b: i64,
}

/// The synchronisation operations compiled code passes to [`sync`] and [`warp`].
pub mod op {
    /// `cuda.syncthreads()`.
    pub const BARRIER: i64 = 0;
    /// `cuda.syncthreads_count(p)`.
    pub const COUNT: i64 = 1;
    /// `cuda.syncthreads_and(p)`.
    pub const AND: i64 = 2;
    /// `cuda.syncthreads_or(p)`.
    pub const OR: i64 = 3;
    /// `g.sync()` of the grid group.
    pub const GRID: i64 = 4;
    /// `shfl_down_sync`.
    pub const SHFL_DOWN: i64 = 10;
    /// `shfl_xor_sync`.
    pub const SHFL_XOR: i64 = 11;
    /// `shfl_up_sync`.
    pub const SHFL_UP: i64 = 12;
    /// `shfl_sync`.
    pub const SHFL_IDX: i64 = 13;
    /// `all_sync`.
    pub const ALL: i64 = 20;
    /// `any_sync`.
    pub const ANY: i64 = 21;
    /// `eq_sync`.
    pub const EQ: i64 = 22;
    /// `ballot_sync`.
    pub const BALLOT: i64 = 23;
    /// `match_any_sync`.
    pub const MATCH_ANY: i64 = 24;
    /// `match_all_sync` (the result: the mask in the low 32 bits, the predicate in bit 32).
    pub const MATCH_ALL: i64 = 25;
    /// `syncwarp`.
    pub const SYNCWARP: i64 = 26;
}

/// The code of a kernel operation that synchronises.
pub(crate) fn sync_code(k: KernelOp) -> Option<i64> {
    Some(match k {
        KernelOp::Barrier => op::BARRIER,
        KernelOp::BarrierReduce(BarrierReduce::Count) => op::COUNT,
        KernelOp::BarrierReduce(BarrierReduce::And) => op::AND,
        KernelOp::BarrierReduce(BarrierReduce::Or) => op::OR,
        KernelOp::GridSync => op::GRID,
        KernelOp::Shuffle(ShuffleKind::Down) => op::SHFL_DOWN,
        KernelOp::Shuffle(ShuffleKind::Xor) => op::SHFL_XOR,
        KernelOp::Shuffle(ShuffleKind::Up) => op::SHFL_UP,
        KernelOp::Shuffle(ShuffleKind::Idx) => op::SHFL_IDX,
        KernelOp::Vote(VoteOp::All) => op::ALL,
        KernelOp::Vote(VoteOp::Any) => op::ANY,
        KernelOp::Vote(VoteOp::Eq) => op::EQ,
        KernelOp::Vote(VoteOp::Ballot) => op::BALLOT,
        KernelOp::Vote(VoteOp::MatchAny) => op::MATCH_ANY,
        KernelOp::Vote(VoteOp::MatchAll) => op::MATCH_ALL,
        KernelOp::SyncWarp => op::SYNCWARP,
        _ => return None,
    })
}

fn op_name(op: i64) -> &'static str {
    match op {
        op::BARRIER => "cuda.syncthreads",
        op::COUNT => "cuda.syncthreads_count",
        op::AND => "cuda.syncthreads_and",
        op::OR => "cuda.syncthreads_or",
        op::GRID => "cuda.cg.this_grid().sync",
        op::SHFL_DOWN => "cuda.shfl_down_sync",
        op::SHFL_XOR => "cuda.shfl_xor_sync",
        op::SHFL_UP => "cuda.shfl_up_sync",
        op::SHFL_IDX => "cuda.shfl_sync",
        op::ALL => "cuda.all_sync",
        op::ANY => "cuda.any_sync",
        op::EQ => "cuda.eq_sync",
        op::BALLOT => "cuda.ballot_sync",
        op::MATCH_ANY => "cuda.match_any_sync",
        op::MATCH_ALL => "cuda.match_all_sync",
        _ => "cuda.syncwarp",
    }
}

fn is_barrier(op: i64) -> bool {
    op <= op::GRID
}

/// `cuda.syncthreads*()` and `g.sync()`: suspends the thread until the scheduler resolves the
/// barrier; the result of `syncthreads_count/and/or`.
///
/// # Safety
/// `t` is the running thread's [`SimThread`], on a coroutine the scheduler started.
pub(crate) unsafe extern "C" fn sync(t: *mut SimThread, op: i64, pred: i64, site: i64) -> i64 {
    // SAFETY: compiled code passes its own error-record pointer, which is the thread's.
    unsafe { suspend(t, Wait { op, site, mask: 0, value: pred, b: 0 }) }
}

/// A warp operation: suspends the thread until its warp's lanes meet there; the lane's result
/// (value bits: integers extended to 64 bits, floats by their bits).
///
/// # Safety
/// As [`sync`].
pub(crate) unsafe extern "C" fn warp(t: *mut SimThread, op: i64, mask: i64, value: i64, b: i64, site: i64) -> i64 {
    // SAFETY: as in `sync`.
    unsafe { suspend(t, Wait { op, site, mask, value, b }) }
}

/// Records what thread `t` waits at and suspends it; the value the scheduler resumes it with.
/// Only raw pointers: while the thread is suspended the scheduler writes its record, so no
/// reference to it may live across the switch (a `&mut` would let the compiler read
/// `resume_value` before it).
///
/// # Safety
/// `t` is the running thread's record, on a coroutine the scheduler started.
unsafe fn suspend(t: *mut SimThread, wait: Wait) -> i64 {
    // SAFETY: the caller's contract; each access is a short-lived place expression.
    unsafe {
        std::ptr::write_volatile(&raw mut (*t).wait, wait);
        let y = std::ptr::read_volatile(&raw const (*t).yielder);
        if y.is_null() {
            // Not on a coroutine (not reached: a program with a synchronisation point always
            // runs its threads as coroutines).
            return 0;
        }
        // The yielder belongs to the coroutine running this code, which is suspended only
        // here and resumed by the scheduler that owns `t`.
        (*y).suspend(());
        std::ptr::read_volatile(&raw const (*t).resume_value)
    }
}

/// `cuda.atomic.*` on the element at `ptr`: `code` is `dtype << 8 | op` (the indices of
/// [`dtype_code`] and [`atomic_code`]); values as bits (integers extended to 64 bits, floats
/// by their bits). Returns the element's old value.
///
/// # Safety
/// `ptr` is a valid, aligned element of the dtype, which only atomics write concurrently.
pub(crate) unsafe extern "C" fn atomic(ptr: i64, code: i64, v: i64, v2: i64) -> i64 {
    let Some(dt) = DTYPES.get((code >> 8) as usize).copied() else { return 0 };
    let Some(aop) = ATOMICS.get((code & 0xff) as usize).copied() else { return 0 };
    let (v, v2) = (v as u64, v2 as u64);
    let f = |old: u64| apply(dt, aop, old, v, v2);
    // SAFETY: the caller's contract; each width is accessed through its own atomic type.
    let old = unsafe {
        match dt.size() {
            1 => cas_loop(&*(ptr as *const AtomicU8), f, |x| x as u64, |x| x as u8),
            2 => cas_loop(&*(ptr as *const AtomicU16), f, |x| x as u64, |x| x as u16),
            4 => cas_loop(&*(ptr as *const AtomicU32), f, |x| x as u64, |x| x as u32),
            _ => cas_loop(&*(ptr as *const AtomicU64), f, |x| x, |x| x),
        }
    };
    old as i64
}

/// The atomic types' common operations, for [`cas_loop`].
trait Cell {
    type Raw: Copy + PartialEq;
    fn get(&self) -> Self::Raw;
    fn cas(&self, old: Self::Raw, new: Self::Raw) -> Result<Self::Raw, Self::Raw>;
}
macro_rules! cell {
    ($a:ty, $r:ty) => {
        impl Cell for $a {
            type Raw = $r;
            fn get(&self) -> $r {
                self.load(Ordering::Relaxed)
            }
            fn cas(&self, old: $r, new: $r) -> Result<$r, $r> {
                self.compare_exchange_weak(old, new, Ordering::AcqRel, Ordering::Relaxed)
            }
        }
    };
}
cell!(AtomicU8, u8);
cell!(AtomicU16, u16);
cell!(AtomicU32, u32);
cell!(AtomicU64, u64);

fn cas_loop<C: Cell>(
    c: &C,
    f: impl Fn(u64) -> Option<u64>,
    widen: fn(C::Raw) -> u64,
    narrow: fn(u64) -> C::Raw,
) -> u64 {
    let mut old = c.get();
    loop {
        let Some(new) = f(widen(old)) else { return widen(old) };
        match c.cas(old, narrow(new)) {
            Ok(_) => return widen(old),
            Err(seen) => old = seen,
        }
    }
}

/// The dtypes atomics take, by code.
const DTYPES: [Scalar; 10] = [
    Scalar::Int8,
    Scalar::UInt8,
    Scalar::Int16,
    Scalar::UInt16,
    Scalar::Int32,
    Scalar::UInt32,
    Scalar::Int64,
    Scalar::UInt64,
    Scalar::Float32,
    Scalar::Float64,
];

const ATOMICS: [AtomicOp; 13] = [
    AtomicOp::Add,
    AtomicOp::Sub,
    AtomicOp::Max,
    AtomicOp::Min,
    AtomicOp::NanMax,
    AtomicOp::NanMin,
    AtomicOp::Exch,
    AtomicOp::Cas,
    AtomicOp::And,
    AtomicOp::Or,
    AtomicOp::Xor,
    AtomicOp::Inc,
    AtomicOp::Dec,
];

/// The code of an atomic's dtype, if atomics take it.
pub(crate) fn dtype_code(s: Scalar) -> Option<i64> {
    DTYPES.iter().position(|d| *d == s).map(|k| k as i64)
}

/// The code of an atomic operation.
pub(crate) fn atomic_code(a: AtomicOp) -> i64 {
    ATOMICS.iter().position(|x| *x == a).unwrap_or(0) as i64
}

/// The new bits of an element holding `old` after `aop` with `v` (`v2`: the new value of a
/// compare-and-swap), or `None` to store nothing. The interpreter's semantics (`interp::cuda`).
fn apply(dt: Scalar, aop: AtomicOp, old: u64, v: u64, v2: u64) -> Option<u64> {
    let bits = dt.bits();
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let (o, v) = (old & mask, v & mask);
    let signed = |x: u64| ((x << (64 - bits)) as i64) >> (64 - bits);
    if dt.is_float() {
        let (fo, fv) = if bits == 32 {
            (f32::from_bits(o as u32) as f64, f32::from_bits(v as u32) as f64)
        } else {
            (f64::from_bits(o), f64::from_bits(v))
        };
        let back = |x: f64| if bits == 32 { (x as f32).to_bits() as u64 } else { x.to_bits() };
        return match aop {
            // In the element's own precision: float32 + float32 rounds once to float32.
            AtomicOp::Add | AtomicOp::Sub if bits == 32 => {
                let (a, b) = (f32::from_bits(o as u32), f32::from_bits(v as u32));
                Some((if aop == AtomicOp::Add { a + b } else { a - b }).to_bits() as u64)
            }
            AtomicOp::Add => Some(back(fo + fv)),
            AtomicOp::Sub => Some(back(fo - fv)),
            AtomicOp::Max | AtomicOp::Min | AtomicOp::NanMax | AtomicOp::NanMin => {
                let max = matches!(aop, AtomicOp::Max | AtomicOp::NanMax);
                let nan = matches!(aop, AtomicOp::NanMax | AtomicOp::NanMin);
                let store = if fv.is_nan() {
                    false
                } else if fo.is_nan() {
                    nan
                } else if max {
                    fo < fv
                } else {
                    fo > fv
                };
                store.then_some(v)
            }
            AtomicOp::Exch => Some(v),
            _ => None,
        };
    }
    let unsigned = dt.is_unsigned();
    let lt = |a: u64, b: u64| if unsigned { a < b } else { signed(a) < signed(b) };
    let new = match aop {
        AtomicOp::Add => o.wrapping_add(v),
        AtomicOp::Sub => o.wrapping_sub(v),
        AtomicOp::Max | AtomicOp::NanMax => {
            if lt(o, v) {
                v
            } else {
                return None;
            }
        }
        AtomicOp::Min | AtomicOp::NanMin => {
            if lt(v, o) {
                v
            } else {
                return None;
            }
        }
        AtomicOp::Exch => v,
        AtomicOp::Cas => {
            if o == v {
                v2
            } else {
                return None;
            }
        }
        AtomicOp::And => o & v,
        AtomicOp::Or => o | v,
        AtomicOp::Xor => o ^ v,
        AtomicOp::Inc => {
            if o >= v {
                0
            } else {
                o + 1
            }
        }
        AtomicOp::Dec => {
            if o == 0 || o > v {
                v
            } else {
                o - 1
            }
        }
    };
    Some(new & mask)
}

/// Where a `cuda.shared.array` lives in a block's shared memory.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SharedSite {
    /// At this byte offset of the static part.
    Static(i64),
    /// The `k`-th dynamic region.
    Dynamic(i64),
}

/// The program's shared arrays, laid out once at compile time.
#[derive(Debug, Default)]
pub(crate) struct SimLayout {
    /// (specialisation name, instruction index) → where the array lives.
    pub sites: HashMap<(String, u32), SharedSite>,
    /// Bytes of the static part.
    pub static_bytes: usize,
    /// Dynamic allocation sites.
    pub dynamic_sites: usize,
    /// Bytes of every local array of the program (a bound on one thread's).
    pub local_bytes: usize,
    /// Whether the program synchronises (barriers or warp operations).
    pub syncs: bool,
    /// Whether it syncs the grid.
    pub grid_sync: bool,
    /// Whether a function of it is on a call cycle (deep stacks).
    pub recursive: bool,
    /// Whether element accesses are reported to the race checker.
    pub race_check: bool,
}

impl SimLayout {
    fn of(program: &TypedProgram, race_check: bool) -> SimLayout {
        let mut l = SimLayout {
            recursive: !twinjit_ir::call_graph::recursive_functions(program).is_empty(),
            race_check,
            ..SimLayout::default()
        };
        for tf in &program.functions {
            for (k, inst) in tf.func.insts.iter().enumerate() {
                match &inst.kind {
                    // `alignment=` has nothing to align here: threads see offsets, not addresses.
                    InstKind::AllocArray { space, dtype, shape, .. } => {
                        let n: i64 = shape.iter().product::<i64>().max(0);
                        let bytes = (n as usize).saturating_mul(dtype.size());
                        if *space == AddressSpace::Shared {
                            let site = if shape.as_slice() == [0] {
                                l.dynamic_sites += 1;
                                SharedSite::Dynamic(l.dynamic_sites as i64 - 1)
                            } else {
                                let at = l.static_bytes.next_multiple_of(16);
                                l.static_bytes = at + bytes;
                                SharedSite::Static(at as i64)
                            };
                            l.sites.insert((tf.func.name.clone(), k as u32), site);
                        } else {
                            l.local_bytes = l.local_bytes.saturating_add(bytes.next_multiple_of(16));
                        }
                    }
                    InstKind::Builtin(b, _) => {
                        if let Some(k) = b.kernel_op() {
                            l.syncs |= sync_code(k).is_some();
                            l.grid_sync |= k == KernelOp::GridSync;
                        }
                    }
                    _ => {}
                }
            }
        }
        l
    }
}

/// A kernel compiled for `cuda-sim`.
pub struct SimProgram {
    program: CompiledProgram,
    layout: SimLayout,
}

impl std::fmt::Debug for SimProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimProgram").field("layout", &self.layout).finish()
    }
}

/// Compiles `program` (verified, lowered typed IR whose entry is a kernel) for `cuda-sim`;
/// with `race_check`, every element access of an array is reported to the race checker first
/// (and no loop is vectorised, so every access is one).
pub fn compile(program: &TypedProgram, options: &HostOptions, race_check: bool) -> Result<SimProgram, HostError> {
    let layout = SimLayout::of(program, race_check);
    let compiled = crate::catch_panic(|| crate::compile_inner(program, options, false, Some(&layout)))?;
    Ok(SimProgram { program: compiled, layout })
}

/// A launch: `kernel[grid, block, stream, dynamic_shared_bytes]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimLaunch {
    /// Blocks per grid.
    pub grid: [u32; 3],
    /// Threads per block.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory.
    pub dynamic_shared_bytes: u32,
}

/// A thread of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimThreadId {
    /// `blockIdx`.
    pub block: [u32; 3],
    /// `threadIdx`.
    pub thread: [u32; 3],
}

impl std::fmt::Display for SimThreadId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.thread;
        let [bx, by, bz] = self.block;
        write!(f, "thread ({x}, {y}, {z}) of block ({bx}, {by}, {bz})")
    }
}

/// Why a launch failed.
#[derive(Debug, Clone)]
pub enum SimError {
    /// A thread raised (`IndexError`, `ZeroDivisionError`, a `raise`): its record (whose `site`
    /// indexes [`SimProgram::sites`]) and the thread.
    Raised {
        /// The error record.
        record: ErrorRecord,
        /// Who raised.
        thread: SimThreadId,
    },
    /// Threads that do not meet at a synchronisation point (a hang or undefined behaviour on a
    /// GPU): the raise site of the point one of them waits at, and what happened.
    Divergence {
        /// Index into [`SimProgram::sites`].
        site: u32,
        /// The thread named first.
        thread: SimThreadId,
        /// What diverged.
        message: String,
    },
    /// Two threads touched one element with nothing ordering them, one of them writing (the
    /// race checker; see `twinjit_ir::interp::race`).
    Race {
        /// Index into [`SimProgram::sites`] of the second access.
        site: u32,
        /// The thread of the second access.
        thread: SimThreadId,
        /// Both accesses, in words.
        what: String,
        /// Index into [`SimProgram::sites`] of the first access.
        other_site: u32,
    },
    /// Resources the launch needs and this machine could not give (a coroutine stack).
    Resources(String),
}

/// An array argument's memory, for the race checker's messages (`element K of argument NAME`).
#[derive(Clone, Debug)]
pub struct ArgRange {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The parameter's name.
    pub name: String,
}

/// How a launch runs.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Blocks one after another in linear order on the calling thread (deterministic even for
    /// blocks that race; always so when the program checks races).
    pub in_order: bool,
    /// The array arguments' memory (global memory the race checker watches).
    pub arrays: Vec<ArgRange>,
}

/// One element access the race checker recorded in shared memory.
#[derive(Clone, Copy, Debug)]
struct SharedAccess {
    thread: u32,
    epoch: u64,
    site: u32,
}

/// One access to an array argument's element.
#[derive(Clone, Copy, Debug)]
struct GlobalAccess {
    block: u32,
    thread: u32,
    block_epoch: u64,
    warp_epoch: u64,
    grid_epoch: u64,
    site: u32,
}

impl GlobalAccess {
    /// The interpreter's rule (`interp::cuda::GlobalAccess`): ordered by a grid sync, or within
    /// a block by the same thread, a block barrier, or a warp exchange of the warp.
    fn ordered_before(&self, me: &GlobalAccess) -> bool {
        self.grid_epoch != me.grid_epoch
            || (self.block == me.block
                && (self.thread == me.thread
                    || self.block_epoch != me.block_epoch
                    || (self.thread / 32 == me.thread / 32 && self.warp_epoch != me.warp_epoch)))
    }
}

/// The launch's record of array-argument accesses (global memory).
#[derive(Debug, Default)]
struct GlobalRaces {
    arrays: Vec<ArgRange>,
    grid_epoch: u64,
    elems: HashMap<usize, Record<GlobalAccess>>,
}

/// One block's race checker.
struct RaceBlock {
    shared: (usize, usize),
    log: HashMap<usize, Record<SharedAccess>>,
    warp_epochs: Vec<u64>,
    block_epoch: u64,
    block_linear: u32,
    block_dim: [u32; 3],
    grid: [u32; 3],
    global: *mut GlobalRaces,
}

impl RaceBlock {
    fn thread_name(&self, linear: u32) -> String {
        let [bx, by, _] = self.block_dim;
        format!("thread ({}, {}, {})", linear % bx, (linear / bx) % by, linear / (bx * by))
    }

    fn block_name(&self, linear: u32) -> String {
        let [gx, gy, _] = self.grid;
        format!("block ({}, {}, {})", linear % gx, (linear / gx) % gy, linear / (gx * gy))
    }
}

/// `cuda-sim`'s race checker: records the access of `size`-byte element `addr` (of the array
/// whose data starts at `base`) by the calling thread; 1 when it races with an earlier one (the
/// details then in the thread's record), else 0. Shared memory is checked between barriers,
/// array arguments within the launch, with the interpreter's rules and messages; other memory
/// (local arrays, module constants) is private or read-only and not checked.
///
/// # Safety
/// `t` is the running thread's [`SimThread`].
pub(crate) unsafe extern "C" fn race_access(
    t: *mut SimThread,
    addr: i64,
    base: i64,
    size: i64,
    kind: i64,
    site: i64,
) -> i64 {
    // SAFETY: compiled code passes its own error-record pointer, which is the thread's.
    let t = unsafe { &mut *t };
    // SAFETY: the block owns its checker and outlives its threads' runs.
    let Some(rb) = (unsafe { t.race.as_mut() }) else { return 0 };
    let kind = match kind {
        0 => AccessKind::Read,
        1 => AccessKind::Write,
        _ => AccessKind::Atomic,
    };
    let (addr, site) = (addr as usize, site as u32);
    let size = (size as usize).max(1);
    let [bx, by, _] = t.ntid;
    let linear = t.tid[0] + t.tid[1] * bx + t.tid[2] * bx * by;
    let warp_epoch = rb.warp_epochs.get(linear as usize / 32).copied().unwrap_or(0);
    let found = if rb.shared.0 <= addr && addr < rb.shared.1 {
        let elem = addr.wrapping_sub(base as usize) / size;
        let me = SharedAccess { thread: linear, epoch: warp_epoch, site };
        let ordered =
            |a: &SharedAccess| a.thread == me.thread || (a.thread / 32 == me.thread / 32 && a.epoch != me.epoch);
        let rec = rb.log.entry(addr).or_default();
        rec.step(me, kind, ordered, |a| a.thread == me.thread, usize::MAX).map(|(other, other_kind)| {
            let (verb, past) = (verbs(kind).0, verbs(other_kind).1);
            let what = format!(
                "{} {verb} element {elem} of a cuda.shared.array that {} {past} since the last syncthreads() ({})",
                rb.thread_name(linear),
                rb.thread_name(other.thread),
                rb.block_name(rb.block_linear),
            );
            (what, other.site)
        })
    } else {
        // SAFETY: the launch owns the global record for its whole run, on this thread.
        let Some(g) = (unsafe { rb.global.as_mut() }) else { return 0 };
        let Some(arg) = g.arrays.iter().find(|r| r.start <= addr && addr < r.end) else { return 0 };
        let (elem, name) = ((addr - arg.start) / size, arg.name.clone());
        let me = GlobalAccess {
            block: rb.block_linear,
            thread: linear,
            block_epoch: rb.block_epoch,
            warp_epoch,
            grid_epoch: g.grid_epoch,
            site,
        };
        let rec = g.elems.entry(addr).or_default();
        let same = |a: &GlobalAccess| a.block == me.block && a.thread == me.thread;
        rec.step(me, kind, |a| a.ordered_before(&me), same, 8).map(|(other, other_kind)| {
            let (verb, past) = (verbs(kind).0, verbs(other_kind).1);
            let what = format!(
                "{} of {} {verb} element {elem} of argument `{name}`, which {} of {} {past} with no barrier or \
                 grid sync between (global memory)",
                rb.thread_name(linear),
                rb.block_name(rb.block_linear),
                rb.thread_name(other.thread),
                rb.block_name(other.block),
            );
            (what, other.site)
        })
    };
    match found {
        Some((what, other)) => {
            t.race_found = Some(Box::new((what, other)));
            1
        }
        None => 0,
    }
}

thread_local! {
    /// The stacks of finished coroutines, kept per host thread for the next block.
    static STACKS: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
}

type ThreadCo = Coroutine<(), (), i32, DefaultStack>;

enum State {
    Fresh,
    Ready,
    Waiting,
    Done,
}

/// A block's thread records, behind a raw pointer: suspended coroutines hold pointers to them
/// and write them when resumed, so the scheduler reaches them only through short-lived
/// references made from this pointer, never through a `&mut` that spans a resume (which the
/// compiler may assume nothing else writes).
struct ThreadTable {
    ptr: *mut SimThread,
    len: usize,
}

impl ThreadTable {
    fn new(threads: Vec<SimThread>) -> ThreadTable {
        let boxed = threads.into_boxed_slice();
        let len = boxed.len();
        ThreadTable { ptr: Box::into_raw(boxed) as *mut SimThread, len }
    }

    /// Thread `t`'s record (no coroutine runs while the reference lives).
    fn get(&self, t: usize) -> &SimThread {
        assert!(t < self.len);
        // SAFETY: in bounds; the scheduler is the only code running while it holds this.
        unsafe { &*self.ptr.add(t) }
    }

    #[allow(clippy::mut_from_ref)]
    fn get_mut(&self, t: usize) -> &mut SimThread {
        assert!(t < self.len);
        // SAFETY: as `get`; the scheduler makes one such reference at a time.
        unsafe { &mut *self.ptr.add(t) }
    }

    fn raw(&self, t: usize) -> *mut SimThread {
        assert!(t < self.len);
        // SAFETY: in bounds of the allocation.
        unsafe { self.ptr.add(t) }
    }
}

impl Drop for ThreadTable {
    fn drop(&mut self) {
        // SAFETY: made by `Box::into_raw` of a boxed slice of `len`, freed only here (after the
        // block's coroutines, which `Block`'s drop abandons first).
        unsafe { drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(self.ptr, self.len))) };
    }
}

/// One block while it runs (coroutine mode).
struct Block<'a> {
    prog: &'a SimProgram,
    block_idx: [u32; 3],
    args: *const u64,
    threads: ThreadTable,
    cos: Vec<Option<ThreadCo>>,
    states: Vec<State>,
    // Kept alive while the block runs: the threads' `shared` points into it.
    _shared: Vec<u128>,
    /// The race checker (the threads' `race` points at it; null when off), from
    /// `Box::into_raw`: the threads write it while they run, so the scheduler reaches it only
    /// through this pointer, as the thread records.
    race: *mut RaceBlock,
    stack_size: usize,
}

enum Progress {
    Done,
    GridSync,
}

impl Drop for Block<'_> {
    fn drop(&mut self) {
        for co in self.cos.iter_mut().filter_map(Option::take) {
            recycle(co);
        }
        if !self.race.is_null() {
            // SAFETY: from `Box::into_raw` in `new_block`, freed only here, after the coroutines.
            unsafe { drop(Box::from_raw(self.race)) };
        }
    }
}

/// The error of a thread whose run returned a non-zero status.
fn thread_error(t: &mut SimThread, thread: SimThreadId) -> SimError {
    match (ErrorCode::from_raw(t.err.kind), t.race_found.take()) {
        (Some(ErrorCode::DataRace), Some(found)) => {
            let (what, other_site) = *found;
            SimError::Race { site: t.err.site, thread, what, other_site }
        }
        _ => SimError::Raised { record: t.err, thread },
    }
}

/// Returns a coroutine's stack to this thread's pool.
fn recycle(mut co: ThreadCo) {
    if !co.done() {
        // SAFETY: a suspended thread's stack holds only compiled code's frames, `sync`/`warp`
        // and the coroutine's closure, none of which owns anything to drop.
        unsafe { co.force_reset() };
    }
    let stack = co.into_stack();
    STACKS.with(|s| s.borrow_mut().push(stack));
}

impl SimProgram {
    /// The raise sites of the compiled code ([`SimError::Raised`]'s record indexes them).
    pub fn sites(&self) -> &[crate::RaiseSite] {
        &self.program.sites
    }

    /// Number of 8-byte argument slots the kernel reads.
    pub fn arg_slots(&self) -> usize {
        self.program.arg_slots
    }

    /// Whether the kernel synchronises the grid (`cuda.cg.this_grid().sync()`).
    pub fn grid_sync(&self) -> bool {
        self.layout.grid_sync
    }

    /// Bytes of the program's static shared arrays (a block's, laid out).
    pub fn static_shared_bytes(&self) -> usize {
        self.layout.static_bytes
    }

    /// Runs the kernel over `launch` on `args`, flattened into 8-byte slots as for a host call
    /// (see [`crate::abi`]).
    ///
    /// # Safety
    /// `args` must hold `arg_slots` slots laid out for the kernel's signature, and every array
    /// must be valid for the bounds-checked accesses its kernel makes (with bounds checks off,
    /// for the kernel's own accesses) for the whole launch, written by nothing else meanwhile.
    /// Blocks run on the host's pool, concurrently, as on a GPU, unless `run.in_order` or the
    /// program checks races (then one after another in linear order on the calling thread,
    /// deterministic even for a kernel whose blocks race, as the interpreter runs them).
    pub unsafe fn launch(&self, launch: &SimLaunch, args: &[u64], run: &RunOptions) -> Result<(), SimError> {
        let in_order = run.in_order || self.layout.race_check;
        let mut global = GlobalRaces { arrays: run.arrays.clone(), ..GlobalRaces::default() };
        let global: usize = if self.layout.race_check { &mut global as *mut GlobalRaces as usize } else { 0 };
        let [gx, gy, gz] = launch.grid;
        let blocks = gx as usize * gy as usize * gz as usize;
        let index = |b: usize| -> [u32; 3] {
            let b = b as u32;
            [b % gx, (b / gx) % gy, b / (gx * gy)]
        };
        let argp = args.as_ptr() as usize;
        if self.layout.grid_sync {
            return self.launch_cooperative(launch, argp, blocks, index, global as *mut GlobalRaces);
        }
        let first_failed = AtomicUsize::new(usize::MAX);
        let failure: Mutex<Option<(usize, SimError)>> = Mutex::new(None);
        let run = |b: usize| {
            if b > first_failed.load(Ordering::Relaxed) {
                return;
            }
            if let Err(e) = self.run_block(launch, index(b), argp as *const u64, global as *mut GlobalRaces) {
                first_failed.fetch_min(b, Ordering::Relaxed);
                let mut f = failure.lock().unwrap_or_else(|p| p.into_inner());
                if f.as_ref().is_none_or(|(k, _)| b < *k) {
                    *f = Some((b, e));
                }
            }
        };
        let workers = crate::parallel::max_threads().clamp(1, 16);
        match crate::parallel::sim_pool() {
            Some(pool) if blocks > 1 && workers > 1 && !in_order => {
                let next = AtomicUsize::new(0);
                pool.scope(|s| {
                    for _ in 0..workers.min(blocks) {
                        s.spawn(|_| loop {
                            let b = next.fetch_add(1, Ordering::Relaxed);
                            if b >= blocks {
                                break;
                            }
                            run(b);
                        });
                    }
                });
            }
            _ => (0..blocks).for_each(run),
        }
        match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    /// A grid that syncs: every block on this thread, parked at the grid sync until all have
    /// arrived.
    fn launch_cooperative(
        &self,
        launch: &SimLaunch,
        argp: usize,
        blocks: usize,
        index: impl Fn(usize) -> [u32; 3],
        global: *mut GlobalRaces,
    ) -> Result<(), SimError> {
        let mut parked: Vec<Block<'_>> = Vec::new();
        let mut finished: Option<[u32; 3]> = None;
        for b in 0..blocks {
            let mut block = self.new_block(launch, index(b), argp as *const u64, global)?;
            match block.run()? {
                Progress::Done => finished = finished.or(Some(block.block_idx)),
                Progress::GridSync => parked.push(block),
            }
        }
        while let Some(first) = parked.first() {
            if let Some([x, y, z]) = finished {
                let w = first.threads.get(0).wait;
                return Err(first.divergence(
                    0,
                    &w,
                    format!(
                        "block ({x}, {y}, {z}) returned while this block waits at the grid's sync() (a GPU would hang)"
                    ),
                ));
            }
            let mut still = Vec::new();
            // SAFETY: the launch's record, used only on this thread.
            if let Some(g) = unsafe { global.as_mut() } {
                g.grid_epoch += 1;
            }
            for mut block in parked {
                // SAFETY: the block's checker; no thread of it runs now.
                if let Some(r) = unsafe { block.race.as_mut() } {
                    r.log.clear();
                }
                for t in 0..block.states.len() {
                    block.resume_with(t, 0);
                }
                match block.run()? {
                    Progress::Done => finished = finished.or(Some(block.block_idx)),
                    Progress::GridSync => still.push(block),
                }
            }
            parked = still;
        }
        Ok(())
    }

    fn block_threads(
        &self,
        launch: &SimLaunch,
        block_idx: [u32; 3],
        shared: *mut u8,
        race: *mut RaceBlock,
    ) -> Vec<SimThread> {
        let [bx, by, bz] = launch.block;
        let n = (bx * by * bz) as usize;
        let dyn_stride = (launch.dynamic_shared_bytes as usize).next_multiple_of(16);
        let dyn_base = self.layout.static_bytes.next_multiple_of(16);
        (0..n)
            .map(|t| {
                let l = t as u32;
                let base = t / 32 * 32;
                let present = (n - base).min(32);
                SimThread {
                    err: ErrorRecord::default(),
                    tid: [l % bx, (l / bx) % by, l / (bx * by)],
                    ctaid: block_idx,
                    ntid: launch.block,
                    nctaid: launch.grid,
                    lane: l % 32,
                    warp_lanes: if present == 32 { u32::MAX } else { (1u32 << present) - 1 },
                    shared,
                    // SAFETY (of the pointer arithmetic): inside the block's buffer, sized below.
                    dyn_shared: shared.wrapping_add(dyn_base),
                    dyn_bytes: launch.dynamic_shared_bytes as i64,
                    dyn_stride: dyn_stride as i64,
                    yielder: std::ptr::null(),
                    wait: Wait::default(),
                    resume_value: 0,
                    race,
                    race_found: None,
                }
            })
            .collect()
    }

    fn shared_buffer(&self, launch: &SimLaunch) -> Vec<u128> {
        let dyn_stride = (launch.dynamic_shared_bytes as usize).next_multiple_of(16);
        let bytes = self.layout.static_bytes.next_multiple_of(16) + dyn_stride * self.layout.dynamic_sites;
        vec![0u128; bytes.div_ceil(16).max(1)]
    }

    /// Bytes of a GPU thread's stack: room for compiled frames and the program's local arrays;
    /// recursion (at most `MAX_RECURSION` calls deep) gets more.
    fn stack_size(&self) -> usize {
        let base = if self.layout.recursive { 8 << 20 } else { 256 << 10 };
        base + self.layout.local_bytes.next_multiple_of(4096)
    }

    /// The race checker of a block (with `race_check`).
    fn race_block(
        &self,
        launch: &SimLaunch,
        block_idx: [u32; 3],
        shared: &[u128],
        global: *mut GlobalRaces,
    ) -> Option<Box<RaceBlock>> {
        let [gx, gy, _] = launch.grid;
        let n = launch.block.iter().map(|&d| d as usize).product::<usize>();
        let start = shared.as_ptr() as usize;
        self.layout.race_check.then(|| {
            Box::new(RaceBlock {
                shared: (start, start + shared.len() * 16),
                log: HashMap::new(),
                warp_epochs: vec![0; n.div_ceil(32)],
                block_epoch: 0,
                block_linear: block_idx[0] + block_idx[1] * gx + block_idx[2] * gx * gy,
                block_dim: launch.block,
                grid: launch.grid,
                global,
            })
        })
    }

    fn run_block(
        &self,
        launch: &SimLaunch,
        block_idx: [u32; 3],
        args: *const u64,
        global: *mut GlobalRaces,
    ) -> Result<(), SimError> {
        // Threads that synchronise are coroutines; so are threads that need more stack than a
        // pool thread has (large local arrays, recursion).
        if self.layout.syncs || self.stack_size() > 512 << 10 {
            let mut block = self.new_block(launch, block_idx, args, global)?;
            return block.run().map(|_| ());
        }
        // No synchronisation: each thread is one call, in linear order.
        let mut shared = self.shared_buffer(launch);
        let mut race = self.race_block(launch, block_idx, &shared, global);
        let rp = race.as_deref_mut().map_or(std::ptr::null_mut(), |r| r as *mut RaceBlock);
        let mut threads = self.block_threads(launch, block_idx, shared.as_mut_ptr() as *mut u8, rp);
        let entry = self.program.entry;
        let mut ret = [0u64; 8];
        let ret_ptr = if self.program.ret_slots <= ret.len() { ret.as_mut_ptr() } else { std::ptr::null_mut() };
        for t in threads.iter_mut() {
            // SAFETY: `launch`'s contract for `args`; `t` starts with its error record.
            let status = unsafe { entry(t as *mut SimThread as *mut ErrorRecord, ret_ptr, args) };
            if status != 0 {
                return Err(thread_error(t, SimThreadId { block: block_idx, thread: t.tid }));
            }
        }
        Ok(())
    }

    fn new_block(
        &self,
        launch: &SimLaunch,
        block_idx: [u32; 3],
        args: *const u64,
        global: *mut GlobalRaces,
    ) -> Result<Block<'_>, SimError> {
        let mut shared = self.shared_buffer(launch);
        let race = self.race_block(launch, block_idx, &shared, global).map_or(std::ptr::null_mut(), Box::into_raw);
        let threads = self.block_threads(launch, block_idx, shared.as_mut_ptr() as *mut u8, race);
        let n = threads.len();
        Ok(Block {
            prog: self,
            race,
            block_idx,
            args,
            threads: ThreadTable::new(threads),
            cos: (0..n).map(|_| None).collect(),
            states: (0..n).map(|_| State::Fresh).collect(),
            _shared: shared,
            stack_size: self.stack_size(),
        })
    }
}

impl Block<'_> {
    fn who(&self, t: usize) -> SimThreadId {
        SimThreadId { block: self.block_idx, thread: self.threads.get(t).tid }
    }

    fn divergence(&self, t: usize, w: &Wait, message: String) -> SimError {
        SimError::Divergence { site: w.site as u32, thread: self.who(t), message }
    }

    fn waiting(&self, t: usize) -> Option<Wait> {
        matches!(self.states[t], State::Waiting).then(|| self.threads.get(t).wait)
    }

    fn resume_with(&mut self, t: usize, value: i64) {
        if matches!(self.states[t], State::Waiting) {
            self.threads.get_mut(t).resume_value = value;
            self.states[t] = State::Ready;
        }
    }

    fn coroutine(&mut self, t: usize) -> Result<ThreadCo, SimError> {
        let stack = match STACKS.with(|s| s.borrow_mut().pop()) {
            Some(s) if s.base().get() - s.limit().get() >= self.stack_size => s,
            _ => DefaultStack::new(self.stack_size)
                .map_err(|e| SimError::Resources(format!("a stack for a GPU thread: {e}")))?,
        };
        let tp = self.threads.raw(t) as usize;
        let args = self.args as usize;
        let entry: EntryFn = self.prog.program.entry;
        let ret_slots = self.prog.program.ret_slots;
        Ok(Coroutine::with_stack(stack, move |y: &Yielder<(), ()>, ()| -> i32 {
            let t = tp as *mut SimThread;
            // SAFETY: the block owns the thread record and outlives its coroutines.
            unsafe { (*t).yielder = y as *const Yielder<(), ()> };
            let mut ret = [0u64; 8];
            let ret_ptr = if ret_slots <= ret.len() { ret.as_mut_ptr() } else { std::ptr::null_mut() };
            // SAFETY: `launch`'s contract for the arguments; `t` starts with its error record.
            unsafe { entry(t as *mut ErrorRecord, ret_ptr, args as *const u64) }
        }))
    }

    fn run(&mut self) -> Result<Progress, SimError> {
        let n = self.states.len();
        loop {
            for t in 0..n {
                match self.states[t] {
                    State::Fresh => {
                        let co = self.coroutine(t)?;
                        self.cos[t] = Some(co);
                    }
                    State::Ready => {}
                    State::Waiting | State::Done => continue,
                }
                let Some(co) = self.cos[t].as_mut() else { continue };
                match co.resume(()) {
                    CoroutineResult::Yield(()) => self.states[t] = State::Waiting,
                    CoroutineResult::Return(status) => {
                        self.states[t] = State::Done;
                        if let Some(co) = self.cos[t].take() {
                            recycle(co);
                        }
                        if status != 0 {
                            let who = self.who(t);
                            return Err(thread_error(self.threads.get_mut(t), who));
                        }
                    }
                }
            }
            if self.states.iter().all(|s| matches!(s, State::Done)) {
                return Ok(Progress::Done);
            }
            if !self.resolve_warps()? {
                // Threads that returned count as arrived (PTX's `exit`), but thread 0 is the one
                // that arrives for the block: without it the grid would wait forever on a GPU,
                // which `resolve_barrier` reports.
                let all_grid = self.waiting(0).is_some_and(|w| w.op == op::GRID)
                    && (0..n).all(|t| {
                        matches!(self.states[t], State::Done) || self.waiting(t).is_some_and(|w| w.op == op::GRID)
                    });
                if all_grid {
                    return Ok(Progress::GridSync);
                }
                self.resolve_barrier()?;
            }
        }
    }

    /// Completes the warp operation of every warp whose lanes wait at one; whether any did.
    fn resolve_warps(&mut self) -> Result<bool, SimError> {
        let n = self.states.len();
        let mut any = false;
        for base in (0..n).step_by(32) {
            let end = (base + 32).min(n);
            let Some(first) = (base..end).find(|&t| self.waiting(t).is_some_and(|w| !is_barrier(w.op))) else {
                continue;
            };
            let site = self.threads.get(first).wait.site;
            let fop = self.threads.get(first).wait.op;
            let at_site = |me: &Self, t: usize| me.waiting(t).is_some_and(|w| w.site == site && w.op == fop);
            let mut here = [false; 32];
            let mut masks = [0u32; 32];
            for t in base..end {
                let Some(w) = self.waiting(t) else { continue };
                if is_barrier(w.op) {
                    continue;
                }
                let lane = t - base;
                if !at_site(self, t) {
                    let other = self.who(first);
                    return Err(self.divergence(
                        t,
                        &w,
                        format!("lanes of one warp wait at different shuffles ({other} waits at another)"),
                    ));
                }
                let mask = w.mask as u32;
                if mask & (1 << lane) == 0 {
                    return Err(self.divergence(
                        t,
                        &w,
                        format!("{} with mask {mask:#x}, which leaves out the calling lane {lane}", op_name(w.op)),
                    ));
                }
                for l in 0..(end - base) {
                    let other = base + l;
                    let alive = !matches!(self.states[other], State::Done);
                    if mask & (1 << l) != 0 && alive && !at_site(self, other) {
                        return Err(self.divergence(
                            t,
                            &w,
                            format!(
                                "{} with mask {mask:#x} names lane {l} ({}), which waits elsewhere",
                                op_name(w.op),
                                self.who(other)
                            ),
                        ));
                    }
                }
                here[lane] = true;
                masks[lane] = mask;
            }
            let width = end - base;
            let value = |me: &Self, l: usize| me.threads.get(base + l).wait.value;
            let mut results = [0i64; 32];
            for lane in (0..width).filter(|&l| here[l]) {
                let named = (0..width).filter(|&l| masks[lane] & (1 << l) != 0 && here[l]);
                results[lane] = match fop {
                    op::SYNCWARP => 0,
                    op::MATCH_ANY | op::MATCH_ALL => {
                        let mine = value(self, lane);
                        let same = named.clone().filter(|&l| value(self, l) == mine).fold(0u32, |m, l| m | 1 << l);
                        let all = named.fold(0u32, |m, l| m | 1 << l);
                        if fop == op::MATCH_ANY {
                            same as i32 as i64
                        } else if same == all {
                            all as i64 | 1 << 32
                        } else {
                            0
                        }
                    }
                    op::ALL | op::ANY | op::EQ | op::BALLOT => {
                        let preds: Vec<(usize, bool)> = named.map(|l| (l, value(self, l) != 0)).collect();
                        match fop {
                            op::ALL => preds.iter().all(|p| p.1) as i64,
                            op::ANY => preds.iter().any(|p| p.1) as i64,
                            op::EQ => (preds.iter().all(|p| p.1) || preds.iter().all(|p| !p.1)) as i64,
                            _ => preds.iter().filter(|p| p.1).fold(0u32, |m, p| m | 1 << p.0) as i32 as i64,
                        }
                    }
                    _ => {
                        let b = self.threads.get(base + lane).wait.b & 31;
                        let src = match fop {
                            op::SHFL_DOWN => lane as i64 + b,
                            op::SHFL_XOR => lane as i64 ^ b,
                            op::SHFL_UP => lane as i64 - b,
                            _ => b,
                        };
                        match usize::try_from(src).ok().filter(|&s| s < width && here[s]) {
                            Some(s) => value(self, s),
                            None => value(self, lane),
                        }
                    }
                };
            }
            for lane in (0..width).filter(|&l| here[l]) {
                self.resume_with(base + lane, results[lane]);
                any = true;
            }
            // The lanes' accesses before the exchange are ordered before those after it.
            // SAFETY: the block's checker; no thread of it runs now.
            if let Some(r) = unsafe { self.race.as_mut() } {
                if let Some(e) = r.warp_epochs.get_mut(base / 32) {
                    *e += 1;
                }
            }
        }
        Ok(any)
    }

    /// Resolves the block barrier every live thread waits at, or reports why it cannot.
    fn resolve_barrier(&mut self) -> Result<(), SimError> {
        let n = self.states.len();
        let Some((first, w0)) = (0..n).find_map(|t| Some((t, self.waiting(t)?))) else {
            return Ok(());
        };
        let (mut count, mut live) = (0i64, 0i64);
        for t in 0..n {
            let Some(w) = self.waiting(t) else {
                // A thread that returned counts as arrived: PTX's `exit` releases the barriers
                // only exited threads hold up (numba-cuda's examples return early before a
                // barrier). Not at a grid sync when it is thread 0, which arrives for the block.
                if t == 0 && w0.op == op::GRID {
                    return Err(self.divergence(
                        first,
                        &w0,
                        format!(
                            "{} exited while {} waits at {}(): thread 0 arrives for its block, so the grid would wait forever",
                            self.who(t),
                            self.who(first),
                            op_name(w0.op)
                        ),
                    ));
                }
                continue;
            };
            if w.op != w0.op {
                return Err(self.divergence(
                    t,
                    &w,
                    format!(
                        "{} waits at {}() while {} waits at {}()",
                        self.who(t),
                        op_name(w.op),
                        self.who(first),
                        op_name(w0.op)
                    ),
                ));
            }
            count += (w.value != 0) as i64;
            live += 1;
        }
        let value = match w0.op {
            op::COUNT => count,
            op::AND => (count == live) as i64,
            op::OR => (count > 0) as i64,
            _ => 0,
        };
        for t in 0..n {
            self.resume_with(t, value);
        }
        // Everything before a barrier is ordered before everything after it.
        // SAFETY: the block's checker; no thread of it runs now.
        if let Some(r) = unsafe { self.race.as_mut() } {
            r.log.clear();
            r.block_epoch += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomics_follow_the_interpreter() {
        let f = |dt, op, o: u64, v: u64| apply(dt, op, o, v, 0);
        assert_eq!(f(Scalar::Int32, AtomicOp::Add, 0xffff_ffff, 1), Some(0));
        assert_eq!(f(Scalar::Int32, AtomicOp::Max, (-5i32) as u32 as u64, 3), Some(3));
        assert_eq!(f(Scalar::UInt32, AtomicOp::Max, 0xffff_fff0, 3), None);
        assert_eq!(f(Scalar::UInt32, AtomicOp::Inc, 4, 4), Some(0));
        assert_eq!(f(Scalar::UInt32, AtomicOp::Dec, 0, 7), Some(7));
        let nan = f64::NAN.to_bits();
        assert_eq!(f(Scalar::Float64, AtomicOp::Max, nan, 1f64.to_bits()), None);
        assert_eq!(f(Scalar::Float64, AtomicOp::NanMax, nan, 1f64.to_bits()), Some(1f64.to_bits()));
        assert_eq!(apply(Scalar::Int64, AtomicOp::Cas, 5, 5, 9), Some(9));
        assert_eq!(apply(Scalar::Int64, AtomicOp::Cas, 5, 6, 9), None);
    }

    #[test]
    fn the_layout_offsets_are_after_the_record() {
        assert!(offset::TID as usize >= std::mem::size_of::<ErrorRecord>());
        assert_eq!(offset::SHARED % 8, 0);
    }
}
