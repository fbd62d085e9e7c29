//! Kernel launches in the reference interpreter: the CUDA execution model, made deterministic.
//!
//! Blocks run one after another (`x` fastest, then `y`, then `z`), except at a grid sync
//! (`cuda.cg.this_grid().sync()`): a block whose threads all wait there is parked, with its
//! shared memory, until every block of the grid has arrived, and then all of them resume; a
//! block that returns while others wait there is `BarrierDivergence`. The threads of a block are
//! interleaved cooperatively: each is a resumable frame stack that runs, in linear order
//! (`threadIdx.x` fastest), until it returns or reaches a synchronisation point:
//!
//! - `cuda.syncthreads()` and `syncthreads_count/and/or(p)`: a block barrier. When every thread
//!   of the block waits at one, it resolves (count/and/or over the predicates, `int32` as in
//!   CUDA) and all resume. A thread that exited while others wait, or threads waiting at
//!   different kinds of barrier, is [`RuntimeErrorKind::BarrierDivergence`] (a hang or undefined
//!   behaviour on a GPU), never a hang here.
//! - `cuda.shfl_down_sync/shfl_xor_sync/shfl_sync(mask, v, b)`: a warp exchange. Each lane
//!   waits; once no thread of the block can run, a warp whose lanes wait at a shuffle exchanges
//!   values. Every live lane named in a waiting lane's mask must wait at the same shuffle
//!   (otherwise: divergence). The source lane is computed as PTX does with numba-cuda's clamp
//!   (`b` taken modulo 32): `lane + b` (down; past lane 31 the lane keeps its own value),
//!   `lane ^ b` (xor), `b` (sync). A source lane that does not exist (partial warp), has exited
//!   or is not at the shuffle gives the lane its own value (undefined in CUDA).
//!
//! Warps are 32 consecutive linear thread ids; `cuda.laneid` is the linear id modulo 32 and
//! `cuda.activemask()` the lanes present in the warp (all 32 except in a partial last warp).
//! `cuda.shared.array` is one zero-filled array per allocation site per block (fresh for the
//! next block); `cuda.local.array` a fresh zero-filled array each time it executes (CUDA leaves
//! both uninitialised; zeros make a kernel that reads them deterministic, not correct).
//! Dynamic shared memory is not supported (the front end rejects `cuda.shared.array(0, ...)`).
//!
//! With `InterpOptions::race_check` every element load and store of a shared array or of an
//! array argument is checked against the accesses no barrier, warp exchange or grid sync orders
//! it with (`cuda::RaceLog`, `cuda::GlobalRaces`): a pair from two threads, one writing, is
//! [`RuntimeErrorKind::DataRace`].
//!
//! `InterpOptions::fuel` counts instructions across the whole launch; `max_depth` bounds each
//! thread's frame stack. The first runtime error of any thread stops the launch and is
//! returned with [`RuntimeError::thread`] set.

use super::cuda::{int_value, truthy, GlobalRaces, RaceLog, ThreadCx};
use super::value::{ArrayRef, RtValue};
use super::{Frame, InterpOptions, Machine, RuntimeError, RuntimeErrorKind, Stop, Wait};
use crate::builtins::{BarrierReduce, Builtin, KernelOp, ShuffleKind, VoteOp};
use crate::function::Inst;
use crate::infer::TypedProgram;
use crate::module::FunctionKind;
use hashbrown::HashMap;
use std::fmt;

/// A launch configuration: `kernel[grid, block]`, dimensions `(x, y, z)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelLaunch {
    /// Blocks per grid.
    pub grid: [u32; 3],
    /// Threads per block.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory (`cuda.shared.array(0, dtype)` arrays hold this many
    /// bytes of elements).
    pub dynamic_shared_bytes: u32,
}

impl KernelLaunch {
    /// `kernel[grid, block]` with 1-D dimensions.
    pub fn linear(grid: u32, block: u32) -> KernelLaunch {
        KernelLaunch { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 }
    }

    /// Why CUDA would refuse this configuration, if it would.
    pub fn validate(&self) -> Result<(), String> {
        let [bx, by, bz] = self.block;
        let [gx, gy, gz] = self.grid;
        if self.grid.contains(&0) || self.block.contains(&0) {
            return Err(format!("zero dimension in grid {:?} or block {:?}", self.grid, self.block));
        }
        let threads = bx as u64 * by as u64 * bz as u64;
        if bx > 1024 || by > 1024 || bz > 64 || threads > 1024 {
            return Err(format!(
                "block {:?} has {threads} threads (CUDA allows x, y <= 1024, z <= 64 and 1024 in all)",
                self.block
            ));
        }
        if gx > i32::MAX as u32 || gy > 65535 || gz > 65535 {
            return Err(format!("grid {:?} is too large (x < 2^31, y and z <= 65535)", self.grid));
        }
        Ok(())
    }
}

/// A thread of a launch: its `blockIdx` and `threadIdx`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelThread {
    /// `cuda.blockIdx`.
    pub block: [u32; 3],
    /// `cuda.threadIdx`.
    pub thread: [u32; 3],
}

impl fmt::Display for KernelThread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.thread;
        let [bx, by, bz] = self.block;
        write!(f, "thread ({x}, {y}, {z}) of block ({bx}, {by}, {bz})")
    }
}

/// Launches the entry of `program`, a `@cuda.jit` kernel, over `launch` on `args` (arrays are
/// shared: the kernel's writes are visible through them). See the module doc for the model.
pub fn run_kernel(
    program: &TypedProgram,
    args: &[RtValue],
    launch: &KernelLaunch,
    options: InterpOptions,
) -> Result<(), RuntimeError> {
    let Some(entry) = program.functions.first() else {
        return Err(RuntimeError {
            kind: RuntimeErrorKind::Unsupported("a program without functions".into()),
            function: String::new(),
            span: twinjit_diag::Span::DUMMY,
            thread: None,
        });
    };
    let launch_error = |kind: RuntimeErrorKind| RuntimeError {
        kind,
        function: entry.source_name.clone(),
        span: entry.func.span,
        thread: None,
    };
    if entry.kind != FunctionKind::Kernel {
        return Err(launch_error(RuntimeErrorKind::Unsupported(format!(
            "launching a {} (run_kernel needs a @cuda.jit kernel)",
            entry.kind.describe()
        ))));
    }
    let nparams = entry.func.params().len();
    if args.len() != nparams {
        return Err(launch_error(RuntimeErrorKind::InvalidLaunch(format!(
            "the kernel takes {nparams} arguments but {} were given",
            args.len()
        ))));
    }
    launch.validate().map_err(|m| launch_error(RuntimeErrorKind::InvalidLaunch(m)))?;
    let mut m = Machine::new(program, options);
    // The race checker's record of the array arguments' elements (global memory).
    let mut global = options.race_check.then(|| {
        GlobalRaces::new(
            entry
                .func
                .param_names
                .iter()
                .zip(args)
                .filter_map(|(name, a)| match a {
                    RtValue::Array(arr) => Some((std::rc::Rc::as_ptr(&arr.data) as usize, name.clone())),
                    _ => None,
                })
                .collect(),
        )
    });
    // Blocks start in order and each runs until it returns; a block whose threads all wait at
    // a grid sync is kept (with its shared memory) until every block of the grid has arrived.
    let mut at_grid_sync: Vec<BlockRun<'_, '_>> = Vec::new();
    let mut finished: Option<[u32; 3]> = None;
    for z in 0..launch.grid[2] {
        for y in 0..launch.grid[1] {
            for x in 0..launch.grid[0] {
                let mut block = BlockRun::new(launch, [x, y, z], options.race_check);
                match block.run(&mut m, args, &mut global)? {
                    Progress::Done => finished = finished.or(Some([x, y, z])),
                    Progress::GridSync => at_grid_sync.push(block),
                }
            }
        }
    }
    while let Some(first) = at_grid_sync.first() {
        if let Some(done) = finished {
            return Err(first.grid_divergence(&m, done));
        }
        let mut still = Vec::new();
        if let Some(g) = &mut global {
            g.grid_epoch += 1;
        }
        for mut block in at_grid_sync {
            block.resume_all(&m);
            match block.run(&mut m, args, &mut global)? {
                Progress::Done => finished = finished.or(Some(block.block_idx)),
                Progress::GridSync => still.push(block),
            }
        }
        at_grid_sync = still;
    }
    Ok(())
}

/// Where a block's run stopped.
enum Progress {
    /// Every thread returned.
    Done,
    /// Every thread waits at `g.sync()` of the grid group.
    GridSync,
}

enum State<'p> {
    /// Not started: no frames yet (most threads of a barrier-free kernel run to completion
    /// one after another, so only one frame stack exists at a time).
    Fresh,
    /// Runnable: its frame stack is positioned after a resolved synchronisation point.
    Ready(Vec<Frame<'p>>),
    /// Waiting at a barrier or shuffle.
    Waiting(Vec<Frame<'p>>, Wait),
    /// Returned.
    Done,
}

/// One block of a launch while it runs.
struct BlockRun<'l, 'p> {
    launch: &'l KernelLaunch,
    block_idx: [u32; 3],
    threads: Vec<State<'p>>,
    shared: HashMap<(usize, Inst), ArrayRef>,
    /// With `race_check`: the shared accesses since the last barrier, and per warp the warp
    /// exchanges it has completed.
    races: Option<RaceLog>,
    warp_epochs: Vec<u64>,
    /// Block barriers resolved (the race checker's order within the block).
    block_epoch: u64,
}

fn is_barrier(b: Builtin) -> bool {
    b.kernel_op().is_some_and(KernelOp::is_barrier)
}

impl<'l, 'p> BlockRun<'l, 'p> {
    fn new(launch: &'l KernelLaunch, block_idx: [u32; 3], race_check: bool) -> Self {
        let n: usize = launch.block.iter().map(|&d| d as usize).product();
        BlockRun {
            launch,
            block_idx,
            threads: (0..n).map(|_| State::Fresh).collect(),
            shared: HashMap::new(),
            races: race_check.then(RaceLog::default),
            warp_epochs: vec![0; n.div_ceil(32)],
            block_epoch: 0,
        }
    }

    fn thread_idx(&self, linear: usize) -> [u32; 3] {
        let [bx, by, _] = self.launch.block;
        let l = linear as u32;
        [l % bx, (l / bx) % by, l / (bx * by)]
    }

    fn who(&self, linear: usize) -> KernelThread {
        KernelThread { block: self.block_idx, thread: self.thread_idx(linear) }
    }

    /// The lanes that exist in the warp of thread `linear`.
    fn warp_lanes(&self, linear: usize) -> u32 {
        let base = linear / 32 * 32;
        let present = (self.threads.len() - base).min(32);
        if present == 32 {
            u32::MAX
        } else {
            (1u32 << present) - 1
        }
    }

    /// Runs the block's threads until they all return or all wait at a grid sync.
    fn run(
        &mut self,
        m: &mut Machine<'p>,
        args: &[RtValue],
        global: &mut Option<GlobalRaces>,
    ) -> Result<Progress, RuntimeError> {
        loop {
            for t in 0..self.threads.len() {
                let stack = match std::mem::replace(&mut self.threads[t], State::Done) {
                    State::Fresh => vec![m.frame(0, args.to_vec(), None)],
                    State::Ready(stack) => stack,
                    other => {
                        self.threads[t] = other;
                        continue;
                    }
                };
                self.threads[t] = self.run_thread(m, t, stack, global.as_mut())?;
            }
            if self.threads.iter().all(|s| matches!(s, State::Done)) {
                return Ok(Progress::Done);
            }
            if !self.resolve_shuffles(m)? {
                if self.all_at_grid_sync() {
                    return Ok(Progress::GridSync);
                }
                self.resolve_barrier(m)?;
            }
        }
    }

    /// Whether every thread waits at a grid sync or has returned, thread 0 waiting: it arrives
    /// for the block (a block whose thread 0 returned would make a GPU wait forever, which
    /// `resolve_barrier` reports).
    fn all_at_grid_sync(&self) -> bool {
        let at = |s: &State<'p>| matches!(s, State::Waiting(_, w) if w.builtin.kernel_op() == Some(KernelOp::GridSync));
        self.threads.first().is_some_and(at) && self.threads.iter().all(|s| matches!(s, State::Done) || at(s))
    }

    /// Resumes every thread after the grid sync it waits at.
    fn resume_all(&mut self, m: &Machine<'p>) {
        if let Some(log) = &mut self.races {
            log.barrier();
        }
        for t in 0..self.threads.len() {
            self.resume(m, t, RtValue::None);
        }
    }

    /// The error of a grid sync that block `done` never reached (it returned while this block
    /// waits): a hang on a GPU.
    fn grid_divergence(&self, m: &Machine<'p>, done: [u32; 3]) -> RuntimeError {
        let w = self.waiting(0).expect("every thread waits at the grid sync");
        let [x, y, z] = done;
        self.divergence(
            m,
            0,
            w,
            format!("block ({x}, {y}, {z}) returned while this block waits at the grid's sync() (a GPU would hang)"),
        )
    }

    fn run_thread(
        &mut self,
        m: &mut Machine<'p>,
        t: usize,
        mut stack: Vec<Frame<'p>>,
        global: Option<&mut GlobalRaces>,
    ) -> Result<State<'p>, RuntimeError> {
        let [x, y, z] = self.block_idx;
        let [gx, gy, _] = self.launch.grid;
        let mut cx = ThreadCx {
            grid: self.launch.grid,
            block_dim: self.launch.block,
            block_idx: self.block_idx,
            thread_idx: self.thread_idx(t),
            linear: t as u32,
            warp_lanes: self.warp_lanes(t),
            shared: &mut self.shared,
            dynamic_shared_bytes: self.launch.dynamic_shared_bytes,
            races: self.races.as_mut(),
            warp_epoch: self.warp_epochs[t / 32],
            global,
            block_linear: x + y * gx + z * gx * gy,
            block_epoch: self.block_epoch,
        };
        match m.exec(&mut stack, &mut cx) {
            Ok(Stop::Returned(_)) => Ok(State::Done),
            Ok(Stop::Wait(w)) => Ok(State::Waiting(stack, w)),
            Err(mut e) => {
                e.thread = Some(self.who(t));
                Err(e)
            }
        }
    }

    fn divergence(&self, m: &Machine<'p>, t: usize, w: &Wait, what: String) -> RuntimeError {
        let mut e = m.error(RuntimeErrorKind::BarrierDivergence(what), w.span, w.fidx);
        e.thread = Some(self.who(t));
        e
    }

    /// Resumes waiting thread `t` with `value` as the result of its synchronisation point.
    fn resume(&mut self, m: &Machine<'p>, t: usize, value: RtValue) {
        if let State::Waiting(mut stack, w) = std::mem::replace(&mut self.threads[t], State::Done) {
            if let (Some(r), Some(top)) = (w.result, stack.last_mut()) {
                let ty = m.program.functions[w.fidx].func.ty(r);
                top.vals[r.index()] = match (ty.scalar(), &value) {
                    (Some(s), RtValue::I32(_) | RtValue::I64(_)) => super::arith::cast(&value, s),
                    _ => value,
                };
            }
            self.threads[t] = State::Ready(stack);
        }
    }

    fn waiting(&self, t: usize) -> Option<&Wait> {
        match &self.threads[t] {
            State::Waiting(_, w) => Some(w),
            _ => None,
        }
    }

    /// Exchanges values in every warp whose lanes wait at a warp operation (a shuffle, a vote,
    /// `syncwarp`); whether any did.
    fn resolve_shuffles(&mut self, m: &Machine<'p>) -> Result<bool, RuntimeError> {
        let n = self.threads.len();
        let mut any = false;
        for base in (0..n).step_by(32) {
            let end = (base + 32).min(n);
            let Some(first) = (base..end).find(|&t| self.waiting(t).is_some_and(|w| !is_barrier(w.builtin))) else {
                continue;
            };
            let site = self.waiting(first).map(|w| (w.fidx, w.inst));
            let at_site = |t: usize| self.waiting(t).is_some_and(|w| Some((w.fidx, w.inst)) == site);
            let mut lanes: Vec<Option<(i64, RtValue)>> = vec![None; end - base];
            let mut masks: Vec<u32> = vec![0; end - base];
            for t in base..end {
                let Some(w) = self.waiting(t) else { continue };
                if is_barrier(w.builtin) {
                    continue;
                }
                let lane = t - base;
                if !at_site(t) {
                    let other = self.who(first);
                    return Err(self.divergence(
                        m,
                        t,
                        w,
                        format!("lanes of one warp wait at different shuffles ({other} waits at another)"),
                    ));
                }
                // `cuda.syncwarp()` without a mask is every lane.
                let mask = match (w.builtin.kernel_op(), w.args.first()) {
                    (Some(KernelOp::SyncWarp), None) => u32::MAX,
                    (_, a) => a.and_then(int_value).unwrap_or(0) as u32,
                };
                if mask & (1 << lane) == 0 {
                    return Err(self.divergence(
                        m,
                        t,
                        w,
                        format!("{} with mask {mask:#x}, which leaves out the calling lane {lane}", w.builtin.name()),
                    ));
                }
                for l in 0..(end - base) {
                    let other = base + l;
                    let alive = !matches!(self.threads[other], State::Done);
                    if mask & (1 << l) != 0 && alive && !at_site(other) {
                        return Err(self.divergence(
                            m,
                            t,
                            w,
                            format!(
                                "{} with mask {mask:#x} names lane {l} ({}), which waits elsewhere",
                                w.builtin.name(),
                                self.who(other)
                            ),
                        ));
                    }
                }
                let b = w.args.get(2).and_then(int_value).unwrap_or(0) & 31;
                let value = w.args.get(1).cloned().unwrap_or(RtValue::None);
                let src = match w.builtin.kernel_op() {
                    Some(KernelOp::Shuffle(ShuffleKind::Down)) => lane as i64 + b,
                    Some(KernelOp::Shuffle(ShuffleKind::Xor)) => lane as i64 ^ b,
                    // Below lane 0 the lane keeps its own value.
                    Some(KernelOp::Shuffle(ShuffleKind::Up)) => lane as i64 - b,
                    _ => b,
                };
                lanes[lane] = Some((src, value));
                masks[lane] = mask;
            }
            let op = self.waiting(first).and_then(|w| w.builtin.kernel_op());
            let results: Vec<Option<RtValue>> = match op {
                Some(KernelOp::SyncWarp) => lanes.iter().map(|l| l.as_ref().map(|_| RtValue::None)).collect(),
                Some(KernelOp::Vote(v @ (VoteOp::MatchAny | VoteOp::MatchAll))) => {
                    // Each lane compares its value (the second argument, by its bits) with the
                    // values of its mask's lanes that are here.
                    let key: Vec<Option<u64>> = (base..end)
                        .map(|t| {
                            lanes[t - base].as_ref()?;
                            self.waiting(t).and_then(|w| w.args.get(1)).and_then(match_key)
                        })
                        .collect();
                    (0..end - base)
                        .map(|lane| {
                            lanes[lane].as_ref()?;
                            let mine = key[lane];
                            let named = (0..end - base).filter(|&l| masks[lane] & (1 << l) != 0 && key[l].is_some());
                            let same = named.clone().filter(|&l| key[l] == mine).fold(0u32, |m, l| m | 1 << l);
                            let all = named.fold(0u32, |m, l| m | 1 << l);
                            Some(if v == VoteOp::MatchAny {
                                RtValue::I32(same as i32)
                            } else if same == all {
                                RtValue::Tuple(vec![RtValue::I32(all as i32), RtValue::Bool(true)])
                            } else {
                                RtValue::Tuple(vec![RtValue::I32(0), RtValue::Bool(false)])
                            })
                        })
                        .collect()
                }
                Some(KernelOp::Vote(v)) => {
                    // The predicate is the second argument (the first is the mask); each lane
                    // votes with the lanes of its own mask that are here.
                    let pred: Vec<Option<bool>> = (base..end)
                        .map(|t| {
                            lanes[t - base]
                                .as_ref()
                                .map(|_| self.waiting(t).and_then(|w| w.args.get(1)).is_some_and(truthy))
                        })
                        .collect();
                    (0..end - base)
                        .map(|lane| {
                            lanes[lane].as_ref()?;
                            let preds: Vec<(usize, bool)> = (0..end - base)
                                .filter(|&l| masks[lane] & (1 << l) != 0)
                                .filter_map(|l| pred[l].map(|p| (l, p)))
                                .collect();
                            Some(match v {
                                VoteOp::All => RtValue::Bool(preds.iter().all(|p| p.1)),
                                VoteOp::Any => RtValue::Bool(preds.iter().any(|p| p.1)),
                                VoteOp::Eq => RtValue::Bool(preds.iter().all(|p| p.1) || preds.iter().all(|p| !p.1)),
                                VoteOp::Ballot | VoteOp::MatchAny | VoteOp::MatchAll => {
                                    RtValue::I32(preds.iter().filter(|p| p.1).fold(0u32, |m, p| m | 1 << p.0) as i32)
                                }
                            })
                        })
                        .collect()
                }
                _ => lanes
                    .iter()
                    .map(|l| {
                        let (src, own) = l.as_ref()?;
                        let from = usize::try_from(*src).ok().and_then(|s| lanes.get(s)).and_then(|s| s.as_ref());
                        Some(from.map(|(_, v)| v.clone()).unwrap_or_else(|| own.clone()))
                    })
                    .collect(),
            };
            for (lane, r) in results.into_iter().enumerate() {
                if let Some(v) = r {
                    self.resume(m, base + lane, v);
                    any = true;
                }
            }
            self.warp_epochs[base / 32] += 1;
        }
        Ok(any)
    }

    /// Resolves the block barrier every live thread waits at, or reports why it cannot.
    fn resolve_barrier(&mut self, m: &Machine<'p>) -> Result<(), RuntimeError> {
        let n = self.threads.len();
        let Some((first, w0)) = (0..n).find_map(|t| Some((t, self.waiting(t)?))) else {
            // Not reached: `run` returns when every thread is done.
            return Ok(());
        };
        let (mut count, mut live) = (0i64, 0i64);
        for t in 0..n {
            let Some(w) = self.waiting(t) else {
                // Every thread ran until it waited or returned, so this one has exited: it
                // counts as arrived (PTX's `exit` releases the barriers only exited threads
                // hold up), except thread 0 at a grid sync, which arrives for the block.
                if t == 0 && w0.builtin.kernel_op() == Some(KernelOp::GridSync) {
                    return Err(self.divergence(
                        m,
                        first,
                        w0,
                        format!(
                            "{} exited while {} waits at {}(): thread 0 arrives for its block, so the grid would wait forever",
                            self.who(t),
                            self.who(first),
                            w0.builtin.name()
                        ),
                    ));
                }
                continue;
            };
            if w.builtin != w0.builtin {
                return Err(self.divergence(
                    m,
                    t,
                    w,
                    format!(
                        "{} waits at {}() while {} waits at {}()",
                        self.who(t),
                        w.builtin.name(),
                        self.who(first),
                        w0.builtin.name()
                    ),
                ));
            }
            count += w.args.first().is_some_and(truthy) as i64;
            live += 1;
        }
        let value = match w0.builtin.kernel_op() {
            Some(KernelOp::BarrierReduce(BarrierReduce::Count)) => RtValue::I32(count as i32),
            Some(KernelOp::BarrierReduce(BarrierReduce::And)) => RtValue::I32((count == live) as i32),
            Some(KernelOp::BarrierReduce(BarrierReduce::Or)) => RtValue::I32((count > 0) as i32),
            _ => RtValue::None,
        };
        for t in 0..n {
            self.resume(m, t, value.clone());
        }
        if let Some(log) = &mut self.races {
            log.barrier();
        }
        self.block_epoch += 1;
        Ok(())
    }
}

/// The bits `match_any_sync`/`match_all_sync` compare: an integer's value, a float's bits.
fn match_key(v: &RtValue) -> Option<u64> {
    match v {
        RtValue::F32(x) => Some(x.to_bits() as u64),
        RtValue::F64(x) => Some(x.to_bits()),
        RtValue::F16(x) => Some(x.to_bits() as u64),
        other => other.int_bits().map(|(_, i)| i as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_limits() {
        assert!(KernelLaunch::linear(4, 256).validate().is_ok());
        assert!(KernelLaunch::linear(0, 256).validate().is_err());
        assert!(KernelLaunch::linear(1, 1025).validate().is_err());
        let l = KernelLaunch { grid: [1, 1, 1], block: [32, 32, 2], dynamic_shared_bytes: 0 };
        assert!(l.validate().is_err());
        let l = KernelLaunch { grid: [1, 70000, 1], block: [1, 1, 1], dynamic_shared_bytes: 0 };
        assert!(l.validate().is_err());
    }

    #[test]
    fn thread_display() {
        let t = KernelThread { block: [1, 0, 0], thread: [3, 2, 1] };
        assert_eq!(t.to_string(), "thread (3, 2, 1) of block (1, 0, 0)");
    }
}
