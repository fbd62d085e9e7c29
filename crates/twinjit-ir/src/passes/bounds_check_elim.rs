//! `bounds_check_elim`: removes `checkindex` (and the negative-index wrap before it) where the
//! index is provably in `[0, len)` (also the wrap of `i - 1` for `i` in range: `a[i - 1]` of a
//! periodic stencil), and `checknonzero` already done by a dominating check or of a value that
//! bounds a non-negative counter (`m` inside `for j in range(m)`); turns
//! `x % m` into `x >= m ? x - m : x` when `0 <= x < 2m` (a counter wrapping around a
//! dimension, as in periodic boundaries), which needs no division.
//!
//! Facts come from: constants, dimensions (never negative), a kernel's thread positions
//! (`cuda.grid`, `cuda.gridsize`, `cuda.threadIdx.x`, ...: never negative, below 2^42), loop
//! counters that start non-negative and grow by a positive constant (or by a non-negative value
//! below 2^42 while they stay below a bound under 2^42: a grid-stride loop
//! `while i < n: ...; i += cuda.gridsize(1)` once `n` is known small), Python `%` by a positive
//! value (result in `[0, m)`), and conditions of dominating branches (`i < n`, `i >= 0`, ...).
//! Values are compared by identity, so `gvn` runs first. Facts are only ever used where the
//! block is dominated by what established them.
//!
//! [`BoundsCheckElimIndex32`] is the same pass for code that only ever sees dimensions below
//! 2^31 (a CUDA kernel's `index32` launch variant): there a dimension is a small bound too, so
//! the counter of a grid-stride loop over an array is proven non-negative (the sum `i + stride`
//! cannot wrap) and its negative-index wrap goes.

use super::Pass;
use crate::function::*;
use crate::types::Type;
use crate::verify::DomTree;
use hashbrown::{HashMap, HashSet};

/// The pass.
pub struct BoundsCheckElim;

/// The pass, for code whose arrays all have dimensions below 2^31 (see the module docs).
pub struct BoundsCheckElimIndex32;

/// Below this, a sum of two non-negative values cannot wrap an `int64`.
const SMALL: u64 = 1 << 42;

/// A relation `a < b` (strict) or `a <= b`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Rel {
    Lt(Value, Value),
    Le(Value, Value),
}

struct Facts<'f> {
    f: &'f Function,
    dom: DomTree,
    /// Relations established at the start of each block (from dominating branch edges).
    edge_facts: Vec<Vec<Rel>>,
    nonneg: HashSet<Value>,
    /// Values known to be at least 1 (loop counters of `range(1, n)`), whose `- 1` is
    /// non-negative (`out[i - 1]` needs no negative-index wrap).
    positive: HashSet<Value>,
    /// `v` is in `[0, m)`.
    below: HashMap<Value, Value>,
    /// Every dimension is below 2^31.
    small_dims: bool,
}

impl Facts<'_> {
    fn const_int(&self, v: Value) -> Option<i64> {
        self.f.const_int(v)
    }

    fn is_nonneg(&self, v: Value) -> bool {
        self.nonneg.contains(&v) || self.const_int(v).is_some_and(|k| k >= 0) || self.thread_position(v)
    }

    /// `v` is a kernel's thread position (`cuda.grid(1)`, `cuda.gridsize(1)`, an element of
    /// `cuda.grid(2)`, a special register such as `cuda.threadIdx.x`, or one of these widened to
    /// `int64`): never negative and below 2^42 (a grid has under 2^31 blocks of at most 1024
    /// threads).
    fn thread_position(&self, v: Value) -> bool {
        use crate::builtins::KernelOp;
        let position = |k: Option<&InstKind>| {
            matches!(k, Some(InstKind::Builtin(b, _))
                if matches!(b.kernel_op(), Some(KernelOp::Grid | KernelOp::Gridsize | KernelOp::Register(_))))
        };
        let def = |x: Value| self.f.def_inst(x).map(|d| &d.kind);
        match def(v) {
            k @ Some(InstKind::Builtin(..)) => position(k),
            Some(InstKind::TupleGet(t, _)) => position(def(*t)),
            Some(InstKind::Cast(_, x)) => *self.f.ty(v) == Type::I64 && self.thread_position(*x),
            _ => false,
        }
    }

    /// `|v| < 2^42`: a constant, a thread position, an integer of at most 32 bits widened, or
    /// (when every dimension is below 2^31) a dimension.
    fn small(&self, v: Value) -> bool {
        match self.f.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Int(k))) => k.unsigned_abs() < SMALL,
            Some(InstKind::Dim(..)) => self.small_dims,
            Some(InstKind::Cast(_, x)) if self.f.ty(*x).scalar().is_some_and(|s| s.is_int() && s.bits() <= 32) => true,
            _ => self.thread_position(v),
        }
    }

    /// `a` is `p + s` with `s` non-negative and small, passed from block `from` where `p < n`
    /// holds for a small `n`: the step of a counter that stays below a small bound, whose sum
    /// cannot wrap (`i += cuda.gridsize(1)` under `while i < n`).
    fn small_step(&self, a: Value, p: Value, from: Block) -> bool {
        let Some(InstKind::Binary(BinaryOp::Add, x, y)) = self.f.def_inst(a).map(|d| &d.kind) else { return false };
        let s = if *x == p {
            *y
        } else if *y == p {
            *x
        } else {
            return false;
        };
        self.is_nonneg(s)
            && self.small(s)
            && self.rels_at(from).iter().any(|r| matches!(r, Rel::Lt(q, n) if *q == p && self.small(*n)))
    }

    fn is_positive(&self, v: Value) -> bool {
        self.positive.contains(&v) || self.const_int(v).is_some_and(|k| k >= 1)
    }

    /// Relations known at the start of block `b` (its own edge facts and its dominators').
    fn rels_at(&self, b: Block) -> Vec<Rel> {
        let mut out = Vec::new();
        let mut cur = Some(b);
        while let Some(c) = cur {
            out.extend(self.edge_facts[c.index()].iter().copied());
            cur = match self.dom.idom[c.index()] {
                Some(d) if d != c => Some(d),
                _ => None,
            };
        }
        out
    }

    /// `v >= 0` here: known globally, or from a dominating condition (`0 <= v`, `-1 < v`).
    fn nonneg_at(&self, v: Value, rels: &[Rel]) -> bool {
        self.is_nonneg(v)
            || rels.iter().any(|r| match r {
                Rel::Le(z, x) => *x == v && self.const_int(*z).is_some_and(|k| k >= 0),
                Rel::Lt(z, x) => *x == v && self.const_int(*z).is_some_and(|k| k >= -1),
            })
    }

    /// `x < 2m`: `x` is `c + 1` with `c < m` (or `x < m` outright).
    fn below_twice(&self, x: Value, m: Value, rels: &[Rel]) -> bool {
        rels.contains(&Rel::Lt(x, m)) || self.below.get(&x) == Some(&m) || self.at_most(x, m, rels)
    }

    /// `x` is `c + 1` with `c < m`: then `x <= m` (the neighbour `(k + 1) % m` of a counter).
    fn at_most(&self, x: Value, m: Value, rels: &[Rel]) -> bool {
        match self.f.def_inst(x).map(|d| &d.kind) {
            Some(InstKind::Binary(BinaryOp::Add, c, k)) if self.const_int(*k) == Some(1) => {
                rels.contains(&Rel::Lt(*c, m)) || self.below.get(c) == Some(&m)
            }
            _ => false,
        }
    }

    /// `v` is Python's wrap of `i - 1` (`i - 1 < 0 ? i - 1 + len : i - 1`, the neighbour
    /// `a[i - 1]` of a periodic stencil) with `i` in `[0, len)`: then `v` is in `[0, len)`.
    fn wrapped_prev(&self, v: Value, len: Value, rels: &[Rel]) -> bool {
        let def = |x: Value| self.f.def_inst(x).map(|d| &d.kind);
        let Some(InstKind::Select(c, wrapped, x)) = def(v) else { return false };
        let Some(InstKind::Compare(CmpOp::Lt, cx, z)) = def(*c) else { return false };
        if cx != x || self.const_int(*z) != Some(0) {
            return false;
        }
        match def(*wrapped) {
            Some(InstKind::Binary(BinaryOp::Add, a, b)) if (a == x && *b == len) || (b == x && *a == len) => {}
            _ => return false,
        }
        let i = match def(*x) {
            Some(InstKind::Binary(BinaryOp::Sub, i, one)) if self.const_int(*one) == Some(1) => *i,
            Some(InstKind::Binary(BinaryOp::Add, i, m)) if self.const_int(*m) == Some(-1) => *i,
            _ => return false,
        };
        self.in_range(i, len, rels)
    }

    fn in_range(&self, i: Value, len: Value, rels: &[Rel]) -> bool {
        if !self.nonneg_at(i, rels) {
            return false;
        }
        if self.below.get(&i) == Some(&len) {
            return true;
        }
        if rels.contains(&Rel::Lt(i, len)) {
            return true;
        }
        if self.below_len_minus(i, len, 0, rels) {
            return true;
        }
        // `i = x + c` with `x < len - k` and `0 <= c <= k` (`a[i + 1]` for `i` in `range(n - 1)`).
        if let Some(InstKind::Binary(BinaryOp::Add, a, b)) = self.f.def_inst(i).map(|d| &d.kind) {
            for (x, c) in [(*a, *b), (*b, *a)] {
                if let Some(c) = self.const_int(c).filter(|&c| c >= 0) {
                    if self.below_len_minus(x, len, c, rels) {
                        return true;
                    }
                }
            }
        }
        // i < c (constant) and c <= len's known lower bound is not tracked; i <= x < len is.
        rels.iter().any(|r| match r {
            Rel::Le(a, x) if *a == i => rels.contains(&Rel::Lt(*x, len)) || self.below.get(x) == Some(&len),
            _ => false,
        })
    }
}

impl Facts<'_> {
    /// `x < len - k` (for `k >= 0`): a relation `x < s` with `s` being `len - j` or `len + -j`
    /// for a constant `j >= k`.
    fn below_len_minus(&self, x: Value, len: Value, k: i64, rels: &[Rel]) -> bool {
        rels.iter().any(|r| {
            let Rel::Lt(a, s) = *r else { return false };
            if a != x {
                return false;
            }
            match self.f.def_inst(s).map(|d| &d.kind) {
                Some(InstKind::Binary(BinaryOp::Sub, l, j)) => *l == len && self.const_int(*j).is_some_and(|j| j >= k),
                Some(InstKind::Binary(BinaryOp::Add, l, j)) => {
                    *l == len && self.const_int(*j).is_some_and(|j| j.checked_neg().is_some_and(|j| j >= k))
                }
                _ => false,
            }
        })
    }
}

fn compare_rel(op: CmpOp, a: Value, b: Value, taken: bool) -> Option<Rel> {
    // The relation that holds when `a op b` is `taken`.
    Some(match (op, taken) {
        (CmpOp::Lt, true) | (CmpOp::Ge, false) => Rel::Lt(a, b),
        (CmpOp::Le, true) | (CmpOp::Gt, false) => Rel::Le(a, b),
        (CmpOp::Gt, true) | (CmpOp::Le, false) => Rel::Lt(b, a),
        (CmpOp::Ge, true) | (CmpOp::Lt, false) => Rel::Le(b, a),
        _ => return None,
    })
}

/// The relations that hold where condition `c` is `taken`: a signed comparison, or an `and`
/// that holds (`select c1, c2, c1`: both hold) or an `or` that fails (`select c1, c1, c2`:
/// both fail), as a chained comparison `0 <= b < n` or a condition if-converted from
/// nested branches leaves them; `depth` bounds the walk.
fn cond_rels(f: &Function, c: Value, taken: bool, depth: u32, out: &mut Vec<Rel>) {
    match f.def_inst(c).map(|d| &d.kind) {
        Some(InstKind::Compare(op, x, y)) if f.ty(*x).scalar().is_some_and(|s| s.is_signed()) => {
            out.extend(compare_rel(*op, *x, *y, taken));
        }
        Some(InstKind::Select(c1, a, b)) if depth > 0 => {
            let (c1, a, b) = (*c1, *a, *b);
            // `c1 and a`, taken: both hold; `c1 or b`, not taken: both fail.
            if (taken && b == c1) || (!taken && a == c1) {
                cond_rels(f, c1, taken, depth - 1, out);
                cond_rels(f, if taken { a } else { b }, taken, depth - 1, out);
            }
        }
        _ => {}
    }
}

impl Pass for BoundsCheckElim {
    fn name(&self) -> &'static str {
        "bounds_check_elim"
    }

    fn run(&self, f: &mut Function) -> bool {
        run(f, false)
    }
}

impl Pass for BoundsCheckElimIndex32 {
    fn name(&self) -> &'static str {
        "bounds_check_elim_index32"
    }

    fn run(&self, f: &mut Function) -> bool {
        run(f, true)
    }
}

fn run(f: &mut Function, small_dims: bool) -> bool {
    let (rpo, dom) = DomTree::with_rpo(f);
    let mut preds: Vec<Vec<Block>> = vec![Vec::new(); f.blocks.len()];
    for &b in &rpo {
        for t in f.blocks[b.index()].succs() {
            preds[t.block.index()].push(b);
        }
    }
    // Edge facts: a block whose only predecessor branches to it on a comparison (or on an
    // `and` of comparisons lowered as nested branches, which this handles one by one).
    let mut edge_facts = vec![Vec::new(); f.blocks.len()];
    for &b in &rpo {
        if let [p] = preds[b.index()].as_slice() {
            if let Terminator::Branch(c, t, e) = &f.blocks[p.index()].term {
                // (A handler reached by the unwind edge learns nothing from the branch.)
                if t.block == e.block || (t.block != b && e.block != b) {
                    continue;
                }
                cond_rels(f, *c, t.block == b, 4, &mut edge_facts[b.index()]);
            }
        }
    }
    // Block parameters whose every incoming edge is a branch taken on `arg < S` (rotated
    // loops: the pre-header test and the latch test) satisfy `param < S`.
    for &b in &rpo {
        let ps = &preds[b.index()];
        if ps.len() < 2 {
            continue;
        }
        let nparams = f.blocks[b.index()].params.len();
        for k in 0..nparams {
            let mut common: Option<Rel> = None;
            let mut ok = true;
            for p in ps {
                let Terminator::Branch(c, t, e) = &f.blocks[p.index()].term else {
                    ok = false;
                    break;
                };
                if t.block == e.block || (t.block != b && e.block != b) {
                    ok = false;
                    break;
                }
                let (taken, call) = if t.block == b { (true, t) } else { (false, e) };
                let rel = match f.def_inst(*c) {
                    Some(InstData { kind: InstKind::Compare(op, x, y), .. }) => compare_rel(*op, *x, *y, taken),
                    _ => None,
                };
                // Re-express the edge's relation on the argument as one on the parameter.
                let arg = call.args[k];
                let on_param = match rel {
                    Some(Rel::Lt(x, s)) if x == arg => Some(Rel::Lt(f.blocks[b.index()].params[k], s)),
                    Some(Rel::Le(x, s)) if x == arg => Some(Rel::Le(f.blocks[b.index()].params[k], s)),
                    _ => None,
                };
                match (on_param, common) {
                    (Some(r), None) => common = Some(r),
                    (Some(r), Some(c)) if r == c => {}
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            if let (true, Some(r)) = (ok, common) {
                edge_facts[b.index()].push(r);
            }
        }
    }
    let mut facts = Facts {
        f,
        dom,
        edge_facts,
        nonneg: HashSet::new(),
        positive: HashSet::new(),
        below: HashMap::new(),
        small_dims,
    };
    // Where each value passed `checknonzero` (block, position in the block).
    let mut nonzero_at: Vec<(Value, Block, usize)> = Vec::new();
    for &b in &rpo {
        for (pos, &i) in f.blocks[b.index()].insts.iter().enumerate() {
            if let InstKind::CheckNonZero(v) = f.insts[i.index()].kind {
                nonzero_at.push((v, b, pos));
            }
        }
    }
    let checked_nonzero = |facts: &Facts, v: Value, b: Block, pos: usize| {
        nonzero_at
            .iter()
            .any(|&(w, cb, cp)| w == v && ((cb == b && cp < pos) || (cb != b && facts.dom.dominates(cb, b))))
    };
    // Non-negative values and `[0, m)` values, to a fixpoint (loop counters depend on
    // their own increments). One sweep in reverse post-order, parameters before
    // instructions, settles straight-line code; loops take one more sweep.
    loop {
        let mut changed = false;
        for &b in &rpo {
            // Block parameters: non-negative if every incoming argument is, or is the
            // parameter itself plus a small non-negative constant (a loop counter).
            for (k, &p) in f.blocks[b.index()].params.iter().enumerate() {
                if (facts.nonneg.contains(&p) && facts.positive.contains(&p))
                    || *f.ty(p) != Type::I64
                    || preds[b.index()].is_empty()
                {
                    continue;
                }
                // Every incoming argument is known (`known`), or is the parameter itself plus
                // a small non-negative constant (a loop counter's increment).
                let every_arg = |known: &dyn Fn(Value) -> bool| {
                    let ok = |a: Value, pb: Block| {
                        a == p
                            || known(a)
                            || matches!(f.def_inst(a).map(|d| &d.kind),
                                    Some(InstKind::Binary(BinaryOp::Add, x, c))
                                        if *x == p && facts.const_int(*c).is_some_and(|k| (0..=1 << 32).contains(&k)))
                            || facts.small_step(a, p, pb)
                    };
                    preds[b.index()].iter().all(|&pb| {
                        f.blocks[pb.index()].succs().iter().filter(|t| t.block == b).all(|t| ok(t.args[k], pb))
                    })
                };
                let (nonneg, positive) = (every_arg(&|a| facts.is_nonneg(a)), every_arg(&|a| facts.is_positive(a)));
                if nonneg && facts.nonneg.insert(p) {
                    changed = true;
                }
                // At least 1 likewise (a counter of `range(1, n)`).
                if positive && facts.positive.insert(p) {
                    changed = true;
                }
            }
            let bd = &f.blocks[b.index()];
            for (pos, &i) in bd.insts.iter().enumerate() {
                let d = &f.insts[i.index()];
                let Some(r) = d.result else { continue };
                if facts.nonneg.contains(&r) || *f.ty(r) != Type::I64 {
                    continue;
                }
                let nn = match &d.kind {
                    InstKind::Dim(..) => true,
                    // Python `%` by a divisor that is non-negative and passed
                    // `checknonzero` is in [0, m).
                    InstKind::Binary(BinaryOp::Mod, _, m)
                        if facts.is_nonneg(*m) && checked_nonzero(&facts, *m, b, pos) =>
                    {
                        facts.below.insert(r, *m);
                        true
                    }
                    // A non-negative value plus a small non-negative constant: loop
                    // counters' increments (they cannot wrap before the loop bound stops
                    // them).
                    InstKind::Binary(BinaryOp::Add, a, c) => {
                        facts.is_nonneg(*a) && facts.const_int(*c).is_some_and(|k| (0..=1 << 32).contains(&k))
                            || facts.is_positive(*a) && facts.const_int(*c) == Some(-1)
                    }
                    // `i - 1` of `i >= 1`.
                    InstKind::Binary(BinaryOp::Sub, a, c) => facts.is_positive(*a) && facts.const_int(*c) == Some(1),
                    InstKind::Select(_, a, c) => facts.is_nonneg(*a) && facts.is_nonneg(*c),
                    _ => false,
                };
                if nn {
                    facts.nonneg.insert(r);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Decide what to drop (facts borrow the function), then rewrite.
    let mut remove: HashSet<Inst> = HashSet::new();
    let mut replace: HashMap<Value, Value> = HashMap::new();
    let mut nonzero_checked: Vec<(Value, Block)> = Vec::new();
    // The blocks where each (index, length, axis) check stands (keyed, so the pass stays
    // near-linear in functions with thousands of checks).
    let mut index_checked: HashMap<(Value, Value, u8), Vec<Block>> = HashMap::new();
    let mut mod_rewrites: Vec<(Inst, Value, Value, bool)> = Vec::new();
    for &b in &rpo {
        let rels = facts.rels_at(b);
        for &inst in &f.blocks[b.index()].insts {
            let d = &f.insts[inst.index()];
            let mut kind = d.kind.clone();
            kind.map_operands(|v| *replace.get(&v).unwrap_or(&v));
            match &kind {
                // select(i < 0, i + len, i) with i >= 0 is i.
                InstKind::Select(c, _, x) if facts.nonneg_at(*x, &rels) => {
                    if let Some(InstData { kind: InstKind::Compare(CmpOp::Lt, i, z), .. }) = f.def_inst(*c) {
                        if i == x && facts.const_int(*z) == Some(0) {
                            if let Some(r) = d.result {
                                replace.insert(r, *x);
                                remove.insert(inst);
                            }
                        }
                    }
                }
                InstKind::CheckIndex(i, len, _)
                    if facts.in_range(*i, *len, &rels) || facts.wrapped_prev(*i, *len, &rels) =>
                {
                    remove.insert(inst);
                }
                // The same check already passed on every path here (`a[i]` read in a
                // condition and again in its branch).
                InstKind::CheckIndex(i, len, axis) => {
                    let at = index_checked.entry((*i, *len, *axis)).or_default();
                    if at.iter().any(|&db| facts.dom.dominates(db, b)) {
                        remove.insert(inst);
                    } else {
                        at.push(b);
                    }
                }
                // `x % m` with m > 0 and 0 <= x < 2m (a counter plus one, wrapping around
                // a dimension): no division needed.
                InstKind::Binary(BinaryOp::Mod, x, m)
                    if d.result.is_some_and(|r| facts.below.get(&r) == Some(m)) && facts.nonneg_at(*x, &rels) =>
                {
                    if rels.contains(&Rel::Lt(*x, *m)) {
                        replace.insert(d.result.expect("checked"), *x);
                        remove.insert(inst);
                    } else if facts.below_twice(*x, *m, &rels) {
                        mod_rewrites.push((inst, *x, *m, facts.at_most(*x, *m, &rels)));
                    }
                }
                InstKind::CheckNonZero(v) if nonzero_constant(f, *v) => {
                    remove.insert(inst);
                }
                InstKind::CheckNonZero(v) => {
                    // `0 <= x < v` here (`v` bounds a loop counter: `for j in range(m)`).
                    let positive =
                        rels.iter().any(|r| matches!(r, Rel::Lt(x, w) if w == v && facts.nonneg_at(*x, &rels)));
                    if positive || nonzero_checked.iter().any(|(w, db)| w == v && facts.dom.dominates(*db, b)) {
                        remove.insert(inst);
                    } else {
                        nonzero_checked.push((*v, b));
                    }
                }
                _ => {}
            }
        }
    }
    drop(facts);
    if remove.is_empty() && mod_rewrites.is_empty() {
        return false;
    }
    for (inst, x, m, at_most) in mod_rewrites {
        // `0 <= x < 2m`: `x - m` where `x >= m`; `0 <= x <= m`: `0` where `x == m` (one
        // compare and a conditional move of zero).
        let span = f.insts[inst.index()].span;
        let (cmp, other) = if at_most {
            (CmpOp::Eq, InstKind::Const(Const::Int(0)))
        } else {
            (CmpOp::Ge, InstKind::Binary(BinaryOp::Sub, x, m))
        };
        let ge = f.make_inst(InstKind::Compare(cmp, x, m), Some(Type::BOOL), span);
        let sub = f.make_inst(other, Some(Type::I64), span);
        let (gev, subv) = (f.insts[ge.index()].result.expect("r"), f.insts[sub.index()].result.expect("r"));
        f.insts[inst.index()].kind = InstKind::Select(gev, subv, x);
        for blk in &mut f.blocks {
            if let Some(pos) = blk.insts.iter().position(|&i| i == inst) {
                blk.insts.insert(pos, sub);
                blk.insts.insert(pos, ge);
            }
        }
    }
    for blk in &mut f.blocks {
        blk.insts.retain(|i| !remove.contains(i));
        blk.map_end_operands(|v| *replace.get(&v).unwrap_or(&v));
    }
    for inst in &mut f.insts {
        inst.kind.map_operands(|v| *replace.get(&v).unwrap_or(&v));
    }
    true
}

/// A constant other than zero, also through a cast to a float (`np.float32(0.25)`).
fn nonzero_constant(f: &Function, v: Value) -> bool {
    match f.def_inst(v).map(|d| &d.kind) {
        Some(InstKind::Const(Const::Int(k))) => *k != 0,
        Some(InstKind::Const(Const::Float(x))) => *x != 0.0,
        Some(InstKind::Cast(s, x)) if s.is_float() => match f.def_inst(*x).map(|d| &d.kind) {
            // Large enough not to round to zero in float32.
            Some(InstKind::Const(Const::Float(c))) => (*c as f32) != 0.0,
            Some(InstKind::Const(Const::Int(k))) => *k != 0,
            _ => false,
        },
        _ => false,
    }
}
