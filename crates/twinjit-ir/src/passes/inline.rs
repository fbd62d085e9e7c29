//! `inline`: copies the bodies of small leaf functions of numbers into their callers.
//!
//! Neither backend inlines (Cranelift does not; the PTX backend's LLVM would, but the host's
//! code is what matters here), so a call of a small helper costs a call per use: the element
//! function of a `@vectorize` ufunc called once per element, `@njit` helpers such as
//! `clamp(x, lo, hi)` in a loop. A callee is inlined when it is a *leaf* (it calls nothing and
//! starts no parallel loop), takes and returns numbers only, touches no memory (so the
//! caller's bounds-checking choice cannot change what it checks), and is small (at most
//! [`MAX_INSTS`] instructions in [`MAX_BLOCKS`] blocks). Its blocks are copied into the caller
//! at the call, `return v` becoming a jump to the code after the call with `v`; a `raise` in
//! it stays a `raise` (its span is the callee's line, as the error's location was before).
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

/// Inlines every call of a small leaf function of numbers in `program`, again while a round
/// made new leaves (at most [`MAX_ROUNDS`] rounds); returns how many calls it inlined.
pub fn inline_leaves(program: &mut TypedProgram) -> usize {
    let mut total = 0;
    for _ in 0..MAX_ROUNDS {
        let n = inline_round(program);
        if n == 0 {
            break;
        }
        total += n;
    }
    total
}

/// One round: every call of a function that is a small leaf now.
fn inline_round(program: &mut TypedProgram) -> usize {
    let leaves: HashMap<String, Function> = program
        .functions
        .iter()
        .filter(|tf| inlinable(&tf.func))
        .map(|tf| (tf.func.name.clone(), tf.func.clone()))
        .collect();
    if leaves.is_empty() {
        return 0;
    }
    let mut n = 0;
    for tf in &mut program.functions {
        let f = &mut tf.func;
        // Each block once; the code after an inlined call moves to a new block, scanned next
        // (the copied callee calls nothing).
        let mut work = f.reverse_postorder();
        // A call's result becomes its continuation's parameter: uses are renamed once, at the end.
        let mut renamed: HashMap<Value, Value> = HashMap::new();
        while let Some(b) = work.pop() {
            let at = f.blocks[b.index()].insts.iter().position(|i| {
                matches!(&f.insts[i.index()].kind, InstKind::Call(name, _) if leaves.contains_key(name) && *name != f.name)
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

/// Whether `f` may be copied into its callers.
fn inlinable(f: &Function) -> bool {
    let blocks = f.reverse_postorder();
    let insts: usize = blocks.iter().map(|b| f.blocks[b.index()].insts.len()).sum();
    blocks.len() <= MAX_BLOCKS
        && insts <= MAX_INSTS
        && !f.has_unwind()
        && matches!(f.ret, Type::Scalar(_))
        && f.params().iter().all(|p| matches!(f.ty(*p), Type::Scalar(_)))
        && blocks.iter().all(|b| f.blocks[b.index()].term.targets().iter().all(|t| t.block != Function::ENTRY))
        && blocks.iter().all(|b| {
            f.blocks[b.index()].insts.iter().all(|i| {
                let k = &f.insts[i.index()].kind;
                let memory = matches!(
                    k,
                    InstKind::Call(..)
                        | InstKind::ParallelFor(..)
                        | InstKind::GetItem(..)
                        | InstKind::SetItem(..)
                        | InstKind::Load(..)
                        | InstKind::Store(..)
                        | InstKind::CheckIndex(..)
                );
                let calls = matches!(k, InstKind::Builtin(b, _) if b.info().typing == crate::builtins::Typing::CallValue || b.info().typing == crate::builtins::Typing::UserUfunc);
                !memory && !calls && f.insts[i.index()].result.is_none_or(|r| matches!(f.ty(r), Type::Scalar(_)))
            })
        })
}

/// Replaces the call at `f.blocks[b].insts[at]` by a copy of the callee's body; returns the
/// block that holds the code after the call, the call's result and the value that replaces it
/// (the caller renames its uses).
fn inline_at(f: &mut Function, b: Block, at: usize, leaves: &HashMap<String, Function>) -> (Block, Value, Value) {
    let call = f.blocks[b.index()].insts[at];
    let InstKind::Call(name, args) = f.insts[call.index()].kind.clone() else { unreachable!("a call") };
    let span = f.insts[call.index()].span;
    let result = f.insts[call.index()].result.expect("a call of a function returning a number has a result");
    let callee = &leaves[&name];
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
        if let Terminator::Return(Some(v)) = t {
            t = Terminator::Jump(BlockCall { block: cont, args: vec![v] });
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
