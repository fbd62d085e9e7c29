//! The IR verifier.
//!
//! Invariants it checks (a failure is a compiler bug, never a user error):
//! 1. Every value's definition agrees with the tables: an instruction result is that
//!    instruction's `result`, a block parameter is in its block's `params` at its index.
//! 2. Every instruction is placed in exactly one block.
//! 3. Every reachable block ends in a real terminator (not `unreachable`); every edge names an
//!    existing block and passes exactly one argument per block parameter.
//! 4. Every operand is defined, and its definition dominates the use (earlier in the same block,
//!    or in a dominating block).
//! 5. At [`Level::Typed`] and above: every value has a known type; branch conditions are
//!    `bool`; edge arguments have their parameter's type; returns have the function's type;
//!    binary operands have the result type (except `pow` of a float by an integer); comparison
//!    operands agree; `cast` targets its result type; a `raise` carries at most
//!    `exception::MAX_RUNTIME_ARGS` runtime arguments, all scalars.
//! 6. At [`Level::Lowered`]: no `getitem`/`setitem` remain; `load`/`store` offsets are `int64`.

use crate::function::*;
use crate::types::Type;

/// How far down the pipeline the function is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Straight from the front end.
    Untyped,
    /// After type inference.
    Typed,
    /// After `expand_indexing`.
    Lowered,
}

/// A verifier failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("IR verifier: function @{function}: {message}")]
pub struct VerifyError {
    /// Function name.
    pub function: String,
    /// What is wrong.
    pub message: String,
}

/// Checks `f` against the invariants in the module doc.
pub fn verify(f: &Function, level: Level) -> Result<(), VerifyError> {
    let err = |m: String| Err(VerifyError { function: f.name.clone(), message: m });
    if f.blocks.is_empty() {
        return err("no entry block".into());
    }
    if f.param_names.len() != f.blocks[0].params.len() {
        return err(format!(
            "{} parameter names but the entry block has {} parameters",
            f.param_names.len(),
            f.blocks[0].params.len()
        ));
    }
    let nv = f.values.len();
    let check_value = |v: Value| -> Result<(), VerifyError> {
        if v.index() >= nv {
            return Err(VerifyError { function: f.name.clone(), message: format!("{v} does not exist") });
        }
        Ok(())
    };
    // 2: placement.
    let mut placed: Vec<Option<Block>> = vec![None; f.insts.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        for &i in &b.insts {
            if i.index() >= f.insts.len() {
                return err(format!("block{bi} lists missing instruction {i}"));
            }
            if placed[i.index()].is_some() {
                return err(format!("instruction {i} is placed twice"));
            }
            placed[i.index()] = Some(Block(bi as u32));
        }
    }
    // 1: definitions of values that are used.
    let def_ok = |v: Value| -> bool {
        match f.values[v.index()].def {
            ValueDef::Inst(i) => f.insts.get(i.index()).is_some_and(|d| d.result == Some(v)),
            ValueDef::Param(b, k) => {
                f.blocks.get(b.index()).and_then(|bd| bd.params.get(k as usize)).is_some_and(|&p| p == v)
            }
        }
    };
    let (rpo, dom) = DomTree::with_rpo(f);
    let mut pos_in_block = vec![usize::MAX; f.insts.len()];
    for b in &f.blocks {
        for (k, &i) in b.insts.iter().enumerate() {
            pos_in_block[i.index()] = k;
        }
    }
    // Does the definition of `v` dominate a use at (block, position)? Terminators use
    // position = number of instructions.
    let dominates = |v: Value, ub: Block, upos: usize| -> bool {
        let (db, dpos) = match f.values[v.index()].def {
            ValueDef::Param(b, _) => (b, 0usize),
            ValueDef::Inst(i) => match placed[i.index()] {
                Some(b) => (b, pos_in_block[i.index()] + 1),
                None => return false,
            },
        };
        if db == ub {
            return dpos <= upos;
        }
        dom.dominates(db, ub)
    };
    // A handler entry is reached by unwind edges only.
    let handlers = f.handlers();
    let handlers_ok =
        handlers.is_empty() || f.blocks.iter().all(|bd| bd.term.targets().iter().all(|t| !handlers.contains(&t.block)));
    for &b in &rpo {
        let bd = &f.blocks[b.index()];
        for (k, &p) in bd.params.iter().enumerate() {
            check_value(p)?;
            if f.values[p.index()].def != ValueDef::Param(b, k as u32) {
                return err(format!("{p} is parameter {k} of {b} but records another definition"));
            }
        }
        for (k, &i) in bd.insts.iter().enumerate() {
            let data = &f.insts[i.index()];
            if let Some(r) = data.result {
                check_value(r)?;
                if !def_ok(r) {
                    return err(format!("{r} does not record its defining instruction"));
                }
            }
            for op in data.kind.operands() {
                check_value(op)?;
                if !def_ok(op) {
                    return err(format!("{op} is used in {b} but not defined"));
                }
                if !dominates(op, b, k) {
                    return err(format!("{op} is used in {b} where its definition does not dominate"));
                }
            }
            if level >= Level::Typed {
                check_typed_inst(f, data).or_else(|m| err(format!("in {b}: {m}")))?;
            }
            if level >= Level::Lowered && matches!(data.kind, InstKind::GetItem(..) | InstKind::SetItem(..)) {
                return err(format!("{b} still has getitem/setitem after expand_indexing"));
            }
        }
        if bd.term == Terminator::Unreachable {
            return err(format!("reachable {b} has no terminator"));
        }
        for op in bd.term.operands() {
            check_value(op)?;
            if !def_ok(op) || !dominates(op, b, bd.insts.len()) {
                return err(format!("{op} used by the terminator of {b} is not defined there"));
            }
        }
        if let Some(u) = &bd.unwind {
            for &a in &u.args {
                check_value(a)?;
                // Available at the block's start: the edge may be taken before any instruction.
                if !def_ok(a) || !dominates(a, b, 0) {
                    return err(format!("{a} passed by the unwind edge of {b} is not available at its start"));
                }
            }
            if !handlers_ok {
                return err(format!("{} is reached by an unwind edge and by a jump", u.block));
            }
        }
        for t in bd.succs() {
            let Some(target) = f.blocks.get(t.block.index()) else {
                return err(format!("{b} jumps to missing {}", t.block));
            };
            if t.block == Function::ENTRY {
                return err(format!("{b} jumps to the entry block"));
            }
            if target.params.len() != t.args.len() {
                return err(format!(
                    "{b} passes {} arguments to {} which has {} parameters",
                    t.args.len(),
                    t.block,
                    target.params.len()
                ));
            }
            if level >= Level::Typed {
                for (a, p) in t.args.iter().zip(&target.params) {
                    if f.ty(*a) != f.ty(*p) {
                        return err(format!("{b} passes {a}: {} to {p}: {}", f.ty(*a), f.ty(*p)));
                    }
                }
            }
        }
        if level >= Level::Typed {
            match &bd.term {
                Terminator::Branch(c, ..) if *f.ty(*c) != Type::BOOL => {
                    return err(format!("branch condition {c} is {}", f.ty(*c)));
                }
                Terminator::Return(Some(v)) if *f.ty(*v) != f.ret => {
                    return err(format!("returns {v}: {} from a function returning {}", f.ty(*v), f.ret));
                }
                Terminator::Return(None) if f.ret != Type::None => {
                    return err(format!("returns nothing from a function returning {}", f.ret));
                }
                Terminator::Raise(e) => {
                    if e.runtime().count() > crate::exception::MAX_RUNTIME_ARGS {
                        return err(format!(
                            "{b} raises with more than {} runtime arguments",
                            crate::exception::MAX_RUNTIME_ARGS
                        ));
                    }
                    if let Some(v) = e.runtime().find(|v| !matches!(f.ty(**v), Type::Scalar(_))) {
                        return err(format!("{b} raises with {v}: {}, not a scalar", f.ty(*v)));
                    }
                }
                _ => {}
            }
        }
    }
    if level >= Level::Typed {
        for &b in &rpo {
            for &p in &f.blocks[b.index()].params {
                if !f.ty(p).is_known() {
                    return err(format!("{p} has no type"));
                }
            }
        }
    }
    Ok(())
}

fn check_typed_inst(f: &Function, data: &InstData) -> Result<(), String> {
    let rty = data.result.map(|r| f.ty(r).clone());
    if let Some(t) = &rty {
        if !t.is_known() {
            return Err(format!("{} has no type", data.result.expect("has a result")));
        }
    }
    match &data.kind {
        InstKind::Binary(op, a, b) => {
            let r = rty.ok_or("binary without result")?;
            let pow_int = *op == BinaryOp::Pow && f.ty(*b).scalar().is_some_and(|s| s.is_int());
            if *f.ty(*a) != r || (*f.ty(*b) != r && !pow_int) {
                return Err(format!("{} {a}: {}, {b}: {} gives {r}", op.name(), f.ty(*a), f.ty(*b)));
            }
        }
        InstKind::Compare(op, a, b) if f.ty(*a) != f.ty(*b) || rty != Some(Type::BOOL) => {
            return Err(format!("{} compares {} with {}", op.name(), f.ty(*a), f.ty(*b)));
        }
        InstKind::Cast(s, _) if rty != Some(Type::Scalar(*s)) => {
            return Err(format!("cast to {} has result type {rty:?}", s.name()));
        }
        InstKind::Load(a, o) | InstKind::Store(a, o, _) => {
            let Some(at) = f.ty(*a).array() else { return Err(format!("load/store on non-array {a}")) };
            if *f.ty(*o) != Type::I64 {
                return Err(format!("offset {o} is {}", f.ty(*o)));
            }
            if let InstKind::Store(_, _, v) = &data.kind {
                if *f.ty(*v) != Type::Scalar(at.dtype) {
                    return Err(format!("stores {} into an array of {}", f.ty(*v), at.dtype.name()));
                }
            } else if rty != Some(Type::Scalar(at.dtype)) {
                return Err("load result type differs from the array dtype".into());
            }
        }
        InstKind::Select(c, a, b)
            if *f.ty(*c) != Type::BOOL || f.ty(*a) != f.ty(*b) || rty.as_ref() != Some(f.ty(*a)) =>
        {
            return Err("select operands disagree".into());
        }
        InstKind::ConstArray(c) => {
            let at = rty.as_ref().and_then(Type::array).ok_or("constarray without an array result")?;
            if at.dtype != c.dtype || at.ndim as usize != c.shape.len() || c.data.len() != c.len() * c.dtype.size() {
                return Err(format!("constarray {} has result type {}", c.name, rty.clone().unwrap_or(Type::None)));
            }
        }
        InstKind::NewArray { dtype, shape, .. } => {
            let at = rty.as_ref().and_then(Type::array).ok_or("newarray without an array result")?;
            if at.dtype != *dtype || at.ndim as usize != shape.len() || at.layout != crate::types::Layout::C {
                return Err(format!(
                    "newarray {}[{} dims] has result type {}",
                    dtype.name(),
                    shape.len(),
                    rty.clone().unwrap_or(Type::None)
                ));
            }
            if let Some(d) = shape.iter().find(|d| *f.ty(**d) != Type::I64) {
                return Err(format!("newarray dimension {d} is {}", f.ty(*d)));
            }
        }
        InstKind::View { base, offset, shape, strides } => {
            f.ty(*base).array().ok_or_else(|| format!("view of non-array {base}"))?;
            let at = rty.as_ref().and_then(Type::array).ok_or("view without an array result")?;
            // The dtype may change (`a.view(dtype)`, `z.real`): the same bytes, read as it.
            if at.ndim as usize != shape.len() || shape.len() != strides.len() {
                return Err(format!("view of {} gives {}", f.ty(*base), rty.clone().unwrap_or(Type::None)));
            }
            if let Some(v) = std::iter::once(offset).chain(shape).chain(strides).find(|v| *f.ty(**v) != Type::I64) {
                return Err(format!("view operand {v} is {}", f.ty(*v)));
            }
        }
        InstKind::NewList(n) if !matches!(rty, Some(Type::List(_))) || *f.ty(*n) != Type::I64 => {
            return Err(format!("newlist {n}: {} gives {}", f.ty(*n), rty.clone().unwrap_or(Type::None)));
        }
        InstKind::ListLen(l) | InstKind::ListGet(l, _) | InstKind::ListSet(l, ..) | InstKind::ListResize(l, _) => {
            let Some(elem) = f.ty(*l).list_elem() else { return Err(format!("list operation on non-list {l}")) };
            let (idx, want) = match &data.kind {
                InstKind::ListLen(_) => (None, rty.clone().map(|_| Type::I64)),
                InstKind::ListGet(_, i) => (Some(*i), Some(elem.clone())),
                InstKind::ListSet(_, i, v) => {
                    if f.ty(*v) != elem {
                        return Err(format!("stores {v}: {} into a list of {elem}", f.ty(*v)));
                    }
                    (Some(*i), None)
                }
                _ => (data.kind.operands().get(1).copied(), None),
            };
            if let Some(i) = idx.filter(|i| *f.ty(*i) != Type::I64) {
                return Err(format!("list index or length {i} is {}", f.ty(i)));
            }
            if rty != want {
                return Err(format!("list operation gives {rty:?}, expected {want:?}"));
            }
        }
        InstKind::IncRef(v) | InstKind::DecRef(v) if !f.ty(*v).holds_array() => {
            return Err(format!("reference count of {v}: {}, which holds no array", f.ty(*v)));
        }
        _ => {}
    }
    Ok(())
}

/// The dominator tree with preorder/postorder numbers, so that `dominates` is O(1).
pub struct DomTree {
    /// Immediate dominator of each block (the entry's is itself; unreachable: `None`).
    pub idom: Vec<Option<Block>>,
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DomTree {
    /// `f`'s reverse postorder (its reachable blocks) and the tree built from it, so that the
    /// two always agree.
    pub fn with_rpo(f: &Function) -> (Vec<Block>, DomTree) {
        let rpo = f.reverse_postorder();
        let dom = DomTree::new(f, &rpo);
        (rpo, dom)
    }

    /// Builds the tree for `f` (reachable blocks in `rpo`).
    pub fn new(f: &Function, rpo: &[Block]) -> DomTree {
        let idom = dominators(f, rpo);
        let n = f.blocks.len();
        let mut children: Vec<Vec<Block>> = vec![Vec::new(); n];
        for &b in rpo.iter().skip(1) {
            if let Some(d) = idom[b.index()] {
                children[d.index()].push(b);
            }
        }
        let (mut pre, mut post) = (vec![u32::MAX; n], vec![0u32; n]);
        let mut clock = 0u32;
        // Iterative DFS: (block, next child index).
        let mut stack: Vec<(Block, usize)> = vec![(Function::ENTRY, 0)];
        pre[0] = 0;
        while let Some((b, i)) = stack.pop() {
            if let Some(&c) = children[b.index()].get(i) {
                stack.push((b, i + 1));
                clock += 1;
                pre[c.index()] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                post[b.index()] = clock;
            }
        }
        DomTree { idom, pre, post }
    }

    /// Whether `a` dominates `b` (every block dominates itself); false for unreachable blocks.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (pa, pb) = (self.pre[a.index()], self.pre[b.index()]);
        pa != u32::MAX && pb != u32::MAX && pa <= pb && self.post[b.index()] <= self.post[a.index()]
    }
}

/// Immediate dominators (Cooper, Harvey, Kennedy), indexed by block; `None` for unreachable.
pub fn dominators(f: &Function, rpo: &[Block]) -> Vec<Option<Block>> {
    let n = f.blocks.len();
    let mut order = vec![usize::MAX; n];
    for (i, b) in rpo.iter().enumerate() {
        order[b.index()] = i;
    }
    let mut preds: Vec<Vec<Block>> = vec![Vec::new(); n];
    for &b in rpo {
        for t in f.blocks[b.index()].succs() {
            if t.block.index() < n {
                preds[t.block.index()].push(b);
            }
        }
    }
    let mut idom: Vec<Option<Block>> = vec![None; n];
    idom[0] = Some(Block(0));
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<Block> = None;
            for &p in &preds[b.index()] {
                if idom[p.index()].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(cur) => {
                        let (mut x, mut y) = (p, cur);
                        while x != y {
                            while order[x.index()] > order[y.index()] {
                                x = idom[x.index()].expect("processed");
                            }
                            while order[y.index()] > order[x.index()] {
                                y = idom[y.index()].expect("processed");
                            }
                        }
                        x
                    }
                });
            }
            if new.is_some() && idom[b.index()] != new {
                idom[b.index()] = new;
                changed = true;
            }
        }
    }
    idom
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_function;

    fn check(text: &str, level: Level, expect: &str) {
        let f = parse_function(text).expect("test IR parses");
        let got = match verify(&f, level) {
            Ok(()) => "ok".to_string(),
            Err(e) => e.message,
        };
        assert_eq!(got, expect);
    }

    #[test]
    fn accepts_well_formed_ir() {
        check(
            "function @f(n) -> int64 {\nblock0(v0: int64):\n    v1: int64 = const 0\n    jump block1(v1)\nblock1(v2: int64):\n    v3: bool = lt v2, v0\n    br v3, block2(), block3()\nblock2():\n    v4: int64 = const 1\n    v5: int64 = add v2, v4\n    jump block1(v5)\nblock3():\n    return v2\n}\n",
            Level::Lowered,
            "ok",
        );
    }

    #[test]
    fn rejects_use_not_dominated_by_definition() {
        check(
            "function @f(c) -> int64 {\nblock0(v0: bool):\n    br v0, block1(), block2()\nblock1():\n    v1: int64 = const 1\n    jump block2()\nblock2():\n    return v1\n}\n",
            Level::Typed,
            "v1 used by the terminator of block2 is not defined there",
        );
    }

    #[test]
    fn rejects_wrong_argument_count_and_types() {
        check(
            "function @f(n) -> int64 {\nblock0(v0: int64):\n    jump block1()\nblock1(v1: int64):\n    return v1\n}\n",
            Level::Untyped,
            "block0 passes 0 arguments to block1 which has 1 parameters",
        );
        check(
            "function @f(n) -> int64 {\nblock0(v0: float64):\n    return v0\n}\n",
            Level::Typed,
            "returns v0: float64 from a function returning int64",
        );
        check(
            "function @f(a, b) -> int64 {\nblock0(v0: int64, v1: float64):\n    v2: int64 = add v0, v1\n    return v2\n}\n",
            Level::Typed,
            "in block0: add v0: int64, v1: float64 gives int64",
        );
    }

    #[test]
    fn unwind_edges_pass_values_available_at_the_start_to_a_handler_only_they_reach() {
        let ok = "function @f(x, y) -> int64 {\nblock0(v0: int64, v1: int64):\n    jump block1()\nblock1() unwind block2(v0):\n    v2: int64 = floordiv v0, v1\n    return v2\nblock2(v3: int64):\n    return v3\n}\n";
        check(ok, Level::Typed, "ok");
        check(
            &ok.replace("block2(v0)", "block2(v2)"),
            Level::Typed,
            "v2 passed by the unwind edge of block1 is not available at its start",
        );
        check(
            &ok.replace("    jump block1()", "    br v0, block1(), block2(v1)"),
            Level::Untyped,
            "block2 is reached by an unwind edge and by a jump",
        );
    }

    #[test]
    fn lowered_ir_has_no_getitem() {
        check(
            "function @f(a, i) -> float64 {\nblock0(v0: array(float64, 1, C), v1: int64):\n    v2: float64 = getitem v0[v1]\n    return v2\n}\n",
            Level::Lowered,
            "block0 still has getitem/setitem after expand_indexing",
        );
    }
}
