//! `dce`: removes instructions without side effects whose results are never used.

use super::Pass;
use crate::function::*;

/// Dead-code elimination.
pub struct Dce;

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        loop {
            let mut used = vec![false; f.values.len()];
            for b in &f.blocks {
                for &i in &b.insts {
                    for op in f.insts[i.index()].kind.operands() {
                        used[op.index()] = true;
                    }
                }
                for op in b.end_operands() {
                    used[op.index()] = true;
                }
            }
            let mut removed = false;
            for b in 0..f.blocks.len() {
                let before = f.blocks[b].insts.len();
                let insts = std::mem::take(&mut f.blocks[b].insts);
                let kept: Vec<Inst> = insts
                    .into_iter()
                    .filter(|&i| {
                        let d = &f.insts[i.index()];
                        d.kind.has_side_effect() || d.result.is_some_and(|r| used[r.index()])
                    })
                    .collect();
                removed |= kept.len() != before;
                f.blocks[b].insts = kept;
            }
            if !removed {
                return changed;
            }
            changed = true;
        }
    }
}
