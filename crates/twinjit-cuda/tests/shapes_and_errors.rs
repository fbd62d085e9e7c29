//! Pure parts that need no GPU: shape validation, element types, launch configurations and
//! error messages.

use expect_test::{expect, Expect};
use twinjit_cuda::{check_shape, element_count, CudaError, DeviceElement, ElementType, LaunchConfig};

fn check(shape: &[usize], host_len: usize, expect: Expect) {
    let actual = match check_shape(shape, host_len) {
        Ok(count) => format!("ok: {count} elements"),
        Err(error) => format!("{error:?}"),
    };
    expect.assert_eq(&actual);
}

#[test]
fn shapes() {
    check(&[6], 6, expect!["ok: 6 elements"]);
    check(&[2, 3], 6, expect!["ok: 6 elements"]);
    check(&[2, 3, 4], 24, expect!["ok: 24 elements"]);
    check(&[0], 0, expect!["ok: 0 elements"]);
    check(&[4, 0, 2], 0, expect!["ok: 0 elements"]);
    check(&[2, 3], 5, expect![[r#"Shape { message: "shape [2, 3] holds 6 elements, but the host data has 5" }"#]]);
    check(&[], 0, expect![[r#"Shape { message: "a device array has 1 to 8 dimensions, but shape [] has 0" }"#]]);
    check(
        &[1, 1, 1, 1, 1, 1, 1, 1, 1],
        1,
        expect![[
            r#"Shape { message: "a device array has 1 to 8 dimensions, but shape [1, 1, 1, 1, 1, 1, 1, 1, 1] has 9" }"#
        ]],
    );
    check(
        &[usize::MAX, 2],
        0,
        expect![[r#"Shape { message: "shape [18446744073709551615, 2] has more elements than fit in memory" }"#]],
    );
}

#[test]
fn element_count_ignores_host_data() {
    assert_eq!(element_count(&[3, 5]).ok(), Some(15));
    assert!(matches!(element_count(&[]), Err(CudaError::Shape { .. })));
}

#[test]
fn element_types() {
    let types = [
        (<bool as DeviceElement>::TYPE, "bool", 1),
        (<i32 as DeviceElement>::TYPE, "int32", 4),
        (<i64 as DeviceElement>::TYPE, "int64", 8),
        (<f32 as DeviceElement>::TYPE, "float32", 4),
        (<f64 as DeviceElement>::TYPE, "float64", 8),
    ];
    for (ty, name, size) in types {
        assert_eq!((ty.name(), ty.size()), (name, size));
    }
    assert_eq!(<bool as DeviceElement>::TYPE, ElementType::Bool);
}

#[test]
fn launch_configs() {
    let cfg = LaunchConfig::linear(80, 256);
    assert_eq!(cfg, LaunchConfig { grid: [80, 1, 1], block: [256, 1, 1], shared_mem_bytes: 0 });
    assert_eq!(cfg.threads_per_block(), 256);
    assert_eq!(cfg.with_shared_mem_bytes(1024).shared_mem_bytes, 1024);
    assert_eq!(LaunchConfig::new([4, 4, 1], [16, 16, 2]).threads_per_block(), 512);
}

fn message(error: CudaError, expect: Expect) {
    expect.assert_eq(&error.to_string());
}

#[test]
fn error_messages() {
    message(
        CudaError::NoDevice { ordinal: 2, count: 1 },
        expect!["there is no CUDA device 2: the driver sees 1 device(s)"],
    );
    message(
        CudaError::Driver {
            call: "cuMemAlloc(1024 bytes)".into(),
            code: "CUDA_ERROR_OUT_OF_MEMORY".into(),
            message: "out of memory".into(),
        },
        expect!["cuMemAlloc(1024 bytes) failed: CUDA_ERROR_OUT_OF_MEMORY: out of memory"],
    );
    message(
        CudaError::ModuleLoad {
            code: "CUDA_ERROR_INVALID_PTX".into(),
            log: "ptxas application ptx input, line 9; fatal   : Parsing error near 'foo': syntax error\n".into(),
        },
        expect![[r#"
            the CUDA driver could not load the PTX module: CUDA_ERROR_INVALID_PTX
            ptxas application ptx input, line 9; fatal   : Parsing error near 'foo': syntax error"#]],
    );
    message(
        CudaError::ModuleLoad { code: "CUDA_ERROR_INVALID_PTX".into(), log: String::new() },
        expect![
            "the CUDA driver could not load the PTX module: CUDA_ERROR_INVALID_PTX (the JIT compiler wrote no log)"
        ],
    );
    message(CudaError::MissingKernel { name: "vecadd".into() }, expect!["the PTX module has no kernel named `vecadd`"]);
    message(
        CudaError::Launch {
            kernel: "vecadd".into(),
            code: "CUDA_ERROR_INVALID_VALUE".into(),
            message: "invalid argument".into(),
        },
        expect!["launch of `vecadd` failed: CUDA_ERROR_INVALID_VALUE: invalid argument"],
    );
    message(
        CudaError::Fault {
            kernel: "vecadd".into(),
            code: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            message: "an illegal memory access was encountered".into(),
        },
        expect!["kernel `vecadd` failed on the device: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"],
    );
}

#[test]
fn handles_can_cross_threads() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<twinjit_cuda::Device>();
    send_and_sync::<twinjit_cuda::DeviceArray<bool>>();
    send_and_sync::<twinjit_cuda::DeviceArray<f64>>();
    send_and_sync::<twinjit_cuda::CudaModule>();
    send_and_sync::<twinjit_cuda::Kernel>();
    send_and_sync::<twinjit_cuda::Stream>();
    send_and_sync::<twinjit_cuda::Event>();
    send_and_sync::<CudaError>();
}
