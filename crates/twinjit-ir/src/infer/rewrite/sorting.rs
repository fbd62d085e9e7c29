//! The rewrite of array sorting: `np.sort`, `a.sort()`, `np.argsort` and `np.median`, written
//! as IR loops (NaNs sort last, as NumPy's and Numba's `lt` order them; complex numbers in
//! Numba's `lt_complex` order).
//!
//! The default kind is **Numba's own quicksort** (`numba/misc/quicksort.py`: median of three,
//! the pivot parked at the end, the larger part pushed on an explicit stack, insertion sort
//! below 16 elements), step for step, so `np.argsort` orders tied keys exactly as Numba does
//! and `np.sort` puts `-0.0` and `0.0` where Numba puts them. `kind='mergesort'` (and
//! `'stable'`) is a stable sort: insertion sort on runs of 16, then bottom-up merging back and
//! forth between the array and a scratch one (any stable sort gives the same permutation).

use super::*;
use crate::types::{ArrayType, Layout};

/// The length of the runs insertion sort makes before merging.
const RUN: i64 = 16;

/// Numba's quicksort: partitions of at most this many elements plus one are insertion-sorted.
const SMALL_QUICKSORT: i64 = 15;

/// Numba's quicksort: its stack of pending partitions (the larger part is pushed, so the depth
/// stays below log2 of the length).
const MAX_STACK: i64 = 100;

/// What a quicksort moves: the keys themselves, or a permutation of the indices of `keys`.
#[derive(Clone, Copy)]
enum Sorted {
    Keys,
    Indices { keys: Value },
}

impl Rewriter<'_> {
    /// `x < y` with NaN after every number; complex numbers in Numba's `lt_complex` order
    /// (by real part, then imaginary part, a NaN part after every number).
    pub(super) fn sort_lt(&mut self, b: Block, x: Value, y: Value, span: Span) -> Value {
        if self.ty(x).scalar().is_some_and(Scalar::is_complex) {
            return self.complex_sort_lt(b, x, y, span);
        }
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

    /// Numba's `lt_complex(a, b)` (`numba/np/numpy_support.py`) as selects: a NaN real part
    /// sorts after every number, then a NaN imaginary part; otherwise by real part, then by
    /// imaginary part.
    fn complex_sort_lt(&mut self, b: Block, x: Value, y: Value, span: Span) -> Value {
        let (xr, xi) = self.cparts(b, x, span);
        let (yr, yi) = self.cparts(b, y, span);
        let nan = |rw: &mut Self, v: Value| rw.emit_compare(b, span, CmpOp::Ne, v, v);
        let (xrn, xin, yrn, yin) = (nan(self, xr), nan(self, xi), nan(self, yr), nan(self, yi));
        let t = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        let f = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        let lt_i = self.emit_compare(b, span, CmpOp::Lt, xi, yi);
        let lt_r = self.emit_compare(b, span, CmpOp::Lt, xr, yr);
        let eq_r = self.emit_compare(b, span, CmpOp::Eq, xr, yr);
        // Both real parts NaN: not x.imag NaN, and (y.imag NaN or x.imag < y.imag).
        let yi_or_lt = self.emit_select(b, span, yin, t, lt_i);
        let both_r_nan = self.emit_select(b, span, xin, f, yi_or_lt);
        // x.real NaN: only before a y whose real part is NaN too.
        let x_r_nan = self.emit_select(b, span, yrn, both_r_nan, f);
        // Real parts numbers: by imaginary NaN-ness, then lexicographically.
        let lex_i = self.emit_binary(b, span, BinaryOp::BitAnd, eq_r, lt_i);
        let lex = self.emit_binary(b, span, BinaryOp::BitOr, lt_r, lex_i);
        let y_i_nan = self.emit_select(b, span, yin, t, lex);
        let both_i_nan = self.emit_select(b, span, yin, lt_r, f);
        let reals = self.emit_select(b, span, xin, both_i_nan, y_i_nan);
        let x_r_num = self.emit_select(b, span, yrn, t, reals);
        self.emit_select(b, span, xrn, x_r_nan, x_r_num)
    }

    /// The key of an element of the array being sorted (`r`, loaded from it).
    fn sort_key(&mut self, b: Block, what: Sorted, r: Value, span: Span) -> Value {
        match what {
            Sorted::Keys => r,
            Sorted::Indices { keys } => {
                let dt = self.ty(keys).array().expect("an array").dtype;
                self.push(b, InstKind::Load(keys, r), Type::Scalar(dt), span)
            }
        }
    }

    /// Numba's quicksort of the 1-D array `r` (the keys, or the permutation of `keys` that
    /// sorts them, as Numba's argsort), in place.
    fn quick_sort_array(&mut self, b: Block, r: Value, what: Sorted, span: Span) -> Result<(), Diagnostic> {
        let n = self.push(b, InstKind::Dim(r, 0), Type::I64, span);
        let two = self.int(b, 2, span);
        let big = self.emit_compare(b, span, CmpOp::Ge, n, two);
        self.if_values(b, big, vec![], span, &mut |rw, _| {
            let cap = rw.int(b, 2 * MAX_STACK, span);
            let stack = rw.push(
                b,
                InstKind::NewArray { dtype: Scalar::Int64, shape: vec![cap], zeroed: false },
                Type::Array(ArrayType { dtype: Scalar::Int64, ndim: 1, layout: Layout::C }),
                span,
            );
            let (zero, one) = (rw.int(b, 0, span), rw.int(b, 1, span));
            let last = rw.emit_binary(b, span, BinaryOp::Sub, n, one);
            rw.push_void(b, InstKind::Store(stack, zero, zero), span);
            rw.push_void(b, InstKind::Store(stack, one, last), span);
            rw.while_loop(
                b,
                vec![one],
                span,
                &mut |rw, v| {
                    let zero = rw.int(b, 0, span);
                    Ok(rw.emit_compare(b, span, CmpOp::Gt, v[0], zero))
                },
                &mut |rw, v| {
                    let one = rw.int(b, 1, span);
                    let top = rw.emit_binary(b, span, BinaryOp::Sub, v[0], one);
                    let at = rw.emit_binary(b, span, BinaryOp::Add, top, top);
                    let at1 = rw.emit_binary(b, span, BinaryOp::Add, at, one);
                    let low = rw.push(b, InstKind::Load(stack, at), Type::I64, span);
                    let high = rw.push(b, InstKind::Load(stack, at1), Type::I64, span);
                    let out = rw.while_loop(
                        b,
                        vec![low, high, top],
                        span,
                        &mut |rw, v| {
                            let width = rw.emit_binary(b, span, BinaryOp::Sub, v[1], v[0]);
                            let small = rw.int(b, SMALL_QUICKSORT, span);
                            Ok(rw.emit_compare(b, span, CmpOp::Ge, width, small))
                        },
                        &mut |rw, v| {
                            let (low, high, cnt) = (v[0], v[1], v[2]);
                            let i = rw.quick_partition(b, r, what, low, high, span)?;
                            let one = rw.int(b, 1, span);
                            let (im1, ip1) = (
                                rw.emit_binary(b, span, BinaryOp::Sub, i, one),
                                rw.emit_binary(b, span, BinaryOp::Add, i, one),
                            );
                            // The larger part is pushed, the smaller one partitioned next.
                            let right = rw.emit_binary(b, span, BinaryOp::Sub, high, i);
                            let left = rw.emit_binary(b, span, BinaryOp::Sub, i, low);
                            let right_larger = rw.emit_compare(b, span, CmpOp::Gt, right, left);
                            let push_lo = rw.emit_select(b, span, right_larger, ip1, low);
                            let push_hi = rw.emit_select(b, span, right_larger, high, im1);
                            let (hi_gt, i_gt) = (
                                rw.emit_compare(b, span, CmpOp::Gt, high, i),
                                rw.emit_compare(b, span, CmpOp::Gt, i, low),
                            );
                            let push = rw.emit_select(b, span, right_larger, hi_gt, i_gt);
                            // The slot above the top is free: written always, kept when pushed.
                            let at = rw.emit_binary(b, span, BinaryOp::Add, cnt, cnt);
                            let at1 = rw.emit_binary(b, span, BinaryOp::Add, at, one);
                            rw.push_void(b, InstKind::Store(stack, at, push_lo), span);
                            rw.push_void(b, InstKind::Store(stack, at1, push_hi), span);
                            let inc = rw.push(b, InstKind::Cast(Scalar::Int64, push), Type::I64, span);
                            let cnt = rw.emit_binary(b, span, BinaryOp::Add, cnt, inc);
                            let low = rw.emit_select(b, span, right_larger, low, ip1);
                            let high = rw.emit_select(b, span, right_larger, im1, high);
                            Ok(vec![low, high, cnt])
                        },
                    )?;
                    rw.insertion_sort(b, r, what, None, (out[0], out[1]), span)?;
                    Ok(vec![out[2]])
                },
            )?;
            Ok(vec![])
        })?;
        Ok(())
    }

    /// Numba's `insertion_sort(A, R, low, high)`: `r[low..=high]` by insertion, an element
    /// moving left past strictly greater keys (so it is stable), `payload`'s elements moving
    /// along. The quicksort's small parts and the merge sort's runs both use it.
    #[allow(clippy::too_many_arguments)]
    fn insertion_sort(
        &mut self,
        b: Block,
        r: Value,
        what: Sorted,
        payload: Option<Value>,
        (low, high): (Value, Value),
        span: Span,
    ) -> Result<(), Diagnostic> {
        let elem = |rw: &Self, a: Value| Type::Scalar(rw.ty(a).array().expect("an array").dtype);
        let one = self.int(b, 1, span);
        let start = self.emit_binary(b, span, BinaryOp::Add, low, one);
        let stop = self.emit_binary(b, span, BinaryOp::Add, high, one);
        self.fold(b, (start, stop), vec![], span, &mut |rw, i, _| {
            let k = rw.push(b, InstKind::Load(r, i), elem(rw, r), span);
            let pk = payload.map(|p| rw.push(b, InstKind::Load(p, i), elem(rw, p), span));
            let v = rw.sort_key(b, what, k, span);
            let end = rw.while_loop(
                b,
                vec![i],
                span,
                &mut |rw, w| {
                    // j > low and v < key(r[j - 1]) (read at a safe position when j == low).
                    let j = w[0];
                    let more = rw.emit_compare(b, span, CmpOp::Gt, j, low);
                    let one = rw.int(b, 1, span);
                    let jm1 = rw.emit_binary(b, span, BinaryOp::Sub, j, one);
                    let at = rw.emit_select(b, span, more, jm1, low);
                    let y = rw.push(b, InstKind::Load(r, at), elem(rw, r), span);
                    let ky = rw.sort_key(b, what, y, span);
                    let lt = rw.sort_lt(b, v, ky, span);
                    Ok(rw.emit_binary(b, span, BinaryOp::BitAnd, more, lt))
                },
                &mut |rw, w| {
                    let one = rw.int(b, 1, span);
                    let jm1 = rw.emit_binary(b, span, BinaryOp::Sub, w[0], one);
                    for a in std::iter::once(r).chain(payload) {
                        let y = rw.push(b, InstKind::Load(a, jm1), elem(rw, a), span);
                        rw.push_void(b, InstKind::Store(a, w[0], y), span);
                    }
                    Ok(vec![jm1])
                },
            )?;
            rw.push_void(b, InstKind::Store(r, end[0], k), span);
            if let (Some(p), Some(pk)) = (payload, pk) {
                rw.push_void(b, InstKind::Store(p, end[0], pk), span);
            }
            Ok(vec![])
        })?;
        Ok(())
    }

    /// One scan of Numba's partition from `start`: `forward`, `while i < high and key(r[i]) <
    /// pivot: i += 1`; else `while j >= low and pivot < key(r[j]): j -= 1` (the key read at a
    /// safe position once the bound fails). Returns where it stops.
    #[allow(clippy::too_many_arguments)]
    fn quick_scan(
        &mut self,
        b: Block,
        r: Value,
        what: Sorted,
        start: Value,
        pivot: Value,
        (low, high): (Value, Value),
        forward: bool,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let rt = Type::Scalar(self.ty(r).array().expect("an array").dtype);
        let out = self.while_loop(
            b,
            vec![start],
            span,
            &mut |rw, w| {
                let inside = if forward {
                    rw.emit_compare(b, span, CmpOp::Lt, w[0], high)
                } else {
                    rw.emit_compare(b, span, CmpOp::Ge, w[0], low)
                };
                let at = rw.emit_select(b, span, inside, w[0], low);
                let x = rw.push(b, InstKind::Load(r, at), rt.clone(), span);
                let k = rw.sort_key(b, what, x, span);
                let lt = if forward { rw.sort_lt(b, k, pivot, span) } else { rw.sort_lt(b, pivot, k, span) };
                Ok(rw.emit_binary(b, span, BinaryOp::BitAnd, inside, lt))
            },
            &mut |rw, w| {
                let one = rw.int(b, 1, span);
                let op = if forward { BinaryOp::Add } else { BinaryOp::Sub };
                Ok(vec![rw.emit_binary(b, span, op, w[0], one)])
            },
        )?;
        Ok(out[0])
    }

    /// `r[x], r[y] = r[y], r[x]` when `c` holds (both read, both written).
    fn swap_if(&mut self, b: Block, r: Value, c: Value, (x, y): (Value, Value), span: Span) {
        let rt = Type::Scalar(self.ty(r).array().expect("an array").dtype);
        let vx = self.push(b, InstKind::Load(r, x), rt.clone(), span);
        let vy = self.push(b, InstKind::Load(r, y), rt, span);
        let nx = self.emit_select(b, span, c, vy, vx);
        let ny = self.emit_select(b, span, c, vx, vy);
        self.push_void(b, InstKind::Store(r, x, nx), span);
        self.push_void(b, InstKind::Store(r, y, ny), span);
    }

    /// Numba's `partition(A, R, low, high)`: the median of three as pivot, parked at `high`
    /// while the two scans swap, then put at its final place, which is returned.
    fn quick_partition(
        &mut self,
        b: Block,
        r: Value,
        what: Sorted,
        low: Value,
        high: Value,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let rt = Type::Scalar(self.ty(r).array().expect("an array").dtype);
        let key_at = |rw: &mut Self, at: Value| {
            let x = rw.push(b, InstKind::Load(r, at), rt.clone(), span);
            rw.sort_key(b, what, x, span)
        };
        let sum = self.emit_binary(b, span, BinaryOp::Add, low, high);
        let one = self.int(b, 1, span);
        let mid = self.emit_binary(b, span, BinaryOp::Shr, sum, one);
        for (x, y) in [(mid, low), (high, mid), (mid, low)] {
            // if key(r[x]) < key(r[y]): swap them
            let (kx, ky) = (key_at(self, x), key_at(self, y));
            let c = self.sort_lt(b, kx, ky, span);
            self.swap_if(b, r, c, (x, y), span);
        }
        let pivot = key_at(self, mid);
        let t = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        self.swap_if(b, r, t, (high, mid), span);
        let j0 = self.emit_binary(b, span, BinaryOp::Sub, high, one);
        let out = self.while_loop(b, vec![low, j0, t], span, &mut |_, v| Ok(v[2]), &mut |rw, v| {
            let i = rw.quick_scan(b, r, what, v[0], pivot, (low, high), true, span)?;
            let j = rw.quick_scan(b, r, what, v[1], pivot, (low, high), false, span)?;
            let crossed = rw.emit_compare(b, span, CmpOp::Ge, i, j);
            let go = rw.push(b, InstKind::Unary(UnaryOp::Not, crossed), Type::BOOL, span);
            let next = rw.if_values(b, go, vec![i, j], span, &mut |rw, w| {
                let t = rw.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
                rw.swap_if(b, r, t, (w[0], w[1]), span);
                let one = rw.int(b, 1, span);
                Ok(vec![
                    rw.emit_binary(b, span, BinaryOp::Add, w[0], one),
                    rw.emit_binary(b, span, BinaryOp::Sub, w[1], one),
                ])
            })?;
            Ok(vec![next[0], next[1], go])
        })?;
        let i = out[0];
        self.swap_if(b, r, t, (i, high), span);
        Ok(i)
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

    /// Sorts each run `[k * RUN, (k + 1) * RUN)` of `data` by insertion (stable), moving
    /// `payload` along.
    fn insertion_runs(
        &mut self,
        b: Block,
        data: Value,
        payload: Option<Value>,
        n: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let zero = self.int(b, 0, span);
        let run = self.int(b, RUN, span);
        self.while_below(b, vec![zero], n, span, &mut |rw, u| {
            let lo = u[0];
            let h = rw.emit_binary(b, span, BinaryOp::Add, lo, run);
            let short = rw.emit_compare(b, span, CmpOp::Lt, h, n);
            let hi = rw.emit_select(b, span, short, h, n);
            let one = rw.int(b, 1, span);
            let last = rw.emit_binary(b, span, BinaryOp::Sub, hi, one);
            rw.insertion_sort(b, data, Sorted::Keys, payload, (lo, last), span)?;
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
            self.quick_sort_array(b, c, Sorted::Keys, span)?;
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
            rw.quick_sort_array(b, line, Sorted::Keys, span)?;
            Ok(vec![])
        })?;
        Ok(c)
    }

    /// `a`'s elements, flattened and sorted in a line of their own: (the line, its length).
    pub(super) fn sorted_flat(&mut self, b: Block, a: Value, span: Span) -> Result<(Value, Value), Diagnostic> {
        let (line, n) = self.flat_line(b, a, span)?;
        self.quick_sort_array(b, line, Sorted::Keys, span)?;
        Ok((line, n))
    }

    /// `a.sort()`: sorts the 1-D array `a` in place.
    pub(super) fn sort_in_place(&mut self, b: Block, a: Value, span: Span) -> Result<(), Diagnostic> {
        let c = self.sorted_copy(b, a, span)?;
        self.copy_elements(b, a, c, span)
    }

    /// `np.argsort(a)` of a 1-D array: Numba's quicksort, or a stable sort when `stable`
    /// (`kind='mergesort'`).
    pub(super) fn argsort(&mut self, b: Block, a: Value, stable: bool, span: Span) -> Result<Value, Diagnostic> {
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
        if stable {
            self.merge_sort_array(b, keys, Some(perm), span)?;
        } else {
            let keys = if dt.is_float() { self.float_order_keys(b, keys, dt, span)? } else { keys };
            self.quick_sort_array(b, perm, Sorted::Indices { keys }, span)?;
        }
        Ok(perm)
    }

    /// The float keys `keys` (a contiguous copy, overwritten) as integers of the same width
    /// whose signed order is the sort's (`sort_lt`): `-0.0` made `0.0` and every NaN one NaN
    /// (they compare equal), then the IEEE bits with a negative number's magnitude bits
    /// flipped. So the quicksort compares one integer per step and breaks the same ties.
    fn float_order_keys(&mut self, b: Block, keys: Value, dt: Scalar, span: Span) -> Result<Value, Diagnostic> {
        let it = if dt == Scalar::Float32 { Scalar::Int32 } else { Scalar::Int64 };
        let bits = (dt.size() * 8) as i64;
        let n = self.push(b, InstKind::Dim(keys, 0), Type::I64, span);
        let (zero, one) = (self.int(b, 0, span), self.int(b, 1, span));
        let ints = self.push(
            b,
            InstKind::View { base: keys, offset: zero, shape: vec![n], strides: vec![one] },
            Type::Array(ArrayType { dtype: it, ndim: 1, layout: Layout::C }),
            span,
        );
        let fzero = self.konst_of(b, dt, 0.0, span);
        let nan = self.konst_of(b, dt, f64::NAN, span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
            let x = rw.push(b, InstKind::Load(keys, k), Type::Scalar(dt), span);
            let is_zero = rw.emit_compare(b, span, CmpOp::Eq, x, fzero);
            let x = rw.emit_select(b, span, is_zero, fzero, x);
            let is_nan = rw.emit_compare(b, span, CmpOp::Ne, x, x);
            let x = rw.emit_select(b, span, is_nan, nan, x);
            rw.push_void(b, InstKind::Store(keys, k, x), span);
            let v = rw.push(b, InstKind::Load(ints, k), Type::Scalar(it), span);
            let shift = rw.konst_of(b, it, (bits - 1) as f64, span);
            let sign = rw.emit_binary(b, span, BinaryOp::Shr, v, shift);
            // All bits but the sign: the type's maximum.
            let max = if it == Scalar::Int32 { i32::MAX as i64 } else { i64::MAX };
            let magnitude = rw.push(b, InstKind::Const(Const::Int(max)), Type::Scalar(it), span);
            let mask = rw.emit_binary(b, span, BinaryOp::BitAnd, sign, magnitude);
            let key = rw.emit_binary(b, span, BinaryOp::BitXor, v, mask);
            rw.push_void(b, InstKind::Store(ints, k, key), span);
            Ok(vec![])
        })?;
        Ok(ints)
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
