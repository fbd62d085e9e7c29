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
                (Expect::Raises(exc), Err(e @ Error::Runtime { .. })) if e.python_exception() == Some(exc.as_str()) => {
                }
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
    assert!(ran > 300, "only {ran} checks found");
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
}
