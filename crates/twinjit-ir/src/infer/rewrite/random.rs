//! The rewrite of `np.random` in compiled code into the generator's four helpers (seed, a
//! double, a normal draw, a bounded integer; see [`crate::random`]) and loops, in the order
//! Numba draws: `uniform(a, b)` is `a + (b - a) * random()`, `normal(m, s)` is
//! `m + s * gauss()`, `randint(lo, hi)` is `lo + below(hi - lo)`, arrays fill in C order,
//! `shuffle` swaps from the end with `randint(0, i + 1)`.

use super::*;
use crate::builtins::RandomOp;
use crate::types::{ArrayType, Layout};

impl Rewriter<'_> {
    fn draw(&mut self, b: Block, h: Builtin, args: Vec<Value>, t: Type, span: Span) -> Value {
        self.push(b, InstKind::Builtin(h, args), t, span)
    }

    /// `lo + below(hi - lo)`, `ValueError` for an empty range.
    fn randint_one(&mut self, b: Block, lo: Value, hi: Value, span: Span) -> Value {
        let n = self.emit_binary(b, span, BinaryOp::Sub, hi, lo);
        let zero = self.int(b, 0, span);
        let empty = self.emit_compare(b, span, CmpOp::Le, n, zero);
        self.raise_if(b, empty, "ValueError", "empty range for randrange()", span);
        let r = self.draw(b, Builtin::RandomBelowH, vec![n], Type::I64, span);
        self.emit_binary(b, span, BinaryOp::Add, lo, r)
    }

    /// A new C array of the shape `dims` whose elements `one(rw)` draws in order.
    fn fill_draws(
        &mut self,
        b: Block,
        dtype: Scalar,
        dims: Vec<Value>,
        span: Span,
        one: &mut dyn FnMut(&mut Self) -> Result<Value, Diagnostic>,
    ) -> Result<Value, Diagnostic> {
        let n = self.product(b, &dims, span);
        let ndim = dims.len() as u8;
        let out = self.new_array(b, dtype, dims, false, span);
        let out_t = Type::Array(ArrayType { dtype, ndim, layout: Layout::C });
        debug_assert_eq!(self.ty(out), out_t);
        let zero = self.int(b, 0, span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
            let x = one(rw)?;
            let x = rw.coerce(b, x, &Type::Scalar(dtype), span)?;
            rw.push_void(b, InstKind::Store(out, k, x), span);
            Ok(vec![])
        })?;
        Ok(out)
    }

    /// Shuffles the 1-D array `x` in place (Numba's loop).
    fn shuffle(&mut self, b: Block, x: Value, span: Span) -> Result<(), Diagnostic> {
        let dt = self.ty(x).array().expect("an array").dtype;
        let n = self.push(b, InstKind::Dim(x, 0), Type::I64, span);
        let s = self.push(b, InstKind::Stride(x, 0), Type::I64, span);
        let one = self.int(b, 1, span);
        let last = self.emit_binary(b, span, BinaryOp::Sub, n, one);
        let zero = self.int(b, 0, span);
        self.while_loop(
            b,
            vec![last],
            span,
            &mut |rw, v| Ok(rw.emit_compare(b, span, CmpOp::Gt, v[0], zero)),
            &mut |rw, v| {
                let i = v[0];
                let one = rw.int(b, 1, span);
                let i1 = rw.emit_binary(b, span, BinaryOp::Add, i, one);
                let j = rw.randint_one(b, zero, i1, span);
                let (oi, oj) =
                    (rw.emit_binary(b, span, BinaryOp::Mul, i, s), rw.emit_binary(b, span, BinaryOp::Mul, j, s));
                let xi = rw.push(b, InstKind::Load(x, oi), Type::Scalar(dt), span);
                let xj = rw.push(b, InstKind::Load(x, oj), Type::Scalar(dt), span);
                rw.push_void(b, InstKind::Store(x, oi, xj), span);
                rw.push_void(b, InstKind::Store(x, oj, xi), span);
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Sub, i, one)])
            },
        )?;
        Ok(())
    }

    /// The dimensions a `size` argument gives (`None` for none).
    fn size_dims(&mut self, b: Block, size: Option<Value>, span: Span) -> Result<Option<Vec<Value>>, Diagnostic> {
        match size {
            Some(v) if !self.is_none(v) => Ok(Some(self.shape_values(b, v, span)?)),
            _ => Ok(None),
        }
    }

    /// An `np.random` function on new values (arguments bound to `RandomOp::params`).
    pub(super) fn random_op(
        &mut self,
        b: Block,
        r: RandomOp,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let f64_ = |rw: &mut Self, x: Option<Value>, default: f64| -> Result<Value, Diagnostic> {
            match x {
                Some(v) if !rw.is_none(v) => rw.coerce(b, v, &Type::F64, span),
                _ => Ok(rw.push(b, InstKind::Const(Const::Float(default)), Type::F64, span)),
            }
        };
        let arg = |k: usize| args.get(k).copied();
        Ok(match r {
            RandomOp::Seed => {
                let s = self.coerce(b, args[0], &Type::I64, span)?;
                self.draw(b, Builtin::RandomSeedH, vec![s], Type::I64, span);
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            RandomOp::Random | RandomOp::Rand | RandomOp::Randn => {
                let h = if r == RandomOp::Randn { Builtin::RandomGaussH } else { Builtin::RandomDoubleH };
                let dims = if r == RandomOp::Random {
                    self.size_dims(b, arg(0), span)?
                } else {
                    let given: Vec<Value> = args.iter().copied().take_while(|v| !self.is_none(*v)).collect();
                    if given.is_empty() {
                        None
                    } else {
                        Some(given.into_iter().map(|d| self.coerce(b, d, &Type::I64, span)).collect::<Result<_, _>>()?)
                    }
                };
                match dims {
                    None => self.draw(b, h, vec![], Type::F64, span),
                    Some(d) => self.fill_draws(b, Scalar::Float64, d, span, &mut |rw| {
                        Ok(rw.draw(b, h, vec![], Type::F64, span))
                    })?,
                }
            }
            RandomOp::Normal | RandomOp::Uniform => {
                let normal = r == RandomOp::Normal;
                let p = f64_(self, arg(0), 0.0)?;
                let q = f64_(self, arg(1), 1.0)?;
                let mut one = |rw: &mut Self| -> Result<Value, Diagnostic> {
                    Ok(if normal {
                        let g = rw.draw(b, Builtin::RandomGaussH, vec![], Type::F64, span);
                        let sg = rw.emit_binary(b, span, BinaryOp::Mul, q, g);
                        rw.emit_binary(b, span, BinaryOp::Add, p, sg)
                    } else {
                        let u = rw.draw(b, Builtin::RandomDoubleH, vec![], Type::F64, span);
                        let w = rw.emit_binary(b, span, BinaryOp::Sub, q, p);
                        let wu = rw.emit_binary(b, span, BinaryOp::Mul, w, u);
                        rw.emit_binary(b, span, BinaryOp::Add, p, wu)
                    })
                };
                match self.size_dims(b, arg(2), span)? {
                    None => one(self)?,
                    Some(d) => self.fill_draws(b, Scalar::Float64, d, span, &mut one)?,
                }
            }
            RandomOp::Randint => {
                let (lo, hi) = match arg(1) {
                    Some(h) if !self.is_none(h) => (args[0], h),
                    _ => (self.int(b, 0, span), args[0]),
                };
                let lo = self.coerce(b, lo, &Type::I64, span)?;
                let hi = self.coerce(b, hi, &Type::I64, span)?;
                match self.size_dims(b, arg(2), span)? {
                    None => self.randint_one(b, lo, hi, span),
                    Some(d) => {
                        self.fill_draws(b, Scalar::Int64, d, span, &mut |rw| Ok(rw.randint_one(b, lo, hi, span)))?
                    }
                }
            }
            RandomOp::Shuffle => {
                self.shuffle(b, args[0], span)?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            RandomOp::Permutation => {
                let x = match self.ty(args[0]) {
                    Type::Array(at) => self.copy_of(b, args[0], at.dtype, span)?,
                    _ => {
                        let n = self.coerce(b, args[0], &Type::I64, span)?;
                        let out = self.new_array(b, Scalar::Int64, vec![n], false, span);
                        let zero = self.int(b, 0, span);
                        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
                            rw.push_void(b, InstKind::Store(out, k, k), span);
                            Ok(vec![])
                        })?;
                        out
                    }
                };
                self.shuffle(b, x, span)?;
                x
            }
            RandomOp::Choice => {
                let a = args[0];
                let st = rt.clone();
                let mut one = |rw: &mut Self| -> Result<Value, Diagnostic> {
                    let zero = rw.int(b, 0, span);
                    Ok(match rw.ty(a) {
                        Type::Array(at) => {
                            let n = rw.push(b, InstKind::Dim(a, 0), Type::I64, span);
                            let k = rw.randint_one(b, zero, n, span);
                            let s = rw.push(b, InstKind::Stride(a, 0), Type::I64, span);
                            let o = rw.emit_binary(b, span, BinaryOp::Mul, k, s);
                            rw.push(b, InstKind::Load(a, o), Type::Scalar(at.dtype), span)
                        }
                        _ => {
                            let n = rw.coerce(b, a, &Type::I64, span)?;
                            rw.randint_one(b, zero, n, span)
                        }
                    })
                };
                let always = match arg(2) {
                    None => true,
                    Some(r) => self.is_none(r) || self.const_bool(r) == Some(true),
                };
                match self.size_dims(b, arg(1), span)? {
                    // One sample: `replace` is ignored, as in Numba.
                    None => one(self)?,
                    Some(d) if always => {
                        let dt = st.array().expect("an array").dtype;
                        self.fill_draws(b, dt, d, span, &mut one)?
                    }
                    Some(d) => {
                        let dt = st.array().expect("an array").dtype;
                        let replace = arg(2).expect("a replace argument");
                        let line = Type::Array(ArrayType { dtype: dt, ndim: 1, layout: Layout::C });
                        self.if_else_make(
                            b,
                            replace,
                            std::slice::from_ref(&st),
                            span,
                            &mut |rw, _| Ok(vec![rw.fill_draws(b, dt, d.clone(), span, &mut one)?]),
                            &mut |rw, _| {
                                // Numba's: the first `size` elements of a permutation.
                                let n = match rw.ty(a) {
                                    Type::Array(_) => rw.push(b, InstKind::Dim(a, 0), Type::I64, span),
                                    _ => rw.coerce(b, a, &Type::I64, span)?,
                                };
                                let out = rw.new_array(b, dt, d.clone(), false, span);
                                let k = rw.product(b, &d, span);
                                let big = rw.emit_compare(b, span, CmpOp::Gt, k, n);
                                rw.raise_if(
                                    b,
                                    big,
                                    "ValueError",
                                    "Cannot take a larger sample than population when 'replace=False'",
                                    span,
                                );
                                let p = rw.random_op(b, RandomOp::Permutation, &[a], line.clone(), span)?;
                                let zero = rw.int(b, 0, span);
                                rw.fold(b, (zero, k), vec![], span, &mut |rw, i, _| {
                                    let x = rw.push(b, InstKind::Load(p, i), Type::Scalar(dt), span);
                                    rw.push_void(b, InstKind::Store(out, i, x), span);
                                    Ok(vec![])
                                })?;
                                Ok(vec![out])
                            },
                        )?[0]
                    }
                }
            }
        })
    }
}
