//! The cache directory: opening it, reading, writing, listing and clearing entries.
//!
//! Entry files are named `<64 hex digits of the key digest>.twjc`; temp files are
//! `.tmp-<pid>-<counter>-<nanos>` and live only between a `put`'s write and its rename. Any other
//! file in the directory is left alone.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::CacheError;
use crate::format::{self, Corrupt, HEADER_LEN};
use crate::key::{hex, CacheKey};
use crate::security::{self, Owner};

/// How stale an entry's last use may be before a hit refreshes it: LRU eviction needs no finer
/// order, and a hit within it costs no write (most hits, when a program runs repeatedly).
pub const LAST_USE_RESOLUTION: std::time::Duration = std::time::Duration::from_secs(60);

/// Default size limit: 1 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

const ENTRY_SUFFIX: &str = ".twjc";
pub(crate) const TEMP_PREFIX: &str = ".tmp-";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheOptions {
    /// Upper bound on the total size of entry files, enforced after each `put` by evicting the
    /// least recently used entries. The entry just written is kept even if it alone is larger.
    pub max_bytes: u64,
}

impl Default for CacheOptions {
    fn default() -> CacheOptions {
        CacheOptions { max_bytes: DEFAULT_MAX_BYTES }
    }
}

/// An opened cache directory. Holds no state besides its path, so it is cheap, `Send + Sync`,
/// and any number of `Cache`s (in any number of processes) may share one directory.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
    options: CacheOptions,
    owner: Owner,
}

/// One entry as listed by [`Cache::entries`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryInfo {
    pub function: String,
    pub signature: String,
    pub target: String,
    /// Size of the entry file (header, key and payload) in bytes.
    pub size: u64,
    /// When the entry was last written or read (its file's mtime).
    pub last_use: SystemTime,
    pub path: PathBuf,
    pub key: CacheKey,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheStats {
    pub entries: usize,
    pub bytes: u64,
    pub dir: PathBuf,
}

impl Cache {
    /// Opens `dir`, creating it and missing parents with mode 0700. Fails with
    /// [`CacheError::Insecure`] if the directory is not owned by the effective user or is group-
    /// or world-writable, and with [`CacheError::Io`] if it cannot be created or is not a
    /// directory. A directory we cannot write is accepted: `get` works, `put` fails.
    pub fn open(dir: &Path, options: CacheOptions) -> Result<Cache, CacheError> {
        let meta = match fs::metadata(dir) {
            Ok(meta) => meta,
            Err(_) => {
                security::create_dir_private(dir).map_err(|e| CacheError::io(dir, e))?;
                fs::metadata(dir).map_err(|e| CacheError::io(dir, e))?
            }
        };
        let owner = security::current_owner();
        security::check_dir(dir, &meta, owner)?;
        Ok(Cache { dir: dir.to_path_buf(), options, owner })
    }

    /// `$TWINJIT_CACHE_DIR` if set, else `$XDG_CACHE_HOME/twinjit` (when absolute, as the XDG
    /// spec requires), else `$HOME/.cache/twinjit`; `None` if none of them is set. Empty
    /// variables count as unset.
    pub fn default_dir() -> Option<PathBuf> {
        default_dir_from(|name| std::env::var_os(name))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn options(&self) -> &CacheOptions {
        &self.options
    }

    /// Where the entry for `key` lives (whether or not it exists).
    pub fn entry_path(&self, key: &CacheKey) -> PathBuf {
        self.path_for_digest(&key.digest())
    }

    /// The payload stored for `key`, verified; `Ok(None)` on a miss. A corrupt, truncated,
    /// foreign or mismatched entry is a miss and is removed. An entry that fails the security
    /// checks (another owner, group/world-writable, a symlink, not a regular file) is
    /// [`CacheError::Insecure`] and is left in place for the user to inspect; the caller should
    /// compile without the cache. A hit sets the entry's last use to now, unless it was set
    /// less than [`LAST_USE_RESOLUTION`] ago (then the hit writes nothing).
    pub fn get(&self, key: &CacheKey) -> Result<Option<Vec<u8>>, CacheError> {
        let digest = key.digest_bytes();
        let path = self.path_for_digest(&hex(&digest));
        let Some((file, mut bytes, last_use)) = self.read_entry_file(&path)? else {
            return Ok(None);
        };
        match format::verify_entry(&bytes, &digest) {
            Ok(payload_start) => {
                // Best effort: a read-only file system still serves hits, it just stops
                // refreshing their place in the LRU order. The access time is set too, so
                // that the next read does not update it again (`relatime` would, since the
                // modification would be newer).
                let now = SystemTime::now();
                let recent = now.duration_since(last_use).is_ok_and(|age| age < LAST_USE_RESOLUTION);
                if !recent {
                    let _ = file.set_times(std::fs::FileTimes::new().set_accessed(now).set_modified(now));
                }
                bytes.drain(..payload_start);
                Ok(Some(bytes))
            }
            Err(_) => {
                remove_if_unchanged(&path, &file);
                Ok(None)
            }
        }
    }

    /// Stores `payload` under `key`, atomically replacing any previous entry, then evicts least
    /// recently used entries beyond [`CacheOptions::max_bytes`]. Fails with [`CacheError::Io`]
    /// when the directory cannot be written; nothing is left behind then.
    pub fn put(&self, key: &CacheKey, payload: &[u8]) -> Result<(), CacheError> {
        let path = self.entry_path(key);
        let (temp_path, mut file) = self.create_temp()?;
        let written = file
            .write_all(&format::encode_prefix(key, payload))
            .and_then(|()| file.write_all(payload))
            .and_then(|()| file.flush());
        drop(file);
        if let Err(e) = written {
            let _ = fs::remove_file(&temp_path);
            return Err(CacheError::io(&temp_path, e));
        }
        if let Err(e) = fs::rename(&temp_path, &path) {
            let _ = fs::remove_file(&temp_path);
            return Err(CacheError::io(&path, e));
        }
        self.evict(&path);
        Ok(())
    }

    /// Removes the entry for `key`; `Ok(false)` if there was none.
    pub fn remove(&self, key: &CacheKey) -> Result<bool, CacheError> {
        let path = self.entry_path(key);
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(CacheError::io(path, e)),
        }
    }

    /// All readable, well-formed entries, sorted by function, signature, target and path.
    /// Headers and keys are verified, payload checksums are not (that is `get`'s job), and
    /// nothing is removed. Unreadable or corrupt files are skipped.
    pub fn entries(&self) -> Vec<EntryInfo> {
        let mut entries: Vec<EntryInfo> =
            self.entry_paths().into_iter().filter_map(|path| self.read_entry_info(path).ok()).collect();
        entries.sort_by(|a, b| {
            (&a.function, &a.signature, &a.target, &a.path).cmp(&(&b.function, &b.signature, &b.target, &b.path))
        });
        entries
    }

    pub fn stats(&self) -> CacheStats {
        let entries = self.entries();
        CacheStats { entries: entries.len(), bytes: entries.iter().map(|e| e.size).sum(), dir: self.dir.clone() }
    }

    /// Removes every entry file (valid or not) and every temp file; returns how many entry files
    /// were removed. Other files in the directory are kept. Temp files of a `put` in progress
    /// elsewhere may be removed too; that `put` then fails with an I/O error.
    pub fn clear(&self) -> Result<usize, CacheError> {
        let read_dir = fs::read_dir(&self.dir).map_err(|e| CacheError::io(&self.dir, e))?;
        let mut removed = 0;
        for dir_entry in read_dir {
            let dir_entry = dir_entry.map_err(|e| CacheError::io(&self.dir, e))?;
            let name = dir_entry.file_name();
            let is_entry = is_entry_name(&name);
            if !is_entry && !is_temp_name(&name) {
                continue;
            }
            let path = dir_entry.path();
            match fs::remove_file(&path) {
                Ok(()) => removed += usize::from(is_entry),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(CacheError::io(path, e)),
            }
        }
        Ok(removed)
    }

    fn path_for_digest(&self, digest_hex: &str) -> PathBuf {
        self.dir.join(format!("{digest_hex}{ENTRY_SUFFIX}"))
    }

    /// Paths of all files named like entries (not checked further).
    pub(crate) fn entry_paths(&self) -> Vec<PathBuf> {
        let Ok(read_dir) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        read_dir.flatten().filter(|e| is_entry_name(&e.file_name())).map(|e| e.path()).collect()
    }

    /// Opens an entry file after the security checks and reads it whole, with its last use.
    /// `Ok(None)`: no entry.
    pub(crate) fn read_entry_file(&self, path: &Path) -> Result<Option<(File, Vec<u8>, SystemTime)>, CacheError> {
        let Some(mut file) = security::open_entry(path)? else {
            return Ok(None);
        };
        let meta = file.metadata().map_err(|e| CacheError::io(path, e))?;
        security::check_entry(path, &meta, self.owner)?;
        // The length `fstat` gave, usually in one `read` with no second one to see the end; a
        // file cut short meanwhile gives fewer bytes, which verification refuses.
        let mut bytes = vec![0; usize::try_from(meta.len()).unwrap_or(0)];
        let mut filled = 0;
        while filled < bytes.len() {
            match file.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(CacheError::io(path, e)),
            }
        }
        bytes.truncate(filled);
        Ok(Some((file, bytes, meta.modified().unwrap_or(UNIX_EPOCH))))
    }

    /// Reads just the header and key of an entry file.
    fn read_entry_info(&self, path: PathBuf) -> Result<EntryInfo, Corrupt> {
        const UNREADABLE: Corrupt = Corrupt("unreadable");
        let mut file = security::open_entry(&path).ok().flatten().ok_or(UNREADABLE)?;
        let meta = file.metadata().map_err(|_| UNREADABLE)?;
        if !meta.is_file() {
            return Err(Corrupt("not a regular file"));
        }
        let mut header_bytes = [0; HEADER_LEN];
        file.read_exact(&mut header_bytes).map_err(|_| Corrupt("shorter than the header"))?;
        let header = format::parse_header(&header_bytes, meta.len())?;
        // parse_header checked the key fits in the file, so this allocation is bounded by it.
        let mut key_bytes = vec![0; usize::try_from(header.key_len()).map_err(|_| UNREADABLE)?];
        file.read_exact(&mut key_bytes).map_err(|_| UNREADABLE)?;
        let key = format::decode_key(&header, &key_bytes)?;
        if path.file_name() != Some(OsStr::new(&format!("{}{ENTRY_SUFFIX}", key.digest()))) {
            return Err(Corrupt("stored under another key's name"));
        }
        Ok(EntryInfo {
            function: key.function.clone(),
            signature: key.signature.clone(),
            target: key.target.clone(),
            size: meta.len(),
            last_use: meta.modified().unwrap_or(UNIX_EPOCH),
            path,
            key,
        })
    }

    fn create_temp(&self) -> Result<(PathBuf, File), CacheError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mut attempt = 0;
        loop {
            let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
            let count = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = self.dir.join(format!("{TEMP_PREFIX}{}-{count}-{nanos:08x}", std::process::id()));
            match security::create_private_file(&path) {
                Ok(file) => return Ok((path, file)),
                // Another process with our pid (a container sharing the directory) got there.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 => attempt += 1,
                Err(e) => return Err(CacheError::io(path, e)),
            }
        }
    }
}

/// Removes a bad entry unless another process has meanwhile renamed a fresh one over it.
fn remove_if_unchanged(path: &Path, opened: &File) {
    if let (Ok(opened), Ok(now)) = (opened.metadata(), fs::symlink_metadata(path)) {
        if security::same_file(&opened, &now) {
            let _ = fs::remove_file(path);
        }
    }
}

/// [`Cache::default_dir`] over any environment, so it can be tested without mutating ours.
fn default_dir_from(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let var = |name| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("TWINJIT_CACHE_DIR") {
        return Some(dir);
    }
    if let Some(xdg) = var("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
        return Some(xdg.join("twinjit"));
    }
    var("HOME").map(|home| home.join(".cache").join("twinjit"))
}

pub(crate) fn is_entry_name(name: &OsStr) -> bool {
    name.to_str()
        .and_then(|n| n.strip_suffix(ENTRY_SUFFIX))
        .is_some_and(|stem| stem.len() == 64 && stem.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

pub(crate) fn is_temp_name(name: &OsStr) -> bool {
    name.to_str().is_some_and(|n| n.starts_with(TEMP_PREFIX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_dir(vars: &[(&str, &str)]) -> Option<PathBuf> {
        default_dir_from(|name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| OsString::from(v)))
    }

    #[test]
    fn default_dir_prefers_twinjit_then_xdg_then_home() {
        let all = [("TWINJIT_CACHE_DIR", "/c/tw"), ("XDG_CACHE_HOME", "/x"), ("HOME", "/h")];
        assert_eq!(default_dir(&all), Some(PathBuf::from("/c/tw")));
        assert_eq!(default_dir(&all[1..]), Some(PathBuf::from("/x/twinjit")));
        assert_eq!(default_dir(&all[2..]), Some(PathBuf::from("/h/.cache/twinjit")));
        assert_eq!(default_dir(&[]), None);
    }

    #[test]
    fn default_dir_ignores_empty_variables_and_relative_xdg() {
        let vars = [("TWINJIT_CACHE_DIR", ""), ("XDG_CACHE_HOME", "rel"), ("HOME", "/h")];
        assert_eq!(default_dir(&vars), Some(PathBuf::from("/h/.cache/twinjit")));
    }

    #[test]
    fn entry_and_temp_names() {
        let digest = "0123456789abcdef".repeat(4);
        assert!(is_entry_name(OsStr::new(&format!("{digest}.twjc"))));
        assert!(!is_entry_name(OsStr::new(&format!("{}.twjc", digest.to_uppercase()))));
        assert!(!is_entry_name(OsStr::new(&format!("{digest}0.twjc"))));
        assert!(!is_entry_name(OsStr::new(&digest)));
        assert!(is_temp_name(OsStr::new(".tmp-1-2-3")));
        assert!(!is_temp_name(OsStr::new("tmp-1")));
    }
}
