//! Runtime helpers that compiled code calls: the libm functions Cranelift has no instruction
//! for, and Python's float floor division/modulo and powers. They call the very functions the
//! reference interpreter uses, so host results match the oracle bit for bit.

use twinjit_ir::interp::{divmod_f32, divmod_f64, int_pow, powi_f32, powi_f64};

macro_rules! unary {
    ($($name:ident = $t:ty, $m:ident;)*) => {$(
        extern "C" fn $name(x: $t) -> $t { x.$m() }
    )*};
}
unary! {
    exp_f64 = f64, exp; exp_f32 = f32, exp;
    ln_f64 = f64, ln; ln_f32 = f32, ln;
    log2_f64 = f64, log2; log2_f32 = f32, log2;
    log10_f64 = f64, log10; log10_f32 = f32, log10;
    sin_f64 = f64, sin; sin_f32 = f32, sin;
    cos_f64 = f64, cos; cos_f32 = f32, cos;
    tan_f64 = f64, tan; tan_f32 = f32, tan;
    asin_f64 = f64, asin; asin_f32 = f32, asin;
    acos_f64 = f64, acos; acos_f32 = f32, acos;
    atan_f64 = f64, atan; atan_f32 = f32, atan;
    sinh_f64 = f64, sinh; sinh_f32 = f32, sinh;
    cosh_f64 = f64, cosh; cosh_f32 = f32, cosh;
    tanh_f64 = f64, tanh; tanh_f32 = f32, tanh;
}

macro_rules! binary {
    ($($name:ident = $t:ty, $m:ident;)*) => {$(
        extern "C" fn $name(x: $t, y: $t) -> $t { x.$m(y) }
    )*};
}
binary! {
    atan2_f64 = f64, atan2; atan2_f32 = f32, atan2;
    pow_f64 = f64, powf; pow_f32 = f32, powf;
    hypot_f64 = f64, hypot; hypot_f32 = f32, hypot;
}

extern "C" fn floordiv_f64(x: f64, y: f64) -> f64 {
    divmod_f64(x, y).0
}
extern "C" fn mod_f64(x: f64, y: f64) -> f64 {
    divmod_f64(x, y).1
}
extern "C" fn floordiv_f32(x: f32, y: f32) -> f32 {
    divmod_f32(x, y).0
}
extern "C" fn mod_f32(x: f32, y: f32) -> f32 {
    divmod_f32(x, y).1
}
// The zero-base-negative-exponent case raises before these are called (checked inline).
extern "C" fn powi_i64(x: i64, y: i64) -> i64 {
    int_pow(x, y).unwrap_or(0)
}
extern "C" fn powi_f64_rt(x: f64, y: i64) -> f64 {
    powi_f64(x, y).unwrap_or(f64::INFINITY)
}
extern "C" fn powi_f32_rt(x: f32, y: i64) -> f32 {
    powi_f32(x, y).unwrap_or(f32::INFINITY)
}

/// (symbol name, address) of every helper, registered with the JIT.
pub(crate) fn symbols() -> Vec<(&'static str, *const u8)> {
    macro_rules! s {
        ($($n:ident),*) => { vec![$((concat!("twinjit_", stringify!($n)), $n as *const u8)),*] };
    }
    s![
        exp_f64,
        exp_f32,
        ln_f64,
        ln_f32,
        log2_f64,
        log2_f32,
        log10_f64,
        log10_f32,
        sin_f64,
        sin_f32,
        cos_f64,
        cos_f32,
        tan_f64,
        tan_f32,
        asin_f64,
        asin_f32,
        acos_f64,
        acos_f32,
        atan_f64,
        atan_f32,
        sinh_f64,
        sinh_f32,
        cosh_f64,
        cosh_f32,
        tanh_f64,
        tanh_f32,
        atan2_f64,
        atan2_f32,
        pow_f64,
        pow_f32,
        hypot_f64,
        hypot_f32,
        floordiv_f64,
        mod_f64,
        floordiv_f32,
        mod_f32,
        powi_i64,
        powi_f64_rt,
        powi_f32_rt
    ]
}
