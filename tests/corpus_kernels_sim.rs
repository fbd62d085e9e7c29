//! The CUDA kernel corpus (`tests/kernels_cuda/*.py`) on `cuda-sim`, the compiled CPU target
//! for kernels: every `# check:` launched there, bounds checks on, against the values
//! numba-cuda's simulator gave (the same checks and tolerances as the interpreter's run,
//! `corpus_kernels_interp.rs`), float16 kernels included.
//!
//! The tests after it check what only a launch can show: barrier divergence, a shuffle half a
//! warp skips, a raise in one thread, an index out of bounds, and that blocks running on
//! several host threads at once see real atomics.

mod common;

use common::kernel_corpus::{run_corpus, Run};
use twinjit::ir::interp::{ArrayData, ArrayRef, KernelLaunch, RtValue};
use twinjit::ir::Signature;
use twinjit::sim::SimKernel;
use twinjit::SourceModule;

#[test]
fn cuda_corpus_matches_the_simulator_on_cuda_sim() {
    let out = run_corpus(|module, program, args, launch| {
        let sig = Signature { args: args.iter().map(RtValue::ty).collect(), ret: None };
        match SimKernel::compile(module, &program.entry().source_name, &sig) {
            Ok(k) => Run::Ran(k.launch(args, launch)),
            Err(e) => Run::Failed(format!("cuda-sim compile failed:\n{e}")),
        }
    });
    let (ran, failures) = (out.ran, &out.failures);
    println!("CUDA kernel corpus on cuda-sim: {ran} checks in {} files, {} failed", out.files, failures.len());
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
    assert!(ran >= 40, "only {ran} checks found");
}

#[test]
fn the_corpus_has_no_races_on_cuda_sim() {
    let out = run_corpus(|module, program, args, launch| {
        let sig = Signature { args: args.iter().map(RtValue::ty).collect(), ret: None };
        match SimKernel::compile_race_checked(module, &program.entry().source_name, &sig) {
            Ok(k) => Run::Ran(k.launch(args, launch)),
            Err(e) => Run::Failed(format!("cuda-sim compile failed:\n{e}")),
        }
    });
    let (ran, failures) = (out.ran, &out.failures);
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
    assert!(ran >= 40, "only {ran} checks found");
}

const KERNELS: &str = r#"
import numpy as np
from numba import cuda


@cuda.jit
def sync_in_odd_threads(out):
    t = cuda.threadIdx.x
    if t % 2 == 1:
        cuda.syncthreads()
    out[t] = t


@cuda.jit
def shuffle_in_low_lanes(out):
    t = cuda.threadIdx.x
    v = t * 10
    if t < 8:
        v = cuda.shfl_xor_sync(0xffffffff, v, 1)
    else:
        v = cuda.shfl_up_sync(0xffffffff, v, 2)
    out[t] = v


@cuda.jit
def checked_sqrt(out, x):
    i = cuda.grid(1)
    if i < x.size:
        if x[i] < 0.0:
            raise ValueError("negative input")
        out[i] = x[i] ** 0.5


@cuda.jit
def one_past(out):
    i = cuda.grid(1)
    out[i + 1] = 1.0


@cuda.jit
def count_into(counter, hist, data):
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(counter, 0, 1)
        cuda.atomic.add(hist, data[i] % 16, 1)


@cuda.jit
def block_sum(out, x):
    buf = cuda.shared.array(256, dtype=np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


@cuda.jit
def block_sum_unsynced(out, x):
    buf = cuda.shared.array(256, dtype=np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else 0.0
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


@cuda.jit
def every_block_counts(c):
    if cuda.threadIdx.x == 0:
        c[0] += 1


@cuda.jit
def every_block_counts_atomically(c):
    if cuda.threadIdx.x == 0:
        cuda.atomic.add(c, 0, 1)


@cuda.jit
def count_in_odd_threads(out):
    t = cuda.threadIdx.x
    if t % 2 == 1:
        out[t] = cuda.syncthreads_count(1)
    else:
        cuda.syncthreads()
"#;

fn module() -> SourceModule {
    SourceModule::parse("sim_kernels.py", KERNELS).expect("the kernels parse")
}

fn array(data: ArrayData) -> RtValue {
    RtValue::Array(ArrayRef::from_vec(data))
}

/// The storage of an array argument after a launch.
fn storage(v: &RtValue) -> ArrayData {
    match v {
        RtValue::Array(a) => a.data.borrow().clone(),
        other => panic!("{other} is not an array"),
    }
}

fn error_of(func: &str, args: &[RtValue], launch: KernelLaunch) -> twinjit::Error {
    module().simulate_kernel(func, launch, args, false).expect_err("the launch fails")
}

#[test]
fn threads_that_return_release_a_barrier_as_on_a_gpu() {
    // PTX's `exit` releases a barrier that only exited threads hold up, and numba-cuda's
    // simulator drops finished threads from it: the even threads return, the odd ones meet.
    let out = array(ArrayData::I64(vec![-1; 32]));
    module()
        .simulate_kernel("sync_in_odd_threads", KernelLaunch::linear(1, 32), std::slice::from_ref(&out), false)
        .expect("runs");
    assert_eq!(storage(&out), ArrayData::I64((0..32).collect()));
}

#[test]
fn threads_at_different_barriers_are_divergence_not_a_hang() {
    let e = error_of("count_in_odd_threads", &[array(ArrayData::I64(vec![0; 32]))], KernelLaunch::linear(1, 32));
    let text = e.to_string();
    assert!(text.contains("barrier divergence"), "{text}");
    assert!(text.contains("cuda.syncthreads_count") && text.contains("cuda.syncthreads()"), "{text}");
    assert!(text.contains("sim_kernels.py:"), "{text}");
}

#[test]
fn a_shuffle_half_the_warp_skips_is_divergence() {
    let e = error_of("shuffle_in_low_lanes", &[array(ArrayData::I64(vec![0; 32]))], KernelLaunch::linear(1, 32));
    let text = e.to_string();
    assert!(text.contains("cuda.shfl_xor_sync with mask 0xffffffff names lane 8"), "{text}");
}

#[test]
fn a_raise_in_one_thread_names_the_thread_and_the_line() {
    let x: Vec<f64> = (0..100).map(|k| if k == 70 { -1.0 } else { k as f64 }).collect();
    let args = [array(ArrayData::F64(vec![0.0; 100])), array(ArrayData::F64(x))];
    let e = error_of("checked_sqrt", &args, KernelLaunch::linear(4, 32));
    assert_eq!(e.python_exception(), Some("ValueError"));
    let text = e.to_string();
    assert!(text.contains("negative input"), "{text}");
    assert!(text.contains("thread (6, 0, 0) of block (2, 0, 0)"), "{text}");
    assert!(text.contains("sim_kernels.py:30:"), "{text}");
}

#[test]
fn an_index_out_of_bounds_is_an_index_error() {
    let e = error_of("one_past", &[array(ArrayData::F32(vec![0.0; 64]))], KernelLaunch::linear(2, 32));
    assert_eq!(e.python_exception(), Some("IndexError"));
    let text = e.to_string();
    assert!(text.contains("index 64 is out of bounds for axis 0 with size 64"), "{text}");
    assert!(text.contains("thread (31, 0, 0) of block (1, 0, 0)"), "{text}");
}

#[test]
fn atomics_are_atomic_across_blocks_on_several_host_threads() {
    let n = 200_000usize;
    let data: Vec<i64> = (0..n as i64).map(|k| k * 7 + 3).collect();
    let counter = array(ArrayData::I64(vec![0]));
    let hist = array(ArrayData::I32(vec![0; 16]));
    let args = [counter.clone(), hist.clone(), array(ArrayData::I64(data.clone()))];
    let blocks = n.div_ceil(128) as u32;
    module().simulate_kernel("count_into", KernelLaunch::linear(blocks, 128), &args, false).expect("runs");
    assert_eq!(storage(&counter), ArrayData::I64(vec![n as i64]));
    let mut want = [0i32; 16];
    for d in &data {
        want[(d % 16) as usize] += 1;
    }
    assert_eq!(storage(&hist), ArrayData::I32(want.to_vec()));
}

#[test]
fn a_shared_memory_tree_reduction_sums_every_block() {
    let n = 1000usize;
    let x: Vec<f64> = (0..n).map(|k| k as f64).collect();
    let blocks = n.div_ceil(256);
    let out = array(ArrayData::F64(vec![0.0; blocks]));
    let args = [out.clone(), array(ArrayData::F64(x))];
    module().simulate_kernel("block_sum", KernelLaunch::linear(blocks as u32, 256), &args, false).expect("runs");
    let want: Vec<f64> = (0..blocks).map(|b| (b * 256..((b + 1) * 256).min(n)).map(|k| k as f64).sum()).collect();
    assert_eq!(storage(&out), ArrayData::F64(want));
}

fn race_of(func: &str, args: &[RtValue], launch: KernelLaunch) -> String {
    let e = module().simulate_kernel(func, launch, args, true).expect_err("a race");
    assert_eq!(e.python_exception(), Some("RuntimeError"));
    e.to_string()
}

#[test]
fn the_race_checker_finds_a_missing_barrier_in_shared_memory() {
    let args = || [array(ArrayData::F64(vec![0.0; 2])), array(ArrayData::F64((0..512).map(f64::from).collect()))];
    let text = race_of("block_sum_unsynced", &args(), KernelLaunch::linear(2, 256));
    // Thread 0 reads buf[128] before thread 128 writes it, with no barrier between: both
    // threads, both lines.
    assert!(text.contains("data race"), "{text}");
    let both = "thread (128, 0, 0) writes element 128 of a cuda.shared.array that thread (0, 0, 0) read";
    assert!(text.contains(both), "{text}");
    assert!(text.contains("sim_kernels.py:70:") && text.contains("sim_kernels.py:74:"), "{text}");
    // The version with the barrier is silent, and right.
    let a = args();
    module().simulate_kernel("block_sum", KernelLaunch::linear(2, 256), &a, true).expect("no race");
    assert_eq!(storage(&a[0]), ArrayData::F64(vec![32640.0, 98176.0]));
}

#[test]
fn the_race_checker_finds_blocks_that_race_in_global_memory() {
    let c = || [array(ArrayData::I64(vec![0]))];
    let text = race_of("every_block_counts", &c(), KernelLaunch::linear(4, 32));
    assert!(
        text.contains("thread (0, 0, 0) of block (1, 0, 0) reads element 0 of argument `c`, which thread (0, 0, 0) of block (0, 0, 0) wrote"),
        "{text}"
    );
    // One block: no race. Atomics: no race, and every block counted.
    module().simulate_kernel("every_block_counts", KernelLaunch::linear(1, 32), &c(), true).expect("one block");
    let a = c();
    module().simulate_kernel("every_block_counts_atomically", KernelLaunch::linear(4, 32), &a, true).expect("atomics");
    assert_eq!(storage(&a[0]), ArrayData::I64(vec![4]));
}
