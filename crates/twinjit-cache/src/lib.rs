//! twinjit's on-disk compilation cache: a versioned, checksummed, atomic key → bytes store.
//!
//! A [`Cache`] is a directory with one file per entry. An entry is named by the hex SHA-256
//! [`CacheKey::digest`] of its key (function, signature, target and named parts such as source
//! text, compile options and the twinjit version) and holds an opaque payload. The file's header
//! repeats the whole key, so listing ([`Cache::entries`]) and [`Cache::explain`] ("why was this a
//! miss?") need no index. The file format is described in `format.rs`.
//!
//! This crate knows nothing of Python, IR, targets or machine code: keys are strings, payloads
//! are bytes.
//!
//! Invariants:
//! - **[`Cache::get`] never returns bytes it has not verified** (magic, format version, full key,
//!   lengths, SHA-256 of the payload). A truncated, corrupt, foreign or mismatched file is a miss
//!   and is removed; corruption is never an error and never a panic.
//! - **Entries appear atomically**: [`Cache::put`] writes a private temp file in the cache
//!   directory and renames it over the entry name, so concurrent writers of one key (threads or
//!   processes) leave exactly one complete entry and readers never see a partial one. Because
//!   every read is verified, a crash mid-write costs a miss, not a wrong load; hence no `fsync`.
//! - **Loading an entry runs machine code, so the cache is a security boundary** (on Unix): the
//!   directory and every entry file must be owned by the effective user and not writable by group
//!   or others, and an entry must be a regular file, not a symlink; otherwise
//!   [`CacheError::Insecure`]. New directories are created with mode 0700, entries with 0600.
//! - The total size of entries is kept at or below [`CacheOptions::max_bytes`] by evicting the
//!   least recently used entries after each `put` (last use = file mtime, set by a hit when it
//!   is older than [`LAST_USE_RESOLUTION`], so it works on `noatime` mounts and most hits write
//!   nothing); the entry just written is never evicted.

#![forbid(unsafe_code)]

mod error;
mod evict;
mod explain;
mod format;
mod key;
mod security;
mod store;

pub use error::CacheError;
pub use explain::{Explanation, KeyDifference, NearMiss, Outcome};
pub use format::FORMAT_VERSION;
pub use key::{content_digest, CacheKey};
pub use store::{Cache, CacheOptions, CacheStats, EntryInfo, DEFAULT_MAX_BYTES, LAST_USE_RESOLUTION};
