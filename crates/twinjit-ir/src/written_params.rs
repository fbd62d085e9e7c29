//! Which array parameters of an entry point the program may write to (directly, or through
//! the functions it calls). The facade uses it to refuse a shared `&[T]` where the compiled
//! code stores into the array, so Rust's aliasing rules are never broken.
//!
//! Conservative: an array value that may be parameter `k` on any path counts as `k`.

use crate::builtins::KernelOp;
use crate::function::*;
use crate::infer::TypedProgram;
use hashbrown::HashMap;

/// `result[k]` is true when parameter `k` of the entry may be written.
pub fn written_params(program: &TypedProgram) -> Vec<bool> {
    let n = program.functions.len();
    let index: HashMap<&str, usize> =
        program.functions.iter().enumerate().map(|(i, f)| (f.func.name.as_str(), i)).collect();
    let mut written: Vec<Vec<bool>> = program.functions.iter().map(|f| vec![false; f.func.params().len()]).collect();
    // Iterate to a fixpoint over the call graph (recursion included).
    for _ in 0..=n + 1 {
        let mut changed = false;
        for fi in 0..n {
            let f = &program.functions[fi].func;
            let aliases = param_aliases(f);
            let mut mark = |v: Value, w: &mut Vec<bool>| {
                if let Some(ps) = aliases.get(&v) {
                    for &k in ps {
                        if !w[k] {
                            w[k] = true;
                            changed = true;
                        }
                    }
                }
            };
            let mut w = written[fi].clone();
            for inst in &f.insts {
                match &inst.kind {
                    InstKind::Store(a, ..) | InstKind::SetItem(a, ..) => mark(*a, &mut w),
                    InstKind::Builtin(b, args) if matches!(b.kernel_op(), Some(KernelOp::Atomic(_))) => {
                        mark(args[0], &mut w)
                    }
                    InstKind::Call(name, args) => {
                        if let Some(&ci) = index.get(name.as_str()) {
                            for (k, a) in args.iter().enumerate() {
                                if written[ci].get(k).copied().unwrap_or(false) {
                                    mark(*a, &mut w);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            written[fi] = w;
        }
        if !changed {
            break;
        }
    }
    written.swap_remove(0)
}

/// For every value that may hold an array parameter: the parameter indices.
fn param_aliases(f: &Function) -> HashMap<Value, Vec<usize>> {
    let mut al: HashMap<Value, Vec<usize>> = HashMap::new();
    for (k, &p) in f.params().iter().enumerate() {
        if f.ty(p).array().is_some() {
            al.insert(p, vec![k]);
        }
    }
    loop {
        let mut changed = false;
        let mut add = |al: &mut HashMap<Value, Vec<usize>>, to: Value, from: &[usize]| {
            let e = al.entry(to).or_default();
            for &k in from {
                if !e.contains(&k) {
                    e.push(k);
                    changed = true;
                }
            }
        };
        for b in &f.blocks {
            for t in b.term.targets() {
                for (a, p) in t.args.iter().zip(&f.blocks[t.block.index()].params) {
                    if let Some(src) = al.get(a).cloned() {
                        add(&mut al, *p, &src);
                    }
                }
            }
            for &i in &b.insts {
                let d = &f.insts[i.index()];
                let Some(r) = d.result else { continue };
                let srcs: Vec<Value> = match &d.kind {
                    InstKind::Select(_, a, c) => vec![*a, *c],
                    InstKind::MakeTuple(vs) => vs.clone(),
                    InstKind::TupleGet(t, _) => vec![*t],
                    _ => vec![],
                };
                for s in srcs {
                    if let Some(src) = al.get(&s).cloned() {
                        add(&mut al, r, &src);
                    }
                }
            }
        }
        if !changed {
            return al;
        }
    }
}
