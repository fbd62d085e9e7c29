//! Finding NVIDIA's libdevice (`libdevice.10.bc`), the bitcode library of `__nv_*` math
//! functions. It is looked up at run time, only when a kernel calls one, and read once per
//! process.

use crate::PtxError;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

const FILE: &str = "libdevice.10.bc";

/// Where libdevice is searched, in order: `TWINJIT_LIBDEVICE` (the file itself),
/// `$CUDA_HOME/nvvm/libdevice`, `$CUDA_PATH/nvvm/libdevice`, `/usr/local/cuda/nvvm/libdevice`,
/// then the `nvidia-nvvm` wheel's `nvidia/cu13/nvvm/libdevice` (and `cu12`, and the older
/// `nvidia/cuda_nvcc/nvvm/libdevice`) under `TWINJIT_NVIDIA_WHEELS`, `VIRTUAL_ENV`'s
/// site-packages, each `PYTHONPATH` entry and the usual system site-packages.
pub fn candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(p) = std::env::var_os("TWINJIT_LIBDEVICE") {
        out.push(PathBuf::from(p));
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(p) = std::env::var_os(var) {
            out.push(Path::new(&p).join("nvvm/libdevice").join(FILE));
        }
    }
    out.push(PathBuf::from("/usr/local/cuda/nvvm/libdevice").join(FILE));
    let mut roots: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("TWINJIT_NVIDIA_WHEELS") {
        roots.push(PathBuf::from(p));
    }
    if let Some(p) = std::env::var_os("PYTHONPATH") {
        roots.extend(std::env::split_paths(&p));
    }
    let mut site_parents: Vec<PathBuf> = Vec::new();
    if let Some(v) = std::env::var_os("VIRTUAL_ENV") {
        site_parents.push(Path::new(&v).join("lib"));
    }
    if let Some(h) = std::env::var_os("HOME") {
        site_parents.push(Path::new(&h).join(".local/lib"));
    }
    site_parents.extend(["/usr/local/lib", "/usr/lib"].map(PathBuf::from));
    for parent in site_parents {
        if let Ok(rd) = std::fs::read_dir(&parent) {
            let mut pys: Vec<PathBuf> = rd
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
                .map(|e| e.path())
                .collect();
            pys.sort();
            for py in pys {
                roots.push(py.join("site-packages"));
                roots.push(py.join("dist-packages"));
            }
        }
    }
    for r in roots {
        for sub in ["nvidia/cu13/nvvm/libdevice", "nvidia/cu12/nvvm/libdevice", "nvidia/cuda_nvcc/nvvm/libdevice"] {
            out.push(r.join(sub).join(FILE));
        }
    }
    out
}

/// libdevice's bytes, read once per process (the error, too, is remembered: the search is not
/// repeated on every compile).
pub fn bitcode() -> Result<Arc<Vec<u8>>, PtxError> {
    static CACHE: OnceLock<Result<Arc<Vec<u8>>, PtxError>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            let searched = candidates();
            for p in &searched {
                if let Ok(bytes) = std::fs::read(p) {
                    // A bitcode file starts with 'BC' 0xC0DE (or the wrapper magic 0x0B17C0DE).
                    if bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]) {
                        return Ok(Arc::new(bytes));
                    }
                }
            }
            Err(PtxError::LibdeviceNotFound { searched })
        })
        .clone()
}
