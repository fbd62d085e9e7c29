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
//! function's chain of `return`s) becomes one `return` of the select. A short-circuit
//! condition (`B` branches to `T` and `F`, `T` only tests `c2` and branches to `X` or `F`: `c
//! and c2`; or the mirror image, `c or c2`) becomes one branch on `select(c, c2, c)`
//! (`select(c, c, c2)`) when `T` may be speculated, so a range test `b >= 0 and b < n` is one
//! unsigned compare on the host. The emptied arms are left unreachable for `simplify_cfg`.

use super::licm::movable;
use super::Pass;
use crate::function::*;
use crate::types::Type;
use hashbrown::{HashMap, HashSet};
use twinjit_diag::Span;

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
fn within_budget(f: &Function, b: Block, arms: &[&BlockCall], elementwise: &HashSet<Block>) -> bool {
    if elementwise.contains(&b) {
        arms.iter().map(|a| cost(f, a.block)).sum::<usize>() <= MAX_SPECULATED
    } else {
        arms.iter().all(|a| f.blocks[a.block.index()].insts.len() <= MAX_ARM)
    }
}

/// The blocks of innermost loops whose header has one parameter (the counter: no other
/// loop-carried value).
fn elementwise_blocks(f: &Function) -> HashSet<Block> {
    let rpo = f.reverse_postorder();
    let pos: HashMap<Block, usize> = rpo.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let preds = super::predecessors(f, &rpo);
    let loops: Vec<(Block, HashSet<Block>)> = rpo
        .iter()
        .filter_map(|&h| {
            let latches: Vec<Block> = preds[h.index()].iter().copied().filter(|p| pos[p] >= pos[&h]).collect();
            (!latches.is_empty()).then(|| (h, super::natural_loop(&preds, h, &latches)))
        })
        .collect();
    let mut out = HashSet::new();
    for (h, body) in &loops {
        let innermost = !loops.iter().any(|(h2, _)| h2 != h && body.contains(h2));
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
        // (Conversions leave every loop and its blocks where they were.)
        let elementwise = elementwise_blocks(f);
        // Each sweep converts what qualifies; nested `if`s take one sweep per level.
        for _ in 0..32 {
            if !sweep(f, &elementwise) {
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
fn sweep(f: &mut Function, elementwise: &HashSet<Block>) -> bool {
    let rpo = f.reverse_postorder();
    let mut preds: HashMap<Block, usize> = HashMap::new();
    for &b in &rpo {
        for t in f.blocks[b.index()].succs() {
            *preds.entry(t.block).or_default() += 1;
        }
    }
    let single = |b: Block| preds.get(&b) == Some(&1);
    let mut changed = false;
    for &b in &rpo {
        let Terminator::Branch(c, tc, fc) = &f.blocks[b.index()].term else { continue };
        let (c, tc, fc) = (*c, tc.clone(), fc.clone());
        if tc.block == fc.block {
            continue;
        }
        // An arm: a block only `b` reaches, that computes numbers; it jumps on (`arm`) or
        // returns a number (`returns`).
        let movable_arm = |a: Block| a != b && single(a) && speculatable(f, a);
        let arm = |x: &BlockCall| -> Option<BlockCall> {
            match &f.blocks[x.block.index()].term {
                Terminator::Jump(j) if movable_arm(x.block) && j.block != x.block && j.block != b => Some(j.clone()),
                _ => None,
            }
        };
        let returns = |x: &BlockCall| -> Option<Value> {
            match f.blocks[x.block.index()].term {
                Terminator::Return(Some(v)) if movable_arm(x.block) && matches!(f.ty(v), Type::Scalar(_)) => Some(v),
                _ => None,
            }
        };
        // Both arms return (a chain of `return`s, before anything jumps to one return): `b`
        // returns the select.
        if let (Some(tv), Some(fv)) = (returns(&tc), returns(&fc)) {
            if within_budget(f, b, &[&tc, &fc], elementwise) && f.ty(tv) == f.ty(fv) {
                let from_arms = hoist_arms(f, b, &[&tc, &fc]);
                let span = f.blocks[b.index()].term_span;
                let r = select(f, b, c, (from_arms.resolve(tv), from_arms.resolve(fv)), &from_arms, span);
                f.terminate(b, Terminator::Return(Some(r)), span);
                changed = true;
            }
            continue;
        }
        // A short-circuit `c and c2` (the arm taken on `c` only tests `c2`, failing to the
        // other arm) or `c or c2`: one branch on `select(c, c2, c)` (`select(c, c, c2)`), so a
        // range test `b >= 0 and b < n` is one unsigned compare and its facts reach the branch.
        if let Some(sc) = short_circuit(f, b, c, &tc, &fc, &movable_arm) {
            let arm = if sc.is_and { &tc } else { &fc };
            if within_budget(f, b, &[arm], elementwise) {
                hoist_arms(f, b, &[arm]);
                let span = f.blocks[b.index()].term_span;
                let (x, y) = if sc.is_and { (sc.c2, c) } else { (c, sc.c2) };
                let joined = f.push(b, InstKind::Select(c, x, y), Some(Type::BOOL), span).expect("a result");
                f.terminate(b, Terminator::Branch(joined, sc.then, sc.otherwise), span);
                changed = true;
                continue;
            }
        }
        // (blocks whose code moves up, with the arguments they were entered with; the join;
        // the join's arguments when `c` holds and when it does not)
        let plan = match (arm(&tc), arm(&fc)) {
            (Some(tj), Some(fj)) if tj.block == fj.block => Some((vec![&tc, &fc], tj.block, tj.args, fj.args)),
            (Some(tj), _) if tj.block == fc.block => Some((vec![&tc], fc.block, tj.args, fc.args.clone())),
            (_, Some(fj)) if fj.block == tc.block => Some((vec![&fc], tc.block, tc.args.clone(), fj.args)),
            _ => None,
        };
        let Some((arms, join, targs, fargs)) = plan else { continue };
        let numbers = |args: &[Value]| args.iter().all(|v| matches!(f.ty(*v), Type::Scalar(_)));
        if !within_budget(f, b, &arms, elementwise) || !numbers(&targs) || !numbers(&fargs) {
            continue;
        }
        convert(f, b, c, &arms, join, &targs, &fargs);
        changed = true;
    }
    changed
}

/// A short-circuit condition found by [`short_circuit`]: `c and c2` or `c or c2`, the target
/// when it holds and the one when it does not.
struct ShortCircuit {
    is_and: bool,
    c2: Value,
    then: BlockCall,
    otherwise: BlockCall,
}

/// `b` ends `br c, tc, fc` and one arm, taken on `c` (`and`) or on `not c` (`or`), is a block
/// without parameters that only `b` enters, computes what may be speculated and ends
/// `br c2, x, y`, one of whose targets is `b`'s other arm with the same arguments.
fn short_circuit(
    f: &Function,
    b: Block,
    c: Value,
    tc: &BlockCall,
    fc: &BlockCall,
    movable_arm: &dyn Fn(Block) -> bool,
) -> Option<ShortCircuit> {
    let bool_cond = |v: Value| *f.ty(v) == Type::BOOL;
    if !bool_cond(c) {
        return None;
    }
    let tests = |a: &BlockCall| -> Option<(Value, BlockCall, BlockCall)> {
        let bd = &f.blocks[a.block.index()];
        if !bd.params.is_empty() || !movable_arm(a.block) || bd.unwind.is_some() {
            return None;
        }
        match &bd.term {
            Terminator::Branch(c2, x, y) if bool_cond(*c2) && x.block != y.block => Some((*c2, x.clone(), y.clone())),
            _ => None,
        }
    };
    let fresh = |x: &BlockCall| x.block != b && x.block != tc.block && x.block != fc.block;
    if let Some((c2, x, y)) = tests(tc) {
        // `c and c2`: both hold -> x; otherwise -> fc.
        if y.block == fc.block && y.args == fc.args && fresh(&x) {
            return Some(ShortCircuit { is_and: true, c2, then: x, otherwise: fc.clone() });
        }
    }
    if let Some((c2, x, y)) = tests(fc) {
        // `c or c2`: either holds -> tc; neither -> y.
        if x.block == tc.block && x.args == tc.args && fresh(&y) {
            return Some(ShortCircuit { is_and: false, c2, then: tc.clone(), otherwise: y });
        }
    }
    None
}

/// What [`hoist_arms`] moved: each arm parameter's argument, and the values the arms compute.
struct Hoisted {
    args: HashMap<Value, Value>,
    computed: HashSet<Value>,
}

impl Hoisted {
    /// `v` in `b`, where an arm's parameters are the arguments it was entered with.
    fn resolve(&self, v: Value) -> Value {
        self.args.get(&v).copied().unwrap_or(v)
    }
}

/// Moves the arms' code to the end of `b`, their parameters replaced by the arguments they
/// were entered with, and leaves the arms unreachable.
fn hoist_arms(f: &mut Function, b: Block, arms: &[&BlockCall]) -> Hoisted {
    let mut h = Hoisted { args: HashMap::new(), computed: HashSet::new() };
    for a in arms {
        for (&p, &v) in f.blocks[a.block.index()].params.iter().zip(&a.args) {
            h.args.insert(p, v);
        }
    }
    for a in arms {
        let insts = std::mem::take(&mut f.blocks[a.block.index()].insts);
        h.computed.extend(insts.iter().filter_map(|i| f.insts[i.index()].result));
        for &i in &insts {
            f.insts[i.index()].kind.map_operands(|v| h.resolve(v));
        }
        f.blocks[b.index()].insts.extend(insts);
        f.blocks[a.block.index()].term = Terminator::Unreachable;
    }
    h
}

/// `select(c, t, e)` at the end of `b` (`t` when the two are one value), located where an arm
/// computed the value (`found = True`) for later diagnostics, else at `span`.
fn select(f: &mut Function, b: Block, c: Value, (t, e): (Value, Value), h: &Hoisted, span: Span) -> Value {
    if t == e {
        return t;
    }
    let at = [t, e].into_iter().find(|v| h.computed.contains(v)).map_or(span, |v| f.value_span(v));
    let ty = f.ty(t).clone();
    f.push(b, InstKind::Select(c, t, e), Some(ty), at).expect("a select has a result")
}

fn convert(f: &mut Function, b: Block, c: Value, arms: &[&BlockCall], join: Block, targs: &[Value], fargs: &[Value]) {
    let h = hoist_arms(f, b, arms);
    let span = f.blocks[b.index()].term_span;
    let args =
        targs.iter().zip(fargs).map(|(&t, &e)| select(f, b, c, (h.resolve(t), h.resolve(e)), &h, span)).collect();
    f.terminate(b, Terminator::Jump(BlockCall { block: join, args }), span);
}
