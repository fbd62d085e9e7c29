//! Which arrays a program may write to, through the functions it calls too: which array
//! parameters of an entry point (the facade refuses a shared `&[T]` where the compiled code
//! stores into the array, so Rust's aliasing rules are never broken), and whether it writes a
//! module-level array frozen into the code (a compile error, as in Numba, where a global array
//! is a `readonly array`; the frozen bytes live in read-only memory).
//!
//! Conservative: an array value that may be parameter `k` on any path counts as `k`; a view,
//! a tuple element, a selected value, a block parameter and a call's result may be any array
//! they were made from.

use crate::builtins::KernelOp;
use crate::function::*;
use crate::infer::TypedProgram;
use hashbrown::HashMap;
use twinjit_diag::Diagnostic;

/// `result[k]` is true when parameter `k` of the entry may be written.
pub fn written_params(program: &TypedProgram) -> Vec<bool> {
    written_by_function(program).swap_remove(0)
}

/// Per function of `program`, which of its parameters it may write.
fn written_by_function(program: &TypedProgram) -> Vec<Vec<bool>> {
    let n = program.functions.len();
    let index = function_index(program);
    let mut written: Vec<Vec<bool>> = program.functions.iter().map(|f| vec![false; f.func.params().len()]).collect();
    let aliases: Vec<HashMap<Value, Vec<usize>>> =
        program.functions.iter().map(|f| aliases(&f.func, &param_roots(&f.func))).collect();
    // Iterate to a fixpoint over the call graph (recursion included).
    for _ in 0..=n + 1 {
        let mut changed = false;
        for fi in 0..n {
            let mut w = written[fi].clone();
            for_each_write(&program.functions[fi].func, &index, &written, &mut |v, _| {
                for &k in aliases[fi].get(&v).map(Vec::as_slice).unwrap_or(&[]) {
                    changed |= !w[k];
                    w[k] = true;
                }
            });
            written[fi] = w;
        }
        if !changed {
            break;
        }
    }
    written
}

fn function_index(program: &TypedProgram) -> HashMap<&str, usize> {
    program.functions.iter().enumerate().map(|(i, f)| (f.func.name.as_str(), i)).collect()
}

/// Calls `write(array, site)` for every array value `f` writes: stores, atomics, and
/// arguments a callee writes (`written`, per function of the program).
fn for_each_write(
    f: &Function,
    index: &HashMap<&str, usize>,
    written: &[Vec<bool>],
    write: &mut dyn FnMut(Value, &InstData),
) {
    for inst in &f.insts {
        match &inst.kind {
            InstKind::Store(a, ..) | InstKind::SetItem(a, ..) => write(*a, inst),
            InstKind::Builtin(b, args)
                if matches!(b.kernel_op(), Some(KernelOp::Atomic(_) | KernelOp::CacheStore(_))) =>
            {
                write(args[0], inst)
            }
            // A chunk function's parameters line up with `parallel_for`'s operands.
            InstKind::Call(name, args) | InstKind::ParallelFor(name, args) => {
                if let Some(&ci) = index.get(name.as_str()) {
                    for (k, a) in args.iter().enumerate() {
                        if written[ci].get(k).copied().unwrap_or(false) {
                            write(*a, inst);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The first write to a module-level array frozen into the code, in any function of the
/// program: a located error naming the global.
pub fn const_array_write(program: &TypedProgram) -> Option<Diagnostic> {
    if !program.functions.iter().any(|f| f.func.insts.iter().any(|d| matches!(d.kind, InstKind::ConstArray(_)))) {
        return None;
    }
    let index = function_index(program);
    let written = written_by_function(program);
    for tf in &program.functions {
        let f = &tf.func;
        let mut names = Vec::new();
        let mut roots = Vec::new();
        for d in &f.insts {
            if let (InstKind::ConstArray(c), Some(r)) = (&d.kind, d.result) {
                roots.push((r, names.len()));
                names.push(c.name.clone());
            }
        }
        if roots.is_empty() {
            continue;
        }
        let al = aliases(f, &roots);
        let mut found: Option<Diagnostic> = None;
        for_each_write(f, &index, &written, &mut |v, site| {
            let Some(&k) = al.get(&v).and_then(|ks| ks.first()) else { return };
            if found.as_ref().is_some_and(|d| d.span().is_some_and(|s| s.start <= site.span.start)) {
                return;
            }
            let name = &names[k];
            let (message, label) = match &site.kind {
                InstKind::Call(callee, _) => {
                    let shown =
                        index.get(callee.as_str()).map_or(callee.as_str(), |&i| &program.functions[i].source_name);
                    (
                        format!("`{name}` is a module-level array, which compiled code cannot modify, and `{shown}` writes to it"),
                        "passed here to a function that writes it",
                    )
                }
                _ => (format!("`{name}` is a module-level array, which compiled code cannot modify"), "written here"),
            };
            found = Some(Diagnostic::error(message, site.span, label).with_hint(format!(
                "Numba freezes a global array into the compiled code as a read-only constant; write to a copy \
                 (`{name}.copy()`) or pass the array as an argument"
            )));
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

fn param_roots(f: &Function) -> Vec<(Value, usize)> {
    f.params().iter().enumerate().filter(|(_, &p)| f.ty(p).array().is_some()).map(|(k, &p)| (p, k)).collect()
}

/// For every value that may hold one of the `roots` (a value and its root index): the root
/// indices.
fn aliases(f: &Function, roots: &[(Value, usize)]) -> HashMap<Value, Vec<usize>> {
    let mut al: HashMap<Value, Vec<usize>> = HashMap::new();
    for &(v, k) in roots {
        al.entry(v).or_default().push(k);
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
            for t in b.succs() {
                for (a, p) in t.args.iter().zip(&f.blocks[t.block.index()].params) {
                    if let Some(src) = al.get(a).cloned() {
                        add(&mut al, *p, &src);
                    }
                }
            }
            for &i in &b.insts {
                let d = &f.insts[i.index()];
                // A list holding an array holds whatever the array may be.
                if let InstKind::ListSet(l, _, v) = &d.kind {
                    if let Some(src) = al.get(v).cloned() {
                        add(&mut al, *l, &src);
                    }
                }
                let Some(r) = d.result else { continue };
                let srcs: Vec<Value> = match &d.kind {
                    InstKind::Select(_, a, c) => vec![*a, *c],
                    InstKind::MakeTuple(vs) => vs.clone(),
                    InstKind::TupleGet(t, _) => vec![*t],
                    InstKind::View { base, .. } => vec![*base],
                    InstKind::ListGet(l, _) => vec![*l],
                    // A callee may return (a view of) an array it was given.
                    InstKind::Call(_, args) if f.ty(r).holds_array() => args.clone(),
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
