//! Every program in `tests/bad/` is rejected with located diagnostics: each line marked
//! `# <-- here` gets a diagnostic, and the rendered messages match their snapshots in
//! `tests/snapshots/bad/NAME.txt` (re-bless with `UPDATE_EXPECT=1 cargo test`).

use twinjit::diag::{render_all, Diagnostic};
use twinjit::SourceModule;

/// Front end, then inference of every signature written in a decorator (as `twinjit check`).
fn diagnose(name: &str, text: &str) -> (Vec<Diagnostic>, String) {
    let m = match SourceModule::parse(name, text) {
        Ok(m) => m,
        Err(twinjit::Error::Compile(c)) => return (c.diagnostics, c.rendered),
        Err(other) => panic!("{name}: unexpected error {other}"),
    };
    // A function whose body does not compile is refused on its own (the module loads).
    let mut diags: Vec<Diagnostic> = m.module().refused.iter().flat_map(|r| r.diagnostics.iter().cloned()).collect();
    for f in m.functions() {
        for sig in &f.attrs.signatures {
            if let Err(e) = m.specialize(&f.name, sig, None) {
                diags.extend(e.diagnostics().iter().cloned());
            }
        }
    }
    let rendered = render_all(&diags, m.sources());
    (diags, rendered)
}

#[test]
fn bad_programs_get_located_diagnostics() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bad");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut problems = Vec::new();
    let mut count = 0;
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "py")) {
        count += 1;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Non-UTF-8 files are read the way `load_file` reports them: lossily, so the bad bytes
        // become U+FFFD and get a located syntax error.
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let shown = format!("tests/bad/{name}");
        let (diags, rendered) = diagnose(&shown, &text);
        if diags.is_empty() {
            problems.push(format!("{name}: accepted, but it is a bad program"));
            continue;
        }
        // Each marked line must be reported (a syntax error may be noticed on the next line).
        let lines: Vec<usize> = diags
            .iter()
            .filter_map(|d| d.span())
            .map(|s| text[..(s.start as usize).min(text.len())].matches('\n').count() + 1)
            .collect();
        for (i, l) in text.lines().enumerate() {
            if l.contains("# <-- here") && !lines.iter().any(|&d| d == i + 1 || d == i + 2) {
                problems.push(format!("{name}: nothing reported on marked line {} (reported: {lines:?})", i + 1));
            }
        }
        if diags.iter().any(|d| d.span().is_none()) {
            problems.push(format!("{name}: a diagnostic has no location"));
        }
        let snap = format!("snapshots/bad/{}.txt", name.trim_end_matches(".py"));
        expect_test::expect_file![snap].assert_eq(&rendered);
    }
    assert!(count >= 25, "only {count} bad programs");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
