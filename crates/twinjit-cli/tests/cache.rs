//! The on-disk compilation cache across processes, through the `twinjit` command: a hit in a
//! fresh process, misses after a callee's source, the signature or an option changed, corrupted
//! entries recovered, 8 processes racing on one key, unusable and insecure cache directories.
//! Every process runs with `TWINJIT_CACHE_LOG=1`, which prints one line per lookup on stderr
//! (`cache hit: ...` / `cache miss for ...: <why>`).

use std::path::{Path, PathBuf};
use std::process::Command;

const SRC: &str = "from numba import njit\n\n\
@njit(cache=True)\ndef helper(x):\n    return x * 2 + 1\n\n\
@njit(cache=True)\ndef total(n):\n    s = 0\n    for i in range(n):\n        s += helper(i)\n    return s\n";

struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("twinjit-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("k.py"), SRC).unwrap();
        Scratch { dir }
    }
    fn file(&self) -> String {
        self.dir.join("k.py").display().to_string()
    }
    fn cache(&self) -> PathBuf {
        self.dir.join("cache")
    }
    /// Runs `twinjit ARGS` with this scratch's cache directory: (exit code, stdout, stderr).
    fn twinjit(&self, cache: &Path, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_twinjit"))
            .args(args)
            .env("TWINJIT_CACHE_DIR", cache)
            .env("TWINJIT_CACHE_LOG", "1")
            .output()
            .expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into(),
            String::from_utf8_lossy(&out.stderr).into(),
        )
    }
    fn total(&self, n: i64, extra: &[&str]) -> (String, String) {
        let f = self.file();
        let arg = format!("n=int64:{n}");
        let mut args = vec!["run", f.as_str(), "total", "--arg", arg.as_str()];
        args.extend_from_slice(extra);
        let (code, out, err) = self.twinjit(&self.cache(), &args);
        assert_eq!(code, 0, "{err}");
        let ret = out.split("\"return\": ").nth(1).and_then(|r| r.split(',').next()).unwrap_or("").to_string();
        (ret, err)
    }
    /// Entry files: compiled code and module outlines (what the front end found in a file).
    fn entries(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self.cache())
            .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "twjc")).collect())
            .unwrap_or_default();
        v.sort();
        v
    }
    /// Entries of compiled code only.
    fn compiled(&self) -> Vec<PathBuf> {
        let c = twinjit::cache::Cache::open(&self.cache(), Default::default()).unwrap();
        c.entries().into_iter().filter(|e| e.target != "front end").map(|e| e.path).collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// sum(2i + 1 for i < n) = n².
fn expect_total(n: i64) -> String {
    (n * n).to_string()
}

#[test]
fn a_fresh_process_hits_and_the_result_is_the_same() {
    let s = Scratch::new("hit");
    let (r1, e1) = s.total(10, &[]);
    assert!(e1.contains("cache miss for total(int64)"), "{e1}");
    assert!(e1.contains("cache miss: front end of"), "{e1}");
    assert_eq!((s.entries().len(), s.compiled().len()), (2, 1), "the compiled code and the file's outline");
    let (r2, e2) = s.total(10, &[]);
    assert!(e2.contains("cache hit: total(int64)"), "{e2}");
    assert!(e2.contains(&format!("cache hit: front end of {}", s.file())), "{e2}");
    assert_eq!((r1.as_str(), r2.as_str()), (expect_total(10).as_str(), expect_total(10).as_str()));
    let (code, list, _) = s.twinjit(&s.cache(), &["cache", "list"]);
    assert_eq!(code, 0);
    assert!(list.lines().any(|l| l.starts_with("total(int64)  [host ")), "{list}");
    assert!(list.lines().any(|l| l.starts_with(&format!("{}  [front end]", s.file()))), "{list}");
    let (_, stats, _) = s.twinjit(&s.cache(), &["cache", "stats"]);
    assert!(stats.contains(": 2 entries, "), "{stats}");
    let (_, dir, _) = s.twinjit(&s.cache(), &["cache", "dir"]);
    assert_eq!(dir.trim(), s.cache().display().to_string());
    let (_, cleared, _) = s.twinjit(&s.cache(), &["cache", "clear"]);
    assert_eq!(cleared.trim(), "removed 2 entries");
    assert!(s.entries().is_empty());
}

#[test]
fn a_changed_callee_signature_or_option_misses_and_says_why() {
    let s = Scratch::new("miss");
    s.total(5, &[]);
    // The callee's source changes: the caller's entry must not be used.
    std::fs::write(s.dir.join("k.py"), SRC.replace("x * 2 + 1", "x * 2 + 3")).unwrap();
    let (r, e) = s.total(5, &[]);
    assert!(e.contains("although an entry exists: source:helper changed"), "{e}");
    assert_eq!(r, (5 * 5 + 2 * 5).to_string());
    let f = s.file();
    let (code, why, err) = s.twinjit(&s.cache(), &["cache", "explain", &f, "total", "--sig", "(int64,)"]);
    assert_eq!(code, 0, "{err}");
    assert!(why.starts_with("hit for total(int64)"), "{why}");
    // Another signature: a new entry.
    let (code, _, e) = s.twinjit(&s.cache(), &["run", &f, "total", "--arg", "n=int32:5"]);
    assert_eq!(code, 0, "{e}");
    assert!(e.contains("cache miss for total(int32)"), "{e}");
    // Another option (bounds checks off).
    let (_, e) = s.total(5, &["--boundscheck", "false"]);
    assert!(e.contains("although an entry exists: options changed"), "{e}");
    assert_eq!(s.compiled().len(), 4);
}

#[test]
fn corrupted_entries_are_misses_and_are_replaced() {
    let s = Scratch::new("corrupt");
    s.total(7, &[]);
    type Damage = fn(&mut Vec<u8>);
    let damage: [(&str, Damage); 4] = [
        ("truncated", |b| b.truncate(b.len() / 2)),
        ("a flipped byte", |b| {
            let k = b.len() - 20;
            b[k] ^= 0x40;
        }),
        ("garbage", |b| *b = b"not a cache entry at all".repeat(40)),
        ("empty", |b| b.clear()),
    ];
    for (what, f) in damage {
        // Both entries: the compiled code and the file's outline.
        let entries = s.entries();
        assert_eq!(entries.len(), 2);
        for entry in entries {
            let mut bytes = std::fs::read(&entry).unwrap();
            f(&mut bytes);
            std::fs::write(&entry, &bytes).unwrap();
        }
        let (r, e) = s.total(7, &[]);
        assert_eq!(r, expect_total(7), "{what}");
        assert!(e.contains("cache miss for total(int64)"), "{what}: {e}");
        assert!(e.contains("cache miss: front end of"), "{what}: {e}");
        let (r, e) = s.total(7, &[]);
        assert_eq!(r, expect_total(7), "{what}");
        assert!(e.contains("cache hit: total(int64)"), "{what}: the entry was not replaced: {e}");
        assert!(e.contains("cache hit: front end of"), "{what}: the outline was not replaced: {e}");
    }
}

#[test]
fn eight_processes_racing_on_one_key_leave_one_valid_entry() {
    let s = Scratch::new("race");
    let f = s.file();
    let children: Vec<_> = (0..8)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_twinjit"))
                .args(["run", &f, "total", "--arg", "n=int64:12"])
                .env("TWINJIT_CACHE_DIR", s.cache())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("\"return\": {}", expect_total(12))));
    }
    let all: Vec<_> = std::fs::read_dir(s.cache()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(all.len(), 2, "exactly two files, the compiled code and the outline (no temp files left): {all:?}");
    assert_eq!(s.compiled().len(), 1);
    let (_, e) = s.total(12, &[]);
    assert!(e.contains("cache hit: total(int64)"), "{e}");
}

#[test]
fn an_unusable_cache_directory_warns_and_compiles_in_memory() {
    let s = Scratch::new("unusable");
    // A regular file where the directory should be: nothing can be created there.
    let not_a_dir = s.dir.join("plain-file");
    std::fs::write(&not_a_dir, "x").unwrap();
    let f = s.file();
    let (code, out, err) = s.twinjit(&not_a_dir, &["run", &f, "total", "--arg", "n=int64:9"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("\"return\": {}", expect_total(9))), "{out}");
    assert!(err.contains("warning: not using the compilation cache"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_group_writable_cache_directory_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("insecure");
    s.total(3, &[]);
    std::fs::set_permissions(s.cache(), std::fs::Permissions::from_mode(0o770)).unwrap();
    let (r, e) = s.total(3, &[]);
    assert_eq!(r, expect_total(3));
    assert!(e.contains("warning: not using the compilation cache"), "{e}");
    assert!(!e.contains("cache hit"), "an entry in a group-writable directory was used: {e}");
    // World-writable, too.
    std::fs::set_permissions(s.cache(), std::fs::Permissions::from_mode(0o707)).unwrap();
    let (r, e) = s.total(3, &[]);
    assert_eq!(r, expect_total(3));
    assert!(e.contains("warning: not using the compilation cache") && !e.contains("cache hit"), "{e}");
}

/// Feature `cuda`: PTX entries need no GPU. A cached kernel's PTX is a hit in a fresh process
/// and identical to the compiled one.
#[cfg(feature = "cuda")]
#[test]
fn ptx_entries_hit_across_processes() {
    let s = Scratch::new("ptx");
    let k = s.dir.join("kern.py");
    std::fs::write(
        &k,
        "from numba import cuda\n\n@cuda.jit(cache=True)\ndef scale(a, f):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= f\n",
    )
    .unwrap();
    let k = k.display().to_string();
    let args = ["ptx", k.as_str(), "scale", "--sig", "void(float32[::1], float32)", "--arch", "sm_80"];
    let (c1, p1, e1) = s.twinjit(&s.cache(), &args);
    assert_eq!(c1, 0, "{e1}");
    assert!(e1.contains("cache miss for scale(float32[::1], float32)"), "{e1}");
    let (c2, p2, e2) = s.twinjit(&s.cache(), &args);
    assert_eq!(c2, 0, "{e2}");
    assert!(e2.contains("cache hit: scale(float32[::1], float32) on cuda sm_80"), "{e2}");
    assert_eq!(p1, p2);
    assert!(p2.contains(".entry scale("));
    // Another architecture is another entry.
    let mut other = args;
    other[6] = "sm_90";
    let (_, _, e3) = s.twinjit(&s.cache(), &other);
    assert!(e3.contains("although an entry exists: target changed"), "{e3}");
}
