//! `unroll`: runs two iterations of a small counted loop per trip (the host's scalar loops).
//!
//! Cranelift does not unroll. A one-block rotated loop (`for i in range(a, n)` as the front end
//! writes it) pays per iteration for its counter's test, two taken branches (the back edge goes
//! through a block that copies the counter), on top of its work; where the work is short (a
//! float reduction, which must keep Python's order, or a stencil) that is a large share. This
//! pass gives such a loop a copy that runs the body twice per trip, in front of it:
//!
//! ```text
//! guard(p..): the same test as head's (the old entry edges come here; with it the old loop is
//!             not dominated by the new one, so what Cranelift hoists out of either lands
//!             here, outside both, rather than in head)
//! head(p..):  if n - i > 2 (unsigned, so exact for every i < n): twice(p..) else loop(p..)
//! twice(p..): the body at i; the body at i + 1 (its parameters are the first copy's back-edge
//!             values); head(the second copy's back-edge values)
//! loop(p..):  the loop as it was, for the one or two iterations left (a rotated loop is
//!             entered with at least one iteration to run, and head leaves at least one)
//! ```
//!
//! (The test is at the top so that the loop-carried values reach the next trip through one
//! jump; Cranelift threads that jump into the head's branch, so the machine code ends up a
//! rotated two-iteration loop. Cranelift still folds no load into the arithmetic of a reduction:
//! it folds into the one use of a value used once, and the branch passes the sum to both
//! targets.)
//!
//! Every iteration runs its instructions in the original order, so results, errors (the same
//! `IndexError` at the same index) and writes are exactly the original loop's. It applies to a
//! one-block loop whose induction variable steps by one towards a bound from outside, with no
//! `try`, no `prange` and at most [`MAX_INSTS`] instructions. The host runs it on the loops it does
//! not vectorise (its vector loop is unrolled already); the PTX backend's LLVM unrolls by
//! itself.

use super::loop_version::{copy_insts, counted_loop};
use crate::function::*;
use crate::types::{Scalar, Type};
use hashbrown::{HashMap, HashSet};

/// The most instructions a loop may have to be unrolled.
pub const MAX_INSTS: usize = 40;

/// `f` with every qualifying loop (see the module's comment) unrolled twice, or `None` when no
/// loop qualifies. `skip` lists loop headers to leave alone.
pub fn unroll(f: &Function, skip: &[Block]) -> Option<Function> {
    // (Values of a loop may be read after it, a `prange` chunk's partial sum: the loop still
    // dominates every block it dominated, since the new copy returns into it.)
    let loops: Vec<(Block, usize, Value)> = (1..f.blocks.len())
        .map(|b| Block(b as u32))
        .filter(|b| !skip.contains(b) && f.blocks[b.index()].insts.len() <= MAX_INSTS)
        .filter_map(|b| counted_loop(f, b).map(|lp| (lp.block, lp.iv_pos, lp.bound)))
        .collect();
    if loops.is_empty() {
        return None;
    }
    let mut g = f.clone();
    for (l, iv_pos, bound) in loops {
        twice(&mut g, l, iv_pos, bound);
    }
    // (Not a `Pass` over `&mut Function`: the host unrolls a copy of the function it lowers,
    // but it dumps and verifies as the pipeline's passes do.)
    if super::dump_requested("unroll") {
        eprintln!("; after unroll (changed: true)\n{g}");
    }
    if super::verify_each_pass() {
        if let Err(e) = crate::verify::verify(&g, crate::verify::Level::Lowered) {
            panic!("unroll broke {}: {e:?}\n{g}", g.name);
        }
    }
    Some(g)
}

/// Copies the instructions of `l` into `to`, its parameters read as `args`; returns the map
/// from `l`'s values to the copies'.
fn copy_body(f: &mut Function, l: Block, to: Block, args: &[Value]) -> HashMap<Value, Value> {
    let mut map: HashMap<Value, Value> = f.blocks[l.index()].params.iter().copied().zip(args.iter().copied()).collect();
    copy_insts(f, l, to, &HashSet::new(), &mut map);
    map
}

fn twice(f: &mut Function, l: Block, iv_pos: usize, bound: Value) {
    let span = f.blocks[l.index()].term_span;
    let types: Vec<Type> = f.blocks[l.index()].params.iter().map(|p| f.ty(*p).clone()).collect();
    let Terminator::Branch(_, back, _) = f.blocks[l.index()].term.clone() else { unreachable!("a candidate") };
    let (guard, head, body) = (f.add_block(), f.add_block(), f.add_block());

    // guard(p..) and head(p..): if n - i > 2 (as unsigned: exact for any i < n): body(p..)
    // else loop(p..)
    for b in [guard, head] {
        let ps: Vec<Value> = types.iter().map(|t| f.add_block_param(b, t.clone())).collect();
        let emit = |f: &mut Function, kind: InstKind, ty: Type| f.push(b, kind, Some(ty), span).expect("a value");
        let left = emit(f, InstKind::Binary(BinaryOp::Sub, bound, ps[iv_pos]), Type::I64);
        let left = emit(f, InstKind::Cast(Scalar::UInt64, left), Type::Scalar(Scalar::UInt64));
        let two = emit(f, InstKind::Const(Const::Int(2)), Type::Scalar(Scalar::UInt64));
        let more = emit(f, InstKind::Compare(CmpOp::Lt, two, left), Type::BOOL);
        let go = BlockCall { block: body, args: ps.clone() };
        let rest = BlockCall { block: l, args: ps };
        f.terminate(b, Terminator::Branch(more, go, rest), span);
    }

    // body(p..): the loop's instructions at i, then at i + 1 (their parameters the first
    // copy's back-edge values); back to head.
    let ps: Vec<Value> = types.iter().map(|t| f.add_block_param(body, t.clone())).collect();
    let m1 = copy_body(f, l, body, &ps);
    let args1: Vec<Value> = back.args.iter().map(|v| *m1.get(v).unwrap_or(v)).collect();
    let m2 = copy_body(f, l, body, &args1);
    let args2: Vec<Value> = back.args.iter().map(|v| *m2.get(v).unwrap_or(v)).collect();
    f.terminate(body, Terminator::Jump(BlockCall { block: head, args: args2 }), span);

    let new = [guard.index(), head.index(), body.index()];
    for (b, bd) in f.blocks.iter_mut().enumerate() {
        if b == l.index() || new.contains(&b) {
            continue;
        }
        for call in bd.succs_mut() {
            if call.block == l {
                call.block = guard;
            }
        }
    }
}
