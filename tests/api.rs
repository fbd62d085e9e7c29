//! The embedding API: argument checking, errors as values, ndarray views, the dispatcher.

use std::sync::Arc;
use twinjit::{ArgValue, Engine, Error, RuntimeErrorKind, Target, Value};

const SRC: &str = r#"
import math
from numba import njit

@njit
def set_at(a, i, v):
    a[i] = v

@njit
def get_at(a, i):
    return a[i]

@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i + 1)
    return s

@njit
def pair(x):
    return x, x * 2.0

@njit(boundscheck=False)
def unchecked_len(a):
    return len(a)

@njit("float64(float64, float64)")
def hyp(a, b):
    return math.hypot(a, b)

@njit
def nothing(a):
    pass

STEP = 2

@njit
def ramp(a, start=1.0, step=STEP, up=True):
    for i in range(a.shape[0]):
        a[i] = start + i * step if up else start - i * step
"#;

fn module() -> twinjit::Module {
    Engine::new(Target::Host).unwrap().load("api.py", SRC).unwrap()
}

#[test]
fn out_of_bounds_write_is_an_index_error_and_the_process_lives_on() {
    let m = module();
    let mut a = vec![0.0f64; 4];
    let e = m.function("set_at").unwrap().call::<()>((&mut a[..], 4i64, 1.0f64)).unwrap_err();
    match &e {
        Error::Runtime { kind: RuntimeErrorKind::Index { index: 4, len: 4, axis: 0 }, function, location, .. } => {
            assert_eq!(function, "set_at");
            assert_eq!(location.as_deref(), Some("api.py:7:5"));
        }
        other => panic!("expected an IndexError, got {other:?}"),
    }
    assert!(e.to_string().contains("IndexError: index 4 is out of bounds for axis 0 with size 4"));
    // Negative indices wrap like Python; too negative is an error too.
    m.function("set_at").unwrap().call::<()>((&mut a[..], -1i64, 7.0f64)).unwrap();
    assert_eq!(a, [0.0, 0.0, 0.0, 7.0]);
    assert!(m.function("set_at").unwrap().call::<()>((&mut a[..], -5i64, 7.0f64)).is_err());
    // Empty arrays: every index is out of bounds.
    let empty: [f64; 0] = [];
    assert_eq!(
        m.function("get_at").unwrap().call::<f64>((&empty[..], 0i64)).unwrap_err().python_exception(),
        Some("IndexError")
    );
}

#[test]
fn argument_errors_name_the_parameter() {
    let m = module();
    let f = m.function("get_at").unwrap();
    let a = [1.0f64, 2.0];
    let e = f.call::<f64>((&a[..],)).unwrap_err();
    assert!(matches!(e, Error::Argument { .. }), "{e}");
    assert!(matches!(&e, Error::Argument { param: Some(p), .. } if p == "i"), "{e}");
    assert!(e.to_string().contains("missing 1 required argument: 'i'"), "{e}");
    let e = f.call::<f64>((&a[..], 0i64, 1i64)).unwrap_err();
    assert!(e.to_string().contains("takes 2 arguments (a, i) but 3 were given"), "{e}");
    // A float index is a type error located in the source.
    let e = f.call::<f64>((&a[..], 1.5f64)).unwrap_err();
    assert!(e.to_string().contains("array index must be an integer, a slice, None or ..., found float64"), "{e}");
    // A typed handle checks exact types and names the parameter.
    let spec = f.specialize((&a[..], 0i64)).unwrap();
    let e = spec.call_with::<f64>((&a[..], 0i32)).unwrap_err();
    assert!(e.to_string().contains("parameter `i`: expected int64, got int32"), "{e}");
    // The result type must convert.
    let e = f.call::<i64>((&a[..], 0i64)).unwrap_err();
    assert!(e.to_string().contains("does not convert to i64"), "{e}");
    // A read-only slice where the function writes is refused before running.
    let e = m.function("set_at").unwrap().call::<()>((&a[..], 0i64, 1.0f64)).unwrap_err();
    assert!(e.to_string().contains("parameter `a`: the function writes to this array"), "{e}");
    assert!(matches!(m.function("nope"), Err(Error::UnknownFunction { .. })));
}

#[test]
fn omitted_trailing_arguments_take_their_defaults() {
    let m = module();
    let f = m.function("ramp").unwrap();
    let mut a = [0.0f64; 3];
    f.call::<()>((&mut a[..],)).unwrap();
    assert_eq!(a, [1.0, 3.0, 5.0]);
    f.call::<()>((&mut a[..], 0.5f64)).unwrap();
    assert_eq!(a, [0.5, 2.5, 4.5]);
    f.call::<()>((&mut a[..], 0.0f64, 3i64, false)).unwrap();
    assert_eq!(a, [0.0, -3.0, -6.0]);
    // The specialisation's signature includes the defaulted parameters, typed as Numba types
    // the constants (int64, float64, bool); a call that spells them out shares it.
    let spec = f.specialize((&mut a[..],)).unwrap();
    assert_eq!(spec.signature().to_string(), "void(float64[::1], float64, int64, bool)");
    f.call::<()>((&mut a[..], 1.0f64, 2i64, true)).unwrap();
    assert_eq!(a, [1.0, 3.0, 5.0]);
    // A required parameter is still required, and named.
    let e = f.call::<()>(()).unwrap_err();
    assert!(matches!(&e, Error::Argument { param: Some(p), .. } if p == "a"), "{e}");
    assert!(e.to_string().contains("missing 1 required argument: 'a'"), "{e}");
    let e = f.call::<()>((&mut a[..], 1.0f64, 2i64, true, 0i64)).unwrap_err();
    assert!(e.to_string().contains("takes from 1 to 4 arguments (a, start, step, up) but 5 were given"), "{e}");
}

#[test]
fn ndarray_views_of_any_stride() {
    let m = module();
    let f = m.function("total").unwrap();
    let a = ndarray::Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
    let want: f64 = a.indexed_iter().map(|((i, _), v)| v * (i + 1) as f64).sum();
    assert_eq!(f.call::<f64>((a.view(),)).unwrap(), want);
    // A transposed (non-contiguous) view compiles an any-layout specialisation.
    let t = a.t();
    let want_t: f64 = t.indexed_iter().map(|((i, _), v)| v * (i + 1) as f64).sum();
    assert_eq!(f.call::<f64>((t,)).unwrap(), want_t);
    // Negative strides.
    let flipped = a.slice(ndarray::s![..;-1, ..]);
    let want_f: f64 = flipped.indexed_iter().map(|((i, _), v)| v * (i + 1) as f64).sum();
    assert_eq!(f.call::<f64>((flipped,)).unwrap(), want_f);
    // Writes through a mutable view of a column.
    let mut b = ndarray::Array2::<f64>::zeros((3, 2));
    m.function("set_at").unwrap().call::<()>((b.column_mut(1), 2i64, 5.0f64)).unwrap();
    assert_eq!(b[[2, 1]], 5.0);
}

#[test]
fn results_tuples_and_eager_signatures() {
    let m = module();
    let (a, b): (f64, f64) = m.function("pair").unwrap().call((1.5f64,)).unwrap();
    assert_eq!((a, b), (1.5, 3.0));
    let v: Value = m.function("pair").unwrap().call((2i64,)).unwrap();
    assert_eq!(v, Value::Tuple(vec![Value::I64(2), Value::F64(4.0)]));
    let h: f64 = m.function("hyp").unwrap().call((3.0f64, 4.0f64)).unwrap();
    assert_eq!(h, 5.0);
    let n: i64 = m.function("unchecked_len").unwrap().call((&[1i32, 2, 3][..],)).unwrap();
    assert_eq!(n, 3);
    m.function("nothing").unwrap().call::<()>((&[1.0f64][..],)).unwrap();
    // 2-D arrays from plain slices.
    let data = [1.0, 2.0, 3.0, 4.0];
    let s: f64 = m.function("total").unwrap().call((ArgValue::array(&data, &[2, 2]),)).unwrap();
    assert_eq!(s, 1.0 + 2.0 + 2.0 * (3.0 + 4.0));
    assert!(matches!(ArgValue::array(&data, &[3, 2]), ArgValue::Invalid(_)));
}

#[cfg(not(feature = "cuda"))]
#[test]
fn unavailable_targets_are_errors_never_fallbacks() {
    for t in [Target::Cuda { device: 0 }, Target::Ptx { arch: "sm_90".into() }] {
        match Engine::new(t.clone()) {
            Err(Error::TargetUnavailable { target, reason }) => {
                assert_eq!(target, t);
                assert!(reason.contains("--features cuda"), "{reason}");
            }
            other => panic!("expected TargetUnavailable for {t}, got {other:?}"),
        }
    }
}

/// With the CUDA target built: `Ptx` works anywhere (an unknown architecture is refused), and
/// `Cuda` is `TargetUnavailable` exactly when no driver or device is there, never a fallback.
#[cfg(feature = "cuda")]
#[test]
fn unavailable_targets_are_errors_never_fallbacks() {
    assert!(Engine::new(Target::Ptx { arch: "sm_90".into() }).is_ok());
    match Engine::new(Target::Ptx { arch: "sm_999".into() }) {
        Err(Error::TargetUnavailable { reason, .. }) => assert!(reason.contains("sm_999"), "{reason}"),
        other => panic!("expected TargetUnavailable, got {other:?}"),
    }
    let driver = twinjit::cuda::driver_available();
    match (Engine::new(Target::Cuda { device: 0 }), driver) {
        (Err(Error::TargetUnavailable { target, reason }), Err(why)) => {
            assert_eq!(target, Target::Cuda { device: 0 });
            assert!(reason.contains(&why), "{reason} vs {why}");
        }
        (Ok(engine), Ok(())) => {
            // A GPU is here: a host function is still refused on this engine (no CPU run).
            let m = engine.load("h.py", "from numba import njit\n@njit\ndef f(x):\n    return x\n").unwrap();
            match m.function("f").unwrap().call::<i64>((1i64,)) {
                Err(Error::TargetUnavailable { .. }) => {}
                other => panic!("a host function ran on a CUDA engine: {other:?}"),
            }
        }
        (r, d) => panic!("engine {r:?} disagrees with the driver check {d:?}"),
    }
    match Engine::new(Target::Cuda { device: 4096 }) {
        Err(Error::TargetUnavailable { target, .. }) => assert_eq!(target, Target::Cuda { device: 4096 }),
        other => panic!("expected TargetUnavailable for a missing device, got {other:?}"),
    }
}

#[test]
fn engine_is_send_sync_and_concurrent_first_calls_compile_once() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Engine>();
    assert_send_sync::<twinjit::Module>();
    assert_send_sync::<twinjit::Function>();
    let m = module();
    let f = m.function("pair").unwrap();
    let specs: Vec<Arc<twinjit::Specialization>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8).map(|_| s.spawn(|| f.specialize((1.0f64,)).unwrap())).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for s in &specs[1..] {
        assert!(Arc::ptr_eq(&specs[0], s), "a second specialisation was compiled");
    }
    // A different signature gets its own specialisation.
    let other = f.specialize((1i64,)).unwrap();
    assert!(!Arc::ptr_eq(&specs[0], &other));
}

#[test]
fn runtime_bad_input_gives_documented_results() {
    let src = r#"
import math
from numba import njit

@njit
def first(a):
    return a[0]

@njit
def total(a, n):
    s = 0.0
    for i in range(n):
        s += a[i]
    return s

@njit
def div(a, b):
    return a // b, a % b

@njit
def fdiv(x, y):
    return x / y

@njit
def nan_ops(x):
    return x + 1.0, math.isnan(x), math.sqrt(x), x < 0.0, int(x)
"#;
    let m = Engine::new(Target::Host).unwrap().load("bad_input.py", src).unwrap();
    // `a[0]` of a 2-D array is its first row (a view, returned as an owned array), and asking
    // for a number instead is an argument error, not a crash.
    let data = [1.0f64, 2.0, 3.0, 4.0];
    let first = m.function("first").unwrap();
    let row: twinjit::Array = first.call((ArgValue::array(&data, &[2, 2]),)).unwrap();
    assert_eq!((row.shape(), row.to_vec::<f64>()), (&[2usize][..], Some(vec![1.0, 2.0])));
    let e = first.call::<f64>((ArgValue::array(&data, &[2, 2]),)).unwrap_err();
    assert!(e.to_string().contains("which does not convert to f64"), "{e}");
    // Empty arrays and zero-length ranges.
    let empty: [f64; 0] = [];
    assert_eq!(m.function("total").unwrap().call::<f64>((&empty[..], 0i64)).unwrap(), 0.0);
    assert_eq!(m.function("total").unwrap().call::<f64>((&data[..], -5i64)).unwrap(), 0.0);
    assert_eq!(
        m.function("first").unwrap().call::<f64>((&empty[..],)).unwrap_err().python_exception(),
        Some("IndexError")
    );
    // Integer and float division by zero raise; i64::MIN // -1 wraps.
    assert_eq!(
        m.function("div").unwrap().call::<(i64, i64)>((7i64, 0i64)).unwrap_err().python_exception(),
        Some("ZeroDivisionError")
    );
    assert_eq!(m.function("div").unwrap().call::<(i64, i64)>((i64::MIN, -1i64)).unwrap(), (i64::MIN, 0));
    assert_eq!(
        m.function("fdiv").unwrap().call::<f64>((1.0f64, 0.0f64)).unwrap_err().python_exception(),
        Some("ZeroDivisionError")
    );
    assert_eq!(m.function("fdiv").unwrap().call::<f64>((f64::INFINITY, 2.0f64)).unwrap(), f64::INFINITY);
    // NaN flows through arithmetic and math; int(NaN) saturates to 0 (documented deviation).
    let (a, isnan, root, lt, i): (f64, bool, f64, bool, i64) =
        m.function("nan_ops").unwrap().call((f64::NAN,)).unwrap();
    assert!(a.is_nan() && isnan && root.is_nan() && !lt && i == 0);
    let (_, _, root, _, i): (f64, bool, f64, bool, i64) =
        m.function("nan_ops").unwrap().call((f64::NEG_INFINITY,)).unwrap();
    assert!(root.is_nan() && i == i64::MIN);
}

#[test]
fn unbounded_recursion_is_a_recursion_error_not_a_stack_overflow() {
    let src = "from numba import njit\n\n@njit\ndef down(n):\n    if n == 0:\n        return 0\n    return 1 + down(n - 1)\n\n@njit\ndef forever(n):\n    return forever(n + 1) + 1\n\n@njit\ndef ping(n):\n    return 0 if n == 0 else pong(n - 1)\n\n@njit\ndef pong(n):\n    return ping(n)\n";
    let m = Engine::new(Target::Host).unwrap().load("rec.py", src).unwrap();
    assert_eq!(m.function("down").unwrap().call::<i64>((500i64,)).unwrap(), 500);
    let e = m.function("down").unwrap().call::<i64>((100_000i64,)).unwrap_err();
    assert_eq!(e.python_exception(), Some("RecursionError"), "{e}");
    // No base case reachable at run time (typing succeeds through the `0` branch of nothing:
    // `forever` has none, so it is a compile error instead).
    assert!(m.function("forever").unwrap().call::<i64>((1i64,)).is_err());
    // Mutual recursion counts too.
    assert_eq!(m.function("ping").unwrap().call::<i64>((10i64,)).unwrap(), 0);
    assert_eq!(
        m.function("ping").unwrap().call::<i64>((1_000_000i64,)).unwrap_err().python_exception(),
        Some("RecursionError")
    );
    // The same specialisation still works afterwards (the depth counter is per call).
    assert_eq!(m.function("down").unwrap().call::<i64>((3i64,)).unwrap(), 3);
    // And the interpreter agrees (its own frame stack: no Rust stack overflow either).
    let oracle = twinjit::SourceModule::parse("rec.py", src).unwrap();
    let r = oracle.interpret("down", &[twinjit::ir::interp::RtValue::I64(100_000)]);
    assert_eq!(r.unwrap_err().python_exception(), Some("RecursionError"));
    let r = oracle.interpret("down", &[twinjit::ir::interp::RtValue::I64(900)]).unwrap();
    assert_eq!(r.to_string(), "900");
}

/// A refused function (the `target_backend='cuda'` trap) is listed by `Module::refused`, asking
/// for it gives its located compile error, and the module's other functions run.
#[test]
fn refused_functions_are_errors_and_their_neighbours_run() {
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine.load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/timing_trap.py")).unwrap();
    let refused = m.refused();
    assert_eq!(refused.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["scaled_sum_gpu"]);
    let err = m.function("scaled_sum_gpu").unwrap_err();
    assert!(matches!(err, Error::Compile(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("target_backend") && text.contains("@cuda.jit") && text.contains("timing_trap.py:"),
        "{text}"
    );
    assert!(!m.function_names().contains(&"scaled_sum_gpu".to_string()));
    let s: f64 = m.function("scaled_sum").unwrap().call((&[1.0, 2.0, 3.5][..], 2.0f64)).unwrap();
    assert_eq!(s, 13.0);
}

/// A function typed in its decorator is never compiled for other types: `call` converts the
/// arguments to the declared signature (as Numba does), `specialize` picks that signature and
/// its handle takes the converted arguments; no declared signature fits → an argument error.
#[test]
fn declared_signatures_convert_arguments() {
    let engine = Engine::new(Target::Host).unwrap();
    let src =
        "from numba import njit\n\n@njit([\"float32(float32)\", \"int64(int64)\"])\ndef ident(x):\n    return x\n";
    let m = engine.load("declared.py", src).unwrap();
    let f = m.function("ident").unwrap();
    let y: f32 = f.call((12.2f64,)).unwrap();
    assert_eq!(y, 12.2f32);
    assert_eq!(f.specialize((3i64,)).unwrap().signature().to_string(), "int64(int64)");
    // float64 converts to either unsafely: the first declared wins.
    let spec = f.specialize((2.5f64,)).unwrap();
    assert_eq!(spec.signature().to_string(), "float32(float32)");
    let args = spec.convert(&[ArgValue::F64(2.5)]);
    assert!(matches!(args[..], [ArgValue::F32(x)] if x == 2.5));
    let r: f32 = spec.call(&args).unwrap();
    assert_eq!(r, 2.5);
    let e = f.call::<f64>((&[1.0f64][..],)).unwrap_err();
    assert!(e.to_string().contains("no matching definition"), "{e}");
}

/// `EngineOptions::compile_plain_functions`: undecorated functions compile as `njit(pyfunc)`
/// would (and call each other); one that does not compile is refused, the rest run. Off (the
/// default, as in Numba) they are not functions of the module.
#[test]
fn plain_functions_compile_as_njit_pyfunc_when_asked() {
    let src = "import sys\n\ndef usecase(a, b):\n    return a * b + 1\n\n\
               def caller(n):\n    return usecase(n, 2)\n\ndef uses_with(x):\n    with x:\n        return 1\n\n\
               def uses_gen(x):\n    yield x\n";
    let options = twinjit::EngineOptions { compile_plain_functions: true, ..Default::default() };
    let engine = Engine::with_options(Target::Host, options).unwrap();
    let m = engine.load("plain.py", src).unwrap();
    assert_eq!(m.function_names(), ["usecase", "caller"]);
    // A generator compiles only inlined into the loops that iterate it: not a function of the
    // module, and not an error of it either.
    assert_eq!(m.refused().iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["uses_with"]);
    let Err(e) = m.function("uses_gen") else { panic!("a generator is not a function on its own") };
    assert!(e.to_string().contains("only as the iterable of a `for` loop"), "{e}");
    let r: i64 = m.function("caller").unwrap().call((20i64,)).unwrap();
    assert_eq!(r, 41);
    let plain = Engine::new(Target::Host).unwrap().load("plain.py", src).unwrap();
    assert!(plain.function_names().is_empty() && plain.refused().is_empty());
    assert!(matches!(plain.function("usecase"), Err(Error::UnknownFunction { .. })));
}

/// `raise` and `assert` come back as runtime errors with the Python class, the message and
/// the location of the raise, from a builtin class, a module class and a failed assert.
#[test]
fn raised_exceptions_carry_class_message_and_location() {
    let src = "from numba import njit\n\n\nclass NegativeError(ValueError):\n    pass\n\n\n\
               @njit\ndef root(x):\n    if x < 0:\n        raise NegativeError(\"negative input\", x)\n    return x ** 0.5\n\n\n\
               @njit\ndef positive(x):\n    assert x > 0\n    return x\n\n\n\
               @njit\ndef calls(x):\n    return root(x) + 1.0\n";
    let m = Engine::new(Target::Host).unwrap().load("exc.py", src).unwrap();
    assert_eq!(m.function("root").unwrap().call::<f64>((4.0f64,)).unwrap(), 2.0);
    let e = m.function("root").unwrap().call::<f64>((-2.5f64,)).unwrap_err();
    assert_eq!(e.python_exception(), Some("NegativeError"));
    assert_eq!(e.exception_message(), Some("('negative input', -2.5)"));
    let Error::Runtime { kind, function, location, message } = &e else { panic!("{e:?}") };
    assert_eq!(
        kind,
        &RuntimeErrorKind::Raised { class: "NegativeError".into(), message: "('negative input', -2.5)".into() }
    );
    assert_eq!((function.as_str(), location.as_deref()), ("root", Some("exc.py:11:9")));
    assert_eq!(message, "NegativeError: ('negative input', -2.5) in `root` at exc.py:11:9");
    // Raised in a callee: the callee's location.
    let e = m.function("calls").unwrap().call::<f64>((-1.0f64,)).unwrap_err();
    assert_eq!(e.to_string(), "NegativeError: ('negative input', -1.0) in `root` at exc.py:11:9");
    // A failed assert without a message shows only the class, as Python does.
    let e = m.function("positive").unwrap().call::<i64>((0i64,)).unwrap_err();
    assert_eq!((e.python_exception(), e.exception_message()), (Some("AssertionError"), Some("")));
    assert_eq!(e.to_string(), "AssertionError in `positive` at exc.py:17:5");
    // The interpreter reports the same error.
    let sm = twinjit::SourceModule::parse("exc.py", src).unwrap();
    let i = sm.interpret("root", &[twinjit::ir::interp::RtValue::F64(-2.5)]).unwrap_err();
    assert_eq!(i.to_string(), "NegativeError: ('negative input', -2.5) in `root` at exc.py:11:9");
}

/// Operands that do not broadcast: Numba's `ValueError` naming the operand, with both shapes
/// (run-time values in the message), from compiled code and from the interpreter alike; the
/// output's shape is the first operand's along each axis, so the second operand is the one
/// named, as in Numba.
#[test]
fn broadcast_errors_name_both_shapes() {
    let src = "import numpy as np\nfrom numba import njit\n\n\n\
               @njit\ndef add(a, b):\n    return a + b * 2.0\n\n\n\
               @njit\ndef add3(a, b):\n    return (a + b).sum()\n";
    let m = Engine::new(Target::Host).unwrap().load("bc.py", src).unwrap();
    let a = ndarray::Array2::<f64>::zeros((2, 3));
    let b = ndarray::Array2::<f64>::zeros((4, 1));
    let e = m.function("add").unwrap().call::<twinjit::Array>((a.view(), b.view())).unwrap_err();
    let want = "unable to broadcast argument 1 of shape (4, 1) to output array of shape (2, 3)";
    assert_eq!((e.python_exception(), e.exception_message()), (Some("ValueError"), Some(want)));
    // A 1-D operand against a 2-D one, fused into a reduction.
    let c = ndarray::Array1::<f64>::zeros(5);
    let e = m.function("add3").unwrap().call::<f64>((a.view(), c.view())).unwrap_err();
    let want3 = "unable to broadcast argument 1 of shape (5,) to output array of shape (2, 3)";
    assert_eq!(e.exception_message(), Some(want3));
    // The interpreter says the same.
    let sm = twinjit::SourceModule::parse("bc.py", src).unwrap();
    use twinjit::ir::interp::{ArrayData, ArrayRef, RtValue};
    let arr = |shape: Vec<i64>| {
        let n = shape.iter().product::<i64>() as usize;
        RtValue::Array(ArrayRef::new(ArrayData::F64(vec![0.0; n]), shape).expect("a shape"))
    };
    let i = sm.interpret("add", &[arr(vec![2, 3]), arr(vec![4, 1])]).unwrap_err();
    assert!(i.to_string().starts_with(&format!("ValueError: {want} in `add`")), "{i}");
}

/// Returned arrays as `ndarray` values (a borrowed view with the array's own strides, negative
/// and transposed ones included, and an owned C-ordered copy), and returned lists as
/// `Value::List`, whose arrays stay valid after the list is released.
#[test]
fn returned_arrays_and_lists_reach_rust() {
    let src = "import numpy as np\nfrom numba import njit\n\n\n\
               @njit\ndef views(n):\n    a = np.arange(n * 3).reshape(n, 3)\n    return a[::-1, ::2], a.T\n\n\n\
               @njit\ndef parts(n):\n    out = []\n    for i in range(n):\n        out.append((i, np.full(i + 1, 0.5 * i)))\n    return out\n";
    let m = Engine::new(Target::Host).unwrap().load("to_rust.py", src).unwrap();
    let (rev, t): (twinjit::Array, twinjit::Array) = m.function("views").unwrap().call((2i64,)).unwrap();
    let v = rev.view::<i64>().expect("int64 elements");
    assert_eq!(v.shape(), &[2, 2]);
    assert_eq!(v.iter().copied().collect::<Vec<i64>>(), vec![3, 5, 0, 2]);
    assert!(rev.view::<f64>().is_none(), "a view of another dtype is refused");
    let tt = t.to_ndarray::<i64>().expect("int64 elements");
    assert_eq!(tt, ndarray::arr2(&[[0i64, 3], [1, 4], [2, 5]]).into_dyn());
    let before = twinjit::memory::stats();
    let Value::List(items) = m.function("parts").unwrap().call::<Value>((3i64,)).unwrap() else { panic!("a list") };
    assert_eq!(items.len(), 3);
    let Value::Tuple(last) = &items[2] else { panic!("tuples") };
    assert_eq!(last[0], Value::I64(2));
    let Value::Array(a) = &last[1] else { panic!("an array") };
    assert_eq!(a.to_vec::<f64>(), Some(vec![1.0, 1.0, 1.0]));
    drop(items);
    let after = twinjit::memory::stats();
    assert_eq!(after.allocated - before.allocated, after.freed - before.freed, "everything freed");
    assert_eq!(after.leaked, before.leaked);
}

#[test]
fn narrow_integers_tuples_and_none_cross_the_api() {
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine
        .load(
            "widths.py",
            r#"
import numpy as np
from numba import njit

@njit
def checksum(data, seed):
    h = seed
    for b in data:
        h = (h ^ np.uint64(b)) * np.uint64(1099511628211)
    return h

@njit
def halve(img):
    return img // np.uint8(2)

@njit
def pick(t, default=None):
    a, b = t
    if default is None:
        return a + b
    return default
"#,
        )
        .unwrap();
    // u8 slice in, u64 scalar in and out (wrapping multiplication).
    let h: u64 = m.function("checksum").unwrap().call((&[1u8, 2, 3][..], 14695981039346656037u64)).unwrap();
    let mut want = 14695981039346656037u64;
    for b in [1u64, 2, 3] {
        want = (want ^ b).wrapping_mul(1099511628211);
    }
    assert_eq!(h, want);
    // A uint8 array comes back as a uint8 array (uint8 // uint8 is uint8; // 2 would be int64).
    let a: twinjit::Array = m.function("halve").unwrap().call((&[255u8, 7, 0][..],)).unwrap();
    assert_eq!(a.dtype(), twinjit::ir::Scalar::UInt8);
    assert_eq!(a.to_vec::<u8>().unwrap(), vec![127, 3, 0]);
    assert_eq!(a.to_string(), "[127, 3, 0]");
    // A uint64 array prints exactly (no float64 rounding).
    let big: twinjit::Array = m.function("halve").unwrap().call((&[u64::MAX][..],)).unwrap();
    assert_eq!(big.to_string(), "[9223372036854775807]");
    // Tuples and None as arguments; an omitted None default.
    let f = m.function("pick").unwrap();
    let t = [ArgValue::I64(2), ArgValue::I64(5)];
    assert_eq!(f.call::<i64>(&[ArgValue::Tuple(&t), ArgValue::None][..]).unwrap(), 7);
    assert_eq!(f.call::<i64>(&[ArgValue::Tuple(&t)][..]).unwrap(), 7);
    assert_eq!(f.call::<i64>(&[ArgValue::Tuple(&t), ArgValue::I64(9)][..]).unwrap(), 9);
    // A tuple holding an array is refused with a message, not a crash.
    let data = [1.0f64];
    let bad = [ArgValue::array(&data, &[1]), ArgValue::I64(1)];
    assert!(f.call::<i64>(&[ArgValue::Tuple(&bad)][..]).is_err());
}

#[test]
fn complex_scalars_and_arrays_cross_the_api() {
    use twinjit::{Complex32, Complex64};
    let src = "import cmath\nfrom numba import njit\n\n@njit\ndef rot(z, a):\n    for i in range(a.shape[0]):\n        a[i] = a[i] * z\n    return cmath.sqrt(z), abs(z)\n\n@njit\ndef conj32(z):\n    return z.conjugate()\n";
    let m = Engine::new(Target::Host).unwrap().load("cx.py", src).unwrap();
    let mut a = [Complex64::new(1.0, 0.0), Complex64::new(0.0, 2.0)];
    let (r, h): (Complex64, f64) = m.function("rot").unwrap().call((Complex64::new(0.0, 4.0), &mut a[..])).unwrap();
    // Numba (NumPy's csqrt: t = sqrt(2), then 4 / 2t) gives (1.4142135623730951+1.414213562373095j).
    let t = std::f64::consts::SQRT_2;
    assert_eq!((r, h), (Complex64::new(t, 4.0 / (2.0 * t)), 4.0));
    assert_eq!(r.im.to_string(), "1.414213562373095");
    assert_eq!(a, [Complex64::new(0.0, 4.0), Complex64::new(-8.0, 0.0)]);
    let c: Complex32 = m.function("conj32").unwrap().call((Complex32::new(1.5, -2.0),)).unwrap();
    assert_eq!(c, Complex32::new(1.5, 2.0));
    let v: Value = m.function("conj32").unwrap().call((Complex64::new(0.0, 1.0),)).unwrap();
    assert_eq!(v.to_string(), "-1j");
}

/// A function that writes an argument only through a view of it, a callee's returned alias or
/// a list element still refuses a shared slice: `&[T]` promises Rust that nothing writes it.
#[test]
fn writes_through_views_aliases_and_lists_need_a_mutable_array() {
    let src = r#"
from numba import njit

@njit
def tail_zero(a):
    t = a[1:]
    t[0] = 0.0

@njit
def same(a):
    return a

@njit
def via_callee(a):
    b = same(a)
    b[0] = 9.0

@njit
def via_list(a):
    xs = [a]
    xs[0][0] = 2.0

@njit
def reads(a):
    t = a[1:]
    return t[0] + same(a)[0]
"#;
    let m = Engine::new(Target::Host).unwrap().load("views.py", src).unwrap();
    for name in ["tail_zero", "via_callee", "via_list"] {
        let e = m.function(name).unwrap().call::<()>((&[1.0f64, 2.0, 3.0][..],)).unwrap_err();
        assert!(e.to_string().contains("pass it mutably"), "{name}: {e}");
        let mut a = [1.0f64, 2.0, 3.0];
        m.function(name).unwrap().call::<()>((&mut a[..],)).unwrap();
        assert_ne!(a, [1.0, 2.0, 3.0], "{name} wrote nothing");
    }
    let r: f64 = m.function("reads").unwrap().call((&[1.0f64, 2.0, 3.0][..],)).unwrap();
    assert_eq!(r, 3.0);
}

/// Namedtuple defaults follow Python (`namedtuple(..., defaults=...)` and class-level field
/// defaults of `typing.NamedTuple`). Numba 0.68 ignores them (it builds a shorter tuple), so
/// these values are CPython's, not from the Numba corpus.
#[test]
fn namedtuple_defaults_fill_omitted_fields_as_python_does() {
    let src = r#"
from collections import namedtuple
from typing import NamedTuple
from numba import njit

Range = namedtuple("Range", "lo hi step", defaults=(10, 1))

class Body(NamedTuple):
    x: float
    m: float = 2.5

@njit
def ranges(a):
    r = Range(a)
    s = Range(a, 5)
    return r.lo, r.hi, r.step, s.hi, s.step

@njit
def body(x):
    b = Body(x)
    return b.x * b.m
"#;
    let m = Engine::new(Target::Host).unwrap().load("nt.py", src).unwrap();
    let v: Value = m.function("ranges").unwrap().call((3i64,)).unwrap();
    assert_eq!(v, Value::Tuple([3, 10, 1, 5, 1].map(Value::I64).to_vec()));
    let b: f64 = m.function("body").unwrap().call((2.0f64,)).unwrap();
    assert_eq!(b, 5.0);
}

/// numba.cuda.random's draws also compile for the host (Numba's CPU `@njit` runs them too):
/// states from `twinjit::xoroshiro128p_states`, the estimate Numba 0.68.1 prints for the same
/// seed (3.14592).
#[test]
fn xoroshiro_draws_on_the_host_give_numbas_numbers() {
    let src = r#"
from numba import njit
from numba.cuda.random import xoroshiro128p_uniform_float32

@njit
def host_pi(states, iterations):
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(states, 0)
        y = xoroshiro128p_uniform_float32(states, 0)
        if x ** 2 + y ** 2 <= 1.0:
            inside += 1
    return 4.0 * inside / iterations
"#;
    let m = Engine::new(Target::Host).unwrap().load("mc.py", src).unwrap();
    let mut states = twinjit::xoroshiro128p_states(1, 1, 0);
    let pi: f64 = m.function("host_pi").unwrap().call((ArgValue::array_mut(&mut states, &[1, 2]), 100_000i64)).unwrap();
    assert_eq!(pi, 3.14592);
}

/// `@vectorize` and `@guvectorize` from Rust: numbers give a number, slices and ndarray views
/// (any stride) give a new array with NumPy's broadcasting, `out=` is written in place, and a
/// gufunc allocates its outputs or writes the ones passed. Expected values are plain
/// arithmetic on the inputs.
#[test]
fn ufuncs_are_called_from_rust_on_numbers_slices_and_views() {
    let src = r#"
import math
from numba import vectorize, guvectorize, float64

@vectorize(["float64(float64, float64)"])
def hyp(x, y):
    return math.sqrt(x * x + y * y)

@vectorize(["float64(float64)"], target="parallel")
def twice(x):
    return 2.0 * x

@guvectorize([(float64[:], float64[:])], "(n)->()")
def total(x, res):
    s = 0.0
    for v in x:
        s += v
    res[0] = s
"#;
    let m = Engine::new(Target::Host).unwrap().load("ufuncs.py", src).unwrap();
    let hyp = m.function("hyp").unwrap();
    let h: f64 = hyp.call((3.0f64, 4.0f64)).unwrap();
    assert_eq!(h, 5.0);
    // An int64 scalar is cast to the float64 loop; a slice broadcasts against it.
    let a: twinjit::Array = hyp.call((&[3.0f64, 5.0, 0.0][..], 4i64)).unwrap();
    assert_eq!(a.to_vec::<f64>(), Some(vec![5.0, 41f64.sqrt(), 4.0]));
    // A strided 2-D view with a column: (2, 1) against (3,) is (2, 3).
    let base = ndarray::arr2(&[[3.0f64, 0.0, 6.0, 0.0, 8.0, 0.0], [1.0; 6]]);
    let col = ndarray::arr2(&[[4.0f64], [6.0]]);
    let row = base.slice(ndarray::s![0, ..;2]);
    let b: twinjit::Array = hyp.call((col.view().into_dyn(), row.into_dyn())).unwrap();
    let got = b.to_ndarray::<f64>().unwrap();
    assert_eq!(got.shape(), &[2, 3]);
    assert_eq!(got[[0, 0]], 5.0);
    assert_eq!(got[[1, 1]], 72f64.sqrt());
    assert_eq!(got[[1, 2]], 10.0);
    // `out=`: written in place and returned (as a copy; `Ignored` takes no copy).
    let mut out = [0.0f64; 3];
    let back: twinjit::Array = hyp.call((&[6.0f64, 0.0, 5.0][..], 8.0f64, &mut out[..])).unwrap();
    assert_eq!(out, [10.0, 8.0, 89f64.sqrt()]);
    assert_eq!(back.to_vec::<f64>(), Some(out.to_vec()));
    let mut out2 = [0.0f64; 2];
    let twinjit::Ignored = hyp.call((&[0.0f64, 3.0][..], 4.0f64, &mut out2[..])).unwrap();
    assert_eq!(out2, [4.0, 5.0]);
    // `out=` over memory not yet initialised: the ufunc writes every element.
    let mut spare: Vec<f64> = Vec::with_capacity(3);
    let arg = unsafe { ArgValue::array_uninit_mut(&mut spare.spare_capacity_mut()[..3]) };
    let twinjit::Ignored = hyp.call((&[3.0f64, 0.0, 8.0][..], &[4.0f64, 2.0, 6.0][..], arg)).unwrap();
    unsafe { spare.set_len(3) };
    assert_eq!(spare, [5.0, 2.0, 10.0]);
    // An ignored result that compiled code allocated is freed.
    let before = twinjit::memory::stats();
    let twinjit::Ignored = hyp.call((&[1.0f64, 2.0][..], 0.0f64)).unwrap();
    let after = twinjit::memory::stats();
    assert_eq!(after.allocated - before.allocated, 1);
    assert_eq!(after.freed - before.freed, 1, "the ignored result is freed");
    // target='parallel' on more elements than chunks.
    let xs: Vec<f64> = (0..10_000).map(|i| i as f64).collect();
    let t: twinjit::Array = m.function("twice").unwrap().call((&xs[..],)).unwrap();
    assert_eq!(t.to_vec::<f64>().unwrap(), xs.iter().map(|x| 2.0 * x).collect::<Vec<f64>>());
    // A gufunc: one core per row, the output allocated; a 1-D input gives a number.
    let total = m.function("total").unwrap();
    let rows: twinjit::Array = total.call((ArgValue::array(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]),)).unwrap();
    assert_eq!(rows.to_vec::<f64>(), Some(vec![6.0, 15.0]));
    let s: f64 = total.call((&[1.5f64, 2.5][..],)).unwrap();
    assert_eq!(s, 4.0);
    let mut res = [0.0f64; 2];
    let _: twinjit::Array = total.call((ArgValue::array(&[1.0f64, 1.0, 2.0, 2.0], &[2, 2]), &mut res[..])).unwrap();
    assert_eq!(res, [2.0, 4.0]);
}

/// `Function::verify`: the compiled function and the reference interpreter on copies of the
/// same arguments, the result, a raised exception and the arrays after the call compared; the
/// caller's array receives the compiled call's writes.
#[test]
fn verify_compares_compiled_code_with_the_interpreter() {
    let src = "import numpy as np\nfrom numba import njit\n\n@njit\ndef scale(x, out, k=2.0):\n    for i in range(x.size):\n        out[i] = x[i] * k\n    return out.sum(), x.size\n\n@njit\ndef checked(x):\n    if x[0] < 0:\n        raise ValueError('negative')\n    return x[0]\n";
    let m = Engine::new(Target::Host).unwrap().load("verify.py", src).unwrap();
    let x = [1.5f64, -2.0, 4.25];
    let mut out = [0.0f64; 3];
    let r = m.function("scale").unwrap().verify((&x[..], &mut out[..]), None).unwrap();
    assert!(r.agrees(), "{r}");
    // The result tuple (2 values) and both arrays (3 + 3).
    assert_eq!(r.values, 8, "{r}");
    assert_eq!(out, [3.0, -4.0, 8.5]);
    let r = m.function("checked").unwrap().verify((&[-1i64][..],), None).unwrap();
    assert!(r.agrees() && r.to_string().contains("same 2 values"), "{r}");
}

/// `del l[a:b:c]` with a step other than 1, which Numba refuses (NotImplementedError) and
/// twinjit runs with Python's result (the lists below are CPython's), on the host and in the
/// interpreter; a zero step is Python's ValueError.
#[test]
fn list_slices_with_steps_are_deleted_as_python_deletes_them() {
    let src = r#"
from numba import njit

@njit
def stepped(n, form):
    l = [k * 10 for k in range(n)]
    if form == 0:
        del l[1:7:2]
    elif form == 1:
        del l[::-3]
    elif form == 2:
        del l[8:2:-2]
    else:
        del l[::0]
    return l
"#;
    let engine = Engine::new(Target::Host).unwrap();
    let m = engine.load("s.py", src).unwrap();
    let f = m.function("stepped").unwrap();
    let want: [&[i64]; 3] = [&[0, 20, 40, 60, 70, 80, 90], &[10, 20, 40, 50, 70, 80], &[0, 10, 20, 30, 50, 70, 90]];
    let oracle = twinjit::SourceModule::parse("s.py", src).unwrap();
    for (form, w) in want.iter().enumerate() {
        let got: Value = f.call((10i64, form as i64)).unwrap();
        assert_eq!(got.to_string(), format!("{w:?}"), "form {form}");
        let rt = [twinjit::ir::interp::RtValue::I64(10), twinjit::ir::interp::RtValue::I64(form as i64)];
        let o = oracle.interpret("stepped", &rt).unwrap();
        assert_eq!(o.to_string(), format!("{w:?}"), "form {form} in the interpreter");
    }
    let e = f.call::<Value>((10i64, 3i64)).unwrap_err();
    assert_eq!(e.python_exception(), Some("ValueError"), "{e}");
}

/// float16 is a CUDA type (as in Numba, whose CPU target cannot even load one): the host
/// target refuses it with a located error naming float16, from an argument or from the body,
/// and the arrays and scalars of the API carry `twinjit::f16` to kernels.
#[test]
fn float16_is_refused_on_the_host_with_its_location() {
    let src = r#"
import numpy as np
from numba import njit

@njit
def halve(x):
    return x / np.float16(2.0)

@njit
def total(a):
    return a.sum()
"#;
    let m = Engine::new(Target::Host).unwrap().load("half_host.py", src).unwrap();
    let e = m.function("halve").unwrap().call::<f64>((3.0f64,)).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("float16 is not supported on the host target"), "{text}");
    assert!(text.contains("half_host.py:7:16"), "{text}");
    let halves = [twinjit::f16::from_f32(1.5), twinjit::f16::from_f32(2.0)];
    let e = m.function("total").unwrap().call::<f64>((&halves[..],)).unwrap_err();
    assert!(e.to_string().contains("float16 is not supported on the host target"), "{e}");
    // The scalar crosses as its 16 bits and comes back from the interpreter unchanged.
    let a = ArgValue::F16(twinjit::f16::from_f32(0.1));
    let back = ArgValue::from_rt(&a.to_rt().unwrap());
    assert!(matches!(back, Some(ArgValue::F16(x)) if x.to_bits() == 0x2E66), "{back:?}");
}

/// `l[a:b] = l` reads the source before it writes, as CPython does (`[0, 0, 1, 2, 3, 4, 5, 3,
/// 4, 5]` for n = 6, a = 1, b = 3); Numba 0.68 writes while it reads and gives
/// `[0, 0, 0, 0, 0, 0, 0, 3, 4, 5]`, so this case is not in the Numba-checked corpus.
#[test]
fn a_list_slice_assigned_from_itself_follows_python() {
    let src = "from numba import njit\n\n@njit\ndef twice(n, lo, hi):\n    l = list(range(n))\n    l[lo:hi] = l\n    return l\n";
    let m = Engine::new(Target::Host).unwrap().load("twice.py", src).unwrap();
    let r: Value = m.function("twice").unwrap().call((6i64, 1i64, 3i64)).unwrap();
    let Value::List(items) = r else { panic!("a list: {r:?}") };
    let got: Vec<i64> = items.iter().map(|v| if let Value::I64(x) = v { *x } else { -1 }).collect();
    assert_eq!(got, [0, 0, 1, 2, 3, 4, 5, 3, 4, 5]);
}

/// Arrays of four to eight dimensions from Rust: slices with a shape, `ndarray` views (a
/// permuted, non-contiguous one too), a returned 5-D array, and nine dimensions refused.
#[test]
fn arrays_of_many_dimensions() {
    let src = "import numpy as np\nfrom numba import njit\n\n\n\
               @njit\ndef weighted(x):\n    n, c, h, w = x.shape\n    t = 0.0\n    for b in range(n):\n        for ch in range(c):\n            for i in range(h):\n                for j in range(w):\n                    t += x[b, ch, i, j] * (b * 1000 + ch * 100 + i * 10 + j)\n    return t\n\n\n\
               @njit\ndef grow(x):\n    return np.expand_dims(x, 2) * 2\n\n\n\
               @njit\ndef last(x):\n    return x[-1, -1, -1, -1, -1, -1, -1, -1]\n";
    let m = Engine::new(Target::Host).unwrap().load("nd.py", src).unwrap();
    let f = m.function("weighted").unwrap();
    let a = ndarray::Array4::from_shape_fn((2, 3, 4, 5), |(b, c, i, j)| (b + c + i + j) as f64);
    let want: f64 = a.indexed_iter().map(|((b, c, i, j), v)| v * (b * 1000 + c * 100 + i * 10 + j) as f64).sum();
    assert_eq!(f.call::<f64>((a.view(),)).unwrap(), want);
    let flat: Vec<f64> = a.iter().copied().collect();
    assert_eq!(f.call::<f64>((ArgValue::array(&flat, &[2, 3, 4, 5]),)).unwrap(), want);
    // A permuted view: strides out of order, an any-layout specialisation.
    let p = a.view().permuted_axes([3, 1, 2, 0]);
    let want_p: f64 = p.indexed_iter().map(|((b, c, i, j), v)| v * (b * 1000 + c * 100 + i * 10 + j) as f64).sum();
    assert_eq!(f.call::<f64>((p,)).unwrap(), want_p);
    // A 5-D result.
    let g: twinjit::Array = m.function("grow").unwrap().call((a.view(),)).unwrap();
    let gv = g.to_ndarray::<f64>().expect("float64 elements");
    assert_eq!(gv.shape(), &[2, 3, 1, 4, 5]);
    assert_eq!(gv[[1, 2, 0, 3, 4]], 2.0 * a[[1, 2, 3, 4]]);
    // Eight dimensions are the most; nine are refused before any call.
    let eight: Vec<i32> = (0..256).collect();
    let l: i32 = m.function("last").unwrap().call((ArgValue::array(&eight, &[2; 8]),)).unwrap();
    assert_eq!(l, 255);
    let nine = vec![0i32; 512];
    assert!(matches!(ArgValue::array(&nine, &[2; 9]), ArgValue::Invalid(_)));
    let e = m.function("last").unwrap().call::<i32>((ArgValue::array(&nine, &[2; 9]),)).unwrap_err();
    assert!(e.to_string().contains("1 to 8 dimensions"), "{e}");
}

/// A 1-D boolean mask on one axis must be as long as the axis: NumPy raises IndexError with
/// this message (Numba reads past the mask's end; twinjit follows NumPy).
#[test]
fn a_mask_on_one_axis_has_the_axis_length() {
    let src = "from numba import njit\n\n\n@njit\ndef pick(x, m):\n    return x[:, m]\n";
    let m = Engine::new(Target::Host).unwrap().load("mask.py", src).unwrap();
    let x = ndarray::Array2::from_shape_fn((4, 3), |(i, j)| (i * 3 + j) as i64);
    let f = m.function("pick").unwrap();
    let ok: twinjit::Array = f.call((x.view(), &[true, false, true][..])).unwrap();
    assert_eq!(ok.to_ndarray::<i64>().unwrap(), ndarray::arr2(&[[0i64, 2], [3, 5], [6, 8], [9, 11]]).into_dyn());
    let e = f.call::<twinjit::Array>((x.view(), &[true, false][..])).unwrap_err();
    assert!(
        e.to_string().contains(
            "IndexError: boolean index did not match indexed array along axis 1; size of axis is 3 but size of corresponding boolean axis is 2"
        ),
        "{e}"
    );
}

/// A dict a compiled function returns reaches Rust as `Value::Dict`: its (key, value) pairs in
/// insertion order, deleted entries left out, and its lists released.
#[test]
fn returned_dicts_reach_rust_in_insertion_order() {
    let src = "from numba import njit\n\n\n\
               @njit\ndef squares(n):\n    d = {}\n    for i in range(n, 0, -1):\n        d[i] = i * i * 0.5\n    del d[2]\n    d[(n + 1)] = -1.0\n    return d\n\n\n\
               @njit\ndef pairs(n):\n    d = {}\n    for i in range(n):\n        d[(i, i + 1)] = (i, float(i))\n    return d\n";
    let m = Engine::new(Target::Host).unwrap().load("dicts.py", src).unwrap();
    let before = twinjit::memory::stats();
    let v: Value = m.function("squares").unwrap().call((4i64,)).unwrap();
    let Value::Dict(kvs) = &v else { panic!("a dict: {v}") };
    let keys: Vec<&Value> = kvs.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, [&Value::I64(4), &Value::I64(3), &Value::I64(1), &Value::I64(5)]);
    assert_eq!(kvs[0].1, Value::F64(8.0));
    assert_eq!(v.to_string(), "{4: 8.0, 3: 4.5, 1: 0.5, 5: -1.0}");
    let p: Value = m.function("pairs").unwrap().call((2i64,)).unwrap();
    assert_eq!(p.to_string(), "{(0, 1): (0, 0.0), (1, 2): (1, 1.0)}");
    let after = twinjit::memory::stats();
    assert_eq!(after.allocated - before.allocated, after.freed - before.freed, "the dicts' lists are released");
    assert_eq!(after.leaked, before.leaked);
}

/// A returned set reaches Rust as `Value::Set`, in the order compiled code iterates it (for
/// small non-negative integers ascending, as Python's); set comprehensions, which Numba
/// refuses, build one as Python does.
#[test]
fn returned_sets_and_set_comprehensions() {
    let src = "from numba import njit\n\n\n\
               @njit\ndef residues(n, m):\n    return {i * i % m for i in range(n)}\n\n\n\
               @njit\ndef empty():\n    s = {1}\n    s.discard(1)\n    return s\n";
    let m = Engine::new(Target::Host).unwrap().load("sets.py", src).unwrap();
    let before = twinjit::memory::stats();
    let v: Value = m.function("residues").unwrap().call((10i64, 7i64)).unwrap();
    assert_eq!(v.to_string(), "{0, 1, 2, 4}");
    let e: Value = m.function("empty").unwrap().call(()).unwrap();
    assert_eq!(e, Value::Set(vec![]));
    assert_eq!(e.to_string(), "set()");
    let after = twinjit::memory::stats();
    assert_eq!(after.allocated - before.allocated, after.freed - before.freed, "the sets' lists are released");
}
