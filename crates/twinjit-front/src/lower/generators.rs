//! Generators consumed by `for` loops, inlined as Numba's users write them:
//!
//! ```python
//! @njit
//! def pairs(n):
//!     for i in range(n):
//!         yield i, i * i
//!
//! @njit
//! def total(n):
//!     s = 0
//!     for i, sq in pairs(n):
//!         s += i * sq
//!     return s
//! ```
//!
//! `for target in gen(args): body` where `gen` is a generator function (a module-level
//! function or an inner function whose body has a `yield` statement) lowers the generator's
//! body in place, in its own renamed scope (as [`super::inner`] inlines a call), and at every
//! `yield v` switches back to the loop's scope: `target = v`, then the loop body, whose
//! `continue` resumes the generator after that `yield` and whose `break` leaves both. A
//! `return` in the generator, or its end, finishes the loop (and runs its `else`). So the
//! generator and the loop interleave exactly as in Python, lazily: an endless generator with a
//! `break` in the loop is fine. The loop body is lowered once per `yield` statement.
//!
//! Where the generator is the iterable of `list()`, `set()`, `sorted()`, a comprehension,
//! `enumerate` or `zip`, the same inlining appends what it yields to a list first.
//!
//! Not supported (located errors): a generator used as a value otherwise (returned, stored,
//! passed to a function), `x = yield v`, `yield from`, and a `yield`
//! inside a `try` statement of the generator (an exception raised by the loop body would be
//! caught by the generator's handler).

use super::inner::{Body, Frame, Inlining, InnerFn};
use super::{collect_locals, try_except::TryCtx, unsupported, Lower};
use crate::env::Global;
use crate::globals::ModuleNames;
use crate::params::Params;
use hashbrown::HashSet;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::rc::Rc;
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::{Block, Builtin, Const, InstKind, Terminator, Type, Value};

/// The error of a `yield` lowered outside a loop that iterates its generator: a generator
/// function compiled on its own (the module lists it, but not as an error).
pub(crate) const GENERATOR_ON_ITS_OWN: &str = "generators (`yield`) are compiled only as the iterable of a `for` loop";

/// The key under which a module-level generator function's definition is kept in the module's
/// names (no Python name contains a colon).
pub(crate) fn generator_key(name: &str) -> String {
    format!(".generator:{name}")
}

/// Whether `body` (not counting functions defined in it) has a `yield`.
pub(crate) fn has_yield(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Expr(e) => matches!(&*e.value, Expr::Yield(_) | Expr::YieldFrom(_)),
        Stmt::Assign(a) => matches!(&*a.value, Expr::Yield(_) | Expr::YieldFrom(_)),
        Stmt::For(f) => has_yield(&f.body) || has_yield(&f.orelse),
        Stmt::While(w) => has_yield(&w.body) || has_yield(&w.orelse),
        Stmt::If(i) => has_yield(&i.body) || i.elif_else_clauses.iter().any(|c| has_yield(&c.body)),
        Stmt::With(w) => has_yield(&w.body),
        Stmt::Try(t) => {
            has_yield(&t.body)
                || t.handlers.iter().any(|ast::ExceptHandler::ExceptHandler(h)| has_yield(&h.body))
                || has_yield(&t.orelse)
                || has_yield(&t.finalbody)
        }
        _ => false,
    })
}

/// The lowering state that belongs to one scope: switched at every `yield` between the
/// generator's scope and the loop's.
pub(super) struct Scope {
    frames: Vec<Frame>,
    locals: HashSet<String>,
    loops: Vec<(Block, Block)>,
    tries: Vec<TryCtx>,
    inlining: Vec<Inlining>,
    gens: Vec<GenSite>,
}

/// What each `yield v` of an inlined generator does, in the consumer's scope.
enum Sink {
    /// `target = v`, then one iteration of a `for` loop's body.
    Loop { target: Expr, body: Vec<Stmt> },
    /// Append `v` to a list (a generator iterated by `list()`, a comprehension, `enumerate`,
    /// `zip`, ...: the elements are collected first).
    Append(Value),
}

/// A `for` loop over a generator being lowered.
pub(super) struct GenSite {
    sink: Sink,
    /// Where `break` in the loop body goes (after the loop and its `else`).
    exit: Block,
    /// The loop's scope while the generator's is lowered.
    consumer: Option<Scope>,
    /// `self.inlining.len()` in the generator's own body (a `yield` elsewhere is an error).
    depth: usize,
    /// `self.tries.len()` at the generator's entry.
    tries: usize,
}

impl Lower<'_> {
    fn swap_scope(&mut self, s: &mut Scope) {
        std::mem::swap(&mut self.frames, &mut s.frames);
        std::mem::swap(&mut self.locals, &mut s.locals);
        std::mem::swap(&mut self.loops, &mut s.loops);
        std::mem::swap(&mut self.tries, &mut s.tries);
        std::mem::swap(&mut self.inlining, &mut s.inlining);
        std::mem::swap(&mut self.gens, &mut s.gens);
    }

    /// The generator function `for` iterates over, if `iter` calls one.
    fn generator_callee(&self, iter: &Expr) -> Option<Rc<InnerFn>> {
        let Expr::Call(c) = iter else { return None };
        let Expr::Name(n) = &*c.func else { return None };
        let id = n.id.as_str();
        if self.locals.contains(id) {
            return self.inner_fn(id).filter(|f| matches!(&f.body, Body::Def(b) if has_yield(b)));
        }
        let Some(Global::Generator(fd)) = self.env.get(&generator_key(id)) else { return None };
        // A module-level generator: its free names are the module's.
        Some(Rc::new(InnerFn {
            name: id.to_string(),
            params: Params::of(&fd.parameters, &ModuleNames(self.env), self.file),
            body: Body::Def(fd.body.clone()),
            frames: Vec::new(),
            visible: HashSet::new(),
            span: self.sp(fd.range),
        }))
    }

    /// `for target in gen(args): body [else: orelse]` over a generator function: `false` if
    /// `fr.iter` does not call one.
    pub(super) fn generator_for(&mut self, fr: &ast::StmtFor) -> bool {
        let Some(f) = self.generator_callee(&fr.iter) else { return false };
        let Expr::Call(c) = &*fr.iter else { return false };
        let span = self.sp(fr.range);
        let sink = Sink::Loop { target: (*fr.target).clone(), body: fr.body.clone() };
        self.inline_generator(f, c, sink, &fr.orelse, span);
        true
    }

    /// The list of what a generator call yields, when `e` calls a generator function (the
    /// iterable of `list()`, a comprehension, `enumerate`, `zip`, ...).
    pub(super) fn generator_list(&mut self, e: &Expr) -> Option<Value> {
        let f = self.generator_callee(e)?;
        let Expr::Call(c) = e else { return None };
        let span = self.sp(e.range());
        let list = self.emit(InstKind::Builtin(Builtin::ListNew, vec![]), span);
        self.inline_generator(f, c, Sink::Append(list), &[], span);
        Some(list)
    }

    fn inline_generator(&mut self, f: Rc<InnerFn>, c: &ast::ExprCall, sink: Sink, orelse: &[Stmt], span: Span) {
        if self.inlining.len() >= super::inner::MAX_INLINE_DEPTH {
            self.diags.push(Diagnostic::error("generators nested too deeply (or recursive)", span, "here"));
            return;
        }
        let Some(args) = self.bound_args(&f, c, span) else { return };
        let exit = self.new_block();
        let done = self.new_block();
        // A `return` in the generator jumps here with its value, which the loop ignores.
        self.f.add_block_param(done, Type::Unknown);

        // The generator's scope: its parameters and locals renamed, the loop's `try`
        // handlers still catching what it raises.
        let mut locals: HashSet<String> = f.params.names.iter().cloned().collect();
        if let Body::Def(body) = &f.body {
            collect_locals(body, &mut locals);
        }
        self.inline_count += 1;
        let mut frames = f.frames.clone();
        frames.push(Frame { locals: locals.clone(), prefix: format!("{}#{}#", f.name, self.inline_count) });
        let mut visible = f.visible.clone();
        visible.extend(locals);
        let consumer_tries = self.enter_inlined_tries();
        let gen_tries = std::mem::replace(&mut self.tries, consumer_tries);
        let mut inlining = self.inlining.clone();
        inlining.push(Inlining { callee: f.clone(), cont: done });
        let depth = inlining.len();
        let tries = gen_tries.len();
        let mut scope =
            Scope { frames, locals: visible, loops: Vec::new(), tries: gen_tries, inlining, gens: Vec::new() };
        self.swap_scope(&mut scope);
        // Now `scope` holds the loop's state.
        self.gens.push(GenSite { sink, exit, consumer: Some(scope), depth, tries });
        for (name, v) in f.params.names.iter().zip(args) {
            let var = self.var(name);
            self.def_var(&var, v);
        }
        if let Body::Def(body) = &f.body {
            self.block(body);
        }
        if self.f.blocks[self.cur.index()].term == Terminator::Unreachable {
            let none = self.konst(Const::None, span);
            self.jump(done, vec![none], span);
        }
        let mut site = self.gens.pop().expect("pushed above");
        let mut scope = site.consumer.take().expect("the loop's scope is put back after each yield");
        self.swap_scope(&mut scope);
        self.seal(done);
        self.cur = done;
        self.block(orelse);
        self.jump(exit, vec![], span);
        self.seal(exit);
        self.cur = exit;
    }

    /// The arguments of a call of `f` (an inner function or a generator), bound to its
    /// parameters and evaluated in the caller's scope in source order; `None` after a diagnostic.
    pub(super) fn bound_args(&mut self, f: &InnerFn, c: &ast::ExprCall, span: Span) -> Option<Vec<twinjit_ir::Value>> {
        let a = &c.arguments;
        if let Some(s) = a.args.iter().find(|e| matches!(e, Expr::Starred(_))) {
            self.diags.push(unsupported(self.sp(s.range()), "`*args` in calls is", "pass arguments one by one"));
            return None;
        }
        let keywords = self.call_keywords(a).ok()?;
        let bound = match f.params.bind(&f.name, a.args.len(), &keywords, span, self.file) {
            Ok(b) => b,
            Err(d) => {
                self.diags.push(d);
                return None;
            }
        };
        let vals: Vec<_> = a.args.iter().chain(a.keywords.iter().map(|k| &k.value)).map(|e| self.expr(e)).collect();
        self.filled_args(bound, &vals, span)
    }

    /// `yield v` as a statement: `false` if no generator is being inlined here (the caller
    /// reports the `yield`).
    pub(super) fn yield_stmt(&mut self, value: Option<&Expr>, span: Span) -> bool {
        let Some(top) = self.gens.last() else { return false };
        if top.depth != self.inlining.len() {
            return false;
        }
        if self.tries.len() > top.tries {
            self.diags.push(unsupported(
                span,
                "`yield` inside a `try` statement is",
                "move the `yield` out of the `try` (twinjit inlines the loop body at each `yield`)",
            ));
            return true;
        }
        let v = match value {
            Some(e) => self.expr(e),
            None => self.konst(Const::None, span),
        };
        let mut site = self.gens.pop().expect("checked above");
        let resume = self.new_block();
        let mut scope = site.consumer.take().expect("the loop's scope");
        self.swap_scope(&mut scope);
        match &site.sink {
            Sink::Loop { target, body } => {
                // The loop's scope: one iteration of its body.
                self.loops.push((resume, site.exit));
                self.assign(target, v);
                self.block(body);
                self.loops.pop();
            }
            Sink::Append(list) => {
                self.emit(InstKind::Builtin(Builtin::ListAppend, vec![*list, v]), span);
            }
        }
        self.jump(resume, vec![], span);
        self.swap_scope(&mut scope);
        site.consumer = Some(scope);
        self.gens.push(site);
        self.seal(resume);
        self.cur = resume;
        true
    }
}
