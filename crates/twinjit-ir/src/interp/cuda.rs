//! CUDA builtins as one thread of a kernel launch evaluates them: indices and dimensions,
//! `fma`, `selp`, atomics, and `cuda.shared` / `cuda.local` arrays.
//!
//! Barriers and warp shuffles only make the thread wait here; the block scheduler
//! (`kernel.rs`) resolves them once every thread involved has arrived. Threads run one at a
//! time, so atomics are trivially atomic: read, combine, write, return the old value.
//!
//! Semantics follow numba-cuda: atomic indices wrap when negative (an index still outside the
//! array is an `IndexError` here, undefined behaviour on a GPU); float `atomic.max/min` leave
//! the element unchanged when either value is NaN; `atomic.cas` works on integer arrays only.

use super::race::{verbs, AccessKind, Record};
use super::value::{ArrayData, ArrayRef, RtValue};
use super::{arith, Device, RuntimeErrorKind};
use crate::builtins::{AtomicOp, BitOp, Builtin, KernelOp, Register};
use crate::function::{AddressSpace, BinaryOp, CmpOp, Inst};
use crate::types::{Scalar, Type};
use hashbrown::HashMap;
use std::rc::Rc;
use twinjit_diag::Span;

/// Elements one `cuda.shared/local.array` may have in the interpreter (2^26, 256 MiB of
/// float32): far above what a GPU allows (48 KiB of static shared memory per block), low enough
/// that a wrong shape cannot exhaust memory.
const MAX_ALLOC_ELEMENTS: i64 = 1 << 26;

/// What one thread sees of its launch.
pub(super) struct ThreadCx<'a> {
    pub grid: [u32; 3],
    pub block_dim: [u32; 3],
    pub block_idx: [u32; 3],
    pub thread_idx: [u32; 3],
    /// Linear thread index in the block (`x` fastest).
    pub linear: u32,
    /// The lanes that exist in this thread's warp (a block's last warp may be partial).
    pub warp_lanes: u32,
    /// The block's shared arrays, one per allocation site.
    pub shared: &'a mut HashMap<(usize, Inst), ArrayRef>,
    /// Bytes of dynamic shared memory of the launch (`cuda.shared.array(0, dtype)`).
    pub dynamic_shared_bytes: u32,
    /// With `race_check`: the block's record of shared-memory accesses since its last barrier,
    /// and how many warp exchanges this thread's warp has completed (see [`RaceLog`]); the
    /// launch's record of its arguments' elements, with this block's linear index and its count
    /// of barriers (see [`GlobalRaces`]).
    pub races: Option<&'a mut RaceLog>,
    pub warp_epoch: u64,
    pub global: Option<&'a mut GlobalRaces>,
    pub block_linear: u32,
    pub block_epoch: u64,
}

/// The race checker's record of a launch's accesses to the elements of its array arguments
/// (global memory), kept for the whole launch: per element the last writer and the readers since
/// (at most [`GlobalRaces::READERS`] of them). Two accesses are ordered when a grid sync lies
/// between them, or, in one block, when one thread made both, a block barrier lies between
/// them, or two lanes of a warp made them on either side of a warp exchange. Blocks otherwise
/// run concurrently on a GPU, so two blocks touching one element, one writing, race.
#[derive(Debug, Default)]
pub(super) struct GlobalRaces {
    /// Each argument's storage and its parameter name.
    args: Vec<(usize, String)>,
    /// Grid syncs completed.
    pub grid_epoch: u64,
    elems: HashMap<(usize, usize), Record<GlobalAccess>>,
}

#[derive(Clone, Copy, Debug)]
struct GlobalAccess {
    block: u32,
    thread: u32,
    block_epoch: u64,
    warp_epoch: u64,
    grid_epoch: u64,
    span: Span,
}

impl GlobalRaces {
    /// Readers (and atomic updaters) recorded per element between two writes (a race with a
    /// later one may be missed).
    pub const READERS: usize = 8;

    /// A record for a launch whose array arguments have these storages and parameter names.
    pub fn new(args: Vec<(usize, String)>) -> GlobalRaces {
        GlobalRaces { args, ..GlobalRaces::default() }
    }
}

impl GlobalAccess {
    fn ordered_before(&self, me: &GlobalAccess) -> bool {
        self.grid_epoch != me.grid_epoch
            || (self.block == me.block
                && (self.thread == me.thread
                    || self.block_epoch != me.block_epoch
                    || (self.thread / 32 == me.thread / 32 && self.warp_epoch != me.warp_epoch)))
    }
}

/// One access to a shared element: the thread (linear index in the block), its warp's exchange
/// count then, and where.
#[derive(Clone, Copy, Debug)]
struct Access {
    thread: u32,
    epoch: u64,
    span: Span,
}

/// The race checker's record of one block's shared-memory accesses since its last barrier
/// (`syncthreads` and its variants, a grid sync), per element: the last writer and every thread
/// that read it. Two accesses are ordered when one thread made both, or when two lanes of one
/// warp made them on either side of a warp exchange both took part in (`syncwarp`, a shuffle,
/// a vote; lanes of a warp run in lockstep between them). Any other pair where one writes is a
/// race, which is what compute-sanitizer's racecheck reports on a GPU. Atomics do not race with
/// each other or with plain reads (a compare-and-swap loop reads first), but an atomic and a
/// plain write of one element do. Shared arrays are per block, so this record is too.
#[derive(Debug, Default)]
pub(super) struct RaceLog {
    elems: HashMap<(usize, usize), Record<Access>>,
}

impl RaceLog {
    /// Everything before a block barrier is ordered before everything after it.
    pub(super) fn barrier(&mut self) {
        self.elems.clear();
    }
}

fn arg(args: &[RtValue], k: usize) -> Result<&RtValue, RuntimeErrorKind> {
    args.get(k).ok_or_else(|| RuntimeErrorKind::Unsupported(format!("missing operand {k} of a CUDA builtin")))
}

/// An integer at the builtin's result type (`int32` for `threadIdx.x`, `int64` for `cuda.grid`).
fn typed_int(v: i64, ty: &Type) -> RtValue {
    match ty.scalar() {
        Some(s) => arith::cast(&RtValue::I64(v), s),
        None => RtValue::I64(v),
    }
}

/// An integer operand (predicate, lane, mask, index).
pub(super) fn int_value(v: &RtValue) -> Option<i64> {
    v.int_bits().map(|(_, b)| b)
}

/// Python truthiness of a scalar (predicates of `syncthreads_*`, the condition of `selp`).
pub(super) fn truthy(v: &RtValue) -> bool {
    !arith::is_zero(v)
}

impl ThreadCx<'_> {
    /// "thread (x, y, z)" of this block's shape, for linear index `linear`.
    fn thread_name(&self, linear: u32) -> String {
        let [bx, by, _] = self.block_dim;
        format!("thread ({}, {}, {})", linear % bx, (linear / bx) % by, linear / (bx * by))
    }

    /// "block (x, y, z)" of this grid's shape, for linear index `linear`.
    fn block_name(&self, linear: u32) -> String {
        let [gx, gy, _] = self.grid;
        format!("block ({}, {}, {})", linear % gx, (linear / gx) % gy, linear / (gx * gy))
    }

    /// The race checker's step for an element of an array argument (see [`GlobalRaces`]).
    fn global_access(
        &mut self,
        storage: usize,
        elem: usize,
        kind: AccessKind,
        span: Span,
    ) -> Result<(), RuntimeErrorKind> {
        let Some(log) = self.global.as_deref_mut() else { return Ok(()) };
        let Some(name) = log.args.iter().find(|(s, _)| *s == storage).map(|(_, n)| n.clone()) else { return Ok(()) };
        let me = GlobalAccess {
            block: self.block_linear,
            thread: self.linear,
            block_epoch: self.block_epoch,
            warp_epoch: self.warp_epoch,
            grid_epoch: log.grid_epoch,
            span,
        };
        let rec = log.elems.entry((storage, elem)).or_default();
        let same = |a: &GlobalAccess| a.block == me.block && a.thread == me.thread;
        let clash = rec.step(me, kind, |a| a.ordered_before(&me), same, GlobalRaces::READERS);
        let Some((other, other_kind)) = clash else { return Ok(()) };
        let (verb, past) = (verbs(kind).0, verbs(other_kind).1);
        Err(RuntimeErrorKind::DataRace {
            what: format!(
                "{} of {} {verb} element {elem} of argument `{name}`, which {} of {} {past} with no barrier or \
                 grid sync between (global memory)",
                self.thread_name(self.linear),
                self.block_name(self.block_linear),
                self.thread_name(other.thread),
                self.block_name(other.block),
            ),
            other: other.span,
        })
    }
}

impl Device for ThreadCx<'_> {
    fn access(&mut self, arr: &ArrayRef, off: i64, kind: AccessKind, span: Span) -> Result<(), RuntimeErrorKind> {
        let storage = Rc::as_ptr(&arr.data) as usize;
        let Some(elem) = arr.base.checked_add(off).and_then(|i| usize::try_from(i).ok()) else { return Ok(()) };
        if !self.shared.values().any(|s| Rc::as_ptr(&s.data) as usize == storage) {
            return self.global_access(storage, elem, kind, span);
        }
        let Some(log) = self.races.as_deref_mut() else { return Ok(()) };
        let me = Access { thread: self.linear, epoch: self.warp_epoch, span };
        let ordered = |a: &Access| a.thread == me.thread || (a.thread / 32 == me.thread / 32 && a.epoch != me.epoch);
        let rec = log.elems.entry((storage, elem)).or_default();
        let clash = rec.step(me, kind, ordered, |a| a.thread == me.thread, usize::MAX);
        let Some((other, other_kind)) = clash else { return Ok(()) };
        let (verb, past) = (verbs(kind).0, verbs(other_kind).1);
        Err(RuntimeErrorKind::DataRace {
            what: format!(
                "{} {verb} element {elem} of a cuda.shared.array that {} {past} since the last syncthreads() ({})",
                self.thread_name(self.linear),
                self.thread_name(other.thread),
                self.block_name(self.block_linear),
            ),
            other: other.span,
        })
    }

    fn atomic_access(&mut self, args: &[RtValue], span: Span) -> Result<(), RuntimeErrorKind> {
        let (Some(RtValue::Array(arr)), Some(index)) = (args.first(), args.get(1)) else { return Ok(()) };
        // An index the atomic itself refuses is reported by the atomic.
        let Ok(off) = element_offset(arr, index) else { return Ok(()) };
        self.access(arr, off, AccessKind::Atomic, span)
    }

    fn builtin(&mut self, b: Builtin, args: &[RtValue], rty: &Type) -> Result<Option<RtValue>, RuntimeErrorKind> {
        let t = &self.thread_idx;
        let Some(op) = b.kernel_op() else {
            return Err(RuntimeErrorKind::Unsupported(format!("{} is not a CUDA builtin", b.name())));
        };
        Ok(Some(match op {
            KernelOp::Grid | KernelOp::Gridsize => {
                let n = int_value(arg(args, 0)?).unwrap_or(0);
                if !(1..=3).contains(&n) {
                    return Err(RuntimeErrorKind::Unsupported(format!("{}({n})", b.name())));
                }
                let comp = |k: usize| -> i64 {
                    if op == KernelOp::Grid {
                        self.block_idx[k] as i64 * self.block_dim[k] as i64 + t[k] as i64
                    } else {
                        self.block_dim[k] as i64 * self.grid[k] as i64
                    }
                };
                match rty {
                    Type::Tuple(ts) => {
                        RtValue::Tuple(ts.iter().enumerate().map(|(k, ty)| typed_int(comp(k), ty)).collect())
                    }
                    ty => typed_int(comp(0), ty),
                }
            }
            KernelOp::Register(r) => typed_int(
                match r {
                    Register::ThreadIdx(k) => t[k as usize] as i64,
                    Register::BlockIdx(k) => self.block_idx[k as usize] as i64,
                    Register::BlockDim(k) => self.block_dim[k as usize] as i64,
                    Register::GridDim(k) => self.grid[k as usize] as i64,
                    Register::LaneId => (self.linear % 32) as i64,
                    Register::WarpSize => 32,
                },
                rty,
            ),
            KernelOp::ActiveMask => typed_int(self.warp_lanes as i64, rty),
            KernelOp::LaneMaskLt => typed_int((1i64 << (self.linear % 32)) - 1, rty),
            KernelOp::ThisGrid
            | KernelOp::ThreadFence
            | KernelOp::ThreadFenceBlock
            | KernelOp::ThreadFenceSystem
            | KernelOp::NanoSleep => RtValue::None,
            KernelOp::Bits(op) => {
                let Some((s, bits)) = arg(args, 0)?.int_bits() else {
                    return Err(RuntimeErrorKind::Unsupported(format!("{} of a non-integer", b.name())));
                };
                let w = s.bits();
                let x = (bits as u64) & (u64::MAX >> (64 - w));
                let r = match op {
                    BitOp::Popc => i64::from(x.count_ones()),
                    BitOp::Clz => i64::from(x.leading_zeros() - (64 - w)),
                    BitOp::Ffs => i64::from(if x == 0 { 0 } else { x.trailing_zeros() + 1 }),
                    BitOp::Brev => (x.reverse_bits() >> (64 - w)) as i64,
                };
                typed_int(r, rty)
            }
            // Exchange points: the block runner resumes the thread with the result.
            KernelOp::Barrier
            | KernelOp::BarrierReduce(_)
            | KernelOp::GridSync
            | KernelOp::Shuffle(_)
            | KernelOp::Vote(_)
            | KernelOp::SyncWarp => return Ok(None),
            KernelOp::Atomic(a) => atomic(b, a, args)?,
            // After `expand_indexing`: (array, element offset[, value]).
            KernelOp::CacheLoad(_) | KernelOp::CacheStore(_) => {
                let (RtValue::Array(arr), RtValue::I64(off)) = (arg(args, 0)?, arg(args, 1)?) else {
                    return Err(RuntimeErrorKind::Unsupported(format!("{} of a non-array", b.name())));
                };
                match args.get(2) {
                    None => arr.load(*off).ok_or(RuntimeErrorKind::OutOfBounds)?,
                    Some(v) => {
                        arr.store(*off, v).ok_or(RuntimeErrorKind::OutOfBounds)?;
                        RtValue::None
                    }
                }
            }
            KernelOp::Fma => match (arg(args, 0)?, arg(args, 1)?, arg(args, 2)?) {
                (RtValue::F64(a), RtValue::F64(x), RtValue::F64(c)) => RtValue::F64(a.mul_add(*x, *c)),
                (RtValue::F32(a), RtValue::F32(x), RtValue::F32(c)) => RtValue::F32(a.mul_add(*x, *c)),
                _ => return Err(RuntimeErrorKind::Unsupported("cuda.fma of non-floats".into())),
            },
            KernelOp::Select => {
                if truthy(arg(args, 0)?) {
                    arg(args, 1)?.clone()
                } else {
                    arg(args, 2)?.clone()
                }
            }
        }))
    }

    fn alloc(
        &mut self,
        space: AddressSpace,
        dtype: Scalar,
        shape: &[i64],
        site: (usize, Inst),
    ) -> Result<RtValue, RuntimeErrorKind> {
        if space == AddressSpace::Shared {
            if let Some(a) = self.shared.get(&site) {
                return Ok(RtValue::Array(a.clone()));
            }
        }
        // Dynamic shared memory: as many elements as the launch's bytes hold. (On the GPU every
        // dynamic array of a kernel starts at the same address; here each allocation site has
        // its own, so kernels that reinterpret one dynamic buffer as two types differ.)
        let dynamic;
        let shape = if space == AddressSpace::Shared && shape == [0] {
            dynamic = [self.dynamic_shared_bytes as i64 / dtype.size() as i64];
            &dynamic[..]
        } else {
            shape
        };
        let n = shape.iter().try_fold(1i64, |acc, &d| if d >= 0 { acc.checked_mul(d) } else { None });
        let Some(n) = n.filter(|&n| n <= MAX_ALLOC_ELEMENTS) else {
            return Err(RuntimeErrorKind::Unsupported(format!("a cuda array of shape {shape:?}")));
        };
        let a = ArrayRef::new(ArrayData::zeros(dtype, n as usize), shape.to_vec())
            .ok_or_else(|| RuntimeErrorKind::Unsupported(format!("a cuda array of shape {shape:?}")))?;
        if space == AddressSpace::Shared {
            self.shared.insert(site, a.clone());
        }
        Ok(RtValue::Array(a))
    }
}

/// The element offset of `index` (an integer or a tuple of them) in `arr`, negative indices
/// wrapped as numba-cuda wraps them.
fn element_offset(arr: &ArrayRef, index: &RtValue) -> Result<i64, RuntimeErrorKind> {
    let idx: Vec<i64> = match index {
        RtValue::Tuple(items) => items.iter().map(int_value).collect::<Option<_>>(),
        v => int_value(v).map(|i| vec![i]),
    }
    .ok_or_else(|| RuntimeErrorKind::Unsupported("an atomic index that is not an integer".into()))?;
    if idx.len() != arr.shape.len() {
        return Err(RuntimeErrorKind::Unsupported(format!(
            "an atomic on a {}-D array with {} indices",
            arr.shape.len(),
            idx.len()
        )));
    }
    let mut off = 0i64;
    for (axis, (&i, (&len, &stride))) in idx.iter().zip(arr.shape.iter().zip(&arr.strides)).enumerate() {
        let i = if i < 0 { i.wrapping_add(len) } else { i };
        if i < 0 || i >= len {
            return Err(RuntimeErrorKind::Index { index: i, len, axis: axis as u8 });
        }
        off = off.wrapping_add(i.wrapping_mul(stride));
    }
    Ok(off)
}

/// Whether float `atomic.max/min` (`nan`: `nanmax/nanmin`) stores `val` over `old`, as
/// numba-cuda's CAS loops decide: `max/min` store nothing when either value is NaN;
/// `nanmax/nanmin` store nothing when `val` is NaN and replace a NaN `old`.
fn float_minmax(old: f64, val: f64, max: bool, nan: bool) -> bool {
    if val.is_nan() {
        return false;
    }
    if old.is_nan() {
        return nan;
    }
    if max {
        old < val
    } else {
        old > val
    }
}

fn atomic(b: Builtin, op: AtomicOp, args: &[RtValue]) -> Result<RtValue, RuntimeErrorKind> {
    let RtValue::Array(arr) = arg(args, 0)? else {
        return Err(RuntimeErrorKind::Unsupported(format!("{} on a non-array", b.name())));
    };
    let dtype = arr.data.borrow().dtype();
    if dtype == Scalar::Bool || (op == AtomicOp::Cas && dtype.is_float()) {
        return Err(RuntimeErrorKind::Unsupported(format!("{} on an array of {}", b.name(), dtype.name())));
    }
    let off = element_offset(arr, arg(args, 1)?)?;
    let old = arr.load(off).ok_or(RuntimeErrorKind::OutOfBounds)?;
    let val = arg(args, 2)?;
    let new = match op {
        AtomicOp::Add => arith::binary(BinaryOp::Add, &old, val)?,
        AtomicOp::Sub => arith::binary(BinaryOp::Sub, &old, val)?,
        AtomicOp::Max | AtomicOp::Min | AtomicOp::NanMax | AtomicOp::NanMin => {
            let max = matches!(op, AtomicOp::Max | AtomicOp::NanMax);
            let nan = matches!(op, AtomicOp::NanMax | AtomicOp::NanMin);
            let store = match (&old, val) {
                (RtValue::F64(o), RtValue::F64(v)) => float_minmax(*o, *v, max, nan),
                (RtValue::F32(o), RtValue::F32(v)) => float_minmax(*o as f64, *v as f64, max, nan),
                (o, v) => arith::compare(if max { CmpOp::Lt } else { CmpOp::Gt }, o, v),
            };
            if store {
                val.clone()
            } else {
                old.clone()
            }
        }
        AtomicOp::Exch => val.clone(),
        AtomicOp::And => arith::binary(BinaryOp::BitAnd, &old, val)?,
        AtomicOp::Or => arith::binary(BinaryOp::BitOr, &old, val)?,
        AtomicOp::Xor => arith::binary(BinaryOp::BitXor, &old, val)?,
        AtomicOp::Inc | AtomicOp::Dec => {
            let (Some((s, o)), Some((_, v))) = (old.int_bits(), val.int_bits()) else {
                return Err(RuntimeErrorKind::Unsupported(format!("{} of non-integers", b.name())));
            };
            let mask = u64::MAX >> (64 - s.bits());
            let (o, v) = (o as u64 & mask, v as u64 & mask);
            let n = if op == AtomicOp::Inc {
                if o >= v {
                    0
                } else {
                    o + 1
                }
            } else if o == 0 || o > v {
                v
            } else {
                o - 1
            };
            RtValue::int(s, n as i64)
        }
        AtomicOp::Cas => {
            if arith::compare(CmpOp::Eq, &old, val) {
                arg(args, 3)?.clone()
            } else {
                old.clone()
            }
        }
    };
    arr.store(off, &new).ok_or_else(|| {
        RuntimeErrorKind::Unsupported(format!("{} stores a {:?} into an array of {}", b.name(), new.ty(), dtype.name()))
    })?;
    Ok(old)
}
