//! The IR text form round-trips: for every corpus function, untyped IR and the typed, lowered
//! IR of every signature its checks use print, parse back, print identically, and the parsed
//! function passes the verifier at its level.

mod common;

use common::{arg_value, corpus, read_checks};
use twinjit::ir::parse::parse_function;
use twinjit::ir::verify::{verify, Level};
use twinjit::ir::{Function, Signature};
use twinjit::SourceModule;

fn roundtrip(f: &Function, level: Level, what: &str, failures: &mut Vec<String>) {
    for text in [format!("{f}"), format!("{f:#}")] {
        match parse_function(&text) {
            Ok(g) => {
                let again =
                    if text.contains(" @") && format!("{f:#}") == text { format!("{g:#}") } else { format!("{g}") };
                if again != text {
                    failures.push(format!("{what}: text changed after parse:\n{text}\n---\n{again}"));
                }
                if let Err(e) = verify(&g, level) {
                    failures.push(format!("{what}: parsed IR does not verify: {e}"));
                }
            }
            Err(e) => failures.push(format!("{what}: {e}\n{text}")),
        }
    }
}

#[test]
fn corpus_ir_roundtrips_through_text() {
    let mut failures = Vec::new();
    let mut n = 0;
    for (name, text) in corpus() {
        let m = SourceModule::parse(&name, &text).expect("corpus parses");
        for f in m.functions() {
            roundtrip(&f.body, Level::Untyped, &format!("{name}:{} untyped", f.name), &mut failures);
            n += 1;
        }
        for c in read_checks(&name, &text).unwrap() {
            let Some(args) = c.args.iter().map(arg_value).collect::<Option<Vec<_>>>() else { continue };
            let sig = Signature { args: args.iter().map(|a| a.ty()).collect(), ret: None };
            if let Ok(p) = m.specialize(&c.func, &sig, None) {
                for tf in &p.functions {
                    roundtrip(&tf.func, Level::Lowered, &format!("{name}:{} {sig}", tf.func.name), &mut failures);
                    n += 1;
                }
            }
        }
    }
    assert!(n > 500, "only {n} functions");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}
