//! The on-disk cache through the embedding API (cross-process behaviour is tested through the
//! CLI in `crates/twinjit-cli/tests/cache.rs`).

use std::path::{Path, PathBuf};
use twinjit::{CacheMode, Engine, EngineOptions, Target};

const SRC: &str = "from numba import njit\n\n@njit(cache=True)\ndef sq(x):\n    return x * x\n\n@njit\ndef cube(x):\n    return x * x * x\n";

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("twinjit-api-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|rd| rd.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "twjc")).count())
        .unwrap_or(0)
}

fn engine(dir: &Path, cache: CacheMode) -> Engine {
    Engine::with_options(
        Target::Host,
        EngineOptions { cache, cache_dir: Some(dir.to_path_buf()), ..Default::default() },
    )
    .unwrap()
}

#[test]
fn a_second_call_in_the_same_process_never_touches_the_disk() {
    let dir = scratch("second");
    let m = engine(&dir, CacheMode::Always).load("s.py", SRC).unwrap();
    let sq = m.function("sq").unwrap();
    assert_eq!(sq.call::<i64>((3i64,)).unwrap(), 9);
    assert_eq!(entries(&dir), 1);
    std::fs::remove_dir_all(&dir).unwrap();
    // Same signature: the in-memory specialisation, so the missing directory is never noticed
    // (a lookup would recreate it, a compile would write an entry).
    assert_eq!(sq.call::<i64>((4i64,)).unwrap(), 16);
    assert!(!dir.exists(), "the second call went to the disk");
}

#[test]
fn another_module_loads_the_entry_instead_of_compiling() {
    let dir = scratch("reload");
    let e = engine(&dir, CacheMode::Always);
    let first = e.load("s.py", SRC).unwrap().function("sq").unwrap().specialize((2.5f64,)).unwrap();
    assert_eq!(entries(&dir), 1);
    let entry = std::fs::read_dir(&dir).unwrap().flatten().next().unwrap().path();
    let before = std::fs::read(&entry).unwrap();
    let second = e.load("s.py", SRC).unwrap().function("sq").unwrap().specialize((2.5f64,)).unwrap();
    assert_eq!(second.call::<f64>(&[twinjit::ArgValue::F64(1.5)]).unwrap(), 2.25);
    assert_eq!(first.call::<f64>(&[twinjit::ArgValue::F64(1.5)]).unwrap(), 2.25);
    // A hit rewrites nothing (only the last-use time changes).
    assert_eq!(std::fs::read(&entry).unwrap(), before);
    assert_eq!(entries(&dir), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_decorator_decides_by_default_and_off_means_off() {
    let dir = scratch("modes");
    let m = engine(&dir, CacheMode::Decorator).load("s.py", SRC).unwrap();
    assert_eq!(m.function("cube").unwrap().call::<i64>((2i64,)).unwrap(), 8);
    assert_eq!(entries(&dir), 0, "cube has no cache=True");
    assert_eq!(m.function("sq").unwrap().call::<i64>((2i64,)).unwrap(), 4);
    assert_eq!(entries(&dir), 1, "sq has cache=True");
    let off = engine(&dir, CacheMode::Off).load("s.py", SRC).unwrap();
    assert_eq!(off.function("sq").unwrap().call::<f64>((2.0f64,)).unwrap(), 4.0);
    assert_eq!(entries(&dir), 1, "CacheMode::Off wrote an entry");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_names_the_part_of_the_key_that_changed() {
    let dir = scratch("explain");
    let e = engine(&dir, CacheMode::Always);
    e.load("s.py", SRC).unwrap().function("sq").unwrap().call::<i64>((2i64,)).unwrap();
    let changed = SRC.replace("return x * x\n", "return x * x + 0\n");
    let why = e.load("s.py", &changed).unwrap().cache_explain("sq", "(int64,)").unwrap();
    assert!(!why.is_hit());
    assert!(why.to_string().contains("source:sq changed"), "{why}");
    let same = e.load("s.py", SRC).unwrap().cache_explain("sq", "(int64,)").unwrap();
    assert!(same.is_hit(), "{same}");
    let _ = std::fs::remove_dir_all(&dir);
}
