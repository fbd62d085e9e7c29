//! `parallel=True` loops on the host: the same bits whatever the thread count, the interpreter's
//! result, errors from inside the loop, and what Numba refuses but twinjit runs (steps other
//! than 1). The corpus (`tests/kernels/prange_loops.py`) checks the results against Numba.

use std::sync::Once;
use twinjit::ir::interp::{ArrayData, ArrayRef, RtValue};
use twinjit::{Engine, EngineOptions, SourceModule, Target};

const SRC: &str = r#"
import math
import numpy as np
from numba import njit, prange

@njit(parallel=True)
def wavy_sum(n):
    s = 0.0
    for i in prange(n):
        s += math.sin(i) / (i + 1.0)
    return s

@njit(parallel=True)
def wavy_product(n):
    p = 1.0
    for i in prange(n):
        p *= 1.0 + math.sin(i) * 1e-3
    return p

@njit(parallel=True)
def gather(a, idx, out):
    for i in prange(idx.shape[0]):
        out[i] = a[idx[i]]
    return out.sum()

@njit(parallel=True)
def checked(a):
    s = 0.0
    for i in prange(a.shape[0]):
        if a[i] < 0:
            raise ValueError("negative at", i)
        s += a[i]
    return s

@njit(parallel=True)
def odd_sum(n):
    s = 0
    for i in prange(1, n, 2):
        s += i
    return s

@njit(parallel=True)
def reversed_fill(out):
    n = out.shape[0]
    for i in prange(n - 1, -1, -1):
        out[i] = n - i
    return out.sum()

@njit(parallel=True)
def racy_histogram(x, counts):
    for i in prange(x.shape[0]):
        counts[int(x[i] * counts.shape[0])] += 1  # twinjit: allow-race
    return counts.sum()

@njit(parallel=True)
def scratch(n):
    acc = 0.0
    for i in prange(n):
        t = np.empty(4)
        for k in range(4):
            t[k] = i + k
        if i == 3000:
            raise IndexError("stop")
        acc += t.sum()
    return acc
"#;

/// A pool of four threads, so the tests exercise 1, 2 and 4 on any machine. Every test calls
/// this before its first parallel loop (the pool is made by the first loop of the process).
fn four_threads() {
    static ONCE: Once = Once::new();
    // SAFETY: set once, before any thread of this test binary reads the environment for it.
    ONCE.call_once(|| unsafe { std::env::set_var("TWINJIT_NUM_THREADS", "4") });
}

fn engine() -> twinjit::Module {
    four_threads();
    Engine::new(Target::Host).unwrap().load("par.py", SRC).unwrap()
}

#[test]
fn float_reductions_give_the_same_bits_with_any_thread_count_and_in_the_interpreter() {
    let m = engine();
    let oracle = SourceModule::parse("par.py", SRC).unwrap();
    for (name, n) in [("wavy_sum", 100_000i64), ("wavy_sum", 1000), ("wavy_sum", 7), ("wavy_product", 50_000)] {
        let f = m.function(name).unwrap();
        let mut seen = Vec::new();
        for threads in [1, 2, 4] {
            assert!(
                twinjit::parallel::set_num_threads(threads),
                "the pool has {} threads",
                twinjit::parallel::max_threads()
            );
            assert_eq!(twinjit::parallel::get_num_threads(), threads);
            seen.push(f.call::<f64>((n,)).unwrap().to_bits());
        }
        assert!(seen.iter().all(|&b| b == seen[0]), "{name}({n}) differs between thread counts: {seen:?}");
        let RtValue::F64(o) = oracle.interpret(name, &[RtValue::I64(n)]).unwrap() else { panic!("a float") };
        assert_eq!(
            o.to_bits(),
            seen[0],
            "{name}({n}): the interpreter gives {o}, the host {}",
            f64::from_bits(seen[0])
        );
    }
    assert!(!twinjit::parallel::set_num_threads(0));
    assert!(!twinjit::parallel::set_num_threads(twinjit::parallel::max_threads() + 1));
}

#[test]
fn an_error_in_an_iteration_is_the_first_failing_iterations_whatever_the_thread_count() {
    let m = engine();
    let a: Vec<f64> = (0..10).map(|k| k as f64).collect();
    // Iterations 500 and 900 both index out of bounds; the error names the first.
    let mut idx: Vec<i64> = (0..1000).map(|k| k % 10).collect();
    idx[900] = 77;
    idx[500] = 12;
    for threads in [1, 2, 4] {
        twinjit::parallel::set_num_threads(threads);
        let mut out = vec![0.0; 1000];
        let e = m.function("gather").unwrap().call::<f64>((&a[..], &idx[..], &mut out[..])).unwrap_err();
        assert_eq!(e.python_exception(), Some("IndexError"), "{e}");
        assert!(e.to_string().contains("12"), "{threads} threads: {e}");
    }
    let oracle = SourceModule::parse("par.py", SRC).unwrap();
    let arr = |d: ArrayData, n: i64| RtValue::Array(ArrayRef::new(d, vec![n]).unwrap());
    let ie = oracle
        .interpret(
            "gather",
            &[
                arr(ArrayData::F64(a.clone()), 10),
                arr(ArrayData::I64(idx.clone()), 1000),
                arr(ArrayData::F64(vec![0.0; 1000]), 1000),
            ],
        )
        .unwrap_err();
    assert_eq!(ie.python_exception(), Some("IndexError"));

    let mut x: Vec<f64> = (0..5000).map(|k| k as f64).collect();
    x[4000] = -1.0;
    x[2500] = -2.0;
    let e = m.function("checked").unwrap().call::<f64>((&x[..],)).unwrap_err();
    assert_eq!(e.python_exception(), Some("ValueError"));
    assert_eq!(e.exception_message(), Some("('negative at', 2500)"));
}

#[test]
fn steps_other_than_one_run_as_range_would() {
    let m = engine();
    assert_eq!(m.function("odd_sum").unwrap().call::<i64>((1001i64,)).unwrap(), 250_000);
    assert_eq!(m.function("odd_sum").unwrap().call::<i64>((1i64,)).unwrap(), 0);
    let mut out = vec![0.0; 9];
    assert_eq!(m.function("reversed_fill").unwrap().call::<f64>((&mut out[..],)).unwrap(), 45.0);
    assert_eq!(out, [9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]);
}

#[test]
fn a_race_marked_as_intended_compiles() {
    let m = engine();
    // One thread: no lost updates, so the count is exact.
    twinjit::parallel::set_num_threads(1);
    let x: Vec<f64> = (0..100).map(|k| k as f64 / 100.0).collect();
    let mut counts = vec![0i64; 10];
    assert_eq!(m.function("racy_histogram").unwrap().call::<i64>((&x[..], &mut counts[..])).unwrap(), 100);
    assert_eq!(counts, [10; 10]);
    let unmarked = SRC.replace("  # twinjit: allow-race", "");
    // The module loads without it; asking for it gives the located error.
    let e = Engine::new(Target::Host).unwrap().load("par.py", &unmarked).unwrap();
    let err = e.function("racy_histogram").unwrap_err();
    assert!(err.to_string().contains("may write the same element of `counts`"), "{err}");
}

#[test]
fn what_a_failing_chunk_allocated_is_freed_and_the_engine_option_limits_threads() {
    four_threads();
    let options = EngineOptions { num_threads: Some(2), ..Default::default() };
    let m = Engine::with_options(Target::Host, options).unwrap().load("par.py", SRC).unwrap();
    let f = m.function("scratch").unwrap();
    // (0+1+2+3) + 4 * (0 + 1 + ... + 2999)
    assert_eq!(f.call::<f64>((3000i64,)).unwrap(), 6.0 * 3000.0 + 4.0 * (2999.0 * 3000.0 / 2.0));
    let e = f.call::<f64>((5000i64,)).unwrap_err();
    assert_eq!(e.python_exception(), Some("IndexError"));
    assert_eq!(e.exception_message(), Some("stop"));
    assert_eq!(twinjit::memory::stats().leaked, 0);
}

/// `parallel=True` without `prange`: an array expression's elementwise loop runs on the pool
/// (Numba's parfors for array expressions), and so does a `target='parallel'` ufunc's; the same
/// expression in a plain `@njit` function stays a loop.
#[test]
fn array_expressions_of_parallel_functions_run_on_the_pool() {
    let src = "import numpy as np\nfrom numba import njit, vectorize\n\n\
               @njit(parallel=True)\ndef par(x, y):\n    return np.sqrt(x * x + y * y) * 2.0\n\n\
               @njit\ndef serial(x, y):\n    return np.sqrt(x * x + y * y) * 2.0\n\n\
               @vectorize(['float64(float64)'], target='parallel')\ndef twice(x):\n    return 2.0 * x\n";
    let m = SourceModule::parse("pe.py", src).unwrap();
    let pfors = |name: &str, sig: &str| {
        let p = m.specialize(name, &twinjit::ir::parse_signature(sig).unwrap(), None).unwrap();
        p.functions
            .iter()
            .flat_map(|tf| tf.func.insts.iter())
            .filter(|d| matches!(d.kind, twinjit::ir::InstKind::ParallelFor(..)))
            .count()
    };
    assert_eq!(pfors("par", "(float64[::1], float64[::1])"), 1);
    assert_eq!(pfors("serial", "(float64[::1], float64[::1])"), 0);
    assert_eq!(pfors("twice", "(float64[::1],)"), 1);
    // And the results: 10 001 elements over four threads, equal to the serial function's.
    four_threads();
    let e = Engine::new(Target::Host).unwrap().load("pe.py", src).unwrap();
    let x: Vec<f64> = (0..10_001).map(|i| i as f64 * 0.5).collect();
    let y: Vec<f64> = (0..10_001).map(|i| (i % 7) as f64).collect();
    let a: twinjit::Array = e.function("par").unwrap().call((&x[..], &y[..])).unwrap();
    let b: twinjit::Array = e.function("serial").unwrap().call((&x[..], &y[..])).unwrap();
    assert_eq!(a.to_vec::<f64>(), b.to_vec::<f64>());
}
