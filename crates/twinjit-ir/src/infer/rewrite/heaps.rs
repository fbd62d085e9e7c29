//! The rewrite of Python's `heapq` functions on a list, step for step the algorithm CPython's
//! `heapq` module documents and Numba follows (a binary min-heap in the list, `heap[k] <=
//! heap[2k+1]` and `heap[2k+2]`; `sift_up` walks the smaller child down to a leaf and then
//! sifts the new item back up), so a heap's list holds its elements in the same order as
//! Numba's after the same operations. Elements compare with Python's `<` (tuples
//! lexicographically: `(priority, item)` pairs).

use super::*;
use crate::builtins::HeapOp;

impl<'r> Rewriter<'r> {
    pub(super) fn heap_op(
        &mut self,
        b: Block,
        op: HeapOp,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let none = |rw: &mut Self| rw.push(b, InstKind::Const(Const::None), Type::None, span);
        let zero = self.int(b, 0, span);
        let one = self.int(b, 1, span);
        match op {
            HeapOp::NLargest | HeapOp::NSmallest => return self.n_extreme(b, op, args, rt, span),
            HeapOp::Heapify => {
                let h = args[0];
                let n = self.llen(b, h, span);
                let two = self.int(b, 2, span);
                let half = self.emit_binary(b, span, BinaryOp::FloorDiv, n, two);
                let last = self.emit_binary(b, span, BinaryOp::Sub, half, one);
                self.fold(b, (zero, half), vec![], span, &mut |rw, k, _| {
                    let i = rw.emit_binary(b, span, BinaryOp::Sub, last, k);
                    rw.sift_up(b, h, i, span)?;
                    Ok(vec![])
                })?;
                return Ok(none(self));
            }
            _ => {}
        }
        let h = args[0];
        let elem = self.ty(h).list_elem().cloned().expect("typed as a list");
        let n = self.llen(b, h, span);
        Ok(match op {
            HeapOp::Push => {
                let x = self.coerce(b, args[1], &elem, span)?;
                let n1 = self.emit_binary(b, span, BinaryOp::Add, n, one);
                self.lresize(b, h, n1, span);
                self.lset(b, h, n, x, span)?;
                self.sift_down(b, h, zero, n, span)?;
                none(self)
            }
            HeapOp::Pop => {
                let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
                self.raise_if(b, empty, "IndexError", "pop from empty list", span);
                let n1 = self.emit_binary(b, span, BinaryOp::Sub, n, one);
                let last = self.lget(b, h, n1, span);
                self.lresize(b, h, n1, span);
                let more = self.emit_compare(b, span, CmpOp::Gt, n1, zero);
                let out = self.if_values(b, more, vec![last], span, &mut |rw, _| {
                    let top = rw.lget(b, h, zero, span);
                    rw.lset(b, h, zero, last, span)?;
                    rw.sift_up(b, h, zero, span)?;
                    Ok(vec![top])
                })?;
                out[0]
            }
            HeapOp::Replace => {
                let x = self.coerce(b, args[1], &elem, span)?;
                let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
                self.raise_if(b, empty, "IndexError", "index out of range", span);
                let top = self.lget(b, h, zero, span);
                self.lset(b, h, zero, x, span)?;
                self.sift_up(b, h, zero, span)?;
                top
            }
            HeapOp::PushPop => {
                let x = self.coerce(b, args[1], &elem, span)?;
                let any = self.emit_compare(b, span, CmpOp::Gt, n, zero);
                let out = self.if_values(b, any, vec![x], span, &mut |rw, _| {
                    let top = rw.lget(b, h, zero, span);
                    let smaller = rw.compare_values(b, CmpOp::Lt, top, x, span)?;
                    rw.if_values(b, smaller, vec![x], span, &mut |rw, _| {
                        rw.lset(b, h, zero, x, span)?;
                        rw.sift_up(b, h, zero, span)?;
                        Ok(vec![top])
                    })
                })?;
                out[0]
            }
            HeapOp::Heapify | HeapOp::NLargest | HeapOp::NSmallest => unreachable!("handled above"),
        })
    }

    /// Moves `heap[pos]` up towards `start` past every parent it is smaller than.
    fn sift_down(&mut self, b: Block, h: Value, start: Value, pos: Value, span: Span) -> Result<(), Diagnostic> {
        let item = self.lget(b, h, pos, span);
        let one = self.int(b, 1, span);
        let go = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        let out = self.while_loop(
            b,
            vec![pos, go],
            span,
            &mut |rw, v| {
                let above = rw.emit_compare(b, span, CmpOp::Gt, v[0], start);
                Ok(rw.emit_binary(b, span, BinaryOp::BitAnd, above, v[1]))
            },
            &mut |rw, v| {
                let p = v[0];
                let pm = rw.emit_binary(b, span, BinaryOp::Sub, p, one);
                let parent_pos = rw.emit_binary(b, span, BinaryOp::Shr, pm, one);
                let parent = rw.lget(b, h, parent_pos, span);
                let smaller = rw.compare_values(b, CmpOp::Lt, item, parent, span)?;
                // Where the item stops here, this slot is written with the item after the loop.
                rw.lset(b, h, p, parent, span)?;
                let next = rw.emit_select(b, span, smaller, parent_pos, p);
                Ok(vec![next, smaller])
            },
        )?;
        self.lset(b, h, out[0], item, span)
    }

    /// Moves the smaller child up into the hole at `pos` down to a leaf, puts `heap[pos]`'s
    /// item there and sifts it back up (CPython's `_siftup`).
    fn sift_up(&mut self, b: Block, h: Value, pos: Value, span: Span) -> Result<(), Diagnostic> {
        let end = self.llen(b, h, span);
        let item = self.lget(b, h, pos, span);
        let (one, two) = (self.int(b, 1, span), self.int(b, 2, span));
        let child = |rw: &mut Self, p: Value| {
            let d = rw.emit_binary(b, span, BinaryOp::Mul, p, two);
            rw.emit_binary(b, span, BinaryOp::Add, d, one)
        };
        let first = child(self, pos);
        let out = self.while_loop(
            b,
            vec![pos, first],
            span,
            &mut |rw, v| Ok(rw.emit_compare(b, span, CmpOp::Lt, v[1], end)),
            &mut |rw, v| {
                let (p, c) = (v[0], v[1]);
                let right = rw.emit_binary(b, span, BinaryOp::Add, c, one);
                let has_right = rw.emit_compare(b, span, CmpOp::Lt, right, end);
                let r_safe = rw.emit_select(b, span, has_right, right, c);
                let (left_v, right_v) = (rw.lget(b, h, c, span), rw.lget(b, h, r_safe, span));
                let left_smaller = rw.compare_values(b, CmpOp::Lt, left_v, right_v, span)?;
                let not_left = rw.push(b, InstKind::Unary(UnaryOp::Not, left_smaller), Type::BOOL, span);
                let take_right = rw.emit_binary(b, span, BinaryOp::BitAnd, has_right, not_left);
                let c = rw.emit_select(b, span, take_right, right, c);
                let moved = rw.lget(b, h, c, span);
                rw.lset(b, h, p, moved, span)?;
                let next = child(rw, c);
                Ok(vec![c, next])
            },
        )?;
        self.lset(b, h, out[0], item, span)?;
        self.sift_down(b, h, pos, out[0], span)
    }

    /// `nlargest(n, it)` / `nsmallest(n, it)`: `sorted(it, reverse=...)[:n]`, which is what
    /// the heapq functions return (an empty list for `n <= 0`).
    fn n_extreme(&mut self, b: Block, op: HeapOp, args: &[Value], rt: Type, span: Span) -> Result<Value, Diagnostic> {
        let it = args[1];
        let count = self.coerce(b, args[0], &Type::I64, span)?;
        let m = self.iter_len(b, it, span);
        let l = self.push(b, InstKind::NewList(m), rt, span);
        let zero = self.int(b, 0, span);
        self.fold(b, (zero, m), vec![], span, &mut |rw, k, _| {
            let x = rw.iter_item(b, it, k, span)?;
            rw.lset(b, l, k, x, span)?;
            Ok(vec![])
        })?;
        let rev = self.push(b, InstKind::Const(Const::Bool(op == HeapOp::NLargest)), Type::BOOL, span);
        self.merge_sort(b, l, rev, span)?;
        let neg = self.emit_compare(b, span, CmpOp::Lt, count, zero);
        let count = self.emit_select(b, span, neg, zero, count);
        let more = self.emit_compare(b, span, CmpOp::Lt, count, m);
        let keep = self.emit_select(b, span, more, count, m);
        self.lresize(b, l, keep, span);
        Ok(l)
    }
}
