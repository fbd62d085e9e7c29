//! `gvn`: replaces a pure instruction by an identical one that dominates it (same operation,
//! same operands, same type), so that e.g. every `dim a, 0` of a function is one value. Later
//! passes (bounds-check elimination) compare values by identity and rely on this. A dimension
//! or stride of an array made in the function (`newarray`, `view`) is the operand it was made
//! with, so `for j in range(w.shape[0]): w[j]` of a view needs no check. A `select` on a
//! constant condition is the operand it picks, an element read from a tuple built here is the
//! element (`n, m = a.shape` gives the dimensions themselves), a comparison of two integer
//! constants is folded (the rewrites' checks of constant dimensions and steps), and the stride
//! of a C-contiguous array's last axis is the constant 1.
//!
//! Reads of memory (`listlen`, `listget`, `load`) are numbered too, along straight paths only:
//! a read is the same as an identical one earlier in its block, or in the one predecessor the
//! block has, and so on up, with no store, call or other write in between (`primes[j] *
//! primes[j] <= k` reads the list's length and element once).

use super::Pass;
use crate::function::*;
use crate::verify::DomTree;
use hashbrown::HashMap;

/// Global value numbering of pure instructions (dominator-scoped).
pub struct Gvn;

fn is_pure(k: &InstKind) -> bool {
    match k {
        InstKind::Const(_)
        | InstKind::Unary(..)
        | InstKind::Compare(..)
        | InstKind::Cast(..)
        | InstKind::Select(..)
        | InstKind::Dim(..)
        | InstKind::Stride(..)
        | InstKind::TupleGet(..)
        | InstKind::View { .. }
        | InstKind::MakeTuple(..) => true,
        InstKind::Binary(op, ..) => *op != BinaryOp::Pow,
        InstKind::Builtin(b, _) => {
            !b.is_cuda()
                && !b.is_random()
                && !matches!(
                    b,
                    crate::builtins::Builtin::CallValue
                        | crate::builtins::Builtin::UfuncCall
                        | crate::builtins::Builtin::GufuncCall
                )
        }
        _ => false,
    }
}

/// The operand a `dim`/`stride` reads when its array was made here with explicit dimensions.
fn made_with(f: &Function, k: &InstKind) -> Option<Value> {
    let (a, axis, stride) = match k {
        InstKind::Dim(a, axis) => (*a, usize::try_from(*axis).ok()?, false),
        InstKind::Stride(a, axis) => (*a, *axis as usize, true),
        _ => return None,
    };
    match (&f.def_inst(a)?.kind, stride) {
        (InstKind::View { shape, .. }, false) | (InstKind::NewArray { shape, .. }, false) => shape.get(axis).copied(),
        (InstKind::View { strides, .. }, true) => strides.get(axis).copied(),
        _ => None,
    }
}

/// The element a `tupleget` reads from a tuple built here (`n, m = a.shape`, `return a, b`
/// then unpacked): the value itself, so later passes see the dimension, not a tuple part.
fn forwarded(f: &Function, k: &InstKind) -> Option<Value> {
    let InstKind::TupleGet(t, i) = k else { return None };
    match &f.def_inst(*t)?.kind {
        InstKind::MakeTuple(xs) => xs.get(*i as usize).copied(),
        _ => None,
    }
}

/// A boolean operation with a constant operand: `not` of a constant, `x or True`,
/// `x and False` (a constant), `x or False`, `x and True` (the other operand).
enum BoolFold {
    Const(bool),
    Operand(Value),
}

fn folded_bool(f: &Function, k: &InstKind) -> Option<BoolFold> {
    let konst = |v: Value| match f.def_inst(v)?.kind {
        InstKind::Const(Const::Bool(b)) => Some(b),
        _ => None,
    };
    match k {
        InstKind::Unary(UnaryOp::Not, c) => konst(*c).map(|b| BoolFold::Const(!b)),
        InstKind::Binary(op @ (BinaryOp::BitOr | BinaryOp::BitAnd), a, b) if *f.ty(*a) == crate::types::Type::BOOL => {
            let absorbing = *op == BinaryOp::BitOr;
            let (c, other) = match (konst(*a), konst(*b)) {
                (Some(c), _) => (c, *b),
                (_, Some(c)) => (c, *a),
                _ => return None,
            };
            Some(if c == absorbing { BoolFold::Const(c) } else { BoolFold::Operand(other) })
        }
        _ => None,
    }
}

/// The operand a `select` with a constant condition picks.
fn chosen(f: &Function, k: &InstKind) -> Option<Value> {
    let InstKind::Select(c, x, y) = k else { return None };
    match f.def_inst(*c)?.kind {
        InstKind::Const(Const::Bool(b)) => Some(if b { *x } else { *y }),
        _ => None,
    }
}

/// The stride of a C-contiguous array's last axis, which is 1: the layout says so (an axis of
/// extent 1 may carry any stride, as NumPy allows, but its only index is 0, so 1 reads the same
/// element). A view of a C array (`a[i:i + w]`) then steps by one element with no multiply.
fn unit_stride(f: &Function, k: &InstKind) -> bool {
    let InstKind::Stride(a, axis) = k else { return false };
    f.ty(*a).array().is_some_and(|t| t.layout == crate::types::Layout::C && *axis + 1 == t.ndim)
}

/// A comparison of two integer constants (the rewrites' checks of constant dimensions), or of
/// an integer with itself (a gufunc's check that an operand's core dimension matches the size
/// bound from that same operand).
fn folded_compare(f: &Function, k: &InstKind) -> Option<bool> {
    let InstKind::Compare(op, a, b) = k else { return None };
    if a == b && f.ty(*a).scalar().is_some_and(|s| s.is_int()) {
        return Some(matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge));
    }
    if let Some(c) = extent_against_constant(f, *op, *a, *b) {
        return Some(c);
    }
    // Signed only: the constants are int64 patterns, compared as such.
    if !f.ty(*a).scalar().is_some_and(|s| s.is_signed()) {
        return None;
    }
    let int = |v: Value| match f.def_inst(v)?.kind {
        InstKind::Const(Const::Int(i)) => Some(i),
        _ => None,
    };
    let (x, y) = (int(*a)?, int(*b)?);
    Some(op.eval(x, y))
}

/// A kernel's grid extent (`cuda.gridsize`, `cuda.blockDim.x`, `cuda.gridDim.x`,
/// `cuda.warpsize`, an element of `cuda.gridsize(2)`, or one of these as an `int64`), which is at
/// least 1, compared with a constant at most 0: `range(cuda.grid(1), n, cuda.gridsize(1))`
/// tests the sign of its step, and the answer is known.
fn extent_against_constant(f: &Function, op: CmpOp, a: Value, b: Value) -> Option<bool> {
    use crate::builtins::{KernelOp, Register};
    fn extent(f: &Function, v: Value) -> bool {
        let is = |k: Option<&InstKind>| {
            matches!(k, Some(InstKind::Builtin(b, _)) if matches!(b.kernel_op(),
                Some(KernelOp::Gridsize | KernelOp::Register(Register::BlockDim(_) | Register::GridDim(_) | Register::WarpSize))))
        };
        let def = |x: Value| f.def_inst(x).map(|d| &d.kind);
        match def(v) {
            k @ Some(InstKind::Builtin(..)) => is(k),
            Some(InstKind::TupleGet(t, _)) => is(def(*t)),
            // (Only widened: `cuda.gridsize(1)` can pass 2^31, so an `int32` of it may wrap.)
            Some(InstKind::Cast(_, x)) => *f.ty(v) == crate::types::Type::I64 && extent(f, *x),
            _ => false,
        }
    }
    let int = |v: Value| match f.def_inst(v)?.kind {
        InstKind::Const(Const::Int(i)) => Some(i),
        _ => None,
    };
    // `x op k` with x >= 1 and k <= 0, the extent on either side.
    let (op, k) = if extent(f, a) {
        (op, int(b)?)
    } else if extent(f, b) {
        let flipped = match op {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            o => o,
        };
        (flipped, int(a)?)
    } else {
        return None;
    };
    if k > 0 {
        return None;
    }
    Some(matches!(op, CmpOp::Gt | CmpOp::Ge | CmpOp::Ne))
}

/// The most reads remembered at a point (see [`Gvn`]'s module doc).
const MAX_READS: usize = 64;

/// A read of memory that another identical read can stand for while nothing is written in
/// between (`listlen l`, `listget l[i]`, `load a[o]`).
fn is_read(k: &InstKind) -> bool {
    matches!(k, InstKind::ListLen(_) | InstKind::ListGet(..) | InstKind::Load(..))
}

/// Whether an instruction may write memory a read sees (conservatively: every store, call and
/// builtin but the pure math ones).
fn may_write(k: &InstKind) -> bool {
    match k {
        InstKind::Builtin(b, _) => {
            !matches!(b.info().lowering, crate::builtins::Lowering::Intrinsic(_) | crate::builtins::Lowering::Libm(_))
        }
        InstKind::CheckIndex(..) | InstKind::CheckNonZero(..) | InstKind::NewArray { .. } | InstKind::NewList(_) => {
            false
        }
        k => k.has_side_effect(),
    }
}

impl Pass for Gvn {
    fn name(&self) -> &'static str {
        "gvn"
    }

    fn run(&self, f: &mut Function) -> bool {
        let (rpo, dom) = DomTree::with_rpo(f);
        let mut table: HashMap<String, Vec<(Value, Block)>> = HashMap::new();
        let mut replace: HashMap<Value, Value> = HashMap::new();
        let resolve = |m: &HashMap<Value, Value>, mut v: Value| {
            while let Some(&n) = m.get(&v) {
                v = n;
            }
            v
        };
        // Reads known at the end of each block: a block with one predecessor starts with its
        // predecessor's (nothing runs between the two), any other block with none.
        let mut preds: Vec<(u32, Option<Block>)> = vec![(0, None); f.blocks.len()];
        for (p, bd) in f.blocks.iter().enumerate() {
            for c in bd.succs() {
                let e = &mut preds[c.block.index()];
                *e = (e.0 + 1, Some(Block(p as u32)));
            }
        }
        let mut reads_out: HashMap<Block, HashMap<String, Value>> = HashMap::new();
        for &b in &rpo {
            let single = match preds[b.index()] {
                (1, p) => p,
                _ => None,
            };
            // Taken when the predecessor has no other successor, copied otherwise.
            let mut reads: HashMap<String, Value> = single
                .and_then(|p| {
                    if f.blocks[p.index()].succs().len() == 1 {
                        reads_out.remove(&p)
                    } else {
                        reads_out.get(&p).cloned()
                    }
                })
                .unwrap_or_default();
            let insts = f.blocks[b.index()].insts.clone();
            let mut kept = Vec::with_capacity(insts.len());
            for inst in insts {
                let mut kind = f.insts[inst.index()].kind.clone();
                kind.map_operands(|v| resolve(&replace, v));
                f.insts[inst.index()].kind = kind.clone();
                let result = f.insts[inst.index()].result;
                if let (Some(r), Some(v)) =
                    (result, made_with(f, &kind).or_else(|| chosen(f, &kind)).or_else(|| forwarded(f, &kind)))
                {
                    replace.insert(r, v);
                    continue;
                }
                if let Some(c) = folded_compare(f, &kind) {
                    kind = InstKind::Const(Const::Bool(c));
                    f.insts[inst.index()].kind = kind.clone();
                }
                match (folded_bool(f, &kind), result) {
                    (Some(BoolFold::Operand(v)), Some(r)) => {
                        replace.insert(r, v);
                        continue;
                    }
                    (Some(BoolFold::Const(c)), _) => {
                        kind = InstKind::Const(Const::Bool(c));
                        f.insts[inst.index()].kind = kind.clone();
                    }
                    _ => {}
                }
                if unit_stride(f, &kind) {
                    kind = InstKind::Const(Const::Int(1));
                    f.insts[inst.index()].kind = kind.clone();
                }
                if let (true, Some(r)) = (is_read(&kind), result) {
                    let key = format!("{kind:?}|{}", f.ty(r));
                    if let Some(&v) = reads.get(&key) {
                        replace.insert(r, v);
                        continue;
                    }
                    // A bounded table keeps the pass linear on long straight chains.
                    if reads.len() >= MAX_READS {
                        reads.clear();
                    }
                    reads.insert(key, r);
                } else if may_write(&kind) {
                    reads.clear();
                }
                if let (true, Some(r)) = (is_pure(&kind), result) {
                    // Debug formatting distinguishes 0.0 from -0.0 and prints NaN payload-free,
                    // which is what identity of constants needs.
                    let key = format!("{kind:?}|{}", f.ty(r));
                    let entry = table.entry(key).or_default();
                    if let Some(&(v, _)) = entry.iter().find(|(_, db)| dom.dominates(*db, b)) {
                        replace.insert(r, v);
                        continue;
                    }
                    entry.push((r, b));
                }
                kept.push(inst);
            }
            f.blocks[b.index()].insts = kept;
            // A block with an unwind edge may leave mid-way: its reads are not passed on.
            if f.blocks[b.index()].unwind.is_none() {
                reads_out.insert(b, reads);
            }
        }
        if replace.is_empty() {
            return false;
        }
        for inst in &mut f.insts {
            inst.kind.map_operands(|v| resolve(&replace, v));
        }
        for b in &mut f.blocks {
            b.map_end_operands(|v| resolve(&replace, v));
        }
        true
    }
}
