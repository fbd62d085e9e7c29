//! `numba.cuda.random`'s draws: `xoroshiro128p_uniform_float32(states, i)` and its float64
//! and normal forms, spelled out as the IR of numba-cuda's algorithm (xoroshiro128+ with the
//! rotations 55, 14 and 36; the top 53 bits scaled by 2**-53; Box-Muller from two float32
//! uniforms), so every target and the interpreter draw the very numbers numba-cuda draws.
//!
//! The states are what `create_xoroshiro128p_states(n, seed)` makes (`twinjit_ir::random`):
//! numba-cuda's record array of `(s0, s1)` pairs, which twinjit holds as the same bytes, a
//! C-contiguous `uint64` array of shape `(n, 2)`. A draw reads and advances `states[i]`.

use super::Lower;
use ruff_python_ast::Expr;
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::{BinaryOp, Builtin, Const, InstKind, Scalar, UnaryOp, Value};

/// The draws numba-cuda's `random` module offers to kernels.
pub(super) const DRAWS: &[&str] = &[
    "xoroshiro128p_next",
    "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64",
];

impl Lower<'_> {
    /// `name(states, index)` of [`DRAWS`].
    pub(super) fn cuda_random_call(&mut self, name: &str, args: &[Expr], span: Span) -> Value {
        let [states, index] = args else {
            return self.fail(Diagnostic::error(format!("`{name}` takes (states, index)"), span, "here"));
        };
        let states = self.expr(states);
        let index = self.expr(index);
        match name {
            "xoroshiro128p_next" => self.xoroshiro_next(states, index, span),
            "xoroshiro128p_uniform_float32" => self.uniform32(states, index, span),
            "xoroshiro128p_uniform_float64" => self.uniform64(states, index, span),
            "xoroshiro128p_normal_float32" | "xoroshiro128p_normal_float64" => {
                let wide = name.ends_with("64");
                // Both forms draw two float32 uniforms (as numba-cuda does).
                let u1 = self.uniform32(states, index, span);
                let u2 = self.uniform32(states, index, span);
                let (s, two_pi) = if wide {
                    (Scalar::Float64, std::f64::consts::TAU)
                } else {
                    // np.float32(2 * math.pi)
                    (Scalar::Float32, f64::from(std::f64::consts::TAU as f32))
                };
                let two = self.typed(Const::Float(2.0), s, span);
                let minus_two = self.emit(InstKind::Unary(UnaryOp::Neg, two), span);
                let log = self.emit(InstKind::Builtin(Builtin::Log, vec![u1]), span);
                let r2 = self.emit(InstKind::Binary(BinaryOp::Mul, minus_two, log), span);
                let r = self.emit(InstKind::Builtin(Builtin::Sqrt, vec![r2]), span);
                let tau = self.typed(Const::Float(two_pi), s, span);
                let angle = self.emit(InstKind::Binary(BinaryOp::Mul, tau, u2), span);
                let c = self.emit(InstKind::Builtin(Builtin::Cos, vec![angle]), span);
                self.emit(InstKind::Binary(BinaryOp::Mul, r, c), span)
            }
            _ => self.fail(Diagnostic::error(format!("`{name}` is not a numba.cuda.random draw"), span, "here")),
        }
    }

    fn typed(&mut self, c: Const, s: Scalar, span: Span) -> Value {
        let k = self.konst(c, span);
        self.emit(InstKind::Cast(s, k), span)
    }

    fn u64_const(&mut self, x: u64, span: Span) -> Value {
        self.typed(Const::Int(x as i64), Scalar::UInt64, span)
    }

    /// `(x << k) | (x >> (64 - k))` of a uint64.
    fn rotl(&mut self, x: Value, k: u64, span: Span) -> Value {
        let l = self.u64_const(k, span);
        let r = self.u64_const(64 - k, span);
        let hi = self.emit(InstKind::Binary(BinaryOp::Shl, x, l), span);
        let lo = self.emit(InstKind::Binary(BinaryOp::Shr, x, r), span);
        self.emit(InstKind::Binary(BinaryOp::BitOr, hi, lo), span)
    }

    /// The next uint64 of `states[index]`, advancing it.
    fn xoroshiro_next(&mut self, states: Value, index: Value, span: Span) -> Value {
        let zero = self.konst(Const::Int(0), span);
        let one = self.konst(Const::Int(1), span);
        let s0 = self.emit(InstKind::GetItem(states, vec![index, zero]), span);
        let s1 = self.emit(InstKind::GetItem(states, vec![index, one]), span);
        let result = self.emit(InstKind::Binary(BinaryOp::Add, s0, s1), span);
        let s1 = self.emit(InstKind::Binary(BinaryOp::BitXor, s1, s0), span);
        let r0 = self.rotl(s0, 55, span);
        let fourteen = self.u64_const(14, span);
        let sh = self.emit(InstKind::Binary(BinaryOp::Shl, s1, fourteen), span);
        let t = self.emit(InstKind::Binary(BinaryOp::BitXor, r0, s1), span);
        let new0 = self.emit(InstKind::Binary(BinaryOp::BitXor, t, sh), span);
        let new1 = self.rotl(s1, 36, span);
        self.emit(InstKind::SetItem(states, vec![index, zero], new0), span);
        self.emit(InstKind::SetItem(states, vec![index, one], new1), span);
        result
    }

    /// `(x >> 11) * 2**-53`: a float64 in [0, 1).
    fn uniform64(&mut self, states: Value, index: Value, span: Span) -> Value {
        let x = self.xoroshiro_next(states, index, span);
        let eleven = self.u64_const(11, span);
        let top = self.emit(InstKind::Binary(BinaryOp::Shr, x, eleven), span);
        let scale = self.konst(Const::Float(1.0 / (1u64 << 53) as f64), span);
        self.emit(InstKind::Binary(BinaryOp::Mul, top, scale), span)
    }

    fn uniform32(&mut self, states: Value, index: Value, span: Span) -> Value {
        let x = self.uniform64(states, index, span);
        self.emit(InstKind::Cast(Scalar::Float32, x), span)
    }
}
