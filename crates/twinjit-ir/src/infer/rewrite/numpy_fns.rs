//! The rewrite of NumPy functions that build arrays from arrays: `np.diff`, `np.unique`,
//! `np.searchsorted`, `np.concatenate` and the stacking functions, `np.isclose`/`allclose`,
//! `np.interp`, `np.bincount`, `np.average`, `np.percentile`/`quantile`, each as loops that
//! compute what Numba's implementation computes (its formulas and error messages).

use super::*;
use crate::builtins::ArrayMethod;
use crate::types::{ArrayType, Layout};

impl Rewriter<'_> {
    fn new_c_array(&mut self, b: Block, dtype: Scalar, dims: Vec<Value>, zeroed: bool, span: Span) -> Value {
        let ndim = dims.len() as u8;
        self.push(
            b,
            InstKind::NewArray { dtype, shape: dims, zeroed },
            Type::Array(ArrayType { dtype, ndim, layout: Layout::C }),
            span,
        )
    }

    /// The constant integer source argument `v`, or `default` when it is None.
    fn const_int_arg(&self, v: Option<Value>, default: i64, what: &str, span: Span) -> Result<i64, Diagnostic> {
        match v {
            Some(v) if !self.is_none(self.val(v)) => const_index(self.src, &[v], span).map_err(|_| {
                err(span, format!("{what} must be a constant here"), what.to_string())
                    .with_hint("write it as a literal")
            }),
            _ => Ok(default),
        }
    }

    /// The arrays of a tuple argument (new value).
    fn tuple_arrays(&mut self, b: Block, t: Value, span: Span) -> Vec<Value> {
        self.elements(b, t, span)
    }

    /// Copies `src` into the region of `dst` starting at `start` along `axis` (equal other
    /// dimensions, checked by the caller).
    fn copy_block(
        &mut self,
        b: Block,
        dst: Value,
        src: Value,
        axis: usize,
        start: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let dims = self.dims(b, src, span);
        let (ss, ds) = (self.strides(b, src, span), self.strides(b, dst, span));
        let st = self.ty(src).array().expect("an array").dtype;
        let dt = self.ty(dst).array().expect("an array").dtype;
        self.loop_nest(b, &dims, span, &mut |rw, idx| {
            let so = rw.offset(b, &ss, idx, span);
            let x = rw.push(b, InstKind::Load(src, so), Type::Scalar(st), span);
            let x = rw.coerce(b, x, &Type::Scalar(dt), span)?;
            let mut di = idx.to_vec();
            di[axis] = rw.emit_binary(b, span, BinaryOp::Add, idx[axis], start);
            let o = rw.offset(b, &ds, &di, span);
            rw.push_void(b, InstKind::Store(dst, o, x), span);
            Ok(())
        })
    }

    /// `np.concatenate(parts, axis)`: `ValueError` unless the other dimensions agree.
    fn concatenate(
        &mut self,
        b: Block,
        parts: &[Value],
        axis: usize,
        dtype: Scalar,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let first = self.dims(b, parts[0], span);
        let mut total = first[axis];
        for &p in &parts[1..] {
            let d = self.dims(b, p, span);
            for (k, (&x, &y)) in first.iter().zip(&d).enumerate() {
                if k != axis {
                    let ne = self.emit_compare(b, span, CmpOp::Ne, x, y);
                    let m = format!("np.concatenate(): input sizes over dimension {k} do not match");
                    self.raise_if(b, ne, "ValueError", &m, span);
                }
            }
            total = self.emit_binary(b, span, BinaryOp::Add, total, d[axis]);
        }
        let mut odims = first.clone();
        odims[axis] = total;
        let out = self.new_c_array(b, dtype, odims, false, span);
        let mut start = self.int(b, 0, span);
        for &p in parts {
            self.copy_block(b, out, p, axis, start, span)?;
            let n = self.push(b, InstKind::Dim(p, axis as i64), Type::I64, span);
            start = self.emit_binary(b, span, BinaryOp::Add, start, n);
        }
        Ok(out)
    }

    /// `a` with a new axis of length 1 inserted at `axis` (a view).
    fn with_unit_axis(&mut self, b: Block, a: Value, axis: usize, span: Span) -> Value {
        let at = self.ty(a).array().expect("an array");
        let mut dims = self.dims(b, a, span);
        let mut strides = self.strides(b, a, span);
        let one = self.int(b, 1, span);
        let zero = self.int(b, 0, span);
        dims.insert(axis, one);
        strides.insert(axis, zero);
        let t = Type::Array(ArrayType { dtype: at.dtype, ndim: at.ndim + 1, layout: Layout::A });
        self.push(b, InstKind::View { base: a, offset: zero, shape: dims, strides }, t, span)
    }

    /// `isclose(x, y)` on two numbers: `|x - y| <= atol + rtol * |y|`, NaNs equal when asked,
    /// infinities equal only to themselves (NumPy's rule).
    fn close_elem(
        &mut self,
        b: Block,
        x: Value,
        y: Value,
        (rtol, atol, eq_nan): (Value, Value, Value),
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let x = self.coerce(b, x, &Type::F64, span)?;
        let y = self.coerce(b, y, &Type::F64, span)?;
        let d = self.emit_binary(b, span, BinaryOp::Sub, x, y);
        let ad = self.push(b, InstKind::Builtin(Builtin::Fabs, vec![d]), Type::F64, span);
        let ay = self.push(b, InstKind::Builtin(Builtin::Fabs, vec![y]), Type::F64, span);
        let r = self.emit_binary(b, span, BinaryOp::Mul, rtol, ay);
        let tol = self.emit_binary(b, span, BinaryOp::Add, atol, r);
        let near = self.emit_compare(b, span, CmpOp::Le, ad, tol);
        let same = self.emit_compare(b, span, CmpOp::Eq, x, y);
        let fx = self.push(b, InstKind::Builtin(Builtin::IsFinite, vec![x]), Type::BOOL, span);
        let fy = self.push(b, InstKind::Builtin(Builtin::IsFinite, vec![y]), Type::BOOL, span);
        let both = self.emit_binary(b, span, BinaryOp::BitAnd, fx, fy);
        let finite_close = self.emit_binary(b, span, BinaryOp::BitAnd, both, near);
        let out = self.emit_binary(b, span, BinaryOp::BitOr, finite_close, same);
        let nx = self.emit_compare(b, span, CmpOp::Ne, x, x);
        let ny = self.emit_compare(b, span, CmpOp::Ne, y, y);
        let nans = self.emit_binary(b, span, BinaryOp::BitAnd, nx, ny);
        let nan_eq = self.emit_binary(b, span, BinaryOp::BitAnd, nans, eq_nan);
        Ok(self.emit_binary(b, span, BinaryOp::BitOr, out, nan_eq))
    }

    /// `f` of the number `x`, or of each element of the array `x` into a new C array of its
    /// shape and `dtype` (the pattern of `searchsorted`, `digitize`, `interp`).
    fn map_number_or_array(
        &mut self,
        b: Block,
        x: Value,
        dtype: Scalar,
        span: Span,
        f: &mut dyn FnMut(&mut Self, Value) -> Result<Value, Diagnostic>,
    ) -> Result<Value, Diagnostic> {
        let Some(xt) = self.ty(x).array() else { return f(self, x) };
        let dims = self.dims(b, x, span);
        let out = self.new_c_array(b, dtype, dims.clone(), false, span);
        let (xs, os) = (self.strides(b, x, span), self.strides(b, out, span));
        self.loop_nest(b, &dims, span, &mut |rw, idx| {
            let o = rw.offset(b, &xs, idx, span);
            let e = rw.push(b, InstKind::Load(x, o), Type::Scalar(xt.dtype), span);
            let r = f(rw, e)?;
            let r = rw.coerce(b, r, &Type::Scalar(dtype), span)?;
            let oo = rw.offset(b, &os, idx, span);
            rw.push_void(b, InstKind::Store(out, oo, r), span);
            Ok(())
        })?;
        Ok(out)
    }

    /// Binary search in the sorted 1-D `a` (`n` elements): the first index whose element is
    /// not before `v` (`right`: the first after it).
    fn bisect(
        &mut self,
        b: Block,
        a: Value,
        n: Value,
        v: Value,
        right: Value,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let s = self.push(b, InstKind::Stride(a, 0), Type::I64, span);
        let sv = self.ty(v).scalar().expect("a number");
        let ct = Type::Scalar(typing::unify_scalar(at.dtype, sv));
        let v = self.coerce(b, v, &ct, span)?;
        let zero = self.int(b, 0, span);
        let out = self.while_loop(
            b,
            vec![zero, n],
            span,
            &mut |rw, p| Ok(rw.emit_compare(b, span, CmpOp::Lt, p[0], p[1])),
            &mut |rw, p| {
                let (lo, hi) = (p[0], p[1]);
                let d = rw.emit_binary(b, span, BinaryOp::Sub, hi, lo);
                let two = rw.int(b, 2, span);
                let h = rw.emit_binary(b, span, BinaryOp::FloorDiv, d, two);
                let mid = rw.emit_binary(b, span, BinaryOp::Add, lo, h);
                let o = rw.emit_binary(b, span, BinaryOp::Mul, mid, s);
                let e = rw.push(b, InstKind::Load(a, o), Type::Scalar(at.dtype), span);
                let e = rw.coerce(b, e, &ct, span)?;
                // left: go right while a[mid] < v; right: while !(v < a[mid]).
                let before = rw.sort_lt(b, e, v, span);
                let after = rw.sort_lt(b, v, e, span);
                let not_after = rw.push(b, InstKind::Unary(UnaryOp::Not, after), Type::BOOL, span);
                let go_right = rw.emit_select(b, span, right, not_after, before);
                let one = rw.int(b, 1, span);
                let m1 = rw.emit_binary(b, span, BinaryOp::Add, mid, one);
                Ok(vec![rw.emit_select(b, span, go_right, m1, lo), rw.emit_select(b, span, go_right, hi, mid)])
            },
        )?;
        Ok(out[0])
    }

    /// A NumPy function of [`ArrayMethod`] beyond the simple methods (new values; `src` the
    /// source operands, for constant arguments).
    pub(super) fn numpy_function(
        &mut self,
        b: Block,
        m: ArrayMethod,
        src: &[Value],
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let rdtype = match &rt {
            Type::Array(a) => a.dtype,
            t => t.scalar().unwrap_or(Scalar::Float64),
        };
        Ok(match m {
            ArrayMethod::Diff => {
                let n = self.const_int_arg(src.get(1).copied(), 1, "n", span)?;
                if n < 0 {
                    return Err(err(span, format!("order must be non-negative but got {n}"), "n"));
                }
                let at = self.ty(args[0]).array().expect("an array");
                let axis = at.ndim as usize - 1;
                let mut cur = self.copy_of(b, args[0], at.dtype, span)?;
                for _ in 0..n {
                    let dims = self.dims(b, cur, span);
                    let len = dims[axis];
                    let pos = self.emit_compare(b, span, CmpOp::Gt, len, zero);
                    let l1 = self.emit_binary(b, span, BinaryOp::Sub, len, one);
                    let l1 = self.emit_select(b, span, pos, l1, zero);
                    let mut odims = dims.clone();
                    odims[axis] = l1;
                    let out = self.new_c_array(b, at.dtype, odims.clone(), false, span);
                    let (cs, os) = (self.strides(b, cur, span), self.strides(b, out, span));
                    let src_arr = cur;
                    self.loop_nest(b, &odims, span, &mut |rw, idx| {
                        let o0 = rw.offset(b, &cs, idx, span);
                        let o1 = rw.emit_binary(b, span, BinaryOp::Add, o0, cs[axis]);
                        let x0 = rw.push(b, InstKind::Load(src_arr, o0), Type::Scalar(at.dtype), span);
                        let x1 = rw.push(b, InstKind::Load(src_arr, o1), Type::Scalar(at.dtype), span);
                        let d = if at.dtype == Scalar::Bool {
                            rw.emit_binary(b, span, BinaryOp::BitXor, x1, x0)
                        } else {
                            let ct = if at.dtype.is_float() { at.dtype } else { Scalar::Int64 };
                            let (x0, x1) = (
                                rw.coerce(b, x0, &Type::Scalar(ct), span)?,
                                rw.coerce(b, x1, &Type::Scalar(ct), span)?,
                            );
                            let d = rw.emit_binary(b, span, BinaryOp::Sub, x1, x0);
                            rw.coerce(b, d, &Type::Scalar(at.dtype), span)?
                        };
                        let oo = rw.offset(b, &os, idx, span);
                        rw.push_void(b, InstKind::Store(out, oo, d), span);
                        Ok(())
                    })?;
                    cur = out;
                }
                cur
            }
            ArrayMethod::Unique => {
                let at = self.ty(args[0]).array().expect("an array");
                let (sorted, n) = self.sorted_flat(b, args[0], span)?;
                // Keep an element unless it equals the one before (NaNs count as equal).
                let out = self.new_c_array(b, at.dtype, vec![n], false, span);
                let kept = self.fold(b, (zero, n), vec![zero], span, &mut |rw, i, v| {
                    let x = rw.push(b, InstKind::Load(sorted, i), Type::Scalar(at.dtype), span);
                    let first = rw.emit_compare(b, span, CmpOp::Eq, i, zero);
                    let i1 = rw.emit_binary(b, span, BinaryOp::Sub, i, one);
                    let ip = rw.emit_select(b, span, first, zero, i1);
                    let p = rw.push(b, InstKind::Load(sorted, ip), Type::Scalar(at.dtype), span);
                    let same = rw.emit_compare(b, span, CmpOp::Eq, p, x);
                    let same = match (rw.nan_test(b, p, span), rw.nan_test(b, x, span)) {
                        (Some(a), Some(c)) => {
                            let both = rw.emit_binary(b, span, BinaryOp::BitAnd, a, c);
                            rw.emit_binary(b, span, BinaryOp::BitOr, same, both)
                        }
                        _ => same,
                    };
                    let dup = rw.push(b, InstKind::Unary(UnaryOp::Not, first), Type::BOOL, span);
                    let dup = rw.emit_binary(b, span, BinaryOp::BitAnd, dup, same);
                    let keep = rw.push(b, InstKind::Unary(UnaryOp::Not, dup), Type::BOOL, span);
                    rw.if_values(b, keep, vec![v[0]], span, &mut |rw, k| {
                        rw.push_void(b, InstKind::Store(out, k[0], x), span);
                        let one = rw.int(b, 1, span);
                        Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, k[0], one)])
                    })
                })?;
                let v = self.push(
                    b,
                    InstKind::View { base: out, offset: zero, shape: vec![kept[0]], strides: vec![one] },
                    Type::Array(ArrayType { dtype: at.dtype, ndim: 1, layout: Layout::A }),
                    span,
                );
                self.copy_of(b, v, at.dtype, span)?
            }
            ArrayMethod::Searchsorted => {
                let a = args[0];
                let n = self.push(b, InstKind::Dim(a, 0), Type::I64, span);
                let right = self.truth(b, args[2], span)?;
                self.map_number_or_array(b, args[1], Scalar::Int64, span, &mut |rw, x| {
                    rw.bisect(b, a, n, x, right, span)
                })?
            }
            ArrayMethod::Concatenate
            | ArrayMethod::Stack
            | ArrayMethod::Hstack
            | ArrayMethod::Vstack
            | ArrayMethod::ColumnStack => {
                let parts = self.tuple_arrays(b, args[0], span);
                let ndim = self.ty(parts[0]).array().expect("arrays").ndim as usize;
                let out_ndim = rt.array().expect("an array").ndim as usize;
                let norm = |k: i64, n: usize| -> Result<usize, Diagnostic> {
                    typing::norm_axis(k, n as u8).map(|a| a as usize).ok_or_else(|| {
                        err(span, format!("axis {k} is out of bounds for array of dimension {n}"), "axis")
                    })
                };
                let (parts, axis) = match m {
                    ArrayMethod::Concatenate => {
                        let k = self.const_int_arg(src.get(1).copied(), 0, "axis", span)?;
                        (parts, norm(k, ndim)?)
                    }
                    ArrayMethod::Stack => {
                        let k = self.const_int_arg(src.get(1).copied(), 0, "axis", span)?;
                        let axis = norm(k, out_ndim)?;
                        (parts.iter().map(|&p| self.with_unit_axis(b, p, axis, span)).collect(), axis)
                    }
                    ArrayMethod::Hstack => (parts, if ndim == 1 { 0 } else { 1 }),
                    ArrayMethod::Vstack if ndim == 1 => {
                        (parts.iter().map(|&p| self.with_unit_axis(b, p, 0, span)).collect(), 0)
                    }
                    ArrayMethod::Vstack => (parts, 0),
                    _ if ndim == 1 => (parts.iter().map(|&p| self.with_unit_axis(b, p, 1, span)).collect(), 1),
                    _ => (parts, 1),
                };
                self.concatenate(b, &parts, axis, rdtype, span)?
            }
            ArrayMethod::Isclose | ArrayMethod::Allclose => {
                let f = |rw: &mut Self, v: Value, d: f64| -> Result<Value, Diagnostic> {
                    if rw.is_none(v) {
                        Ok(rw.push(b, InstKind::Const(Const::Float(d)), Type::F64, span))
                    } else {
                        rw.coerce(b, v, &Type::F64, span)
                    }
                };
                let rtol = f(self, args[2], 1e-05)?;
                let atol = f(self, args[3], 1e-08)?;
                let eq_nan = if self.is_none(args[4]) {
                    self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span)
                } else {
                    self.truth(b, args[4], span)?
                };
                let tols = (rtol, atol, eq_nan);
                let (x, y) = (args[0], args[1]);
                let arrays = matches!(self.ty(x), Type::Array(_)) || matches!(self.ty(y), Type::Array(_));
                if !arrays {
                    self.close_elem(b, x, y, tols, span)?
                } else {
                    // Broadcast both to one shape, then compare element by element.
                    let shape_of = |rw: &mut Self, v: Value| {
                        if matches!(rw.ty(v), Type::Array(_)) {
                            rw.dims(b, v, span)
                        } else {
                            vec![]
                        }
                    };
                    let (sx, sy) = (shape_of(self, x), shape_of(self, y));
                    let nd = sx.len().max(sy.len());
                    let dims = self.broadcast_shape(b, &[sx, sy], nd, span);
                    let m_ = "operands could not be broadcast together";
                    let view = |rw: &mut Self, v: Value| -> Result<Option<(Value, Vec<Value>)>, Diagnostic> {
                        if matches!(rw.ty(v), Type::Array(_)) {
                            let w = rw.broadcast_view(b, v, &dims, m_, span)?;
                            let s = rw.strides(b, w, span);
                            Ok(Some((w, s)))
                        } else {
                            Ok(None)
                        }
                    };
                    let (vx, vy) = (view(self, x)?, view(self, y)?);
                    let load = |rw: &mut Self, v: Value, w: &Option<(Value, Vec<Value>)>, idx: &[Value]| -> Value {
                        match w {
                            Some((a, s)) => {
                                let o = rw.offset(b, s, idx, span);
                                let d = rw.ty(*a).array().expect("an array").dtype;
                                rw.push(b, InstKind::Load(*a, o), Type::Scalar(d), span)
                            }
                            None => v,
                        }
                    };
                    if m == ArrayMethod::Allclose {
                        let t = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
                        let out = self.fold_index(b, &dims, vec![t], span, &mut |rw, idx, v| {
                            let (p, q) = (load(rw, x, &vx, idx), load(rw, y, &vy, idx));
                            let c = rw.close_elem(b, p, q, tols, span)?;
                            Ok(vec![rw.emit_binary(b, span, BinaryOp::BitAnd, v[0], c)])
                        })?;
                        out[0]
                    } else {
                        let out = self.new_c_array(b, Scalar::Bool, dims.clone(), false, span);
                        let os = self.strides(b, out, span);
                        self.loop_nest(b, &dims, span, &mut |rw, idx| {
                            let (p, q) = (load(rw, x, &vx, idx), load(rw, y, &vy, idx));
                            let c = rw.close_elem(b, p, q, tols, span)?;
                            let o = rw.offset(b, &os, idx, span);
                            rw.push_void(b, InstKind::Store(out, o, c), span);
                            Ok(())
                        })?;
                        out
                    }
                }
            }
            ArrayMethod::Interp => self.interp(b, args[0], args[1], args[2], span)?,
            ArrayMethod::Bincount => {
                let x = args[0];
                let xt = self.ty(x).array().expect("an array");
                let n = self.push(b, InstKind::Dim(x, 0), Type::I64, span);
                let s = self.push(b, InstKind::Stride(x, 0), Type::I64, span);
                // The largest value, refusing negative ones.
                let minus = self.int(b, -1, span);
                let top = self.fold(b, (zero, n), vec![minus], span, &mut |rw, i, v| {
                    let o = rw.emit_binary(b, span, BinaryOp::Mul, i, s);
                    let e = rw.push(b, InstKind::Load(x, o), Type::Scalar(xt.dtype), span);
                    let e = rw.coerce(b, e, &Type::I64, span)?;
                    let neg = rw.emit_compare(b, span, CmpOp::Lt, e, zero);
                    rw.raise_if(b, neg, "ValueError", "bincount(): first argument must be non-negative", span);
                    let gt = rw.emit_compare(b, span, CmpOp::Gt, e, v[0]);
                    Ok(vec![rw.emit_select(b, span, gt, e, v[0])])
                })?;
                let len = self.emit_binary(b, span, BinaryOp::Add, top[0], one);
                let len = if self.is_none(args[2]) {
                    len
                } else {
                    let ml = self.coerce(b, args[2], &Type::I64, span)?;
                    let neg = self.emit_compare(b, span, CmpOp::Lt, ml, zero);
                    self.raise_if(b, neg, "ValueError", "'minlength' must not be negative", span);
                    let gt = self.emit_compare(b, span, CmpOp::Gt, ml, len);
                    self.emit_select(b, span, gt, ml, len)
                };
                let out = self.new_c_array(b, rdtype, vec![len], true, span);
                let weights = (!self.is_none(args[1])).then_some(args[1]);
                if let Some(w) = weights {
                    let wn = self.push(b, InstKind::Dim(w, 0), Type::I64, span);
                    let ne = self.emit_compare(b, span, CmpOp::Ne, wn, n);
                    self.raise_if(b, ne, "ValueError", "weights and list don't have the same length.", span);
                }
                self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
                    let o = rw.emit_binary(b, span, BinaryOp::Mul, i, s);
                    let e = rw.push(b, InstKind::Load(x, o), Type::Scalar(xt.dtype), span);
                    let e = rw.coerce(b, e, &Type::I64, span)?;
                    let cur = rw.push(b, InstKind::Load(out, e), Type::Scalar(rdtype), span);
                    let add = match weights {
                        Some(w) => {
                            let wt = rw.ty(w).array().expect("an array").dtype;
                            let ws = rw.push(b, InstKind::Stride(w, 0), Type::I64, span);
                            let wo = rw.emit_binary(b, span, BinaryOp::Mul, i, ws);
                            let wv = rw.push(b, InstKind::Load(w, wo), Type::Scalar(wt), span);
                            rw.coerce(b, wv, &Type::Scalar(rdtype), span)?
                        }
                        None => rw.konst_of(b, rdtype, 1.0, span),
                    };
                    let nv = rw.emit_binary(b, span, BinaryOp::Add, cur, add);
                    rw.push_void(b, InstKind::Store(out, e, nv), span);
                    Ok(vec![])
                })?;
                out
            }
            ArrayMethod::Average => {
                let a = args[0];
                if self.is_none(args[1]) {
                    self.mean(b, &super::reductions::Source::Array(a), Scalar::Float64, span)?
                } else {
                    let w = args[1];
                    let (sa, sw) = (self.dims(b, a, span), self.dims(b, w, span));
                    for (x, y) in sa.iter().zip(&sw) {
                        let ne = self.emit_compare(b, span, CmpOp::Ne, *x, *y);
                        self.raise_if(
                            b,
                            ne,
                            "TypeError",
                            "Numba does not support average with weights when shapes differ.",
                            span,
                        );
                    }
                    let at = self.ty(a).array().expect("an array");
                    let wt = self.ty(w).array().expect("an array");
                    let (ss, ws) = (self.strides(b, a, span), self.strides(b, w, span));
                    let z = self.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
                    let out = self.fold_index(b, &sa, vec![z, z], span, &mut |rw, idx, v| {
                        let (oa, ow) = (rw.offset(b, &ss, idx, span), rw.offset(b, &ws, idx, span));
                        let x = rw.push(b, InstKind::Load(a, oa), Type::Scalar(at.dtype), span);
                        let q = rw.push(b, InstKind::Load(w, ow), Type::Scalar(wt.dtype), span);
                        let (x, q) = (rw.coerce(b, x, &Type::F64, span)?, rw.coerce(b, q, &Type::F64, span)?);
                        let xq = rw.emit_binary(b, span, BinaryOp::Mul, x, q);
                        Ok(vec![
                            rw.emit_binary(b, span, BinaryOp::Add, v[0], xq),
                            rw.emit_binary(b, span, BinaryOp::Add, v[1], q),
                        ])
                    })?;
                    let zf = self.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
                    let bad = self.emit_compare(b, span, CmpOp::Eq, out[1], zf);
                    self.raise_if(b, bad, "ZeroDivisionError", "Weights sum to zero, can't be normalized", span);
                    self.emit_binary(b, span, BinaryOp::Div, out[0], out[1])
                }
            }
            ArrayMethod::NanMedian => {
                let kept = self.without_nans(b, args[0], span)?;
                self.median(b, kept, span)?
            }
            ArrayMethod::Argwhere => {
                let a = args[0];
                let at = self.ty(a).array().expect("an array");
                let nd = self.int(b, at.ndim as i64, span);
                let idx_t =
                    Type::Tuple(vec![
                        Type::Array(ArrayType { dtype: Scalar::Int64, ndim: 1, layout: Layout::C });
                        at.ndim as usize
                    ]);
                let cols = self.array_method(b, ArrayMethod::Nonzero, src, args, idx_t, span)?;
                let cols = self.elements(b, cols, span);
                let n = self.push(b, InstKind::Dim(cols[0], 0), Type::I64, span);
                let out = self.new_c_array(b, Scalar::Int64, vec![n, nd], false, span);
                self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
                    let row = rw.emit_binary(b, span, BinaryOp::Mul, i, nd);
                    for (d, &c) in cols.iter().enumerate() {
                        let x = rw.push(b, InstKind::Load(c, i), Type::I64, span);
                        let dk = rw.int(b, d as i64, span);
                        let o = rw.emit_binary(b, span, BinaryOp::Add, row, dk);
                        rw.push_void(b, InstKind::Store(out, o, x), span);
                    }
                    Ok(vec![])
                })?;
                out
            }
            ArrayMethod::Histogram => self.histogram(b, args, span)?,
            ArrayMethod::ArrayEqual => {
                let (x, y) = (args[0], args[1]);
                let (xt, yt) = (self.ty(x).array().expect("an array"), self.ty(y).array().expect("an array"));
                if xt.ndim != yt.ndim {
                    return Ok(self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span));
                }
                let (dx, dy) = (self.dims(b, x, span), self.dims(b, y, span));
                let mut same = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
                for (p, q) in dx.iter().zip(&dy) {
                    let e = self.emit_compare(b, span, CmpOp::Eq, *p, *q);
                    same = self.emit_binary(b, span, BinaryOp::BitAnd, same, e);
                }
                let (sx, sy) = (self.strides(b, x, span), self.strides(b, y, span));
                let ct = Type::Scalar(typing::unify_scalar(xt.dtype, yt.dtype));
                self.if_values(b, same, vec![same], span, &mut |rw, v| {
                    rw.fold_index(b, &dx, v.to_vec(), span, &mut |rw, idx, acc| {
                        let (ox, oy) = (rw.offset(b, &sx, idx, span), rw.offset(b, &sy, idx, span));
                        let p = rw.push(b, InstKind::Load(x, ox), Type::Scalar(xt.dtype), span);
                        let q = rw.push(b, InstKind::Load(y, oy), Type::Scalar(yt.dtype), span);
                        let (p, q) = (rw.coerce(b, p, &ct, span)?, rw.coerce(b, q, &ct, span)?);
                        let e = rw.emit_compare(b, span, CmpOp::Eq, p, q);
                        Ok(vec![rw.emit_binary(b, span, BinaryOp::BitAnd, acc[0], e)])
                    })
                })?[0]
            }
            ArrayMethod::Digitize => {
                // Increasing bins: the count of edges <= x (`right`: < x), a searchsorted.
                let bins = args[1];
                let n = self.push(b, InstKind::Dim(bins, 0), Type::I64, span);
                let right = if self.is_none(args[2]) {
                    self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span)
                } else {
                    let r = self.truth(b, args[2], span)?;
                    self.push(b, InstKind::Unary(UnaryOp::Not, r), Type::BOOL, span)
                };
                self.map_number_or_array(b, args[0], Scalar::Int64, span, &mut |rw, v| {
                    rw.bisect(b, bins, n, v, right, span)
                })?
            }
            ArrayMethod::Take | ArrayMethod::Repeat | ArrayMethod::Roll => {
                let at = self.ty(args[0]).array().expect("an array");
                let flat = self.copy_of(b, args[0], at.dtype, span)?;
                let dims = self.dims(b, flat, span);
                let n = self.product(b, &dims, span);
                let dt = Type::Scalar(at.dtype);
                match m {
                    ArrayMethod::Take => match self.ty(args[1]) {
                        Type::Array(it) => {
                            let idx = args[1];
                            let idims = self.dims(b, idx, span);
                            let out = self.new_c_array(b, at.dtype, idims.clone(), false, span);
                            let (is, os) = (self.strides(b, idx, span), self.strides(b, out, span));
                            self.loop_nest(b, &idims, span, &mut |rw, ii| {
                                let o = rw.offset(b, &is, ii, span);
                                let k = rw.push(b, InstKind::Load(idx, o), Type::Scalar(it.dtype), span);
                                let k = rw.wrap_checked(b, k, n, span)?;
                                let x = rw.push(b, InstKind::Load(flat, k), dt.clone(), span);
                                let oo = rw.offset(b, &os, ii, span);
                                rw.push_void(b, InstKind::Store(out, oo, x), span);
                                Ok(())
                            })?;
                            out
                        }
                        _ => {
                            let k = self.wrap_checked(b, args[1], n, span)?;
                            self.push(b, InstKind::Load(flat, k), dt, span)
                        }
                    },
                    ArrayMethod::Repeat => {
                        let r = self.coerce(b, args[1], &Type::I64, span)?;
                        let neg = self.emit_compare(b, span, CmpOp::Lt, r, zero);
                        self.raise_if(b, neg, "ValueError", "negative dimensions are not allowed", span);
                        let total = self.emit_binary(b, span, BinaryOp::Mul, n, r);
                        let out = self.new_c_array(b, at.dtype, vec![total], false, span);
                        self.fold(b, (zero, total), vec![], span, &mut |rw, k, _| {
                            let src = rw.emit_binary(b, span, BinaryOp::FloorDiv, k, r);
                            let x = rw.push(b, InstKind::Load(flat, src), dt.clone(), span);
                            rw.push_void(b, InstKind::Store(out, k, x), span);
                            Ok(vec![])
                        })?;
                        out
                    }
                    _ => {
                        // out[(k + shift) mod n] = flat[k], in the input's shape.
                        let out = self.new_c_array(b, at.dtype, dims.clone(), false, span);
                        let pos = self.emit_compare(b, span, CmpOp::Gt, n, zero);
                        let safe_n = self.emit_select(b, span, pos, n, one);
                        let sh = self.coerce(b, args[1], &Type::I64, span)?;
                        let sh = self.emit_binary(b, span, BinaryOp::Mod, sh, safe_n);
                        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
                            let t = rw.emit_binary(b, span, BinaryOp::Add, k, sh);
                            let t = rw.emit_binary(b, span, BinaryOp::Mod, t, safe_n);
                            let x = rw.push(b, InstKind::Load(flat, k), dt.clone(), span);
                            rw.push_void(b, InstKind::Store(out, t, x), span);
                            Ok(vec![])
                        })?;
                        out
                    }
                }
            }
            ArrayMethod::FillDiagonal => {
                // NumPy's walk over the flat C index in steps of cols + 1, up to cols * cols
                // (a tall matrix restarts below the square only with wrap=True).
                let a = args[0];
                let at = self.ty(a).array().expect("an array");
                let (dx, sx) = (self.dims(b, a, span), self.strides(b, a, span));
                let v = self.coerce(b, args[1], &Type::Scalar(at.dtype), span)?;
                let wrap = match args.get(2) {
                    Some(&w) if !self.is_none(w) => self.truth(b, w, span)?,
                    _ => self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span),
                };
                let size = self.emit_binary(b, span, BinaryOp::Mul, dx[0], dx[1]);
                let square = self.emit_binary(b, span, BinaryOp::Mul, dx[1], dx[1]);
                let lt = self.emit_compare(b, span, CmpOp::Lt, square, size);
                let short = self.emit_select(b, span, lt, square, size);
                let end = self.emit_select(b, span, wrap, size, short);
                let step = self.emit_binary(b, span, BinaryOp::Add, dx[1], one);
                let gt0 = self.emit_compare(b, span, CmpOp::Gt, dx[1], zero);
                let cols = self.emit_select(b, span, gt0, dx[1], one);
                self.while_below(b, vec![zero], end, span, &mut |rw, p| {
                    let (i, j) = (
                        rw.emit_binary(b, span, BinaryOp::FloorDiv, p[0], cols),
                        rw.emit_binary(b, span, BinaryOp::Mod, p[0], cols),
                    );
                    let o = rw.offset(b, &sx, &[i, j], span);
                    rw.push_void(b, InstKind::Store(a, o, v), span);
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, p[0], step)])
                })?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            ArrayMethod::Triu | ArrayMethod::Tril => {
                let a = args[0];
                let at = self.ty(a).array().expect("an array");
                let out = self.copy_of(b, a, at.dtype, span)?;
                let k = if self.is_none(args[1]) { zero } else { self.coerce(b, args[1], &Type::I64, span)? };
                let dims = self.dims(b, out, span);
                let zv = self.konst_of(b, at.dtype, 0.0, span);
                let upper = m == ArrayMethod::Triu;
                let cols = dims[1];
                self.loop_nest(b, &dims, span, &mut |rw, idx| {
                    // triu keeps j - i >= k; tril keeps j - i <= k.
                    let d = rw.emit_binary(b, span, BinaryOp::Sub, idx[1], idx[0]);
                    let drop = if upper {
                        rw.emit_compare(b, span, CmpOp::Lt, d, k)
                    } else {
                        rw.emit_compare(b, span, CmpOp::Gt, d, k)
                    };
                    let row = rw.emit_binary(b, span, BinaryOp::Mul, idx[0], cols);
                    let o = rw.emit_binary(b, span, BinaryOp::Add, row, idx[1]);
                    let cur = rw.push(b, InstKind::Load(out, o), Type::Scalar(at.dtype), span);
                    let v = rw.emit_select(b, span, drop, zv, cur);
                    rw.push_void(b, InstKind::Store(out, o, v), span);
                    Ok(())
                })?;
                out
            }
            ArrayMethod::Percentile | ArrayMethod::Quantile | ArrayMethod::NanPercentile | ArrayMethod::NanQuantile => {
                let quantile = matches!(m, ArrayMethod::Quantile | ArrayMethod::NanQuantile);
                let source = if matches!(m, ArrayMethod::NanPercentile | ArrayMethod::NanQuantile) {
                    self.without_nans(b, args[0], span)?
                } else {
                    args[0]
                };
                let scale = if quantile { 100.0 } else { 1.0 };
                let (lo, hi, what) = if quantile {
                    (0.0, 1.0, "Quantiles must be in the range [0, 1]")
                } else {
                    (0.0, 100.0, "Percentiles must be in the range [0, 100]")
                };
                let (sorted, n) = self.sorted_flat(b, source, span)?;
                let one_q = |rw: &mut Self, q: Value| -> Result<Value, Diagnostic> {
                    let q = rw.coerce(b, q, &Type::F64, span)?;
                    let (l, h) = (
                        rw.push(b, InstKind::Const(Const::Float(lo)), Type::F64, span),
                        rw.push(b, InstKind::Const(Const::Float(hi)), Type::F64, span),
                    );
                    let below = rw.emit_compare(b, span, CmpOp::Lt, q, l);
                    let above = rw.emit_compare(b, span, CmpOp::Gt, q, h);
                    let out = rw.emit_binary(b, span, BinaryOp::BitOr, below, above);
                    rw.raise_if(b, out, "ValueError", what, span);
                    let k = rw.push(b, InstKind::Const(Const::Float(scale)), Type::F64, span);
                    let p = rw.emit_binary(b, span, BinaryOp::Mul, q, k);
                    rw.percentile_of_sorted(b, sorted, n, p, span)
                };
                let mut one_q = one_q;
                self.map_number_or_array(b, args[1], Scalar::Float64, span, &mut one_q)?
            }
            _ => unreachable!("handled by array_method"),
        })
    }

    /// A new 1-D array of the elements of `a` (in C order) that are not NaN.
    fn without_nans(&mut self, b: Block, a: Value, span: Span) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let dims = self.dims(b, a, span);
        let n = self.product(b, &dims, span);
        let out = self.new_c_array(b, at.dtype, vec![n], false, span);
        let zero = self.int(b, 0, span);
        let kept = self.fold_elements(b, a, vec![zero], span, &mut |rw, x, v| {
            let keep = match rw.nan_test(b, x, span) {
                Some(nan) => rw.push(b, InstKind::Unary(UnaryOp::Not, nan), Type::BOOL, span),
                None => rw.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span),
            };
            rw.if_values(b, keep, vec![v[0]], span, &mut |rw, k| {
                rw.push_void(b, InstKind::Store(out, k[0], x), span);
                let one = rw.int(b, 1, span);
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, k[0], one)])
            })
        })?;
        let one = self.int(b, 1, span);
        let t = Type::Array(ArrayType { dtype: at.dtype, ndim: 1, layout: Layout::A });
        Ok(self.push(b, InstKind::View { base: out, offset: zero, shape: vec![kept[0]], strides: vec![one] }, t, span))
    }

    /// `np.histogram(a, bins, range)` (new values), Numba's algorithm.
    fn histogram(&mut self, b: Block, args: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let a = args[0];
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let counts_t = Type::Array(ArrayType { dtype: Scalar::Int64, ndim: 1, layout: Layout::C });
        let edges_t = Type::Array(ArrayType { dtype: Scalar::Float64, ndim: 1, layout: Layout::C });
        let rt = Type::Tuple(vec![counts_t, edges_t]);
        if let Type::Array(bt) = self.ty(args[1]) {
            // Given edges: bisection in bins[:-1]; values outside (and NaN) are skipped.
            let bins = args[1];
            let nb = self.push(b, InstKind::Dim(bins, 0), Type::I64, span);
            let bs = self.push(b, InstKind::Stride(bins, 0), Type::I64, span);
            let nbins = self.emit_binary(b, span, BinaryOp::Sub, nb, one);
            let get = |rw: &mut Self, k: Value| -> Result<Value, Diagnostic> {
                let o = rw.emit_binary(b, span, BinaryOp::Mul, k, bs);
                let e = rw.push(b, InstKind::Load(bins, o), Type::Scalar(bt.dtype), span);
                rw.coerce(b, e, &Type::F64, span)
            };
            self.fold(b, (zero, nbins), vec![], span, &mut |rw, i, _| {
                let i1 = rw.emit_binary(b, span, BinaryOp::Add, i, one);
                let (x, y) = (get(rw, i)?, get(rw, i1)?);
                let ok = rw.emit_compare(b, span, CmpOp::Le, x, y);
                let bad = rw.push(b, InstKind::Unary(UnaryOp::Not, ok), Type::BOOL, span);
                rw.raise_if(b, bad, "ValueError", "histogram(): bins must increase monotonically", span);
                Ok(vec![])
            })?;
            let hist = self.new_c_array(b, Scalar::Int64, vec![nbins], true, span);
            let pos = self.emit_compare(b, span, CmpOp::Gt, nbins, zero);
            self.if_values(b, pos, vec![], span, &mut |rw, _| {
                let lo_e = get(rw, zero)?;
                let hi_e = get(rw, nbins)?;
                rw.fold_elements(b, a, vec![], span, &mut |rw, v, _| {
                    let v = rw.coerce(b, v, &Type::F64, span)?;
                    let ge = rw.emit_compare(b, span, CmpOp::Le, lo_e, v);
                    let le = rw.emit_compare(b, span, CmpOp::Le, v, hi_e);
                    let inside = rw.emit_binary(b, span, BinaryOp::BitAnd, ge, le);
                    rw.if_values(b, inside, vec![], span, &mut |rw, _| {
                        let top = rw.emit_binary(b, span, BinaryOp::Sub, nbins, one);
                        let found = rw.while_loop(
                            b,
                            vec![zero, top],
                            span,
                            &mut |rw, p| Ok(rw.emit_compare(b, span, CmpOp::Lt, p[0], p[1])),
                            &mut |rw, p| {
                                let s = rw.emit_binary(b, span, BinaryOp::Add, p[0], p[1]);
                                let s = rw.emit_binary(b, span, BinaryOp::Add, s, one);
                                let mid = rw.emit_binary(b, span, BinaryOp::Shr, s, one);
                                let bm = get(rw, mid)?;
                                let left = rw.emit_compare(b, span, CmpOp::Lt, v, bm);
                                let m1 = rw.emit_binary(b, span, BinaryOp::Sub, mid, one);
                                Ok(vec![
                                    rw.emit_select(b, span, left, p[0], mid),
                                    rw.emit_select(b, span, left, m1, p[1]),
                                ])
                            },
                        )?;
                        let cur = rw.push(b, InstKind::Load(hist, found[0]), Type::I64, span);
                        let nv = rw.emit_binary(b, span, BinaryOp::Add, cur, one);
                        rw.push_void(b, InstKind::Store(hist, found[0], nv), span);
                        Ok(vec![])
                    })?;
                    Ok(vec![])
                })?;
                Ok(vec![])
            })?;
            let edges = self.copy_of(b, bins, Scalar::Float64, span)?;
            return Ok(self.push(b, InstKind::MakeTuple(vec![hist, edges]), rt, span));
        }
        let nbins =
            if self.is_none(args[1]) { self.int(b, 10, span) } else { self.coerce(b, args[1], &Type::I64, span)? };
        let (lo, hi) = if self.is_none(args[2]) {
            let inf = self.push(b, InstKind::Const(Const::Float(f64::INFINITY)), Type::F64, span);
            let ninf = self.push(b, InstKind::Const(Const::Float(f64::NEG_INFINITY)), Type::F64, span);
            let out = self.fold_elements(b, a, vec![inf, ninf], span, &mut |rw, v, p| {
                let v = rw.coerce(b, v, &Type::F64, span)?;
                let lt = rw.emit_compare(b, span, CmpOp::Gt, p[0], v);
                let gt = rw.emit_compare(b, span, CmpOp::Lt, p[1], v);
                Ok(vec![rw.emit_select(b, span, lt, v, p[0]), rw.emit_select(b, span, gt, v, p[1])])
            })?;
            (out[0], out[1])
        } else {
            let parts = self.elements(b, args[2], span);
            (self.coerce(b, parts[0], &Type::F64, span)?, self.coerce(b, parts[1], &Type::F64, span)?)
        };
        let nonpos = self.emit_compare(b, span, CmpOp::Le, nbins, zero);
        self.raise_if(b, nonpos, "ValueError", "histogram(): `bins` should be a positive integer", span);
        let ordered = self.emit_compare(b, span, CmpOp::Le, lo, hi);
        let bad = self.push(b, InstKind::Unary(UnaryOp::Not, ordered), Type::BOOL, span);
        self.raise_if(b, bad, "ValueError", "histogram(): max must be larger than min in range parameter", span);
        let hist = self.new_c_array(b, Scalar::Int64, vec![nbins], true, span);
        let wide = self.emit_compare(b, span, CmpOp::Gt, hi, lo);
        self.if_values(b, wide, vec![], span, &mut |rw, _| {
            let nf = rw.coerce(b, nbins, &Type::F64, span)?;
            let w = rw.emit_binary(b, span, BinaryOp::Sub, hi, lo);
            let ratio = rw.emit_binary(b, span, BinaryOp::Div, nf, w);
            let last = rw.emit_binary(b, span, BinaryOp::Sub, nbins, one);
            rw.fold_elements(b, a, vec![], span, &mut |rw, v, _| {
                let v = rw.coerce(b, v, &Type::F64, span)?;
                let d = rw.emit_binary(b, span, BinaryOp::Sub, v, lo);
                let t = rw.emit_binary(b, span, BinaryOp::Mul, d, ratio);
                let fl = rw.push(b, InstKind::Builtin(Builtin::NpFloor, vec![t]), Type::F64, span);
                let zf = rw.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
                let ge = rw.emit_compare(b, span, CmpOp::Ge, fl, zf);
                let lt = rw.emit_compare(b, span, CmpOp::Lt, fl, nf);
                let inside = rw.emit_binary(b, span, BinaryOp::BitAnd, ge, lt);
                let at_max = rw.emit_compare(b, span, CmpOp::Eq, v, hi);
                let count = rw.emit_binary(b, span, BinaryOp::BitOr, inside, at_max);
                rw.if_values(b, count, vec![], span, &mut |rw, _| {
                    let k = rw.coerce(b, fl, &Type::I64, span)?;
                    let k = rw.emit_select(b, span, inside, k, last);
                    let cur = rw.push(b, InstKind::Load(hist, k), Type::I64, span);
                    let nv = rw.emit_binary(b, span, BinaryOp::Add, cur, one);
                    rw.push_void(b, InstKind::Store(hist, k, nv), span);
                    Ok(vec![])
                })?;
                Ok(vec![])
            })?;
            Ok(vec![])
        })?;
        let n1 = self.emit_binary(b, span, BinaryOp::Add, nbins, one);
        let edges_t = Type::Array(ArrayType { dtype: Scalar::Float64, ndim: 1, layout: Layout::C });
        let edges = self.alloc(b, crate::builtins::Alloc::Linspace, &[lo, hi, n1], edges_t, span)?;
        Ok(self.push(b, InstKind::MakeTuple(vec![hist, edges]), rt, span))
    }

    /// Numba's percentile `p` (in [0, 100]) of the sorted 1-D `s` of `n` elements: NaN when
    /// empty or when a NaN is present, the extremes at 0 and 100, else
    /// `lower * (1 - m) + upper * m` at rank `1 + (n - 1) * p / 100`.
    fn percentile_of_sorted(
        &mut self,
        b: Block,
        s: Value,
        n: Value,
        p: Value,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let dt = self.ty(s).array().expect("an array").dtype;
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let nan = self.push(b, InstKind::Const(Const::Float(f64::NAN)), Type::F64, span);
        let nonempty = self.emit_compare(b, span, CmpOp::Gt, n, zero);
        let out = self.if_values(b, nonempty, vec![nan], span, &mut |rw, _| {
            let last = rw.emit_binary(b, span, BinaryOp::Sub, n, one);
            let get = |rw: &mut Self, k: Value| -> Result<Value, Diagnostic> {
                let e = rw.push(b, InstKind::Load(s, k), Type::Scalar(dt), span);
                rw.coerce(b, e, &Type::F64, span)
            };
            let (first_v, last_v) = (get(rw, zero)?, get(rw, last)?);
            let hundred = rw.push(b, InstKind::Const(Const::Float(100.0)), Type::F64, span);
            let frac = rw.emit_binary(b, span, BinaryOp::Div, p, hundred);
            let n1 = rw.coerce(b, last, &Type::F64, span)?;
            let onef = rw.push(b, InstKind::Const(Const::Float(1.0)), Type::F64, span);
            let r = rw.emit_binary(b, span, BinaryOp::Mul, n1, frac);
            let rank = rw.emit_binary(b, span, BinaryOp::Add, onef, r);
            let f = rw.push(b, InstKind::Builtin(Builtin::NpFloor, vec![rank]), Type::F64, span);
            let mm = rw.emit_binary(b, span, BinaryOp::Sub, rank, f);
            let fi = rw.coerce(b, f, &Type::I64, span)?;
            let k = rw.emit_binary(b, span, BinaryOp::Sub, fi, one);
            // Clamp the reads (the 0 and 100 cases take the extremes below).
            let klo = rw.emit_compare(b, span, CmpOp::Lt, k, zero);
            let k = rw.emit_select(b, span, klo, zero, k);
            let khi = rw.emit_compare(b, span, CmpOp::Gt, k, last);
            let k = rw.emit_select(b, span, khi, last, k);
            let k1 = rw.emit_binary(b, span, BinaryOp::Add, k, one);
            let k1hi = rw.emit_compare(b, span, CmpOp::Gt, k1, last);
            let k1 = rw.emit_select(b, span, k1hi, last, k1);
            let (lower, upper) = (get(rw, k)?, get(rw, k1)?);
            let om = rw.emit_binary(b, span, BinaryOp::Sub, onef, mm);
            let a = rw.emit_binary(b, span, BinaryOp::Mul, lower, om);
            let c = rw.emit_binary(b, span, BinaryOp::Mul, upper, mm);
            let v = rw.emit_binary(b, span, BinaryOp::Add, a, c);
            let zf = rw.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
            let is0 = rw.emit_compare(b, span, CmpOp::Eq, p, zf);
            let is100 = rw.emit_compare(b, span, CmpOp::Eq, p, hundred);
            let v = rw.emit_select(b, span, is0, first_v, v);
            let v = rw.emit_select(b, span, is100, last_v, v);
            // A NaN sorts last: its presence makes the result NaN.
            let has_nan = rw.emit_compare(b, span, CmpOp::Ne, last_v, last_v);
            Ok(vec![rw.emit_select(b, span, has_nan, last_v, v)])
        })?;
        Ok(out[0])
    }

    /// `np.interp(x, xp, fp)`, NumPy's algorithm as Numba transcribes it.
    fn interp(&mut self, b: Block, x: Value, xp: Value, fp: Value, span: Span) -> Result<Value, Diagnostic> {
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let n = self.push(b, InstKind::Dim(xp, 0), Type::I64, span);
        let nf = self.push(b, InstKind::Dim(fp, 0), Type::I64, span);
        let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
        self.raise_if(b, empty, "ValueError", "array of sample points is empty", span);
        let ne = self.emit_compare(b, span, CmpOp::Ne, n, nf);
        self.raise_if(b, ne, "ValueError", "fp and xp are not of the same size.", span);
        let (xt, ft) = (self.ty(xp).array().expect("an array").dtype, self.ty(fp).array().expect("an array").dtype);
        let (sx, sf) = (
            self.push(b, InstKind::Stride(xp, 0), Type::I64, span),
            self.push(b, InstKind::Stride(fp, 0), Type::I64, span),
        );
        let at = |rw: &mut Self, a: Value, s: Value, t: Scalar, k: Value| -> Result<Value, Diagnostic> {
            let o = rw.emit_binary(b, span, BinaryOp::Mul, k, s);
            let e = rw.push(b, InstKind::Load(a, o), Type::Scalar(t), span);
            rw.coerce(b, e, &Type::F64, span)
        };
        let last = self.emit_binary(b, span, BinaryOp::Sub, n, one);
        let lval = at(self, fp, sf, ft, zero)?;
        let rval = at(self, fp, sf, ft, last)?;
        let truth = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        let one_x = |rw: &mut Self, xv: Value| -> Result<Value, Diagnostic> {
            let xv = rw.coerce(b, xv, &Type::F64, span)?;
            // j: the last sample point <= x (-1 when below all), by binary search.
            let r = rw.bisect(b, xp, n, xv, truth, span)?;
            let j = rw.emit_binary(b, span, BinaryOp::Sub, r, one);
            let jlo = rw.emit_compare(b, span, CmpOp::Lt, j, zero);
            let jc = rw.emit_select(b, span, jlo, zero, j);
            let j1 = rw.emit_binary(b, span, BinaryOp::Add, jc, one);
            let j1hi = rw.emit_compare(b, span, CmpOp::Gt, j1, last);
            let j1c = rw.emit_select(b, span, j1hi, last, j1);
            let (xj, xj1) = (at(rw, xp, sx, xt, jc)?, at(rw, xp, sx, xt, j1c)?);
            let (yj, yj1) = (at(rw, fp, sf, ft, jc)?, at(rw, fp, sf, ft, j1c)?);
            let dy = rw.emit_binary(b, span, BinaryOp::Sub, yj1, yj);
            let dx = rw.emit_binary(b, span, BinaryOp::Sub, xj1, xj);
            let slope = rw.emit_binary(b, span, BinaryOp::Div, dy, dx);
            let off = rw.emit_binary(b, span, BinaryOp::Sub, xv, xj);
            let t = rw.emit_binary(b, span, BinaryOp::Mul, slope, off);
            let v = rw.emit_binary(b, span, BinaryOp::Add, t, yj);
            // A NaN from one side: try the other; equal neighbours give their value.
            let vnan = rw.emit_compare(b, span, CmpOp::Ne, v, v);
            let off1 = rw.emit_binary(b, span, BinaryOp::Sub, xv, xj1);
            let t1 = rw.emit_binary(b, span, BinaryOp::Mul, slope, off1);
            let v1 = rw.emit_binary(b, span, BinaryOp::Add, t1, yj1);
            let v = rw.emit_select(b, span, vnan, v1, v);
            let vnan = rw.emit_compare(b, span, CmpOp::Ne, v, v);
            let flat = rw.emit_compare(b, span, CmpOp::Eq, yj, yj1);
            let use_y = rw.emit_binary(b, span, BinaryOp::BitAnd, vnan, flat);
            let v = rw.emit_select(b, span, use_y, yj, v);
            let exact = rw.emit_compare(b, span, CmpOp::Eq, xj, xv);
            let v = rw.emit_select(b, span, exact, yj, v);
            let at_last = rw.emit_compare(b, span, CmpOp::Eq, j, last);
            let v = rw.emit_select(b, span, at_last, rval, v);
            let above = rw.emit_compare(b, span, CmpOp::Eq, r, n);
            let xlast = at(rw, xp, sx, xt, last)?;
            let beyond = rw.emit_compare(b, span, CmpOp::Gt, xv, xlast);
            let above = rw.emit_binary(b, span, BinaryOp::BitAnd, above, beyond);
            let v = rw.emit_select(b, span, above, rval, v);
            let v = rw.emit_select(b, span, jlo, lval, v);
            let single = rw.emit_compare(b, span, CmpOp::Eq, n, one);
            let v = rw.emit_select(b, span, single, lval, v);
            let xnan = rw.emit_compare(b, span, CmpOp::Ne, xv, xv);
            Ok(rw.emit_select(b, span, xnan, xv, v))
        };
        let mut one_x = one_x;
        self.map_number_or_array(b, x, Scalar::Float64, span, &mut one_x)
    }
}
