//! `branch_fold`: a branch on a condition that a dominating branch already decided becomes a
//! jump. After `gvn` merges two reads of one element (`primes[j] * primes[j]`, or `a[i]` read
//! in a test and again in its branch), their two bounds tests are one value, and the second
//! `br` on it can only go the way the first one went on the path that reaches it. So can the
//! second `if c:` of a program that tests `c` twice.
//!
//! A block `P` whose only predecessor `D` ends `br c, P, E` (or `br c, T, P`), with `P` one arm
//! only, knows `c` true (false) in every block `P` dominates. For each block ending `br c, ..`,
//! its dominators (at most [`MAX_WALK`] of them, so the pass stays linear) are searched for
//! such a fact about `c`; when one is found, the branch becomes a jump to the arm it would take.
//! The arm no longer reached is removed by `simplify_cfg`.

use super::Pass;
use crate::function::*;
use crate::verify::DomTree;
use hashbrown::HashMap;

/// The pass.
pub struct BranchFold;

/// Dominators searched per branch.
const MAX_WALK: usize = 32;

impl Pass for BranchFold {
    fn name(&self) -> &'static str {
        "branch_fold"
    }

    fn run(&self, f: &mut Function) -> bool {
        let (rpo, dom) = DomTree::with_rpo(f);
        let mut preds = super::predecessors(f, &rpo);
        // A block an unwind edge enters is entered other than by a branch.
        for &b in &rpo {
            if let Some(u) = &f.blocks[b.index()].unwind {
                preds[u.block.index()].push(b);
            }
        }
        // The condition each block knows from the edge that enters it.
        let mut known: HashMap<Block, (Value, bool)> = HashMap::new();
        for &b in &rpo {
            let [d] = preds[b.index()].as_slice() else { continue };
            let dd = &f.blocks[d.index()];
            if let Terminator::Branch(c, t, e) = &dd.term {
                if t.block == e.block || dd.unwind.as_ref().is_some_and(|u| u.block == b) {
                    continue;
                }
                if t.block == b {
                    known.insert(b, (*c, true));
                } else if e.block == b {
                    known.insert(b, (*c, false));
                }
            }
        }
        if known.is_empty() {
            return false;
        }
        let mut changed = false;
        for &b in &rpo {
            let Terminator::Branch(c, t, e) = &f.blocks[b.index()].term else { continue };
            let (c, t, e) = (*c, t.clone(), e.clone());
            let mut cur = Some(b);
            let mut outcome = None;
            for _ in 0..MAX_WALK {
                let Some(x) = cur else { break };
                if let Some(&(v, taken)) = known.get(&x) {
                    if v == c {
                        outcome = Some(taken);
                        break;
                    }
                }
                cur = match dom.idom[x.index()] {
                    Some(p) if p != x => Some(p),
                    _ => None,
                };
            }
            if let Some(taken) = outcome {
                let span = f.blocks[b.index()].term_span;
                f.terminate(b, Terminator::Jump(if taken { t } else { e }), span);
                changed = true;
            }
        }
        changed
    }
}
