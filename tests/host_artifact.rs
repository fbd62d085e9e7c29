//! Host artifacts (`twinjit_host::compile_with_artifact`, `to_bytes`, `load`): compile → bytes →
//! load runs like the original; damaged or foreign bytes are refused (or, for damage only inside
//! machine code, loaded) but never panic. Here rather than in `twinjit-host` so that the host
//! backend does not depend on the front end, even for tests.

use twinjit_host::abi::{ErrorCode, ErrorRecord};
use twinjit_host::{
    compile, compile_with_artifact, load, load_through_jit_module, CompiledProgram, HostOptions, LoadError,
};
use twinjit_ir::{parse_type, Type, TypedProgram};

const SOURCE: &str = r#"
import math
import numpy as np
from numba import njit

TABLE = np.array([0.5, 1.5, 2.5, 3.5])
GRID = np.arange(6, dtype=np.int32).reshape(2, 3)

@njit
def lookup(i, j):
    return TABLE[i] * 2.0 + TABLE.sum() + GRID[j, i % 3]

@njit
def arith(a, b):
    return (a * 3 + b) // 2 - a % 5

@njit
def total(xs):
    s = 0.0
    for i in range(len(xs)):
        s += xs[i] * i
    return s

@njit
def sq(x):
    return x * x + 1

@njit
def sum_sq(n):
    t = 0
    for i in range(n):
        t += sq(i)
    return t

@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

@njit
def expo(x):
    return math.exp(x) + math.sin(x)

@njit
def fdiv(x, y):
    return x // y

@njit
def get(xs, i):
    return xs[i]

@njit
def mix(n, x):
    return fib(n) + sq(n) + math.exp(x) // 0.5 + TABLE[n % 4]
"#;

fn program(func: &str, args: &str) -> TypedProgram {
    let module = twinjit::SourceModule::parse("artifact_test.py", SOURCE).expect("front end");
    let args: Vec<Type> = args.split(';').filter(|a| !a.is_empty()).map(|a| parse_type(a).expect("type")).collect();
    module.specialize(func, &twinjit_ir::Signature { args, ret: None }, Some(true)).expect("infers")
}

fn call(c: &CompiledProgram, args: &[u64]) -> Result<Vec<u64>, ErrorRecord> {
    let mut ret = vec![0u64; c.ret_slots.max(1)];
    assert_eq!(args.len(), c.arg_slots);
    // SAFETY: the slots follow `abi` for each test's signature; arrays outlive the call.
    unsafe { c.call(args, &mut ret) }.map(|()| ret)
}

/// Compiles `func` for `args` (`;`-separated Numba types) both ways and checks that the loaded
/// program returns what the compiled one does, for each argument list; both loaders (the
/// direct one `load` uses on x86-64 Unix, and `cranelift_jit`'s module) are checked.
fn check(func: &str, args: &str, calls: &[Vec<u64>]) -> (CompiledProgram, Vec<u8>) {
    let p = program(func, args);
    let compiled = compile_with_artifact(&p, &HostOptions::default()).expect("compiles");
    let bytes = compiled.to_bytes().expect("storable");
    let loaded = load(&bytes).expect("loads");
    let through_jit = load_through_jit_module(&bytes).expect("loads through a JIT module");
    for l in [&loaded, &through_jit] {
        assert_eq!((l.arg_slots, l.ret_slots), (compiled.arg_slots, compiled.ret_slots));
        assert_eq!(l.sites, compiled.sites);
        for a in calls {
            assert_eq!(call(l, a), call(&compiled, a), "{func}{a:?}");
        }
    }
    drop(compiled);
    (loaded, bytes)
}

fn f(x: f64) -> u64 {
    x.to_bits()
}

#[test]
fn loaded_programs_compute_what_compiled_ones_do() {
    let neg = |x: i64| x as u64;
    check("arith", "int64;int64", &[vec![7, 3], vec![neg(-11), 4], vec![0, 0]]);
    let xs = [1.5f64, -2.0, 3.25, 8.0];
    let arr = vec![xs.as_ptr() as u64, xs.len() as u64, 1, 0];
    let (loaded, _) = check("total", "float64[::1]", std::slice::from_ref(&arr));
    assert_eq!(call(&loaded, &arr).unwrap()[0], f(-2.0 + 6.5 + 24.0));
    let (loaded, _) = check("sum_sq", "int64", &[vec![0], vec![10], vec![1000]]);
    assert_eq!(call(&loaded, &[10]).unwrap()[0], 295);
    let (loaded, _) = check("fib", "int64", &[vec![0], vec![1], vec![20]]);
    assert_eq!(call(&loaded, &[20]).unwrap()[0], 6765);
    let (loaded, _) = check("expo", "float64", &[vec![f(0.0)], vec![f(1.5)], vec![f(-3.0)]]);
    assert_eq!(call(&loaded, &[f(1.5)]).unwrap()[0], f(1.5f64.exp() + 1.5f64.sin()));
    let (loaded, _) = check("fdiv", "float64;float64", &[vec![f(7.5), f(2.0)], vec![f(-7.5), f(2.0)]]);
    assert_eq!(call(&loaded, &[f(-7.5), f(2.0)]).unwrap()[0], f(-4.0));
    // Module-level arrays are read-only symbols of the artifact, relocated on load.
    let (loaded, _) = check("lookup", "int64;int64", &[vec![0, 0], vec![3, 1], vec![2, 1]]);
    assert_eq!(call(&loaded, &[3, 1]).unwrap()[0], f(7.0 + 8.0 + 3.0));
}

#[test]
fn index_errors_survive_loading_with_their_site() {
    let xs = [1.0f64, 2.0, 3.0];
    let a = |i: i64| vec![xs.as_ptr() as u64, 3, 1, 0, i as u64];
    let (loaded, _) = check("get", "float64[::1];int64", &[a(1), a(-1), a(3), a(-4), a(100)]);
    let err = call(&loaded, &a(3)).unwrap_err();
    assert_eq!((err.kind, err.index, err.len, err.axis), (ErrorCode::Index.raw(), 3, 3, 0));
    let site = &loaded.sites[err.site as usize];
    assert_eq!(site.function, "get");
    assert_eq!(&SOURCE[site.span.start as usize..site.span.end as usize], "xs[i]");
}

/// The loaded code must not depend on the producing process's addresses (helpers, libm).
#[test]
fn artifacts_load_in_another_process() {
    const VAR: &str = "TWINJIT_HOST_TEST_ARTIFACT";
    let args = [10, f(1.25)];
    let expected = f(55.0 + 101.0 + (1.25f64.exp() / 0.5).floor() + 2.5);
    if let Ok(path) = std::env::var(VAR) {
        let loaded = load(&std::fs::read(path).unwrap()).expect("loads");
        assert_eq!(call(&loaded, &args).unwrap()[0], expected);
        return;
    }
    let (_, bytes) = check("mix", "int64;float64", &[args.to_vec()]);
    let path = std::env::temp_dir().join(format!("twinjit-host-artifact-{}.bin", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "artifacts_load_in_another_process", "--test-threads", "1"])
        .env(VAR, &path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    let out = String::from_utf8_lossy(&child.stdout);
    assert!(child.status.success() && out.contains("1 passed"), "the child failed:\n{out}");
}

#[test]
fn plain_compile_keeps_no_artifact() {
    let c = compile(&program("arith", "int64;int64"), &HostOptions::default()).expect("compiles");
    assert!(c.to_bytes().is_none());
    assert_eq!(call(&c, &[7, 3]).unwrap()[0], 10);
}

/// Loading must not panic; `Ok` is allowed only when the change cannot be seen (code bytes).
/// Both loaders must agree on whether the bytes load.
fn load_quietly(bytes: &[u8]) -> Result<CompiledProgram, LoadError> {
    let direct = std::panic::catch_unwind(|| load(bytes)).expect("load never panics");
    let jit = std::panic::catch_unwind(|| load_through_jit_module(bytes)).expect("load never panics");
    assert_eq!(direct.is_ok(), jit.is_ok(), "the loaders disagree: {direct:?} / {jit:?}");
    direct
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

#[test]
fn damaged_artifacts_never_panic() {
    let (_, bytes) = check("sum_sq", "int64", &[]);
    for len in 0..bytes.len() {
        assert!(matches!(load_quietly(&bytes[..len]), Err(LoadError::Corrupt(_))), "truncated at {len}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(load_quietly(&longer), Err(LoadError::Corrupt(_))));
    // magic, version, isa, arg_slots, ret_slots, entry: only the two slot counts are unchecked.
    let isa_end = 16 + u32_at(&bytes, 12);
    let header_end = isa_end + 8 + 4 + u32_at(&bytes, isa_end + 8);
    let mut loaded = 0;
    for at in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[at] ^= mask;
            match load_quietly(&b) {
                Ok(_) => {
                    assert!(at >= header_end || (isa_end..isa_end + 8).contains(&at), "flip at {at} loaded");
                    loaded += 1;
                }
                Err(LoadError::Corrupt(_) | LoadError::Incompatible(_)) => {}
                Err(e) => panic!("flip at {at}: {e}"),
            }
        }
    }
    eprintln!("{loaded} of {} one-byte flips of a {}-byte artifact loaded", 3 * bytes.len(), bytes.len());
}

#[test]
fn artifacts_of_another_host_are_refused() {
    let (_, bytes) = check("fib", "int64", &[]);
    let isa_len = u32_at(&bytes, 12);
    let isa = std::str::from_utf8(&bytes[16..16 + isa_len]).unwrap();
    assert!(isa.starts_with("twinjit-host "), "{isa}");
    for other in [isa.replacen("; ", "; other-", 1), format!("{isa},extra_flag=1"), String::new()] {
        let mut b = bytes[..12].to_vec();
        b.extend_from_slice(&(other.len() as u32).to_le_bytes());
        b.extend_from_slice(other.as_bytes());
        b.extend_from_slice(&bytes[16 + isa_len..]);
        assert!(matches!(load_quietly(&b), Err(LoadError::Incompatible(_))), "{other}");
    }
    let mut b = bytes.clone();
    b[8] = 99;
    assert!(matches!(load_quietly(&b), Err(LoadError::Incompatible(_))), "format version");
}
