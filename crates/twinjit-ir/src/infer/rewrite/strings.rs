//! The rewrite of run-time strings ([`Type::String`]): a string is one list of its code points
//! (`int32`), so everything here is the list primitives plus loops, and the interpreter and the
//! host get strings with no code of their own (as dicts). A string known when compiling
//! ([`Type::Str`]) becomes a list where it meets a run-time one ([`Rewriter::points`]).
//!
//! Semantics are Python's (`str.find` and friends adjust their bounds as CPython does, so
//! `"abc".find("", 5)` is -1); `str()` of an integer writes its decimal digits.

use super::*;
use crate::types::CODE_POINT;

fn points_t() -> Type {
    Type::List(Box::new(CODE_POINT))
}

impl<'r> Rewriter<'r> {
    /// Whether the source instruction `kind` computes with run-time strings (typed by
    /// `infer/strings.rs`).
    pub(super) fn is_string_inst(&self, kind: &InstKind) -> bool {
        super::super::strings::runtime_string_type(self.src, kind, &self.types).is_some()
    }

    /// The code points of string `v` (new value, [`Type::Str`] or [`Type::String`]): a
    /// run-time string's own list, or a new list of a constant's.
    pub(super) fn points(&mut self, b: Block, v: Value, span: Span) -> Value {
        match self.ty(v) {
            Type::Str(text) => {
                let chars: Vec<char> = text.chars().collect();
                let n = self.int(b, chars.len() as i64, span);
                let l = self.push(b, InstKind::NewList(n), points_t(), span);
                for (k, c) in chars.into_iter().enumerate() {
                    let at = self.int(b, k as i64, span);
                    let cp = self.konst_of(b, Scalar::Int32, c as u32 as f64, span);
                    self.push_void(b, InstKind::ListSet(l, at, cp), span);
                }
                l
            }
            _ => self.push(b, InstKind::TupleGet(v, 0), points_t(), span),
        }
    }

    /// The run-time string made of the code-point list `l`.
    pub(super) fn string_of(&mut self, b: Block, l: Value, span: Span) -> Value {
        self.push(b, InstKind::MakeTuple(vec![l]), Type::String, span)
    }

    /// A constant string as a run-time one.
    pub(super) fn materialize(&mut self, b: Block, v: Value, span: Span) -> Value {
        let l = self.points(b, v, span);
        self.string_of(b, l, span)
    }

    /// A new list of `n` code points, `elem(k)` each.
    fn build_points(
        &mut self,
        b: Block,
        n: Value,
        span: Span,
        elem: &mut dyn FnMut(&mut Rewriter<'r>, Value) -> Result<Value, Diagnostic>,
    ) -> Result<Value, Diagnostic> {
        self.build_list(b, points_t(), n, span, elem)
    }

    /// The instruction `kind` of the source on run-time strings (see [`Self::is_string_inst`]).
    pub(super) fn string_inst(&mut self, b: Block, kind: &InstKind, span: Span) -> Result<Value, Diagnostic> {
        match kind {
            InstKind::Binary(BinaryOp::Add, x, y) => {
                let (x, y) = (self.val(*x), self.val(*y));
                self.concat(b, &[x, y], span)
            }
            InstKind::Binary(BinaryOp::Mul, x, y) => {
                let (x, y) = (self.val(*x), self.val(*y));
                let (s, n) = if typing::is_string(&self.ty(x)) { (x, y) } else { (y, x) };
                self.repeat(b, s, n, span)
            }
            InstKind::Cast(sc, a) if *sc != Scalar::Bool => {
                let Type::Str(text) = self.types[a.index()].clone() else { unreachable!("typed: a constant string") };
                let c = super::super::strings::parse_number(&text, *sc).expect("checked when typing");
                let v = self.push(b, InstKind::Const(c), if sc.is_float() { Type::F64 } else { Type::I64 }, span);
                self.coerce(b, v, &Type::Scalar(*sc), span)
            }
            InstKind::Compare(op, x, y)
                if typing::is_string(&self.types[x.index()]) != typing::is_string(&self.types[y.index()]) =>
            {
                Ok(self.push(b, InstKind::Const(Const::Bool(*op == CmpOp::Ne)), Type::BOOL, span))
            }
            InstKind::Builtin(Builtin::IterLen, a) if matches!(self.types[a[0].index()], Type::Str(_)) => {
                let Type::Str(text) = self.types[a[0].index()].clone() else { unreachable!("matched") };
                Ok(self.int(b, text.chars().count() as i64, span))
            }
            InstKind::Builtin(Builtin::Len | Builtin::IterLen, a) => {
                let s = self.val(a[0]);
                let p = self.points(b, s, span);
                Ok(self.llen(b, p, span))
            }
            InstKind::Compare(op, x, y) => {
                let (x, y) = (self.val(*x), self.val(*y));
                let (px, py) = (self.points(b, x, span), self.points(b, y, span));
                self.compare_lists(b, *op, px, py, span)
            }
            InstKind::Builtin(Builtin::Contains, a) => {
                let (hay, needle) = (self.val(a[0]), self.val(a[1]));
                let (p, q) = (self.points(b, hay, span), self.points(b, needle, span));
                let zero = self.int(b, 0, span);
                let n = self.llen(b, p, span);
                let at = self.find_sub(b, p, q, (zero, n), false, span)?;
                Ok(self.emit_compare(b, span, CmpOp::Ge, at, zero))
            }
            InstKind::Unary(UnaryOp::Not, a) | InstKind::Cast(Scalar::Bool, a) => {
                let s = self.val(*a);
                let t = self.string_truth(b, s, span);
                Ok(match kind {
                    InstKind::Unary(..) => self.push(b, InstKind::Unary(UnaryOp::Not, t), Type::BOOL, span),
                    _ => t,
                })
            }
            InstKind::GetItem(s, idx) => {
                let (s, i) = (self.val(*s), self.val(idx[0]));
                let p = self.points(b, s, span);
                let k = self.list_position(b, p, i, "string index out of range", span)?;
                let c = self.lget(b, p, k, span);
                let one = self.int(b, 1, span);
                let out = self.build_points(b, one, span, &mut |_, _| Ok(c))?;
                Ok(self.string_of(b, out, span))
            }
            InstKind::Builtin(Builtin::TupleSlice, a) => {
                let s = self.val(a[0]);
                let p = self.points(b, s, span);
                let n = self.llen(b, p, span);
                let bound = |rw: &mut Self, v: Value| -> Result<Option<Value>, Diagnostic> {
                    let v = rw.val(v);
                    Ok(if rw.ty(v) == Type::None { None } else { Some(rw.coerce(b, v, &Type::I64, span)?) })
                };
                let (lo, hi, st) = (bound(self, a[1])?, bound(self, a[2])?, bound(self, a[3])?);
                let (start, len, step) = self.slice_bounds(b, n, lo, hi, st, span);
                let out = self.build_points(b, len, span, &mut |rw, k| {
                    let o = rw.emit_binary(b, span, BinaryOp::Mul, k, step);
                    let i = rw.emit_binary(b, span, BinaryOp::Add, start, o);
                    Ok(rw.lget(b, p, i, span))
                })?;
                Ok(self.string_of(b, out, span))
            }
            InstKind::Builtin(Builtin::StrMethod, a) => {
                let Type::Str(name) = self.types[a[1].index()].clone() else {
                    unreachable!("typed as a run-time string method")
                };
                let recv = self.val(a[0]);
                let args: Vec<Value> = a[2..].iter().map(|v| self.val(*v)).collect();
                self.string_method(b, &name, recv, &args, span)
            }
            InstKind::Builtin(which @ (Builtin::ListCount | Builtin::ListIndex), a) => {
                let name = if *which == Builtin::ListCount { "count" } else { "index" };
                let recv = self.val(a[0]);
                let args: Vec<Value> = a[1..].iter().map(|v| self.val(*v)).collect();
                self.string_method(b, name, recv, &args, span)
            }
            _ => Err(err(span, "internal: not an operation on run-time strings", "here")),
        }
    }

    /// A string is true when it is not empty.
    pub(super) fn string_truth(&mut self, b: Block, s: Value, span: Span) -> Value {
        let p = self.points(b, s, span);
        let n = self.llen(b, p, span);
        let zero = self.int(b, 0, span);
        self.emit_compare(b, span, CmpOp::Ne, n, zero)
    }

    /// The strings `parts` one after the other.
    fn concat(&mut self, b: Block, parts: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let ps: Vec<Value> = parts.iter().map(|&s| self.points(b, s, span)).collect();
        let mut n = self.int(b, 0, span);
        for &p in &ps {
            let k = self.llen(b, p, span);
            n = self.emit_binary(b, span, BinaryOp::Add, n, k);
        }
        let out = self.push(b, InstKind::NewList(n), points_t(), span);
        let mut at = self.int(b, 0, span);
        for &p in &ps {
            let k = self.llen(b, p, span);
            let zero = self.int(b, 0, span);
            self.copy_run(b, (out, at), (p, zero), k, span)?;
            at = self.emit_binary(b, span, BinaryOp::Add, at, k);
        }
        Ok(self.string_of(b, out, span))
    }

    /// `s * n` (empty for `n <= 0`).
    fn repeat(&mut self, b: Block, s: Value, n: Value, span: Span) -> Result<Value, Diagnostic> {
        let p = self.points(b, s, span);
        let m = self.llen(b, p, span);
        let n = self.coerce(b, n, &Type::I64, span)?;
        let zero = self.int(b, 0, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, n, zero);
        let n = self.emit_select(b, span, neg, zero, n);
        let total = self.emit_binary(b, span, BinaryOp::Mul, m, n);
        let out = self.push(b, InstKind::NewList(total), points_t(), span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
            let at = rw.emit_binary(b, span, BinaryOp::Mul, k, m);
            let z = rw.int(b, 0, span);
            rw.copy_run(b, (out, at), (p, z), m, span)?;
            Ok(vec![])
        })?;
        Ok(self.string_of(b, out, span))
    }

    /// Whether `q` occurs in `p` at position `at` (`at + len(q) <= len(p)` is the caller's).
    fn matches_at(&mut self, b: Block, p: Value, q: Value, at: Value, span: Span) -> Result<Value, Diagnostic> {
        let m = self.llen(b, q, span);
        let zero = self.int(b, 0, span);
        let yes = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        let out = self.while_loop(
            b,
            vec![zero, yes],
            span,
            &mut |rw, v| {
                let more = rw.emit_compare(b, span, CmpOp::Lt, v[0], m);
                Ok(rw.emit_binary(b, span, BinaryOp::BitAnd, more, v[1]))
            },
            &mut |rw, v| {
                let i = rw.emit_binary(b, span, BinaryOp::Add, at, v[0]);
                let (x, y) = (rw.lget(b, p, i, span), rw.lget(b, q, v[0], span));
                let same = rw.emit_compare(b, span, CmpOp::Eq, x, y);
                let one = rw.int(b, 1, span);
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], one), same])
            },
        )?;
        Ok(out[1])
    }

    /// The first (or, `reverse`, the last) position in `[start, end - len(q)]` where `q`
    /// occurs in `p`, or -1 (`start`, `end` already adjusted).
    fn find_sub(
        &mut self,
        b: Block,
        p: Value,
        q: Value,
        (start, end): (Value, Value),
        reverse: bool,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let m = self.llen(b, q, span);
        let last = self.emit_binary(b, span, BinaryOp::Sub, end, m);
        let minus1 = self.int(b, -1, span);
        let no = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        let first = if reverse { last } else { start };
        // vars: [position, found]
        let out = self.while_loop(
            b,
            vec![first, no],
            span,
            &mut |rw, v| {
                let inside = if reverse {
                    rw.emit_compare(b, span, CmpOp::Ge, v[0], start)
                } else {
                    rw.emit_compare(b, span, CmpOp::Le, v[0], last)
                };
                let not_found = rw.push(b, InstKind::Unary(UnaryOp::Not, v[1]), Type::BOOL, span);
                Ok(rw.emit_binary(b, span, BinaryOp::BitAnd, inside, not_found))
            },
            &mut |rw, v| {
                let hit = rw.matches_at(b, p, q, v[0], span)?;
                let step = rw.int(b, if reverse { -1 } else { 1 }, span);
                let next = rw.emit_binary(b, span, BinaryOp::Add, v[0], step);
                Ok(vec![rw.emit_select(b, span, hit, v[0], next), hit])
            },
        )?;
        // Not found when the range is empty (`end - start < len(q)`) or nothing matched.
        Ok(self.emit_select(b, span, out[1], out[0], minus1))
    }

    /// CPython's `ADJUST_INDICES` of `str.find`'s optional `start`, `end` (`None` or absent:
    /// 0 and the length): a negative bound counts from the end (at least 0); `end` is at most
    /// the length; `start` may stay past it (so nothing is found).
    fn str_bounds(&mut self, b: Block, n: Value, args: &[Value], span: Span) -> Result<(Value, Value), Diagnostic> {
        let zero = self.int(b, 0, span);
        let adjust = |rw: &mut Self, v: Option<&Value>, default: Value, is_end: bool| -> Result<Value, Diagnostic> {
            let Some(&v) = v.filter(|v| rw.ty(**v) != Type::None) else { return Ok(default) };
            let v = rw.coerce(b, v, &Type::I64, span)?;
            let neg = rw.emit_compare(b, span, CmpOp::Lt, v, zero);
            let plus = rw.emit_binary(b, span, BinaryOp::Add, v, n);
            let below = rw.emit_compare(b, span, CmpOp::Lt, plus, zero);
            let plus = rw.emit_select(b, span, below, zero, plus);
            let v = rw.emit_select(b, span, neg, plus, v);
            Ok(if is_end {
                let above = rw.emit_compare(b, span, CmpOp::Gt, v, n);
                rw.emit_select(b, span, above, n, v)
            } else {
                v
            })
        };
        let start = adjust(self, args.first(), zero, false)?;
        let end = adjust(self, args.get(1), n, true)?;
        Ok((start, end))
    }

    /// `recv.name(args)` on run-time strings (`infer/strings.rs` typed it).
    fn string_method(
        &mut self,
        b: Block,
        name: &str,
        recv: Value,
        args: &[Value],
        span: Span,
    ) -> Result<Value, Diagnostic> {
        if name == "__str__" {
            return match self.ty(recv) {
                Type::String => Ok(recv),
                Type::Scalar(Scalar::Bool) => Ok(self.if_else_make(
                    b,
                    recv,
                    &[Type::String],
                    span,
                    &mut |rw, _| Ok(vec![rw.str_const(b, "True", span)]),
                    &mut |rw, _| Ok(vec![rw.str_const(b, "False", span)]),
                )?[0]),
                _ => self.int_to_string(b, recv, span),
            };
        }
        let p = self.points(b, recv, span);
        let n = self.llen(b, p, span);
        match name {
            "find" | "rfind" | "index" | "rindex" => {
                let q = self.points(b, args[0], span);
                let bounds = self.str_bounds(b, n, &args[1..], span)?;
                let at = self.find_sub(b, p, q, bounds, name.starts_with('r'), span)?;
                if name.ends_with("index") {
                    let zero = self.int(b, 0, span);
                    let missing = self.emit_compare(b, span, CmpOp::Lt, at, zero);
                    self.raise_if(b, missing, "ValueError", "substring not found", span);
                }
                Ok(at)
            }
            "count" => {
                let q = self.points(b, args[0], span);
                let (start, end) = self.str_bounds(b, n, &args[1..], span)?;
                let m = self.llen(b, q, span);
                let last = self.emit_binary(b, span, BinaryOp::Sub, end, m);
                let one = self.int(b, 1, span);
                let zero = self.int(b, 0, span);
                let empty = self.emit_compare(b, span, CmpOp::Eq, m, zero);
                let stride = self.emit_select(b, span, empty, one, m);
                // vars: [position, count]; a match skips past itself (non-overlapping).
                let out = self.while_loop(
                    b,
                    vec![start, zero],
                    span,
                    &mut |rw, v| Ok(rw.emit_compare(b, span, CmpOp::Le, v[0], last)),
                    &mut |rw, v| {
                        let hit = rw.matches_at(b, p, q, v[0], span)?;
                        let one = rw.int(b, 1, span);
                        let skip = rw.emit_select(b, span, hit, stride, one);
                        let inc = rw.emit_binary(b, span, BinaryOp::Add, v[1], one);
                        Ok(vec![
                            rw.emit_binary(b, span, BinaryOp::Add, v[0], skip),
                            rw.emit_select(b, span, hit, inc, v[1]),
                        ])
                    },
                )?;
                Ok(out[1])
            }
            "startswith" | "endswith" if matches!(self.ty(args[0]), Type::Tuple(_)) => {
                // A tuple of prefixes: whether any of them matches.
                let Type::Tuple(ts) = self.ty(args[0]) else { unreachable!("matched") };
                let mut any = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
                for (k, t) in ts.iter().enumerate() {
                    let q = self.push(b, InstKind::TupleGet(args[0], k as u32), t.clone(), span);
                    let mut one = args.to_vec();
                    one[0] = q;
                    let hit = self.string_method(b, name, recv, &one, span)?;
                    any = self.emit_binary(b, span, BinaryOp::BitOr, any, hit);
                }
                Ok(any)
            }
            "startswith" | "endswith" => {
                let q = self.points(b, args[0], span);
                let (start, end) = self.str_bounds(b, n, &args[1..], span)?;
                let m = self.llen(b, q, span);
                let room = self.emit_binary(b, span, BinaryOp::Sub, end, start);
                let fits = self.emit_compare(b, span, CmpOp::Ge, room, m);
                let at = if name == "startswith" { start } else { self.emit_binary(b, span, BinaryOp::Sub, end, m) };
                let out = self.if_else_make(
                    b,
                    fits,
                    &[Type::BOOL],
                    span,
                    &mut |rw, _| Ok(vec![rw.matches_at(b, p, q, at, span)?]),
                    &mut |rw, _| Ok(vec![rw.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span)]),
                )?;
                Ok(out[0])
            }
            "center" | "ljust" | "rjust" | "zfill" => {
                let width = self.coerce(b, args[0], &Type::I64, span)?;
                let fill = match args.get(1) {
                    Some(&f) => {
                        let fp = self.points(b, f, span);
                        let fl = self.llen(b, fp, span);
                        let one = self.int(b, 1, span);
                        let bad = self.emit_compare(b, span, CmpOp::Ne, fl, one);
                        self.raise_if(
                            b,
                            bad,
                            "TypeError",
                            "The fill character must be exactly one character long",
                            span,
                        );
                        let zero = self.int(b, 0, span);
                        self.lget(b, fp, zero, span)
                    }
                    None => self.konst_of(b, Scalar::Int32, if name == "zfill" { 48.0 } else { 32.0 }, span),
                };
                let zero = self.int(b, 0, span);
                let pad = self.emit_binary(b, span, BinaryOp::Sub, width, n);
                let short = self.emit_compare(b, span, CmpOp::Lt, pad, zero);
                let pad = self.emit_select(b, span, short, zero, pad);
                // Padding on the left: CPython's `marg / 2 + (marg & width & 1)` for center.
                let left = match name {
                    "ljust" => zero,
                    "rjust" | "zfill" => pad,
                    _ => {
                        let two = self.int(b, 2, span);
                        let half = self.emit_binary(b, span, BinaryOp::FloorDiv, pad, two);
                        let odd = self.emit_binary(b, span, BinaryOp::BitAnd, pad, width);
                        let one = self.int(b, 1, span);
                        let odd = self.emit_binary(b, span, BinaryOp::BitAnd, odd, one);
                        self.emit_binary(b, span, BinaryOp::Add, half, odd)
                    }
                };
                let total = self.emit_binary(b, span, BinaryOp::Add, n, pad);
                let end = self.emit_binary(b, span, BinaryOp::Add, left, n);
                // zfill keeps a leading sign first: the sign moves to position 0.
                let (sign_at_0, first) = if name == "zfill" {
                    let plus = self.konst_of(b, Scalar::Int32, 43.0, span);
                    let minus = self.konst_of(b, Scalar::Int32, 45.0, span);
                    let nonempty = self.emit_compare(b, span, CmpOp::Gt, n, zero);
                    let out = self.if_else_make(
                        b,
                        nonempty,
                        &[CODE_POINT],
                        span,
                        &mut |rw, _| {
                            let z = rw.int(b, 0, span);
                            Ok(vec![rw.lget(b, p, z, span)])
                        },
                        &mut |rw, _| Ok(vec![rw.konst_of(b, Scalar::Int32, 0.0, span)]),
                    )?;
                    let c = out[0];
                    let (is_p, is_m) = (
                        self.emit_compare(b, span, CmpOp::Eq, c, plus),
                        self.emit_compare(b, span, CmpOp::Eq, c, minus),
                    );
                    let signed = self.emit_binary(b, span, BinaryOp::BitOr, is_p, is_m);
                    let padded = self.emit_compare(b, span, CmpOp::Gt, pad, zero);
                    (Some(self.emit_binary(b, span, BinaryOp::BitAnd, signed, padded)), Some(c))
                } else {
                    (None, None)
                };
                let out = self.build_points(b, total, span, &mut |rw, k| {
                    let before = rw.emit_compare(b, span, CmpOp::Lt, k, left);
                    let after = rw.emit_compare(b, span, CmpOp::Ge, k, end);
                    let outside = rw.emit_binary(b, span, BinaryOp::BitOr, before, after);
                    let i = rw.emit_binary(b, span, BinaryOp::Sub, k, left);
                    let i = rw.emit_select(b, span, outside, zero, i);
                    // Reading element 0 of an empty string is avoided: `outside` holds there.
                    let nonempty = rw.emit_compare(b, span, CmpOp::Gt, n, zero);
                    let c = rw.if_else_make(
                        b,
                        nonempty,
                        &[CODE_POINT],
                        span,
                        &mut |rw, _| Ok(vec![rw.lget(b, p, i, span)]),
                        &mut |_, _| Ok(vec![fill]),
                    )?[0];
                    let mut c = rw.emit_select(b, span, outside, fill, c);
                    if let (Some(s0), Some(first)) = (sign_at_0, first) {
                        // With a sign: position 0 is the sign, the sign's own place a zero.
                        let at0 = rw.emit_compare(b, span, CmpOp::Eq, k, zero);
                        let at_sign = rw.emit_compare(b, span, CmpOp::Eq, k, left);
                        let c1 = rw.emit_select(b, span, at_sign, fill, c);
                        let c2 = rw.emit_select(b, span, at0, first, c1);
                        c = rw.emit_select(b, span, s0, c2, c);
                    }
                    Ok(c)
                })?;
                Ok(self.string_of(b, out, span))
            }
            "join" => self.join(b, p, args[0], span),
            "strip" | "lstrip" | "rstrip" => {
                let chars = match args.first() {
                    Some(&c) if typing::is_string(&self.ty(c)) => Some(self.points(b, c, span)),
                    _ => None,
                };
                let zero = self.int(b, 0, span);
                let one = self.int(b, 1, span);
                let start = if name != "rstrip" {
                    self.while_loop(
                        b,
                        vec![zero],
                        span,
                        &mut |rw, v| {
                            let inside = rw.emit_compare(b, span, CmpOp::Lt, v[0], n);
                            rw.and_then(b, inside, span, &mut |rw| {
                                let c = rw.lget(b, p, v[0], span);
                                rw.strips(b, chars, c, span)
                            })
                        },
                        &mut |rw, v| Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], one)]),
                    )?[0]
                } else {
                    zero
                };
                let end = if name != "lstrip" {
                    self.while_loop(
                        b,
                        vec![n],
                        span,
                        &mut |rw, v| {
                            let inside = rw.emit_compare(b, span, CmpOp::Gt, v[0], start);
                            rw.and_then(b, inside, span, &mut |rw| {
                                let k = rw.emit_binary(b, span, BinaryOp::Sub, v[0], one);
                                let c = rw.lget(b, p, k, span);
                                rw.strips(b, chars, c, span)
                            })
                        },
                        &mut |rw, v| Ok(vec![rw.emit_binary(b, span, BinaryOp::Sub, v[0], one)]),
                    )?[0]
                } else {
                    n
                };
                self.substring(b, p, start, end, span)
            }
            "isspace" => {
                let zero = self.int(b, 0, span);
                let yes = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
                let all = self.fold(b, (zero, n), vec![yes], span, &mut |rw, k, v| {
                    let c = rw.lget(b, p, k, span);
                    let sp = rw.is_space(b, c, span)?;
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::BitAnd, v[0], sp)])
                })?[0];
                let nonempty = self.emit_compare(b, span, CmpOp::Gt, n, zero);
                Ok(self.emit_binary(b, span, BinaryOp::BitAnd, nonempty, all))
            }
            "split" => self.split(b, p, args, span),
            "replace" => self.replace(b, p, args, span),
            other => Err(err(span, format!("internal: str.{other}() at run time"), "here")),
        }
    }

    /// `cond and then()`, `then` run only when `cond` holds.
    fn and_then(
        &mut self,
        b: Block,
        cond: Value,
        span: Span,
        then: &mut dyn FnMut(&mut Rewriter<'r>) -> Result<Value, Diagnostic>,
    ) -> Result<Value, Diagnostic> {
        Ok(self.if_else_make(b, cond, &[Type::BOOL], span, &mut |rw, _| Ok(vec![then(rw)?]), &mut |rw, _| {
            Ok(vec![rw.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span)])
        })?[0])
    }

    /// Whether `strip` removes code point `c`: one of `chars`, or whitespace without them.
    fn strips(&mut self, b: Block, chars: Option<Value>, c: Value, span: Span) -> Result<Value, Diagnostic> {
        match chars {
            Some(set) => {
                let zero = self.int(b, 0, span);
                let m = self.llen(b, set, span);
                let at = self.find_in(b, set, c, (zero, m), span)?;
                Ok(self.emit_compare(b, span, CmpOp::Ge, at, zero))
            }
            None => self.is_space(b, c, span),
        }
    }

    /// Whether `count` splits or replacements leave room for another under `limit` (negative:
    /// no limit).
    fn under_limit(&mut self, b: Block, limit: Value, count: Value, span: Span) -> Value {
        let z = self.int(b, 0, span);
        let unlimited = self.emit_compare(b, span, CmpOp::Lt, limit, z);
        let under = self.emit_compare(b, span, CmpOp::Lt, count, limit);
        self.emit_binary(b, span, BinaryOp::BitOr, unlimited, under)
    }

    /// Whether code point `c` is whitespace, as Python's `str.isspace` says (its full list).
    fn is_space(&mut self, b: Block, c: Value, span: Span) -> Result<Value, Diagnostic> {
        const SPACES: &[(i64, i64)] = &[
            (9, 13),
            (28, 32),
            (133, 133),
            (160, 160),
            (5760, 5760),
            (8192, 8202),
            (8232, 8233),
            (8239, 8239),
            (8287, 8287),
            (12288, 12288),
        ];
        let c = self.coerce(b, c, &Type::I64, span)?;
        let mut acc = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        for &(lo, hi) in SPACES {
            let (l, h) = (self.int(b, lo, span), self.int(b, hi, span));
            let above = self.emit_compare(b, span, CmpOp::Ge, c, l);
            let below = self.emit_compare(b, span, CmpOp::Le, c, h);
            let inside = self.emit_binary(b, span, BinaryOp::BitAnd, above, below);
            acc = self.emit_binary(b, span, BinaryOp::BitOr, acc, inside);
        }
        Ok(acc)
    }

    /// The run-time string of `p[from..to]`.
    fn substring(&mut self, b: Block, p: Value, from: Value, to: Value, span: Span) -> Result<Value, Diagnostic> {
        let n = self.emit_binary(b, span, BinaryOp::Sub, to, from);
        let out = self.build_points(b, n, span, &mut |rw, k| {
            let i = rw.emit_binary(b, span, BinaryOp::Add, from, k);
            Ok(rw.lget(b, p, i, span))
        })?;
        Ok(self.string_of(b, out, span))
    }

    /// Appends `x` to list `l` (grown by one).
    fn append_to(&mut self, b: Block, l: Value, x: Value, span: Span) -> Result<(), Diagnostic> {
        let n = self.llen(b, l, span);
        let one = self.int(b, 1, span);
        let n1 = self.emit_binary(b, span, BinaryOp::Add, n, one);
        self.lresize(b, l, n1, span);
        self.lset(b, l, n, x, span)
    }

    /// `s.split(sep=None, maxsplit=-1)`: on runs of whitespace without `sep` (no empty
    /// pieces), else on each `sep` (`ValueError` for an empty one); at most `maxsplit` splits.
    fn split(&mut self, b: Block, p: Value, args: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let n = self.llen(b, p, span);
        let zero = self.int(b, 0, span);
        let out = self.push(b, InstKind::NewList(zero), Type::List(Box::new(Type::String)), span);
        let maxsplit = match args.get(1) {
            Some(&m) => self.coerce(b, m, &Type::I64, span)?,
            None => self.int(b, -1, span),
        };
        // Whether another split is allowed after `count` of them.
        let allowed = |rw: &mut Self, count: Value| rw.under_limit(b, maxsplit, count, span);
        let sep = args.first().copied().filter(|&v| typing::is_string(&self.ty(v)));
        match sep {
            None => {
                // vars: [the current piece's start or -1, splits made]
                let minus1 = self.int(b, -1, span);
                let v = self.fold(b, (zero, n), vec![minus1, zero], span, &mut |rw, k, v| {
                    let c = rw.lget(b, p, k, span);
                    let sp = rw.is_space(b, c, span)?;
                    let z = rw.int(b, 0, span);
                    let in_piece = rw.emit_compare(b, span, CmpOp::Ge, v[0], z);
                    let ok = allowed(rw, v[1]);
                    let close = rw.emit_binary(b, span, BinaryOp::BitAnd, in_piece, sp);
                    let close = rw.emit_binary(b, span, BinaryOp::BitAnd, close, ok);
                    let after = rw.if_else_values(
                        b,
                        close,
                        vec![v[0], v[1]],
                        span,
                        &mut |rw, w| {
                            let piece = rw.substring(b, p, w[0], k, span)?;
                            rw.append_to(b, out, piece, span)?;
                            let m1 = rw.int(b, -1, span);
                            let one = rw.int(b, 1, span);
                            Ok(vec![m1, rw.emit_binary(b, span, BinaryOp::Add, w[1], one)])
                        },
                        &mut |_, w| Ok(w.to_vec()),
                    )?;
                    // A piece starts at a non-space outside a piece.
                    let z = rw.int(b, 0, span);
                    let outside = rw.emit_compare(b, span, CmpOp::Lt, after[0], z);
                    let not_sp = rw.push(b, InstKind::Unary(UnaryOp::Not, sp), Type::BOOL, span);
                    let opens = rw.emit_binary(b, span, BinaryOp::BitAnd, outside, not_sp);
                    Ok(vec![rw.emit_select(b, span, opens, k, after[0]), after[1]])
                })?;
                let open = self.emit_compare(b, span, CmpOp::Ge, v[0], zero);
                self.if_values(b, open, vec![], span, &mut |rw, _| {
                    let piece = rw.substring(b, p, v[0], n, span)?;
                    rw.append_to(b, out, piece, span)?;
                    Ok(vec![])
                })?;
            }
            Some(sep) => {
                let q = self.points(b, sep, span);
                let m = self.llen(b, q, span);
                let empty = self.emit_compare(b, span, CmpOp::Eq, m, zero);
                self.raise_if(b, empty, "ValueError", "empty separator", span);
                let last = self.emit_binary(b, span, BinaryOp::Sub, n, m);
                // vars: [scan position, current piece's start, splits made]
                let v = self.while_loop(
                    b,
                    vec![zero, zero, zero],
                    span,
                    &mut |rw, v| Ok(rw.emit_compare(b, span, CmpOp::Le, v[0], last)),
                    &mut |rw, v| {
                        let ok = allowed(rw, v[2]);
                        let hit = rw.and_then(b, ok, span, &mut |rw| rw.matches_at(b, p, q, v[0], span))?;
                        rw.if_else_values(
                            b,
                            hit,
                            vec![v[0], v[1], v[2]],
                            span,
                            &mut |rw, w| {
                                let piece = rw.substring(b, p, w[1], w[0], span)?;
                                rw.append_to(b, out, piece, span)?;
                                let next = rw.emit_binary(b, span, BinaryOp::Add, w[0], m);
                                let one = rw.int(b, 1, span);
                                Ok(vec![next, next, rw.emit_binary(b, span, BinaryOp::Add, w[2], one)])
                            },
                            &mut |rw, w| {
                                let one = rw.int(b, 1, span);
                                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, w[0], one), w[1], w[2]])
                            },
                        )
                    },
                )?;
                let piece = self.substring(b, p, v[1], n, span)?;
                self.append_to(b, out, piece, span)?;
            }
        }
        Ok(out)
    }

    /// `s.replace(old, new[, count])`: each non-overlapping `old` from the left (at most
    /// `count`, all when negative) becomes `new`; an empty `old` puts `new` before every
    /// character and at the end.
    fn replace(&mut self, b: Block, p: Value, args: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let (q, r) = (self.points(b, args[0], span), self.points(b, args[1], span));
        let n = self.llen(b, p, span);
        let (m, rl) = (self.llen(b, q, span), self.llen(b, r, span));
        let zero = self.int(b, 0, span);
        let limit = match args.get(2) {
            Some(&c) => self.coerce(b, c, &Type::I64, span)?,
            None => self.int(b, -1, span),
        };
        let out = self.push(b, InstKind::NewList(zero), points_t(), span);
        let allowed = |rw: &mut Self, count: Value| rw.under_limit(b, limit, count, span);
        let push_new = |rw: &mut Self| -> Result<(), Diagnostic> {
            let z = rw.int(b, 0, span);
            rw.fold(b, (z, rl), vec![], span, &mut |rw, k, _| {
                let c = rw.lget(b, r, k, span);
                rw.append_to(b, out, c, span)?;
                Ok(vec![])
            })?;
            Ok(())
        };
        let empty_old = self.emit_compare(b, span, CmpOp::Eq, m, zero);
        let last = self.emit_binary(b, span, BinaryOp::Sub, n, m);
        let push_new = std::cell::RefCell::new(push_new);
        self.if_else_values(
            b,
            empty_old,
            vec![],
            span,
            &mut |rw, _| {
                // `new` before each character (and at the end), while the count allows.
                let z = rw.int(b, 0, span);
                let one = rw.int(b, 1, span);
                let n1 = rw.emit_binary(b, span, BinaryOp::Add, n, one);
                rw.fold(b, (z, n1), vec![], span, &mut |rw, k, _| {
                    let ok = allowed(rw, k);
                    rw.if_values(b, ok, vec![], span, &mut |rw, _| {
                        (push_new.borrow_mut())(rw)?;
                        Ok(vec![])
                    })?;
                    let inside = rw.emit_compare(b, span, CmpOp::Lt, k, n);
                    rw.if_values(b, inside, vec![], span, &mut |rw, _| {
                        let c = rw.lget(b, p, k, span);
                        rw.append_to(b, out, c, span)?;
                        Ok(vec![])
                    })?;
                    Ok(vec![])
                })?;
                Ok(vec![])
            },
            &mut |rw, _| {
                let z = rw.int(b, 0, span);
                // vars: [position, replacements made]
                rw.while_loop(
                    b,
                    vec![z, z],
                    span,
                    &mut |rw, v| Ok(rw.emit_compare(b, span, CmpOp::Lt, v[0], n)),
                    &mut |rw, v| {
                        let ok = allowed(rw, v[1]);
                        let fits = rw.emit_compare(b, span, CmpOp::Le, v[0], last);
                        let ok = rw.emit_binary(b, span, BinaryOp::BitAnd, ok, fits);
                        let hit = rw.and_then(b, ok, span, &mut |rw| rw.matches_at(b, p, q, v[0], span))?;
                        rw.if_else_values(
                            b,
                            hit,
                            vec![v[0], v[1]],
                            span,
                            &mut |rw, w| {
                                (push_new.borrow_mut())(rw)?;
                                let one = rw.int(b, 1, span);
                                Ok(vec![
                                    rw.emit_binary(b, span, BinaryOp::Add, w[0], m),
                                    rw.emit_binary(b, span, BinaryOp::Add, w[1], one),
                                ])
                            },
                            &mut |rw, w| {
                                let c = rw.lget(b, p, w[0], span);
                                rw.append_to(b, out, c, span)?;
                                let one = rw.int(b, 1, span);
                                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, w[0], one), w[1]])
                            },
                        )
                    },
                )?;
                Ok(vec![])
            },
        )?;
        Ok(self.string_of(b, out, span))
    }

    /// A string constant as a run-time string.
    fn str_const(&mut self, b: Block, text: &str, span: Span) -> Value {
        let c = self.push(b, InstKind::Const(Const::Str(crate::intern(text))), Type::Str(text.into()), span);
        self.materialize(b, c, span)
    }

    /// `sep.join(items)` of a list of strings or a tuple of strings.
    fn join(&mut self, b: Block, sep: Value, items: Value, span: Span) -> Result<Value, Diagnostic> {
        let sep_s = self.string_of(b, sep, span);
        match self.ty(items) {
            // A string's characters, the separator between each two.
            t if typing::is_string(&t) => {
                let p = self.points(b, items, span);
                let k = self.llen(b, p, span);
                let m = self.llen(b, sep, span);
                let zero = self.int(b, 0, span);
                let one = self.int(b, 1, span);
                let gaps = self.emit_binary(b, span, BinaryOp::Sub, k, one);
                let empty = self.emit_compare(b, span, CmpOp::Lt, gaps, zero);
                let gaps = self.emit_select(b, span, empty, zero, gaps);
                let sep_total = self.emit_binary(b, span, BinaryOp::Mul, gaps, m);
                let total = self.emit_binary(b, span, BinaryOp::Add, k, sep_total);
                let out = self.push(b, InstKind::NewList(total), points_t(), span);
                let stride = self.emit_binary(b, span, BinaryOp::Add, m, one);
                self.fold(b, (zero, k), vec![], span, &mut |rw, i, _| {
                    let at = rw.emit_binary(b, span, BinaryOp::Mul, i, stride);
                    let c = rw.lget(b, p, i, span);
                    rw.push_void(b, InstKind::ListSet(out, at, c), span);
                    let last = rw.emit_compare(b, span, CmpOp::Eq, i, gaps);
                    let more = rw.push(b, InstKind::Unary(UnaryOp::Not, last), Type::BOOL, span);
                    rw.if_values(b, more, vec![], span, &mut |rw, _| {
                        let one = rw.int(b, 1, span);
                        let next = rw.emit_binary(b, span, BinaryOp::Add, at, one);
                        let z = rw.int(b, 0, span);
                        rw.copy_run(b, (out, next), (sep, z), m, span)?;
                        Ok(vec![])
                    })?;
                    Ok(vec![])
                })?;
                Ok(self.string_of(b, out, span))
            }
            Type::Tuple(ts) => {
                let mut parts = Vec::new();
                for (k, t) in ts.iter().enumerate() {
                    if k > 0 {
                        parts.push(sep_s);
                    }
                    parts.push(self.push(b, InstKind::TupleGet(items, k as u32), t.clone(), span));
                }
                if parts.is_empty() {
                    let zero = self.int(b, 0, span);
                    let l = self.push(b, InstKind::NewList(zero), points_t(), span);
                    return Ok(self.string_of(b, l, span));
                }
                self.concat(b, &parts, span)
            }
            _ => {
                // Two passes over the list: the total length, then the copies.
                let k = self.llen(b, items, span);
                let zero = self.int(b, 0, span);
                let m = self.llen(b, sep, span);
                let total = self.fold(b, (zero, k), vec![zero], span, &mut |rw, i, v| {
                    let s = rw.lget(b, items, i, span);
                    let p = rw.points(b, s, span);
                    let n = rw.llen(b, p, span);
                    let z = rw.int(b, 0, span);
                    let first = rw.emit_compare(b, span, CmpOp::Eq, i, z);
                    let gap = rw.emit_select(b, span, first, z, m);
                    let t = rw.emit_binary(b, span, BinaryOp::Add, v[0], n);
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, t, gap)])
                })?[0];
                let out = self.push(b, InstKind::NewList(total), points_t(), span);
                self.fold(b, (zero, k), vec![zero], span, &mut |rw, i, v| {
                    let z = rw.int(b, 0, span);
                    let first = rw.emit_compare(b, span, CmpOp::Eq, i, z);
                    let at =
                        rw.if_else_make(b, first, &[Type::I64], span, &mut |_, _| Ok(vec![v[0]]), &mut |rw, _| {
                            let z = rw.int(b, 0, span);
                            rw.copy_run(b, (out, v[0]), (sep, z), m, span)?;
                            Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], m)])
                        })?[0];
                    let s = rw.lget(b, items, i, span);
                    let p = rw.points(b, s, span);
                    let n = rw.llen(b, p, span);
                    rw.copy_run(b, (out, at), (p, z), n, span)?;
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, at, n)])
                })?;
                Ok(self.string_of(b, out, span))
            }
        }
    }

    /// `str(x)` of an integer: its decimal digits, `-` first when negative. The digits come
    /// from the non-positive `-|x|`, which holds every int64 (`i64::MIN` included).
    fn int_to_string(&mut self, b: Block, x: Value, span: Span) -> Result<Value, Diagnostic> {
        let t = self.ty(x).scalar().expect("typed as an integer");
        let wide = if t.is_unsigned() && t.bits() == 64 { Type::U64 } else { Type::I64 };
        let x = self.coerce(b, x, &wide, span)?;
        if wide == Type::U64 {
            // A uint64 above int64's range: its digits by unsigned division.
            return self.unsigned_to_string(b, x, span);
        }
        let zero = self.int(b, 0, span);
        let neg = self.emit_compare(b, span, CmpOp::Lt, x, zero);
        let minus_x = self.emit_binary(b, span, BinaryOp::Sub, zero, x);
        let m = self.emit_select(b, span, neg, x, minus_x);
        let ten = self.int(b, -10, span);
        // The number of digits (at least one).
        let one = self.int(b, 1, span);
        let digits = self.while_loop(
            b,
            vec![m, one],
            span,
            &mut |rw, v| {
                let nine = rw.int(b, -9, span);
                Ok(rw.emit_compare(b, span, CmpOp::Lt, v[0], nine))
            },
            &mut |rw, v| {
                let q = rw.emit_binary(b, span, BinaryOp::FloorDiv, v[0], ten);
                let z = rw.int(b, 0, span);
                let q = rw.emit_binary(b, span, BinaryOp::Sub, z, q);
                let one = rw.int(b, 1, span);
                Ok(vec![q, rw.emit_binary(b, span, BinaryOp::Add, v[1], one)])
            },
        )?[1];
        let sign = self.push(b, InstKind::Cast(Scalar::Int64, neg), Type::I64, span);
        let total = self.emit_binary(b, span, BinaryOp::Add, digits, sign);
        let out = self.push(b, InstKind::NewList(total), points_t(), span);
        let minus = self.konst_of(b, Scalar::Int32, 45.0, span);
        self.if_values(b, neg, vec![], span, &mut |rw, _| {
            let z = rw.int(b, 0, span);
            rw.push_void(b, InstKind::ListSet(out, z, minus), span);
            Ok(vec![])
        })?;
        // Digits from the last position down.
        let last = self.emit_binary(b, span, BinaryOp::Sub, total, one);
        self.fold(b, (zero, digits), vec![m], span, &mut |rw, k, v| {
            let r = rw.emit_binary(b, span, BinaryOp::Mod, v[0], ten);
            let z = rw.int(b, 0, span);
            let d = rw.emit_binary(b, span, BinaryOp::Sub, z, r);
            let forty8 = rw.int(b, 48, span);
            let c = rw.emit_binary(b, span, BinaryOp::Add, d, forty8);
            let c = rw.push(b, InstKind::Cast(Scalar::Int32, c), CODE_POINT, span);
            let at = rw.emit_binary(b, span, BinaryOp::Sub, last, k);
            rw.push_void(b, InstKind::ListSet(out, at, c), span);
            let q = rw.emit_binary(b, span, BinaryOp::FloorDiv, v[0], ten);
            Ok(vec![rw.emit_binary(b, span, BinaryOp::Sub, z, q)])
        })?;
        Ok(self.string_of(b, out, span))
    }

    fn unsigned_to_string(&mut self, b: Block, x: Value, span: Span) -> Result<Value, Diagnostic> {
        let ten = self.konst_of(b, Scalar::UInt64, 10.0, span);
        let nine = self.konst_of(b, Scalar::UInt64, 9.0, span);
        let one = self.int(b, 1, span);
        let digits = self.while_loop(
            b,
            vec![x, one],
            span,
            &mut |rw, v| Ok(rw.emit_compare(b, span, CmpOp::Gt, v[0], nine)),
            &mut |rw, v| {
                let q = rw.emit_binary(b, span, BinaryOp::FloorDiv, v[0], ten);
                let one = rw.int(b, 1, span);
                Ok(vec![q, rw.emit_binary(b, span, BinaryOp::Add, v[1], one)])
            },
        )?[1];
        let out = self.push(b, InstKind::NewList(digits), points_t(), span);
        let zero = self.int(b, 0, span);
        let last = self.emit_binary(b, span, BinaryOp::Sub, digits, one);
        self.fold(b, (zero, digits), vec![x], span, &mut |rw, k, v| {
            let r = rw.emit_binary(b, span, BinaryOp::Mod, v[0], ten);
            let r = rw.push(b, InstKind::Cast(Scalar::Int32, r), CODE_POINT, span);
            let forty8 = rw.konst_of(b, Scalar::Int32, 48.0, span);
            let c = rw.emit_binary(b, span, BinaryOp::Add, r, forty8);
            let at = rw.emit_binary(b, span, BinaryOp::Sub, last, k);
            rw.push_void(b, InstKind::ListSet(out, at, c), span);
            Ok(vec![rw.emit_binary(b, span, BinaryOp::FloorDiv, v[0], ten)])
        })?;
        Ok(self.string_of(b, out, span))
    }

    /// `print` of a run-time string: its UTF-8 bytes, one code point per `print_bytes`
    /// (quoted with `repr`, as inside a list or tuple).
    pub(super) fn print_string(&mut self, b: Block, s: Value, repr: bool, span: Span) -> Result<Value, Diagnostic> {
        if repr {
            self.print_text(b, "'", span);
        }
        let p = self.points(b, s, span);
        let n = self.llen(b, p, span);
        let zero = self.int(b, 0, span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, k, _| {
            let c = rw.lget(b, p, k, span);
            let c = rw.coerce(b, c, &Type::I64, span)?;
            let (bits, len) = rw.utf8_bits(b, c, span);
            rw.push(b, InstKind::Builtin(Builtin::PrintBytes, vec![bits, len]), Type::I64, span);
            Ok(vec![])
        })?;
        Ok(if repr { self.print_text(b, "'", span) } else { self.int(b, 0, span) })
    }

    /// The UTF-8 bytes of code point `c` (int64) packed little-endian, and how many.
    fn utf8_bits(&mut self, b: Block, c: Value, span: Span) -> (Value, Value) {
        // Code points below 0x80 are their one byte; below `limit`, `len` bytes: the lead byte
        // (`lead` over the top bits), then six bits per continuation byte (`10xxxxxx`).
        let mut encodings = Vec::new();
        for (len, lead, limit) in [(2i64, 0xc0i64, 0x800i64), (3, 0xe0, 0x10000), (4, 0xf0, i64::MAX)] {
            let mut word = None;
            for k in 0..len {
                let shift = self.int(b, 6 * (len - 1 - k), span);
                let part = self.emit_binary(b, span, BinaryOp::Shr, c, shift);
                let byte = if k == 0 {
                    let lead = self.int(b, lead, span);
                    self.emit_binary(b, span, BinaryOp::BitOr, part, lead)
                } else {
                    let m = self.int(b, 0x3f, span);
                    let low = self.emit_binary(b, span, BinaryOp::BitAnd, part, m);
                    let top = self.int(b, 0x80, span);
                    self.emit_binary(b, span, BinaryOp::BitOr, low, top)
                };
                let at = self.int(b, 8 * k, span);
                let byte = self.emit_binary(b, span, BinaryOp::Shl, byte, at);
                word = Some(match word {
                    Some(w) => self.emit_binary(b, span, BinaryOp::BitOr, w, byte),
                    None => byte,
                });
            }
            encodings.push((len, limit, word.expect("at least one byte")));
        }
        // From the longest down: each shorter encoding replaces it below its limit.
        let (l4, _, four) = encodings[2];
        let (mut chosen, mut count) = (four, self.int(b, l4, span));
        for &(len, limit, word) in encodings[..2].iter().rev() {
            let lim = self.int(b, limit, span);
            let fits = self.emit_compare(b, span, CmpOp::Lt, c, lim);
            chosen = self.emit_select(b, span, fits, word, chosen);
            let l = self.int(b, len, span);
            count = self.emit_select(b, span, fits, l, count);
        }
        let ascii = self.int(b, 0x80, span);
        let single = self.emit_compare(b, span, CmpOp::Lt, c, ascii);
        let one = self.int(b, 1, span);
        (self.emit_select(b, span, single, c, chosen), self.emit_select(b, span, single, one, count))
    }

    /// A hash of a string for dict keys: CPython's tuple mixing over the code points.
    pub(super) fn string_hash(&mut self, b: Block, s: Value, span: Span) -> Result<Value, Diagnostic> {
        let p = self.points(b, s, span);
        let n = self.llen(b, p, span);
        let zero = self.int(b, 0, span);
        let seed = self.int(b, 0x345678, span);
        Ok(self.fold(b, (zero, n), vec![seed], span, &mut |rw, k, v| {
            let c = rw.lget(b, p, k, span);
            let c = rw.coerce(b, c, &Type::I64, span)?;
            let m = rw.int(b, 1_000_003, span);
            let h = rw.emit_binary(b, span, BinaryOp::Mul, v[0], m);
            Ok(vec![rw.emit_binary(b, span, BinaryOp::BitXor, h, c)])
        })?[0])
    }
}
