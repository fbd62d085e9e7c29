//! Feature `cuda`: snapshots of the LLVM IR twinjit writes and of the PTX LLVM 19 makes of it,
//! for a few kernels that cover the kernel model (grid indexing, a device function, shared
//! memory with barriers, atomics, a bounds-checked kernel's error path). A change in code
//! generation shows up as a diff here; re-bless with `UPDATE_EXPECT=1 cargo test --features
//! cuda --test ptx_snapshots`. The PTX text depends on the exact LLVM (Debian's 19.1.7).

#![cfg(feature = "cuda")]

use twinjit::{Engine, EngineOptions, Target};

const SRC: &str = r#"
import numpy as np
from numba import cuda


@cuda.jit
def vecadd(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@cuda.jit
def clamp2d(a, lo, hi):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = clamp(a[i, j], lo, hi)


@cuda.jit
def block_sum(x, partial):
    buf = cuda.shared.array(128, dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else np.float32(0.0)
    cuda.syncthreads()
    s = 64
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(partial, 0, buf[0])
"#;

fn check(name: &str, sig: &str, boundscheck: bool) {
    let options = EngineOptions { boundscheck: Some(boundscheck), ..Default::default() };
    let engine = Engine::with_options(Target::Ptx { arch: "sm_90".into() }, options).unwrap();
    let m = engine.load("snap.py", SRC).unwrap();
    let suffix = if boundscheck { "_checked" } else { "" };
    let llvm = m.llvm_ir(name, sig).unwrap();
    expect_test::expect_file![format!("snapshots/ptx/{name}{suffix}.ll")].assert_eq(&llvm);
    let ptx = m.ptx(name, sig).unwrap().ptx;
    expect_test::expect_file![format!("snapshots/ptx/{name}{suffix}.ptx")].assert_eq(&ptx);
}

#[test]
fn vecadd() {
    check("vecadd", "void(float32[::1], float32[::1], float32[::1])", false);
}

#[test]
fn device_function_and_2d_grid() {
    check("clamp2d", "void(float64[:, ::1], float64, float64)", false);
}

#[test]
fn shared_memory_barriers_and_atomics() {
    check("block_sum", "void(float32[::1], float32[::1])", false);
}

#[test]
fn bounds_checked_kernel_publishes_the_failing_thread() {
    check("vecadd", "void(float32[::1], float32[::1], float32[::1])", true);
}

/// `fastmath=True` in the decorator reaches the PTX backend (every fast-math flag on float
/// arithmetic), and only for that kernel; the PTX cache key tells the two apart.
#[test]
fn fastmath_in_the_decorator_reaches_the_ptx_backend() {
    let src = "from numba import cuda\n\n\n@cuda.jit(fastmath=True)\ndef fast(a):\n    a[0] = a[0] * 3.0 + 1.0\n\n\n\
               @cuda.jit\ndef exact(a):\n    a[0] = a[0] * 3.0 + 1.0\n";
    let engine = Engine::new(Target::Ptx { arch: "sm_90".into() }).unwrap();
    let m = engine.load("fm.py", src).unwrap();
    let fast = m.llvm_ir("fast", "void(float64[::1])").unwrap();
    let exact = m.llvm_ir("exact", "void(float64[::1])").unwrap();
    assert!(fast.contains("fmul fast double"), "{fast}");
    assert!(!exact.contains("fast"), "{exact}");
    // Without fastmath, `a * 3.0 + 1.0` is fused as NVVM fuses it (crates/twinjit-ptx/src/contract.rs).
    assert!(exact.contains("@llvm.fma.f64"), "{exact}");
    let options = |name: &str| {
        let key = m.cache_key(name, "void(float64[::1])").unwrap();
        key.parts.into_iter().find(|(part, _)| part == "options").map(|(_, v)| v).unwrap()
    };
    assert!(options("fast").contains("ptx_fastmath=true"), "{}", options("fast"));
    assert!(options("exact").contains("ptx_fastmath=false"), "{}", options("exact"));
}

/// Launch facts (issue 17 item 4): a launch of distinct arrays runs a kernel whose array
/// pointers are `noalias`, so the arrays it only reads are loaded through the read-only path
/// (`ld.global.nc`); `index32` bounds every dimension below 2^31. The general kernel, which an
/// overlapping launch runs, has neither, and the two are different cache entries.
#[test]
fn launch_facts_specialise_the_kernel() {
    use twinjit::cuda::LaunchFacts;
    let engine = Engine::new(Target::Ptx { arch: "sm_90".into() }).unwrap();
    let m = engine.load("snap.py", SRC).unwrap();
    let sig = "void(float32[::1], float32[::1], float32[::1])";
    let general = m.ptx("vecadd", sig).unwrap().ptx;
    let fast = m.ptx_for_launch("vecadd", sig, LaunchFacts::ALL).unwrap().ptx;
    assert!(general.contains("ld.global.f32") && !general.contains("ld.global.nc"), "{general}");
    assert_eq!(fast.matches("ld.global.nc.f32").count(), 2, "{fast}");
    let ir = m.llvm_ir_for_launch("vecadd", sig, LaunchFacts::ALL).unwrap();
    assert_eq!(ir.matches("ptr addrspace(1) noalias").count(), 3, "{ir}");
    assert!(ir.contains("i64 range(i64 0, 2147483648)"), "{ir}");
    let general_ir = m.llvm_ir("vecadd", sig).unwrap();
    assert!(!general_ir.contains("noalias") && !general_ir.contains("range("), "{general_ir}");
    // A kernel that synchronises (barriers, an atomic) keeps `noalias` off the arrays it
    // writes, which other threads may read after a barrier; the array it only reads has it.
    let ir = m.llvm_ir_for_launch("block_sum", "void(float32[::1], float32[::1])", LaunchFacts::ALL).unwrap();
    let entry = ir.lines().find(|l| l.starts_with("define void @\"block_sum\"(")).expect("the entry");
    assert!(entry.contains("ptr addrspace(1) noalias %p0") && entry.contains("ptr addrspace(1) %p3"), "{entry}");
    // The names round-trip (the CLI's `--facts` and the cache key use them).
    for facts in [LaunchFacts::default(), LaunchFacts { noalias: true, index32: false }, LaunchFacts::ALL] {
        assert_eq!(LaunchFacts::parse(facts.name()), Some(facts));
    }
    assert_eq!(LaunchFacts::parse("sometimes"), None);
}

/// `alignment=` of `cuda.shared.array` / `cuda.local.array` (numba-cuda's) reaches the
/// declaration: `.align 64` in the PTX, `align 32` on the local array's `alloca`; without it
/// every such array is aligned to 16 bytes. A bad alignment is numba-cuda's ValueError, as a
/// located compile error.
#[test]
fn alignment_of_shared_and_local_arrays() {
    let src = "import numpy as np\nfrom numba import cuda\n\n\n@cuda.jit\ndef k(x):\n    \
               s = cuda.shared.array(16, dtype=np.float32, alignment=64)\n    \
               l = cuda.local.array(4, dtype=np.float64, alignment=32)\n    \
               d = cuda.shared.array(8, dtype=np.int32)\n    \
               i = cuda.threadIdx.x\n    s[i] = x[i]\n    l[i % 4] = x[i]\n    d[i % 8] = 1\n    \
               cuda.syncthreads()\n    x[i] = s[15 - i] + l[0] + d[0]\n";
    let engine = Engine::new(Target::Ptx { arch: "sm_90".into() }).unwrap();
    let m = engine.load("align.py", src).unwrap();
    let ir = m.llvm_ir("k", "void(float64[::1])").unwrap();
    assert!(ir.contains("[16 x float] undef, align 64"), "{ir}");
    assert!(ir.contains("alloca [4 x double], align 32"), "{ir}");
    assert!(ir.contains("[8 x i32] undef, align 16"), "{ir}");
    let ptx = m.ptx("k", "void(float64[::1])").unwrap().ptx;
    assert!(ptx.contains(".shared .align 64 .b8"), "{ptx}");
    let bad = src.replace("alignment=64", "alignment=12");
    let e = engine.load("align.py", &bad).and_then(|m| m.ptx("k", "void(float64[::1])")).unwrap_err();
    assert!(e.to_string().contains("the alignment must be a constant power of two, a multiple of 8"), "{e}");
}
