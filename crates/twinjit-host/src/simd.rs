//! Loop vectorisation on the host: which counted loops run two (float64) or four (float32)
//! iterations at a time in Cranelift's 128-bit vectors. This module decides; `lower.rs` emits.
//!
//! A loop qualifies when it is an elementwise loop in one of the two shapes the IR has:
//! - **rotated** (what the front end writes for `for i in range(a, n)`): one block with the
//!   induction variable as its only parameter, ending `br lt(i + 1, n), header(i + 1), exit`;
//! - **guarded** (what the array-expression rewrite writes): a header `br lt(i, n), body, exit`
//!   and one body block ending `jump header(i + 1)`;
//!
//! and every instruction of its work is one of: a constant, or an arithmetic operation,
//! conversion, comparison or select of loop-invariant values (computed once per vector step, as
//! a scalar); an integer offset `i + k` or `k + i` or `i - k` with `k` invariant (the same per
//! lane up to the lane's index); a load or store of an element at such an offset of an
//! invariant array; on float lanes `+ - * /`, unary minus, `sqrt`, `abs`; on int64 lanes
//! `+ - *`, `& | ^`, unary minus and `~` (which wrap, as Numba's do); a comparison of lanes (a
//! mask) and a select by a mask. The vector values have one size, so one number of lanes
//! (float64 values beside int64 counts, float32 alone). Nothing else is allowed in the loop (no
//! checks, calls or other loop-carried values), and no value of the loop is used after it,
//! except:
//!
//! **Reductions**: a header parameter `s` besides the induction variable whose back-edge value
//! is `s op x` (`x` a vector or invariant value), or `select(c, s op x, s)` (what `if_convert`
//! makes of `if c: s += x`; the lanes where `c` is false add the identity), and which nothing
//! else in the loop reads; the rotated shape's exit edge may pass the updated value on, the
//! guarded shape's exit reads `s`. `op` is `+ * & | ^` or `s - x` on int64 (exact in any order:
//! the operations wrap, so they are associative), and `+ - *` on floats only in a
//! `fastmath=True` function (reassociation is what fastmath allows, as LLVM's `reassoc` flag
//! lets Numba's loops reassociate). The vector loop keeps one accumulator vector per reduction
//! (four in the unrolled loop, so that the float additions do not wait on each other),
//! starting at the operation's identity; after it the lanes are combined and then with the
//! value `s` had on entry, and the scalar loop finishes the last iterations from there.
//!
//! Because every lane computes exactly the scalar operation on the same operands, the results
//! of elementwise work are bit-identical to the scalar loop's (no reassociation, no
//! contraction); integer reductions are exact too. A flat offset
//! that grows by one element per iteration addresses consecutive elements whatever the array's
//! layout, so no contiguity check is needed. The one run-time condition is memory: two accesses
//! with different (array, offset) pairs, one of them a store, could overlap within one vector
//! step (`a[i + 1] = a[i] * 2`, or a view of the same buffer), which reorders a store and a
//! load of one element. The vector loop runs only when every such pair's addresses are equal
//! or at least a vector apart; otherwise, and for the last iterations (fewer than a vector),
//! the scalar loop runs.

use hashbrown::HashMap;
use twinjit_ir::builtins::Intrinsic;
use twinjit_ir::{
    BinaryOp, Block, BlockCall, CmpOp, Function, Inst, InstKind, Lowering, Scalar, Terminator, Type, UnaryOp, Value,
    ValueDef,
};

/// How the vector loop computes a value of the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// The same for every lane: one scalar per vector step (splatted where a vector needs it).
    Inv,
    /// An integer element offset: lane 0's; lane `k` is it plus `k`.
    Off,
    /// A vector of one value per lane (or a store).
    Vec,
    /// A reduction's update (`s op x`): one accumulator vector per reduction.
    Red,
}

/// A reduction of a vectorised loop (see the module's comment).
pub(crate) struct Reduction {
    /// The header parameter (its position among the header's parameters is `param_index`).
    pub param: Value,
    pub param_index: usize,
    /// The update instruction (`s op x`, or the select of a conditional update) and the value
    /// `x` (a vector value or an invariant).
    pub update: Inst,
    pub x: Value,
    /// The lane operation (`s - x` accumulates `-x`: its lanes are combined by adding).
    pub op: BinaryOp,
    /// A conditional update `select(c, s op x, s)` (what `if_convert` makes of `if c: s += x`):
    /// the condition `c` (a vector mask), whether the update is taken where it is true, and the
    /// `s op x` instruction (which has no vector code of its own: the lanes where the update
    /// is not taken add the identity).
    pub cond: Option<(Value, bool, Inst)>,
    /// The accumulator's element type.
    pub scalar: Scalar,
}

impl Reduction {
    /// How the lanes, the accumulator copies and the entry value are combined.
    pub fn combine(&self) -> BinaryOp {
        if self.op == BinaryOp::Sub {
            BinaryOp::Add
        } else {
            self.op
        }
    }
}

/// A loop the host lowers with a vector loop in front of the scalar one.
pub(crate) struct VecLoop {
    pub header: Block,
    /// The block with the loop's work (the header itself in the rotated shape).
    pub work_block: Block,
    /// The one predecessor outside the loop; its edge to the header enters the vector loop.
    pub pre: Block,
    /// The induction variable (the header's parameter) and its bound.
    pub iv: Value,
    pub bound: Value,
    /// The rotated shape's exit edge (taken when no scalar iteration is left); `None` for the
    /// guarded shape, whose header tests the bound itself.
    pub exit: Option<BlockCall>,
    /// The first element type met and the lanes in 128 bits (every vector value's type has
    /// its size; each value's vector type is its own type by `lanes`).
    pub elem: Scalar,
    pub lanes: i64,
    /// The work, in order, with each instruction's class.
    pub work: Vec<(Inst, Class)>,
    pub classes: HashMap<Value, Class>,
    /// (array, offset) pairs that must be equal or a vector apart for the vector loop to run.
    pub pairs: Vec<((Value, Value), (Value, Value))>,
    /// The loop's reductions, in the order of the header's parameters.
    pub reductions: Vec<Reduction>,
}

/// The most run-time overlap checks a loop may need.
const MAX_PAIRS: usize = 8;

/// The loops of `f` to vectorise; `fastmath` allows float reductions.
pub(crate) fn plan(f: &Function, fastmath: bool) -> Vec<VecLoop> {
    let mut preds: Vec<Vec<Block>> = vec![Vec::new(); f.blocks.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        for c in bd.succs() {
            preds[c.block.index()].push(Block(b as u32));
        }
    }
    // The blocks reading each value, computed once (each loop asks whether its values are read
    // outside it).
    let mut users: Vec<Vec<Block>> = vec![Vec::new(); f.values.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        let reads = bd.insts.iter().flat_map(|i| f.insts[i.index()].kind.operands()).chain(bd.end_operands());
        for v in reads {
            let u = &mut users[v.index()];
            if u.last() != Some(&Block(b as u32)) {
                u.push(Block(b as u32));
            }
        }
    }
    (0..f.blocks.len()).filter_map(|h| candidate(f, Block(h as u32), &preds, &users, fastmath)).collect()
}

/// The integer operations a vector of int64 lanes computes exactly as the scalar loop (they
/// wrap, in any order).
fn int_lane_op(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor)
}

/// `v` is `Add(iv, 1)` or `Add(1, iv)`, defined by an instruction of `insts`.
fn is_step(f: &Function, v: Value, iv: Value, insts: &[Inst]) -> bool {
    let ValueDef::Inst(i) = f.values[v.index()].def else { return false };
    insts.contains(&i)
        && match f.insts[i.index()].kind {
            InstKind::Binary(BinaryOp::Add, a, b) => {
                (a == iv && f.const_int(b) == Some(1)) || (b == iv && f.const_int(a) == Some(1))
            }
            _ => false,
        }
}

fn defined_in(f: &Function, v: Value, insts: &[Inst]) -> Option<Inst> {
    match f.values[v.index()].def {
        ValueDef::Inst(i) if insts.contains(&i) => Some(i),
        _ => None,
    }
}

/// The reduction a rotated loop's header parameter `p` (at `param_index`) is, given its
/// back-edge value `r`: `r = p op x` defined in the loop, with nothing else in the loop reading
/// `p` or `r` (`x`'s class is checked with the rest of the work).
fn reduction(
    f: &Function,
    p: Value,
    param_index: usize,
    r: Value,
    loop_insts: &[Inst],
    fastmath: bool,
) -> Option<Reduction> {
    let update = defined_in(f, r, loop_insts)?;
    // `r = select(c, p op x, p)` or `select(c, p, p op x)`: a conditional update.
    let (cond, op_inst) = match f.insts[update.index()].kind {
        InstKind::Select(c, t, e) if e == p && t != p => (Some((c, true)), defined_in(f, t, loop_insts)?),
        InstKind::Select(c, t, e) if t == p && e != p => (Some((c, false)), defined_in(f, e, loop_insts)?),
        _ => (None, update),
    };
    let InstKind::Binary(op, a, b) = f.insts[op_inst.index()].kind else { return None };
    let s = f.ty(r).scalar()?;
    let x = match (a == p, b == p) {
        (true, false) => b,
        (false, true) if op != BinaryOp::Sub => a,
        _ => return None,
    };
    let ok = match s {
        Scalar::Int64 | Scalar::UInt64 => int_lane_op(op),
        Scalar::Float64 | Scalar::Float32 => fastmath && matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul),
        _ => false,
    };
    if !ok || f.ty(p).scalar() != Some(s) || f.ty(x).scalar() != Some(s) {
        return None;
    }
    // `p` is read by the update only (and by the select around it), the update's result by
    // the select only, `r` by no instruction of the loop.
    let reads = |v: Value| {
        loop_insts.iter().map(|i| f.insts[i.index()].kind.operands().iter().filter(|&&o| o == v).count()).sum::<usize>()
    };
    let single = match cond {
        None => reads(p) == 1,
        Some(_) => reads(p) == 2 && f.insts[op_inst.index()].result.is_some_and(|u| reads(u) == 1),
    };
    (single && reads(r) == 0).then_some(Reduction {
        param: p,
        param_index,
        update,
        x,
        op,
        cond: cond.map(|(c, taken)| (c, taken, op_inst)),
        scalar: s,
    })
}

fn candidate(f: &Function, h: Block, preds: &[Vec<Block>], users: &[Vec<Block>], fastmath: bool) -> Option<VecLoop> {
    let hd = &f.blocks[h.index()];
    let (&iv, accs) = hd.params.split_first()?;
    if f.ty(iv) != &Type::Scalar(Scalar::Int64) || hd.unwind.is_some() {
        return None;
    }
    let Terminator::Branch(c, t, e) = &hd.term else { return None };
    let (work_block, exit, back, test, back_args) = if t.block == h {
        // Rotated: `br lt(i + 1, n), h(i + 1, reductions...), exit`.
        let (&next, _) = t.args.split_first()?;
        if e.block == h || !is_step(f, next, iv, &hd.insts) || t.args.len() != hd.params.len() {
            return None;
        }
        (h, Some(e.clone()), h, (next, *c), &t.args)
    } else {
        // Guarded: `h(i, reductions...): br lt(i, n), body(), exit` and
        // `body: ...; jump h(i + 1, reductions...)`.
        let b = t.block;
        let bd = &f.blocks[b.index()];
        let ok = hd.insts.len() == 1
            && t.args.is_empty()
            && e.block != h
            && e.block != b
            && bd.params.is_empty()
            && bd.unwind.is_none()
            && preds[b.index()] == [h];
        let Terminator::Jump(j) = &bd.term else { return None };
        let (&next, _) = j.args.split_first()?;
        if !ok || j.block != h || !is_step(f, next, iv, &bd.insts) || j.args.len() != hd.params.len() {
            return None;
        }
        (b, None, b, (iv, *c), &j.args)
    };
    // The header's predecessors: the back edge once and one entry.
    let entries: Vec<Block> = preds[h.index()].iter().copied().filter(|&p| p != back).collect();
    let (&[pre], 1) = (&entries[..], preds[h.index()].iter().filter(|&&p| p == back).count()) else { return None };
    // The test: `lt(x, n)` with `n` from outside, used by the branch only.
    let loop_insts: Vec<Inst> = if work_block == h {
        hd.insts.clone()
    } else {
        [&hd.insts[..], &f.blocks[work_block.index()].insts[..]].concat()
    };
    let ci = defined_in(f, test.1, &loop_insts)?;
    let InstKind::Compare(CmpOp::Lt, x, bound) = f.insts[ci.index()].kind else { return None };
    if x != test.0 || defined_in(f, bound, &loop_insts).is_some() || bound == iv {
        return None;
    }
    let mut reductions = Vec::new();
    for (k, &p) in accs.iter().enumerate() {
        reductions.push(reduction(f, p, k + 1, back_args[k + 1], &loop_insts, fastmath)?);
    }
    let updated = |v: Value| reductions.iter().any(|r| f.insts[r.update.index()].result == Some(v));
    if let Some(e) = &exit {
        if e.args.iter().any(|a| (defined_in(f, *a, &loop_insts).is_some() && !updated(*a)) || hd.params.contains(a)) {
            return None;
        }
    }
    let work_insts: Vec<Inst> = f.blocks[work_block.index()].insts.iter().copied().filter(|&i| i != ci).collect();
    let mut classes: HashMap<Value, Class> = HashMap::from([(iv, Class::Off)]);
    let mut elem: Option<Scalar> = None;
    let mut work = Vec::new();
    let mut accesses: Vec<((Value, Value), bool)> = Vec::new();
    // (The reductions' parameters and updates are in no class: any other use refuses the loop.)
    let class_of = |classes: &HashMap<Value, Class>, v: Value| -> Option<Class> {
        match classes.get(&v) {
            Some(c) => Some(*c),
            None if defined_in(f, v, &loop_insts).is_none() && !hd.params.contains(&v) => Some(Class::Inv),
            None => None,
        }
    };
    for &i in &work_insts {
        let d = &f.insts[i.index()];
        let rs = d.result.and_then(|r| f.ty(r).scalar());
        // The loop's vectors have one number of lanes: their element types have one size
        // (float64 values and int64 counts, float32 values alone).
        let mut lane = |s: Scalar| -> bool {
            if !matches!(s, Scalar::Float64 | Scalar::Float32 | Scalar::Int64 | Scalar::UInt64) {
                return false;
            }
            elem.get_or_insert(s).size() == s.size()
        };
        if let Some(r) = reductions.iter().find(|r| r.update == i) {
            let cx = class_of(&classes, r.x)?;
            let mask_ok = r.cond.is_none_or(|(c, ..)| class_of(&classes, c) == Some(Class::Vec));
            if cx == Class::Off || !mask_ok || !lane(rs?) {
                return None;
            }
            work.push((i, Class::Red));
            continue;
        }
        // A conditional update's `s op x`: done by the select's lanes.
        if reductions.iter().any(|r| r.cond.is_some_and(|(_, _, u)| u == i)) {
            continue;
        }
        let cls = match &d.kind {
            InstKind::Const(_) => Class::Inv,
            InstKind::Binary(op, a, b) => {
                let (ca, cb) = (class_of(&classes, *a)?, class_of(&classes, *b)?);
                let s = rs?;
                if s.is_int() {
                    match (op, ca, cb) {
                        (BinaryOp::Add, Class::Off, Class::Inv) | (BinaryOp::Add, Class::Inv, Class::Off) => Class::Off,
                        (BinaryOp::Sub, Class::Off, Class::Inv) => Class::Off,
                        (op, Class::Inv, Class::Inv) if int_lane_op(*op) => Class::Inv,
                        (op, Class::Vec | Class::Inv, Class::Vec | Class::Inv)
                            if int_lane_op(*op)
                                && f.ty(*a).scalar() == Some(s)
                                && f.ty(*b).scalar() == Some(s)
                                && lane(s) =>
                        {
                            Class::Vec
                        }
                        _ => return None,
                    }
                } else {
                    let arith = matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div);
                    let same = f.ty(*a) == f.ty(*b) && f.ty(*a).scalar() == Some(s);
                    if !arith || !same || !s.is_float() || !lane(s) || ca == Class::Off || cb == Class::Off {
                        return None;
                    }
                    if ca == Class::Vec || cb == Class::Vec {
                        Class::Vec
                    } else {
                        Class::Inv
                    }
                }
            }
            // Conversions and comparisons of invariant values (`np.float32(0.5)` in the body).
            InstKind::Cast(..) | InstKind::Compare(..) | InstKind::Select(..)
                if d.kind.operands().iter().all(|v| class_of(&classes, *v) == Some(Class::Inv)) =>
            {
                Class::Inv
            }
            // A comparison of lanes gives a mask (all ones where true) of the operands' width;
            // a select by a mask picks each lane.
            InstKind::Compare(_, a, b) => {
                let (ca, cb) = (class_of(&classes, *a)?, class_of(&classes, *b)?);
                let t = f.ty(*a).scalar()?;
                if ca == Class::Off || cb == Class::Off || f.ty(*b).scalar() != Some(t) || !lane(t) {
                    return None;
                }
                Class::Vec
            }
            InstKind::Select(c, x, y) => {
                let cs = [class_of(&classes, *c)?, class_of(&classes, *x)?, class_of(&classes, *y)?];
                let t = rs?;
                let typed = f.ty(*x).scalar() == Some(t) && f.ty(*y).scalar() == Some(t);
                if cs[0] != Class::Vec || cs.contains(&Class::Off) || !typed || !lane(t) {
                    return None;
                }
                Class::Vec
            }
            InstKind::Unary(op @ (UnaryOp::Neg | UnaryOp::Pos | UnaryOp::Invert), a) => {
                let ca = class_of(&classes, *a)?;
                let int_only = *op == UnaryOp::Invert && !rs?.is_int();
                if int_only || !lane(rs?) || ca == Class::Off || f.ty(*a).scalar() != rs {
                    return None;
                }
                ca
            }
            InstKind::Builtin(b, args) => {
                let [a] = args[..] else { return None };
                let ok = matches!(b.info().lowering, Lowering::Intrinsic(Intrinsic::Sqrt | Intrinsic::Fabs));
                let ca = class_of(&classes, a)?;
                if !ok || !rs?.is_float() || !lane(rs?) || f.ty(a).scalar() != rs || ca == Class::Off {
                    return None;
                }
                ca
            }
            InstKind::Load(a, o) => {
                let dt = f.ty(*a).array()?.dtype;
                if class_of(&classes, *a)? != Class::Inv || class_of(&classes, *o)? != Class::Off || !lane(dt) {
                    return None;
                }
                accesses.push(((*a, *o), false));
                Class::Vec
            }
            InstKind::Store(a, o, v) => {
                let dt = f.ty(*a).array()?.dtype;
                let cv = class_of(&classes, *v)?;
                if class_of(&classes, *a)? != Class::Inv
                    || class_of(&classes, *o)? != Class::Off
                    || cv == Class::Off
                    || !lane(dt)
                    || f.ty(*v).scalar() != Some(dt)
                {
                    return None;
                }
                accesses.push(((*a, *o), true));
                Class::Vec
            }
            _ => return None,
        };
        if let Some(r) = d.result {
            classes.insert(r, cls);
        }
        work.push((i, cls));
    }
    let elem = elem?;
    if !accesses.iter().any(|(_, store)| *store) && reductions.is_empty() {
        return None;
    }
    // No value of the loop is used outside it (the back edge and the test are the loop's own).
    // The guarded shape leaves through its header, so its parameters' last values are the
    // loop's results (the vector loop's tail goes back to the header with them).
    let loop_blocks = [h, work_block];
    let params = if exit.is_some() { &hd.params[..] } else { &hd.params[..1] };
    let inside = loop_insts.iter().filter_map(|i| f.insts[i.index()].result).chain(params.iter().copied());
    if inside.into_iter().any(|v| users[v.index()].iter().any(|b| !loop_blocks.contains(b))) {
        return None;
    }
    let mut pairs = Vec::new();
    for (k, &(s, store)) in accesses.iter().enumerate() {
        for (j, &(t, _)) in accesses.iter().enumerate() {
            if store && j != k && s != t && !pairs.contains(&(t, s)) && !pairs.contains(&(s, t)) {
                pairs.push((s, t));
            }
        }
    }
    if pairs.len() > MAX_PAIRS {
        return None;
    }
    Some(VecLoop {
        header: h,
        work_block,
        pre,
        iv,
        bound,
        exit,
        elem,
        lanes: 16 / elem.size() as i64,
        work,
        classes,
        pairs,
        reductions,
    })
}
