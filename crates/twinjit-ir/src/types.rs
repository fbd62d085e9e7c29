//! Types and Numba-spelled signatures.
//!
//! Scalars are `bool`, the signed and unsigned integers of 8 to 64 bits, `float16` (CUDA only,
//! as in Numba), `float32`, `float64`, `complex64` and `complex128`; arrays are `array(dtype, ndim, layout)`;
//! tuples are heterogeneous. `Unknown` is the bottom of the type lattice used while inferring
//! and the type of every value in untyped IR.

use std::fmt;

/// Scalar element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// `bool` (Numba: `boolean`).
    Bool,
    /// `int32`.
    Int32,
    /// `int64`.
    Int64,
    /// `float32`.
    Float32,
    /// `float64`.
    Float64,
    /// `int8`.
    Int8,
    /// `int16`.
    Int16,
    /// `uint8`.
    UInt8,
    /// `uint16`.
    UInt16,
    /// `uint32`.
    UInt32,
    /// `uint64`.
    UInt64,
    /// `complex64`: a pair of `float32` (real, imaginary). Inside compiled code it is laid out
    /// and indexed like the tuple `(float32, float32)` ([`Type::elements`]); its arithmetic is
    /// expanded into float operations when the IR is typed, so backends only move its parts.
    Complex64,
    /// `complex128`: a pair of `float64`.
    Complex128,
    /// `float16` (IEEE binary16): numba-cuda's half type, in kernels and device functions only.
    /// Numba's CPU target has no float16 (it cannot even load one), and neither does the host
    /// target. Its arithmetic rounds every result to float16, as PTX's `.f16` instructions do.
    Float16,
}

impl Scalar {
    /// Numba's name.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Int32 => "int32",
            Scalar::Int64 => "int64",
            Scalar::Float32 => "float32",
            Scalar::Float64 => "float64",
            Scalar::Int8 => "int8",
            Scalar::Int16 => "int16",
            Scalar::UInt8 => "uint8",
            Scalar::UInt16 => "uint16",
            Scalar::UInt32 => "uint32",
            Scalar::UInt64 => "uint64",
            Scalar::Complex64 => "complex64",
            Scalar::Complex128 => "complex128",
            Scalar::Float16 => "float16",
        }
    }

    /// Every scalar type, in Numba's order of `bool`, signed, unsigned, float, complex.
    pub const ALL: [Scalar; 14] = [
        Scalar::Bool,
        Scalar::Int8,
        Scalar::Int16,
        Scalar::Int32,
        Scalar::Int64,
        Scalar::UInt8,
        Scalar::UInt16,
        Scalar::UInt32,
        Scalar::UInt64,
        Scalar::Float16,
        Scalar::Float32,
        Scalar::Float64,
        Scalar::Complex64,
        Scalar::Complex128,
    ];

    /// Size in bytes of one element in an array.
    pub fn size(self) -> usize {
        match self {
            Scalar::Bool | Scalar::Int8 | Scalar::UInt8 => 1,
            Scalar::Int16 | Scalar::UInt16 | Scalar::Float16 => 2,
            Scalar::Int32 | Scalar::UInt32 | Scalar::Float32 => 4,
            Scalar::Int64 | Scalar::UInt64 | Scalar::Float64 | Scalar::Complex64 => 8,
            Scalar::Complex128 => 16,
        }
    }

    /// Width in bits (`bool` is 1).
    pub fn bits(self) -> u32 {
        if self == Scalar::Bool {
            1
        } else {
            self.size() as u32 * 8
        }
    }

    /// Whether this is an integer type, signed or unsigned (not `bool`).
    pub fn is_int(self) -> bool {
        self.is_signed() || self.is_unsigned()
    }

    /// Whether this is a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::Int8 | Scalar::Int16 | Scalar::Int32 | Scalar::Int64)
    }

    /// Whether this is an unsigned integer type.
    pub fn is_unsigned(self) -> bool {
        matches!(self, Scalar::UInt8 | Scalar::UInt16 | Scalar::UInt32 | Scalar::UInt64)
    }

    /// The integer type of `bits` bits and the given signedness.
    pub fn int(bits: u32, signed: bool) -> Scalar {
        match (bits, signed) {
            (8, true) => Scalar::Int8,
            (16, true) => Scalar::Int16,
            (32, true) => Scalar::Int32,
            (8, false) => Scalar::UInt8,
            (16, false) => Scalar::UInt16,
            (32, false) => Scalar::UInt32,
            (_, false) => Scalar::UInt64,
            _ => Scalar::Int64,
        }
    }

    /// The type integer arithmetic on this type computes in (Numba's integer typing: at least
    /// 64 bits, unsigned only when the operand is): `int64` or `uint64`; floats and complex
    /// types are their own.
    pub fn widened(self) -> Scalar {
        match self {
            s if s.is_inexact() => s,
            s if s.is_unsigned() => Scalar::UInt64,
            _ => Scalar::Int64,
        }
    }

    /// `(min, max)` of an integer type as `i128` (`bool` is 0..1).
    pub fn int_range(self) -> (i128, i128) {
        if self == Scalar::Bool {
            return (0, 1);
        }
        let b = self.bits();
        if self.is_unsigned() {
            (0, (1i128 << b) - 1)
        } else {
            (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
        }
    }

    /// The value of the 64-bit pattern `bits` (as the IR keeps integer constants) read as this
    /// integer type: sign- or zero-extended from the type's width.
    pub fn int_value(self, bits: i64) -> i128 {
        match self {
            Scalar::Bool => (bits & 1) as i128,
            Scalar::UInt64 => bits as u64 as i128,
            s if s.is_unsigned() => (bits as u64 & ((1u64 << s.bits()) - 1)) as i128,
            s => {
                let sh = 64 - s.bits().min(64);
                ((bits << sh) >> sh) as i128
            }
        }
    }

    /// Whether this is `float16`, `float32` or `float64`.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Float16 | Scalar::Float32 | Scalar::Float64)
    }

    /// Whether this is `complex64` or `complex128`.
    pub fn is_complex(self) -> bool {
        matches!(self, Scalar::Complex64 | Scalar::Complex128)
    }

    /// Whether this is a float or a complex type (inexact: `/` keeps it, `float_of` is it).
    pub fn is_inexact(self) -> bool {
        self.is_float() || self.is_complex()
    }

    /// The float type of a complex type's parts (`self` for every other type).
    pub fn component(self) -> Scalar {
        match self {
            Scalar::Complex64 => Scalar::Float32,
            Scalar::Complex128 => Scalar::Float64,
            s => s,
        }
    }

    /// The complex type whose parts have float type `f` (`complex64` for `float32`).
    pub fn complex_of(f: Scalar) -> Scalar {
        if f == Scalar::Float32 {
            Scalar::Complex64
        } else {
            Scalar::Complex128
        }
    }

    /// Parses a dtype name in any of Numba's and NumPy's spellings.
    pub fn parse(s: &str) -> Option<Scalar> {
        Some(match s {
            "bool" | "boolean" | "b1" | "bool_" => Scalar::Bool,
            "int8" | "i1" | "byte" => Scalar::Int8,
            "int16" | "i2" | "short" => Scalar::Int16,
            "int32" | "i4" | "intc" => Scalar::Int32,
            "int64" | "i8" | "intp" | "int_" | "long" | "longlong" => Scalar::Int64,
            "uint8" | "u1" | "ubyte" => Scalar::UInt8,
            "uint16" | "u2" | "ushort" => Scalar::UInt16,
            "uint32" | "u4" | "uintc" => Scalar::UInt32,
            "uint64" | "u8" | "uintp" | "uint" | "ulong" | "ulonglong" => Scalar::UInt64,
            "float16" | "f2" | "half" => Scalar::Float16,
            "float32" | "f4" | "single" => Scalar::Float32,
            "float64" | "f8" | "double" | "float_" => Scalar::Float64,
            "complex64" | "c8" | "csingle" => Scalar::Complex64,
            "complex128" | "c16" | "cdouble" | "complex_" | "complex" => Scalar::Complex128,
            _ => return None,
        })
    }
}

/// Memory layout of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// C-contiguous: the last axis has stride 1 and strides follow the shape.
    C,
    /// Any strides.
    A,
}

/// The most dimensions an array may have. NumPy allows 64 and Numba follows it; twinjit's
/// limit bounds the inline shape of an array argument from Rust (`ArrayArg`) and of a device
/// array, and no program we have seen uses more than six.
pub const MAX_NDIM: u8 = 8;

/// The error for an array of `ndim` dimensions outside 1 to [`MAX_NDIM`], if it is.
pub fn check_ndim(ndim: usize) -> Result<(), String> {
    if (1..=MAX_NDIM as usize).contains(&ndim) {
        Ok(())
    } else {
        Err(format!("an array of {ndim} dimensions: twinjit's arrays have 1 to {MAX_NDIM}"))
    }
}

/// An array type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArrayType {
    /// Element type.
    pub dtype: Scalar,
    /// Number of dimensions, 1 to [`MAX_NDIM`].
    pub ndim: u8,
    /// Layout.
    pub layout: Layout,
}

/// The type of an IR value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Not inferred yet (bottom); every value of untyped IR has it.
    Unknown,
    /// `None`: what a function without `return value` returns.
    None,
    /// A scalar.
    Scalar(Scalar),
    /// An array.
    Array(ArrayType),
    /// A tuple.
    Tuple(Vec<Type>),
    /// A list (Numba's reflected and typed lists in nopython code): a reference to a
    /// growable buffer of elements owned by the memory manager. The element type is `Unknown`
    /// only while inference has not seen what an empty list `[]` receives.
    List(Box<Type>),
    /// A dict (Numba's typed dict, `DictType[K, V]`): insertion-ordered, keys of one type
    /// (numbers, bools and tuples of them), values of one type. It is made of four lists that
    /// the rewrite reads and writes with the list primitives ([`Type::elements`]: the keys,
    /// the values, each entry's hash (-1 once deleted) and the hash table, whose element 0 is
    /// the number of live entries), so no backend knows dicts. The key and value types are
    /// `Unknown` only while inference has not seen what an empty dict `{}` receives.
    Dict(Box<Type>, Box<Type>),
    /// A set (Numba's reflected set in nopython code): a dict of its elements to `bool`
    /// (the same four lists), iterated in its table's order.
    Set(Box<Type>),
    /// `Optional(T)` (Numba's `OptionalType`): a scalar that is `None` on some paths, as a
    /// variable assigned `None` on one path and a number on another, or a function that
    /// returns either. Its value is the pair (is-present flag, value), laid out and indexed
    /// like the tuple `(bool, T)` ([`Type::elements`]); every use but `is` unwraps it, raising
    /// `TypeError` on `None` as Numba does.
    Optional(Box<Type>),
    /// A slice `lo:hi:step` or `...` in a subscript (Numba's `slice2_type`, `slice3_type`,
    /// `ellipsis`): only ever an index of `getitem`/`setitem`, consumed by the rewrite, so it
    /// has no parts and never reaches a backend.
    Slice(SliceKind),
    /// A compiled function of the module used as a value (Numba's dispatcher type): the
    /// source name. Each function is its own type, so calling a value of this type is a direct
    /// call, resolved when the IR is typed; it has no parts.
    Function(String),
    /// A string known when the function is compiled (Numba's `unicode_type`, here with its
    /// value, as Numba's `Literal[str]`): a string constant, a module-level string, a string
    /// default or argument. Its value is part of the type, so it has no parts at run time:
    /// comparisons, `len`, `+` and `in` of strings are decided when the IR is typed, and a
    /// function taking one is specialised per value. A variable whose string differs between
    /// paths does not type (a conflict of two `str` types).
    Str(String),
    /// A string computed at run time (Numba's `unicode_type` whose value is not known when
    /// compiling: `str(n)`, `s[i]`, a variable that holds different strings on different paths,
    /// a dict key or list element). It is one list of its code points (`int32`, one element
    /// per character: [`Type::elements`]), read and written by the rewrite with the list
    /// primitives, as a dict is, so no backend knows strings. A [`Type::Str`] becomes one
    /// where it meets a run-time string (a join, `+`, a comparison).
    String,
}

/// The element type of the list a run-time string ([`Type::String`]) is made of: code points.
pub const CODE_POINT: Type = Type::Scalar(Scalar::Int32);

/// What kind of slice a [`Type::Slice`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SliceKind {
    /// `lo:hi` (no step: as the innermost index it keeps a C array contiguous).
    NoStep,
    /// `lo:hi:step`
    Step,
    /// `...`
    Ellipsis,
}

impl Type {
    /// `bool`.
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    /// `int32`.
    pub const I32: Type = Type::Scalar(Scalar::Int32);
    /// `int64`.
    pub const I64: Type = Type::Scalar(Scalar::Int64);
    /// `float32`.
    pub const F32: Type = Type::Scalar(Scalar::Float32);
    /// `float64`.
    pub const F64: Type = Type::Scalar(Scalar::Float64);
    /// `uint64`.
    pub const U64: Type = Type::Scalar(Scalar::UInt64);

    /// The scalar, if this is one.
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// Whether a value of this type holds a managed object (is an array or a list, or a tuple
    /// with one inside): the values the refcount pass counts references of.
    pub fn holds_array(&self) -> bool {
        match self {
            Type::Array(_) | Type::List(_) | Type::Dict(..) | Type::Set(_) | Type::String => true,
            Type::Tuple(ts) => ts.iter().any(Type::holds_array),
            _ => false,
        }
    }

    /// Whether a value of this type holds a run-time string (is one, or a tuple, list or
    /// optional with one inside).
    pub fn holds_string(&self) -> bool {
        match self {
            Type::String => true,
            Type::Tuple(ts) => ts.iter().any(Type::holds_string),
            Type::List(e) | Type::Optional(e) => e.holds_string(),
            _ => false,
        }
    }

    /// The element types of a tuple, of an optional's (flag, value) pair and of a complex
    /// number's (real, imaginary) pair.
    pub fn elements(&self) -> Option<Vec<Type>> {
        match self {
            Type::Tuple(ts) => Some(ts.clone()),
            Type::Scalar(s) if s.is_complex() => Some(vec![Type::Scalar(s.component()); 2]),
            Type::Optional(t) => Some(vec![Type::BOOL, (**t).clone()]),
            Type::Dict(k, v) => Some(dict_lists(k, v)),
            Type::Set(k) => Some(dict_lists(k, &Type::BOOL)),
            Type::String => Some(vec![Type::List(Box::new(CODE_POINT))]),
            _ => None,
        }
    }

    /// The value type of an optional (`self` for every other type).
    pub fn unwrapped(&self) -> &Type {
        match self {
            Type::Optional(t) => t,
            t => t,
        }
    }

    /// The element type, if this is a list.
    pub fn list_elem(&self) -> Option<&Type> {
        match self {
            Type::List(e) => Some(e),
            _ => None,
        }
    }

    /// The array type, if this is one.
    pub fn array(&self) -> Option<ArrayType> {
        match self {
            Type::Array(a) => Some(*a),
            _ => None,
        }
    }

    /// Whether this is a known type all the way down.
    pub fn is_known(&self) -> bool {
        match self {
            Type::Unknown => false,
            Type::Tuple(ts) => ts.iter().all(Type::is_known),
            Type::List(e) | Type::Optional(e) => e.is_known(),
            Type::Dict(k, v) => k.is_known() && v.is_known(),
            Type::Set(k) => k.is_known(),
            _ => true,
        }
    }

    /// A short identifier-safe code, used to name specialisations (`f8`, `af81C`, `t2i8f8`).
    pub fn mangle(&self) -> String {
        match self {
            Type::Unknown => "u".into(),
            Type::None => "n".into(),
            Type::Scalar(s) => scalar_code(*s).into(),
            Type::Array(a) => {
                format!("a{}{}{}", scalar_code(a.dtype), a.ndim, if a.layout == Layout::C { "C" } else { "A" })
            }
            Type::Tuple(ts) => {
                let mut s = format!("t{}", ts.len());
                for t in ts {
                    s.push_str(&t.mangle());
                }
                s
            }
            Type::List(e) => format!("l{}", e.mangle()),
            Type::Dict(k, v) => format!("d{}{}", k.mangle(), v.mangle()),
            Type::Set(k) => format!("q{}", k.mangle()),
            Type::Optional(e) => format!("o{}", e.mangle()),
            Type::Function(name) => format!("f{}{name}", name.len()),
            Type::String => "U".into(),
            Type::Str(text) => {
                let mut s = format!("S{}_", text.len());
                for b in text.bytes() {
                    s.push_str(&format!("{b:02x}"));
                }
                s
            }
            Type::Slice(k) => match k {
                SliceKind::NoStep => "s2",
                SliceKind::Step => "s3",
                SliceKind::Ellipsis => "se",
            }
            .into(),
        }
    }

    /// Numba's spelling of this type (`float64[:, ::1]`, `UniTuple(int64 x 2)` as
    /// `Tuple(int64, int64)`).
    pub fn numba_name(&self) -> String {
        match self {
            Type::Array(a) => {
                let mut s = format!("{}[", a.dtype.name());
                for k in 0..a.ndim {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    if a.layout == Layout::C && k + 1 == a.ndim {
                        s.push_str("::1");
                    } else {
                        s.push(':');
                    }
                }
                s.push(']');
                s
            }
            Type::Tuple(ts) => {
                let inner: Vec<String> = ts.iter().map(Type::numba_name).collect();
                format!("Tuple({})", inner.join(", "))
            }
            Type::List(e) => format!("list({})", e.numba_name()),
            Type::Dict(k, v) => format!("DictType[{},{}]", k.numba_name(), v.numba_name()),
            Type::Set(k) => format!("set({})", k.numba_name()),
            Type::Optional(e) => format!("OptionalType({})", e.numba_name()),
            Type::String => "unicode_type".into(),
            other => other.to_string(),
        }
    }
}

/// The four lists a dict of `k` to `v` is made of (see [`Type::Dict`]).
pub fn dict_lists(k: &Type, v: &Type) -> Vec<Type> {
    vec![
        Type::List(Box::new(k.clone())),
        Type::List(Box::new(v.clone())),
        Type::List(Box::new(Type::I64)),
        Type::List(Box::new(Type::I64)),
    ]
}

fn scalar_code(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "b1",
        Scalar::Int32 => "i4",
        Scalar::Int64 => "i8",
        Scalar::Float32 => "f4",
        Scalar::Float64 => "f8",
        Scalar::Int8 => "i1",
        Scalar::Int16 => "i2",
        Scalar::UInt8 => "u1",
        Scalar::UInt16 => "u2",
        Scalar::UInt32 => "u4",
        Scalar::UInt64 => "u8",
        Scalar::Complex64 => "c8",
        Scalar::Complex128 => "c16",
        Scalar::Float16 => "f2",
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Unknown => f.write_str("?"),
            Type::None => f.write_str("none"),
            Type::Scalar(s) => f.write_str(s.name()),
            Type::Array(a) => {
                write!(f, "array({}, {}, {})", a.dtype.name(), a.ndim, if a.layout == Layout::C { "C" } else { "A" })
            }
            Type::Tuple(ts) => crate::print::python_tuple(f, ts),
            Type::List(e) => write!(f, "list({e})"),
            Type::Dict(k, v) => write!(f, "dict({k}, {v})"),
            Type::Set(k) => write!(f, "set({k})"),
            Type::Optional(e) => write!(f, "optional({e})"),
            Type::Function(name) => write!(f, "function({name})"),
            Type::String => f.write_str("str"),
            Type::Str(text) => {
                f.write_str("str(")?;
                crate::print::write_str_literal(f, text)?;
                f.write_str(")")
            }
            Type::Slice(k) => f.write_str(match k {
                SliceKind::NoStep => "slice2",
                SliceKind::Step => "slice3",
                SliceKind::Ellipsis => "ellipsis",
            }),
        }
    }
}

/// A function signature as Numba writes it: `float64(float64[:], int64)`; the return type is
/// optional (`(float64[:], int64)` leaves it to inference).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// Argument types.
    pub args: Vec<Type>,
    /// Declared return type, if written (`void` is `Type::None`).
    pub ret: Option<Type>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(r) = &self.ret {
            if *r == Type::None {
                f.write_str("void")?;
            } else {
                f.write_str(&r.numba_name())?;
            }
        }
        f.write_str("(")?;
        for (i, t) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&t.numba_name())?;
        }
        f.write_str(")")
    }
}

/// Why a signature string did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad signature `{text}` at byte {offset}: {message}")]
pub struct SignatureError {
    /// The whole signature text.
    pub text: String,
    /// Byte offset of the problem in `text`.
    pub offset: usize,
    /// What was expected.
    pub message: String,
}

impl std::str::FromStr for Signature {
    type Err = SignatureError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_signature(s)
    }
}

/// Parses a signature: `float64(float64[:], int64)`, `void(float32[:])`, `(int64, int64)`, or a
/// single argument type like `float32[:, :]` or `int32` (one argument, return inferred).
pub fn parse_signature(text: &str) -> Result<Signature, SignatureError> {
    let mut p = SigParser { text, pos: 0 };
    p.skip_ws();
    let sig = if p.peek() == Some('(') {
        let args = p.arg_list()?;
        Signature { args, ret: None }
    } else {
        let first = p.ty_or_void()?;
        p.skip_ws();
        if p.peek() == Some('(') {
            let args = p.arg_list()?;
            Signature { args, ret: Some(first) }
        } else {
            if first == Type::None {
                return Err(p.err("`void` is only a return type"));
            }
            Signature { args: vec![first], ret: None }
        }
    };
    p.skip_ws();
    if p.pos < text.len() {
        return Err(p.err("unexpected text after the signature"));
    }
    Ok(sig)
}

/// Parses one type in Numba's spelling (`float64[:, ::1]`, `int32`, `boolean`).
pub fn parse_type(text: &str) -> Result<Type, SignatureError> {
    let mut p = SigParser { text, pos: 0 };
    let t = p.ty()?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(p.err("unexpected text after the type"));
    }
    Ok(t)
}

struct SigParser<'a> {
    text: &'a str,
    pos: usize,
}

impl SigParser<'_> {
    fn err(&self, message: &str) -> SignatureError {
        SignatureError { text: self.text.into(), offset: self.pos, message: message.into() }
    }
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }
    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(c) if c.is_whitespace()) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    /// A string in double quotes with the escapes `print.rs` writes (`\\`, `\"`, `\n`, `\r`,
    /// `\t`, `\u{XX}`).
    fn quoted(&mut self) -> Result<String, SignatureError> {
        if !self.eat("\"") {
            return Err(self.err("expected a string in double quotes"));
        }
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((k, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += k + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, '\\')) => out.push('\\'),
                    Some((_, '"')) => out.push('"'),
                    Some((_, 'u')) => {
                        let rest: String = chars.by_ref().map(|(_, c)| c).take_while(|&c| c != '}').collect();
                        let ch = rest
                            .strip_prefix('{')
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                            .and_then(char::from_u32);
                        out.push(ch.ok_or_else(|| self.err("bad `\\u{..}` escape"))?);
                    }
                    _ => return Err(self.err("bad escape in the string")),
                },
                c => out.push(c),
            }
        }
        Err(self.err("unterminated string"))
    }
    fn ident(&mut self) -> &str {
        self.skip_ws();
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }
    fn arg_list(&mut self) -> Result<Vec<Type>, SignatureError> {
        if !self.eat("(") {
            return Err(self.err("expected `(`"));
        }
        let mut args = Vec::new();
        if self.eat(")") {
            return Ok(args);
        }
        loop {
            args.push(self.ty()?);
            if self.eat(")") {
                return Ok(args);
            }
            if !self.eat(",") {
                return Err(self.err("expected `,` or `)`"));
            }
            if self.eat(")") {
                return Ok(args);
            }
        }
    }
    fn ty_or_void(&mut self) -> Result<Type, SignatureError> {
        let save = self.pos;
        let id = self.ident().to_string();
        if id == "void" || id == "none" {
            return Ok(Type::None);
        }
        self.pos = save;
        self.ty()
    }
    fn ty(&mut self) -> Result<Type, SignatureError> {
        let start = self.pos;
        let name = self.ident().to_string();
        let name = name.strip_prefix("numba.").unwrap_or(&name);
        let name = name.strip_prefix("types.").unwrap_or(name);
        // `Tuple(int64, float64)`, `UniTuple(int64, 3)` and `none`, as Numba spells them.
        if name == "none" {
            return Ok(Type::None);
        }
        // `str("linear")`: a string argument of one value (twinjit's spelling, as types print).
        if name == "str" && self.eat("(") {
            let text = self.quoted()?;
            if !self.eat(")") {
                return Err(self.err("expected `)` after the string"));
            }
            return Ok(Type::Str(text));
        }
        if name == "Tuple" || name == "UniTuple" {
            if !self.eat("(") {
                return Err(self.err("expected `(` after Tuple"));
            }
            let mut ts = Vec::new();
            if name == "UniTuple" {
                let t = self.ty()?;
                if !self.eat(",") {
                    return Err(self.err("expected `, N` in UniTuple(type, N)"));
                }
                self.skip_ws();
                let digits = self.ident().to_string();
                let n: usize = digits.parse().map_err(|_| self.err("expected a count in UniTuple(type, N)"))?;
                ts = vec![t; n];
            } else if !self.eat(")") {
                loop {
                    ts.push(self.ty()?);
                    if self.eat(")") {
                        break;
                    }
                    if !self.eat(",") {
                        return Err(self.err("expected `,` or `)` in Tuple(...)"));
                    }
                }
                return Ok(Type::Tuple(ts));
            } else {
                return Ok(Type::Tuple(ts));
            }
            if !self.eat(")") {
                return Err(self.err("expected `)`"));
            }
            return Ok(Type::Tuple(ts));
        }
        let Some(dtype) = Scalar::parse(name) else {
            self.pos = start;
            self.skip_ws();
            if matches!(name, "unicode_type" | "string" | "types.unicode_type" | "types.string") {
                return Err(self.err(
                    "a string in an explicit signature: twinjit compiles a function once per string it receives \
                     (the string is part of the type); leave the signature out to compile on the first call",
                ));
            }
            return Err(self.err(&format!(
                "unknown type `{name}`; expected a Numba type such as int64, uint8, float32 or float64"
            )));
        };
        if !self.eat("[") {
            return Ok(Type::Scalar(dtype));
        }
        // Array dims: `:` or `::1`, comma separated.
        let mut dims = Vec::new();
        loop {
            if self.eat("::1") {
                dims.push(true);
            } else if self.eat(":") {
                dims.push(false);
            } else {
                return Err(self.err("expected `:` or `::1` in an array type"));
            }
            if self.eat("]") {
                break;
            }
            if !self.eat(",") {
                return Err(self.err("expected `,` or `]`"));
            }
        }
        if let Err(why) = check_ndim(dims.len()) {
            return Err(self.err(&why));
        }
        let c = dims.last() == Some(&true) && dims[..dims.len() - 1].iter().all(|d| !d);
        Ok(Type::Array(ArrayType { dtype, ndim: dims.len() as u8, layout: if c { Layout::C } else { Layout::A } }))
    }
}

/// A dtype written as a string (`'float32'`, `'f8'`, `'d'`, `'complex'`).
pub fn dtype_string(name: &str) -> Option<Scalar> {
    dtype_name(name).or(match name {
        "d" | "float" => Some(Scalar::Float64),
        "f" => Some(Scalar::Float32),
        "int" => Some(Scalar::Int64),
        "bool" | "?" => Some(Scalar::Bool),
        "complex" | "D" => Some(Scalar::Complex128),
        "F" => Some(Scalar::Complex64),
        _ => None,
    })
}

/// NumPy/Numba scalar type names usable as casts and dtypes (`float32`, `intp`, `f8`).
pub fn dtype_name(name: &str) -> Option<Scalar> {
    use Scalar::*;
    Some(match name {
        "float32" | "single" => Float32,
        "float64" | "double" => Float64,
        "int8" | "byte" | "i1" => Int8,
        "int16" | "short" | "i2" => Int16,
        "int32" | "intc" | "i4" => Int32,
        "int64" | "intp" | "int_" | "longlong" | "i8" => Int64,
        "uint8" | "ubyte" | "u1" => UInt8,
        "uint16" | "ushort" | "u2" => UInt16,
        "uint32" | "uintc" | "u4" => UInt32,
        "uint64" | "uintp" | "uint" | "ulonglong" | "u8" => UInt64,
        "bool_" | "boolean" | "b1" => Bool,
        "f4" => Float32,
        "f8" => Float64,
        "float16" | "half" | "f2" => Float16,
        "complex64" | "csingle" | "c8" => Complex64,
        "complex128" | "cdouble" | "complex_" | "c16" => Complex128,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expect: &str) {
        let got = match parse_signature(text) {
            Ok(s) => s.to_string(),
            Err(e) => e.to_string(),
        };
        assert_eq!(got, expect, "signature {text:?}");
    }

    #[test]
    fn signatures_in_numba_spelling() {
        check("(float64[:], int64)", "(float64[:], int64)");
        check("float64(float64[:], int64)", "float64(float64[:], int64)");
        check("void(float32[:], float32[:])", "void(float32[:], float32[:])");
        check("float32[:, ::1]", "(float32[:, ::1])");
        check("float32[:, :]", "(float32[:, :])");
        check("float64[::1]", "(float64[::1])");
        check("boolean", "(bool)");
        check("f8(f8, i4)", "float64(float64, int32)");
        check("int32", "(int32)");
        check("()", "()");
        check("(Tuple(int64, float64), none)", "(Tuple(int64, float64), none)");
        check("(UniTuple(int32, 2))", "(Tuple(int32, int32))");
    }

    #[test]
    fn bad_signatures_say_where() {
        check("floaty[:]", "bad signature `floaty[:]` at byte 0: unknown type `floaty`; expected a Numba type such as int64, uint8, float32 or float64");
        check(
            "float64[:, :, :, :, :, :, :, :, :]",
            "bad signature `float64[:, :, :, :, :, :, :, :, :]` at byte 34: an array of 9 dimensions: twinjit's arrays have 1 to 8",
        );
        check("(int64", "bad signature `(int64` at byte 6: expected `,` or `)`");
        check("void", "bad signature `void` at byte 4: `void` is only a return type");
        check("int64 x", "bad signature `int64 x` at byte 6: unexpected text after the signature");
    }

    #[test]
    fn strings_are_typed_by_value() {
        let t = Type::Str("a\"b".into());
        assert_eq!(t.to_string(), "str(\"a\\\"b\")");
        assert_eq!(t.numba_name(), "str(\"a\\\"b\")");
        assert_eq!(parse_type(&t.numba_name()).unwrap(), t);
        let odd = Type::Str("tab\t, nl\n, \u{1} and π".into());
        assert_eq!(parse_type(&odd.to_string()).unwrap(), odd);
        // Identifier-safe, and distinct for distinct texts.
        assert_eq!(t.mangle(), "S3_612262");
        assert_ne!(Type::Str("ab".into()).mangle(), Type::Str("a".into()).mangle());
        check(
            "(float64, unicode_type)",
            "bad signature `(float64, unicode_type)` at byte 10: a string in an explicit signature: twinjit \
             compiles a function once per string it receives (the string is part of the type); leave the \
             signature out to compile on the first call",
        );
        assert_eq!(dtype_string("f8"), Some(Scalar::Float64));
        assert_eq!(dtype_string("float"), Some(Scalar::Float64));
        assert_eq!(dtype_name("float"), None);
    }

    #[test]
    fn c_layout_needs_unit_stride_on_the_last_axis_only() {
        let t = parse_type("float64[::1, :]").unwrap();
        assert_eq!(t.array().unwrap().layout, Layout::A);
        assert_eq!(parse_type("float64[:, ::1]").unwrap().mangle(), "af82C");
    }
}
