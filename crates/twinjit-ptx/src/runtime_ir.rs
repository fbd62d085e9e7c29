//! LLVM IR text of the small runtime helpers compiled code calls: Python's floor division and
//! modulo, powers by an integer. Each is emitted once per module when used, `alwaysinline`, and
//! computes exactly what the reference interpreter's `interp::arith` computes (same algorithm,
//! same operation order), so GPU results match the oracle.

/// `(name, LLVM IR definition)` of the helper `name`, or `None` if there is no such helper.
pub(crate) fn helper(name: &str) -> Option<String> {
    Some(match name {
        "__tj_floordiv_i64" => int_divmod(name, true),
        "__tj_mod_i64" => int_divmod(name, false),
        "__tj_divmod_f64" => float_divmod(name, "double", "f64"),
        "__tj_divmod_f32" => float_divmod(name, "float", "f32"),
        "__tj_powi_f64" => powi_float(name, "double", "__nv_pow"),
        "__tj_powi_f32" => powi_float(name, "float", "__nv_powf"),
        "__tj_powi_i64" => powi_int(name),
        "__tj_gcd_i64" => gcd(name),
        "__tj_frexp_mantissa_f64" => frexp(name, "double", "__nv_frexp", false),
        "__tj_frexp_mantissa_f32" => frexp(name, "float", "__nv_frexpf", false),
        "__tj_frexp_exponent_f64" => frexp(name, "double", "__nv_frexp", true),
        "__tj_frexp_exponent_f32" => frexp(name, "float", "__nv_frexpf", true),
        _ => return None,
    })
}

/// Libdevice functions a helper calls (they must be declared when the helper is used).
pub(crate) fn helper_needs(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "__tj_powi_f64" => &[
            ("__nv_pow", "declare double @__nv_pow(double, double)"),
            ("llvm.abs.i64", "declare i64 @llvm.abs.i64(i64, i1)"),
        ],
        "__tj_powi_f32" => &[
            ("__nv_powf", "declare float @__nv_powf(float, float)"),
            ("llvm.abs.i64", "declare i64 @llvm.abs.i64(i64, i1)"),
        ],
        "__tj_divmod_f64" => &[
            ("llvm.copysign.f64", "declare double @llvm.copysign.f64(double, double)"),
            ("llvm.floor.f64", "declare double @llvm.floor.f64(double)"),
        ],
        "__tj_gcd_i64" => &[("llvm.abs.i64", "declare i64 @llvm.abs.i64(i64, i1)")],
        "__tj_frexp_mantissa_f64" | "__tj_frexp_exponent_f64" => {
            &[("__nv_frexp", "declare double @__nv_frexp(double, ptr)")]
        }
        "__tj_frexp_mantissa_f32" | "__tj_frexp_exponent_f32" => {
            &[("__nv_frexpf", "declare float @__nv_frexpf(float, ptr)")]
        }
        "__tj_divmod_f32" => &[
            ("llvm.copysign.f32", "declare float @llvm.copysign.f32(float, float)"),
            ("llvm.floor.f32", "declare float @llvm.floor.f32(float)"),
        ],
        _ => &[],
    }
}

/// Python `//` or `%` on int64; a zero divisor gives 0 (the IR's raw semantics: the Python error
/// model raises before, through `checknonzero`), `MIN // -1` wraps.
fn int_divmod(name: &str, floor: bool) -> String {
    let tail = if floor {
        "  %q1 = sub i64 %q, 1\n  %res = select i1 %adj, i64 %q1, i64 %q\n"
    } else {
        "  %r1 = add i64 %r, %y\n  %res = select i1 %adj, i64 %r1, i64 %r\n"
    };
    format!(
        "define internal i64 @{name}(i64 %x, i64 %y) alwaysinline {{
  %z = icmp eq i64 %y, 0
  %m1 = icmp eq i64 %y, -1
  %g = or i1 %z, %m1
  %safe = select i1 %g, i64 1, i64 %y
  %q0 = sdiv i64 %x, %safe
  %r0 = srem i64 %x, %safe
  %nx = sub i64 0, %x
  %q = select i1 %m1, i64 %nx, i64 %q0
  %r = select i1 %m1, i64 0, i64 %r0
  %rnz = icmp ne i64 %r, 0
  %sx = xor i64 %r, %y
  %diff = icmp slt i64 %sx, 0
  %adj = and i1 %rnz, %diff
{tail}  %out = select i1 %z, i64 0, i64 %res
  ret i64 %out
}}
"
    )
}

/// CPython's float divmod (as `interp::divmod_f64`): returns `{floordiv, mod}`.
fn float_divmod(name: &str, t: &str, sfx: &str) -> String {
    format!(
        "define internal {{ {t}, {t} }} @{name}({t} %vx, {t} %wx) alwaysinline {{
  %m = frem {t} %vx, %wx
  %d0 = fsub {t} %vx, %m
  %div = fdiv {t} %d0, %wx
  %mnz = fcmp une {t} %m, 0.0
  %wneg = fcmp olt {t} %wx, 0.0
  %mneg = fcmp olt {t} %m, 0.0
  %sd = xor i1 %wneg, %mneg
  %adj = and i1 %mnz, %sd
  %madj = fadd {t} %m, %wx
  %dadj = fsub {t} %div, 1.0
  %m1 = select i1 %adj, {t} %madj, {t} %m
  %div1 = select i1 %adj, {t} %dadj, {t} %div
  %mz = call {t} @llvm.copysign.{sfx}({t} 0.0, {t} %wx)
  %m2 = select i1 %mnz, {t} %m1, {t} %mz
  %dnz = fcmp une {t} %div1, 0.0
  %fd = call {t} @llvm.floor.{sfx}({t} %div1)
  %fdiff = fsub {t} %div1, %fd
  %gt = fcmp ogt {t} %fdiff, 0.5
  %fd1 = fadd {t} %fd, 1.0
  %fd2 = select i1 %gt, {t} %fd1, {t} %fd
  %q = fdiv {t} %vx, %wx
  %qz = call {t} @llvm.copysign.{sfx}({t} 0.0, {t} %q)
  %fl = select i1 %dnz, {t} %fd2, {t} %qz
  %r0 = insertvalue {{ {t}, {t} }} poison, {t} %fl, 0
  %r1 = insertvalue {{ {t}, {t} }} %r0, {t} %m2, 1
  ret {{ {t}, {t} }} %r1
}}
"
    )
}

/// `float ** int` by repeated squaring (`pow` for exponents beyond 2^16), as `interp::powi_f64`.
/// The zero-base negative-exponent error is checked by the caller.
fn powi_float(name: &str, t: &str, pow: &str) -> String {
    format!(
        "define internal {t} @{name}({t} %a, i64 %b) alwaysinline {{
entry:
  %ab = call i64 @llvm.abs.i64(i64 %b, i1 false)
  %big = icmp ugt i64 %ab, 65536
  br i1 %big, label %huge, label %loop
huge:
  %bf = sitofp i64 %b to {t}
  %p = call {t} @{pow}({t} %a, {t} %bf)
  ret {t} %p
{loop}exit:
  %neg = icmp slt i64 %b, 0
  %inv = fdiv {t} 1.0, %r
  %res = select i1 %neg, {t} %inv, {t} %r
  ret {t} %res
}}
",
        loop = square_and_multiply(t, "1.0", "fmul", "%ab")
    )
}

/// Numba's integer power (as `interp::int_pow`): wrapping repeated squaring; a negative
/// exponent gives 0 unless the base is ±1 (the zero base is checked by the caller).
fn powi_int(name: &str) -> String {
    format!(
        "define internal i64 @{name}(i64 %a, i64 %b) alwaysinline {{
entry:
  %neg = icmp slt i64 %b, 0
  br i1 %neg, label %negexp, label %loop
negexp:
  %one = icmp eq i64 %a, 1
  %mone = icmp eq i64 %a, -1
  %bodd = and i64 %b, 1
  %odd = icmp ne i64 %bodd, 0
  %pm = select i1 %odd, i64 -1, i64 1
  %r_m = select i1 %mone, i64 %pm, i64 0
  %r_n = select i1 %one, i64 1, i64 %r_m
  ret i64 %r_n
{loop}exit:
  ret i64 %r
}}
",
        loop = square_and_multiply("i64", "1", "mul", "%b")
    )
}

/// The square-and-multiply loop of both powers, blocks `loop` and `body`: entered from
/// `entry` with the base in `%a` and the non-negative exponent `exp`, it leaves `%a ** exp`
/// (wrapping or rounding as `mul` does) in `%r` and branches to `exit`.
fn square_and_multiply(t: &str, one: &str, mul: &str, exp: &str) -> String {
    format!(
        "loop:
  %r = phi {t} [ {one}, %entry ], [ %r2, %body ]
  %base = phi {t} [ %a, %entry ], [ %base2, %body ]
  %e = phi i64 [ {exp}, %entry ], [ %e2, %body ]
  %done = icmp eq i64 %e, 0
  br i1 %done, label %exit, label %body
body:
  %bit = and i64 %e, 1
  %isodd = icmp ne i64 %bit, 0
  %rm = {mul} {t} %r, %base
  %r2 = select i1 %isodd, {t} %rm, {t} %r
  %e2 = lshr i64 %e, 1
  %base2 = {mul} {t} %base, %base
  br label %loop
"
    )
}

/// `math.gcd` on int64 (as `interp::int_gcd`): Euclid on the unsigned magnitudes.
fn gcd(name: &str) -> String {
    format!(
        "define internal i64 @{name}(i64 %a, i64 %b) alwaysinline {{
entry:
  %xa = call i64 @llvm.abs.i64(i64 %a, i1 false)
  %yb = call i64 @llvm.abs.i64(i64 %b, i1 false)
  br label %loop
loop:
  %x = phi i64 [ %xa, %entry ], [ %y, %body ]
  %y = phi i64 [ %yb, %entry ], [ %r, %body ]
  %done = icmp eq i64 %y, 0
  br i1 %done, label %exit, label %body
body:
  %r = urem i64 %x, %y
  br label %loop
exit:
  ret i64 %x
}}
"
    )
}

/// The mantissa or the exponent of libdevice's `frexp`.
fn frexp(name: &str, t: &str, nv: &str, exponent: bool) -> String {
    let (rt, tail) = if exponent { ("i32", "  %e = load i32, ptr %p\n  ret i32 %e\n") } else { (t, "  ret {t} %m\n") };
    let tail = tail.replace("{t}", t);
    format!(
        "define internal {rt} @{name}({t} %x) alwaysinline {{
  %p = alloca i32
  %m = call {t} @{nv}({t} %x, ptr %p)
{tail}}}
"
    )
}
