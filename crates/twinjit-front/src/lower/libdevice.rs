//! `numba.cuda.libdevice`: the libdevice functions numba-cuda exposes to kernels
//! (`libdevice.sinf(x)`, `from numba.cuda.libdevice import rsqrt`), as the builtins that already
//! call the same `__nv_*` functions.
//!
//! numba-cuda types each function by its fixed libdevice signature: `NAME` takes and gives
//! float64, `NAMEf` float32, so an argument of another type is converted first (an int32 to
//! `sinf` becomes a float32). twinjit spells that as casts around the math builtin of the same
//! name, whose PTX lowering calls `__nv_NAME` / `__nv_NAMEf`: the same function on the GPU, and
//! the interpreter's (correctly rounded or libm) implementation as the oracle.
//!
//! Covered: the float functions of `math` and the rounding and min/max ufuncs (`floor`, `rint`,
//! `fmax`, ... give floats here, as libdevice does), `rsqrt` and `exp10` (as `1 / sqrt(x)` and
//! `10 ** x`: within an ulp of libdevice's), `fma`, the `fast_*f` forms (twinjit computes them
//! as the accurate function, more exact than numba-cuda's approximate instructions), and the
//! integer `popc/popcll`, `clz/clzll`, `ffs/ffsll`, `abs/llabs`, `sad/usad`; `sincos`, `frexp`
//! and `modf`, whose results libdevice writes through pointers, as the tuples numba-cuda
//! returns. The rest is a located error naming the function.

use super::Lower;
use crate::env::{math_function, numpy_function};
use ruff_python_ast::Expr;
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::{BinaryOp, Builtin, Const, InstKind, Scalar, Value};

/// How a float function is computed.
#[derive(Clone, Copy)]
enum Float {
    /// `math.NAME`.
    Math(&'static str),
    /// `np.NAME` (the scalar ufunc: a float result where `math` gives an int).
    Numpy(&'static str),
    /// `1 / sqrt(x)`.
    Rsqrt,
    /// `10 ** x`.
    Exp10,
    /// `cuda.fma(x, y, z)`.
    Fma,
    /// `(sin(x), cos(x))`: libdevice's `sincos` writes both through pointers, numba-cuda
    /// returns them as a tuple.
    SinCos,
    /// `math.frexp(x)`: `(mantissa, int32 exponent)`.
    Frexp,
    /// `math.modf(x)`: `(fraction, whole part)`.
    Modf,
}

/// libdevice's float functions (without the `f` of the float32 form) and their arity.
const FLOATS: &[(&str, usize, Float)] = &[
    ("acos", 1, Float::Math("acos")),
    ("acosh", 1, Float::Math("acosh")),
    ("asin", 1, Float::Math("asin")),
    ("asinh", 1, Float::Math("asinh")),
    ("atan", 1, Float::Math("atan")),
    ("atanh", 1, Float::Math("atanh")),
    ("atan2", 2, Float::Math("atan2")),
    ("cbrt", 1, Float::Numpy("cbrt")),
    ("ceil", 1, Float::Numpy("ceil")),
    ("copysign", 2, Float::Math("copysign")),
    ("cos", 1, Float::Math("cos")),
    ("cosh", 1, Float::Math("cosh")),
    ("erf", 1, Float::Math("erf")),
    ("erfc", 1, Float::Math("erfc")),
    ("exp", 1, Float::Math("exp")),
    ("exp10", 1, Float::Exp10),
    ("exp2", 1, Float::Math("exp2")),
    ("expm1", 1, Float::Math("expm1")),
    ("fabs", 1, Float::Math("fabs")),
    ("floor", 1, Float::Numpy("floor")),
    ("fma", 3, Float::Fma),
    ("fmax", 2, Float::Numpy("fmax")),
    ("fmin", 2, Float::Numpy("fmin")),
    ("frexp", 1, Float::Frexp),
    ("hypot", 2, Float::Math("hypot")),
    ("lgamma", 1, Float::Math("lgamma")),
    ("log", 1, Float::Math("log")),
    ("log10", 1, Float::Math("log10")),
    ("log1p", 1, Float::Math("log1p")),
    ("log2", 1, Float::Math("log2")),
    ("modf", 1, Float::Modf),
    ("nextafter", 2, Float::Math("nextafter")),
    ("pow", 2, Float::Math("pow")),
    ("remainder", 2, Float::Math("remainder")),
    ("rint", 1, Float::Numpy("rint")),
    ("rsqrt", 1, Float::Rsqrt),
    ("sin", 1, Float::Math("sin")),
    ("sincos", 1, Float::SinCos),
    ("sinh", 1, Float::Math("sinh")),
    ("sqrt", 1, Float::Math("sqrt")),
    ("tan", 1, Float::Math("tan")),
    ("tanh", 1, Float::Math("tanh")),
    ("tgamma", 1, Float::Math("gamma")),
    ("trunc", 1, Float::Numpy("trunc")),
];

/// The `fast_*f` functions (float32 only).
const FAST: &[&str] = &["cosf", "exp10f", "expf", "log10f", "log2f", "logf", "powf", "sinf", "tanf"];

/// libdevice's integer functions: name, argument type, builtin; each gives an int32.
const INTS: &[(&str, Scalar, Builtin)] = &[
    ("abs", Scalar::Int32, Builtin::Abs),
    ("llabs", Scalar::Int64, Builtin::Abs),
    ("popc", Scalar::Int32, Builtin::Popc),
    ("popcll", Scalar::Int64, Builtin::Popc),
    ("clz", Scalar::Int32, Builtin::Clz),
    ("clzll", Scalar::Int64, Builtin::Clz),
    ("ffs", Scalar::Int32, Builtin::Ffs),
    ("ffsll", Scalar::Int64, Builtin::Ffs),
];

/// Whether `name` is a libdevice function twinjit provides.
pub(super) fn known(name: &str) -> bool {
    float_function(name).is_some() || INTS.iter().any(|(n, ..)| *n == name) || matches!(name, "sad" | "usad")
}

/// The float function `name` names: its entry and whether it is the float32 form.
fn float_function(name: &str) -> Option<((usize, Float), Scalar)> {
    let find = |base: &str| FLOATS.iter().find(|(n, ..)| *n == base).map(|&(_, arity, f)| (arity, f));
    if let Some(fast) = name.strip_prefix("fast_") {
        if !FAST.contains(&fast) {
            return None;
        }
        return find(&fast[..fast.len() - 1]).map(|e| (e, Scalar::Float32));
    }
    if let Some(e) = find(name) {
        return Some((e, Scalar::Float64));
    }
    name.strip_suffix('f').and_then(find).map(|e| (e, Scalar::Float32))
}

impl Lower<'_> {
    /// `libdevice.name(args)`.
    pub(super) fn libdevice_call(&mut self, name: &str, args: &[Expr], span: Span) -> Value {
        let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        self.libdevice_values(name, vals, span)
    }

    /// `libdevice.name` of the values `vals`, each converted to the function's argument type
    /// first (also what `cuda.fp16`'s float32 forms compute: `fp16.rs`).
    pub(super) fn libdevice_values(&mut self, name: &str, vals: Vec<Value>, span: Span) -> Value {
        if let Some(&(_, s, b)) = INTS.iter().find(|(n, ..)| *n == name) {
            let [v] = vals[..] else {
                return self.fail(Diagnostic::error(format!("libdevice.{name}() takes 1 argument"), span, "here"));
            };
            let x = self.emit(InstKind::Cast(s, v), span);
            let r = self.emit(InstKind::Builtin(b, vec![x]), span);
            return self.emit(InstKind::Cast(Scalar::Int32, r), span);
        }
        if let ("sad" | "usad", [x, y, z]) = (name, &vals[..]) {
            // `|x - y| + z` of int32 (`usad`: uint32) operands and a uint32 `z`, as a uint32.
            let t = if name == "sad" { Scalar::Int32 } else { Scalar::UInt32 };
            let wide = |me: &mut Self, v: Value, s: Scalar| {
                let v = me.emit(InstKind::Cast(s, v), span);
                me.emit(InstKind::Cast(Scalar::Int64, v), span)
            };
            let (x, y, z) = (wide(self, *x, t), wide(self, *y, t), wide(self, *z, Scalar::UInt32));
            let d = self.emit(InstKind::Binary(BinaryOp::Sub, x, y), span);
            let a = self.emit(InstKind::Builtin(Builtin::Abs, vec![d]), span);
            let r = self.emit(InstKind::Binary(BinaryOp::Add, a, z), span);
            return self.emit(InstKind::Cast(Scalar::UInt32, r), span);
        }
        let Some(((arity, f), s)) = float_function(name) else {
            return self.fail(
                Diagnostic::error(format!("`libdevice.{name}` is not supported"), span, "not supported").with_hint(
                    "twinjit has libdevice's math functions (sin, sinf, rsqrt, exp10f, fast_expf, fmaf, sincos, \
                     frexp, modf, ...) and popc, clz, ffs, abs, sad",
                ),
            );
        };
        if vals.len() != arity {
            let s = if arity == 1 { "" } else { "s" };
            return self.fail(Diagnostic::error(format!("libdevice.{name}() takes {arity} argument{s}"), span, "here"));
        }
        let xs: Vec<Value> = vals.into_iter().map(|v| self.emit(InstKind::Cast(s, v), span)).collect();
        let r = match f {
            Float::Math(m) => match math_function(m) {
                Some(b) => self.emit(InstKind::Builtin(b, xs), span),
                None => return self.fail(Diagnostic::error(format!("internal: no math.{m}"), span, "here")),
            },
            Float::Numpy(m) => match numpy_function(m) {
                Some(b) => self.emit(InstKind::Builtin(b, xs), span),
                None => return self.fail(Diagnostic::error(format!("internal: no np.{m}"), span, "here")),
            },
            Float::Rsqrt => {
                let k = self.konst(Const::Float(1.0), span);
                let one = self.emit(InstKind::Cast(s, k), span);
                let root = self.emit(InstKind::Builtin(Builtin::Sqrt, xs), span);
                self.emit(InstKind::Binary(BinaryOp::Div, one, root), span)
            }
            Float::Exp10 => {
                let k = self.konst(Const::Float(10.0), span);
                let ten = self.emit(InstKind::Cast(s, k), span);
                self.emit(InstKind::Binary(BinaryOp::Pow, ten, xs[0]), span)
            }
            Float::Fma => self.emit(InstKind::Builtin(Builtin::Fma, xs), span),
            // Tuples: each part already has its type.
            Float::SinCos => {
                let sn = self.emit(InstKind::Builtin(Builtin::Sin, xs.clone()), span);
                let cs = self.emit(InstKind::Builtin(Builtin::Cos, xs), span);
                return self.emit(InstKind::MakeTuple(vec![sn, cs]), span);
            }
            Float::Frexp => return self.emit(InstKind::Builtin(Builtin::Frexp, xs), span),
            Float::Modf => return self.emit(InstKind::Builtin(Builtin::Modf, xs), span),
        };
        self.emit(InstKind::Cast(s, r), span)
    }
}
