//! The rewrite of user ufuncs (`@vectorize`, `@guvectorize`; typed in `infer/user_ufunc.rs`).
//!
//! A `@vectorize` call on arrays is an elementwise operation like NumPy's own ufuncs: it goes
//! through `elementwise.rs` (broadcasting, the flat fast path, fusion with the operations
//! around it, `out=`), and each element is a call of the inner function's specialisation for
//! the chosen loop ([`Rewriter::inner_element`]). On numbers it is that call alone.
//!
//! A `@guvectorize` call binds the core dimensions' sizes from the arguments (a mismatch is
//! NumPy's `ValueError`), broadcasts the inputs' loop dimensions, allocates the outputs that
//! were not passed (loop dimensions, then core dimensions), and runs the inner function once
//! per loop index on views of the core dimensions: a `()` input as the number, a `()` output
//! as a 1-element view (Numba's `res[0] = ...`). The result is the output (a tuple of them),
//! or the number in a `()` output when there are no loop dimensions (NumPy unwraps a 0-d
//! result).

use super::*;
use crate::infer::user_ufunc::{gufunc_plan, inner_of, vectorize_plan, Plan};
use crate::module::UfuncSpec;
use crate::types::{ArrayType, Layout};

type Body<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, Value) -> Result<(), Diagnostic> + 'b;

impl<'r> Rewriter<'r> {
    /// `for i in prange(n): body(i)` as the front end lowers a `prange` loop of a
    /// `parallel=True` function (rotated, the `prange_loop` marker at the top of the body), so
    /// the `parallel` pass runs it on the thread pool: the elementwise loop of a
    /// `target='parallel'` ufunc. Code after it goes into the exit block.
    pub(super) fn prange_loop(
        &mut self,
        b: Block,
        n: Value,
        span: Span,
        body: &mut Body<'_, 'r>,
    ) -> Result<(), Diagnostic> {
        let (zero, one) = (self.int(b, 0, span), self.int(b, 1, span));
        let any = self.emit_compare(b, span, CmpOp::Gt, n, zero);
        let pre = self.cur[b.index()];
        let lp = self.g.add_block();
        let i = self.g.add_block_param(lp, Type::I64);
        let exit = self.g.add_block();
        let to = |block, args| BlockCall { block, args };
        self.g.terminate(pre, Terminator::Branch(any, to(lp, vec![zero]), to(exit, vec![])), span);
        self.cur[b.index()] = lp;
        self.push_void(b, InstKind::Builtin(Builtin::PrangeLoop, vec![i, zero, n, one]), span);
        body(self, i)?;
        let next = self.emit_binary(b, span, BinaryOp::Add, i, one);
        let more = self.emit_compare(b, span, CmpOp::Lt, next, n);
        let latch = self.cur[b.index()];
        self.g.terminate(latch, Terminator::Branch(more, to(lp, vec![next]), to(exit, vec![])), span);
        self.cur[b.index()] = exit;
        Ok(())
    }

    /// Whether `data` applies a `target='parallel'` ufunc.
    pub(super) fn parallel_ufunc(&self, data: &InstData) -> bool {
        match &data.kind {
            InstKind::Builtin(Builtin::UfuncCall | Builtin::GufuncCall, args) => {
                inner_of(self.module, &self.types, args, data.span).is_ok_and(|(_, _, s)| s.parallel)
            }
            _ => false,
        }
    }

    /// `ufunc_call` on numbers, or `gufunc_call` (source arguments `args`; result type `rt`).
    pub(super) fn user_ufunc(
        &mut self,
        b: Block,
        bi: Builtin,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let (cidx, name, spec) = inner_of(self.module, &self.types, args, span)?;
        let vals: Vec<Value> = args[1..].iter().map(|a| self.val(*a)).collect();
        if bi == Builtin::UfuncCall {
            let ins: Vec<Type> =
                args[1..args.len() - 1].iter().map(|a| self.types[a.index()].unwrapped().clone()).collect();
            let x = self.inner_element(b, args[0], &ins, &vals[..vals.len() - 1], span)?;
            return self.coerce(b, x, &rt, span);
        }
        if bi == Builtin::UfuncReduce {
            return self.ufunc_reduce(b, args, name, rt, span);
        }
        self.gufunc(b, (cidx, name, spec), &vals, rt, span)
    }

    /// `f.reduce(a, axis)` (source arguments: the inner function, `a`, the axis): the inner
    /// function folded along the axis from its first element, NumPy's `ValueError` on an empty
    /// axis (user ufuncs have no identity here).
    fn ufunc_reduce(
        &mut self,
        b: Block,
        args: &[Value],
        name: &str,
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let a = self.val(args[1]);
        let at = self.ty(a).array().expect("an array");
        let r = match &rt {
            Type::Array(t) => t.dtype,
            t => t.scalar().expect("a number"),
        };
        let dims = self.dims(b, a, span);
        let strides = self.strides(b, a, span);
        let axis = if at.ndim == 1 {
            0
        } else {
            let k = const_index(self.src, &[args[2]], span).map_err(|_| {
                err(span, "the axis must be a constant here", "axis")
                    .with_hint("write the axis as a literal, e.g. axis=0")
            })?;
            typing::norm_axis(k, at.ndim).ok_or_else(|| {
                err(span, format!("axis {k} is out of bounds for array of dimension {}", at.ndim), "axis")
            })? as usize
        };
        let n = dims[axis];
        let zero = self.int(b, 0, span);
        let identity = inner_of(self.module, &self.types, args, span)?.2.identity;
        if identity.is_none() {
            let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
            let msg = format!("zero-size array to reduction operation {name} which has no identity");
            self.raise_if(b, empty, "ValueError", &msg, span);
        }
        let inner = args[0];
        let rt_s = Type::Scalar(r);
        // The fold along the axis from element offset `base`: from the identity when the ufunc
        // has one (as NumPy's `initial`), else from the first element.
        let along = |rw: &mut Self, base: Value| -> Result<Value, Diagnostic> {
            let (init, from) = match identity {
                Some(c) => {
                    let t = match c {
                        Const::Int(_) => Type::I64,
                        Const::Bool(_) => Type::BOOL,
                        _ => Type::F64,
                    };
                    let k = rw.push(b, InstKind::Const(c), t, span);
                    (rw.coerce(b, k, &rt_s, span)?, zero)
                }
                None => {
                    let first = rw.push(b, InstKind::Load(a, base), Type::Scalar(at.dtype), span);
                    (rw.coerce(b, first, &rt_s, span)?, rw.int(b, 1, span))
                }
            };
            let out = rw.fold(b, (from, n), vec![init], span, &mut |rw, i, v| {
                let step = rw.emit_binary(b, span, BinaryOp::Mul, i, strides[axis]);
                let off = rw.emit_binary(b, span, BinaryOp::Add, base, step);
                let x = rw.push(b, InstKind::Load(a, off), Type::Scalar(at.dtype), span);
                let ts = [rw.ty(v[0]), rw.ty(x)];
                let y = rw.inner_element(b, inner, &ts, &[v[0], x], span)?;
                Ok(vec![rw.coerce(b, y, &rt_s, span)?])
            })?;
            Ok(out[0])
        };
        if at.ndim == 1 {
            return along(self, zero);
        }
        let mut odims = dims.clone();
        odims.remove(axis);
        let mut ostrides_src = strides.clone();
        ostrides_src.remove(axis);
        let t = Type::Array(ArrayType { dtype: r, ndim: at.ndim - 1, layout: Layout::C });
        let out = self.push(b, InstKind::NewArray { dtype: r, shape: odims.clone(), zeroed: false }, t, span);
        let ostrides = self.strides(b, out, span);
        self.loop_nest(b, &odims, span, &mut |rw, idx| {
            let base = rw.offset(b, &ostrides_src, idx, span);
            let acc = along(rw, base)?;
            let off = rw.offset(b, &ostrides, idx, span);
            rw.push_void(b, InstKind::Store(out, off, acc), span);
            Ok(())
        })?;
        Ok(out)
    }

    /// One element of a `@vectorize` ufunc (source value `inner`, its inner function) whose
    /// inputs have types `ins` (arrays or numbers, as the call was typed) of the numbers `xs`
    /// (new values): the call of the chosen loop's specialisation.
    pub(super) fn inner_element(
        &mut self,
        b: Block,
        inner: Value,
        ins: &[Type],
        xs: &[Value],
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let (cidx, name, spec) = inner_of(self.module, &self.types, &[inner], span)?;
        let plan = vectorize_plan(self.module, (cidx, name, spec), ins, self.src.name == name, span)?;
        self.call_inner(b, &plan, xs, span)
    }

    /// The call of the inner function's specialisation for `plan` with `xs` converted to its
    /// argument types.
    fn call_inner(&mut self, b: Block, plan: &Plan, xs: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let Some(&ci) = self.index.get(&(plan.inner, plan.inner_args.clone())) else {
            return Err(err(span, "internal: no specialisation of this ufunc's loop", "here"));
        };
        let mut nargs = Vec::with_capacity(xs.len());
        for (&x, t) in xs.iter().zip(&plan.inner_args) {
            nargs.push(self.coerce(b, x, t, span)?);
        }
        let callee = &self.instances[ci];
        let ret = if callee.ret == Type::Unknown { Type::None } else { callee.ret.clone() };
        Ok(self.push(b, InstKind::Call(callee.mangled.clone(), nargs), ret, span))
    }

    /// `gufunc_call` with the new values `vals` (inputs, then outputs or None).
    fn gufunc(
        &mut self,
        b: Block,
        (cidx, name, spec): (usize, &str, &UfuncSpec),
        vals: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let tys: Vec<Type> = vals.iter().map(|v| self.ty(*v)).collect();
        let plan = gufunc_plan((cidx, name, spec), &tys, self.src.name == name, span)?;
        let layout = spec.layout.clone().expect("a gufunc has a layout");
        let nin = layout.inputs.len();
        let describe = |g: &[Vec<String>]| g.iter().map(|c| format!("({})", c.join(","))).collect::<Vec<_>>().join(",");
        let signature = format!("{}->{}", describe(&layout.inputs), describe(&layout.outputs));
        let cores: Vec<&Vec<String>> = layout.inputs.iter().chain(&layout.outputs).collect();
        // Core dimension sizes, bound by the first argument that has them.
        let mut sizes: Vec<(String, Value)> = Vec::new();
        let mut loop_shapes = Vec::new();
        let mut core_dims: Vec<Vec<Value>> = vec![Vec::new(); vals.len()];
        for (k, &v) in vals.iter().enumerate() {
            if !matches!(tys[k], Type::Array(_)) {
                continue;
            }
            let ds = self.dims(b, v, span);
            let lead = ds.len() - cores[k].len();
            if k < nin {
                loop_shapes.push(ds[..lead].to_vec());
            }
            for (j, (&d, nm)) in ds[lead..].iter().zip(cores[k]).enumerate() {
                let bound = match nm.parse::<i64>() {
                    Ok(n) => Some(self.int(b, n, span)),
                    Err(_) => sizes.iter().find(|(n, _)| n == nm).map(|&(_, s)| s),
                };
                match bound {
                    Some(s) => {
                        let ne = self.emit_compare(b, span, CmpOp::Ne, d, s);
                        let what =
                            if k < nin { format!("Input operand {k}") } else { format!("Output operand {}", k - nin) };
                        let msg = format!(
                            "{name}: {what} has a mismatch in its core dimension {j}, with gufunc signature {signature}"
                        );
                        self.raise_if(b, ne, "ValueError", &msg, span);
                    }
                    None => sizes.push((nm.clone(), d)),
                }
                core_dims[k].push(d);
            }
        }
        let loop_nd = plan.loop_ndim as usize;
        let loop_dims = self.broadcast_shape(b, &loop_shapes, loop_nd, span);
        // The outputs not passed: new arrays of the loop dimensions and their core dimensions.
        let mut args = vals.to_vec();
        // An input array of another dtype than its loop's is converted first (NumPy casts); one
        // of `writable_args` is converted back into the caller's array after the loop.
        let mut write_back = Vec::new();
        for (k, a) in args.iter_mut().enumerate().take(nin) {
            let want = match &plan.inner_args[k] {
                Type::Scalar(s) => *s,
                Type::Array(t) => t.dtype,
                _ => continue,
            };
            if self.ty(*a).array().is_some_and(|t| t.dtype != want) {
                *a = self.copy_of(b, *a, want, span)?;
                if spec.writable.contains(&k) {
                    write_back.push((vals[k], *a));
                }
            }
        }
        // A number for a `()` input the signature declares as an array (`int64[:]`, read as
        // `n[0]`): a 1-element array holding it, the same for every loop index.
        let mut shared = vec![false; vals.len()];
        for k in 0..nin {
            if let (Type::Array(t), Type::Scalar(_)) = (&plan.inner_args[k], self.ty(args[k])) {
                let one = self.int(b, 1, span);
                let at = Type::Array(ArrayType { dtype: t.dtype, ndim: 1, layout: Layout::C });
                let arr =
                    self.push(b, InstKind::NewArray { dtype: t.dtype, shape: vec![one], zeroed: false }, at, span);
                let x = self.coerce(b, args[k], &Type::Scalar(t.dtype), span)?;
                let zero = self.int(b, 0, span);
                self.push_void(b, InstKind::Store(arr, zero, x), span);
                let view = Type::Array(ArrayType { layout: Layout::A, ..*t });
                args[k] = self.coerce(b, arr, &view, span)?;
                shared[k] = true;
            }
        }
        let mut fresh = vec![false; vals.len()];
        for (j, &(dtype, given)) in plan.outputs.iter().enumerate() {
            let k = nin + j;
            if given {
                continue;
            }
            let mut core = Vec::new();
            for nm in cores[k] {
                let d = match nm.parse::<i64>() {
                    Ok(n) => self.int(b, n, span),
                    Err(_) => match sizes.iter().find(|(n, _)| n == nm) {
                        Some(&(_, s)) => s,
                        None => {
                            return Err(err(
                                span,
                                format!("gufunc `{name}`: no input gives the size of output dimension `{nm}`"),
                                "output not given",
                            )
                            .with_hint("pass the output array as the last argument"))
                        }
                    },
                };
                core.push(d);
            }
            let mut shape = loop_dims.clone();
            shape.extend(&core);
            let nd = shape.len();
            if nd == 0 {
                shape.push(self.int(b, 1, span));
            }
            let t = Type::Array(ArrayType { dtype, ndim: nd.max(1) as u8, layout: Layout::C });
            args[k] = self.push(b, InstKind::NewArray { dtype, shape, zeroed: false }, t, span);
            core_dims[k] = core;
            fresh[k] = true;
        }
        // Every array argument as a view of the loop dimensions and its own core dimensions.
        let mut views: Vec<Option<(Value, Vec<Value>)>> = Vec::new();
        for (k, &a) in args.iter().enumerate() {
            if shared[k] || !matches!(self.ty(a), Type::Array(_)) {
                views.push(None);
                continue;
            }
            let v = if fresh[k] && loop_nd == 0 && cores[k].is_empty() {
                a
            } else {
                let mut dims = loop_dims.clone();
                dims.extend(&core_dims[k]);
                let msg = format!(
                    "operands could not be broadcast together with remapped shapes (argument {k} of `{name}`, gufunc signature {signature})"
                );
                self.broadcast_view(b, a, &dims, &msg, span)?
            };
            let ss =
                if fresh[k] && loop_nd == 0 && cores[k].is_empty() { Vec::new() } else { self.strides(b, v, span) };
            views.push(Some((v, ss)));
        }
        let inner_args = plan.inner_args.clone();
        let mut body = |rw: &mut Self, idx: &[Value]| -> Result<(), Diagnostic> {
            let mut xs = Vec::new();
            for (k, view) in views.iter().enumerate() {
                let Some((v, ss)) = view else {
                    xs.push(args[k]);
                    continue;
                };
                let off = rw.offset(b, &ss[..idx.len().min(ss.len())], idx, span);
                let dtype = rw.ty(*v).array().expect("an array").dtype;
                xs.push(match &inner_args[k] {
                    Type::Scalar(_) => rw.push(b, InstKind::Load(*v, off), Type::Scalar(dtype), span),
                    t if cores[k].is_empty() => {
                        let one = rw.int(b, 1, span);
                        rw.push(
                            b,
                            InstKind::View { base: *v, offset: off, shape: vec![one], strides: vec![one] },
                            t.clone(),
                            span,
                        )
                    }
                    t => {
                        let shape = core_dims[k].clone();
                        let strides = ss[loop_nd..].to_vec();
                        rw.push(b, InstKind::View { base: *v, offset: off, shape, strides }, t.clone(), span)
                    }
                });
            }
            rw.call_inner(b, &plan, &xs, span)?;
            Ok(())
        };
        if spec.parallel && self.host && !loop_dims.is_empty() {
            // target='parallel': the outermost loop dimension is a `prange`.
            let rest = loop_dims[1..].to_vec();
            self.prange_loop(b, loop_dims[0], span, &mut |rw, i| {
                rw.loop_nest(b, &rest, span, &mut |rw, inner| {
                    let mut idx = vec![i];
                    idx.extend_from_slice(inner);
                    body(rw, &idx)
                })
            })?;
        } else {
            self.loop_nest(b, &loop_dims, span, &mut body)?;
        }
        for (orig, copy) in write_back {
            let dims = self.dims(b, orig, span);
            let (os, cs) = (self.strides(b, orig, span), self.strides(b, copy, span));
            let dtype = self.ty(orig).array().expect("an array").dtype;
            let from = self.ty(copy).array().expect("an array").dtype;
            self.loop_nest(b, &dims, span, &mut |rw, idx| {
                let src = rw.offset(b, &cs, idx, span);
                let x = rw.push(b, InstKind::Load(copy, src), Type::Scalar(from), span);
                let x = rw.coerce(b, x, &Type::Scalar(dtype), span)?;
                let dst = rw.offset(b, &os, idx, span);
                rw.push_void(b, InstKind::Store(orig, dst, x), span);
                Ok(())
            })?;
        }
        let mut results = Vec::new();
        for j in 0..plan.outputs.len() {
            let k = nin + j;
            let a = args[k];
            results.push(if fresh[k] && loop_nd == 0 && cores[k].is_empty() {
                let zero = self.int(b, 0, span);
                let dtype = plan.outputs[j].0;
                self.push(b, InstKind::Load(a, zero), Type::Scalar(dtype), span)
            } else {
                a
            });
        }
        match <[Value; 1]>::try_from(results) {
            Ok([r]) => Ok(r),
            Err(rs) => Ok(self.push(b, InstKind::MakeTuple(rs), rt, span)),
        }
    }
}
