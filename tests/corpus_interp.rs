//! Every `# check:` of the kernel corpus, run in the reference interpreter. The expected values
//! were produced by real Numba (`tests/kernels/verify_numba.py` re-checks them there).

mod common;

use common::{arg_value, corpus, matches, read_checks, Expect};
use twinjit::ir::interp::RtValue;
use twinjit::{Error, SourceModule};

#[test]
fn corpus_matches_numba_in_the_interpreter() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (name, text) in corpus() {
        let module = match SourceModule::parse(&name, &text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: front end failed:\n{e}"));
                continue;
            }
        };
        let checks = read_checks(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        for c in checks {
            ran += 1;
            let at = format!("{}:{} {}", c.file, c.line, c.call_text);
            let Some(args) = c.args.iter().map(arg_value).collect::<Option<Vec<RtValue>>>() else {
                failures.push(format!("{at}: unreadable argument"));
                continue;
            };
            let result = module.interpret(&c.func, &args);
            match (&c.expect, result) {
                (Expect::Raises(_), Err(e @ Error::Runtime { .. })) if c.raised(&e) => {}
                (Expect::Raises(exc), other) => failures.push(format!("{at}: expected {exc}, got {other:?}")),
                (Expect::Value { ret, arrays }, Ok(v)) => {
                    if !matches(&v, ret) {
                        failures.push(format!("{at}: returned {v} ({:?}), expected {ret:?}", v.ty()));
                    }
                    for (k, want) in arrays {
                        if !args.get(*k).is_some_and(|a| matches(a, want)) {
                            failures.push(format!("{at}: arg{k} is {} after the call, expected {want:?}", args[*k]));
                        }
                    }
                }
                (Expect::Value { .. }, Err(e)) => failures.push(format!("{at}: failed: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
    assert!(ran > 300, "only {ran} checks found");
}

/// The user's module with the `target_backend` trap: the trapped function is refused on its own
/// (with the `@cuda.jit` hint) and its neighbours run. Not a corpus file: Numba 0.68 (the one
/// `verify_numba.py` runs) rejects `target_backend` when it decorates, so the file would not
/// load there; older Numba accepted it and silently ran the function on the CPU.
#[test]
fn target_backend_cuda_is_refused_and_its_neighbours_run() {
    let text = r#"
import timeit
import numpy as np
from numba import cuda, jit


def python_add(a, b):
    return a + b


@jit
def add_cpu(a, b, out):
    for i in range(out.shape[0]):
        out[i] = a[i] + b[i]


@jit(target_backend='cuda')
def add_gpu(a, b, out):
    for i in range(out.shape[0]):
        out[i] = a[i] + b[i]


x = np.ones(1_000_000)
out = np.empty_like(x)
for f in (add_cpu, add_gpu):
    print(f.__name__, timeit.timeit(lambda: f(x, x, out), number=10))
"#;
    let m = SourceModule::parse("trap.py", text).expect("the module loads without the trapped function");
    let refused = &m.module().refused;
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].name, "add_gpu");
    let shown = twinjit::diag::render_all(&refused[0].diagnostics, m.sources());
    assert!(shown.contains("never compiled it for a GPU") && shown.contains("@cuda.jit"), "{shown}");
    assert!(m.module().function("add_gpu").is_none());
    let checks = read_checks(
        "trap.py",
        "# check: add_cpu(np.array([1.0, 2.0]), np.array([1.0, 2.0]), np.zeros(2)) -> None ; arg2 == [2.0, 4.0]",
    )
    .unwrap();
    let c = &checks[0];
    let args: Vec<RtValue> = c.args.iter().map(|e| arg_value(e).unwrap()).collect();
    m.interpret(&c.func, &args).expect("the neighbour runs");
    let Expect::Value { arrays, .. } = &c.expect else { unreachable!() };
    assert!(matches(&args[2], &arrays[0].1), "{}", args[2]);
}
