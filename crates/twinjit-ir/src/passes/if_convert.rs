//! `if_convert`: turns small branches whose arms only compute numbers into `select`s, so
//! `if x > hi: x = hi` (and a clamp, or the element function of a ufunc inlined into its loop)
//! runs without a branch the CPU could mispredict on every element.
//!
//! A *diamond* (`B` branches to `T` and `F`, which both jump to `J`) or a *triangle* (`B`
//! branches to `T` and `J`, `T` jumps to `J`) is converted when each arm has `B` as its only
//! predecessor and instructions each of which `licm` could hoist (pure and non-trapping: no
//! integer division, load, check, call or builtin), at most [`MAX_ARM`] of them per arm, or
//! [`MAX_SPECULATED`] in both arms together, constants not counted, inside an elementwise loop
//! (where the selects become vector blends, and a branch the CPU mispredicts on random data
//! costs some 15-20 cycles, the work of a dozen such instructions), and the values passed to
//! `J` are numbers: the arms' instructions move to the end of `B`, and `B` jumps to `J` with
//! `select(c, t, f)` for each argument that differs. Both arms then run; neither can observe
//! it. Repeated to a fixpoint, so a chain of `if`s (the `return`s of an inlined `clamp`)
//! becomes straight-line code. A branch whose two arms both `return` a number (a piecewise
//! function's chain of `return`s) becomes one `return` of the select. The emptied arms are left
//! unreachable for `simplify_cfg`.

use super::licm::movable;
use super::Pass;
use crate::function::*;
use crate::types::Type;
use hashbrown::{HashMap, HashSet};

/// The most instructions an arm may have to be converted, in general.
pub const MAX_ARM: usize = 6;

/// The most instructions (constants aside) both arms of a branch may have together to be
/// converted inside an *elementwise loop*: an innermost loop whose only loop-carried value is
/// its counter, which the host backend vectorises (a select there is a blend of lanes). A
/// chain of four `return`s of float arithmetic (a piecewise function, the kind SQL writes as a
/// `CASE`) inlined into such a loop converts whole: its `if`s nest, and each level adds its arm
/// to the next. Elsewhere (a scalar loop, a float reduction) a select of floats is a branch
/// around a move in Cranelift's x86-64 code, so doing every arm's work would only add to a
/// branch that is still there; [`MAX_ARM`] keeps those conversions small.
pub const MAX_SPECULATED: usize = 16;

/// An arm's instructions that count against [`MAX_SPECULATED`].
fn cost(f: &Function, b: Block) -> usize {
    f.blocks[b.index()].insts.iter().filter(|i| !matches!(f.insts[i.index()].kind, InstKind::Const(_))).count()
}

/// Whether arms `arms` of a branch in `b` may be converted (see [`MAX_ARM`], [`MAX_SPECULATED`]).
fn within_budget(f: &Function, b: Block, arms: &[Block], elementwise: &HashSet<Block>) -> bool {
    if elementwise.contains(&b) {
        arms.iter().map(|&a| cost(f, a)).sum::<usize>() <= MAX_SPECULATED
    } else {
        arms.iter().all(|&a| f.blocks[a.index()].insts.len() <= MAX_ARM)
    }
}

/// The blocks of innermost loops whose header has one parameter (the counter: no other
/// loop-carried value).
fn elementwise_blocks(f: &Function, rpo: &[Block]) -> HashSet<Block> {
    let pos: HashMap<Block, usize> = rpo.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let preds = super::predecessors(f, rpo);
    let mut loops: HashMap<Block, HashSet<Block>> = HashMap::new();
    for &b in rpo {
        for t in f.blocks[b.index()].succs() {
            let h = t.block;
            if pos.get(&h).is_some_and(|&p| p <= pos[&b]) {
                // The natural loop of the back edge `b -> h`.
                let body = loops.entry(h).or_default();
                body.insert(h);
                let mut stack = vec![b];
                while let Some(x) = stack.pop() {
                    if body.insert(x) {
                        stack.extend(preds[x.index()].iter().copied());
                    }
                }
            }
        }
    }
    let mut out = HashSet::new();
    for (h, body) in &loops {
        let innermost = !loops.keys().any(|h2| h2 != h && body.contains(h2));
        if innermost && f.blocks[h.index()].params.len() == 1 {
            out.extend(body.iter().copied());
        }
    }
    out
}

/// The pass.
pub struct IfConvert;

impl Pass for IfConvert {
    fn name(&self) -> &'static str {
        "if_convert"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        // Each sweep converts what qualifies; nested `if`s take one sweep per level.
        for _ in 0..32 {
            if !sweep(f) {
                break;
            }
            changed = true;
        }
        changed
    }
}

fn speculatable(f: &Function, b: Block) -> bool {
    let bd = &f.blocks[b.index()];
    bd.insts.iter().all(|i| {
        let k = &f.insts[i.index()].kind;
        matches!(k, InstKind::Const(_)) || movable(f, k)
    })
}

/// Converts every branch that qualifies now (an outer one whose arm was just converted
/// qualifies on the next sweep); returns whether any did. Linear in the function's size.
fn sweep(f: &mut Function) -> bool {
    let rpo = f.reverse_postorder();
    let mut preds: HashMap<Block, usize> = HashMap::new();
    for &b in &rpo {
        for t in f.blocks[b.index()].succs() {
            *preds.entry(t.block).or_default() += 1;
        }
    }
    let single = |b: Block| preds.get(&b) == Some(&1);
    let elementwise = elementwise_blocks(f, &rpo);
    let mut changed = false;
    for &b in &rpo {
        let Terminator::Branch(c, tc, fc) = &f.blocks[b.index()].term else { continue };
        let (c, tc, fc) = (*c, tc.clone(), fc.clone());
        if tc.block == fc.block {
            continue;
        }
        // An arm: a block only `b` reaches, that computes numbers and jumps on.
        let arm = |x: &BlockCall| -> Option<BlockCall> {
            let a = x.block;
            if a == b || !single(a) || !speculatable(f, a) {
                return None;
            }
            match &f.blocks[a.index()].term {
                Terminator::Jump(j) if j.block != a && j.block != b => Some(j.clone()),
                _ => None,
            }
        };
        // Both arms return a number (a chain of `return`s, before anything jumps to one
        // return): `b` returns the select.
        let returns = |x: &BlockCall| -> Option<Value> {
            let a = x.block;
            if a == b || !single(a) || !speculatable(f, a) {
                return None;
            }
            match f.blocks[a.index()].term {
                Terminator::Return(Some(v)) if matches!(f.ty(v), Type::Scalar(_)) => Some(v),
                _ => None,
            }
        };
        if let (Some(tv), Some(fv)) = (returns(&tc), returns(&fc)) {
            if within_budget(f, b, &[tc.block, fc.block], &elementwise) && f.ty(tv) == f.ty(fv) {
                convert_returns(f, b, c, [&tc, &fc], tv, fv);
                changed = true;
            }
            continue;
        }
        // (blocks whose code moves up, with the arguments they were entered with; the join;
        // the join's arguments when `c` holds and when it does not)
        let plan = match (arm(&tc), arm(&fc)) {
            (Some(tj), Some(fj)) if tj.block == fj.block => {
                Some((vec![tc.clone(), fc.clone()], tj.block, tj.args, fj.args))
            }
            (Some(tj), _) if tj.block == fc.block => Some((vec![tc.clone()], fc.block, tj.args, fc.args.clone())),
            (_, Some(fj)) if fj.block == tc.block => Some((vec![fc.clone()], tc.block, tc.args.clone(), fj.args)),
            _ => None,
        };
        let Some((arms, join, targs, fargs)) = plan else { continue };
        if !within_budget(f, b, &arms.iter().map(|a| a.block).collect::<Vec<_>>(), &elementwise) {
            continue;
        }
        let numbers = |args: &[Value]| args.iter().all(|v| matches!(f.ty(*v), Type::Scalar(_)));
        if !numbers(&targs) || !numbers(&fargs) {
            continue;
        }
        convert(f, b, c, &arms, join, &targs, &fargs);
        changed = true;
    }
    changed
}

/// `b` branches on `c` to two arms that return `tv` and `fv`: their code moves to `b`, which
/// returns `select(c, tv, fv)`.
fn convert_returns(f: &mut Function, b: Block, c: Value, arms: [&BlockCall; 2], tv: Value, fv: Value) {
    let mut map: HashMap<Value, Value> = HashMap::new();
    for a in arms {
        for (&p, &v) in f.blocks[a.block.index()].params.iter().zip(&a.args) {
            map.insert(p, v);
        }
    }
    let resolve = |v: Value| map.get(&v).copied().unwrap_or(v);
    for a in arms {
        let insts = std::mem::take(&mut f.blocks[a.block.index()].insts);
        for &i in &insts {
            f.insts[i.index()].kind.map_operands(resolve);
        }
        f.blocks[b.index()].insts.extend(insts);
        f.blocks[a.block.index()].term = Terminator::Unreachable;
    }
    let (tv, fv) = (resolve(tv), resolve(fv));
    let span = f.blocks[b.index()].term_span;
    let r = if tv == fv {
        tv
    } else {
        let ty = f.ty(tv).clone();
        let at = f.value_span(tv);
        f.push(b, InstKind::Select(c, tv, fv), Some(ty), at).expect("a select has a result")
    };
    f.terminate(b, Terminator::Return(Some(r)), span);
}

fn convert(f: &mut Function, b: Block, c: Value, arms: &[BlockCall], join: Block, targs: &[Value], fargs: &[Value]) {
    // An arm's parameters are the arguments it was entered with.
    let mut map: HashMap<Value, Value> = HashMap::new();
    for a in arms {
        for (&p, &v) in f.blocks[a.block.index()].params.iter().zip(&a.args) {
            map.insert(p, v);
        }
    }
    let resolve = |v: Value| map.get(&v).copied().unwrap_or(v);
    let mut from_arms = hashbrown::HashSet::new();
    for a in arms {
        let insts = std::mem::take(&mut f.blocks[a.block.index()].insts);
        from_arms.extend(insts.iter().filter_map(|i| f.insts[i.index()].result));
        for &i in &insts {
            f.insts[i.index()].kind.map_operands(resolve);
        }
        f.blocks[b.index()].insts.extend(insts);
        f.blocks[a.block.index()].term = Terminator::Unreachable;
    }
    let span = f.blocks[b.index()].term_span;
    let mut args = Vec::with_capacity(targs.len());
    for (&t, &e) in targs.iter().zip(fargs) {
        let (t, e) = (resolve(t), resolve(e));
        args.push(if t == e {
            t
        } else {
            // Located where an arm computed the value (`found = True`), for later diagnostics.
            let at = [t, e].into_iter().find(|v| from_arms.contains(v)).map_or(span, |v| f.value_span(v));
            let ty = f.ty(t).clone();
            f.push(b, InstKind::Select(c, t, e), Some(ty), at).expect("a select has a result")
        });
    }
    f.terminate(b, Terminator::Jump(BlockCall { block: join, args }), span);
}
