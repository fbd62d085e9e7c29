//! The security boundary: who owns and who may write the directory and its entries.

use std::fs;
use std::os::unix::fs::{chown, symlink, MetadataExt, PermissionsExt};
use std::path::Path;

use twinjit_cache::{Cache, CacheError, CacheOptions};

use crate::{entry_path, files_in, fresh_cache, key};

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().mode() & 0o7777
}

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// The effective uid, as the owner of a file we just created.
fn euid() -> u32 {
    let temp = tempfile::NamedTempFile::new().unwrap();
    temp.as_file().metadata().unwrap().uid()
}

fn is_root() -> bool {
    euid() == 0
}

fn insecure_reason(result: Result<impl std::fmt::Debug, CacheError>) -> String {
    match result {
        Err(CacheError::Insecure { reason, .. }) => reason,
        other => panic!("expected Insecure, got {other:?}"),
    }
}

#[test]
fn a_new_directory_and_its_new_parents_are_private() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("a/b/cache");
    let cache = Cache::open(&dir, CacheOptions::default()).unwrap();
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&temp.path().join("a")), 0o700);
    cache.put(&key("f"), b"x").unwrap();
    assert_eq!(mode(&entry_path(&cache, &key("f"))), 0o600);
}

#[test]
fn a_directory_others_can_write_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("cache");
    fs::create_dir(&dir).unwrap();
    for (bad_mode, shown) in [(0o777, "0777"), (0o770, "0770"), (0o702, "0702"), (0o1777, "1777")] {
        chmod(&dir, bad_mode);
        let reason = insecure_reason(Cache::open(&dir, CacheOptions::default()));
        assert!(reason.contains(shown), "{reason}");
    }
    // Others may read and search; only writing matters.
    chmod(&dir, 0o755);
    Cache::open(&dir, CacheOptions::default()).unwrap();
}

#[test]
fn a_directory_of_another_user_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let dir = if is_root() {
        let dir = temp.path().join("cache");
        fs::create_dir(&dir).unwrap();
        chown(&dir, Some(65534), Some(65534)).unwrap();
        dir
    } else {
        // Not root: `/` belongs to someone else and is not writable by others.
        assert_ne!(fs::metadata("/").unwrap().uid(), euid());
        Path::new("/").to_path_buf()
    };
    let reason = insecure_reason(Cache::open(&dir, CacheOptions::default()));
    assert!(reason.contains("not by the current user"), "{reason}");
}

#[test]
fn a_group_writable_entry_is_refused_and_kept_until_replaced() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), b"code").unwrap();
    let path = entry_path(&cache, &key("f"));
    chmod(&path, 0o620);

    let reason = insecure_reason(cache.get(&key("f")));
    assert!(reason.contains("0620"), "{reason}");
    assert!(path.exists(), "an insecure entry is left for the user to inspect");
    assert!(!cache.explain(&key("f")).is_hit());

    // The facade compiles in memory and puts the fresh result, which replaces the file.
    cache.put(&key("f"), b"fresh").unwrap();
    assert_eq!(mode(&path), 0o600);
    assert_eq!(cache.get(&key("f")).unwrap(), Some(b"fresh".to_vec()));
}

#[test]
fn an_entry_of_another_user_is_refused() {
    if !is_root() {
        // Only root can give a file away; the mode check above covers the non-root case.
        eprintln!("skipped: needs root to chown an entry");
        return;
    }
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), b"code").unwrap();
    chown(entry_path(&cache, &key("f")), Some(65534), None).unwrap();
    let reason = insecure_reason(cache.get(&key("f")));
    assert!(reason.contains("owned by uid 65534"), "{reason}");
}

#[test]
fn a_symlinked_entry_is_refused_without_reading_its_target() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    let (_elsewhere_temp, elsewhere) = fresh_cache(CacheOptions::default());
    elsewhere.put(&key("f"), b"planted").unwrap();
    symlink(elsewhere.entry_path(&key("f")), cache.entry_path(&key("f"))).unwrap();
    let reason = insecure_reason(cache.get(&key("f")));
    assert!(reason.contains("symbolic link"), "{reason}");
    assert!(cache.entries().is_empty(), "listing follows no symlinks either");
}

#[test]
fn a_directory_at_an_entry_name_is_refused() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    fs::create_dir(cache.entry_path(&key("f"))).unwrap();
    let reason = insecure_reason(cache.get(&key("f")));
    assert!(reason.contains("not a regular file"), "{reason}");
}

#[test]
fn put_into_a_path_that_stopped_being_a_directory_is_an_io_error() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    fs::remove_dir(cache.dir()).unwrap();
    fs::write(cache.dir(), "a file now").unwrap();
    assert!(matches!(cache.put(&key("f"), b"x"), Err(CacheError::Io { .. })));
    assert!(matches!(Cache::open(cache.dir(), CacheOptions::default()), Err(CacheError::Io { .. })));
}

#[test]
fn a_read_only_directory_still_serves_hits() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), b"code").unwrap();
    chmod(cache.dir(), 0o500);
    let reopened = Cache::open(cache.dir(), CacheOptions::default()).unwrap();
    assert_eq!(reopened.get(&key("f")).unwrap(), Some(b"code".to_vec()));

    let put = reopened.put(&key("g"), b"more");
    if is_root() {
        // Root writes through a read-only mode; the put must then be a normal, valid entry.
        put.unwrap();
        assert_eq!(reopened.get(&key("g")).unwrap(), Some(b"more".to_vec()));
    } else {
        assert!(matches!(put, Err(CacheError::Io { .. })), "{put:?}");
        assert_eq!(files_in(cache.dir()).len(), 1, "a failed put leaves nothing behind");
    }
    chmod(cache.dir(), 0o700);
}
