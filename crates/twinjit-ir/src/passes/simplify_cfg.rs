//! `simplify_cfg`: removes trivial block parameters (every incoming argument is the same value
//! or the parameter itself: Braun et al.'s trivial phis) and unreachable blocks.
//!
//! Runs on untyped IR right after the front end, so inference, passes and backends see loop
//! invariants (an array read in a loop) as the values they are, not as loop-carried parameters.

use super::Pass;
use crate::function::*;
use hashbrown::HashMap;

/// The pass.
pub struct SimplifyCfg;

impl Pass for SimplifyCfg {
    fn name(&self) -> &'static str {
        "simplify_cfg"
    }

    fn run(&self, f: &mut Function) -> bool {
        let a = remove_unreachable(f);
        let b = remove_trivial_params(f);
        let c = merge_straight_line(f);
        let d = if c { remove_unreachable(f) } else { false };
        a || b || c || d
    }
}

fn resolve(map: &HashMap<Value, Value>, mut v: Value) -> Value {
    while let Some(&n) = map.get(&v) {
        v = n;
    }
    v
}

fn remove_trivial_params(f: &mut Function) -> bool {
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    let mut changed_any = false;
    // Each round removes every parameter that is trivial given the previous rounds'
    // replacements; removing one can make others trivial, hence the rounds.
    loop {
        let mut incoming: Vec<Vec<Vec<Value>>> = f.blocks.iter().map(|b| vec![Vec::new(); b.params.len()]).collect();
        for b in &f.blocks {
            for t in b.succs() {
                for (k, a) in t.args.iter().enumerate() {
                    if let Some(slot) = incoming.get_mut(t.block.index()).and_then(|v| v.get_mut(k)) {
                        slot.push(resolve(&replaced, *a));
                    }
                }
            }
        }
        let mut remove: Vec<Vec<usize>> = vec![Vec::new(); f.blocks.len()];
        let mut any = false;
        for (bi, block_incoming) in incoming.iter().enumerate().skip(1) {
            for (k, &p) in f.blocks[bi].params.iter().enumerate() {
                let mut same: Option<Value> = None;
                let mut trivial = true;
                for &a in &block_incoming[k] {
                    let a = resolve(&replaced, a);
                    if a == p || Some(a) == same {
                        continue;
                    }
                    if same.is_some() {
                        trivial = false;
                        break;
                    }
                    same = Some(a);
                }
                if let (true, Some(v)) = (trivial, same) {
                    if resolve(&replaced, v) != p {
                        replaced.insert(p, v);
                        remove[bi].push(k);
                        any = true;
                    }
                }
            }
        }
        if !any {
            break;
        }
        changed_any = true;
        // Drop the removed parameters' arguments on every edge (one pass over the edges).
        for pb in 0..f.blocks.len() {
            for t in f.blocks[pb].succs_mut() {
                let ks = &remove[t.block.index()];
                for &k in ks.iter().rev() {
                    t.args.remove(k);
                }
            }
        }
        for (bi, ks) in remove.iter().enumerate() {
            if ks.is_empty() {
                continue;
            }
            let block = Block(bi as u32);
            for &k in ks.iter().rev() {
                f.blocks[bi].params.remove(k);
            }
            for (k, &p) in f.blocks[bi].params.iter().enumerate() {
                f.values[p.index()].def = ValueDef::Param(block, k as u32);
            }
        }
    }
    if changed_any {
        for inst in &mut f.insts {
            inst.kind.map_operands(|v| resolve(&replaced, v));
        }
        for b in &mut f.blocks {
            b.map_end_operands(|v| resolve(&replaced, v));
        }
    }
    changed_any
}

/// Merges `A: ...; jump B(args)` with `B` when `A` is `B`'s only predecessor: B's parameters
/// become the arguments and B's instructions and terminator move into A. Fewer blocks means
/// fewer jumps in loops (Cranelift does not merge blocks itself).
fn merge_straight_line(f: &mut Function) -> bool {
    let mut changed = false;
    loop {
        let mut preds = vec![0usize; f.blocks.len()];
        for b in &f.blocks {
            for t in b.succs() {
                preds[t.block.index()] += 1;
            }
        }
        let mut merged = false;
        for a in 0..f.blocks.len() {
            let Terminator::Jump(call) = f.blocks[a].term.clone() else { continue };
            let b = call.block.index();
            if b == a || b == 0 || preds[b] != 1 {
                continue;
            }
            let mut map: HashMap<Value, Value> = HashMap::new();
            for (p, arg) in f.blocks[b].params.iter().zip(&call.args) {
                map.insert(*p, *arg);
            }
            // Only code that unwinds to the same place, with the same values, is one block (and
            // B's edge may not name its parameters: A computes their values).
            if !map.is_empty() && f.blocks[b].unwind.is_some() {
                continue;
            }
            if f.blocks[b].unwind != f.blocks[a].unwind {
                continue;
            }
            f.blocks[b].unwind = None;
            let moved = std::mem::take(&mut f.blocks[b].insts);
            let term = std::mem::replace(&mut f.blocks[b].term, Terminator::Unreachable);
            let term_span = f.blocks[b].term_span;
            f.blocks[b].params.clear();
            f.blocks[a].insts.extend(moved);
            f.blocks[a].term = term;
            f.blocks[a].term_span = term_span;
            if !map.is_empty() {
                for inst in &mut f.insts {
                    inst.kind.map_operands(|v| *map.get(&v).unwrap_or(&v));
                }
                for blk in &mut f.blocks {
                    blk.map_end_operands(|v| *map.get(&v).unwrap_or(&v));
                }
            }
            merged = true;
            break;
        }
        if !merged {
            return changed;
        }
        changed = true;
    }
}

fn remove_unreachable(f: &mut Function) -> bool {
    let rpo = f.reverse_postorder();
    if rpo.len() == f.blocks.len() {
        return false;
    }
    let mut new_index = vec![None; f.blocks.len()];
    let mut keep: Vec<usize> = rpo.iter().map(|b| b.index()).collect();
    keep.sort_unstable();
    for (n, &old) in keep.iter().enumerate() {
        new_index[old] = Some(Block(n as u32));
    }
    let old_blocks = std::mem::take(&mut f.blocks);
    for (old, bd) in old_blocks.into_iter().enumerate() {
        if new_index[old].is_some() {
            f.blocks.push(bd);
        }
    }
    for (n, b) in f.blocks.iter_mut().enumerate() {
        for t in b.succs_mut() {
            t.block = new_index[t.block.index()].expect("targets of reachable blocks are reachable");
        }
        for (k, &p) in b.params.iter().enumerate() {
            f.values[p.index()].def = ValueDef::Param(Block(n as u32), k as u32);
        }
    }
    true
}
