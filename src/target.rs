//! Where code runs. A target is always named explicitly; one that is not available here is an
//! error at the call that names it, never a silent fallback to another target.

use std::fmt;

/// A compilation target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// This machine's CPU, through Cranelift.
    Host,
    /// An NVIDIA GPU through the CUDA driver (feature `cuda`).
    Cuda {
        /// Device ordinal.
        device: usize,
    },
    /// PTX text for an architecture such as `sm_90`, without a GPU (feature `cuda`).
    Ptx {
        /// The `sm_XX` architecture.
        arch: String,
    },
    /// `cuda-sim`: `@cuda.jit` kernels compiled for this CPU and launched over their grid with
    /// CUDA's execution model, behind the same API as [`Target::Cuda`] (device arrays in host
    /// memory, streams, events, an NVIDIA H200's launch limits), for testing GPU code without
    /// a GPU (feature `cuda`, for that API; `twinjit::sim` needs no feature). Only ever used
    /// when named.
    CudaSim,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Host => f.write_str("host"),
            Target::Cuda { device } => write!(f, "cuda:{device}"),
            Target::Ptx { arch } => write!(f, "ptx:{arch}"),
            Target::CudaSim => f.write_str("cuda-sim"),
        }
    }
}

impl std::str::FromStr for Target {
    type Err = String;
    /// `host`, `cuda`, `cuda:N`, `ptx:sm_90`, `cuda-sim`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "host" | "cpu" => Ok(Target::Host),
            "cuda" => Ok(Target::Cuda { device: 0 }),
            "cuda-sim" => Ok(Target::CudaSim),
            _ => {
                if let Some(d) = s.strip_prefix("cuda:") {
                    d.parse().map(|device| Target::Cuda { device }).map_err(|_| format!("bad device number in `{s}`"))
                } else if let Some(a) = s.strip_prefix("ptx:") {
                    Ok(Target::Ptx { arch: a.to_string() })
                } else {
                    Err(format!("unknown target `{s}` (expected host, cuda, cuda:N, ptx:sm_XX or cuda-sim)"))
                }
            }
        }
    }
}
