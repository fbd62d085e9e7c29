//! The one evaluator of Python constant expressions, with CPython's semantics: literal folding in
//! function bodies (`fold.rs`) and module-level constants (`module_level.rs`) both call [`eval`].
//!
//! It evaluates numbers, booleans and tuples under every operator as CPython 3.11 does: floor
//! `//` and `%` (floats too), true `/` (correctly rounded for ints), `2 ** -1 == 0.5`,
//! `True + True == 2`, `True & False is False`, comparisons of ints with floats that are exact,
//! `and`/`or` that return an operand. What CPython would raise is an error value naming the
//! exception and CPython's message (`1 / 0`: `ZeroDivisionError: division by zero`).
//!
//! Complex numbers follow CPython's `complexobject.c`: a real operand becomes `complex(x, 0.0)`
//! (3.11's rule), `*` and `/` are `_Py_c_prod` and `_Py_c_quot`, `**` takes `c_powi` for small
//! integral exponents and `_Py_c_pow` otherwise, and a negative float to a fractional power is
//! complex (`(-8.0) ** 0.5`), as `float_pow` delegates it.
//!
//! It does not know what names mean: module level passes [`Names`] (its globals, `math.pi`,
//! `np.float64(...)`), and [`Scope::Literals`] knows none and reads only operators over literals,
//! as CPython's compiler folds them. Nor does it know Numba's limits: which results are usable
//! (int64) is each caller's policy.
//!
//! **Integers are exact `i128`s with checked arithmetic**, so intermediates past int64
//! (`(1 << 63) - 1`) behave as Python's big ints; a value past i128, or a tuple longer than
//! [`MAX_TUPLE`], is [`Why::TooLarge`], never a wrap. Every result is CPython's bit for bit
//! (checked against CPython by `tests/const_eval_cases.py`) or an error value, never a panic.

use ruff_python_ast::{self as ast, CmpOp, Expr, Operator, UnaryOp};
use ruff_text_size::{Ranged, TextRange};
use std::cmp::Ordering;

/// A Python constant: what a constant expression evaluates to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ConstValue {
    Int(i128),
    Float(f64),
    Bool(bool),
    /// A Python `complex`: real and imaginary parts.
    Complex(f64, f64),
    Tuple(Vec<ConstValue>),
    /// A string (only as an item of a module-level tuple, `METHODS = ("a", "b")`; arithmetic
    /// on strings is not evaluated).
    Str(String),
}

impl ConstValue {
    /// The integer, if this is an int that fits int64.
    pub(crate) fn as_i64(&self) -> Option<i64> {
        match self {
            ConstValue::Int(i) => i64::try_from(*i).ok(),
            _ => None,
        }
    }
}

/// The longest tuple the evaluator builds (`(0,) * n`); longer is [`Why::TooLarge`].
pub(crate) const MAX_TUPLE: usize = 1024;

/// Which expressions are constants, and what names mean.
#[derive(Clone, Copy)]
pub(crate) enum Scope<'a> {
    /// CPython's compiler folding a function body: unary and binary operators over number and
    /// boolean literals; no names, tuples, comparisons or `and`/`or`.
    Literals,
    /// Module level, which Python runs: also tuples, comparisons, `and`/`or`, `x if c else y`,
    /// and the names and conversions `Names` knows.
    Module(&'a dyn Names),
}

/// What module-level names mean to the evaluator (the caller's globals).
pub(crate) trait Names {
    /// The constant a name or attribute (`N`, `math.pi`) stands for, if it is one.
    fn constant(&self, e: &Expr) -> Option<ConstValue>;
    /// The conversion a call of `callee` (`int`, `np.float64`) applies, if it is one.
    fn conversion(&self, callee: &Expr) -> Option<Conversion>;
    /// The string a name stands for (a module-level `MODE = 'fast'`), or a dtype's name for a
    /// dtype (`np.float64` is `"float64"`), if it is one.
    fn string(&self, _e: &Expr) -> Option<String> {
        None
    }
}

/// A call that converts constants: `int(x)`, `float(x)`, `bool(x)`, `complex(x)`,
/// `complex(re, im)` and NumPy's equivalents (`complex` is the only one of two arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Conversion {
    Int,
    Float,
    Bool,
    Complex,
}

/// Why an expression has no constant value, and the subexpression that decided it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct NoValue {
    pub(crate) at: TextRange,
    pub(crate) why: Why,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Why {
    /// Not made of constants (a name, a call, a complex result); the reason, for a label.
    NotConstant(&'static str),
    /// CPython raises `exception` with `message` evaluating it.
    Raises { exception: &'static str, message: String },
    /// An integer past i128 (or a tuple past [`MAX_TUPLE`]): exact in Python, too large here.
    TooLarge,
}

/// Evaluates `e` as CPython would, in `scope`.
pub(crate) fn eval(e: &Expr, scope: Scope<'_>) -> Result<ConstValue, NoValue> {
    let here = |why| NoValue { at: e.range(), why };
    let names = match (e, scope) {
        (Expr::NumberLiteral(n), _) => return literal(&n.value).map_err(here),
        (Expr::BooleanLiteral(b), _) => return Ok(ConstValue::Bool(b.value)),
        (Expr::UnaryOp(u), _) => return unary(u.op, eval(&u.operand, scope)?).map_err(here),
        (Expr::BinOp(b), _) => {
            let l = eval(&b.left, scope)?;
            return binary(b.op, l, eval(&b.right, scope)?).map_err(here);
        }
        (_, Scope::Literals) => return Err(here(Why::NotConstant("not a literal"))),
        (_, Scope::Module(names)) => names,
    };
    let not_constant = |why| Err(here(Why::NotConstant(why)));
    match e {
        // A string literal is a value only as an item of a tuple (`("a", "b")`).
        Expr::Tuple(t) => tuple(
            t.elts
                .iter()
                .map(|x| match x {
                    Expr::StringLiteral(s) => Ok(ConstValue::Str(s.value.to_str().to_string())),
                    x => eval(x, scope),
                })
                .collect::<Result<_, _>>()?,
        )
        .map_err(here),
        Expr::Name(_) | Expr::Attribute(_) => {
            names.constant(e).map_or_else(|| not_constant("not a known constant"), Ok)
        }
        Expr::Call(c) => {
            let conversion = names.conversion(&c.func).filter(|_| c.arguments.keywords.is_empty());
            match (conversion, &*c.arguments.args) {
                // `float("inf")`, `float("nan")`, `float(" 1.5 ")`: Python's float of a string.
                (Some(Conversion::Float), [Expr::StringLiteral(s)]) => match float_of_str(s.value.to_str()) {
                    Some(x) => Ok(ConstValue::Float(x)),
                    None => not_constant("float() of a string that is not a number (Python raises ValueError)"),
                },
                (Some(conv), [arg]) => convert(conv, eval(arg, scope)?).map_err(here),
                (Some(Conversion::Complex), [re, im]) => complex_new(eval(re, scope)?, eval(im, scope)?).map_err(here),
                _ => not_constant(
                    "only int(), float(), bool(), complex(), np.int64(), np.float64() and np.complex128() of constants are frozen",
                ),
            }
        }
        Expr::Compare(c) => {
            let mut left = eval(&c.left, scope)?;
            for (op, right) in c.ops.iter().zip(&*c.comparators) {
                let right = eval(right, scope)?;
                if !compare(*op, &left, &right).map_err(here)? {
                    return Ok(ConstValue::Bool(false));
                }
                left = right;
            }
            Ok(ConstValue::Bool(true))
        }
        Expr::BoolOp(b) => {
            let mut v = ConstValue::Bool(true);
            for (k, operand) in b.values.iter().enumerate() {
                // `and` stops at the first false operand, `or` at the first true one.
                if k > 0 && truthy(&v) != (b.op == ast::BoolOp::And) {
                    break;
                }
                v = eval(operand, scope)?;
            }
            Ok(v)
        }
        Expr::If(i) => eval(if truthy(&eval(&i.test, scope)?) { &i.body } else { &i.orelse }, scope),
        Expr::StringLiteral(_) | Expr::BytesLiteral(_) | Expr::FString(_) | Expr::TString(_) => {
            not_constant("strings are not numeric constants")
        }
        Expr::NoneLiteral(_) => not_constant("None is not a numeric constant"),
        _ => not_constant("not a constant"),
    }
}

/// Python's `float(text)`: surrounding whitespace ignored, `inf`/`infinity`/`nan` in any case
/// with an optional sign, or a decimal literal (underscores between digits allowed).
fn float_of_str(text: &str) -> Option<f64> {
    let t = text.trim();
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    match body.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => return Some(sign * f64::INFINITY),
        "nan" => return Some(f64::NAN.copysign(sign)),
        _ => {}
    }
    let ok = |c: char| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-' | '_');
    if body.is_empty() || !body.chars().all(ok) || body.starts_with('_') || body.ends_with('_') || body.contains("__") {
        return None;
    }
    body.replace('_', "").parse::<f64>().ok().map(|x| sign * x)
}

fn literal(n: &ast::Number) -> Result<ConstValue, Why> {
    match n {
        ast::Number::Int(i) => match i.as_u64() {
            Some(v) => Ok(ConstValue::Int(v.into())),
            None => big_literal(&i.to_string()).map(ConstValue::Int).ok_or(Why::TooLarge),
        },
        ast::Number::Float(x) => Ok(ConstValue::Float(*x)),
        ast::Number::Complex { real, imag } => Ok(ConstValue::Complex(*real, *imag)),
    }
}

/// An integer literal's token (`0xFFFF_FFFF...`) as an i128, if it fits.
fn big_literal(token: &str) -> Option<i128> {
    let digits: String = token.chars().filter(|c| *c != '_').collect();
    let (radix, digits) = match digits.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => (16, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, &digits[..]),
    };
    i128::from_str_radix(digits, radix).ok()
}

fn type_name(v: &ConstValue) -> &'static str {
    match v {
        ConstValue::Int(_) => "int",
        ConstValue::Float(_) => "float",
        ConstValue::Bool(_) => "bool",
        ConstValue::Complex(..) => "complex",
        ConstValue::Tuple(_) => "tuple",
        ConstValue::Str(_) => "str",
    }
}

/// Python's truth value.
fn truthy(v: &ConstValue) -> bool {
    match v {
        ConstValue::Int(i) => *i != 0,
        ConstValue::Float(x) => *x != 0.0,
        ConstValue::Bool(b) => *b,
        ConstValue::Complex(re, im) => *re != 0.0 || *im != 0.0,
        ConstValue::Tuple(items) => !items.is_empty(),
        ConstValue::Str(text) => !text.is_empty(),
    }
}

/// The integer value of an int or bool.
fn int_of(v: &ConstValue) -> Option<i128> {
    match v {
        ConstValue::Int(i) => Some(*i),
        ConstValue::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}

/// The float an int, bool or float converts to (correctly rounded, as CPython's).
fn float_of(v: &ConstValue) -> Option<f64> {
    match v {
        ConstValue::Float(x) => Some(*x),
        v => int_of(v).map(|i| i as f64),
    }
}

/// The complex a number converts to: `complex(x, 0.0)` for a real one (CPython 3.11's
/// `TO_COMPLEX`).
fn complex_of(v: &ConstValue) -> Option<(f64, f64)> {
    match v {
        ConstValue::Complex(re, im) => Some((*re, *im)),
        v => float_of(v).map(|x| (x, 0.0)),
    }
}

fn raises(exception: &'static str, message: impl Into<String>) -> Why {
    Why::Raises { exception, message: message.into() }
}

fn zero_division(message: &str) -> Why {
    raises("ZeroDivisionError", message)
}

fn type_error(message: String) -> Why {
    raises("TypeError", message)
}

fn unsupported_operands(op: Operator, l: &ConstValue, r: &ConstValue) -> Why {
    let op = if op == Operator::Pow { "** or pow()" } else { op.as_str() };
    type_error(format!("unsupported operand type(s) for {op}: '{}' and '{}'", type_name(l), type_name(r)))
}

fn tuple(items: Vec<ConstValue>) -> Result<ConstValue, Why> {
    if items.len() > MAX_TUPLE {
        return Err(Why::TooLarge);
    }
    Ok(ConstValue::Tuple(items))
}

fn unary(op: UnaryOp, v: ConstValue) -> Result<ConstValue, Why> {
    use ConstValue::{Float, Int};
    if op == UnaryOp::Not {
        return Ok(ConstValue::Bool(!truthy(&v)));
    }
    if let ConstValue::Complex(re, im) = v {
        return match op {
            UnaryOp::USub => Ok(ConstValue::Complex(-re, -im)),
            UnaryOp::UAdd => Ok(ConstValue::Complex(re, im)),
            _ => Err(type_error("bad operand type for unary ~: 'complex'".into())),
        };
    }
    if let Float(x) = v {
        return match op {
            UnaryOp::USub => Ok(Float(-x)),
            UnaryOp::UAdd => Ok(Float(x)),
            _ => Err(type_error("bad operand type for unary ~: 'float'".into())),
        };
    }
    let Some(i) = int_of(&v) else {
        return Err(type_error(format!("bad operand type for unary {}: '{}'", op.as_str(), type_name(&v))));
    };
    match op {
        UnaryOp::USub => i.checked_neg().map(Int).ok_or(Why::TooLarge),
        UnaryOp::UAdd => Ok(Int(i)),
        _ => Ok(Int(!i)),
    }
}

fn binary(op: Operator, l: ConstValue, r: ConstValue) -> Result<ConstValue, Why> {
    use ConstValue::Bool;
    use Operator::{BitAnd, BitOr, BitXor};
    match (&l, &r) {
        (ConstValue::Tuple(_), _) | (_, ConstValue::Tuple(_)) => tuple_binary(op, l, r),
        // bool's own `&`, `|`, `^` keep the type; its other operators are int's.
        (Bool(a), Bool(b)) if matches!(op, BitAnd | BitOr | BitXor) => Ok(Bool(match op {
            BitAnd => a & b,
            BitOr => a | b,
            _ => a ^ b,
        })),
        (ConstValue::Complex(..), _) | (_, ConstValue::Complex(..)) => match (complex_of(&l), complex_of(&r)) {
            (Some(a), Some(b)) => complex_binary(op, a, b).ok_or_else(|| unsupported_operands(op, &l, &r))?,
            _ => Err(unsupported_operands(op, &l, &r)),
        },
        (ConstValue::Float(_), _) | (_, ConstValue::Float(_)) => match (float_of(&l), float_of(&r)) {
            (Some(a), Some(b)) => float_binary(op, a, b).ok_or_else(|| unsupported_operands(op, &l, &r))?,
            _ => Err(unsupported_operands(op, &l, &r)),
        },
        _ => match (int_of(&l), int_of(&r)) {
            (Some(a), Some(b)) => int_binary(op, a, b).ok_or_else(|| unsupported_operands(op, &l, &r))?,
            _ => Err(unsupported_operands(op, &l, &r)),
        },
    }
}

/// `a op b` on ints; `None` where the operator does not apply to ints (`@`).
fn int_binary(op: Operator, a: i128, b: i128) -> Option<Result<ConstValue, Why>> {
    use ConstValue::Int;
    use Operator::*;
    let exact = |r: Option<i128>| r.map(Int).ok_or(Why::TooLarge);
    Some(match op {
        Add => exact(a.checked_add(b)),
        Sub => exact(a.checked_sub(b)),
        Mult => exact(a.checked_mul(b)),
        Div => int_true_div(a, b).map(ConstValue::Float),
        FloorDiv if b == 0 => Err(zero_division("integer division or modulo by zero")),
        FloorDiv => exact(floor_div(a, b)),
        Mod if b == 0 => Err(zero_division("integer modulo by zero")),
        // `b == -1` is special only because i128::MIN % -1 overflows in Rust.
        Mod => Ok(Int(if b == -1 { 0 } else { floor_mod(a, b) })),
        // A negative exponent makes it float's power (`2 ** -1 == 0.5`).
        Pow if b < 0 => float_pow(a as f64, b as f64),
        Pow => int_pow(a, b),
        LShift | RShift if b < 0 => Err(raises("ValueError", "negative shift count")),
        LShift if a == 0 => Ok(Int(0)),
        LShift if b >= 128 => Err(Why::TooLarge),
        LShift => {
            let r = a << b;
            if r >> b == a {
                Ok(Int(r))
            } else {
                Err(Why::TooLarge)
            }
        }
        RShift => Ok(Int(if b >= 128 { a >> 127 } else { a >> b })),
        BitAnd => Ok(Int(a & b)),
        BitOr => Ok(Int(a | b)),
        BitXor => Ok(Int(a ^ b)),
        MatMult => return None,
    })
}

fn floor_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    Some(if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

fn floor_mod(a: i128, b: i128) -> i128 {
    let r = a % b;
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

fn int_pow(a: i128, b: i128) -> Result<ConstValue, Why> {
    Ok(ConstValue::Int(match a {
        0 => i128::from(b == 0),
        1 => 1,
        -1 => 1 - 2 * (b & 1),
        // |a| >= 2: any exponent past 127 leaves i128.
        _ => u32::try_from(b).ok().and_then(|b| a.checked_pow(b)).ok_or(Why::TooLarge)?,
    }))
}

/// `a / b` for ints, correctly rounded as CPython's (not the double rounding of
/// `a as f64 / b as f64` when `a` or `b` has more than 53 bits).
fn int_true_div(a: i128, b: i128) -> Result<f64, Why> {
    if b == 0 {
        return Err(zero_division("division by zero"));
    }
    let (n, d) = (a.unsigned_abs(), b.unsigned_abs());
    if n <= 1 << 53 && d <= 1 << 53 {
        // Both exact as floats: one rounding, and CPython's signed zero (`0 / -1 == -0.0`).
        return Ok(a as f64 / b as f64);
    }
    let q = rounded_quotient(n, d);
    Ok(if (a < 0) != (b < 0) { -q } else { q })
}

/// `n / d` rounded to nearest-even; `d > 0`.
fn rounded_quotient(n: u128, d: u128) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let (mut q, mut r, mut exp) = (n / d, n % d, 0i32);
    // Long division until the quotient has 55 bits (53, a rounding bit, one more); what is left
    // is a sticky bit. `r < d <= 2**127`, so doubling it cannot overflow.
    while q < 1 << 54 {
        r <<= 1;
        q <<= 1;
        if r >= d {
            r -= d;
            q |= 1;
        }
        exp -= 1;
    }
    let shift = (128 - q.leading_zeros()).saturating_sub(53);
    let (mut m, rest) = (q >> shift, q & ((1u128 << shift) - 1));
    let half = 1u128 << (shift - 1);
    if rest > half || (rest == half && (r != 0 || m & 1 == 1)) {
        m += 1;
    }
    // m <= 2**53 and the scale is a normal power of two: the product is exact.
    (m as f64) * pow2(exp + shift as i32)
}

/// 2**k for a k with a normal result.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `a op b` on floats (ints converted); `None` where the operator does not apply to floats.
fn float_binary(op: Operator, a: f64, b: f64) -> Option<Result<ConstValue, Why>> {
    use twinjit_ir::interp::divmod_f64;
    use ConstValue::Float;
    use Operator::*;
    Some(match op {
        Add => Ok(Float(a + b)),
        Sub => Ok(Float(a - b)),
        Mult => Ok(Float(a * b)),
        Div if b == 0.0 => Err(zero_division("float division by zero")),
        Div => Ok(Float(a / b)),
        FloorDiv if b == 0.0 => Err(zero_division("float floor division by zero")),
        // The interpreter's divmod is CPython's `_float_div_mod`.
        FloorDiv => Ok(Float(divmod_f64(a, b).0)),
        Mod if b == 0.0 => Err(zero_division("float modulo")),
        Mod => Ok(Float(divmod_f64(a, b).1)),
        Pow => float_pow(a, b),
        LShift | RShift | BitAnd | BitOr | BitXor | MatMult => return None,
    })
}

fn is_odd_integer(x: f64) -> bool {
    x.abs() % 2.0 == 1.0
}

/// CPython's `float_pow`: its special cases in its order, then the platform's `pow`.
fn float_pow(v: f64, w: f64) -> Result<ConstValue, Why> {
    use ConstValue::Float;
    if w == 0.0 {
        return Ok(Float(1.0));
    }
    if v.is_nan() {
        return Ok(Float(v));
    }
    if w.is_nan() {
        return Ok(Float(if v == 1.0 { 1.0 } else { w }));
    }
    if w.is_infinite() {
        let v = v.abs();
        return Ok(Float(if v == 1.0 {
            1.0
        } else if (w > 0.0) == (v > 1.0) {
            f64::INFINITY
        } else {
            0.0
        }));
    }
    if v.is_infinite() {
        let odd = is_odd_integer(w);
        return Ok(Float(match (w > 0.0, odd) {
            (true, true) => v,
            (true, false) => v.abs(),
            (false, true) => 0f64.copysign(v),
            (false, false) => 0.0,
        }));
    }
    if v == 0.0 {
        if w < 0.0 {
            return Err(zero_division("0.0 cannot be raised to a negative power"));
        }
        return Ok(Float(if is_odd_integer(w) { v } else { 0.0 }));
    }
    let (mut v, mut negate) = (v, false);
    if v < 0.0 {
        if w != w.floor() {
            // CPython's float_pow hands it to complex's power.
            return complex_pow((v, 0.0), (w, 0.0));
        }
        v = -v;
        negate = is_odd_integer(w);
    }
    if v == 1.0 {
        return Ok(Float(if negate { -1.0 } else { 1.0 }));
    }
    let x = v.powf(w);
    if x.is_infinite() {
        // CPython reports libm's ERANGE (an underflow to zero is not an error).
        return Err(raises("OverflowError", "(34, 'Numerical result out of range')"));
    }
    Ok(Float(if negate { -x } else { x }))
}

type Complex = (f64, f64);

/// `a op b` on complex numbers (real operands converted); `None` where the operator does not
/// apply to complex (`//`, `%`, shifts, bitwise).
fn complex_binary(op: Operator, a: Complex, b: Complex) -> Option<Result<ConstValue, Why>> {
    let c = |(re, im): Complex| Ok(ConstValue::Complex(re, im));
    Some(match op {
        Operator::Add => c((a.0 + b.0, a.1 + b.1)),
        Operator::Sub => c((a.0 - b.0, a.1 - b.1)),
        Operator::Mult => c(c_prod(a, b)),
        Operator::Div => match c_quot(a, b) {
            Some(q) => c(q),
            None => Err(zero_division("complex division by zero")),
        },
        Operator::Pow => complex_pow(a, b),
        _ => return None,
    })
}

/// `_Py_c_prod`.
fn c_prod(a: Complex, b: Complex) -> Complex {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// `_Py_c_quot` (Smith's method); `None` where it sets `EDOM` (a zero divisor).
fn c_quot(a: Complex, b: Complex) -> Option<Complex> {
    let (abs_re, abs_im) = (b.0.abs(), b.1.abs());
    if abs_re >= abs_im {
        if abs_re == 0.0 {
            return None;
        }
        let ratio = b.1 / b.0;
        let denom = b.0 + b.1 * ratio;
        Some(((a.0 + a.1 * ratio) / denom, (a.1 - a.0 * ratio) / denom))
    } else if abs_im >= abs_re {
        let ratio = b.0 / b.1;
        let denom = b.0 * ratio + b.1;
        Some(((a.0 * ratio + a.1) / denom, (a.1 * ratio - a.0) / denom))
    } else {
        // A nan part in the divisor.
        Some((f64::NAN, f64::NAN))
    }
}

/// CPython's `complex_pow`: `c_powi` (binary powering, then a reciprocal for a negative
/// exponent) when the exponent is an integer of magnitude at most 100, else `_Py_c_pow`; an
/// infinite part is `OverflowError`; `EDOM` (a zero base to a negative or complex power, a zero
/// reciprocal, an infinite phase) is `ZeroDivisionError`.
fn complex_pow(a: Complex, b: Complex) -> Result<ConstValue, Why> {
    let zero_power = || zero_division("0.0 to a negative or complex power");
    let p = if b.1 == 0.0 && b.0 == b.0.floor() && b.0.abs() <= 100.0 {
        let n = b.0 as i64;
        let powu = |mut p: Complex, n: i64| {
            let (mut r, mut mask) = ((1.0, 0.0), 1i64);
            while mask > 0 && n >= mask {
                if n & mask != 0 {
                    r = c_prod(r, p);
                }
                mask <<= 1;
                p = c_prod(p, p);
            }
            r
        };
        if n > 0 {
            powu(a, n)
        } else {
            c_quot((1.0, 0.0), powu(a, -n)).ok_or_else(zero_power)?
        }
    } else if b == (0.0, 0.0) {
        (1.0, 0.0)
    } else if a == (0.0, 0.0) {
        if b.1 != 0.0 || b.0 < 0.0 {
            return Err(zero_power());
        }
        (0.0, 0.0)
    } else {
        let vabs = a.0.hypot(a.1);
        let mut len = vabs.powf(b.0);
        let at = a.1.atan2(a.0);
        let mut phase = at * b.0;
        if b.1 != 0.0 {
            len /= (at * b.1).exp();
            phase += b.1 * vabs.ln();
        }
        if phase.is_infinite() {
            // libm's cos and sin of an infinity set EDOM, which CPython reports as this.
            return Err(zero_power());
        }
        (len * phase.cos(), len * phase.sin())
    };
    if p.0.is_infinite() || p.1.is_infinite() {
        return Err(raises("OverflowError", "complex exponentiation"));
    }
    Ok(ConstValue::Complex(p.0, p.1))
}

/// `complex(re, im)` of two numbers, as CPython's `complex_new` combines them:
/// `(re.real - im.imag) + (im.real + re.imag)j`.
fn complex_new(re_v: ConstValue, im: ConstValue) -> Result<ConstValue, Why> {
    let Some(a) = complex_of(&re_v) else {
        return Err(type_error(format!(
            "complex() first argument must be a string or a number, not '{}'",
            type_name(&re_v)
        )));
    };
    let Some(b) = complex_of(&im) else {
        return Err(type_error(format!("complex() second argument must be a number, not '{}'", type_name(&im))));
    };
    // Only a complex operand contributes its other part (`complex(1, -0.0)` keeps the -0.0).
    let re = if matches!(im, ConstValue::Complex(..)) { a.0 - b.1 } else { a.0 };
    let im = if matches!(re_v, ConstValue::Complex(..)) { b.0 + a.1 } else { b.0 };
    Ok(ConstValue::Complex(re, im))
}

fn tuple_binary(op: Operator, l: ConstValue, r: ConstValue) -> Result<ConstValue, Why> {
    use ConstValue::Tuple;
    match (op, l, r) {
        (Operator::Add, Tuple(mut a), Tuple(b)) => {
            a.extend(b);
            tuple(a)
        }
        (Operator::Add, Tuple(_), r) => {
            Err(type_error(format!("can only concatenate tuple (not \"{}\") to tuple", type_name(&r))))
        }
        (Operator::Mult, Tuple(t), n)
        | (
            Operator::Mult,
            n @ (ConstValue::Int(_) | ConstValue::Bool(_) | ConstValue::Float(_) | ConstValue::Complex(..)),
            Tuple(t),
        ) => {
            let Some(n) = int_of(&n) else {
                return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", type_name(&n))));
            };
            // CPython needs the count as a Py_ssize_t before it looks at the tuple.
            if i64::try_from(n).is_err() {
                return Err(raises("OverflowError", "cannot fit 'int' into an index-sized integer"));
            }
            if t.is_empty() || n <= 0 {
                return Ok(Tuple(Vec::new()));
            }
            match usize::try_from(n).ok().and_then(|n| n.checked_mul(t.len())) {
                Some(len) if len <= MAX_TUPLE => Ok(Tuple(t.iter().cycle().take(len).cloned().collect())),
                _ => Err(Why::TooLarge),
            }
        }
        (op, l, r) => Err(unsupported_operands(op, &l, &r)),
    }
}

fn compare(op: CmpOp, l: &ConstValue, r: &ConstValue) -> Result<bool, Why> {
    let ordering = match op {
        CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn => {
            return Err(Why::NotConstant("`is` and `in` are not evaluated in constants"));
        }
        CmpOp::Eq => return equal(l, r),
        CmpOp::NotEq => return equal(l, r).map(|e| !e),
        _ => order(op, l, r)?,
    };
    Ok(match op {
        CmpOp::Lt => ordering == Some(Ordering::Less),
        CmpOp::LtE => matches!(ordering, Some(Ordering::Less | Ordering::Equal)),
        CmpOp::Gt => ordering == Some(Ordering::Greater),
        _ => matches!(ordering, Some(Ordering::Greater | Ordering::Equal)),
    })
}

fn equal(l: &ConstValue, r: &ConstValue) -> Result<bool, Why> {
    match (l, r) {
        (ConstValue::Tuple(a), ConstValue::Tuple(b)) => {
            if a.len() != b.len() {
                return Ok(false);
            }
            for (x, y) in a.iter().zip(b) {
                if !item_equal(x, y)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        (ConstValue::Tuple(_), _) | (_, ConstValue::Tuple(_)) => Ok(false),
        // `complex_richcompare`: equal parts; a real number equals a complex with a zero
        // imaginary part and an equal real part (exactly, for an int).
        (ConstValue::Complex(a, b), ConstValue::Complex(c, d)) => Ok(a == c && b == d),
        (ConstValue::Complex(re, im), x) | (x, ConstValue::Complex(re, im)) => {
            Ok(*im == 0.0 && number_order(&ConstValue::Float(*re), x) == Some(Ordering::Equal))
        }
        _ => Ok(number_order(l, r) == Some(Ordering::Equal)),
    }
}

/// Equality of tuple items: CPython tries identity first, so `(x,) == (x,)` is true for the
/// same nan object and false for two; the evaluator has no identity and declines.
fn item_equal(x: &ConstValue, y: &ConstValue) -> Result<bool, Why> {
    if holds_nan(x) || holds_nan(y) {
        return Err(Why::NotConstant("comparing tuples that hold nan depends on object identity"));
    }
    equal(x, y)
}

fn holds_nan(v: &ConstValue) -> bool {
    match v {
        ConstValue::Float(x) => x.is_nan(),
        ConstValue::Complex(re, im) => re.is_nan() || im.is_nan(),
        ConstValue::Tuple(items) => items.iter().any(holds_nan),
        _ => false,
    }
}

/// The ordering `<`, `<=`, `>`, `>=` use; `None` for nan.
fn order(op: CmpOp, l: &ConstValue, r: &ConstValue) -> Result<Option<Ordering>, Why> {
    match (l, r) {
        (ConstValue::Tuple(a), ConstValue::Tuple(b)) => {
            // Lexicographic: the first items that differ decide, else the lengths.
            for (x, y) in a.iter().zip(b) {
                if !item_equal(x, y)? {
                    return order(op, x, y);
                }
            }
            Ok(Some(a.len().cmp(&b.len())))
        }
        (ConstValue::Tuple(_) | ConstValue::Complex(..), _) | (_, ConstValue::Tuple(_) | ConstValue::Complex(..)) => {
            Err(type_error(format!(
                "'{}' not supported between instances of '{}' and '{}'",
                op.as_str(),
                type_name(l),
                type_name(r)
            )))
        }
        _ => Ok(number_order(l, r)),
    }
}

/// Python's exact order of two numbers (an int is never rounded to compare it with a float).
fn number_order(l: &ConstValue, r: &ConstValue) -> Option<Ordering> {
    match (int_of(l), int_of(r)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        (Some(a), None) => int_float_order(a, float_of(r)?),
        (None, Some(b)) => int_float_order(b, float_of(l)?).map(Ordering::reverse),
        (None, None) => float_of(l)?.partial_cmp(&float_of(r)?),
    }
}

fn int_float_order(i: i128, x: f64) -> Option<Ordering> {
    if x.is_nan() {
        return None;
    }
    // Every i128 lies in [-2**127, 2**127).
    if x >= pow2(127) {
        return Some(Ordering::Less);
    }
    if x < -pow2(127) {
        return Some(Ordering::Greater);
    }
    let whole = x.trunc();
    // `whole` is an integer in [-2**127, 2**127): the conversion is exact.
    Some(i.cmp(&(whole as i128)).then_with(|| 0.0.partial_cmp(&(x - whole)).unwrap_or(Ordering::Equal)))
}

fn convert(conv: Conversion, v: ConstValue) -> Result<ConstValue, Why> {
    match (conv, v) {
        (Conversion::Bool, v) => Ok(ConstValue::Bool(truthy(&v))),
        (Conversion::Complex, v) => match complex_of(&v) {
            Some((re, im)) => Ok(ConstValue::Complex(re, im)),
            None => Err(type_error(format!(
                "complex() first argument must be a string or a number, not '{}'",
                type_name(&v)
            ))),
        },
        (Conversion::Int, ConstValue::Float(x)) if x.is_nan() => {
            Err(raises("ValueError", "cannot convert float NaN to integer"))
        }
        (Conversion::Int, ConstValue::Float(x)) if x.is_infinite() => {
            Err(raises("OverflowError", "cannot convert float infinity to integer"))
        }
        (Conversion::Int, ConstValue::Float(x)) => {
            let t = x.trunc();
            if t >= pow2(127) || t < -pow2(127) {
                Err(Why::TooLarge)
            } else {
                Ok(ConstValue::Int(t as i128))
            }
        }
        (Conversion::Int, v) => int_of(&v).map(ConstValue::Int).ok_or_else(|| {
            type_error(format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                type_name(&v)
            ))
        }),
        (Conversion::Float, v) => float_of(&v).map(ConstValue::Float).ok_or_else(|| {
            type_error(format!("float() argument must be a string or a real number, not '{}'", type_name(&v)))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names the CPython oracle's expressions use: `math.inf`, `math.nan`, the builtins.
    struct Builtins;

    impl Names for Builtins {
        fn constant(&self, e: &Expr) -> Option<ConstValue> {
            match e.as_name_expr()?.id.as_str() {
                "inf" => Some(ConstValue::Float(f64::INFINITY)),
                "nan" => Some(ConstValue::Float(f64::NAN)),
                _ => None,
            }
        }

        fn conversion(&self, callee: &Expr) -> Option<Conversion> {
            match callee.as_name_expr()?.id.as_str() {
                "int" => Some(Conversion::Int),
                "float" => Some(Conversion::Float),
                "bool" => Some(Conversion::Bool),
                "complex" => Some(Conversion::Complex),
                _ => None,
            }
        }
    }

    fn parse(src: &str) -> Expr {
        *ruff_python_parser::parse_expression(src).expect("parses").into_syntax().body
    }

    /// Whether `v` is the table's `want` (`int:3`, `float:-0.0`, `complex:1.0;-0.0`,
    /// `tuple:(int:1, bool:True)`);
    /// floats agree bit for bit, or both nan.
    fn same_value(v: &ConstValue, want: &str) -> bool {
        let (kind, text) = want.split_once(':').unwrap_or((want, ""));
        match (kind, v) {
            ("int", ConstValue::Int(i)) => text.parse() == Ok(*i),
            ("bool", ConstValue::Bool(b)) => text == if *b { "True" } else { "False" },
            ("float", ConstValue::Float(x)) => {
                text.parse::<f64>().is_ok_and(|w| w.to_bits() == x.to_bits() || (w.is_nan() && x.is_nan()))
            }
            ("complex", ConstValue::Complex(re, im)) => {
                let same = |w: &str, x: f64| {
                    w.parse::<f64>().is_ok_and(|w| w.to_bits() == x.to_bits() || (w.is_nan() && x.is_nan()))
                };
                text.split_once(';').is_some_and(|(a, b)| same(a, *re) && same(b, *im))
            }
            ("tuple", ConstValue::Tuple(items)) => {
                let inner = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or("?");
                let wants = top_level_items(inner);
                wants.len() == items.len() && items.iter().zip(&wants).all(|(v, w)| same_value(v, w))
            }
            _ => false,
        }
    }

    fn top_level_items(s: &str) -> Vec<&str> {
        let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
        for (k, c) in s.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(s[start..k].trim());
                    start = k + 1;
                }
                _ => {}
            }
        }
        if !s.trim().is_empty() {
            items.push(s[start..].trim());
        }
        items
    }

    /// Evaluates `src` at module level and compares it with the table's form of the result.
    fn check(src: &str, expect: &str) -> Result<(), String> {
        let got = eval(&parse(src), Scope::Module(&Builtins));
        let agrees = match (&got, expect) {
            (Ok(v), want) => same_value(v, want),
            (Err(NoValue { why: Why::Raises { exception, message }, .. }), want) => {
                want.strip_prefix("raises:") == Some(&format!("{exception}: {message}"))
            }
            (Err(NoValue { why: Why::NotConstant(_), .. }), want) => want == "notconst",
            (Err(NoValue { why: Why::TooLarge, .. }), want) => want == "toolarge",
        };
        if agrees {
            Ok(())
        } else {
            Err(format!("{src}\n    CPython: {expect}\n    twinjit: {got:?}"))
        }
    }

    #[test]
    fn agrees_with_cpython() {
        // Written by `python3 tests/const_eval_cases.py`; `--check` re-verifies it with CPython.
        let table = include_str!("../tests/const_eval_cases.txt");
        let cases: Vec<(&str, &str)> = table
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_once('\t').expect("EXPR<TAB>RESULT"))
            .collect();
        let failures: Vec<String> = cases.iter().filter_map(|(src, expect)| check(src, expect).err()).collect();
        assert!(cases.len() > 2000, "only {} cases", cases.len());
        assert!(
            failures.is_empty(),
            "{} of {} cases disagree with CPython:\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n")
        );
    }

    #[test]
    fn literal_scope_reads_only_operators_over_literals() {
        let literal = |src: &str| eval(&parse(src), Scope::Literals).map_err(|no| no.why);
        assert_eq!(literal("-(2 ** 63) + ~True"), Ok(ConstValue::Int(i64::MIN as i128 - 2)));
        assert_eq!(literal("not 0.0"), Ok(ConstValue::Bool(true)));
        // CPython's compiler folds complex arithmetic too.
        assert_eq!(literal("1 - 2j"), Ok(ConstValue::Complex(1.0, -2.0)));
        for src in ["x + 1", "(1, 2) + (3,)", "1 < 2", "1 and 2", "1 if 1 else 2", "int(2.5)", "complex(1, 2)"] {
            assert!(matches!(literal(src), Err(Why::NotConstant(_))), "{src}: {:?}", literal(src));
        }
    }

    #[test]
    fn declines_what_depends_on_identity() {
        // CPython: true for one nan object, false for two; the evaluator cannot tell.
        let module = |src: &str| eval(&parse(src), Scope::Module(&Builtins)).map_err(|no| no.why);
        assert!(matches!(module("(nan,) == (nan,)"), Err(Why::NotConstant(_))));
        assert!(matches!(module("(nan, 1) < (nan, 2)"), Err(Why::NotConstant(_))));
        assert!(matches!(module("1 is 1"), Err(Why::NotConstant(_))));
    }

    #[test]
    fn tuples_stop_at_max_tuple() {
        let module = |src: &str| eval(&parse(src), Scope::Module(&Builtins)).map_err(|no| no.why);
        let full = format!("(1, 2) * {}", MAX_TUPLE / 2);
        assert!(matches!(module(&full), Ok(ConstValue::Tuple(t)) if t.len() == MAX_TUPLE));
        assert_eq!(module(&format!("{full} + (3,)")), Err(Why::TooLarge));
    }

    #[test]
    fn errors_point_at_the_subexpression() {
        let src = "1 + (2 // 0) * 3";
        let no = eval(&parse(src), Scope::Module(&Builtins)).unwrap_err();
        assert_eq!(&src[no.at], "2 // 0");
        assert_eq!(no.why, raises("ZeroDivisionError", "integer division or modulo by zero"));
    }
}
