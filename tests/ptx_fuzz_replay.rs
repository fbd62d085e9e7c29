//! Feature `cuda`: the `infer_signature` fuzz corpus (1000+ machine-found programs with
//! signatures) through the PTX backend. LLVM aborts the whole process on an operation NVPTX
//! cannot select, so this test passing at all is the point: every program that type-checks
//! lowers to PTX (through the one-thread call entry) without an internal error, and `ptxas`
//! (when found, as in `.ci/run`) accepts every PTX file.

#![cfg(feature = "cuda")]

mod common;

use std::path::{Path, PathBuf};
use twinjit::{Engine, Error, Target};

use common::fuzz_signature;

fn ptxas() -> Option<PathBuf> {
    std::env::var_os("TWINJIT_PTXAS").map(PathBuf::from).or_else(|| {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/nvidia/nvidia/cu13/bin/ptxas");
        p.is_file().then_some(p)
    })
}

#[test]
fn fuzz_found_programs_lower_to_valid_ptx() {
    let wheels = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/nvidia");
    if std::env::var_os("TWINJIT_NVIDIA_WHEELS").is_none() && wheels.exists() {
        std::env::set_var("TWINJIT_NVIDIA_WHEELS", &wheels);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = Engine::new(Target::Ptx { arch: "sm_90".into() }).unwrap();
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(root.join("fuzz/corpus/infer_signature")).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    let out = std::env::temp_dir().join(format!("twinjit-ptx-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let (mut lowered, mut problems, mut ptx_files) = (0, Vec::new(), Vec::new());
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if bytes.len() < 4 {
            continue;
        }
        let (sig_bytes, text) = bytes.split_at(4);
        let text = String::from_utf8_lossy(text);
        let Ok(m) = engine.load("f.py", &text) else { continue };
        let mut k = 0;
        for f in m.source().expect("parsed at load").functions().to_vec() {
            let sig = fuzz_signature(sig_bytes, &mut k, f.body.param_names.len());
            match m.ptx(&f.name, &sig) {
                Ok(p) => {
                    lowered += 1;
                    let file = out.join(format!("{}.ptx", ptx_files.len()));
                    std::fs::write(&file, &p.ptx).unwrap();
                    ptx_files.push((file, format!("{} {}{sig}", path.display(), f.name)));
                }
                Err(Error::Compile(_) | Error::Argument { .. } | Error::Unsupported(_)) => {}
                Err(e) => problems.push(format!("{} {}{sig}: {e}", path.display(), f.name)),
            }
        }
    }
    if let Some(ptxas) = ptxas() {
        for (file, what) in &ptx_files {
            let o =
                std::process::Command::new(&ptxas).args(["-arch=sm_90", "-o", "/dev/null"]).arg(file).output().unwrap();
            if !o.status.success() {
                problems.push(format!("{what}: ptxas: {}", String::from_utf8_lossy(&o.stderr)));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    println!("{lowered} fuzz-found specialisations lowered to PTX");
    assert!(lowered >= 100, "only {lowered} programs lowered");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
