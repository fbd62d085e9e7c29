//! `licm`: moves pure instructions whose operands are all defined outside a loop to the end of
//! the loop's preheader, so e.g. the wrap of `i - 1` in `a[i - 1, j]` is computed once per row
//! instead of once per element. Nested loops move values outward one level per sweep, to a
//! fixpoint.
//!
//! Only instructions that cannot trap or raise move to the preheader: integer division and
//! remainder stay where they are (the backends divide by zero only behind the `checknonzero`
//! that precedes them), and loads, stores, calls and builtins never move. A loop-invariant
//! check (`checknonzero std` before `x[i] / std`, `checkindex k, n` for `a[k]`) that the
//! header reaches before any effect moves to a new block on the entry edge, which runs only
//! when the loop is entered: the same error, raised at the same point of what is observable. The loops are the front end's
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
    let preds = super::predecessors(f, &rpo);
    let mut moved = false;
    for &h in &rpo {
        let (latches, entries): (Vec<Block>, Vec<Block>) =
            preds[h.index()].iter().copied().partition(|&p| dom.dominates(h, p));
        let (false, &[pre]) = (latches.is_empty(), entries.as_slice()) else { continue };
        let body = super::natural_loop(&preds, h, &latches);
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
                // A constant of the loop does not make its user variant: the user moves with a
                // copy of it (`select(x == m, 0, x)`, the wrap of a neighbour index).
                let constant = |v: &Value| matches!(f.def_inst(*v).map(|d| &d.kind), Some(InstKind::Const(_)));
                let invariant = d.kind.operands().iter().all(|v| !inside.contains(v) || constant(v));
                if invariant && movable(f, &d.kind) && d.result.is_some() {
                    if let Some(r) = d.result {
                        inside.remove(&r);
                    }
                    let consts: Vec<Value> =
                        d.kind.operands().into_iter().filter(|v| inside.contains(v) && constant(v)).collect();
                    for c in consts {
                        let cd = f.def_inst(c).expect("a constant").clone();
                        let copy = f.push(pre, cd.kind, Some(f.ty(c).clone()), cd.span).expect("a value");
                        f.insts[i.index()].kind.map_operands(|v| if v == c { copy } else { v });
                    }
                    f.blocks[pre.index()].insts.push(i);
                    moved = true;
                } else {
                    kept.push(i);
                }
            }
            f.blocks[b.index()].insts = kept;
        }
        moved |= hoist_checks(f, h, pre, &inside);
    }
    moved
}

/// Moves the loop-invariant checks that the header `h` reaches before anything with an effect
/// into a new block on the entry edge `pre -> h`, which runs only when the loop is entered: the
/// first iteration would have raised there with nothing observable done before it, and later
/// iterations pass it again. Returns whether a check moved.
fn hoist_checks(f: &mut Function, h: Block, pre: Block, inside: &HashSet<Value>) -> bool {
    if f.blocks[h.index()].unwind.is_some()
        || f.blocks[pre.index()].term.targets().iter().filter(|c| c.block == h).count() != 1
    {
        return false;
    }
    let mut hoisted = Vec::new();
    let mut kept = Vec::new();
    let mut prefix_pure = true;
    for &i in &f.blocks[h.index()].insts {
        let k = &f.insts[i.index()].kind;
        let check = matches!(k, InstKind::CheckNonZero(_) | InstKind::CheckIndex(..));
        if prefix_pure && check && k.operands().iter().all(|v| !inside.contains(v)) {
            hoisted.push(i);
            continue;
        }
        let intrinsic =
            matches!(k, InstKind::Builtin(b, _) if matches!(b.info().lowering, crate::Lowering::Intrinsic(_)));
        prefix_pure &= movable(f, k) || intrinsic || matches!(k, InstKind::Const(_) | InstKind::Load(..));
        kept.push(i);
    }
    if hoisted.is_empty() {
        return false;
    }
    f.blocks[h.index()].insts = kept;
    let guard = f.add_block();
    let span = f.blocks[pre.index()].term_span;
    let mut edge = None;
    for c in f.blocks[pre.index()].term.targets_mut() {
        if c.block == h {
            edge = Some(std::mem::replace(c, BlockCall { block: guard, args: Vec::new() }));
        }
    }
    let g = &mut f.blocks[guard.index()];
    g.insts = hoisted;
    g.term = Terminator::Jump(edge.expect("the entry edge"));
    g.term_span = span;
    true
}
