//! The crate's one error type. Corruption is deliberately absent: a bad entry is a miss.

use std::io;
use std::path::PathBuf;

/// Why a cache operation failed. Callers are expected to warn and carry on without the cache.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// The file system refused (read-only directory, disk full, path is not a directory, ...).
    #[error("cache I/O error at {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The cache directory or an entry file could be tampered with by someone else, or is not
    /// what the cache created (a symlink, another user's file); it is not used and not removed.
    #[error("refusing insecure cache path {}: {reason}", path.display())]
    Insecure { path: PathBuf, reason: String },
}

impl CacheError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> CacheError {
        CacheError::Io { path: path.into(), source }
    }
}
