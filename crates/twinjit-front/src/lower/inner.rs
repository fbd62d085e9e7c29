//! Inner functions and lambdas, inlined at each call site as Numba inlines closures.
//!
//! `def g(...)` or `g = lambda ...` inside a compiled function binds `g` to the inner
//! function's syntax (nothing is emitted). A call `g(args)` binds the arguments with
//! [`Params::bind`] and lowers the inner body in place: its parameters and its own locals are
//! renamed into a fresh scope (`g#3#y`), and every other name is resolved as it is where the
//! inner function was defined, reading the enclosing function's *current* SSA value (Python's
//! closures capture variables by reference, so a variable changed between the `def` and the
//! call is read with its new value, as in Numba). `nonlocal k` makes assignments write the
//! enclosing `k` (Numba supports it). A `return` in the inlined body jumps to the call's
//! continuation block with the value. Recursion, and using the inner function as a value
//! (passing, returning, storing it), are located errors.

use super::{collect_locals, unsupported, Lower};
use crate::globals::ModuleNames;
use crate::params::Params;
use crate::span;
use hashbrown::HashSet;
use ruff_python_ast::{self as ast, Expr, Stmt};
use std::rc::Rc;
use twinjit_diag::{Diagnostic, FileId, Span};
use twinjit_ir::{Block, Const, Terminator, Type, Value};

/// Deepest nesting of inlined calls (an inner function calling another inner function).
pub(super) const MAX_INLINE_DEPTH: usize = 64;

/// One inlined scope: its local names and the prefix that makes them unique.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub(super) locals: HashSet<String>,
    pub(super) prefix: String,
}

#[derive(Debug)]
pub(super) enum Body {
    Def(Vec<Stmt>),
    Lambda(Box<Expr>),
}

/// An inner function as defined: its syntax and the scope it was defined in.
#[derive(Debug)]
pub(super) struct InnerFn {
    pub(super) name: String,
    pub(super) params: Params,
    pub(super) body: Body,
    /// The scope of the definition (frames and visible locals) that free names resolve in.
    pub(super) frames: Vec<Frame>,
    pub(super) visible: HashSet<String>,
    pub(super) span: Span,
}

/// An inlined call in progress: the inner function and the block its `return`s jump to.
#[derive(Clone)]
pub(super) struct Inlining {
    pub(super) callee: Rc<InnerFn>,
    pub(super) cont: Block,
}

/// The display name of a (possibly renamed) variable: `g#3#y` is `y`.
pub(super) fn display_name(v: &str) -> &str {
    v.rsplit('#').next().unwrap_or(v)
}

impl Lower<'_> {
    /// The SSA name of variable `id` in the current scope.
    pub(super) fn var(&self, id: &str) -> String {
        for fr in self.frames.iter().rev() {
            if fr.locals.contains(id) {
                return format!("{}{id}", fr.prefix);
            }
        }
        id.to_string()
    }

    /// The inner function `id` names here, if it names one.
    pub(super) fn inner_fn(&self, id: &str) -> Option<Rc<InnerFn>> {
        if !self.locals.contains(id) {
            return None;
        }
        self.inner.get(&self.var(id)).cloned()
    }

    /// `def g(...)` inside a compiled function.
    pub(super) fn inner_def(&mut self, fd: &ast::StmtFunctionDef) {
        let span = self.sp(fd.range);
        if let Some(d) = fd.decorator_list.first() {
            self.diags.push(unsupported(
                self.sp(d.range),
                "decorators on inner functions are",
                "remove the decorator: an inner function is compiled with the function that defines it",
            ));
            return;
        }
        if fd.is_async {
            self.diags.push(unsupported(self.sp(fd.name.range), "`async def` is", ""));
            return;
        }
        let body = Body::Def(fd.body.clone());
        self.bind_inner(fd.name.id.as_str(), &fd.parameters, body, span);
    }

    /// `g = lambda ...`: binds `g` like a `def`.
    pub(super) fn lambda_assign(&mut self, name: &str, l: &ast::ExprLambda) {
        let p = l.parameters.as_deref().cloned().unwrap_or_default();
        self.bind_inner(name, &p, Body::Lambda(l.body.clone()), self.sp(l.range));
    }

    fn bind_inner(&mut self, name: &str, p: &ast::Parameters, body: Body, span: Span) {
        if let Some(v) = &p.vararg {
            self.diags.push(unsupported(self.sp(v.range), "`*args` in inner functions is", "list the parameters"));
        }
        if let Some(v) = &p.kwarg {
            self.diags.push(unsupported(self.sp(v.range), "`**kwargs` is", "list the parameters explicitly"));
        }
        if let Some(k) = p.kwonlyargs.first() {
            self.diags.push(unsupported(self.sp(k.range), "keyword-only parameters are", "use positional parameters"));
        }
        let params = Params::of(p, &ModuleNames(self.env), self.file);
        for d in &params.defaults {
            if let Err(bad) = d {
                self.diags.push(bad.diagnostic());
            }
        }
        let f = InnerFn {
            name: name.to_string(),
            params,
            body,
            frames: self.frames.clone(),
            visible: self.locals.clone(),
            span,
        };
        let var = self.var(name);
        self.inner.insert(var, Rc::new(f));
    }

    /// An inner function read as a value (passed, returned, stored): a located error.
    pub(super) fn inner_as_value(&mut self, f: &InnerFn, span: Span) -> Value {
        self.fail(
            Diagnostic::error(format!("inner function `{}` used as a value", f.name), span, "not called").with_hint(
                format!(
                    "inner functions and lambdas can only be called where they are visible, as Numba inlines them; \
                     to pass or return a function, define `{}` at module level with @njit",
                    f.name
                ),
            ),
        )
    }

    /// `g(args)` for an inner function `g`: the body inlined here.
    pub(super) fn inline_call(&mut self, f: Rc<InnerFn>, c: &ast::ExprCall, span: Span) -> Value {
        if self.inlining.iter().any(|i| Rc::ptr_eq(&i.callee, &f)) {
            return self.fail(
                Diagnostic::error(format!("recursive call of inner function `{}`", f.name), span, "calls itself")
                    .with_hint(format!(
                        "Numba inlines inner functions, so they cannot recurse; define `{}` at module level with @njit",
                        f.name
                    ))
                    .with_secondary(f.span, format!("`{}` is defined here", f.name)),
            );
        }
        if self.inlining.len() >= MAX_INLINE_DEPTH {
            return self.fail(Diagnostic::error("inner functions nested too deeply", span, "here"));
        }
        let Some(args) = self.bound_args(&f, c, span) else { return self.fail_silently() };
        self.inline_body(f, args, span)
    }

    fn inline_body(&mut self, f: Rc<InnerFn>, args: Vec<Value>, span: Span) -> Value {
        // The inner scope: parameters and names assigned in the body, less `nonlocal` ones.
        let mut locals: HashSet<String> = f.params.names.iter().cloned().collect();
        let mut nonlocal = Vec::new();
        if let Body::Def(body) = &f.body {
            collect_locals(body, &mut locals);
            collect_nonlocal(body, self.file, &mut nonlocal);
        }
        for (name, at) in &nonlocal {
            locals.remove(name.as_str());
            if !f.visible.contains(name.as_str()) {
                self.diags.push(
                    Diagnostic::error(
                        format!("no binding for nonlocal `{name}` found"),
                        *at,
                        "not a variable of the enclosing function",
                    )
                    .with_hint(format!("assign `{name}` in the enclosing function before defining `{}`", f.name)),
                );
            }
        }
        self.inline_count += 1;
        let prefix = format!("{}#{}#", f.name, self.inline_count);
        let frame = Frame { locals: locals.clone(), prefix };
        let mut frames = f.frames.clone();
        frames.push(frame);
        let saved_frames = std::mem::replace(&mut self.frames, frames);
        let mut visible = f.visible.clone();
        visible.extend(locals);
        let saved_locals = std::mem::replace(&mut self.locals, visible);
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_tries = self.enter_inlined_tries();
        for (name, v) in f.params.names.iter().zip(args) {
            let var = self.var(name);
            self.def_var(&var, v);
        }
        let cont = self.new_block();
        let result = self.f.add_block_param(cont, Type::Unknown);
        self.inlining.push(Inlining { callee: f.clone(), cont });
        match &f.body {
            Body::Def(body) => {
                self.block(body);
                if self.f.blocks[self.cur.index()].term == Terminator::Unreachable {
                    // Falling off the end returns None.
                    let none = self.konst(Const::None, span);
                    self.jump(cont, vec![none], span);
                }
            }
            Body::Lambda(e) => {
                let v = self.expr(e);
                self.jump(cont, vec![v], span);
            }
        }
        self.inlining.pop();
        self.loops = saved_loops;
        self.tries = saved_tries;
        self.locals = saved_locals;
        self.frames = saved_frames;
        self.seal(cont);
        self.cur = cont;
        result
    }

    /// `return` inside an inlined body: jump to the call's continuation with the value.
    pub(super) fn inline_return(&mut self, value: Option<&Expr>, span: Span) -> bool {
        let Some(cont) = self.inlining.last().map(|i| i.cont) else { return false };
        let v = match value {
            Some(e) => self.expr(e),
            None => self.konst(Const::None, span),
        };
        self.jump(cont, vec![v], span);
        self.dead();
        true
    }

    /// Whether an inner function's body is being inlined (`nonlocal` is accepted there).
    pub(super) fn in_inner(&self) -> bool {
        !self.inlining.is_empty()
    }
}

/// The `nonlocal` names of an inner body (not of functions nested in it).
fn collect_nonlocal(body: &[Stmt], file: FileId, out: &mut Vec<(String, Span)>) {
    for s in body {
        match s {
            Stmt::Nonlocal(n) => {
                for id in &n.names {
                    out.push((id.id.to_string(), span(file, id.range)));
                }
            }
            Stmt::For(f) => {
                collect_nonlocal(&f.body, file, out);
                collect_nonlocal(&f.orelse, file, out);
            }
            Stmt::While(w) => {
                collect_nonlocal(&w.body, file, out);
                collect_nonlocal(&w.orelse, file, out);
            }
            Stmt::If(i) => {
                collect_nonlocal(&i.body, file, out);
                for c in &i.elif_else_clauses {
                    collect_nonlocal(&c.body, file, out);
                }
            }
            Stmt::Try(t) => {
                collect_nonlocal(&t.body, file, out);
                for ruff_python_ast::ExceptHandler::ExceptHandler(h) in &t.handlers {
                    collect_nonlocal(&h.body, file, out);
                }
                collect_nonlocal(&t.orelse, file, out);
                collect_nonlocal(&t.finalbody, file, out);
            }
            _ => {}
        }
    }
}
