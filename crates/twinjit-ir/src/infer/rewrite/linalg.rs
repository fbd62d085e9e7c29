//! The rewrite of linear algebra on 1-D and 2-D arrays (`np.dot`, `@`, `np.vdot`,
//! `np.outer`, `np.trace`, `np.diag`, `np.linalg.norm`, `np.cross`) as IR loops: each
//! output element is one sequential dot product in the result's dtype. (Numba calls BLAS,
//! whose summation order differs, so float results agree to rounding, not to the bit.)

use super::*;
use crate::builtins::Linalg;
use crate::types::{ArrayType, Layout};

impl Rewriter<'_> {
    /// `Σ_k x[xo + k*xs] * y[yo + k*ys]` for `k < n`, in dtype `d`.
    #[allow(clippy::too_many_arguments)]
    fn dot_line(
        &mut self,
        b: Block,
        (x, xo, xs): (Value, Value, Value),
        (y, yo, ys): (Value, Value, Value),
        n: Value,
        d: Scalar,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let zero = self.int(b, 0, span);
        let init = self.konst_num(b, d, 0.0, span);
        let (xt, yt) = (self.ty(x).array().expect("an array").dtype, self.ty(y).array().expect("an array").dtype);
        let out = self.fold(b, (zero, n), vec![init], span, &mut |rw, k, v| {
            let kx = rw.emit_binary(b, span, BinaryOp::Mul, k, xs);
            let ox = rw.emit_binary(b, span, BinaryOp::Add, xo, kx);
            let ky = rw.emit_binary(b, span, BinaryOp::Mul, k, ys);
            let oy = rw.emit_binary(b, span, BinaryOp::Add, yo, ky);
            let p = rw.push(b, InstKind::Load(x, ox), Type::Scalar(xt), span);
            let q = rw.push(b, InstKind::Load(y, oy), Type::Scalar(yt), span);
            let p = rw.coerce(b, p, &Type::Scalar(d), span)?;
            let q = rw.coerce(b, q, &Type::Scalar(d), span)?;
            let pq = rw.emit_binary(b, span, BinaryOp::Mul, p, q);
            Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], pq)])
        })?;
        Ok(out[0])
    }

    fn konst_num(&mut self, b: Block, s: Scalar, k: f64, span: Span) -> Value {
        let c = if s.is_float() { Const::Float(k) } else { Const::Int(k as i64) };
        self.push(b, InstKind::Const(c), Type::Scalar(s), span)
    }

    fn new_c(&mut self, b: Block, dtype: Scalar, dims: Vec<Value>, zeroed: bool, span: Span) -> Value {
        let ndim = dims.len() as u8;
        self.push(
            b,
            InstKind::NewArray { dtype, shape: dims, zeroed },
            Type::Array(ArrayType { dtype, ndim, layout: Layout::C }),
            span,
        )
    }

    fn check_same(&mut self, b: Block, x: Value, y: Value, message: &str, span: Span) {
        let ne = self.emit_compare(b, span, CmpOp::Ne, x, y);
        self.raise_if(b, ne, "ValueError", message, span);
    }

    /// A linear-algebra function (`Typing::Linalg`) on new values.
    pub(super) fn linalg(
        &mut self,
        b: Block,
        l: Linalg,
        src_args: &[Value],
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let x = args[0];
        let xt = self.ty(x).array().expect("an array");
        let d = match &rt {
            Type::Array(a) => a.dtype,
            t => t.scalar().expect("a number"),
        };
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        match l {
            Linalg::Dot | Linalg::Matmul => {
                let y = args[1];
                let yt = self.ty(y).array().expect("an array");
                let (dx, sx, dy, sy) =
                    (self.dims(b, x, span), self.strides(b, x, span), self.dims(b, y, span), self.strides(b, y, span));
                let what = match (xt.ndim, yt.ndim) {
                    (1, 1) => "vector * vector",
                    (2, 1) => "matrix * vector",
                    (1, 2) => "vector * matrix",
                    _ => "matrix * matrix",
                };
                let message = format!("incompatible array sizes for np.dot(a, b) ({what})");
                let n = *dx.last().expect("a dimension");
                self.check_same(b, n, dy[0], &message, span);
                match (xt.ndim, yt.ndim) {
                    (1, 1) => self.dot_line(b, (x, zero, sx[0]), (y, zero, sy[0]), n, d, span),
                    (2, 1) => {
                        let out = self.new_c(b, d, vec![dx[0]], false, span);
                        self.fold(b, (zero, dx[0]), vec![], span, &mut |rw, i, _| {
                            let xo = rw.emit_binary(b, span, BinaryOp::Mul, i, sx[0]);
                            let v = rw.dot_line(b, (x, xo, sx[1]), (y, zero, sy[0]), n, d, span)?;
                            rw.push_void(b, InstKind::Store(out, i, v), span);
                            Ok(vec![])
                        })?;
                        Ok(out)
                    }
                    (1, 2) => {
                        let out = self.new_c(b, d, vec![dy[1]], false, span);
                        self.fold(b, (zero, dy[1]), vec![], span, &mut |rw, j, _| {
                            let yo = rw.emit_binary(b, span, BinaryOp::Mul, j, sy[1]);
                            let v = rw.dot_line(b, (x, zero, sx[0]), (y, yo, sy[0]), n, d, span)?;
                            rw.push_void(b, InstKind::Store(out, j, v), span);
                            Ok(vec![])
                        })?;
                        Ok(out)
                    }
                    _ if self.host && d.is_float() => {
                        // A packed GEMM (crate::gemm) on operands of the result's dtype.
                        let x = if xt.dtype == d { x } else { self.copy_of(b, x, d, span)? };
                        let y = if yt.dtype == d { y } else { self.copy_of(b, y, d, span)? };
                        let out = self.new_c(b, d, vec![dx[0], dy[1]], false, span);
                        self.push(b, InstKind::Builtin(Builtin::Gemm, vec![x, y, out]), Type::I64, span);
                        Ok(out)
                    }
                    _ => {
                        // i-k-j order: each row of the result accumulates `a[i, k] * b[k, :]`
                        // for k ascending, so every element is summed in the same order as a
                        // dot product of a row and a column, while the inner loop runs along
                        // contiguous rows.
                        let out = self.new_c(b, d, vec![dx[0], dy[1]], true, span);
                        let p = dy[1];
                        let (tx, ty_) = (xt.dtype, yt.dtype);
                        self.fold(b, (zero, dx[0]), vec![], span, &mut |rw, i, _| {
                            let xo = rw.emit_binary(b, span, BinaryOp::Mul, i, sx[0]);
                            let row = rw.emit_binary(b, span, BinaryOp::Mul, i, p);
                            rw.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
                                let ko = rw.emit_binary(b, span, BinaryOp::Mul, k, sx[1]);
                                let ao = rw.emit_binary(b, span, BinaryOp::Add, xo, ko);
                                let aik = rw.push(b, InstKind::Load(x, ao), Type::Scalar(tx), span);
                                let aik = rw.coerce(b, aik, &Type::Scalar(d), span)?;
                                let bo = rw.emit_binary(b, span, BinaryOp::Mul, k, sy[0]);
                                rw.fold(b, (zero, p), vec![], span, &mut |rw, j, _| {
                                    let jo = rw.emit_binary(b, span, BinaryOp::Mul, j, sy[1]);
                                    let yo = rw.emit_binary(b, span, BinaryOp::Add, bo, jo);
                                    let bkj = rw.push(b, InstKind::Load(y, yo), Type::Scalar(ty_), span);
                                    let bkj = rw.coerce(b, bkj, &Type::Scalar(d), span)?;
                                    let o = rw.emit_binary(b, span, BinaryOp::Add, row, j);
                                    let c = rw.push(b, InstKind::Load(out, o), Type::Scalar(d), span);
                                    let pq = rw.emit_binary(b, span, BinaryOp::Mul, aik, bkj);
                                    let s = rw.emit_binary(b, span, BinaryOp::Add, c, pq);
                                    rw.push_void(b, InstKind::Store(out, o, s), span);
                                    Ok(vec![])
                                })?;
                                Ok(vec![])
                            })?;
                            Ok(vec![])
                        })?;
                        Ok(out)
                    }
                }
            }
            Linalg::Vdot => {
                let (fx, nx) = self.flat_line(b, x, span)?;
                let (fy, ny) = self.flat_line(b, args[1], span)?;
                self.check_same(b, nx, ny, "incompatible array sizes for np.vdot(a, b)", span);
                self.dot_line(b, (fx, zero, one), (fy, zero, one), nx, d, span)
            }
            Linalg::Outer => {
                let (fx, nx) = self.flat_line(b, x, span)?;
                let (fy, ny) = self.flat_line(b, args[1], span)?;
                let out = self.new_c(b, d, vec![nx, ny], false, span);
                let (tx, ty) =
                    (self.ty(fx).array().expect("an array").dtype, self.ty(fy).array().expect("an array").dtype);
                self.fold(b, (zero, nx), vec![], span, &mut |rw, i, _| {
                    let p = rw.push(b, InstKind::Load(fx, i), Type::Scalar(tx), span);
                    let p = rw.coerce(b, p, &Type::Scalar(d), span)?;
                    let row = rw.emit_binary(b, span, BinaryOp::Mul, i, ny);
                    rw.fold(b, (zero, ny), vec![], span, &mut |rw, j, _| {
                        let q = rw.push(b, InstKind::Load(fy, j), Type::Scalar(ty), span);
                        let q = rw.coerce(b, q, &Type::Scalar(d), span)?;
                        let v = rw.emit_binary(b, span, BinaryOp::Mul, p, q);
                        let o = rw.emit_binary(b, span, BinaryOp::Add, row, j);
                        rw.push_void(b, InstKind::Store(out, o, v), span);
                        Ok(vec![])
                    })?;
                    Ok(vec![])
                })?;
                Ok(out)
            }
            Linalg::Trace => {
                let (dx, sx) = (self.dims(b, x, span), self.strides(b, x, span));
                let lt = self.emit_compare(b, span, CmpOp::Lt, dx[0], dx[1]);
                let n = self.emit_select(b, span, lt, dx[0], dx[1]);
                let diag = self.emit_binary(b, span, BinaryOp::Add, sx[0], sx[1]);
                let init = self.konst_num(b, d, 0.0, span);
                let out = self.fold(b, (zero, n), vec![init], span, &mut |rw, k, v| {
                    let o = rw.emit_binary(b, span, BinaryOp::Mul, k, diag);
                    let e = rw.push(b, InstKind::Load(x, o), Type::Scalar(xt.dtype), span);
                    let e = rw.coerce(b, e, &Type::Scalar(d), span)?;
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], e)])
                })?;
                Ok(out[0])
            }
            Linalg::Diag => {
                // The k-th diagonal: above the main one for k > 0, below for k < 0.
                let k = if args.len() > 1 { self.coerce(b, args[1], &Type::I64, span)? } else { zero };
                let neg = self.emit_compare(b, span, CmpOp::Lt, k, zero);
                let nk = self.emit_binary(b, span, BinaryOp::Sub, zero, k);
                let ak = self.emit_select(b, span, neg, nk, k);
                // (row, column) of the diagonal's first element.
                let r0 = self.emit_select(b, span, neg, ak, zero);
                let c0 = self.emit_select(b, span, neg, zero, ak);
                if xt.ndim == 1 {
                    let n = self.push(b, InstKind::Dim(x, 0), Type::I64, span);
                    let s = self.push(b, InstKind::Stride(x, 0), Type::I64, span);
                    let size = self.emit_binary(b, span, BinaryOp::Add, n, ak);
                    let out = self.new_c(b, d, vec![size, size], true, span);
                    self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
                        let o = rw.emit_binary(b, span, BinaryOp::Mul, i, s);
                        let e = rw.push(b, InstKind::Load(x, o), Type::Scalar(xt.dtype), span);
                        let r = rw.emit_binary(b, span, BinaryOp::Add, r0, i);
                        let c = rw.emit_binary(b, span, BinaryOp::Add, c0, i);
                        let row = rw.emit_binary(b, span, BinaryOp::Mul, r, size);
                        let at = rw.emit_binary(b, span, BinaryOp::Add, row, c);
                        rw.push_void(b, InstKind::Store(out, at, e), span);
                        Ok(vec![])
                    })?;
                    Ok(out)
                } else {
                    let (dx, sx) = (self.dims(b, x, span), self.strides(b, x, span));
                    // Length: min(rows - r0, cols - c0), at least 0.
                    let rr = self.emit_binary(b, span, BinaryOp::Sub, dx[0], r0);
                    let cc = self.emit_binary(b, span, BinaryOp::Sub, dx[1], c0);
                    let lt = self.emit_compare(b, span, CmpOp::Lt, rr, cc);
                    let n = self.emit_select(b, span, lt, rr, cc);
                    let pos = self.emit_compare(b, span, CmpOp::Gt, n, zero);
                    let n = self.emit_select(b, span, pos, n, zero);
                    let base_r = self.emit_binary(b, span, BinaryOp::Mul, r0, sx[0]);
                    let base_c = self.emit_binary(b, span, BinaryOp::Mul, c0, sx[1]);
                    let base = self.emit_binary(b, span, BinaryOp::Add, base_r, base_c);
                    let diag = self.emit_binary(b, span, BinaryOp::Add, sx[0], sx[1]);
                    let out = self.new_c(b, d, vec![n], false, span);
                    self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
                        let o = rw.emit_binary(b, span, BinaryOp::Mul, i, diag);
                        let o = rw.emit_binary(b, span, BinaryOp::Add, base, o);
                        let e = rw.push(b, InstKind::Load(x, o), Type::Scalar(xt.dtype), span);
                        rw.push_void(b, InstKind::Store(out, i, e), span);
                        Ok(vec![])
                    })?;
                    Ok(out)
                }
            }
            Linalg::Norm => self.norm(b, x, src_args.get(1).copied(), d, span),
            Linalg::Cross => self.cross(b, x, args[1], d, span),
        }
    }

    /// The constant `ord` of `np.linalg.norm` (`None` when absent).
    fn norm_order(&self, ord: Option<Value>, span: Span) -> Result<Option<f64>, Diagnostic> {
        let Some(o) = ord else { return Ok(None) };
        match self.src.def_inst(o).map(|d| &d.kind) {
            Some(InstKind::Const(Const::None)) => Ok(None),
            Some(InstKind::Const(Const::Int(k))) => Ok(Some(*k as f64)),
            Some(InstKind::Const(Const::Float(f))) => Ok(Some(*f)),
            _ => Err(err(span, "the ord of np.linalg.norm() must be a constant here", "ord")
                .with_hint("write it as a literal: 1, 2, np.inf")),
        }
    }

    fn norm(&mut self, b: Block, x: Value, ord: Option<Value>, d: Scalar, span: Span) -> Result<Value, Diagnostic> {
        let ord = self.norm_order(ord, span)?;
        let xt = self.ty(x).array().expect("an array");
        let dt = Type::Scalar(d);
        let abs = |rw: &mut Self, e: Value| -> Result<Value, Diagnostic> {
            let e = rw.coerce(b, e, &dt, span)?;
            Ok(rw.push(b, InstKind::Builtin(Builtin::Fabs, vec![e]), dt.clone(), span))
        };
        let sqrt = |rw: &mut Self, e: Value| rw.push(b, InstKind::Builtin(Builtin::NpSqrt, vec![e]), dt.clone(), span);
        let zero_f = self.konst_num(b, d, 0.0, span);
        if xt.ndim == 1 {
            return match ord {
                None | Some(2.0) => {
                    let out = self.fold_elements(b, x, vec![zero_f], span, &mut |rw, e, v| {
                        let e = rw.coerce(b, e, &dt, span)?;
                        let sq = rw.emit_binary(b, span, BinaryOp::Mul, e, e);
                        Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], sq)])
                    })?;
                    Ok(sqrt(self, out[0]))
                }
                Some(1.0) => {
                    let out = self.fold_elements(b, x, vec![zero_f], span, &mut |rw, e, v| {
                        let a = abs(rw, e)?;
                        Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], a)])
                    })?;
                    Ok(out[0])
                }
                Some(o) if o.is_infinite() => {
                    let init = self.konst_num(b, d, if o > 0.0 { 0.0 } else { f64::INFINITY }, span);
                    let op = if o > 0.0 { CmpOp::Gt } else { CmpOp::Lt };
                    let out = self.fold_elements(b, x, vec![init], span, &mut |rw, e, v| {
                        let a = abs(rw, e)?;
                        let better = rw.emit_compare(b, span, op, a, v[0]);
                        Ok(vec![rw.emit_select(b, span, better, a, v[0])])
                    })?;
                    Ok(out[0])
                }
                Some(o) => Err(err(span, format!("ord={o} of a vector norm is not supported"), "ord")
                    .with_hint("supported: None, 1, 2, np.inf, -np.inf")),
            };
        }
        let (dx, sx) = (self.dims(b, x, span), self.strides(b, x, span));
        let zero = self.int(b, 0, span);
        match ord {
            None => {
                let out = self.fold_elements(b, x, vec![zero_f], span, &mut |rw, e, v| {
                    let e = rw.coerce(b, e, &dt, span)?;
                    let sq = rw.emit_binary(b, span, BinaryOp::Mul, e, e);
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], sq)])
                })?;
                Ok(sqrt(self, out[0]))
            }
            Some(o) if o == 1.0 || o == f64::INFINITY => {
                // The largest absolute column (ord 1) or row (inf) sum.
                let (outer, inner, so, si) =
                    if o == 1.0 { (dx[1], dx[0], sx[1], sx[0]) } else { (dx[0], dx[1], sx[0], sx[1]) };
                let out = self.fold(b, (zero, outer), vec![zero_f], span, &mut |rw, i, v| {
                    let base = rw.emit_binary(b, span, BinaryOp::Mul, i, so);
                    let init = rw.konst_num(b, d, 0.0, span);
                    let s = rw.fold(b, (zero, inner), vec![init], span, &mut |rw, j, w| {
                        let oj = rw.emit_binary(b, span, BinaryOp::Mul, j, si);
                        let off = rw.emit_binary(b, span, BinaryOp::Add, base, oj);
                        let e = rw.push(b, InstKind::Load(x, off), Type::Scalar(xt.dtype), span);
                        let a = abs(rw, e)?;
                        Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, w[0], a)])
                    })?;
                    let better = rw.emit_compare(b, span, CmpOp::Gt, s[0], v[0]);
                    Ok(vec![rw.emit_select(b, span, better, s[0], v[0])])
                })?;
                Ok(out[0])
            }
            Some(o) => Err(err(span, format!("ord={o} of a matrix norm is not supported"), "ord")
                .with_hint("supported: None (Frobenius), 1, np.inf")),
        }
    }

    fn cross(&mut self, b: Block, x: Value, y: Value, d: Scalar, span: Span) -> Result<Value, Diagnostic> {
        let xt = self.ty(x).array().expect("an array");
        let (dx, sx, dy, sy) =
            (self.dims(b, x, span), self.strides(b, x, span), self.dims(b, y, span), self.strides(b, y, span));
        let three = self.int(b, 3, span);
        let m = "incompatible dimensions for cross product (dimension must be 3)";
        self.check_same(b, *dx.last().expect("dims"), three, m, span);
        self.check_same(b, *dy.last().expect("dims"), three, m, span);
        let rows = if xt.ndim == 2 {
            self.check_same(b, dx[0], dy[0], "shape mismatch: objects cannot be broadcast to a single shape", span);
            dx[0]
        } else {
            self.int(b, 1, span)
        };
        let dims = if xt.ndim == 2 { vec![dx[0], three] } else { vec![three] };
        let out = self.new_c(b, d, dims, false, span);
        let zero = self.int(b, 0, span);
        let (xe, ye) = (*sx.last().expect("strides"), *sy.last().expect("strides"));
        let (xr, yr) = if xt.ndim == 2 { (sx[0], sy[0]) } else { (zero, zero) };
        let (tx, ty_) = (xt.dtype, self.ty(y).array().expect("an array").dtype);
        self.fold(b, (zero, rows), vec![], span, &mut |rw, r, _| {
            let (bx, by) =
                (rw.emit_binary(b, span, BinaryOp::Mul, r, xr), rw.emit_binary(b, span, BinaryOp::Mul, r, yr));
            let get =
                |rw: &mut Self, arr: Value, base: Value, st: Value, k: i64, t: Scalar| -> Result<Value, Diagnostic> {
                    let kk = rw.int(b, k, span);
                    let o = rw.emit_binary(b, span, BinaryOp::Mul, kk, st);
                    let o = rw.emit_binary(b, span, BinaryOp::Add, base, o);
                    let e = rw.push(b, InstKind::Load(arr, o), Type::Scalar(t), span);
                    rw.coerce(b, e, &Type::Scalar(d), span)
                };
            let a: Vec<Value> = (0..3).map(|k| get(rw, x, bx, xe, k, tx)).collect::<Result<_, _>>()?;
            let c: Vec<Value> = (0..3).map(|k| get(rw, y, by, ye, k, ty_)).collect::<Result<_, _>>()?;
            let three = rw.int(b, 3, span);
            let row = rw.emit_binary(b, span, BinaryOp::Mul, r, three);
            for (k, (i, j)) in [(1usize, 2usize), (2, 0), (0, 1)].into_iter().enumerate() {
                let p = rw.emit_binary(b, span, BinaryOp::Mul, a[i], c[j]);
                let q = rw.emit_binary(b, span, BinaryOp::Mul, a[j], c[i]);
                let v = rw.emit_binary(b, span, BinaryOp::Sub, p, q);
                let kk = rw.int(b, k as i64, span);
                let o = rw.emit_binary(b, span, BinaryOp::Add, row, kk);
                rw.push_void(b, InstKind::Store(out, o, v), span);
            }
            Ok(vec![])
        })?;
        Ok(out)
    }
}
