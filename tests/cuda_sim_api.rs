//! `Target::CudaSim` behind the API written for `Target::Cuda`: device arrays, launches,
//! streams, events, pinned buffers, launch limits and errors at synchronize, as a Rust
//! program for a GPU uses them, with no GPU (the whole corpus through this API is
//! `gpu_corpus.rs`'s `kernel_corpus_matches_the_interpreter_on_cuda_sim_through_the_gpu_api`).

#![cfg(feature = "cuda")]

use twinjit::cuda::{dlpack, DeviceArray, LaunchConfig, PinnedBuffer};
use twinjit::{Engine, Error, Target};

const SRC: &str = r#"
import numpy as np
from numba import cuda


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


@cuda.jit
def block_max(x, out):
    buf = cuda.shared.array(128, dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else -1e30
    cuda.syncthreads()
    s = 64
    while s > 0:
        if t < s:
            buf[t] = max(buf[t], buf[t + s])
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


@cuda.jit(boundscheck=False)
def past_the_end(y):
    i = cuda.grid(1)
    y[i + 1] = 1.0


@cuda.jit
def host_draws(y):
    y[cuda.grid(1)] = np.random.random()
"#;

fn engine() -> Engine {
    Engine::new(Target::CudaSim).expect("cuda-sim needs no GPU")
}

#[test]
fn a_gpu_program_runs_unchanged_on_cuda_sim() {
    let engine = engine();
    let device = engine.device().expect("a device");
    assert!(device.is_simulated());
    assert_eq!(device.properties().max_threads_per_block, 1024);
    let m = engine.load("sim_api.py", SRC).unwrap();
    let n = 1000;
    let x: Vec<f64> = (0..n).map(f64::from).collect();
    let dx = engine.to_device(&x).unwrap();
    let mut dy = engine.zeros::<f64>(&[n as usize]).unwrap();
    dy.copy_from_host(&vec![1.0; n as usize]).unwrap();
    let axpy = m.kernel("axpy").unwrap();
    axpy.launch(LaunchConfig::linear(4, 256), (2.0f64, &dx, &dy)).unwrap();
    engine.synchronize().unwrap();
    let y = dy.to_vec().unwrap();
    assert_eq!(y[999], 1999.0);
    assert!(y.iter().enumerate().all(|(i, v)| *v == 2.0 * i as f64 + 1.0));

    // A non-blocking stream, events around the launch, pinned buffers with async copies.
    let stream = device.new_non_blocking_stream().unwrap();
    let xs: Vec<f32> = (0..512).map(|k| ((k * 37) % 509) as f32).collect();
    let pinned = PinnedBuffer::from_slice(device, &xs).unwrap();
    let mut dxs: DeviceArray<f32> = engine.zeros(&[512]).unwrap();
    pinned.copy_to_device_async(&mut dxs, &stream).unwrap();
    let out: DeviceArray<f32> = engine.zeros(&[4]).unwrap();
    let start = stream.record_event().unwrap();
    m.kernel("block_max").unwrap().launch_on(&stream, LaunchConfig::linear(4, 128), (&dxs, &out)).unwrap();
    let end = stream.record_event().unwrap();
    let mut back = PinnedBuffer::<f32>::zeros(device, 4).unwrap();
    back.copy_from_device_async(&out, &stream).unwrap();
    stream.synchronize().unwrap();
    assert!(start.elapsed_ms(&end).unwrap() >= 0.0);
    let want: Vec<f32> = xs.chunks(128).map(|c| c.iter().cloned().fold(f32::MIN, f32::max)).collect();
    assert_eq!(back.as_slice().unwrap(), &want[..]);
}

#[test]
fn limits_and_errors_come_where_a_gpu_gives_them() {
    let engine = engine();
    let m = engine.load("sim_api.py", SRC).unwrap();
    let dy = engine.zeros::<f64>(&[64]).unwrap();
    // A block the H200 cannot run: refused at launch, naming the limit.
    let e = m.kernel("past_the_end").unwrap().launch(LaunchConfig::linear(1, 2048), (&dy,)).unwrap_err();
    assert!(matches!(e, Error::Cuda { .. }), "{e}");
    assert!(e.to_string().contains("2048"), "{e}");
    // An access out of bounds: the launch returns, synchronize reports it with the thread
    // (bounds are always checked on cuda-sim, whatever the decorator says: its memory is the
    // host's).
    m.kernel("past_the_end").unwrap().launch(LaunchConfig::linear(2, 32), (&dy,)).unwrap();
    let e = engine.synchronize().unwrap_err();
    assert_eq!(e.python_exception(), Some("IndexError"), "{e}");
    assert!(e.to_string().contains("thread (31, 0, 0) of block (1, 0, 0)"), "{e}");
    engine.synchronize().expect("the error was reported once");
    // What the GPU target refuses, cuda-sim refuses too (a kernel it runs compiles for the GPU).
    let e = m.kernel("host_draws").unwrap().launch(LaunchConfig::linear(1, 32), (&dy,)).unwrap_err();
    assert!(e.to_string().contains("drawing from `random` or `np.random` in a kernel is not supported"), "{e}");
    assert!(e.to_string().contains("numba.cuda.random"), "{e}");
    // verify never compares the CPU with itself.
    let e = m.kernel("axpy").unwrap().verify(LaunchConfig::linear(1, 64), (1.0f64, &dy, &dy), None).unwrap_err();
    assert!(e.to_string().contains("never compares the CPU with itself"), "{e}");
}

#[test]
fn dlpack_exchanges_host_memory() {
    let engine = engine();
    let a = engine.to_device(&[1.5f32, 2.5, 3.5]).unwrap();
    let t = a.into_dlpack();
    // SAFETY: `t` is the managed tensor just exported; it is consumed once, below.
    let device_type = unsafe { (*t).dl_tensor.device.device_type };
    assert_eq!(device_type, dlpack::DL_CPU);
    // SAFETY: as above: a valid managed tensor, handed over.
    let back = unsafe { DeviceArray::<f32>::from_dlpack(engine.device().unwrap(), t) }.unwrap();
    assert_eq!(back.to_vec().unwrap(), vec![1.5, 2.5, 3.5]);
}

/// numba-cuda's `f(a, b)` on host arrays: the inputs are copied to the device, the ufunc runs,
/// and a host array of the loop's dtype comes back, of the inputs' broadcast shape. Expected
/// values: tests/kernels_cuda/cuda_ufuncs.py's (numba-cuda's simulator and GPU); those of the
/// broadcasts from the same `axpb` as a CPU `@vectorize` under Numba 0.68.1 (numba-cuda's
/// simulator has no CUDA ufuncs; ufuncs broadcast as NumPy on every Numba target).
#[test]
fn cuda_ufuncs_take_host_arrays_with_the_copies() {
    use twinjit::ArgValue;
    let engine = engine();
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kernels_cuda/cuda_ufuncs.py")).unwrap();
    let m = engine.load("cuda_ufuncs.py", &text).unwrap();
    let axpb = m.kernel("axpb").unwrap();
    let (a, b) = ([0.5f64, 1.0, -2.0, 3.25, 8.0], [1.0f64, 1.0, 0.5, -6.5, 0.0]);
    let r = axpb.call_ufunc_host(&[ArgValue::array(&a, &[5]), ArgValue::array(&b, &[5])]).unwrap();
    assert_eq!(r.dtype(), twinjit::ir::Scalar::Float64);
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![2.0, 3.0, -3.5, 0.0, 16.0]);
    // A 2-D input keeps its shape; a number broadcasts; float32 stays float32.
    let g = [1.5f32, 2.5, 3.5, 4.5, 5.5, 6.5];
    let r = axpb.call_ufunc_host(&[ArgValue::array(&g, &[2, 3]), ArgValue::F32(0.25)]).unwrap();
    assert_eq!(r.shape(), &[2, 3]);
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![3.25, 5.25, 7.25, 9.25, 11.25, 13.25]);
    // A one-element array first broadcasts against the longer one.
    let r = axpb.call_ufunc_host(&[ArgValue::array(&[2.0f64], &[1]), ArgValue::array(&b, &[5])]).unwrap();
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![5.0, 5.0, 4.5, -2.5, 4.0]);
    // NumPy's broadcasting: a row against a matrix, a column against a row, three dimensions,
    // and a (1, 1) array that makes the result two-dimensional.
    let m23 = [0.5f64, 1.0, -2.0, 3.25, 8.0, 1.5];
    let r =
        axpb.call_ufunc_host(&[ArgValue::array(&m23, &[2, 3]), ArgValue::array(&[1.0f64, 0.5, -6.5], &[3])]).unwrap();
    assert_eq!(r.shape(), &[2, 3]);
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![2.0, 2.5, -10.5, 7.5, 16.5, -3.5]);
    let col = [1.0f64, 2.0, 3.0];
    let row = [0.25f64, 0.5, 0.75, 1.0];
    let r = axpb.call_ufunc_host(&[ArgValue::array(&col, &[3, 1]), ArgValue::array(&row, &[4])]).unwrap();
    assert_eq!(r.shape(), &[3, 4]);
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![2.25, 2.5, 2.75, 3.0, 4.25, 4.5, 4.75, 5.0, 6.25, 6.5, 6.75, 7.0]);
    let e = [0.0f64, 1.0, 2.0, 3.0];
    let f = [10.0f64, 20.0, 30.0];
    let r = axpb.call_ufunc_host(&[ArgValue::array(&e, &[2, 1, 2]), ArgValue::array(&f, &[3, 1])]).unwrap();
    assert_eq!(r.shape(), &[2, 3, 2]);
    assert_eq!(
        r.to_vec::<f64>().unwrap(),
        vec![10.0, 12.0, 20.0, 22.0, 30.0, 32.0, 14.0, 16.0, 24.0, 26.0, 34.0, 36.0]
    );
    let r = axpb.call_ufunc_host(&[ArgValue::array(&[2.0f64], &[1, 1]), ArgValue::array(&b[..3], &[3])]).unwrap();
    assert_eq!(r.shape(), &[1, 3]);
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![5.0, 5.0, 4.5]);
    // int64 in, float64 out (the signature list's loop).
    let x = [0i64, 1, 4, -9, 16, -25, 100];
    let r = m.kernel("safe_sqrt").unwrap().call_ufunc_host(&[ArgValue::array(&x, &[7])]).unwrap();
    assert_eq!(r.to_vec::<f64>().unwrap(), vec![0.0, 1.0, 2.0, -3.0, 4.0, -5.0, 10.0]);
    // Empty inputs give an empty result.
    let none: [f64; 0] = [];
    let r = axpb.call_ufunc_host(&[ArgValue::array(&none, &[0]), ArgValue::array(&none, &[0])]).unwrap();
    assert_eq!(r.shape(), &[0]);
    // Errors: a length that does not broadcast, no loop for the dtypes, a plain kernel.
    let e = axpb.call_ufunc_host(&[ArgValue::array(&a, &[5]), ArgValue::array(&b[..2], &[2])]).unwrap_err();
    assert!(e.to_string().contains("operands could not be broadcast together with shapes (5,) (2,)"), "{e}");
    let ints = [1i32, 2, 3];
    let e = axpb.call_ufunc_host(&[ArgValue::array(&ints, &[3]), ArgValue::array(&ints, &[3])]).unwrap_err();
    assert!(e.to_string().contains("no loop of the signature list"), "{e}");
    let plain = engine
        .load("plain.py", "from numba import cuda\n@cuda.jit\ndef one(out):\n    out[0] = 1.0\n")
        .unwrap()
        .kernel("one")
        .unwrap();
    let e = plain.call_ufunc_host(&[ArgValue::array(&a, &[5])]).unwrap_err();
    assert!(e.to_string().contains("not a CUDA ufunc"), "{e}");
}
