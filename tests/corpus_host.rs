//! Every `# check:` of the kernel corpus compiled by Cranelift: the result must match Numba's
//! expected value and the reference interpreter's result (bit for bit, NaN equal to NaN), and
//! arrays written by the function must end up identical in both.

mod common;

use common::{arg_value, corpus, matches, read_checks, value_to_rt, Expect, Native};
use twinjit::ir::interp::RtValue;
use twinjit::{Engine, Error, SourceModule, Target, Value};

#[test]
fn corpus_matches_numba_and_the_interpreter_on_the_host() {
    let engine = Engine::new(Target::Host).expect("host target");
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut checked_allocations = 0;
    for (name, text) in corpus() {
        let module = match engine.load(&name, &text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: load failed:\n{e}"));
                continue;
            }
        };
        let oracle = SourceModule::parse(&name, &text).expect("parses");
        for c in read_checks(&name, &text).unwrap() {
            ran += 1;
            let at = format!("{}:{} {}", c.file, c.line, c.call_text);
            let Some(rt_args) = c.args.iter().map(arg_value).collect::<Option<Vec<RtValue>>>() else {
                failures.push(format!("{at}: unreadable argument"));
                continue;
            };
            let mut native: Vec<Native> = rt_args.iter().map(Native::from_rt).collect();
            let f = module.function(&c.func).expect("function exists");
            let before = twinjit::memory::stats();
            let result: Result<Value, Error> = {
                let args: Vec<twinjit::ArgValue> = native.iter_mut().map(|n| n.arg()).collect();
                f.call(args)
            };
            // The oracle on fresh copies of the same arguments.
            let oracle_args: Vec<RtValue> = c.args.iter().map(|e| arg_value(e).unwrap()).collect();
            let expected = oracle.interpret(&c.func, &oracle_args);
            match (&result, &expected) {
                (Ok(v), Ok(o)) => {
                    let got = value_to_rt(v);
                    if !got.same(o) {
                        failures.push(format!("{at}: host returned {got} but the interpreter {o}"));
                    }
                    for (k, (n, o)) in native.iter().zip(&oracle_args).enumerate() {
                        if !n.to_rt().same(o) {
                            failures.push(format!("{at}: arg{k} differs from the interpreter: {} vs {o}", n.to_rt()));
                        }
                    }
                }
                (Err(a), Err(b))
                    if a.python_exception() == b.python_exception()
                        && a.exception_message() == b.exception_message()
                        && a.to_string() == b.to_string() => {}
                (a, b) => failures.push(format!("{at}: host {a:?} but interpreter {b:?}")),
            }
            match (&c.expect, result) {
                (Expect::Raises(_), Err(e)) if c.raised(&e) => {
                    if let Error::Runtime { location, .. } = &e {
                        if location.is_none() {
                            failures.push(format!("{at}: runtime error without a location: {e}"));
                        }
                    }
                }
                (Expect::Raises(exc), other) => failures.push(format!("{at}: expected {exc}, got {other:?}")),
                (Expect::Value { ret, arrays }, Ok(v)) => {
                    if !matches(&value_to_rt(&v), ret) {
                        failures.push(format!("{at}: returned {v}, expected {ret:?}"));
                    }
                    for (k, want) in arrays {
                        if !native.get(*k).is_some_and(|a| matches(&a.to_rt(), want)) {
                            failures.push(format!("{at}: arg{k} after the call is not {want:?}"));
                        }
                    }
                }
                (Expect::Value { .. }, Err(e)) => failures.push(format!("{at}: failed: {e}")),
            }
            // Every buffer the call allocated is freed once its result is dropped (above), on
            // success and on every error path, and none was left over by a counting bug.
            let after = twinjit::memory::stats();
            let (allocated, freed) = (after.allocated - before.allocated, after.freed - before.freed);
            if allocated != freed || after.leaked != before.leaked {
                failures.push(format!(
                    "{at}: memory: {allocated} buffers allocated, {freed} freed, {} leaked",
                    after.leaked - before.leaked
                ));
            }
            checked_allocations += allocated;
        }
    }
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
    assert!(checked_allocations > 100, "only {checked_allocations} allocations were checked");
    assert!(ran > 300, "only {ran} checks found");
}
