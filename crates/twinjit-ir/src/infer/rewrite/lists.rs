//! The rewrite of lists (Numba's reflected lists in nopython code): literals, methods,
//! indexing and slicing, `len`, `in`, `sum`/`min`/`max`, `+` and `*`, `copy`, `np.array(l)`.
//!
//! Everything becomes the five list primitives backends know (`newlist`, `listlen`,
//! `listget`, `listset`, `listresize`) plus loops built here, which carry their values through
//! block parameters (`while_loop`). Checks end in a `raise` block with Python's or Numba's
//! message. So the interpreter and the host get every list operation from five instructions,
//! and the element loops are visible to the passes.

use super::*;
use crate::builtins::ListOp;
use crate::types::{ArrayType, Layout};

type Cond<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, &[Value]) -> Result<Value, Diagnostic> + 'b;
type Step<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, &[Value]) -> Result<Vec<Value>, Diagnostic> + 'b;
type Each<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, Value, &[Value]) -> Result<Vec<Value>, Diagnostic> + 'b;

impl<'r> Rewriter<'r> {
    /// `while cond(vars): vars = body(vars)` with the loop's variables carried in block
    /// parameters; returns their values after the loop. Code after it goes into the exit.
    pub(super) fn while_loop(
        &mut self,
        b: Block,
        init: Vec<Value>,
        span: Span,
        cond: &mut Cond<'_, 'r>,
        body: &mut Step<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        let pre = self.cur[b.index()];
        let header = self.g.add_block();
        let vars: Vec<Value> = init.iter().map(|v| self.g.add_block_param(header, self.ty(*v))).collect();
        let inner = self.g.add_block();
        let exit = self.g.add_block();
        self.g.terminate(pre, Terminator::Jump(BlockCall { block: header, args: init }), span);
        self.cur[b.index()] = header;
        let c = cond(self, &vars)?;
        let to = |block| BlockCall { block, args: vec![] };
        let test = self.cur[b.index()];
        self.g.terminate(test, Terminator::Branch(c, to(inner), to(exit)), span);
        self.cur[b.index()] = inner;
        let next = body(self, &vars)?;
        let latch = self.cur[b.index()];
        self.g.terminate(latch, Terminator::Jump(BlockCall { block: header, args: next }), span);
        self.cur[b.index()] = exit;
        Ok(vars)
    }

    /// `while vars[0] < stop: vars = body(vars)`.
    pub(super) fn while_below(
        &mut self,
        b: Block,
        init: Vec<Value>,
        stop: Value,
        span: Span,
        body: &mut Step<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        self.while_loop(b, init, span, &mut |rw, v| Ok(rw.emit_compare(b, span, CmpOp::Lt, v[0], stop)), body)
    }

    /// `for i in range(start, stop): vars = body(i, vars)`; returns the variables after it.
    pub(super) fn fold(
        &mut self,
        b: Block,
        (start, stop): (Value, Value),
        init: Vec<Value>,
        span: Span,
        body: &mut Each<'_, 'r>,
    ) -> Result<Vec<Value>, Diagnostic> {
        let mut vars = vec![start];
        vars.extend(init);
        let out = self.while_below(b, vars, stop, span, &mut |rw, v| {
            let mut next = body(rw, v[0], &v[1..])?;
            let one = rw.int(b, 1, span);
            next.insert(0, rw.emit_binary(b, span, BinaryOp::Add, v[0], one));
            Ok(next)
        })?;
        Ok(out[1..].to_vec())
    }

    fn elem_of(&self, l: Value) -> Type {
        self.ty(l).list_elem().cloned().expect("a list")
    }

    pub(super) fn llen(&mut self, b: Block, l: Value, span: Span) -> Value {
        self.push(b, InstKind::ListLen(l), Type::I64, span)
    }

    pub(super) fn lget(&mut self, b: Block, l: Value, i: Value, span: Span) -> Value {
        let e = self.elem_of(l);
        self.push(b, InstKind::ListGet(l, i), e, span)
    }

    /// Stores `v`, converted to the element type.
    pub(super) fn lset(&mut self, b: Block, l: Value, i: Value, v: Value, span: Span) -> Result<(), Diagnostic> {
        let e = self.elem_of(l);
        let v = self.coerce(b, v, &e, span)?;
        self.push_void(b, InstKind::ListSet(l, i, v), span);
        Ok(())
    }

    pub(super) fn lresize(&mut self, b: Block, l: Value, n: Value, span: Span) {
        self.push_void(b, InstKind::ListResize(l, n), span);
    }

    fn lnew(&mut self, b: Block, ty: Type, n: Value, span: Span) -> Value {
        self.push(b, InstKind::NewList(n), ty, span)
    }

    /// Copies `n` elements from `src[from..]` to `dst[to..]` (ascending: right for moving
    /// elements down, or between different lists).
    pub(super) fn copy_run(
        &mut self,
        b: Block,
        (dst, to): (Value, Value),
        (src, from): (Value, Value),
        n: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let zero = self.int(b, 0, span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
            let s = rw.emit_binary(b, span, BinaryOp::Add, from, k);
            let x = rw.lget(b, src, s, span);
            let d = rw.emit_binary(b, span, BinaryOp::Add, to, k);
            rw.lset(b, dst, d, x, span)?;
            Ok(vec![])
        })?;
        Ok(())
    }

    /// `i` as an int64 counted from the end when negative, with the list's length and a zero:
    /// `(k, len, 0)`.
    fn counted_from_end(
        &mut self,
        b: Block,
        l: Value,
        i: Value,
        span: Span,
    ) -> Result<(Value, Value, Value), Diagnostic> {
        let i = self.coerce(b, i, &Type::I64, span)?;
        let n = self.llen(b, l, span);
        let zero = self.int(b, 0, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, i, zero);
        let wrapped = self.emit_binary(b, span, BinaryOp::Add, i, n);
        Ok((self.emit_select(b, span, neg, wrapped, i), n, zero))
    }

    /// A bound of `l.index(x, start, stop)` in `[0, len(l)]`: negative counts from the end, then
    /// clamped, as a slice's bounds are; `None` is 0 (`start`) or the length (`stop`, when
    /// `none_is` is -1).
    fn slice_bound(&mut self, b: Block, l: Value, i: Value, none_is: i64, span: Span) -> Result<Value, Diagnostic> {
        if self.ty(i) == Type::None {
            return Ok(if none_is < 0 { self.llen(b, l, span) } else { self.int(b, none_is, span) });
        }
        let (k, n, zero) = self.counted_from_end(b, l, i, span)?;
        let below = self.emit_compare(b, span, CmpOp::Lt, k, zero);
        let k = self.emit_select(b, span, below, zero, k);
        let above = self.emit_compare(b, span, CmpOp::Gt, k, n);
        Ok(self.emit_select(b, span, above, n, k))
    }

    /// A list index: negative indices count from the end; out of range raises IndexError.
    pub(super) fn list_position(
        &mut self,
        b: Block,
        l: Value,
        i: Value,
        message: &str,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let (k, n, zero) = self.counted_from_end(b, l, i, span)?;
        let below = self.emit_compare(b, span, CmpOp::Lt, k, zero);
        let above = self.emit_compare(b, span, CmpOp::Ge, k, n);
        let bad = self.emit_binary(b, span, BinaryOp::BitOr, below, above);
        self.raise_if(b, bad, "IndexError", message, span);
        Ok(k)
    }

    /// `l[i]`.
    pub(super) fn list_get(&mut self, b: Block, l: Value, i: Value, span: Span) -> Result<Value, Diagnostic> {
        let k = self.list_position(b, l, i, "getitem out of range", span)?;
        Ok(self.lget(b, l, k, span))
    }

    /// `l[i] = v`.
    pub(super) fn list_set(&mut self, b: Block, l: Value, i: Value, v: Value, span: Span) -> Result<(), Diagnostic> {
        let k = self.list_position(b, l, i, "setitem out of range", span)?;
        self.lset(b, l, k, v, span)
    }

    /// The length of `l` and the (start, count, step) of its slice `parts` (`lo, hi, step`,
    /// `None` where absent), by Python's `slice.indices`.
    fn list_slice(&mut self, b: Block, l: Value, parts: &[Value], span: Span) -> (Value, (Value, Value, Value)) {
        let part = |rw: &Self, v: Value| (rw.ty(v) != Type::None).then_some(v);
        let (lo, hi, st) = (part(self, parts[0]), part(self, parts[1]), part(self, parts[2]));
        let n = self.llen(b, l, span);
        (n, self.slice_bounds(b, n, lo, hi, st, span))
    }

    /// `l[lo:hi:step] = src` (`parts` are the slice's three values, `None` where absent), as
    /// Python does it: with a step of 1 the slice is replaced by `src`'s items (the list grows
    /// or shrinks); with another step each selected position gets one item, and a count that
    /// differs is `ValueError`. `src` is read into a copy first, so `l[1:3] = l` works.
    pub(super) fn list_set_slice(
        &mut self,
        b: Block,
        l: Value,
        parts: &[Value],
        src: Value,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let lt = self.ty(l);
        let m = self.llen(b, src, span);
        let items = self.build_list(b, lt.clone(), m, span, &mut |rw, k| Ok(rw.lget(b, src, k, span)))?;
        let (n, (start, count, step)) = self.list_slice(b, l, parts, span);
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        let unit = self.emit_compare(b, span, CmpOp::Eq, step, one);
        let differs = self.emit_compare(b, span, CmpOp::Ne, m, count);
        let no = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        let not_unit = self.emit_compare(b, span, CmpOp::Eq, unit, no);
        let bad = self.emit_binary(b, span, BinaryOp::BitAnd, not_unit, differs);
        self.raise_if_args(
            b,
            bad,
            "ValueError",
            vec![crate::ExceptionArg::Format(vec![
                crate::ExceptionArg::Str("attempt to assign sequence of size ".into()),
                crate::ExceptionArg::Runtime(m),
                crate::ExceptionArg::Str(" to extended slice of size ".into()),
                crate::ExceptionArg::Runtime(count),
            ])],
            span,
        );
        // Each loop below runs only on its path (its count is zero on the other).
        let pick = |rw: &mut Self, on_unit: bool, v: Value| {
            if on_unit {
                rw.emit_select(b, span, unit, v, zero)
            } else {
                rw.emit_select(b, span, unit, zero, v)
            }
        };
        // A step other than 1: item k goes to start + k * step.
        let spread = pick(self, false, m);
        self.fold(b, (zero, spread), vec![], span, &mut |rw, k, _| {
            let off = rw.emit_binary(b, span, BinaryOp::Mul, k, step);
            let at = rw.emit_binary(b, span, BinaryOp::Add, start, off);
            let x = rw.lget(b, items, k, span);
            rw.lset(b, l, at, x, span)?;
            Ok(vec![])
        })?;
        // A step of 1: keep the tail, resize, then the items and the tail after `start`.
        let after = self.emit_binary(b, span, BinaryOp::Add, start, count);
        let tail_len = self.emit_binary(b, span, BinaryOp::Sub, n, after);
        let tail_len = pick(self, true, tail_len);
        let tail = self.build_list(b, lt, tail_len, span, &mut |rw, k| {
            let i = rw.emit_binary(b, span, BinaryOp::Add, after, k);
            Ok(rw.lget(b, l, i, span))
        })?;
        let placed = pick(self, true, m);
        let grown = self.emit_binary(b, span, BinaryOp::Add, start, placed);
        let new_n = self.emit_binary(b, span, BinaryOp::Add, grown, tail_len);
        let new_n = self.emit_select(b, span, unit, new_n, n);
        self.lresize(b, l, new_n, span);
        self.copy_run(b, (l, start), (items, zero), placed, span)?;
        self.copy_run(b, (l, grown), (tail, zero), tail_len, span)?;
        Ok(())
    }

    /// Appends to `l` the items of `joined` past `l`'s length (`joined` is `l + seq`): the
    /// in-place `l += seq`.
    pub(super) fn list_extend_from(&mut self, b: Block, l: Value, joined: Value, span: Span) -> Result<(), Diagnostic> {
        let n = self.llen(b, l, span);
        let total = self.llen(b, joined, span);
        let added = self.emit_binary(b, span, BinaryOp::Sub, total, n);
        self.lresize(b, l, total, span);
        self.copy_run(b, (l, n), (joined, n), added, span)
    }

    /// Removes element `k` (in range): the ones after it move down.
    fn remove_at(&mut self, b: Block, l: Value, k: Value, span: Span) -> Result<(), Diagnostic> {
        let n = self.llen(b, l, span);
        let one = self.int(b, 1, span);
        let nm1 = self.emit_binary(b, span, BinaryOp::Sub, n, one);
        let rest = self.emit_binary(b, span, BinaryOp::Sub, nm1, k);
        let next = self.emit_binary(b, span, BinaryOp::Add, k, one);
        self.copy_run(b, (l, k), (l, next), rest, span)?;
        self.lresize(b, l, nm1, span);
        Ok(())
    }

    /// The position of the first element equal to `x`, or -1.
    fn find(&mut self, b: Block, l: Value, x: Value, span: Span) -> Result<Value, Diagnostic> {
        let n = self.llen(b, l, span);
        let zero = self.int(b, 0, span);
        self.find_in(b, l, x, (zero, n), span)
    }

    /// Python's list comparison: `==` when the lengths and every pair of elements are equal; an
    /// order decided by the first position whose elements differ (`!=` by `==`, then `<` or
    /// `>` between them), else by the lengths.
    pub(super) fn compare_lists(
        &mut self,
        b: Block,
        op: CmpOp,
        x: Value,
        y: Value,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let (nx, ny) = (self.llen(b, x, span), self.llen(b, y, span));
        let shorter = self.emit_compare(b, span, CmpOp::Lt, nx, ny);
        let m = self.emit_select(b, span, shorter, nx, ny);
        let zero = self.int(b, 0, span);
        let no = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        // State: (a pair differed, the order the first differing pair gives).
        let strict = match op {
            CmpOp::Lt | CmpOp::Le => CmpOp::Lt,
            _ => CmpOp::Gt,
        };
        let ordered = !matches!(op, CmpOp::Eq | CmpOp::Ne);
        let out = self.fold(b, (zero, m), vec![no, no], span, &mut |rw, k, v| {
            let (p, q) = (rw.lget(b, x, k, span), rw.lget(b, y, k, span));
            let same = rw.compare_values(b, CmpOp::Eq, p, q, span)?;
            let differ = rw.push(b, InstKind::Unary(UnaryOp::Not, same), Type::BOOL, span);
            let decided = rw.emit_binary(b, span, BinaryOp::BitOr, v[0], differ);
            let order = if ordered {
                let first = rw.push(b, InstKind::Unary(UnaryOp::Not, v[0]), Type::BOOL, span);
                let first = rw.emit_binary(b, span, BinaryOp::BitAnd, first, differ);
                let o = rw.compare_values(b, strict, p, q, span)?;
                rw.emit_select(b, span, first, o, v[1])
            } else {
                v[1]
            };
            Ok(vec![decided, order])
        })?;
        let (differed, order) = (out[0], out[1]);
        let by_len = self.emit_compare(b, span, op, nx, ny);
        Ok(match op {
            CmpOp::Eq => {
                let same = self.push(b, InstKind::Unary(UnaryOp::Not, differed), Type::BOOL, span);
                self.emit_binary(b, span, BinaryOp::BitAnd, by_len, same)
            }
            CmpOp::Ne => self.emit_binary(b, span, BinaryOp::BitOr, by_len, differed),
            _ => self.emit_select(b, span, differed, order, by_len),
        })
    }

    /// The first position in `[start, stop)` holding an element equal to `x`, or -1.
    pub(super) fn find_in(
        &mut self,
        b: Block,
        l: Value,
        x: Value,
        (start, stop): (Value, Value),
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let minus1 = self.int(b, -1, span);
        let out = self.fold(b, (start, stop), vec![minus1], span, &mut |rw, k, v| {
            let e = rw.lget(b, l, k, span);
            let eq = rw.compare_values(b, CmpOp::Eq, e, x, span)?;
            let z = rw.int(b, 0, span);
            let none_yet = rw.emit_compare(b, span, CmpOp::Lt, v[0], z);
            let first = rw.emit_binary(b, span, BinaryOp::BitAnd, eq, none_yet);
            Ok(vec![rw.emit_select(b, span, first, k, v[0])])
        })?;
        Ok(out[0])
    }

    /// A list of `rt` holding `n` elements computed by `elem(k)`.
    pub(super) fn build_list(
        &mut self,
        b: Block,
        rt: Type,
        n: Value,
        span: Span,
        elem: &mut dyn FnMut(&mut Rewriter<'r>, Value) -> Result<Value, Diagnostic>,
    ) -> Result<Value, Diagnostic> {
        let out = self.lnew(b, rt, n, span);
        let zero = self.int(b, 0, span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
            let x = elem(rw, k)?;
            rw.lset(b, out, k, x, span)?;
            Ok(vec![])
        })?;
        Ok(out)
    }

    /// The element `k` of an iterable that `list.extend` takes (a list, a 1-D array, a tuple).
    pub(super) fn iter_item(&mut self, b: Block, it: Value, k: Value, span: Span) -> Result<Value, Diagnostic> {
        Ok(match self.ty(it) {
            Type::List(_) => self.lget(b, it, k, span),
            Type::Array(at) => self.push(b, InstKind::GetItem(it, vec![k]), Type::Scalar(at.dtype), span),
            Type::Tuple(ts) => self.runtime_tuple_get(b, it, ts.len(), k, span)?,
            t => return Err(err(span, format!("cannot iterate over {t}"), "here")),
        })
    }

    pub(super) fn iter_len(&mut self, b: Block, it: Value, span: Span) -> Value {
        match self.ty(it) {
            Type::List(_) => self.llen(b, it, span),
            Type::Array(_) => self.push(b, InstKind::Dim(it, 0), Type::I64, span),
            Type::Tuple(ts) => self.int(b, ts.len() as i64, span),
            _ => self.int(b, 0, span),
        }
    }

    /// A list method or operation.
    pub(super) fn list_op(
        &mut self,
        b: Block,
        op: ListOp,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let none = |rw: &mut Self| rw.push(b, InstKind::Const(Const::None), Type::None, span);
        Ok(match op {
            ListOp::New => {
                if !rt.is_known() {
                    return Err(err(span, "cannot infer the type of this list's elements", "empty list").with_hint(
                        "Numba needs to see what an empty list receives: append to it in this function, or start from a literal like [0.0]",
                    ));
                }
                let zero = self.int(b, 0, span);
                self.lnew(b, rt, zero, span)
            }
            ListOp::Literal => {
                let n = self.int(b, args.len() as i64, span);
                let l = self.lnew(b, rt, n, span);
                for (k, &v) in args.iter().enumerate() {
                    let i = self.int(b, k as i64, span);
                    self.lset(b, l, i, v, span)?;
                }
                l
            }
            ListOp::Append => {
                let (l, v) = (args[0], args[1]);
                let n = self.llen(b, l, span);
                let one = self.int(b, 1, span);
                let n1 = self.emit_binary(b, span, BinaryOp::Add, n, one);
                self.lresize(b, l, n1, span);
                self.lset(b, l, n, v, span)?;
                none(self)
            }
            ListOp::Extend => {
                let (l, it) = (args[0], args[1]);
                // The source's length first: `l.extend(l)` doubles the list once.
                let m = self.iter_len(b, it, span);
                let n = self.llen(b, l, span);
                let total = self.emit_binary(b, span, BinaryOp::Add, n, m);
                self.lresize(b, l, total, span);
                let zero = self.int(b, 0, span);
                self.fold(b, (zero, m), vec![], span, &mut |rw, k, _| {
                    let x = rw.iter_item(b, it, k, span)?;
                    let d = rw.emit_binary(b, span, BinaryOp::Add, n, k);
                    rw.lset(b, l, d, x, span)?;
                    Ok(vec![])
                })?;
                none(self)
            }
            ListOp::Pop => {
                let l = args[0];
                let n = self.llen(b, l, span);
                let zero = self.int(b, 0, span);
                let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
                self.raise_if(b, empty, "IndexError", "pop from empty list", span);
                let k = if self.ty(args[1]) == Type::None {
                    let one = self.int(b, 1, span);
                    self.emit_binary(b, span, BinaryOp::Sub, n, one)
                } else {
                    self.list_position(b, l, args[1], "pop index out of range", span)?
                };
                let v = self.lget(b, l, k, span);
                // The popped element keeps the reference the refcount pass gives it.
                self.remove_at(b, l, k, span)?;
                v
            }
            ListOp::Insert => {
                let (l, v) = (args[0], args[2]);
                // Python clamps: a negative index counts from the end, then into [0, n].
                let (k, n, zero) = self.counted_from_end(b, l, args[1], span)?;
                let below = self.emit_compare(b, span, CmpOp::Lt, k, zero);
                let k = self.emit_select(b, span, below, zero, k);
                let above = self.emit_compare(b, span, CmpOp::Gt, k, n);
                let k = self.emit_select(b, span, above, n, k);
                let one = self.int(b, 1, span);
                let n1 = self.emit_binary(b, span, BinaryOp::Add, n, one);
                self.lresize(b, l, n1, span);
                // Move [k, n) up by one, from the end.
                let count = self.emit_binary(b, span, BinaryOp::Sub, n, k);
                self.fold(b, (zero, count), vec![], span, &mut |rw, t, _| {
                    let one = rw.int(b, 1, span);
                    let j = rw.emit_binary(b, span, BinaryOp::Sub, n, t);
                    let from = rw.emit_binary(b, span, BinaryOp::Sub, j, one);
                    let x = rw.lget(b, l, from, span);
                    rw.lset(b, l, j, x, span)?;
                    Ok(vec![])
                })?;
                self.lset(b, l, k, v, span)?;
                none(self)
            }
            ListOp::Remove | ListOp::Index => {
                let (l, x) = (args[0], args[1]);
                let k = if args.len() > 2 {
                    // `l.index(x, start, stop)`: the bounds as a slice's (`slice.indices`).
                    let n = self.llen(b, l, span);
                    let start = self.slice_bound(b, l, args[2], 0, span)?;
                    let stop = match args.get(3) {
                        Some(&s) => self.slice_bound(b, l, s, -1, span)?,
                        None => n,
                    };
                    self.find_in(b, l, x, (start, stop), span)?
                } else {
                    self.find(b, l, x, span)?
                };
                let zero = self.int(b, 0, span);
                let missing = self.emit_compare(b, span, CmpOp::Lt, k, zero);
                let what = if op == ListOp::Remove { "list.remove(x): x not in list" } else { "value not in list" };
                self.raise_if(b, missing, "ValueError", what, span);
                if op == ListOp::Remove {
                    self.remove_at(b, l, k, span)?;
                    none(self)
                } else {
                    k
                }
            }
            ListOp::Count => {
                let (l, x) = (args[0], args[1]);
                let n = self.llen(b, l, span);
                let zero = self.int(b, 0, span);
                let out = self.fold(b, (zero, n), vec![zero], span, &mut |rw, k, v| {
                    let e = rw.lget(b, l, k, span);
                    let eq = rw.compare_values(b, CmpOp::Eq, e, x, span)?;
                    let one = rw.int(b, 1, span);
                    let z = rw.int(b, 0, span);
                    let d = rw.emit_select(b, span, eq, one, z);
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], d)])
                })?;
                out[0]
            }
            ListOp::Reverse => {
                let l = args[0];
                let n = self.llen(b, l, span);
                let (zero, one, two) = (self.int(b, 0, span), self.int(b, 1, span), self.int(b, 2, span));
                let half = self.emit_binary(b, span, BinaryOp::FloorDiv, n, two);
                self.fold(b, (zero, half), vec![], span, &mut |rw, k, _| {
                    let last = rw.emit_binary(b, span, BinaryOp::Sub, n, one);
                    let j = rw.emit_binary(b, span, BinaryOp::Sub, last, k);
                    let (x, y) = (rw.lget(b, l, k, span), rw.lget(b, l, j, span));
                    rw.lset(b, l, k, y, span)?;
                    rw.lset(b, l, j, x, span)?;
                    Ok(vec![])
                })?;
                none(self)
            }
            ListOp::Clear => {
                let zero = self.int(b, 0, span);
                self.lresize(b, args[0], zero, span);
                none(self)
            }
            ListOp::Sort if matches!(self.ty(args[0]), Type::Array(_)) => {
                self.sort_in_place(b, args[0], span)?;
                none(self)
            }
            ListOp::Sort => {
                let rev = self.truth(b, args[1], span)?;
                self.merge_sort(b, args[0], rev, span)?;
                none(self)
            }
            ListOp::Del => {
                let l = args[0];
                let k = self.list_position(b, l, args[1], "list assignment index out of range", span)?;
                self.remove_at(b, l, k, span)?;
                none(self)
            }
            ListOp::DelSlice => {
                // The slice's positions, from the last one down (so that each removal leaves
                // the positions still to remove in place): Python's `slice.indices`, then
                // `start + (count - 1 - k) * step` for a positive step, `start + k * step` for
                // a negative one (already descending).
                let l = args[0];
                let (_, (start, count, step)) = self.list_slice(b, l, &args[1..4], span);
                let zero = self.int(b, 0, span);
                let one = self.int(b, 1, span);
                let ascending = self.emit_compare(b, span, CmpOp::Gt, step, zero);
                let last = self.emit_binary(b, span, BinaryOp::Sub, count, one);
                self.fold(b, (zero, count), Vec::new(), span, &mut |rw, k, _| {
                    let back = rw.emit_binary(b, span, BinaryOp::Sub, last, k);
                    let nth = rw.emit_select(b, span, ascending, back, k);
                    let off = rw.emit_binary(b, span, BinaryOp::Mul, nth, step);
                    let at = rw.emit_binary(b, span, BinaryOp::Add, start, off);
                    rw.remove_at(b, l, at, span)?;
                    Ok(Vec::new())
                })?;
                none(self)
            }
        })
    }

    /// Sorts `l` in place, stably (Python's order: equal elements keep their order, also when
    /// `rev` sorts descending): a bottom-up merge sort through a scratch list.
    pub(super) fn merge_sort(&mut self, b: Block, l: Value, rev: Value, span: Span) -> Result<(), Diagnostic> {
        let lt = self.ty(l);
        let n = self.llen(b, l, span);
        let tmp = self.lnew(b, lt, n, span);
        let one = self.int(b, 1, span);
        self.while_below(b, vec![one], n, span, &mut |rw, v| {
            let width = v[0];
            let two = rw.int(b, 2, span);
            let step = rw.emit_binary(b, span, BinaryOp::Mul, width, two);
            let zero = rw.int(b, 0, span);
            // Merge runs [lo, mid) and [mid, hi) of `l` into `tmp`, for lo = 0, step, ...
            rw.while_below(b, vec![zero], n, span, &mut |rw, u| {
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
                    // Read both heads at safe positions; take the right one only when
                    // the left run is used up, or it sorts strictly first.
                    let zero = rw.int(b, 0, span);
                    let left_done = rw.emit_compare(b, span, CmpOp::Ge, i, mid);
                    let right_left = rw.emit_compare(b, span, CmpOp::Lt, j, hi);
                    let si = rw.emit_select(b, span, left_done, zero, i);
                    let sj = rw.emit_select(b, span, right_left, j, zero);
                    let x = rw.lget(b, l, si, span);
                    let y = rw.lget(b, l, sj, span);
                    let lt_ = rw.compare_values(b, CmpOp::Lt, y, x, span)?;
                    let gt_ = rw.compare_values(b, CmpOp::Gt, y, x, span)?;
                    let first = rw.emit_select(b, span, rev, gt_, lt_);
                    let take_right = rw.emit_binary(b, span, BinaryOp::BitOr, left_done, first);
                    let take_right = rw.emit_binary(b, span, BinaryOp::BitAnd, take_right, right_left);
                    let pick = rw.emit_select(b, span, take_right, y, x);
                    rw.lset(b, tmp, k, pick, span)?;
                    let one = rw.int(b, 1, span);
                    let i1 = rw.emit_binary(b, span, BinaryOp::Add, i, one);
                    let j1 = rw.emit_binary(b, span, BinaryOp::Add, j, one);
                    Ok(vec![rw.emit_select(b, span, take_right, i, i1), rw.emit_select(b, span, take_right, j1, j)])
                })?;
                Ok(vec![hi])
            })?;
            rw.copy_run(b, (l, zero), (tmp, zero), n, span)?;
            Ok(vec![step])
        })?;
        Ok(())
    }

    /// Builtins applied to a list: `len`, iteration, `in`, `sum`, `min`/`max`, `copy`,
    /// `np.array`, slicing.
    pub(super) fn list_builtin(
        &mut self,
        b: Block,
        bi: Builtin,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let l = args[0];
        let n = self.llen(b, l, span);
        let zero = self.int(b, 0, span);
        Ok(match bi.info().typing {
            Typing::ArrayLen | Typing::IterLen => n,
            Typing::Contains => {
                let x = args[1];
                let f = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
                let out = self.fold(b, (zero, n), vec![f], span, &mut |rw, k, v| {
                    let e = rw.lget(b, l, k, span);
                    let eq = rw.compare_values(b, CmpOp::Eq, x, e, span)?;
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::BitOr, v[0], eq)])
                })?;
                out[0]
            }
            Typing::Sum => {
                let start = match args.get(1) {
                    Some(&s) => s,
                    None => self.int(b, 0, span),
                };
                let start = self.coerce(b, start, &rt, span)?;
                let out = self.fold(b, (zero, n), vec![start], span, &mut |rw, k, v| {
                    let e = rw.lget(b, l, k, span);
                    let e = rw.coerce(b, e, &rt, span)?;
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], e)])
                })?;
                out[0]
            }
            Typing::MinMax => {
                // Numba's min/max of an empty list raise StopIteration (Python: ValueError).
                let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
                self.raise_if(b, empty, "StopIteration", "", span);
                let op = if bi == Builtin::Min { CmpOp::Lt } else { CmpOp::Gt };
                let first = self.lget(b, l, zero, span);
                let first = self.coerce(b, first, &rt, span)?;
                let one = self.int(b, 1, span);
                let out = self.fold(b, (one, n), vec![first], span, &mut |rw, k, v| {
                    let e = rw.lget(b, l, k, span);
                    let e = rw.coerce(b, e, &rt, span)?;
                    let c = rw.emit_compare(b, span, op, e, v[0]);
                    Ok(vec![rw.emit_select(b, span, c, e, v[0])])
                })?;
                out[0]
            }
            Typing::Alloc(crate::builtins::Alloc::Copy) => {
                self.build_list(b, rt, n, span, &mut |rw, k| Ok(rw.lget(b, l, k, span)))?
            }
            Typing::Alloc(crate::builtins::Alloc::Array) if rt.array().is_some_and(|a| a.ndim > 1) => {
                self.array_of_rows(b, l, n, rt, span)?
            }
            Typing::Alloc(crate::builtins::Alloc::Array) => {
                let at = rt.array().expect("typed as an array");
                let a = self.push(
                    b,
                    InstKind::NewArray { dtype: at.dtype, shape: vec![n], zeroed: false },
                    Type::Array(ArrayType { layout: Layout::C, ..at }),
                    span,
                );
                self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
                    let e = rw.lget(b, l, k, span);
                    let e = rw.coerce(b, e, &Type::Scalar(at.dtype), span)?;
                    rw.push_void(b, InstKind::Store(a, k, e), span);
                    Ok(vec![])
                })?;
                a
            }
            Typing::TupleSlice => {
                let bound = |rw: &mut Self, v: Value| -> Result<Option<Value>, Diagnostic> {
                    if rw.ty(v) == Type::None {
                        Ok(None)
                    } else {
                        Ok(Some(rw.coerce(b, v, &Type::I64, span)?))
                    }
                };
                let (lo, hi, st) = (bound(self, args[1])?, bound(self, args[2])?, bound(self, args[3])?);
                let (start, len, step) = self.slice_bounds(b, n, lo, hi, st, span);
                self.build_list(b, rt, len, span, &mut |rw, k| {
                    let o = rw.emit_binary(b, span, BinaryOp::Mul, k, step);
                    let i = rw.emit_binary(b, span, BinaryOp::Add, start, o);
                    Ok(rw.lget(b, l, i, span))
                })?
            }
            t => return Err(err(span, format!("internal: {t:?} of a list"), "here")),
        })
    }

    /// `np.array(l)` of a list of `n` rows (lists of numbers, lists of such lists, or 1-D
    /// arrays): a C array of `(n, len(l[0]), ...)` converted to the dtype of `rt`, as Numba
    /// builds it: `IndexError` when a first row is empty (the first rows give the shape),
    /// `ValueError` for a row of another length.
    fn array_of_rows(&mut self, b: Block, l: Value, n: Value, rt: Type, span: Span) -> Result<Value, Diagnostic> {
        let at = rt.array().expect("typed as an array");
        let zero = self.int(b, 0, span);
        // The extents, from the first row of each level.
        let mut dims = vec![n];
        let mut probe = l;
        for _ in 1..at.ndim {
            let len = self.row_len(b, probe, span);
            let empty = self.emit_compare(b, span, CmpOp::Eq, len, zero);
            self.raise_if(b, empty, "IndexError", "getitem out of range", span);
            probe = self.row_get(b, probe, zero, span);
            dims.push(self.row_len(b, probe, span));
        }
        let a = self.new_array(b, at.dtype, dims.clone(), false, span);
        self.fill_rows(b, l, &dims, zero, a, at.dtype, span)?;
        Ok(a)
    }

    /// The length of a row: a list's, or a 1-D array's.
    fn row_len(&mut self, b: Block, row: Value, span: Span) -> Value {
        match self.ty(row) {
            Type::List(_) => self.llen(b, row, span),
            _ => self.push(b, InstKind::Dim(row, 0), Type::I64, span),
        }
    }

    /// Element `i` of a row: a list's, or a 1-D array's (through its stride).
    fn row_get(&mut self, b: Block, row: Value, i: Value, span: Span) -> Value {
        match self.ty(row) {
            Type::List(_) => self.lget(b, row, i, span),
            t => {
                let dt = t.array().expect("a 1-D array row").dtype;
                let s = self.push(b, InstKind::Stride(row, 0), Type::I64, span);
                let off = self.emit_binary(b, span, BinaryOp::Mul, i, s);
                self.push(b, InstKind::Load(row, off), Type::Scalar(dt), span)
            }
        }
    }

    /// Stores the elements of `row` (of `dims[0]` items, each of `dims[1..]`) into the C array
    /// `a` from linear offset `base`, checking each sub-row's length.
    #[allow(clippy::too_many_arguments)]
    fn fill_rows(
        &mut self,
        b: Block,
        row: Value,
        dims: &[Value],
        base: Value,
        a: Value,
        dtype: Scalar,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let zero = self.int(b, 0, span);
        let w = self.row_len(b, row, span);
        let ragged = self.emit_compare(b, span, CmpOp::Ne, w, dims[0]);
        self.raise_if(b, ragged, "ValueError", "incompatible sequence shape", span);
        let inner = self.product(b, &dims[1..], span);
        self.fold(b, (zero, dims[0]), vec![], span, &mut |rw, i, _| {
            let e = rw.row_get(b, row, i, span);
            let off = rw.emit_binary(b, span, BinaryOp::Mul, i, inner);
            let at = rw.emit_binary(b, span, BinaryOp::Add, base, off);
            if dims.len() > 1 {
                rw.fill_rows(b, e, &dims[1..], at, a, dtype, span)?;
            } else {
                let e = rw.coerce(b, e, &Type::Scalar(dtype), span)?;
                rw.push_void(b, InstKind::Store(a, at, e), span);
            }
            Ok(vec![])
        })?;
        Ok(())
    }

    /// `a + b` of two lists (a new list) and `l * n` / `n * l` (a new list of `l` repeated;
    /// empty for `n <= 0`).
    pub(super) fn list_arith(
        &mut self,
        b: Block,
        op: BinaryOp,
        x: Value,
        y: Value,
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        if op == BinaryOp::Add {
            let (n, m) = (self.llen(b, x, span), self.llen(b, y, span));
            let total = self.emit_binary(b, span, BinaryOp::Add, n, m);
            let out = self.lnew(b, rt, total, span);
            let zero = self.int(b, 0, span);
            self.copy_run(b, (out, zero), (x, zero), n, span)?;
            self.copy_run(b, (out, n), (y, zero), m, span)?;
            return Ok(out);
        }
        let (l, k) = if matches!(self.ty(x), Type::List(_)) { (x, y) } else { (y, x) };
        let k = self.coerce(b, k, &Type::I64, span)?;
        let zero = self.int(b, 0, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, k, zero);
        let k = self.emit_select(b, span, neg, zero, k);
        let n = self.llen(b, l, span);
        let total = self.emit_binary(b, span, BinaryOp::Mul, n, k);
        self.build_list(b, rt, total, span, &mut |rw, i| {
            let j = rw.emit_binary(b, span, BinaryOp::Mod, i, n);
            Ok(rw.lget(b, l, j, span))
        })
    }
}
