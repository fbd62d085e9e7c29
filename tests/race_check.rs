//! The interpreter's race checker (issue 18's racecheck): racy versions of common
//! shared-memory and global-memory kernels fail with both threads, the element and both lines;
//! the correct versions (a barrier between the write and the other thread's read, a warp's
//! exchange between its lanes' accesses, atomics, a grid sync between blocks) run clean. The corpus's kernels all run with
//! the checker on too (`corpus_kernels_interp.rs`).

use twinjit::ir::interp::{ArrayRef, KernelLaunch, RtValue};
use twinjit::{Error, SourceModule};

const SRC: &str = r#"
from numba import cuda, float64, int32

@cuda.jit
def reverse(a):
    s = cuda.shared.array(64, float64)
    i = cuda.threadIdx.x
    s[i] = a[i]
    cuda.syncthreads()
    a[i] = s[63 - i]

@cuda.jit
def reverse_racy(a):
    s = cuda.shared.array(64, float64)
    i = cuda.threadIdx.x
    s[i] = a[i]
    a[i] = s[63 - i]

@cuda.jit
def block_sum(a, out):
    s = cuda.shared.array(64, float64)
    i = cuda.threadIdx.x
    s[i] = a[i]
    cuda.syncthreads()
    step = 32
    while step > 0:
        if i < step:
            s[i] += s[i + step]
        cuda.syncthreads()
        step //= 2
    if i == 0:
        out[0] = s[0]

@cuda.jit
def block_sum_racy(a, out):
    s = cuda.shared.array(64, float64)
    i = cuda.threadIdx.x
    s[i] = a[i]
    cuda.syncthreads()
    step = 32
    while step > 0:
        if i < step:
            s[i] += s[i + step]
        step //= 2
    if i == 0:
        out[0] = s[0]

@cuda.jit
def warp_sum(a, out):
    s = cuda.shared.array(32, float64)
    i = cuda.threadIdx.x
    s[i] = a[i]
    cuda.syncwarp()
    step = 16
    while step > 0:
        v = 0.0
        if i < step:
            v = s[i + step]
        cuda.syncwarp()
        if i < step:
            s[i] += v
        cuda.syncwarp()
        step //= 2
    if i == 0:
        out[0] = s[0]

@cuda.jit
def histogram(x, out):
    h = cuda.shared.array(4, int32)
    i = cuda.threadIdx.x
    if i < 4:
        h[i] = 0
    cuda.syncthreads()
    cuda.atomic.add(h, x[i] % 4, 1)
    cuda.syncthreads()
    if i < 4:
        out[i] = h[i]

@cuda.jit
def count_and_peek(seen):
    c = cuda.shared.array(1, int32)
    i = cuda.threadIdx.x
    if i == 0:
        c[0] = 0
    cuda.syncthreads()
    cuda.atomic.add(c, 0, 1)
    seen[i] = c[0]

@cuda.jit
def count_then_read(seen):
    c = cuda.shared.array(1, int32)
    i = cuda.threadIdx.x
    if i == 0:
        c[0] = 0
    cuda.syncthreads()
    cuda.atomic.add(c, 0, 1)
    cuda.syncthreads()
    seen[i] = c[0]

@cuda.jit
def reset_while_counting(total):
    if cuda.grid(1) == 5:
        total[0] = 0
    cuda.atomic.add(total, 0, 1)

@cuda.jit
def stencil(a, out):
    i = cuda.grid(1)
    if i < a.size - 1:
        out[i] = a[i] + a[i + 1]

@cuda.jit
def stencil_in_place(a):
    i = cuda.grid(1)
    if i < a.size - 1:
        a[i] = a[i] + a[i + 1]

@cuda.jit
def last_block_wins(out):
    if cuda.threadIdx.x == 0:
        out[0] = cuda.blockIdx.x

@cuda.jit
def shift_after_barrier(a, b):
    i = cuda.grid(1)
    a[i] = i * 2.0
    cuda.syncthreads()
    b[i] = a[(i + 1) % a.size]
"#;

fn module() -> SourceModule {
    SourceModule::parse("race.py", SRC).expect("parses")
}

fn f64s(xs: Vec<f64>) -> RtValue {
    let n = xs.len() as i64;
    RtValue::Array(ArrayRef::new(twinjit::ir::interp::ArrayData::F64(xs), vec![n]).expect("an array"))
}

fn i32s(xs: Vec<i32>) -> RtValue {
    let n = xs.len() as i64;
    RtValue::Array(ArrayRef::new(twinjit::ir::interp::ArrayData::I32(xs), vec![n]).expect("an array"))
}

fn launch(block: u32) -> KernelLaunch {
    KernelLaunch::linear(1, block)
}

fn elements(v: &RtValue) -> Vec<f64> {
    let RtValue::Array(a) = v else { panic!("an array") };
    let number = |x: RtValue| match x {
        RtValue::F64(v) => v,
        RtValue::I32(v) => f64::from(v),
        other => panic!("{other:?}"),
    };
    (0..a.shape[0]).map(|k| number(a.load(k).expect("an element"))).collect()
}

#[test]
fn correct_shared_memory_kernels_run_clean() {
    let m = module();
    let a = f64s((0..64).map(f64::from).collect());
    m.interpret_kernel("reverse", launch(64), std::slice::from_ref(&a), true).expect("no race");
    assert_eq!(elements(&a), (0..64).rev().map(f64::from).collect::<Vec<_>>());

    let (a, out) = (f64s((1..=64).map(f64::from).collect()), f64s(vec![0.0]));
    m.interpret_kernel("block_sum", launch(64), &[a, out.clone()], true).expect("no race");
    assert_eq!(elements(&out), [2080.0]);

    let (a, out) = (f64s((1..=32).map(f64::from).collect()), f64s(vec![0.0]));
    m.interpret_kernel("warp_sum", launch(32), &[a, out.clone()], true).expect("syncwarp orders a warp's lanes");
    assert_eq!(elements(&out), [528.0]);

    let (x, out) = (i32s((0..64).collect()), i32s(vec![0; 4]));
    m.interpret_kernel("histogram", launch(64), &[x, out.clone()], true).expect("atomics do not race");
    assert_eq!(elements(&out), [16.0; 4]);
}

/// The race is reported where the second access is, with the first one's line.
fn race(func: &str, args: &[RtValue], block: u32) -> String {
    let m = module();
    match m.interpret_kernel(func, launch(block), args, true) {
        Err(Error::Runtime { message, .. }) => message,
        other => panic!("{func}: expected a race, got {other:?}"),
    }
}

#[test]
fn racy_kernels_are_reported_with_both_threads_and_lines() {
    let a = f64s((0..64).map(f64::from).collect());
    let msg = race("reverse_racy", &[a], 64);
    // Threads run in order up to a barrier: thread 31 reads s[32] (`a[i] = s[63 - i]`) before
    // thread 32 writes it (`s[i] = a[i]`), with no barrier between.
    assert!(msg.contains("data race"), "{msg}");
    assert!(msg.contains("thread (32, 0, 0) writes element 32"), "{msg}");
    assert!(msg.contains("thread (31, 0, 0) read"), "{msg}");
    assert!(msg.contains("at race.py:16:5; the other access is at race.py:17:12"), "{msg}");

    let (a, out) = (f64s((1..=64).map(f64::from).collect()), f64s(vec![0.0]));
    let msg = race("block_sum_racy", &[a, out], 64);
    // Without the barrier in the loop thread 0 runs every step, reading s[1] in the last one,
    // before thread 1 adds into s[1] in its first: the first unordered pair is reported.
    assert!(
        msg.contains("thread (1, 0, 0) writes element 1 of a cuda.shared.array that thread (0, 0, 0) read"),
        "{msg}"
    );
    assert!(msg.contains("at race.py:43:13; the other access is at race.py:43:21"), "{msg}");

    // Without the checker the racy kernel runs (and gives the interpreter's order's answer).
    let a = f64s((0..64).map(f64::from).collect());
    module().interpret_kernel("reverse_racy", launch(64), &[a], false).expect("runs unchecked");
}

/// Global memory: the arguments' elements, for the whole launch. Blocks are unordered with each
/// other (a grid sync orders them; the corpus's `grid_sync.py` kernels run clean), threads of a
/// block are ordered by its barriers.
#[test]
fn global_memory_races_across_threads_and_blocks() {
    let m = module();
    let (a, out) = (f64s((0..64).map(f64::from).collect()), f64s(vec![0.0; 64]));
    m.interpret_kernel("stencil", KernelLaunch::linear(2, 32), &[a, out.clone()], true).expect("no race");
    assert_eq!(elements(&out)[..3], [1.0, 3.0, 5.0]);

    // Thread 0 reads a[1], which thread 1 then writes, with no barrier between.
    let a = f64s((0..64).map(f64::from).collect());
    let msg = race_in("stencil_in_place", &[a], KernelLaunch::linear(2, 32));
    assert!(
        msg.contains("thread (1, 0, 0) of block (0, 0, 0) writes element 1 of argument `a`, which thread (0, 0, 0) of block (0, 0, 0) read"),
        "{msg}"
    );

    let msg = race_in("last_block_wins", &[i32s(vec![0])], KernelLaunch::linear(3, 4));
    assert!(
        msg.contains(
            "of block (1, 0, 0) writes element 0 of argument `out`, which thread (0, 0, 0) of block (0, 0, 0) wrote"
        ),
        "{msg}"
    );

    // A barrier orders the threads of one block, not two blocks.
    let (a, b) = (f64s(vec![0.0; 32]), f64s(vec![0.0; 32]));
    m.interpret_kernel("shift_after_barrier", KernelLaunch::linear(1, 32), &[a, b.clone()], true).expect("one block");
    assert_eq!(elements(&b)[..2], [2.0, 4.0]);
    let (a, b) = (f64s(vec![0.0; 64]), f64s(vec![0.0; 64]));
    let msg = race_in("shift_after_barrier", &[a, b], KernelLaunch::linear(2, 32));
    assert!(msg.contains("element 32 of argument `a`") && msg.contains("(global memory)"), "{msg}");
}

fn race_in(func: &str, args: &[RtValue], l: KernelLaunch) -> String {
    match module().interpret_kernel(func, l, args, true) {
        Err(Error::Runtime { message, .. }) => message,
        other => panic!("{func}: expected a race, got {other:?}"),
    }
}

/// Atomics do not race with each other or with plain reads (a compare-and-swap loop starts from
/// a plain read; the corpus's `cas_max` runs clean), but an atomic and a plain write do.
#[test]
fn atomics_race_with_plain_writes() {
    let m = module();
    let seen = i32s(vec![0; 8]);
    m.interpret_kernel("count_then_read", KernelLaunch::linear(1, 8), std::slice::from_ref(&seen), true)
        .expect("a barrier between the updates and the reads");
    assert_eq!(elements(&seen), [8.0; 8]);
    m.interpret_kernel("count_and_peek", KernelLaunch::linear(1, 8), &[i32s(vec![0; 8])], true)
        .expect("reads beside atomics");

    let msg = race_in("reset_while_counting", &[i32s(vec![0])], KernelLaunch::linear(2, 4));
    assert!(
        msg.contains("thread (1, 0, 0) of block (1, 0, 0) writes element 0 of argument `total`, which thread (0, 0, 0) of block (0, 0, 0) atomically updated"),
        "{msg}"
    );
}
