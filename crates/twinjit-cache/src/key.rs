//! Cache keys, their digest, and their byte encoding.
//!
//! Encoding (also used inside entry headers): every string is a little-endian `u64` byte length
//! followed by its UTF-8 bytes; the key is `function`, `signature`, `target`, the number of parts
//! as `u64`, then each part's name and value. Length prefixes make the encoding unambiguous
//! (`("ab", "c")` and `("a", "bc")` differ).
//!
//! The digest is SHA-256 over a domain tag, [`FORMAT_VERSION`] and the encoding with the parts
//! sorted, so the order in which a caller lists parts does not matter, and a new file format
//! never matches an old entry.

use sha2::{Digest, Sha256};

use crate::format::FORMAT_VERSION;

const DIGEST_DOMAIN: &[u8] = b"twinjit-cache key\0";

/// What identifies one cache entry.
///
/// `function`, `signature` and `target` say what the entry is for (they drive listing and
/// [`crate::Cache::explain`]); `parts` are further named components that must all match, e.g.
/// `("source:f", text)`, `("options", "boundscheck=on")`, `("version", "twinjit 0.1.0")`.
/// Part names should be unique ([`CacheKey::with_part`] keeps them so). Equality is structural;
/// the digest ignores the order of parts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheKey {
    pub function: String,
    pub signature: String,
    pub target: String,
    pub parts: Vec<(String, String)>,
}

impl CacheKey {
    pub fn new(function: impl Into<String>, signature: impl Into<String>, target: impl Into<String>) -> CacheKey {
        CacheKey { function: function.into(), signature: signature.into(), target: target.into(), parts: Vec::new() }
    }

    /// Adds a named part, replacing a part of the same name.
    pub fn with_part(mut self, name: impl Into<String>, value: impl Into<String>) -> CacheKey {
        let (name, value) = (name.into(), value.into());
        match self.parts.iter_mut().find(|(n, _)| *n == name) {
            Some(part) => part.1 = value,
            None => self.parts.push((name, value)),
        }
        self
    }

    /// The value of the first part called `name`.
    pub fn part(&self, name: &str) -> Option<&str> {
        self.parts.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Lower-case hex SHA-256 of the canonical encoding; the entry's file name.
    pub fn digest(&self) -> String {
        hex(&self.digest_bytes())
    }

    pub(crate) fn digest_bytes(&self) -> [u8; 32] {
        let mut parts: Vec<&(String, String)> = self.parts.iter().collect();
        parts.sort();
        let mut hasher = Sha256::new();
        hasher.update(DIGEST_DOMAIN);
        hasher.update(FORMAT_VERSION.to_le_bytes());
        // The bytes of `encode_with`, fed to the hasher without building them (keys hold
        // whole source texts).
        let mut put = |s: &str| {
            hasher.update((s.len() as u64).to_le_bytes());
            hasher.update(s.as_bytes());
        };
        for field in [&self.function, &self.signature, &self.target] {
            put(field);
        }
        hasher.update((parts.len() as u64).to_le_bytes());
        for (name, value) in parts {
            hasher.update((name.len() as u64).to_le_bytes());
            hasher.update(name.as_bytes());
            hasher.update((value.len() as u64).to_le_bytes());
            hasher.update(value.as_bytes());
        }
        hasher.finalize().into()
    }

    /// The encoding with parts in the caller's order, so a decoded key equals the original.
    pub(crate) fn encode(&self) -> Vec<u8> {
        self.encode_with(self.parts.iter())
    }

    fn encode_with<'a>(&self, parts: impl ExactSizeIterator<Item = &'a (String, String)>) -> Vec<u8> {
        let mut out = Vec::new();
        for field in [&self.function, &self.signature, &self.target] {
            put_str(&mut out, field);
        }
        out.extend_from_slice(&(parts.len() as u64).to_le_bytes());
        for (name, value) in parts {
            put_str(&mut out, name);
            put_str(&mut out, value);
        }
        out
    }

    /// Inverse of [`CacheKey::encode`]; `None` unless `bytes` is exactly one well-formed key.
    pub(crate) fn decode(bytes: &[u8]) -> Option<CacheKey> {
        let mut reader = Reader(bytes);
        let mut key = CacheKey::new(reader.string()?, reader.string()?, reader.string()?);
        let count = reader.u64()?;
        for _ in 0..count {
            // Each part takes at least 16 bytes, so a bogus count fails here, not in an allocation.
            let name = reader.string()?;
            key.parts.push((name, reader.string()?));
        }
        reader.0.is_empty().then_some(key)
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: u64) -> Option<&[u8]> {
        let n = usize::try_from(n).ok().filter(|&n| n <= self.0.len())?;
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Some(head)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn string(&mut self) -> Option<String> {
        let len = self.u64()?;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

/// Lower-case hex SHA-256 of `data`, for key parts that stand for large texts.
pub fn content_digest(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips_and_rejects_trailing_or_missing_bytes() {
        let key = CacheKey::new("f", "(float64[:],)", "host").with_part("source:f", "déf f(x): ...").with_part("a", "");
        let bytes = key.encode();
        assert_eq!(CacheKey::decode(&bytes), Some(key));
        assert_eq!(CacheKey::decode(&bytes[..bytes.len() - 1]), None);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(CacheKey::decode(&longer), None);
        assert_eq!(CacheKey::decode(&[0xff; 8]), None);
    }

    #[test]
    fn the_digest_is_that_of_the_sorted_encoding() {
        let key = CacheKey::new("f", "(int64,)", "host").with_part("z", "1").with_part("a", "déf");
        let mut sorted = key.clone();
        sorted.parts.sort();
        let mut hasher = Sha256::new();
        hasher.update(DIGEST_DOMAIN);
        hasher.update(FORMAT_VERSION.to_le_bytes());
        hasher.update(sorted.encode());
        assert_eq!(key.digest_bytes(), <[u8; 32]>::from(hasher.finalize()));
        assert_eq!(content_digest(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn hex_is_lower_case() {
        assert_eq!(hex(&[0x00, 0x9f, 0xa0]), "009fa0");
    }
}
