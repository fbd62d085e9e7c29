//! The rewrite of array values: constructors (`np.empty` … `np.array`, `a.copy()`), views
//! (subscripts with slices, `None` and `...`, `a.T`, `reshape`, `ravel`), copies (`flatten`)
//! and slice assignment (`a[1:n] = x`, `a[:] = 0.0`).
//!
//! Everything becomes the three array primitives backends know (`newarray`, `view`, and
//! `load`/`store` at element offsets) plus ordinary IR: loops over the elements (built here,
//! splitting the source block: code after a loop continues in its exit block, see
//! `Rewriter::cur`), and checks that end in a `raise` block with NumPy's message. So the
//! interpreter and every backend get constructors and views for free, and the element loops
//! are visible to the passes (bounds checks on their offsets are never needed: the loops run
//! over the arrays' own dimensions).

use super::*;
use crate::builtins::{Alloc, ViewOp};
use crate::exception::{Exception, ExceptionArg};
use crate::types::{ArrayType, Layout, SliceKind};

/// One index of a subscript, after classification.
pub(super) enum Index {
    /// An integer (int64): the dimension is dropped.
    Int(Value),
    /// `lo:hi:step`, each an int64 or absent.
    Slice(Option<Value>, Option<Value>, Option<Value>),
    /// `None` / `np.newaxis`: a new dimension of length 1.
    NewAxis,
    /// `...`: as many full slices as the other indices leave.
    Ellipsis,
    /// An array (advanced indexing, `fancy.rs`): its axis is kept whole by the view.
    Array(Value),
}

type Body<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, &[Value]) -> Result<(), Diagnostic> + 'b;

impl<'r> Rewriter<'r> {
    pub(super) fn int(&mut self, b: Block, k: i64, span: Span) -> Value {
        self.push(b, InstKind::Const(Const::Int(k)), Type::I64, span)
    }

    /// `1` (or `True`) of dtype `s`.
    fn one_of(&mut self, b: Block, s: Scalar, span: Span) -> Value {
        if s.is_complex() {
            let (one, zero) = (self.konst_of(b, s.component(), 1.0, span), self.konst_of(b, s.component(), 0.0, span));
            return self.cmake(b, s, one, zero, span);
        }
        let c = if s == Scalar::Bool { Const::Bool(true) } else { Const::Int(1) };
        self.push(b, InstKind::Const(c), Type::Scalar(s), span)
    }

    /// Raises `class(message)` (`class()` for an empty message) when `cond` holds; code after
    /// goes into a new block.
    pub(super) fn raise_if(&mut self, b: Block, cond: Value, class: &str, message: &str, span: Span) {
        let args = if message.is_empty() { vec![] } else { vec![ExceptionArg::Str(message.into())] };
        self.raise_if_args(b, cond, class, args, span);
    }

    /// Raises `class(*args)` when `cond` holds; code after goes into a new block.
    pub(super) fn raise_if_args(
        &mut self,
        b: Block,
        cond: Value,
        class: &str,
        args: Vec<ExceptionArg<Value>>,
        span: Span,
    ) {
        let at = self.cur[b.index()];
        let raise = self.g.add_block();
        let cont = self.g.add_block();
        let to = |block| BlockCall { block, args: vec![] };
        self.g.terminate(at, Terminator::Branch(cond, to(raise), to(cont)), span);
        let exc = Exception { class: class.into(), args };
        self.g.terminate(raise, Terminator::Raise(Box::new(exc)), span);
        self.cur[b.index()] = cont;
    }

    /// A message naming two shapes: `template` with `{src}` and `{dst}` replaced by the
    /// Python reprs of the run-time shapes `src` and `dst` (`(2,)`, `(4, 3)`); constant text
    /// when it names neither.
    pub(super) fn shape_message(&self, template: &str, src: &[Value], dst: &[Value]) -> Vec<ExceptionArg<Value>> {
        // A constant dimension is text; the others are runtime arguments, as many as a raise
        // carries (arrays of many dimensions print `?` for the ones past that).
        let mut budget = crate::exception::MAX_RUNTIME_ARGS;
        let mut pieces: Vec<ExceptionArg<Value>> = Vec::new();
        let mut text = String::new();
        let mut rest = template;
        while let Some(at) = rest.find('{') {
            let (before, tail) = rest.split_at(at);
            text.push_str(before);
            let (dims, skip) = if tail.starts_with("{src}") {
                (src, 5)
            } else if tail.starts_with("{dst}") {
                (dst, 5)
            } else {
                text.push('{');
                rest = &tail[1..];
                continue;
            };
            text.push('(');
            for (k, &d) in dims.iter().enumerate() {
                if k > 0 {
                    text.push_str(", ");
                }
                if let Some(n) = self.g.const_int(d) {
                    text.push_str(&n.to_string());
                } else if budget > 0 {
                    budget -= 1;
                    pieces.push(ExceptionArg::Str(std::mem::take(&mut text)));
                    pieces.push(ExceptionArg::Runtime(d));
                } else {
                    text.push('?');
                }
            }
            text.push_str(if dims.len() == 1 { ",)" } else { ")" });
            rest = &tail[skip..];
        }
        text.push_str(rest);
        if pieces.is_empty() {
            return vec![ExceptionArg::Str(text)];
        }
        if !text.is_empty() {
            pieces.push(ExceptionArg::Str(text));
        }
        vec![ExceptionArg::Format(pieces)]
    }

    /// `for i in range(n): body(i)` as IR; code after it goes into the loop's exit block.
    fn counted_loop(&mut self, b: Block, n: Value, span: Span, body: &mut Body<'_, 'r>) -> Result<(), Diagnostic> {
        let zero = self.int(b, 0, span);
        let pre = self.cur[b.index()];
        let header = self.g.add_block();
        let i = self.g.add_block_param(header, Type::I64);
        let inner = self.g.add_block();
        let exit = self.g.add_block();
        self.g.terminate(pre, Terminator::Jump(BlockCall { block: header, args: vec![zero] }), span);
        self.cur[b.index()] = header;
        let more = self.emit_compare(b, span, CmpOp::Lt, i, n);
        let to = |block| BlockCall { block, args: vec![] };
        self.g.terminate(header, Terminator::Branch(more, to(inner), to(exit)), span);
        self.cur[b.index()] = inner;
        body(self, &[i])?;
        let one = self.int(b, 1, span);
        let next = self.emit_binary(b, span, BinaryOp::Add, i, one);
        let latch = self.cur[b.index()];
        self.g.terminate(latch, Terminator::Jump(BlockCall { block: header, args: vec![next] }), span);
        self.cur[b.index()] = exit;
        Ok(())
    }

    /// Nested loops over `dims` (outermost first), calling `body` with the indices.
    pub(super) fn loop_nest(
        &mut self,
        b: Block,
        dims: &[Value],
        span: Span,
        body: &mut Body<'_, 'r>,
    ) -> Result<(), Diagnostic> {
        fn go<'r>(
            rw: &mut Rewriter<'r>,
            b: Block,
            dims: &[Value],
            idx: &mut Vec<Value>,
            span: Span,
            body: &mut Body<'_, 'r>,
        ) -> Result<(), Diagnostic> {
            if idx.len() == dims.len() {
                return body(rw, idx);
            }
            let n = dims[idx.len()];
            rw.counted_loop(b, n, span, &mut |rw, i| {
                idx.push(i[0]);
                let r = go(rw, b, dims, idx, span, body);
                idx.pop();
                r
            })
        }
        go(self, b, dims, &mut Vec::new(), span, body)
    }

    /// `dim a, k` for every axis of array `a`.
    pub(super) fn dims(&mut self, b: Block, a: Value, span: Span) -> Vec<Value> {
        let n = self.ty(a).array().expect("an array").ndim;
        (0..n).map(|k| self.push(b, InstKind::Dim(a, k as i64), Type::I64, span)).collect()
    }

    /// `stride a, k` for every axis of array `a`.
    pub(super) fn strides(&mut self, b: Block, a: Value, span: Span) -> Vec<Value> {
        let n = self.ty(a).array().expect("an array").ndim;
        (0..n).map(|k| self.push(b, InstKind::Stride(a, k), Type::I64, span)).collect()
    }

    /// `Σ idx[k] * strides[k]`.
    pub(super) fn offset(&mut self, b: Block, strides: &[Value], idx: &[Value], span: Span) -> Value {
        let mut acc: Option<Value> = None;
        for (&s, &i) in strides.iter().zip(idx) {
            let p = self.emit_binary(b, span, BinaryOp::Mul, i, s);
            acc = Some(match acc {
                Some(a) => self.emit_binary(b, span, BinaryOp::Add, a, p),
                None => p,
            });
        }
        acc.unwrap_or_else(|| self.int(b, 0, span))
    }

    pub(super) fn product(&mut self, b: Block, xs: &[Value], span: Span) -> Value {
        let mut acc = self.int(b, 1, span);
        for &x in xs {
            acc = self.emit_binary(b, span, BinaryOp::Mul, acc, x);
        }
        acc
    }

    /// The dimensions a shape argument gives (an integer, or a tuple of integers), as int64.
    pub(super) fn shape_values(&mut self, b: Block, shape: Value, span: Span) -> Result<Vec<Value>, Diagnostic> {
        let parts = match self.ty(shape) {
            Type::Tuple(_) => self.elements(b, shape, span),
            _ => vec![shape],
        };
        parts.into_iter().map(|d| self.coerce(b, d, &Type::I64, span)).collect()
    }

    /// A new C-contiguous array of dimensions the program gave, after NumPy's checks of them
    /// (none negative; the byte size fits an intp).
    pub(super) fn new_array(&mut self, b: Block, dtype: Scalar, dims: Vec<Value>, zeroed: bool, span: Span) -> Value {
        let zero = self.int(b, 0, span);
        let mut neg: Option<Value> = None;
        for &d in &dims {
            let n = self.emit_compare(b, span, CmpOp::Lt, d, zero);
            neg = Some(match neg {
                Some(x) => self.emit_binary(b, span, BinaryOp::BitOr, x, n),
                None => n,
            });
        }
        if let Some(neg) = neg {
            self.raise_if(b, neg, "ValueError", "negative dimensions not allowed", span);
        }
        if !dims.is_empty() {
            self.check_too_big(b, dtype, &dims, span);
        }
        let ty = Type::Array(ArrayType { dtype, ndim: dims.len() as u8, layout: Layout::C });
        self.push(b, InstKind::NewArray { dtype, shape: dims, zeroed }, ty, span)
    }

    /// NumPy's `ValueError` for a shape whose byte size does not fit an intp (Numba's message);
    /// a size that fits but cannot be had is the allocation's `MemoryError`.
    fn check_too_big(&mut self, b: Block, dtype: Scalar, dims: &[Value], span: Span) {
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let max = self.int(b, i64::MAX / dtype.size() as i64, span);
        if let [n] = dims {
            // One dimension: no division needed.
            let bad = self.emit_compare(b, span, CmpOp::Gt, *n, max);
            self.raise_if(
                b,
                bad,
                "ValueError",
                "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.",
                span,
            );
            return;
        }
        let mut size = one;
        let mut big = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        let mut any_zero = big;
        for &d in dims {
            let z = self.emit_compare(b, span, CmpOp::Eq, d, zero);
            any_zero = self.emit_binary(b, span, BinaryOp::BitOr, any_zero, z);
            let div = self.emit_select(b, span, z, one, d);
            let room = self.push(b, InstKind::Binary(BinaryOp::FloorDiv, max, div), Type::I64, span);
            let over = self.emit_compare(b, span, CmpOp::Gt, size, room);
            big = self.emit_binary(b, span, BinaryOp::BitOr, big, over);
            let next = self.emit_binary(b, span, BinaryOp::Mul, size, d);
            // Past an overflow the product no longer matters.
            size = self.emit_select(b, span, over, one, next);
        }
        let fits = self.push(b, InstKind::Unary(UnaryOp::Not, any_zero), Type::BOOL, span);
        let bad = self.emit_binary(b, span, BinaryOp::BitAnd, big, fits);
        self.raise_if(
            b,
            bad,
            "ValueError",
            "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.",
            span,
        );
    }

    /// Stores `v` (converted to the dtype) into every element of the new array `a`.
    fn fill(&mut self, b: Block, a: Value, v: Value, span: Span) -> Result<(), Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let v = self.coerce(b, v, &Type::Scalar(at.dtype), span)?;
        let dims = self.dims(b, a, span);
        let n = self.product(b, &dims, span);
        self.counted_loop(b, n, span, &mut |rw, i| {
            rw.push_void(b, InstKind::Store(a, i[0], v), span);
            Ok(())
        })
    }

    /// Copies `src` into `dst` element by element (equal shapes; `src` converted to `dst`'s
    /// dtype), in C order.
    pub(super) fn copy_elements(&mut self, b: Block, dst: Value, src: Value, span: Span) -> Result<(), Diagnostic> {
        let dt = self.ty(dst).array().expect("an array").dtype;
        let dims = self.dims(b, dst, span);
        let (ds, ss) = (self.strides(b, dst, span), self.strides(b, src, span));
        self.loop_nest(b, &dims, span, &mut |rw, idx| {
            let so = rw.offset(b, &ss, idx, span);
            let st = rw.ty(src).array().expect("an array").dtype;
            let x = rw.push(b, InstKind::Load(src, so), Type::Scalar(st), span);
            let x = rw.coerce(b, x, &Type::Scalar(dt), span)?;
            let d = rw.offset(b, &ds, idx, span);
            rw.push_void(b, InstKind::Store(dst, d, x), span);
            Ok(())
        })
    }

    /// A C-contiguous copy of `a`'s elements seen as one line: (the 1-D view, its length).
    pub(super) fn flat_line(&mut self, b: Block, a: Value, span: Span) -> Result<(Value, Value), Diagnostic> {
        let dt = self.ty(a).array().expect("an array").dtype;
        let c = self.copy_of(b, a, dt, span)?;
        let dims = self.dims(b, c, span);
        let n = self.product(b, &dims, span);
        let (zero, one) = (self.int(b, 0, span), self.int(b, 1, span));
        let t = Type::Array(ArrayType { dtype: dt, ndim: 1, layout: Layout::C });
        Ok((self.push(b, InstKind::View { base: c, offset: zero, shape: vec![n], strides: vec![one] }, t, span), n))
    }

    /// A C-contiguous copy of `a` (of `dtype`).
    pub(super) fn copy_of(&mut self, b: Block, a: Value, dtype: Scalar, span: Span) -> Result<Value, Diagnostic> {
        let dims = self.dims(b, a, span);
        let out = self.push(
            b,
            InstKind::NewArray { dtype, shape: dims, zeroed: false },
            Type::Array(ArrayType { dtype, ndim: self.ty(a).array().expect("an array").ndim, layout: Layout::C }),
            span,
        );
        self.copy_elements(b, out, a, span)?;
        Ok(out)
    }

    pub(super) fn is_none(&self, v: Value) -> bool {
        self.ty(v) == Type::None
    }

    /// An array constructor (`Typing::Alloc`), its arguments bound to `Alloc::params`.
    pub(super) fn alloc(
        &mut self,
        b: Block,
        a: Alloc,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let at = rt.array().expect("typed as an array");
        Ok(match a {
            Alloc::Empty | Alloc::Zeros | Alloc::Ones | Alloc::Full => {
                let dims = self.shape_values(b, args[0], span)?;
                let out = self.new_array(b, at.dtype, dims, a == Alloc::Zeros, span);
                match a {
                    Alloc::Ones => {
                        let one = self.one_of(b, at.dtype, span);
                        self.fill(b, out, one, span)?;
                    }
                    Alloc::Full => self.fill(b, out, args[1], span)?,
                    _ => {}
                }
                out
            }
            Alloc::EmptyLike | Alloc::ZerosLike | Alloc::OnesLike | Alloc::FullLike => {
                let dims = self.dims(b, args[0], span);
                let out = self.push(
                    b,
                    InstKind::NewArray { dtype: at.dtype, shape: dims, zeroed: a == Alloc::ZerosLike },
                    rt.clone(),
                    span,
                );
                match a {
                    Alloc::OnesLike => {
                        let one = self.one_of(b, at.dtype, span);
                        self.fill(b, out, one, span)?;
                    }
                    Alloc::FullLike => self.fill(b, out, args[1], span)?,
                    _ => {}
                }
                out
            }
            Alloc::Copy | Alloc::Astype => self.copy_of(b, args[0], at.dtype, span)?,
            Alloc::AsContiguous if self.ty(args[0]).array().is_some_and(|t| t.layout == Layout::C) => args[0],
            Alloc::AsContiguous => self.copy_of(b, args[0], at.dtype, span)?,
            Alloc::AsArray if self.ty(args[0]) == rt => args[0],
            Alloc::AsArray if matches!(self.ty(args[0]), Type::Array(_)) => self.copy_of(b, args[0], at.dtype, span)?,
            Alloc::AsArray => return self.alloc(b, Alloc::Array, args, rt, span),
            Alloc::AsFortran if at.ndim == 1 => self.copy_of(b, args[0], at.dtype, span)?,
            Alloc::AsFortran => {
                let dims = self.dims(b, args[0], span);
                let rev: Vec<Value> = dims.iter().rev().copied().collect();
                // Dimensions of an existing array: nothing to check.
                let buf = self.push(
                    b,
                    InstKind::NewArray { dtype: at.dtype, shape: rev, zeroed: false },
                    Type::Array(ArrayType { dtype: at.dtype, ndim: at.ndim, layout: Layout::C }),
                    span,
                );
                let mut strides = self.strides(b, buf, span);
                strides.reverse();
                let zero = self.int(b, 0, span);
                let out =
                    self.push(b, InstKind::View { base: buf, offset: zero, shape: dims, strides }, rt.clone(), span);
                self.copy_elements(b, out, args[0], span)?;
                out
            }
            Alloc::Array => match self.ty(args[0]) {
                Type::Array(_) => self.copy_of(b, args[0], at.dtype, span)?,
                _ => self.array_literal(b, args[0], at, span)?,
            },
            Alloc::Arange => self.arange(b, args, at.dtype, span)?,
            Alloc::Linspace => self.linspace(b, args, span)?,
            Alloc::Eye | Alloc::Identity => {
                let n = self.coerce(b, args[0], &Type::I64, span)?;
                let (m, k) = if a == Alloc::Eye {
                    let m = if self.is_none(args[1]) { n } else { self.coerce(b, args[1], &Type::I64, span)? };
                    let k = if self.is_none(args[2]) {
                        self.int(b, 0, span)
                    } else {
                        self.coerce(b, args[2], &Type::I64, span)?
                    };
                    (m, k)
                } else {
                    (n, self.int(b, 0, span))
                };
                let out = self.new_array(b, at.dtype, vec![n, m], true, span);
                // Numba's algorithm: `d = min(N, M - k)` ones at `[i, i + k]` for k >= 0,
                // `d = min(N + k, M)` at `[i - k, i]` below the diagonal.
                let zero = self.int(b, 0, span);
                let up = self.emit_compare(b, span, CmpOp::Ge, k, zero);
                let mk = self.emit_binary(b, span, BinaryOp::Sub, m, k);
                let nk = self.emit_binary(b, span, BinaryOp::Add, n, k);
                let d_up = self.min_i64(b, n, mk, span);
                let d_down = self.min_i64(b, nk, m, span);
                let d = self.emit_select(b, span, up, d_up, d_down);
                let row0 = self.emit_binary(b, span, BinaryOp::Sub, zero, k);
                let row0 = self.emit_select(b, span, up, zero, row0);
                let col0 = self.emit_select(b, span, up, k, zero);
                let one = self.one_of(b, at.dtype, span);
                let strides = self.strides(b, out, span);
                self.counted_loop(b, d, span, &mut |rw, i| {
                    let r = rw.emit_binary(b, span, BinaryOp::Add, i[0], row0);
                    let c = rw.emit_binary(b, span, BinaryOp::Add, i[0], col0);
                    let off = rw.offset(b, &strides, &[r, c], span);
                    rw.push_void(b, InstKind::Store(out, off, one), span);
                    Ok(())
                })?;
                out
            }
        })
    }

    fn min_i64(&mut self, b: Block, x: Value, y: Value, span: Span) -> Value {
        let lt = self.emit_compare(b, span, CmpOp::Lt, y, x);
        self.emit_select(b, span, lt, y, x)
    }

    /// `np.array` of a (nested) tuple of numbers: a new array and one store per number.
    fn array_literal(&mut self, b: Block, t: Value, at: ArrayType, span: Span) -> Result<Value, Diagnostic> {
        let mut shape = Vec::new();
        let mut ty = self.ty(t);
        while let Type::Tuple(ts) = ty {
            shape.push(ts.len() as i64);
            ty = ts[0].clone();
        }
        let mut leaves = Vec::new();
        self.leaves(b, t, &mut leaves, span);
        let dims: Vec<Value> = shape.iter().map(|&d| self.int(b, d, span)).collect();
        let out =
            self.push(b, InstKind::NewArray { dtype: at.dtype, shape: dims, zeroed: false }, Type::Array(at), span);
        for (k, v) in leaves.into_iter().enumerate() {
            let v = self.coerce(b, v, &Type::Scalar(at.dtype), span)?;
            let off = self.int(b, k as i64, span);
            self.push_void(b, InstKind::Store(out, off, v), span);
        }
        Ok(out)
    }

    fn leaves(&mut self, b: Block, t: Value, out: &mut Vec<Value>, span: Span) {
        if matches!(self.ty(t), Type::Tuple(_)) {
            for e in self.elements(b, t, span) {
                self.leaves(b, e, out, span);
            }
        } else {
            out.push(t);
        }
    }

    /// Numba's `np.arange`: `n = max(ceil((stop - start) / step), 0)` elements
    /// `start + i * step`, computed in float64 when any bound is a float (else int64) and
    /// converted to the dtype; a zero step raises `ValueError`.
    fn arange(&mut self, b: Block, args: &[Value], dtype: Scalar, span: Span) -> Result<Value, Diagnostic> {
        let float = args[..3].iter().any(|v| self.ty(*v).scalar().is_some_and(|s| s.is_float()));
        let ct = Type::Scalar(if float { Scalar::Float64 } else { Scalar::Int64 });
        let (start, stop) = if self.is_none(args[1]) {
            (self.push(b, InstKind::Const(Const::Int(0)), ct.clone(), span), self.coerce(b, args[0], &ct, span)?)
        } else {
            (self.coerce(b, args[0], &ct, span)?, self.coerce(b, args[1], &ct, span)?)
        };
        let step = if self.is_none(args[2]) {
            self.push(b, InstKind::Const(Const::Int(1)), ct.clone(), span)
        } else {
            self.coerce(b, args[2], &ct, span)?
        };
        let zero = self.push(b, InstKind::Const(Const::Int(0)), ct.clone(), span);
        let is_zero = self.emit_compare(b, span, CmpOp::Eq, step, zero);
        self.raise_if(b, is_zero, "ValueError", "Maximum allowed size exceeded", span);
        let f64t = Type::F64;
        let (fs, fe, fp) = (
            self.coerce(b, start, &f64t, span)?,
            self.coerce(b, stop, &f64t, span)?,
            self.coerce(b, step, &f64t, span)?,
        );
        let diff = self.emit_binary(b, span, BinaryOp::Sub, fe, fs);
        let q = self.emit_binary(b, span, BinaryOp::Div, diff, fp);
        let c = self.push(b, InstKind::Builtin(Builtin::Ceil, vec![q]), f64t, span);
        let n = self.push(b, InstKind::Cast(Scalar::Int64, c), Type::I64, span);
        let z = self.int(b, 0, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, n, z);
        let n = self.emit_select(b, span, neg, z, n);
        let out = self.push(
            b,
            InstKind::NewArray { dtype, shape: vec![n], zeroed: false },
            Type::Array(ArrayType { dtype, ndim: 1, layout: Layout::C }),
            span,
        );
        self.counted_loop(b, n, span, &mut |rw, i| {
            let fi = rw.coerce(b, i[0], &ct, span)?;
            let d = rw.emit_binary(b, span, BinaryOp::Mul, fi, step);
            let v = rw.emit_binary(b, span, BinaryOp::Add, start, d);
            let v = rw.coerce(b, v, &Type::Scalar(dtype), span)?;
            rw.push_void(b, InstKind::Store(out, i[0], v), span);
            Ok(())
        })?;
        Ok(out)
    }

    /// Numba's `np.linspace`: `start + i * ((stop - start) / (num - 1))`, the last element
    /// exactly `stop` (float64).
    fn linspace(&mut self, b: Block, args: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let f = Type::F64;
        let start = self.coerce(b, args[0], &f, span)?;
        let stop = self.coerce(b, args[1], &f, span)?;
        let num =
            if self.is_none(args[2]) { self.int(b, 50, span) } else { self.coerce(b, args[2], &Type::I64, span)? };
        let out = self.new_array(b, Scalar::Float64, vec![num], false, span);
        let one = self.int(b, 1, span);
        let div = self.emit_binary(b, span, BinaryOp::Sub, num, one);
        let fdiv = self.coerce(b, div, &f, span)?;
        let delta = self.emit_binary(b, span, BinaryOp::Sub, stop, start);
        // Numba: `step = delta / div` only when div > 0 (one element is just `start`).
        let zero = self.int(b, 0, span);
        let pos = self.emit_compare(b, span, CmpOp::Gt, div, zero);
        let fone = self.push(b, InstKind::Const(Const::Float(1.0)), f.clone(), span);
        let safe = self.emit_select(b, span, pos, fdiv, fone);
        let q = self.emit_binary(b, span, BinaryOp::Div, delta, safe);
        let fzero = self.push(b, InstKind::Const(Const::Float(0.0)), f.clone(), span);
        let step = self.emit_select(b, span, pos, q, fzero);
        self.counted_loop(b, num, span, &mut |rw, i| {
            let fi = rw.coerce(b, i[0], &f, span)?;
            let d = rw.emit_binary(b, span, BinaryOp::Mul, fi, step);
            let v = rw.emit_binary(b, span, BinaryOp::Add, start, d);
            rw.push_void(b, InstKind::Store(out, i[0], v), span);
            Ok(())
        })?;
        // `arr[-1] = stop` when num > 1.
        let gt1 = self.emit_compare(b, span, CmpOp::Gt, num, one);
        let last = self.emit_select(b, span, gt1, div, one);
        let at = self.cur[b.index()];
        let set = self.g.add_block();
        let cont = self.g.add_block();
        let to = |block| BlockCall { block, args: vec![] };
        self.g.terminate(at, Terminator::Branch(gt1, to(set), to(cont)), span);
        self.cur[b.index()] = set;
        self.push_void(b, InstKind::Store(out, last, stop), span);
        self.g.terminate(set, Terminator::Jump(to(cont)), span);
        self.cur[b.index()] = cont;
        Ok(out)
    }

    /// `a.real` / `a.imag` of an array: of a complex one, a view of its real or imaginary
    /// parts (every second float, from the first or the second); of a real one, the array
    /// itself or a new array of zeros.
    pub(super) fn part_view(&mut self, b: Block, a: Value, imag: bool, rt: Type, span: Span) -> Value {
        let at = self.ty(a).array().expect("an array");
        if !at.dtype.is_complex() {
            if !imag {
                return a;
            }
            let dims = self.dims(b, a, span);
            return self.push(b, InstKind::NewArray { dtype: at.dtype, shape: dims, zeroed: true }, rt, span);
        }
        let dims = self.dims(b, a, span);
        let two = self.int(b, 2, span);
        let strides: Vec<Value> =
            self.strides(b, a, span).into_iter().map(|s| self.emit_binary(b, span, BinaryOp::Mul, s, two)).collect();
        let offset = self.int(b, i64::from(imag), span);
        self.push(b, InstKind::View { base: a, offset, shape: dims, strides }, rt, span)
    }

    /// A view-making method (`Typing::View`).
    pub(super) fn view_op(
        &mut self,
        b: Block,
        v: ViewOp,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let a = args[0];
        let at = self.ty(a).array().expect("typed");
        let zero = self.int(b, 0, span);
        Ok(match v {
            ViewOp::Reinterpret => {
                let new = rt.array().expect("typed as an array").dtype;
                let (os, ns) = (at.dtype.size() as i64, new.size() as i64);
                let mut dims = self.dims(b, a, span);
                let mut strides = self.strides(b, a, span);
                if os != ns {
                    // NumPy's checks: a contiguous last axis, whose bytes the new size divides.
                    let last = dims.len() - 1;
                    let one = self.int(b, 1, span);
                    let strided = self.emit_compare(b, span, CmpOp::Ne, strides[last], one);
                    let long = self.emit_compare(b, span, CmpOp::Gt, dims[last], one);
                    let bad = self.emit_binary(b, span, BinaryOp::BitAnd, strided, long);
                    self.raise_if(
                        b,
                        bad,
                        "ValueError",
                        "To change to a dtype of a different size, the last axis must be contiguous",
                        span,
                    );
                    if ns < os {
                        let k = self.int(b, os / ns, span);
                        for s in strides.iter_mut() {
                            *s = self.emit_binary(b, span, BinaryOp::Mul, *s, k);
                        }
                        dims[last] = self.emit_binary(b, span, BinaryOp::Mul, dims[last], k);
                    } else {
                        let k = self.int(b, ns / os, span);
                        let rem = self.emit_binary(b, span, BinaryOp::Mod, dims[last], k);
                        let uneven = self.emit_compare(b, span, CmpOp::Ne, rem, zero);
                        self.raise_if(
                            b,
                            uneven,
                            "ValueError",
                            "When changing to a larger dtype, its size must be a divisor of the total size in bytes \
                             of the last axis of the array.",
                            span,
                        );
                        for s in strides.iter_mut() {
                            *s = self.emit_binary(b, span, BinaryOp::FloorDiv, *s, k);
                        }
                        dims[last] = self.emit_binary(b, span, BinaryOp::FloorDiv, dims[last], k);
                    }
                    strides[last] = one;
                }
                self.push(b, InstKind::View { base: a, offset: zero, shape: dims, strides }, rt, span)
            }
            ViewOp::Flip(which) => {
                let dims = self.dims(b, a, span);
                let mut strides = self.strides(b, a, span);
                let flipped: Vec<usize> = match which {
                    crate::builtins::FlipAxes::All => (0..dims.len()).collect(),
                    crate::builtins::FlipAxes::First => vec![0],
                    crate::builtins::FlipAxes::Second => vec![1],
                };
                // Start at the last element along each flipped axis and step backwards.
                let one = self.int(b, 1, span);
                let mut offset = zero;
                for k in flipped {
                    let pos = self.emit_compare(b, span, CmpOp::Gt, dims[k], zero);
                    let last = self.emit_binary(b, span, BinaryOp::Sub, dims[k], one);
                    let last = self.emit_select(b, span, pos, last, zero);
                    let o = self.emit_binary(b, span, BinaryOp::Mul, last, strides[k]);
                    offset = self.emit_binary(b, span, BinaryOp::Add, offset, o);
                    strides[k] = self.emit_binary(b, span, BinaryOp::Sub, zero, strides[k]);
                }
                self.push(b, InstKind::View { base: a, offset, shape: dims, strides }, rt, span)
            }
            ViewOp::ExpandDims => {
                let n = at.ndim as i64 + 1;
                let k = match self.g.def_inst(args[1]).map(|d| &d.kind) {
                    Some(InstKind::Const(Const::Int(k))) => *k,
                    _ => {
                        return Err(err(span, "the axis of np.expand_dims() must be a constant here", "axis")
                            .with_hint("write the axis as a literal"))
                    }
                };
                let axis = if k < 0 { k + n } else { k };
                if !(0..n).contains(&axis) {
                    return Err(err(span, format!("axis {k} is out of bounds for array of dimension {n}"), "axis"));
                }
                let mut dims = self.dims(b, a, span);
                let mut strides = self.strides(b, a, span);
                let one = self.int(b, 1, span);
                dims.insert(axis as usize, one);
                strides.insert(axis as usize, zero);
                self.push(b, InstKind::View { base: a, offset: zero, shape: dims, strides }, rt, span)
            }
            ViewOp::BroadcastTo => {
                let dims = self.shape_values(b, args[1], span)?;
                if (at.ndim as usize) > dims.len() {
                    return Err(err(
                        span,
                        "input operand has more dimensions than allowed by the axis remapping",
                        "here",
                    ));
                }
                self.broadcast_view(b, a, &dims, "operands could not be broadcast together with remapped shapes", span)?
            }
            ViewOp::SwapAxes | ViewOp::MoveAxis => {
                let n = at.ndim as usize;
                let name = if v == ViewOp::SwapAxes { "np.swapaxes" } else { "np.moveaxis" };
                let (src, dst) =
                    (self.const_axis_list(args[1], n, name, span)?, self.const_axis_list(args[2], n, name, span)?);
                let order: Vec<usize> = if v == ViewOp::SwapAxes {
                    let mut order: Vec<usize> = (0..n).collect();
                    order.swap(src[0], dst[0]);
                    order
                } else {
                    // NumPy's moveaxis: the unmoved axes in order, each moved one inserted at
                    // its destination (destinations in increasing order).
                    if src.len() != dst.len() {
                        return Err(err(
                            span,
                            "`source` and `destination` arguments must have the same number of elements",
                            "here",
                        ));
                    }
                    let distinct = |v: &[usize]| v.iter().enumerate().all(|(k, x)| !v[..k].contains(x));
                    if !distinct(&src) || !distinct(&dst) {
                        return Err(err(span, "repeated axis in np.moveaxis()", "here"));
                    }
                    let mut order: Vec<usize> = (0..n).filter(|k| !src.contains(k)).collect();
                    let mut moves: Vec<(usize, usize)> = dst.iter().copied().zip(src.iter().copied()).collect();
                    moves.sort_unstable();
                    for (d, s) in moves {
                        order.insert(d, s);
                    }
                    order
                };
                let (dims, strides) = (self.dims(b, a, span), self.strides(b, a, span));
                let (d, s) = (order.iter().map(|&k| dims[k]).collect(), order.iter().map(|&k| strides[k]).collect());
                self.push(b, InstKind::View { base: a, offset: zero, shape: d, strides: s }, rt, span)
            }
            ViewOp::Transpose => {
                let dims = self.dims(b, a, span);
                let strides = self.strides(b, a, span);
                let n = dims.len();
                let order: Vec<usize> = match args.get(1) {
                    Some(&axes) if self.ty(axes) != Type::None => match self.const_axes(axes, n, span) {
                        Ok(order) => order,
                        // Axes known only at run time: NumPy's checks, then each new
                        // dimension picked from the old ones.
                        Err(_) => {
                            let (d, s) = self.runtime_axes(b, axes, &dims, &strides, span)?;
                            return Ok(self.push(
                                b,
                                InstKind::View { base: a, offset: zero, shape: d, strides: s },
                                rt,
                                span,
                            ));
                        }
                    },
                    _ => (0..n).rev().collect(),
                };
                let (d, s) = (order.iter().map(|&k| dims[k]).collect(), order.iter().map(|&k| strides[k]).collect());
                self.push(b, InstKind::View { base: a, offset: zero, shape: d, strides: s }, rt, span)
            }
            ViewOp::Reshape | ViewOp::Ravel | ViewOp::Flat if at.layout != Layout::C => {
                if v == ViewOp::Reshape {
                    return Err(err(
                        span,
                        "reshape() supports contiguous array only",
                        "this array may not be contiguous",
                    )
                    .with_hint("copy it first: a.copy().reshape(...)"));
                }
                let c = self.copy_of(b, a, at.dtype, span)?;
                let n = self.dims(b, c, span);
                let size = self.product(b, &n, span);
                let one = self.int(b, 1, span);
                self.push(b, InstKind::View { base: c, offset: zero, shape: vec![size], strides: vec![one] }, rt, span)
            }
            ViewOp::Reshape => {
                let want = self.shape_values(b, args[1], span)?;
                let dims = self.dims(b, a, span);
                let size = self.product(b, &dims, span);
                let new = self.reshape_dims(b, &want, size, span);
                let strides = self.c_strides(b, &new, span);
                self.push(b, InstKind::View { base: a, offset: zero, shape: new, strides }, rt, span)
            }
            ViewOp::Ravel | ViewOp::Flatten | ViewOp::Flat => {
                let src = if v == ViewOp::Flatten { self.copy_of(b, a, at.dtype, span)? } else { a };
                let dims = self.dims(b, src, span);
                let size = self.product(b, &dims, span);
                let one = self.int(b, 1, span);
                self.push(
                    b,
                    InstKind::View { base: src, offset: zero, shape: vec![size], strides: vec![one] },
                    rt,
                    span,
                )
            }
        })
    }

    /// The dimensions and strides of a transpose by the run-time tuple `axes`: each axis
    /// wrapped when negative, `ValueError`s for one out of range or repeated (NumPy's and
    /// Numba's messages).
    fn runtime_axes(
        &mut self,
        b: Block,
        axes: Value,
        dims: &[Value],
        strides: &[Value],
        span: Span,
    ) -> Result<(Vec<Value>, Vec<Value>), Diagnostic> {
        let n = dims.len();
        let elems = self.ty(axes).elements().unwrap_or_default();
        let (zero, len) = (self.int(b, 0, span), self.int(b, n as i64, span));
        let mut ks = Vec::with_capacity(n);
        for k in 0..n {
            let t = elems.get(k).cloned().unwrap_or(Type::I64);
            let e = self.push(b, InstKind::TupleGet(axes, k as u32), t, span);
            let e = self.coerce(b, e, &Type::I64, span)?;
            let neg = self.emit_compare(b, span, CmpOp::Lt, e, zero);
            let wrapped = self.emit_binary(b, span, BinaryOp::Add, e, len);
            let e = self.emit_select(b, span, neg, wrapped, e);
            let low = self.emit_compare(b, span, CmpOp::Lt, e, zero);
            let high = self.emit_compare(b, span, CmpOp::Ge, e, len);
            let out = self.emit_binary(b, span, BinaryOp::BitOr, low, high);
            self.raise_if(b, out, "ValueError", "axis is out of bounds for array of given dimension", span);
            ks.push(e);
        }
        for i in 0..n {
            for j in i + 1..n {
                let same = self.emit_compare(b, span, CmpOp::Eq, ks[i], ks[j]);
                self.raise_if(b, same, "ValueError", "repeated axis in transpose", span);
            }
        }
        let pick = |rw: &mut Self, k: Value, from: &[Value]| {
            let mut v = from[n - 1];
            for (j, &x) in from.iter().enumerate().take(n - 1).rev() {
                let c = rw.int(b, j as i64, span);
                let is = rw.emit_compare(b, span, CmpOp::Eq, k, c);
                v = rw.emit_select(b, span, is, x, v);
            }
            v
        };
        let d = ks.iter().map(|&k| pick(self, k, dims)).collect();
        let s = ks.iter().map(|&k| pick(self, k, strides)).collect();
        Ok((d, s))
    }

    /// The constant permutation `axes` (a tuple of integer constants) of `n` axes.
    /// An axis or a tuple of axes of an `n`-dimensional array, constants (negative count from
    /// the end), normalised; `name` is the function, for the errors.
    fn const_axis_list(&self, v: Value, n: usize, name: &str, span: Span) -> Result<Vec<usize>, Diagnostic> {
        let konst = |v: Value| self.g.const_int(v);
        let ks: Option<Vec<i64>> = match self.g.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::MakeTuple(vs)) => vs.iter().map(|v| konst(*v)).collect(),
            _ => konst(v).map(|k| vec![k]),
        };
        let ks = ks.ok_or_else(|| {
            err(span, format!("the axes of {name}() must be constants here"), "axes")
                .with_hint("write them as literals")
        })?;
        ks.into_iter()
            .map(|k| {
                let kk = if k < 0 { k + n as i64 } else { k };
                usize::try_from(kk)
                    .ok()
                    .filter(|&kk| kk < n)
                    .ok_or_else(|| err(span, format!("axis {k} is out of bounds for array of dimension {n}"), "axis"))
            })
            .collect()
    }

    fn const_axes(&self, axes: Value, n: usize, span: Span) -> Result<Vec<usize>, Diagnostic> {
        let konst = |v: Value| match self.g.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Int(k))) => Some(*k),
            Some(InstKind::Cast(_, x)) => match self.g.def_inst(*x).map(|d| &d.kind) {
                Some(InstKind::Const(Const::Int(k))) => Some(*k),
                _ => None,
            },
            _ => None,
        };
        let elems: Option<Vec<i64>> = match self.g.def_inst(axes).map(|d| &d.kind) {
            Some(InstKind::MakeTuple(vs)) => vs.iter().map(|v| konst(*v)).collect(),
            _ => None,
        };
        let bad = || err(span, format!("transpose() takes a permutation of the {n} axes as constants"), "here");
        let elems = elems.ok_or_else(bad)?;
        let mut order = Vec::new();
        for k in elems {
            let k = if k < 0 { k + n as i64 } else { k };
            if k < 0 || k >= n as i64 || order.contains(&(k as usize)) {
                return Err(bad());
            }
            order.push(k as usize);
        }
        if order.len() != n {
            return Err(bad());
        }
        Ok(order)
    }

    fn c_strides(&mut self, b: Block, dims: &[Value], span: Span) -> Vec<Value> {
        let mut out = vec![self.int(b, 1, span); dims.len()];
        for k in (0..dims.len().saturating_sub(1)).rev() {
            out[k] = self.emit_binary(b, span, BinaryOp::Mul, out[k + 1], dims[k + 1]);
        }
        out
    }

    /// The dimensions of `reshape(want)` of an array of `size` elements: one `-1` is
    /// inferred; NumPy's `ValueError`s otherwise.
    fn reshape_dims(&mut self, b: Block, want: &[Value], size: Value, span: Span) -> Vec<Value> {
        let minus1 = self.int(b, -1, span);
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let mut unknowns = zero;
        let mut known = one;
        let mut bad = None;
        for &d in want {
            let u = self.emit_compare(b, span, CmpOp::Eq, d, minus1);
            let ui = self.coerce(b, u, &Type::I64, span).expect("bool to int");
            unknowns = self.emit_binary(b, span, BinaryOp::Add, unknowns, ui);
            let factor = self.emit_select(b, span, u, one, d);
            known = self.emit_binary(b, span, BinaryOp::Mul, known, factor);
            let neg = self.emit_compare(b, span, CmpOp::Lt, d, minus1);
            bad = Some(match bad {
                Some(x) => self.emit_binary(b, span, BinaryOp::BitOr, x, neg),
                None => neg,
            });
        }
        if let Some(bad) = bad {
            self.raise_if(b, bad, "ValueError", "negative dimensions not allowed", span);
        }
        let two = self.emit_compare(b, span, CmpOp::Gt, unknowns, one);
        self.raise_if(b, two, "ValueError", "multiple negative shape values", span);
        // The inferred dimension: size / known (known == 0 only when size == 0).
        let known_zero = self.emit_compare(b, span, CmpOp::Eq, known, zero);
        let safe = self.emit_select(b, span, known_zero, one, known);
        let inferred = self.push(b, InstKind::Binary(BinaryOp::FloorDiv, size, safe), Type::I64, span);
        let out: Vec<Value> = want
            .iter()
            .map(|&d| {
                let u = self.emit_compare(b, span, CmpOp::Eq, d, minus1);
                self.emit_select(b, span, u, inferred, d)
            })
            .collect();
        let total = self.product(b, &out, span);
        let differs = self.emit_compare(b, span, CmpOp::Ne, total, size);
        self.raise_if(b, differs, "ValueError", "total size of new array must be unchanged", span);
        out
    }

    /// Classifies the (untyped) index operands of a subscript.
    pub(super) fn classify(&mut self, b: Block, idx: &[Value], span: Span) -> Result<Vec<Index>, Diagnostic> {
        // A single tuple index stands for its elements (`a[t]` with `t = (i, j)`).
        let flat: Vec<(Option<Value>, Value)> = match idx {
            [one] if matches!(self.ty(self.val(*one)), Type::Tuple(_)) => {
                let t = self.val(*one);
                self.elements(b, t, span).into_iter().map(|v| (None, v)).collect()
            }
            _ => idx.iter().map(|v| (Some(*v), self.val(*v))).collect(),
        };
        let mut out = Vec::new();
        for (src, v) in flat {
            let def = src.and_then(|s| self.src.def_inst(s)).map(|d| d.kind.clone());
            out.push(match (self.ty(v), def) {
                (Type::Slice(SliceKind::Ellipsis), _) => Index::Ellipsis,
                (Type::Slice(_), Some(InstKind::Builtin(Builtin::SliceIndex, bounds))) => {
                    let mut parts = [None, None, None];
                    for (k, &x) in bounds.iter().enumerate() {
                        let nx = self.val(x);
                        if !self.is_none(nx) {
                            parts[k] = Some(self.coerce(b, nx, &Type::I64, span)?);
                        }
                    }
                    Index::Slice(parts[0], parts[1], parts[2])
                }
                (Type::None, _) => Index::NewAxis,
                (Type::Scalar(_), _) => Index::Int(self.coerce(b, v, &Type::I64, span)?),
                (Type::Array(_), _) => Index::Array(v),
                (t, _) => return Err(err(span, format!("cannot index an array with {t}"), "here")),
            });
        }
        Ok(out)
    }

    /// `a[lo:hi:step]` (the bounds are new values, `None`-typed when absent): a view.
    pub(super) fn slice_view(
        &mut self,
        b: Block,
        a: Value,
        bounds: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let mut parts = [None, None, None];
        for (k, &x) in bounds.iter().enumerate() {
            if !self.is_none(x) {
                parts[k] = Some(self.coerce(b, x, &Type::I64, span)?);
            }
        }
        self.view_of(b, a, vec![Index::Slice(parts[0], parts[1], parts[2])], rt, span)
    }

    /// `a[idx]` with slices, `None` or `...`: a view (`rt` its type).
    pub(super) fn subscript_view(
        &mut self,
        b: Block,
        a: Value,
        idx: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let ix = self.classify(b, idx, span)?;
        self.view_of(b, a, ix, rt, span)
    }

    pub(super) fn view_of(
        &mut self,
        b: Block,
        a: Value,
        ix: Vec<Index>,
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let consumed = ix.iter().filter(|i| matches!(i, Index::Int(_) | Index::Slice(..) | Index::Array(_))).count();
        let dims = self.dims(b, a, span);
        let strides = self.strides(b, a, span);
        let mut offset = self.int(b, 0, span);
        let (mut shape, mut new_strides) = (Vec::new(), Vec::new());
        let mut axis = 0usize;
        let one = self.int(b, 1, span);
        let zero = self.int(b, 0, span);
        let full = |axis: usize, shape: &mut Vec<Value>, ns: &mut Vec<Value>| {
            shape.push(dims[axis]);
            ns.push(strides[axis]);
        };
        for i in ix {
            match i {
                Index::Int(k) => {
                    let n = dims[axis];
                    let neg = self.emit_compare(b, span, CmpOp::Lt, k, zero);
                    let wrapped = self.emit_binary(b, span, BinaryOp::Add, k, n);
                    let k = self.emit_select(b, span, neg, wrapped, k);
                    self.push_void(b, InstKind::CheckIndex(k, n, axis as u8), span);
                    let p = self.emit_binary(b, span, BinaryOp::Mul, k, strides[axis]);
                    offset = self.emit_binary(b, span, BinaryOp::Add, offset, p);
                    axis += 1;
                }
                // An advanced index's axis, whole: `fancy.rs` gathers along it.
                Index::Array(_) => {
                    full(axis, &mut shape, &mut new_strides);
                    axis += 1;
                }
                Index::Slice(lo, hi, step) => {
                    let (start, len, step) = self.slice_bounds(b, dims[axis], lo, hi, step, span);
                    let p = self.emit_binary(b, span, BinaryOp::Mul, start, strides[axis]);
                    offset = self.emit_binary(b, span, BinaryOp::Add, offset, p);
                    shape.push(len);
                    new_strides.push(self.emit_binary(b, span, BinaryOp::Mul, strides[axis], step));
                    axis += 1;
                }
                Index::NewAxis => {
                    shape.push(one);
                    new_strides.push(zero);
                }
                Index::Ellipsis => {
                    for _ in 0..at.ndim as usize - consumed {
                        full(axis, &mut shape, &mut new_strides);
                        axis += 1;
                    }
                }
            }
        }
        while axis < at.ndim as usize {
            full(axis, &mut shape, &mut new_strides);
            axis += 1;
        }
        Ok(self.push(b, InstKind::View { base: a, offset, shape, strides: new_strides }, rt, span))
    }

    /// Python's `slice.indices(n)`: the first index, the length and the step (a zero step
    /// raises `ValueError`). A constant step picks its branch at compile time.
    pub(super) fn slice_bounds(
        &mut self,
        b: Block,
        n: Value,
        lo: Option<Value>,
        hi: Option<Value>,
        step: Option<Value>,
        span: Span,
    ) -> (Value, Value, Value) {
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let const_step = match step {
            None => Some(1),
            Some(s) => match self.g.def_inst(s).map(|d| &d.kind) {
                Some(InstKind::Const(Const::Int(k))) => Some(*k),
                _ => None,
            },
        };
        let step = step.unwrap_or(one);
        if const_step.is_none() || const_step == Some(0) {
            let is_zero = self.emit_compare(b, span, CmpOp::Eq, step, zero);
            self.raise_if(b, is_zero, "ValueError", "slice step cannot be zero", span);
        }
        let minus1 = self.int(b, -1, span);
        let nm1 = self.emit_binary(b, span, BinaryOp::Sub, n, one);
        let neg_step = match const_step {
            Some(k) => self.push(b, InstKind::Const(Const::Bool(k < 0)), Type::BOOL, span),
            None => self.emit_compare(b, span, CmpOp::Lt, step, zero),
        };
        // Bounds for clamping: [0, n] for a positive step, [-1, n - 1] for a negative one.
        let lower = self.emit_select(b, span, neg_step, minus1, zero);
        let upper = self.emit_select(b, span, neg_step, nm1, n);
        let fix = |rw: &mut Self, v: Option<Value>, default: Value| -> Value {
            let Some(v) = v else { return default };
            let neg = rw.emit_compare(b, span, CmpOp::Lt, v, zero);
            let plus = rw.emit_binary(b, span, BinaryOp::Add, v, n);
            let w = rw.emit_select(b, span, neg, plus, v);
            let below = rw.emit_compare(b, span, CmpOp::Lt, w, lower);
            let above = rw.emit_compare(b, span, CmpOp::Gt, w, upper);
            let w = rw.emit_select(b, span, below, lower, w);
            rw.emit_select(b, span, above, upper, w)
        };
        let start_default = self.emit_select(b, span, neg_step, upper, lower);
        let stop_default = self.emit_select(b, span, neg_step, lower, upper);
        let start = fix(self, lo, start_default);
        let stop = fix(self, hi, stop_default);
        // A unit step (the common case) needs no division.
        if let Some(k @ (1 | -1)) = const_step {
            let d = if k == 1 {
                self.emit_binary(b, span, BinaryOp::Sub, stop, start)
            } else {
                self.emit_binary(b, span, BinaryOp::Sub, start, stop)
            };
            let pos = self.emit_compare(b, span, CmpOp::Gt, d, zero);
            let len = self.emit_select(b, span, pos, d, zero);
            return (start, len, step);
        }
        // Length: ceil((stop - start) / step) when positive, else 0, written with Python's
        // floor division: (stop - start - 1) // step + 1 for a positive step, and
        // (start - stop - 1) // -step + 1 for a negative one.
        let nstep = self.emit_binary(b, span, BinaryOp::Sub, zero, step);
        let (d, s) = (
            {
                let x = self.emit_binary(b, span, BinaryOp::Sub, stop, start);
                let y = self.emit_binary(b, span, BinaryOp::Sub, start, stop);
                self.emit_select(b, span, neg_step, y, x)
            },
            self.emit_select(b, span, neg_step, nstep, step),
        );
        let pos = self.emit_compare(b, span, CmpOp::Gt, d, zero);
        let dm1 = self.emit_binary(b, span, BinaryOp::Sub, d, one);
        let safe = self.emit_select(b, span, pos, s, one);
        let q = self.push(b, InstKind::Binary(BinaryOp::FloorDiv, dm1, safe), Type::I64, span);
        let q1 = self.emit_binary(b, span, BinaryOp::Add, q, one);
        let len = self.emit_select(b, span, pos, q1, zero);
        (start, len, step)
    }

    /// The array a view was taken of, through every `view`.
    fn root(&self, mut v: Value) -> Value {
        while let Some(InstKind::View { base, .. }) = self.g.def_inst(v).map(|d| &d.kind) {
            v = *base;
        }
        v
    }

    /// `a[idx] = v` where the subscript is a view: `v` (a number, or an array of the view's
    /// shape; NumPy broadcasting of a size-1 array is not done yet) stored into every element.
    pub(super) fn assign_view(
        &mut self,
        b: Block,
        a: Value,
        idx: &[Value],
        v: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let idx_types: Vec<Type> = idx.iter().map(|i| self.ty(self.val(*i))).collect();
        let view_t = typing::array_subscript(&at, &idx_types).map_err(|e| e.at(span))?;
        let view = self.subscript_view(b, a, idx, view_t.clone(), span)?;
        if self.fused[v.index()] {
            // An array expression stores straight into the view, element by element in C
            // order, reading its operands as it goes (Numba's semantics for overlapping
            // operands: `b[1:] += b[:-1]` is a running sum).
            return self.store_elementwise(b, view, v, SLICE_SHAPES, span);
        }
        let vt = self.ty(self.val(v));
        let vv = self.val(v);
        match vt {
            Type::Scalar(_) => {
                let x = self.coerce(b, vv, &Type::Scalar(at.dtype), span)?;
                let dims = self.dims(b, view, span);
                let ss = self.strides(b, view, span);
                self.loop_nest(b, &dims, span, &mut |rw, i| {
                    let off = rw.offset(b, &ss, i, span);
                    rw.push_void(b, InstKind::Store(view, off, x), span);
                    Ok(())
                })
            }
            Type::Array(st) if st.ndim <= view_t.array().expect("a view").ndim => {
                // A source that may share the destination's buffer is copied first (as NumPy
                // does for overlapping assignment).
                let src = if self.root(vv) == self.root(a) { self.copy_of(b, vv, st.dtype, span)? } else { vv };
                let dims = self.dims(b, view, span);
                let src = self.broadcast_view(b, src, &dims, SLICE_SHAPES, span)?;
                self.copy_elements(b, view, src, span)
            }
            t => Err(err(span, format!("cannot assign {t} to a slice of {}", Type::Array(at)), "assigned here")
                .with_hint("assign a number, or an array of the slice's shape")),
        }
    }
}
