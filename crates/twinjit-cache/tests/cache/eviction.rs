//! Least-recently-used eviction by file mtime.

use std::fs;
use std::time::SystemTime;

use twinjit_cache::{CacheKey, CacheOptions};

use crate::{entry_path, files_in, fresh_cache, hours_ago, key, mtime, set_mtime};

const PAYLOAD: [u8; 1000] = [0x90; 1000];

/// Size of one entry file for `key(name)` with `PAYLOAD`, for names of one length.
fn entry_size() -> u64 {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("e0"), &PAYLOAD).unwrap();
    cache.stats().bytes
}

fn present(cache: &twinjit_cache::Cache, names: &[&str]) -> Vec<String> {
    names.iter().filter(|n| cache.entry_path(&key(n)).exists()).map(|n| n.to_string()).collect()
}

#[test]
fn least_recently_used_entries_are_evicted_and_a_get_refreshes_an_entry() {
    let size = entry_size();
    let (_temp, cache) = fresh_cache(CacheOptions { max_bytes: 3 * size });
    let names = ["e0", "e1", "e2", "e3", "e4", "e5"];
    let base = hours_ago(10);
    for (i, name) in names[..5].iter().enumerate() {
        cache.put(&key(name), &PAYLOAD).unwrap();
        // Distinct, increasing last-use times, independent of the file system's resolution.
        set_mtime(&entry_path(&cache, &key(name)), base + std::time::Duration::from_secs(60 * i as u64));
    }
    assert_eq!(present(&cache, &names), ["e2", "e3", "e4"]);
    assert_eq!(cache.stats().bytes, 3 * size);

    // e2 is the oldest; reading it makes it the newest, so e3 goes next.
    let e2 = entry_path(&cache, &key("e2"));
    let before = mtime(&e2);
    assert_eq!(cache.get(&key("e2")).unwrap(), Some(PAYLOAD.to_vec()));
    assert!(mtime(&e2) > before, "get did not refresh last use");
    cache.put(&key("e5"), &PAYLOAD).unwrap();
    assert_eq!(present(&cache, &names), ["e2", "e4", "e5"]);
}

#[test]
fn the_entry_just_written_is_kept_even_when_it_alone_is_too_large() {
    let (_temp, cache) = fresh_cache(CacheOptions { max_bytes: 10 });
    cache.put(&key("a"), &PAYLOAD).unwrap();
    assert_eq!(cache.get(&key("a")).unwrap(), Some(PAYLOAD.to_vec()));
    cache.put(&key("b"), &PAYLOAD).unwrap();
    assert_eq!(cache.get(&key("a")).unwrap(), None);
    assert_eq!(cache.get(&key("b")).unwrap(), Some(PAYLOAD.to_vec()));
}

#[test]
fn entries_within_the_limit_are_not_evicted() {
    let size = entry_size();
    let (_temp, cache) = fresh_cache(CacheOptions { max_bytes: 3 * size });
    for name in ["e0", "e1", "e2"] {
        cache.put(&key(name), &PAYLOAD).unwrap();
    }
    assert_eq!(cache.stats().entries, 3);
}

#[test]
fn a_put_removes_stale_temp_files_only() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    let stale = cache.dir().join(".tmp-99-0-0000abcd");
    let recent = cache.dir().join(".tmp-98-0-0000abcd");
    fs::write(&stale, "abandoned by a crashed writer").unwrap();
    fs::write(&recent, "another writer, still busy").unwrap();
    fs::write(cache.dir().join("notes.txt"), "old, but not ours").unwrap();
    set_mtime(&stale, hours_ago(2));
    set_mtime(&cache.dir().join("notes.txt"), hours_ago(2));

    cache.put(&CacheKey::new("f", "()", "host"), b"x").unwrap();
    let names = files_in(cache.dir());
    assert!(!names.contains(&".tmp-99-0-0000abcd".to_string()), "{names:?}");
    assert!(names.contains(&".tmp-98-0-0000abcd".to_string()), "{names:?}");
    assert!(names.contains(&"notes.txt".to_string()), "{names:?}");
}

#[test]
fn a_hit_on_a_recently_used_entry_writes_nothing() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("fresh"), &PAYLOAD).unwrap();
    let path = entry_path(&cache, &key("fresh"));
    // Just written: a hit leaves its times alone.
    let recent = SystemTime::now() - twinjit_cache::LAST_USE_RESOLUTION / 2;
    set_mtime(&path, recent);
    assert_eq!(cache.get(&key("fresh")).unwrap(), Some(PAYLOAD.to_vec()));
    assert_eq!(mtime(&path), recent);
    // Older than the resolution: the hit refreshes it.
    let old = SystemTime::now() - 2 * twinjit_cache::LAST_USE_RESOLUTION;
    set_mtime(&path, old);
    assert_eq!(cache.get(&key("fresh")).unwrap(), Some(PAYLOAD.to_vec()));
    assert!(mtime(&path) > old + twinjit_cache::LAST_USE_RESOLUTION);
}
