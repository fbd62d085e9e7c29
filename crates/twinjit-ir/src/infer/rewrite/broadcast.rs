//! The rewrite of broadcasting by name: `np.broadcast_shapes`, `np.broadcast_arrays`, and the
//! two builtins an `np.nditer((x, y, ...))` loop is made of (`nditer_shape`, `nditer_get`;
//! the front end writes the loop as one over `np.ndindex` of that shape).
//!
//! `np.nditer` follows Numba's rule, which is narrower than NumPy's: the iteration shape is
//! the first array with the most dimensions, every other array must have exactly its trailing
//! dimensions (a size-1 axis does not stretch), numbers stand for every position.

use super::*;

/// Numba's message when shapes do not broadcast (`np.broadcast_shapes`/`_arrays`).
const SHAPE_MISMATCH: &str = "shape mismatch: objects cannot be broadcast to a single shape";

impl Rewriter<'_> {
    /// `nditer_shape(x, ...)`: the iteration shape, after checking every array against it.
    pub(super) fn nditer_shape(&mut self, b: Block, xs: &[Value], rt: Type, span: Span) -> Value {
        let arrays: Vec<Value> = xs.iter().copied().filter(|&x| self.ty(x).array().is_some()).collect();
        let nd = |rw: &Self, a: Value| rw.ty(a).array().map_or(0, |t| t.ndim);
        let most = arrays.iter().map(|&a| nd(self, a)).max();
        let main = arrays.iter().copied().find(|&a| Some(nd(self, a)) == most);
        let Some(main) = main else {
            return self.push(b, InstKind::MakeTuple(vec![]), rt, span);
        };
        let shape = self.dims(b, main, span);
        let mut bad: Option<Value> = None;
        for &a in arrays.iter().filter(|&&a| a != main) {
            let dims = self.dims(b, a, span);
            let lead = shape.len() - dims.len();
            for (k, &d) in dims.iter().enumerate() {
                let ne = self.emit_compare(b, span, CmpOp::Ne, d, shape[lead + k]);
                bad = Some(match bad {
                    Some(x) => self.emit_binary(b, span, BinaryOp::BitOr, x, ne),
                    None => ne,
                });
            }
        }
        if let Some(bad) = bad {
            self.raise_if(b, bad, "ValueError", "nditer(): operands could not be broadcast together", span);
        }
        self.push(b, InstKind::MakeTuple(shape), rt, span)
    }

    /// `nditer_get(x, index)`: a number itself, an array's element at the trailing indices.
    pub(super) fn nditer_get(&mut self, b: Block, x: Value, index: Value, rt: Type, span: Span) -> Value {
        let Some(at) = self.ty(x).array() else {
            return x;
        };
        let n = match self.ty(index) {
            Type::Tuple(ts) => ts.len(),
            _ => 0,
        };
        let idx: Vec<Value> = (n - at.ndim as usize..n)
            .map(|k| self.push(b, InstKind::TupleGet(index, k as u32), Type::I64, span))
            .collect();
        let strides = self.strides(b, x, span);
        let off = self.offset(b, &strides, &idx, span);
        self.push(b, InstKind::Load(x, off), rt, span)
    }

    /// `np.broadcast_shapes(s, ...)`: NumPy's broadcast of the shapes, with Numba's errors.
    pub(super) fn broadcast_shapes(
        &mut self,
        b: Block,
        xs: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let shapes = xs.iter().map(|&s| self.shape_values(b, s, span)).collect::<Result<Vec<_>, _>>()?;
        let nd = shapes.iter().map(Vec::len).max().unwrap_or(0);
        let out = self.broadcast_shape(b, &shapes, nd, span);
        let (zero, one) = (self.int(b, 0, span), self.int(b, 1, span));
        let (mut negative, mut bad): (Option<Value>, Option<Value>) = (None, None);
        let or = |rw: &mut Self, acc: Option<Value>, x: Value| match acc {
            Some(a) => Some(rw.emit_binary(b, span, BinaryOp::BitOr, a, x)),
            None => Some(x),
        };
        for s in &shapes {
            for (k, &d) in s.iter().enumerate() {
                let lt = self.emit_compare(b, span, CmpOp::Lt, d, zero);
                negative = or(self, negative, lt);
                let same = self.emit_compare(b, span, CmpOp::Eq, d, out[nd - s.len() + k]);
                let unit = self.emit_compare(b, span, CmpOp::Eq, d, one);
                let ok = self.emit_binary(b, span, BinaryOp::BitOr, same, unit);
                let no = self.push(b, InstKind::Unary(UnaryOp::Not, ok), Type::BOOL, span);
                bad = or(self, bad, no);
            }
        }
        if let Some(neg) = negative {
            self.raise_if(b, neg, "ValueError", "negative dimensions are not allowed", span);
        }
        if let Some(bad) = bad {
            self.raise_if(b, bad, "ValueError", SHAPE_MISMATCH, span);
        }
        Ok(self.push(b, InstKind::MakeTuple(out), rt, span))
    }

    /// `np.broadcast_arrays(a, ...)`: each array as a view of the common shape (stride 0 along
    /// the axes it repeats), as Numba's (a tuple).
    pub(super) fn broadcast_arrays(
        &mut self,
        b: Block,
        xs: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let shapes: Vec<Vec<Value>> = xs.iter().map(|&a| self.dims(b, a, span)).collect();
        let nd = shapes.iter().map(Vec::len).max().unwrap_or(0);
        let dims = self.broadcast_shape(b, &shapes, nd, span);
        let mut views = Vec::with_capacity(xs.len());
        for &a in xs {
            views.push(self.broadcast_view(b, a, &dims, SHAPE_MISMATCH, span)?);
        }
        Ok(self.push(b, InstKind::MakeTuple(views), rt, span))
    }
}
