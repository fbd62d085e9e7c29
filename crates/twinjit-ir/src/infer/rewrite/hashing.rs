//! `hash(x)` of numbers and tuples, with CPython's values (which Numba reproduces): an integer
//! is its value modulo the Mersenne prime 2^61 - 1 (sign kept), a float the same reduction of
//! the fraction it equals (so `hash(2.0) == hash(2)`), infinities +-314159, a complex number
//! `hash(re) + 1000003 * hash(im)`, a tuple CPython's xxHash-style combination of its
//! elements' hashes; a hash of -1 becomes -2. NaN hashes to 0 (CPython 3.10 and later hash a
//! NaN by its object's identity and Numba by a random number, neither reproducible).

use super::*;

/// 2^61 - 1, CPython's `sys.hash_info.modulus` on 64-bit builds.
const MODULUS: u64 = (1 << 61) - 1;
/// `sys.hash_info.inf`.
const HASH_INF: i64 = 314_159;
/// `sys.hash_info.imag`.
const HASH_IMAG: u64 = 1_000_003;
/// The xxHash primes CPython's tuple hash uses (64-bit builds).
const XXPRIME_1: u64 = 11_400_714_785_074_694_791;
const XXPRIME_2: u64 = 14_029_467_366_897_019_727;
const XXPRIME_5: u64 = 2_870_177_450_012_600_261;

impl<'r> Rewriter<'r> {
    /// `hash(v)` (new value of a number, bool or tuple of them) as an int64.
    pub(super) fn py_hash(&mut self, b: Block, v: Value, span: Span) -> Result<Value, Diagnostic> {
        let h = self.raw_hash(b, v, span)?;
        Ok(self.not_minus_one(b, h, span))
    }

    /// The hash before its final `-1 -> -2` (a tuple hashes its elements' final hashes).
    fn raw_hash(&mut self, b: Block, v: Value, span: Span) -> Result<Value, Diagnostic> {
        match self.ty(v) {
            Type::Scalar(s) if s.is_complex() => {
                let (re, im) = self.cparts(b, v, span);
                let (hr, hi) = (self.py_hash(b, re, span)?, self.py_hash(b, im, span)?);
                let (hr, hi) = (self.as_u64(b, hr, span), self.as_u64(b, hi, span));
                let imag = self.u64c(b, HASH_IMAG, span);
                let scaled = self.emit_binary(b, span, BinaryOp::Mul, imag, hi);
                let sum = self.emit_binary(b, span, BinaryOp::Add, hr, scaled);
                Ok(self.push(b, InstKind::Cast(Scalar::Int64, sum), Type::I64, span))
            }
            Type::Scalar(s) if s.is_float() => {
                let x = self.coerce(b, v, &Type::F64, span)?;
                Ok(self.float_hash(b, x, span))
            }
            Type::Scalar(Scalar::UInt64) => {
                let m = self.u64c(b, MODULUS, span);
                let r = self.emit_binary(b, span, BinaryOp::Mod, v, m);
                Ok(self.push(b, InstKind::Cast(Scalar::Int64, r), Type::I64, span))
            }
            Type::Scalar(_) => {
                let x = self.coerce(b, v, &Type::I64, span)?;
                Ok(self.int_hash(b, x, span))
            }
            Type::Tuple(_) => {
                let items = self.elements(b, v, span);
                let mut acc = self.u64c(b, XXPRIME_5, span);
                let (p1, p2) = (self.u64c(b, XXPRIME_1, span), self.u64c(b, XXPRIME_2, span));
                let (s31, s33) = (self.u64c(b, 31, span), self.u64c(b, 33, span));
                for &item in &items {
                    let lane = self.py_hash(b, item, span)?;
                    let lane = self.as_u64(b, lane, span);
                    let mixed = self.emit_binary(b, span, BinaryOp::Mul, lane, p2);
                    acc = self.emit_binary(b, span, BinaryOp::Add, acc, mixed);
                    // Rotate left by 31.
                    let hi = self.emit_binary(b, span, BinaryOp::Shl, acc, s31);
                    let lo = self.emit_binary(b, span, BinaryOp::Shr, acc, s33);
                    acc = self.emit_binary(b, span, BinaryOp::BitOr, hi, lo);
                    acc = self.emit_binary(b, span, BinaryOp::Mul, acc, p1);
                }
                let tail = self.u64c(b, (items.len() as u64) ^ (XXPRIME_5 ^ 3_527_539), span);
                acc = self.emit_binary(b, span, BinaryOp::Add, acc, tail);
                // CPython turns an all-ones accumulator (-1) into 1546275796.
                let all_ones = self.u64c(b, u64::MAX, span);
                let is = self.emit_compare(b, span, CmpOp::Eq, acc, all_ones);
                let fixed = self.u64c(b, 1_546_275_796, span);
                let acc = self.emit_select(b, span, is, fixed, acc);
                Ok(self.push(b, InstKind::Cast(Scalar::Int64, acc), Type::I64, span))
            }
            t => Err(err(span, format!("hash() of {t} is not supported"), format!("this is {t}")).with_hint(
                "numbers, bools and tuples of them hash as in CPython; a string's hash depends on the process's \
                 hash seed in CPython and Numba",
            )),
        }
    }

    /// An int64's hash: `|x| mod (2^61 - 1)` with `x`'s sign.
    fn int_hash(&mut self, b: Block, x: Value, span: Span) -> Value {
        let zero = self.int(b, 0, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, x, zero);
        // |i64::MIN| wraps to itself, which as a uint64 is 2^63: right.
        let mag = self.negate_if(b, neg, x, span);
        let mag = self.as_u64(b, mag, span);
        let m = self.u64c(b, MODULUS, span);
        let r = self.emit_binary(b, span, BinaryOp::Mod, mag, m);
        let r = self.push(b, InstKind::Cast(Scalar::Int64, r), Type::I64, span);
        self.negate_if(b, neg, r, span)
    }

    /// A float64's hash: the fraction `m * 2^e` it equals, reduced modulo 2^61 - 1 (CPython's
    /// `_Py_HashDouble`; a mantissa's 53 bits take at most two 28-bit steps).
    fn float_hash(&mut self, b: Block, v: Value, span: Span) -> Value {
        let f = |this: &mut Self, x: f64| this.push(b, InstKind::Const(Const::Float(x)), Type::F64, span);
        let zero_f = f(self, 0.0);
        let m0 = self.push(b, InstKind::Builtin(Builtin::FrexpMantissa, vec![v]), Type::F64, span);
        let e0 = self.push(b, InstKind::Builtin(Builtin::FrexpExponent, vec![v]), Type::I32, span);
        let mut e = self.push(b, InstKind::Cast(Scalar::Int64, e0), Type::I64, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, m0, zero_f);
        let mut m = self.negate_if(b, neg, m0, span);
        let modulus = self.u64c(b, MODULUS, span);
        let (s28, s33) = (self.u64c(b, 28, span), self.u64c(b, 33, span));
        let scale = f(self, 268_435_456.0);
        let twenty_eight = self.int(b, 28, span);
        let mut x = self.u64c(b, 0, span);
        for _ in 0..2 {
            let go = self.emit_compare(b, span, CmpOp::Ne, m, zero_f);
            let x1 = self.rotate61(b, x, (s28, s33), span);
            let m1 = self.emit_binary(b, span, BinaryOp::Mul, m, scale);
            let e1 = self.emit_binary(b, span, BinaryOp::Sub, e, twenty_eight);
            // `m1` is below 2^28: its integer part converts exactly.
            let y = self.push(b, InstKind::Cast(Scalar::Int64, m1), Type::I64, span);
            let yf = self.push(b, InstKind::Cast(Scalar::Float64, y), Type::F64, span);
            let m2 = self.emit_binary(b, span, BinaryOp::Sub, m1, yf);
            let y = self.as_u64(b, y, span);
            let x2 = self.emit_binary(b, span, BinaryOp::Add, x1, y);
            let over = self.emit_compare(b, span, CmpOp::Ge, x2, modulus);
            let less = self.emit_binary(b, span, BinaryOp::Sub, x2, modulus);
            let x2 = self.emit_select(b, span, over, less, x2);
            x = self.emit_select(b, span, go, x2, x);
            m = self.emit_select(b, span, go, m2, m);
            e = self.emit_select(b, span, go, e1, e);
        }
        // The exponent modulo 61, as a rotation within 61 bits.
        let zero = self.int(b, 0, span);
        let (k61, k60, k1) = (self.int(b, 61, span), self.int(b, 60, span), self.int(b, 1, span));
        let non_neg = self.emit_compare(b, span, CmpOp::Ge, e, zero);
        let up = self.emit_binary(b, span, BinaryOp::Mod, e, k61);
        let ne = self.push(b, InstKind::Unary(UnaryOp::Neg, e), Type::I64, span);
        let ne1 = self.emit_binary(b, span, BinaryOp::Sub, ne, k1);
        let down = self.emit_binary(b, span, BinaryOp::Mod, ne1, k61);
        let down = self.emit_binary(b, span, BinaryOp::Sub, k60, down);
        let e = self.emit_select(b, span, non_neg, up, down);
        let back = self.emit_binary(b, span, BinaryOp::Sub, k61, e);
        let (e, back) = (self.as_u64(b, e, span), self.as_u64(b, back, span));
        let x = self.rotate61(b, x, (e, back), span);
        let x = self.push(b, InstKind::Cast(Scalar::Int64, x), Type::I64, span);
        let finite_hash = self.negate_if(b, neg, x, span);
        // Infinities and NaN: `v - v` is NaN for both, 0 for every finite `v`.
        let diff = self.emit_binary(b, span, BinaryOp::Sub, v, v);
        let finite = self.emit_compare(b, span, CmpOp::Eq, diff, zero_f);
        let pos = self.emit_compare(b, span, CmpOp::Gt, v, zero_f);
        let negv = self.emit_compare(b, span, CmpOp::Lt, v, zero_f);
        let (pinf, ninf) = (self.int(b, HASH_INF, span), self.int(b, -HASH_INF, span));
        let inf_hash = self.emit_select(b, span, negv, ninf, zero);
        let inf_hash = self.emit_select(b, span, pos, pinf, inf_hash);
        self.emit_select(b, span, finite, finite_hash, inf_hash)
    }

    /// `((x << k) & (2^61 - 1)) | (x >> back)` with `back = 61 - k`: `x` (below 2^61) rotated
    /// left by `k` within 61 bits.
    fn rotate61(&mut self, b: Block, x: Value, (k, back): (Value, Value), span: Span) -> Value {
        let modulus = self.u64c(b, MODULUS, span);
        let hi = self.emit_binary(b, span, BinaryOp::Shl, x, k);
        let hi = self.emit_binary(b, span, BinaryOp::BitAnd, hi, modulus);
        let lo = self.emit_binary(b, span, BinaryOp::Shr, x, back);
        self.emit_binary(b, span, BinaryOp::BitOr, hi, lo)
    }

    /// `-x` where `neg` holds, else `x` (in `x`'s type).
    fn negate_if(&mut self, b: Block, neg: Value, x: Value, span: Span) -> Value {
        let t = self.ty(x);
        let minus = self.push(b, InstKind::Unary(UnaryOp::Neg, x), t, span);
        self.emit_select(b, span, neg, minus, x)
    }

    /// CPython's rule that no hash is -1 (its error value): -1 becomes -2.
    fn not_minus_one(&mut self, b: Block, h: Value, span: Span) -> Value {
        let (m1, m2) = (self.int(b, -1, span), self.int(b, -2, span));
        let is = self.emit_compare(b, span, CmpOp::Eq, h, m1);
        self.emit_select(b, span, is, m2, h)
    }

    fn u64c(&mut self, b: Block, k: u64, span: Span) -> Value {
        self.push(b, InstKind::Const(Const::Int(k as i64)), Type::U64, span)
    }

    fn as_u64(&mut self, b: Block, v: Value, span: Span) -> Value {
        self.push(b, InstKind::Cast(Scalar::UInt64, v), Type::U64, span)
    }
}
