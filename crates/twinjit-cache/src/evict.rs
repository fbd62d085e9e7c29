//! Least-recently-used eviction and cleanup of abandoned temp files.
//!
//! Last use is an entry file's mtime: `put` creates it, `get` refreshes it. Eviction is best
//! effort and racy by design: two processes evicting at once may both remove entries, which only
//! costs recompilation. Every file named like an entry counts towards the size, valid or not.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::store::{is_entry_name, is_temp_name, Cache};

/// A temp file this old belongs to a writer that died between write and rename.
const STALE_TEMP_AGE: Duration = Duration::from_secs(60 * 60);

impl Cache {
    /// Evicts the least recently used entries until the total size is within
    /// `max_bytes`, never removing `keep` (the entry just written).
    pub(crate) fn evict(&self, keep: &Path) {
        let Ok(read_dir) = fs::read_dir(self.dir()) else {
            return;
        };
        let now = SystemTime::now();
        let mut entries: Vec<(SystemTime, PathBuf, u64)> = Vec::new();
        let mut total: u64 = 0;
        for dir_entry in read_dir.flatten() {
            let name = dir_entry.file_name();
            // DirEntry::metadata does not follow symlinks.
            let Ok(meta) = dir_entry.metadata() else { continue };
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if is_entry_name(&name) && meta.is_file() {
                total = total.saturating_add(meta.len());
                entries.push((modified, dir_entry.path(), meta.len()));
            } else if is_temp_name(&name) && now.duration_since(modified).is_ok_and(|age| age > STALE_TEMP_AGE) {
                let _ = fs::remove_file(dir_entry.path());
            }
        }
        if total <= self.options().max_bytes {
            return;
        }
        entries.sort();
        for (_, path, len) in entries {
            if total <= self.options().max_bytes {
                break;
            }
            if path == keep {
                continue;
            }
            match fs::remove_file(&path) {
                Ok(()) => total -= len,
                // Someone else evicted it; it no longer takes space either.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => total -= len,
                Err(_) => {}
            }
        }
    }
}
