//! The rewrite of complex numbers: a `complex64`/`complex128` value is the pair (real,
//! imaginary) of floats (`Type::elements`), so its arithmetic, comparisons, `abs` and the
//! `cmath` functions become float operations on the two parts here, and no backend sees a
//! complex operation (they only move the parts, as they move a tuple's).
//!
//! The algorithms are the ones Numba compiles (CPython's for `*`, `/`, `**` and the
//! hyperbolic functions, NumPy's `npy_csqrt` for the square root), with their branches on
//! special values written as selects of both sides (every branch is pure float arithmetic).
//! As Numba on Python before 3.14, `*` and `/` do not recover infinities that come out as
//! `nan+nanj`.

use super::*;

/// A located error for the first instruction of typed function `g` that still computes on a
/// complex value as if it were one number (an arithmetic, comparison or cast instruction, a
/// constant or a float builtin of complex type): the construct that made it has no complex
/// expansion yet. Backends only ever see complex numbers as their parts, so this is checked
/// before any backend runs.
pub(super) fn unexpanded(g: &Function) -> Option<Diagnostic> {
    let complex = |v: &Value| g.ty(*v).scalar().is_some_and(Scalar::is_complex);
    for d in &g.insts {
        let result = d.result.as_ref().is_some_and(complex);
        let bad = match &d.kind {
            InstKind::Binary(_, x, y) | InstKind::Compare(_, x, y) => complex(x) || complex(y) || result,
            InstKind::Unary(_, x) | InstKind::CheckNonZero(x) => complex(x) || result,
            InstKind::Cast(s, x) => s.is_complex() || complex(x),
            InstKind::Const(_) => result,
            InstKind::Builtin(bi, args) => {
                !matches!(bi.info().lowering, crate::builtins::Lowering::Rewritten)
                    && !matches!(bi.info().typing, Typing::List(_) | Typing::Dict(_) | Typing::Internal)
                    && (args.iter().any(complex) || result)
            }
            _ => false,
        };
        if bad {
            return Some(
                err(d.span, "this operation is not supported on complex numbers yet", "a complex operand")
                    .with_hint("compute on z.real and z.imag, or use the cmath functions"),
            );
        }
    }
    None
}

impl Rewriter<'_> {
    /// The (real, imaginary) parts of complex value `z`.
    pub(super) fn cparts(&mut self, b: Block, z: Value, span: Span) -> (Value, Value) {
        let f = Type::Scalar(self.ty(z).scalar().map_or(Scalar::Float64, Scalar::component));
        let re = self.push(b, InstKind::TupleGet(z, 0), f.clone(), span);
        let im = self.push(b, InstKind::TupleGet(z, 1), f, span);
        (re, im)
    }

    /// The complex number of type `c` with parts `re` and `im` (floats of `c`'s part type).
    pub(super) fn cmake(&mut self, b: Block, c: Scalar, re: Value, im: Value, span: Span) -> Value {
        self.push(b, InstKind::MakeTuple(vec![re, im]), Type::Scalar(c), span)
    }

    /// A float builtin (`math.*`, already lowered) of floats of one type.
    fn fcall(&mut self, b: Block, bi: Builtin, args: &[Value], span: Span) -> Value {
        let t = self.ty(args[0]);
        self.push(b, InstKind::Builtin(bi, args.to_vec()), t, span)
    }

    fn bnot(&mut self, b: Block, x: Value, span: Span) -> Value {
        self.push(b, InstKind::Unary(UnaryOp::Not, x), Type::BOOL, span)
    }

    fn fneg(&mut self, b: Block, x: Value, span: Span) -> Value {
        let t = self.ty(x);
        self.push(b, InstKind::Unary(UnaryOp::Neg, x), t, span)
    }

    /// A real or complex scalar `v` as the complex type `c` (a real number gets a zero
    /// imaginary part).
    pub(super) fn as_complex(&mut self, b: Block, v: Value, c: Scalar, span: Span) -> Result<Value, Diagnostic> {
        let f = Type::Scalar(c.component());
        match self.ty(v).scalar() {
            Some(s) if s == c => Ok(v),
            Some(s) if s.is_complex() => {
                let (re, im) = self.cparts(b, v, span);
                let re = self.coerce(b, re, &f, span)?;
                let im = self.coerce(b, im, &f, span)?;
                Ok(self.cmake(b, c, re, im, span))
            }
            Some(_) => {
                let re = self.coerce(b, v, &f, span)?;
                let im = self.konst_of(b, c.component(), 0.0, span);
                Ok(self.cmake(b, c, re, im, span))
            }
            None => Err(self.expect_number(v, span)),
        }
    }

    /// The truth of complex `z`: either part non-zero.
    pub(super) fn complex_truth(&mut self, b: Block, z: Value, span: Span) -> Value {
        let (re, im) = self.cparts(b, z, span);
        let f = self.ty(re).scalar().expect("a float");
        let zero = self.konst_of(b, f, 0.0, span);
        let x = self.emit_compare(b, span, CmpOp::Ne, re, zero);
        let y = self.emit_compare(b, span, CmpOp::Ne, im, zero);
        self.emit_binary(b, span, BinaryOp::BitOr, x, y)
    }

    /// `-z` or `+z`.
    pub(super) fn complex_unary(&mut self, b: Block, op: UnaryOp, z: Value, span: Span) -> Value {
        if op != UnaryOp::Neg {
            return z;
        }
        let c = self.ty(z).scalar().expect("complex");
        let (re, im) = self.cparts(b, z, span);
        let (nre, nim) = (self.fneg(b, re, span), self.fneg(b, im, span));
        self.cmake(b, c, nre, nim, span)
    }

    /// `x == y` / `x != y` of complex numbers of one type.
    pub(super) fn complex_compare(&mut self, b: Block, op: CmpOp, x: Value, y: Value, span: Span) -> Value {
        let ((a, bb), (c, d)) = (self.cparts(b, x, span), self.cparts(b, y, span));
        let r = self.emit_compare(b, span, op, a, c);
        let i = self.emit_compare(b, span, op, bb, d);
        if op == CmpOp::Eq {
            self.emit_binary(b, span, BinaryOp::BitAnd, r, i)
        } else {
            self.emit_binary(b, span, BinaryOp::BitOr, r, i)
        }
    }

    /// `x op y` of complex numbers of type `c` (operands already converted).
    pub(super) fn complex_binary(
        &mut self,
        b: Block,
        op: BinaryOp,
        x: Value,
        y: Value,
        c: Scalar,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let ((a, bb), (cc, d)) = (self.cparts(b, x, span), self.cparts(b, y, span));
        Ok(match op {
            BinaryOp::Add | BinaryOp::Sub => {
                let re = self.emit_binary(b, span, op, a, cc);
                let im = self.emit_binary(b, span, op, bb, d);
                self.cmake(b, c, re, im, span)
            }
            BinaryOp::Mul => self.complex_mul(b, c, (a, bb), (cc, d), span),
            BinaryOp::Div => self.complex_div(b, c, (a, bb), (cc, d), span),
            BinaryOp::Pow => self.complex_pow(b, c, (a, bb), (cc, d), span)?,
            _ => {
                return Err(err(
                    span,
                    format!("unsupported operand type(s) for {}: complex numbers", op.symbol()),
                    "here",
                ))
            }
        })
    }

    /// CPython's product: `(ac - bd) + (ad + bc)j`.
    fn complex_mul(
        &mut self,
        b: Block,
        c: Scalar,
        (a, bb): (Value, Value),
        (cc, d): (Value, Value),
        span: Span,
    ) -> Value {
        let ac = self.emit_binary(b, span, BinaryOp::Mul, a, cc);
        let bd = self.emit_binary(b, span, BinaryOp::Mul, bb, d);
        let ad = self.emit_binary(b, span, BinaryOp::Mul, a, d);
        let bc = self.emit_binary(b, span, BinaryOp::Mul, bb, cc);
        let re = self.emit_binary(b, span, BinaryOp::Sub, ac, bd);
        let im = self.emit_binary(b, span, BinaryOp::Add, ad, bc);
        self.cmake(b, c, re, im, span)
    }

    /// CPython's quotient (`_Py_c_quot`): divides through by the larger part of the divisor;
    /// `ZeroDivisionError("complex division by zero")` for a zero divisor, `nan+nanj` when it
    /// has a NaN part.
    fn complex_div(
        &mut self,
        b: Block,
        c: Scalar,
        (ar, ai): (Value, Value),
        (br, bi): (Value, Value),
        span: Span,
    ) -> Value {
        let f = c.component();
        use BinaryOp::{Add, Div, Mul, Sub};
        let abr = self.fcall(b, Builtin::Fabs, &[br], span);
        let abi = self.fcall(b, Builtin::Fabs, &[bi], span);
        let real_big = self.emit_compare(b, span, CmpOp::Ge, abr, abi);
        let imag_big = self.emit_compare(b, span, CmpOp::Ge, abi, abr);
        let zero = self.konst_of(b, f, 0.0, span);
        let abr_zero = self.emit_compare(b, span, CmpOp::Eq, abr, zero);
        let by_zero = self.emit_binary(b, span, BinaryOp::BitAnd, real_big, abr_zero);
        self.raise_if(b, by_zero, "ZeroDivisionError", "complex division by zero", span);
        // Divided by the real part.
        let ratio = self.emit_binary(b, span, Div, bi, br);
        let t = self.emit_binary(b, span, Mul, bi, ratio);
        let denom = self.emit_binary(b, span, Add, br, t);
        let t = self.emit_binary(b, span, Mul, ai, ratio);
        let t = self.emit_binary(b, span, Add, ar, t);
        let re1 = self.emit_binary(b, span, Div, t, denom);
        let t = self.emit_binary(b, span, Mul, ar, ratio);
        let t = self.emit_binary(b, span, Sub, ai, t);
        let im1 = self.emit_binary(b, span, Div, t, denom);
        // Divided by the imaginary part.
        let ratio = self.emit_binary(b, span, Div, br, bi);
        let t = self.emit_binary(b, span, Mul, br, ratio);
        let denom = self.emit_binary(b, span, Add, t, bi);
        let t = self.emit_binary(b, span, Mul, ar, ratio);
        let t = self.emit_binary(b, span, Add, t, ai);
        let re2 = self.emit_binary(b, span, Div, t, denom);
        let t = self.emit_binary(b, span, Mul, ai, ratio);
        let t = self.emit_binary(b, span, Sub, t, ar);
        let im2 = self.emit_binary(b, span, Div, t, denom);
        let nan = self.konst_of(b, f, f64::NAN, span);
        let re = self.emit_select(b, span, imag_big, re2, nan);
        let re = self.emit_select(b, span, real_big, re1, re);
        let im = self.emit_select(b, span, imag_big, im2, nan);
        let im = self.emit_select(b, span, real_big, im1, im);
        self.cmake(b, c, re, im, span)
    }

    /// Numba's power: `z ** 2` is `z * z`; anything else is CPython's `_Py_c_pow` in double
    /// precision (then rounded to `c`), with `nan+nanj` where it would set `EDOM` (zero to a
    /// negative or complex power).
    fn complex_pow(
        &mut self,
        b: Block,
        c: Scalar,
        (ar, ai): (Value, Value),
        (br, bi): (Value, Value),
        span: Span,
    ) -> Result<Value, Diagnostic> {
        use BinaryOp::{Add, Div, Mul};
        let f = c.component();
        let two = self.konst_of(b, f, 2.0, span);
        let zero = self.konst_of(b, f, 0.0, span);
        let is_two = self.emit_compare(b, span, CmpOp::Eq, br, two);
        let no_imag = self.emit_compare(b, span, CmpOp::Eq, bi, zero);
        let square = self.emit_binary(b, span, BinaryOp::BitAnd, is_two, no_imag);
        let sq = self.complex_mul(b, c, (ar, ai), (ar, ai), span);
        let (sq_re, sq_im) = self.cparts(b, sq, span);
        // `_Py_c_pow` in float64.
        let d = Type::F64;
        let (ar, ai) = (self.coerce(b, ar, &d, span)?, self.coerce(b, ai, &d, span)?);
        let (br, bi) = (self.coerce(b, br, &d, span)?, self.coerce(b, bi, &d, span)?);
        let f64s = Scalar::Float64;
        let (zero, one) = (self.konst_of(b, f64s, 0.0, span), self.konst_of(b, f64s, 1.0, span));
        let vabs = self.fcall(b, Builtin::Hypot, &[ar, ai], span);
        let len = self.fcall(b, Builtin::MathPow, &[vabs, br], span);
        let at = self.fcall(b, Builtin::Atan2, &[ai, ar], span);
        let phase = self.emit_binary(b, span, Mul, at, br);
        let has_imag = self.emit_compare(b, span, CmpOp::Ne, bi, zero);
        let t = self.emit_binary(b, span, Mul, at, bi);
        let t = self.fcall(b, Builtin::Exp, &[t], span);
        let len_i = self.emit_binary(b, span, Div, len, t);
        let t = self.fcall(b, Builtin::Log, &[vabs], span);
        let t = self.emit_binary(b, span, Mul, bi, t);
        let phase_i = self.emit_binary(b, span, Add, phase, t);
        let len = self.emit_select(b, span, has_imag, len_i, len);
        let phase = self.emit_select(b, span, has_imag, phase_i, phase);
        let cos = self.fcall(b, Builtin::Cos, &[phase], span);
        let sin = self.fcall(b, Builtin::Sin, &[phase], span);
        let mut re = self.emit_binary(b, span, Mul, len, cos);
        let mut im = self.emit_binary(b, span, Mul, len, sin);
        // Zero base: 0, or NaN for a negative or complex exponent.
        let are = self.emit_compare(b, span, CmpOp::Eq, ar, zero);
        let aim = self.emit_compare(b, span, CmpOp::Eq, ai, zero);
        let a_zero = self.emit_binary(b, span, BinaryOp::BitAnd, are, aim);
        let neg = self.emit_compare(b, span, CmpOp::Lt, br, zero);
        let edom = self.emit_binary(b, span, BinaryOp::BitOr, has_imag, neg);
        let nan = self.konst_of(b, f64s, f64::NAN, span);
        let zero_pow = self.emit_select(b, span, edom, nan, zero);
        re = self.emit_select(b, span, a_zero, zero_pow, re);
        im = self.emit_select(b, span, a_zero, zero_pow, im);
        // Zero exponent: 1.
        let bre = self.emit_compare(b, span, CmpOp::Eq, br, zero);
        let bim = self.emit_compare(b, span, CmpOp::Eq, bi, zero);
        let b_zero = self.emit_binary(b, span, BinaryOp::BitAnd, bre, bim);
        re = self.emit_select(b, span, b_zero, one, re);
        im = self.emit_select(b, span, b_zero, zero, im);
        let fty = Type::Scalar(f);
        let (re, im) = (self.coerce(b, re, &fty, span)?, self.coerce(b, im, &fty, span)?);
        let re = self.emit_select(b, span, square, sq_re, re);
        let im = self.emit_select(b, span, square, sq_im, im);
        Ok(self.cmake(b, c, re, im, span))
    }

    /// The complex loop `u` of a NumPy ufunc on complex `z` (of type `c`).
    pub(super) fn complex_ufunc(
        &mut self,
        b: Block,
        u: typing::ComplexUfunc,
        z: Value,
        c: Scalar,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        use typing::ComplexUfunc as U;
        Ok(match u {
            U::Abs => self.complex_abs(b, z, span),
            U::Negative => self.complex_unary(b, UnaryOp::Neg, z, span),
            U::Positive => z,
            U::Square => self.complex_binary(b, BinaryOp::Mul, z, z, c, span)?,
            U::Op(op) => self.complex_builtin(b, op, &[z], &Type::Scalar(c), span)?,
        })
    }

    /// `abs(z)`: `hypot(re, im)` in the parts' type.
    pub(super) fn complex_abs(&mut self, b: Block, z: Value, span: Span) -> Value {
        let (re, im) = self.cparts(b, z, span);
        self.fcall(b, Builtin::Hypot, &[re, im], span)
    }

    /// A complex builtin on arguments `args` (new values) with result type `rt`.
    pub(super) fn complex_builtin(
        &mut self,
        b: Block,
        op: crate::builtins::ComplexOp,
        args: &[Value],
        rt: &Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        use crate::builtins::ComplexOp as C;
        // The complex type the function computes in: the result's, or the argument's for the
        // functions of a complex number with a real result.
        let c = match rt.scalar() {
            Some(s) if s.is_complex() => s,
            _ => match args.first().and_then(|a| self.ty(*a).scalar()) {
                Some(s) if s.is_complex() => s,
                Some(s) => Scalar::complex_of(typing::math_unary(s)),
                None => Scalar::Complex128,
            },
        };
        let f = c.component();
        let z = |rw: &mut Self, k: usize| rw.as_complex(b, args[k], c, span);
        Ok(match op {
            C::Ctor => {
                let fty = Type::Scalar(f);
                match args {
                    [] => {
                        let zero = self.konst_of(b, f, 0.0, span);
                        self.cmake(b, c, zero, zero, span)
                    }
                    [x] => self.as_complex(b, *x, c, span)?,
                    [x, y] => {
                        let re = self.coerce(b, *x, &fty, span)?;
                        let im = self.coerce(b, *y, &fty, span)?;
                        self.cmake(b, c, re, im, span)
                    }
                    _ => return Err(err(span, "complex() takes at most 2 arguments", "here")),
                }
            }
            C::Real | C::Imag => {
                let x = args[0];
                match self.ty(x).scalar() {
                    Some(s) if s.is_complex() => {
                        let (re, im) = self.cparts(b, x, span);
                        if op == C::Real {
                            re
                        } else {
                            im
                        }
                    }
                    _ if op == C::Real => x,
                    _ => self.zero_of(b, rt, span)?,
                }
            }
            C::Conjugate => {
                let x = args[0];
                if !self.ty(x).scalar().is_some_and(Scalar::is_complex) {
                    return Ok(x);
                }
                let (re, im) = self.cparts(b, x, span);
                let nim = self.fneg(b, im, span);
                self.cmake(b, c, re, nim, span)
            }
            C::Phase | C::Polar => {
                let z = z(self, 0)?;
                let (re, im) = self.cparts(b, z, span);
                let phase = self.fcall(b, Builtin::Atan2, &[im, re], span);
                if op == C::Phase {
                    self.coerce(b, phase, rt, span)?
                } else {
                    let r = self.fcall(b, Builtin::Hypot, &[re, im], span);
                    self.push(b, InstKind::MakeTuple(vec![r, phase]), rt.clone(), span)
                }
            }
            C::IsNan | C::IsInf | C::IsFinite => {
                let z = z(self, 0)?;
                let (re, im) = self.cparts(b, z, span);
                let bi = match op {
                    C::IsNan => Builtin::IsNan,
                    C::IsInf => Builtin::IsInf,
                    _ => Builtin::IsFinite,
                };
                let x = self.float_predicate(b, bi, re, span);
                let y = self.float_predicate(b, bi, im, span);
                if op == C::IsFinite {
                    self.emit_binary(b, span, BinaryOp::BitAnd, x, y)
                } else {
                    self.emit_binary(b, span, BinaryOp::BitOr, x, y)
                }
            }
            C::Log | C::Log10 => {
                let zv = z(self, 0)?;
                let mut r = self.complex_log(b, c, zv, span);
                if op == C::Log10 {
                    let (re, im) = self.cparts(b, r, span);
                    let ln10 = self.konst_of(b, f, std::f64::consts::LN_10, span);
                    let re = self.emit_binary(b, span, BinaryOp::Div, re, ln10);
                    let im = self.emit_binary(b, span, BinaryOp::Div, im, ln10);
                    r = self.cmake(b, c, re, im, span);
                } else if args.len() == 2 {
                    let base = z(self, 1)?;
                    let lb = self.complex_log(b, c, base, span);
                    let (x, y) = (self.cparts(b, r, span), self.cparts(b, lb, span));
                    r = self.complex_div(b, c, x, y, span);
                }
                r
            }
            C::Sqrt => {
                let zv = z(self, 0)?;
                self.complex_sqrt(b, c, zv, span)
            }
            C::Exp => {
                let zv = z(self, 0)?;
                self.complex_exp(b, c, zv, span)
            }
            C::Rect => {
                let fty = Type::Scalar(f);
                let r = self.coerce(b, args[0], &fty, span)?;
                let phi = self.coerce(b, args[1], &fty, span)?;
                self.complex_rect(b, c, r, phi, span)
            }
            C::Cosh | C::Sinh | C::Tanh => {
                let zv = z(self, 0)?;
                let (x, y) = self.cparts(b, zv, span);
                self.complex_hyperbolic(b, op, c, x, y, span)
            }
            C::Acos | C::Acosh | C::Asinh | C::Atanh => {
                let zv = z(self, 0)?;
                let (x, y) = self.cparts(b, zv, span);
                let (re, im) = self.complex_inverse(b, op, c, x, y, span);
                self.cmake(b, c, re, im, span)
            }
            // asin(z) = -i asinh(iz); atan(z) = -i atanh(iz) (with Numba's swap when z.real
            // is infinite and z.imag NaN).
            C::Asin | C::Atan => {
                let zv = z(self, 0)?;
                let (x, y) = self.cparts(b, zv, span);
                let ny = self.fneg(b, y, span);
                let h = if op == C::Asin { C::Asinh } else { C::Atanh };
                let (rre, rim) = self.complex_inverse(b, h, c, ny, x, span);
                let nre = self.fneg(b, rre, span);
                if op == C::Atan {
                    let x_inf = self.float_predicate(b, Builtin::IsInf, x, span);
                    let y_nan = self.float_predicate(b, Builtin::IsNan, y, span);
                    let odd = self.emit_binary(b, span, BinaryOp::BitAnd, x_inf, y_nan);
                    let im = self.emit_select(b, span, odd, rre, nre);
                    self.cmake(b, c, rim, im, span)
                } else {
                    self.cmake(b, c, rim, nre, span)
                }
            }
            // cos(z) = cosh(iz); sin(z) = -i sinh(iz); tan(z) = -i tanh(iz).
            C::Cos | C::Sin | C::Tan => {
                let zv = z(self, 0)?;
                let (re, im) = self.cparts(b, zv, span);
                let nim = self.fneg(b, im, span);
                let h = match op {
                    C::Cos => C::Cosh,
                    C::Sin => C::Sinh,
                    _ => C::Tanh,
                };
                let r = self.complex_hyperbolic(b, h, c, nim, re, span);
                if op == C::Cos {
                    r
                } else {
                    let (rre, rim) = self.cparts(b, r, span);
                    let nre = self.fneg(b, rre, span);
                    self.cmake(b, c, rim, nre, span)
                }
            }
        })
    }

    /// `cmath.log(z)`: `log(abs(z)) + phase(z)j`.
    fn complex_log(&mut self, b: Block, c: Scalar, z: Value, span: Span) -> Value {
        let (x, y) = self.cparts(b, z, span);
        let h = self.fcall(b, Builtin::Hypot, &[x, y], span);
        let re = self.fcall(b, Builtin::Log, &[h], span);
        let im = self.fcall(b, Builtin::Atan2, &[y, x], span);
        self.cmake(b, c, re, im, span)
    }

    /// `cmath.exp(z)`, with C99's special values for infinite and NaN parts.
    fn complex_exp(&mut self, b: Block, c: Scalar, z: Value, span: Span) -> Value {
        use BinaryOp::Mul;
        let f = c.component();
        let (x, y) = self.cparts(b, z, span);
        let x_fin = self.float_predicate(b, Builtin::IsFinite, x, span);
        let y_fin = self.float_predicate(b, Builtin::IsFinite, y, span);
        let x_nan = self.float_predicate(b, Builtin::IsNan, x, span);
        let zero = self.konst_of(b, f, 0.0, span);
        let nan = self.konst_of(b, f, f64::NAN, span);
        let cos = self.fcall(b, Builtin::Cos, &[y], span);
        let sin = self.fcall(b, Builtin::Sin, &[y], span);
        let r = self.fcall(b, Builtin::Exp, &[x], span);
        // Finite x: r (cos y + i sin y), NaN when y is not finite; x = -inf: the same (0) or 0.
        let fre = self.emit_binary(b, span, Mul, r, cos);
        let fim = self.emit_binary(b, span, Mul, r, sin);
        let fin_re = self.emit_select(b, span, y_fin, fre, nan);
        let fin_im = self.emit_select(b, span, y_fin, fim, nan);
        // x = NaN: nan + nan j, or nan + 0j when y is zero.
        let y_nonzero = self.emit_compare(b, span, CmpOp::Ne, y, zero);
        let nan_im = self.emit_select(b, span, y_nonzero, x, y);
        // x = +inf: inf times cos/sin, keeping exact zeros; inf + nan j when y is not finite.
        let cos_nz = self.emit_compare(b, span, CmpOp::Ne, cos, zero);
        let sin_nz = self.emit_compare(b, span, CmpOp::Ne, sin, zero);
        let xc = self.emit_binary(b, span, Mul, cos, x);
        let xs = self.emit_binary(b, span, Mul, sin, x);
        let pinf_re = self.emit_select(b, span, cos_nz, xc, cos);
        let pinf_im = self.emit_select(b, span, sin_nz, xs, sin);
        let pinf_re = self.emit_select(b, span, y_fin, pinf_re, x);
        let pinf_im = self.emit_select(b, span, y_fin, pinf_im, nan);
        // x = -inf: r (cos y + i sin y) (zeros), or 0 + 0j when y is not finite.
        let minf_re = self.emit_select(b, span, y_fin, fre, zero);
        let minf_im = self.emit_select(b, span, y_fin, fim, zero);
        let pos = self.emit_compare(b, span, CmpOp::Gt, x, zero);
        let inf_re = self.emit_select(b, span, pos, pinf_re, minf_re);
        let inf_im = self.emit_select(b, span, pos, pinf_im, minf_im);
        let re = self.emit_select(b, span, x_nan, x, inf_re);
        let im = self.emit_select(b, span, x_nan, nan_im, inf_im);
        let re = self.emit_select(b, span, x_fin, fin_re, re);
        let im = self.emit_select(b, span, x_fin, fin_im, im);
        self.cmake(b, c, re, im, span)
    }

    /// `cmath.sqrt(z)` by NumPy's `npy_csqrt` (as Numba): special values first, then the
    /// stable formula, scaled by 1/4 near overflow.
    fn complex_sqrt(&mut self, b: Block, c: Scalar, z: Value, span: Span) -> Value {
        use BinaryOp::{Add, Div, Mul, Sub};
        let f = c.component();
        let (a, bb) = self.cparts(b, z, span);
        let zero = self.konst_of(b, f, 0.0, span);
        let half = self.konst_of(b, f, 0.5, span);
        let two = self.konst_of(b, f, 2.0, span);
        let quarter = self.konst_of(b, f, 0.25, span);
        let max = if f == Scalar::Float32 { f32::MAX as f64 } else { f64::MAX };
        let thres = self.konst_of(b, f, max / (1.0 + std::f64::consts::SQRT_2), span);
        let abs_a = self.fcall(b, Builtin::Fabs, &[a], span);
        let abs_b = self.fcall(b, Builtin::Fabs, &[bb], span);
        let big_a = self.emit_compare(b, span, CmpOp::Ge, abs_a, thres);
        let big_b = self.emit_compare(b, span, CmpOp::Ge, abs_b, thres);
        let scale = self.emit_binary(b, span, BinaryOp::BitOr, big_a, big_b);
        let sa = self.emit_binary(b, span, Mul, a, quarter);
        let sb = self.emit_binary(b, span, Mul, bb, quarter);
        let x = self.emit_select(b, span, scale, sa, a);
        let y = self.emit_select(b, span, scale, sb, bb);
        let h = self.fcall(b, Builtin::Hypot, &[x, y], span);
        // x >= 0: t = sqrt((x + h) / 2), (t, y / 2t).
        let t = self.emit_binary(b, span, Add, x, h);
        let t = self.emit_binary(b, span, Mul, t, half);
        let t1 = self.fcall(b, Builtin::Sqrt, &[t], span);
        let d1 = self.emit_binary(b, span, Mul, two, t1);
        let im1 = self.emit_binary(b, span, Div, y, d1);
        // x < 0: t = sqrt((-x + h) / 2), (|y| / 2t, copysign(t, y)).
        let nx = self.fneg(b, x, span);
        let t = self.emit_binary(b, span, Add, nx, h);
        let t = self.emit_binary(b, span, Mul, t, half);
        let t2 = self.fcall(b, Builtin::Sqrt, &[t], span);
        let d2 = self.emit_binary(b, span, Mul, two, t2);
        let abs_y = self.fcall(b, Builtin::Fabs, &[y], span);
        let re2 = self.emit_binary(b, span, Div, abs_y, d2);
        let im2 = self.fcall(b, Builtin::Copysign, &[t2, y], span);
        let nonneg = self.emit_compare(b, span, CmpOp::Ge, x, zero);
        let re = self.emit_select(b, span, nonneg, t1, re2);
        let im = self.emit_select(b, span, nonneg, im1, im2);
        let re2x = self.emit_binary(b, span, Mul, re, two);
        let mut re = self.emit_select(b, span, scale, re2x, re);
        let mut im = im;
        // Special values, the last test first (the first that holds wins).
        let a_inf = self.float_predicate(b, Builtin::IsInf, a, span);
        let a_neg = self.emit_compare(b, span, CmpOp::Lt, a, zero);
        let bmb = self.emit_binary(b, span, Sub, bb, bb);
        let abs_bmb = self.fcall(b, Builtin::Fabs, &[bmb], span);
        let cs_ab = self.fcall(b, Builtin::Copysign, &[a, bb], span);
        let cs_bmb = self.fcall(b, Builtin::Copysign, &[bmb, bb], span);
        let inf_re = self.emit_select(b, span, a_neg, abs_bmb, a);
        let inf_im = self.emit_select(b, span, a_neg, cs_ab, cs_bmb);
        re = self.emit_select(b, span, a_inf, inf_re, re);
        im = self.emit_select(b, span, a_inf, inf_im, im);
        let a_nan = self.float_predicate(b, Builtin::IsNan, a, span);
        re = self.emit_select(b, span, a_nan, a, re);
        im = self.emit_select(b, span, a_nan, a, im);
        let b_inf = self.float_predicate(b, Builtin::IsInf, bb, span);
        let a0 = self.emit_compare(b, span, CmpOp::Eq, a, zero);
        let b0 = self.emit_compare(b, span, CmpOp::Eq, bb, zero);
        let both0 = self.emit_binary(b, span, BinaryOp::BitAnd, a0, b0);
        let first = self.emit_binary(b, span, BinaryOp::BitOr, both0, b_inf);
        re = self.emit_select(b, span, first, abs_b, re);
        im = self.emit_select(b, span, first, bb, im);
        self.cmake(b, c, re, im, span)
    }

    /// `cmath.rect(r, phi)`, with Numba's special values for a non-finite `phi` or an
    /// infinite `r`.
    fn complex_rect(&mut self, b: Block, c: Scalar, r: Value, phi: Value, span: Span) -> Value {
        use BinaryOp::{Div, Mul};
        let f = c.component();
        let zero = self.konst_of(b, f, 0.0, span);
        let cos = self.fcall(b, Builtin::Cos, &[phi], span);
        let sin = self.fcall(b, Builtin::Sin, &[phi], span);
        let r_inf = self.float_predicate(b, Builtin::IsInf, r, span);
        let part = |rw: &mut Self, x: Value| {
            let is0 = rw.emit_compare(b, span, CmpOp::Eq, x, zero);
            let keep = rw.emit_binary(b, span, BinaryOp::BitAnd, is0, r_inf);
            let d = rw.emit_binary(b, span, Div, x, r);
            let m = rw.emit_binary(b, span, Mul, x, r);
            rw.emit_select(b, span, keep, d, m)
        };
        let mut re = part(self, cos);
        let mut im = part(self, sin);
        // phi not finite: rect(0, phi) = abs(r) (+0j); rect(inf, phi) = r + phi j.
        let phi_fin = self.float_predicate(b, Builtin::IsFinite, phi, span);
        let odd = self.bnot(b, phi_fin, span);
        let r0 = self.emit_compare(b, span, CmpOp::Eq, r, zero);
        let odd_zero = self.emit_binary(b, span, BinaryOp::BitAnd, odd, r0);
        let odd_inf = self.emit_binary(b, span, BinaryOp::BitAnd, odd, r_inf);
        re = self.emit_select(b, span, odd_inf, r, re);
        im = self.emit_select(b, span, odd_inf, phi, im);
        let abs_r = self.fcall(b, Builtin::Fabs, &[r], span);
        re = self.emit_select(b, span, odd_zero, abs_r, re);
        im = self.emit_select(b, span, odd_zero, zero, im);
        self.cmake(b, c, re, im, span)
    }

    /// `cmath.acos`, `acosh`, `asinh` or `atanh` of `x + yj` by CPython's algorithms (as
    /// Numba): `log(|z| / 2) + ln 4` forms past `FLT_MAX / 4` (Numba's threshold, also for
    /// complex128), square-root products below it; the (real, imaginary) parts.
    fn complex_inverse(
        &mut self,
        b: Block,
        op: crate::builtins::ComplexOp,
        c: Scalar,
        x: Value,
        y: Value,
        span: Span,
    ) -> (Value, Value) {
        use crate::builtins::ComplexOp as C;
        use BinaryOp::{Add, Mul, Sub};
        let f = c.component();
        let k = |rw: &mut Self, v: f64| rw.konst_of(b, f, v, span);
        let (one, half, two) = (k(self, 1.0), k(self, 0.5), k(self, 2.0));
        let ln4 = k(self, 4f64.ln());
        if op == C::Atanh {
            return self.complex_atanh(b, c, x, y, span);
        }
        let thres = k(self, f32::MAX as f64 / 4.0);
        let ax = self.fcall(b, Builtin::Fabs, &[x], span);
        let ay = self.fcall(b, Builtin::Fabs, &[y], span);
        let bx = self.emit_compare(b, span, CmpOp::Gt, ax, thres);
        let by = self.emit_compare(b, span, CmpOp::Gt, ay, thres);
        let large = self.emit_binary(b, span, BinaryOp::BitOr, bx, by);
        // log(hypot(x/2, y/2)) + ln 4, for the large branch.
        let hx = self.emit_binary(b, span, Mul, x, half);
        let hy = self.emit_binary(b, span, Mul, y, half);
        let h = self.fcall(b, Builtin::Hypot, &[hx, hy], span);
        let lh = self.fcall(b, Builtin::Log, &[h], span);
        let big = self.emit_binary(b, span, Add, lh, ln4);
        let sqrt_of = |rw: &mut Self, re: Value, im: Value| {
            let z = rw.cmake(b, c, re, im, span);
            let r = rw.complex_sqrt(b, c, z, span);
            rw.cparts(b, r, span)
        };
        let (lre, lim, sre, sim) = match op {
            C::Acos => {
                let lre = self.fcall(b, Builtin::Atan2, &[ay, x], span);
                let ny = self.fneg(b, y, span);
                let lim = self.fcall(b, Builtin::Copysign, &[big, ny], span);
                let omx = self.emit_binary(b, span, Sub, one, x);
                let (s1r, s1i) = sqrt_of(self, omx, ny);
                let opx = self.emit_binary(b, span, Add, one, x);
                let (s2r, s2i) = sqrt_of(self, opx, y);
                let a = self.fcall(b, Builtin::Atan2, &[s1r, s2r], span);
                let sre = self.emit_binary(b, span, Mul, two, a);
                let p = self.emit_binary(b, span, Mul, s2r, s1i);
                let q = self.emit_binary(b, span, Mul, s2i, s1r);
                let d = self.emit_binary(b, span, Sub, p, q);
                let sim = self.fcall(b, Builtin::Asinh, &[d], span);
                (lre, lim, sre, sim)
            }
            C::Acosh => {
                let lim = self.fcall(b, Builtin::Atan2, &[y, x], span);
                let xm = self.emit_binary(b, span, Sub, x, one);
                let (s1r, s1i) = sqrt_of(self, xm, y);
                let xp = self.emit_binary(b, span, Add, x, one);
                let (s2r, s2i) = sqrt_of(self, xp, y);
                let p = self.emit_binary(b, span, Mul, s1r, s2r);
                let q = self.emit_binary(b, span, Mul, s1i, s2i);
                let d = self.emit_binary(b, span, Add, p, q);
                let sre = self.fcall(b, Builtin::Asinh, &[d], span);
                let a = self.fcall(b, Builtin::Atan2, &[s1i, s2r], span);
                let sim = self.emit_binary(b, span, Mul, two, a);
                (big, lim, sre, sim)
            }
            _ => {
                // asinh
                let lre = self.fcall(b, Builtin::Copysign, &[big, x], span);
                let lim = self.fcall(b, Builtin::Atan2, &[y, ax], span);
                let opy = self.emit_binary(b, span, Add, one, y);
                let nx = self.fneg(b, x, span);
                let (s1r, s1i) = sqrt_of(self, opy, nx);
                let omy = self.emit_binary(b, span, Sub, one, y);
                let (s2r, s2i) = sqrt_of(self, omy, x);
                let p = self.emit_binary(b, span, Mul, s1r, s2i);
                let q = self.emit_binary(b, span, Mul, s2r, s1i);
                let d = self.emit_binary(b, span, Sub, p, q);
                let sre = self.fcall(b, Builtin::Asinh, &[d], span);
                let p = self.emit_binary(b, span, Mul, s1r, s2r);
                let q = self.emit_binary(b, span, Mul, s1i, s2i);
                let d = self.emit_binary(b, span, Sub, p, q);
                let sim = self.fcall(b, Builtin::Atan2, &[y, d], span);
                (lre, lim, sre, sim)
            }
        };
        let re = self.emit_select(b, span, large, lre, sre);
        let im = self.emit_select(b, span, large, lim, sim);
        (re, im)
    }

    /// `cmath.atanh(x + yj)` by CPython's `c_atanh` (as Numba): reduced to `x >= 0`, with the
    /// large, near-one and general cases.
    fn complex_atanh(&mut self, b: Block, c: Scalar, x0: Value, y0: Value, span: Span) -> (Value, Value) {
        use BinaryOp::{Add, Div, Mul, Sub};
        let f = c.component();
        let k = |rw: &mut Self, v: f64| rw.konst_of(b, f, v, span);
        let (zero, one, two, four, quarter) = (k(self, 0.0), k(self, 1.0), k(self, 2.0), k(self, 4.0), k(self, 0.25));
        let half = k(self, 0.5);
        let large_t = k(self, (f32::MAX as f64 / 4.0).sqrt());
        let small_t = k(self, (f32::MIN_POSITIVE as f64).sqrt());
        let pi_2 = k(self, std::f64::consts::FRAC_PI_2);
        let inf = k(self, f64::INFINITY);
        let nan = k(self, f64::NAN);
        let negate = self.emit_compare(b, span, CmpOp::Lt, x0, zero);
        let nx0 = self.fneg(b, x0, span);
        let ny0 = self.fneg(b, y0, span);
        let x = self.emit_select(b, span, negate, nx0, x0);
        let y = self.emit_select(b, span, negate, ny0, y0);
        let ay = self.fcall(b, Builtin::Fabs, &[y], span);
        // Large (or NaN real part).
        let x_nan = self.float_predicate(b, Builtin::IsNan, x, span);
        let gx = self.emit_compare(b, span, CmpOp::Gt, x, large_t);
        let gy = self.emit_compare(b, span, CmpOp::Gt, ay, large_t);
        let large = self.emit_binary(b, span, BinaryOp::BitOr, x_nan, gx);
        let large = self.emit_binary(b, span, BinaryOp::BitOr, large, gy);
        let y_inf = self.float_predicate(b, Builtin::IsInf, y, span);
        let x_inf = self.float_predicate(b, Builtin::IsInf, x, span);
        let hx = self.emit_binary(b, span, Mul, x, half);
        let hy = self.emit_binary(b, span, Mul, y, half);
        let h = self.fcall(b, Builtin::Hypot, &[hx, hy], span);
        let t = self.emit_binary(b, span, Div, x, four);
        let t = self.emit_binary(b, span, Div, t, h);
        let lre = self.emit_binary(b, span, Div, t, h);
        let lre = self.emit_select(b, span, x_inf, zero, lre);
        let cz = self.fcall(b, Builtin::Copysign, &[zero, x], span);
        let lre = self.emit_select(b, span, y_inf, cz, lre);
        // -copysign(pi/2, -y)
        let t = self.fneg(b, y, span);
        let t = self.fcall(b, Builtin::Copysign, &[pi_2, t], span);
        let lim = self.fneg(b, t, span);
        // x == 1 and |y| tiny.
        let x1 = self.emit_compare(b, span, CmpOp::Eq, x, one);
        let tiny = self.emit_compare(b, span, CmpOp::Lt, ay, small_t);
        let near = self.emit_binary(b, span, BinaryOp::BitAnd, x1, tiny);
        let ay0 = self.emit_compare(b, span, CmpOp::Eq, ay, zero);
        let sq = self.fcall(b, Builtin::Sqrt, &[ay], span);
        let hh = self.fcall(b, Builtin::Hypot, &[ay, two], span);
        let sh = self.fcall(b, Builtin::Sqrt, &[hh], span);
        let q = self.emit_binary(b, span, Div, sq, sh);
        let lq = self.fcall(b, Builtin::Log, &[q], span);
        let nre = self.fneg(b, lq, span);
        let nay = self.fneg(b, ay, span);
        let a = self.fcall(b, Builtin::Atan2, &[two, nay], span);
        let a = self.emit_binary(b, span, Div, a, two);
        let nim = self.fcall(b, Builtin::Copysign, &[a, y], span);
        let nre = self.emit_select(b, span, ay0, inf, nre);
        let nim = self.emit_select(b, span, ay0, y, nim);
        // General.
        let sqay = self.emit_binary(b, span, Mul, ay, ay);
        let zr1 = self.emit_binary(b, span, Sub, one, x);
        let d = self.emit_binary(b, span, Mul, zr1, zr1);
        let d = self.emit_binary(b, span, Add, d, sqay);
        let t = self.emit_binary(b, span, Mul, four, x);
        let t = self.emit_binary(b, span, Div, t, d);
        let t = self.fcall(b, Builtin::Log1p, &[t], span);
        let gre = self.emit_binary(b, span, Mul, t, quarter);
        let m2 = k(self, -2.0);
        let p = self.emit_binary(b, span, Mul, m2, y);
        let opx = self.emit_binary(b, span, Add, one, x);
        let q = self.emit_binary(b, span, Mul, zr1, opx);
        let q = self.emit_binary(b, span, Sub, q, sqay);
        let a = self.fcall(b, Builtin::Atan2, &[p, q], span);
        let a = self.fneg(b, a, span);
        let gim = self.emit_binary(b, span, Mul, a, half);
        let re = self.emit_select(b, span, near, nre, gre);
        let im = self.emit_select(b, span, near, nim, gim);
        let re = self.emit_select(b, span, large, lre, re);
        let im = self.emit_select(b, span, large, lim, im);
        let y_nan = self.float_predicate(b, Builtin::IsNan, y, span);
        let im = self.emit_select(b, span, y_nan, nan, im);
        let nre = self.fneg(b, re, span);
        let nim = self.fneg(b, im, span);
        let re = self.emit_select(b, span, negate, nre, re);
        let im = self.emit_select(b, span, negate, nim, im);
        (re, im)
    }

    /// `cmath.cosh`, `cmath.sinh` or `cmath.tanh` of `x + yj`, with the special values of
    /// an infinite `x` (CPython's `c_tanh` formula for tanh).
    fn complex_hyperbolic(
        &mut self,
        b: Block,
        op: crate::builtins::ComplexOp,
        c: Scalar,
        x: Value,
        y: Value,
        span: Span,
    ) -> Value {
        use crate::builtins::ComplexOp as C;
        use BinaryOp::{Add, Div, Mul};
        let f = c.component();
        let zero = self.konst_of(b, f, 0.0, span);
        let one = self.konst_of(b, f, 1.0, span);
        let x_inf = self.float_predicate(b, Builtin::IsInf, x, span);
        let y_nan = self.float_predicate(b, Builtin::IsNan, y, span);
        let (re, im, inf_re, inf_im) = match op {
            C::Tanh => {
                let tx = self.fcall(b, Builtin::Tanh, &[x], span);
                let ty = self.fcall(b, Builtin::Tan, &[y], span);
                let chx = self.fcall(b, Builtin::Cosh, &[x], span);
                let cx = self.emit_binary(b, span, Div, one, chx);
                let txty = self.emit_binary(b, span, Mul, tx, ty);
                let t = self.emit_binary(b, span, Mul, txty, txty);
                let denom = self.emit_binary(b, span, Add, one, t);
                let t = self.emit_binary(b, span, Mul, ty, ty);
                let t = self.emit_binary(b, span, Add, one, t);
                let t = self.emit_binary(b, span, Mul, tx, t);
                let re = self.emit_binary(b, span, Div, t, denom);
                let t = self.emit_binary(b, span, Div, ty, denom);
                let t = self.emit_binary(b, span, Mul, t, cx);
                let im = self.emit_binary(b, span, Mul, t, cx);
                // x infinite: copysign(1, x) + copysign(0, sin(2y)) j (0 when y is infinite).
                let inf_re = self.fcall(b, Builtin::Copysign, &[one, x], span);
                let two = self.konst_of(b, f, 2.0, span);
                let y2 = self.emit_binary(b, span, Mul, two, y);
                let s = self.fcall(b, Builtin::Sin, &[y2], span);
                let cs = self.fcall(b, Builtin::Copysign, &[zero, s], span);
                let y_inf = self.float_predicate(b, Builtin::IsInf, y, span);
                let inf_im = self.emit_select(b, span, y_inf, zero, cs);
                (re, im, inf_re, inf_im)
            }
            _ => {
                let cos = self.fcall(b, Builtin::Cos, &[y], span);
                let sin = self.fcall(b, Builtin::Sin, &[y], span);
                let ch = self.fcall(b, Builtin::Cosh, &[x], span);
                let sh = self.fcall(b, Builtin::Sinh, &[x], span);
                let abs_x = self.fcall(b, Builtin::Fabs, &[x], span);
                if op == C::Cosh {
                    let re = self.emit_binary(b, span, Mul, cos, ch);
                    let im = self.emit_binary(b, span, Mul, sin, sh);
                    // x infinite: |x| + y j when y is NaN or 0, else copysign(x, cos y) +
                    // copysign(x, sin y) j; the imaginary part negated for x = -inf.
                    let y0 = self.emit_compare(b, span, CmpOp::Eq, y, zero);
                    let plain = self.emit_binary(b, span, BinaryOp::BitOr, y_nan, y0);
                    let cre = self.fcall(b, Builtin::Copysign, &[x, cos], span);
                    let cim = self.fcall(b, Builtin::Copysign, &[x, sin], span);
                    let inf_re = self.emit_select(b, span, plain, abs_x, cre);
                    let inf_im = self.emit_select(b, span, plain, y, cim);
                    let neg = self.emit_compare(b, span, CmpOp::Lt, x, zero);
                    let n = self.fneg(b, inf_im, span);
                    let inf_im = self.emit_select(b, span, neg, n, inf_im);
                    (re, im, inf_re, inf_im)
                } else {
                    let re = self.emit_binary(b, span, Mul, cos, sh);
                    let im = self.emit_binary(b, span, Mul, sin, ch);
                    // x infinite: x + y j when y is NaN, else cos y * x (kept at 0) + sin y *
                    // |x| (kept at 0) j.
                    let cnz = self.emit_compare(b, span, CmpOp::Ne, cos, zero);
                    let snz = self.emit_compare(b, span, CmpOp::Ne, sin, zero);
                    let cx = self.emit_binary(b, span, Mul, cos, x);
                    let sx = self.emit_binary(b, span, Mul, sin, abs_x);
                    let r = self.emit_select(b, span, cnz, cx, cos);
                    let i = self.emit_select(b, span, snz, sx, sin);
                    let inf_re = self.emit_select(b, span, y_nan, x, r);
                    let inf_im = self.emit_select(b, span, y_nan, y, i);
                    (re, im, inf_re, inf_im)
                }
            }
        };
        let re = self.emit_select(b, span, x_inf, inf_re, re);
        let im = self.emit_select(b, span, x_inf, inf_im, im);
        self.cmake(b, c, re, im, span)
    }
}
