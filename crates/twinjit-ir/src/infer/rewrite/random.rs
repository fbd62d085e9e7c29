//! The rewrite of `np.random` in compiled code into the generator's four helpers (seed, a
//! double, a normal draw, a bounded integer; see [`crate::random`]) and loops, in the order
//! Numba draws: `uniform(a, b)` is `a + (b - a) * random()`, `normal(m, s)` is
//! `m + s * gauss()`, `randint(lo, hi)` is `lo + below(hi - lo)`, arrays fill in C order,
//! `shuffle` swaps from the end with `randint(0, i + 1)`.

use super::*;
use crate::builtins::RandomOp;
use crate::types::{ArrayType, Layout, Scalar};

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

    /// An integer operation of the `random` module's generator (`random::py_int`).
    fn py_int(&mut self, b: Block, kind: i64, a: Value, bv: Option<Value>, c: Option<Value>, span: Span) -> Value {
        let k = self.int(b, kind, span);
        let zero = self.int(b, 0, span);
        let args = vec![k, a, bv.unwrap_or(zero), c.unwrap_or(zero)];
        self.draw(b, Builtin::PyRandomIntH, args, Type::I64, span)
    }

    /// A float draw of the `random` module's generator (`random::py_float`) on float64
    /// parameters (absent ones are 0).
    fn py_float(&mut self, b: Block, kind: i64, params: &[Value], span: Span) -> Value {
        let mut args = vec![self.int(b, kind, span)];
        args.extend_from_slice(params);
        while args.len() < 4 {
            args.push(self.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span));
        }
        self.draw(b, Builtin::PyRandomFloatH, args, Type::F64, span)
    }

    /// `random.randrange(0, n)` for `n >= 1` known: the `random` module's draw.
    fn py_below(&mut self, b: Block, n: Value, span: Span) -> Value {
        self.py_int(b, crate::random::py_int_kind::BELOW, n, None, None, span)
    }

    /// Shuffles the 1-D array `x` in place (Numba's loop), drawing from the `random` module's
    /// generator when `py`, else from NumPy's.
    fn shuffle(&mut self, b: Block, x: Value, py: bool, span: Span) -> Result<(), Diagnostic> {
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
                let j = if py { rw.py_below(b, i1, span) } else { rw.randint_one(b, zero, i1, span) };
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
                self.shuffle(b, args[0], false, span)?;
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
                self.shuffle(b, x, false, span)?;
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
            _ => return self.py_random_op(b, r, args, span),
        })
    }

    /// A function of Python's `random` module (arguments bound to `RandomOp::params`, absent
    /// ones `None`), drawing from its own generator as Numba does.
    fn py_random_op(&mut self, b: Block, r: RandomOp, args: &[Value], span: Span) -> Result<Value, Diagnostic> {
        use crate::random::{py_float_kind as fk, py_int_kind as ik};
        let given = |rw: &Self, k: usize| args.get(k).copied().filter(|v| !rw.is_none(*v));
        let f64_ = |rw: &mut Self, k: usize, default: f64| -> Result<Value, Diagnostic> {
            match given(rw, k) {
                Some(v) => rw.coerce(b, v, &Type::F64, span),
                None => Ok(rw.push(b, InstKind::Const(Const::Float(default)), Type::F64, span)),
            }
        };
        let none = |rw: &mut Self| rw.push(b, InstKind::Const(Const::None), Type::None, span);
        let positive = |rw: &mut Self, xs: &[Value]| {
            let zero = rw.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
            let mut bad = rw.emit_compare(b, span, CmpOp::Le, xs[0], zero);
            for &x in &xs[1..] {
                let le = rw.emit_compare(b, span, CmpOp::Le, x, zero);
                bad = rw.push(b, InstKind::Binary(BinaryOp::BitOr, bad, le), Type::BOOL, span);
            }
            rw.raise_if(b, bad, "ValueError", "gammavariate: alpha and beta must be > 0.0", span);
        };
        let nonzero = |rw: &mut Self, x: Value| {
            let zero = rw.push(b, InstKind::Const(Const::Float(0.0)), Type::F64, span);
            let is0 = rw.emit_compare(b, span, CmpOp::Eq, x, zero);
            rw.raise_if(b, is0, "ZeroDivisionError", "float division by zero", span);
        };
        Ok(match r {
            RandomOp::PySeed => {
                let s = self.coerce(b, args[0], &Type::I64, span)?;
                self.py_int(b, ik::SEED, s, None, None, span);
                none(self)
            }
            RandomOp::PyRandom => self.py_float(b, fk::RANDOM, &[], span),
            RandomOp::PyGauss | RandomOp::PyLognorm => {
                let mu = f64_(self, 0, 0.0)?;
                let sigma = f64_(self, 1, 1.0)?;
                let g = self.py_float(b, fk::GAUSS, &[], span);
                let sg = self.emit_binary(b, span, BinaryOp::Mul, sigma, g);
                let x = self.emit_binary(b, span, BinaryOp::Add, mu, sg);
                if r == RandomOp::PyLognorm {
                    self.push(b, InstKind::Builtin(Builtin::Exp, vec![x]), Type::F64, span)
                } else {
                    x
                }
            }
            RandomOp::PyGetrandbits => {
                let k = self.coerce(b, args[0], &Type::I64, span)?;
                let (zero, top) = (self.int(b, 0, span), self.int(b, 64, span));
                let low = self.emit_compare(b, span, CmpOp::Le, k, zero);
                let high = self.emit_compare(b, span, CmpOp::Gt, k, top);
                let bad = self.push(b, InstKind::Binary(BinaryOp::BitOr, low, high), Type::BOOL, span);
                self.raise_if(b, bad, "OverflowError", "getrandbits() limited to 64 bits", span);
                let bits = self.py_int(b, ik::BITS, k, None, None, span);
                self.push(b, InstKind::Cast(Scalar::UInt64, bits), Type::Scalar(Scalar::UInt64), span)
            }
            RandomOp::PyRandrange | RandomOp::PyRandint => {
                let int = |rw: &mut Self, v: Value| rw.coerce(b, v, &Type::I64, span);
                let (start, stop, step) = match (r, given(self, 1)) {
                    (RandomOp::PyRandint, _) => {
                        let one = self.int(b, 1, span);
                        let hi = int(self, args[1])?;
                        (int(self, args[0])?, self.emit_binary(b, span, BinaryOp::Add, hi, one), one)
                    }
                    (_, None) => (self.int(b, 0, span), int(self, args[0])?, self.int(b, 1, span)),
                    (_, Some(stop)) => {
                        let step = match given(self, 2) {
                            Some(s) => int(self, s)?,
                            None => self.int(b, 1, span),
                        };
                        (int(self, args[0])?, int(self, stop)?, step)
                    }
                };
                let n = self.py_int(b, ik::COUNT, start, Some(stop), Some(step), span);
                let zero = self.int(b, 0, span);
                let empty = self.emit_compare(b, span, CmpOp::Le, n, zero);
                self.raise_if(b, empty, "ValueError", "empty range for randrange()", span);
                let k = self.py_below(b, n, span);
                let ks = self.emit_binary(b, span, BinaryOp::Mul, k, step);
                self.emit_binary(b, span, BinaryOp::Add, start, ks)
            }
            RandomOp::PyUniform => {
                let (lo, hi) = (f64_(self, 0, 0.0)?, f64_(self, 1, 1.0)?);
                let u = self.py_float(b, fk::RANDOM, &[], span);
                let w = self.emit_binary(b, span, BinaryOp::Sub, hi, lo);
                let wu = self.emit_binary(b, span, BinaryOp::Mul, w, u);
                self.emit_binary(b, span, BinaryOp::Add, lo, wu)
            }
            RandomOp::PyTriangular => {
                let (lo, hi) = (f64_(self, 0, 0.0)?, f64_(self, 1, 1.0)?);
                match given(self, 2) {
                    None => self.py_float(b, fk::TRIANGULAR, &[lo, hi], span),
                    Some(m) => {
                        let m = self.coerce(b, m, &Type::F64, span)?;
                        self.py_float(b, fk::TRIANGULAR_MODE, &[lo, hi, m], span)
                    }
                }
            }
            RandomOp::PyGamma | RandomOp::PyBeta => {
                let (a, bb) = (f64_(self, 0, 0.0)?, f64_(self, 1, 0.0)?);
                positive(self, &[a, bb]);
                let kind = if r == RandomOp::PyGamma { fk::GAMMA } else { fk::BETA };
                self.py_float(b, kind, &[a, bb], span)
            }
            RandomOp::PyExpo => {
                let l = f64_(self, 0, 1.0)?;
                let e = self.py_float(b, fk::EXPO, &[], span);
                self.emit_binary(b, span, BinaryOp::Div, e, l)
            }
            RandomOp::PyPareto => {
                let a = f64_(self, 0, 0.0)?;
                nonzero(self, a);
                self.py_float(b, fk::PARETO, &[a], span)
            }
            RandomOp::PyWeibull => {
                let (a, bb) = (f64_(self, 0, 0.0)?, f64_(self, 1, 0.0)?);
                nonzero(self, bb);
                self.py_float(b, fk::WEIBULL, &[a, bb], span)
            }
            RandomOp::PyVonmises => {
                let (mu, kappa) = (f64_(self, 0, 0.0)?, f64_(self, 1, 0.0)?);
                self.py_float(b, fk::VONMISES, &[mu, kappa], span)
            }
            RandomOp::PyShuffle => {
                self.shuffle(b, args[0], true, span)?;
                none(self)
            }
            _ => unreachable!("NumPy's draws are rewritten by random_op"),
        })
    }
}
