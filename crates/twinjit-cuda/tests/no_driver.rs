//! What the crate does on a machine with or without the CUDA driver: never a panic, and
//! `NoDriver` exactly when `libcuda` is missing. Both branches assert.

use twinjit_cuda::{device_count, driver_available, driver_version, CudaError, Device};

fn libcuda_present() -> bool {
    // SAFETY: only tries to load the driver library, which any CUDA program does.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// A driver whose library loads but whose cuInit fails (say, a driver/library mismatch) is
/// also reported as NoDriver, with the cuInit code in the reason.
fn is_init_failure(error: &CudaError) -> bool {
    matches!(error, CudaError::NoDriver { reason } if reason.starts_with("cuInit failed"))
}

#[test]
fn open_device_zero() {
    let opened = Device::open(0);
    if libcuda_present() {
        match &opened {
            Ok(device) => assert_eq!(device.ordinal(), 0),
            Err(CudaError::NoDevice { ordinal: 0, count: 0 }) => {}
            Err(other) => assert!(is_init_failure(other), "unexpected error with libcuda present: {other:?}"),
        }
    } else {
        let Err(CudaError::NoDriver { reason }) = &opened else {
            panic!("expected NoDriver without libcuda, got {opened:?}");
        };
        assert!(reason.contains("libcuda.so"), "the reason should name the library: {reason}");
        assert!(opened.unwrap_err().to_string().starts_with("the CUDA driver is not available: "));
    }
}

/// `NoDriver` without libcuda; with it, `judge` sees every result but a failing cuInit.
fn judge_with_driver<T: std::fmt::Debug>(result: Result<T, CudaError>, judge: impl FnOnce(Result<T, CudaError>)) {
    if !libcuda_present() {
        assert!(matches!(result, Err(CudaError::NoDriver { .. })), "{result:?}");
    } else if !result.as_ref().is_err_and(is_init_failure) {
        judge(result);
    }
}

#[test]
fn open_a_device_that_cannot_exist() {
    judge_with_driver(Device::open(usize::MAX), |opened| match opened {
        Err(CudaError::NoDevice { ordinal, .. }) => assert_eq!(ordinal, usize::MAX),
        Err(other) => panic!("unexpected error: {other:?}"),
        Ok(_) => panic!("device usize::MAX opened"),
    });
}

#[test]
fn count_devices() {
    judge_with_driver(device_count(), |count| match count {
        Ok(n) => assert!(n < 1024, "implausible device count {n}"),
        Err(other) => panic!("unexpected error: {other:?}"),
    });
}

#[test]
fn driver_availability_agrees_with_the_library() {
    let available = driver_available();
    if libcuda_present() {
        match &available {
            // Available means a device can be counted.
            Ok(()) => assert!(device_count().is_ok_and(|n| n > 0)),
            Err(reason) => assert!(reason.starts_with("cuInit failed"), "{reason}"),
        }
    } else {
        let reason = available.unwrap_err();
        assert!(reason.contains("libcuda.so"), "{reason}");
    }
}

#[test]
fn driver_version_needs_the_library() {
    let version = driver_version();
    if libcuda_present() {
        let (major, minor) = version.expect("cuDriverGetVersion works without cuInit");
        assert!((10..100).contains(&major) && minor < 100, "implausible version {major}.{minor}");
    } else {
        assert!(matches!(version, Err(CudaError::NoDriver { .. })), "{version:?}");
    }
}
