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
    // (twinjit-datafusion only with feature `sql`, for `twinjit sql`.)
    assert_eq!(internal(&crate_deps("twinjit-cli")), ["twinjit", "twinjit-datafusion"]);
    assert_eq!(internal(&crate_deps("twinjit-ptx")), ["twinjit-diag", "twinjit-ir"]);
    assert_eq!(internal(&crate_deps("twinjit-cuda")), Vec::<&str>::new());
    assert_eq!(internal(&crate_deps("twinjit-cache")), Vec::<&str>::new());
    // The DataFusion integration uses the facade's public API only, like the CLI.
    assert_eq!(internal(&crate_deps("twinjit-datafusion")), ["twinjit"]);
    assert_eq!(internal(&crate_deps("twinjit-ballista")), ["twinjit", "twinjit-datafusion"]);
    // Only twinjit-ptx links LLVM; only twinjit-cuda talks to the driver.
    for c in ["twinjit-cuda", "twinjit-cache", "twinjit-host", "twinjit-cli", "twinjit-datafusion", "twinjit-ballista"]
    {
        assert!(!crate_deps(c).iter().any(|n| n == "inkwell" || n == "llvm-sys"), "{c} links LLVM");
    }
    for c in ["twinjit-ptx", "twinjit-cache", "twinjit-host", "twinjit-cli", "twinjit-datafusion", "twinjit-ballista"] {
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

/// A plain `cargo test` (no feature `cuda`, no LLVM) builds neither CUDA crate; this test's name
/// says so in the test list, and it checks that the workspace's default members leave exactly
/// those two out, and the DataFusion and Ballista integrations (large, so `cargo build` stays
/// light).
/// `scripts/test` runs the whole suite, installing LLVM 19 and ptxas first.
#[cfg(not(feature = "cuda"))]
#[test]
fn skipped_twinjit_ptx_and_twinjit_cuda_without_feature_cuda_run_scripts_test_for_the_whole_suite() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let section = |name: &str| -> Vec<String> {
        let start = text.find(&format!("{name} = [")).unwrap_or_else(|| panic!("no {name}"));
        let body = &text[start..];
        let body = &body[..body.find(']').unwrap()];
        body.split('"').skip(1).step_by(2).map(str::to_string).collect()
    };
    let members = section("members");
    let defaults = section("default-members");
    let left_out: Vec<&String> = members.iter().filter(|m| !defaults.contains(m)).collect();
    assert_eq!(
        left_out,
        ["crates/twinjit-ptx", "crates/twinjit-cuda", "crates/twinjit-datafusion", "crates/twinjit-ballista"]
    );
    eprintln!(
        "note: twinjit-ptx and twinjit-cuda are skipped without feature `cuda`, and twinjit-datafusion and twinjit-ballista by \
         default; scripts/test runs them"
    );
}
