//! Every `# check:` of the CUDA kernel corpus (`tests/kernels_cuda/*.py`) launched in the
//! reference interpreter (`interp::run_kernel`), bounds checks on. The expected arrays were
//! computed by Numba's CUDA simulator (`tests/kernels_cuda/verify_numba_cudasim.py` re-checks
//! them there); ints and bools must match exactly, floats exactly unless the kernel calls a
//! `math` function or `cuda.fma` (then within 1e-12 relative for float64 and 1e-6 for float32:
//! the simulator computes `math.*` in float64, GPUs and twinjit in the argument's type).
//!
//! The bad-kernel tests at the end check that divergent barriers, out-of-bounds accesses and
//! runaway launches come back as errors (never a hang or a panic).

mod common;

use common::kernel_corpus::{run_corpus, Run};
use twinjit::ir::interp::{run_kernel, InterpOptions, KernelLaunch, RtValue, RuntimeError, RuntimeErrorKind};
use twinjit::ir::Signature;
use twinjit::SourceModule;

/// Instructions per launch: far more than any corpus kernel needs, few enough that a kernel
/// that loops forever fails in seconds.
const FUEL: u64 = 50_000_000;

fn options() -> InterpOptions {
    InterpOptions { fuel: Some(FUEL), race_check: true, ..InterpOptions::default() }
}

#[test]
fn cuda_corpus_matches_the_simulator_in_the_interpreter() {
    let out = run_corpus(|_, program, args, launch| Run::Ran(run_kernel(program, args, launch, options())));
    let (ran, files, failures) = (out.ran, out.files, out.failures);
    println!("CUDA kernel corpus in the interpreter: {ran} checks in {files} files, {} failed", failures.len());
    assert!(failures.is_empty(), "{} of {ran} checks failed:\n{}", failures.len(), failures.join("\n"));
    assert!(ran >= 40, "only {ran} checks found");
}

// ---------------------------------------------------------------------------------------------
// Bad kernels: errors, never hangs.

const BAD: &str = r#"
import numpy as np
from numba import cuda


@cuda.jit
def half_sync(a):
    i = cuda.threadIdx.x
    if i < 16:
        cuda.syncthreads()
    a[i] = i


@cuda.jit
def early_return(a):
    i = cuda.grid(1)
    if i >= a.size:
        return
    a[i] = 1
    cuda.syncthreads()
    a[i] = 2


@cuda.jit
def mixed_barriers(a):
    i = cuda.threadIdx.x
    if i % 2 == 0:
        cuda.syncthreads()
    else:
        a[i] = cuda.syncthreads_count(1)


@cuda.jit
def split_shuffle(a):
    i = cuda.threadIdx.x
    v = a[i]
    if i < 16:
        v = cuda.shfl_down_sync(0xffffffff, v, 1)
    else:
        v = cuda.shfl_xor_sync(0xffffffff, v, 1)
    a[i] = v


@cuda.jit
def out_of_bounds(a):
    i = cuda.grid(1)
    a[i] = i


@cuda.jit
def spin(a):
    i = cuda.grid(1)
    k = 0
    while a[0] == 0:
        k += 1


@cuda.jit
def leader_skips_grid_sync(a):
    i = cuda.grid(1)
    if cuda.threadIdx.x == 0:
        return
    a[i] = 1
    cuda.cg.this_grid().sync()
    a[i] = 2


@cuda.jit
def block_skips_grid_sync(a):
    i = cuda.grid(1)
    if cuda.blockIdx.x == 1:
        return
    a[i] = 1
    cuda.cg.this_grid().sync()
    a[i] = 2


@cuda.jit(device=True)
def device_only(x):
    return x


@cuda.jit
def no_negatives(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        if a[i] < 0:
            raise ValueError("negative at", i)
        a[i] = a[i] * 2
"#;

fn bad_module() -> SourceModule {
    SourceModule::parse("bad_kernels.py", BAD).expect("bad kernels parse")
}

fn launch(module: &SourceModule, func: &str, args: &[RtValue], l: KernelLaunch) -> Result<(), RuntimeError> {
    launch_with(module, func, args, l, options())
}

fn launch_with(
    module: &SourceModule,
    func: &str,
    args: &[RtValue],
    l: KernelLaunch,
    options: InterpOptions,
) -> Result<(), RuntimeError> {
    let sig = Signature { args: args.iter().map(RtValue::ty).collect(), ret: None };
    let program = module.specialize(func, &sig, Some(true)).expect("compiles");
    run_kernel(&program, args, &l, options)
}

fn i64_array(n: usize) -> RtValue {
    RtValue::Array(twinjit::ir::interp::ArrayRef::from_vec(twinjit::ir::interp::ArrayData::I64(vec![0; n])))
}

fn divergence(e: &RuntimeError) -> &str {
    match &e.kind {
        RuntimeErrorKind::BarrierDivergence(m) => m,
        other => panic!("expected barrier divergence, got {other:?}: {e}"),
    }
}

/// The barrier-divergence message of launching `func` of `m` on an array of `n` zeros.
fn divergent_launch(m: &SourceModule, func: &str, n: usize, l: KernelLaunch) -> String {
    let e = launch(m, func, &[i64_array(n)], l).expect_err("the launch diverges");
    divergence(&e).to_string()
}

#[test]
fn threads_that_return_release_a_barrier_as_on_a_gpu() {
    // PTX's `exit` releases a barrier only exited threads hold up, and numba-cuda's simulator
    // drops finished threads from it: threads 16-31 return, 0-15 meet and go on.
    let m = bad_module();
    let a = i64_array(32);
    launch(&m, "half_sync", std::slice::from_ref(&a), KernelLaunch::linear(1, 32)).expect("runs");
    assert_eq!(a.to_string(), format!("[{}]", (0..32).map(|k| k.to_string()).collect::<Vec<_>>().join(", ")));
}

#[test]
fn early_return_before_a_barrier_runs() {
    let m = bad_module();
    // 40 elements, 2 blocks of 32: the second block's last 24 threads return early, as
    // numba-cuda's examples do (`if i >= n: return` before `cuda.syncthreads()`).
    let a = i64_array(40);
    launch(&m, "early_return", std::slice::from_ref(&a), KernelLaunch::linear(2, 32)).expect("runs");
    assert_eq!(a.to_string(), format!("[{}]", vec!["2"; 40].join(", ")));
}

#[test]
fn thread_0_returning_before_a_grid_sync_is_divergence() {
    // Thread 0 arrives at the grid barrier for its block: without it a GPU waits forever.
    let m = bad_module();
    let e = launch(&m, "leader_skips_grid_sync", &[i64_array(8)], KernelLaunch::linear(2, 4)).unwrap_err();
    let msg = divergence(&e);
    assert!(msg.contains("thread (0, 0, 0) of block (0, 0, 0) exited"), "{msg}");
    assert!(msg.contains("thread 0 arrives for its block"), "{msg}");
    assert_eq!(e.python_name(), "RuntimeError");
    assert!(e.describe(m.sources()).contains("bad_kernels.py:"), "{}", e.describe(m.sources()));
}

#[test]
fn a_block_that_skips_the_grid_sync_is_divergence() {
    let m = bad_module();
    // Block 1 returns at once; blocks 0 and 2 wait at the grid's sync: a hang on a GPU.
    let msg = divergent_launch(&m, "block_skips_grid_sync", 12, KernelLaunch::linear(3, 4));
    assert!(msg.contains("block (1, 0, 0) returned while this block waits at the grid's sync()"), "{msg}");
    // A single block that reaches it: fine, and the barrier resolves.
    let a = i64_array(4);
    launch(&m, "block_skips_grid_sync", std::slice::from_ref(&a), KernelLaunch::linear(1, 4)).expect("runs");
    assert_eq!(a.to_string(), "[2, 2, 2, 2]");
}

#[test]
fn different_barrier_kinds_are_divergence() {
    let msg = divergent_launch(&bad_module(), "mixed_barriers", 8, KernelLaunch::linear(1, 8));
    assert!(msg.contains("cuda.syncthreads_count") && msg.contains("cuda.syncthreads()"), "{msg}");
}

#[test]
fn a_shuffle_half_the_warp_skips_is_divergence() {
    let msg = divergent_launch(&bad_module(), "split_shuffle", 32, KernelLaunch::linear(1, 32));
    assert!(msg.contains("cuda.shfl_down_sync with mask 0xffffffff names lane 16"), "{msg}");
}

#[test]
fn out_of_bounds_with_boundscheck_is_an_index_error_with_the_thread() {
    let m = bad_module();
    let e = launch(&m, "out_of_bounds", &[i64_array(8)], KernelLaunch::linear(2, 8)).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::Index { index: 8, len: 8, axis: 0 });
    let t = e.thread.expect("thread recorded");
    assert_eq!((t.block, t.thread), ([1, 0, 0], [0, 0, 0]));
    assert!(e.to_string().contains("(thread (0, 0, 0) of block (1, 0, 0))"), "{e}");
}

#[test]
fn fuel_bounds_a_launch_that_never_ends() {
    let m = bad_module();
    // A million threads, each spinning forever: the launch-wide budget stops it.
    let l = KernelLaunch { grid: [1000, 1, 1], block: [1000, 1, 1], dynamic_shared_bytes: 0 };
    let budget = InterpOptions { fuel: Some(2_000_000), ..InterpOptions::default() };
    let e = launch_with(&m, "spin", &[i64_array(1)], l, budget).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::OutOfFuel);
    assert!(e.thread.is_some());
}

#[test]
fn bad_launches_are_errors() {
    let m = bad_module();
    let a = i64_array(4);
    let l = KernelLaunch { grid: [1, 1, 1], block: [2048, 1, 1], dynamic_shared_bytes: 0 };
    let e = launch(&m, "out_of_bounds", std::slice::from_ref(&a), l).unwrap_err();
    assert!(matches!(e.kind, RuntimeErrorKind::InvalidLaunch(_)), "{e}");
    let e = launch(&m, "out_of_bounds", std::slice::from_ref(&a), KernelLaunch::linear(0, 4)).unwrap_err();
    assert!(matches!(e.kind, RuntimeErrorKind::InvalidLaunch(_)), "{e}");
    // A device function is called, not launched.
    let sig = Signature { args: vec![twinjit::ir::Type::I64], ret: None };
    let p = m.specialize("device_only", &sig, None).expect("compiles");
    let e = run_kernel(&p, &[RtValue::I64(1)], &KernelLaunch::linear(1, 1), options()).unwrap_err();
    assert!(matches!(e.kind, RuntimeErrorKind::Unsupported(_)), "{e}");
    // Wrong argument count.
    let sig = Signature { args: vec![a.ty()], ret: None };
    let p = m.specialize("out_of_bounds", &sig, None).expect("compiles");
    let e = run_kernel(&p, &[], &KernelLaunch::linear(1, 1), options()).unwrap_err();
    assert!(matches!(e.kind, RuntimeErrorKind::InvalidLaunch(_)), "{e}");
}

/// A `raise` in a kernel stops the launch with the exception and the thread that raised it
/// (as numba-cuda's simulator and `debug=True` kernels do).
#[test]
fn a_kernel_raise_reports_the_exception_and_the_thread() {
    let m = bad_module();
    let a =
        RtValue::Array(twinjit::ir::interp::ArrayRef::from_vec(twinjit::ir::interp::ArrayData::I64(vec![1, 2, -3, 4])));
    let e = launch(&m, "no_negatives", std::slice::from_ref(&a), KernelLaunch::linear(1, 4)).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::Raised { class: "ValueError".into(), message: "('negative at', 2)".into() });
    assert_eq!(e.python_name(), "ValueError");
    assert!(e.thread.is_some() && e.to_string().contains("ValueError: ('negative at', 2) in `no_negatives`"), "{e}");
}

#[test]
fn cuda_builtins_outside_a_launch_are_unsupported() {
    let m = bad_module();
    let e = m.interpret("out_of_bounds", &[i64_array(4)]).unwrap_err();
    assert_eq!(e.python_exception(), Some("NotImplementedError"), "{e}");
}

#[test]
fn cuda_constructs_numba_refuses_are_compile_errors() {
    let text = r#"
import numpy as np
from numba import cuda


@cuda.jit
def bool_vote(a, out):
    i = cuda.grid(1)
    out[i] = cuda.syncthreads_count(a[i] > 0)


@cuda.jit
def float_cas(a):
    cuda.atomic.cas(a, 0, 1.0, 2.0)


@cuda.jit
def short_index(a):
    cuda.atomic.add(a, 0, 1)
"#;
    let m = SourceModule::parse("refused.py", text).expect("parses");
    let f64_1d = twinjit::ir::parse_type("float64[::1]").expect("type");
    let i64_1d = twinjit::ir::parse_type("int64[::1]").expect("type");
    let i64_2d = twinjit::ir::parse_type("int64[:, ::1]").expect("type");
    let cases = [
        ("bool_vote", vec![f64_1d.clone(), i64_1d], "takes an integer predicate"),
        ("float_cas", vec![f64_1d], "does not support arrays of float64"),
        ("short_index", vec![i64_2d], "needs 2 integer index(es)"),
    ];
    for (func, args, want) in cases {
        let e = m.specialize(func, &Signature { args, ret: None }, None).unwrap_err();
        assert!(e.to_string().contains(want), "{func}: {e}");
    }
}
