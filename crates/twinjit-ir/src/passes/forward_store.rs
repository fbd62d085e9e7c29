//! `forward_store`: a counted loop that reads the element its previous iteration stored
//! (`out[i] = out[i - 1] + a[i]`, a running sum or a recurrence written through the output
//! array) passes the stored value to the next iteration in a register instead of reading it
//! back from memory, as LLVM's loop-load elimination does for Numba. The load waited on the
//! store of the iteration before it (store-to-load forwarding, about five cycles on x86-64), so
//! the loop ran at the speed of memory, not of its arithmetic.
//!
//! A loop qualifies when it is a one-block rotated counted loop ([`counted_loop`]) whose only
//! instruction that may write memory is one `store A[o_s] = x`, which reads `load A[o_l]` of
//! the same array value `A` (defined outside the loop) with `o_l` one element before `o_s`:
//! both are `base + (iv + k) * scale` with the same invariant `base` and `scale` (the row
//! offset and the stride of a 2-D or non-contiguous array: `out[r, j] = out[r, j - 1] + ...`)
//! and constants `k` one apart. Nothing before the load
//! in the block may raise (no check, no call: the version of the loop that `loop_version`
//! proved in bounds, or a loop compiled without bounds checks), so the first iteration always
//! performs the load, and reading the element once before the loop instead performs exactly the
//! same read. Between a store and the next iteration's load nothing else writes memory, so the
//! value read back is the value stored: the result is the same bits, and aliasing of `A` with
//! other arrays changes nothing (no other array is written).

use super::loop_version::{counted_loop, CountedLoop};
use super::Pass;
use crate::function::*;
use crate::types::Type;
use hashbrown::HashMap;

/// Store-to-load forwarding across the iterations of a counted loop.
pub struct ForwardStore;

impl Pass for ForwardStore {
    fn name(&self) -> &'static str {
        "forward_store"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        for b in 0..f.blocks.len() {
            if let Some(c) = candidate(f, Block(b as u32)) {
                forward(f, &c);
                changed = true;
            }
        }
        changed
    }
}

/// A loop to rewrite.
struct Candidate {
    block: Block,
    iv_pos: usize,
    /// The load to replace, its array, its offset from the induction variable (an invariant
    /// value and a constant), and the stored value.
    load: Inst,
    array: Value,
    offset: Linear,
    stored: Value,
}

/// An offset `base + (iv + k) * scale` (`base` and `scale` invariant, absent: 0 and 1).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Linear {
    base: Option<Value>,
    k: i64,
    scale: Option<Value>,
}

/// `v` as a [`Linear`] offset, if it is one: `iv`, `x + c`, `x - c` (constant `c`),
/// `x * s` and `x + b` (invariant `s`, `b`), as indexing writes them (`(i - 1) * stride` of a
/// non-contiguous axis, `row * stride0 + j` of a 2-D array).
fn linear(f: &Function, v: Value, cl: &CountedLoop) -> Option<Linear> {
    if v == cl.iv {
        return Some(Linear { base: None, k: 0, scale: None });
    }
    let outside = |x: Value| !cl.local.contains(&x);
    match f.def_inst(v).map(|d| &d.kind)? {
        InstKind::Binary(BinaryOp::Add, x, y) => {
            for (a, b) in [(*x, *y), (*y, *x)] {
                if let Some(c) = f.const_int(b) {
                    if let Some(l @ Linear { base: None, scale: None, .. }) = linear(f, a, cl) {
                        return Some(Linear { k: l.k.checked_add(c)?, ..l });
                    }
                } else if outside(b) {
                    if let Some(l @ Linear { base: None, .. }) = linear(f, a, cl) {
                        return Some(Linear { base: Some(b), ..l });
                    }
                }
            }
            None
        }
        InstKind::Binary(BinaryOp::Sub, x, y) => {
            let l @ Linear { base: None, scale: None, .. } = linear(f, *x, cl)? else { return None };
            Some(Linear { k: l.k.checked_sub(f.const_int(*y)?)?, ..l })
        }
        InstKind::Binary(BinaryOp::Mul, x, y) => {
            for (a, b) in [(*x, *y), (*y, *x)] {
                if outside(b) {
                    if let Some(l @ Linear { base: None, scale: None, .. }) = linear(f, a, cl) {
                        return Some(Linear { scale: Some(b), ..l });
                    }
                }
            }
            None
        }
        _ => None,
    }
}

/// Whether an instruction may write memory (or free it).
fn writes_memory(k: &InstKind) -> bool {
    k.has_side_effect() && !matches!(k, InstKind::CheckIndex(..) | InstKind::CheckNonZero(..))
}

fn candidate(f: &Function, l: Block) -> Option<Candidate> {
    let cl = counted_loop(f, l)?;
    let insts = &f.blocks[l.index()].insts;
    let mut writes = insts.iter().filter(|i| writes_memory(&f.insts[i.index()].kind));
    let store = *writes.next()?;
    if writes.next().is_some() {
        return None;
    }
    let InstKind::Store(array, o_s, stored) = f.insts[store.index()].kind else { return None };
    if cl.local.contains(&array) {
        return None;
    }
    let at_store = linear(f, o_s, &cl)?;
    let previous = Linear { k: at_store.k.checked_sub(1)?, ..at_store };
    for &i in insts {
        let d = &f.insts[i.index()];
        match d.kind {
            InstKind::Load(a, o_l) if a == array => {
                if linear(f, o_l, &cl) != Some(previous) {
                    // Another element of the array the loop writes: leave the loop alone.
                    return None;
                }
                let r = d.result?;
                if f.ty(r) != f.ty(stored) {
                    return None;
                }
                return Some(Candidate { block: l, iv_pos: cl.iv_pos, load: i, array, offset: previous, stored });
            }
            // Anything that may raise before the load: the first iteration might not reach it.
            ref k
                if k.has_side_effect()
                    || matches!(k, InstKind::Binary(BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Mod, ..)) =>
            {
                return None
            }
            _ => {}
        }
    }
    None
}

/// Adds a parameter carrying the stored value to the loop, reads the first one before it.
fn forward(f: &mut Function, c: &Candidate) {
    let l = c.block;
    let load_result = f.insts[c.load.index()].result.expect("a load has a result");
    let ty = f.ty(load_result).clone();
    let span = f.insts[c.load.index()].span;
    let carry = f.add_block_param(l, ty.clone());
    // The loop reads the parameter; the back edge passes the stored value.
    f.blocks[l.index()].insts.retain(|&i| i != c.load);
    let rename: HashMap<Value, Value> = [(load_result, carry)].into_iter().collect();
    for bd in &mut f.blocks {
        for &i in &bd.insts {
            f.insts[i.index()].kind.map_operands(|v| *rename.get(&v).unwrap_or(&v));
        }
        bd.map_end_operands(|v| *rename.get(&v).unwrap_or(&v));
    }
    if let Terminator::Branch(_, back, _) = &mut f.blocks[l.index()].term {
        back.args.push(c.stored);
    }
    // Every other edge into the loop goes through a block that performs the first read.
    let params: Vec<Type> = f.blocks[l.index()].params.iter().map(|p| f.ty(*p).clone()).collect();
    let pre = f.add_block();
    let args: Vec<Value> = params[..params.len() - 1].iter().map(|t| f.add_block_param(pre, t.clone())).collect();
    let s = args[c.iv_pos];
    let mut off = s;
    let Linear { base, k, scale } = c.offset;
    if k != 0 {
        let k = f.push(pre, InstKind::Const(Const::Int(k)), Some(Type::I64), span).expect("a value");
        off = f.push(pre, InstKind::Binary(BinaryOp::Add, off, k), Some(Type::I64), span).expect("a value");
    }
    if let Some(scale) = scale {
        off = f.push(pre, InstKind::Binary(BinaryOp::Mul, off, scale), Some(Type::I64), span).expect("a value");
    }
    if let Some(base) = base {
        off = f.push(pre, InstKind::Binary(BinaryOp::Add, base, off), Some(Type::I64), span).expect("a value");
    }
    let first = f.push(pre, InstKind::Load(c.array, off), Some(ty), span).expect("a value");
    let mut into = args;
    into.push(first);
    f.terminate(pre, Terminator::Jump(BlockCall { block: l, args: into }), span);
    let pre_index = pre.index();
    for (b, bd) in f.blocks.iter_mut().enumerate() {
        if b == l.index() || b == pre_index {
            continue;
        }
        for call in bd.succs_mut() {
            if call.block == l {
                call.block = pre;
            }
        }
    }
}
