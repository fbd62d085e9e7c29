//! Runtime helpers that compiled code calls for Python's float floor division/modulo, powers
//! and the builtins table's helpers (gcd, frexp). They call the very functions the reference
//! interpreter uses, so host results match the oracle bit for bit. Math functions such as `exp`
//! are imported as `twinjit_libm_exp`, bound to the address the builtins table gives the
//! interpreter.
//!
//! [`symbols`] lists every symbol compiled code may import; a loaded artifact naming any other
//! symbol is refused (the JIT would panic on an unresolvable name).

use std::sync::OnceLock;
use twinjit_ir::builtins::Helper;
use twinjit_ir::interp::{divmod_f32, divmod_f64, int_gcd, int_pow, powi_f32, powi_f64};

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
// numba.get_num_threads() / set_num_threads(n) / get_thread_id() (`parallel.rs`).
extern "C" fn get_num_threads() -> i64 {
    crate::parallel::get_num_threads() as i64
}
extern "C" fn set_num_threads(n: i64) -> i64 {
    crate::parallel::set_num_threads(usize::try_from(n).unwrap_or(0));
    0
}
extern "C" fn thread_id() -> i64 {
    crate::parallel::thread_id() as i64
}
// `print(...)`: the pieces compiled code writes to standard output (the interpreter's
// functions, so both print the same text).
extern "C" fn print_bytes(bits: i64, n: i64) -> i64 {
    twinjit_ir::interp::print_out::bytes(bits, n);
    0
}
extern "C" fn print_int(x: i64) -> i64 {
    twinjit_ir::interp::print_out::int(x);
    0
}
extern "C" fn print_uint(x: u64) -> i64 {
    twinjit_ir::interp::print_out::uint(x);
    0
}
extern "C" fn print_float(x: f64) -> i64 {
    twinjit_ir::interp::print_out::float(x);
    0
}
extern "C" fn print_bool(x: bool) -> i64 {
    twinjit_ir::interp::print_out::boolean(x);
    0
}
extern "C" fn print_complex(re: f64, im: f64) -> i64 {
    twinjit_ir::interp::print_out::complex(re, im);
    0
}
extern "C" fn powi_u64(x: u64, y: u64) -> u64 {
    twinjit_ir::interp::uint_pow(x, y)
}
extern "C" fn powi_f64_rt(x: f64, y: i64) -> f64 {
    powi_f64(x, y).unwrap_or(f64::INFINITY)
}
extern "C" fn powi_f32_rt(x: f32, y: i64) -> f32 {
    powi_f32(x, y).unwrap_or(f32::INFINITY)
}

extern "C" fn gcd_i64(x: i64, y: i64) -> i64 {
    int_gcd(x, y)
}
extern "C" fn frexp_mantissa_f64(x: f64) -> f64 {
    twinjit_ir::libm::frexp(x).0
}
extern "C" fn frexp_mantissa_f32(x: f32) -> f32 {
    twinjit_ir::libm::frexpf(x).0
}
extern "C" fn frexp_exponent_f64(x: f64) -> i32 {
    twinjit_ir::libm::frexp(x).1
}
extern "C" fn frexp_exponent_f32(x: f32) -> i32 {
    twinjit_ir::libm::frexpf(x).1
}

extern "C" fn random_seed(s: i64) -> i64 {
    twinjit_ir::random::seed(s);
    0
}
extern "C" fn random_double() -> f64 {
    twinjit_ir::random::next_double()
}
extern "C" fn random_gauss() -> f64 {
    twinjit_ir::random::gauss()
}
extern "C" fn random_below(n: i64) -> i64 {
    twinjit_ir::random::below(n)
}
extern "C" fn py_random_int(kind: i64, a: i64, b: i64, c: i64) -> i64 {
    twinjit_ir::random::py_int(kind, a, b, c)
}
extern "C" fn py_random_float(kind: i64, a: f64, b: f64, c: f64) -> f64 {
    twinjit_ir::random::py_float(kind, a, b, c)
}

/// `c = a @ b` through `twinjit_ir::gemm` on the shapes and element strides compiled code holds.
///
/// # Safety
/// The parts of three live arrays of these shapes and strides; `c` is a new array.
#[allow(clippy::too_many_arguments)]
unsafe fn gemm<T: twinjit_ir::gemm::GemmFloat>(
    (m, k, n): (i64, i64, i64),
    a: *const T,
    sa: (i64, i64),
    b: *const T,
    sb: (i64, i64),
    c: *mut T,
    sc: (i64, i64),
) -> i64 {
    let d = |x: i64| x.max(0) as usize;
    let s = |p: (i64, i64)| (p.0 as isize, p.1 as isize);
    // SAFETY: the caller's contract.
    unsafe { T::gemm_raw((d(m), d(k), d(n)), a, s(sa), b, s(sb), c, s(sc)) };
    0
}

macro_rules! gemm_entry {
    ($($name:ident: $t:ty),*) => {$(
        /// `c = a @ b` of matrices of this float type (the `gemm` helper).
        #[allow(clippy::too_many_arguments)]
        extern "C" fn $name(
            m: i64, k: i64, n: i64,
            a: *const $t, rsa: i64, csa: i64,
            b: *const $t, rsb: i64, csb: i64,
            c: *mut $t, rsc: i64, csc: i64,
        ) -> i64 {
            // SAFETY: compiled code passes the parts of three live arrays of these shapes and
            // strides; `c` is the new array the rewrite made for the result.
            unsafe { gemm((m, k, n), a, (rsa, csa), b, (rsb, csb), c, (rsc, csc)) }
        }
    )*};
}
gemm_entry!(gemm_f64: f64, gemm_f32: f32);

/// The helper symbol of a table helper for a float (`f32` chooses the float32 form; ignored
/// for integer helpers).
pub(crate) fn helper_symbol(h: Helper, f32: bool) -> &'static str {
    match (h, f32) {
        (Helper::Gcd, _) => "twinjit_gcd_i64",
        (Helper::GetNumThreads, _) => "twinjit_get_num_threads",
        (Helper::SetNumThreads, _) => "twinjit_set_num_threads",
        (Helper::ThreadId, _) => "twinjit_thread_id",
        (Helper::FrexpMantissa, false) => "twinjit_frexp_mantissa_f64",
        (Helper::FrexpMantissa, true) => "twinjit_frexp_mantissa_f32",
        (Helper::FrexpExponent, false) => "twinjit_frexp_exponent_f64",
        (Helper::FrexpExponent, true) => "twinjit_frexp_exponent_f32",
        (Helper::RandomSeed, _) => "twinjit_random_seed",
        (Helper::RandomDouble, _) => "twinjit_random_double",
        (Helper::RandomGauss, _) => "twinjit_random_gauss",
        (Helper::RandomBelow, _) => "twinjit_random_below",
        (Helper::PyRandomInt, _) => "twinjit_py_random_int",
        (Helper::PyRandomFloat, _) => "twinjit_py_random_float",
        (Helper::PrintBytes, _) => "twinjit_print_bytes",
        (Helper::PrintInt, _) => "twinjit_print_int",
        (Helper::PrintUInt, _) => "twinjit_print_uint",
        (Helper::PrintFloat, _) => "twinjit_print_float",
        (Helper::PrintBool, _) => "twinjit_print_bool",
        (Helper::PrintComplex, _) => "twinjit_print_complex",
        (Helper::Gemm, false) => "twinjit_gemm_f64",
        (Helper::Gemm, true) => "twinjit_gemm_f32",
    }
}

/// The memory manager's allocation (`memory::twinjit_nrt_new`).
pub(crate) const NRT_NEW: &str = "twinjit_nrt_new";
/// The checked product of two dimensions (`memory::twinjit_dims_product`), folding the
/// dimensions of an array of more than three into `NRT_NEW`'s three.
pub(crate) const DIMS_PRODUCT: &str = "twinjit_dims_product";
/// The memory manager's free (`memory::twinjit_nrt_free`).
pub(crate) const NRT_FREE: &str = "twinjit_nrt_free";
/// A `try` handler caught an exception (`memory::twinjit_nrt_caught`).
pub(crate) const NRT_CAUGHT: &str = "twinjit_nrt_caught";

/// A new list (`memory::twinjit_list_new`).
pub(crate) const LIST_NEW: &str = "twinjit_list_new";
/// A list's new length (`memory::twinjit_list_resize`).
pub(crate) const LIST_RESIZE: &str = "twinjit_list_resize";

/// Runs the chunks of a `parallel_for` (`parallel::twinjit_parallel_for`).
pub(crate) const PARALLEL_FOR: &str = "twinjit_parallel_for";

/// A barrier of a `cuda-sim` kernel (`sim::sync`).
pub(crate) const SIM_SYNC: &str = "twinjit_sim_sync";
/// A warp operation of a `cuda-sim` kernel (`sim::warp`).
pub(crate) const SIM_WARP: &str = "twinjit_sim_warp";
/// An atomic of a `cuda-sim` kernel (`sim::atomic`).
pub(crate) const SIM_ATOMIC: &str = "twinjit_sim_atomic";
/// An element access the race checker of `cuda-sim` records (`sim::race_access`).
pub(crate) const SIM_RACE: &str = "twinjit_sim_race";
/// float16 bits to float32 (exact; `cuda-sim`).
pub(crate) const F16_TO_F32: &str = "twinjit_f16_to_f32";
/// float32 to float16 bits, rounded once to nearest even.
pub(crate) const F32_TO_F16: &str = "twinjit_f32_to_f16";
/// float64 to float16 bits, rounded once to nearest even.
pub(crate) const F64_TO_F16: &str = "twinjit_f64_to_f16";

extern "C" fn f16_to_f32(bits: u16) -> f32 {
    twinjit_ir::half::f16::from_bits(bits).to_f32()
}
extern "C" fn f32_to_f16(x: f32) -> u16 {
    twinjit_ir::half::f16::from_f32(x).to_bits()
}
extern "C" fn f64_to_f16(x: f64) -> u16 {
    twinjit_ir::half::f16::from_f64(x).to_bits()
}

/// (symbol name, address) of every symbol compiled code may import: the runtime helpers and
/// the builtins table's libm functions (the interpreter's very functions). Built once.
pub(crate) fn symbols() -> &'static [(Box<str>, usize)] {
    static SYMBOLS: OnceLock<Vec<(Box<str>, usize)>> = OnceLock::new();
    SYMBOLS.get_or_init(|| {
        macro_rules! s {
            ($($n:ident),*) => { vec![$((Box::from(concat!("twinjit_", stringify!($n))), $n as *const u8 as usize)),*] };
        }
        let mut v = s![
            floordiv_f64,
            mod_f64,
            floordiv_f32,
            mod_f32,
            powi_i64,
            powi_u64,
            print_bytes,
            print_int,
            print_uint,
            print_float,
            print_bool,
            print_complex,
            powi_f64_rt,
            powi_f32_rt,
            gcd_i64,
            frexp_mantissa_f64,
            frexp_mantissa_f32,
            frexp_exponent_f64,
            frexp_exponent_f32,
            random_seed,
            random_double,
            random_gauss,
            random_below,
            py_random_int,
            py_random_float,
            gemm_f64,
            gemm_f32,
            get_num_threads,
            set_num_threads,
            thread_id
        ];
        v.push((Box::from(NRT_NEW), crate::memory::twinjit_nrt_new as *const u8 as usize));
        v.push((Box::from(DIMS_PRODUCT), crate::memory::twinjit_dims_product as *const u8 as usize));
        v.push((Box::from(NRT_FREE), crate::memory::twinjit_nrt_free as *const u8 as usize));
        v.push((Box::from(NRT_CAUGHT), crate::memory::twinjit_nrt_caught as *const u8 as usize));
        v.push((Box::from(LIST_NEW), crate::memory::twinjit_list_new as *const u8 as usize));
        v.push((Box::from(LIST_RESIZE), crate::memory::twinjit_list_resize as *const u8 as usize));
        v.push((Box::from(PARALLEL_FOR), crate::parallel::twinjit_parallel_for as *const u8 as usize));
        v.push((Box::from(SIM_SYNC), crate::sim::sync as *const u8 as usize));
        v.push((Box::from(SIM_WARP), crate::sim::warp as *const u8 as usize));
        v.push((Box::from(SIM_ATOMIC), crate::sim::atomic as *const u8 as usize));
        v.push((Box::from(SIM_RACE), crate::sim::race_access as *const u8 as usize));
        v.push((Box::from(F16_TO_F32), f16_to_f32 as *const u8 as usize));
        v.push((Box::from(F32_TO_F16), f32_to_f16 as *const u8 as usize));
        v.push((Box::from(F64_TO_F16), f64_to_f16 as *const u8 as usize));
        v.extend(twinjit_ir::builtins::libm_symbols().into_iter().map(|(n, p)| (n.into_boxed_str(), p as usize)));
        v
    })
}

/// The address of the import `name`, if compiled code may import it.
pub(crate) fn lookup(name: &str) -> Option<*const u8> {
    symbols().iter().find(|(n, _)| &**n == name).map(|(_, p)| *p as *const u8)
}

/// Whether compiled code may import `name`.
pub(crate) fn is_known_import(name: &str) -> bool {
    lookup(name).is_some()
}
