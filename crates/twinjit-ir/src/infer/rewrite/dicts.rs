//! The rewrite of dicts (Numba's typed dict in nopython code): literals, item access and
//! assignment, `in`, `len`, `del`, `get`, `pop`, `setdefault`, `update`, `clear`, `copy`,
//! `keys`/`values`/`items` and iteration.
//!
//! A dict is four lists (`Type::Dict`): the keys, the values and each entry's hash, in
//! insertion order (an entry deleted keeps its place, its hash set to -1), and the hash table:
//! element 0 the number of live entries, then a power-of-two number of slots, each 0 (empty,
//! as a new list element is) or an entry's index plus one, probed from the key's hash in
//! CPython's perturbed sequence. Everything is the list primitives plus loops built here, so
//! the interpreter and the host get dicts with no code of their own. A dict iterates in
//! insertion order, as Python's and Numba's; the table is rebuilt (and deleted entries
//! dropped) when the entries would fill two thirds of it. A set (`Type::Set`) is the same four
//! lists with `bool` values, iterated in the table's slot order.

use super::*;
use crate::builtins::{DictOp, ListOp};

/// What [`Rewriter::each_live`] does with a live entry: (entry, key, value, live entries
/// before it).
type LiveBody<'b, 'r> = dyn FnMut(&mut Rewriter<'r>, Value, Value, Value, Value) -> Result<(), Diagnostic> + 'b;

/// Slots of a new dict's table.
const FIRST_SLOTS: i64 = 8;

/// Where a key is in a dict or a set ([`Rewriter::dict_lookup`]).
#[derive(Clone, Copy)]
struct Lookup {
    p: Parts,
    /// The key, converted to the key type.
    key: Value,
    h: Value,
    /// Its entry, or -1.
    e: Value,
    /// `e >= 0`
    found: Value,
}

/// The four lists of a dict value.
#[derive(Clone, Copy)]
struct Parts {
    keys: Value,
    vals: Value,
    hashes: Value,
    table: Value,
}

impl<'r> Rewriter<'r> {
    fn dict_parts(&mut self, b: Block, d: Value, span: Span) -> Parts {
        let (k, v) = self.dict_types(d);
        let ts = crate::types::dict_lists(&k, &v);
        let mut get = |i: u32| self.push(b, InstKind::TupleGet(d, i), ts[i as usize].clone(), span);
        Parts { keys: get(0), vals: get(1), hashes: get(2), table: get(3) }
    }

    /// The key and value types of a dict; of a set, its element type and `bool`.
    pub(super) fn dict_types(&self, d: Value) -> (Type, Type) {
        match self.ty(d) {
            Type::Dict(k, v) => (*k, *v),
            Type::Set(k) => (*k, Type::BOOL),
            _ => unreachable!("a dict or a set"),
        }
    }

    /// A new empty dict of type `t` (its table of `FIRST_SLOTS` empty slots).
    fn dict_new(&mut self, b: Block, t: Type, span: Span) -> Result<Value, Diagnostic> {
        let (k, v) = match &t {
            Type::Dict(k, v) => (&**k, &**v),
            Type::Set(k) => (&**k, &Type::BOOL),
            _ => unreachable!("a dict or set type"),
        };
        if !t.is_known() {
            if matches!(t, Type::Set(_)) {
                return Err(err(span, "cannot infer the type of this set's elements", "empty set")
                    .with_hint("Numba needs to see what an empty set receives: add to it in this function"));
            }
            return Err(err(span, "cannot infer the key and value types of this dict", "empty dict").with_hint(
                "Numba needs to see what an empty dict receives: assign an item in this function, or use Dict.empty(key_type=..., value_type=...)",
            ));
        }
        typing::check_dict_key_type(k).map_err(|e| e.at(span))?;
        let ts = crate::types::dict_lists(k, v);
        let zero = self.int(b, 0, span);
        let keys = self.push(b, InstKind::NewList(zero), ts[0].clone(), span);
        let vals = self.push(b, InstKind::NewList(zero), ts[1].clone(), span);
        let hashes = self.push(b, InstKind::NewList(zero), ts[2].clone(), span);
        // New elements are zeros: no live entry, every slot empty.
        let n = self.int(b, 1 + FIRST_SLOTS, span);
        let table = self.push(b, InstKind::NewList(n), ts[3].clone(), span);
        Ok(self.push(b, InstKind::MakeTuple(vec![keys, vals, hashes, table]), t, span))
    }

    /// A non-negative int64 hash of `x` (of a key type: numbers, bools, tuples of them).
    /// Equal keys hash alike (`-0.0` as `0.0`); NaN never equals itself, so never matches.
    fn key_hash(&mut self, b: Block, x: Value, span: Span) -> Result<Value, Diagnostic> {
        let h = self.key_mix(b, x, span)?;
        let m = self.int(b, i64::MAX, span);
        Ok(self.emit_binary(b, span, BinaryOp::BitAnd, h, m))
    }

    fn key_mix(&mut self, b: Block, x: Value, span: Span) -> Result<Value, Diagnostic> {
        match self.ty(x) {
            Type::Tuple(ts) => {
                let mut h = self.int(b, 0x345678, span);
                for (i, t) in ts.iter().enumerate() {
                    let e = self.push(b, InstKind::TupleGet(x, i as u32), t.clone(), span);
                    let eh = self.key_mix(b, e, span)?;
                    let k = self.int(b, 1_000_003, span);
                    let p = self.emit_binary(b, span, BinaryOp::Mul, h, k);
                    h = self.emit_binary(b, span, BinaryOp::BitXor, p, eh);
                }
                Ok(h)
            }
            Type::Scalar(s) if s.is_complex() => {
                let (re, im) = self.cparts(b, x, span);
                let (hr, hi) = (self.key_mix(b, re, span)?, self.key_mix(b, im, span)?);
                let k = self.int(b, 1_000_003, span);
                let p = self.emit_binary(b, span, BinaryOp::Mul, hi, k);
                Ok(self.emit_binary(b, span, BinaryOp::BitXor, hr, p))
            }
            Type::Scalar(s) if s.is_float() => {
                // The integer part and 32 bits of the fraction (saturating; NaN is 0).
                let x = self.coerce(b, x, &Type::F64, span)?;
                let whole = self.push(b, InstKind::Cast(Scalar::Int64, x), Type::I64, span);
                let f = self.push(b, InstKind::Const(Const::Float(4294967296.0)), Type::F64, span);
                let xs = self.emit_binary(b, span, BinaryOp::Mul, x, f);
                let frac = self.push(b, InstKind::Cast(Scalar::Int64, xs), Type::I64, span);
                Ok(self.emit_binary(b, span, BinaryOp::BitXor, whole, frac))
            }
            // An integer is its own hash, as in Python (consecutive keys take consecutive
            // slots; the probing's perturbation parts keys that share their low bits).
            Type::Scalar(_) => self.coerce(b, x, &Type::I64, span),
            Type::String | Type::Str(_) => self.string_hash(b, x, span),
            t => Err(err(span, format!("dict keys of {t} are not supported"), "key")),
        }
    }

    /// The number of slots of the table.
    fn slots(&mut self, b: Block, p: Parts, span: Span) -> Value {
        let n = self.push(b, InstKind::ListLen(p.table), Type::I64, span);
        let one = self.int(b, 1, span);
        self.emit_binary(b, span, BinaryOp::Sub, n, one)
    }

    /// The entry of `key` (converted to the key type), or -1; with the key's hash.
    fn dict_find(&mut self, b: Block, p: Parts, key: Value, span: Span) -> Result<(Value, Value), Diagnostic> {
        let h = self.key_hash(b, key, span)?;
        let cap = self.slots(b, p, span);
        let one = self.int(b, 1, span);
        let mask = self.emit_binary(b, span, BinaryOp::Sub, cap, one);
        let start = self.emit_binary(b, span, BinaryOp::BitAnd, h, mask);
        let kt = self.elem_type(p.keys);
        // vars: [slot, perturbation, found entry or -1, done]
        let minus = self.int(b, -1, span);
        let no = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
        let out = self.while_loop(
            b,
            vec![start, h, minus, no],
            span,
            &mut |rw, v| Ok(rw.push(b, InstKind::Unary(UnaryOp::Not, v[3]), Type::BOOL, span)),
            &mut |rw, v| {
                let one = rw.int(b, 1, span);
                let at = rw.emit_binary(b, span, BinaryOp::Add, v[0], one);
                let s = rw.push(b, InstKind::ListGet(p.table, at), Type::I64, span);
                let zero = rw.int(b, 0, span);
                let empty = rw.emit_compare(b, span, CmpOp::Eq, s, zero);
                let e = rw.emit_binary(b, span, BinaryOp::Sub, s, one);
                let minus = rw.int(b, -1, span);
                let (next, perturb) = rw.probe_next(b, v[0], v[1], mask, span);
                let yes = rw.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
                rw.if_else_values(
                    b,
                    empty,
                    vec![next, perturb, minus, yes],
                    span,
                    &mut |_, v| Ok(v.to_vec()),
                    &mut |rw, v| {
                        let eh = rw.push(b, InstKind::ListGet(p.hashes, e), Type::I64, span);
                        let same = rw.emit_compare(b, span, CmpOp::Eq, eh, h);
                        let no = rw.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
                        rw.if_else_values(
                            b,
                            same,
                            vec![v[0], v[1], v[2], no],
                            span,
                            &mut |rw, v| {
                                let k = rw.push(b, InstKind::ListGet(p.keys, e), kt.clone(), span);
                                let eq = rw.compare_values(b, CmpOp::Eq, k, key, span)?;
                                let found = rw.emit_select(b, span, eq, e, v[2]);
                                Ok(vec![v[0], v[1], found, eq])
                            },
                            &mut |_, v| Ok(v.to_vec()),
                        )
                    },
                )
            },
        )?;
        Ok((out[2], h))
    }

    /// The next slot of a probe sequence and its perturbation (CPython's: the hash's higher
    /// bits enter five at a time, so keys that share their low bits part).
    fn probe_next(&mut self, b: Block, slot: Value, perturb: Value, mask: Value, span: Span) -> (Value, Value) {
        let five = self.int(b, 5, span);
        let one = self.int(b, 1, span);
        let perturb = self.emit_binary(b, span, BinaryOp::Shr, perturb, five);
        let s5 = self.emit_binary(b, span, BinaryOp::Mul, slot, five);
        let s = self.emit_binary(b, span, BinaryOp::Add, s5, perturb);
        let s = self.emit_binary(b, span, BinaryOp::Add, s, one);
        (self.emit_binary(b, span, BinaryOp::BitAnd, s, mask), perturb)
    }

    fn elem_type(&self, l: Value) -> Type {
        self.ty(l).list_elem().cloned().expect("a list")
    }

    /// The key of `d[i]` (new value), or of `d[i, j]`: the tuple `(i, j)`, as Python reads it.
    pub(super) fn dict_key_of(&mut self, b: Block, idx: &[Value], span: Span) -> Value {
        let vs: Vec<Value> = idx.iter().map(|i| self.val(*i)).collect();
        match vs[..] {
            [one] => one,
            _ => {
                let t = Type::Tuple(vs.iter().map(|v| self.ty(*v)).collect());
                self.push(b, InstKind::MakeTuple(vs), t, span)
            }
        }
    }

    /// Looks `key` up in dict or set `d` (the key converted to its key type first).
    fn dict_lookup(&mut self, b: Block, d: Value, key: Value, span: Span) -> Result<Lookup, Diagnostic> {
        let (k, _) = self.dict_types(d);
        let key = self.coerce(b, key, &k, span)?;
        let p = self.dict_parts(b, d, span);
        let (e, h) = self.dict_find(b, p, key, span)?;
        let zero = self.int(b, 0, span);
        let found = self.emit_compare(b, span, CmpOp::Ge, e, zero);
        Ok(Lookup { p, key, h, e, found })
    }

    /// `key in d` (a dict or a set).
    fn dict_contains(&mut self, b: Block, d: Value, key: Value, span: Span) -> Result<Value, Diagnostic> {
        Ok(self.dict_lookup(b, d, key, span)?.found)
    }

    /// Adds `delta` to the number of live entries.
    fn bump_live(&mut self, b: Block, p: Parts, delta: i64, span: Span) {
        let zero = self.int(b, 0, span);
        let live = self.push(b, InstKind::ListGet(p.table, zero), Type::I64, span);
        let d = self.int(b, delta, span);
        let live = self.emit_binary(b, span, BinaryOp::Add, live, d);
        self.push_void(b, InstKind::ListSet(p.table, zero, live), span);
    }

    /// `d[key]`: the value, or `KeyError`.
    pub(super) fn dict_get(&mut self, b: Block, d: Value, key: Value, span: Span) -> Result<Value, Diagnostic> {
        let l = self.dict_lookup(b, d, key, span)?;
        let missing = self.push(b, InstKind::Unary(UnaryOp::Not, l.found), Type::BOOL, span);
        self.raise_key_error(b, missing, l.key, span);
        let vt = self.elem_type(l.p.vals);
        Ok(self.push(b, InstKind::ListGet(l.p.vals, l.e), vt, span))
    }

    /// `KeyError(key)` when `cond` holds: its message the key's `str()` (a number's; other
    /// keys give none), as Python's and Numba's `d[k]`.
    fn raise_key_error(&mut self, b: Block, cond: Value, key: Value, span: Span) {
        let args = match self.ty(key) {
            Type::Scalar(s) if !s.is_complex() => vec![crate::exception::ExceptionArg::Runtime(key)],
            _ => vec![],
        };
        self.raise_if_args(b, cond, "KeyError", args, span);
    }

    /// Rebuilds the table for at least `room` entries: deleted entries are dropped (the lists
    /// compacted), the slots doubled while the entries would fill two thirds of them.
    fn dict_rebuild(&mut self, b: Block, p: Parts, room: Value, span: Span) -> Result<(), Diagnostic> {
        let n = self.push(b, InstKind::ListLen(p.keys), Type::I64, span);
        let zero = self.int(b, 0, span);
        // Compact when an entry was deleted: live entries move down, in order.
        let live = self.push(b, InstKind::ListGet(p.table, zero), Type::I64, span);
        let deleted = self.emit_compare(b, span, CmpOp::Ne, live, n);
        self.if_values(b, deleted, vec![], span, &mut |rw, _| {
            rw.dict_compact(b, p, n, span)?;
            Ok(vec![])
        })?;
        let w = live;
        // Slots: the first power of two (from FIRST_SLOTS) with 3 * room <= 2 * slots.
        let first = self.int(b, FIRST_SLOTS, span);
        let cap = self.while_loop(
            b,
            vec![first],
            span,
            &mut |rw, v| {
                let three = rw.int(b, 3, span);
                let two = rw.int(b, 2, span);
                let need = rw.emit_binary(b, span, BinaryOp::Mul, room, three);
                let have = rw.emit_binary(b, span, BinaryOp::Mul, v[0], two);
                Ok(rw.emit_compare(b, span, CmpOp::Gt, need, have))
            },
            &mut |rw, v| {
                let two = rw.int(b, 2, span);
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Mul, v[0], two)])
            },
        )?[0];
        // Every slot emptied: the table cut to its count, then grown with zeros.
        let one = self.int(b, 1, span);
        let len = self.emit_binary(b, span, BinaryOp::Add, cap, one);
        self.push_void(b, InstKind::ListResize(p.table, one), span);
        self.push_void(b, InstKind::ListResize(p.table, len), span);
        self.push_void(b, InstKind::ListSet(p.table, zero, w), span);
        let mask = self.emit_binary(b, span, BinaryOp::Sub, cap, one);
        self.fold(b, (zero, w), vec![], span, &mut |rw, e, _| {
            let h = rw.push(b, InstKind::ListGet(p.hashes, e), Type::I64, span);
            rw.place(b, p, h, e, mask, span)?;
            Ok(vec![])
        })?;
        Ok(())
    }

    /// `body(rw, i, key, value, w)` for each live entry `i` of the first `n`, in order, `w`
    /// counting the live entries before it; returns their number.
    fn each_live(
        &mut self,
        b: Block,
        p: Parts,
        n: Value,
        span: Span,
        body: &mut LiveBody<'_, 'r>,
    ) -> Result<Value, Diagnostic> {
        let zero = self.int(b, 0, span);
        let (kt, vt) = (self.elem_type(p.keys), self.elem_type(p.vals));
        Ok(self.fold(b, (zero, n), vec![zero], span, &mut |rw, i, v| {
            let h = rw.push(b, InstKind::ListGet(p.hashes, i), Type::I64, span);
            let zero = rw.int(b, 0, span);
            let live = rw.emit_compare(b, span, CmpOp::Ge, h, zero);
            rw.if_values(b, live, vec![v[0]], span, &mut |rw, v| {
                let k = rw.push(b, InstKind::ListGet(p.keys, i), kt.clone(), span);
                let x = rw.push(b, InstKind::ListGet(p.vals, i), vt.clone(), span);
                body(rw, i, k, x, v[0])?;
                let one = rw.int(b, 1, span);
                Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], one)])
            })
        })?[0])
    }

    /// Drops deleted entries (hash -1) from the entry lists of `n`, keeping the order.
    fn dict_compact(&mut self, b: Block, p: Parts, n: Value, span: Span) -> Result<(), Diagnostic> {
        let w = self.each_live(b, p, n, span, &mut |rw, i, k, x, w| {
            let h = rw.push(b, InstKind::ListGet(p.hashes, i), Type::I64, span);
            rw.push_void(b, InstKind::ListSet(p.keys, w, k), span);
            rw.push_void(b, InstKind::ListSet(p.vals, w, x), span);
            rw.push_void(b, InstKind::ListSet(p.hashes, w, h), span);
            Ok(())
        })?;
        for l in [p.keys, p.vals, p.hashes] {
            self.push_void(b, InstKind::ListResize(l, w), span);
        }
        Ok(())
    }

    /// Puts entry `e` (hash `h`) in the first empty slot of its probe sequence.
    fn place(&mut self, b: Block, p: Parts, h: Value, e: Value, mask: Value, span: Span) -> Result<(), Diagnostic> {
        let start = self.emit_binary(b, span, BinaryOp::BitAnd, h, mask);
        let slot = self.while_loop(
            b,
            vec![start, h],
            span,
            &mut |rw, v| {
                let one = rw.int(b, 1, span);
                let at = rw.emit_binary(b, span, BinaryOp::Add, v[0], one);
                let s = rw.push(b, InstKind::ListGet(p.table, at), Type::I64, span);
                let zero = rw.int(b, 0, span);
                Ok(rw.emit_compare(b, span, CmpOp::Ne, s, zero))
            },
            &mut |rw, v| {
                let (next, perturb) = rw.probe_next(b, v[0], v[1], mask, span);
                Ok(vec![next, perturb])
            },
        )?[0];
        let one = self.int(b, 1, span);
        let at = self.emit_binary(b, span, BinaryOp::Add, slot, one);
        let e1 = self.emit_binary(b, span, BinaryOp::Add, e, one);
        self.push_void(b, InstKind::ListSet(p.table, at, e1), span);
        Ok(())
    }

    /// `d[key] = x` (key and value converted to the dict's types).
    pub(super) fn dict_set(&mut self, b: Block, d: Value, key: Value, x: Value, span: Span) -> Result<(), Diagnostic> {
        let (_, vt) = self.dict_types(d);
        let x = self.coerce(b, x, &vt, span)?;
        let l = self.dict_lookup(b, d, key, span)?;
        self.if_else_values(
            b,
            l.found,
            vec![],
            span,
            &mut |rw, _| {
                rw.push_void(b, InstKind::ListSet(l.p.vals, l.e, x), span);
                Ok(vec![])
            },
            &mut |rw, _| {
                rw.dict_insert_new(b, l, x, span)?;
                Ok(vec![])
            },
        )?;
        Ok(())
    }

    /// Appends a new entry for the key `l` did not find.
    fn dict_insert_new(&mut self, b: Block, l: Lookup, x: Value, span: Span) -> Result<(), Diagnostic> {
        let Lookup { p, key, h, .. } = l;
        let n = self.push(b, InstKind::ListLen(p.keys), Type::I64, span);
        let one = self.int(b, 1, span);
        let n1 = self.emit_binary(b, span, BinaryOp::Add, n, one);
        let cap = self.slots(b, p, span);
        let three = self.int(b, 3, span);
        let two = self.int(b, 2, span);
        let need = self.emit_binary(b, span, BinaryOp::Mul, n1, three);
        let have = self.emit_binary(b, span, BinaryOp::Mul, cap, two);
        let full = self.emit_compare(b, span, CmpOp::Gt, need, have);
        self.if_values(b, full, vec![], span, &mut |rw, _| {
            let zero = rw.int(b, 0, span);
            let live = rw.push(b, InstKind::ListGet(p.table, zero), Type::I64, span);
            let one = rw.int(b, 1, span);
            let room = rw.emit_binary(b, span, BinaryOp::Add, live, one);
            rw.dict_rebuild(b, p, room, span)?;
            Ok(vec![])
        })?;
        // The entry goes at the end (after any compaction).
        let e = self.push(b, InstKind::ListLen(p.keys), Type::I64, span);
        let e1 = self.emit_binary(b, span, BinaryOp::Add, e, one);
        for (l, v) in [(p.keys, key), (p.vals, x), (p.hashes, h)] {
            self.push_void(b, InstKind::ListResize(l, e1), span);
            self.push_void(b, InstKind::ListSet(l, e, v), span);
        }
        let cap = self.slots(b, p, span);
        let mask = self.emit_binary(b, span, BinaryOp::Sub, cap, one);
        self.place(b, p, h, e, mask, span)?;
        self.bump_live(b, p, 1, span);
        Ok(())
    }

    /// Deletes entry `e` (live): its hash becomes -1, one live entry fewer.
    fn dict_delete(&mut self, b: Block, p: Parts, e: Value, span: Span) {
        let minus = self.int(b, -1, span);
        self.push_void(b, InstKind::ListSet(p.hashes, e, minus), span);
        self.bump_live(b, p, -1, span);
    }

    /// `len(d)`
    pub(super) fn dict_len(&mut self, b: Block, d: Value, span: Span) -> Value {
        let p = self.dict_parts(b, d, span);
        let zero = self.int(b, 0, span);
        self.push(b, InstKind::ListGet(p.table, zero), Type::I64, span)
    }

    /// A new list of every live entry's `pick(key, value)`, in insertion order.
    fn dict_collect(
        &mut self,
        b: Block,
        d: Value,
        rt: Type,
        span: Span,
        pick: &mut dyn FnMut(&mut Self, Value, Value) -> Value,
    ) -> Result<Value, Diagnostic> {
        let n = self.dict_len(b, d, span);
        let p = self.dict_parts(b, d, span);
        let out = self.push(b, InstKind::NewList(n), rt, span);
        let all = self.push(b, InstKind::ListLen(p.keys), Type::I64, span);
        self.each_live(b, p, all, span, &mut |rw, _, k, x, w| {
            let item = pick(rw, k, x);
            rw.push_void(b, InstKind::ListSet(out, w, item), span);
            Ok(())
        })?;
        Ok(out)
    }

    /// [`DictOp`]s (new values `args`, the dict first where there is one).
    pub(super) fn dict_op(
        &mut self,
        b: Block,
        op: DictOp,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        Ok(match op {
            DictOp::New => self.dict_new(b, rt, span)?,
            DictOp::Literal => {
                let d = self.dict_new(b, rt, span)?;
                for kv in args.chunks(2) {
                    self.dict_set(b, d, kv[0], kv[1], span)?;
                }
                d
            }
            DictOp::IterSource => match self.ty(args[0]) {
                Type::Dict(..) => self.dict_collect(b, args[0], rt, span, &mut |_, k, _| k)?,
                Type::Set(_) => self.set_elements(b, args[0], rt, span)?,
                _ => args[0],
            },
            DictOp::SetNew => self.dict_new(b, rt, span)?,
            DictOp::SetLiteral => {
                let s = self.dict_new(b, rt, span)?;
                for &x in args {
                    self.set_add(b, s, x, span)?;
                }
                s
            }
            DictOp::SetAdd => {
                self.set_add(b, args[0], args[1], span)?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            DictOp::SetDiscard => {
                self.set_remove(b, args[0], args[1], false, span)?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            DictOp::SetUnion | DictOp::SetIntersection | DictOp::SetDifference => {
                self.set_combine(b, op, args[0], args[1], rt, span)?
            }
            DictOp::SetSymmetricDifference => {
                let out = self.set_combine(b, DictOp::SetDifference, args[0], args[1], rt, span)?;
                self.set_each(b, args[1], span, &mut |rw, x| {
                    let inside = rw.dict_contains(b, args[0], x, span)?;
                    let outside = rw.push(b, InstKind::Unary(UnaryOp::Not, inside), Type::BOOL, span);
                    rw.if_values(b, outside, vec![], span, &mut |rw, _| {
                        rw.set_add(b, out, x, span)?;
                        Ok(vec![])
                    })?;
                    Ok(())
                })?;
                out
            }
            DictOp::SetDifferenceUpdate => {
                self.set_each(b, args[1], span, &mut |rw, x| rw.set_remove(b, args[0], x, false, span))?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            DictOp::SetIntersectionUpdate => {
                self.set_each(b, args[0], span, &mut |rw, x| {
                    let inside = rw.dict_contains(b, args[1], x, span)?;
                    let outside = rw.push(b, InstKind::Unary(UnaryOp::Not, inside), Type::BOOL, span);
                    rw.if_values(b, outside, vec![], span, &mut |rw, _| {
                        rw.set_remove(b, args[0], x, false, span)?;
                        Ok(vec![])
                    })?;
                    Ok(())
                })?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            DictOp::SetSymmetricDifferenceUpdate => {
                self.set_each(b, args[1], span, &mut |rw, x| {
                    let inside = rw.dict_contains(b, args[0], x, span)?;
                    rw.if_else_values(
                        b,
                        inside,
                        vec![],
                        span,
                        &mut |rw, _| {
                            rw.set_remove(b, args[0], x, false, span)?;
                            Ok(vec![])
                        },
                        &mut |rw, _| {
                            rw.set_add(b, args[0], x, span)?;
                            Ok(vec![])
                        },
                    )?;
                    Ok(())
                })?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            DictOp::SetIsSubset => self.set_all_in(b, args[0], args[1], true, span)?,
            DictOp::SetIsSuperset => self.set_all_in(b, args[1], args[0], true, span)?,
            DictOp::SetIsDisjoint => self.set_all_in(b, args[0], args[1], false, span)?,
            DictOp::Update if matches!(self.ty(args[0]), Type::Set(_)) => {
                let (s, it) = (args[0], args[1]);
                let it = match self.ty(it) {
                    Type::Set(e) => self.set_elements(b, it, Type::List(e), span)?,
                    _ => it,
                };
                let n = self.iter_len(b, it, span);
                let zero = self.int(b, 0, span);
                self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
                    let x = rw.iter_item(b, it, i, span)?;
                    rw.set_add(b, s, x, span)?;
                    Ok(vec![])
                })?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            DictOp::Keys => self.dict_collect(b, args[0], rt, span, &mut |_, k, _| k)?,
            DictOp::Values => self.dict_collect(b, args[0], rt, span, &mut |_, _, x| x)?,
            DictOp::Items => {
                let et = rt.list_elem().cloned().expect("a list of pairs");
                self.dict_collect(b, args[0], rt, span, &mut |rw, k, x| {
                    rw.push(b, InstKind::MakeTuple(vec![k, x]), et.clone(), span)
                })?
            }
            DictOp::Get | DictOp::Setdefault => {
                let l = self.dict_lookup(b, args[0], args[1], span)?;
                let vt = self.elem_type(l.p.vals);
                let made = self.if_else_make(
                    b,
                    l.found,
                    std::slice::from_ref(&rt),
                    span,
                    &mut |rw, _| {
                        let x = rw.push(b, InstKind::ListGet(l.p.vals, l.e), vt.clone(), span);
                        Ok(vec![rw.coerce(b, x, &rt, span)?])
                    },
                    &mut |rw, _| {
                        let x = match args.get(2) {
                            Some(&x) => x,
                            None => rw.push(b, InstKind::Const(Const::None), Type::None, span),
                        };
                        if op == DictOp::Setdefault {
                            let xv = rw.coerce(b, x, &vt, span)?;
                            rw.dict_insert_new(b, l, xv, span)?;
                        }
                        Ok(vec![rw.coerce(b, x, &rt, span)?])
                    },
                )?;
                made[0]
            }
            DictOp::Update => {
                let (d, other) = (args[0], args[1]);
                let q = self.dict_parts(b, other, span);
                let all = self.push(b, InstKind::ListLen(q.keys), Type::I64, span);
                self.each_live(b, q, all, span, &mut |rw, _, k, x, _| rw.dict_set(b, d, k, x, span))?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
        })
    }

    /// `body(x)` for every element of set `s` (a snapshot of them: `body` may change `s`).
    fn set_each(
        &mut self,
        b: Block,
        s: Value,
        span: Span,
        body: &mut dyn FnMut(&mut Self, Value) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let (k, _) = self.dict_types(s);
        let xs = self.set_elements(b, s, Type::List(Box::new(k.clone())), span)?;
        let n = self.push(b, InstKind::ListLen(xs), Type::I64, span);
        let zero = self.int(b, 0, span);
        self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
            let x = rw.push(b, InstKind::ListGet(xs, i), k.clone(), span);
            body(rw, x)?;
            Ok(vec![])
        })?;
        Ok(())
    }

    /// Whether every element of `a` is in `other` (`want` true: `a <= other`), or none is
    /// (`want` false: `a.isdisjoint(other)`).
    fn set_all_in(&mut self, b: Block, a: Value, other: Value, want: bool, span: Span) -> Result<Value, Diagnostic> {
        let (k, _) = self.dict_types(a);
        let xs = self.set_elements(b, a, Type::List(Box::new(k.clone())), span)?;
        let n = self.push(b, InstKind::ListLen(xs), Type::I64, span);
        let zero = self.int(b, 0, span);
        let yes = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        Ok(self.fold(b, (zero, n), vec![yes], span, &mut |rw, i, v| {
            let x = rw.push(b, InstKind::ListGet(xs, i), k.clone(), span);
            let inside = rw.dict_contains(b, other, x, span)?;
            let ok = if want { inside } else { rw.push(b, InstKind::Unary(UnaryOp::Not, inside), Type::BOOL, span) };
            Ok(vec![rw.emit_binary(b, span, BinaryOp::BitAnd, v[0], ok)])
        })?[0])
    }

    /// `a OP b` of two sets: `<=` subset, `<` proper subset, `>=`, `>`, `==`, `!=`.
    pub(super) fn set_compare(
        &mut self,
        b: Block,
        op: CmpOp,
        x: Value,
        y: Value,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let (lx, ly) = (self.dict_len(b, x, span), self.dict_len(b, y, span));
        let (sub, sup) = match op {
            CmpOp::Ge | CmpOp::Gt => (y, x),
            _ => (x, y),
        };
        let inside = self.set_all_in(b, sub, sup, true, span)?;
        let size = match op {
            CmpOp::Lt => self.emit_compare(b, span, CmpOp::Lt, lx, ly),
            CmpOp::Gt => self.emit_compare(b, span, CmpOp::Gt, lx, ly),
            CmpOp::Eq | CmpOp::Ne => self.emit_compare(b, span, CmpOp::Eq, lx, ly),
            _ => self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span),
        };
        let r = self.emit_binary(b, span, BinaryOp::BitAnd, inside, size);
        Ok(if op == CmpOp::Ne { self.push(b, InstKind::Unary(UnaryOp::Not, r), Type::BOOL, span) } else { r })
    }

    /// `s.add(x)`
    fn set_add(&mut self, b: Block, s: Value, x: Value, span: Span) -> Result<(), Diagnostic> {
        let yes = self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span);
        self.dict_set(b, s, x, yes, span)
    }

    /// `s.remove(x)` (`KeyError` when missing, if `strict`) / `s.discard(x)`.
    fn set_remove(&mut self, b: Block, s: Value, x: Value, strict: bool, span: Span) -> Result<(), Diagnostic> {
        let l = self.dict_lookup(b, s, x, span)?;
        if strict {
            let missing = self.push(b, InstKind::Unary(UnaryOp::Not, l.found), Type::BOOL, span);
            // (A KeyError's text shows as its repr, quoted, as Python's.)
            self.raise_if(b, missing, "KeyError", "set.remove(): key not in set", span);
            self.dict_delete(b, l.p, l.e, span);
        } else {
            self.if_values(b, l.found, vec![], span, &mut |rw, _| {
                rw.dict_delete(b, l.p, l.e, span);
                Ok(vec![])
            })?;
        }
        Ok(())
    }

    /// A set's elements as a new list, in the order of its table's slots (as Python's and
    /// Numba's sets iterate: small non-negative integers come out ascending).
    fn set_elements(&mut self, b: Block, s: Value, rt: Type, span: Span) -> Result<Value, Diagnostic> {
        let n = self.dict_len(b, s, span);
        let p = self.dict_parts(b, s, span);
        let out = self.push(b, InstKind::NewList(n), rt, span);
        let slots = self.push(b, InstKind::ListLen(p.table), Type::I64, span);
        let one = self.int(b, 1, span);
        let zero = self.int(b, 0, span);
        let kt = self.elem_type(p.keys);
        self.fold(b, (one, slots), vec![zero], span, &mut |rw, i, v| {
            let t = rw.push(b, InstKind::ListGet(p.table, i), Type::I64, span);
            let zero = rw.int(b, 0, span);
            let used = rw.emit_compare(b, span, CmpOp::Gt, t, zero);
            rw.if_values(b, used, vec![v[0]], span, &mut |rw, v| {
                let one = rw.int(b, 1, span);
                let e = rw.emit_binary(b, span, BinaryOp::Sub, t, one);
                let h = rw.push(b, InstKind::ListGet(p.hashes, e), Type::I64, span);
                let zero = rw.int(b, 0, span);
                let live = rw.emit_compare(b, span, CmpOp::Ge, h, zero);
                rw.if_values(b, live, vec![v[0]], span, &mut |rw, v| {
                    let k = rw.push(b, InstKind::ListGet(p.keys, e), kt.clone(), span);
                    rw.push_void(b, InstKind::ListSet(out, v[0], k), span);
                    let one = rw.int(b, 1, span);
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], one)])
                })
            })
        })?;
        Ok(out)
    }

    /// `a | b`, `a & b`, `a - b` (and the methods): a new set.
    fn set_combine(
        &mut self,
        b: Block,
        op: DictOp,
        x: Value,
        y: Value,
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let out = self.dict_new(b, rt.clone(), span)?;
        let et = match &rt {
            Type::Set(e) => Type::List(e.clone()),
            _ => unreachable!("a set"),
        };
        let xs = self.set_elements(b, x, et.clone(), span)?;
        let n = self.push(b, InstKind::ListLen(xs), Type::I64, span);
        let zero = self.int(b, 0, span);
        let e = et.list_elem().cloned().expect("a list");
        self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
            let k = rw.push(b, InstKind::ListGet(xs, i), e.clone(), span);
            if op == DictOp::SetUnion {
                rw.set_add(b, out, k, span)?;
                return Ok(vec![]);
            }
            let inside = rw.dict_contains(b, y, k, span)?;
            let keep = if op == DictOp::SetIntersection {
                inside
            } else {
                rw.push(b, InstKind::Unary(UnaryOp::Not, inside), Type::BOOL, span)
            };
            rw.if_values(b, keep, vec![], span, &mut |rw, _| {
                rw.set_add(b, out, k, span)?;
                Ok(vec![])
            })?;
            Ok(vec![])
        })?;
        if op == DictOp::SetUnion {
            self.dict_op(b, DictOp::Update, &[out, y], Type::None, span)?;
        }
        Ok(out)
    }

    /// `s.pop()`: an element (the first in the table's order); `KeyError` when empty.
    fn set_pop(&mut self, b: Block, s: Value, rt: Type, span: Span) -> Result<Value, Diagnostic> {
        let n = self.dict_len(b, s, span);
        let zero = self.int(b, 0, span);
        let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
        self.raise_if(b, empty, "KeyError", "set.pop(): empty set", span);
        let all = self.set_elements(b, s, Type::List(Box::new(rt.clone())), span)?;
        let x = self.push(b, InstKind::ListGet(all, zero), rt, span);
        self.set_remove(b, s, x, true, span)?;
        Ok(x)
    }

    /// `print` of a list (`[1, 2]`), a dict (`{1: 2.5}`) or a set (`{1, 3}`, `set()`), as
    /// Numba prints them: each element's `repr` (a dict's keys and values: their `str`).
    pub(super) fn print_container(&mut self, b: Block, x: Value, span: Span) -> Result<Value, Diagnostic> {
        let (list, pairs, open, close) = match self.ty(x) {
            Type::List(_) => (x, None, "[", "]"),
            Type::Set(e) => {
                let n = self.dict_len(b, x, span);
                let zero = self.int(b, 0, span);
                let empty = self.emit_compare(b, span, CmpOp::Eq, n, zero);
                let els = self.set_elements(b, x, Type::List(e), span)?;
                self.if_else_values(
                    b,
                    empty,
                    vec![],
                    span,
                    &mut |rw, _| {
                        rw.print_text(b, "set()", span);
                        Ok(vec![])
                    },
                    &mut |rw, _| {
                        rw.print_sequence(b, els, None, "{", "}", span)?;
                        Ok(vec![])
                    },
                )?;
                return Ok(self.int(b, 0, span));
            }
            Type::Dict(k, v) => {
                let keys = self.dict_collect(b, x, Type::List(k), span, &mut |_, k, _| k)?;
                let vals = self.dict_collect(b, x, Type::List(v), span, &mut |_, _, v| v)?;
                (keys, Some(vals), "{", "}")
            }
            _ => unreachable!("a container"),
        };
        self.print_sequence(b, list, pairs, open, close, span)?;
        Ok(self.int(b, 0, span))
    }

    /// `open`, the list's elements' reprs (with `vals`, `key: value` pairs) between `, `, and
    /// `close`.
    fn print_sequence(
        &mut self,
        b: Block,
        list: Value,
        vals: Option<Value>,
        open: &str,
        close: &str,
        span: Span,
    ) -> Result<(), Diagnostic> {
        self.print_text(b, open, span);
        let n = self.push(b, InstKind::ListLen(list), Type::I64, span);
        let zero = self.int(b, 0, span);
        let et = self.elem_type(list);
        let vt = vals.map(|v| self.elem_type(v));
        self.fold(b, (zero, n), vec![], span, &mut |rw, i, _| {
            let zero = rw.int(b, 0, span);
            let later = rw.emit_compare(b, span, CmpOp::Gt, i, zero);
            rw.if_values(b, later, vec![], span, &mut |rw, _| {
                rw.print_text(b, ", ", span);
                Ok(vec![])
            })?;
            let e = rw.push(b, InstKind::ListGet(list, i), et.clone(), span);
            // Numba writes a dict's keys and values with `str` (`{a: b}`), a list's and a set's
            // elements with `repr` (`['a']`).
            let repr = vals.is_none();
            rw.print_value(b, e, repr, span)?;
            if let (Some(vl), Some(vt)) = (vals, vt.clone()) {
                rw.print_text(b, ": ", span);
                let v = rw.push(b, InstKind::ListGet(vl, i), vt, span);
                rw.print_value(b, v, repr, span)?;
            }
            Ok(vec![])
        })?;
        self.print_text(b, close, span);
        Ok(())
    }

    /// The list and array builtins of a dict receiver: `len(d)`, `k in d`, `d.pop(k[,
    /// default])`, `d.clear()`, `del d[k]`, `d.copy()`.
    pub(super) fn dict_builtin(
        &mut self,
        b: Block,
        bi: Builtin,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let d = args[0];
        if matches!(self.ty(d), Type::Set(_)) {
            match bi.info().typing {
                Typing::List(ListOp::Pop) => return self.set_pop(b, d, rt, span),
                Typing::List(ListOp::Remove) => {
                    self.set_remove(b, d, args[1], true, span)?;
                    return Ok(self.push(b, InstKind::Const(Const::None), Type::None, span));
                }
                _ => {}
            }
        }
        Ok(match bi.info().typing {
            Typing::ArrayLen => self.dict_len(b, d, span),
            Typing::Contains => self.dict_contains(b, d, args[1], span)?,
            Typing::List(ListOp::Pop | ListOp::Del) => {
                let l = self.dict_lookup(b, d, args[1], span)?;
                let Lookup { p, key, e, found, .. } = l;
                let vt = self.elem_type(p.vals);
                if bi == Builtin::ListDel || args.len() == 2 {
                    let missing = self.push(b, InstKind::Unary(UnaryOp::Not, found), Type::BOOL, span);
                    // `del d[k]` is Python's `KeyError(k)`; `d.pop(k)`, Numba's bare one.
                    if bi == Builtin::ListDel {
                        self.raise_key_error(b, missing, key, span);
                    } else {
                        self.raise_if(b, missing, "KeyError", "", span);
                    }
                    let x = self.push(b, InstKind::ListGet(p.vals, e), vt, span);
                    self.dict_delete(b, p, e, span);
                    if bi == Builtin::ListDel {
                        return Ok(self.push(b, InstKind::Const(Const::None), Type::None, span));
                    }
                    return self.coerce(b, x, &rt, span);
                }
                let default = args[2];
                self.if_else_make(
                    b,
                    found,
                    std::slice::from_ref(&rt),
                    span,
                    &mut |rw, _| {
                        let x = rw.push(b, InstKind::ListGet(p.vals, e), vt.clone(), span);
                        rw.dict_delete(b, p, e, span);
                        Ok(vec![rw.coerce(b, x, &rt, span)?])
                    },
                    &mut |rw, _| Ok(vec![rw.coerce(b, default, &rt, span)?]),
                )?[0]
            }
            Typing::List(ListOp::Clear) => {
                let p = self.dict_parts(b, d, span);
                let zero = self.int(b, 0, span);
                for l in [p.keys, p.vals, p.hashes] {
                    self.push_void(b, InstKind::ListResize(l, zero), span);
                }
                self.push_void(b, InstKind::ListSet(p.table, zero, zero), span);
                self.dict_rebuild(b, p, zero, span)?;
                self.push(b, InstKind::Const(Const::None), Type::None, span)
            }
            Typing::Alloc(crate::builtins::Alloc::Copy) => {
                let out = self.dict_new(b, rt, span)?;
                self.dict_op(b, DictOp::Update, &[out, d], Type::None, span)?;
                out
            }
            _ => return Err(err(span, format!("`{}` of a dict is not supported", bi.name()), "here")),
        })
    }
}
