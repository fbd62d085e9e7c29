//! SSA construction for Python variables (Braun et al., "Simple and Efficient Construction of
//! Static Single Assignment Form"), producing block parameters instead of phis.
//!
//! The lowering calls [`Ssa::def`] on assignment and [`Ssa::use_var`] on reads; a block is
//! sealed once all its predecessors are known. A read that reaches the entry without a
//! definition yields an `undef` instruction; inference decides whether that is an error.

use hashbrown::HashMap;
use twinjit_diag::Span;
use twinjit_ir::{Block, Function, InstKind, Type, Value};

#[derive(Default)]
pub(crate) struct Ssa {
    defs: Vec<HashMap<String, Value>>,
    sealed: Vec<bool>,
    incomplete: Vec<Vec<(String, Value)>>,
    preds: Vec<Vec<Block>>,
    /// Variable name of every `undef` and every parameter created for a variable.
    names: HashMap<Value, String>,
}

impl Ssa {
    fn ensure(&mut self, b: Block) {
        while self.defs.len() <= b.index() {
            self.defs.push(HashMap::new());
            self.sealed.push(false);
            self.incomplete.push(Vec::new());
            self.preds.push(Vec::new());
        }
    }

    /// Records an edge `from -> to` (its terminator must already be set).
    pub(crate) fn add_pred(&mut self, to: Block, from: Block) {
        self.ensure(to);
        self.preds[to.index()].push(from);
    }

    /// Names of the values created for variables (undefs and block parameters).
    pub(crate) fn names(&self) -> &HashMap<Value, String> {
        &self.names
    }

    pub(crate) fn def(&mut self, b: Block, name: &str, v: Value) {
        self.ensure(b);
        self.defs[b.index()].insert(name.to_string(), v);
    }

    pub(crate) fn use_var(&mut self, f: &mut Function, b: Block, name: &str) -> Value {
        self.ensure(b);
        // Walk single-predecessor chains iteratively so long straight-line code cannot
        // overflow the stack.
        let mut chain = Vec::new();
        let mut cur = b;
        let v = loop {
            if let Some(&v) = self.defs[cur.index()].get(name) {
                break v;
            }
            if !self.sealed[cur.index()] {
                let p = f.add_block_param(cur, Type::Unknown);
                self.names.insert(p, name.to_string());
                self.incomplete[cur.index()].push((name.to_string(), p));
                self.defs[cur.index()].insert(name.to_string(), p);
                break p;
            }
            match self.preds[cur.index()].len() {
                0 => {
                    let inst = f.make_inst(InstKind::Undef, Some(Type::Unknown), Span::DUMMY);
                    f.blocks[cur.index()].insts.insert(0, inst);
                    let v = f.insts[inst.index()].result.expect("undef has a result");
                    self.names.insert(v, name.to_string());
                    self.defs[cur.index()].insert(name.to_string(), v);
                    break v;
                }
                1 => {
                    chain.push(cur);
                    cur = self.preds[cur.index()][0];
                }
                _ => {
                    let p = f.add_block_param(cur, Type::Unknown);
                    self.names.insert(p, name.to_string());
                    self.defs[cur.index()].insert(name.to_string(), p);
                    self.add_param_args(f, cur, name);
                    break p;
                }
            }
        };
        for c in chain {
            self.defs[c.index()].insert(name.to_string(), v);
        }
        v
    }

    fn add_param_args(&mut self, f: &mut Function, b: Block, name: &str) {
        for pred in self.preds[b.index()].clone() {
            let v = self.use_var(f, pred, name);
            for t in f.blocks[pred.index()].succs_mut() {
                if t.block == b {
                    t.args.push(v);
                }
            }
        }
    }

    pub(crate) fn seal(&mut self, f: &mut Function, b: Block) {
        self.ensure(b);
        if self.sealed[b.index()] {
            return;
        }
        self.sealed[b.index()] = true;
        for (name, _) in std::mem::take(&mut self.incomplete[b.index()]) {
            self.add_param_args(f, b, &name);
        }
    }
}
