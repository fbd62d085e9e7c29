//! The rewrite of array expressions: NumPy's elementwise operators and ufuncs on arrays
//! (`np.sqrt(dx * dx + dy * dy)`, `x > 0`, `a += b`), with broadcasting.
//!
//! **Fusion** (Numba's array-expression rewrite): an elementwise operation whose array result
//! is used exactly once, by another elementwise operation (or an in-place update, or a slice
//! assignment) later in the same block with nothing between them that could write memory, is
//! not computed on its own: [`fusable`] marks it, and its consumer evaluates it element by
//! element inside its own loop. So a chain of operations in one statement becomes one loop
//! nest with one output allocation (none for `a += b` and `a[1:] = b + c`, which store into
//! the target), and no temporaries. A value the program keeps (used twice, returned, passed
//! to a function) is computed into its own array.
//!
//! **Broadcasting**: the output has the most dimensions of the operands; along each axis
//! (aligned from the right) the operands' lengths must agree or be 1, and an operand of length
//! 1 (or without the axis) repeats, read with stride 0. A mismatch raises Numba's
//! `ValueError`. Elements follow NumPy's loops (integer division by zero gives 0, float
//! division gives inf/nan; no `ZeroDivisionError`), computed in int64 for the integer types
//! and narrowed to the result's dtype.

use super::*;
use crate::builtins::Elem;
use crate::types::{ArrayType, Layout};

/// Which source values are elementwise operations computed inside their consumer's loop (see
/// the module documentation), by value index.
pub(super) fn fusable(src: &Function, types: &[Type]) -> Vec<bool> {
    let mut uses = vec![0u32; src.values.len()];
    for b in &src.blocks {
        for &i in &b.insts {
            for v in src.insts[i.index()].kind.operands() {
                uses[v.index()] += 1;
            }
        }
        for v in b.end_operands() {
            uses[v.index()] += 1;
        }
    }
    let mut out = vec![false; src.values.len()];
    for b in &src.blocks {
        for (p, &i) in b.insts.iter().enumerate() {
            let d = &src.insts[i.index()];
            let Some(r) = d.result else { continue };
            if uses[r.index()] != 1 || !is_elementwise(d, types) {
                continue;
            }
            for &j in &b.insts[p + 1..] {
                let u = &src.insts[j.index()];
                if u.kind.operands().contains(&r) {
                    out[r.index()] = consumes(u, r, types);
                    break;
                }
                if !is_pure(u) {
                    break;
                }
            }
        }
    }
    out
}

/// Whether `d` is an elementwise operation on arrays (typed as an array expression).
pub(super) fn is_elementwise(d: &InstData, types: &[Type]) -> bool {
    let Some(r) = d.result else { return false };
    if !matches!(types[r.index()], Type::Array(_)) || is_ufunc_out(d, types) {
        return false;
    }
    let ts: Vec<Type> = inputs(d).iter().map(|v| types[v.index()].clone()).collect();
    match &d.kind {
        // A `@vectorize` ufunc on arrays (without an output array).
        InstKind::Builtin(Builtin::UfuncCall, _) => true,
        InstKind::Unary(..) | InstKind::Binary(..) | InstKind::Compare(..) => typing::is_elementwise(&ts),
        InstKind::Builtin(bi, _) => {
            matches!(
                bi.info().typing,
                Typing::Ufunc(_)
                    | Typing::FloatPredicate
                    | Typing::Elementwise(_)
                    | Typing::Complex(crate::builtins::ComplexOp::Conjugate)
            ) && !(*bi == Builtin::NpWhere && ts.len() == 1)
                && typing::is_elementwise(&ts)
        }
        _ => false,
    }
}

/// How many inputs an elementwise builtin with an output argument takes (a ufunc's arity,
/// `np.clip`'s three); `None` when it takes no output argument.
fn inputs_before_out(bi: Builtin) -> Option<usize> {
    match bi.info().typing {
        Typing::Ufunc(_) => Some(bi.info().arity.0 as usize),
        Typing::Elementwise(Elem::Clip) => Some(3),
        Typing::Elementwise(Elem::Round) => Some(2),
        _ => None,
    }
}

/// Whether `d` is a ufunc (or `np.clip`) given its output array (`np.add(x, y, out)`; an
/// `out` that is None is no output argument).
pub(super) fn is_ufunc_out(d: &InstData, types: &[Type]) -> bool {
    if let InstKind::Builtin(Builtin::UfuncCall, args) = &d.kind {
        return args.last().is_some_and(|o| matches!(types[o.index()], Type::Array(_)));
    }
    matches!(&d.kind, InstKind::Builtin(bi, args)
        if inputs_before_out(*bi).is_some_and(|n| args.len() > n && matches!(types[args[n].index()], Type::Array(_))))
}

/// The inputs of an elementwise operation (a ufunc's, without its output array).
fn inputs(d: &InstData) -> Vec<Value> {
    match &d.kind {
        // The inner function, the inputs, `out`.
        InstKind::Builtin(Builtin::UfuncCall, args) => args[1..args.len() - 1].to_vec(),
        InstKind::Builtin(bi, args) if inputs_before_out(*bi).is_some() => {
            args[..args.len().min(inputs_before_out(*bi).expect("checked"))].to_vec()
        }
        k => k.operands().to_vec(),
    }
}

/// Whether `u` evaluates its operand `r` (an elementwise array) element by element.
fn consumes(u: &InstData, r: Value, types: &[Type]) -> bool {
    match &u.kind {
        InstKind::Builtin(Builtin::InPlace, args) => args[1] == r && matches!(types[args[0].index()], Type::Array(_)),
        InstKind::SetItem(a, idx, v) => {
            *v == r
                && !idx.contains(&r)
                && match &types[a.index()] {
                    Type::Array(at) => {
                        let it: Vec<Type> = idx.iter().map(|i| types[i.index()].clone()).collect();
                        typing::fancy_index(at, &it).is_none()
                            && matches!(typing::array_subscript(at, &it), Ok(Type::Array(_)))
                    }
                    _ => false,
                }
        }
        InstKind::Builtin(_, args) if is_ufunc_out(u, types) => args.last() != Some(&r),
        // A boolean mask (`a[a > 0.5]`) is evaluated while the selection runs.
        InstKind::GetItem(a, idx) => {
            idx.len() == 1
                && idx[0] == r
                && *a != r
                && matches!((&types[a.index()], &types[r.index()]),
                    (Type::Array(at), Type::Array(mt)) if mt.dtype == Scalar::Bool && mt.ndim == at.ndim)
        }
        // A folding reduction (`np.sum(d * d)`) evaluates the expression inside its loop.
        InstKind::Builtin(bi, args) if matches!(bi.info().typing, Typing::Reduce(rd) if super::reductions::folds_only(rd)) => {
            args[0] == r && args[1..].iter().all(|a| *a != r && types[a.index()] == Type::None)
        }
        _ => is_elementwise(u, types),
    }
}

/// Whether `u` neither writes memory nor calls anything that might (so an expression can be
/// evaluated after it instead of before).
fn is_pure(u: &InstData) -> bool {
    match &u.kind {
        InstKind::Const(_)
        | InstKind::Unary(..)
        | InstKind::Binary(..)
        | InstKind::Compare(..)
        | InstKind::Cast(..)
        | InstKind::Select(..)
        | InstKind::MakeTuple(_)
        | InstKind::TupleGet(..)
        | InstKind::Dim(..)
        | InstKind::GetItem(..) => true,
        InstKind::Builtin(bi, _) => matches!(
            bi.info().typing,
            Typing::Ufunc(_)
                | Typing::SliceIndex
                | Typing::FloatMath
                | Typing::Abs
                | Typing::ArrayShape
                | Typing::ArraySize
                | Typing::ArrayNdim
                | Typing::ArrayLen
                | Typing::View(_)
                // Reductions, constructors and products read existing arrays and write only
                // arrays of their own.
                | Typing::Reduce(_)
                | Typing::Alloc(_)
                | Typing::Linalg(_)
                | Typing::Elementwise(_)
        ),
        _ => false,
    }
}

impl Rewriter<'_> {
    /// One element of `np.where`, `np.clip` or `np.round` (arguments new scalars; result `r`).
    pub(super) fn elem_fn(
        &mut self,
        b: Block,
        e: Elem,
        xs: &[Value],
        r: Scalar,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let rt = Type::Scalar(r);
        Ok(match e {
            Elem::Where => {
                let c = self.truth(b, xs[0], span)?;
                let x = self.coerce(b, xs[1], &rt, span)?;
                let y = self.coerce(b, xs[2], &rt, span)?;
                self.emit_select(b, span, c, x, y)
            }
            Elem::Clip => {
                // Numba: `min(max(x, lo), hi)` with Python's min and max (NaN stays).
                let sc = |rw: &Self, v: Value| rw.ty(v).scalar().expect("numbers");
                let u = typing::unify_scalar(typing::unify_scalar(sc(self, xs[0]), sc(self, xs[1])), sc(self, xs[2]));
                let ut = Type::Scalar(if u == Scalar::Bool { Scalar::Int64 } else { u });
                let (x, lo, hi) = (
                    self.coerce(b, xs[0], &ut, span)?,
                    self.coerce(b, xs[1], &ut, span)?,
                    self.coerce(b, xs[2], &ut, span)?,
                );
                let up = self.emit_compare(b, span, CmpOp::Gt, lo, x);
                let m = self.emit_select(b, span, up, lo, x);
                let down = self.emit_compare(b, span, CmpOp::Lt, hi, m);
                let m = self.emit_select(b, span, down, hi, m);
                self.coerce(b, m, &rt, span)?
            }
            Elem::Round if !r.is_float() => xs[0],
            Elem::Round => {
                let x = self.coerce(b, xs[0], &rt, span)?;
                let rint =
                    |rw: &mut Self, y: Value| rw.push(b, InstKind::Builtin(Builtin::NpRint, vec![y]), rt.clone(), span);
                match xs.get(1) {
                    None => rint(self, x),
                    Some(&d) => {
                        // 10 ** |d| in the float type; scale up (d >= 0) or down, round, undo.
                        let d = self.coerce(b, d, &Type::I64, span)?;
                        let zero = self.int(b, 0, span);
                        let neg = self.emit_compare(b, span, CmpOp::Lt, d, zero);
                        let nd = self.push(b, InstKind::Unary(UnaryOp::Neg, d), Type::I64, span);
                        let ad = self.emit_select(b, span, neg, nd, d);
                        let ten = self.push(b, InstKind::Const(Const::Float(10.0)), rt.clone(), span);
                        let f = self.emit_binary(b, span, BinaryOp::Pow, ten, ad);
                        let up = self.emit_binary(b, span, BinaryOp::Mul, x, f);
                        let down = self.emit_binary(b, span, BinaryOp::Div, x, f);
                        let y = self.emit_select(b, span, neg, down, up);
                        let ry = rint(self, y);
                        let back_up = self.emit_binary(b, span, BinaryOp::Mul, ry, f);
                        let back_down = self.emit_binary(b, span, BinaryOp::Div, ry, f);
                        self.emit_select(b, span, neg, back_up, back_down)
                    }
                }
            }
        })
    }

    /// The elementwise operation `data` as a new array (its fused operands computed inside).
    pub(super) fn elementwise(&mut self, b: Block, data: &InstData) -> Result<Value, Diagnostic> {
        let span = data.span;
        let r = data.result.expect("elementwise operations have a result");
        let at = self.types[r.index()].array().expect("an array expression");
        let leaves = self.expr_leaves(r, true);
        let mut shapes = Vec::new();
        for &l in &leaves {
            let v = self.val(l);
            shapes.push(self.dims(b, v, span));
        }
        let out_dims = self.broadcast_shape(b, &shapes, at.ndim as usize, span);
        let out = self.push(
            b,
            InstKind::NewArray { dtype: at.dtype, shape: out_dims, zeroed: false },
            Type::Array(ArrayType { layout: Layout::C, ..at }),
            span,
        );
        self.evaluate_into(b, out, r, &leaves, BROADCAST_SHAPES, span)?;
        Ok(out)
    }

    /// `np.add(x, y, out)`: the ufunc computed into `out`, which is the result.
    pub(super) fn ufunc_into(&mut self, b: Block, data: &InstData) -> Result<Value, Diagnostic> {
        let InstKind::Builtin(_, args) = &data.kind else { unreachable!("a ufunc call") };
        let r = data.result.expect("ufuncs have a result");
        let out = self.val(*args.last().expect("an output argument"));
        let leaves = self.expr_leaves(r, true);
        self.evaluate_into(
            b,
            out,
            r,
            &leaves,
            "non-broadcastable output operand: argument {} does not fit the output array",
            data.span,
        )?;
        Ok(out)
    }

    /// `a[mask]` with the mask a fused expression (source value `mask`): when the mask's
    /// operands and `a` share one shape and are C-contiguous, the mask is evaluated per element
    /// twice (to count, then to select) and never stored; otherwise it is computed into an
    /// array first.
    pub(super) fn masked_get_expr(&mut self, b: Block, a: Value, mask: Value, span: Span) -> Result<Value, Diagnostic> {
        let at = self.ty(a).array().expect("an array");
        let leaves = self.expr_leaves(mask, false);
        let dims = self.dims(b, a, span);
        let mut cond = self.c_contiguous(b, a, span);
        let all_same = leaves.iter().all(|&l| self.types[l.index()].array().is_some_and(|t| t.ndim == at.ndim));
        if all_same {
            for &l in &leaves {
                let lv = self.val(l);
                let ld = self.dims(b, lv, span);
                let mut cs: Vec<Value> =
                    ld.iter().zip(&dims).map(|(&x, &y)| self.emit_compare(b, span, CmpOp::Eq, x, y)).collect();
                cs.extend(self.c_contiguous(b, lv, span));
                for c in cs {
                    cond = Some(match cond {
                        Some(p) => self.emit_binary(b, span, BinaryOp::BitAnd, p, c),
                        None => c,
                    });
                }
            }
        }
        let c1 = Type::Array(ArrayType { dtype: at.dtype, ndim: 1, layout: Layout::C });
        let fast = |rw: &mut Self, _: &[Value]| -> Result<Vec<Value>, Diagnostic> {
            let n = rw.product(b, &dims, span);
            let zero = rw.int(b, 0, span);
            let load_leaves = |rw: &mut Self, k: Value| -> Vec<(Value, Value)> {
                leaves
                    .iter()
                    .map(|&l| {
                        let lv = rw.val(l);
                        let s = rw.ty(lv).array().expect("an array").dtype;
                        (l, rw.push(b, InstKind::Load(lv, k), Type::Scalar(s), span))
                    })
                    .collect()
            };
            let count = rw.fold(b, (zero, n), vec![zero], span, &mut |rw, k, v| {
                let loaded = load_leaves(rw, k);
                let m = rw.element(b, mask, &loaded, span)?;
                let m = rw.coerce(b, m, &Type::I64, span)?;
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], m)])
            })?[0];
            let one = rw.int(b, 1, span);
            let room = rw.emit_binary(b, span, BinaryOp::Add, count, one);
            let out =
                rw.push(b, InstKind::NewArray { dtype: at.dtype, shape: vec![room], zeroed: false }, c1.clone(), span);
            rw.fold(b, (zero, n), vec![zero], span, &mut |rw, k, v| {
                let loaded = load_leaves(rw, k);
                let m = rw.element(b, mask, &loaded, span)?;
                let x = rw.push(b, InstKind::Load(a, k), Type::Scalar(at.dtype), span);
                rw.push_void(b, InstKind::Store(out, v[0], x), span);
                let step = rw.coerce(b, m, &Type::I64, span)?;
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], step)])
            })?;
            let view = rw.push(
                b,
                InstKind::View { base: out, offset: zero, shape: vec![count], strides: vec![one] },
                c1.clone(),
                span,
            );
            Ok(vec![view])
        };
        let general = |rw: &mut Self, _: &[Value]| -> Result<Vec<Value>, Diagnostic> {
            let mt = rw.types[mask.index()].array().expect("a mask");
            let shapes: Vec<Vec<Value>> = leaves
                .iter()
                .map(|&l| {
                    let v = rw.val(l);
                    rw.dims(b, v, span)
                })
                .collect();
            let mdims = rw.broadcast_shape(b, &shapes, mt.ndim as usize, span);
            let marr = rw.push(
                b,
                InstKind::NewArray { dtype: Scalar::Bool, shape: mdims, zeroed: false },
                Type::Array(ArrayType { dtype: Scalar::Bool, ndim: mt.ndim, layout: Layout::C }),
                span,
            );
            rw.evaluate_into(b, marr, mask, &leaves, BROADCAST_SHAPES, span)?;
            Ok(vec![rw.fancy_get(b, a, marr, span)?])
        };
        let (mut fast, mut general) = (fast, general);
        match (all_same, cond) {
            (true, None) => Ok(fast(self, &[])?[0]),
            (true, Some(c)) => {
                Ok(self.if_else_make(b, c, std::slice::from_ref(&c1), span, &mut fast, &mut general)?[0])
            }
            (false, _) => Ok(general(self, &[])?[0]),
        }
    }

    /// Stores the elements of `v` (a source value: a fused expression, an array or a number)
    /// into the array `target` (new value), broadcasting `v` to its shape; `ValueError` with
    /// `message` when it does not fit.
    pub(super) fn store_elementwise(
        &mut self,
        b: Block,
        target: Value,
        v: Value,
        message: &str,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let leaves = self.expr_leaves(v, false);
        let tn = self.ty(target).array().expect("an array").ndim;
        for &l in &leaves {
            if self.types[l.index()].array().expect("array leaves").ndim > tn {
                return Err(err(
                    span,
                    format!("cannot store this into a {tn}-dimensional array"),
                    "too many dimensions",
                )
                .with_hint("the value must broadcast to the target's shape"));
            }
        }
        self.evaluate_into(b, target, v, &leaves, message, span)
    }

    /// The array operands (source values) the expression rooted at `v` reads, each once: the
    /// operands of `v` itself when it is the operation being computed (`root`), and of every
    /// fused operation under it.
    pub(super) fn expr_leaves(&self, v: Value, root: bool) -> Vec<Value> {
        fn go(rw: &Rewriter<'_>, v: Value, root: bool, out: &mut Vec<Value>) {
            if !matches!(rw.types[v.index()], Type::Array(_)) {
                return;
            }
            if root || rw.fused[v.index()] {
                if let Some(d) = rw.src.def_inst(v) {
                    if is_elementwise(d, &rw.types) || (root && is_ufunc_out(d, &rw.types)) {
                        for o in inputs(d) {
                            go(rw, o, false, out);
                        }
                        return;
                    }
                }
            }
            if !out.contains(&v) {
                out.push(v);
            }
        }
        let mut out = Vec::new();
        go(self, v, root, &mut out);
        out
    }

    /// NumPy's broadcast of `shapes` into `ndim` dimensions: along each axis the first length
    /// that is not 1 (checked later by [`Self::broadcast_view`], so a mismatch is reported
    /// against the first operand's length, as Numba names the argument that does not fit).
    pub(super) fn broadcast_shape(&mut self, b: Block, shapes: &[Vec<Value>], ndim: usize, span: Span) -> Vec<Value> {
        let one = self.int(b, 1, span);
        (0..ndim)
            .map(|k| {
                let mut d = one;
                for s in shapes {
                    if let Some(j) = (k + s.len()).checked_sub(ndim) {
                        let unset = self.emit_compare(b, span, CmpOp::Eq, d, one);
                        d = self.emit_select(b, span, unset, s[j], d);
                    }
                }
                d
            })
            .collect()
    }

    /// `src` (new value, an array) as a view of shape `dims` by broadcasting, raising
    /// `ValueError(message)` when some axis neither matches nor is 1 (`{src}` and `{dst}` in
    /// `message` name the two shapes: [`Self::shape_message`]).
    pub(super) fn broadcast_view(
        &mut self,
        b: Block,
        src: Value,
        dims: &[Value],
        message: &str,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let (ds, ss) = (self.dims(b, src, span), self.strides(b, src, span));
        let lead = dims.len() - ds.len();
        let (one, zero) = (self.int(b, 1, span), self.int(b, 0, span));
        let mut bad: Option<Value> = None;
        let mut strides = Vec::new();
        for (k, &d) in dims.iter().enumerate() {
            if k < lead {
                strides.push(zero);
                continue;
            }
            let (sd, st) = (ds[k - lead], ss[k - lead]);
            let same = self.emit_compare(b, span, CmpOp::Eq, sd, d);
            let unit = self.emit_compare(b, span, CmpOp::Eq, sd, one);
            let ok = self.emit_binary(b, span, BinaryOp::BitOr, same, unit);
            let no = self.push(b, InstKind::Unary(UnaryOp::Not, ok), Type::BOOL, span);
            bad = Some(match bad {
                Some(x) => self.emit_binary(b, span, BinaryOp::BitOr, x, no),
                None => no,
            });
            let rep = self.push(b, InstKind::Unary(UnaryOp::Not, same), Type::BOOL, span);
            strides.push(self.emit_select(b, span, rep, zero, st));
        }
        if let Some(bad) = bad {
            let args = self.shape_message(message, &ds, dims);
            self.raise_if_args(b, bad, "ValueError", args, span);
        }
        let at = self.ty(src).array().expect("an array");
        let t = Type::Array(ArrayType { dtype: at.dtype, ndim: dims.len() as u8, layout: Layout::A });
        Ok(self.push(b, InstKind::View { base: src, offset: zero, shape: dims.to_vec(), strides }, t, span))
    }

    /// The loop nest over `target`'s elements computing the expression rooted at `v`.
    fn evaluate_into(
        &mut self,
        b: Block,
        target: Value,
        v: Value,
        leaves: &[Value],
        message: &str,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let dims = self.dims(b, target, span);
        // Fast path: every array operand has the target's shape and, like the target, is
        // C-contiguous: one flat loop over the elements, no broadcasting strides.
        let tn = dims.len();
        let mut same: Option<Value> = None;
        let mut and = |rw: &mut Self, c: Option<Value>| {
            if let Some(c) = c {
                same = Some(match same {
                    Some(p) => rw.emit_binary(b, span, BinaryOp::BitAnd, p, c),
                    None => c,
                });
            }
        };
        let flat_ok = leaves.iter().all(|&l| self.types[l.index()].array().is_some_and(|t| t.ndim as usize == tn));
        if flat_ok {
            for &l in leaves {
                let lv = self.val(l);
                let ld = self.dims(b, lv, span);
                for (&x, &y) in ld.iter().zip(&dims) {
                    let eq = self.emit_compare(b, span, CmpOp::Eq, x, y);
                    and(self, Some(eq));
                }
                let c = self.c_contiguous(b, lv, span);
                and(self, c);
            }
            let c = self.c_contiguous(b, target, span);
            and(self, c);
            let n = self.product(b, &dims, span);
            let dt = self.ty(target).array().expect("an array").dtype;
            let flat_body = |rw: &mut Self| -> Result<(), Diagnostic> {
                let mut each = |rw: &mut Self, k: Value| -> Result<(), Diagnostic> {
                    let mut loaded = Vec::new();
                    for &l in leaves {
                        let lv = rw.val(l);
                        let s = rw.ty(lv).array().expect("an array").dtype;
                        loaded.push((l, rw.push(b, InstKind::Load(lv, k), Type::Scalar(s), span)));
                    }
                    let x = rw.element(b, v, &loaded, span)?;
                    let x = rw.coerce(b, x, &Type::Scalar(dt), span)?;
                    rw.push_void(b, InstKind::Store(target, k, x), span);
                    Ok(())
                };
                if rw.parallel && rw.host {
                    return rw.prange_loop(b, n, span, &mut each);
                }
                let zero = rw.int(b, 0, span);
                rw.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
                    each(rw, k)?;
                    Ok(vec![])
                })?;
                Ok(())
            };
            let Some(cond) = same else {
                return flat_body(self);
            };
            let message = message.to_string();
            let leaves = leaves.to_vec();
            self.if_else_values(
                b,
                cond,
                vec![],
                span,
                &mut |rw, _| {
                    flat_body(rw)?;
                    Ok(vec![])
                },
                &mut |rw, _| {
                    rw.evaluate_strided(b, target, v, &leaves, &message, span)?;
                    Ok(vec![])
                },
            )?;
            return Ok(());
        }
        self.evaluate_strided(b, target, v, leaves, message, span)
    }

    /// [`Self::evaluate_into`] by broadcasting views and a loop nest.
    fn evaluate_strided(
        &mut self,
        b: Block,
        target: Value,
        v: Value,
        leaves: &[Value],
        message: &str,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let dims = self.dims(b, target, span);
        let mut views = Vec::new();
        for (k, &l) in leaves.iter().enumerate() {
            let lv = self.val(l);
            let m = message.replace("{}", &k.to_string());
            let view = self.broadcast_view(b, lv, &dims, &m, span)?;
            let ss = self.strides(b, view, span);
            views.push((l, view, ss));
        }
        let ts = self.strides(b, target, span);
        let dt = self.ty(target).array().expect("an array").dtype;
        self.loop_nest(b, &dims, span, &mut |rw, idx| {
            let mut loaded = Vec::new();
            for (l, view, ss) in &views {
                let off = rw.offset(b, ss, idx, span);
                let s = rw.ty(*view).array().expect("an array").dtype;
                loaded.push((*l, rw.push(b, InstKind::Load(*view, off), Type::Scalar(s), span)));
            }
            let x = rw.element(b, v, &loaded, span)?;
            let x = rw.coerce(b, x, &Type::Scalar(dt), span)?;
            let off = rw.offset(b, &ts, idx, span);
            rw.push_void(b, InstKind::Store(target, off, x), span);
            Ok(())
        })
    }

    /// One element of the expression rooted at source value `v`, given the elements of its
    /// array leaves.
    pub(super) fn element(
        &mut self,
        b: Block,
        v: Value,
        loaded: &[(Value, Value)],
        span: Span,
    ) -> Result<Value, Diagnostic> {
        if let Some(&(_, x)) = loaded.iter().find(|(l, _)| *l == v) {
            return Ok(x);
        }
        let Some(at) = self.types[v.index()].array() else {
            return Ok(self.val(v));
        };
        let d = self.src.def_inst(v).expect("an expression node");
        let r = at.dtype;
        let sc = |rw: &Self, x: Value| rw.ty(x).scalar().expect("elements are numbers");
        Ok(match &d.kind {
            InstKind::Unary(op, a) => {
                let x = self.element(b, *a, loaded, span)?;
                match op {
                    UnaryOp::Pos => x,
                    _ if r.is_complex() => {
                        let x = self.coerce(b, x, &Type::Scalar(r), span)?;
                        self.complex_unary(b, *op, x, span)
                    }
                    UnaryOp::Invert if r == Scalar::Bool => {
                        self.push(b, InstKind::Unary(UnaryOp::Not, x), Type::BOOL, span)
                    }
                    _ => {
                        let ct = if r.is_float() { r } else { Scalar::Int64 };
                        let x = self.coerce(b, x, &Type::Scalar(ct), span)?;
                        let y = self.push(b, InstKind::Unary(*op, x), Type::Scalar(ct), span);
                        self.coerce(b, y, &Type::Scalar(r), span)?
                    }
                }
            }
            InstKind::Binary(op, a, c) => {
                let x = self.element(b, *a, loaded, span)?;
                let y = self.element(b, *c, loaded, span)?;
                if r.is_complex() {
                    let x = self.coerce(b, x, &Type::Scalar(r), span)?;
                    let y = self.coerce(b, y, &Type::Scalar(r), span)?;
                    return self.complex_binary(b, *op, x, y, r, span);
                }
                // Division, modulo and power by the ufuncs' loops (NumPy's results for zero
                // divisors, negative powers and MIN // -1).
                let by_ufunc = match op {
                    BinaryOp::Div => Some((Builtin::NpTrueDivide, Ufunc::TrueDivide)),
                    BinaryOp::FloorDiv => Some((Builtin::NpFloorDivide, Ufunc::FloorDivide)),
                    BinaryOp::Mod => Some((Builtin::NpRemainder, Ufunc::Remainder)),
                    BinaryOp::Pow => Some((Builtin::NpPower, Ufunc::Power)),
                    _ => None,
                };
                if let Some((bi, u)) = by_ufunc {
                    return self.ufunc(b, bi, u, &[x, y], Type::Scalar(r), span);
                }
                let op = match (r, op) {
                    (Scalar::Bool, BinaryOp::Add) => BinaryOp::BitOr,
                    (Scalar::Bool, BinaryOp::Mul) => BinaryOp::BitAnd,
                    _ => *op,
                };
                let ct = match r {
                    s if s.is_int() => s.widened(),
                    Scalar::Bool if !matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor) => {
                        Scalar::Int64
                    }
                    s => s,
                };
                let x = self.coerce(b, x, &Type::Scalar(ct), span)?;
                let y = self.coerce(b, y, &Type::Scalar(ct), span)?;
                let z = self.push(b, InstKind::Binary(op, x, y), Type::Scalar(ct), span);
                self.coerce(b, z, &Type::Scalar(r), span)?
            }
            InstKind::Compare(op, a, c) => {
                let x = self.element(b, *a, loaded, span)?;
                let y = self.element(b, *c, loaded, span)?;
                let s = typing::compare(*op, sc(self, x), sc(self, y));
                let x = self.coerce(b, x, &Type::Scalar(s), span)?;
                let y = self.coerce(b, y, &Type::Scalar(s), span)?;
                if s.is_complex() {
                    self.complex_compare(b, *op, x, y, span)
                } else {
                    self.emit_compare(b, span, *op, x, y)
                }
            }
            InstKind::Builtin(bi, _) => {
                let mut xs = Vec::new();
                for a in inputs(d) {
                    xs.push(self.element(b, a, loaded, span)?);
                }
                match bi.info().typing {
                    Typing::UserUfunc => {
                        let InstKind::Builtin(_, args) = &d.kind else { unreachable!("a builtin") };
                        let ins: Vec<Type> =
                            inputs(d).iter().map(|a| self.types[a.index()].unwrapped().clone()).collect();
                        self.inner_element(b, args[0], &ins, &xs, span)?
                    }
                    Typing::Ufunc(u) => {
                        // The loop's type (with an output array, the result converts to its
                        // dtype afterwards).
                        let dts: Vec<Scalar> = xs.iter().map(|x| sc(self, *x)).collect();
                        if let [c] = dts.as_slice() {
                            if let Some(cu) = c.is_complex().then(|| typing::complex_ufunc(*bi)).flatten() {
                                return self.complex_ufunc(b, cu, xs[0], *c, span);
                            }
                        }
                        let lt = typing::ufunc_scalar(u.loops(), &dts);
                        self.ufunc(b, *bi, u, &xs, Type::Scalar(lt), span)?
                    }
                    Typing::FloatPredicate => self.float_predicate(b, *bi, xs[0], span),
                    Typing::Complex(op) => self.complex_builtin(b, op, &xs, &Type::Scalar(r), span)?,
                    Typing::Elementwise(e) => self.elem_fn(b, e, &xs, r, span)?,
                    _ => unreachable!("checked by is_elementwise"),
                }
            }
            _ => unreachable!("leaves are loaded"),
        })
    }
}
