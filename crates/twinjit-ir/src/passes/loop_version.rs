//! `loop_version`: a counted loop whose bounds checks the loop's range proves, once its
//! bounds are known, runs a copy of itself without those checks. The checks that
//! `bounds_check_elim` cannot drop are the ones on an array with a length of its own
//! (`out[i] = f(x[i])` for `i in range(len(x))`): whether they pass depends on the two lengths,
//! known only at run time. Before such a loop a new block tests, once, that every iteration's
//! index is in bounds; when it is, the copy runs, else the original loop with its checks,
//! which raises the same `IndexError` after the same iterations as before. So Python's
//! semantics are kept exactly, and the copy, with no check left, can be vectorised by the host.
//!
//! A loop qualifies when it is one block `L(p...)` (the front end's rotated loop) ending
//! `br lt(i + 1, n), L(..., i + 1, ...), exit(...)` with `i` one of its parameters and `n`
//! defined outside it, has no unwind edge, holds no `prange` marker, and no value it defines
//! is used outside it (its exit edge's arguments aside). A loop of several blocks (an `if` in
//! its body, a `break`) qualifies when its only back edge is such a latch test and it has no
//! inner loop; the blocks after its exits that read its values, and that only it reaches, are
//! copied with it. A check qualifies when it is
//! `checkindex i + k, len` (or `i`, `i - k`, or Python's wrap of one of these,
//! `x < 0 ? x + len : x`, which the copy reads as `x`) with `k` and `len` defined outside the loop, or
//! `checkindex k, len` with both defined outside (`b[k, j]` in a loop over `j`: the same check
//! in every iteration, so the test is the check itself, `0 <= k < len`).
//! Entered with `i = s`, the loop visits `s, s + 1, ..., n - 1` (once at least), so the test is
//! `0 <= s < n <= len` and `-s <= k <= len - n` for each check, written so that no sum can
//! overflow (a wrapped sum would make an unchecked access out of bounds).

use super::Pass;
use crate::builtins::Builtin;
use crate::function::*;
use crate::types::Type;
use crate::verify::DomTree;
use hashbrown::{HashMap, HashSet};

/// Loop versioning on bounds checks.
pub struct LoopVersion;

/// A check the copy drops: its index and the length.
struct Dropped {
    inst: Inst,
    index: Index,
    len: Value,
    /// The check is on Python's wrap of a negative index (`select`, `x`): the copy reads `x`.
    unwrap: Option<(Value, Value)>,
}

/// The index of a dropped check.
#[derive(Clone, Copy)]
enum Index {
    /// The induction variable plus an offset (`None`: 0, else the value and whether it is
    /// subtracted).
    Counter(Option<(Value, bool)>),
    /// A value defined outside the loop (`b[k, j]` in a loop over `j`): the same in every
    /// iteration.
    Invariant(Value),
}

/// A loop to version.
struct Candidate {
    /// The header.
    block: Block,
    /// Every block of the loop, the header first.
    blocks: Vec<Block>,
    latch: Block,
    /// The induction variable's parameter position.
    iv_pos: usize,
    bound: Value,
    dropped: Vec<Dropped>,
    /// Values of the loop read after it (see `pass_escaping`).
    escaping: Vec<Value>,
}

impl Pass for LoopVersion {
    fn name(&self) -> &'static str {
        "loop_version"
    }

    fn run(&self, f: &mut Function) -> bool {
        let escapes = read_elsewhere(f);
        let cfg = Cfg::new(f);
        let candidates: Vec<Candidate> =
            (0..f.blocks.len()).filter_map(|b| candidate(f, Block(b as u32), &escapes, &cfg)).collect();
        let changed = !candidates.is_empty();
        for c in candidates {
            version(f, &c);
        }
        changed
    }
}

/// The values some block other than their defining one reads (its instructions, terminator or
/// unwind edge), each with those blocks; computed once per function.
fn read_elsewhere(f: &Function) -> HashMap<Value, Vec<Block>> {
    let mut home: Vec<Option<Block>> = vec![None; f.values.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        for &p in &bd.params {
            home[p.index()] = Some(Block(b as u32));
        }
        for &i in &bd.insts {
            if let Some(r) = f.insts[i.index()].result {
                home[r.index()] = Some(Block(b as u32));
            }
        }
    }
    let mut out: HashMap<Value, Vec<Block>> = HashMap::new();
    for (b, bd) in f.blocks.iter().enumerate() {
        let b = Block(b as u32);
        let reads = bd.insts.iter().flat_map(|i| f.insts[i.index()].kind.operands()).chain(bd.end_operands());
        for v in reads.filter(|v| home[v.index()] != Some(b)) {
            let at = out.entry(v).or_default();
            if at.last() != Some(&b) {
                at.push(b);
            }
        }
    }
    out
}

/// A one-block rotated counted loop (`for i in range(a, n)` as the front end writes it): the
/// block branches back to itself while `i + 1 < n`, `n` from outside, passing `i + 1` for `i`.
/// Shared with `unroll`.
pub(super) struct CountedLoop {
    pub block: Block,
    /// The induction variable, its parameter position, and the bound.
    pub iv: Value,
    pub iv_pos: usize,
    pub bound: Value,
    /// The block's parameters and results.
    pub local: HashSet<Value>,
}

pub(super) fn counted_loop(f: &Function, l: Block) -> Option<CountedLoop> {
    let bd = &f.blocks[l.index()];
    if l == Block(0) || bd.unwind.is_some() {
        return None;
    }
    let Terminator::Branch(c, back, exit) = &bd.term else { return None };
    if back.block != l || exit.block == l {
        return None;
    }
    let local: HashSet<Value> =
        bd.params.iter().copied().chain(bd.insts.iter().filter_map(|i| f.insts[i.index()].result)).collect();
    let (iv, next, bound) = latch_test(f, *c, &local)?;
    let iv_pos = bd.params.iter().position(|&p| p == iv)?;
    if back.args.get(iv_pos) != Some(&next) {
        return None;
    }
    if bd.insts.iter().any(|i| matches!(f.insts[i.index()].kind, InstKind::Builtin(Builtin::PrangeLoop, _))) {
        return None;
    }
    Some(CountedLoop { block: l, iv, iv_pos, bound, local })
}

/// A latch's test `c = lt(next, n)` with `next = add(i, 1)` (either order), `next` defined in
/// the loop (`local`) and the int64 bound `n` outside it: `(i, next, n)`.
fn latch_test(f: &Function, c: Value, local: &HashSet<Value>) -> Option<(Value, Value, Value)> {
    let InstKind::Compare(CmpOp::Lt, next, bound) = f.def_inst(c)?.kind else { return None };
    if local.contains(&bound) || f.ty(bound) != &Type::I64 || !local.contains(&next) {
        return None;
    }
    let InstKind::Binary(BinaryOp::Add, x, y) = f.def_inst(next)?.kind else { return None };
    let iv = if f.const_int(y) == Some(1) {
        x
    } else if f.const_int(x) == Some(1) {
        y
    } else {
        return None;
    };
    (f.ty(iv) == &Type::I64).then_some((iv, next, bound))
}

/// Copies the instructions of `from` (all but `skip`) to the end of `to`, reading the values
/// `map` names as it says, and adds each copy's result to `map`.
pub(super) fn copy_insts(
    f: &mut Function,
    from: Block,
    to: Block,
    skip: &HashSet<Inst>,
    map: &mut HashMap<Value, Value>,
) {
    for i in f.blocks[from.index()].insts.clone() {
        if skip.contains(&i) {
            continue;
        }
        let d = f.insts[i.index()].clone();
        let mut kind = d.kind;
        kind.map_operands(|v| *map.get(&v).unwrap_or(&v));
        let ty = d.result.map(|r| f.ty(r).clone());
        if let Some(r) = f.push(to, kind, ty, d.span) {
            map.insert(d.result.expect("a result"), r);
        }
    }
}

/// The blocks of a loop to version: the header first, then the rest in reverse post-order.
/// One block (the front end's rotated loop, [`counted_loop`]) or an acyclic body with branches
/// (`if` inside the loop), whose only back edge is the latch's `lt(i + 1, n)` test.
struct Region {
    blocks: Vec<Block>,
    latch: Block,
    iv: Value,
    iv_pos: usize,
    bound: Value,
    /// Values the region defines (parameters and results).
    local: HashSet<Value>,
}

/// At most this many instructions are copied for a loop of several blocks.
const MAX_REGION_INSTS: usize = 400;

/// At most this many blocks (the loop's and those after its exits that read its values).
const MAX_REGION_BLOCKS: usize = 64;

/// A counted loop of several blocks headed by `h`: one entry edge at least, one back edge
/// from `latch`, which ends `br lt(i + 1, n), h(..., i + 1, ...), exit`, no inner loop, no
/// unwind edge and no `prange` marker.
fn counted_region(f: &Function, h: Block, rpo_pos: &[usize], preds: &[Vec<Block>], dom: &DomTree) -> Option<Region> {
    if h == Block(0) || rpo_pos[h.index()] == usize::MAX {
        return None;
    }
    let latches: Vec<Block> = preds[h.index()].iter().copied().filter(|&p| dom.dominates(h, p)).collect();
    let [latch] = latches[..] else { return None };
    if latch == h {
        return None;
    }
    let body = super::natural_loop(preds, h, &[latch]);
    let mut blocks: Vec<Block> = body.iter().copied().collect();
    blocks.sort_by_key(|b| rpo_pos[b.index()]);
    if blocks[0] != h {
        return None;
    }
    let mut count = 0;
    for &b in &blocks {
        let bd = &f.blocks[b.index()];
        if bd.unwind.is_some() {
            return None;
        }
        count += bd.insts.len();
        if bd.insts.iter().any(|i| matches!(f.insts[i.index()].kind, InstKind::Builtin(Builtin::PrangeLoop, _))) {
            return None;
        }
        // Acyclic apart from the back edge: every edge inside goes forward.
        for t in bd.succs() {
            if body.contains(&t.block) && t.block != h && rpo_pos[t.block.index()] <= rpo_pos[b.index()] {
                return None;
            }
            if t.block == h && b != latch {
                return None;
            }
        }
    }
    if count > MAX_REGION_INSTS {
        return None;
    }
    let mut local = HashSet::new();
    for &b in &blocks {
        let bd = &f.blocks[b.index()];
        local.extend(bd.params.iter().copied());
        local.extend(bd.insts.iter().filter_map(|i| f.insts[i.index()].result));
    }
    let Terminator::Branch(c, back, exit) = &f.blocks[latch.index()].term else { return None };
    if back.block != h || body.contains(&exit.block) {
        return None;
    }
    let (iv, next, bound) = latch_test(f, *c, &local)?;
    let iv_pos = f.blocks[h.index()].params.iter().position(|&p| p == iv)?;
    if back.args.get(iv_pos) != Some(&next) {
        return None;
    }
    Some(Region { blocks, latch, iv, iv_pos, bound, local })
}

fn candidate(f: &Function, l: Block, escapes: &HashMap<Value, Vec<Block>>, cfg: &Cfg) -> Option<Candidate> {
    let region = match counted_loop(f, l) {
        Some(CountedLoop { block, iv, iv_pos, bound, local }) => {
            Region { blocks: vec![block], latch: block, iv, iv_pos, bound, local }
        }
        None => counted_region(f, l, &cfg.rpo_pos, &cfg.preds, &cfg.dom)?,
    };
    let Region { mut blocks, latch, iv, iv_pos, bound, local } = region;
    let outside = |v: Value| !local.contains(&v);
    let def = |v: Value| f.def_inst(v).map(|d| &d.kind);
    // `i`, `i + k`, `k + i`, `i - k` with `k` from outside: the counter and its offset.
    let counter_form = |idx: Value| -> Option<Option<(Value, bool)>> {
        if idx == iv {
            return Some(None);
        }
        match def(idx) {
            Some(InstKind::Binary(BinaryOp::Add, a, k)) if *a == iv && outside(*k) => Some(Some((*k, false))),
            Some(InstKind::Binary(BinaryOp::Add, k, a)) if *a == iv && outside(*k) => Some(Some((*k, false))),
            Some(InstKind::Binary(BinaryOp::Sub, a, k)) if *a == iv && outside(*k) => Some(Some((*k, true))),
            _ => None,
        }
    };
    let mut dropped = Vec::new();
    for &b in &blocks {
        for &i in &f.blocks[b.index()].insts {
            let InstKind::CheckIndex(idx, len, _) = &f.insts[i.index()].kind else { continue };
            if !outside(*len) {
                continue;
            }
            let (index, unwrap) = if let Some(offset) = counter_form(*idx) {
                (Index::Counter(offset), None)
            } else if let Some((x, offset)) = python_wrap(f, *idx, *len).and_then(|x| Some((x, counter_form(x)?))) {
                // Python's wrap of a negative index, `x < 0 ? x + len : x`: `x` itself where
                // the test proves `x` in `[0, len)`.
                (Index::Counter(offset), Some((*idx, x)))
            } else if outside(*idx) {
                (Index::Invariant(*idx), None)
            } else {
                continue;
            };
            dropped.push(Dropped { inst: i, index, len: *len, unwrap });
        }
    }
    if dropped.is_empty() {
        return None;
    }
    // A value of the loop read outside it (a `prange` chunk's partial sum, read after its
    // loop) is passed through the exit edge instead, which needs an exit block that only the
    // loop enters: every block reading it is then reached through that block. (Loops of one
    // block only; a loop of several whose values are read after it is left alone.)
    let mut escaping: Vec<Value> = local.iter().copied().filter(|v| escapes.contains_key(v)).collect();
    escaping.sort_by_key(|v| v.index());
    if blocks.len() > 1 {
        // Blocks after an exit that read the loop's values (`break` under an `if`, passing the
        // counter on) and that only the loop reaches are copied with it.
        let mut inside: HashSet<Block> = blocks.iter().copied().collect();
        // Values whose readers are still to be looked at.
        let mut pending: Vec<Value> = escaping.clone();
        while let Some(v) = pending.pop() {
            let readers = escapes.get(&v).map(Vec::as_slice).unwrap_or_default();
            for &r in readers {
                if inside.contains(&r) || cfg.rpo_pos[r.index()] == usize::MAX {
                    continue;
                }
                let only_from_inside = matches!(cfg.preds[r.index()][..], [p] if inside.contains(&p));
                let bd = &f.blocks[r.index()];
                if !only_from_inside || bd.unwind.is_some() || blocks.len() > MAX_REGION_BLOCKS {
                    return None;
                }
                inside.insert(r);
                blocks.push(r);
                let defined =
                    bd.params.iter().copied().chain(bd.insts.iter().filter_map(|i| f.insts[i.index()].result));
                pending.extend(defined.filter(|d| escapes.contains_key(d)));
            }
        }
        escaping.clear();
    } else if !escaping.is_empty() {
        let bd = &f.blocks[l.index()];
        let Terminator::Branch(_, _, exit) = &bd.term else { return None };
        let entered_by = f.blocks.iter().flat_map(|b| b.succs()).filter(|c| c.block == exit.block).count();
        if entered_by != 1 || bd.params.iter().any(|p| escaping.contains(p)) {
            return None;
        }
    }
    Some(Candidate { block: l, blocks, latch, iv_pos, bound, dropped, escaping })
}

/// `x` when `v` is Python's wrap of a negative index into an axis of length `len`:
/// `select(lt(x, 0), add(x, len), x)`.
fn python_wrap(f: &Function, v: Value, len: Value) -> Option<Value> {
    let InstKind::Select(c, wrapped, x) = f.def_inst(v)?.kind else { return None };
    let InstKind::Compare(CmpOp::Lt, cx, z) = f.def_inst(c)?.kind else { return None };
    if cx != x || f.const_int(z) != Some(0) {
        return None;
    }
    match f.def_inst(wrapped)?.kind {
        InstKind::Binary(BinaryOp::Add, a, b) if (a == x && b == len) || (b == x && a == len) => Some(x),
        _ => None,
    }
}

/// The function's reverse post-order positions, predecessors and dominator tree.
struct Cfg {
    rpo_pos: Vec<usize>,
    preds: Vec<Vec<Block>>,
    dom: DomTree,
}

impl Cfg {
    fn new(f: &Function) -> Cfg {
        let (rpo, dom) = DomTree::with_rpo(f);
        let mut rpo_pos = vec![usize::MAX; f.blocks.len()];
        for (k, b) in rpo.iter().enumerate() {
            rpo_pos[b.index()] = k;
        }
        let preds = super::predecessors(f, &rpo);
        Cfg { rpo_pos, preds, dom }
    }
}

/// Passes `c.escaping` (values of the loop read after it) through the loop's exit edge as new
/// parameters of its exit block, which only the loop enters, and reads them there and in every
/// block after it.
fn pass_escaping(f: &mut Function, c: &Candidate) {
    let l = c.block;
    let Terminator::Branch(_, _, exit) = f.blocks[l.index()].term.clone() else { return };
    let mut rename: HashMap<Value, Value> = HashMap::new();
    for &v in &c.escaping {
        let ty = f.ty(v).clone();
        rename.insert(v, f.add_block_param(exit.block, ty));
    }
    for (b, bd) in f.blocks.iter_mut().enumerate() {
        if b == l.index() {
            continue;
        }
        for &i in &bd.insts {
            f.insts[i.index()].kind.map_operands(|v| *rename.get(&v).unwrap_or(&v));
        }
        bd.term.map_operands(|v| *rename.get(&v).unwrap_or(&v));
    }
    if let Terminator::Branch(_, _, e) = &mut f.blocks[l.index()].term {
        e.args.extend(c.escaping.iter().copied());
    }
}

/// Copies the loop without its dropped checks and routes its entry edges through a test that
/// picks the copy when every dropped check would pass.
fn version(f: &mut Function, c: &Candidate) {
    let l = c.block;
    pass_escaping(f, c);
    let span = f.blocks[c.latch.index()].term_span;
    let param_types: Vec<Type> = f.blocks[l.index()].params.iter().map(|p| f.ty(*p).clone()).collect();

    // The copy: every block's parameters first (a back edge passes values defined later),
    // then the instructions in reverse post-order, then the terminators.
    let mut map: HashMap<Value, Value> = HashMap::new();
    let mut copies: HashMap<Block, Block> = HashMap::new();
    for &b in &c.blocks {
        let nb = f.add_block();
        copies.insert(b, nb);
        for p in f.blocks[b.index()].params.clone() {
            let ty = f.ty(p).clone();
            map.insert(p, f.add_block_param(nb, ty));
        }
    }
    let drop: HashSet<Inst> = c.dropped.iter().map(|d| d.inst).collect();
    let unwrap: HashMap<Value, Value> = c.dropped.iter().filter_map(|d| d.unwrap).collect();
    for &b in &c.blocks {
        let to = copies[&b];
        for i in f.blocks[b.index()].insts.clone() {
            if drop.contains(&i) {
                continue;
            }
            let d = f.insts[i.index()].clone();
            if let Some(x) = d.result.and_then(|r| unwrap.get(&r)) {
                let x = *map.get(x).unwrap_or(x);
                map.insert(d.result.expect("a result"), x);
                continue;
            }
            let mut kind = d.kind;
            kind.map_operands(|v| *map.get(&v).unwrap_or(&v));
            let ty = d.result.map(|r| f.ty(r).clone());
            if let Some(r) = f.push(to, kind, ty, d.span) {
                map.insert(d.result.expect("a result"), r);
            }
        }
    }
    for &b in &c.blocks {
        let mut term = f.blocks[b.index()].term.clone();
        term.map_operands(|v| *map.get(&v).unwrap_or(&v));
        for t in term.targets_mut() {
            if let Some(&nb) = copies.get(&t.block) {
                t.block = nb;
            }
        }
        let tspan = f.blocks[b.index()].term_span;
        f.terminate(copies[&b], term, tspan);
    }
    let copy = copies[&l];

    // The test, on every edge that enters the loop from outside.
    let test = f.add_block();
    let params: Vec<Value> = param_types.iter().map(|t| f.add_block_param(test, t.clone())).collect();
    let s = params[c.iv_pos];
    let n = c.bound;
    let emit = |f: &mut Function, kind: InstKind, ty: Type| f.push(test, kind, Some(ty), span).expect("a value");
    let zero = emit(f, InstKind::Const(Const::Int(0)), Type::I64);
    let mut ok = emit(f, InstKind::Compare(CmpOp::Le, zero, s), Type::BOOL);
    let runs = emit(f, InstKind::Compare(CmpOp::Lt, s, n), Type::BOOL);
    ok = emit(f, InstKind::Binary(BinaryOp::BitAnd, ok, runs), Type::BOOL);
    let mut neg_s = None;
    for d in &c.dropped {
        let offset = match d.index {
            Index::Counter(offset) => offset,
            Index::Invariant(k) => {
                // `0 <= k < len`, the check itself (the loop runs at least once).
                let lo = emit(f, InstKind::Compare(CmpOp::Le, zero, k), Type::BOOL);
                let hi = emit(f, InstKind::Compare(CmpOp::Lt, k, d.len), Type::BOOL);
                let both = emit(f, InstKind::Binary(BinaryOp::BitAnd, lo, hi), Type::BOOL);
                ok = emit(f, InstKind::Binary(BinaryOp::BitAnd, ok, both), Type::BOOL);
                continue;
            }
        };
        let within = emit(f, InstKind::Compare(CmpOp::Le, n, d.len), Type::BOOL);
        ok = emit(f, InstKind::Binary(BinaryOp::BitAnd, ok, within), Type::BOOL);
        if let Some((k, sub)) = offset {
            // k + i for i in [s, n): the offset k (negated for `i - k`) in [-s, len - n].
            let k = if sub { emit(f, InstKind::Binary(BinaryOp::Sub, zero, k), Type::I64) } else { k };
            // `-k` of i64::MIN wraps to itself, which then fails `-s <= k` (s >= 0).
            let neg_s = *neg_s.get_or_insert_with(|| emit(f, InstKind::Binary(BinaryOp::Sub, zero, s), Type::I64));
            let room = emit(f, InstKind::Binary(BinaryOp::Sub, d.len, n), Type::I64);
            let lo = emit(f, InstKind::Compare(CmpOp::Le, neg_s, k), Type::BOOL);
            let hi = emit(f, InstKind::Compare(CmpOp::Le, k, room), Type::BOOL);
            let both = emit(f, InstKind::Binary(BinaryOp::BitAnd, lo, hi), Type::BOOL);
            ok = emit(f, InstKind::Binary(BinaryOp::BitAnd, ok, both), Type::BOOL);
        }
    }
    let fast = BlockCall { block: copy, args: params.clone() };
    let slow = BlockCall { block: l, args: params };
    f.terminate(test, Terminator::Branch(ok, fast, slow), span);

    let region: HashSet<Block> = c.blocks.iter().copied().chain(copies.values().copied()).chain([test]).collect();
    for (b, bd) in f.blocks.iter_mut().enumerate() {
        if region.contains(&Block(b as u32)) {
            continue;
        }
        for call in bd.succs_mut() {
            if call.block == l {
                call.block = test;
            }
        }
    }
}
