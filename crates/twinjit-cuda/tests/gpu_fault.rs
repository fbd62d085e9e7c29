//! A kernel that faults on a GPU: the error surfaces at the next synchronization as `Fault`
//! naming the kernel. Its own test binary, since a fault poisons the process's CUDA context.
//! Skips, saying why, on a machine without a CUDA device.

use twinjit_cuda::{device_count, CudaError, Device, DeviceArray, LaunchConfig};

const PTX: &str = r#"
.version 7.0
.target sm_50
.address_size 64

// *(u32*)p = 1
.visible .entry store_to(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, 1;
    st.global.u32 [%rd2], %r1;
    ret;
}
"#;

#[test]
fn an_illegal_address_is_a_fault_at_synchronize() {
    match device_count() {
        Ok(n) if n > 0 => {}
        other => {
            eprintln!("skipping: no CUDA device ({other:?})");
            return;
        }
    }
    let device = Device::open(0).unwrap();
    let kernel = device.load_ptx(PTX).unwrap().kernel("store_to").unwrap();
    let array = DeviceArray::<i32>::zeros(&device, &[1]).unwrap();
    let stream = device.default_stream();
    // SAFETY: store_to takes one pointer; this one is valid.
    unsafe { kernel.launch(&LaunchConfig::linear(1, 1), &stream, &[array.device_ptr()]) }.unwrap();
    assert_eq!(array.to_vec().unwrap(), [1]);

    // SAFETY: deliberately not: address 8 is not device memory. The launch itself succeeds; the
    // kernel faults on the device, which is what this test is about.
    unsafe { kernel.launch(&LaunchConfig::linear(1, 1), &stream, &[8]) }.unwrap();
    let error = device.synchronize().unwrap_err();
    eprintln!("{error}");
    match &error {
        CudaError::Fault { kernel, code, .. } => {
            assert_eq!(kernel, "store_to");
            assert_eq!(code, "CUDA_ERROR_ILLEGAL_ADDRESS");
        }
        other => panic!("expected Fault, got {other:?}"),
    }
    // The error is sticky: a copy reports it too.
    assert!(matches!(array.to_vec(), Err(CudaError::Fault { .. })));
}
