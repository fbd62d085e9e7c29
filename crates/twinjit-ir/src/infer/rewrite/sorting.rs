//! The rewrite of array sorting: `np.sort`, `a.sort()`, `np.argsort` and `np.median`, by a
//! stable sort written as IR loops (NaNs sort last, as NumPy's and Numba's `lt` order them):
//! insertion sort on runs of 16, then bottom-up merging back and forth between the array and a
//! scratch one. Numba's default `quicksort` sorts up to 16 elements by insertion sort, stable
//! too, so `argsort` ties agree with it there; on longer arrays with equal keys the order of
//! the tied indices may differ from Numba's (the values never do).

use super::*;
use crate::types::{ArrayType, Layout};

/// The length of the runs insertion sort makes before merging.
const RUN: i64 = 16;

impl Rewriter<'_> {
    /// `x < y` with NaN after every number.
    pub(super) fn sort_lt(&mut self, b: Block, x: Value, y: Value, span: Span) -> Value {
        let lt = self.emit_compare(b, span, CmpOp::Lt, x, y);
        if !self.ty(x).scalar().is_some_and(|s| s.is_float()) {
            return lt;
        }
        let ny = self.emit_compare(b, span, CmpOp::Ne, y, y);
        let nx = self.emit_compare(b, span, CmpOp::Ne, x, x);
        let num = self.push(b, InstKind::Unary(UnaryOp::Not, nx), Type::BOOL, span);
        let last = self.emit_binary(b, span, BinaryOp::BitAnd, ny, num);
        self.emit_binary(b, span, BinaryOp::BitOr, lt, last)
    }

    /// Sorts the 1-D contiguous array `data` in place, stably, moving the elements of the
    /// 1-D C array `payload` (if any) along with their keys. Runs are merged back and forth between
    /// `data` and a scratch array (two passes per round), copied back once at the end when
    /// the last pass wrote the scratch array.
    fn merge_sort_array(
        &mut self,
        b: Block,
        data: Value,
        payload: Option<Value>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let n = self.push(b, InstKind::Dim(data, 0), Type::I64, span);
        let scratch = |rw: &mut Self, a: Value| {
            let dt = rw.ty(a).array().expect("an array").dtype;
            rw.push(
                b,
                InstKind::NewArray { dtype: dt, shape: vec![n], zeroed: false },
                Type::Array(ArrayType { dtype: dt, ndim: 1, layout: Layout::C }),
                span,
            )
        };
        let tmp = scratch(self, data);
        let ptmp = payload.map(|p| scratch(self, p));
        // Runs of RUN elements sorted by insertion first (stable), then merged.
        self.insertion_runs(b, data, payload, n, span)?;
        let run = self.int(b, RUN, span);
        self.while_below(b, vec![run], n, span, &mut |rw, v| {
            let width = v[0];
            rw.merge_pass(b, (data, tmp), payload.zip(ptmp), width, n, span)?;
            let two = rw.int(b, 2, span);
            let w2 = rw.emit_binary(b, span, BinaryOp::Mul, width, two);
            let more = rw.emit_compare(b, span, CmpOp::Lt, w2, n);
            let next = rw.if_else_values(
                b,
                more,
                vec![w2],
                span,
                &mut |rw, w| {
                    rw.merge_pass(b, (tmp, data), ptmp.zip(payload), w[0], n, span)?;
                    let two = rw.int(b, 2, span);
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Mul, w[0], two)])
                },
                &mut |rw, w| {
                    rw.copy_elements(b, data, tmp, span)?;
                    if let (Some(p), Some(pt)) = (payload, ptmp) {
                        rw.copy_elements(b, p, pt, span)?;
                    }
                    Ok(vec![w[0]])
                },
            )?;
            Ok(next)
        })?;
        Ok(())
    }

    /// Sorts each run `[k * RUN, (k + 1) * RUN)` of `data` by insertion (stable: an element
    /// moves left only past strictly greater ones), moving `payload` along.
    fn insertion_runs(
        &mut self,
        b: Block,
        data: Value,
        payload: Option<Value>,
        n: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let dt = self.ty(data).array().expect("an array").dtype;
        let zero = self.int(b, 0, span);
        let run = self.int(b, RUN, span);
        self.while_below(b, vec![zero], n, span, &mut |rw, u| {
            let lo = u[0];
            let h = rw.emit_binary(b, span, BinaryOp::Add, lo, run);
            let short = rw.emit_compare(b, span, CmpOp::Lt, h, n);
            let hi = rw.emit_select(b, span, short, h, n);
            let one = rw.int(b, 1, span);
            let start = rw.emit_binary(b, span, BinaryOp::Add, lo, one);
            rw.fold(b, (start, hi), vec![], span, &mut |rw, i, _| {
                let x = rw.push(b, InstKind::Load(data, i), Type::Scalar(dt), span);
                let px = payload.map(|p| {
                    let pt = rw.ty(p).array().expect("an array").dtype;
                    rw.push(b, InstKind::Load(p, i), Type::Scalar(pt), span)
                });
                let end = rw.while_loop(
                    b,
                    vec![i],
                    span,
                    &mut |rw, v| {
                        // j > lo and x < data[j - 1] (read at a safe position when j == lo).
                        let j = v[0];
                        let more = rw.emit_compare(b, span, CmpOp::Gt, j, lo);
                        let one = rw.int(b, 1, span);
                        let jm1 = rw.emit_binary(b, span, BinaryOp::Sub, j, one);
                        let at = rw.emit_select(b, span, more, jm1, lo);
                        let y = rw.push(b, InstKind::Load(data, at), Type::Scalar(dt), span);
                        let lt = rw.sort_lt(b, x, y, span);
                        Ok(rw.emit_binary(b, span, BinaryOp::BitAnd, more, lt))
                    },
                    &mut |rw, v| {
                        let j = v[0];
                        let one = rw.int(b, 1, span);
                        let jm1 = rw.emit_binary(b, span, BinaryOp::Sub, j, one);
                        let y = rw.push(b, InstKind::Load(data, jm1), Type::Scalar(dt), span);
                        rw.push_void(b, InstKind::Store(data, j, y), span);
                        if let Some(p) = payload {
                            let pt = rw.ty(p).array().expect("an array").dtype;
                            let py = rw.push(b, InstKind::Load(p, jm1), Type::Scalar(pt), span);
                            rw.push_void(b, InstKind::Store(p, j, py), span);
                        }
                        Ok(vec![jm1])
                    },
                )?;
                rw.push_void(b, InstKind::Store(data, end[0], x), span);
                if let (Some(p), Some(px)) = (payload, px) {
                    rw.push_void(b, InstKind::Store(p, end[0], px), span);
                }
                Ok(vec![])
            })?;
            Ok(vec![hi])
        })?;
        Ok(())
    }

    /// One merge pass: runs of `width` of `src` merged pairwise into `dst` (`n` elements).
    fn merge_pass(
        &mut self,
        b: Block,
        (src, dst): (Value, Value),
        payload: Option<(Value, Value)>,
        width: Value,
        n: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let dt = self.ty(src).array().expect("an array").dtype;
        let two = self.int(b, 2, span);
        let step = self.emit_binary(b, span, BinaryOp::Mul, width, two);
        let zero = self.int(b, 0, span);
        self.while_below(b, vec![zero], n, span, &mut |rw, u| {
            let lo = u[0];
            let min = |rw: &mut Self, x: Value| {
                let c = rw.emit_compare(b, span, CmpOp::Lt, x, n);
                rw.emit_select(b, span, c, x, n)
            };
            let m = rw.emit_binary(b, span, BinaryOp::Add, lo, width);
            let mid = min(rw, m);
            let h = rw.emit_binary(b, span, BinaryOp::Add, lo, step);
            let hi = min(rw, h);
            rw.fold(b, (lo, hi), vec![lo, mid], span, &mut |rw, k, p| {
                let (i, j) = (p[0], p[1]);
                // Both heads read at safe positions; the right one is taken only when the
                // left run is used up or it sorts strictly first.
                let left_done = rw.emit_compare(b, span, CmpOp::Ge, i, mid);
                let right_left = rw.emit_compare(b, span, CmpOp::Lt, j, hi);
                let si = rw.emit_select(b, span, left_done, lo, i);
                let sj = rw.emit_select(b, span, right_left, j, lo);
                let x = rw.push(b, InstKind::Load(src, si), Type::Scalar(dt), span);
                let y = rw.push(b, InstKind::Load(src, sj), Type::Scalar(dt), span);
                let first = rw.sort_lt(b, y, x, span);
                let take_right = rw.emit_binary(b, span, BinaryOp::BitOr, left_done, first);
                let take_right = rw.emit_binary(b, span, BinaryOp::BitAnd, take_right, right_left);
                let pick = rw.emit_select(b, span, take_right, y, x);
                rw.push_void(b, InstKind::Store(dst, k, pick), span);
                if let Some((ps, pd)) = payload {
                    let pt = rw.ty(ps).array().expect("an array").dtype;
                    let px = rw.push(b, InstKind::Load(ps, si), Type::Scalar(pt), span);
                    let py = rw.push(b, InstKind::Load(ps, sj), Type::Scalar(pt), span);
                    let pp = rw.emit_select(b, span, take_right, py, px);
                    rw.push_void(b, InstKind::Store(pd, k, pp), span);
                }
                let one = rw.int(b, 1, span);
                let i1 = rw.emit_binary(b, span, BinaryOp::Add, i, one);
                let j1 = rw.emit_binary(b, span, BinaryOp::Add, j, one);
                Ok(vec![rw.emit_select(b, span, take_right, i, i1), rw.emit_select(b, span, take_right, j1, j)])
            })?;
            Ok(vec![hi])
        })?;
        Ok(())
    }

    /// A sorted C-contiguous copy of `a`: along the last axis (each row of a 2-D array).
    pub(super) fn sorted_copy(&mut self, b: Block, a: Value, span: Span) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let c = self.copy_of(b, a, at.dtype, span)?;
        if at.ndim == 1 {
            self.merge_sort_array(b, c, None, span)?;
            return Ok(c);
        }
        // Every line along the last axis, as a 1-D view of the C copy.
        let dims = self.dims(b, c, span);
        let lines = self.product(b, &dims[..dims.len() - 1], span);
        let len = *dims.last().expect("dimensions");
        let one = self.int(b, 1, span);
        let zero = self.int(b, 0, span);
        let t1 = Type::Array(ArrayType { dtype: at.dtype, ndim: 1, layout: Layout::A });
        self.fold(b, (zero, lines), vec![], span, &mut |rw, r, _| {
            let off = rw.emit_binary(b, span, BinaryOp::Mul, r, len);
            let line = rw.push(
                b,
                InstKind::View { base: c, offset: off, shape: vec![len], strides: vec![one] },
                t1.clone(),
                span,
            );
            rw.merge_sort_array(b, line, None, span)?;
            Ok(vec![])
        })?;
        Ok(c)
    }

    /// `a`'s elements, flattened and sorted in a line of their own: (the line, its length).
    pub(super) fn sorted_flat(&mut self, b: Block, a: Value, span: Span) -> Result<(Value, Value), Diagnostic> {
        let (line, n) = self.flat_line(b, a, span)?;
        self.merge_sort_array(b, line, None, span)?;
        Ok((line, n))
    }

    /// `a.sort()`: sorts the 1-D array `a` in place.
    pub(super) fn sort_in_place(&mut self, b: Block, a: Value, span: Span) -> Result<(), Diagnostic> {
        let c = self.sorted_copy(b, a, span)?;
        self.copy_elements(b, a, c, span)
    }

    /// `np.argsort(a)` of a 1-D array.
    pub(super) fn argsort(&mut self, b: Block, a: Value, span: Span) -> Result<Value, Diagnostic> {
        let n = self.push(b, InstKind::Dim(a, 0), Type::I64, span);
        let perm = self.push(
            b,
            InstKind::NewArray { dtype: Scalar::Int64, shape: vec![n], zeroed: false },
            Type::Array(ArrayType { dtype: Scalar::Int64, ndim: 1, layout: Layout::C }),
            span,
        );
        let zero = self.int(b, 0, span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
            rw.push_void(b, InstKind::Store(perm, k, k), span);
            Ok(vec![])
        })?;
        // The keys sort in a copy of their own, the indices move along.
        let dt = self.ty(a).array().expect("an array").dtype;
        let keys = self.copy_of(b, a, dt, span)?;
        self.merge_sort_array(b, keys, Some(perm), span)?;
        Ok(perm)
    }

    /// `np.median(a)`: of the flattened array, the middle element or the mean of the two
    /// middle ones (`(x + y) / 2`, as Numba computes it), as float64; NaN when empty.
    pub(super) fn median(&mut self, b: Block, a: Value, span: Span) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let (line, n) = self.sorted_flat(b, a, span)?;
        let one = self.int(b, 1, span);
        let zero = self.int(b, 0, span);
        let two = self.int(b, 2, span);
        let half = self.emit_binary(b, span, BinaryOp::FloorDiv, n, two);
        let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
        // Safe positions for an empty array (whose result is NaN).
        let hi = self.emit_select(b, span, empty, zero, half);
        let lo0 = self.emit_binary(b, span, BinaryOp::Sub, half, one);
        let lo = self.emit_select(b, span, empty, zero, lo0);
        let lo = {
            let odd = self.emit_binary(b, span, BinaryOp::Mod, n, two);
            let is_odd = self.emit_compare(b, span, CmpOp::Eq, odd, one);
            self.emit_select(b, span, is_odd, hi, lo)
        };
        let nonempty = self.push(b, InstKind::Unary(UnaryOp::Not, empty), Type::BOOL, span);
        let nan = self.push(b, InstKind::Const(Const::Float(f64::NAN)), Type::F64, span);
        let out = self.if_values(b, nonempty, vec![nan], span, &mut |rw, _| {
            let x = rw.push(b, InstKind::Load(line, lo), Type::Scalar(at.dtype), span);
            let y = rw.push(b, InstKind::Load(line, hi), Type::Scalar(at.dtype), span);
            let (x, y) = if at.dtype.is_float() {
                (x, y)
            } else {
                (rw.coerce(b, x, &Type::I64, span)?, rw.coerce(b, y, &Type::I64, span)?)
            };
            let s = rw.emit_binary(b, span, BinaryOp::Add, x, y);
            let s = rw.coerce(b, s, &Type::F64, span)?;
            let two = rw.push(b, InstKind::Const(Const::Float(2.0)), Type::F64, span);
            let m = rw.emit_binary(b, span, BinaryOp::Div, s, two);
            // An odd count has one middle element: its own value.
            let same = rw.emit_compare(b, span, CmpOp::Eq, lo, hi);
            let xf = rw.coerce(b, x, &Type::F64, span)?;
            let m = rw.emit_select(b, span, same, xf, m);
            // A NaN sorts last and makes the median NaN (as NumPy).
            let one = rw.int(b, 1, span);
            let last = rw.emit_binary(b, span, BinaryOp::Sub, n, one);
            let z = rw.push(b, InstKind::Load(line, last), Type::Scalar(at.dtype), span);
            Ok(vec![match rw.nan_test(b, z, span) {
                Some(nan) => {
                    let zf = rw.coerce(b, z, &Type::F64, span)?;
                    rw.emit_select(b, span, nan, zf, m)
                }
                None => m,
            }])
        })?;
        Ok(out[0])
    }
}
