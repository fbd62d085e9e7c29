//! Why a key hits or misses: `twinjit cache explain` and the facade's miss log.
//!
//! On a miss, the entries with the same function and signature (any target) are candidates; the
//! one whose key differs in the fewest components (ties: most recently used) is reported with
//! its differences. Long or multi-line values (source text) are shown as a short hash.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::format;
use crate::key::{hex, CacheKey};
use crate::store::Cache;

/// The answer of [`Cache::explain`]; `Display` gives a summary line and one line per difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub function: String,
    pub signature: String,
    pub target: String,
    /// The requested key's digest.
    pub digest: String,
    pub outcome: Outcome,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A verified entry exists for exactly this key.
    Hit { path: PathBuf, size: u64 },
    /// A file exists under this key's name but `get` would not use it (corrupt, or fails the
    /// security checks).
    Unusable { path: PathBuf, reason: String },
    /// No entry for this key. `candidates` entries share function and signature; `closest` is
    /// the nearest of them.
    Miss { candidates: usize, closest: Option<NearMiss> },
}

/// The cached entry nearest to a missed key, and how its key differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearMiss {
    pub path: PathBuf,
    pub target: String,
    pub last_use: SystemTime,
    /// Target first, then parts by name. Never empty (equal keys would have hit).
    pub differences: Vec<KeyDifference>,
}

/// One difference between a cached key and the requested key. Values are the full strings;
/// `Display` abbreviates long ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyDifference {
    /// The key's `target` field differs.
    Target {
        cached: String,
        requested: String,
    },
    /// The requested key has a part the cached one lacks.
    PartAdded {
        name: String,
        value: String,
    },
    /// The cached key has a part the requested one lacks.
    PartRemoved {
        name: String,
        value: String,
    },
    PartChanged {
        name: String,
        cached: String,
        requested: String,
    },
}

impl KeyDifference {
    /// `"target"` or the part's name.
    pub fn name(&self) -> &str {
        match self {
            KeyDifference::Target { .. } => "target",
            KeyDifference::PartAdded { name, .. }
            | KeyDifference::PartRemoved { name, .. }
            | KeyDifference::PartChanged { name, .. } => name,
        }
    }

    fn verb(&self) -> &'static str {
        match self {
            KeyDifference::Target { .. } | KeyDifference::PartChanged { .. } => "changed",
            KeyDifference::PartAdded { .. } => "added",
            KeyDifference::PartRemoved { .. } => "removed",
        }
    }
}

impl Explanation {
    pub fn is_hit(&self) -> bool {
        matches!(self.outcome, Outcome::Hit { .. })
    }

    /// The first line of the `Display` form, e.g. `miss for f(float64[:]) on host although an
    /// entry exists: source:g changed`.
    pub fn summary(&self) -> String {
        let what = format!("{} on {}", function_with_signature(&self.function, &self.signature), self.target);
        match &self.outcome {
            Outcome::Hit { size, .. } => format!("hit for {what} ({size} bytes)"),
            Outcome::Unusable { reason, .. } => format!("miss for {what}: its entry is unusable: {reason}"),
            Outcome::Miss { closest: None, .. } => {
                format!("miss for {what}: no entry for this function and signature")
            }
            Outcome::Miss { closest: Some(near), .. } => {
                let changes: Vec<String> =
                    near.differences.iter().map(|d| format!("{} {}", d.name(), d.verb())).collect();
                format!("miss for {what} although an entry exists: {}", changes.join(", "))
            }
        }
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())?;
        if let Outcome::Miss { candidates, closest: Some(near) } = &self.outcome {
            let others = candidates - 1;
            write!(f, "\n  closest entry: target {}", near.target)?;
            if others > 0 {
                write!(
                    f,
                    " ({others} other entr{} for this function and signature)",
                    if others == 1 { "y" } else { "ies" }
                )?;
            }
            for difference in &near.differences {
                write!(f, "\n  {difference}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for KeyDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyDifference::Target { cached, requested } | KeyDifference::PartChanged { cached, requested, .. } => {
                write!(f, "{} changed: {} -> {}", self.name(), Short(cached), Short(requested))
            }
            KeyDifference::PartAdded { name, value } => write!(f, "{name} added: {}", Short(value)),
            KeyDifference::PartRemoved { name, value } => write!(f, "{name} removed: {}", Short(value)),
        }
    }
}

/// A value as shown to people: quoted if short and on one line, else its hash and length.
struct Short<'a>(&'a str);

impl fmt::Display for Short<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        if s.chars().count() <= 40 && !s.chars().any(char::is_control) {
            write!(f, "\"{s}\"")
        } else {
            write!(f, "sha256:{} ({} bytes)", &hex(&Sha256::digest(s.as_bytes()))[..12], s.len())
        }
    }
}

fn function_with_signature(function: &str, signature: &str) -> String {
    if signature.starts_with('(') {
        format!("{function}{signature}")
    } else {
        format!("{function} {signature}")
    }
}

/// Differences from `cached` to `requested`: target first, then parts by name.
fn differences(cached: &CacheKey, requested: &CacheKey) -> Vec<KeyDifference> {
    let mut out = Vec::new();
    if cached.target != requested.target {
        out.push(KeyDifference::Target { cached: cached.target.clone(), requested: requested.target.clone() });
    }
    // Duplicate part names are not expected; if present, their values are compared as a list.
    let by_name = |key: &CacheKey| {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, value) in &key.parts {
            map.entry(name.clone()).or_default().push(value.clone());
        }
        map
    };
    let (mut old, new) = (by_name(cached), by_name(requested));
    for (name, new_values) in new {
        match old.remove(&name) {
            None => out.push(KeyDifference::PartAdded { name, value: new_values.join("\n") }),
            Some(old_values) if old_values != new_values => out.push(KeyDifference::PartChanged {
                name,
                cached: old_values.join("\n"),
                requested: new_values.join("\n"),
            }),
            Some(_) => {}
        }
    }
    for (name, old_values) in old {
        out.push(KeyDifference::PartRemoved { name, value: old_values.join("\n") });
    }
    out[usize::from(cached.target != requested.target)..].sort_by(|a, b| a.name().cmp(b.name()));
    out
}

impl Cache {
    /// Whether `key` would hit, and if not, how the nearest entry for the same function and
    /// signature differs. Reads only; removes nothing and does not refresh last use.
    pub fn explain(&self, key: &CacheKey) -> Explanation {
        let digest = key.digest_bytes();
        let path = self.entry_path(key);
        let outcome = match self.read_entry_file(&path) {
            Ok(Some((_, bytes, _))) => match format::verify_entry(&bytes, &digest) {
                Ok(_) => Outcome::Hit { path, size: bytes.len() as u64 },
                Err(corrupt) => Outcome::Unusable { path, reason: format!("corrupt: {corrupt}") },
            },
            Err(error) => Outcome::Unusable { path, reason: error.to_string() },
            Ok(None) => self.near_miss(key),
        };
        Explanation {
            function: key.function.clone(),
            signature: key.signature.clone(),
            target: key.target.clone(),
            digest: hex(&digest),
            outcome,
        }
    }

    fn near_miss(&self, key: &CacheKey) -> Outcome {
        let candidates: Vec<NearMiss> = self
            .entries()
            .into_iter()
            .filter(|e| e.function == key.function && e.signature == key.signature)
            .map(|e| NearMiss {
                differences: differences(&e.key, key),
                path: e.path,
                target: e.target,
                last_use: e.last_use,
            })
            .filter(|near| !near.differences.is_empty())
            .collect();
        let count = candidates.len();
        let closest = candidates
            .into_iter()
            .min_by(|a, b| a.differences.len().cmp(&b.differences.len()).then(b.last_use.cmp(&a.last_use)));
        Outcome::Miss { candidates: count, closest }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_quoted_and_long_ones_hashed() {
        assert_eq!(Short("boundscheck=on").to_string(), "\"boundscheck=on\"");
        assert_eq!(Short("def f(x):\n    return x").to_string(), "sha256:5f689f51f3af (22 bytes)");
    }

    #[test]
    fn differences_are_target_then_parts_by_name() {
        let cached =
            CacheKey::new("f", "(int64,)", "host").with_part("z", "1").with_part("b", "1").with_part("gone", "x");
        let requested =
            CacheKey::new("f", "(int64,)", "cuda").with_part("z", "2").with_part("b", "1").with_part("a", "new");
        let names: Vec<String> =
            differences(&cached, &requested).iter().map(|d| format!("{} {}", d.name(), d.verb())).collect();
        assert_eq!(names, ["target changed", "a added", "gone removed", "z changed"]);
    }
}
