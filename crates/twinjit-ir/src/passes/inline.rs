//! `inline`: copies the bodies of small leaf functions of numbers into their callers.
//!
//! Neither backend inlines (Cranelift does not; the PTX backend's LLVM would, but the host's
//! code is what matters here), so a call of a small helper costs a call per use: the element
//! function of a `@vectorize` ufunc called once per element, `@njit` helpers such as
//! `clamp(x, lo, hi)` in a loop, a `@guvectorize` kernel called once per row. A callee is
//! inlined when it is a *leaf* (it calls nothing and starts no parallel loop), returns a number
//! or nothing, computes only numbers, and is small (at most [`MAX_INSTS`] instructions in
//! [`MAX_BLOCKS`] blocks). It may take arrays and read and write their elements when it and
//! its caller check bounds alike (the accesses are expanded with the caller's choice after
//! inlining, so a callee compiled with `boundscheck=False` into a checking caller, or the
//! reverse, stays a call). Its blocks are copied into the caller at the call, `return v`
//! becoming a jump to the code after the call with `v`; a `raise` in it stays a `raise` (its
//! span is the callee's line, as the error's location was before).
//! The callee stays in the program for its other callers. A callee with a `try` body is not
//! inlined; a call inlined into one gives its blocks the call's unwind edge.
//!
//! Runs first in the pipeline, on typed IR, so the passes after it see the inlined code
//! together with its caller's loop (checks, invariant code, the parallel outlining).

use crate::function::*;
use crate::infer::TypedProgram;
use crate::types::Type;
use std::collections::HashMap;

/// The most instructions a function may have to be inlined.
pub const MAX_INSTS: usize = 48;
/// The most blocks a function may have to be inlined.
pub const MAX_BLOCKS: usize = 12;

/// How many rounds [`inline_leaves`] makes at most: a caller whose leaf callees were inlined
/// may have become a small leaf itself (a `@vectorize` element function that calls an `@njit`
/// helper: the ufunc's loop then calls neither), so inlining repeats, bottom-up, a level a round.
pub const MAX_ROUNDS: usize = 4;

/// Inlines every call of a small leaf function (see the module doc) in `program`, again while a round
/// made new leaves (at most [`MAX_ROUNDS`] rounds); returns how many calls it inlined.
/// `boundscheck_for(source_name)` is each function's bounds-checking choice.
pub fn inline_leaves(program: &mut TypedProgram, boundscheck_for: &dyn Fn(&str) -> bool) -> usize {
    let mut total = 0;
    for _ in 0..MAX_ROUNDS {
        let n = inline_round(program, boundscheck_for);
        if n == 0 {
            break;
        }
        total += n;
    }
    total
}

/// One round: every call of a function that is a small leaf now.
fn inline_round(program: &mut TypedProgram, boundscheck_for: &dyn Fn(&str) -> bool) -> usize {
    // Each leaf, with its bounds-checking choice if it takes arrays.
    let leaves: HashMap<String, (Function, Option<bool>)> = program
        .functions
        .iter()
        .filter_map(|tf| {
            let memory = inlinable(&tf.func)?;
            Some((tf.func.name.clone(), (tf.func.clone(), memory.then(|| boundscheck_for(&tf.source_name)))))
        })
        .collect();
    if leaves.is_empty() {
        return 0;
    }
    let mut n = 0;
    for tf in &mut program.functions {
        let checks = boundscheck_for(&tf.source_name);
        let f = &mut tf.func;
        // Each block once; the code after an inlined call moves to a new block, scanned next
        // (the copied callee calls nothing).
        let mut work = f.reverse_postorder();
        // A call's result becomes its continuation's parameter: uses are renamed once, at the end.
        let mut renamed: HashMap<Value, Value> = HashMap::new();
        while let Some(b) = work.pop() {
            let at = f.blocks[b.index()].insts.iter().position(|i| {
                matches!(&f.insts[i.index()].kind, InstKind::Call(name, _)
                    if *name != f.name && leaves.get(name).is_some_and(|(_, m)| m.is_none_or(|c| c == checks)))
            });
            if let Some(at) = at {
                let (cont, old, new) = inline_at(f, b, at, &leaves);
                renamed.insert(old, new);
                work.push(cont);
                n += 1;
            }
        }
        if !renamed.is_empty() {
            let rename = |v: Value| renamed.get(&v).copied().unwrap_or(v);
            for d in &mut f.insts {
                d.kind.map_operands(rename);
            }
            for bd in &mut f.blocks {
                bd.map_end_operands(rename);
            }
        }
    }
    n
}

/// Whether `f` may be copied into its callers: `None` if not, else whether it takes arrays
/// (then only callers that check bounds as it does may inline it).
fn inlinable(f: &Function) -> Option<bool> {
    let blocks = f.reverse_postorder();
    let insts: usize = blocks.iter().map(|b| f.blocks[b.index()].insts.len()).sum();
    let number = |t: &Type| matches!(t, Type::Scalar(_));
    let shape_ok = blocks.len() <= MAX_BLOCKS
        && insts <= MAX_INSTS
        && !f.has_unwind()
        && (number(&f.ret) || f.ret == Type::None)
        && f.params().iter().all(|p| number(f.ty(*p)) || matches!(f.ty(*p), Type::Array(_)))
        && blocks.iter().all(|b| f.blocks[b.index()].term.targets().iter().all(|t| t.block != Function::ENTRY));
    if !shape_ok {
        return None;
    }
    for b in &blocks {
        for i in &f.blocks[b.index()].insts {
            let d = &f.insts[i.index()];
            let calls = matches!(d.kind, InstKind::Call(..) | InstKind::ParallelFor(..))
                || matches!(&d.kind, InstKind::Builtin(b, _) if b.info().typing == crate::builtins::Typing::CallValue || b.info().typing == crate::builtins::Typing::UserUfunc);
            if calls || !d.result.is_none_or(|r| number(f.ty(r)) || *f.ty(r) == Type::None) {
                return None;
            }
        }
    }
    // Every value it makes is a number, so the only memory it can touch is its arguments'.
    Some(f.params().iter().any(|p| matches!(f.ty(*p), Type::Array(_))))
}

/// Replaces the call at `f.blocks[b].insts[at]` by a copy of the callee's body; returns the
/// block that holds the code after the call, the call's result and the value that replaces it
/// (the caller renames its uses).
fn inline_at(
    f: &mut Function,
    b: Block,
    at: usize,
    leaves: &HashMap<String, (Function, Option<bool>)>,
) -> (Block, Value, Value) {
    let call = f.blocks[b.index()].insts[at];
    let InstKind::Call(name, args) = f.insts[call.index()].kind.clone() else { unreachable!("a call") };
    let span = f.insts[call.index()].span;
    let result = f.insts[call.index()].result.expect("a call of a function returning a number or nothing has a result");
    let callee = &leaves[&name].0;
    // The code after the call moves to `cont`, which receives the result.
    let cont = f.add_block();
    let tail = f.blocks[b.index()].insts.split_off(at + 1);
    f.blocks[b.index()].insts.pop();
    let term = std::mem::replace(&mut f.blocks[b.index()].term, Terminator::Unreachable);
    let term_span = f.blocks[b.index()].term_span;
    f.blocks[cont.index()].insts = tail;
    f.blocks[cont.index()].term = term;
    f.blocks[cont.index()].term_span = term_span;
    let ret = f.add_block_param(cont, callee.ret.clone());
    // The callee's blocks, parameters and values.
    let order = callee.reverse_postorder();
    let mut bmap: HashMap<Block, Block> = HashMap::new();
    let mut vmap: HashMap<Value, Value> = callee.params().iter().copied().zip(args.iter().copied()).collect();
    for &cb in &order {
        let nb = f.add_block();
        bmap.insert(cb, nb);
        if cb != Function::ENTRY {
            for &p in &callee.blocks[cb.index()].params {
                let np = f.add_block_param(nb, callee.ty(p).clone());
                vmap.insert(p, np);
            }
        }
    }
    for &cb in &order {
        let nb = bmap[&cb];
        for &ci in &callee.blocks[cb.index()].insts {
            let d = &callee.insts[ci.index()];
            let mut kind = d.kind.clone();
            kind.map_operands(|v| vmap[&v]);
            let r = f.push(nb, kind, d.result.map(|r| callee.ty(r).clone()), d.span);
            if let (Some(old), Some(new)) = (d.result, r) {
                vmap.insert(old, new);
            }
        }
    }
    for &cb in &order {
        let cd = &callee.blocks[cb.index()];
        let mut t = cd.term.clone();
        for target in t.targets_mut() {
            target.block = bmap[&target.block];
        }
        t.map_operands(|v| vmap[&v]);
        match t {
            Terminator::Return(Some(v)) => t = Terminator::Jump(BlockCall { block: cont, args: vec![v] }),
            Terminator::Return(None) => {
                let none = f.push(bmap[&cb], InstKind::Const(Const::None), Some(Type::None), cd.term_span);
                t = Terminator::Jump(BlockCall { block: cont, args: vec![none.expect("a constant has a result")] });
            }
            _ => {}
        }
        f.terminate(bmap[&cb], t, cd.term_span);
    }
    f.terminate(b, Terminator::Jump(BlockCall { block: bmap[&Function::ENTRY], args: vec![] }), span);
    // Inlined into a `try` body: what the callee raises unwinds as the call did.
    if let Some(u) = f.blocks[b.index()].unwind.clone() {
        for nb in bmap.values().copied().chain([cont]) {
            f.blocks[nb.index()].unwind = Some(u.clone());
        }
    }
    (cont, result, ret)
}
