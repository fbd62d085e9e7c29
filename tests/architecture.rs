//! The crate boundaries of DESIGN.md, checked on the manifests: the front end and the backends
//! never depend on each other, no backend depends on another, only the CLI knows clap, and the
//! default build needs nothing but Rust (no LLVM, no CUDA).

use std::path::Path;

/// Names in the `[dependencies]` table of a manifest.
fn deps(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            inside = l == "[dependencies]";
            continue;
        }
        if inside && !l.is_empty() && !l.starts_with('#') {
            if let Some(name) = l.split(['=', '.', ' ']).next() {
                out.push(name.trim().to_string());
            }
        }
    }
    out
}

fn crate_deps(name: &str) -> Vec<String> {
    deps(&Path::new(env!("CARGO_MANIFEST_DIR")).join("crates").join(name).join("Cargo.toml"))
}

fn internal(d: &[String]) -> Vec<&str> {
    d.iter().filter(|n| n.starts_with("twinjit")).map(String::as_str).collect()
}

#[test]
fn crate_boundaries_hold() {
    assert_eq!(internal(&crate_deps("twinjit-diag")), Vec::<&str>::new());
    assert_eq!(internal(&crate_deps("twinjit-ir")), ["twinjit-diag"]);
    assert_eq!(internal(&crate_deps("twinjit-front")), ["twinjit-diag", "twinjit-ir"]);
    assert_eq!(internal(&crate_deps("twinjit-host")), ["twinjit-diag", "twinjit-ir"]);
    assert_eq!(internal(&crate_deps("twinjit-cli")), ["twinjit"]);
    assert_eq!(internal(&crate_deps("twinjit-ptx")), ["twinjit-diag", "twinjit-ir"]);
    assert_eq!(internal(&crate_deps("twinjit-cuda")), Vec::<&str>::new());
    assert_eq!(internal(&crate_deps("twinjit-cache")), Vec::<&str>::new());
    // Only twinjit-ptx links LLVM; only twinjit-cuda talks to the driver.
    for c in ["twinjit-cuda", "twinjit-cache", "twinjit-host", "twinjit-cli"] {
        assert!(!crate_deps(c).iter().any(|n| n == "inkwell" || n == "llvm-sys"), "{c} links LLVM");
    }
    for c in ["twinjit-ptx", "twinjit-cache", "twinjit-host", "twinjit-cli"] {
        assert!(!crate_deps(c).iter().any(|n| n == "cudarc"), "{c} talks to the CUDA driver");
    }
    for c in ["twinjit-diag", "twinjit-ir", "twinjit-front", "twinjit-host"] {
        let d = crate_deps(c);
        for banned in ["clap", "inkwell", "llvm-sys", "cudarc"] {
            assert!(!d.iter().any(|n| n == banned), "{c} depends on {banned}");
        }
    }
    let facade = deps(&Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"));
    for banned in ["clap", "inkwell", "llvm-sys", "cudarc"] {
        assert!(!facade.iter().any(|n| n == banned), "the facade depends on {banned} by default");
    }
}
