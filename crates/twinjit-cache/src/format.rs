//! The entry file format and its verification.
//!
//! ```text
//! offset  size  field
//!      0     4  magic b"TWJC"
//!      4     4  format version, u32 little-endian (FORMAT_VERSION)
//!      8    32  key digest: SHA-256 as in `CacheKey::digest` (also the file name, in hex)
//!     40     8  key length K, u64 LE
//!     48     8  payload length P, u64 LE
//!     56    32  SHA-256 of the payload
//!     88     K  the key, encoded as in `key.rs` (parts in the writer's order)
//!   88+K     P  the payload
//! ```
//!
//! A file is valid only if its length is exactly `88 + K + P`, the key decodes and hashes to the
//! stored digest, and the payload hashes to the stored payload hash; every header byte is thus
//! covered by some check. Verification yields [`Corrupt`] rather than an error: the store turns
//! it into a miss.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::key::CacheKey;

/// Version of the entry file format; bumping it turns every existing entry into a miss.
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: [u8; 4] = *b"TWJC";
pub(crate) const HEADER_LEN: usize = 88;

/// Why a file is not a valid entry (for diagnostics only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Corrupt(pub(crate) &'static str);

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

pub(crate) struct Header {
    key_digest: [u8; 32],
    key_len: u64,
    payload_len: u64,
    payload_sha: [u8; 32],
}

impl Header {
    pub(crate) fn key_len(&self) -> u64 {
        self.key_len
    }
}

/// Header and encoded key; the payload follows them in the file.
pub(crate) fn encode_prefix(key: &CacheKey, payload: &[u8]) -> Vec<u8> {
    let key_bytes = key.encode();
    let mut out = Vec::with_capacity(HEADER_LEN + key_bytes.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&key.digest_bytes());
    out.extend_from_slice(&(key_bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&Sha256::digest(payload));
    out.extend_from_slice(&key_bytes);
    out
}

/// Parses the fixed header and checks it against the file's total length.
pub(crate) fn parse_header(bytes: &[u8], file_len: u64) -> Result<Header, Corrupt> {
    let bytes: &[u8; HEADER_LEN] =
        bytes.get(..HEADER_LEN).and_then(|b| b.try_into().ok()).ok_or(Corrupt("shorter than the header"))?;
    if bytes[0..4] != MAGIC {
        return Err(Corrupt("not a twinjit cache entry (bad magic)"));
    }
    if u32::from_le_bytes(array(&bytes[4..8])) != FORMAT_VERSION {
        return Err(Corrupt("written by another cache format version"));
    }
    let header = Header {
        key_digest: array(&bytes[8..40]),
        key_len: u64::from_le_bytes(array(&bytes[40..48])),
        payload_len: u64::from_le_bytes(array(&bytes[48..56])),
        payload_sha: array(&bytes[56..88]),
    };
    let expected_len = (HEADER_LEN as u64).checked_add(header.key_len).and_then(|n| n.checked_add(header.payload_len));
    if expected_len != Some(file_len) {
        return Err(Corrupt("file length disagrees with the header (truncated or extended)"));
    }
    Ok(header)
}

/// Decodes the key that follows the header and checks it hashes to the header's digest.
pub(crate) fn decode_key(header: &Header, key_bytes: &[u8]) -> Result<CacheKey, Corrupt> {
    let key = CacheKey::decode(key_bytes).ok_or(Corrupt("malformed key"))?;
    if key.digest_bytes() != header.key_digest {
        return Err(Corrupt("key does not match its digest"));
    }
    Ok(key)
}

/// Fully verifies a whole entry file read into memory against the requested key digest and
/// returns the payload's offset.
pub(crate) fn verify_entry(bytes: &[u8], expected_digest: &[u8; 32]) -> Result<usize, Corrupt> {
    let header = parse_header(bytes, bytes.len() as u64)?;
    if header.key_digest != *expected_digest {
        return Err(Corrupt("entry belongs to another key"));
    }
    // parse_header checked the lengths add up to bytes.len(), so these fit in usize.
    let payload_start = HEADER_LEN + header.key_len as usize;
    decode_key(&header, &bytes[HEADER_LEN..payload_start])?;
    let payload = &bytes[payload_start..];
    if Sha256::digest(payload).as_slice() != header.payload_sha {
        return Err(Corrupt("payload checksum mismatch"));
    }
    Ok(payload_start)
}

fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    out.copy_from_slice(bytes);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &CacheKey, payload: &[u8]) -> Vec<u8> {
        let mut bytes = encode_prefix(key, payload);
        bytes.extend_from_slice(payload);
        bytes
    }

    #[test]
    fn every_single_byte_flip_is_detected() {
        let key = CacheKey::new("f", "(int64,)", "host").with_part("source:f", "def f(x): return x");
        let good = entry(&key, b"payload bytes");
        let digest = key.digest_bytes();
        assert_eq!(verify_entry(&good, &digest), Ok(good.len() - 13));
        for i in 0..good.len() {
            for bit in [0x01, 0x80] {
                let mut bad = good.clone();
                bad[i] ^= bit;
                assert!(verify_entry(&bad, &digest).is_err(), "flip of bit {bit:#x} at byte {i} went unnoticed");
            }
        }
    }

    #[test]
    fn lengths_that_overflow_are_corrupt_not_a_panic() {
        let key = CacheKey::new("f", "()", "host");
        let mut bad = entry(&key, b"x");
        bad[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(verify_entry(&bad, &key.digest_bytes()).is_err());
    }
}
