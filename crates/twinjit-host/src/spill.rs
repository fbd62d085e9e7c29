//! Floating-point values live across calls, spilled where the call is.
//!
//! The System V convention clobbers every XMM register at a call, so a float value live across
//! a call must sit in memory there. Left to itself, Cranelift handles this badly in the common
//! shape of numeric code (a reduction loop, then an allocation, then a loop that uses the
//! result): its egraph sinks the pure arithmetic after the loop (`var / n`, `sqrt`) past the call
//! to its first use, so the loop's accumulator becomes live across the call; regalloc2 then
//! merges the accumulator's loop-carried parameters into one bundle and, failing to split it at
//! the loop exit, keeps it in its stack slot through the loop, adding a store-to-load round trip
//! to every iteration's dependency chain (5x on a normalised copy of 100,000 floats).
//!
//! So the lowering spills such values itself, at the call: before the call each float part
//! live after the IR instruction that calls is stored to its own stack slot (which also pins
//! its computation before the call), after the call it is loaded again and becomes the part's
//! new definition. The parts are Cranelift `Variable`s, so the reloaded value reaches every later
//! use, through block parameters that `cranelift_frontend` builds where paths meet. A part whose
//! current definition is already its slot's reload is not stored again. Only values live after
//! an instruction that may call are variables; every other value stays a plain SSA value.

use crate::abi::parts;
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::{self as cl, types, InstBuilder};
use cranelift_frontend::{FunctionBuilder, Variable};
use hashbrown::{HashMap, HashSet};
use smallvec::SmallVec;
use twinjit_ir::liveness::Liveness;
use twinjit_ir::{BinaryOp, Block, Function, InstKind, Value};

/// One spilled part: its index among the value's parts, its variable, its slot and type.
#[derive(Clone, Copy)]
struct Part {
    index: usize,
    var: Variable,
    slot: cl::StackSlot,
    ty: types::Type,
}

pub(crate) struct CallSpills {
    /// The float values' liveness (none in a function that never calls).
    liveness: Option<Liveness>,
    parts: HashMap<Value, SmallVec<[Part; 2]>>,
    /// For each instruction that may call (block, index in the block): the float values live
    /// after it, sorted (computed once, by `new`).
    at_calls: HashMap<(Block, usize), Vec<Value>>,
    /// The float values live after the instruction being lowered (sorted): what a call it makes
    /// must keep.
    pub across: Vec<Value>,
    /// A part's last reload: storing it again would store what the slot holds.
    reloaded: HashMap<usize, cl::Value>,
}

/// Whether the lowering of `kind` may call out (a runtime helper, libm, a compiled function,
/// the allocator or the free of a count that reaches zero). Conservative: a `true` only makes
/// the values live after it variables.
fn may_call(kind: &InstKind) -> bool {
    match kind {
        InstKind::Const(_)
        | InstKind::Undef
        | InstKind::Unary(..)
        | InstKind::Compare(..)
        | InstKind::Cast(..)
        | InstKind::Select(..)
        | InstKind::Dim(..)
        | InstKind::MakeTuple(_)
        | InstKind::TupleGet(..)
        | InstKind::AllocArray { .. }
        | InstKind::FuncRef(_)
        | InstKind::ConstArray(_)
        | InstKind::Stride(..)
        | InstKind::CheckIndex(..)
        | InstKind::CheckNonZero(_)
        | InstKind::Load(..)
        | InstKind::Store(..)
        | InstKind::View { .. }
        | InstKind::ListLen(_)
        | InstKind::IncRef(_) => false,
        InstKind::Binary(op, ..) => matches!(op, BinaryOp::Pow | BinaryOp::Mod | BinaryOp::FloorDiv),
        // `sqrt`, `fabs`, `floor`, ...: one machine instruction each.
        InstKind::Builtin(b, _) => !matches!(b.info().lowering, twinjit_ir::Lowering::Intrinsic(_)),
        _ => true,
    }
}

fn is_float(t: types::Type) -> bool {
    t == types::F32 || t == types::F64
}

impl CallSpills {
    /// The float values of `f` live after an instruction that may call, each part a variable
    /// with its slot.
    pub fn new(f: &Function, rpo: &[Block], b: &mut FunctionBuilder) -> CallSpills {
        let floaty = |v: Value| parts(f.ty(v)).into_iter().any(is_float);
        if !f.insts.iter().any(|d| may_call(&d.kind)) {
            return CallSpills {
                liveness: None,
                parts: HashMap::new(),
                at_calls: HashMap::new(),
                across: Vec::new(),
                reloaded: HashMap::new(),
            };
        }
        let liveness = Liveness::new(f, rpo, floaty);
        let mut across: HashSet<Value> = HashSet::new();
        let mut at_calls = HashMap::new();
        for &blk in rpo {
            let insts = &f.blocks[blk.index()].insts;
            if !insts.iter().any(|i| may_call(&f.insts[i.index()].kind)) {
                continue;
            }
            let after = liveness.live_after_each(f, blk, floaty);
            for (i, inst) in insts.iter().enumerate() {
                if may_call(&f.insts[inst.index()].kind) && !after[i].is_empty() {
                    across.extend(after[i].iter().copied());
                    let mut live: Vec<Value> = after[i].iter().copied().collect();
                    live.sort();
                    at_calls.insert((blk, i), live);
                }
            }
        }
        let mut sorted: Vec<Value> = across.into_iter().collect();
        sorted.sort();
        let mut spilled = HashMap::new();
        for v in sorted {
            let ps: SmallVec<[Part; 2]> = parts(f.ty(v))
                .into_iter()
                .enumerate()
                .filter(|(_, t)| is_float(*t))
                .map(|(index, ty)| {
                    let var = b.declare_var(ty);
                    let size = ty.bytes();
                    let slot = b.create_sized_stack_slot(cl::StackSlotData::new(
                        cl::StackSlotKind::ExplicitSlot,
                        size,
                        size.trailing_zeros() as u8,
                    ));
                    Part { index, var, slot, ty }
                })
                .collect();
            spilled.insert(v, ps);
        }
        CallSpills { liveness: Some(liveness), parts: spilled, at_calls, across: Vec::new(), reloaded: HashMap::new() }
    }

    /// Makes the values live after instruction `i` of `blk` the ones its calls keep (none for
    /// an instruction that does not call).
    pub fn enter_inst(&mut self, blk: Block, i: usize) {
        self.across = self.at_calls.remove(&(blk, i)).unwrap_or_default();
    }

    /// The spilled values live on entry to `blk` (the handler of an unwind edge), sorted.
    pub fn live_in(&self, blk: Block) -> Vec<Value> {
        let Some(liveness) = &self.liveness else { return Vec::new() };
        let mut v: Vec<Value> = liveness.live_in(blk).iter().filter(|v| self.parts.contains_key(*v)).copied().collect();
        v.sort();
        v
    }

    /// Records a definition of `v` (a result or a block parameter) with its parts `ps`.
    /// Whether `v` lives in variables (a float live across a call).
    pub fn is_spilled(&self, v: Value) -> bool {
        self.parts.contains_key(&v)
    }

    pub fn define(&self, b: &mut FunctionBuilder, v: Value, ps: &[cl::Value]) {
        if let Some(sp) = self.parts.get(&v) {
            for p in sp {
                b.def_var(p.var, ps[p.index]);
            }
        }
    }

    /// `v`'s parts as seen here: `stored` with each spilled part read from its variable.
    pub fn read(&self, b: &mut FunctionBuilder, v: Value, stored: &[cl::Value]) -> SmallVec<[cl::Value; 4]> {
        let mut out: SmallVec<[cl::Value; 4]> = stored.iter().copied().collect();
        if let Some(sp) = self.parts.get(&v) {
            for p in sp {
                out[p.index] = b.use_var(p.var);
            }
        }
        out
    }

    /// `call fr(args)`, with the float parts of `self.across` stored before it and reloaded
    /// after.
    pub fn call(&mut self, b: &mut FunctionBuilder, fr: cl::FuncRef, args: &[cl::Value]) -> cl::Inst {
        let across: SmallVec<[Part; 8]> =
            self.across.iter().filter_map(|v| self.parts.get(v)).flatten().copied().collect();
        for p in &across {
            let x = b.use_var(p.var);
            if self.reloaded.get(&p.var.index()) != Some(&x) {
                b.ins().stack_store(types::I64, x, p.slot, 0);
            }
        }
        let call = b.ins().call(fr, args);
        for p in &across {
            let x = b.ins().stack_load(types::I64, p.ty, p.slot, 0);
            b.def_var(p.var, x);
            self.reloaded.insert(p.var.index(), x);
        }
        call
    }
}
