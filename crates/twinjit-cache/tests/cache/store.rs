//! Round trips, digests, listing and clearing.

use std::fs;

use twinjit_cache::{Cache, CacheKey, CacheOptions, CacheStats};

use crate::{entry_path, files_in, fresh_cache, key};

#[test]
fn put_then_get_returns_the_payload() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    for (name, payload) in [("f", b"machine code".to_vec()), ("empty", Vec::new()), ("big", vec![0xa5; 1 << 20])] {
        cache.put(&key(name), &payload).unwrap();
        assert_eq!(cache.get(&key(name)).unwrap(), Some(payload), "{name}");
    }
}

#[test]
fn get_of_a_missing_key_is_none() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    assert_eq!(cache.get(&key("f")).unwrap(), None);
    cache.put(&key("f"), b"x").unwrap();
    assert_eq!(cache.get(&key("g")).unwrap(), None);
}

#[test]
fn put_replaces_the_previous_payload() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), b"old").unwrap();
    cache.put(&key("f"), b"new, longer").unwrap();
    assert_eq!(cache.get(&key("f")).unwrap(), Some(b"new, longer".to_vec()));
    assert_eq!(files_in(cache.dir()).len(), 1);
}

#[test]
fn a_second_handle_on_the_same_directory_sees_the_entries() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), b"shared").unwrap();
    let other = Cache::open(cache.dir(), CacheOptions::default()).unwrap();
    assert_eq!(other.get(&key("f")).unwrap(), Some(b"shared".to_vec()));
}

#[test]
fn every_component_of_the_key_changes_the_digest() {
    let base = key("f");
    let variants = [
        CacheKey { function: "f2".into(), ..base.clone() },
        CacheKey { signature: "(float32[:], int64)".into(), ..base.clone() },
        CacheKey { target: "cuda sm_80".into(), ..base.clone() },
        base.clone().with_part("source:g", "def g(x):\n    return x * 3.0\n"),
        base.clone().with_part("options", "boundscheck=off"),
        base.clone().with_part("fastmath", "on"),
        CacheKey { parts: base.parts[1..].to_vec(), ..base.clone() },
    ];
    let mut digests = vec![base.digest()];
    for variant in &variants {
        let digest = variant.digest();
        assert!(!digests.contains(&digest), "{variant:?} collides");
        digests.push(digest);
    }
    assert_eq!(base.digest().len(), 64);
    assert!(base.digest().bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
}

#[test]
fn the_digest_is_unambiguous_and_ignores_part_order() {
    let split = |a: &str, b: &str| CacheKey::new("f", "()", "host").with_part(a, b).digest();
    assert_ne!(split("ab", "c"), split("a", "bc"));
    assert_ne!(CacheKey::new("fa", "b", "t").digest(), CacheKey::new("f", "ab", "t").digest());

    let forward = CacheKey::new("f", "()", "host").with_part("a", "1").with_part("b", "2");
    let backward = CacheKey::new("f", "()", "host").with_part("b", "2").with_part("a", "1");
    assert_eq!(forward.digest(), backward.digest());
}

#[test]
fn entries_are_named_by_digest_and_listed_with_their_keys() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    let f = key("f");
    let g = CacheKey { target: "cuda sm_80".into(), ..key("g") };
    cache.put(&f, b"12345").unwrap();
    cache.put(&g, &[7; 100]).unwrap();
    assert_eq!(cache.entry_path(&f), cache.dir().join(format!("{}.twjc", f.digest())));

    // Files that are not entries are skipped: a foreign file, and garbage under an entry name.
    fs::write(cache.dir().join("README"), "not an entry").unwrap();
    fs::write(cache.dir().join(format!("{}.twjc", "0".repeat(64))), "garbage").unwrap();

    let entries = cache.entries();
    let listed: Vec<(&str, &str, &str, &CacheKey)> =
        entries.iter().map(|e| (e.function.as_str(), e.signature.as_str(), e.target.as_str(), &e.key)).collect();
    assert_eq!(
        listed,
        [("f", "(float64[:], int64)", f.target.as_str(), &f), ("g", "(float64[:], int64)", "cuda sm_80", &g)]
    );
    for entry in &entries {
        assert_eq!(entry.path, cache.entry_path(&entry.key));
        assert_eq!(entry.size, fs::metadata(&entry.path).unwrap().len());
        assert_eq!(entry.last_use, fs::metadata(&entry.path).unwrap().modified().unwrap());
    }
    assert!(entries[0].size > 5 && entries[1].size > 100);
    assert_eq!(
        cache.stats(),
        CacheStats { entries: 2, bytes: entries[0].size + entries[1].size, dir: cache.dir().to_path_buf() }
    );
}

#[test]
fn clear_removes_entries_and_temp_files_but_nothing_else() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    for name in ["f", "g", "h"] {
        cache.put(&key(name), name.as_bytes()).unwrap();
    }
    fs::write(cache.dir().join(".tmp-1234-0-00000000"), "abandoned").unwrap();
    fs::write(cache.dir().join(format!("{}.twjc", "1".repeat(64))), "corrupt").unwrap();
    fs::write(cache.dir().join("notes.txt"), "user's file").unwrap();

    assert_eq!(cache.clear().unwrap(), 4);
    assert_eq!(files_in(cache.dir()), ["notes.txt"]);
    assert_eq!(cache.get(&key("f")).unwrap(), None);
    assert_eq!(cache.stats().entries, 0);
    assert_eq!(cache.clear().unwrap(), 0);
}

#[test]
fn remove_deletes_one_entry() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), b"f").unwrap();
    cache.put(&key("g"), b"g").unwrap();
    let f_path = entry_path(&cache, &key("f"));
    assert!(cache.remove(&key("f")).unwrap());
    assert!(!f_path.exists());
    assert!(!cache.remove(&key("f")).unwrap());
    assert_eq!(cache.get(&key("g")).unwrap(), Some(b"g".to_vec()));
}
