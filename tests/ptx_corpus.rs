//! Feature `cuda`, no GPU needed: every function of both corpora (`tests/kernels_cuda`: the
//! `@cuda.jit` kernels, through their own `.entry`; `tests/kernels`: the host functions, through
//! a one-thread `.entry` that calls them) lowers to PTX for sm_80 and sm_90, and every PTX file
//! passes NVIDIA's `ptxas`.
//!
//! `ptxas` comes from `TWINJIT_PTXAS`, `PATH`, the `nvidia-cuda-nvcc` wheel in `.tools/nvidia`
//! (what `.ci/run` installs) or `/usr/local/cuda/bin`. Without one the PTX is still generated
//! and checked for its entry, and the test says that ptxas was skipped, unless
//! `TWINJIT_REQUIRE_PTXAS` is set (as in `.ci/run`), which makes a missing ptxas a failure.

#![cfg(feature = "cuda")]

mod common;

use common::{arg_value, corpus_in, read_checks};
use std::collections::BTreeSet;
use std::path::PathBuf;
use twinjit::ir::interp::RtValue;

use twinjit::{Engine, Target};

const ARCHS: [&str; 2] = ["sm_80", "sm_90"];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Points libdevice's search at the repository's wheel folder when nothing else is set.
pub fn use_repo_tools() {
    let wheels = repo().join(".tools/nvidia");
    if std::env::var_os("TWINJIT_NVIDIA_WHEELS").is_none() && wheels.exists() {
        // SAFETY-free in edition 2021; set before any compilation reads it (libdevice is looked
        // up once per process).
        std::env::set_var("TWINJIT_NVIDIA_WHEELS", &wheels);
    }
}

fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TWINJIT_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let mut dirs: Vec<PathBuf> =
        std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    dirs.push(repo().join(".tools/nvidia/nvidia/cu13/bin"));
    dirs.push(PathBuf::from("/usr/local/cuda/bin"));
    dirs.into_iter().map(|d| d.join("ptxas")).find(|p| p.is_file())
}

/// Every (file, function, signature) the checks of `dir` call.
fn specialisations(dir: &str) -> Vec<(String, String, String, String)> {
    let mut out = BTreeSet::new();
    for (name, text) in corpus_in(dir) {
        let module = twinjit::SourceModule::parse(&name, &text).expect("corpus loads");
        for c in read_checks(&name, &text).unwrap() {
            let Some(args) = c.args.iter().map(arg_value).collect::<Option<Vec<RtValue>>>() else { continue };
            // Defaults and declared signatures, as the engine binds the call.
            let Ok((sig, _)) = module.bind(&c.func, &args) else { continue };
            out.insert((name.clone(), text.clone(), c.func.clone(), sig.to_string()));
        }
    }
    out.into_iter().collect()
}

#[test]
fn every_corpus_function_lowers_to_ptx_that_ptxas_accepts() {
    use_repo_tools();
    let ptxas = find_ptxas();
    if ptxas.is_none() && std::env::var_os("TWINJIT_REQUIRE_PTXAS").is_some() {
        panic!("TWINJIT_REQUIRE_PTXAS is set but no ptxas was found (TWINJIT_PTXAS, PATH, .tools/nvidia)");
    }
    let out_dir = std::env::temp_dir().join(format!("twinjit-ptx-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    let mut kernels = 0;
    let mut host_only = 0;
    for (dir, expect_kernels) in [("kernels_cuda", true), ("kernels", false)] {
        let specs = specialisations(dir);
        // (`TWINJIT_CORPUS_ONLY=a,b` runs some files: the counts below are for the whole corpus.)
        let filtered = std::env::var_os("TWINJIT_CORPUS_ONLY").is_some();
        assert!(filtered || !specs.is_empty(), "no checks in tests/{dir}");
        for arch in ARCHS {
            let engine = Engine::new(Target::Ptx { arch: arch.into() }).expect("PTX target");
            let mut loaded: Option<(String, twinjit::Module)> = None;
            for (file, text, func, sig) in &specs {
                if loaded.as_ref().is_none_or(|(n, _)| n != file) {
                    loaded = Some((file.clone(), engine.load(file, text).expect("corpus loads")));
                }
                let module = &loaded.as_ref().unwrap().1;
                let what = format!("{dir}/{file} {func}{sig} for {arch}");
                match module.ptx(func, sig) {
                    Ok(p) => {
                        if !p.ptx.contains(&format!(".entry {}(", p.entry)) {
                            failures.push(format!("{what}: no `.entry {}` in the PTX", p.entry));
                        }
                        if !p.ptx.contains(&format!(".target {arch}")) {
                            failures.push(format!("{what}: PTX is not for {arch}"));
                        }
                        if expect_kernels {
                            kernels += 1;
                        }
                        let path = out_dir.join(format!("{}.ptx", files.len()));
                        std::fs::write(&path, &p.ptx).unwrap();
                        files.push((path, what));
                    }
                    // Host-only by design (as in Numba: compiled code allocates arrays only on
                    // the CPU, and a GPU call cannot hand an array back to Rust): a located
                    // refusal, counted.
                    Err(e @ twinjit::Error::Compile(_)) if common::host_only(&e.to_string()) => {
                        host_only += 1;
                    }
                    Err(e) => failures.push(format!("{what}: {e}")),
                }
            }
        }
    }
    let filtered = std::env::var_os("TWINJIT_CORPUS_ONLY").is_some();
    assert!(filtered || kernels >= 20, "only {kernels} kernel specialisations found in tests/kernels_cuda");
    assert!(
        filtered || (host_only > 0 && host_only < files.len()),
        "{host_only} host-only specialisations, {} compiled",
        files.len()
    );
    match &ptxas {
        Some(ptxas) => {
            for (path, arch_what) in &files {
                let arch = if arch_what.ends_with("sm_80") { "sm_80" } else { "sm_90" };
                let out = std::process::Command::new(ptxas)
                    .arg(format!("-arch={arch}"))
                    .arg(path)
                    .arg("-o")
                    .arg("/dev/null")
                    .output()
                    .expect("ptxas runs");
                if !out.status.success() {
                    failures.push(format!("{arch_what}: ptxas rejected it:\n{}", String::from_utf8_lossy(&out.stderr)));
                }
            }
            println!(
                "ptxas ({}) accepted {} of {} PTX files",
                ptxas.display(),
                files.len() - failures.len(),
                files.len()
            );
        }
        None => println!("ptxas not found: {} PTX files generated but not assembled (set TWINJIT_PTXAS)", files.len()),
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}
