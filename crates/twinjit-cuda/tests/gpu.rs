//! The crate against a real GPU, with hand-written PTX. Each test says why it skips on a
//! machine without a CUDA device (the GPU machine runs them). Kernel faults poison the context,
//! so they live in `gpu_fault.rs`, a separate process.

use twinjit_cuda::{device_count, CudaError, Device, DeviceArray, LaunchConfig, PinnedBuffer};

/// Device 0, or `None` (with the reason on stderr) where there is none.
fn gpu() -> Option<Device> {
    match device_count() {
        Ok(n) if n > 0 => Some(Device::open(0).expect("device 0 exists, so it opens")),
        Ok(_) => {
            eprintln!("skipping: the CUDA driver sees no device");
            None
        }
        Err(error) => {
            eprintln!("skipping: {error}");
            None
        }
    }
}

const PTX: &str = r#"
.version 7.0
.target sm_50
.address_size 64

// out[i] = a[i] + b[i] for i < n
.visible .entry vecadd(.param .u64 a, .param .u64 b, .param .u64 out, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<11>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.u32 %rd7, %r5, 4;
    add.s64 %rd8, %rd4, %rd7;
    add.s64 %rd9, %rd5, %rd7;
    add.s64 %rd10, %rd6, %rd7;
    ld.global.f32 %f1, [%rd8];
    ld.global.f32 %f2, [%rd9];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd10], %f3;
DONE:
    ret;
}

// out[0..4] = x, k, flag, y (as f64): scalars of 8, 4, 1 and 4 bytes in 8-byte slots
.visible .entry scalars(.param .u64 out, .param .f64 x, .param .u32 k, .param .u8 flag, .param .f32 y)
{
    .reg .b16 %rs<2>;
    .reg .b32 %r<3>;
    .reg .f32 %f<2>;
    .reg .f64 %fd<5>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    ld.param.f64 %fd1, [x];
    ld.param.u32 %r1, [k];
    ld.param.u8 %rs1, [flag];
    ld.param.f32 %f1, [y];
    cvta.to.global.u64 %rd2, %rd1;
    cvt.rn.f64.s32 %fd2, %r1;
    cvt.u32.u16 %r2, %rs1;
    cvt.rn.f64.u32 %fd3, %r2;
    cvt.f64.f32 %fd4, %f1;
    st.global.f64 [%rd2], %fd1;
    st.global.f64 [%rd2+8], %fd2;
    st.global.f64 [%rd2+16], %fd3;
    st.global.f64 [%rd2+24], %fd4;
    ret;
}

// p[i] = v for i < n (bytes)
.visible .entry fill_u8(.param .u64 p, .param .u32 n, .param .u8 v)
{
    .reg .pred %p<2>;
    .reg .b16 %rs<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
    ld.param.u8 %rs1, [v];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    cvt.u64.u32 %rd3, %r5;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u8 [%rd2], %rs1;
DONE:
    ret;
}

// Dynamic shared memory: thread 0 writes `n` to the last word of `bytes` of shared memory,
// reads it back and stores it to out[0].
.extern .shared .align 4 .b8 smem[];
.visible .entry use_shared(.param .u64 out, .param .u32 bytes, .param .u32 n)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [bytes];
    ld.param.u32 %r2, [n];
    cvta.to.global.u64 %rd2, %rd1;
    sub.u32 %r3, %r1, 4;
    mov.u32 %r4, smem;
    add.u32 %r3, %r3, %r4;
    st.shared.u32 [%r3], %r2;
    bar.sync 0;
    ld.shared.u32 %r4, [%r3];
    st.global.u32 [%rd2], %r4;
    ret;
}
"#;

#[test]
fn properties_are_plausible() {
    let Some(device) = gpu() else { return };
    let props = device.properties();
    eprintln!("{props:#?}");
    assert!(!props.name.is_empty());
    assert!(props.arch().starts_with("sm_"));
    assert_eq!(props.warp_size, 32);
    assert!(props.max_threads_per_block >= 512);
    assert!(props.max_shared_memory_per_block_optin >= props.max_shared_memory_per_block);
    let (free, total) = device.memory_info().unwrap();
    assert!(free <= total && total > 0);
    let (major, _) = twinjit_cuda::driver_version().unwrap();
    assert!(major >= 11);
}

#[test]
fn vecadd_round_trip_and_attributes() {
    let Some(device) = gpu() else { return };
    let module = device.load_ptx(PTX).unwrap();
    let kernel = module.kernel("vecadd").unwrap();
    eprintln!("{kernel:?}, param sizes {:?}, info log {:?}", kernel.param_sizes(), module.info_log());
    assert_eq!(kernel.name(), "vecadd");
    assert!(kernel.num_registers() > 0);
    assert_eq!(kernel.max_threads_per_block(), device.properties().max_threads_per_block);
    assert_eq!(kernel.static_shared_bytes(), 0);
    if let Some(sizes) = kernel.param_sizes() {
        assert_eq!(sizes, &[8, 8, 8, 4]);
    }

    let n = 1_000_003usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
    let da = DeviceArray::from_slice(&device, &a, &[n]).unwrap();
    let db = DeviceArray::from_slice(&device, &b, &[n]).unwrap();
    let out = DeviceArray::<f32>::zeros(&device, &[n]).unwrap();
    let cfg = LaunchConfig::linear(n.div_ceil(256) as u32, 256);
    let params = [da.device_ptr(), db.device_ptr(), out.device_ptr(), n as u64];
    // SAFETY: vecadd takes three f32 pointers of n elements and a u32 n.
    unsafe { kernel.launch(&cfg, &device.default_stream(), &params) }.unwrap();
    let result = out.to_vec().unwrap();
    assert!(result.iter().enumerate().all(|(i, &x)| x == a[i] + b[i]));

    // Host cost of one asynchronous launch, for information only (no timed assertion).
    let stream = device.default_stream();
    let small = [da.device_ptr(), db.device_ptr(), out.device_ptr(), 256];
    let started = std::time::Instant::now();
    for _ in 0..10_000 {
        // SAFETY: as above, with n = 256.
        unsafe { kernel.launch(&LaunchConfig::linear(1, 256), &stream, &small) }.unwrap();
    }
    let host = started.elapsed();
    stream.synchronize().unwrap();
    eprintln!("launch: {:.2} us of host time each", host.as_secs_f64() * 1e6 / 10_000.0);
}

#[test]
fn a_new_stream_is_ordered_with_copies() {
    let Some(device) = gpu() else { return };
    let kernel = device.load_ptx(PTX).unwrap().kernel("vecadd").unwrap();
    let stream = device.new_stream().unwrap();
    let n = 1usize << 24;
    let ones = vec![1.0f32; n];
    let da = DeviceArray::from_slice(&device, &ones, &[n]).unwrap();
    let out = DeviceArray::<f32>::zeros(&device, &[n]).unwrap();
    let params = [da.device_ptr(), da.device_ptr(), out.device_ptr(), n as u64];
    let start = stream.record_event().unwrap();
    // SAFETY: as in vecadd_round_trip_and_attributes.
    unsafe { kernel.launch(&LaunchConfig::linear((n / 256) as u32, 256), &stream, &params) }.unwrap();
    let end = stream.record_event().unwrap();
    // No synchronize: the copy on the default stream must wait for the blocking stream.
    let result = out.to_vec().unwrap();
    assert!(result.iter().all(|&x| x == 2.0));
    let ms = start.elapsed_ms(&end).unwrap();
    eprintln!("vecadd of 2^24 floats: {ms} ms");
    assert!(ms > 0.0 && ms < 10_000.0);
    stream.synchronize().unwrap();
    end.synchronize().unwrap();
}

/// The pipeline the CUDA guide teaches: pinned buffers, a non-blocking stream, copy in, kernel,
/// copy out, all queued without waiting; reading the pinned result waits for its copy.
#[test]
fn pinned_buffers_and_a_non_blocking_stream_pipeline() {
    let Some(device) = gpu() else { return };
    let kernel = device.load_ptx(PTX).unwrap().kernel("vecadd").unwrap();
    let stream = device.new_non_blocking_stream().unwrap();
    assert!(!stream.is_default());
    let n = 1usize << 24;
    let host_in = PinnedBuffer::from_slice(&device, &(0..n).map(|i| (i % 1000) as f32).collect::<Vec<_>>()).unwrap();
    let mut host_out = PinnedBuffer::<f32>::zeros(&device, n).unwrap();
    let mut d_in = DeviceArray::<f32>::zeros(&device, &[n]).unwrap();
    let d_out = DeviceArray::<f32>::zeros(&device, &[n]).unwrap();
    let t0 = stream.record_event().unwrap();
    host_in.copy_to_device_async(&mut d_in, &stream).unwrap();
    let t1 = stream.record_event().unwrap();
    let params = [d_in.device_ptr(), d_in.device_ptr(), d_out.device_ptr(), n as u64];
    // SAFETY: vecadd takes three f32 pointers of n elements and a u32 n; the arrays outlive the
    // synchronization below.
    unsafe { kernel.launch(&LaunchConfig::linear((n / 256) as u32, 256), &stream, &params) }.unwrap();
    let t2 = stream.record_event().unwrap();
    host_out.copy_from_device_async(&d_out, &stream).unwrap();
    let t3 = stream.record_event().unwrap();
    // No synchronize: as_slice waits for the copy out.
    let out = host_out.as_slice().unwrap();
    assert!(out.iter().enumerate().all(|(i, &x)| x == 2.0 * (i % 1000) as f32));
    let bytes = (n * 4) as f64;
    let (h2d, k, d2h) = (t0.elapsed_ms(&t1).unwrap(), t1.elapsed_ms(&t2).unwrap(), t2.elapsed_ms(&t3).unwrap());
    eprintln!(
        "pinned pipeline, 2^24 floats: copy in {h2d:.3} ms ({:.1} GB/s), vecadd {k:.3} ms, copy out {d2h:.3} ms ({:.1} GB/s)",
        bytes / (h2d as f64 * 1e6),
        bytes / (d2h as f64 * 1e6)
    );
    assert!(h2d > 0.0 && d2h > 0.0);
    // A length mismatch is a shape error naming both sizes; nothing is queued.
    let small = DeviceArray::<f32>::zeros(&device, &[3]).unwrap();
    let e = host_in.copy_to_device_async(&mut DeviceArray::<f32>::zeros(&device, &[5]).unwrap(), &stream).unwrap_err();
    assert!(matches!(e, CudaError::Shape { .. }), "{e}");
    let e = host_out.copy_from_device_async(&small, &stream).unwrap_err();
    assert!(e.to_string().contains("has 3 elements") && e.to_string().contains(&n.to_string()), "{e}");
    // Dropping a buffer with a copy in flight waits for the copy first.
    let mut last = PinnedBuffer::<f32>::zeros(&device, n).unwrap();
    last.copy_from_device_async(&d_out, &stream).unwrap();
    drop(last);
    stream.synchronize().unwrap();
}

#[test]
fn scalar_parameters_sit_in_the_low_bytes() {
    let Some(device) = gpu() else { return };
    let kernel = device.load_ptx(PTX).unwrap().kernel("scalars").unwrap();
    if let Some(sizes) = kernel.param_sizes() {
        assert_eq!(sizes, &[8, 8, 4, 1, 4]);
    }
    let out = DeviceArray::<f64>::zeros(&device, &[4]).unwrap();
    let params = [out.device_ptr(), 2.5f64.to_bits(), (-3i32) as u32 as u64, 1, u64::from((-0.25f32).to_bits())];
    // SAFETY: scalars takes (f64*, f64, s32, u8, f32); out holds 4 f64.
    unsafe { kernel.launch(&LaunchConfig::linear(1, 1), &device.default_stream(), &params) }.unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![2.5, -3.0, 1.0, -0.25]);
}

#[test]
fn bool_arrays_read_any_nonzero_byte_as_true() {
    let Some(device) = gpu() else { return };
    let kernel = device.load_ptx(PTX).unwrap().kernel("fill_u8").unwrap();
    let flags = [true, false, true, false, false];
    let mut array = DeviceArray::from_slice(&device, &flags, &[5]).unwrap();
    assert_eq!(array.to_vec().unwrap(), flags);
    array.copy_from_host(&[false; 5]).unwrap();
    assert_eq!(array.to_vec().unwrap(), [false; 5]);
    // SAFETY: fill_u8 takes (u8*, u32 n, u8 v); the array holds 5 bytes.
    unsafe { kernel.launch(&LaunchConfig::linear(1, 32), &device.default_stream(), &[array.device_ptr(), 5, 0xfe]) }
        .unwrap();
    assert_eq!(array.to_vec().unwrap(), [true; 5]);
}

#[test]
fn empty_and_multidimensional_arrays() {
    let Some(device) = gpu() else { return };
    let empty = DeviceArray::<f64>::zeros(&device, &[0]).unwrap();
    assert_eq!((empty.len(), empty.is_empty(), empty.shape()), (0, true, &[0usize][..]));
    assert_ne!(empty.device_ptr(), 0);
    assert_eq!(empty.to_vec().unwrap(), Vec::<f64>::new());
    let empty2 = DeviceArray::<i32>::from_slice(&device, &[], &[3, 0]).unwrap();
    assert_eq!(empty2.to_vec().unwrap(), Vec::<i32>::new());
    // A kernel may be handed an empty array's pointer.
    let kernel = device.load_ptx(PTX).unwrap().kernel("fill_u8").unwrap();
    // SAFETY: n = 0, so fill_u8 touches no memory.
    unsafe { kernel.launch(&LaunchConfig::linear(1, 32), &device.default_stream(), &[empty.device_ptr(), 0, 7]) }
        .unwrap();
    device.synchronize().unwrap();

    let data: Vec<i64> = (0..24).collect();
    let cube = DeviceArray::from_slice(&device, &data, &[2, 3, 4]).unwrap();
    assert_eq!((cube.ndim(), cube.shape(), cube.strides(), cube.itemsize()), (3, &[2, 3, 4][..], &[12, 4, 1][..], 8));
    assert_eq!(cube.to_vec().unwrap(), data);
    let mut out = vec![0i64; 24];
    cube.copy_to_host(&mut out).unwrap();
    assert_eq!(out, data);
    let ints = DeviceArray::from_slice(&device, &[1i32, -2, 3], &[3]).unwrap();
    assert_eq!(ints.to_vec().unwrap(), [1, -2, 3]);
    let floats = DeviceArray::from_slice(&device, &[1.5f32, -2.0], &[1, 2]).unwrap();
    assert_eq!(floats.to_vec().unwrap(), [1.5, -2.0]);
}

#[test]
fn shape_errors_through_a_device() {
    let Some(device) = gpu() else { return };
    let wrong = DeviceArray::from_slice(&device, &[1.0f32; 5], &[2, 3]);
    assert!(matches!(wrong, Err(CudaError::Shape { .. })), "{wrong:?}");
    // Up to 8 dimensions (an NCHW batch is 4); 9 are refused.
    let four_d = DeviceArray::<f32>::zeros(&device, &[1, 2, 1, 3]).unwrap();
    assert_eq!(four_d.to_vec().unwrap(), [0.0; 6]);
    let nine_d = DeviceArray::<f32>::zeros(&device, &[1; 9]);
    assert!(matches!(nine_d, Err(CudaError::Shape { .. })), "{nine_d:?}");
    let mut array = DeviceArray::<f32>::zeros(&device, &[4]).unwrap();
    assert!(matches!(array.copy_from_host(&[1.0; 3]), Err(CudaError::Shape { .. })));
    assert!(matches!(array.copy_to_host(&mut [0.0; 5]), Err(CudaError::Shape { .. })));
    let huge = DeviceArray::<f64>::zeros(&device, &[1 << 62]);
    assert!(matches!(huge, Err(CudaError::Shape { .. })), "{huge:?}");
    let too_big = DeviceArray::<f64>::zeros(&device, &[1 << 50]);
    match too_big {
        Err(CudaError::Driver { code, .. }) => assert_eq!(code, "CUDA_ERROR_OUT_OF_MEMORY"),
        other => panic!("expected out of memory, got {other:?}"),
    }
}

#[test]
fn launch_limits_are_checked_before_the_driver() {
    let Some(device) = gpu() else { return };
    let kernel = device.load_ptx(PTX).unwrap().kernel("fill_u8").unwrap();
    let array = DeviceArray::<bool>::zeros(&device, &[4096]).unwrap();
    let params = [array.device_ptr(), 4096, 1];
    let stream = device.default_stream();
    // SAFETY: fill_u8 takes (u8*, u32 n, u8 v); the array holds 4096 bytes.
    let refused = unsafe { kernel.launch(&LaunchConfig::linear(2, 2048), &stream, &params) };
    let error = refused.unwrap_err();
    eprintln!("{error}");
    let max = device.properties().max_threads_per_block;
    assert!(matches!(&error, CudaError::LaunchLimit { value: 2048, max: m, .. } if *m == u64::from(max)));
    assert!(error.to_string().contains(&device.properties().name));
    // The context is fine afterwards.
    // SAFETY: as above.
    unsafe { kernel.launch(&LaunchConfig::linear(4, 1024), &stream, &params) }.unwrap();
    assert!(array.to_vec().unwrap().iter().all(|&b| b));

    if kernel.param_sizes().is_some() {
        // SAFETY: refused before reaching the driver (wrong parameter count).
        let wrong = unsafe { kernel.launch(&LaunchConfig::linear(1, 1), &stream, &params[..2]) };
        assert!(matches!(&wrong, Err(CudaError::Launch { message, .. }) if message.contains("takes 3 parameters")));
    }
}

#[test]
fn dynamic_shared_memory_past_48_kib() {
    let Some(device) = gpu() else { return };
    let props = device.properties().clone();
    if props.max_shared_memory_per_block_optin <= props.max_shared_memory_per_block {
        eprintln!("skipping: this device has no shared memory opt-in");
        return;
    }
    let kernel = device.load_ptx(PTX).unwrap().kernel("use_shared").unwrap();
    let out = DeviceArray::<i32>::zeros(&device, &[1]).unwrap();
    let stream = device.default_stream();
    for bytes in [1024u32, 100 * 1024, props.max_shared_memory_per_block_optin] {
        let cfg = LaunchConfig::linear(1, 32).with_shared_mem_bytes(bytes);
        // SAFETY: use_shared takes (s32*, u32 bytes, u32 n) and touches `bytes` of shared memory.
        unsafe { kernel.launch(&cfg, &stream, &[out.device_ptr(), u64::from(bytes), u64::from(bytes / 3)]) }.unwrap();
        assert_eq!(out.to_vec().unwrap(), [(bytes / 3) as i32]);
    }
    let cfg = LaunchConfig::linear(1, 32).with_shared_mem_bytes(props.max_shared_memory_per_block_optin + 4);
    // SAFETY: refused before the launch.
    let refused = unsafe { kernel.launch(&cfg, &stream, &[out.device_ptr(), 0, 0]) };
    assert!(matches!(refused, Err(CudaError::LaunchLimit { .. })), "{refused:?}");
}

#[test]
fn bad_ptx_comes_back_with_the_jit_log() {
    let Some(device) = gpu() else { return };
    let syntax =
        ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry k()\n{\n    bogus.instruction;\n    ret;\n}\n";
    match device.load_ptx(syntax) {
        Err(CudaError::ModuleLoad { code, log }) => {
            eprintln!("{code}: {log}");
            assert_eq!(code, "CUDA_ERROR_INVALID_PTX");
            assert!(log.contains("bogus") || log.contains("line 6"), "log: {log}");
        }
        other => panic!("expected ModuleLoad, got {other:?}"),
    }

    let unresolved = ".version 7.0\n.target sm_50\n.address_size 64\n\
        .extern .func (.param .b64 r) __nv_exp (.param .b64 x);\n\
        .visible .entry k(.param .u64 p)\n{\n    .reg .f64 %fd<3>;\n    .reg .b64 %rd<3>;\n\
        ld.param.u64 %rd1, [p];\n    cvta.to.global.u64 %rd2, %rd1;\n    ld.global.f64 %fd1, [%rd2];\n\
        {\n    .param .b64 a;\n    st.param.f64 [a], %fd1;\n    .param .b64 r;\n\
        call.uni (r), __nv_exp, (a);\n    ld.param.f64 %fd2, [r];\n    }\n\
        st.global.f64 [%rd2], %fd2;\n    ret;\n}\n";
    match device.load_ptx(unresolved) {
        Err(CudaError::ModuleLoad { code, log }) => {
            eprintln!("{code}: {log}");
            assert!(log.contains("__nv_exp"), "log: {log}");
        }
        other => panic!("expected ModuleLoad, got {other:?}"),
    }

    let nul = device.load_ptx("abc\0def");
    assert!(matches!(&nul, Err(CudaError::ModuleLoad { log, .. }) if log.contains("offset 3")), "{nul:?}");
}

#[test]
fn missing_kernels() {
    let Some(device) = gpu() else { return };
    let module = device.load_ptx(PTX).unwrap();
    for name in ["nope", "vec\0add", ""] {
        let missing = module.kernel(name);
        assert!(matches!(&missing, Err(CudaError::MissingKernel { name: n }) if n == name), "{missing:?}");
    }
}

#[test]
fn handles_work_from_other_threads() {
    let Some(device) = gpu() else { return };
    let kernel = device.load_ptx(PTX).unwrap().kernel("vecadd").unwrap();
    let n = 4096usize;
    let ones = DeviceArray::from_slice(&device, &vec![1.0f32; n], &[n]).unwrap();
    let out = DeviceArray::<f32>::zeros(&device, &[n]).unwrap();
    let params = [ones.device_ptr(), ones.device_ptr(), out.device_ptr(), n as u64];
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let stream = device.new_stream().unwrap();
            // SAFETY: as in vecadd_round_trip_and_attributes.
            unsafe { kernel.launch(&LaunchConfig::linear(16, 256), &stream, &params) }.unwrap();
            stream.synchronize().unwrap();
        });
    });
    assert!(out.to_vec().unwrap().iter().all(|&x| x == 2.0));
    let reopened = Device::open(0).unwrap();
    assert_eq!(reopened.properties(), device.properties());
}

#[test]
fn a_cubin_from_the_jit_linker_loads_without_the_jit_and_runs() {
    let Some(device) = gpu() else { return };
    let cubin = device.ptx_to_cubin(PTX).unwrap();
    assert_eq!(&cubin[..4], b"\x7fELF");
    // SAFETY: the bytes come from the driver's linker.
    let kernel = unsafe { device.load_cubin(&cubin) }.unwrap().kernel("vecadd").unwrap();
    let n = 4099usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let da = DeviceArray::from_slice(&device, &a, &[n]).unwrap();
    let out = DeviceArray::<f32>::zeros(&device, &[n]).unwrap();
    let params = [da.device_ptr(), da.device_ptr(), out.device_ptr(), n as u64];
    // SAFETY: vecadd takes three f32 pointers of n elements and a u32 n.
    unsafe { kernel.launch(&LaunchConfig::linear(n.div_ceil(256) as u32, 256), &device.default_stream(), &params) }
        .unwrap();
    assert!(out.to_vec().unwrap().iter().enumerate().all(|(i, &x)| x == 2.0 * i as f32));
    // Timing, for information only: loading the cubin against JIT-compiling the PTX.
    let t = std::time::Instant::now();
    // SAFETY: as above.
    drop(unsafe { device.load_cubin(&cubin) }.unwrap());
    let cubin_load = t.elapsed();
    let t = std::time::Instant::now();
    drop(device.load_ptx(PTX).unwrap());
    eprintln!("module load: cubin {:?}, PTX (driver JIT) {:?}", cubin_load, t.elapsed());
    // Images whose tables do not fit are refused before the driver sees them; PTX that is not
    // PTX is refused by the linker with its log.
    for cut in [cubin.len() / 2, 63, 4] {
        // SAFETY: a prefix of a driver-made cubin; the header checks refuse it.
        let r = unsafe { device.load_cubin(&cubin[..cut]) };
        assert!(matches!(r, Err(CudaError::ModuleLoad { .. })), "cut at {cut}");
    }
    assert!(matches!(device.ptx_to_cubin("this is not PTX"), Err(CudaError::ModuleLoad { .. })));
}

static DELETED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A producer's deleter that counts its calls, then releases the tensor it wraps.
unsafe extern "C" fn counting_deleter(m: *mut twinjit_cuda::dlpack::DLManagedTensor) {
    DELETED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    // SAFETY: the test made `m` with `Box::into_raw`, its context is the wrapped tensor.
    unsafe {
        let outer = Box::from_raw(m);
        let inner = outer.manager_ctx as *mut twinjit_cuda::dlpack::DLManagedTensor;
        if let Some(d) = (*inner).deleter {
            d(inner)
        }
    }
}

/// DLPack both ways without a copy: an exported array's tensor describes it (CUDA device, C
/// strides), a wrong element type is refused and leaves the tensor to the caller, the adopted
/// array reads the same memory, and dropping it calls the producer's deleter exactly once.
#[test]
fn dlpack_exchange_without_a_copy() {
    use twinjit_cuda::dlpack::{DLManagedTensor, DL_CUDA};
    let Some(dev) = gpu() else { return };
    let a = DeviceArray::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let ptr = a.device_ptr();
    let m = a.into_dlpack();
    // SAFETY: `m` is the live tensor just made.
    unsafe {
        let t = &(*m).dl_tensor;
        assert_eq!((t.device.device_type, t.ndim, t.data as u64), (DL_CUDA, 2, ptr));
        assert_eq!(std::slice::from_raw_parts(t.shape, 2), [2, 3]);
        assert_eq!(std::slice::from_raw_parts(t.strides, 2), [3, 1]);
    }
    // SAFETY: as above; on an error the tensor stays ours.
    let e = unsafe { DeviceArray::<f64>::from_dlpack(&dev, m) }.unwrap_err();
    assert!(e.to_string().contains("is not float64"), "{e}");
    // Wrapped in a producer whose deleter counts, then adopted.
    // SAFETY: as above.
    let outer = unsafe {
        let t = &(*m).dl_tensor;
        Box::into_raw(Box::new(DLManagedTensor {
            dl_tensor: twinjit_cuda::dlpack::DLTensor {
                data: t.data,
                device: t.device,
                ndim: t.ndim,
                dtype: t.dtype,
                shape: t.shape,
                strides: t.strides,
                byte_offset: 0,
            },
            manager_ctx: m as *mut std::ffi::c_void,
            deleter: Some(counting_deleter),
        }))
    };
    // SAFETY: `outer` is valid and not used after this.
    let b = unsafe { DeviceArray::<f32>::from_dlpack(&dev, outer) }.unwrap();
    assert_eq!((b.device_ptr(), b.shape()), (ptr, &[2usize, 3][..]));
    assert_eq!(b.to_vec().unwrap(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let before = DELETED.load(std::sync::atomic::Ordering::SeqCst);
    drop(b);
    assert_eq!(DELETED.load(std::sync::atomic::Ordering::SeqCst), before + 1);
}
