//! `licm`: moves pure instructions whose operands are all defined outside a loop to the end of
//! the loop's preheader, so e.g. the wrap of `i - 1` in `a[i - 1, j]` is computed once per row
//! instead of once per element. Nested loops move values outward one level per sweep, to a
//! fixpoint.
//!
//! Only instructions that cannot trap or raise move: integer division and remainder stay where
//! they are (the backends divide by zero only behind the `checknonzero` that precedes them),
//! and checks, loads, stores, calls and builtins never move. The loops are the front end's
//! rotated loops, so a preheader runs only when the loop is entered or about to be skipped: a
//! moved instruction may run when the loop body does not, which a pure, non-trapping one
//! cannot observe.

use super::Pass;
use crate::function::*;
use crate::types::Type;
use crate::verify::DomTree;
use hashbrown::HashSet;

/// Loop-invariant code motion of pure instructions.
pub struct Licm;

pub(super) fn movable(f: &Function, k: &InstKind) -> bool {
    match k {
        // Constants stay at their uses: the backends materialise them for free, and one held
        // in a register across a loop only adds pressure.
        InstKind::Unary(..)
        | InstKind::Compare(..)
        | InstKind::Cast(..)
        | InstKind::Select(..)
        | InstKind::Dim(..)
        | InstKind::Stride(..)
        | InstKind::TupleGet(..) => true,
        InstKind::Binary(op, a, _) => match op {
            BinaryOp::Pow => false,
            BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Mod => {
                matches!(f.ty(*a), Type::Scalar(s) if s.is_float())
            }
            _ => true,
        },
        _ => false,
    }
}

impl Pass for Licm {
    fn name(&self) -> &'static str {
        "licm"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        for _ in 0..8 {
            if !sweep(f) {
                break;
            }
            changed = true;
        }
        changed
    }
}

/// One pass over every loop; returns whether anything moved.
fn sweep(f: &mut Function) -> bool {
    let (rpo, dom) = DomTree::with_rpo(f);
    let mut preds: Vec<Vec<Block>> = vec![Vec::new(); f.blocks.len()];
    for &b in &rpo {
        for t in f.blocks[b.index()].succs() {
            if !preds[t.block.index()].contains(&b) {
                preds[t.block.index()].push(b);
            }
        }
    }
    let mut moved = false;
    for &h in &rpo {
        let (latches, entries): (Vec<Block>, Vec<Block>) =
            preds[h.index()].iter().copied().partition(|&p| dom.dominates(h, p));
        let (false, &[pre]) = (latches.is_empty(), entries.as_slice()) else { continue };
        // The natural loop: the header and what reaches a latch without passing it.
        let mut body: HashSet<Block> = HashSet::from([h]);
        let mut work = latches.clone();
        while let Some(b) = work.pop() {
            if body.insert(b) {
                work.extend(preds[b.index()].iter().copied());
            }
        }
        // Where each value of the loop is defined (instructions and block parameters).
        let mut inside: HashSet<Value> = HashSet::new();
        for &b in &body {
            inside.extend(f.blocks[b.index()].params.iter().copied());
            for &i in &f.blocks[b.index()].insts {
                if let Some(r) = f.insts[i.index()].result {
                    inside.insert(r);
                }
            }
        }
        for &b in rpo.iter().filter(|&&b| body.contains(&b)) {
            let insts = f.blocks[b.index()].insts.clone();
            let mut kept = Vec::with_capacity(insts.len());
            for i in insts {
                let d = &f.insts[i.index()];
                let invariant = d.kind.operands().iter().all(|v| !inside.contains(v));
                if invariant && movable(f, &d.kind) && d.result.is_some() {
                    if let Some(r) = d.result {
                        inside.remove(&r);
                    }
                    f.blocks[pre.index()].insts.push(i);
                    moved = true;
                } else {
                    kept.push(i);
                }
            }
            f.blocks[b.index()].insts = kept;
        }
    }
    moved
}
