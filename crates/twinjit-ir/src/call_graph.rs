//! The call graph of a typed program: which specialisations lie on a call cycle. Backends use
//! it to make exactly those functions track their recursion depth.

use crate::function::InstKind;
use crate::infer::TypedProgram;
use hashbrown::{HashMap, HashSet};

/// Mangled names of the functions that lie on a call cycle (directly or mutually recursive).
pub fn recursive_functions(program: &TypedProgram) -> HashSet<String> {
    let calls: HashMap<&str, Vec<&str>> = program
        .functions
        .iter()
        .map(|tf| {
            let callees = tf
                .func
                .insts
                .iter()
                .filter_map(|i| match &i.kind {
                    InstKind::Call(n, _) | InstKind::ParallelFor(n, _) => Some(n.as_str()),
                    _ => None,
                })
                .collect();
            (tf.func.name.as_str(), callees)
        })
        .collect();
    let mut out = HashSet::new();
    for tf in &program.functions {
        let start = tf.func.name.as_str();
        let mut stack: Vec<&str> = calls.get(start).cloned().unwrap_or_default();
        let mut seen: HashSet<&str> = HashSet::new();
        while let Some(n) = stack.pop() {
            if n == start {
                out.insert(start.to_string());
                break;
            }
            if seen.insert(n) {
                stack.extend(calls.get(n).into_iter().flatten().copied());
            }
        }
    }
    out
}
