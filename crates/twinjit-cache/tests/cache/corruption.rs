//! A damaged entry is a miss: it is removed, never returned, and the key works again after.

use std::fs;

use twinjit_cache::{CacheOptions, Outcome};

use crate::{entry_path, fresh_cache, key};

const PAYLOAD: &[u8] = b"\x55\x48\x89\xe5 pretend machine code \xc3";
/// Size of the fixed header (see `format.rs`).
const HEADER_LEN: usize = 88;

/// Puts an entry, replaces its file's bytes with `damage(bytes)`, and checks that `get` misses,
/// removes the file, and that a new `put` is read back. `entries` skips the damaged file too.
fn check_corruption(what: &str, damage: impl Fn(Vec<u8>) -> Vec<u8>) {
    check(what, damage, false);
}

/// As `check_corruption` for damage to the payload only, which listing does not look at (it
/// reads headers and keys, not whole files); `get` must still refuse it.
fn check_payload_corruption(what: &str, damage: impl Fn(Vec<u8>) -> Vec<u8>) {
    check(what, damage, true);
}

fn check(what: &str, damage: impl Fn(Vec<u8>) -> Vec<u8>, still_listed: bool) {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    let key = key("f");
    cache.put(&key, PAYLOAD).unwrap();
    let path = entry_path(&cache, &key);
    let damaged = damage(fs::read(&path).unwrap());
    fs::write(&path, damaged).unwrap();

    assert!(matches!(cache.explain(&key).outcome, Outcome::Unusable { .. }), "{what}: explain should see it");
    assert_eq!(cache.entries().len(), usize::from(still_listed), "{what}: listing");
    assert_eq!(cache.get(&key).unwrap(), None, "{what}: not a miss");
    assert!(!path.exists(), "{what}: damaged file not removed");
    cache.put(&key, PAYLOAD).unwrap();
    assert_eq!(cache.get(&key).unwrap().as_deref(), Some(PAYLOAD), "{what}: no hit after put");
}

fn flip(mut bytes: Vec<u8>, at: usize) -> Vec<u8> {
    bytes[at] ^= 0x40;
    bytes
}

#[test]
fn truncated_entries_are_misses() {
    check_corruption("empty", |_| Vec::new());
    check_corruption("10 bytes", |b| b[..10].to_vec());
    check_corruption("header only", |b| b[..HEADER_LEN].to_vec());
    check_corruption("one byte short", |b| b[..b.len() - 1].to_vec());
}

#[test]
fn an_extended_entry_is_a_miss() {
    check_corruption("one byte more", |mut b| {
        b.push(0);
        b
    });
}

#[test]
fn a_flipped_payload_byte_is_a_miss() {
    check_payload_corruption("last payload byte", |b| {
        let last = b.len() - 1;
        flip(b, last)
    });
    check_payload_corruption("first payload byte", |b| {
        let first = b.len() - PAYLOAD.len();
        flip(b, first)
    });
}

#[test]
fn a_flipped_header_or_key_byte_is_a_miss() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    cache.put(&key("f"), PAYLOAD).unwrap();
    let prefix_len = fs::metadata(entry_path(&cache, &key("f"))).unwrap().len() as usize - PAYLOAD.len();
    assert!(prefix_len > HEADER_LEN + 100, "the key is stored in the header");
    // Bytes 56..88 hold the payload checksum, which listing does not verify.
    for at in (0..56).chain(88..prefix_len) {
        check_corruption(&format!("flip at {at}"), |b| flip(b, at));
    }
    for at in 56..88 {
        check_payload_corruption(&format!("flip in the payload checksum at {at}"), |b| flip(b, at));
    }
}

#[test]
fn garbage_is_a_miss() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let garbage: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    check_corruption("random bytes", |_| garbage.clone());
    check_corruption("random bytes after a valid magic and version", |b| {
        let mut bytes = b[..8].to_vec();
        bytes.extend_from_slice(&garbage);
        bytes
    });
    check_corruption("a newer format version", |mut b| {
        b[4..8].copy_from_slice(&2u32.to_le_bytes());
        b
    });
}

#[test]
fn another_keys_entry_under_this_name_is_a_miss() {
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    let (f, g) = (key("f"), key("g"));
    cache.put(&g, b"code of g").unwrap();
    check_corruption("entry of another key", |_| fs::read(entry_path(&cache, &g)).unwrap());

    // And in the same directory: the foreign copy is dropped, the real entry of g stays.
    fs::copy(entry_path(&cache, &g), cache.entry_path(&f)).unwrap();
    assert_eq!(cache.get(&f).unwrap(), None);
    assert!(!cache.entry_path(&f).exists());
    assert_eq!(cache.get(&g).unwrap(), Some(b"code of g".to_vec()));
}

#[test]
fn the_same_key_with_another_payload_checksum_is_a_miss() {
    // A valid entry of the same key whose payload was swapped without updating the checksum.
    check_payload_corruption("payload swapped", |b| {
        let mut bytes = b[..b.len() - PAYLOAD.len()].to_vec();
        bytes.extend(PAYLOAD.iter().rev());
        bytes
    });
}
