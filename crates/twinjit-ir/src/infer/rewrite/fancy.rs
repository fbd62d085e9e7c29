//! The rewrite of indexing that copies (NumPy's advanced indexing, as Numba supports it):
//! `a[mask]` with a bool array of `a`'s shape gives a new 1-D array of the selected elements
//! in C order (`fancy_get`, `fancy_set`); one integer array or 1-D mask among integers,
//! slices, `None` and `...` (`x[idx]`, `x[:, cols]`, `x[mask, 0]`) gathers along its axis of
//! the view the other indices make (`advanced_get`, `advanced_set`: negative positions count
//! from the end, out of range is an `IndexError`), and assigning stores a number or an array
//! that broadcasts to the selection.

use super::arrays::Index;
use super::*;
use crate::builtins::ArrayMethod;
use crate::exception::ExceptionArg;
use crate::types::{ArrayType, Layout};

/// A subscript with one array among basic indices, ready to gather or scatter
/// (`Rewriter::advanced_parts`).
struct Advanced {
    /// The view of the basic indices, the array's axis whole.
    view: Value,
    /// That axis in the view, and in the indexed array (for the `IndexError`).
    pos: usize,
    axis: u8,
    /// Its length.
    len: Value,
    /// The positions it selects: an integer array (a mask's true positions).
    index: Value,
    index_dtype: Scalar,
    index_ndim: usize,
    view_strides: Vec<Value>,
    index_strides: Vec<Value>,
    /// The selection's shape: the view's, its axis replaced by the index's dimensions.
    dims: Vec<Value>,
}

type Then<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, &[Value]) -> Result<Vec<Value>, Diagnostic> + 'b;
type AtIndex<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, &[Value], &[Value]) -> Result<Vec<Value>, Diagnostic> + 'b;

impl<'r> Rewriter<'r> {
    /// `vars = then(vars) if cond else vars`, joined in block parameters.
    pub(super) fn if_values(
        &mut self,
        b: Block,
        cond: Value,
        vars: Vec<Value>,
        span: Span,
        then: &mut Then<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        self.if_else_values(b, cond, vars, span, then, &mut |_, v| Ok(v.to_vec()))
    }

    /// `then(vars)` when `cond` holds, else `other(vars)`, joined in block parameters.
    pub(super) fn if_else_values(
        &mut self,
        b: Block,
        cond: Value,
        vars: Vec<Value>,
        span: Span,
        then: &mut Then<'_, 'r>,
        other: &mut Then<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        let tys: Vec<Type> = vars.iter().map(|v| self.ty(*v)).collect();
        self.if_else_make(b, cond, &tys, span, &mut |rw, _| then(rw, &vars), &mut |rw, _| other(rw, &vars))
    }

    /// `then()` when `cond` holds, else `other()`: the values each branch makes (of types
    /// `tys`), joined in block parameters.
    pub(super) fn if_else_make(
        &mut self,
        b: Block,
        cond: Value,
        tys: &[Type],
        span: Span,
        then: &mut Then<'_, 'r>,
        other: &mut Then<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        let at = self.cur[b.index()];
        let tb = self.g.add_block();
        let eb = self.g.add_block();
        let join = self.g.add_block();
        let out: Vec<Value> = tys.iter().map(|t| self.g.add_block_param(join, t.clone())).collect();
        let to = |block| BlockCall { block, args: vec![] };
        self.g.terminate(at, Terminator::Branch(cond, to(tb), to(eb)), span);
        self.cur[b.index()] = tb;
        let made = then(self, &[])?;
        let end = self.cur[b.index()];
        self.g.terminate(end, Terminator::Jump(BlockCall { block: join, args: made }), span);
        self.cur[b.index()] = eb;
        let made = other(self, &[])?;
        let end = self.cur[b.index()];
        self.g.terminate(end, Terminator::Jump(BlockCall { block: join, args: made }), span);
        self.cur[b.index()] = join;
        Ok(out)
    }

    /// Whether `a` is C-contiguous at run time, by Numba's rule (`numpy_support.is_contiguous`);
    /// `None` when its type says so already.
    pub(super) fn c_contiguous(&mut self, b: Block, a: Value, span: Span) -> Option<Value> {
        let at = self.ty(a).array().expect("an array");
        if at.layout == Layout::C {
            return None;
        }
        Some(self.contiguous_in(b, a, true, span))
    }

    /// Whether `a` is Fortran-contiguous at run time, by Numba's rule
    /// (`numpy_support.is_fortran`; a 1-D contiguous array is both).
    pub(super) fn f_contiguous(&mut self, b: Block, a: Value, span: Span) -> Value {
        self.contiguous_in(b, a, false, span)
    }

    /// Numba's contiguity test, in the order `c_order` (the last axis varying fastest) or the
    /// other: the axes of length 0 or 1 at either end are skipped (all of them: contiguous);
    /// the innermost axis left has a stride of one element, and every axis from there to the
    /// outermost one left has the stride of the next inner one times its length (an axis of
    /// length 0 or 1 between them included). Written without branches: for the innermost axis
    /// `k` a longer axis lies inside of, and each axis a longer axis lies outside of.
    fn contiguous_in(&mut self, b: Block, a: Value, c_order: bool, span: Span) -> Value {
        let mut dims = self.dims(b, a, span);
        let mut strides = self.strides(b, a, span);
        if !c_order {
            dims.reverse();
            strides.reverse();
        }
        let n = dims.len();
        let one = self.int(b, 1, span);
        let t = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        let f = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        let big: Vec<Value> = dims.iter().map(|&d| self.emit_compare(b, span, CmpOp::Gt, d, one)).collect();
        // after[k]: an axis longer than 1 inside of axis k; before[k]: one outside of it.
        let mut after = vec![f; n];
        for k in (0..n.saturating_sub(1)).rev() {
            after[k] = self.emit_binary(b, span, BinaryOp::BitOr, after[k + 1], big[k + 1]);
        }
        let mut before = vec![f; n];
        for k in 1..n {
            before[k] = self.emit_binary(b, span, BinaryOp::BitOr, before[k - 1], big[k - 1]);
        }
        let mut ok = t;
        for k in 0..n {
            // The innermost long axis has unit stride.
            let not_after = self.emit_binary(b, span, BinaryOp::BitXor, after[k], t);
            let inner = self.emit_binary(b, span, BinaryOp::BitAnd, big[k], not_after);
            let unit = self.emit_compare(b, span, CmpOp::Eq, strides[k], one);
            let not_inner = self.emit_binary(b, span, BinaryOp::BitXor, inner, t);
            let fine = self.emit_binary(b, span, BinaryOp::BitOr, not_inner, unit);
            ok = self.emit_binary(b, span, BinaryOp::BitAnd, ok, fine);
            if k == 0 {
                continue;
            }
            // Axes between the outermost and the innermost long ones chain their strides.
            let within_inner = self.emit_binary(b, span, BinaryOp::BitOr, big[k], after[k]);
            let between = self.emit_binary(b, span, BinaryOp::BitAnd, before[k], within_inner);
            let span_k = self.emit_binary(b, span, BinaryOp::Mul, strides[k], dims[k]);
            let chained = self.emit_compare(b, span, CmpOp::Eq, span_k, strides[k - 1]);
            let not_between = self.emit_binary(b, span, BinaryOp::BitXor, between, t);
            let fine = self.emit_binary(b, span, BinaryOp::BitOr, not_between, chained);
            ok = self.emit_binary(b, span, BinaryOp::BitAnd, ok, fine);
        }
        ok
    }

    /// Folds `body(index, vars) -> vars` over every index of `dims` in C order.
    pub(super) fn fold_index(
        &mut self,
        b: Block,
        dims: &[Value],
        init: Vec<Value>,
        span: Span,
        body: &mut AtIndex<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        fn go<'r>(
            rw: &mut Rewriter<'r>,
            b: Block,
            dims: &[Value],
            idx: &mut Vec<Value>,
            vars: Vec<Value>,
            span: Span,
            body: &mut AtIndex<'_, 'r>,
        ) -> Result<Vec<Value>, Diagnostic> {
            if idx.len() == dims.len() {
                return body(rw, idx, &vars);
            }
            let zero = rw.int(b, 0, span);
            let n = dims[idx.len()];
            rw.fold(b, (zero, n), vars, span, &mut |rw, i, v| {
                idx.push(i);
                let r = go(rw, b, dims, idx, v.to_vec(), span, body);
                idx.pop();
                r
            })
        }
        go(self, b, dims, &mut Vec::new(), init, span, body)
    }

    /// `IndexError` unless the bool array `mask` has `a`'s shape.
    fn check_mask_shape(&mut self, b: Block, a: Value, mask: Value, span: Span) {
        let (da, dm) = (self.dims(b, a, span), self.dims(b, mask, span));
        let mut bad: Option<Value> = None;
        for (x, y) in da.into_iter().zip(dm) {
            let ne = self.emit_compare(b, span, CmpOp::Ne, x, y);
            bad = Some(match bad {
                Some(p) => self.emit_binary(b, span, BinaryOp::BitOr, p, ne),
                None => ne,
            });
        }
        if let Some(bad) = bad {
            self.raise_if(b, bad, "IndexError", "boolean index did not match indexed array", span);
        }
    }

    /// How many elements of the bool array `mask` are true.
    fn count_true(&mut self, b: Block, mask: Value, span: Span) -> Result<Value, Diagnostic> {
        let zero = self.int(b, 0, span);
        let out = self.fold_elements(b, mask, vec![zero], span, &mut |rw, m, v| {
            let one = rw.coerce(b, m, &Type::I64, span)?;
            Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], one)])
        })?;
        Ok(out[0])
    }

    /// `i` as an index into an axis of length `n`: negative counts from the end, then checked.
    pub(super) fn wrap_checked(&mut self, b: Block, i: Value, n: Value, span: Span) -> Result<Value, Diagnostic> {
        self.wrap_checked_axis(b, i, n, 0, span)
    }

    /// [`Self::wrap_checked`] for axis `axis` of the indexed array (the `IndexError` names it).
    fn wrap_checked_axis(&mut self, b: Block, i: Value, n: Value, axis: u8, span: Span) -> Result<Value, Diagnostic> {
        let i = self.coerce(b, i, &Type::I64, span)?;
        let zero = self.int(b, 0, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, i, zero);
        let w = self.emit_binary(b, span, BinaryOp::Add, i, n);
        let i = self.emit_select(b, span, neg, w, i);
        self.push_void(b, InstKind::CheckIndex(i, n, axis), span);
        Ok(i)
    }

    /// `a[mask]` for a bool array `mask` of `a`'s dimensions (new values): a new 1-D array
    /// of the selected elements (see the module docs).
    pub(super) fn fancy_get(&mut self, b: Block, a: Value, index: Value, span: Span) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let it = self.ty(index).array().expect("an array index");
        if it.dtype != Scalar::Bool || it.ndim != at.ndim {
            return Err(err(span, "internal: an advanced index reached the mask gather", "here"));
        }
        self.check_mask_shape(b, a, index, span);
        let n = self.count_true(b, index, span)?;
        // One spare element, so that every element can be stored without a branch (at the
        // count of those kept so far, which moves on only for selected ones); the result
        // is the first `n`.
        let one = self.int(b, 1, span);
        let room = self.emit_binary(b, span, BinaryOp::Add, n, one);
        let c1 = Type::Array(ArrayType { dtype: at.dtype, ndim: 1, layout: Layout::C });
        let out =
            self.push(b, InstKind::NewArray { dtype: at.dtype, shape: vec![room], zeroed: false }, c1.clone(), span);
        let dims = self.dims(b, a, span);
        let (sa, sm) = (self.strides(b, a, span), self.strides(b, index, span));
        let zero = self.int(b, 0, span);
        self.fold_index(b, &dims, vec![zero], span, &mut |rw, idx, v| {
            let om = rw.offset(b, &sm, idx, span);
            let m = rw.push(b, InstKind::Load(index, om), Type::BOOL, span);
            let oa = rw.offset(b, &sa, idx, span);
            let x = rw.push(b, InstKind::Load(a, oa), Type::Scalar(at.dtype), span);
            rw.push_void(b, InstKind::Store(out, v[0], x), span);
            let step = rw.coerce(b, m, &Type::I64, span)?;
            Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], step)])
        })?;
        Ok(self.push(b, InstKind::View { base: out, offset: zero, shape: vec![n], strides: vec![one] }, c1, span))
    }

    /// `a[mask] = v` for a bool array `mask` of `a`'s dimensions (new values; `v` a number
    /// or a 1-D array).
    pub(super) fn fancy_set(
        &mut self,
        b: Block,
        a: Value,
        index: Value,
        v: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let it = self.ty(index).array().expect("an array index");
        let dt = Type::Scalar(at.dtype);
        let vt = self.ty(v);
        if !matches!(vt, Type::Scalar(_) | Type::Array(_)) {
            return Err(err(span, format!("cannot assign {vt} to elements of {}", Type::Array(at)), "assigned here"));
        }
        if it.dtype != Scalar::Bool || it.ndim != at.ndim {
            return Err(err(span, "internal: an advanced index reached the mask store", "here"));
        }
        self.check_mask_shape(b, a, index, span);
        let dims = self.dims(b, a, span);
        let (sa, sm) = (self.strides(b, a, span), self.strides(b, index, span));
        // The values: a number, or a 1-D array with one value per true element (or one).
        let source = match vt {
            Type::Array(st) if st.ndim == 1 => {
                let n = self.count_true(b, index, span)?;
                let len = self.push(b, InstKind::Dim(v, 0), Type::I64, span);
                let one = self.int(b, 1, span);
                let ok = self.emit_compare(b, span, CmpOp::Eq, len, n);
                let single = self.emit_compare(b, span, CmpOp::Eq, len, one);
                let fits = self.emit_binary(b, span, BinaryOp::BitOr, ok, single);
                let bad = self.push(b, InstKind::Unary(UnaryOp::Not, fits), Type::BOOL, span);
                self.raise_if(
                    b,
                    bad,
                    "ValueError",
                    "NumPy boolean array indexing assignment cannot assign the input values to the output values where the mask is true",
                    span,
                );
                let s = self.push(b, InstKind::Stride(v, 0), Type::I64, span);
                let zero = self.int(b, 0, span);
                Some(self.emit_select(b, span, single, zero, s))
            }
            Type::Array(_) => {
                return Err(err(span, "a boolean-mask assignment takes a number or a 1-D array", "assigned here"))
            }
            _ => None,
        };
        let x0 = if source.is_none() { Some(self.coerce(b, v, &dt, span)?) } else { None };
        let zero = self.int(b, 0, span);
        self.fold_index(b, &dims, vec![zero], span, &mut |rw, idx, vars| {
            let om = rw.offset(b, &sm, idx, span);
            let m = rw.push(b, InstKind::Load(index, om), Type::BOOL, span);
            let oa = rw.offset(b, &sa, idx, span);
            rw.if_values(b, m, vars.to_vec(), span, &mut |rw, vars| {
                let x = match (x0, source) {
                    (Some(x), _) => x,
                    (None, Some(s)) => {
                        let off = rw.emit_binary(b, span, BinaryOp::Mul, vars[0], s);
                        let st = rw.ty(v).array().expect("an array").dtype;
                        let x = rw.push(b, InstKind::Load(v, off), Type::Scalar(st), span);
                        rw.coerce(b, x, &dt, span)?
                    }
                    (None, None) => unreachable!("a number or an array"),
                };
                rw.push_void(b, InstKind::Store(a, oa, x), span);
                let one = rw.int(b, 1, span);
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, vars[0], one)])
            })
        })?;
        Ok(())
    }

    /// The positions of `a`'s true (nonzero) elements as int64 1-D arrays: one per axis
    /// (`np.nonzero`), or one of flat C-order positions (`np.flatnonzero`, `flat`).
    fn nonzero_arrays(&mut self, b: Block, a: Value, flat: bool, span: Span) -> Result<Vec<Value>, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let n = self.count_nonzero(b, a, span)?;
        let idx_t = Type::Array(ArrayType { dtype: Scalar::Int64, ndim: 1, layout: Layout::C });
        let outs: Vec<Value> = (0..if flat { 1 } else { at.ndim })
            .map(|_| {
                self.push(
                    b,
                    InstKind::NewArray { dtype: Scalar::Int64, shape: vec![n], zeroed: false },
                    idx_t.clone(),
                    span,
                )
            })
            .collect();
        let dims = self.dims(b, a, span);
        let st = self.strides(b, a, span);
        let zero = self.int(b, 0, span);
        self.fold_index(b, &dims, vec![zero, zero], span, &mut |rw, idx, v| {
            let off = rw.offset(b, &st, idx, span);
            let x = rw.push(b, InstKind::Load(a, off), Type::Scalar(at.dtype), span);
            let t = rw.truth(b, x, span)?;
            let one = rw.int(b, 1, span);
            let f = v[1];
            let mut next = rw.if_values(b, t, vec![v[0]], span, &mut |rw, k| {
                if flat {
                    rw.push_void(b, InstKind::Store(outs[0], k[0], f), span);
                } else {
                    for (d, &o) in outs.iter().enumerate() {
                        rw.push_void(b, InstKind::Store(o, k[0], idx[d]), span);
                    }
                }
                let one = rw.int(b, 1, span);
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, k[0], one)])
            })?;
            next.push(rw.emit_binary(b, span, BinaryOp::Add, f, one));
            Ok(next)
        })?;
        Ok(outs)
    }

    /// The parts of a subscript with one array among basic indices (source values `idx`, see
    /// `typing::fancy_index`): the view the basic indices make with the array's axis whole,
    /// and how to read positions along that axis.
    fn advanced_parts(&mut self, b: Block, a: Value, idx: &[Value], span: Span) -> Result<Advanced, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let ix = self.classify(b, idx, span)?;
        let Some(k) = ix.iter().position(|i| matches!(i, Index::Array(_))) else {
            return Err(err(span, "internal: no array among the indices", "here"));
        };
        let Index::Array(index) = ix[k] else { unreachable!("found above") };
        let consumed = ix.iter().filter(|i| matches!(i, Index::Int(_) | Index::Slice(..) | Index::Array(_))).count();
        let rest = (at.ndim as usize).saturating_sub(consumed);
        // The axis's position in the view, and in `a`.
        let (mut pos, mut axis) = (0usize, 0usize);
        for i in &ix[..k] {
            match i {
                Index::Int(_) => axis += 1,
                Index::Slice(..) => (pos, axis) = (pos + 1, axis + 1),
                Index::NewAxis => pos += 1,
                Index::Ellipsis => (pos, axis) = (pos + rest, axis + rest),
                Index::Array(_) => {}
            }
        }
        let ints = ix.iter().filter(|i| matches!(i, Index::Int(_))).count();
        let newaxes = ix.iter().filter(|i| matches!(i, Index::NewAxis)).count();
        let ndim = (at.ndim as usize + newaxes - ints) as u8;
        let vt = Type::Array(ArrayType { dtype: at.dtype, ndim, layout: Layout::A });
        let view = self.view_of(b, a, ix, vt, span)?;
        let len = self.push(b, InstKind::Dim(view, pos as i64), Type::I64, span);
        let it = self.ty(index).array().expect("an array index");
        let index = if it.dtype == Scalar::Bool {
            // A 1-D mask selects the positions of its true elements; NumPy wants its length
            // to be the axis's.
            let m = self.push(b, InstKind::Dim(index, 0), Type::I64, span);
            let bad = self.emit_compare(b, span, CmpOp::Ne, len, m);
            let args = vec![ExceptionArg::Format(vec![
                ExceptionArg::Str(format!(
                    "boolean index did not match indexed array along axis {axis}; size of axis is "
                )),
                ExceptionArg::Runtime(len),
                ExceptionArg::Str(" but size of corresponding boolean axis is ".into()),
                ExceptionArg::Runtime(m),
            ])];
            self.raise_if_args(b, bad, "IndexError", args, span);
            self.nonzero_arrays(b, index, true, span)?[0]
        } else {
            index
        };
        let it = self.ty(index).array().expect("an array index");
        let mut dims = self.dims(b, view, span);
        let idims = self.dims(b, index, span);
        dims.splice(pos..=pos, idims);
        Ok(Advanced {
            view,
            pos,
            axis: axis as u8,
            len,
            index,
            index_dtype: it.dtype,
            index_ndim: it.ndim as usize,
            view_strides: self.strides(b, view, span),
            index_strides: self.strides(b, index, span),
            dims,
        })
    }

    /// The view's element at position `ii` of the result (the index's element there read,
    /// wrapped and checked against the axis).
    fn advanced_offset(&mut self, b: Block, p: &Advanced, ii: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let (pos, nd) = (p.pos, p.index_ndim);
        let oi = self.offset(b, &p.index_strides, &ii[pos..pos + nd], span);
        let i = self.push(b, InstKind::Load(p.index, oi), Type::Scalar(p.index_dtype), span);
        let i = self.wrap_checked_axis(b, i, p.len, p.axis, span)?;
        let at: Vec<Value> =
            ii[..pos].iter().copied().chain(std::iter::once(i)).chain(ii[pos + nd..].iter().copied()).collect();
        Ok(self.offset(b, &p.view_strides, &at, span))
    }

    /// `a[..., idx, ...]` with one array among basic indices (source values `idx`): a new
    /// array, the view's axis replaced by the index's dimensions.
    pub(super) fn advanced_get(&mut self, b: Block, a: Value, idx: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let dtype = self.ty(a).array().expect("an array").dtype;
        let p = self.advanced_parts(b, a, idx, span)?;
        let t = Type::Array(ArrayType { dtype, ndim: p.dims.len() as u8, layout: Layout::C });
        let out = self.push(b, InstKind::NewArray { dtype, shape: p.dims.clone(), zeroed: false }, t, span);
        let so = self.strides(b, out, span);
        self.loop_nest(b, &p.dims.clone(), span, &mut |rw, ii| {
            let off = rw.advanced_offset(b, &p, ii, span)?;
            let x = rw.push(b, InstKind::Load(p.view, off), Type::Scalar(dtype), span);
            let oo = rw.offset(b, &so, ii, span);
            rw.push_void(b, InstKind::Store(out, oo, x), span);
            Ok(())
        })?;
        Ok(out)
    }

    /// `a[..., idx, ...] = v` with one array among basic indices (source values `idx`; `v` a
    /// number or an array that broadcasts to the selection).
    pub(super) fn advanced_set(
        &mut self,
        b: Block,
        a: Value,
        idx: &[Value],
        v: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let dt = Type::Scalar(at.dtype);
        let vt = self.ty(v);
        if !matches!(vt, Type::Scalar(_) | Type::Array(_)) {
            return Err(err(span, format!("cannot assign {vt} to elements of {}", Type::Array(at)), "assigned here"));
        }
        let p = self.advanced_parts(b, a, idx, span)?;
        let src = match vt {
            Type::Array(st) if st.ndim as usize <= p.dims.len() => {
                let m = "shape mismatch: value array could not be broadcast to indexing result";
                Some(self.broadcast_view(b, v, &p.dims, m, span)?)
            }
            Type::Array(_) => {
                return Err(err(span, "the value has more dimensions than the selection", "assigned here"))
            }
            _ => None,
        };
        let x0 = if src.is_none() { Some(self.coerce(b, v, &dt, span)?) } else { None };
        let sv = match src {
            Some(view) => self.strides(b, view, span),
            None => vec![],
        };
        self.loop_nest(b, &p.dims.clone(), span, &mut |rw, ii| {
            let off = rw.advanced_offset(b, &p, ii, span)?;
            let x = match (x0, src) {
                (Some(x), _) => x,
                (None, Some(view)) => {
                    let ov = rw.offset(b, &sv, ii, span);
                    let st = rw.ty(view).array().expect("an array").dtype;
                    let x = rw.push(b, InstKind::Load(view, ov), Type::Scalar(st), span);
                    rw.coerce(b, x, &dt, span)?
                }
                (None, None) => unreachable!("a number or an array"),
            };
            rw.push_void(b, InstKind::Store(p.view, off, x), span);
            Ok(())
        })
    }

    /// How many elements of `a` are true (nonzero).
    fn count_nonzero(&mut self, b: Block, a: Value, span: Span) -> Result<Value, Diagnostic> {
        let zero = self.int(b, 0, span);
        let out = self.fold_elements(b, a, vec![zero], span, &mut |rw, x, v| {
            let t = rw.truth(b, x, span)?;
            let one = rw.coerce(b, t, &Type::I64, span)?;
            Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], one)])
        })?;
        Ok(out[0])
    }

    /// An array method ([`ArrayMethod`]) on new values.
    pub(super) fn array_method(
        &mut self,
        b: Block,
        m: ArrayMethod,
        src: &[Value],
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let a = args[0];
        if m == ArrayMethod::Item && self.ty(a).scalar().is_some() {
            return Ok(a);
        }
        let Some(at) = self.ty(a).array() else {
            return self.numpy_function(b, m, src, args, rt, span);
        };
        Ok(match m {
            ArrayMethod::Fill => {
                let x = self.coerce(b, args[1], &Type::Scalar(at.dtype), span)?;
                let dims = self.dims(b, a, span);
                let st = self.strides(b, a, span);
                self.loop_nest(b, &dims, span, &mut |rw, idx| {
                    let off = rw.offset(b, &st, idx, span);
                    rw.push_void(b, InstKind::Store(a, off, x), span);
                    Ok(())
                })?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            ArrayMethod::Item => {
                let dims = self.dims(b, a, span);
                let n = self.product(b, &dims, span);
                let one = self.int(b, 1, span);
                let bad = self.emit_compare(b, span, CmpOp::Ne, n, one);
                self.raise_if(
                    b,
                    bad,
                    "ValueError",
                    "item(): can only convert an array of size 1 to a Python scalar",
                    span,
                );
                let zero = self.int(b, 0, span);
                self.push(b, InstKind::Load(a, zero), Type::Scalar(at.dtype), span)
            }
            ArrayMethod::CountNonzero => self.count_nonzero(b, a, span)?,
            ArrayMethod::Sort => self.sorted_copy(b, a, span)?,
            ArrayMethod::Argsort => {
                let stable = args.get(1).is_some_and(|&k| self.const_bool(k) == Some(true));
                self.argsort(b, a, stable, span)?
            }
            ArrayMethod::Median => self.median(b, a, span)?,
            ArrayMethod::Nonzero => {
                let outs = self.nonzero_arrays(b, a, false, span)?;
                self.push(b, InstKind::MakeTuple(outs), rt, span)
            }
            ArrayMethod::FlatNonzero => self.nonzero_arrays(b, a, true, span)?[0],
            _ => return self.numpy_function(b, m, src, args, rt, span),
        })
    }
}
