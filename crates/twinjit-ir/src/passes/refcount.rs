//! `refcount`: makes the memory manager's reference counts explicit (`incref`/`decref`), so
//! every buffer compiled code allocates is freed exactly when its last reference dies.
//!
//! The ownership rules (ARCHITECTURE.md, "Memory model"): every value that holds arrays (an
//! array, or a tuple with arrays inside) owns one reference per array, except the function's
//! parameters, views of them, and `cuda.shared/local.array` results, which are borrowed (the
//! caller, or the launch, keeps them alive for the whole call). A fresh result (`newarray`, a
//! call's result) arrives with its reference; a result that aliases an operand (`view`,
//! `tupleget`, `select`, `tuple`, `listget` of an element that holds references) gets one
//! `incref`. Lists are counted
//! like arrays; a list holds its own reference to what each element holds (`listset` and
//! `listresize` count those themselves). Operands are borrowed by every instruction; only terminators
//! consume: `return v` hands one reference to the caller, a jump hands one to each block
//! parameter it passes a value to. The pass then places, from liveness:
//! - `decref v` right after the last use of an owned value (or after its definition if unused);
//! - on each edge, what the successor needs: `incref` for every reference a jump argument or
//!   a still-live value needs beyond the one held, `decref` for an owned value that dies on the
//!   edge (a branch's edge gets its own block when it needs any).
//!
//! Paths that raise are left alone: an error frees every buffer the call allocated (the facade
//! sweeps them), so they need no cleanup code. An unwind edge (a `try` body's) is taken from
//! anywhere in its block, so what the handler reads is live through the whole block, and the
//! edge itself counts nothing: the references held at the raise are abandoned (the facade frees
//! what they keep alive when the outermost call ends) and the handler's parameters are
//! borrowed, like the function's. Arrays the caller lent have no owner, so their
//! counts are no-ops at run time (a null test). Linear in the function's size times the number
//! of live array values.

use super::Pass;
use crate::function::*;
use crate::liveness::Liveness;
use hashbrown::{HashMap, HashSet};
use twinjit_diag::Span;

/// The pass.
pub struct Refcount;

impl Pass for Refcount {
    fn name(&self) -> &'static str {
        "refcount"
    }

    fn run(&self, f: &mut Function) -> bool {
        if !(0..f.values.len()).any(|v| f.ty(Value(v as u32)).holds_array()) {
            return false;
        }
        let counted = |f: &Function, v: Value| f.ty(v).holds_array();
        let handler_params: Vec<Value> =
            f.handlers().into_iter().flat_map(|h| f.blocks[h.index()].params.clone()).collect();
        let mut borrowed: HashSet<Value> = f
            .params()
            .iter()
            .copied()
            .chain(handler_params)
            .chain(
                f.insts
                    .iter()
                    .filter(|d| matches!(d.kind, InstKind::AllocArray { .. } | InstKind::ConstArray(_)))
                    .filter_map(|d| d.result),
            )
            .collect();
        // A view of a parameter (or of such a view) is borrowed too: the caller keeps the
        // parameter's buffer alive for the whole call (a gufunc's row of its argument, a
        // helper's slice). Where it outlives the call (returned, passed to a block parameter,
        // put in a tuple or list) it gets its reference there, as a parameter does.
        // (One walk in reverse post-order: a view's base is defined before it.)
        let rpo = f.reverse_postorder();
        let mut of_params: HashSet<Value> = f.params().iter().copied().collect();
        for &b in &rpo {
            for &i in &f.blocks[b.index()].insts {
                if let (InstKind::View { base, .. }, Some(r)) = (&f.insts[i.index()].kind, f.insts[i.index()].result) {
                    if of_params.contains(base) {
                        of_params.insert(r);
                    }
                }
            }
        }
        borrowed.extend(of_params);
        let liveness = Liveness::new(f, &rpo, |v| f.ty(v).holds_array());
        let mut changed = false;
        for &b in &rpo {
            let bd = f.blocks[b.index()].clone();
            // Values needed after the block's instructions: the terminator's operands and what
            // every successor reads without receiving it as a parameter.
            let mut live: HashSet<Value> = bd.end_operands().into_iter().filter(|v| counted(f, *v)).collect();
            live.extend(liveness.live_through_edges(f, b));
            // What each edge (or the return) needs, beyond one reference per owned live value.
            let held: Vec<Value> = {
                let mut h: Vec<Value> = live.iter().copied().filter(|v| !borrowed.contains(v)).collect();
                h.sort();
                h
            };
            let need_adjust = |f: &Function, call: Option<&BlockCall>, ret: Option<Value>| -> Vec<(Value, i64)> {
                let mut need: HashMap<Value, i64> = HashMap::new();
                if let Some(c) = call {
                    let params = &f.blocks[c.block.index()].params;
                    for v in liveness.live_in(c.block) {
                        if !params.contains(v) && !borrowed.contains(v) {
                            *need.entry(*v).or_default() += 1;
                        }
                    }
                    for a in &c.args {
                        if counted(f, *a) {
                            *need.entry(*a).or_default() += 1;
                        }
                    }
                }
                if let Some(r) = ret.filter(|r| counted(f, *r)) {
                    *need.entry(r).or_default() += 1;
                }
                let mut vs: Vec<Value> = held.iter().copied().chain(need.keys().copied()).collect();
                vs.sort();
                vs.dedup();
                vs.into_iter()
                    .map(|v| {
                        let have = i64::from(!borrowed.contains(&v) && held.contains(&v));
                        (v, need.get(&v).copied().unwrap_or(0) - have)
                    })
                    .filter(|(_, d)| *d != 0)
                    .collect()
            };
            let span = bd.term_span;
            let mut tail: Vec<(Value, i64)> = Vec::new();
            match &bd.term {
                Terminator::Jump(c) => tail = need_adjust(f, Some(c), None),
                Terminator::Return(r) => tail = need_adjust(f, None, *r),
                Terminator::Branch(c, t, e) => {
                    let (c, t, e) = (*c, t.clone(), e.clone());
                    let (at, ae) = (need_adjust(f, Some(&t), None), need_adjust(f, Some(&e), None));
                    let t2 = if at.is_empty() { t } else { edge_block(f, t, &at, span) };
                    let e2 = if ae.is_empty() { e } else { edge_block(f, e, &ae, span) };
                    changed |= f.blocks[b.index()].term != Terminator::Branch(c, t2.clone(), e2.clone());
                    f.blocks[b.index()].term = Terminator::Branch(c, t2, e2);
                }
                Terminator::Raise(_) | Terminator::Unreachable => {}
            }
            // Backwards over the instructions: decref after last uses, incref aliasing results.
            let mut out: Vec<Inst> = Vec::with_capacity(bd.insts.len());
            for (v, d) in tail.iter().rev() {
                for _ in 0..d.unsigned_abs() {
                    out.push(count(f, *v, *d > 0, span));
                }
            }
            for &inst in bd.insts.iter().rev() {
                let data = f.insts[inst.index()].clone();
                let mut after: Vec<Inst> = Vec::new();
                if let Some(r) = data.result.filter(|r| counted(f, *r)) {
                    let aliases = matches!(
                        data.kind,
                        InstKind::View { .. }
                            | InstKind::TupleGet(..)
                            | InstKind::Select(..)
                            | InstKind::MakeTuple(_)
                            | InstKind::ListGet(..)
                    );
                    if live.contains(&r) {
                        if aliases && !borrowed.contains(&r) {
                            after.push(count(f, r, true, data.span));
                        }
                    } else if !aliases && !borrowed.contains(&r) {
                        after.push(count(f, r, false, data.span));
                    }
                    live.remove(&r);
                }
                let mut ops: Vec<Value> = data.kind.operands().into_iter().filter(|o| counted(f, *o)).collect();
                ops.sort();
                ops.dedup();
                for o in ops {
                    if live.insert(o) && !borrowed.contains(&o) {
                        after.push(count(f, o, false, data.span));
                    }
                }
                // `out` is reversed at the end: push the followers first, in reverse.
                out.extend(after.into_iter().rev());
                out.push(inst);
            }
            for &p in bd.params.iter().rev() {
                if counted(f, p) && !live.contains(&p) && !borrowed.contains(&p) {
                    out.push(count(f, p, false, span));
                }
            }
            out.reverse();
            changed |= out.len() != bd.insts.len();
            f.blocks[b.index()].insts = out;
        }
        changed
    }
}

fn count(f: &mut Function, v: Value, inc: bool, span: Span) -> Inst {
    f.make_inst(if inc { InstKind::IncRef(v) } else { InstKind::DecRef(v) }, None, span)
}

/// A block on the edge to `call` that applies `adjust` and jumps on.
fn edge_block(f: &mut Function, call: BlockCall, adjust: &[(Value, i64)], span: Span) -> BlockCall {
    let e = f.add_block();
    let mut insts = Vec::new();
    for &(v, d) in adjust {
        for _ in 0..d.unsigned_abs() {
            insts.push(count(f, v, d > 0, span));
        }
    }
    let bd = &mut f.blocks[e.index()];
    bd.insts = insts;
    bd.term = Terminator::Jump(call);
    bd.term_span = span;
    BlockCall { block: e, args: vec![] }
}
