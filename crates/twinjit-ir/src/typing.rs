//! Numba's typing rules for one operation at a time: unification, arithmetic, comparisons,
//! builtins by typing class, axes and indices. `infer` drives these over a function; keeping the
//! rules here keeps them in one place and testable without IR.
//!
//! Every rule is a pure function of types (and constants); none reads IR. A rule that refuses
//! its operands returns a [`TypeError`] without a location; the caller attaches the span.
//!
//! Deviations from Numba (documented, deliberate): a value that is `None` on some paths and an
//! array on others is an error (with a number it is `Optional`, as in Numba); `bool` unified with an integer
//! gives that integer type; arrays unify only with the identical array type (Numba relaxes
//! the layout to `A`).

use crate::builtins::{
    Alloc, ArrayMethod, AtomicOp, BitOp, Builtin, DictOp, Elem, KernelOp, Linalg, ListOp, RandomOp, Reduce, Typing,
    UfuncLoops, ViewOp, VoteOp,
};
use crate::function::{BinaryOp, CmpOp, UnaryOp};
use crate::types::{ArrayType, Layout, Scalar, SliceKind, Type};
use twinjit_diag::{Diagnostic, Span};

/// A rule's refusal, not yet located: message, primary label and hint of the diagnostic.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeError {
    /// The diagnostic's message.
    pub message: String,
    /// The primary label's text.
    pub label: String,
    /// How to fix it.
    pub hint: Option<&'static str>,
}

impl TypeError {
    fn new(message: impl Into<String>, label: impl Into<String>) -> Self {
        TypeError { message: message.into(), label: label.into(), hint: None }
    }

    fn with_hint(mut self, hint: &'static str) -> Self {
        self.hint = Some(hint);
        self
    }

    /// The diagnostic at `span`.
    pub fn at(self, span: Span) -> Diagnostic {
        let d = Diagnostic::error(self.message, span, self.label);
        match self.hint {
            Some(h) => d.with_hint(h),
            None => d,
        }
    }
}

/// The least type both values convert to, or `None` when they cannot meet (array vs float).
pub fn unify(a: &Type, b: &Type) -> Option<Type> {
    match (a, b) {
        (Type::Unknown, t) | (t, Type::Unknown) => Some(t.clone()),
        _ if a == b => Some(a.clone()),
        (Type::Scalar(x), Type::Scalar(y)) => Some(Type::Scalar(unify_scalar(*x, *y))),
        // `None` on one path and a number on another: Numba's Optional (of scalars here).
        (Type::None, Type::Scalar(s)) | (Type::Scalar(s), Type::None) => {
            Some(Type::Optional(Box::new(Type::Scalar(*s))))
        }
        (Type::Optional(o), Type::None) | (Type::None, Type::Optional(o)) => Some(Type::Optional(o.clone())),
        (Type::Optional(o), t @ Type::Scalar(_)) | (t @ Type::Scalar(_), Type::Optional(o)) => {
            Some(Type::Optional(Box::new(unify(o, t)?)))
        }
        (Type::Optional(x), Type::Optional(y)) => Some(Type::Optional(Box::new(unify(x, y)?))),
        // Numba relaxes the layout: a C array and an any-layout one of the same dtype and
        // dimension unify to the any-layout type.
        (Type::Array(x), Type::Array(y)) if x.dtype == y.dtype && x.ndim == y.ndim => {
            Some(Type::Array(ArrayType { layout: Layout::A, ..*x }))
        }
        (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
            let mut out = Vec::with_capacity(xs.len());
            for (x, y) in xs.iter().zip(ys) {
                out.push(unify(x, y)?);
            }
            Some(Type::Tuple(out))
        }
        // A dict likewise: an empty one's `Unknown` key and value take the other's.
        (Type::Dict(k1, v1), Type::Dict(k2, v2))
            if [k1, v1, k2, v2].iter().any(|t| ***t == Type::Unknown)
                && (k1 == k2 || **k1 == Type::Unknown || **k2 == Type::Unknown) =>
        {
            Some(Type::Dict(Box::new(unify(k1, k2)?), Box::new(unify(v1, v2)?)))
        }
        (Type::Set(x), Type::Set(y)) if **x == Type::Unknown || **y == Type::Unknown => {
            Some(Type::Set(Box::new(unify(x, y)?)))
        }
        // A list is a reference: two lists join only when their elements have one type (an
        // empty list, element `Unknown`, takes the other's), as in Numba.
        (Type::List(x), Type::List(y)) if **x == Type::Unknown || **y == Type::Unknown => {
            Some(Type::List(Box::new(unify(x, y)?)))
        }
        // Two strings known when compiling that differ, or one of them computed at run time:
        // a run-time string (Numba's `unicode_type` for both).
        (Type::Str(_) | Type::String, Type::Str(_) | Type::String) => Some(Type::String),
        _ => None,
    }
}

/// The type a container stores a value of type `t` as: a string known when compiling becomes a
/// run-time string (a list or dict of strings holds different ones), also inside tuples.
pub fn stored(t: Type) -> Type {
    match t {
        Type::Str(_) => Type::String,
        Type::Tuple(ts) => Type::Tuple(ts.into_iter().map(stored).collect()),
        t => t,
    }
}

/// Whether `t` is a string, known when compiling or computed at run time.
pub fn is_string(t: &Type) -> bool {
    matches!(t, Type::Str(_) | Type::String)
}

/// Numeric unification of two scalars: NumPy's `promote_types`, which Numba uses to join
/// the types of a variable, of `min`/`max` and of comparisons (`uint8` with `int8` is `int16`,
/// `uint64` with a signed integer is `float64`, `float32` with `int32` is `float64`).
pub fn unify_scalar(a: Scalar, b: Scalar) -> Scalar {
    use Scalar::*;
    match (a, b) {
        _ if a == b => a,
        // A complex type with anything: the complex type of the parts' promotion
        // (`complex64` with `int32` is `complex128`, with `int16` `complex64`).
        (c, t) | (t, c) if c.is_complex() => Scalar::complex_of(unify_scalar(c.component(), t.component())),
        (Bool, t) | (t, Bool) => t,
        (Float64, _) | (_, Float64) => Float64,
        (Float32, t) | (t, Float32) => {
            if t.bits() <= 16 {
                Float32
            } else {
                Float64
            }
        }
        // NumPy's promotion: float16 holds int8 and uint8 exactly, float32 the 16-bit integers.
        (Float16, t) | (t, Float16) => match t.bits() {
            0..=8 => Float16,
            9..=16 => Float32,
            _ => Float64,
        },
        _ if a.is_signed() == b.is_signed() => Scalar::int(a.bits().max(b.bits()), a.is_signed()),
        _ => {
            let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
            if u.bits() < s.bits() {
                s
            } else if u.bits() < 64 {
                Scalar::int(u.bits() * 2, true)
            } else {
                Float64
            }
        }
    }
}

/// Types of an arithmetic operation: operands are converted to `lhs`/`rhs`, the result is
/// `result`.
#[derive(Clone, Debug, PartialEq)]
pub struct OpTypes {
    /// Left operand type after conversion.
    pub lhs: Scalar,
    /// Right operand type after conversion.
    pub rhs: Scalar,
    /// Result type.
    pub result: Scalar,
}

/// Numba's integer typing (NBEP 1): integer arithmetic computes in 64 bits, unsigned only
/// when both operands are (`bool` counts as signed).
fn promote_int(a: Scalar, b: Scalar) -> Scalar {
    if a.is_unsigned() && b.is_unsigned() {
        Scalar::UInt64
    } else {
        Scalar::Int64
    }
}

/// The float type of mixed arithmetic: `float32` when every operand converts to it safely
/// by Numba's rules (`bool`, `int8`, `int16`, `uint8`, `float16`), `float64` otherwise;
/// `float16` when an operand is and the other is `float16`, `bool` or `int8` (numba-cuda's
/// half-precision operators, the only float16 loops; `uint8` reaches float16 only unsafely).
fn float_of(a: Scalar, b: Scalar) -> Scalar {
    use Scalar::*;
    let f16_safe = |s: Scalar| matches!(s, Float16 | Bool | Int8);
    let f32_safe = |s: Scalar| matches!(s, Float16 | Float32 | Bool | Int8 | Int16 | UInt8);
    if f16_safe(a) && f16_safe(b) && (a == Float16 || b == Float16) {
        Float16
    } else if f32_safe(a) && f32_safe(b) && (matches!(a, Float16 | Float32) || matches!(b, Float16 | Float32)) {
        Float32
    } else {
        Float64
    }
}

/// Typing of `a OP b` on scalars.
pub fn binary(op: BinaryOp, a: Scalar, b: Scalar) -> Result<OpTypes, String> {
    let same = |s: Scalar| OpTypes { lhs: s, rhs: s, result: s };
    if a.is_complex() || b.is_complex() {
        // Numba computes `+ - * / **` of complex numbers in the unified complex type; `//`,
        // `%` and the bitwise operators are TypeErrors, as in Python.
        return match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Pow => {
                Ok(same(unify_scalar(a, b)))
            }
            _ => Err(format!("unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), a.name(), b.name())),
        };
    }
    let any_float = a.is_float() || b.is_float();
    // numba-cuda has float16 loops for `+ - * /` only: `//`, `%` and `**` of a float16
    // compute in float32 (its nearest loop).
    if matches!(op, BinaryOp::FloorDiv | BinaryOp::Mod | BinaryOp::Pow)
        && (a == Scalar::Float16 || b == Scalar::Float16)
    {
        let up = |s: Scalar| if s == Scalar::Float16 { Scalar::Float32 } else { s };
        return binary(op, up(a), up(b));
    }
    Ok(match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::FloorDiv | BinaryOp::Mod => {
            if any_float {
                same(float_of(a, b))
            } else {
                same(promote_int(a, b))
            }
        }
        BinaryOp::Div => {
            if any_float {
                same(float_of(a, b))
            } else {
                same(Scalar::Float64)
            }
        }
        BinaryOp::Pow => {
            if a.is_float() && !b.is_float() {
                // float ** int: repeated squaring in the base's type.
                OpTypes { lhs: a, rhs: Scalar::Int64, result: a }
            } else if any_float {
                same(float_of(a, b))
            } else {
                same(promote_int(a, b))
            }
        }
        BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => {
            if any_float {
                return Err(format!("unsupported operand types for {}: {} and {}", op.symbol(), a.name(), b.name()));
            }
            if a == Scalar::Bool && b == Scalar::Bool {
                same(Scalar::Bool)
            } else {
                same(promote_int(a, b))
            }
        }
        BinaryOp::Shl | BinaryOp::Shr => {
            if any_float {
                return Err(format!("unsupported operand types for {}: {} and {}", op.symbol(), a.name(), b.name()));
            }
            // The result has the left operand's signedness, as in NumPy (the count converts
            // to it; a negative count shifts everything out).
            same(if a.is_unsigned() { Scalar::UInt64 } else { Scalar::Int64 })
        }
    })
}

/// Typing of a unary operator: (operand type after conversion, result type).
pub fn unary(op: UnaryOp, a: Scalar) -> Result<(Scalar, Scalar), String> {
    Ok(match op {
        UnaryOp::Not => (a, Scalar::Bool),
        UnaryOp::Neg | UnaryOp::Pos if a.is_complex() => (a, a),
        UnaryOp::Neg | UnaryOp::Pos => {
            // Numba negates an integer in its own type, then widens ("negate before
            // upcasting"): `-uint8(1)` is 255 as a uint64, `-int8(-128)` is -128.
            if a.is_float() || a.is_int() {
                (a, a.widened())
            } else {
                (Scalar::Int64, Scalar::Int64)
            }
        }
        UnaryOp::Invert => match a {
            Scalar::Bool => (Scalar::Bool, Scalar::Bool),
            s if s.is_int() => (s, s.widened()),
            s => return Err(format!("bad operand type for unary ~: {}", s.name())),
        },
    })
}

/// What a NumPy ufunc computes on a complex argument (Numba's complex loops), by the ufunc's
/// table row; `None` for ufuncs without a complex loop here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ComplexUfunc {
    /// `np.absolute`: the magnitude, a float.
    Abs,
    /// `np.negative`
    Negative,
    /// `np.positive`
    Positive,
    /// `np.square`: `z * z`.
    Square,
    /// A `cmath` function's loop (`np.sqrt`, `np.exp`, `np.sin`, ...).
    Op(crate::builtins::ComplexOp),
}

/// The complex loop of ufunc builtin `b`, if it has one: the table's `cmath` row of the same
/// function (`np.arcsin` is `cmath.asin`), or one of the arithmetic ufuncs.
pub fn complex_ufunc(b: Builtin) -> Option<ComplexUfunc> {
    Some(match b.name() {
        "np.absolute" => ComplexUfunc::Abs,
        "np.negative" => ComplexUfunc::Negative,
        "np.positive" => ComplexUfunc::Positive,
        "np.square" => ComplexUfunc::Square,
        name => {
            let f = name.strip_prefix("np.")?.replacen("arc", "a", 1);
            match Builtin::from_path(&format!("cmath.{f}"))?.info().typing {
                Typing::Complex(op) => ComplexUfunc::Op(op),
                _ => return None,
            }
        }
    })
}

/// The element type of complex ufunc `u` on an argument of complex type `c`.
pub fn complex_ufunc_result(u: ComplexUfunc, c: Scalar) -> Scalar {
    if u == ComplexUfunc::Abs {
        c.component()
    } else {
        c
    }
}

/// The result type of a complex builtin on `args`.
fn complex_builtin(b: Builtin, op: crate::builtins::ComplexOp, args: &[Type]) -> Result<Type, TypeError> {
    use crate::builtins::ComplexOp as C;
    // `a.conjugate()` / `np.conj(a)` of an array: elementwise, a new array.
    if let (crate::builtins::ComplexOp::Conjugate, [t @ Type::Array(at)]) = (op, args) {
        return Ok(elementwise_result(at.dtype, std::slice::from_ref(t)));
    }
    let mut ss = Vec::with_capacity(args.len());
    for (k, t) in args.iter().enumerate() {
        match t.scalar() {
            Some(s) => ss.push(s),
            None => {
                return Err(TypeError::new(
                    format!("{}() expects a number, found {t}", b.name()),
                    format!("argument {} is {t}", k + 1),
                ))
            }
        }
    }
    // The complex type of the arguments: complex64 when every part is float32-sized
    // (float32, complex64), complex128 otherwise (Numba types `complex(x)` of an integer or
    // float64 as complex128).
    let complex = || {
        let small = ss.iter().all(|s| matches!(s, Scalar::Float32 | Scalar::Complex64));
        if small && !ss.is_empty() {
            Scalar::Complex64
        } else {
            Scalar::Complex128
        }
    };
    let real = |s: Scalar| if s.is_complex() { s.component() } else { math_unary(s) };
    Ok(Type::Scalar(match op {
        C::Ctor => {
            if ss.len() == 2 && ss.iter().any(|s| s.is_complex()) {
                return Err(TypeError::new("complex() of a complex real or imaginary part is not supported", "here")
                    .with_hint("write complex(a.real - b.imag, a.imag + b.real)"));
            }
            complex()
        }
        C::Real | C::Imag => ss[0].component(),
        C::Conjugate => ss[0],
        C::Phase => real(ss[0]),
        C::Polar => return Ok(Type::Tuple(vec![Type::Scalar(real(ss[0])); 2])),
        C::IsNan | C::IsInf | C::IsFinite => Scalar::Bool,
        C::Rect => {
            if ss.iter().any(|s| s.is_complex()) {
                return Err(TypeError::new("cmath.rect() takes real numbers", "a complex argument"));
            }
            complex()
        }
        C::Sqrt
        | C::Exp
        | C::Log
        | C::Log10
        | C::Sin
        | C::Cos
        | C::Tan
        | C::Sinh
        | C::Cosh
        | C::Tanh
        | C::Acos
        | C::Asin
        | C::Atan
        | C::Acosh
        | C::Asinh
        | C::Atanh => complex(),
    }))
}

/// Typing of a comparison: the common operand type (NumPy's promotion, so `uint64` against
/// `int64` compares as `float64`, as Numba does).
pub fn compare(_op: CmpOp, a: Scalar, b: Scalar) -> Scalar {
    unify_scalar(a, b)
}

/// The result of a one-argument `math` function on `a` (int arguments become float64; a
/// float16 one computes in float32, numba-cuda's nearest loop, but for [`HALF_MATH`]).
pub fn math_unary(a: Scalar) -> Scalar {
    if matches!(a, Scalar::Float32 | Scalar::Float16) {
        Scalar::Float32
    } else {
        Scalar::Float64
    }
}

/// The result of a two-argument `math` function.
pub fn math_binary(a: Scalar, b: Scalar) -> Scalar {
    let small = |s: Scalar| matches!(s, Scalar::Float32 | Scalar::Float16);
    if small(a) && small(b) {
        Scalar::Float32
    } else {
        Scalar::Float64
    }
}

/// The `math` functions numba-cuda has a float16 loop for (`Math_unary_with_fp16`): on a
/// float16 they give a float16 (computed in float32 and rounded, as `cuda_fp16.h` does).
pub const HALF_MATH: [Builtin; 9] = [
    Builtin::Sin,
    Builtin::Cos,
    Builtin::Sqrt,
    Builtin::Log,
    Builtin::Log2,
    Builtin::Log10,
    Builtin::Exp,
    Builtin::Exp2,
    Builtin::Fabs,
];

/// The result type of a NumPy ufunc with `loops` on scalar arguments, as Numba selects the
/// loop: the first loop every argument casts to safely.
pub fn ufunc_scalar(loops: UfuncLoops, args: &[Scalar]) -> Scalar {
    let mixed = args.iter().any(|s| s.is_int()) && args.iter().any(|s| s.is_float());
    let float_loop = || {
        // NumPy's safe casts to float32: bool and the integers of at most 16 bits.
        let small = |s: &Scalar| matches!(s, Scalar::Float32 | Scalar::Bool) || (s.is_int() && s.bits() <= 16);
        if args.iter().all(|s| small(s) || (mixed && s.is_int())) {
            Scalar::Float32
        } else {
            Scalar::Float64
        }
    };
    let unified = || args.iter().copied().reduce(ufunc_unify).unwrap_or(Scalar::Float64);
    match loops {
        UfuncLoops::Float => float_loop(),
        UfuncLoops::Numeric => unified(),
        UfuncLoops::NoBool => match unified() {
            Scalar::Bool => Scalar::Int64,
            s => s,
        },
        UfuncLoops::Predicate => Scalar::Bool,
        UfuncLoops::Divide => {
            let bools = args.iter().all(|s| *s == Scalar::Bool);
            if args.iter().any(|s| s.is_float()) || !bools {
                float_loop()
            } else {
                Scalar::Float64
            }
        }
    }
}

/// The result type of builtin `b` on arguments of types `args` (all known), by its typing class.
/// `Typing::GridIndex` is typed from its constant argument by the caller, not here.
pub fn builtin(b: Builtin, args: &[Type]) -> Result<Type, TypeError> {
    let info = b.info();
    // `max(s)`, `min(d)`, `sum(s)` of a set or a dict: of the list of its elements (keys), as
    // the rewrite computes them.
    if matches!(info.typing, Typing::MinMax | Typing::Sum) {
        if let Some(Type::Set(k) | Type::Dict(k, _)) = args.first().filter(|_| args.len() <= 2) {
            let mut list_args = args.to_vec();
            list_args[0] = Type::List(k.clone());
            return builtin(b, &list_args);
        }
    }
    let (lo, hi) = (info.arity.0 as usize, info.arity.1 as usize);
    if args.len() < lo || args.len() > hi {
        let want = match hi - lo {
            0 => lo.to_string(),
            1 => format!("{lo} or {hi}"),
            _ if hi >= 64 => format!("{lo} or more"),
            _ => format!("{lo} to {hi}"),
        };
        let e = TypeError::new(
            format!(
                "{}() takes {want} argument{} but {} were given",
                b.name(),
                if want == "1" { "" } else { "s" },
                args.len()
            ),
            "wrong number of arguments",
        );
        return Err(if b == Builtin::Pow {
            e.with_hint("Numba has no three-argument pow(); write the modular power as a loop")
        } else {
            e
        });
    }
    // Complex numbers go only where Numba takes them (the complex builtins, `abs`, `pow`,
    // `is`, printing and containers); everything else would treat them as a real number.
    let complex_ok = matches!(
        info.typing,
        Typing::Complex(_)
            | Typing::NditerShape
            | Typing::NditerGet
            | Typing::Abs
            | Typing::Pow
            | Typing::Hash
            | Typing::Identity
            | Typing::IsInstance
            | Typing::Print
            | Typing::Internal
            | Typing::Sum
            | Typing::Contains
            | Typing::Dict(_)
            | Typing::List(
                ListOp::New
                    | ListOp::Literal
                    | ListOp::Append
                    | ListOp::Extend
                    | ListOp::Pop
                    | ListOp::Insert
                    | ListOp::Reverse
                    | ListOp::Clear
                    | ListOp::Del
                    | ListOp::DelSlice
            )
            | Typing::ArrayLen
            | Typing::IterLen
            | Typing::TupleSlice
            | Typing::Splat
            | Typing::CallValue
            | Typing::UserUfunc
            | Typing::SameDtype
            | Typing::TupleCtor
            | Typing::Select
            | Typing::InPlace
            | Typing::View(ViewOp::Reinterpret)
            | Typing::Alloc(
                Alloc::Empty
                    | Alloc::Zeros
                    | Alloc::Ones
                    | Alloc::EmptyLike
                    | Alloc::ZerosLike
                    | Alloc::OnesLike
                    | Alloc::Full
                    | Alloc::FullLike
                    | Alloc::Eye
                    | Alloc::Identity
                    | Alloc::Copy
                    | Alloc::Astype
                    | Alloc::Array
                    | Alloc::AsArray
            )
    );
    // Of a complex array: its attributes, views and copies; its elements are read and
    // written by indexing.
    let complex_array_ok = matches!(
        info.typing,
        Typing::ArrayLen
            | Typing::IterLen
            | Typing::ArraySize
            | Typing::ArrayNdim
            | Typing::ArrayShape
            | Typing::ArrayStrides
            | Typing::ArrayDtype
            | Typing::ArrayItemsize
            | Typing::ArrayNbytes
            | Typing::ArrayFlag(_)
            | Typing::IsInstance
            | Typing::Identity
            | Typing::View(_)
            | Typing::Internal
            | Typing::SliceIndex
            | Typing::InPlace
            | Typing::Reduce(
                Reduce::Sum
                    | Reduce::Prod
                    | Reduce::Mean
                    | Reduce::Var
                    | Reduce::Std
                    | Reduce::CumSum
                    | Reduce::CumProd
            )
            | Typing::Method(crate::builtins::ArrayMethod::Sort | crate::builtins::ArrayMethod::Argsort)
            | Typing::List(ListOp::Sort)
            | Typing::Dict(DictOp::IterSource)
            | Typing::NditerShape
            | Typing::NditerGet
            | Typing::BroadcastArrays
            | Typing::Complex(crate::builtins::ComplexOp::Conjugate)
            | Typing::Alloc(
                Alloc::Empty
                    | Alloc::Zeros
                    | Alloc::EmptyLike
                    | Alloc::ZerosLike
                    | Alloc::OnesLike
                    | Alloc::FullLike
                    | Alloc::Copy
                    | Alloc::Astype
                    | Alloc::AsContiguous
            )
    );
    // A ufunc with a complex loop on a complex argument (`np.abs(z)`, `np.exp(1j * a)`).
    if let (Typing::Ufunc(_), [a]) = (info.typing, args) {
        if let (Some((c, _)), Some(cu)) = (elementwise_operand(a).filter(|(s, _)| s.is_complex()), complex_ufunc(b)) {
            let r = complex_ufunc_result(cu, c);
            return Ok(if is_elementwise(args) { elementwise_result(r, args) } else { Type::Scalar(r) });
        }
    }
    // `a.real` / `a.imag` of an array: a view of the parts of a complex array; of a real array
    // the array itself and a new array of zeros (as Numba).
    if let (Builtin::Real | Builtin::Imag, [Type::Array(at)]) = (b, args) {
        return Ok(Type::Array(match (at.dtype.is_complex(), b) {
            (true, _) => ArrayType { dtype: at.dtype.component(), layout: Layout::A, ..*at },
            (false, Builtin::Real) => *at,
            (false, _) => ArrayType { layout: Layout::C, ..*at },
        }));
    }
    if !complex_array_ok {
        if let Some(t) = args.iter().find(|t| t.array().is_some_and(|a| a.dtype.is_complex())) {
            return Err(TypeError::new(
                format!("{}() of a complex array is not supported yet", b.name()),
                format!("a {t} argument"),
            )
            .with_hint("loop over the elements (indexing, reading and writing complex elements is supported)"));
        }
    }
    fn holds_complex(t: &Type) -> bool {
        match t {
            Type::Scalar(s) => s.is_complex(),
            Type::Tuple(ts) => ts.iter().any(holds_complex),
            Type::List(e) | Type::Optional(e) => holds_complex(e),
            _ => false,
        }
    }
    if !complex_ok {
        if let Some(t) = args.iter().find(|t| holds_complex(t)) {
            return Err(TypeError::new(
                format!("{}() does not accept complex numbers ({t})", b.name()),
                format!("a {t} argument"),
            )
            .with_hint("use the cmath functions, abs(z), z.real or z.imag"));
        }
    }
    let ty = |k: usize| args[k].clone();
    let scalar = |k: usize| -> Result<Scalar, TypeError> {
        ty(k).scalar().ok_or_else(|| {
            TypeError::new(
                format!("{}() expects a number, found {}", b.name(), ty(k)),
                format!("argument {} is {}", k + 1, ty(k)),
            )
        })
    };
    let integer = |k: usize| -> Result<Scalar, TypeError> {
        let s = scalar(k)?;
        if s.is_float() {
            return Err(TypeError::new(
                format!("{}() expects an integer, found {}", b.name(), s.name()),
                format!("argument {} is {}", k + 1, s.name()),
            )
            .with_hint("convert with int(...)"));
        }
        Ok(s)
    };
    let float_of_args = || -> Result<Scalar, TypeError> {
        let mut acc = math_unary(scalar(0)?);
        for k in 1..args.len() {
            acc = math_binary(acc, scalar(k)?);
        }
        Ok(acc)
    };
    Ok(match info.typing {
        Typing::Dict(op) => dict_op(op, args)?,
        Typing::FloatMath if HALF_MATH.contains(&b) && scalar(0)? == Scalar::Float16 => Type::Scalar(Scalar::Float16),
        Typing::FloatMath | Typing::FloatScale(_) => Type::Scalar(float_of_args()?),
        Typing::FloatToInt => {
            scalar(0)?;
            Type::I64
        }
        Typing::TupleCtor => match ty(0) {
            t @ Type::Tuple(_) => t,
            t => {
                return Err(TypeError::new(format!("tuple() of {t} is not supported"), format!("argument is {t}"))
                    .with_hint("tuple() takes a tuple here: other iterables have no length known when compiling"))
            }
        },
        Typing::IntCtor => match scalar(0)? {
            s if s.is_int() => Type::Scalar(s),
            _ => Type::I64,
        },
        Typing::FloatPredicate if is_elementwise(args) => elementwise_result(Scalar::Bool, args),
        Typing::FloatPredicate => {
            scalar(0)?;
            Type::BOOL
        }
        Typing::FloatInt => {
            integer(1)?;
            Type::Scalar(math_unary(scalar(0)?))
        }
        Typing::Frexp => Type::Tuple(vec![Type::Scalar(math_unary(scalar(0)?)), Type::I32]),
        Typing::Modf => {
            let f = Type::Scalar(math_unary(scalar(0)?));
            Type::Tuple(vec![f.clone(), f])
        }
        Typing::CudaVector => {
            let name = match &args[0] {
                Type::Str(s) => s.clone(),
                t => unreachable!("the vector constructor's name is a string constant, not {t}"),
            };
            let (base, n) = crate::builtins::cuda_vector(&name).expect("the front end checked the name");
            let mut count = 0;
            for (k, t) in args.iter().enumerate().skip(1) {
                count += match t {
                    Type::Scalar(s) if !s.is_complex() => 1,
                    Type::Tuple(ts) if ts.iter().all(|t| t.scalar().is_some_and(|s| !s.is_complex())) => ts.len(),
                    t => {
                        return Err(TypeError::new(
                            format!("{name}() takes numbers and vectors, found {t}"),
                            format!("argument {k} is {t}"),
                        ))
                    }
                };
            }
            if count != n {
                return Err(TypeError::new(
                    format!("{name}() needs {n} component{}, the arguments give {count}", if n == 1 { "" } else { "s" }),
                    "wrong number of components",
                )
                .with_hint("each number gives one component and each vector all of its components"));
            }
            Type::Tuple(vec![Type::Scalar(base); n])
        }
        Typing::IntMath => {
            let (x, y) = (integer(0)?, integer(1)?);
            if x == Scalar::Int32 && y == Scalar::Int32 {
                Type::I32
            } else {
                Type::I64
            }
        }
        Typing::Abs => {
            // Numba keeps the operand's type (`abs(True)` is an int8); a complex number's is
            // its parts' float type.
            let s = scalar(0)?;
            Type::Scalar(if s == Scalar::Bool { Scalar::Int8 } else { s.component() })
        }
        Typing::Complex(op) => complex_builtin(b, op, args)?,
        Typing::MinMax => {
            let items = iterable_items(b, args)?;
            let mut acc = items[0];
            for &s in &items[1..] {
                acc = unify_scalar(acc, s);
            }
            Type::Scalar(acc)
        }
        Typing::Round => {
            let x = scalar(0)?;
            if args.len() == 1 {
                Type::I64
            } else {
                integer(1)?;
                Type::Scalar(ufunc_scalar(UfuncLoops::Float, &[x]))
            }
        }
        Typing::Divmod => {
            let t = binary(BinaryOp::FloorDiv, scalar(0)?, scalar(1)?).map_err(|m| TypeError::new(m, "here"))?;
            Type::Tuple(vec![Type::Scalar(t.result); 2])
        }
        Typing::Pow => {
            let t = binary(BinaryOp::Pow, scalar(0)?, scalar(1)?).map_err(|m| TypeError::new(m, "here"))?;
            Type::Scalar(t.result)
        }
        Typing::Identity => Type::BOOL,
        Typing::Hash => {
            let t = ty(0);
            if !numbers_or_tuples(&t) {
                return Err(TypeError::new(format!("hash() of {t} is not supported"), format!("this is {t}"))
                    .with_hint("numbers, bools and tuples of them hash as in CPython; a string's hash depends on the process's hash seed in CPython and Numba"));
            }
            Type::I64
        }
        Typing::Sum if matches!(ty(0), Type::Array(a) if a.ndim == 1) => {
            // The scalar `+` of the start and the elements, settled (as for a list).
            let e = array_of(&ty(0), b.name())?.dtype;
            let mut acc = if args.len() == 2 { scalar(1)? } else { Scalar::Int64 };
            for _ in 0..2 {
                acc = binary(BinaryOp::Add, acc, e).map_err(|m| TypeError::new(m, "here"))?.result;
            }
            Type::Scalar(acc)
        }
        Typing::Sum => {
            let items = match ty(0) {
                Type::Tuple(ts) => tuple_scalars(b, &ts)?,
                // The sum of a list: the accumulator's type once it settles (start + e + e...).
                Type::List(e) => {
                    let e = tuple_scalars(b, &[*e])?[0];
                    let mut acc = if args.len() == 2 { scalar(1)? } else { Scalar::Int64 };
                    for _ in 0..2 {
                        acc = binary(BinaryOp::Add, acc, e).map_err(|m| TypeError::new(m, "here"))?.result;
                    }
                    return Ok(Type::Scalar(acc));
                }
                t => return Err(not_iterable(b, &t)),
            };
            let mut acc = if args.len() == 2 { scalar(1)? } else { Scalar::Int64 };
            for s in items {
                acc = binary(BinaryOp::Add, acc, s).map_err(|m| TypeError::new(m, "here"))?.result;
            }
            Type::Scalar(acc)
        }
        Typing::ArrayLen if matches!(ty(0), Type::Tuple(_) | Type::List(_) | Type::Dict(..) | Type::Set(_)) => Type::I64,
        Typing::ArrayLen | Typing::ArraySize | Typing::ArrayNdim => {
            array_of(&ty(0), b.name())?;
            Type::I64
        }
        Typing::IterLen => match ty(0) {
            // The rows of an n-D array are (n-1)-D views.
            Type::Array(_) | Type::List(_) => Type::I64,
            Type::Tuple(ts) if ts.is_empty() || uniform(&ts).is_some() => Type::I64,
            Type::Tuple(ts) => {
                return Err(TypeError::new(
                    format!("cannot iterate over the heterogeneous tuple {}", Type::Tuple(ts.clone())),
                    "elements of different types",
                )
                .with_hint("Numba iterates only tuples whose elements have one type; unpack it, or loop over a tuple literal (unrolled)"))
            }
            t => {
                return Err(TypeError::new(format!("cannot iterate over {t}"), format!("this is {t}, not iterable"))
                    .with_hint("iterate over a 1-D array, a range, enumerate/zip of those, or a tuple literal"))
            }
        },
        Typing::RangeIndex => match ty(0) {
            Type::Scalar(s) if !s.is_float() => Type::I64,
            t => {
                return Err(TypeError::new(
                    format!("range() arguments must be integers, found {t}"),
                    format!("this is {t}"),
                )
                .with_hint("convert with int(...)"))
            }
        },
        // A homogeneous tuple's item type too (Numba's `UniTuple.dtype`, read by `@overload`s).
        Typing::ArrayDtype => match ty(0) {
            // `dtype=None` passed on (`np.arange(n, dtype=dtype)` called with None): no dtype.
            Type::None => Type::None,
            // A dtype passed by name (`np.zeros(n, dtype)` with `dtype="float32"`, or the
            // default `dtype=np.float64`, which the front end gives as its name).
            Type::Str(name) => Type::Scalar(crate::dtype_string(&name).ok_or_else(|| {
                TypeError::new(format!("data type \"{name}\" not understood"), "not a dtype")
                    .with_hint("a dtype is np.float64 … np.uint8, np.bool_, np.complex128, or one of their names")
            })?),
            Type::Tuple(items) if !items.is_empty() && items.iter().all(|i| i == &items[0]) && items[0].scalar().is_some() => {
                items[0].clone()
            }
            t => Type::Scalar(array_of(&t, "`.dtype`")?.dtype),
        },
        Typing::ArrayItemsize | Typing::ArrayNbytes => {
            array_of(&ty(0), b.name())?;
            Type::I64
        }
        Typing::ArrayShape => Type::Tuple(vec![Type::I64; array_of(&ty(0), "`.shape`")?.ndim as usize]),
        Typing::ArrayStrides => Type::Tuple(vec![Type::I64; array_of(&ty(0), "`.strides`")?.ndim as usize]),
        Typing::Contains if matches!(ty(0), Type::List(_)) => {
            let e = ty(0).list_elem().cloned().expect("matched");
            if !comparable(&e, &ty(1)) {
                return Err(TypeError::new(format!("`in` cannot compare {} with the elements of {}", ty(1), ty(0)), "here"));
            }
            Type::BOOL
        }
        Typing::List(op) => list_op(b, op, args)?,
        Typing::Heap(op) => heap_op(b, op, args)?,
        Typing::Contains if matches!(ty(0), Type::Dict(..) | Type::Set(_)) => {
            let (Type::Dict(k, _) | Type::Set(k)) = ty(0) else { unreachable!("matched") };
            dict_key(&k, &ty(1))?;
            Type::BOOL
        }
        Typing::Contains => match (ty(0), ty(1).scalar()) {
            (Type::Tuple(ts), Some(_)) if uniform(&ts).is_some_and(|t| t.scalar().is_some()) => Type::BOOL,
            (Type::Tuple(ts), _) if ts.is_empty() => Type::BOOL,
            (Type::Array(_), _) => {
                return Err(TypeError::new("`in` on an array is not supported yet", "this is an array")
                    .with_hint("loop over the elements and compare"))
            }
            (t, _) => {
                return Err(TypeError::new(
                    format!("`in` needs a number and a tuple of numbers of one type, found {} in {t}", ty(1)),
                    "here",
                )
                .with_hint("Numba supports `x in t` for homogeneous tuples only"))
            }
        },
        // Typed in `result_type` from the constant operands, or flattened into the call.
        Typing::TupleSlice | Typing::Splat | Typing::CallValue | Typing::UserUfunc => {
            return Err(TypeError::new(format!("internal: `{}` typed without its operands", b.name()), "here"))
        }
        Typing::Internal => {
            return Err(TypeError::new(format!("internal: `{}` reached type inference", b.name()), "here"))
        }
        // Typed in `result_type` from the constant argument, before reaching here.
        Typing::GridIndex => return Err(TypeError::new("internal: cuda.grid typed without its constant", "here")),
        Typing::SpecialRegister => Type::I32,
        Typing::NoResult => Type::None,
        Typing::KernelArrayLike => Type::Array(ArrayType {
            dtype: scalar(0)?,
            // [dtype's zero, space, alignment, dims...]
            ndim: (args.len() - 3) as u8,
            layout: crate::types::Layout::C,
        }),
        Typing::GridSync => {
            if ty(0) != Type::None {
                return Err(TypeError::new(
                    format!("`.sync()` is not a method of {}", ty(0)),
                    format!("this is {}", ty(0)),
                )
                .with_hint("sync() is the method of the grid group: g = cuda.cg.this_grid(); g.sync()"));
            }
            Type::None
        }
        Typing::Print => {
            fn printable(t: &Type) -> bool {
                match t {
                    Type::Scalar(_) | Type::None | Type::Str(_) | Type::String => true,
                    Type::Tuple(ts) => ts.iter().all(printable),
                    Type::List(e) | Type::Set(e) => printable(e),
                    Type::Dict(k, v) => printable(k) && printable(v),
                    _ => false,
                }
            }
            for (k, t) in args.iter().enumerate() {
                if !printable(t) {
                    return Err(TypeError::new(
                        format!("print() of {t} is not supported yet"),
                        format!("argument {} is {t}", k + 1),
                    )
                    .with_hint("print numbers, booleans, None, string constants and tuples of them"));
                }
            }
            Type::I64
        }
        Typing::BarrierPredicate => {
            // numba-cuda types the predicate as an Integer (a bool is refused) and passes
            // it as int32.
            if !scalar(0)?.is_int() {
                return Err(TypeError::new(
                    format!("{}() takes an integer predicate, found {}", b.name(), ty(0)),
                    format!("this is {}", ty(0)),
                )
                .with_hint("convert a condition with int(...), as numba-cuda requires"));
            }
            Type::I32
        }
        Typing::ActiveMask => Type::I64,
        Typing::SameDtype => {
            scalar(0)?;
            scalar(1)?;
            Type::BOOL
        }
        Typing::LaneMask => Type::Scalar(Scalar::UInt32),
        Typing::Bits(op) => {
            let s = scalar(0)?;
            if !s.is_int() {
                return Err(TypeError::new(
                    format!("{}() takes an integer, found {}", b.name(), ty(0)),
                    format!("this is {}", ty(0)),
                ));
            }
            match op {
                BitOp::Popc | BitOp::Clz => Type::Scalar(s),
                BitOp::Ffs => Type::Scalar(Scalar::UInt32),
                BitOp::Brev if matches!(s, Scalar::UInt32 | Scalar::UInt64) => Type::Scalar(s),
                BitOp::Brev => {
                    return Err(TypeError::new(
                        format!("cuda.brev() takes uint32 or uint64, found {}", ty(0)),
                        format!("this is {}", ty(0)),
                    )
                    .with_hint("numba-cuda has only those two signatures: cast first, e.g. cuda.brev(np.uint32(x))"))
                }
            }
        }
        Typing::Vote(op) => {
            if !scalar(0)?.is_int() {
                return Err(TypeError::new(
                    format!("the mask of {}() must be an integer, found {}", b.name(), ty(0)),
                    "the mask",
                ));
            }
            let p = scalar(1)?;
            if matches!(op, VoteOp::MatchAny | VoteOp::MatchAll) {
                if p.is_complex() {
                    return Err(TypeError::new(
                        format!("{}() compares integers or floats, found {}", b.name(), ty(1)),
                        "the value",
                    ));
                }
                return Ok(if op == VoteOp::MatchAny { Type::I32 } else { Type::Tuple(vec![Type::I32, Type::BOOL]) });
            }
            if !(p.is_int() || p == Scalar::Bool) {
                return Err(TypeError::new(
                    format!("the predicate of {}() must be an integer or a bool, found {}", b.name(), ty(1)),
                    "the predicate",
                ));
            }
            if op == VoteOp::Ballot {
                Type::I32
            } else {
                Type::BOOL
            }
        }
        Typing::Atomic => {
            let op = match b.kernel_op() {
                Some(KernelOp::Atomic(op)) => op,
                _ => AtomicOp::Add,
            };
            let at = array_of(&ty(0), b.name())?;
            let (ok_dtype, hint) = match op {
                AtomicOp::Cas => (at.dtype.is_int(), "numba-cuda's cas works on int32 and int64 arrays"),
                AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => (
                    matches!(at.dtype, Scalar::Int32 | Scalar::UInt32 | Scalar::Int64 | Scalar::UInt64),
                    "numba-cuda's bitwise atomics work on int32, uint32, int64 and uint64 arrays",
                ),
                AtomicOp::Inc | AtomicOp::Dec => (
                    matches!(at.dtype, Scalar::UInt32 | Scalar::UInt64),
                    "numba-cuda's inc and dec work on uint32 and uint64 arrays",
                ),
                // numba-cuda has no float16 atomics (its arithmetic atomics take float32,
                // float64 and the 32- and 64-bit integers).
                _ => (
                    !matches!(at.dtype, Scalar::Bool | Scalar::Float16),
                    "atomics work on int32, int64, float32 and float64 arrays",
                ),
            };
            if !ok_dtype {
                return Err(TypeError::new(
                    format!("{}() does not support arrays of {}", b.name(), at.dtype.name()),
                    "this array",
                )
                .with_hint(hint));
            }
            element_index(b, &at, &ty(1))?;
            for k in 2..args.len() {
                scalar(k)?;
            }
            Type::Scalar(at.dtype)
        }
        Typing::CacheLoad | Typing::CacheStore => {
            // numba-cuda's cache hints take integer and float arrays (its `_validate_bitwidth`).
            let at = array_of(&ty(0), b.name())?;
            if !(at.dtype.is_int() || at.dtype.is_float()) {
                return Err(TypeError::new(
                    format!("{}() does not support arrays of {}", b.name(), at.dtype.name()),
                    "this array",
                )
                .with_hint("cache hints take arrays of integers and floats, as numba-cuda's do"));
            }
            element_index(b, &at, &ty(1))?;
            if info.typing == Typing::CacheLoad {
                Type::Scalar(at.dtype)
            } else {
                scalar(2)?;
                Type::None
            }
        }
        Typing::Shuffle => ty(1),
        Typing::Fma => Type::Scalar(math_binary(math_binary(scalar(0)?, scalar(1)?), scalar(2)?)),
        Typing::Select => {
            unify(&ty(1), &ty(2)).ok_or_else(|| TypeError::new("selp operands have different types", "here"))?
        }
        // An `out` that is None (a defaulted `out=None` passed on) is no output argument.
        // (np.clip's third argument is a bound, which None leaves out: below.)
        Typing::Elementwise(_) | Typing::Ufunc(_)
            if args.len() > 1 && args.last() == Some(&Type::None) && !(b == Builtin::NpClip && args.len() == 3) =>
        {
            return builtin(b, &args[..args.len() - 1]);
        }
        Typing::Ufunc(u) if args.len() > b.info().arity.0 as usize => {
            // `np.add(x, y, out)`: computed into `out`, which is also the result.
            let nin = b.info().arity.0 as usize;
            let Type::Array(out) = ty(nin) else {
                return Err(TypeError::new(
                    format!("the output argument of {}() must be an array, found {}", b.info().name, ty(nin)),
                    "output argument",
                ));
            };
            let mut dtypes = Vec::new();
            for k in 0..nin {
                let Some((s, n)) = elementwise_operand(&ty(k)) else {
                    return Err(TypeError::new(format!("expected an array or a number, found {}", ty(k)), "here"));
                };
                if n > out.ndim {
                    return Err(TypeError::new(
                        format!("argument {} has more dimensions than the output array", k + 1),
                        "output argument",
                    ));
                }
                dtypes.push(s);
            }
            let r = ufunc_scalar(u.loops(), &dtypes);
            if !same_kind(r, out.dtype) {
                return Err(TypeError::new(
                    format!("cannot cast the {} result of {}() to the output's dtype {}", r.name(), b.info().name, out.dtype.name()),
                    "output argument",
                ));
            }
            ty(nin)
        }
        Typing::Ufunc(u) if is_elementwise(args) => {
            let dtypes: Vec<Scalar> = args.iter().filter_map(elementwise_operand).map(|(s, _)| s).collect();
            elementwise_result(ufunc_scalar(u.loops(), &dtypes), args)
        }
        Typing::InPlace => match (ty(0), ty(1)) {
            // `l += seq` extends `l` in place, keeping its type (its items are converted).
            (l @ Type::List(_), Type::List(_)) => l,
            (Type::Array(t), Type::Array(_) | Type::Scalar(_)) => {
                let (v, vn) = elementwise_operand(&ty(1)).expect("an array or a number");
                if vn > t.ndim {
                    return Err(TypeError::new(
                        format!("cannot store a {vn}-dimensional result into a {}-dimensional array in place", t.ndim),
                        "in this in-place operator",
                    ));
                }
                if !same_kind(v, t.dtype) {
                    return Err(TypeError::new(
                        format!("cannot cast the {} result to the array's dtype {} in place", v.name(), t.dtype.name()),
                        "in this in-place operator",
                    )
                    .with_hint("NumPy refuses this cast (casting='same_kind'): write `a = a OP b` for a new array"));
                }
                ty(0)
            }
            (_, v) => v,
        },
        Typing::Ufunc(u) => {
            let scalars = (0..args.len()).map(scalar).collect::<Result<Vec<_>, _>>()?;
            Type::Scalar(ufunc_scalar(u.loops(), &scalars))
        }
        Typing::Alloc(a) => alloc(b, a, args)?,
        Typing::View(v) => view(b, v, args)?,
        Typing::Reduce(r) => reduce(b, r, args)?,
        Typing::IsInstance => Type::BOOL,
        Typing::ArrayFlag(_) => {
            array_of(&ty(0), b.name())?;
            Type::BOOL
        }
        Typing::ShapeSize => {
            shape_ndim(b, &ty(0))?;
            Type::I64
        }
        Typing::Unravel => Type::Tuple(vec![Type::I64; shape_ndim(b, &ty(0))? as usize]),
        Typing::NditerShape => {
            if let Some(t) = args.iter().find(|t| t.array().is_none() && t.scalar().is_none()) {
                return Err(TypeError::new(format!("np.nditer() takes arrays and numbers, found {t}"), format!("this is {t}")));
            }
            let Some(nd) = args.iter().filter_map(Type::array).map(|a| a.ndim).max() else {
                return Err(TypeError::new("np.nditer() of numbers only is not supported", "no array here")
                    .with_hint("iterate over an array, or compute on the numbers directly"));
            };
            Type::Tuple(vec![Type::I64; nd as usize])
        }
        Typing::NditerGet => match &ty(0) {
            Type::Array(a) => Type::Scalar(a.dtype),
            t => t.clone(),
        },
        Typing::BroadcastShapes => {
            let mut nd = 0;
            for t in args {
                nd = nd.max(shape_ndim(b, t)?);
            }
            Type::Tuple(vec![Type::I64; nd as usize])
        }
        Typing::BroadcastArrays => {
            let ats = args.iter().map(|t| array_of(t, b.name())).collect::<Result<Vec<_>, _>>()?;
            let nd = ats.iter().map(|a| a.ndim).max().unwrap_or(1);
            Type::Tuple(ats.iter().map(|a| Type::Array(ArrayType { dtype: a.dtype, ndim: nd, layout: Layout::A })).collect())
        }
        Typing::Linalg(l) => linalg(b, l, args)?,
        Typing::Random(r) => random(b, r, args)?,
        Typing::Threads => match args.first() {
            None => Type::I64,
            Some(Type::Scalar(s)) if s.is_int() || *s == Scalar::Bool => Type::None,
            Some(t) => return Err(TypeError::new(format!("the number of threads must be an integer, not {t}"), "here")),
        },
        Typing::Elementwise(Elem::Where) if args.len() == 1 => nonzero_type(b, &args[0])?,
        Typing::Elementwise(Elem::Where) if args.len() == 2 => {
            return Err(TypeError::new("np.where() takes 1 or 3 arguments", "2 arguments"))
        }
        Typing::Elementwise(e @ (Elem::Clip | Elem::Round)) if args.len() == if e == Elem::Clip { 4 } else { 3 } => {
            // np.clip(a, lo, hi, out) / np.round(a, decimals, out): into `out`, the result.
            let k = args.len() - 1;
            let Type::Array(out) = ty(k) else {
                return Err(TypeError::new(
                    format!("the output argument of {}() must be an array, found {}", b.name(), ty(k)),
                    "out",
                ));
            };
            let a = array_of(&ty(0), b.name())?;
            if !same_kind(a.dtype, out.dtype) || a.ndim > out.ndim {
                return Err(TypeError::new(format!("{}(): the output array does not fit the result", b.name()), "out"));
            }
            ty(k)
        }
        Typing::Elementwise(Elem::Clip) if args[1..3].iter().all(|t| *t == Type::None) => {
            return Err(TypeError::new("array_clip: must set either max or min", "both bounds are None"))
        }
        Typing::Elementwise(Elem::Clip) if args[1..3].contains(&Type::None) => {
            // A None bound is no bound (the rewrite uses the dtype's extreme): typed as one of
            // the array's dtype.
            let at = array_of(&ty(0), b.name())?;
            let filled: Vec<Type> =
                args.iter().map(|t| if *t == Type::None { Type::Scalar(at.dtype) } else { t.clone() }).collect();
            return builtin(b, &filled);
        }
        Typing::Elementwise(e) => {
            let mut dtypes = Vec::new();
            for (k, t) in args.iter().enumerate() {
                match elementwise_operand(t) {
                    Some((s, _)) => dtypes.push(s),
                    None => {
                        return Err(TypeError::new(
                            format!("{}() expects arrays or numbers, found {t}", b.name()),
                            format!("argument {} is {t}", k + 1),
                        ))
                    }
                }
            }
            let d = match e {
                Elem::Where => unify_scalar(dtypes[1], dtypes[2]),
                Elem::Clip | Elem::Round => dtypes[0],
            };
            if e == Elem::Round && args.len() > 1 && !dtypes[1].is_int() {
                return Err(TypeError::new("decimals must be an integer", "decimals"));
            }
            if e == Elem::Clip && !matches!(ty(0), Type::Array(_)) {
                return Err(TypeError::new(format!("{}() of a number is not supported", b.name()), "a number"));
            }
            if is_elementwise(args) {
                elementwise_result(d, args)
            } else {
                Type::Scalar(d)
            }
        }
        Typing::Method(m) => match m {
            ArrayMethod::Fill => {
                array_of(&ty(0), b.name())?;
                scalar(1)?;
                Type::None
            }
            // `x.item()` of a number is the number (`np.nditer` elements).
            ArrayMethod::Item if ty(0).scalar().is_some() => ty(0),
            ArrayMethod::Item => Type::Scalar(array_of(&ty(0), b.name())?.dtype),
            ArrayMethod::Nonzero => nonzero_type(b, &ty(0))?,
            ArrayMethod::CountNonzero => {
                array_of(&ty(0), b.name())?;
                Type::I64
            }
            ArrayMethod::FlatNonzero => {
                array_of(&ty(0), b.name())?;
                Type::Array(ArrayType { dtype: Scalar::Int64, ndim: 1, layout: Layout::C })
            }
            ArrayMethod::Sort | ArrayMethod::Argsort => {
                let at = array_of(&ty(0), b.name())?;
                if m == ArrayMethod::Sort && at.ndim > 1 {
                    return Ok(Type::Array(ArrayType { dtype: at.dtype, ndim: at.ndim, layout: Layout::C }));
                }
                if at.ndim != 1 {
                    return Err(TypeError::new(
                        format!("{}() of a {}-D array is not supported yet", b.name(), at.ndim),
                        "not a 1-D array",
                    )
                    .with_hint("sort a 1-D array (e.g. a row, or a.ravel())"));
                }
                let dtype = if m == ArrayMethod::Sort { at.dtype } else { Scalar::Int64 };
                Type::Array(ArrayType { dtype, ndim: 1, layout: Layout::C })
            }
            ArrayMethod::Median => {
                array_of(&ty(0), b.name())?;
                Type::F64
            }
            _ => numpy_function(b, m, args)?,
        },
        Typing::SliceIndex => {
            for (k, t) in args.iter().enumerate() {
                if !(*t == Type::None || t.scalar().is_some_and(|s| s.is_int())) {
                    return Err(TypeError::new(
                        format!("slice indices must be integers or None, found {t}"),
                        format!("bound {} is {t}", k + 1),
                    )
                    .with_hint("convert with int(...)"));
                }
            }
            Type::Slice(match args {
                [] => SliceKind::Ellipsis,
                [_, _, Type::None] => SliceKind::NoStep,
                _ => SliceKind::Step,
            })
        }
    })
}

/// The dimension count a shape argument gives: an integer is one dimension, a tuple of
/// integers one per element.
pub fn shape_ndim(b: Builtin, t: &Type) -> Result<u8, TypeError> {
    let bad = || {
        TypeError::new(
            format!("{}() takes a shape: an integer or a tuple of integers, found {t}", b.name()),
            format!("this is {t}"),
        )
    };
    let n = match t {
        Type::Scalar(s) if s.is_int() => 1,
        Type::Tuple(ts) if ts.iter().all(|t| t.scalar().is_some_and(|s| s.is_int())) => ts.len(),
        _ => return Err(bad()),
    };
    if let Err(why) = crate::types::check_ndim(n) {
        return Err(TypeError::new(format!("{}(): {why}", b.name()), format!("{n} dimensions")));
    }
    Ok(n as u8)
}

/// The dtype argument: a zero of that dtype (its type), or `None` for the default.
fn dtype_arg(t: &Type, default: Scalar) -> Result<Scalar, TypeError> {
    match t {
        Type::None => Ok(default),
        Type::Scalar(s) => Ok(*s),
        t => Err(TypeError::new(format!("dtype must be a NumPy dtype, found {t}"), "not a dtype")),
    }
}

fn c_array(dtype: Scalar, ndim: u8) -> Type {
    Type::Array(ArrayType { dtype, ndim, layout: Layout::C })
}

/// The scalar type and nesting of a (nested) tuple of numbers given to `np.array`: the
/// unified element type and the shape's length; `None` when it is ragged or not numbers.
pub fn nested_elements(t: &Type) -> Option<(Scalar, u8)> {
    match t {
        Type::Scalar(s) => Some((*s, 0)),
        Type::Tuple(ts) if !ts.is_empty() => {
            let mut acc: Option<(Scalar, u8)> = None;
            for e in ts {
                let (s, d) = nested_elements(e)?;
                acc = match acc {
                    None => Some((s, d)),
                    Some((a, ad)) if ad == d => Some((array_unify_scalar(a, s), d)),
                    Some(_) => return None,
                };
            }
            acc.map(|(s, d)| (s, d + 1))
        }
        _ => None,
    }
}

/// NumPy's result type of an array built from numbers of types `a` and `b`: bool with an
/// integer gives the integer, integers of both widths int64, any float with an int64 float64.
fn array_unify_scalar(a: Scalar, b: Scalar) -> Scalar {
    use Scalar::*;
    match (a, b) {
        (x, y) if x == y => x,
        (c, t) | (t, c) if c.is_complex() => Scalar::complex_of(array_unify_scalar(c.component(), t.component())),
        (Bool, x) | (x, Bool) => x,
        (Float32, Int32) | (Int32, Float32) => Float64,
        (Float32, Int64) | (Int64, Float32) => Float64,
        (Float64, _) | (_, Float64) => Float64,
        (Float32, Float32) => Float32,
        _ => Int64,
    }
}

fn alloc(b: Builtin, a: Alloc, args: &[Type]) -> Result<Type, TypeError> {
    let ty = |k: usize| args[k].clone();
    let array = |k: usize| -> Result<ArrayType, TypeError> { array_of(&ty(k), b.name()) };
    let number = |k: usize| -> Result<Scalar, TypeError> {
        ty(k).scalar().ok_or_else(|| {
            TypeError::new(
                format!("{}() expects a number, found {}", b.name(), ty(k)),
                format!("argument {} is {}", k + 1, ty(k)),
            )
        })
    };
    let integer = |k: usize| -> Result<(), TypeError> {
        match ty(k).scalar() {
            Some(s) if s.is_int() => Ok(()),
            _ => Err(TypeError::new(
                format!("{}() expects an integer, found {}", b.name(), ty(k)),
                format!("argument {} is {}", k + 1, ty(k)),
            )),
        }
    };
    Ok(match a {
        Alloc::Empty | Alloc::Zeros | Alloc::Ones => {
            c_array(dtype_arg(&ty(1), Scalar::Float64)?, shape_ndim(b, &ty(0))?)
        }
        Alloc::Full => {
            let fill = number(1)?;
            c_array(dtype_arg(&ty(2), fill)?, shape_ndim(b, &ty(0))?)
        }
        Alloc::EmptyLike | Alloc::ZerosLike | Alloc::OnesLike => {
            let at = array(0)?;
            c_array(dtype_arg(&ty(1), at.dtype)?, at.ndim)
        }
        Alloc::FullLike => {
            let at = array(0)?;
            number(1)?;
            c_array(dtype_arg(&ty(2), at.dtype)?, at.ndim)
        }
        Alloc::Arange => {
            let mut float = false;
            for k in 0..3 {
                if ty(k) != Type::None {
                    float |= number(k)?.is_float();
                }
            }
            c_array(dtype_arg(&ty(3), if float { Scalar::Float64 } else { Scalar::Int64 })?, 1)
        }
        Alloc::Linspace => {
            number(0)?;
            number(1)?;
            if ty(2) != Type::None {
                integer(2)?;
            }
            c_array(Scalar::Float64, 1)
        }
        Alloc::Eye => {
            integer(0)?;
            for k in 1..3 {
                if ty(k) != Type::None {
                    integer(k)?;
                }
            }
            c_array(dtype_arg(&ty(3), Scalar::Float64)?, 2)
        }
        Alloc::Identity => {
            integer(0)?;
            c_array(dtype_arg(&ty(1), Scalar::Float64)?, 2)
        }
        Alloc::Astype => c_array(dtype_arg(&ty(1), array(0)?.dtype)?, array(0)?.ndim),
        Alloc::AsContiguous => c_array(array(0)?.dtype, array(0)?.ndim),
        Alloc::AsArray => match ty(0) {
            Type::Array(at) => match ty(1) {
                Type::None => Type::Array(at),
                t => c_array(dtype_arg(&t, at.dtype)?, at.ndim),
            },
            _ => alloc(b, Alloc::Array, args)?,
        },
        Alloc::AsFortran => {
            let at = array(0)?;
            let layout = if at.ndim > 1 { Layout::A } else { Layout::C };
            Type::Array(ArrayType { dtype: at.dtype, ndim: at.ndim, layout })
        }
        Alloc::Copy if matches!(ty(0), Type::List(_)) => ty(0),
        Alloc::Copy if matches!(args[0], Type::Dict(..) | Type::Set(_)) => args[0].clone(),
        Alloc::Copy => c_array(array(0)?.dtype, array(0)?.ndim),
        Alloc::Array => match ty(0) {
            Type::Array(at) => c_array(dtype_arg(&ty(1), at.dtype)?, at.ndim),
            Type::List(e) if e.scalar().is_some() => c_array(dtype_arg(&ty(1), e.scalar().expect("matched"))?, 1),
            // Rows: a list of lists of numbers (of such lists), or of 1-D arrays, is a 2-D (3-D)
            // array, as Numba builds it.
            Type::List(e) => match &*e {
                Type::List(r) if r.scalar().is_some() => c_array(dtype_arg(&ty(1), r.scalar().expect("matched"))?, 2),
                Type::List(r) if r.list_elem().and_then(Type::scalar).is_some() => {
                    c_array(dtype_arg(&ty(1), r.list_elem().and_then(Type::scalar).expect("matched"))?, 3)
                }
                Type::Array(r) if r.ndim == 1 => c_array(dtype_arg(&ty(1), r.dtype)?, 2),
                _ => {
                    return Err(TypeError::new(format!("np.array() of a list of {e} is not supported"), "here")
                        .with_hint(
                            "np.array() takes a list of numbers, of (lists of) lists of numbers or of 1-D arrays; fill others with a loop",
                        ))
                }
            },
            t => {
                let Some((s, nd)) = nested_elements(&t) else {
                    return Err(TypeError::new(
                        format!("np.array() takes a list or tuple of numbers (nested for more dimensions), found {t}"),
                        format!("this is {t}"),
                    )
                    .with_hint("every row must have the same length and hold numbers"));
                };
                if let Err(why) = crate::types::check_ndim(nd as usize) {
                    return Err(TypeError::new(format!("np.array(): {why}"), "here"));
                }
                c_array(dtype_arg(&ty(1), s)?, nd)
            }
        },
    })
}

/// Whether `x` and `y` can be compared with `==` and `<`: two numbers, two tuples whose
/// elements at the same positions can be, or two lists whose elements can be.
pub fn comparable(x: &Type, y: &Type) -> bool {
    match (x, y) {
        (Type::Scalar(_), Type::Scalar(_)) => true,
        (Type::Tuple(a), Type::Tuple(b)) => a.iter().zip(b).all(|(p, q)| comparable(p, q)),
        (Type::List(a), Type::List(b)) => comparable(a, b),
        (a, b) => is_string(a) && is_string(b),
    }
}

/// Whether a value of type `v` can be stored into a list of `elem` (a number converts to the
/// element's number type, as Numba converts a call's arguments; anything else must match).
pub fn list_accepts(elem: &Type, v: &Type) -> bool {
    match (elem, v) {
        (Type::Scalar(_), Type::Scalar(_)) => true,
        (Type::Tuple(a), Type::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(p, q)| list_accepts(p, q)),
        (Type::Array(a), Type::Array(b)) => a.dtype == b.dtype && a.ndim == b.ndim,
        (Type::String, Type::Str(_)) => true,
        _ => elem == v,
    }
}

/// Checks that a key of type `t` can look up a dict whose keys are `k` (a number converts to
/// the key type, as Numba's typed dict casts it).
pub fn dict_key(k: &Type, t: &Type) -> Result<(), TypeError> {
    if *k == Type::Unknown
        || list_accepts(k, t)
            && !(k.scalar().is_some_and(|s| !s.is_float() && !s.is_complex())
                && t.scalar().is_some_and(|s| s.is_float() || s.is_complex()))
    {
        return Ok(());
    }
    Err(TypeError::new(format!("a dict with keys of {k} cannot be indexed by {t}"), format!("this is {t}"))
        .with_hint("Numba's typed dicts have one key type"))
}

/// The type of `d.get(k, default)` / `d.pop(k, default)`: the value type unified with the
/// default's.
fn dict_value_or(v: &Type, d: &Type) -> Result<Type, TypeError> {
    if *v == Type::Unknown {
        return Ok(d.clone());
    }
    unify(v, d)
        .ok_or_else(|| TypeError::new(format!("the default ({d}) does not have the dict's value type {v}"), "default"))
}

/// The types of [`DictOp`]s (a receiver dict first).
fn dict_op(op: DictOp, args: &[Type]) -> Result<Type, TypeError> {
    let unify_all = |ts: &mut dyn Iterator<Item = &Type>, what: &str| -> Result<Type, TypeError> {
        let mut acc = Type::Unknown;
        for t in ts {
            acc = unify(&acc, t).ok_or_else(|| {
                TypeError::new(format!("a dict's {what} must have one type, found {acc} and {t}"), "in this dict")
                    .with_hint("Numba's typed dicts have one key type and one value type")
            })?;
        }
        Ok(match acc {
            Type::Array(a) => Type::Array(ArrayType { layout: Layout::A, ..a }),
            t => t,
        })
    };
    if op == DictOp::New {
        return Ok(Type::Dict(Box::new(Type::Unknown), Box::new(Type::Unknown)));
    }
    if op == DictOp::Literal {
        let k = stored(unify_all(&mut args.iter().step_by(2), "keys")?);
        let v = stored(unify_all(&mut args.iter().skip(1).step_by(2), "values")?);
        check_dict_key_type(&k)?;
        return Ok(Type::Dict(Box::new(k), Box::new(v)));
    }
    if op == DictOp::IterSource {
        return Ok(match &args[0] {
            Type::Dict(k, _) | Type::Set(k) => Type::List(k.clone()),
            t => t.clone(),
        });
    }
    if let Some(t) = set_op(op, args)? {
        return Ok(t);
    }
    let Type::Dict(k, v) = &args[0] else {
        if matches!(args[0], Type::Set(_)) && op == DictOp::Update {
            let Type::Set(k) = &args[0] else { unreachable!("matched") };
            let e = match &args[1] {
                Type::Set(e) => Some((**e).clone()),
                t => iter_elem(t),
            }
            .ok_or_else(|| TypeError::new(format!("set.update() takes an iterable, found {}", args[1]), "here"))?;
            dict_key(k, &e)?;
            return Ok(Type::None);
        }
        return Err(TypeError::new(
            format!("`.{}()` is a dict method, but this is {}", dict_method_name(op), args[0]),
            "here",
        ));
    };
    Ok(match op {
        DictOp::Get => {
            dict_key(k, &args[1])?;
            match args.get(2) {
                Some(d) => dict_value_or(v, d)?,
                None => Type::Optional(v.clone()),
            }
        }
        DictOp::Keys => Type::List(k.clone()),
        DictOp::Values => Type::List(v.clone()),
        DictOp::Items => Type::List(Box::new(Type::Tuple(vec![(**k).clone(), (**v).clone()]))),
        DictOp::Setdefault => {
            dict_key(k, &args[1])?;
            dict_value_or(v, &args[2])?
        }
        DictOp::Update => match &args[1] {
            Type::Dict(k2, v2) => {
                dict_key(k, k2)?;
                dict_value_or(v, v2)?;
                Type::None
            }
            t => return Err(TypeError::new(format!("dict.update() takes a dict, found {t}"), "here")),
        },
        DictOp::New | DictOp::Literal | DictOp::IterSource => unreachable!("handled above"),
        _ => unreachable!("set operations are typed by set_op"),
    })
}

/// The types of the set [`DictOp`]s (`None` for the dict ones).
fn set_op(op: DictOp, args: &[Type]) -> Result<Option<Type>, TypeError> {
    Ok(Some(match op {
        DictOp::SetNew => Type::Set(Box::new(Type::Unknown)),
        DictOp::SetLiteral => {
            let mut e = Type::Unknown;
            for t in args {
                e = unify(&e, t).ok_or_else(|| {
                    TypeError::new(format!("a set's elements must have one type, found {e} and {t}"), "in this set")
                        .with_hint("Numba's sets are homogeneous")
                })?;
            }
            let e = stored(e);
            check_dict_key_type(&e)?;
            Type::Set(Box::new(e))
        }
        DictOp::SetAdd | DictOp::SetDiscard => {
            let Type::Set(k) = &args[0] else {
                return Err(TypeError::new(
                    format!("`.add()`/`.discard()` are set methods, but this is {}", args[0]),
                    "here",
                ));
            };
            dict_key(k, &args[1])?;
            check_dict_key_type(&args[1])?;
            Type::None
        }
        DictOp::SetUnion
        | DictOp::SetIntersection
        | DictOp::SetDifference
        | DictOp::SetSymmetricDifference
        | DictOp::SetDifferenceUpdate
        | DictOp::SetIntersectionUpdate
        | DictOp::SetSymmetricDifferenceUpdate
        | DictOp::SetIsSubset
        | DictOp::SetIsSuperset
        | DictOp::SetIsDisjoint => match (&args[0], &args[1]) {
            (Type::Set(a), Type::Set(b)) => {
                let e =
                    unify(a, b).ok_or_else(|| TypeError::new(format!("sets of {a} and {b} do not combine"), "here"))?;
                match op {
                    DictOp::SetDifferenceUpdate
                    | DictOp::SetIntersectionUpdate
                    | DictOp::SetSymmetricDifferenceUpdate => Type::None,
                    DictOp::SetIsSubset | DictOp::SetIsSuperset | DictOp::SetIsDisjoint => Type::BOOL,
                    _ => Type::Set(Box::new(e)),
                }
            }
            (a, b) => return Err(TypeError::new(format!("set operations take two sets, found {a} and {b}"), "here")),
        },
        _ => return Ok(None),
    }))
}

/// The method a [`DictOp`] is, for errors.
fn dict_method_name(op: DictOp) -> &'static str {
    match op {
        DictOp::Get => "get",
        DictOp::Keys => "keys",
        DictOp::Values => "values",
        DictOp::Items => "items",
        DictOp::Setdefault => "setdefault",
        DictOp::Update => "update",
        DictOp::New | DictOp::Literal | DictOp::IterSource => "dict",
        _ => "set method",
    }
}

/// Keys twinjit hashes: numbers, bools and tuples of them.
pub fn check_dict_key_type(k: &Type) -> Result<(), TypeError> {
    match k {
        Type::Unknown | Type::Scalar(_) | Type::String | Type::Str(_) => Ok(()),
        Type::Tuple(ts) => ts.iter().try_for_each(check_dict_key_type),
        t => Err(TypeError::new(format!("dict keys of {t} are not supported"), "key")
            .with_hint("twinjit's dicts take numbers, booleans, strings and tuples of them as keys")),
    }
}

/// The element type an iterable gives to `list.extend` (a list, a 1-D array, a tuple of one
/// type).
pub fn iter_elem(t: &Type) -> Option<Type> {
    match t {
        Type::List(e) => Some((**e).clone()),
        Type::Array(a) if a.ndim == 1 => Some(Type::Scalar(a.dtype)),
        Type::Tuple(ts) => uniform(ts).cloned(),
        _ => None,
    }
}

/// A number, a bool, or a tuple of them (nested): what `hash()` takes and a heap holds.
fn numbers_or_tuples(t: &Type) -> bool {
    match t {
        Type::Scalar(_) => true,
        Type::Tuple(ts) => ts.iter().all(numbers_or_tuples),
        _ => false,
    }
}

/// `heapq`'s functions: the heap is a list of elements that compare with `<` (Numba's rule;
/// `nlargest`/`nsmallest` take any iterable a list can be made of and return a list).
fn heap_op(b: Builtin, op: crate::builtins::HeapOp, args: &[Type]) -> Result<Type, TypeError> {
    use crate::builtins::HeapOp;
    let name = b.name();
    if matches!(op, HeapOp::NLargest | HeapOp::NSmallest) {
        if !args[0].scalar().is_some_and(|s| s.is_int()) {
            return Err(TypeError::new(format!("{name}() takes an integer count, found {}", args[0]), "argument 1"));
        }
        let e = match &args[1] {
            Type::List(e) => (**e).clone(),
            t => iter_elem(t).ok_or_else(|| {
                TypeError::new(format!("{name}() takes a list, 1-D array or tuple, found {t}"), "argument 2")
            })?,
        };
        if !comparable(&e, &e) {
            return Err(TypeError::new(format!("{name}() of elements that do not compare ({e})"), "argument 2"));
        }
        return Ok(Type::List(Box::new(e)));
    }
    let Type::List(elem) = &args[0] else {
        return Err(TypeError::new(format!("{name}() takes a list as the heap, found {}", args[0]), "argument 1")
            .with_hint("heapq works on lists; make one with a first element, e.g. heap = [(0.0, start)]"));
    };
    if !comparable(elem, elem) || !numbers_or_tuples(elem) {
        return Err(TypeError::new(format!("{name}() of a list of {elem} is not supported"), "argument 1")
            .with_hint("heap elements are numbers or tuples of numbers, which compare with `<`"));
    }
    if args.len() == 2 && !list_accepts(elem, &args[1]) {
        return Err(TypeError::new(
            format!("cannot push {} on a heap of {elem}", args[1]),
            format!("this is {}", args[1]),
        ));
    }
    Ok(match op {
        HeapOp::Push | HeapOp::Heapify => Type::None,
        _ => (**elem).clone(),
    })
}

fn list_op(b: Builtin, op: ListOp, args: &[Type]) -> Result<Type, TypeError> {
    if op == ListOp::New {
        return Ok(Type::List(Box::new(Type::Unknown)));
    }
    if op == ListOp::Literal {
        let mut e = args[0].clone();
        for t in &args[1..] {
            e = unify(&e, t).ok_or_else(|| {
                TypeError::new(format!("a list's elements must have one type, found {e} and {t}"), "in this list")
                    .with_hint("Numba's lists are homogeneous; use a tuple for mixed values")
            })?;
        }
        if e.array().is_some() {
            e = Type::Array(ArrayType { layout: Layout::A, ..e.array().expect("checked") });
        }
        return Ok(Type::List(Box::new(stored(e))));
    }
    if let Type::Dict(k, v) = &args[0] {
        return match op {
            // `d.pop(k)`, `d.pop(k, default)`
            ListOp::Pop if matches!(args.get(1), Some(t) if *t != Type::None) => {
                dict_key(k, &args[1])?;
                match args.get(2) {
                    Some(d) => dict_value_or(v, d),
                    None => Ok((**v).clone()),
                }
            }
            ListOp::Pop => {
                Err(TypeError::new("dict.pop() takes a key", "no key").with_hint("write d.pop(k) or d.pop(k, default)"))
            }
            ListOp::Clear => Ok(Type::None),
            ListOp::Del => {
                dict_key(k, &args[1])?;
                Ok(Type::None)
            }
            _ => Err(TypeError::new(
                format!("`.{}()` is a list method, but this is {}", b.name().trim_start_matches("list."), args[0]),
                "here",
            )),
        };
    }
    if let Type::Set(k) = &args[0] {
        return match op {
            ListOp::Pop if args.len() == 2 && args[1] == Type::None => Ok((**k).clone()),
            ListOp::Pop => Err(TypeError::new("set.pop() takes no argument", "here")),
            ListOp::Remove => {
                dict_key(k, &args[1])?;
                Ok(Type::None)
            }
            ListOp::Clear => Ok(Type::None),
            _ => Err(TypeError::new(
                format!("`.{}()` is a list method, but this is {}", b.name().trim_start_matches("list."), args[0]),
                "here",
            )),
        };
    }
    if op == ListOp::Pop && args.len() > 2 {
        return Err(TypeError::new("list.pop() takes at most one argument", "here"));
    }
    if let (ListOp::Sort, Type::Array(at)) = (op, &args[0]) {
        // `a.sort()` on an array: in place.
        if at.ndim != 1 {
            return Err(TypeError::new("sort() of a multi-dimensional array is not supported yet", "not a 1-D array"));
        }
        return Ok(Type::None);
    }
    let Type::List(elem) = &args[0] else {
        return Err(TypeError::new(
            format!("`{}` is a list method, but this is {}", b.name().trim_start_matches("list."), args[0]),
            format!("this is {}", args[0]),
        ));
    };
    let elem = (**elem).clone();
    let int = |k: usize| -> Result<(), TypeError> {
        match args[k].scalar() {
            Some(s) if !s.is_float() => Ok(()),
            _ => Err(TypeError::new(format!("list indices must be integers, found {}", args[k]), "here")),
        }
    };
    let accepts = |k: usize| -> Result<(), TypeError> {
        if list_accepts(&elem, &args[k]) {
            Ok(())
        } else {
            Err(TypeError::new(format!("cannot store {} in a list of {elem}", args[k]), format!("this is {}", args[k])))
        }
    };
    let compares = |k: usize| -> Result<(), TypeError> {
        if comparable(&elem, &args[k]) {
            Ok(())
        } else {
            Err(TypeError::new(format!("cannot compare {} with the elements of a list of {elem}", args[k]), "here"))
        }
    };
    Ok(match op {
        ListOp::New | ListOp::Literal => unreachable!("handled above"),
        ListOp::Append => {
            accepts(1)?;
            Type::None
        }
        ListOp::Extend => {
            let e = match &args[1] {
                Type::Set(e) => Some((**e).clone()),
                t => iter_elem(t),
            };
            let e = e.ok_or_else(|| {
                TypeError::new(format!("cannot extend a list with {}", args[1]), "not a list, 1-D array or tuple")
            })?;
            if !list_accepts(&elem, &e) {
                return Err(TypeError::new(format!("cannot extend a list of {elem} with elements of {e}"), "here"));
            }
            Type::None
        }
        ListOp::Pop => {
            if args[1] != Type::None {
                int(1)?;
            }
            elem
        }
        ListOp::Insert => {
            int(1)?;
            accepts(2)?;
            Type::None
        }
        ListOp::Remove => {
            compares(1)?;
            Type::None
        }
        ListOp::Index => {
            compares(1)?;
            for (k, t) in args.iter().enumerate().skip(2) {
                if *t != Type::None {
                    int(k)?;
                }
            }
            Type::I64
        }
        ListOp::Count => {
            if args.len() != 2 {
                return Err(TypeError::new(
                    format!("list.count() takes exactly one argument ({} given)", args.len() - 1),
                    "here",
                ));
            }
            compares(1)?;
            Type::I64
        }
        ListOp::Sort => {
            if !comparable(&elem, &elem) {
                return Err(TypeError::new(format!("cannot sort a list of {elem}"), "elements that do not compare"));
            }
            Type::None
        }
        ListOp::Reverse | ListOp::Clear => Type::None,
        ListOp::Del => {
            int(1)?;
            Type::None
        }
        ListOp::DelSlice => {
            for (k, t) in args.iter().enumerate().skip(1) {
                if *t != Type::None {
                    int(k)?;
                }
            }
            Type::None
        }
    })
}

fn view(b: Builtin, v: ViewOp, args: &[Type]) -> Result<Type, TypeError> {
    let at = array_of(&args[0], b.name())?;
    Ok(match v {
        // Numba keeps the layout; a different size needs a contiguous last axis at run time.
        ViewOp::Reinterpret => match args.get(1).and_then(Type::scalar) {
            Some(dtype) => Type::Array(ArrayType { dtype, ..at }),
            None => return Err(TypeError::new("view() takes a dtype, e.g. a.view(np.int64)", "here")),
        },
        ViewOp::Transpose => {
            if let Some(t) = args.get(1).filter(|t| **t != Type::None) {
                let ok = matches!(t, Type::Tuple(ts) if ts.len() == at.ndim as usize && ts.iter().all(|t| t.scalar().is_some_and(|s| s.is_int())));
                if !ok {
                    return Err(TypeError::new(
                        format!("transpose() takes a tuple of {} axes, found {t}", at.ndim),
                        "here",
                    ));
                }
            }
            Type::Array(ArrayType { layout: if at.ndim == 1 { at.layout } else { Layout::A }, ..at })
        }
        ViewOp::Reshape => c_array(at.dtype, shape_ndim(b, &args[1])?),
        ViewOp::Flip(f) => {
            let need = match f {
                crate::builtins::FlipAxes::All => 1,
                crate::builtins::FlipAxes::First => 1,
                crate::builtins::FlipAxes::Second => 2,
            };
            if at.ndim < need {
                return Err(TypeError::new(
                    format!("{}() needs an array of at least {need} dimensions", b.name()),
                    "here",
                ));
            }
            Type::Array(ArrayType { layout: Layout::A, ..at })
        }
        ViewOp::ExpandDims => {
            if !args[1].scalar().is_some_and(|s| s.is_int()) {
                return Err(TypeError::new(format!("axis must be an integer, found {}", args[1]), "axis"));
            }
            if let Err(why) = crate::types::check_ndim(at.ndim as usize + 1) {
                return Err(TypeError::new(format!("np.expand_dims() would give {why}"), "here"));
            }
            Type::Array(ArrayType { ndim: at.ndim + 1, layout: Layout::A, ..at })
        }
        ViewOp::BroadcastTo => Type::Array(ArrayType { ndim: shape_ndim(b, &args[1])?, layout: Layout::A, ..at }),
        ViewOp::SwapAxes | ViewOp::MoveAxis => {
            let axes = |t: &Type| match t {
                Type::Scalar(s) => s.is_int(),
                Type::Tuple(ts) => ts.iter().all(|t| t.scalar().is_some_and(|s| s.is_int())),
                _ => false,
            };
            for (k, t) in args[1..].iter().enumerate() {
                let ok = if v == ViewOp::SwapAxes { t.scalar().is_some_and(|s| s.is_int()) } else { axes(t) };
                if !ok {
                    return Err(TypeError::new(
                        format!("{}() takes integer axes, found {t}", b.name()),
                        format!("argument {}", k + 2),
                    ));
                }
            }
            Type::Array(ArrayType { layout: if at.ndim == 1 { at.layout } else { Layout::A }, ..at })
        }
        ViewOp::Ravel | ViewOp::Flatten | ViewOp::Flat => c_array(at.dtype, 1),
    })
}

/// The element types `min`/`max` compare: the arguments, or the elements of a single tuple.
fn iterable_items(b: Builtin, args: &[Type]) -> Result<Vec<Scalar>, TypeError> {
    let tuple_elems;
    let items: &[Type] = match args {
        [Type::List(e)] => {
            tuple_elems = vec![(**e).clone()];
            &tuple_elems
        }
        [Type::Tuple(ts)] => {
            tuple_elems = ts.clone();
            &tuple_elems
        }
        [t] => return Err(not_iterable(b, t)),
        _ => args,
    };
    tuple_scalars(b, items)
}

/// The element types of a non-empty tuple of numbers.
fn tuple_scalars(b: Builtin, ts: &[Type]) -> Result<Vec<Scalar>, TypeError> {
    if ts.is_empty() {
        return Err(TypeError::new(format!("{}() of an empty tuple", b.name()), "empty tuple")
            .with_hint("Numba refuses an empty sequence here"));
    }
    ts.iter()
        .map(|t| {
            t.scalar().ok_or_else(|| {
                TypeError::new(format!("{}() expects numbers, found {t}", b.name()), format!("an element is {t}"))
            })
        })
        .collect()
}

fn not_iterable(b: Builtin, t: &Type) -> TypeError {
    TypeError::new(format!("{}() of one {t}: expected a tuple", b.name()), format!("this is {t}"))
        .with_hint("pass a tuple, e.g. max((a, b, c)), or several numbers")
}

/// The element type of a non-empty tuple whose elements all have one type (Numba's UniTuple).
pub fn uniform(ts: &[Type]) -> Option<&Type> {
    let first = ts.first()?;
    ts.iter().all(|t| t == first).then_some(first)
}

/// The elements `t[lo:hi:step]` of an `n`-tuple, as Python's `slice.indices` picks them;
/// `None` for a zero step.
pub fn slice_indices(n: usize, lo: Option<i64>, hi: Option<i64>, step: Option<i64>) -> Option<Vec<usize>> {
    let n = n as i64;
    let step = step.unwrap_or(1);
    if step == 0 {
        return None;
    }
    let clamp = |v: i64, lo_b: i64, hi_b: i64| {
        let v = if v < 0 { v + n } else { v };
        v.clamp(lo_b, hi_b)
    };
    let (mut out, mut k) = (Vec::new(), 0);
    if step > 0 {
        let start = lo.map_or(0, |v| clamp(v, 0, n));
        let stop = hi.map_or(n, |v| clamp(v, 0, n));
        k = start;
        while k < stop {
            out.push(k as usize);
            k += step;
        }
    } else {
        let start = lo.map_or(n - 1, |v| clamp(v, -1, n - 1));
        let stop = hi.map_or(-1, |v| clamp(v, -1, n - 1));
        k += start;
        while k > stop {
            out.push(k as usize);
            k += step;
        }
    }
    Some(out)
}

/// The index of one element of `at` for `b` (an atomic, a cache-hinted load or store): an
/// integer for a 1-D array, a tuple of `ndim` integers otherwise.
fn element_index(b: Builtin, at: &ArrayType, index: &Type) -> Result<(), TypeError> {
    let idx: Vec<Type> = match index {
        Type::Tuple(ts) => ts.clone(),
        t => vec![t.clone()],
    };
    if idx.len() != at.ndim as usize || !idx.iter().all(|t| t.scalar().is_some_and(|s| s.is_int())) {
        return Err(TypeError::new(
            format!("{}() on a {}-D array needs {} integer index(es), found {index}", b.name(), at.ndim, at.ndim),
            "bad index",
        )
        .with_hint("index a 2-D array with a tuple of integers, e.g. (i, j)"));
    }
    Ok(())
}

/// `t` as an array, for an operation named `what`.
pub fn array_of(t: &Type, what: &str) -> Result<ArrayType, TypeError> {
    t.array().ok_or_else(|| TypeError::new(format!("{what} needs an array, found {t}"), format!("this is {t}")))
}

/// Axis `k` of an `ndim`-D array, negative counting from the end; `None` out of range.
pub fn norm_axis(k: i64, ndim: u8) -> Option<u8> {
    let n = ndim as i64;
    let kk = if k < 0 { k + n } else { k };
    (0..n).contains(&kk).then_some(kk as u8)
}

/// Element `k` of an `n`-tuple, negative counting from the end.
pub fn tuple_index(k: i64, n: usize) -> Result<usize, TypeError> {
    let n = n as i64;
    let kk = if k < 0 { k + n } else { k };
    if kk < 0 || kk >= n {
        return Err(TypeError::new(format!("tuple index {k} out of range for a {n}-tuple"), "here"));
    }
    Ok(kk as usize)
}

/// The type of `a[idx]` on array `at` (a single tuple index stands for its elements):
/// integers, slices, `None` (a new axis) and one `...`. One integer per dimension gives the
/// element; anything else a view, whose layout follows Numba's rule (a C array stays C when
/// integers lead and at most the innermost index is a slice without a step).
pub fn array_subscript(at: &ArrayType, idx: &[Type]) -> Result<Type, TypeError> {
    if let Some(t) = fancy_index(at, idx) {
        return t;
    }
    let idx: Vec<Type> = match idx {
        [Type::Tuple(ts)] => ts.clone(),
        _ => idx.to_vec(),
    };
    let mut ints = 0usize;
    let mut consumed = 0usize;
    let mut newaxes = 0usize;
    let mut ellipses = 0usize;
    for t in &idx {
        match t {
            Type::Scalar(s) if s.is_int() => {
                ints += 1;
                consumed += 1;
            }
            Type::Slice(SliceKind::Ellipsis) => ellipses += 1,
            Type::Slice(_) => consumed += 1,
            Type::None => newaxes += 1,
            t => {
                return Err(TypeError::new(
                    format!("array index must be an integer, a slice, None or ..., found {t}"),
                    "bad index",
                )
                .with_hint("convert with int(...)"))
            }
        }
    }
    if ellipses > 1 {
        return Err(TypeError::new("an index can only have a single ellipsis ('...')", "here"));
    }
    if consumed > at.ndim as usize {
        return Err(TypeError::new(
            format!("too many indices for array: array is {}-dimensional, but {consumed} were indexed", at.ndim),
            "too many indices",
        ));
    }
    if ints == at.ndim as usize && newaxes == 0 {
        return Ok(Type::Scalar(at.dtype));
    }
    let ndim = at.ndim as usize - ints + newaxes;
    if let Err(why) = crate::types::check_ndim(ndim) {
        return Err(TypeError::new(format!("this subscript gives {why}"), "here"));
    }
    // Numba's `keeps_contiguity` over the indices before any `...` (all of them when every
    // dimension is indexed).
    let mut layout = at.layout;
    if layout == Layout::C {
        let left: Vec<&Type> = if consumed == at.ndim as usize {
            idx.iter().filter(|t| !matches!(t, Type::Slice(SliceKind::Ellipsis))).collect()
        } else {
            let cut = idx.iter().position(|t| matches!(t, Type::Slice(SliceKind::Ellipsis))).unwrap_or(idx.len());
            if cut < idx.len() && idx[cut + 1..].iter().any(|t| *t != Type::None) {
                layout = Layout::A;
            }
            idx[..cut].iter().collect()
        };
        let keeps = |t: &Type, innermost: bool| match t {
            Type::Scalar(_) => true,
            Type::Slice(SliceKind::NoStep) => innermost,
            _ => false,
        };
        let n = left.len();
        if left.iter().enumerate().any(|(k, t)| !keeps(t, k + 1 == n)) {
            layout = Layout::A;
        }
    }
    Ok(Type::Array(ArrayType { dtype: at.dtype, ndim: ndim as u8, layout }))
}

/// Checks the index types of `a[idx]` on array `at`: one integer per dimension, a single tuple
/// index standing for its elements.
pub fn array_index(at: &ArrayType, idx: &[Type]) -> Result<(), TypeError> {
    let idx_types: Vec<Type> = match idx {
        [Type::Tuple(ts)] => ts.clone(),
        _ => idx.to_vec(),
    };
    if idx_types.len() != at.ndim as usize {
        return Err(TypeError::new(
            format!("a {}-D array needs {} indices, found {}", at.ndim, at.ndim, idx_types.len()),
            "wrong number of indices",
        )
        .with_hint("index every dimension (a[i, j]); slices and sub-array views are not supported yet"));
    }
    for t in &idx_types {
        if !t.scalar().is_some_and(|s| s.is_int()) {
            return Err(TypeError::new(format!("array index must be an integer, found {t}"), "bad index")
                .with_hint("convert with int(...)"));
        }
    }
    Ok(())
}

/// The cost of converting a value of type `from` to `to` when a call picks among the
/// signatures written in a decorator (Numba's overload resolution): 0 exact, 1 a promotion
/// (int32 → int64, float32 → float64, bool → int, a C array where any layout is declared),
/// 2 a safe conversion (int → float64), 3 an unsafe one (float64 → float32, float → int,
/// int64 → int32); `None` when it cannot convert (to bool, between arrays of other dtype or
/// dimension, array ↔ scalar).
pub fn conversion_cost(from: &Type, to: &Type) -> Option<u32> {
    use Scalar::*;
    match (from, to) {
        (Type::Scalar(f), Type::Scalar(t)) => Some(match (*f, *t) {
            (f, t) if f == t => 0,
            (Int32, Int64) | (Float32, Float64) | (Bool, Int32 | Int64) => 1,
            (Int32 | Int64 | Bool, Float64) | (Int32 | Bool, Float32) => 2,
            (_, Bool) => return None,
            // Numba converts no complex number to a real one.
            (f, t) if f.is_complex() && !t.is_complex() => return None,
            _ => 3,
        }),
        (Type::Array(f), Type::Array(t)) => {
            let layout_ok = f.layout == t.layout || t.layout == crate::types::Layout::A;
            (f.dtype == t.dtype && f.ndim == t.ndim && layout_ok).then_some(if f.layout == t.layout { 0 } else { 1 })
        }
        _ => None,
    }
}

/// The declared signature that arguments of types `args` convert to most cheaply (its index;
/// ties go to the first declared), or `None` when none fits.
pub fn pick_signature(declared: &[crate::types::Signature], args: &[Type]) -> Option<usize> {
    declared
        .iter()
        .enumerate()
        .filter(|(_, s)| s.args.len() == args.len())
        .filter_map(|(k, s)| {
            let costs: Option<Vec<u32>> = args.iter().zip(&s.args).map(|(a, t)| conversion_cost(a, t)).collect();
            costs.map(|c| (c.iter().sum::<u32>(), k))
        })
        .min()
        .map(|(_, k)| k)
}

/// Indexing that copies (NumPy's advanced indexing, as Numba has it): `a[mask]` with a bool
/// array of `a`'s dimensions (a 1-D array of the selected elements), and one integer array
/// (or a 1-D bool array) among integers, slices, `None` and `...`: `a[idx]`, `x[:, idx]`,
/// `x[idx, 0]`, `x[..., mask]`. The array's axis is replaced by the index's dimensions, the
/// other indices act as in a view; the result is a new C array. `None` when no index is an
/// array.
pub fn fancy_index(at: &ArrayType, idx: &[Type]) -> Option<Result<Type, TypeError>> {
    let items: &[Type] = match idx {
        [Type::Tuple(ts)] => ts,
        _ => idx,
    };
    let mut arrays = items.iter().enumerate().filter_map(|(k, t)| t.array().map(|a| (k, a)));
    let (k, it) = arrays.next()?;
    if arrays.next().is_some() {
        return Some(Err(TypeError::new("only one advanced index (array) is supported", "two array indices")
            .with_hint("index with one array at a time, e.g. a[i][:, j], as Numba requires")));
    }
    let out = |ndim: usize| {
        crate::types::check_ndim(ndim)
            .map_err(|why| TypeError::new(format!("this subscript gives {why}"), "here"))
            .map(|()| Type::Array(ArrayType { dtype: at.dtype, ndim: ndim as u8, layout: Layout::C }))
    };
    let adds = match it.dtype {
        // The whole-array mask.
        Scalar::Bool if matches!(idx, [Type::Array(_)]) && it.ndim == at.ndim => return Some(out(1)),
        Scalar::Bool if it.ndim == 1 => 1,
        Scalar::Bool if items.len() == 1 => {
            return Some(Err(TypeError::new(
                format!("a boolean index must be 1-D or have the array's {} dimensions, found {}", at.ndim, it.ndim),
                "boolean index",
            )))
        }
        Scalar::Bool => {
            return Some(Err(TypeError::new(
                format!("a boolean index among other indices must be 1-D, found {} dimensions", it.ndim),
                "boolean index",
            )))
        }
        s if s.is_int() => it.ndim as usize,
        s => {
            return Some(Err(TypeError::new(
                format!("arrays used as indices must be of integer or boolean type, found {}", s.name()),
                "bad index",
            )))
        }
    };
    // The other indices as a view, with the array's axis kept whole.
    let mut basic = items.to_vec();
    basic[k] = Type::Slice(SliceKind::NoStep);
    Some(match array_subscript(at, &basic) {
        Ok(Type::Array(v)) => out(v.ndim as usize - 1 + adds),
        Ok(_) => Err(TypeError::new("internal: an advanced index without its axis", "here")),
        Err(e) => Err(e),
    })
}

/// The dtype and dimension count of an operand of an array expression: an array's, or a
/// scalar's with no dimensions; `None` for anything else.
pub fn elementwise_operand(t: &Type) -> Option<(Scalar, u8)> {
    match t {
        Type::Scalar(s) => Some((*s, 0)),
        Type::Array(a) => Some((a.dtype, a.ndim)),
        _ => None,
    }
}

/// Whether an operation on these operand types is an array expression (some operand is an
/// array, and every operand is an array or a number).
pub fn is_elementwise(ts: &[Type]) -> bool {
    ts.iter().any(|t| matches!(t, Type::Array(_))) && ts.iter().all(|t| elementwise_operand(t).is_some())
}

/// The dtype of `a OP b` on array elements, as NumPy's ufunc loops give it (scalar operands
/// take part with their Numba types, int64 and float64, as Numba types array expressions:
/// an int32 array plus an integer is int64, a float32 array times a float is float64).
/// Integer and bool arithmetic keeps the narrower type (int32 + int32 is int32), unlike the
/// scalar rule.
pub fn elementwise_binary(op: BinaryOp, a: Scalar, b: Scalar) -> Result<Scalar, String> {
    let u = ufunc_unify(a, b);
    if u.is_complex() {
        return match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Pow => Ok(u),
            _ => Err(format!("unsupported operand types for {}: {} and {}", op.symbol(), a.name(), b.name())),
        };
    }
    let bools = a == Scalar::Bool && b == Scalar::Bool;
    Ok(match op {
        // `+` and `*` of bools are NumPy's logical or / and.
        BinaryOp::Add | BinaryOp::Mul => u,
        BinaryOp::Sub if bools => {
            return Err("numpy boolean subtract, the `-` operator, is not supported, use `^` or logical_xor".into())
        }
        BinaryOp::Sub | BinaryOp::FloorDiv | BinaryOp::Mod | BinaryOp::Pow if bools => Scalar::Int64,
        BinaryOp::Sub | BinaryOp::FloorDiv | BinaryOp::Mod | BinaryOp::Pow => u,
        BinaryOp::Div if u.is_float() => u,
        // The first true_divide loop the integers cast to safely: float32 up to 16 bits.
        BinaryOp::Div if u.is_int() && u.bits() <= 16 => Scalar::Float32,
        BinaryOp::Div => Scalar::Float64,
        BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor | BinaryOp::Shl | BinaryOp::Shr => {
            if u.is_float() || (bools && matches!(op, BinaryOp::Shl | BinaryOp::Shr)) {
                return Err(format!("unsupported operand types for {}: {} and {}", op.symbol(), a.name(), b.name()));
            }
            u
        }
    })
}

/// The common loop type of two ufunc inputs as Numba selects it: NumPy's safe casting,
/// except that with integer and float inputs mixed an integer casts to any float, so
/// float32 with int64 is float32 (`numpy_support.ufunc_can_cast`).
pub fn ufunc_unify(a: Scalar, b: Scalar) -> Scalar {
    match (a, b) {
        (i, f) | (f, i) if i.is_int() && f.is_inexact() => f,
        _ => unify_scalar(a, b),
    }
}

/// The dtype of `OP a` on array elements (`-` keeps the dtype, `~` of bools is logical not).
pub fn elementwise_unary(op: UnaryOp, a: Scalar) -> Result<Scalar, String> {
    match op {
        UnaryOp::Not => Err("the truth value of an array with more than one element is ambiguous".into()),
        UnaryOp::Neg if a == Scalar::Bool => {
            Err("the numpy boolean negative, the `-` operator, is not supported, use `~` instead".into())
        }
        UnaryOp::Invert if a.is_inexact() => Err(format!("bad operand type for unary ~: {}", a.name())),
        _ => Ok(a),
    }
}

/// The array type of an elementwise operation whose elements have `dtype`: C-contiguous, with
/// the most dimensions of its operands (NumPy broadcasting).
pub fn elementwise_result(dtype: Scalar, operands: &[Type]) -> Type {
    let ndim = operands.iter().filter_map(elementwise_operand).map(|(_, n)| n).max().unwrap_or(1).max(1);
    Type::Array(ArrayType { dtype, ndim, layout: Layout::C })
}

/// NumPy's `can_cast(from, to, 'safe')`: every value of `from` is exactly a value of `to`
/// (bool to anything, integers to wider integers of a signedness that holds them and to the
/// floats whose mantissa holds them, floats to wider floats and complex numbers).
pub fn safe_cast(from: Scalar, to: Scalar) -> bool {
    use Scalar::*;
    if from == to || from == Bool {
        return true;
    }
    let mantissa = |s: Scalar| match s {
        Float32 | Complex64 => 24,
        Float64 | Complex128 => 53,
        _ => 0,
    };
    match (from, to) {
        (_, Bool) => false,
        (f, t) if f.is_int() && t.is_int() => match (f.is_signed(), t.is_signed()) {
            (true, true) | (false, false) => t.bits() >= f.bits(),
            (false, true) => t.bits() > f.bits(),
            (true, false) => false,
        },
        // NumPy counts int64 and uint64 as safely cast to float64 (and 32-bit ones too).
        (f, t) if f.is_int() => t.is_inexact() && (f.bits() < mantissa(t) || mantissa(t) == 53),
        (Float32, Float64 | Complex64 | Complex128) | (Float64, Complex128) | (Complex64, Complex128) => true,
        _ => false,
    }
}

/// Numba's choice of a ufunc loop (`ufunc_find_matching_loop`): the first of `loops` (input
/// dtypes) that every input casts to safely, where integers cast to any float or complex loop
/// type when the inputs mix integers and inexact numbers. A *weak* input (a Python number
/// passed beside arrays to the ufunc itself, NumPy 2's NEP 50) fits any loop type of its kind
/// or a higher one: a Python int an int32 loop, a Python float a float32 one.
pub fn pick_ufunc_loop<'a>(
    loops: impl IntoIterator<Item = &'a [Scalar]>,
    inputs: &[Scalar],
    weak: &[bool],
) -> Option<usize> {
    let mixed = inputs.iter().any(|s| s.is_int()) && inputs.iter().any(|s| s.is_inexact());
    let kind = |s: Scalar| match s {
        Scalar::Bool => 0,
        s if s.is_int() => 1,
        s if s.is_float() => 2,
        _ => 3,
    };
    loops.into_iter().position(|l| {
        l.len() == inputs.len()
            && inputs.iter().zip(l).enumerate().all(|(k, (&f, &t))| {
                (weak.get(k) == Some(&true) && kind(f) <= kind(t) && t != Scalar::Bool)
                    || safe_cast(f, t)
                    || (mixed && f.is_int() && t.is_inexact())
            })
    })
}

/// Whether NumPy's `same_kind` casting lets an in-place operator store `from` into an array
/// of `to` (`a += 1.5` on an integer array is refused; int64 into int32 is allowed).
pub fn same_kind(from: Scalar, to: Scalar) -> bool {
    let kind = |s: Scalar| match s {
        Scalar::Bool => 0,
        s if s.is_unsigned() => 1,
        s if s.is_signed() => 2,
        s if s.is_complex() => 4,
        _ => 3,
    };
    kind(from) <= kind(to)
}

/// The types of the NumPy functions of [`ArrayMethod`] beyond the simple methods.
fn numpy_function(b: Builtin, m: ArrayMethod, args: &[Type]) -> Result<Type, TypeError> {
    let arr = |dtype, ndim| Type::Array(ArrayType { dtype, ndim, layout: Layout::C });
    let given = |k: usize| !matches!(args.get(k), None | Some(Type::None));
    let int_arg = |k: usize, what: &str| -> Result<(), TypeError> {
        match args.get(k) {
            Some(Type::Scalar(s)) if s.is_int() => Ok(()),
            None | Some(Type::None) => Ok(()),
            Some(t) => Err(TypeError::new(format!("{what} must be an integer, found {t}"), what.to_string())),
        }
    };
    // The arrays of a tuple argument (`np.concatenate((a, b))`): one dtype and dimension.
    let arrays = |k: usize| -> Result<(Scalar, u8, usize), TypeError> {
        let Type::Tuple(ts) = &args[k] else {
            return Err(TypeError::new(format!("{}() takes a tuple of arrays, found {}", b.name(), args[k]), "here"));
        };
        let mut dtype: Option<Scalar> = None;
        let mut ndim = None;
        for t in ts {
            let at = array_of(t, b.name())?;
            dtype = Some(dtype.map_or(at.dtype, |d| unify_scalar(d, at.dtype)));
            match ndim {
                Some(n) if n != at.ndim => {
                    return Err(TypeError::new(
                        "all the input arrays must have the same number of dimensions",
                        "arrays of different dimensions",
                    ))
                }
                _ => ndim = Some(at.ndim),
            }
        }
        match (dtype, ndim) {
            (Some(d), Some(n)) => Ok((d, n, ts.len())),
            _ => Err(TypeError::new("need at least one array to concatenate", "empty tuple")),
        }
    };
    Ok(match m {
        ArrayMethod::Diff => {
            let at = array_of(&args[0], b.name())?;
            int_arg(1, "n")?;
            if at.ndim > 2 {
                return Err(TypeError::new("np.diff() of a 3-D array is not supported yet", "here"));
            }
            arr(at.dtype, at.ndim)
        }
        ArrayMethod::Unique => arr(array_of(&args[0], b.name())?.dtype, 1),
        ArrayMethod::Searchsorted => {
            let at = array_of(&args[0], b.name())?;
            if at.ndim != 1 {
                return Err(TypeError::new("np.searchsorted() needs a 1-D sorted array", "here"));
            }
            match &args[1] {
                Type::Array(v) => arr(Scalar::Int64, v.ndim),
                Type::Scalar(_) => Type::I64,
                t => return Err(TypeError::new(format!("np.searchsorted() of {t} is not supported"), "here")),
            }
        }
        ArrayMethod::Concatenate => {
            int_arg(1, "axis")?;
            let (d, n, _) = arrays(0)?;
            arr(d, n)
        }
        ArrayMethod::Stack => {
            int_arg(1, "axis")?;
            let (d, n, _) = arrays(0)?;
            if let Err(why) = crate::types::check_ndim(n as usize + 1) {
                return Err(TypeError::new(format!("np.stack() would give {why}"), "here"));
            }
            arr(d, n + 1)
        }
        ArrayMethod::Hstack => {
            let (d, n, _) = arrays(0)?;
            arr(d, n)
        }
        ArrayMethod::Vstack | ArrayMethod::ColumnStack => {
            let (d, n, _) = arrays(0)?;
            if n > 2 {
                return Err(TypeError::new(format!("{}() of 3-D arrays is not supported", b.name()), "here"));
            }
            arr(d, 2)
        }
        ArrayMethod::Isclose | ArrayMethod::Allclose => {
            for k in 0..2 {
                if elementwise_operand(&args[k]).is_none() {
                    return Err(TypeError::new(
                        format!("{}() takes arrays or numbers, found {}", b.name(), args[k]),
                        "here",
                    ));
                }
            }
            if m == ArrayMethod::Allclose {
                Type::BOOL
            } else if is_elementwise(&args[..2]) {
                elementwise_result(Scalar::Bool, &args[..2])
            } else {
                Type::BOOL
            }
        }
        ArrayMethod::Interp => {
            array_of(&args[1], b.name())?;
            array_of(&args[2], b.name())?;
            match &args[0] {
                Type::Array(x) => arr(Scalar::Float64, x.ndim),
                Type::Scalar(_) => Type::F64,
                t => return Err(TypeError::new(format!("np.interp() of {t} is not supported"), "here")),
            }
        }
        ArrayMethod::Bincount => {
            let at = array_of(&args[0], b.name())?;
            if at.ndim != 1 || !at.dtype.is_int() {
                return Err(TypeError::new("np.bincount() takes a 1-D array of integers", "here"));
            }
            int_arg(2, "minlength")?;
            arr(if given(1) { Scalar::Float64 } else { Scalar::Int64 }, 1)
        }
        ArrayMethod::Average => {
            array_of(&args[0], b.name())?;
            if given(1) {
                array_of(&args[1], b.name())?;
            }
            Type::F64
        }
        ArrayMethod::ArrayEqual => {
            array_of(&args[0], b.name())?;
            array_of(&args[1], b.name())?;
            Type::BOOL
        }
        ArrayMethod::Digitize => {
            let bins = array_of(&args[1], b.name())?;
            if bins.ndim != 1 {
                return Err(TypeError::new("bins must be a 1-D array", "bins"));
            }
            match &args[0] {
                Type::Array(x) => arr(Scalar::Int64, x.ndim),
                Type::Scalar(_) => Type::I64,
                t => return Err(TypeError::new(format!("np.digitize() of {t} is not supported"), "here")),
            }
        }
        ArrayMethod::Take => {
            let at = array_of(&args[0], b.name())?;
            match &args[1] {
                Type::Scalar(s) if s.is_int() => Type::Scalar(at.dtype),
                Type::Array(i) if i.dtype.is_int() => arr(at.dtype, i.ndim),
                t => return Err(TypeError::new(format!("np.take() indices must be integers, found {t}"), "indices")),
            }
        }
        ArrayMethod::FillDiagonal => {
            let at = array_of(&args[0], b.name())?;
            if !matches!(args.get(2), None | Some(Type::None) | Some(Type::Scalar(Scalar::Bool))) {
                return Err(TypeError::new("wrap must be a bool", "wrap"));
            }
            if at.ndim != 2 || args[1].scalar().is_none() {
                return Err(TypeError::new("np.fill_diagonal() takes a 2-D array and a number", "here"));
            }
            Type::None
        }
        ArrayMethod::Triu | ArrayMethod::Tril => {
            let at = array_of(&args[0], b.name())?;
            int_arg(1, "k")?;
            if at.ndim != 2 {
                return Err(TypeError::new(format!("{}() takes a 2-D array", b.name()), "here"));
            }
            arr(at.dtype, 2)
        }
        ArrayMethod::Repeat => {
            let at = array_of(&args[0], b.name())?;
            if !args[1].scalar().is_some_and(|s| s.is_int()) {
                return Err(TypeError::new("np.repeat() takes an integer count of repeats", "repeats"));
            }
            arr(at.dtype, 1)
        }
        ArrayMethod::Roll => {
            let at = array_of(&args[0], b.name())?;
            if !args[1].scalar().is_some_and(|s| s.is_int()) {
                return Err(TypeError::new("np.roll() takes an integer shift", "shift"));
            }
            arr(at.dtype, at.ndim)
        }
        ArrayMethod::NanMedian => {
            array_of(&args[0], b.name())?;
            Type::F64
        }
        ArrayMethod::Argwhere => {
            array_of(&args[0], b.name())?;
            arr(Scalar::Int64, 2)
        }
        ArrayMethod::Histogram => {
            array_of(&args[0], b.name())?;
            match args.get(1) {
                None | Some(Type::None) => {}
                Some(Type::Scalar(s)) if s.is_int() => {}
                Some(Type::Array(a)) if a.ndim == 1 => {}
                Some(t) => {
                    return Err(TypeError::new(format!("bins must be an integer or a 1-D array, found {t}"), "bins"))
                }
            }
            match args.get(2) {
                None | Some(Type::None) => {}
                Some(Type::Tuple(ts)) if ts.len() == 2 && ts.iter().all(|t| t.scalar().is_some()) => {}
                Some(t) => return Err(TypeError::new(format!("range must be a (min, max) tuple, found {t}"), "range")),
            }
            Type::Tuple(vec![arr(Scalar::Int64, 1), arr(Scalar::Float64, 1)])
        }
        ArrayMethod::Percentile | ArrayMethod::Quantile | ArrayMethod::NanPercentile | ArrayMethod::NanQuantile => {
            array_of(&args[0], b.name())?;
            match &args[1] {
                Type::Array(q) if q.ndim == 1 => arr(Scalar::Float64, 1),
                Type::Scalar(_) => Type::F64,
                t => return Err(TypeError::new(format!("q must be a number or a 1-D array, found {t}"), "q")),
            }
        }
        _ => unreachable!("typed by the caller"),
    })
}

/// The type of an `np.random` function (see [`RandomOp`]).
fn random(b: Builtin, r: RandomOp, args: &[Type]) -> Result<Type, TypeError> {
    let arr = |dtype, ndim| Type::Array(ArrayType { dtype, ndim, layout: Layout::C });
    let number = |k: usize| -> Result<Scalar, TypeError> {
        match args.get(k) {
            Some(Type::Scalar(s)) => Ok(*s),
            Some(t) => Err(TypeError::new(
                format!("{}() expects a number, found {t}", b.name()),
                format!("argument {} is {t}", k + 1),
            )),
            None => Ok(Scalar::Float64),
        }
    };
    let optional_number = |k: usize| -> Result<(), TypeError> {
        if !matches!(args.get(k), None | Some(Type::None)) {
            number(k)?;
        }
        Ok(())
    };
    // A `size` argument: absent or None draws one number, else an array of that shape.
    let sized = |k: usize, s: Scalar| -> Result<Type, TypeError> {
        match args.get(k) {
            None | Some(Type::None) => Ok(Type::Scalar(s)),
            Some(t) => Ok(arr(s, shape_ndim(b, t)?)),
        }
    };
    Ok(match r {
        RandomOp::Seed => {
            if !number(0)?.is_int() {
                return Err(TypeError::new("np.random.seed() takes an integer", "seed"));
            }
            Type::None
        }
        RandomOp::Random => sized(0, Scalar::Float64)?,
        RandomOp::Rand | RandomOp::Randn => {
            let n = args.iter().take_while(|t| **t != Type::None).count();
            for k in 0..n {
                if !number(k)?.is_int() {
                    return Err(TypeError::new(format!("{}() takes integer dimensions", b.name()), "dimension"));
                }
            }
            if n == 0 {
                Type::F64
            } else {
                arr(Scalar::Float64, n as u8)
            }
        }
        RandomOp::Normal | RandomOp::Uniform => {
            optional_number(0)?;
            optional_number(1)?;
            sized(2, Scalar::Float64)?
        }
        RandomOp::Randint => {
            for k in 0..2 {
                if !matches!(args.get(k), None | Some(Type::None)) && !number(k)?.is_int() {
                    return Err(TypeError::new("np.random.randint() takes integer bounds", "bound"));
                }
            }
            sized(2, Scalar::Int64)?
        }
        RandomOp::Shuffle | RandomOp::PyShuffle => {
            let at = array_of(&args[0], b.name())?;
            if at.ndim != 1 {
                return Err(TypeError::new(
                    format!("{}() of a multi-dimensional array is not supported yet", b.name()),
                    "here",
                ));
            }
            Type::None
        }
        RandomOp::Permutation => match &args[0] {
            Type::Scalar(s) if s.is_int() => arr(Scalar::Int64, 1),
            Type::Array(at) if at.ndim == 1 => arr(at.dtype, 1),
            t => {
                return Err(TypeError::new(
                    format!("np.random.permutation() takes an integer or a 1-D array, found {t}"),
                    "here",
                ))
            }
        },
        RandomOp::Choice => {
            let s = match &args[0] {
                Type::Scalar(s) if s.is_int() => Scalar::Int64,
                Type::Array(at) if at.ndim == 1 => at.dtype,
                t => {
                    return Err(TypeError::new(
                        format!("np.random.choice() takes an integer or a 1-D array, found {t}"),
                        "here",
                    ))
                }
            };
            match args.get(2) {
                None | Some(Type::None | Type::Scalar(Scalar::Bool)) => {}
                Some(t) => return Err(TypeError::new(format!("replace must be a bool, found {t}"), "replace=")),
            }
            sized(1, s)?
        }
        RandomOp::PySeed | RandomOp::PyGetrandbits | RandomOp::PyRandint | RandomOp::PyRandrange => {
            for k in 0..args.len() {
                if !matches!(args[k], Type::None) && !number(k)?.is_int() {
                    return Err(TypeError::new(format!("{}() takes integers", b.name()), "not an integer"));
                }
            }
            match r {
                RandomOp::PySeed => Type::None,
                RandomOp::PyGetrandbits => Type::Scalar(Scalar::UInt64),
                _ => Type::I64,
            }
        }
        RandomOp::PyRandom
        | RandomOp::PyGauss
        | RandomOp::PyUniform
        | RandomOp::PyTriangular
        | RandomOp::PyGamma
        | RandomOp::PyBeta
        | RandomOp::PyExpo
        | RandomOp::PyLognorm
        | RandomOp::PyPareto
        | RandomOp::PyWeibull
        | RandomOp::PyVonmises => {
            for k in 0..args.len() {
                optional_number(k)?;
            }
            Type::F64
        }
    })
}

/// The type of a linear-algebra function (see [`Linalg`]).
fn linalg(b: Builtin, l: Linalg, args: &[Type]) -> Result<Type, TypeError> {
    let x = array_of(&args[0], b.name())?;
    let arr = |dtype, ndim| Type::Array(ArrayType { dtype, ndim, layout: Layout::C });
    let num = |s: Scalar| if s == Scalar::Bool { Scalar::Int64 } else { s };
    Ok(match l {
        Linalg::Dot | Linalg::Matmul | Linalg::Vdot | Linalg::Outer | Linalg::Cross => {
            let y = array_of(&args[1], b.name())?;
            let d = num(unify_scalar(x.dtype, y.dtype));
            match (l, x.ndim, y.ndim) {
                (Linalg::Vdot, _, _) => Type::Scalar(d),
                (Linalg::Outer, _, _) => arr(d, 2),
                (Linalg::Cross, 1, 1) => arr(d, 1),
                (Linalg::Cross, 2, 2) => arr(d, 2),
                (Linalg::Cross, _, _) => {
                    return Err(TypeError::new("np.cross() takes two 1-D or two 2-D arrays", "here"))
                }
                (_, 1, 1) => Type::Scalar(d),
                (_, 2, 1) | (_, 1, 2) => arr(d, 1),
                (_, 2, 2) => arr(d, 2),
                (_, m, n) => {
                    return Err(TypeError::new(
                        format!("{}() of {m}-D and {n}-D arrays is not supported", b.name()),
                        "only 1-D and 2-D arrays",
                    ))
                }
            }
        }
        Linalg::Trace if x.ndim == 2 => Type::Scalar(if x.dtype.is_float() { x.dtype } else { Scalar::Int64 }),
        Linalg::Trace => return Err(TypeError::new("np.trace() takes a 2-D array", "here")),
        Linalg::Diag if args.len() > 1 && !args[1].scalar().is_some_and(|s| s.is_int()) => {
            return Err(TypeError::new(format!("k must be an integer, found {}", args[1]), "k"))
        }
        Linalg::Diag if x.ndim == 1 => arr(x.dtype, 2),
        Linalg::Diag if x.ndim == 2 => arr(x.dtype, 1),
        Linalg::Diag => return Err(TypeError::new("np.diag() takes a 1-D or 2-D array", "here")),
        Linalg::Norm => {
            if let Some(t) = args.get(1) {
                if !matches!(t, Type::None | Type::Scalar(_)) {
                    return Err(TypeError::new(format!("ord must be a number, found {t}"), "ord"));
                }
            }
            if x.ndim > 2 {
                return Err(TypeError::new("np.linalg.norm() takes a 1-D or 2-D array", "here"));
            }
            Type::Scalar(if x.dtype == Scalar::Float32 { Scalar::Float32 } else { Scalar::Float64 })
        }
    })
}

/// `np.nonzero(a)`: one int64 index array per dimension.
fn nonzero_type(b: Builtin, t: &Type) -> Result<Type, TypeError> {
    let at = array_of(t, b.name())?;
    let idx = Type::Array(ArrayType { dtype: Scalar::Int64, ndim: 1, layout: Layout::C });
    Ok(Type::Tuple(vec![idx; at.ndim as usize]))
}

/// The type of a reduction (see [`Reduce`]), as Numba types it.
fn reduce(b: Builtin, r: Reduce, args: &[Type]) -> Result<Type, TypeError> {
    let at = array_of(&args[0], b.name())?;
    let d = at.dtype;
    // Sums and products of integers accumulate in 64 bits of the same signedness.
    let wide = |s: Scalar| s.widened();
    let s = match r {
        Reduce::Sum => {
            let acc = match args.get(2) {
                Some(Type::Scalar(s)) => *s,
                Some(Type::None) | None => wide(d),
                Some(t) => return Err(TypeError::new(format!("expected a dtype, found {t}"), "dtype=")),
            };
            return match args.get(1) {
                Some(Type::None) | None => Ok(Type::Scalar(acc)),
                Some(Type::Scalar(k)) if k.is_int() => Ok(if at.ndim == 1 {
                    Type::Scalar(acc)
                } else {
                    Type::Array(ArrayType { dtype: acc, ndim: at.ndim - 1, layout: Layout::C })
                }),
                Some(t) => Err(TypeError::new(format!("axis must be an integer, found {t}"), "axis=")),
            };
        }
        Reduce::Prod | Reduce::NanSum | Reduce::NanProd => wide(d),
        Reduce::CumSum | Reduce::CumProd => {
            let ndim = if matches!(args.get(1), None | Some(Type::None)) { 1 } else { at.ndim };
            return Ok(Type::Array(ArrayType { dtype: wide(d), ndim, layout: Layout::C }));
        }
        Reduce::ArgMin | Reduce::ArgMax if !matches!(args.get(1), None | Some(Type::None)) && at.ndim > 1 => {
            return Ok(Type::Array(ArrayType { dtype: Scalar::Int64, ndim: at.ndim - 1, layout: Layout::C }))
        }
        Reduce::Min | Reduce::Max | Reduce::NanMin | Reduce::NanMax => d,
        Reduce::Mean if d.is_inexact() => d,
        Reduce::Mean | Reduce::Var | Reduce::Std | Reduce::NanMean | Reduce::NanVar | Reduce::NanStd => Scalar::Float64,
        Reduce::ArgMin | Reduce::ArgMax => Scalar::Int64,
        Reduce::All | Reduce::Any => Scalar::Bool,
        Reduce::Ptp if d == Scalar::Bool => {
            return Err(TypeError::new("np.ptp() of a bool array is not supported (as in NumPy)", "bool array"))
        }
        Reduce::Ptp if d.is_float() => Scalar::Float64,
        Reduce::Ptp => Scalar::Int64,
    };
    Ok(Type::Scalar(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ArrayType, Layout};
    use Scalar::*;

    fn check(op: BinaryOp, a: Scalar, b: Scalar, expect: &str) {
        let got = match binary(op, a, b) {
            Ok(t) => format!("{} {} -> {}", t.lhs.name(), t.rhs.name(), t.result.name()),
            Err(e) => e,
        };
        assert_eq!(got, expect, "{a:?} {} {b:?}", op.symbol());
    }

    /// float16 rows, as numba-cuda 0.30.4 types them (`cuda.compile_ptx(f, (float16, t),
    /// device=True)` on `a + b`, `a / b` and `max(a, b)`, whose result type it returns; no GPU
    /// needed). Its simulator follows NumPy instead (float16 + an int literal stays float16).
    #[test]
    fn numba_cuda_float16_rules() {
        let order = [Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32, Float64];
        let add = "float16 float16 float32 float64 float64 float32 float64 float64 float64 float16 float32 float64";
        let max = "float16 float32 float64 float64 float16 float32 float64 float64 float16 float32 float64";
        for (k, t) in order.iter().enumerate() {
            let want = add.split(' ').nth(k).unwrap();
            for op in [BinaryOp::Add, BinaryOp::Div] {
                assert_eq!(binary(op, Float16, *t).unwrap().result.name(), want, "float16 {} {t:?}", op.symbol());
            }
        }
        // max(float16, bool) is a typing error in numba-cuda; the other columns unify.
        for (t, want) in order[1..].iter().zip(max.split(' ')) {
            assert_eq!(unify_scalar(Float16, *t).name(), want, "max(float16, {t:?})");
        }
        for op in [BinaryOp::Pow, BinaryOp::FloorDiv, BinaryOp::Mod] {
            assert_eq!(binary(op, Float16, Float16).unwrap().result, Float32, "{}", op.symbol());
        }
        assert_eq!(binary(BinaryOp::Pow, Float16, Int64).unwrap().result, Float32);
        // math.atan has no float16 loop (float32), math.sqrt has one.
        let f16 = [Type::Scalar(Float16)];
        assert_eq!(builtin(Builtin::Atan, &f16).unwrap(), Type::F32);
        assert_eq!(builtin(Builtin::Sqrt, &f16).unwrap(), Type::Scalar(Float16));
    }

    /// Rows of the table Numba 0.68 gives for `a + b` on NumPy scalars of these types (and
    /// `min(a, b)`, which unifies as `np.promote_types`).
    #[test]
    fn numba_integer_width_rules() {
        let order = [Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float32, Float64];
        let add = [
            "int64 int64 int64 int64 int64 int64 int64 int64 int64 float32 float64",
            "int64 int64 int64 int64 int64 int64 int64 int64 int64 float32 float64",
            "int64 int64 int64 int64 int64 int64 int64 int64 int64 float32 float64",
            "int64 int64 int64 int64 int64 int64 int64 int64 int64 float64 float64",
            "int64 int64 int64 int64 int64 int64 int64 int64 int64 float64 float64",
            "int64 int64 int64 int64 int64 uint64 uint64 uint64 uint64 float32 float64",
            "int64 int64 int64 int64 int64 uint64 uint64 uint64 uint64 float64 float64",
            "int64 int64 int64 int64 int64 uint64 uint64 uint64 uint64 float64 float64",
            "int64 int64 int64 int64 int64 uint64 uint64 uint64 uint64 float64 float64",
            "float32 float32 float32 float64 float64 float32 float64 float64 float64 float32 float64",
            "float64 float64 float64 float64 float64 float64 float64 float64 float64 float64 float64",
        ];
        let min = [
            "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64",
            "int8 int8 int16 int32 int64 int16 int32 int64 float64 float32 float64",
            "int16 int16 int16 int32 int64 int16 int32 int64 float64 float32 float64",
            "int32 int32 int32 int32 int64 int32 int32 int64 float64 float64 float64",
            "int64 int64 int64 int64 int64 int64 int64 int64 float64 float64 float64",
            "uint8 int16 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64",
            "uint16 int32 int32 int32 int64 uint16 uint16 uint32 uint64 float32 float64",
            "uint32 int64 int64 int64 int64 uint32 uint32 uint32 uint64 float64 float64",
            "uint64 float64 float64 float64 float64 uint64 uint64 uint64 uint64 float64 float64",
            "float32 float32 float32 float64 float64 float32 float32 float64 float64 float32 float64",
            "float64 float64 float64 float64 float64 float64 float64 float64 float64 float64 float64",
        ];
        for (i, a) in order.iter().enumerate() {
            for (j, b) in order.iter().enumerate() {
                let want = add[i].split(' ').nth(j).unwrap();
                if *a == Bool && *b == Bool {
                    continue; // bool + bool is int64 in Numba; bitwise ops keep bool
                }
                assert_eq!(binary(BinaryOp::Add, *a, *b).unwrap().result.name(), want, "{a:?} + {b:?}");
                assert_eq!(unify_scalar(*a, *b).name(), min[i].split(' ').nth(j).unwrap(), "min({a:?}, {b:?})");
            }
        }
        check(BinaryOp::Shl, UInt8, Int64, "uint64 uint64 -> uint64");
        check(BinaryOp::Shr, Int8, UInt64, "int64 int64 -> int64");
        assert_eq!(unary(UnaryOp::Neg, UInt8), Ok((UInt8, UInt64)));
        assert_eq!(unary(UnaryOp::Invert, Int16), Ok((Int16, Int64)));
        assert_eq!(compare(CmpOp::Lt, UInt64, Int64), Float64);
    }

    #[test]
    fn numba_arithmetic_rules() {
        check(BinaryOp::Add, Int32, Int32, "int64 int64 -> int64");
        check(BinaryOp::Add, Int64, Float32, "float64 float64 -> float64");
        check(BinaryOp::Mul, Float32, Float32, "float32 float32 -> float32");
        check(BinaryOp::Mul, Float32, Float64, "float64 float64 -> float64");
        check(BinaryOp::Div, Int64, Int64, "float64 float64 -> float64");
        check(BinaryOp::Div, Float32, Float32, "float32 float32 -> float32");
        check(BinaryOp::FloorDiv, Int64, Int64, "int64 int64 -> int64");
        check(BinaryOp::Pow, Int64, Int64, "int64 int64 -> int64");
        check(BinaryOp::Pow, Float32, Int32, "float32 int64 -> float32");
        check(BinaryOp::Pow, Int64, Float64, "float64 float64 -> float64");
        check(BinaryOp::Add, Bool, Bool, "int64 int64 -> int64");
        check(BinaryOp::BitAnd, Bool, Bool, "bool bool -> bool");
        check(BinaryOp::BitXor, Float64, Int64, "unsupported operand types for ^: float64 and int64");
    }

    #[test]
    fn unification() {
        assert_eq!(unify(&Type::I64, &Type::F64), Some(Type::F64));
        assert_eq!(unify(&Type::I32, &Type::I64), Some(Type::I64));
        assert_eq!(unify(&Type::F32, &Type::I32), Some(Type::F64));
        assert_eq!(unify(&Type::Unknown, &Type::F32), Some(Type::F32));
        let c = Type::Array(ArrayType { dtype: Float64, ndim: 1, layout: Layout::C });
        let a = Type::Array(ArrayType { dtype: Float64, ndim: 1, layout: Layout::A });
        // Arrays of different layouts meet at layout A (as Numba); other dtypes do not meet.
        assert_eq!(unify(&c, &a), Some(a.clone()));
        assert_eq!(unify(&a, &c), Some(a.clone()));
        let i = Type::Array(ArrayType { dtype: Int64, ndim: 1, layout: Layout::C });
        assert_eq!(unify(&c, &i), None);
        assert_eq!(unify(&c, &Type::F64), None);
        // None with a number is Numba's Optional; with an array it does not meet.
        let opt = Type::Optional(Box::new(Type::F64));
        assert_eq!(unify(&Type::None, &Type::F64), Some(opt.clone()));
        assert_eq!(unify(&opt, &Type::I64), Some(opt.clone()));
        assert_eq!(unify(&Type::None, &c), None);
    }

    /// `b(args...)` with argument types in signature spelling.
    fn check_builtin(b: Builtin, args: &[&str], expect: &str) {
        let ts: Vec<Type> = args.iter().map(|a| crate::types::parse_type(a).expect("type")).collect();
        let got = match builtin(b, &ts) {
            Ok(t) => t.to_string(),
            Err(e) => format!("{} ({})", e.message, e.label),
        };
        assert_eq!(got, expect, "{}({args:?})", b.name());
    }

    #[test]
    fn builtin_rules_by_typing_class() {
        check_builtin(Builtin::Sqrt, &["int64"], "float64");
        check_builtin(Builtin::Sqrt, &["float32"], "float32");
        check_builtin(Builtin::Floor, &["float32"], "int64");
        check_builtin(Builtin::IsNan, &["int32"], "bool");
        check_builtin(Builtin::Ldexp, &["float32", "int64"], "float32");
        check_builtin(
            Builtin::Ldexp,
            &["float64", "float64"],
            "math.ldexp() expects an integer, found float64 (argument 2 is float64)",
        );
        check_builtin(Builtin::Frexp, &["float32"], "(float32, int32)");
        check_builtin(Builtin::Gcd, &["int32", "int32"], "int32");
        check_builtin(Builtin::Gcd, &["int32", "int64"], "int64");
        check_builtin(Builtin::Abs, &["int32"], "int32");
        check_builtin(Builtin::Abs, &["uint8"], "uint8");
        check_builtin(Builtin::Abs, &["float32"], "float32");
        check_builtin(Builtin::Min, &["int32", "float32", "bool"], "float64");
        check_builtin(Builtin::Len, &["float64[:, :]"], "int64");
        check_builtin(Builtin::Len, &["float64"], "len needs an array, found float64 (this is float64)");
        check_builtin(Builtin::Shape, &["float64[:, :, :]"], "(int64, int64, int64)");
        check_builtin(
            Builtin::Sqrt,
            &["float64", "float64"],
            "math.sqrt() takes 1 argument but 2 were given (wrong number of arguments)",
        );
        check_builtin(Builtin::NpSqrt, &["bool"], "float32");
        check_builtin(Builtin::NpSqrt, &["int32"], "float64");
        check_builtin(Builtin::NpHypot, &["float32", "bool"], "float32");
        // Numba lets an integer cast to any float when integer and float inputs mix (checked
        // with numba 0.68: np.hypot(float32, int32) -> float32, as np.add).
        check_builtin(Builtin::NpHypot, &["float32", "int32"], "float32");
        check_builtin(Builtin::NpFloor, &["int32"], "int32");
        check_builtin(Builtin::NpFloor, &["bool"], "bool");
        check_builtin(Builtin::NpMinimum, &["bool", "bool"], "bool");
        check_builtin(Builtin::NpMinimum, &["int32", "float32"], "float32");
        check_builtin(Builtin::NpPower, &["int32", "int32"], "int32");
        check_builtin(Builtin::NpPower, &["bool", "bool"], "int64");
        check_builtin(Builtin::NpTrueDivide, &["int32", "int32"], "float64");
        check_builtin(Builtin::NpTrueDivide, &["float32", "bool"], "float32");
        check_builtin(Builtin::AtomicAdd, &["float32[:]", "int64", "float64"], "float32");
        check_builtin(
            Builtin::AtomicAdd,
            &["bool[:]", "int64", "bool"],
            "cuda.atomic.add() does not support arrays of bool (this array)",
        );
        check_builtin(
            Builtin::AtomicAdd,
            &["int32[:, :]", "int64", "int32"],
            "cuda.atomic.add() on a 2-D array needs 2 integer index(es), found int64 (bad index)",
        );
    }

    #[test]
    fn axes_and_indices() {
        assert_eq!(norm_axis(-1, 3), Some(2));
        assert_eq!(norm_axis(3, 3), None);
        assert_eq!(tuple_index(-2, 3), Ok(1));
        assert_eq!(tuple_index(3, 3).map_err(|e| e.message), Err("tuple index 3 out of range for a 3-tuple".into()));
        let at = ArrayType { dtype: Float64, ndim: 2, layout: Layout::C };
        assert_eq!(array_index(&at, &[Type::I64, Type::I32]), Ok(()));
        assert_eq!(array_index(&at, &[Type::Tuple(vec![Type::I64, Type::I32])]), Ok(()));
        let e = array_index(&at, &[Type::I64]).unwrap_err();
        assert_eq!(e.message, "a 2-D array needs 2 indices, found 1");
        let e = array_index(&at, &[Type::I64, Type::F64]).unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.hint),
            ("array index must be an integer, found float64", Some("convert with int(...)"))
        );
    }

    #[test]
    fn unary_rules() {
        assert_eq!(unary(UnaryOp::Invert, Bool), Ok((Bool, Bool)));
        assert_eq!(unary(UnaryOp::Neg, Int32), Ok((Int32, Int64)));
        assert_eq!(unary(UnaryOp::Neg, Bool), Ok((Int64, Int64)));
        assert_eq!(unary(UnaryOp::Neg, Float32), Ok((Float32, Float32)));
        assert!(unary(UnaryOp::Invert, Float64).is_err());
    }

    #[test]
    fn declared_signatures_are_picked_by_cheapest_conversion() {
        let sigs = |texts: &[&str]| -> Vec<crate::types::Signature> {
            texts.iter().map(|t| crate::types::parse_signature(t).unwrap()).collect()
        };
        let s = sigs(&["float64(int32, float32, float64)"]);
        assert_eq!(pick_signature(&s, &[Type::I64, Type::I64, Type::I64]), Some(0));
        let s = sigs(&["float32(float32)", "float64(float64)"]);
        assert_eq!(pick_signature(&s, &[Type::F64]), Some(1));
        assert_eq!(pick_signature(&s, &[Type::F32]), Some(0));
        assert_eq!(pick_signature(&s, &[Type::I64]), Some(1));
        assert_eq!(pick_signature(&sigs(&["int64(float64[:])"]), &[Type::F64]), None);
        assert_eq!(pick_signature(&sigs(&["int64(bool)"]), &[Type::I64]), None);
        let c = Type::Array(ArrayType { dtype: Float64, ndim: 1, layout: Layout::C });
        assert_eq!(pick_signature(&sigs(&["float64(float64[:])"]), &[c]), Some(0));
    }
}
