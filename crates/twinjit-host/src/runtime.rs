//! Runtime helpers that compiled code calls for Python's float floor division/modulo and
//! powers. They call the very functions the reference interpreter uses, so host results match
//! the oracle bit for bit. (Math functions such as `exp` are libm's own symbols, resolved by the
//! JIT: the same functions Rust's `f64::exp` calls.)
//!
//! [`is_known_import`] lists every symbol compiled code may import; a loaded artifact naming
//! any other symbol is refused (the JIT would panic on an unresolvable name).

use twinjit_ir::interp::{divmod_f32, divmod_f64, int_pow, powi_f32, powi_f64};

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
    s![floordiv_f64, mod_f64, floordiv_f32, mod_f32, powi_i64, powi_f64_rt, powi_f32_rt]
}

/// libm functions compiled code calls, in their `f64` form (the `f32` form adds `f`).
const LIBM: &[&str] = &[
    "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "atan2", "pow",
    "hypot",
];

/// Whether compiled code may import `name`: a runtime helper or a libm function.
pub(crate) fn is_known_import(name: &str) -> bool {
    let libm = |n: &str| LIBM.contains(&n) || n.strip_suffix('f').is_some_and(|b| LIBM.contains(&b));
    libm(name) || symbols().iter().any(|(s, _)| *s == name)
}
