//! The C math library (libm) functions that the builtins table points at. The interpreter calls
//! them through the table, and the host's compiled code calls the very same addresses, so both
//! compute bit-identical results. Wrappers exist only where the C function has no safe
//! one-value form (`lgamma` writes the global `signgam`, so the reentrant `lgamma_r` is used;
//! `frexp` returns its exponent through a pointer).
//!
//! This module knows nothing of the IR. Every function here is pure: no global state, no
//! pointer arguments in the exported signatures.

#![allow(unsafe_code)]

use std::os::raw::c_int;

macro_rules! libm_safe {
    ($($name:ident($($arg:ident: $t:ty),*) -> $r:ty;)*) => {
        // SAFETY: these libm functions take and return plain floats (and ints), touch no
        // memory through pointers and have no preconditions, so they are safe to call.
        unsafe extern "C" {
            $( pub safe fn $name($($arg: $t),*) -> $r; )*
        }
    };
}

libm_safe! {
    exp(x: f64) -> f64; expf(x: f32) -> f32;
    exp2(x: f64) -> f64; exp2f(x: f32) -> f32;
    expm1(x: f64) -> f64; expm1f(x: f32) -> f32;
    cbrt(x: f64) -> f64; cbrtf(x: f32) -> f32;
    log(x: f64) -> f64; logf(x: f32) -> f32;
    log2(x: f64) -> f64; log2f(x: f32) -> f32;
    log10(x: f64) -> f64; log10f(x: f32) -> f32;
    log1p(x: f64) -> f64; log1pf(x: f32) -> f32;
    sin(x: f64) -> f64; sinf(x: f32) -> f32;
    cos(x: f64) -> f64; cosf(x: f32) -> f32;
    tan(x: f64) -> f64; tanf(x: f32) -> f32;
    asin(x: f64) -> f64; asinf(x: f32) -> f32;
    acos(x: f64) -> f64; acosf(x: f32) -> f32;
    atan(x: f64) -> f64; atanf(x: f32) -> f32;
    sinh(x: f64) -> f64; sinhf(x: f32) -> f32;
    cosh(x: f64) -> f64; coshf(x: f32) -> f32;
    tanh(x: f64) -> f64; tanhf(x: f32) -> f32;
    asinh(x: f64) -> f64; asinhf(x: f32) -> f32;
    acosh(x: f64) -> f64; acoshf(x: f32) -> f32;
    atanh(x: f64) -> f64; atanhf(x: f32) -> f32;
    erf(x: f64) -> f64; erff(x: f32) -> f32;
    erfc(x: f64) -> f64; erfcf(x: f32) -> f32;
    tgamma(x: f64) -> f64; tgammaf(x: f32) -> f32;
    pow(x: f64, y: f64) -> f64; powf(x: f32, y: f32) -> f32;
    atan2(y: f64, x: f64) -> f64; atan2f(y: f32, x: f32) -> f32;
    hypot(x: f64, y: f64) -> f64; hypotf(x: f32, y: f32) -> f32;
    nextafter(x: f64, y: f64) -> f64; nextafterf(x: f32, y: f32) -> f32;
    fmod(x: f64, y: f64) -> f64; fmodf(x: f32, y: f32) -> f32;
    remainder(x: f64, y: f64) -> f64; remainderf(x: f32, y: f32) -> f32;
    ldexp(x: f64, n: c_int) -> f64; ldexpf(x: f32, n: c_int) -> f32;
}

mod raw {
    use std::os::raw::c_int;
    unsafe extern "C" {
        pub fn lgamma_r(x: f64, sign: *mut c_int) -> f64;
        pub fn lgammaf_r(x: f32, sign: *mut c_int) -> f32;
        pub fn frexp(x: f64, exp: *mut c_int) -> f64;
        pub fn frexpf(x: f32, exp: *mut c_int) -> f32;
    }
}

/// `lgamma(x)` without touching the global `signgam`.
pub extern "C" fn lgamma(x: f64) -> f64 {
    let mut sign: c_int = 0;
    // SAFETY: `sign` is a valid, exclusively borrowed int for the duration of the call.
    unsafe { raw::lgamma_r(x, &mut sign) }
}

/// `lgammaf(x)` without touching the global `signgam`.
pub extern "C" fn lgammaf(x: f32) -> f32 {
    let mut sign: c_int = 0;
    // SAFETY: as in `lgamma`.
    unsafe { raw::lgammaf_r(x, &mut sign) }
}

/// `frexp(x)` as (mantissa, exponent).
pub fn frexp(x: f64) -> (f64, i32) {
    let mut e: c_int = 0;
    // SAFETY: `e` is a valid, exclusively borrowed int for the duration of the call.
    let m = unsafe { raw::frexp(x, &mut e) };
    (m, e)
}

/// `frexpf(x)` as (mantissa, exponent).
pub fn frexpf(x: f32) -> (f32, i32) {
    let mut e: c_int = 0;
    // SAFETY: as in `frexp`.
    let m = unsafe { raw::frexpf(x, &mut e) };
    (m, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_std() {
        assert_eq!(exp(1.5), 1.5f64.exp());
        assert_eq!(sinf(0.25), 0.25f32.sin());
        assert_eq!(lgamma(4.0), 6.0f64.ln());
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexpf(-3.0), (-0.75, 2));
        assert_eq!(ldexp(0.75, 3), 6.0);
    }
}
