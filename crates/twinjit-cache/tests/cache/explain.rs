//! `Cache::explain`: hits, and which key components differ from the nearest entry on a miss.

use std::fs;

use expect_test::{expect, Expect};
use twinjit_cache::{Cache, CacheKey, CacheOptions, KeyDifference, Outcome};

use crate::{fresh_cache, key};

/// Fills a cache with `cached` keys, explains `requested`, and compares the `Display` form.
fn check(cached: &[CacheKey], requested: &CacheKey, expect: Expect) -> (tempfile::TempDir, Cache) {
    let (temp, cache) = fresh_cache(CacheOptions::default());
    for key in cached {
        cache.put(key, b"code").unwrap();
    }
    expect.assert_eq(&cache.explain(requested).to_string());
    (temp, cache)
}

#[test]
fn an_identical_key_is_a_hit() {
    let (_temp, cache) = check(
        &[key("f")],
        &key("f"),
        expect!["hit for f(float64[:], int64) on host x86_64-unknown-linux-gnu +avx2 (361 bytes)"],
    );
    let explanation = cache.explain(&key("f"));
    assert!(explanation.is_hit());
    assert_eq!(explanation.digest, key("f").digest());
    assert!(matches!(explanation.outcome, Outcome::Hit { path, .. } if path == cache.entry_path(&key("f"))));
}

#[test]
fn a_changed_callee_source_is_named() {
    let requested = key("f").with_part("source:g", "def g(x):\n    return x * 3.0\n");
    let (_temp, cache) = check(
        &[key("f")],
        &requested,
        expect![[r#"
            miss for f(float64[:], int64) on host x86_64-unknown-linux-gnu +avx2 although an entry exists: source:g changed
              closest entry: target host x86_64-unknown-linux-gnu +avx2
              source:g changed: sha256:c0a9b17aaba9 (29 bytes) -> sha256:745b68b19bd0 (29 bytes)"#]],
    );
    let Outcome::Miss { candidates: 1, closest: Some(near) } = cache.explain(&requested).outcome else {
        panic!("expected a near miss");
    };
    assert_eq!(near.path, cache.entry_path(&key("f")));
    assert_eq!(
        near.differences,
        [KeyDifference::PartChanged {
            name: "source:g".into(),
            cached: "def g(x):\n    return x * 2.0\n".into(),
            requested: "def g(x):\n    return x * 3.0\n".into(),
        }]
    );
}

#[test]
fn added_removed_and_changed_parts_are_all_reported() {
    let mut requested = key("f").with_part("options", "boundscheck=off").with_part("fastmath", "on");
    requested.parts.retain(|(name, _)| name != "version");
    check(
        &[key("f")],
        &requested,
        expect![[r#"
            miss for f(float64[:], int64) on host x86_64-unknown-linux-gnu +avx2 although an entry exists: fastmath added, options changed, version removed
              closest entry: target host x86_64-unknown-linux-gnu +avx2
              fastmath added: "on"
              options changed: "boundscheck=on" -> "boundscheck=off"
              version removed: "twinjit 0.1.0""#]],
    );
}

#[test]
fn the_closest_entry_is_chosen_among_all_targets() {
    let on_cuda = CacheKey { target: "cuda sm_80".into(), ..key("f") };
    let two_changes = key("f").with_part("options", "boundscheck=off").with_part("version", "twinjit 0.0.9");
    check(
        &[two_changes, on_cuda, key("g")],
        &key("f"),
        expect![[r#"
            miss for f(float64[:], int64) on host x86_64-unknown-linux-gnu +avx2 although an entry exists: target changed
              closest entry: target cuda sm_80 (1 other entry for this function and signature)
              target changed: "cuda sm_80" -> "host x86_64-unknown-linux-gnu +avx2""#]],
    );
}

#[test]
fn a_miss_without_a_related_entry_says_so() {
    let other_signature = CacheKey { signature: "(float32[:], int64)".into(), ..key("f") };
    check(
        &[key("g"), other_signature],
        &key("f"),
        expect![[
            r#"miss for f(float64[:], int64) on host x86_64-unknown-linux-gnu +avx2: no entry for this function and signature"#
        ]],
    );
}

#[test]
fn a_corrupt_entry_is_explained_and_left_in_place() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), b"code").unwrap();
    let path = cache.entry_path(&key("f"));
    fs::write(&path, b"TWJC garbage").unwrap();
    let explanation = cache.explain(&key("f"));
    assert_eq!(
        explanation.summary(),
        "miss for f(float64[:], int64) on host x86_64-unknown-linux-gnu +avx2: its entry is unusable: \
         corrupt: shorter than the header"
    );
    assert!(path.exists(), "explain must not remove anything");
}
