//! Scalar arithmetic with Python/Numba semantics, shared by the interpreter and (as the
//! definition) by the backends' tests.

use super::value::RtValue;
use super::RuntimeErrorKind;
use crate::builtins::{Builtin, Helper, Intrinsic, LibmSig, Lowering};
use crate::function::{BinaryOp, CmpOp, UnaryOp};
use crate::libm;
use crate::types::{Scalar, Type};

pub(super) fn is_zero(v: &RtValue) -> bool {
    match v {
        RtValue::Bool(b) => !b,
        RtValue::I32(i) => *i == 0,
        RtValue::I64(i) => *i == 0,
        RtValue::F32(x) => *x == 0.0,
        RtValue::F64(x) => *x == 0.0,
        RtValue::F16(x) => x.to_f32() == 0.0,
        RtValue::C64([re, im]) => *re == 0.0 && *im == 0.0,
        RtValue::C128([re, im]) => *re == 0.0 && *im == 0.0,
        v => v.int_bits().is_some_and(|(_, b)| b == 0),
    }
}

/// Python floor division of integers (0 for a zero divisor: the NumPy error model).
pub fn int_floordiv(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let q = a.wrapping_div(b);
    if a.wrapping_rem(b) != 0 && ((a < 0) != (b < 0)) {
        q.wrapping_sub(1)
    } else {
        q
    }
}

/// Python modulo of integers: the result has the divisor's sign (0 for a zero divisor).
pub fn int_mod(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r.wrapping_add(b)
    } else {
        r
    }
}

/// Numba's integer power: repeated squaring with wraparound; a negative exponent gives 0
/// unless the base is ±1, and `0 ** negative` is an error.
pub fn int_pow(a: i64, b: i64) -> Result<i64, RuntimeErrorKind> {
    if b < 0 {
        return match a {
            0 => Err(RuntimeErrorKind::ZeroDivision),
            1 => Ok(1),
            -1 => Ok(if b % 2 == 0 { 1 } else { -1 }),
            _ => Ok(0),
        };
    }
    let (mut r, mut base, mut e) = (1i64, a, b as u64);
    while e != 0 {
        if e & 1 == 1 {
            r = r.wrapping_mul(base);
        }
        e >>= 1;
        base = base.wrapping_mul(base);
    }
    Ok(r)
}

macro_rules! float_ops {
    ($divmod:ident, $powi:ident, $t:ty) => {
        /// CPython's float divmod (which Numba reproduces): (floor quotient, modulo).
        pub fn $divmod(vx: $t, wx: $t) -> ($t, $t) {
            let mut m = vx % wx;
            let mut div = (vx - m) / wx;
            if m != 0.0 {
                if (wx < 0.0) != (m < 0.0) {
                    m += wx;
                    div -= 1.0;
                }
            } else {
                m = (0.0 as $t).copysign(wx);
            }
            let floordiv = if div != 0.0 {
                let mut fd = div.floor();
                if div - fd > 0.5 {
                    fd += 1.0;
                }
                fd
            } else {
                (0.0 as $t).copysign(vx / wx)
            };
            (floordiv, m)
        }

        /// `float ** int` as Numba computes it: repeated squaring (pow for huge exponents);
        /// `0.0 ** negative` raises `ZeroDivisionError` as in Numba.
        pub fn $powi(a: $t, b: i64) -> Result<$t, RuntimeErrorKind> {
            if a == 0.0 && b < 0 {
                return Err(RuntimeErrorKind::ZeroDivision);
            }
            if b.unsigned_abs() > 0x10000 {
                return Ok(a.powf(b as $t));
            }
            let (mut r, mut base, mut e) = (1.0 as $t, a, b.unsigned_abs());
            while e != 0 {
                if e & 1 == 1 {
                    r *= base;
                }
                e >>= 1;
                base *= base;
            }
            Ok(if b < 0 { 1.0 / r } else { r })
        }
    };
}
float_ops!(divmod_f64, powi_f64, f64);
float_ops!(divmod_f32, powi_f32, f32);

/// Integer power of unsigned integers: repeated squaring with wraparound.
pub fn uint_pow(a: u64, b: u64) -> u64 {
    let (mut r, mut base, mut e) = (1u64, a, b);
    while e != 0 {
        if e & 1 == 1 {
            r = r.wrapping_mul(base);
        }
        e >>= 1;
        base = base.wrapping_mul(base);
    }
    r
}

/// An integer result's bits as integer type `s`.
fn reinterpret(r: RtValue, s: Scalar) -> RtValue {
    match r.int_bits() {
        Some((_, b)) => RtValue::int(s, b),
        None => r,
    }
}

fn shl(a: i64, b: i64) -> i64 {
    if (0..64).contains(&b) {
        a.wrapping_shl(b as u32)
    } else {
        0
    }
}

fn shr(a: i64, b: i64) -> i64 {
    if (0..64).contains(&b) {
        a >> b
    } else if a < 0 {
        -1
    } else {
        0
    }
}

pub(super) fn unary(op: UnaryOp, a: &RtValue) -> RtValue {
    match (op, a) {
        (UnaryOp::Not, x) => RtValue::Bool(is_zero(x)),
        (UnaryOp::Pos, x) => x.clone(),
        (UnaryOp::Neg, RtValue::I64(i)) => RtValue::I64(i.wrapping_neg()),
        (UnaryOp::Neg, RtValue::I32(i)) => RtValue::I32(i.wrapping_neg()),
        (UnaryOp::Neg, RtValue::F64(x)) => RtValue::F64(-x),
        (UnaryOp::Neg, RtValue::F32(x)) => RtValue::F32(-x),
        (UnaryOp::Neg, RtValue::F16(x)) => RtValue::F16(-*x),
        (UnaryOp::Invert, RtValue::Bool(b)) => RtValue::Bool(!b),
        (UnaryOp::Invert, RtValue::I64(i)) => RtValue::I64(!i),
        (UnaryOp::Invert, RtValue::I32(i)) => RtValue::I32(!i),
        (UnaryOp::Neg | UnaryOp::Invert, x) => match x.int_bits() {
            Some((s, b)) => RtValue::int(s, if op == UnaryOp::Neg { b.wrapping_neg() } else { !b }),
            None => x.clone(),
        },
    }
}

pub(super) fn binary(op: BinaryOp, a: &RtValue, b: &RtValue) -> Result<RtValue, RuntimeErrorKind> {
    use BinaryOp::*;
    Ok(match (a, b) {
        (RtValue::I64(x), RtValue::I64(y)) => {
            let (x, y) = (*x, *y);
            match op {
                Add => RtValue::I64(x.wrapping_add(y)),
                Sub => RtValue::I64(x.wrapping_sub(y)),
                Mul => RtValue::I64(x.wrapping_mul(y)),
                Div => RtValue::F64(x as f64 / y as f64),
                FloorDiv => RtValue::I64(int_floordiv(x, y)),
                Mod => RtValue::I64(int_mod(x, y)),
                Pow => RtValue::I64(int_pow(x, y)?),
                BitAnd => RtValue::I64(x & y),
                BitOr => RtValue::I64(x | y),
                BitXor => RtValue::I64(x ^ y),
                Shl => RtValue::I64(shl(x, y)),
                Shr => RtValue::I64(shr(x, y)),
            }
        }
        (RtValue::Bool(x), RtValue::Bool(y)) => match op {
            BitAnd => RtValue::Bool(*x & *y),
            BitOr => RtValue::Bool(*x | *y),
            BitXor => RtValue::Bool(*x ^ *y),
            _ => return binary(op, &RtValue::I64(*x as i64), &RtValue::I64(*y as i64)),
        },
        (RtValue::F64(x), RtValue::F64(y)) => RtValue::F64(float64(op, *x, *y)),
        (RtValue::F32(x), RtValue::F32(y)) => RtValue::F32(float32(op, *x, *y)),
        // float16 arithmetic in float32, rounded once: exact for + - * / (float32 holds every
        // product and quotient bit float16 rounding needs), as PTX's `.f16` instructions give.
        (RtValue::F16(x), RtValue::F16(y)) => RtValue::F16(half::f16::from_f32(float32(op, x.to_f32(), y.to_f32()))),
        (RtValue::F64(x), RtValue::I64(y)) if op == Pow => RtValue::F64(powi_f64(*x, *y)?),
        (RtValue::F32(x), RtValue::I64(y)) if op == Pow => RtValue::F32(powi_f32(*x, *y)?),
        (RtValue::U64(x), RtValue::U64(y)) => {
            let (x, y) = (*x, *y);
            let r = match op {
                Div => return Ok(RtValue::F64(x as f64 / y as f64)),
                FloorDiv => x.checked_div(y).unwrap_or(0),
                Mod => x.checked_rem(y).unwrap_or(0),
                Pow => uint_pow(x, y),
                Shr if y < 64 => x >> y,
                Shr => 0,
                _ => {
                    return binary(op, &RtValue::I64(x as i64), &RtValue::I64(y as i64))
                        .map(|r| reinterpret(r, Scalar::UInt64))
                }
            };
            RtValue::U64(r)
        }
        (RtValue::F64(x), RtValue::U64(y)) if op == Pow => RtValue::F64(powi_f64(*x, *y as i64)?),
        (RtValue::F32(x), RtValue::U64(y)) if op == Pow => RtValue::F32(powi_f32(*x, *y as i64)?),
        // Narrower integers of one type: compute in 64 bits of the same signedness, wrap back.
        (x, y) if x.int_bits().is_some() && x.ty() == y.ty() => {
            let ((s, a), (_, b)) = (x.int_bits().expect("int"), y.int_bits().expect("int"));
            let wide = if s.is_unsigned() {
                (RtValue::U64(a as u64), RtValue::U64(b as u64))
            } else {
                (RtValue::I64(a), RtValue::I64(b))
            };
            match binary(op, &wide.0, &wide.1)? {
                r @ RtValue::F64(_) => r,
                r => reinterpret(r, s),
            }
        }
        _ => return Err(RuntimeErrorKind::Unsupported(format!("{} on {:?} and {:?}", op.name(), a.ty(), b.ty()))),
    })
}

/// Float arithmetic in one width: `divmod` is Python's for that width, `pow` the C library's
/// (the function the host's compiled `**` calls).
fn float_op<F>(op: BinaryOp, x: F, y: F, divmod: fn(F, F) -> (F, F), pow: impl Fn(F, F) -> F, nan: F) -> F
where
    F: std::ops::Add<Output = F> + std::ops::Sub<Output = F> + std::ops::Mul<Output = F> + std::ops::Div<Output = F>,
{
    use BinaryOp::*;
    match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div => x / y,
        FloorDiv => divmod(x, y).0,
        Mod => divmod(x, y).1,
        Pow => pow(x, y),
        _ => nan,
    }
}

fn float64(op: BinaryOp, x: f64, y: f64) -> f64 {
    float_op(op, x, y, divmod_f64, |a, b| crate::libm::pow(a, b), f64::NAN)
}

fn float32(op: BinaryOp, x: f32, y: f32) -> f32 {
    float_op(op, x, y, divmod_f32, |a, b| crate::libm::powf(a, b), f32::NAN)
}

pub(super) fn compare(op: CmpOp, a: &RtValue, b: &RtValue) -> bool {
    fn cmp<T: PartialOrd>(op: CmpOp, x: T, y: T) -> bool {
        op.eval(x, y)
    }
    match (a, b) {
        (RtValue::Bool(x), RtValue::Bool(y)) => cmp(op, x, y),
        (RtValue::I32(x), RtValue::I32(y)) => cmp(op, x, y),
        (RtValue::I64(x), RtValue::I64(y)) => cmp(op, x, y),
        (RtValue::F32(x), RtValue::F32(y)) => cmp(op, x, y),
        (RtValue::F64(x), RtValue::F64(y)) => cmp(op, x, y),
        (RtValue::F16(x), RtValue::F16(y)) => cmp(op, x.to_f32(), y.to_f32()),
        (x, y) => match (x.int_bits(), y.int_bits()) {
            (Some((s, a)), Some((t, b))) => cmp(op, s.int_value(a), t.int_value(b)),
            _ => false,
        },
    }
}

/// Converts a scalar value to `to` with the IR's `cast` semantics: integers wrap to the
/// target's width; a float converts to an integer by truncation toward zero, saturating at
/// the limits of int64 (of uint64 for a non-negative float cast to `uint64`), then wraps to
/// the target's width (Numba leaves out-of-range conversions undefined); NaN gives 0.
pub fn cast(v: &RtValue, to: Scalar) -> RtValue {
    if to == Scalar::Bool {
        return RtValue::Bool(!is_zero(v));
    }
    // A complex number converts part by part; a real number gets a zero imaginary part; a
    // complex number cast to a real type keeps its real part (NumPy's cast; typing refuses
    // the conversion in Python code).
    let (v, im) = match v {
        RtValue::C64([re, im]) => (&RtValue::F32(*re), RtValue::F32(*im)),
        RtValue::C128([re, im]) => (&RtValue::F64(*re), RtValue::F64(*im)),
        v => (v, RtValue::F64(0.0)),
    };
    if to.is_complex() {
        let f = to.component();
        return match (cast(v, f), cast(&im, f)) {
            (RtValue::F32(re), RtValue::F32(im)) => RtValue::C64([re, im]),
            (RtValue::F64(re), RtValue::F64(im)) => RtValue::C128([re, im]),
            _ => RtValue::None,
        };
    }
    let float = match v {
        RtValue::F32(x) => Some(*x as f64),
        RtValue::F64(x) => Some(*x),
        RtValue::F16(x) => Some(x.to_f64()),
        _ => None,
    };
    if to == Scalar::Float16 {
        // One rounding from the exact value: float64 holds every float16, float32 and integer
        // float16 can represent without overflow.
        return RtValue::F16(match (v, float, v.int_bits()) {
            (RtValue::F32(x), _, _) => half::f16::from_f32(*x),
            (_, Some(x), _) => half::f16::from_f64(x),
            (_, None, Some((Scalar::UInt64, b))) => half::f16::from_f64(b as u64 as f64),
            (_, None, Some((_, b))) => half::f16::from_f64(b as f64),
            _ => half::f16::ZERO,
        });
    }
    if to.is_float() {
        let x = match (float, v.int_bits()) {
            (Some(x), _) => x,
            (None, Some((Scalar::UInt64, b))) => {
                if to == Scalar::Float32 {
                    return RtValue::F32(b as u64 as f32);
                }
                b as u64 as f64
            }
            (None, Some((_, b))) => {
                if to == Scalar::Float32 {
                    return RtValue::F32(b as f32);
                }
                b as f64
            }
            _ => 0.0,
        };
        return if to == Scalar::Float32 {
            RtValue::F32(match v {
                RtValue::F32(x) => *x,
                _ => x as f32,
            })
        } else {
            RtValue::F64(x)
        };
    }
    let bits = match (float, v.int_bits()) {
        (Some(x), _) if to == Scalar::Int32 => x as i32 as i64,
        (Some(x), _) if to == Scalar::UInt64 && x >= 0.0 => x as u64 as i64,
        (Some(x), _) => x as i64,
        (None, Some((_, b))) => b,
        _ => 0,
    };
    RtValue::int(to, bits)
}

pub(super) fn builtin(b: Builtin, args: &[&RtValue], rty: &Type) -> Result<RtValue, RuntimeErrorKind> {
    let bad = || RuntimeErrorKind::Unsupported(format!("{} of {:?}", b.name(), args));
    if args.iter().any(|a| matches!(a, RtValue::F16(_))) {
        // float16 math runs in float32 and rounds the result (`cuda_fp16.h`'s way).
        let wide: Vec<RtValue> = args
            .iter()
            .map(|&a| match a {
                RtValue::F16(x) => RtValue::F32(x.to_f32()),
                other => other.clone(),
            })
            .collect();
        let r = builtin(b, &wide.iter().collect::<Vec<_>>(), rty)?;
        return Ok(match (r, rty.scalar()) {
            (r @ RtValue::F32(_), Some(Scalar::Float16)) => cast(&r, Scalar::Float16),
            (r, _) => r,
        });
    }
    match b.info().lowering {
        Lowering::Intrinsic(Intrinsic::SameAddress) => Ok(RtValue::Bool(match args {
            [RtValue::Array(x), RtValue::Array(y)] => std::rc::Rc::ptr_eq(&x.data, &y.data) && x.base == y.base,
            [RtValue::List(x), RtValue::List(y)] => std::rc::Rc::ptr_eq(&x.items, &y.items),
            _ => return Err(bad()),
        })),
        Lowering::Intrinsic(i) => intrinsic(i, args).ok_or_else(bad),
        Lowering::Libm(m) => Ok(match (m.sig, args) {
            (LibmSig::Unary(f, _), [RtValue::F64(x)]) => RtValue::F64(f(*x)),
            (LibmSig::Unary(_, g), [RtValue::F32(x)]) => RtValue::F32(g(*x)),
            (LibmSig::Binary(f, _), [RtValue::F64(x), RtValue::F64(y)]) => RtValue::F64(f(*x, *y)),
            (LibmSig::Binary(_, g), [RtValue::F32(x), RtValue::F32(y)]) => RtValue::F32(g(*x, *y)),
            (LibmSig::FloatInt(f, _), [RtValue::F64(x), RtValue::I32(n)]) => RtValue::F64(f(*x, *n)),
            (LibmSig::FloatInt(_, g), [RtValue::F32(x), RtValue::I32(n)]) => RtValue::F32(g(*x, *n)),
            _ => return Err(bad()),
        }),
        Lowering::Helper(h) => helper(h, args).ok_or_else(bad),
        Lowering::Rewritten => Err(RuntimeErrorKind::Unsupported(format!("{} reached the interpreter", b.name()))),
        Lowering::Kernel(_) => {
            Err(RuntimeErrorKind::Unsupported(format!("{} runs only in the kernel interpreter", b.name())))
        }
    }
}

fn intrinsic(i: Intrinsic, args: &[&RtValue]) -> Option<RtValue> {
    macro_rules! un {
        ($m:ident) => {
            match args {
                [RtValue::F64(x)] => RtValue::F64(x.$m()),
                [RtValue::F32(x)] => RtValue::F32(x.$m()),
                _ => return None,
            }
        };
    }
    macro_rules! pred {
        ($m:ident) => {
            match args {
                [RtValue::F64(x)] => RtValue::Bool(x.$m()),
                [RtValue::F32(x)] => RtValue::Bool(x.$m()),
                _ => return None,
            }
        };
    }
    Some(match i {
        Intrinsic::Sqrt => un!(sqrt),
        Intrinsic::Fabs => un!(abs),
        Intrinsic::Floor => un!(floor),
        Intrinsic::Ceil => un!(ceil),
        Intrinsic::Trunc => un!(trunc),
        Intrinsic::Rint => un!(round_ties_even),
        Intrinsic::Copysign => match args {
            [RtValue::F64(x), RtValue::F64(y)] => RtValue::F64(x.copysign(*y)),
            [RtValue::F32(x), RtValue::F32(y)] => RtValue::F32(x.copysign(*y)),
            _ => return None,
        },
        Intrinsic::IsNan => pred!(is_nan),
        Intrinsic::IsInf => pred!(is_infinite),
        Intrinsic::IsFinite => pred!(is_finite),
        Intrinsic::SameAddress => return None,
    })
}

/// Python's `math.gcd` on int64: non-negative, `gcd(0, 0) == 0`. `gcd(i64::MIN, 0)` is 2**63
/// in Python; it wraps to `i64::MIN` here (as in Numba).
pub fn int_gcd(a: i64, b: i64) -> i64 {
    let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x as i64
}

/// `c = a @ b` on the interpreter's arrays, by the kernels compiled code calls.
fn gemm(a: &super::value::ArrayRef, b: &super::value::ArrayRef, c: &super::value::ArrayRef) -> Option<()> {
    use super::value::ArrayData;
    let (m, k, n) = (a.shape[0] as usize, a.shape[1] as usize, b.shape[1] as usize);
    let st = |x: &super::value::ArrayRef| (x.strides[0], x.strides[1]);
    if a.view.is_some() || b.view.is_some() || c.view.is_some() {
        // A reinterpreting view (`z.real @ w`) has no typed storage of its own here.
        return None;
    }
    let (da, db) = (a.data.borrow(), b.data.borrow());
    let mut dc = c.data.borrow_mut();
    match (&*da, &*db, &mut *dc) {
        (ArrayData::F64(x), ArrayData::F64(y), ArrayData::F64(z)) => {
            crate::gemm::gemm((m, k, n), (x, a.base, st(a)), (y, b.base, st(b)), (z, c.base, st(c)))
        }
        (ArrayData::F32(x), ArrayData::F32(y), ArrayData::F32(z)) => {
            crate::gemm::gemm((m, k, n), (x, a.base, st(a)), (y, b.base, st(b)), (z, c.base, st(c)))
        }
        _ => None,
    }
}

fn helper(h: Helper, args: &[&RtValue]) -> Option<RtValue> {
    Some(match (h, args) {
        (Helper::Gcd, [RtValue::I64(a), RtValue::I64(b)]) => RtValue::I64(int_gcd(*a, *b)),
        (Helper::FrexpMantissa, [RtValue::F64(x)]) => RtValue::F64(libm::frexp(*x).0),
        (Helper::FrexpMantissa, [RtValue::F32(x)]) => RtValue::F32(libm::frexpf(*x).0),
        (Helper::FrexpExponent, [RtValue::F64(x)]) => RtValue::I32(libm::frexp(*x).1),
        (Helper::FrexpExponent, [RtValue::F32(x)]) => RtValue::I32(libm::frexpf(*x).1),
        (Helper::RandomSeed, [RtValue::I64(s)]) => {
            crate::random::seed(*s);
            RtValue::I64(0)
        }
        (Helper::RandomDouble, []) => RtValue::F64(crate::random::next_double()),
        // The interpreter runs a parallel loop's chunks on the calling thread, one after another.
        (Helper::GetNumThreads, []) => RtValue::I64(crate::threads::get() as i64),
        (Helper::SetNumThreads, [RtValue::I64(n)]) => {
            crate::threads::set(usize::try_from(*n).unwrap_or(0));
            RtValue::I64(0)
        }
        (Helper::ThreadId, []) => RtValue::I64(0),
        (Helper::PrintBytes, [RtValue::I64(bits), RtValue::I64(n)]) => {
            super::print_out::bytes(*bits, *n);
            RtValue::I64(0)
        }
        (Helper::PrintInt, [RtValue::I64(x)]) => {
            super::print_out::int(*x);
            RtValue::I64(0)
        }
        (Helper::PrintUInt, [RtValue::U64(x)]) => {
            super::print_out::uint(*x);
            RtValue::I64(0)
        }
        (Helper::PrintFloat, [RtValue::F64(x)]) => {
            super::print_out::float(*x);
            RtValue::I64(0)
        }
        (Helper::PrintBool, [RtValue::Bool(x)]) => {
            super::print_out::boolean(*x);
            RtValue::I64(0)
        }
        (Helper::PrintComplex, [RtValue::F64(re), RtValue::F64(im)]) => {
            super::print_out::complex(*re, *im);
            RtValue::I64(0)
        }
        (Helper::RandomGauss, []) => RtValue::F64(crate::random::gauss()),
        (Helper::RandomBelow, [RtValue::I64(n)]) => RtValue::I64(crate::random::below(*n)),
        (Helper::PyRandomInt, [RtValue::I64(k), RtValue::I64(a), RtValue::I64(b), RtValue::I64(c)]) => {
            RtValue::I64(crate::random::py_int(*k, *a, *b, *c))
        }
        (Helper::PyRandomFloat, [RtValue::I64(k), RtValue::F64(a), RtValue::F64(b), RtValue::F64(c)]) => {
            RtValue::F64(crate::random::py_float(*k, *a, *b, *c))
        }
        (Helper::Gemm, [RtValue::Array(a), RtValue::Array(b), RtValue::Array(c)]) => {
            gemm(a, b, c)?;
            RtValue::I64(0)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_integer_division() {
        assert_eq!((int_floordiv(7, 2), int_mod(7, 2)), (3, 1));
        assert_eq!((int_floordiv(-7, 2), int_mod(-7, 2)), (-4, 1));
        assert_eq!((int_floordiv(7, -2), int_mod(7, -2)), (-4, -1));
        assert_eq!((int_floordiv(-7, -2), int_mod(-7, -2)), (3, -1));
        assert_eq!(int_floordiv(i64::MIN, -1), i64::MIN);
        assert_eq!(int_mod(i64::MIN, -1), 0);
    }

    #[test]
    fn numba_integer_power() {
        assert_eq!(int_pow(2, 10), Ok(1024));
        assert_eq!(int_pow(2, -1), Ok(0));
        assert_eq!(int_pow(-1, -3), Ok(-1));
        assert_eq!(int_pow(0, -1), Err(RuntimeErrorKind::ZeroDivision));
        assert_eq!(int_pow(2, 64), Ok(0));
    }

    #[test]
    fn python_float_divmod() {
        assert_eq!(divmod_f64(7.5, 2.0), (3.0, 1.5));
        assert_eq!(divmod_f64(-7.5, 2.0), (-4.0, 0.5));
        assert_eq!(divmod_f64(7.5, -2.0), (-4.0, -0.5));
        let (q, m) = divmod_f64(-0.0, 5.0);
        assert!(q == 0.0 && q.is_sign_negative() && m == 0.0 && m.is_sign_positive());
        assert!(divmod_f64(1.0, 0.0).0.is_nan() || divmod_f64(1.0, 0.0).0.is_infinite());
    }

    #[test]
    fn float_to_int_saturates() {
        assert!(matches!(cast(&RtValue::F64(f64::NAN), Scalar::Int64), RtValue::I64(0)));
        assert!(matches!(cast(&RtValue::F64(-2.7), Scalar::Int64), RtValue::I64(-2)));
        assert!(matches!(cast(&RtValue::F64(1e300), Scalar::Int64), RtValue::I64(i64::MAX)));
        assert!(matches!(cast(&RtValue::I64(1 << 40), Scalar::Int32), RtValue::I32(0)));
    }
}
