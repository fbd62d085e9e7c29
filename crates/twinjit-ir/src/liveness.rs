//! Liveness of a chosen class of values (the usual backward fixpoint over the blocks).
//!
//! The reference-count pass asks it about array-holding values; the host backend about
//! floating-point values live across calls. Block parameters are defined at their block's
//! entry, so a parameter is live into its block only as a use there, never from below; values
//! passed on an edge are uses of the branching block (its [`BlockData::end_operands`]).

use crate::function::*;
use hashbrown::{HashMap, HashSet};

/// The values of interest live on entry to each reachable block (`rpo` lists the reachable
/// blocks in reverse postorder).
pub struct Liveness {
    live_in: HashMap<Block, HashSet<Value>>,
    empty: HashSet<Value>,
}

impl Liveness {
    /// Liveness of the values `keep` selects.
    pub fn new(f: &Function, rpo: &[Block], keep: impl Fn(Value) -> bool) -> Liveness {
        let mut gen: HashMap<Block, HashSet<Value>> = HashMap::new();
        let mut kill: HashMap<Block, HashSet<Value>> = HashMap::new();
        for &b in rpo {
            let bd = &f.blocks[b.index()];
            let mut g = HashSet::new();
            let mut k: HashSet<Value> = HashSet::new();
            for &inst in &bd.insts {
                let d = &f.insts[inst.index()];
                for o in d.kind.operands().into_iter().filter(|o| keep(*o)) {
                    if !k.contains(&o) {
                        g.insert(o);
                    }
                }
                if let Some(r) = d.result {
                    k.insert(r);
                }
            }
            for o in bd.end_operands().into_iter().filter(|o| keep(*o)) {
                if !k.contains(&o) {
                    g.insert(o);
                }
            }
            k.extend(bd.params.iter().copied());
            gen.insert(b, g);
            kill.insert(b, k);
        }
        let mut live_in: HashMap<Block, HashSet<Value>> = gen;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().rev() {
                let mut out: HashSet<Value> = HashSet::new();
                for t in f.blocks[b.index()].succs() {
                    let params = &f.blocks[t.block.index()].params;
                    if let Some(s) = live_in.get(&t.block) {
                        out.extend(s.iter().filter(|v| !params.contains(v)));
                    }
                }
                let entry = live_in.get_mut(&b).expect("every reachable block");
                for v in out {
                    if !kill[&b].contains(&v) && entry.insert(v) {
                        changed = true;
                    }
                }
            }
        }
        Liveness { live_in, empty: HashSet::new() }
    }

    /// The values live on entry to `b` (empty for a block that is not reachable).
    pub fn live_in(&self, b: Block) -> &HashSet<Value> {
        self.live_in.get(&b).unwrap_or(&self.empty)
    }

    /// The values `b`'s successors read without receiving them as parameters (the values live
    /// after `b`'s terminator, not counting the terminator's own operands).
    pub fn live_through_edges(&self, f: &Function, b: Block) -> HashSet<Value> {
        let mut out = HashSet::new();
        for t in f.blocks[b.index()].succs() {
            let params = &f.blocks[t.block.index()].params;
            out.extend(self.live_in(t.block).iter().filter(|v| !params.contains(v)));
        }
        out
    }

    /// For each instruction of `b`, the selected values live just after it (its own result
    /// excluded): the values an instruction that calls out must keep across the call.
    pub fn live_after_each(&self, f: &Function, b: Block, keep: impl Fn(Value) -> bool) -> Vec<HashSet<Value>> {
        let bd = &f.blocks[b.index()];
        let mut live = self.live_through_edges(f, b);
        live.extend(bd.end_operands().into_iter().filter(|v| keep(*v)));
        let mut after = vec![HashSet::new(); bd.insts.len()];
        for (i, &inst) in bd.insts.iter().enumerate().rev() {
            let d = &f.insts[inst.index()];
            if let Some(r) = d.result {
                live.remove(&r);
            }
            after[i] = live.clone();
            live.extend(d.kind.operands().into_iter().filter(|o| keep(*o)));
        }
        after
    }
}
