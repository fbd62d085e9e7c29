//! What the CUDA examples share (`mod common;` in each): opening the GPU.

use twinjit::{Engine, Error, Target};

/// An engine for GPU 0. Where the CUDA target is unavailable (no feature, driver or device) it
/// prints why and exits with status 2, so that a script can tell "skipped" from "failed".
pub fn cuda_engine() -> Result<Engine, Error> {
    match Engine::new(Target::Cuda { device: 0 }) {
        Err(e @ Error::TargetUnavailable { .. }) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
        other => other,
    }
}
