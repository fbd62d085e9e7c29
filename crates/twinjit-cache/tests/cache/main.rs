//! Integration tests of the cache directory, one module per concern. They live in one test
//! binary so the race test can re-execute it as its writer processes.

mod concurrency;
mod corruption;
mod eviction;
mod explain;
#[cfg(unix)]
mod permissions;
mod store;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tempfile::TempDir;
use twinjit_cache::{Cache, CacheKey, CacheOptions};

/// A fresh temp directory and a cache opened at `<temp>/cache` (created by `open`).
fn fresh_cache(options: CacheOptions) -> (TempDir, Cache) {
    let temp = tempfile::tempdir().unwrap();
    let cache = Cache::open(&temp.path().join("cache"), options).unwrap();
    (temp, cache)
}

fn key(function: &str) -> CacheKey {
    CacheKey::new(function, "(float64[:], int64)", "host x86_64-unknown-linux-gnu +avx2")
        .with_part("source:f", format!("def {function}(a, n):\n    return g(a[n])\n"))
        .with_part("source:g", "def g(x):\n    return x * 2.0\n")
        .with_part("options", "boundscheck=on")
        .with_part("version", "twinjit 0.1.0")
}

/// Names of all files in `dir`, sorted.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

fn set_mtime(path: &Path, time: SystemTime) {
    fs::File::options().write(true).open(path).unwrap().set_modified(time).unwrap();
}

fn mtime(path: &Path) -> SystemTime {
    fs::metadata(path).unwrap().modified().unwrap()
}

fn hours_ago(hours: u64) -> SystemTime {
    SystemTime::now() - Duration::from_secs(hours * 3600)
}

fn entry_path(cache: &Cache, key: &CacheKey) -> PathBuf {
    let path = cache.entry_path(key);
    assert!(path.exists(), "no entry file at {}", path.display());
    path
}
