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

/// The cache's entries for compiled code (not module outlines), as paths.
fn compiled(dir: &Path) -> Vec<PathBuf> {
    match twinjit::cache::Cache::open(dir, Default::default()) {
        Ok(c) => c.entries().into_iter().filter(|e| e.target != "front end").map(|e| e.path).collect(),
        Err(_) => Vec::new(),
    }
}

fn entries(dir: &Path) -> usize {
    if dir.exists() {
        compiled(dir).len()
    } else {
        0
    }
}

/// Module outlines (the front end's summary of a file) in the cache.
fn outlines(dir: &Path) -> usize {
    let c = twinjit::cache::Cache::open(dir, Default::default()).unwrap();
    c.entries().into_iter().filter(|e| e.target == "front end").count()
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
    let entry = compiled(&dir).pop().unwrap();
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
    assert_eq!(outlines(&dir), 1, "one outline for s.py");
    // A module that never says `cache` does not touch the cache directory by default.
    let plain = scratch("plain");
    let m = engine(&plain, CacheMode::Decorator).load("p.py", &SRC.replace("(cache=True)", "")).unwrap();
    assert_eq!(m.function("sq").unwrap().call::<i64>((3i64,)).unwrap(), 9);
    assert!(!plain.exists());
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

#[test]
fn a_module_whose_code_is_cached_loads_and_runs_without_the_front_end() {
    let dir = scratch("lazy");
    let e = engine(&dir, CacheMode::Decorator);
    let m = e.load("s.py", SRC).unwrap();
    assert!(m.is_parsed(), "a first load parses");
    assert_eq!(m.function("sq").unwrap().call::<i64>((7i64,)).unwrap(), 49);
    assert_eq!((entries(&dir), outlines(&dir)), (1, 1));

    let m = e.load("s.py", SRC).unwrap();
    assert!(!m.is_parsed(), "the outline was not used");
    assert_eq!(m.function_names(), ["sq", "cube"]);
    assert_eq!(m.function("sq").unwrap().params(), ["x"]);
    assert_eq!(m.function("sq").unwrap().call::<i64>((8i64,)).unwrap(), 64);
    assert!(!m.is_parsed(), "a cache hit ran the front end");
    // Arguments are still checked against the outline's parameters.
    let e2 = m.function("sq").unwrap().call::<i64>((1i64, 2i64)).unwrap_err();
    assert!(e2.to_string().contains("takes 1 argument (x) but 2 were given"), "{e2}");
    // A signature that misses runs the front end then, and gives the right result.
    assert_eq!(m.function("sq").unwrap().call::<f64>((1.5f64,)).unwrap(), 2.25);
    assert!(m.is_parsed());
    assert_eq!(m.function("cube").unwrap().call::<i64>((2i64,)).unwrap(), 8);

    // Any edit to the text is a new outline: the front end runs (and reports errors) again.
    let edited = format!("{SRC}\n# a comment\n");
    let m = e.load("s.py", &edited).unwrap();
    assert!(m.is_parsed());
    assert_eq!(outlines(&dir), 2);
    // A function whose body does not compile is refused on its own; such a module keeps no
    // outline (every load runs the front end and reports the refusal again).
    let broken = format!("{SRC}\n@njit(cache=True)\ndef bad(x):\n    return y\n");
    let m = e.load("s.py", &broken).unwrap();
    let err = m.function("bad").unwrap_err();
    assert!(err.to_string().contains("`y`"), "{err}");
    assert_eq!(m.function("sq").unwrap().call::<i64>((3i64,)).unwrap(), 9);
    let again = e.load("s.py", &broken).unwrap();
    assert!(again.is_parsed(), "a text with a refused function must never get an outline");
    assert_eq!(outlines(&dir), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cached_load_knows_the_defaults() {
    let dir = scratch("defaults");
    let e = engine(&dir, CacheMode::Decorator);
    let src = "from numba import njit\n\nK = 3\n\n@njit(cache=True)\ndef f(x, n=K, s=0.5):\n    return x * n + s\n";
    let m = e.load("d.py", src).unwrap();
    assert_eq!(m.function("f").unwrap().call::<f64>((2.0f64,)).unwrap(), 6.5);
    let m = e.load("d.py", src).unwrap();
    assert!(!m.is_parsed(), "the outline was not used");
    let f = m.function("f").unwrap();
    // The defaulted call hits the entry compiled for (float64, int64, float64)...
    assert_eq!(f.call::<f64>((2.0f64,)).unwrap(), 6.5);
    assert!(!m.is_parsed(), "a cache hit ran the front end");
    // ...and the outline's defaults fill a signature that misses too.
    assert_eq!(f.call::<f64>((2.0f64, 1i64)).unwrap(), 2.5);
    let err = f.call::<f64>(()).unwrap_err();
    assert!(err.to_string().contains("missing 1 required argument: 'x'"), "{err}");
    // A different default is a different text: a new outline and new code.
    let m = e.load("d.py", &src.replace("s=0.5", "s=1.5")).unwrap();
    assert_eq!(m.function("f").unwrap().call::<f64>((2.0f64,)).unwrap(), 7.5);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runtime_error_locations_follow_the_function_when_code_above_it_moves() {
    let dir = scratch("moved");
    let e = engine(&dir, CacheMode::Decorator);
    let src = "from numba import njit\n\n@njit\ndef other(x):\n    return x\n\n@njit(cache=True)\ndef at(a, i):\n    return a[i]\n";
    let a = [1.0f64, 2.0];
    let err = e.load("m.py", src).unwrap().function("at").unwrap().call::<f64>((&a[..], 5i64)).unwrap_err();
    assert!(err.to_string().contains("m.py:9:12"), "{err}");
    // Two more lines in a function above `at` that `at` does not call: its key, and so its
    // entry, are unchanged, but its code now starts two lines lower.
    let moved = src.replace("    return x\n", "    y = x\n    z = y\n    return z\n");
    e.load("m.py", &moved).unwrap();
    // Loaded again from its outline, so that a run without the front end proves a hit.
    let m = e.load("m.py", &moved).unwrap();
    let err = m.function("at").unwrap().call::<f64>((&a[..], 5i64)).unwrap_err();
    assert!(!m.is_parsed(), "`at` should have come from its cache entry");
    assert_eq!(entries(&dir), 1);
    assert!(err.to_string().contains("m.py:11:12"), "stale location: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cached entry keeps each raise site's exception: after a hit (no front end, no compiler)
/// the error has the same class, message (with the runtime value) and location.
#[test]
fn a_cache_hit_reports_the_same_raised_exception() {
    let dir = scratch("raise");
    let e = engine(&dir, CacheMode::Decorator);
    let src = "from numba import njit\n\n\nclass MyError(Exception):\n    pass\n\n\n\
               @njit(cache=True)\ndef check(x, y):\n    if x > y:\n        raise MyError(\"x above y\", x, y > 0.5)\n    \
               assert x != y, \"equal\"\n    return y - x\n";
    let call = |m: &twinjit::Module, x: i64, y: f64| m.function("check").unwrap().call::<f64>((x, y));
    let first = e.load("c.py", src).unwrap();
    let raised = call(&first, 3, 1.0).unwrap_err();
    let asserted = call(&first, 2, 2.0).unwrap_err();
    assert_eq!(raised.to_string(), "MyError: ('x above y', 3, True) in `check` at c.py:11:9");
    assert_eq!(asserted.to_string(), "AssertionError: equal in `check` at c.py:12:5");
    e.load("c.py", src).unwrap();
    let m = e.load("c.py", src).unwrap();
    assert_eq!(call(&m, 1, 2.0).unwrap(), 1.0);
    assert!(!m.is_parsed(), "`check` should have come from its cache entry");
    let again = call(&m, 3, 1.0).unwrap_err();
    assert_eq!((again.to_string(), again.python_exception()), (raised.to_string(), Some("MyError")));
    assert_eq!(again.exception_message(), Some("('x above y', 3, True)"));
    assert_eq!(call(&m, 2, 2.0).unwrap_err().to_string(), asserted.to_string());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Feature `cuda` (no GPU needed): PTX entries store raise sites relative to their function
/// too, so a kernel's error location is right after code above it moved.
#[cfg(feature = "cuda")]
#[test]
fn ptx_entries_keep_raise_sites_relative_to_their_function() {
    let dir = scratch("ptx-moved");
    let e = Engine::with_options(
        Target::Ptx { arch: "sm_80".into() },
        EngineOptions { cache: CacheMode::Decorator, cache_dir: Some(dir.clone()), ..Default::default() },
    )
    .unwrap();
    let src = "from numba import cuda\n\n@cuda.jit(device=True)\ndef other(x):\n    return x\n\n\
               @cuda.jit(cache=True, boundscheck=True)\ndef shift(a):\n    i = cuda.grid(1)\n    a[i] = a[i + 1]\n";
    let moved = src.replace("    return x\n", "    y = x\n    return y\n");
    let sig = "void(float64[::1])";
    let line_of = |text: &str, span: twinjit::diag::Span| text[..span.start as usize].matches('\n').count() + 1;
    let first = e.load("k.py", src).unwrap().ptx("shift", sig).unwrap();
    assert!(!first.sites.is_empty());
    assert!(first.sites.iter().all(|s| line_of(src, s.span) == 10), "{:?}", first.sites);
    e.load("k.py", &moved).unwrap();
    let m = e.load("k.py", &moved).unwrap();
    let again = m.ptx("shift", sig).unwrap();
    assert!(!m.is_parsed(), "the PTX should have come from the cache");
    assert_eq!(again.ptx, first.ptx);
    assert!(again.sites.iter().all(|s| line_of(&moved, s.span) == 11), "stale sites: {:?}", again.sites);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cached_parallel_loop_runs_its_chunks_and_reductions() {
    // The artifact holds the chunk function and its trampoline and imports the pool's entry.
    let src = "import numpy as np\nfrom numba import njit, prange\n\n@njit(cache=True, parallel=True)\ndef total(a):\n    s = 0.0\n    y = np.zeros(2)\n    for i in prange(a.shape[0]):\n        s += a[i]\n        y += a[i]\n    return s + y[1]\n";
    let dir = scratch("parallel");
    let a: Vec<f64> = (0..5000).map(|k| k as f64).collect();
    let want = 2.0 * 4999.0 * 5000.0 / 2.0;
    let m = engine(&dir, CacheMode::Decorator).load("p.py", src).unwrap();
    assert_eq!(m.function("total").unwrap().call::<f64>((&a[..],)).unwrap(), want);
    assert_eq!(entries(&dir), 1);
    // A fresh engine: the compiled code comes from the disk.
    let m = engine(&dir, CacheMode::Decorator).load("p.py", src).unwrap();
    assert!(!m.is_parsed(), "the outline was not used");
    assert_eq!(m.function("total").unwrap().call::<f64>((&a[..],)).unwrap(), want);
    assert!(!m.is_parsed(), "the cache hit ran the front end");
    let _ = std::fs::remove_dir_all(&dir);
}
