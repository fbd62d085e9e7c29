//! `check_launch` against a fabricated H200: needs no GPU.

use expect_test::{expect, Expect};
use twinjit_cuda::{check_launch, CudaError, DeviceProperties, LaunchConfig};

/// An H200 as the driver names it: cuda-sim's model of one, under its real name.
fn h200() -> DeviceProperties {
    DeviceProperties {
        name: "NVIDIA H200".to_string(),
        clock_rate_khz: 1_980_000,
        memory_clock_rate_khz: 3_201_000,
        memory_bus_width: 6144,
        pci_bus_id: "0000:18:00.0".to_string(),
        ..DeviceProperties::cuda_sim_model()
    }
}

/// Checks `cfg` for kernel `vecadd` (whose own limit is `kernel_max`, with `static_shared`
/// bytes of static shared memory) and compares the outcome: `ok` or the error's message.
fn check(cfg: LaunchConfig, kernel_max: u32, static_shared: u32, expect: Expect) {
    let actual = match check_launch(&h200(), "vecadd", &cfg, kernel_max, static_shared) {
        Ok(()) => "ok".to_string(),
        Err(error) => error.to_string(),
    };
    expect.assert_eq(&actual);
}

#[test]
fn too_many_threads_per_block() {
    check(
        LaunchConfig::linear(1, 2048),
        1024,
        0,
        expect!["launch of `vecadd` asks for 2048 threads per block, but NVIDIA H200 allows at most 1024 (CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)"],
    );
    check(
        LaunchConfig::new([1, 1, 1], [32, 64, 1]),
        1024,
        0,
        expect!["launch of `vecadd` asks for 2048 threads per block, but NVIDIA H200 allows at most 1024 (CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)"],
    );
}

#[test]
fn the_error_carries_its_numbers() {
    let error = check_launch(&h200(), "vecadd", &LaunchConfig::linear(1, 2048), 1024, 0).unwrap_err();
    let CudaError::LaunchLimit { kernel, limit, value, max, device, attribute } = error else {
        panic!("expected LaunchLimit, got {error:?}");
    };
    assert_eq!(
        (kernel.as_str(), limit.as_str(), value, max, device.as_str(), attribute.as_str()),
        ("vecadd", "threads per block", 2048, 1024, "NVIDIA H200", "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK")
    );
}

#[test]
fn block_dimension_limits() {
    check(
        LaunchConfig::new([1, 1, 1], [1, 1, 65]),
        1024,
        0,
        expect!["launch of `vecadd` asks for 65 threads in block dimension z, but NVIDIA H200 allows at most 64 (CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)"],
    );
    check(LaunchConfig::new([1, 1, 1], [1, 1, 64]), 1024, 0, expect!["ok"]);
    check(
        LaunchConfig::new([1, 1, 1], [32, 0, 1]),
        1024,
        0,
        expect!["launch of `vecadd` asks for 0 threads in block dimension y, but NVIDIA H200 allows 1 to 1024 (CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)"],
    );
}

#[test]
fn grid_dimension_limits() {
    check(
        LaunchConfig::linear(0, 256),
        1024,
        0,
        expect!["launch of `vecadd` asks for 0 blocks in grid dimension x, but NVIDIA H200 allows 1 to 2147483647 (CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)"],
    );
    check(
        LaunchConfig::new([1, 65536, 1], [256, 1, 1]),
        1024,
        0,
        expect!["launch of `vecadd` asks for 65536 blocks in grid dimension y, but NVIDIA H200 allows at most 65535 (CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)"],
    );
    check(LaunchConfig::new([2147483647, 65535, 65535], [1, 1, 1]), 1024, 0, expect!["ok"]);
}

#[test]
fn valid_configurations_pass() {
    check(LaunchConfig::new([64, 64, 1], [32, 32, 1]), 1024, 0, expect!["ok"]);
    check(LaunchConfig::linear(4096, 1024), 1024, 0, expect!["ok"]);
    // 0 means the kernel has no limit of its own.
    check(LaunchConfig::linear(1, 1024), 0, 0, expect!["ok"]);
}

#[test]
fn the_kernels_own_thread_limit() {
    check(
        LaunchConfig::linear(1, 1024),
        512,
        0,
        expect!["launch of `vecadd` asks for 1024 threads per block, but NVIDIA H200 allows at most 512 (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: this kernel's register use or launch bounds)"],
    );
    check(LaunchConfig::linear(1, 512), 512, 0, expect!["ok"]);
}

#[test]
fn shared_memory_limits() {
    // Past the default 48 KiB but within the opt-in maximum: allowed (launch opts in).
    check(LaunchConfig::linear(1, 256).with_shared_mem_bytes(100 * 1024), 1024, 0, expect!["ok"]);
    check(LaunchConfig::linear(1, 256).with_shared_mem_bytes(227 * 1024), 1024, 0, expect!["ok"]);
    check(
        LaunchConfig::linear(1, 256).with_shared_mem_bytes(227 * 1024 + 1),
        1024,
        0,
        expect!["launch of `vecadd` asks for 232449 bytes of shared memory per block (0 static + 232449 dynamic), but NVIDIA H200 allows at most 232448 (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)"],
    );
    check(
        LaunchConfig::linear(1, 256).with_shared_mem_bytes(227 * 1024),
        1024,
        4096,
        expect!["launch of `vecadd` asks for 236544 bytes of shared memory per block (4096 static + 232448 dynamic), but NVIDIA H200 allows at most 232448 (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)"],
    );
    check(
        LaunchConfig::linear(1, 256).with_shared_mem_bytes(u32::MAX),
        1024,
        u32::MAX,
        expect!["launch of `vecadd` asks for 8589934590 bytes of shared memory per block (4294967295 static + 4294967295 dynamic), but NVIDIA H200 allows at most 232448 (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)"],
    );
}

#[test]
fn a_device_without_opt_in_caps_at_the_default() {
    let old = DeviceProperties { max_shared_memory_per_block_optin: 0, ..h200() };
    let error = check_launch(&old, "k", &LaunchConfig::linear(1, 32).with_shared_mem_bytes(48 * 1024 + 1), 1024, 0)
        .unwrap_err()
        .to_string();
    expect!["launch of `k` asks for 49153 bytes of shared memory per block (0 static + 49153 dynamic), but NVIDIA H200 allows at most 49152 (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)"]
        .assert_eq(&error);
}

#[test]
fn threads_per_block_does_not_overflow() {
    let cfg = LaunchConfig::new([1, 1, 1], [u32::MAX, u32::MAX, 1]);
    assert_eq!(cfg.threads_per_block(), u64::from(u32::MAX) * u64::from(u32::MAX));
    check(
        cfg,
        1024,
        0,
        expect!["launch of `vecadd` asks for 18446744065119617025 threads per block, but NVIDIA H200 allows at most 1024 (CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)"],
    );
    let cfg = LaunchConfig::new([1, 1, 1], [u32::MAX, u32::MAX, u32::MAX]);
    assert_eq!(cfg.threads_per_block(), u64::MAX);
    assert!(check_launch(&h200(), "vecadd", &cfg, 1024, 0).is_err());
}

#[test]
fn arch_names_the_ptx_target() {
    assert_eq!(h200().arch(), "sm_90");
    assert_eq!(DeviceProperties { compute_capability: (8, 6), ..h200() }.arch(), "sm_86");
}
