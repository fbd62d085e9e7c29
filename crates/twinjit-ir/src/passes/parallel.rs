//! `parallel`: outlines each `prange` loop of a `parallel=True` function into a function of its
//! own that runs one chunk of the iterations, and replaces the loop by `parallel_for` (the
//! host runs the chunks on its thread pool) followed by a fold of the reductions' partial
//! results. See "Parallel loops" in ARCHITECTURE.md.
//!
//! The loop is the front end's rotated counted loop, marked by `prange_loop(counter, start,
//! stop, step)` at the top of its header. The pass runs on lowered IR after the other
//! optimisations (so the body's bounds checks are already removed where the whole range proves
//! them: a chunk is a part of that range) and before `refcount`.
//!
//! **Chunks do not depend on the thread count**: a loop of `trip` iterations runs as
//! `min(trip, MAX_CHUNKS)` chunks of consecutive iterations (sizes differing by at most one),
//! and the partial results are combined in chunk order, so a float reduction gives the same
//! bits with 1, 2 or 64 threads, and the interpreter (which runs the chunks one after another)
//! gives them too.
//!
//! **What may cross iterations.** A value carried from one iteration to the next must be a
//! reduction: a variable whose only uses in the loop are `v + x`, `v - x`, `v * x`, `v / x`
//! (additive or multiplicative, not both) or `min(v, x)` / `max(v, x)`, with the results flowing
//! back into `v`. Each chunk starts it from the operation's identity and the parent combines
//! the chunks' results with the value before the loop. Anything else carried (a variable read
//! before it is assigned in the body), a reduction variable read for another purpose, or a
//! value assigned in the loop and read after it, is a located error: such loops race in Numba.

use super::{Pass, SimplifyCfg};
use crate::function::*;
use crate::infer::{TypedFunction, TypedProgram};
use crate::types::{ArrayType, Layout, Scalar, Type};
use crate::verify::DomTree;
use std::collections::{HashMap, HashSet};
use twinjit_diag::{Diagnostic, Span};

/// The most chunks a parallel loop is cut into.
pub const MAX_CHUNKS: i64 = 256;

/// How a reduction's partial results combine.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Combine {
    /// `+`/`-`: identity 0, combined with `+`.
    Add,
    /// `*`/`/`: identity 1, combined with `*`.
    Mul,
    /// `a if a op b else b` (`min`: `Lt`, `max`: `Gt`); `acc_first` when the accumulator is
    /// `a` (`min(acc, x)` is written `x if x < acc else acc`, so it is `b`).
    Pick { op: CmpOp, acc_first: bool },
}

/// One reduction: the header parameter, its back-edge value and how it combines.
struct Reduction {
    param: Value,
    scalar: Scalar,
    combine: Combine,
}

/// Outlines every marked `prange` loop of `program`, adding the chunk functions to it.
pub fn outline(program: &mut TypedProgram) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut i = 0;
    while i < program.functions.len() {
        let mut k = 0;
        while let Some(marker) = find_marker(&program.functions[i].func) {
            let name = format!("{}.prange{k}", program.functions[i].func.name);
            k += 1;
            match outline_loop(&mut program.functions[i].func, marker, &name) {
                // A loop in or around a `try` body runs serially (as Numba runs it).
                Ok(None) => {}
                Ok(Some(chunk)) => {
                    let args = chunk.params().iter().map(|&p| chunk.ty(p).clone()).collect();
                    let parent = &program.functions[i];
                    let tf = TypedFunction {
                        func: chunk,
                        source_name: parent.source_name.clone(),
                        args,
                        kind: parent.kind,
                        fastmath: parent.fastmath,
                    };
                    program.functions.push(tf);
                }
                Err(d) => {
                    diags.extend(d);
                    // Report the function's other loops too: drop this marker and go on.
                    remove_marker(&mut program.functions[i].func, marker);
                }
            }
        }
        i += 1;
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// The first `prange_loop` marker of a reachable block: (block, instruction).
fn find_marker(f: &Function) -> Option<(Block, Inst)> {
    // Most functions have none: skip the walk over their blocks (this runs on every compile).
    if !f.insts.iter().any(|d| matches!(d.kind, InstKind::Builtin(crate::builtins::Builtin::PrangeLoop, _))) {
        return None;
    }
    f.reverse_postorder().into_iter().find_map(|b| {
        f.blocks[b.index()]
            .insts
            .iter()
            .find(|&&i| matches!(f.insts[i.index()].kind, InstKind::Builtin(crate::builtins::Builtin::PrangeLoop, _)))
            .map(|&i| (b, i))
    })
}

fn remove_marker(f: &mut Function, (b, i): (Block, Inst)) {
    f.blocks[b.index()].insts.retain(|&x| x != i);
}

fn error(span: Span, message: impl Into<String>, label: &str, hint: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::error(message, span, label).with_hint(hint)]
}

const NOT_INDEPENDENT: &str = "prange iterations run in any order on several threads; accumulate with \
     `+=`, `-=`, `*=`, `/=`, `min` or `max` (a reduction), or use `range` for a loop whose iterations depend on each other";

/// Where each value is defined (block), for the values of reachable blocks.
fn def_blocks(f: &Function) -> Vec<Option<Block>> {
    let mut at = vec![None; f.values.len()];
    for (bi, bd) in f.blocks.iter().enumerate() {
        let b = Block(bi as u32);
        for &p in &bd.params {
            at[p.index()] = Some(b);
        }
        for &i in &bd.insts {
            if let Some(r) = f.insts[i.index()].result {
                at[r.index()] = Some(b);
            }
        }
    }
    at
}

/// Outlines the loop marked by `marker`; returns the chunk function.
/// Returns `None`, leaving the loop serial, when the loop unwinds to a `try` handler or holds
/// one (Numba runs such a loop serially too).
fn outline_loop(f: &mut Function, marker: (Block, Inst), name: &str) -> Result<Option<Function>, Vec<Diagnostic>> {
    let (h, mi) = marker;
    let span = f.insts[mi.index()].span;
    let InstKind::Builtin(_, ops) = f.insts[mi.index()].kind.clone() else { unreachable!("a marker") };
    let [counter, start, _stop, step] = ops[..] else { unreachable!("four operands") };
    remove_marker(f, marker);
    let Some(ci) = f.blocks[h.index()].params.iter().position(|&p| p == counter) else {
        return Err(error(
            span,
            "this `prange` loop never reaches its next iteration",
            "every path through the body returns, raises or breaks",
            "use `range` for it",
        ));
    };

    let (rpo, dom) = DomTree::with_rpo(f);
    let reachable: HashSet<Block> = rpo.iter().copied().collect();
    // The header's predecessors: one entry, one back edge (the latch).
    let mut entries = Vec::new();
    let mut latches = Vec::new();
    for &b in &rpo {
        for t in f.blocks[b.index()].term.targets() {
            if t.block == h {
                if dom.dominates(h, b) {
                    latches.push(b);
                } else {
                    entries.push(b);
                }
            }
        }
    }
    let (&[pre], &[latch]) = (&entries[..], &latches[..]) else {
        return Err(error(span, "this `prange` loop has an unusual shape", "here", "use `range` for it"));
    };
    // The latch's exit target.
    let exit = match &f.blocks[latch.index()].term {
        Terminator::Branch(_, a, b) if a.block == h && b.block != h => b.block,
        Terminator::Branch(_, a, b) if b.block == h && a.block != h => a.block,
        _ => return Err(error(span, "this `prange` loop has an unusual shape", "here", "use `range` for it")),
    };
    // The loop: blocks the header dominates that come before the exit.
    let in_loop: HashSet<Block> = rpo
        .iter()
        .copied()
        .filter(|&b| dom.dominates(h, b) && !(reachable.contains(&exit) && dom.dominates(exit, b)))
        .collect();
    let handlers = f.handlers();
    if in_loop.iter().any(|b| f.blocks[b.index()].unwind.is_some() || handlers.contains(b)) {
        return Ok(None);
    }
    // Only the latch leaves the loop, and only to the exit.
    for &b in &in_loop {
        let bd = &f.blocks[b.index()];
        if let Terminator::Return(_) = bd.term {
            return Err(error(
                bd.term_span,
                "`return` inside a parallel `prange` loop is not supported",
                "returns from the middle of the loop",
                "compute a result and return it after the loop",
            ));
        }
        for t in bd.term.targets() {
            let leaves_normally = b == latch && t.block == exit;
            if !in_loop.contains(&t.block) && !leaves_normally {
                return Err(error(
                    bd.term_span,
                    "`break` out of a parallel `prange` loop is not supported",
                    "leaves the loop early",
                    "iterations run in any order, so there is no first one to stop at; use `range`",
                ));
            }
        }
    }
    let defs = def_blocks(f);
    let inside = |v: Value| defs[v.index()].is_some_and(|b| in_loop.contains(&b));

    // Reductions: the header's parameters other than the counter.
    let back_args =
        f.blocks[latch.index()].term.targets().into_iter().find(|t| t.block == h).expect("back edge").args.clone();
    let mut reductions = Vec::new();
    for (k, &p) in f.blocks[h.index()].params.iter().enumerate() {
        if k == ci {
            continue;
        }
        let r = reduction(f, p, back_args[k], &in_loop)?;
        reductions.push(r);
    }
    let red_params: Vec<Value> = reductions.iter().map(|r| r.param).collect();
    // Values of the loop used after it: only the reductions' final values.
    let finals: HashMap<Value, usize> = f.blocks[h.index()]
        .params
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != ci)
        .enumerate()
        .map(|(j, (k, _))| (back_args[k], j))
        .collect();
    let exit_args =
        f.blocks[latch.index()].term.targets().into_iter().find(|t| t.block == exit).expect("exit").args.clone();
    let check_outside_use = |v: Value, at: Span| -> Result<(), Vec<Diagnostic>> {
        if inside(v) && !finals.contains_key(&v) {
            let def = f.value_span(v);
            let mut d = Diagnostic::error(
                "a value computed inside a `prange` loop is read after the loop",
                def,
                "assigned in the loop",
            )
            .with_hint("each iteration runs on some thread in any order, so there is no last value (Numba leaves it undefined); keep it in an array indexed by the loop variable, or make it a reduction");
            if at != Span::DUMMY && at != def {
                d = d.with_secondary(at, "read here");
            }
            return Err(vec![d]);
        }
        Ok(())
    };
    for &a in &exit_args {
        check_outside_use(a, Span::DUMMY)?;
    }
    for &b in &rpo {
        if in_loop.contains(&b) {
            continue;
        }
        let bd = &f.blocks[b.index()];
        for &i in &bd.insts {
            for v in f.insts[i.index()].kind.operands() {
                check_outside_use(v, f.insts[i.index()].span)?;
            }
        }
        for v in bd.term.operands() {
            check_outside_use(v, bd.term_span)?;
        }
    }

    // Values the loop reads from outside it: the chunk function's parameters (constants are
    // made again inside).
    let mut live_in = Vec::new();
    let mut seen = HashSet::new();
    let mut blocks_in_order: Vec<Block> = rpo.iter().copied().filter(|b| in_loop.contains(b)).collect();
    blocks_in_order.sort();
    for &b in &blocks_in_order {
        let bd = &f.blocks[b.index()];
        let mut ops: Vec<Value> = bd.insts.iter().flat_map(|&i| f.insts[i.index()].kind.operands()).collect();
        ops.extend(bd.term.operands());
        for v in ops {
            if !inside(v) && seen.insert(v) {
                live_in.push(v);
            }
        }
    }

    // A list from outside the loop changed by its iterations would be resized by several
    // threads at once.
    for &b in &blocks_in_order {
        for &i in &f.blocks[b.index()].insts {
            let d = &f.insts[i.index()];
            if let InstKind::ListSet(l, ..) | InstKind::ListResize(l, _) = d.kind {
                if !inside(l) {
                    return Err(error(
                        d.span,
                        "iterations of this `prange` loop change a list made before the loop",
                        "shared by every iteration",
                        "a list cannot be changed by several threads at once (not thread-safe in Numba either); fill an \
                         array indexed by the loop variable instead",
                    ));
                }
            }
        }
    }
    let arrays = array_reductions(f, &in_loop, counter, &live_in)?;

    // The chunk function: a copy of `f` whose entry computes the chunk's range and jumps to the
    // header; everything outside the loop becomes unreachable.
    let mut g = f.clone();
    g.name = name.to_string();
    g.ret = Type::None;
    g.blocks[0] = BlockData {
        params: Vec::new(),
        insts: Vec::new(),
        term: Terminator::Unreachable,
        term_span: span,
        unwind: None,
    };
    let entry = Function::ENTRY;
    let mut names = Vec::new();
    let mut param = |g: &mut Function, ty: Type, n: &str| {
        names.push(n.to_string());
        g.add_block_param(entry, ty)
    };
    let c = param(&mut g, Type::I64, "chunk");
    let g_start = param(&mut g, Type::I64, "start");
    let g_step = param(&mut g, Type::I64, "step");
    let g_trip = param(&mut g, Type::I64, "trip");
    let g_n = param(&mut g, Type::I64, "chunks");
    let mut map: HashMap<Value, Value> = HashMap::new();
    let mut passed = Vec::new();
    // A dimension of an array the loop reads is read again from the array (so that the chunk's
    // bounds checks and range tests still see a dimension).
    let mut pass_in = |g: &mut Function, map: &mut HashMap<Value, Value>, v: Value| -> Value {
        if let Some(&nv) = map.get(&v) {
            return nv;
        }
        passed.push(v);
        let nv = param(g, f.ty(v).clone(), &format!("in{}", v.index()));
        map.insert(v, nv);
        nv
    };
    for &v in &live_in {
        if map.contains_key(&v) {
            continue;
        }
        let def = f.def_inst(v);
        let nv = match def.map(|d| &d.kind) {
            Some(k @ (InstKind::Const(_) | InstKind::FuncRef(_) | InstKind::ConstArray(_))) => {
                g.push(entry, k.clone(), Some(f.ty(v).clone()), def.expect("defined").span).expect("a result")
            }
            Some(&InstKind::Dim(a, axis)) if !inside(a) => {
                let na = pass_in(&mut g, &mut map, a);
                g.push(entry, InstKind::Dim(na, axis), Some(Type::I64), def.expect("defined").span).expect("a result")
            }
            _ => pass_in(&mut g, &mut map, v),
        };
        map.insert(v, nv);
    }
    let part_ty = |s: Scalar| Type::Array(ArrayType { dtype: s, ndim: 1, layout: Layout::C });
    let g_parts: Vec<Value> =
        reductions.iter().enumerate().map(|(j, r)| param(&mut g, part_ty(r.scalar), &format!("part{j}"))).collect();
    let g_aparts: Vec<Value> =
        arrays.iter().enumerate().map(|(j, a)| param(&mut g, part_ty(a.dtype), &format!("apart{j}"))).collect();
    g.param_names = names;
    g.param_spans = vec![span; g.param_names.len()];
    for &b in &in_loop {
        let insts = g.blocks[b.index()].insts.clone();
        for i in insts {
            g.insts[i.index()].kind.map_operands(|v| map.get(&v).copied().unwrap_or(v));
        }
        g.blocks[b.index()].term.map_operands(|v| map.get(&v).copied().unwrap_or(v));
    }
    // Entry: this chunk's iterations [klo, khi) of the trip, sizes differing by at most one.
    let e = |g: &mut Function, k: InstKind, ty: Type| g.push(entry, k, Some(ty), span).expect("a result");
    // A constant start or step (`prange(n)`) is a constant here too.
    let g_start = f.const_int(start).map_or(g_start, |k| e(&mut g, InstKind::Const(Const::Int(k)), Type::I64));
    let g_step = f.const_int(step).map_or(g_step, |k| e(&mut g, InstKind::Const(Const::Int(k)), Type::I64));
    let base = e(&mut g, InstKind::Binary(BinaryOp::FloorDiv, g_trip, g_n), Type::I64);
    let rem = e(&mut g, InstKind::Binary(BinaryOp::Mod, g_trip, g_n), Type::I64);
    let lt = e(&mut g, InstKind::Compare(CmpOp::Lt, c, rem), Type::BOOL);
    let extra = e(&mut g, InstKind::Select(lt, c, rem), Type::I64);
    let cb = e(&mut g, InstKind::Binary(BinaryOp::Mul, c, base), Type::I64);
    let klo = e(&mut g, InstKind::Binary(BinaryOp::Add, cb, extra), Type::I64);
    let one = e(&mut g, InstKind::Const(Const::Int(1)), Type::I64);
    let zero = e(&mut g, InstKind::Const(Const::Int(0)), Type::I64);
    let add1 = e(&mut g, InstKind::Select(lt, one, zero), Type::I64);
    let kb = e(&mut g, InstKind::Binary(BinaryOp::Add, klo, base), Type::I64);
    let khi = e(&mut g, InstKind::Binary(BinaryOp::Add, kb, add1), Type::I64);
    let ks = e(&mut g, InstKind::Binary(BinaryOp::Mul, klo, g_step), Type::I64);
    let first = e(&mut g, InstKind::Binary(BinaryOp::Add, g_start, ks), Type::I64);
    let mut entry_args = Vec::new();
    let mut j = 0;
    for k in 0..f.blocks[h.index()].params.len() {
        if k == ci {
            entry_args.push(first);
        } else {
            let r = &reductions[j];
            j += 1;
            entry_args.push(e(&mut g, InstKind::Const(identity(r.scalar, r.combine)), Type::Scalar(r.scalar)));
        }
    }
    // The latch's test: with a step of 1 (`prange(n)`, `prange(a, b)`) the loop's own counter
    // against the chunk's end, so the chunk loop has one induction variable (what `unroll` and
    // `loop_version` recognise); otherwise a second counter of the chunk's iterations.
    enum LatchTest {
        /// `i + 1 < end`, the loop's own counter.
        OwnCounter(Value),
        /// `kk + 1 < khi`, a counter of the chunk's iterations (a header parameter).
        ChunkCounter(Value),
    }
    let latch_test = if f.const_int(step) == Some(1) {
        LatchTest::OwnCounter(e(&mut g, InstKind::Binary(BinaryOp::Add, g_start, khi), Type::I64))
    } else {
        entry_args.push(klo);
        LatchTest::ChunkCounter(g.add_block_param(h, Type::I64))
    };
    // Each array reduction works on this chunk's private copy: row `chunk` of its partials,
    // viewed with the array's shape and filled with the identity.
    let mut at = entry;
    let mut private = HashMap::new();
    for (j, a) in arrays.iter().enumerate() {
        let arr = map[&a.value];
        let dims: Vec<Value> = (0..a.ndim)
            .map(|k| g.push(at, InstKind::Dim(arr, k as i64), Some(Type::I64), span).expect("a result"))
            .collect();
        let size = product(&mut g, at, &dims, span);
        let mut strides = vec![one; dims.len()];
        for k in (0..dims.len().saturating_sub(1)).rev() {
            strides[k] = g
                .push(at, InstKind::Binary(BinaryOp::Mul, strides[k + 1], dims[k + 1]), Some(Type::I64), span)
                .expect("a result");
        }
        let row = g.push(at, InstKind::Binary(BinaryOp::Mul, c, size), Some(Type::I64), span).expect("a result");
        let vty = Type::Array(ArrayType { dtype: a.dtype, ndim: a.ndim, layout: Layout::C });
        let view = InstKind::View { base: g_aparts[j], offset: row, shape: dims, strides };
        let p = g.push(at, view, Some(vty), span).expect("a result");
        let idv = g
            .push(at, InstKind::Const(identity(a.dtype, a.combine)), Some(Type::Scalar(a.dtype)), span)
            .expect("a result");
        let apart = g_aparts[j];
        at = counted(&mut g, at, size, span, &mut |g, b, t| {
            let o = g.push(b, InstKind::Binary(BinaryOp::Add, row, t), Some(Type::I64), span).expect("a result");
            g.push(b, InstKind::Store(apart, o, idv), None, span);
            b
        });
        private.insert(arr, p);
    }
    if !private.is_empty() {
        for &b in &in_loop {
            let insts = g.blocks[b.index()].insts.clone();
            for i in insts {
                g.insts[i.index()].kind.map_operands(|v| private.get(&v).copied().unwrap_or(v));
            }
            g.blocks[b.index()].term.map_operands(|v| private.get(&v).copied().unwrap_or(v));
        }
    }
    g.terminate(at, Terminator::Jump(BlockCall { block: h, args: entry_args }), span);
    // The latch counts the chunk's iterations and ends in `done`, which stores the partials.
    let done = g.add_block();
    let dparams: Vec<Value> = reductions.iter().map(|r| g.add_block_param(done, Type::Scalar(r.scalar))).collect();
    for (j, &d) in dparams.iter().enumerate() {
        g.push(done, InstKind::Store(g_parts[j], c, d), None, span);
    }
    g.terminate(done, Terminator::Return(None), span);
    let mut back = back_args.iter().map(|v| map.get(v).copied().unwrap_or(*v)).collect::<Vec<_>>();
    let more = match latch_test {
        LatchTest::ChunkCounter(kk) => {
            let k1 = g.push(latch, InstKind::Binary(BinaryOp::Add, kk, one), Some(Type::I64), span).expect("a result");
            back.push(k1);
            g.push(latch, InstKind::Compare(CmpOp::Lt, k1, khi), Some(Type::BOOL), span).expect("a result")
        }
        LatchTest::OwnCounter(end) => {
            let next = back[ci];
            g.push(latch, InstKind::Compare(CmpOp::Lt, next, end), Some(Type::BOOL), span).expect("a result")
        }
    };
    let finals_g: Vec<Value> = reductions
        .iter()
        .map(|r| {
            let k = f.blocks[h.index()].params.iter().position(|&p| p == r.param).expect("a header parameter");
            map.get(&back_args[k]).copied().unwrap_or(back_args[k])
        })
        .collect();
    let lspan = g.blocks[latch.index()].term_span;
    g.terminate(
        latch,
        Terminator::Branch(more, BlockCall { block: h, args: back }, BlockCall { block: done, args: finals_g }),
        lspan,
    );
    SimplifyCfg.run(&mut g);
    super::Dce.run(&mut g);

    // The parent: the entry edge goes to `par`, which runs the chunks and folds the partials.
    let entry_call =
        f.blocks[pre.index()].term.targets().into_iter().find(|t| t.block == h).expect("entry edge").clone();
    let par = f.add_block();
    for t in f.blocks[pre.index()].term.targets_mut() {
        if t.block == h {
            *t = BlockCall { block: par, args: Vec::new() };
        }
    }
    let p = |f: &mut Function, b: Block, k: InstKind, ty: Type| f.push(b, k, Some(ty), span).expect("a result");
    // The trip count (the entry test passed, so the range is not empty; a zero step runs
    // nothing, as the serial loop documents).
    let zero = p(f, par, InstKind::Const(Const::Int(0)), Type::I64);
    let one = p(f, par, InstKind::Const(Const::Int(1)), Type::I64);
    let stop = ops[2];
    let pos = p(f, par, InstKind::Compare(CmpOp::Gt, step, zero), Type::BOOL);
    let up = p(f, par, InstKind::Binary(BinaryOp::Sub, stop, start), Type::I64);
    let down = p(f, par, InstKind::Binary(BinaryOp::Sub, start, stop), Type::I64);
    let dist = p(f, par, InstKind::Select(pos, up, down), Type::I64);
    let dist1 = p(f, par, InstKind::Binary(BinaryOp::Sub, dist, one), Type::I64);
    let neg = p(f, par, InstKind::Unary(UnaryOp::Neg, step), Type::I64);
    let mag = p(f, par, InstKind::Select(pos, step, neg), Type::I64);
    let is0 = p(f, par, InstKind::Compare(CmpOp::Eq, step, zero), Type::BOOL);
    let den = p(f, par, InstKind::Select(is0, one, mag), Type::I64);
    let q = p(f, par, InstKind::Binary(BinaryOp::FloorDiv, dist1, den), Type::I64);
    let t1 = p(f, par, InstKind::Binary(BinaryOp::Add, q, one), Type::I64);
    let trip = p(f, par, InstKind::Select(is0, zero, t1), Type::I64);
    let cap = p(f, par, InstKind::Const(Const::Int(MAX_CHUNKS)), Type::I64);
    let small = p(f, par, InstKind::Compare(CmpOp::Lt, trip, cap), Type::BOOL);
    let n = p(f, par, InstKind::Select(small, trip, cap), Type::I64);
    let parts: Vec<Value> = reductions
        .iter()
        .map(|r| p(f, par, InstKind::NewArray { dtype: r.scalar, shape: vec![n], zeroed: false }, part_ty(r.scalar)))
        .collect();
    let mut asizes = Vec::new();
    let mut aparts = Vec::new();
    for a in &arrays {
        let dims: Vec<Value> = (0..a.ndim).map(|k| p(f, par, InstKind::Dim(a.value, k as i64), Type::I64)).collect();
        let size = product(f, par, &dims, span);
        let total = p(f, par, InstKind::Binary(BinaryOp::Mul, n, size), Type::I64);
        aparts.push(p(
            f,
            par,
            InstKind::NewArray { dtype: a.dtype, shape: vec![total], zeroed: false },
            part_ty(a.dtype),
        ));
        asizes.push(size);
    }
    let mut args = vec![n, start, step, trip, n];
    args.extend(passed.iter().copied());
    args.extend(parts.iter().copied());
    args.extend(aparts.iter().copied());
    f.push(par, InstKind::ParallelFor(name.to_string(), args), None, span);
    // Array reductions: a[t] = a[t] op part[c, t], chunk after chunk.
    let mut tail = par;
    for (j, a) in arrays.iter().enumerate() {
        let (size, apart, arr, ty) = (asizes[j], aparts[j], a.value, Type::Scalar(a.dtype));
        let combine = a.combine;
        tail = counted(f, tail, n, span, &mut |f, b, cc| {
            let row = f.push(b, InstKind::Binary(BinaryOp::Mul, cc, size), Some(Type::I64), span).expect("a result");
            counted(f, b, size, span, &mut |f, b2, t| {
                let o = f.push(b2, InstKind::Binary(BinaryOp::Add, row, t), Some(Type::I64), span).expect("a result");
                let x = f.push(b2, InstKind::Load(apart, o), Some(ty.clone()), span).expect("a result");
                let y = f.push(b2, InstKind::Load(arr, t), Some(ty.clone()), span).expect("a result");
                let op = if combine == Combine::Add { BinaryOp::Add } else { BinaryOp::Mul };
                let z = f.push(b2, InstKind::Binary(op, y, x), Some(ty.clone()), span).expect("a result");
                f.push(b2, InstKind::Store(arr, t, z), None, span);
                b2
            })
        });
    }
    let par = tail;
    // Fold: r = init; for c in 0..n: r = combine(r, part[c]).
    let inits: Vec<Value> = red_params
        .iter()
        .map(|&rp| {
            let k = f.blocks[h.index()].params.iter().position(|&x| x == rp).expect("a header parameter");
            entry_call.args[k]
        })
        .collect();
    let after = f.add_block();
    let results: Vec<Value> = reductions.iter().map(|r| f.add_block_param(after, Type::Scalar(r.scalar))).collect();
    if reductions.is_empty() {
        f.terminate(par, Terminator::Jump(BlockCall { block: after, args: Vec::new() }), span);
    } else {
        let fold = f.add_block();
        let fc = f.add_block_param(fold, Type::I64);
        let accs: Vec<Value> = reductions.iter().map(|r| f.add_block_param(fold, Type::Scalar(r.scalar))).collect();
        let any = p(f, par, InstKind::Compare(CmpOp::Gt, n, zero), Type::BOOL);
        let mut fold_args = vec![zero];
        fold_args.extend(inits.iter().copied());
        f.terminate(
            par,
            Terminator::Branch(
                any,
                BlockCall { block: fold, args: fold_args },
                BlockCall { block: after, args: inits.clone() },
            ),
            span,
        );
        let mut next = Vec::new();
        for (j, r) in reductions.iter().enumerate() {
            let ty = Type::Scalar(r.scalar);
            let x = p(f, fold, InstKind::Load(parts[j], fc), ty.clone());
            let acc = accs[j];
            let v = match r.combine {
                Combine::Add => p(f, fold, InstKind::Binary(BinaryOp::Add, acc, x), ty),
                Combine::Mul => p(f, fold, InstKind::Binary(BinaryOp::Mul, acc, x), ty),
                Combine::Pick { op, acc_first } => {
                    let (a, b) = if acc_first { (acc, x) } else { (x, acc) };
                    let cmp = p(f, fold, InstKind::Compare(op, a, b), Type::BOOL);
                    p(f, fold, InstKind::Select(cmp, a, b), ty)
                }
            };
            next.push(v);
        }
        let one = p(f, fold, InstKind::Const(Const::Int(1)), Type::I64);
        let c1 = p(f, fold, InstKind::Binary(BinaryOp::Add, fc, one), Type::I64);
        let more = p(f, fold, InstKind::Compare(CmpOp::Lt, c1, n), Type::BOOL);
        let mut again = vec![c1];
        again.extend(next.iter().copied());
        f.terminate(
            fold,
            Terminator::Branch(more, BlockCall { block: fold, args: again }, BlockCall { block: after, args: next }),
            span,
        );
    }
    // After the loop: the exit with the reductions' results in place of their final values.
    let to_result = |v: Value| finals.get(&v).map(|&j| results[j]).unwrap_or(v);
    let xargs: Vec<Value> = exit_args.iter().map(|&v| to_result(v)).collect();
    f.terminate(after, Terminator::Jump(BlockCall { block: exit, args: xargs }), span);
    // Where the exit is reached only from the loop, code after it may read the final values
    // directly.
    for b in rpo.iter().copied().filter(|b| !in_loop.contains(b)) {
        let insts = f.blocks[b.index()].insts.clone();
        for i in insts {
            f.insts[i.index()].kind.map_operands(to_result);
        }
        f.blocks[b.index()].term.map_operands(to_result);
    }
    SimplifyCfg.run(f);
    super::Dce.run(f);
    Ok(Some(g))
}

/// The product of int64 values (1 for none), emitted at the end of `b`.
fn product(f: &mut Function, b: Block, xs: &[Value], span: Span) -> Value {
    let mut acc = f.push(b, InstKind::Const(Const::Int(1)), Some(Type::I64), span).expect("a result");
    for &x in xs {
        acc = f.push(b, InstKind::Binary(BinaryOp::Mul, acc, x), Some(Type::I64), span).expect("a result");
    }
    acc
}

/// Emits `for t in 0..n: body` after the code of `at` (`body` gets the block to emit into and
/// `t`, and returns the block its code ends in); returns the block code continues in.
fn counted(
    f: &mut Function,
    at: Block,
    n: Value,
    span: Span,
    body: &mut dyn FnMut(&mut Function, Block, Value) -> Block,
) -> Block {
    let zero = f.push(at, InstKind::Const(Const::Int(0)), Some(Type::I64), span).expect("a result");
    let any = f.push(at, InstKind::Compare(CmpOp::Gt, n, zero), Some(Type::BOOL), span).expect("a result");
    let lp = f.add_block();
    let t = f.add_block_param(lp, Type::I64);
    let cont = f.add_block();
    f.terminate(
        at,
        Terminator::Branch(any, BlockCall { block: lp, args: vec![zero] }, BlockCall { block: cont, args: Vec::new() }),
        span,
    );
    let end = body(f, lp, t);
    let one = f.push(end, InstKind::Const(Const::Int(1)), Some(Type::I64), span).expect("a result");
    let t1 = f.push(end, InstKind::Binary(BinaryOp::Add, t, one), Some(Type::I64), span).expect("a result");
    let more = f.push(end, InstKind::Compare(CmpOp::Lt, t1, n), Some(Type::BOOL), span).expect("a result");
    f.terminate(
        end,
        Terminator::Branch(more, BlockCall { block: lp, args: vec![t1] }, BlockCall { block: cont, args: Vec::new() }),
        span,
    );
    cont
}

/// An array from outside the loop that its iterations update as a whole (`y += x[i]`,
/// `r *= t`): each chunk accumulates into a private copy, combined in chunk order afterwards.
struct ArrayReduction {
    value: Value,
    dtype: Scalar,
    ndim: u8,
    combine: Combine,
}

/// Checks the loop's writes to arrays from outside it: a write at an element offset that
/// depends on the loop counter is the iteration's own part (the front end checked it is
/// one-to-one); an array written elsewhere must be a whole-array reduction (read only to be
/// updated with one kind of operation), else the iterations race on it.
fn array_reductions(
    f: &Function,
    in_loop: &HashSet<Block>,
    counter: Value,
    live_in: &[Value],
) -> Result<Vec<ArrayReduction>, Vec<Diagnostic>> {
    let mut blocks: Vec<Block> = in_loop.iter().copied().collect();
    blocks.sort();
    let insts: Vec<Inst> = blocks.iter().flat_map(|b| f.blocks[b.index()].insts.iter().copied()).collect();
    // Values of the loop that depend on the counter.
    let mut dep: HashSet<Value> = HashSet::from([counter]);
    loop {
        let before = dep.len();
        for &i in &insts {
            let d = &f.insts[i.index()];
            if let Some(r) = d.result {
                if d.kind.operands().iter().any(|v| dep.contains(v)) {
                    dep.insert(r);
                }
            }
        }
        for &b in &blocks {
            for t in f.blocks[b.index()].term.targets() {
                for (k, a) in t.args.iter().enumerate() {
                    if dep.contains(a) && in_loop.contains(&t.block) {
                        dep.insert(f.blocks[t.block.index()].params[k]);
                    }
                }
            }
        }
        if dep.len() == before {
            break;
        }
    }
    let racy = |at: Span, what: &str| {
        error(
            at,
            format!("iterations of this `prange` loop {what}"),
            "shared by every iteration",
            "give each iteration its own elements (index the array by the loop variable), or update the whole array with `y += ...`, `y -= ...`, `y *= ...` or `y /= ...` (an array reduction)",
        )
    };
    let mut out = Vec::new();
    for &a in live_in {
        let Type::Array(at) = f.ty(a) else { continue };
        // The array and views of it made in the loop.
        let mut ish: HashSet<Value> = HashSet::from([a]);
        loop {
            let before = ish.len();
            for &i in &insts {
                if let (InstKind::View { base, .. }, Some(r)) = (&f.insts[i.index()].kind, f.insts[i.index()].result) {
                    if ish.contains(base) {
                        ish.insert(r);
                    }
                }
            }
            if ish.len() == before {
                break;
            }
        }
        let stores: Vec<Inst> = insts
            .iter()
            .copied()
            .filter(|&i| matches!(f.insts[i.index()].kind, InstKind::Store(arr, _, _) if ish.contains(&arr)))
            .collect();
        let shared: Vec<Inst> = stores
            .iter()
            .copied()
            .filter(|&i| matches!(f.insts[i.index()].kind, InstKind::Store(arr, o, _) if !dep.contains(&arr) && !dep.contains(&o)))
            .collect();
        if shared.is_empty() {
            continue;
        }
        let first = f.insts[shared[0].index()].span;
        if shared.len() != stores.len() {
            return Err(racy(first, "write one element of an array both as their own and as all iterations' element"));
        }
        // Every use of the array in the loop: dimensions, strides, views, loads that feed one
        // update, and stores of such updates.
        let mut uses_ok = true;
        let mut bad_at = first;
        let mut combine: Option<Combine> = None;
        let mut updates: HashSet<Value> = HashSet::new();
        for &i in &insts {
            let d = &f.insts[i.index()];
            let touches = d.kind.operands().iter().any(|v| ish.contains(v));
            if !touches {
                continue;
            }
            match &d.kind {
                InstKind::Dim(..) | InstKind::Stride(..) => {}
                InstKind::View { base, offset, shape, strides }
                    if ish.contains(base) && !shape.iter().chain(strides).chain([offset]).any(|v| ish.contains(v)) => {}
                InstKind::Load(arr, o) if ish.contains(arr) && !ish.contains(o) => {
                    let r = d.result.expect("a load has a result");
                    // Its only use: `r op x`, whose only use is a store into the array.
                    let users: Vec<&InstData> =
                        insts.iter().map(|&j| &f.insts[j.index()]).filter(|u| u.kind.operands().contains(&r)).collect();
                    let [u] = users[..] else {
                        uses_ok = false;
                        bad_at =
                            users.iter().find(|u| !matches!(u.kind, InstKind::Binary(..))).map_or(d.span, |u| u.span);
                        break;
                    };
                    let c = match u.kind {
                        InstKind::Binary(BinaryOp::Add, x, y) if (x == r) != (y == r) => Combine::Add,
                        InstKind::Binary(BinaryOp::Sub, x, y) if x == r && y != r => Combine::Add,
                        InstKind::Binary(BinaryOp::Mul, x, y) if (x == r) != (y == r) => Combine::Mul,
                        InstKind::Binary(BinaryOp::Div, x, y) if x == r && y != r => Combine::Mul,
                        _ => {
                            uses_ok = false;
                            bad_at = u.span;
                            break;
                        }
                    };
                    if combine.is_some_and(|k| k != c) {
                        return Err(error(
                            u.span,
                            "a `prange` array reduction mixes operators",
                            "a different operation on the same array",
                            "one reduction array takes one kind of update (`+=`/`-=` or `*=`/`/=`); use two arrays",
                        ));
                    }
                    combine = Some(c);
                    updates.insert(u.result.expect("a binary operation has a result"));
                }
                InstKind::Store(arr, o, _) if ish.contains(arr) && !ish.contains(o) => {}
                _ => {
                    uses_ok = false;
                    bad_at = d.span;
                    break;
                }
            }
        }
        // Each stored value is an update, each update is only stored (or the loop reads its
        // running value).
        let stored_ok =
            stores.iter().all(|&i| matches!(f.insts[i.index()].kind, InstKind::Store(_, _, v) if updates.contains(&v)));
        let updates_only_stored = updates.iter().all(|&u| {
            insts.iter().all(|&j| {
                let d = &f.insts[j.index()];
                !d.kind.operands().contains(&u)
                    || matches!(d.kind, InstKind::Store(arr, _, v) if v == u && ish.contains(&arr))
            }) && blocks.iter().all(|b| !f.blocks[b.index()].term.operands().contains(&u))
        });
        let no_other_term_use =
            blocks.iter().all(|b| !f.blocks[b.index()].term.operands().iter().any(|v| ish.contains(v)));
        let (Some(combine), true) = (combine, uses_ok && stored_ok && updates_only_stored && no_other_term_use) else {
            return Err(racy(bad_at, "write the same elements of an array from outside the loop"));
        };
        if at.layout != Layout::C || !(at.dtype.is_int() || at.dtype.is_float()) {
            return Err(error(
                first,
                "this `prange` array reduction needs a C-contiguous integer or float array",
                "updated by every iteration",
                "accumulate into a fresh array (`y = np.zeros(n)`) and copy it where it belongs after the loop",
            ));
        }
        out.push(ArrayReduction { value: a, dtype: at.dtype, ndim: at.ndim, combine });
    }
    Ok(out)
}

/// The identity a chunk starts a reduction from.
fn identity(s: Scalar, combine: Combine) -> Const {
    match combine {
        Combine::Add if s.is_float() => Const::Float(0.0),
        Combine::Add => Const::Int(0),
        Combine::Mul if s.is_float() => Const::Float(1.0),
        Combine::Mul => Const::Int(1),
        Combine::Pick { op, .. } => {
            let min = op == CmpOp::Lt;
            if s.is_float() {
                Const::Float(if min { f64::INFINITY } else { f64::NEG_INFINITY })
            } else {
                let (lo, hi) = s.int_range();
                Const::Int((if min { hi } else { lo }) as i64)
            }
        }
    }
}

/// Checks that header parameter `p` (back-edge value `back`) is a reduction, and how it
/// combines.
fn reduction(f: &Function, p: Value, back: Value, in_loop: &HashSet<Block>) -> Result<Reduction, Vec<Diagnostic>> {
    let carried = |at: Span| {
        error(
            at,
            "this `prange` loop carries a value from one iteration to the next",
            "depends on an earlier iteration",
            NOT_INDEPENDENT,
        )
    };
    let at = || first_use_span(f, p, in_loop).or_else(|| assigned_span(f, back, in_loop)).unwrap_or(f.span);
    let scalar = match f.ty(p) {
        Type::Scalar(s) if s.is_int() || s.is_float() => *s,
        Type::Scalar(s) => {
            return Err(error(
                at(),
                format!("a `prange` reduction of {} values is not supported yet", s.name()),
                "carried from one iteration to the next",
                "reductions take integers and floats; accumulate a complex sum's real and imaginary parts in two \
                 float variables, a flag with `n += 1` and `n > 0` after the loop",
            ))
        }
        _ => return Err(carried(at())),
    };
    // Uses of every value of the loop.
    let mut uses: HashMap<Value, Vec<Use>> = HashMap::new();
    for bd in f.blocks.iter().enumerate().filter(|(bi, _)| in_loop.contains(&Block(*bi as u32))).map(|(_, bd)| bd) {
        for &i in &bd.insts {
            for v in f.insts[i.index()].kind.operands() {
                uses.entry(v).or_default().push(Use::Inst(i));
            }
        }
        match &bd.term {
            Terminator::Jump(_) | Terminator::Branch(..) => {
                if let Terminator::Branch(cv, _, _) = &bd.term {
                    uses.entry(*cv).or_default().push(Use::Other(bd.term_span));
                }
                for t in bd.term.targets() {
                    for (k, &a) in t.args.iter().enumerate() {
                        let q = f.blocks[t.block.index()].params[k];
                        uses.entry(a).or_default().push(Use::Arg(t.block, q));
                    }
                }
            }
            t => {
                for v in t.operands() {
                    uses.entry(v).or_default().push(Use::Other(bd.term_span));
                }
            }
        }
    }
    let mut set: HashSet<Value> = HashSet::from([p]);
    let mut work = vec![p];
    let mut combine: Option<Combine> = None;
    let mut picks: HashSet<Inst> = HashSet::new();
    let mut joins: Vec<Inst> = Vec::new();
    let mut params = vec![p];
    let mixed = |at: Span| {
        error(
            at,
            "a `prange` reduction mixes operators",
            "a different operation on the same variable",
            "one reduction variable takes one kind of update (`+`/`-`, `*`/`/`, `min` or `max`); use two variables",
        )
    };
    while let Some(v) = work.pop() {
        for u in uses.get(&v).cloned().unwrap_or_default() {
            match u {
                Use::Arg(b, q) => {
                    if !in_loop.contains(&b) {
                        continue;
                    }
                    if set.insert(q) {
                        params.push(q);
                        work.push(q);
                    }
                }
                Use::Other(at) => return Err(misuse(combine.is_some(), at)),
                Use::Inst(i) => {
                    let d = &f.insts[i.index()];
                    if picks.contains(&i) {
                        continue;
                    }
                    // A conditional update written as a select (if-converted: `s = s + x if c
                    // else s`): a join of two reduction values, checked once the set is known.
                    if let InstKind::Select(c, _, _) = &d.kind {
                        if !set.contains(c) {
                            joins.push(i);
                            let r = d.result.expect("a select has a result");
                            if set.insert(r) {
                                work.push(r);
                            }
                            continue;
                        }
                    }
                    let (kind, result) = match &d.kind {
                        InstKind::Binary(op, a, b) => {
                            let (ina, inb) = (set.contains(a), set.contains(b));
                            let c = match op {
                                BinaryOp::Add if ina != inb => Combine::Add,
                                BinaryOp::Sub if ina && !inb => Combine::Add,
                                BinaryOp::Mul if ina != inb => Combine::Mul,
                                BinaryOp::Div if ina && !inb => Combine::Mul,
                                _ => return Err(misuse(combine.is_some(), d.span)),
                            };
                            (c, d.result)
                        }
                        InstKind::Compare(op @ (CmpOp::Lt | CmpOp::Gt), a, b) => {
                            let (ina, inb) = (set.contains(a), set.contains(b));
                            if ina == inb {
                                return Err(misuse(combine.is_some(), d.span));
                            }
                            // Its only use: `select(c, a, b)`.
                            let c = d.result.expect("a compare has a result");
                            let Some(&[Use::Inst(s)]) = uses.get(&c).map(|u| u.as_slice()) else {
                                return Err(misuse(combine.is_some(), d.span));
                            };
                            match &f.insts[s.index()].kind {
                                InstKind::Select(sc, x, y) if *sc == c && x == a && y == b => {}
                                _ => return Err(misuse(combine.is_some(), d.span)),
                            }
                            picks.insert(s);
                            (Combine::Pick { op: *op, acc_first: ina }, f.insts[s.index()].result)
                        }
                        _ => return Err(misuse(combine.is_some(), d.span)),
                    };
                    match combine {
                        None => combine = Some(kind),
                        Some(c) if c == kind => {}
                        Some(_) => return Err(mixed(d.span)),
                    }
                    let r = result.expect("an operation has a result");
                    if f.ty(r) != f.ty(p) {
                        return Err(misuse(combine.is_some(), d.span));
                    }
                    if set.insert(r) {
                        work.push(r);
                    }
                }
            }
        }
    }
    if !set.contains(&back) {
        return Err(carried(at()));
    }
    // A select joins two reduction values, never a reduction value and another.
    for i in joins {
        if let InstKind::Select(_, x, y) = &f.insts[i.index()].kind {
            if !(set.contains(x) && set.contains(y)) {
                return Err(carried(f.insts[i.index()].span));
            }
        }
    }
    // Every parameter the reduction flows through receives only reduction values (no reset
    // to another value on some path), except the header's entry edge.
    for bd in f.blocks.iter().enumerate().filter(|(bi, _)| in_loop.contains(&Block(*bi as u32))).map(|(_, bd)| bd) {
        for t in bd.term.targets() {
            for (k, &a) in t.args.iter().enumerate() {
                let q = f.blocks[t.block.index()].params[k];
                if set.contains(&q) && !set.contains(&a) {
                    return Err(carried(f.value_span(a)));
                }
            }
        }
    }
    let combine = match combine {
        Some(c) => c,
        None => return Err(carried(at())),
    };
    Ok(Reduction { param: p, scalar, combine })
}

#[derive(Clone, Copy, Debug)]
enum Use {
    Inst(Inst),
    /// Passed to block `.0`'s parameter `.1`.
    Arg(Block, Value),
    /// A branch condition, a returned or raised value.
    Other(Span),
}

/// A use of a carried value that is not a reduction's update: a read of a reduction's running
/// value once an update was seen, else a value carried between iterations.
fn misuse(is_reduction: bool, at: Span) -> Vec<Diagnostic> {
    if is_reduction {
        read_inside(at)
    } else {
        error(
            at,
            "this `prange` loop carries a value from one iteration to the next",
            "depends on an earlier iteration",
            NOT_INDEPENDENT,
        )
    }
}

fn read_inside(at: Span) -> Vec<Diagnostic> {
    error(
        at,
        "a `prange` reduction variable is read inside the loop",
        "reads the running value",
        "a reduction variable may only be updated (`s += x`, `s = min(s, x)`); its running value differs per thread",
    )
}

/// Where a value of the loop that reaches `v` (the back edge's value of a carried variable) is
/// computed: through block parameters of the loop to the first instruction result.
fn assigned_span(f: &Function, v: Value, in_loop: &HashSet<Block>) -> Option<Span> {
    let mut work = vec![v];
    let mut seen = HashSet::new();
    while let Some(x) = work.pop() {
        if !seen.insert(x) {
            continue;
        }
        match f.values[x.index()].def {
            ValueDef::Inst(i) => return Some(f.insts[i.index()].span),
            ValueDef::Param(b, k) if in_loop.contains(&b) => {
                for (bi, bd) in f.blocks.iter().enumerate() {
                    if !in_loop.contains(&Block(bi as u32)) {
                        continue;
                    }
                    for t in bd.term.targets().into_iter().filter(|t| t.block == b) {
                        work.push(t.args[k as usize]);
                    }
                }
            }
            ValueDef::Param(..) => {}
        }
    }
    None
}

fn first_use_span(f: &Function, v: Value, in_loop: &HashSet<Block>) -> Option<Span> {
    let mut blocks: Vec<usize> = in_loop.iter().map(|b| b.index()).collect();
    blocks.sort();
    blocks.into_iter().find_map(|b| {
        f.blocks[b].insts.iter().map(|&i| &f.insts[i.index()]).find(|d| d.kind.operands().contains(&v)).map(|d| d.span)
    })
}

/// Replaces every `parallel_for` of `f` by a loop of calls, chunk after chunk (for targets
/// that run a parallel loop on one thread: the GPU's single-thread kernels of host functions).
/// The result equals the parallel run's: chunks are independent and their partials are
/// combined in order either way.
pub fn serialize(f: &mut Function) {
    loop {
        let found = f.blocks.iter().enumerate().find_map(|(bi, bd)| {
            bd.insts
                .iter()
                .position(|&i| matches!(f.insts[i.index()].kind, InstKind::ParallelFor(..)))
                .map(|pos| (bi, pos))
        });
        let Some((bi, pos)) = found else { return };
        let b = Block(bi as u32);
        let inst = f.blocks[bi].insts[pos];
        let span = f.insts[inst.index()].span;
        let InstKind::ParallelFor(name, args) = f.insts[inst.index()].kind.clone() else { unreachable!() };
        // Split: the rest of the block continues after the loop.
        let cont = f.add_block();
        let rest = f.blocks[bi].insts.split_off(pos + 1);
        f.blocks[bi].insts.pop();
        let term = std::mem::replace(&mut f.blocks[bi].term, Terminator::Unreachable);
        let tspan = f.blocks[bi].term_span;
        f.blocks[cont.index()].insts = rest;
        f.terminate(cont, term, tspan);
        let unwind = f.blocks[bi].unwind.clone();
        f.blocks[cont.index()].unwind = unwind;
        // Moving the terminator moves the edges: successors' parameters are unaffected.
        let body = f.add_block();
        let c = f.add_block_param(body, Type::I64);
        let zero = f.push(b, InstKind::Const(Const::Int(0)), Some(Type::I64), span).expect("a result");
        let any = f.push(b, InstKind::Compare(CmpOp::Gt, args[0], zero), Some(Type::BOOL), span).expect("a result");
        f.terminate(
            b,
            Terminator::Branch(
                any,
                BlockCall { block: body, args: vec![zero] },
                BlockCall { block: cont, args: Vec::new() },
            ),
            span,
        );
        f.blocks[body.index()].unwind = f.blocks[bi].unwind.clone();
        let mut call_args = vec![c];
        call_args.extend(args[1..].iter().copied());
        f.push(body, InstKind::Call(name, call_args), Some(Type::None), span);
        let one = f.push(body, InstKind::Const(Const::Int(1)), Some(Type::I64), span).expect("a result");
        let c1 = f.push(body, InstKind::Binary(BinaryOp::Add, c, one), Some(Type::I64), span).expect("a result");
        let more = f.push(body, InstKind::Compare(CmpOp::Lt, c1, args[0]), Some(Type::BOOL), span).expect("a result");
        f.terminate(
            body,
            Terminator::Branch(
                more,
                BlockCall { block: body, args: vec![c1] },
                BlockCall { block: cont, args: Vec::new() },
            ),
            span,
        );
    }
}
