//! Replays, on the stable toolchain, every file of the fuzz corpora (`fuzz/corpus/*/`), every
//! minimised crasher (`fuzz/regressions/`) and every bad program (`tests/bad/`) through the
//! front end (and, for `infer_signature` inputs, inference with signatures derived from the
//! input's first four bytes), asserting: no panic, a located diagnostic for each rejected input, and bounded
//! time per input.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use twinjit::ir::parse_signature;
use twinjit::SourceModule;

use common::fuzz_signature;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files(&p));
            } else if p.file_name().is_some_and(|n| n == "README.md") {
                continue;
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn check_front_end(name: &str, text: &str, problems: &mut Vec<String>) -> Option<SourceModule> {
    match SourceModule::parse(name, text) {
        Ok(m) => Some(m),
        Err(e) => {
            let d = e.diagnostics();
            if d.is_empty() || d.iter().any(|d| d.span().is_none()) {
                problems.push(format!("{name}: rejected without a located diagnostic: {e}"));
            }
            let _ = e.to_string();
            None
        }
    }
}

#[test]
fn corpora_regressions_and_bad_programs_replay_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut count = 0;
    let limit = Duration::from_secs(20);
    let mut inputs: Vec<(PathBuf, bool)> = Vec::new();
    for p in files(&root.join("fuzz/corpus/infer_signature")) {
        inputs.push((p, true));
    }
    for dir in ["fuzz/corpus/parse_module", "fuzz/corpus/differential", "fuzz/regressions", "tests/bad"] {
        for p in files(&root.join(dir)) {
            inputs.push((p, false));
        }
    }
    for (path, with_signature) in inputs {
        count += 1;
        // A running fuzzer may replace corpus files while this reads them.
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let name = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let started = Instant::now();
        let (sig_bytes, text) =
            if with_signature && bytes.len() >= 4 { bytes.split_at(4) } else { (&[][..], &bytes[..]) };
        let text = String::from_utf8_lossy(text);
        if let Some(m) = check_front_end(&name, &text, &mut problems) {
            if with_signature {
                let mut k = 0;
                for f in m.functions() {
                    if let Ok(sig) = parse_signature(&fuzz_signature(sig_bytes, &mut k, f.body.param_names.len())) {
                        if let Err(e) = m.specialize(&f.name, &sig, None) {
                            if e.diagnostics().iter().any(|d| d.span().is_none()) {
                                problems.push(format!("{name}: unlocated inference error: {e}"));
                            }
                        }
                    }
                }
            }
        }
        if started.elapsed() > limit {
            problems.push(format!("{name}: took {:?}", started.elapsed()));
        }
    }
    assert!(count >= 60, "only {count} inputs replayed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
