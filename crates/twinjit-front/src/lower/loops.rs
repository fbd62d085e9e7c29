//! `while` and `for` loops, desugared into counted loops over the existing IR.
//!
//! `for i in range(...)` is the primitive: a rotated loop over an integer counter. Every other
//! iterable becomes a loop over `k in range(0, n)` whose target is bound from `k` before the
//! body: a 1-D array `a` reads `a[k]` through the ordinary indexing path (bounds checks and
//! every backend unchanged; the element is read at each iteration, so writes to the array made
//! by the body are seen, as in Numba) with `n` from `iter_len(a)` (which refuses 2-D arrays and
//! non-iterables at the iterable); `enumerate(it, start)` binds `start + k`; `zip(...)` stops at
//! the shortest; `reversed(range(...))` counts down from the last element. Tuple literals are
//! unrolled: one copy of the body per element, so heterogeneous tuples need no common type.
//!
//! `else` of `for`/`while` runs on the loop's normal exit: `break` jumps past it.

use super::*;

/// A parsed iterable.
enum Source<'e> {
    /// `range(...)` / `prange(...)` arguments (one to three).
    Range(&'e [Expr]),
    /// `reversed(range(...))`
    Reversed(&'e [Expr]),
    /// Anything else: `len` and indexing (a 1-D array).
    Seq(&'e Expr),
    Enumerate(Box<Source<'e>>, Option<&'e Expr>),
    Zip(Vec<Source<'e>>),
    /// `np.ndindex(shape)` / `np.ndindex(d0, d1, ...)`.
    Ndindex(&'e [Expr]),
    /// `np.ndenumerate(a)`.
    Ndenumerate(&'e Expr),
    /// `np.nditer(a)`.
    Nditer(&'e Expr),
    /// `np.nditer((a, b, ...))`: the operands.
    NditerMany(&'e [Expr]),
}

/// An iterable evaluated before the loop: its length and how element `k` is computed.
enum Iter {
    /// Element `k` is `start + k * step`.
    Range {
        start: Value,
        step: Value,
        len: Value,
    },
    /// Element `k` is `start + (len - 1 - k) * step`.
    Reversed {
        start: Value,
        step: Value,
        len: Value,
    },
    Seq {
        seq: Value,
        len: Value,
    },
    Enumerate(Box<Iter>, Value),
    Zip(Vec<Iter>),
    /// Element `k` is the C-order index tuple `unravel(shape, k)`.
    Ndindex {
        shape: Value,
        len: Value,
    },
    /// Element `k` is `(index, a[index])` with the index as for `Ndindex` of `a.shape`.
    Ndenumerate {
        arr: Value,
        shape: Value,
        len: Value,
    },
    /// Element `k` is the tuple of each operand at the index `unravel(shape, k)` (a number
    /// stands for every position; `nditer_get`).
    NditerMany {
        xs: Vec<Value>,
        shape: Value,
        len: Value,
    },
}

impl Iter {
    fn len(&self, lw: &mut Lower<'_>, span: Span) -> Value {
        match self {
            Iter::Range { len, .. }
            | Iter::Reversed { len, .. }
            | Iter::Seq { len, .. }
            | Iter::Ndindex { len, .. }
            | Iter::Ndenumerate { len, .. }
            | Iter::NditerMany { len, .. } => *len,
            Iter::Enumerate(inner, _) => inner.len(lw, span),
            Iter::Zip(its) => {
                let mut n = its[0].len(lw, span);
                for it in &its[1..] {
                    let m = it.len(lw, span);
                    let lt = lw.emit(InstKind::Compare(CmpOp::Lt, m, n), span);
                    n = lw.emit(InstKind::Select(lt, m, n), span);
                }
                n
            }
        }
    }

    /// How many values one element unpacks into, where that is known here.
    fn arity(&self) -> Option<usize> {
        match self {
            Iter::Enumerate(..) | Iter::Ndenumerate { .. } => Some(2),
            Iter::Zip(its) => Some(its.len()),
            Iter::NditerMany { xs, .. } => Some(xs.len()),
            _ => None,
        }
    }
}

impl Lower<'_> {
    /// `while c: body` becomes `if c: do { body } while c` (the test is lowered twice), so each
    /// iteration ends in one conditional branch instead of two jumps and a branch.
    pub(super) fn while_stmt(&mut self, w: &ast::StmtWhile) {
        let span = self.sp(w.range);
        let body = self.new_block();
        let latch = self.new_block();
        let exit = self.new_block();
        let after = if w.orelse.is_empty() { exit } else { self.new_block() };
        self.cond_branch(&w.test, body, exit);
        self.cur = body;
        self.loops.push((latch, after));
        self.block(&w.body);
        self.loops.pop();
        self.jump(latch, vec![], span);
        self.seal(latch);
        self.cur = latch;
        self.cond_branch(&w.test, body, exit);
        self.seal(body);
        self.seal(exit);
        self.cur = exit;
        self.else_clause(&w.orelse, after, span);
    }

    /// Lowers `orelse` on the normal exit and continues at `after` (the `break` target).
    fn else_clause(&mut self, orelse: &[Stmt], after: Block, span: Span) {
        if orelse.is_empty() {
            return;
        }
        self.block(orelse);
        self.jump(after, vec![], span);
        self.seal(after);
        self.cur = after;
    }

    pub(super) fn for_stmt(&mut self, fr: &ast::StmtFor) {
        // `for x in iter(y):` is `for x in y:`.
        if let Some(inner) = self.iter_of(&fr.iter) {
            let mut plain = fr.clone();
            *plain.iter = inner.clone();
            return self.for_stmt(&plain);
        }
        if let Expr::Tuple(t) = &*fr.iter {
            return self.unrolled_for(fr, &t.elts);
        }
        if self.generator_for(fr) {
            return;
        }
        if let Some(arg) = self.literal_unroll_arg(&fr.iter) {
            return self.literal_unroll_for(fr, arg);
        }
        if let Expr::Name(n) = &*fr.iter {
            if !self.locals.contains(n.id.as_str()) && self.global_tuple_for(fr, n.id.as_str()) {
                return;
            }
        }
        let span = self.sp(fr.range);
        if let Expr::Name(t) = &*fr.target {
            if self.parallel && self.prange_depth == 0 && self.is_prange(&fr.iter) {
                self.prange_races(t.id.as_str(), &fr.body);
            }
        }
        self.iter_loop(&fr.iter, Some(&fr.target), &fr.orelse, span, &mut |lw, _| lw.block(&fr.body));
    }

    /// `for target in iter: body` (`orelse` on the normal exit). Without a target, `body`
    /// receives each element as a value (`list(x)`, `sorted(x)`).
    pub(super) fn iter_loop(
        &mut self,
        iter: &Expr,
        target: Option<&Expr>,
        orelse: &[Stmt],
        span: Span,
        body: &mut dyn FnMut(&mut Self, Option<Value>),
    ) {
        let Some(src) = self.source(iter) else { return };
        if let (Source::Range(args), Some(Expr::Name(target))) = (&src, target) {
            let Some((start, stop, step, step_const)) = self.range_args(args, span) else { return };
            let name = target.id.to_string();
            // The outermost `prange` of a nest in a `parallel=True` function runs in parallel (as
            // in Numba); inner ones, and every `prange` elsewhere, run as `range`.
            let parallel = self.parallel && self.prange_depth == 0 && self.is_prange(iter);
            if parallel && !orelse.is_empty() {
                self.diags.push(unsupported(
                    span,
                    "`else` after a parallel `prange` loop is",
                    "move the `else` code after the loop",
                ));
                return;
            }
            self.prange_depth += usize::from(parallel);
            self.counted_loop(start, stop, step, step_const, orelse, span, &mut |lw, iv| {
                if parallel {
                    lw.emit(InstKind::Builtin(Builtin::PrangeLoop, vec![iv, start, stop, step]), span);
                }
                let iv = lw.declare(&name, iv, span);
                let var = lw.var(&name);
                lw.def_var(&var, iv);
                body(lw, None)
            });
            self.prange_depth -= usize::from(parallel);
            return;
        }
        let Some(it) = self.eval_source(&src, span) else { return };
        if let (Some(n), Some(t @ (Expr::Tuple(_) | Expr::List(_)))) = (it.arity(), target) {
            if tuple_elts(t).len() != n {
                self.diags.push(Diagnostic::error(
                    format!("cannot unpack {n} values into {} names", tuple_elts(t).len()),
                    self.sp(t.range()),
                    format!("each element has {n} values"),
                ));
                return;
            }
        }
        let zero = self.konst(Const::Int(0), span);
        let one = self.konst(Const::Int(1), span);
        let n = it.len(self, span);
        self.counted_loop(zero, n, one, Some(1), orelse, span, &mut |lw, k| match target {
            Some(t) => {
                lw.bind(t, &it, k, span);
                body(lw, None)
            }
            None => {
                let v = lw.element(&it, k, span);
                body(lw, Some(v))
            }
        });
    }

    /// `[elt for t in it if c ...]` (also a generator expression, as the list it would
    /// produce): an empty list, then nested loops that append. The targets are the
    /// function's variables (Python 3 gives a comprehension its own scope; a name shared with
    /// the function is a documented deviation).
    pub(super) fn list_comp(&mut self, elt: &Expr, generators: &[ast::Comprehension], span: Span) -> Value {
        self.fill_comp(Builtin::ListNew, generators, span, &mut |lw, l| {
            let v = lw.expr(elt);
            lw.emit(InstKind::Builtin(Builtin::ListAppend, vec![l, v]), span);
        })
    }

    /// `{x for t in it if c ...}`: an empty set, then nested loops that add.
    pub(super) fn set_comp(&mut self, elt: &Expr, generators: &[ast::Comprehension], span: Span) -> Value {
        self.fill_comp(Builtin::SetNew, generators, span, &mut |lw, s| {
            let v = lw.expr(elt);
            lw.emit(InstKind::Builtin(Builtin::SetAdd, vec![s, v]), span);
        })
    }

    /// `{k: v for t in it if c ...}`: an empty dict, then nested loops that assign.
    pub(super) fn dict_comp(
        &mut self,
        key: &Expr,
        value: &Expr,
        generators: &[ast::Comprehension],
        span: Span,
    ) -> Value {
        self.fill_comp(Builtin::DictNew, generators, span, &mut |lw, d| {
            let k = lw.expr(key);
            let v = lw.expr(value);
            lw.f.push(lw.cur, InstKind::SetItem(d, vec![k], v), None, span);
        })
    }

    /// A new empty container (`new`: `[]`, `set()` or `{}`), filled by `put(container)` in
    /// the comprehension's loops.
    fn fill_comp(
        &mut self,
        new: Builtin,
        generators: &[ast::Comprehension],
        span: Span,
        put: &mut dyn FnMut(&mut Self, Value),
    ) -> Value {
        let c = self.emit(InstKind::Builtin(new, vec![]), span);
        self.comp_generators(generators, span, &mut |lw| put(lw, c));
        c
    }

    /// A new empty container (`new`), filled by `put(container, element)` for each element of
    /// `iter` (`list(x)`, `set(x)`, `dict(pairs)`).
    fn fill_from(
        &mut self,
        new: Builtin,
        iter: &Expr,
        span: Span,
        put: &mut dyn FnMut(&mut Self, Value, Value),
    ) -> Value {
        let c = self.emit(InstKind::Builtin(new, vec![]), span);
        self.iter_loop(iter, None, &[], span, &mut |lw, v| put(lw, c, v.expect("no target: the element")));
        c
    }

    /// A new set of the elements of `iter` (`set(x)`).
    pub(super) fn set_of(&mut self, iter: &Expr, span: Span) -> Value {
        self.fill_from(Builtin::SetNew, iter, span, &mut |lw, s, v| {
            lw.emit(InstKind::Builtin(Builtin::SetAdd, vec![s, v]), span);
        })
    }

    /// A new dict of the (key, value) pairs of `iter` (`dict(zip(keys, values))`).
    pub(super) fn dict_of(&mut self, iter: &Expr, span: Span) -> Value {
        self.fill_from(Builtin::DictNew, iter, span, &mut |lw, d, v| {
            let k = lw.emit(InstKind::TupleGet(v, 0), span);
            let x = lw.emit(InstKind::TupleGet(v, 1), span);
            lw.f.push(lw.cur, InstKind::SetItem(d, vec![k], x), None, span);
        })
    }

    fn comp_generators(&mut self, gens: &[ast::Comprehension], span: Span, inner: &mut dyn FnMut(&mut Self)) {
        let Some((g, rest)) = gens.split_first() else {
            inner(self);
            return;
        };
        if g.is_async {
            self.diags.push(unsupported(span, "async comprehensions are", ""));
            return;
        }
        let mut names: Vec<String> = Vec::new();
        super::collect_targets(&g.target, &mut |n| names.push(n.to_string()));
        self.locals.extend(names);
        self.iter_loop(&g.iter, Some(&g.target), &[], span, &mut |lw, _| {
            let join = lw.new_block();
            for c in &g.ifs {
                let next = lw.new_block();
                lw.cond_branch(c, next, join);
                lw.seal(next);
                lw.cur = next;
            }
            lw.comp_generators(rest, span, inner);
            lw.jump(join, vec![], span);
            lw.seal(join);
            lw.cur = join;
        });
    }

    /// A new list of the elements of `iter` (`list(x)`); `None` after a diagnostic.
    pub(super) fn list_of(&mut self, iter: &Expr, span: Span) -> Value {
        self.fill_from(Builtin::ListNew, iter, span, &mut |lw, l, v| {
            lw.emit(InstKind::Builtin(Builtin::ListAppend, vec![l, v]), span);
        })
    }

    /// The rotated loop `for c in range(start, stop, step)`, with `body` binding the target
    /// from the counter at the top of each iteration and lowering the loop's body.
    #[allow(clippy::too_many_arguments)]
    fn counted_loop(
        &mut self,
        start: Value,
        stop: Value,
        step: Value,
        step_const: Option<i64>,
        orelse: &[Stmt],
        span: Span,
        body: &mut dyn FnMut(&mut Self, Value),
    ) {
        // Rotated loop: test before entering, then at the bottom of each iteration:
        //   if start < stop: body(start) ... latch: next = c + step; if next < stop: body(next)
        self.hidden += 1;
        let counter = format!(".for{}", self.hidden);
        let body_block = self.new_block();
        let latch = self.new_block();
        let exit = self.new_block();
        let after = if orelse.is_empty() { exit } else { self.new_block() };
        let zero = if step_const.is_none() { Some(self.konst(Const::Int(0), span)) } else { None };
        let test = |lw: &mut Self, c: Value| -> Value {
            match step_const {
                Some(s) if s > 0 => lw.emit(InstKind::Compare(CmpOp::Lt, c, stop), span),
                Some(_) => lw.emit(InstKind::Compare(CmpOp::Gt, c, stop), span),
                None => {
                    let pos = lw.emit(InstKind::Compare(CmpOp::Gt, step, zero.expect("dynamic step")), span);
                    let lt = lw.emit(InstKind::Compare(CmpOp::Lt, c, stop), span);
                    let gt = lw.emit(InstKind::Compare(CmpOp::Gt, c, stop), span);
                    lw.emit(InstKind::Select(pos, lt, gt), span)
                }
            }
        };
        self.def_var(&counter, start);
        let c0 = test(self, start);
        self.branch(c0, body_block, vec![], exit, vec![], span);
        self.cur = body_block;
        let iv = self.ssa.use_var(&mut self.f, body_block, &counter);
        self.loops.push((latch, after));
        body(self, iv);
        self.loops.pop();
        self.jump(latch, vec![], span);
        self.seal(latch);
        self.cur = latch;
        let c2 = self.ssa.use_var(&mut self.f, latch, &counter);
        let next = self.emit(InstKind::Binary(BinaryOp::Add, c2, step), span);
        self.def_var(&counter, next);
        let c1 = test(self, next);
        self.branch(c1, body_block, vec![], exit, vec![], span);
        self.seal(body_block);
        self.seal(exit);
        self.cur = exit;
        self.else_clause(orelse, after, span);
    }

    /// `range()` arguments as (start, stop, step, step if a literal); `None` after a
    /// diagnostic.
    fn range_args(&mut self, range_args: &[Expr], span: Span) -> Option<(Value, Value, Value, Option<i64>)> {
        let args: Vec<Value> = range_args
            .iter()
            .map(|e| {
                let v = self.expr(e);
                self.emit(InstKind::Builtin(Builtin::RangeArg, vec![v]), self.sp(e.range()))
            })
            .collect();
        let (start, stop, step) = match args.as_slice() {
            [stop] => (self.konst(Const::Int(0), span), *stop, None),
            [start, stop] => (*start, *stop, None),
            [start, stop, step] => (*start, *stop, Some(*step)),
            _ => unreachable!("checked 1..=3 arguments"),
        };
        // The step's sign picks the loop test; a literal step decides it at compile time.
        let step_const = match range_args.get(2) {
            None => Some(1),
            Some(e) => int_literal(e),
        };
        if step_const == Some(0) {
            self.diags.push(Diagnostic::error(
                "range() step must not be zero",
                self.sp(range_args[2].range()),
                "zero step",
            ));
            return None;
        }
        let step = step.unwrap_or_else(|| self.konst(Const::Int(1), span));
        Some((start, stop, step, step_const))
    }

    /// `len(range(start, stop, step))`: `max(0, (stop - start + step - sign(step)) // step)`.
    fn range_len(&mut self, start: Value, stop: Value, step: Value, step_const: Option<i64>, span: Span) -> Value {
        let sign = match step_const {
            Some(s) => self.konst(Const::Int(s.signum()), span),
            None => {
                let zero = self.konst(Const::Int(0), span);
                let pos = self.emit(InstKind::Compare(CmpOp::Gt, step, zero), span);
                let p = self.konst(Const::Int(1), span);
                let m = self.konst(Const::Int(-1), span);
                self.emit(InstKind::Select(pos, p, m), span)
            }
        };
        let d = self.emit(InstKind::Binary(BinaryOp::Sub, stop, start), span);
        let d = self.emit(InstKind::Binary(BinaryOp::Add, d, step), span);
        let d = self.emit(InstKind::Binary(BinaryOp::Sub, d, sign), span);
        let n = self.emit(InstKind::Binary(BinaryOp::FloorDiv, d, step), span);
        let zero = self.konst(Const::Int(0), span);
        let neg = self.emit(InstKind::Compare(CmpOp::Lt, n, zero), span);
        self.emit(InstKind::Select(neg, zero, n), span)
    }

    /// Whether `f` names the Python builtin `name` (not shadowed by a local or a global).
    fn is_builtin_fn(&self, f: &Expr, name: &str) -> bool {
        matches!(f, Expr::Name(n) if n.id.as_str() == name
            && !self.locals.contains(name) && !self.env.contains_key(name))
    }

    /// Parses an iterable; `None` after a diagnostic.
    fn source<'e>(&mut self, e: &'e Expr) -> Option<Source<'e>> {
        let Expr::Call(c) = e else { return Some(Source::Seq(e)) };
        let args = &c.arguments.args;
        let kw = &c.arguments.keywords;
        let espan = self.sp(e.range());
        if self.is_range(&c.func) {
            if kw.is_empty() && (1..=3).contains(&args.len()) && !args.iter().any(|a| matches!(a, Expr::Starred(_))) {
                return Some(Source::Range(args));
            }
            self.diags.push(unsupported(
                espan,
                "this form of range() is",
                "write range(stop), range(start, stop) or range(start, stop, step)",
            ));
            return None;
        }
        let starred = args.iter().any(|a| matches!(a, Expr::Starred(_)));
        if let Some((Global::NumpyModule, path)) = self.module_path(&c.func) {
            match (&path[..], &args[..]) {
                (["ndindex"], _) if kw.is_empty() && !starred && !args.is_empty() => {
                    return Some(Source::Ndindex(args))
                }
                (["ndenumerate"], [a]) if kw.is_empty() => return Some(Source::Ndenumerate(a)),
                // One array: its elements in C order, as numbers (Numba yields 0-d arrays,
                // which read the same: `x.item()` and arithmetic).
                (["nditer"], [a]) if kw.is_empty() && !matches!(a, Expr::Tuple(_)) => return Some(Source::Nditer(a)),
                // Several operands: Numba's broadcasting (trailing dimensions equal, numbers
                // everywhere), each element a tuple of numbers.
                (["nditer"], [Expr::Tuple(t)]) if kw.is_empty() && !t.elts.is_empty() => {
                    return Some(Source::NditerMany(&t.elts))
                }
                (["nditer"], _) => {
                    self.diags.push(unsupported(
                        espan,
                        "this form of np.nditer is",
                        "write np.nditer(a) with one array",
                    ));
                    return None;
                }
                (["ndindex" | "ndenumerate"], _) => {
                    self.diags.push(unsupported(
                        espan,
                        "this form of np.ndindex/np.ndenumerate is",
                        "write np.ndindex(a.shape) or np.ndenumerate(a)",
                    ));
                    return None;
                }
                _ => {}
            }
        }
        if self.is_builtin_fn(&c.func, "enumerate") {
            let start = match (&args[..], &kw[..]) {
                ([_], []) => None,
                ([_, s], []) => Some(s),
                _ => {
                    self.diags.push(unsupported(
                        espan,
                        "this form of enumerate() is",
                        "write enumerate(a) or enumerate(a, start)",
                    ));
                    return None;
                }
            };
            if starred {
                self.diags.push(unsupported(espan, "`*` arguments of enumerate() are", "write enumerate(a)"));
                return None;
            }
            let inner = self.source(&args[0])?;
            return Some(Source::Enumerate(Box::new(inner), start));
        }
        if self.is_builtin_fn(&c.func, "zip") {
            if args.is_empty() || !kw.is_empty() || starred {
                self.diags.push(unsupported(
                    espan,
                    "this form of zip() is",
                    "zip one or more arrays or ranges by position: zip(a, b)",
                ));
                return None;
            }
            let mut srcs = Vec::new();
            for a in args {
                srcs.push(self.source(a)?);
            }
            return Some(Source::Zip(srcs));
        }
        if self.is_builtin_fn(&c.func, "reversed") {
            if let ([Expr::Call(r)], []) = (&args[..], &kw[..]) {
                if self.is_range(&r.func)
                    && r.arguments.keywords.is_empty()
                    && (1..=3).contains(&r.arguments.args.len())
                {
                    return Some(Source::Reversed(&r.arguments.args));
                }
            }
            self.diags.push(unsupported(
                espan,
                "reversed() of anything but a range is",
                "count down over the indices: `for i in range(len(a) - 1, -1, -1)` and read a[i]",
            ));
            return None;
        }
        Some(Source::Seq(e))
    }

    /// Evaluates the iterable's parts before the loop; `None` after a diagnostic.
    fn eval_source(&mut self, s: &Source<'_>, span: Span) -> Option<Iter> {
        Some(match s {
            Source::Range(args) => {
                let (start, stop, step, sc) = self.range_args(args, span)?;
                let len = self.range_len(start, stop, step, sc, span);
                Iter::Range { start, step, len }
            }
            Source::Reversed(args) => {
                let (start, stop, step, sc) = self.range_args(args, span)?;
                let len = self.range_len(start, stop, step, sc, span);
                Iter::Reversed { start, step, len }
            }
            Source::Seq(e) => {
                let x = match self.generator_list(e) {
                    Some(list) => list,
                    None => self.expr(e),
                };
                // A dict iterates its keys (the rewrite makes a list of them; any other
                // sequence is itself).
                let seq = self.emit(InstKind::Builtin(Builtin::IterSource, vec![x]), self.sp(e.range()));
                let len = self.emit(InstKind::Builtin(Builtin::IterLen, vec![seq]), self.sp(e.range()));
                Iter::Seq { seq, len }
            }
            Source::Enumerate(inner, start) => {
                let inner = self.eval_source(inner, span)?;
                let start = match start {
                    Some(e) => self.expr(e),
                    None => self.konst(Const::Int(0), span),
                };
                Iter::Enumerate(Box::new(inner), start)
            }
            Source::Zip(srcs) => {
                let mut its = Vec::new();
                for s in srcs {
                    its.push(self.eval_source(s, span)?);
                }
                Iter::Zip(its)
            }
            Source::Ndindex(args) => {
                let shape = match args {
                    [one] => self.expr(one),
                    _ => {
                        let dims = args.iter().map(|a| self.expr(a)).collect();
                        self.emit(InstKind::MakeTuple(dims), span)
                    }
                };
                let len = self.emit(InstKind::Builtin(Builtin::ShapeSize, vec![shape]), span);
                Iter::Ndindex { shape, len }
            }
            Source::Nditer(a) => {
                let arr = self.expr(a);
                let seq = self.emit(InstKind::Builtin(Builtin::Flat, vec![arr]), span);
                let len = self.emit(InstKind::Builtin(Builtin::IterLen, vec![seq]), span);
                Iter::Seq { seq, len }
            }
            Source::NditerMany(elts) => {
                let xs: Vec<Value> = elts.iter().map(|e| self.expr(e)).collect();
                let shape = self.emit(InstKind::Builtin(Builtin::NditerShape, xs.clone()), span);
                let len = self.emit(InstKind::Builtin(Builtin::ShapeSize, vec![shape]), span);
                Iter::NditerMany { xs, shape, len }
            }
            Source::Ndenumerate(a) => {
                let arr = self.expr(a);
                let shape = self.emit(InstKind::Builtin(Builtin::Shape, vec![arr]), span);
                let len = self.emit(InstKind::Builtin(Builtin::ShapeSize, vec![shape]), span);
                Iter::Ndenumerate { arr, shape, len }
            }
        })
    }

    /// Binds `target` to element `k` of `it`, unpacking `enumerate`/`zip` pairs directly.
    fn bind(&mut self, target: &Expr, it: &Iter, k: Value, span: Span) {
        match (it, target) {
            (Iter::Enumerate(inner, start), Expr::Tuple(_) | Expr::List(_)) if tuple_elts(target).len() == 2 => {
                let c = self.emit(InstKind::Binary(BinaryOp::Add, *start, k), span);
                self.assign(&tuple_elts(target)[0], c);
                self.bind(&tuple_elts(target)[1], inner, k, span);
            }
            (Iter::Ndenumerate { arr, shape, .. }, Expr::Tuple(_) | Expr::List(_)) if tuple_elts(target).len() == 2 => {
                let idx = self.emit(InstKind::Builtin(Builtin::Unravel, vec![*shape, k]), span);
                let x = self.emit(InstKind::GetItem(*arr, vec![idx]), span);
                self.assign(&tuple_elts(target)[0], idx);
                self.assign(&tuple_elts(target)[1], x);
            }
            (Iter::NditerMany { xs, shape, .. }, Expr::Tuple(_) | Expr::List(_))
                if tuple_elts(target).len() == xs.len() =>
            {
                let idx = self.emit(InstKind::Builtin(Builtin::Unravel, vec![*shape, k]), span);
                for (t, &x) in tuple_elts(target).iter().zip(xs) {
                    let v = self.emit(InstKind::Builtin(Builtin::NditerGet, vec![x, idx]), span);
                    self.assign(t, v);
                }
            }
            (Iter::Zip(its), Expr::Tuple(_) | Expr::List(_)) if tuple_elts(target).len() == its.len() => {
                for (t, it) in tuple_elts(target).iter().zip(its) {
                    self.bind(t, it, k, span);
                }
            }
            _ => {
                let v = self.element(it, k, span);
                self.assign(target, v);
            }
        }
    }

    /// Element `k` of `it` as one value.
    fn element(&mut self, it: &Iter, k: Value, span: Span) -> Value {
        match it {
            Iter::Range { start, step, .. } => {
                let o = self.emit(InstKind::Binary(BinaryOp::Mul, k, *step), span);
                self.emit(InstKind::Binary(BinaryOp::Add, *start, o), span)
            }
            Iter::Reversed { start, step, len } => {
                let one = self.konst(Const::Int(1), span);
                let last = self.emit(InstKind::Binary(BinaryOp::Sub, *len, one), span);
                let j = self.emit(InstKind::Binary(BinaryOp::Sub, last, k), span);
                let o = self.emit(InstKind::Binary(BinaryOp::Mul, j, *step), span);
                self.emit(InstKind::Binary(BinaryOp::Add, *start, o), span)
            }
            Iter::Seq { seq, .. } => self.emit(InstKind::GetItem(*seq, vec![k]), span),
            Iter::Enumerate(inner, start) => {
                let c = self.emit(InstKind::Binary(BinaryOp::Add, *start, k), span);
                let x = self.element(inner, k, span);
                self.emit(InstKind::MakeTuple(vec![c, x]), span)
            }
            Iter::Zip(its) => {
                let xs = its.iter().map(|it| self.element(it, k, span)).collect();
                self.emit(InstKind::MakeTuple(xs), span)
            }
            Iter::Ndindex { shape, .. } => self.emit(InstKind::Builtin(Builtin::Unravel, vec![*shape, k]), span),
            Iter::Ndenumerate { arr, shape, .. } => {
                let idx = self.emit(InstKind::Builtin(Builtin::Unravel, vec![*shape, k]), span);
                let x = self.emit(InstKind::GetItem(*arr, vec![idx]), span);
                self.emit(InstKind::MakeTuple(vec![idx, x]), span)
            }
            Iter::NditerMany { xs, shape, .. } => {
                let idx = self.emit(InstKind::Builtin(Builtin::Unravel, vec![*shape, k]), span);
                let vs =
                    xs.iter().map(|&x| self.emit(InstKind::Builtin(Builtin::NditerGet, vec![x, idx]), span)).collect();
                self.emit(InstKind::MakeTuple(vs), span)
            }
        }
    }

    /// `for t in (x, y, z)`: the tuple is evaluated, then the body is lowered once per element.
    fn unrolled_for(&mut self, fr: &ast::StmtFor, elts: &[Expr]) {
        let vals: Vec<Value> = elts.iter().map(|e| self.expr(e)).collect();
        self.unrolled(fr, vals);
    }

    /// The argument of `numba.literal_unroll(x)` when `iter` is that call.
    fn literal_unroll_arg<'e>(&self, iter: &'e Expr) -> Option<&'e Expr> {
        let Expr::Call(c) = iter else { return None };
        let (_, path) = self.opaque_path(&c.func)?;
        // `numba.literal_unroll` and numba-cuda's re-export (`numba.cuda.misc.special...`).
        if !(path.starts_with("numba.") && path.ends_with(".literal_unroll")) {
            return None;
        }
        match (&c.arguments.args[..], c.arguments.keywords.is_empty()) {
            ([x], true) => Some(x),
            _ => None,
        }
    }

    /// `for v in literal_unroll(t)`: Numba's loop over a tuple of mixed types, one copy of the
    /// body per element, when the length is known here: a tuple literal, a module-level tuple
    /// constant or tuple of arrays, or a local assigned once to a tuple literal (read as `t[0]`,
    /// `t[1]`, ... of the value it holds at the loop). Otherwise (a tuple parameter) it is `for v in t`, which
    /// takes a tuple of one type and says so, located, for one of mixed types.
    fn literal_unroll_for(&mut self, fr: &ast::StmtFor, arg: &Expr) {
        match arg {
            Expr::Tuple(t) => return self.unrolled_for(fr, &t.elts),
            Expr::Name(n) if !self.locals.contains(n.id.as_str()) && self.global_tuple_for(fr, n.id.as_str()) => {
                return;
            }
            Expr::Name(n) if self.frames.is_empty() && self.local_tuples.contains_key(n.id.as_str()) => {
                let len = self.local_tuples[n.id.as_str()];
                let span = self.sp(arg.range());
                let t = self.expr(arg);
                let vals = (0..len as u32).map(|k| self.emit(InstKind::TupleGet(t, k), span)).collect();
                return self.unrolled(fr, vals);
            }
            _ => {}
        }
        let mut plain = fr.clone();
        *plain.iter = arg.clone();
        self.for_stmt(&plain)
    }

    /// `for t in T` over a module-level tuple `T` (of constants, or of frozen arrays), unrolled:
    /// whether `T` is one.
    fn global_tuple_for(&mut self, fr: &ast::StmtFor, name: &str) -> bool {
        match self.env.get(name) {
            Some(Global::Const(c @ ConstValue::Tuple(_))) => {
                let c = c.clone();
                self.unrolled_const_for(fr, &c);
                true
            }
            Some(Global::ArrayTuple(arrays)) => {
                let arrays = arrays.clone();
                let vals = self.const_arrays(&arrays, self.sp(fr.iter.range()));
                self.unrolled(fr, vals);
                true
            }
            _ => false,
        }
    }

    /// `for t in T` over a module-level constant tuple `T`.
    fn unrolled_const_for(&mut self, fr: &ast::StmtFor, c: &ConstValue) {
        let span = self.sp(fr.iter.range());
        let ConstValue::Tuple(items) = c else { unreachable!("a tuple constant") };
        let vals: Vec<Value> = items.iter().map(|v| self.const_val(v, span)).collect();
        self.unrolled(fr, vals);
    }

    fn unrolled(&mut self, fr: &ast::StmtFor, vals: Vec<Value>) {
        let span = self.sp(fr.range);
        let after = self.new_block();
        for v in vals {
            let next = self.new_block();
            self.assign(&fr.target, v);
            self.loops.push((next, after));
            self.block(&fr.body);
            self.loops.pop();
            self.jump(next, vec![], span);
            self.seal(next);
            self.cur = next;
        }
        self.block(&fr.orelse);
        self.jump(after, vec![], span);
        self.seal(after);
        self.cur = after;
    }
}
