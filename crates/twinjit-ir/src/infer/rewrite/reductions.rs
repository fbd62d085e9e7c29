//! The rewrite of reductions (`np.sum`, `a.max()`, `np.argmin`, `np.mean`, `np.cumsum`, the
//! `nan*` forms): loops over the elements in C order carrying the accumulators in block
//! parameters, computed as Numba's implementations compute them, so that results agree to the
//! bit: sequential sums in the accumulator type (int64 for integers and bools), `mean` as the
//! sum divided in float64 and converted to the result type, `var` as the float64 sum of
//! squared deviations from the mean divided by the size, NaN-propagating `min`/`max` (the
//! first NaN for `argmin`/`argmax`), and Numba's errors for empty arrays.

use super::*;
use crate::builtins::Reduce;
use crate::types::{ArrayType, Layout};

type Fold<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, Value, &[Value]) -> Result<Vec<Value>, Diagnostic> + 'b;

/// What a reduction folds: an array, or an array expression fused into it (`np.sum(d * d)`
/// computes `d * d` element by element inside the sum's loop, with no temporary array).
pub(super) enum Source {
    /// An array (new value).
    Array(Value),
    /// The fused elementwise expression rooted at source value `root`.
    Expr {
        /// The expression's root (a source value).
        root: Value,
        /// Its array operands (source values).
        leaves: Vec<Value>,
        /// Its broadcast shape.
        dims: Vec<Value>,
        /// Its elements' dtype.
        dtype: Scalar,
    },
}

impl<'r> Rewriter<'r> {
    /// Folds `body(element, vars) -> vars` over the elements of array `a` in C order, starting
    /// from `init`; returns the variables after the last element.
    pub(super) fn fold_elements(
        &mut self,
        b: Block,
        a: Value,
        init: Vec<Value>,
        span: Span,
        body: &mut Fold<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        #[allow(clippy::too_many_arguments)]
        fn go<'r>(
            rw: &mut Rewriter<'r>,
            b: Block,
            a: Value,
            (dims, strides): (&[Value], &[Value]),
            idx: &mut Vec<Value>,
            vars: Vec<Value>,
            span: Span,
            body: &mut Fold<'_, 'r>,
        ) -> Result<Vec<Value>, Diagnostic> {
            if idx.len() == dims.len() {
                let off = rw.offset(b, strides, idx, span);
                let dt = rw.ty(a).array().expect("an array").dtype;
                let x = rw.push(b, InstKind::Load(a, off), Type::Scalar(dt), span);
                return body(rw, x, &vars);
            }
            let zero = rw.int(b, 0, span);
            let n = dims[idx.len()];
            rw.fold(b, (zero, n), vars, span, &mut |rw, i, v| {
                idx.push(i);
                let r = go(rw, b, a, (dims, strides), idx, v.to_vec(), span, body);
                idx.pop();
                r
            })
        }
        let dims = self.dims(b, a, span);
        let strides = self.strides(b, a, span);
        let dt = self.ty(a).array().expect("an array").dtype;
        // A contiguous array is one flat loop (no index arithmetic per element).
        let flat = |rw: &mut Rewriter<'r>, vars: &[Value], body: &mut Fold<'_, 'r>| -> Result<Vec<Value>, Diagnostic> {
            let n = rw.product(b, &dims, span);
            let zero = rw.int(b, 0, span);
            rw.fold(b, (zero, n), vars.to_vec(), span, &mut |rw, k, v| {
                let x = rw.push(b, InstKind::Load(a, k), Type::Scalar(dt), span);
                body(rw, x, v)
            })
        };
        if dims.len() == 1 && self.ty(a).array().expect("an array").layout != Layout::C {
            // One dimension: the strided loop is as good.
            return go(self, b, a, (&dims, &strides), &mut Vec::new(), init, span, body);
        }
        match self.c_contiguous(b, a, span) {
            None => flat(self, &init, body),
            Some(c) => {
                let body = std::cell::RefCell::new(body);
                self.if_else_values(
                    b,
                    c,
                    init,
                    span,
                    &mut |rw, v| flat(rw, v, &mut **body.borrow_mut()),
                    &mut |rw, v| {
                        go(rw, b, a, (&dims, &strides), &mut Vec::new(), v.to_vec(), span, &mut **body.borrow_mut())
                    },
                )
            }
        }
    }

    pub(super) fn konst_of(&mut self, b: Block, s: Scalar, k: f64, span: Span) -> Value {
        if s.is_complex() {
            let re = self.konst_of(b, s.component(), k, span);
            let im = self.konst_of(b, s.component(), 0.0, span);
            return self.cmake(b, s, re, im, span);
        }
        let c = match s {
            Scalar::Bool => Const::Bool(k != 0.0),
            s if s.is_float() => Const::Float(k),
            _ => Const::Int(k as i64),
        };
        self.push(b, InstKind::Const(c), Type::Scalar(s), span)
    }

    /// `x op y` of two numbers of type `s` (complex numbers by their parts).
    pub(super) fn num_binary(
        &mut self,
        b: Block,
        op: BinaryOp,
        x: Value,
        y: Value,
        s: Scalar,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        if s.is_complex() {
            self.complex_binary(b, op, x, y, s, span)
        } else {
            Ok(self.emit_binary(b, span, op, x, y))
        }
    }

    /// `x != x`: whether a float is NaN (false for other types).
    pub(super) fn nan_test(&mut self, b: Block, x: Value, span: Span) -> Option<Value> {
        self.ty(x).scalar().is_some_and(|s| s.is_float()).then(|| self.emit_compare(b, span, CmpOp::Ne, x, x))
    }

    /// Raises `ValueError(message)` when `a` has no elements.
    fn raise_if_empty(&mut self, b: Block, a: Value, message: &str, span: Span) {
        let dims = self.dims(b, a, span);
        let n = self.product(b, &dims, span);
        let zero = self.int(b, 0, span);
        let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
        self.raise_if(b, empty, "ValueError", message, span);
    }

    /// The element count of `a`, as int64.
    fn size_of(&mut self, b: Block, a: Value, span: Span) -> Value {
        let dims = self.dims(b, a, span);
        self.product(b, &dims, span)
    }

    /// The fused expression rooted at source value `root` as a reduction's source: its leaves
    /// and broadcast shape (checked as the expression would be).
    pub(super) fn expr_source(&mut self, b: Block, root: Value, span: Span) -> Source {
        let at = self.types[root.index()].array().expect("an array expression");
        let leaves = self.expr_leaves(root, false);
        let shapes: Vec<Vec<Value>> = leaves
            .iter()
            .map(|&l| {
                let v = self.val(l);
                self.dims(b, v, span)
            })
            .collect();
        let dims = self.broadcast_shape(b, &shapes, at.ndim as usize, span);
        Source::Expr { root, leaves, dims, dtype: at.dtype }
    }

    fn src_dtype(&self, src: &Source) -> Scalar {
        match src {
            Source::Array(a) => self.ty(*a).array().expect("an array").dtype,
            Source::Expr { dtype, .. } => *dtype,
        }
    }

    fn src_size(&mut self, b: Block, src: &Source, span: Span) -> Value {
        match src {
            Source::Array(a) => self.size_of(b, *a, span),
            Source::Expr { dims, .. } => {
                let dims = dims.clone();
                self.product(b, &dims, span)
            }
        }
    }

    /// [`Self::fold_elements`] over a reduction's source.
    fn fold_src(
        &mut self,
        b: Block,
        src: &Source,
        init: Vec<Value>,
        span: Span,
        body: &mut Fold<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        let (root, leaves, dims) = match src {
            Source::Array(a) => return self.fold_elements(b, *a, init, span, body),
            Source::Expr { root, leaves, dims, .. } => (*root, leaves.clone(), dims.clone()),
        };
        let m = BROADCAST_SHAPES;
        // Fast path: operands of the expression's shape, all C-contiguous: one flat loop.
        let nd = dims.len();
        let mut same: Option<Value> = None;
        let flat_ok = leaves.iter().all(|&l| self.types[l.index()].array().is_some_and(|t| t.ndim as usize == nd));
        if flat_ok {
            for &l in &leaves {
                let lv = self.val(l);
                let ld = self.dims(b, lv, span);
                let mut conds: Vec<Value> =
                    ld.iter().zip(&dims).map(|(&x, &y)| self.emit_compare(b, span, CmpOp::Eq, x, y)).collect();
                conds.extend(self.c_contiguous(b, lv, span));
                for c in conds {
                    same = Some(match same {
                        Some(p) => self.emit_binary(b, span, BinaryOp::BitAnd, p, c),
                        None => c,
                    });
                }
            }
        }
        let body = std::cell::RefCell::new(body);
        let flat = |rw: &mut Rewriter<'r>, vars: &[Value]| -> Result<Vec<Value>, Diagnostic> {
            let n = rw.product(b, &dims, span);
            let zero = rw.int(b, 0, span);
            rw.fold(b, (zero, n), vars.to_vec(), span, &mut |rw, k, v| {
                let mut loaded = Vec::new();
                for &l in &leaves {
                    let lv = rw.val(l);
                    let s = rw.ty(lv).array().expect("an array").dtype;
                    loaded.push((l, rw.push(b, InstKind::Load(lv, k), Type::Scalar(s), span)));
                }
                let x = rw.element(b, root, &loaded, span)?;
                (*body.borrow_mut())(rw, x, v)
            })
        };
        let strided = |rw: &mut Rewriter<'r>, vars: &[Value]| -> Result<Vec<Value>, Diagnostic> {
            let mut views = Vec::new();
            for (k, &l) in leaves.iter().enumerate() {
                let lv = rw.val(l);
                let view = rw.broadcast_view(b, lv, &dims, &m.replace("{}", &k.to_string()), span)?;
                let ss = rw.strides(b, view, span);
                views.push((l, view, ss));
            }
            rw.fold_index(b, &dims, vars.to_vec(), span, &mut |rw, idx, v| {
                let mut loaded = Vec::new();
                for (l, view, ss) in &views {
                    let off = rw.offset(b, ss, idx, span);
                    let s = rw.ty(*view).array().expect("an array").dtype;
                    loaded.push((*l, rw.push(b, InstKind::Load(*view, off), Type::Scalar(s), span)));
                }
                let x = rw.element(b, root, &loaded, span)?;
                (*body.borrow_mut())(rw, x, v)
            })
        };
        match (flat_ok, same) {
            (true, None) => flat(self, &init),
            (true, Some(c)) => {
                self.if_else_values(b, c, init, span, &mut |rw, v| flat(rw, v), &mut |rw, v| strided(rw, v))
            }
            (false, _) => strided(self, &init),
        }
    }

    /// A reduction (`Typing::Reduce`), its arguments bound to `Reduce::params`.
    pub(super) fn reduce(
        &mut self,
        b: Block,
        r: Reduce,
        src_args: &[Value],
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let a = args[0];
        match r {
            Reduce::Sum if !self.is_none(args[1]) => self.sum_axis(b, src_args[1], a, rt, span),
            r if folds_only(r) => self.reduce_folded(b, r, &Source::Array(a), rt, span),
            _ => self.reduce_array(b, r, src_args, args, rt, span),
        }
    }

    /// The reductions that only fold over the elements (so an expression can be their source).
    pub(super) fn reduce_folded(
        &mut self,
        b: Block,
        r: Reduce,
        src: &Source,
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let d = self.src_dtype(src);
        match r {
            Reduce::Sum | Reduce::Prod | Reduce::NanSum | Reduce::NanProd => {
                let acc = rt.scalar().expect("a number");
                let prod = matches!(r, Reduce::Prod | Reduce::NanProd);
                let skip_nan = matches!(r, Reduce::NanSum | Reduce::NanProd);
                let init = self.konst_of(b, acc, if prod { 1.0 } else { 0.0 }, span);
                let op = if prod { BinaryOp::Mul } else { BinaryOp::Add };
                let out = self.fold_src(b, src, vec![init], span, &mut |rw, x, v| {
                    let xc = rw.coerce(b, x, &Type::Scalar(acc), span)?;
                    let next = rw.num_binary(b, op, v[0], xc, acc, span)?;
                    Ok(vec![match rw.nan_test(b, x, span) {
                        Some(nan) if skip_nan => rw.emit_select(b, span, nan, v[0], next),
                        _ => next,
                    }])
                })?;
                Ok(out[0])
            }
            Reduce::All | Reduce::Any => {
                let all = r == Reduce::All;
                let init = self.push(b, InstKind::Const(Const::Bool(all)), Type::BOOL, span);
                let out = self.fold_src(b, src, vec![init], span, &mut |rw, x, v| {
                    let t = rw.truth(b, x, span)?;
                    let op = if all { BinaryOp::BitAnd } else { BinaryOp::BitOr };
                    Ok(vec![rw.emit_binary(b, span, op, v[0], t)])
                })?;
                Ok(out[0])
            }
            Reduce::Mean => self.mean(b, src, rt.scalar().expect("a number"), span),
            Reduce::Var | Reduce::Std => {
                let n = self.src_size(b, src, span);
                let zero = self.int(b, 0, span);
                let md = if d.is_inexact() { d } else { Scalar::Float64 };
                let m = self.mean(b, src, md, span)?;
                let init = self.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
                let out = self.fold_src(b, src, vec![init], span, &mut |rw, x, v| {
                    let x = rw.coerce(b, x, &Type::Scalar(md), span)?;
                    let sq = if md.is_complex() {
                        // Numba's `np.real(val * np.conj(val))`: re * re + im * im in the
                        // parts' type.
                        let dx = rw.complex_binary(b, BinaryOp::Sub, x, m, md, span)?;
                        let (re, im) = rw.cparts(b, dx, span);
                        let rr = rw.emit_binary(b, span, BinaryOp::Mul, re, re);
                        let ii = rw.emit_binary(b, span, BinaryOp::Mul, im, im);
                        rw.emit_binary(b, span, BinaryOp::Add, rr, ii)
                    } else {
                        let dx = rw.emit_binary(b, span, BinaryOp::Sub, x, m);
                        rw.emit_binary(b, span, BinaryOp::Mul, dx, dx)
                    };
                    let sq = rw.coerce(b, sq, &Type::F64, span)?;
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], sq)])
                })?;
                // Numba divides with Python's `/`: an empty array is a ZeroDivisionError.
                let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
                self.raise_if(b, empty, "ZeroDivisionError", "division by zero", span);
                let nf = self.coerce(b, n, &Type::F64, span)?;
                let var = self.emit_binary(b, span, BinaryOp::Div, out[0], nf);
                Ok(if r == Reduce::Std { self.half_power(b, var, span) } else { var })
            }
            Reduce::NanMean | Reduce::NanVar | Reduce::NanStd => {
                let (c, count) = self.nan_sum_count(b, src, span)?;
                let cf = self.coerce(b, count, &Type::F64, span)?;
                let mean = self.emit_binary(b, span, BinaryOp::Div, c, cf);
                if r == Reduce::NanMean {
                    return Ok(mean);
                }
                let init = self.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
                let out = self.fold_src(b, src, vec![init], span, &mut |rw, x, v| {
                    let x = rw.coerce(b, x, &Type::F64, span)?;
                    let dx = rw.emit_binary(b, span, BinaryOp::Sub, x, mean);
                    let sq = rw.emit_binary(b, span, BinaryOp::Mul, dx, dx);
                    let next = rw.emit_binary(b, span, BinaryOp::Add, v[0], sq);
                    let nan = rw.emit_compare(b, span, CmpOp::Ne, x, x);
                    Ok(vec![rw.emit_select(b, span, nan, v[0], next)])
                })?;
                let var = self.emit_binary(b, span, BinaryOp::Div, out[0], cf);
                Ok(if r == Reduce::NanStd { self.half_power(b, var, span) } else { var })
            }
            _ => unreachable!("not a folding reduction"),
        }
    }

    /// The reductions that need the array itself (its first element, an axis, an output of
    /// its size).
    fn reduce_array(
        &mut self,
        b: Block,
        r: Reduce,
        src_args: &[Value],
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let a = args[0];
        let d = self.ty(a).array().expect("typed as an array").dtype;
        match r {
            Reduce::Min | Reduce::Max | Reduce::NanMin | Reduce::NanMax | Reduce::Ptp => {
                let message = match r {
                    Reduce::Min => "zero-size array to reduction operation minimum which has no identity",
                    Reduce::NanMin | Reduce::NanMax => "zero-size array to reduction operation not possible",
                    _ => "zero-size array to reduction operation maximum which has no identity",
                };
                self.raise_if_empty(b, a, message, span);
                if r == Reduce::Ptp {
                    let hi = self.extreme(b, a, CmpOp::Gt, false, span)?;
                    let lo = self.extreme(b, a, CmpOp::Lt, false, span)?;
                    let (hi, lo) = (self.coerce(b, hi, &rt, span)?, self.coerce(b, lo, &rt, span)?);
                    return Ok(self.emit_binary(b, span, BinaryOp::Sub, hi, lo));
                }
                let op = if matches!(r, Reduce::Min | Reduce::NanMin) { CmpOp::Lt } else { CmpOp::Gt };
                self.extreme(b, a, op, matches!(r, Reduce::NanMin | Reduce::NanMax), span)
            }
            Reduce::ArgMin | Reduce::ArgMax | Reduce::CumSum | Reduce::CumProd
                if args.len() > 1 && !self.is_none(args[1]) && self.ty(a).array().is_some_and(|t| t.ndim > 1) =>
            {
                self.along_axis(b, r, src_args[1], a, rt, span)
            }
            Reduce::ArgMin | Reduce::ArgMax => {
                let which = if r == Reduce::ArgMin { "argmin" } else { "argmax" };
                self.raise_if_empty(b, a, &format!("attempt to get {which} of an empty sequence"), span);
                let op = if r == Reduce::ArgMin { CmpOp::Lt } else { CmpOp::Gt };
                let ct = if d == Scalar::Bool { Scalar::Int64 } else { d };
                let zero = self.int(b, 0, span);
                let first = self.push(b, InstKind::Load(a, zero), Type::Scalar(d), span);
                let first = self.coerce(b, first, &Type::Scalar(ct), span)?;
                let out = self.fold_elements(b, a, vec![first, zero, zero], span, &mut |rw, x, v| {
                    let (acc, best, k) = (v[0], v[1], v[2]);
                    let x = rw.coerce(b, x, &Type::Scalar(ct), span)?;
                    let better = rw.emit_compare(b, span, op, x, acc);
                    let take = match (rw.nan_test(b, x, span), rw.nan_test(b, acc, span)) {
                        (Some(xn), Some(an)) => {
                            // The first NaN wins and stays.
                            let t = rw.emit_binary(b, span, BinaryOp::BitOr, better, xn);
                            let keep = rw.push(b, InstKind::Unary(UnaryOp::Not, an), Type::BOOL, span);
                            rw.emit_binary(b, span, BinaryOp::BitAnd, t, keep)
                        }
                        _ => better,
                    };
                    let acc = rw.emit_select(b, span, take, x, acc);
                    let best = rw.emit_select(b, span, take, k, best);
                    let one = rw.int(b, 1, span);
                    let k = rw.emit_binary(b, span, BinaryOp::Add, k, one);
                    Ok(vec![acc, best, k])
                })?;
                Ok(out[1])
            }
            Reduce::CumSum | Reduce::CumProd => {
                let at = rt.array().expect("an array");
                let n = self.size_of(b, a, span);
                let out = self.push(
                    b,
                    InstKind::NewArray { dtype: at.dtype, shape: vec![n], zeroed: false },
                    rt.clone(),
                    span,
                );
                let prod = r == Reduce::CumProd;
                let init = self.konst_of(b, at.dtype, if prod { 1.0 } else { 0.0 }, span);
                let zero = self.int(b, 0, span);
                let op = if prod { BinaryOp::Mul } else { BinaryOp::Add };
                self.fold_elements(b, a, vec![init, zero], span, &mut |rw, x, v| {
                    let x = rw.coerce(b, x, &Type::Scalar(at.dtype), span)?;
                    let acc = rw.num_binary(b, op, v[0], x, at.dtype, span)?;
                    rw.push_void(b, InstKind::Store(out, v[1], acc), span);
                    let one = rw.int(b, 1, span);
                    Ok(vec![acc, rw.emit_binary(b, span, BinaryOp::Add, v[1], one)])
                })?;
                Ok(out)
            }
            _ => unreachable!("a folding reduction"),
        }
    }

    /// `np.argmin/argmax/cumsum/cumprod(a, axis=k)` of an n-D array with a constant `k`: the
    /// 1-D operation along that axis for every index of the others.
    fn along_axis(
        &mut self,
        b: Block,
        r: Reduce,
        axis_src: Value,
        a: Value,
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let k = const_index(self.src, &[axis_src], span).map_err(|_| {
            err(span, "the axis must be a constant here", "axis=").with_hint("write the axis as a literal, e.g. axis=0")
        })?;
        let Some(axis) = typing::norm_axis(k, at.ndim) else {
            return Err(err(span, format!("axis {k} is out of bounds for array of dimension {}", at.ndim), "axis="));
        };
        let axis = axis as usize;
        let dims = self.dims(b, a, span);
        let strides = self.strides(b, a, span);
        let mut odims = dims.clone();
        odims.remove(axis);
        let ot = rt.array().expect("an array");
        let cum = matches!(r, Reduce::CumSum | Reduce::CumProd);
        let out = self.push(
            b,
            InstKind::NewArray {
                dtype: ot.dtype,
                shape: if cum { dims.clone() } else { odims.clone() },
                zeroed: false,
            },
            rt.clone(),
            span,
        );
        let ostrides = self.strides(b, out, span);
        let n = dims[axis];
        let sa = strides[axis];
        let zero = self.int(b, 0, span);
        if !cum {
            let which = if r == Reduce::ArgMin { "argmin" } else { "argmax" };
            let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
            self.raise_if(b, empty, "ValueError", &format!("attempt to get {which} of an empty sequence"), span);
        }
        self.loop_nest(b, &odims, span, &mut |rw, idx| {
            let mut full: Vec<Value> = idx.to_vec();
            full.insert(axis, zero);
            let base = rw.offset(b, &strides, &full, span);
            let load = |rw: &mut Self, k: Value| {
                let o = rw.emit_binary(b, span, BinaryOp::Mul, k, sa);
                let o = rw.emit_binary(b, span, BinaryOp::Add, base, o);
                rw.push(b, InstKind::Load(a, o), Type::Scalar(at.dtype), span)
            };
            if cum {
                let prod = r == Reduce::CumProd;
                let init = rw.konst_of(b, ot.dtype, if prod { 1.0 } else { 0.0 }, span);
                let op = if prod { BinaryOp::Mul } else { BinaryOp::Add };
                let obase = rw.offset(b, &ostrides, &full, span);
                let os = ostrides[axis];
                rw.fold(b, (zero, n), vec![init], span, &mut |rw, k, v| {
                    let x = load(rw, k);
                    let x = rw.coerce(b, x, &Type::Scalar(ot.dtype), span)?;
                    let acc = rw.num_binary(b, op, v[0], x, ot.dtype, span)?;
                    let o = rw.emit_binary(b, span, BinaryOp::Mul, k, os);
                    let o = rw.emit_binary(b, span, BinaryOp::Add, obase, o);
                    rw.push_void(b, InstKind::Store(out, o, acc), span);
                    Ok(vec![acc])
                })?;
            } else {
                let op = if r == Reduce::ArgMin { CmpOp::Lt } else { CmpOp::Gt };
                let ct = if at.dtype == Scalar::Bool { Scalar::Int64 } else { at.dtype };
                let first = load(rw, zero);
                let first = rw.coerce(b, first, &Type::Scalar(ct), span)?;
                let res = rw.fold(b, (zero, n), vec![first, zero], span, &mut |rw, k, v| {
                    let x = load(rw, k);
                    let x = rw.coerce(b, x, &Type::Scalar(ct), span)?;
                    let better = rw.emit_compare(b, span, op, x, v[0]);
                    let take = match (rw.nan_test(b, x, span), rw.nan_test(b, v[0], span)) {
                        (Some(xn), Some(an)) => {
                            let t = rw.emit_binary(b, span, BinaryOp::BitOr, better, xn);
                            let keep = rw.push(b, InstKind::Unary(UnaryOp::Not, an), Type::BOOL, span);
                            rw.emit_binary(b, span, BinaryOp::BitAnd, t, keep)
                        }
                        _ => better,
                    };
                    Ok(vec![rw.emit_select(b, span, take, x, v[0]), rw.emit_select(b, span, take, k, v[1])])
                })?;
                let o = rw.offset(b, &ostrides, idx, span);
                rw.push_void(b, InstKind::Store(out, o, res[1]), span);
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// `x ** 0.5` (Numba's `std`).
    fn half_power(&mut self, b: Block, x: Value, span: Span) -> Value {
        let h = self.push(b, InstKind::Const(Const::Float(0.5)), Type::F64, span);
        self.emit_binary(b, span, BinaryOp::Pow, x, h)
    }

    /// The float64 sum and the count of the elements that are not NaN.
    fn nan_sum_count(&mut self, b: Block, src: &Source, span: Span) -> Result<(Value, Value), Diagnostic> {
        let init = self.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
        let zero = self.int(b, 0, span);
        let out = self.fold_src(b, src, vec![init, zero], span, &mut |rw, x, v| {
            let x = rw.coerce(b, x, &Type::F64, span)?;
            let nan = rw.emit_compare(b, span, CmpOp::Ne, x, x);
            let s = rw.emit_binary(b, span, BinaryOp::Add, v[0], x);
            let one = rw.int(b, 1, span);
            let c = rw.emit_binary(b, span, BinaryOp::Add, v[1], one);
            Ok(vec![rw.emit_select(b, span, nan, v[0], s), rw.emit_select(b, span, nan, v[1], c)])
        })?;
        Ok((out[0], out[1]))
    }

    /// Numba's `mean`: the sum in `rt` (float64 for integers), divided by the size in float64
    /// and converted to `rt`; NaN for an empty array.
    pub(super) fn mean(&mut self, b: Block, src: &Source, rt: Scalar, span: Span) -> Result<Value, Diagnostic> {
        if rt.is_complex() {
            // Numba's complex mean: the sum in the array's complex type divided by the size
            // in complex128 (`c / a.size`), converted back; `nan+nanj` when empty.
            let f = rt.component();
            let zero = self.konst_of(b, f, 0.0, span);
            let init = self.cmake(b, rt, zero, zero, span);
            let out = self.fold_src(b, src, vec![init], span, &mut |rw, x, v| {
                let x = rw.coerce(b, x, &Type::Scalar(rt), span)?;
                Ok(vec![rw.complex_binary(b, BinaryOp::Add, v[0], x, rt, span)?])
            })?;
            let n = self.src_size(b, src, span);
            let (zero_n, one_n) = (self.int(b, 0, span), self.int(b, 1, span));
            let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero_n);
            let n = self.emit_select(b, span, empty, one_n, n);
            let c128 = Type::Scalar(Scalar::Complex128);
            let (sum, n) = (self.coerce(b, out[0], &c128, span)?, self.coerce(b, n, &c128, span)?);
            let q = self.complex_binary(b, BinaryOp::Div, sum, n, Scalar::Complex128, span)?;
            let q = self.coerce(b, q, &Type::Scalar(rt), span)?;
            let nan = self.konst_of(b, f, f64::NAN, span);
            let nan = self.cmake(b, rt, nan, nan, span);
            return Ok(self.emit_select(b, span, empty, nan, q));
        }
        let init = self.konst_of(b, rt, 0.0, span);
        let out = self.fold_src(b, src, vec![init], span, &mut |rw, x, v| {
            let x = rw.coerce(b, x, &Type::Scalar(rt), span)?;
            Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], x)])
        })?;
        let n = self.src_size(b, src, span);
        let c = self.coerce(b, out[0], &Type::F64, span)?;
        let nf = self.coerce(b, n, &Type::F64, span)?;
        let q = self.emit_binary(b, span, BinaryOp::Div, c, nf);
        let zero = self.int(b, 0, span);
        let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
        let nan = self.push(b, InstKind::Const(Const::Float(f64::NAN)), Type::F64, span);
        let q = self.emit_select(b, span, empty, nan, q);
        self.coerce(b, q, &Type::Scalar(rt), span)
    }

    /// The first element beating all others by `op` (`Lt` for the minimum); NaN wins unless
    /// `skip_nan` (then NaN only when every element is NaN). `a` is not empty.
    fn extreme(&mut self, b: Block, a: Value, op: CmpOp, skip_nan: bool, span: Span) -> Result<Value, Diagnostic> {
        let d = self.ty(a).array().expect("an array").dtype;
        let ct = if d == Scalar::Bool { Scalar::Int64 } else { d };
        let zero = self.int(b, 0, span);
        let first = self.push(b, InstKind::Load(a, zero), Type::Scalar(d), span);
        let first = self.coerce(b, first, &Type::Scalar(ct), span)?;
        let out = self.fold_elements(b, a, vec![first], span, &mut |rw, x, v| {
            let x = rw.coerce(b, x, &Type::Scalar(ct), span)?;
            let better = rw.emit_compare(b, span, op, x, v[0]);
            // NaN-propagating: a NaN element replaces; the skipping form replaces a NaN.
            let nan = if skip_nan { rw.nan_test(b, v[0], span) } else { rw.nan_test(b, x, span) };
            let take = match nan {
                Some(n) => rw.emit_binary(b, span, BinaryOp::BitOr, better, n),
                None => better,
            };
            Ok(vec![rw.emit_select(b, span, take, x, v[0])])
        })?;
        self.coerce(b, out[0], &Type::Scalar(d), span)
    }

    /// `np.sum(a, axis=k)` with a constant `k`: the sums along that axis, as an array of the
    /// other dimensions (a number for a 1-D array).
    fn sum_axis(&mut self, b: Block, axis_src: Value, a: Value, rt: Type, span: Span) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let k = const_index(self.src, &[axis_src], span).map_err(|_| {
            err(span, "the axis of np.sum() must be a constant here", "axis=")
                .with_hint("write the axis as a literal, e.g. axis=0")
        })?;
        let Some(axis) = typing::norm_axis(k, at.ndim) else {
            return Err(err(span, format!("axis {k} is out of bounds for array of dimension {}", at.ndim), "axis="));
        };
        let acc = match &rt {
            Type::Array(o) => o.dtype,
            t => t.scalar().expect("a number"),
        };
        if at.ndim == 1 {
            let init = self.konst_of(b, acc, 0.0, span);
            let out = self.fold_elements(b, a, vec![init], span, &mut |rw, x, v| {
                let x = rw.coerce(b, x, &Type::Scalar(acc), span)?;
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], x)])
            })?;
            return Ok(out[0]);
        }
        let dims = self.dims(b, a, span);
        let strides = self.strides(b, a, span);
        let mut odims = dims.clone();
        odims.remove(axis as usize);
        let out = self.push(
            b,
            InstKind::NewArray { dtype: acc, shape: odims.clone(), zeroed: true },
            Type::Array(ArrayType { dtype: acc, ndim: at.ndim - 1, layout: Layout::C }),
            span,
        );
        let ostrides = self.strides(b, out, span);
        // Over the input in C order, adding each element into its output element.
        self.loop_nest(b, &dims, span, &mut |rw, idx| {
            let off = rw.offset(b, &strides, idx, span);
            let x = rw.push(b, InstKind::Load(a, off), Type::Scalar(at.dtype), span);
            let x = rw.coerce(b, x, &Type::Scalar(acc), span)?;
            let mut oidx = idx.to_vec();
            oidx.remove(axis as usize);
            let o = rw.offset(b, &ostrides, &oidx, span);
            let cur = rw.push(b, InstKind::Load(out, o), Type::Scalar(acc), span);
            let s = rw.emit_binary(b, span, BinaryOp::Add, cur, x);
            rw.push_void(b, InstKind::Store(out, o, s), span);
            Ok(())
        })?;
        Ok(out)
    }
}

/// Whether a reduction only folds over the elements (its source can be a fused expression).
pub(super) fn folds_only(r: Reduce) -> bool {
    matches!(
        r,
        Reduce::Sum
            | Reduce::Prod
            | Reduce::NanSum
            | Reduce::NanProd
            | Reduce::All
            | Reduce::Any
            | Reduce::Mean
            | Reduce::Var
            | Reduce::Std
            | Reduce::NanMean
            | Reduce::NanVar
            | Reduce::NanStd
    )
}
