//! `numba.cuda.fp16`: numba-cuda's half-precision intrinsics (`cuda.fp16.hadd(a, b)`,
//! `from numba.cuda.fp16 import hsin`, also spelt with `cuda_fp16.h`'s leading `__`).
//!
//! Each converts its arguments to float16 first (numba-cuda types them `(f2, ...) -> f2`, so a
//! float32 argument is rounded) and is spelt as the IR the float16 type already has:
//! - `hadd hsub hmul hdiv hneg habs` and the comparisons `heq hne hlt hle hgt hge`: the float16
//!   operators (PTX `add.f16` ...; the interpreter rounds the float32 result once, which is the
//!   same number);
//! - `hsin hcos hlog hlog2 hlog10 hexp hexp2 hsqrt`: the `math` function on a float16, computed
//!   in float32 and rounded (`typing::HALF_MATH`);
//! - `hexp10 hrsqrt hceil hfloor htrunc hrint hmax hmin`: libdevice's float32 function
//!   (`exp10f`, `rsqrtf`, `ceilf`, ..., `fmaxf`), rounded: exact for the rounding functions
//!   and `hmax`/`hmin`, which return the non-NaN operand as `__hmax` does; `hrcp` is `1 / x`
//!   in float32, rounded;
//! - `hfma`: libdevice's `fma` in float64 (the float16 product is exact there), rounded to
//!   float16. PTX's `fma.rn.f16` rounds once; the two differ only when the float64 sum is itself
//!   a tie of float16, which needs about 30 bits of cancellation between the product and the
//!   addend.

use super::Lower;
use crate::env::math_function;
use ruff_python_ast::Expr;
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::{BinaryOp, Builtin, CmpOp, Const, InstKind, Scalar, UnaryOp, Value};

/// How an intrinsic computes.
#[derive(Clone, Copy)]
enum Half {
    /// A float16 operator.
    Binary(BinaryOp),
    /// `-x`.
    Neg,
    /// `abs(x)`.
    Abs,
    /// A comparison of two float16 values.
    Compare(CmpOp),
    /// `math.NAME` on a float16 (a float16 result).
    Math(&'static str),
    /// `libdevice.NAME` (which converts the arguments to its type), rounded.
    Libdevice(&'static str),
    /// `1 / x` in float32, rounded.
    Rcp,
}

/// numba-cuda's `cuda.fp16` intrinsics and their arity.
const INTRINSICS: &[(&str, usize, Half)] = &[
    ("hadd", 2, Half::Binary(BinaryOp::Add)),
    ("hsub", 2, Half::Binary(BinaryOp::Sub)),
    ("hmul", 2, Half::Binary(BinaryOp::Mul)),
    ("hdiv", 2, Half::Binary(BinaryOp::Div)),
    ("hneg", 1, Half::Neg),
    ("habs", 1, Half::Abs),
    ("hfma", 3, Half::Libdevice("fma")),
    ("heq", 2, Half::Compare(CmpOp::Eq)),
    ("hne", 2, Half::Compare(CmpOp::Ne)),
    ("hlt", 2, Half::Compare(CmpOp::Lt)),
    ("hle", 2, Half::Compare(CmpOp::Le)),
    ("hgt", 2, Half::Compare(CmpOp::Gt)),
    ("hge", 2, Half::Compare(CmpOp::Ge)),
    ("hsin", 1, Half::Math("sin")),
    ("hcos", 1, Half::Math("cos")),
    ("hlog", 1, Half::Math("log")),
    ("hlog2", 1, Half::Math("log2")),
    ("hlog10", 1, Half::Math("log10")),
    ("hexp", 1, Half::Math("exp")),
    ("hexp2", 1, Half::Math("exp2")),
    ("hsqrt", 1, Half::Math("sqrt")),
    ("hexp10", 1, Half::Libdevice("exp10f")),
    ("hrsqrt", 1, Half::Libdevice("rsqrtf")),
    ("hrcp", 1, Half::Rcp),
    ("hceil", 1, Half::Libdevice("ceilf")),
    ("hfloor", 1, Half::Libdevice("floorf")),
    ("htrunc", 1, Half::Libdevice("truncf")),
    ("hrint", 1, Half::Libdevice("rintf")),
    ("hmax", 2, Half::Libdevice("fmaxf")),
    ("hmin", 2, Half::Libdevice("fminf")),
];

fn find(name: &str) -> Option<(usize, Half)> {
    let base = name.strip_prefix("__").unwrap_or(name);
    INTRINSICS.iter().find(|(n, ..)| *n == base).map(|&(_, arity, h)| (arity, h))
}

/// Whether `name` is a `cuda.fp16` intrinsic twinjit provides.
pub(super) fn known(name: &str) -> bool {
    find(name).is_some()
}

impl Lower<'_> {
    /// `cuda.fp16.name(args)`.
    pub(super) fn fp16_call(&mut self, name: &str, args: &[Expr], span: Span) -> Value {
        let Some((arity, h)) = find(name) else {
            return self.fail(
                Diagnostic::error(format!("`cuda.fp16.{name}` is not supported"), span, "not supported").with_hint(
                    "twinjit has hadd hsub hmul hdiv hneg habs hfma, the comparisons heq hne hlt hle hgt hge, \
                     hmax hmin, and hsin hcos hlog hlog2 hlog10 hexp hexp2 hexp10 hsqrt hrsqrt hrcp hceil hfloor \
                     htrunc hrint",
                ),
            );
        };
        if args.len() != arity {
            let s = if arity == 1 { "" } else { "s" };
            return self.fail(Diagnostic::error(format!("cuda.fp16.{name}() takes {arity} argument{s}"), span, "here"));
        }
        let xs: Vec<Value> = args
            .iter()
            .map(|a| {
                let v = self.expr(a);
                self.emit(InstKind::Cast(Scalar::Float16, v), span)
            })
            .collect();
        let r = match h {
            Half::Binary(op) => self.emit(InstKind::Binary(op, xs[0], xs[1]), span),
            Half::Neg => self.emit(InstKind::Unary(UnaryOp::Neg, xs[0]), span),
            Half::Abs => self.emit(InstKind::Builtin(Builtin::Abs, xs), span),
            Half::Compare(op) => return self.emit(InstKind::Compare(op, xs[0], xs[1]), span),
            Half::Math(m) => match math_function(m) {
                Some(b) => self.emit(InstKind::Builtin(b, xs), span),
                None => return self.fail(Diagnostic::error(format!("internal: no math.{m}"), span, "here")),
            },
            Half::Libdevice(f) => self.libdevice_values(f, xs, span),
            Half::Rcp => {
                let x = self.emit(InstKind::Cast(Scalar::Float32, xs[0]), span);
                let k = self.konst(Const::Float(1.0), span);
                let one = self.emit(InstKind::Cast(Scalar::Float32, k), span);
                self.emit(InstKind::Binary(BinaryOp::Div, one, x), span)
            }
        };
        self.emit(InstKind::Cast(Scalar::Float16, r), span)
    }
}
