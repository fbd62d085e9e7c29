//! Feature `cuda`: which products and sums the PTX backend fuses into FMA. twinjit follows
//! NVVM's policy (crates/twinjit-ptx/src/contract.rs) so kernels give numba-cuda's bits. Each
//! case counts the float instructions of twinjit's PTX; the expected counts are those of
//! numba-cuda 0.30.4's PTX for the same kernel (`cuda.compile_ptx(f, sig, cc=(9, 0))`, NVVM of
//! CUDA 13.0), read when this test was written. `benches/gpu/fma_parity/ptx_compare.py` makes
//! the same comparison live over the kernel corpus, and `parity.py` compares results on a GPU.

#![cfg(feature = "cuda")]

use std::collections::BTreeMap;
use twinjit::{Engine, Target};

const SRC: &str = r#"
import math
import numpy as np
from numba import cuda


@cuda.jit
def mul_sub(o, a, b, c, d):
    o[0] = a[0] * b[0] - c[0]


@cuda.jit
def sub_mul(o, a, b, c, d):
    o[0] = c[0] - a[0] * b[0]


@cuda.jit
def two_products(o, a, b, c, d):
    o[0] = a[0] * b[0] + c[0] * d[0]


@cuda.jit
def products_differ(o, a, b, c, d):
    o[0] = a[0] * b[0] - c[0] * d[0]


@cuda.jit
def shared_product(o, a, b, c, d):
    m = a[0] * b[0]
    o[0] = m + c[0]
    o[1] = m + d[0]


@cuda.jit
def product_added_and_subtracted(o, a, b, c, d):
    m = a[0] * b[0]
    o[0] = m + c[0]
    o[1] = m - d[0]


@cuda.jit
def product_stored(o, a, b, c, d):
    x = a[0] - b[0]
    y = c[0] - d[0]
    o[0] = x * x + y * y
    o[1] = x * x


@cuda.jit
def triple(o, a, b, c, d):
    o[0] = a[0] * b[0] * c[0] + d[0]


@cuda.jit
def negated(o, a, b, c, d):
    o[0] = -(a[0] * b[0]) + c[0]
    o[1] = a[0] * -b[0] + c[0]


@cuda.jit
def constants(o, a, b, c, d):
    o[0] = a[0] * b[0] - 1.5
    o[1] = a[0] / 2.0 + c[0]
    o[2] = c[0] - 4.0 * a[0]


@cuda.jit
def dot4(o, a, b, c, d):
    s = 0.0
    for i in range(4):
        s += a[i] * b[i]
    o[0] = s


@cuda.jit
def minus_equals(o, a, b, c, d):
    s = c[0]
    s -= a[0] * b[0]
    o[0] = s


@cuda.jit
def chain(o, a, b, c, d):
    o[0] = a[0] * b[0] + c[0] * d[0] + a[0] * c[0]


@cuda.jit
def complex_axpy(o, z, w):
    o[0] = z[0] * w[0] + o[1]


@cuda.jit
def complex_times_real(o, z, x):
    o[0] = z[0] * x[0]


@cuda.jit
def half_precision(o, a, b, c):
    o[0] = a[0] * b[0] + c[0]
"#;

const F64X5: &str = "void(float64[:], float64[:], float64[:], float64[:], float64[:])";

fn counts(ptx: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for line in ptx.lines() {
        let op = line.split_whitespace().next().unwrap_or("");
        let op = op.replace(".rn", "");
        let float = [".f16", ".f32", ".f64"].iter().any(|w| op.ends_with(w));
        if float && ["fma.", "add.", "sub.", "mul.", "neg."].iter().any(|p| op.starts_with(p)) {
            *out.entry(op).or_default() += 1;
        }
    }
    out
}

fn expect(name: &str, sig: &str, want: &[(&str, usize)]) {
    let engine = Engine::new(Target::Ptx { arch: "sm_90".into() }).unwrap();
    let m = engine.load("fma.py", SRC).unwrap();
    let ptx = m.ptx(name, sig).unwrap().ptx;
    let want: BTreeMap<String, usize> = want.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    assert_eq!(counts(&ptx), want, "{name}: float instructions differ from numba-cuda's\n{ptx}");
}

#[test]
fn a_subtraction_is_never_fused() {
    expect("mul_sub", F64X5, &[("mul.f64", 1), ("sub.f64", 1)]);
    expect("sub_mul", F64X5, &[("mul.f64", 1), ("sub.f64", 1)]);
    expect("products_differ", F64X5, &[("mul.f64", 2), ("sub.f64", 1)]);
    expect("minus_equals", F64X5, &[("mul.f64", 1), ("sub.f64", 1)]);
}

#[test]
fn a_sum_of_products_fuses_one_of_them() {
    expect("two_products", F64X5, &[("fma.f64", 1), ("mul.f64", 1)]);
    expect("triple", F64X5, &[("fma.f64", 1), ("mul.f64", 1)]);
    expect("chain", F64X5, &[("fma.f64", 2), ("mul.f64", 1)]);
    expect("dot4", F64X5, &[("fma.f64", 4)]);
}

#[test]
fn a_product_is_fused_only_where_every_use_is_a_sum() {
    expect("shared_product", F64X5, &[("fma.f64", 2)]);
    expect("product_added_and_subtracted", F64X5, &[("add.f64", 1), ("mul.f64", 1), ("sub.f64", 1)]);
    expect("product_stored", F64X5, &[("fma.f64", 1), ("mul.f64", 1), ("sub.f64", 2)]);
}

#[test]
fn negations_and_constants_follow_instcombine() {
    expect("negated", F64X5, &[("mul.f64", 2), ("sub.f64", 2)]);
    // a*b - 1.5 -> fma(a, b, -1.5); a/2 + c -> fma(a, 0.5, c); c - 4a -> fma(a, -4, c).
    expect("constants", F64X5, &[("fma.f64", 3)]);
}

#[test]
fn complex_products_fuse_as_numba_cuda_does() {
    expect(
        "complex_axpy",
        "void(complex128[:], complex128[:], complex128[:])",
        &[("add.f64", 2), ("fma.f64", 1), ("mul.f64", 3), ("sub.f64", 1)],
    );
    expect(
        "complex_times_real",
        "void(complex128[:], complex128[:], float64[:])",
        &[("fma.f64", 1), ("mul.f64", 3), ("sub.f64", 1)],
    );
}

#[test]
fn float16_is_never_fused() {
    // numba-cuda computes float16 through calls of cuda_fp16.h's functions: nothing to fuse.
    let engine = Engine::new(Target::Ptx { arch: "sm_90".into() }).unwrap();
    let m = engine.load("fma.py", SRC).unwrap();
    let ptx = m.ptx("half_precision", "void(float16[:], float16[:], float16[:], float16[:])").unwrap().ptx;
    assert!(!ptx.contains("fma.rn.f16"), "{ptx}");
    assert!(ptx.contains("mul.rn.f16") && ptx.contains("add.rn.f16"), "{ptx}");
}
