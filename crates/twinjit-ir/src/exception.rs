//! Exceptions raised by compiled code (`raise ValueError("bad", x)`, `assert c, "msg"`): the
//! exception's class and its arguments, and the message Python's `str(exc)` gives for them.
//!
//! One type serves three places through its runtime-argument parameter `R`: the IR's raise
//! terminator holds [`Exception<Value>`](crate::Value) (runtime arguments are SSA values), a
//! backend's raise site holds `Exception<Scalar>` (their types, to decode the error record),
//! and rendering takes [`PyScalar`]s. The class is only a name: exception matching is limited to
//! `except Exception` / bare `except`, as in Numba, so no hierarchy is needed.

use crate::types::Scalar;

/// The builtin exception classes compiled code may raise (and a module's exception classes may
/// derive from).
pub const BUILTIN_EXCEPTIONS: &[&str] = &[
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "IndexError",
    "KeyError",
    "LookupError",
    "NotImplementedError",
    "OverflowError",
    "RuntimeError",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
];

/// The class of a raise that is an error at compile time, not at run time: the `raise` of an
/// `@overload` function's typing-time code (and its end, where no implementation was
/// returned). Inference reports it, with its message, if its block is live for the argument
/// types; a pruned one is never compiled. Not a name a module can spell.
pub const TYPING_ERROR: &str = "numba.core.errors.TypingError";

/// The prefix of the function an `@overload_method` of `NAME` becomes (`__twinjit_method_NAME`),
/// which a typing error names as the method `.NAME()`.
pub const OVERLOAD_METHOD_PREFIX: &str = "__twinjit_method_";

/// The prefix of the function an `@overload_attribute` of `NAME` becomes.
pub const OVERLOAD_ATTRIBUTE_PREFIX: &str = "__twinjit_attribute_";

/// Most runtime values one raise may carry: they travel in the error record's 8-byte value
/// fields (`abi::record_offset::EXCEPTION_VALUES`: `index`, `len`, `axis`, then `more`).
pub const MAX_RUNTIME_ARGS: usize = 7;

/// One argument of a raised exception.
#[derive(Clone, Debug, PartialEq)]
pub enum ExceptionArg<R> {
    /// A string constant.
    Str(String),
    /// An integer constant.
    Int(i64),
    /// A float constant.
    Float(f64),
    /// `True` / `False`.
    Bool(bool),
    /// A value known only at run time.
    Runtime(R),
    /// A string made of pieces (`Str` text and the `str()` of the others, never `Format`),
    /// as the messages with values the compiler writes (`cannot assign slice of shape (2,)
    /// from input of shape (3,)`).
    Format(Vec<ExceptionArg<R>>),
}

impl<R> ExceptionArg<R> {
    /// The argument as the pieces it is made of (itself, unless it is a `Format`).
    fn pieces(&self) -> &[ExceptionArg<R>] {
        match self {
            ExceptionArg::Format(p) => p,
            other => std::slice::from_ref(other),
        }
    }

    fn pieces_mut(&mut self) -> &mut [ExceptionArg<R>] {
        match self {
            ExceptionArg::Format(p) => p,
            other => std::slice::from_mut(other),
        }
    }

    fn map<S>(&self, f: &mut impl FnMut(&R) -> S) -> ExceptionArg<S> {
        match self {
            ExceptionArg::Str(s) => ExceptionArg::Str(s.clone()),
            ExceptionArg::Int(i) => ExceptionArg::Int(*i),
            ExceptionArg::Float(x) => ExceptionArg::Float(*x),
            ExceptionArg::Bool(b) => ExceptionArg::Bool(*b),
            ExceptionArg::Runtime(r) => ExceptionArg::Runtime(f(r)),
            ExceptionArg::Format(p) => ExceptionArg::Format(p.iter().map(|a| a.map(f)).collect()),
        }
    }
}

/// A raised exception: its class name and arguments (`raise ValueError` has none).
#[derive(Clone, Debug, PartialEq)]
pub struct Exception<R> {
    /// The Python class name (`ValueError`, or a class of the module such as `MyError`).
    pub class: String,
    /// The constructor's arguments, in order.
    pub args: Vec<ExceptionArg<R>>,
}

/// A runtime scalar as Python shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PyScalar {
    /// An integer.
    Int(i64),
    /// A `uint64` (above `i64::MAX` it has no `Int`).
    UInt(u64),
    /// A float.
    Float(f64),
    /// A bool.
    Bool(bool),
}

impl PyScalar {
    /// The value of type `ty` stored as `bits` in an error record (see [`PyScalar::to_bits`]).
    pub fn from_bits(ty: Scalar, bits: i64) -> PyScalar {
        match ty {
            Scalar::Bool => PyScalar::Bool(bits != 0),
            Scalar::UInt64 => PyScalar::UInt(bits as u64),
            s if s.is_int() => PyScalar::Int(s.int_value(bits) as i64),
            _ => PyScalar::Float(f64::from_bits(bits as u64)),
        }
    }

    /// How the value is stored in an error record: integers sign-extended, floats as the bits
    /// of the float64, bools 0 or 1.
    pub fn to_bits(self) -> i64 {
        match self {
            PyScalar::Int(i) => i,
            PyScalar::UInt(u) => u as i64,
            PyScalar::Float(x) => x.to_bits() as i64,
            PyScalar::Bool(b) => b as i64,
        }
    }
}

impl<R> Exception<R> {
    /// The runtime arguments, in order (those inside a `Format` where it stands).
    pub fn runtime(&self) -> impl Iterator<Item = &R> {
        self.args.iter().flat_map(ExceptionArg::pieces).filter_map(|a| match a {
            ExceptionArg::Runtime(r) => Some(r),
            _ => None,
        })
    }

    /// The runtime arguments, mutable.
    pub fn runtime_mut(&mut self) -> impl Iterator<Item = &mut R> {
        self.args.iter_mut().flat_map(ExceptionArg::pieces_mut).filter_map(|a| match a {
            ExceptionArg::Runtime(r) => Some(r),
            _ => None,
        })
    }

    /// The same exception with each runtime argument mapped by `f`.
    pub fn map<S>(&self, mut f: impl FnMut(&R) -> S) -> Exception<S> {
        let args = self.args.iter().map(|a| a.map(&mut f)).collect();
        Exception { class: self.class.clone(), args }
    }

    /// `str(exc)` as Python gives it: empty without arguments, `str(arg)` for one, the repr of
    /// the argument tuple for several. `value` gives each runtime argument's value.
    pub fn message(&self, mut value: impl FnMut(&R) -> PyScalar) -> String {
        /// `str(a)`, and whether `a` is a string.
        fn shown<R>(a: &ExceptionArg<R>, value: &mut impl FnMut(&R) -> PyScalar) -> (String, bool) {
            match a {
                ExceptionArg::Str(s) => (s.clone(), true),
                ExceptionArg::Int(i) => (i.to_string(), false),
                ExceptionArg::Float(x) => (float_repr(*x), false),
                ExceptionArg::Bool(b) => (if *b { "True" } else { "False" }.to_string(), false),
                ExceptionArg::Runtime(r) => match value(r) {
                    PyScalar::Int(i) => (i.to_string(), false),
                    PyScalar::UInt(u) => (u.to_string(), false),
                    PyScalar::Float(x) => (float_repr(x), false),
                    PyScalar::Bool(b) => (if b { "True" } else { "False" }.to_string(), false),
                },
                ExceptionArg::Format(p) => (p.iter().map(|a| shown(a, value).0).collect(), true),
            }
        }
        let mut shown: Vec<(String, bool)> = self.args.iter().map(|a| shown(a, &mut value)).collect();
        match shown.len() {
            0 => String::new(),
            // `KeyError.__str__` shows its one argument's repr.
            1 if self.class == "KeyError" => {
                shown.pop().map(|(s, is_str)| if is_str { str_repr(&s) } else { s }).unwrap_or_default()
            }
            1 => shown.pop().map(|(s, _)| s).unwrap_or_default(),
            _ => {
                let parts: Vec<String> =
                    shown.into_iter().map(|(s, is_str)| if is_str { str_repr(&s) } else { s }).collect();
                format!("({})", parts.join(", "))
            }
        }
    }

    /// `Class: message` as Python prints an uncaught exception (just `Class` without a message).
    pub fn render(&self, value: impl FnMut(&R) -> PyScalar) -> String {
        let m = self.message(value);
        if m.is_empty() {
            self.class.clone()
        } else {
            format!("{}: {m}", self.class)
        }
    }
}

impl Exception<Scalar> {
    /// The bytes caches store (a raise site's exception): class, then per argument a tag and
    /// its payload, little-endian, lengths as u32.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Vec::new();
        put_str(&mut w, &self.class);
        w.extend_from_slice(&(self.args.len() as u32).to_le_bytes());
        encode_args(&mut w, &self.args);
        w
    }

    /// Reads [`Exception::encode`]'s bytes back; `None` for anything else.
    pub fn decode(bytes: &[u8]) -> Option<Exception<Scalar>> {
        let mut r = Bytes(bytes);
        let class = r.str()?;
        let n = r.u32()?;
        let args = decode_args(&mut r, n, true)?;
        r.0.is_empty().then_some(Exception { class, args })
    }
}

/// A length-prefixed string.
fn put_str(w: &mut Vec<u8>, s: &str) {
    w.extend_from_slice(&(s.len() as u32).to_le_bytes());
    w.extend_from_slice(s.as_bytes());
}

/// Per argument a tag and its payload (a `Format`: its piece count, then the pieces).
fn encode_args(w: &mut Vec<u8>, args: &[ExceptionArg<Scalar>]) {
    for a in args {
        match a {
            ExceptionArg::Str(s) => {
                w.push(0);
                put_str(w, s);
            }
            ExceptionArg::Int(i) => {
                w.push(1);
                w.extend_from_slice(&i.to_le_bytes());
            }
            ExceptionArg::Float(x) => {
                w.push(2);
                w.extend_from_slice(&x.to_bits().to_le_bytes());
            }
            ExceptionArg::Bool(b) => w.extend_from_slice(&[3, *b as u8]),
            ExceptionArg::Runtime(t) => {
                w.push(4);
                put_str(w, t.name());
            }
            ExceptionArg::Format(p) => {
                w.push(5);
                w.extend_from_slice(&(p.len() as u32).to_le_bytes());
                encode_args(w, p);
            }
        }
    }
}

/// `n` arguments of [`encode_args`]; a `Format` only among the top-level ones (`top`).
fn decode_args(r: &mut Bytes<'_>, n: usize, top: bool) -> Option<Vec<ExceptionArg<Scalar>>> {
    let mut args = Vec::new();
    for _ in 0..n {
        args.push(match r.take(1)?[0] {
            0 => ExceptionArg::Str(r.str()?),
            1 => ExceptionArg::Int(r.u64()? as i64),
            2 => ExceptionArg::Float(f64::from_bits(r.u64()?)),
            3 => ExceptionArg::Bool(r.take(1)?[0] != 0),
            4 => ExceptionArg::Runtime(Scalar::parse(&r.str()?)?),
            5 if top => {
                let k = r.u32()?;
                ExceptionArg::Format(decode_args(r, k, false)?)
            }
            _ => return None,
        });
    }
    Some(args)
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if self.0.len() < n {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn u32(&mut self) -> Option<usize> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize)
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn str(&mut self) -> Option<String> {
        let n = self.u32()?;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}

/// Python's `repr(float)`: the shortest digits that round-trip, fixed notation for exponents
/// from -4 to 15, else `d.ddde+XX`.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    // `{:e}` gives the shortest round-trip digits: `-1.2345e-7`.
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        let s = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        format!("{sign}{s}")
    } else {
        let m = if digits.len() > 1 { format!("{}.{}", &digits[..1], &digits[1..]) } else { digits };
        let es = if exp < 0 { "-" } else { "+" };
        format!("{sign}{m}e{es}{:02}", exp.abs())
    }
}

/// Python's `repr(str)`: single quotes unless the text holds a single quote and no double one.
pub fn str_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_python_repr() {
        let cases = [
            (1.5, "1.5"),
            (-2.5, "-2.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.0 / 3.0, "0.3333333333333333"),
            (-1.2345e-7, "-1.2345e-07"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (100.0, "100.0"),
            (-0.0, "-0.0"),
        ];
        for (x, want) in cases {
            assert_eq!(float_repr(x), want, "{x:e}");
        }
    }

    #[test]
    fn messages_are_str_of_the_exception() {
        let e = |args: Vec<ExceptionArg<PyScalar>>| Exception { class: "ValueError".into(), args };
        let msg = |x: Exception<PyScalar>| x.render(|v| *v);
        assert_eq!(msg(e(vec![])), "ValueError");
        assert_eq!(msg(e(vec![ExceptionArg::Str("negative input".into())])), "ValueError: negative input");
        assert_eq!(
            msg(e(vec![ExceptionArg::Str("bad".into()), ExceptionArg::Runtime(PyScalar::Int(-1))])),
            "ValueError: ('bad', -1)"
        );
        assert_eq!(
            msg(e(vec![ExceptionArg::Int(1), ExceptionArg::Float(2.5), ExceptionArg::Str("it's".into())])),
            "ValueError: (1, 2.5, \"it's\")"
        );
        assert_eq!(msg(e(vec![ExceptionArg::Runtime(PyScalar::Float(-2.5))])), "ValueError: -2.5");
        assert_eq!(msg(e(vec![ExceptionArg::Str(String::new())])), "ValueError");
        let key = Exception { class: "KeyError".to_string(), args: vec![ExceptionArg::Str("k".into())] };
        assert_eq!(key.render(|v: &PyScalar| *v), "KeyError: 'k'");
    }

    #[test]
    fn site_exceptions_round_trip_through_bytes() {
        let e = Exception {
            class: "MyError".to_string(),
            args: vec![
                ExceptionArg::Str("it's \n".into()),
                ExceptionArg::Int(-3),
                ExceptionArg::Float(0.1),
                ExceptionArg::Bool(true),
                ExceptionArg::Runtime(Scalar::Float32),
            ],
        };
        let bytes = e.encode();
        assert_eq!(Exception::decode(&bytes), Some(e));
        assert_eq!(Exception::decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(Exception::decode(&[bytes.as_slice(), &[0]].concat()), None);
    }
}
