//! Who may have written the cache: the checks that make loading an entry safe.
//!
//! An entry becomes machine code in the caller's process, so the directory and each entry must
//! be writable only by the effective user: owned by it, with neither group nor others write bits
//! (mode & 0o022 == 0). Root gets no exemption for files of other users. On non-Unix platforms
//! there are no such checks (the OS's per-user profile directories are the boundary there).

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;

use crate::error::CacheError;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Owner {
    #[cfg(unix)]
    uid: u32,
}

#[cfg(unix)]
mod imp {
    use std::fs::{DirBuilder, Metadata, OpenOptions};
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
    use std::path::Path;

    use super::Owner;
    use crate::error::CacheError;

    pub(crate) fn current_owner() -> Owner {
        Owner { uid: rustix::process::geteuid().as_raw() }
    }

    pub(crate) fn check_owner_and_mode(path: &Path, meta: &Metadata, owner: Owner) -> Result<(), CacheError> {
        if meta.uid() != owner.uid {
            return Err(insecure(
                path,
                format!("owned by uid {}, not by the current user (uid {})", meta.uid(), owner.uid),
            ));
        }
        let mode = meta.mode() & 0o7777;
        if mode & 0o022 != 0 {
            return Err(insecure(path, format!("mode {mode:04o} lets group or others write to it")));
        }
        Ok(())
    }

    pub(crate) fn create_dir_private(dir: &Path) -> std::io::Result<()> {
        DirBuilder::new().recursive(true).mode(0o700).create(dir)
    }

    pub(crate) fn private_file(options: &mut OpenOptions) {
        options.mode(0o600);
    }

    pub(crate) fn no_follow(options: &mut OpenOptions) {
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }

    pub(crate) fn same_file(a: &Metadata, b: &Metadata) -> bool {
        (a.dev(), a.ino()) == (b.dev(), b.ino())
    }

    fn insecure(path: &Path, reason: String) -> CacheError {
        CacheError::Insecure { path: path.to_path_buf(), reason }
    }
}

#[cfg(not(unix))]
mod imp {
    use std::fs::{Metadata, OpenOptions};
    use std::path::Path;

    use super::Owner;
    use crate::error::CacheError;

    pub(crate) fn current_owner() -> Owner {
        Owner {}
    }

    pub(crate) fn check_owner_and_mode(_: &Path, _: &Metadata, _: Owner) -> Result<(), CacheError> {
        Ok(())
    }

    pub(crate) fn create_dir_private(dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)
    }

    pub(crate) fn private_file(_: &mut OpenOptions) {}

    pub(crate) fn no_follow(_: &mut OpenOptions) {}

    pub(crate) fn same_file(a: &Metadata, b: &Metadata) -> bool {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

pub(crate) use imp::{create_dir_private, current_owner, same_file};

/// The cache directory must be a directory we alone can write.
pub(crate) fn check_dir(path: &Path, meta: &Metadata, owner: Owner) -> Result<(), CacheError> {
    if !meta.is_dir() {
        return Err(CacheError::io(path, io::Error::new(io::ErrorKind::NotADirectory, "not a directory")));
    }
    imp::check_owner_and_mode(path, meta, owner)
}

/// An entry must be a regular file (not a symlink, device or directory) we alone can write.
pub(crate) fn check_entry(path: &Path, meta: &Metadata, owner: Owner) -> Result<(), CacheError> {
    if !meta.is_file() {
        return Err(CacheError::Insecure { path: path.to_path_buf(), reason: "not a regular file".to_string() });
    }
    imp::check_owner_and_mode(path, meta, owner)
}

/// Opens an existing entry for reading without following a symlink at its name. `Ok(None)`
/// when there is no entry; a symlink is [`CacheError::Insecure`].
pub(crate) fn open_entry(path: &Path) -> Result<Option<File>, CacheError> {
    let mut options = OpenOptions::new();
    options.read(true);
    imp::no_follow(&mut options);
    match options.open(path) {
        Ok(file) => Ok(Some(file)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                Err(CacheError::Insecure { path: path.to_path_buf(), reason: "is a symbolic link".to_string() })
            }
            _ => Err(CacheError::io(path, e)),
        },
    }
}

/// Creates a new file readable and writable only by its owner; fails if the name exists.
pub(crate) fn create_private_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    imp::private_file(&mut options);
    options.open(path)
}
