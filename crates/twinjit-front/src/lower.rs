//! Function bodies → untyped SSA IR.
//!
//! Python scoping: a name assigned anywhere in the function is local everywhere in it; other
//! names resolve to module constants (frozen), module functions, or imports. Control flow
//! becomes blocks; variables become SSA values through [`Ssa`]; `and`/`or`, conditional
//! expressions and comparison chains short-circuit through blocks with a parameter.
//! Statements after `return`/`break`/`continue` land in a fresh unreachable block.

use crate::const_eval::ConstValue;
use crate::env::{
    cmath_function, dtype_name, dtype_string, math_function, module_const, numpy_function, numpy_hint, python_builtins,
    supported_hint, type_info, Env, Global, Unfrozen, UnfrozenWhy,
};
use crate::fold::fold;
use crate::module_level::stmt_kind;
use crate::params::{Filled, Params};
use crate::span;
use crate::ssa::Ssa;
use hashbrown::{HashMap, HashSet};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use twinjit_diag::{Diagnostic, FileId, Span};
use twinjit_ir::builtins::{Alloc, ArrayMethod};
use twinjit_ir::passes::{run_passes, SimplifyCfg};
use twinjit_ir::verify::Level;
use twinjit_ir::{
    AddressSpace, BinaryOp, Block, BlockCall, Builtin, CmpOp, Const, DecoratorOptions, Function, FunctionAttrs,
    FunctionKind, InstKind, ModuleFunction, Scalar, Terminator, Type, Typing, UnaryOp, Value,
};

mod cuda_random;
mod fp16;
pub(crate) use generators::{generator_key, has_yield, GENERATOR_ON_ITS_OWN};
mod generators;
mod inner;
mod libdevice;
mod loops;
mod operator;
mod races;
mod raise;
mod try_except;
mod ufunc_reduce;
mod vector_types;

pub(crate) use vector_types::module_uses_vectors;

/// Deepest expression nesting lowered (deeper input gets a diagnostic, not a stack overflow).
const MAX_DEPTH: usize = 2000;

pub(crate) fn lower_function(
    fd: &ast::StmtFunctionDef,
    attrs: FunctionAttrs,
    options: DecoratorOptions,
    env: &Env,
    file: FileId,
    text: &str,
    vectors: bool,
) -> Result<ModuleFunction, Vec<Diagnostic>> {
    let fspan = span(file, fd.range);
    let name_span = span(file, fd.name.range);
    if fd.is_async {
        return Err(vec![Diagnostic::error("`async def` is not supported", name_span, "async function")
            .with_hint("compiled functions are ordinary `def` functions")]);
    }
    let mut lw = Lower {
        f: Function::new(fd.name.id.as_str(), fspan),
        ssa: Ssa::default(),
        cur: Function::ENTRY,
        loops: Vec::new(),
        env,
        file,
        locals: HashSet::new(),
        diags: Vec::new(),
        callees: Vec::new(),
        defaults: Vec::new(),
        kind: attrs.kind,
        depth: 0,
        hidden: 0,
        declared: options.locals.iter().cloned().collect(),
        frames: Vec::new(),
        inner: HashMap::new(),
        inlining: Vec::new(),
        gens: Vec::new(),
        inline_count: 0,
        parallel: options.parallel,
        prange_depth: 0,
        tries: Vec::new(),
        text,
        vectors,
        local_shapes: HashMap::new(),
        local_tuples: HashMap::new(),
        defer_errors: crate::overload::is_dispatcher(fd),
    };
    lw.params(&fd.parameters);
    collect_locals(&fd.body, &mut lw.locals);
    for (name, value) in local_constant_targets(&fd.body) {
        if let Expr::Tuple(t) = value {
            lw.local_tuples.insert(name.clone(), t.elts.len());
        }
        if let Some(shape) = lw.const_shape(value) {
            lw.local_shapes.insert(name, shape);
        }
    }
    lw.ssa.seal(&mut lw.f, Function::ENTRY);
    lw.block(&fd.body);
    // Falling off the end returns None.
    if lw.f.blocks[lw.cur.index()].term == Terminator::Unreachable {
        let end = Span::new(file, fspan.end, fspan.end);
        lw.f.terminate(lw.cur, Terminator::Return(None), end);
    }
    lw.report_unbound();
    if !lw.diags.is_empty() {
        return Err(lw.diags);
    }
    if let Err(e) = run_passes(&mut lw.f, Level::Untyped, &[&SimplifyCfg]) {
        return Err(vec![Diagnostic::error(
            format!("internal compiler error: {e}"),
            fspan,
            "while lowering this function",
        )]);
    }
    let start = fd.decorator_list.first().map(|d| u32::from(d.range.start())).unwrap_or(fspan.start) as usize;
    let source = text.get(start..fspan.end as usize).unwrap_or("").to_string();
    Ok(ModuleFunction {
        name: fd.name.id.to_string(),
        attrs,
        options,
        body: lw.f,
        source,
        name_span,
        callees: lw.callees,
        defaults: lw.defaults,
    })
}

/// The names an assignment target binds.
fn collect_targets(e: &Expr, out: &mut dyn FnMut(&str)) {
    match e {
        Expr::Name(n) => out(n.id.as_str()),
        Expr::Tuple(t) => t.elts.iter().for_each(|x| collect_targets(x, out)),
        Expr::List(l) => l.elts.iter().for_each(|x| collect_targets(x, out)),
        Expr::Starred(s) => collect_targets(&s.value, out),
        _ => {}
    }
}

fn collect_locals(body: &[Stmt], out: &mut HashSet<String>) {
    assigned_names(body, &mut |n| {
        out.insert(n.to_string());
    });
}

/// Calls `out` with each name every assignment of `body` binds (once per binding statement).
fn assigned_names(body: &[Stmt], out: &mut dyn FnMut(&str)) {
    let target = collect_targets;
    for s in body {
        match s {
            Stmt::Assign(a) => a.targets.iter().for_each(|t| target(t, out)),
            Stmt::AugAssign(a) => target(&a.target, out),
            Stmt::AnnAssign(a) => target(&a.target, out),
            Stmt::FunctionDef(fd) => out(fd.name.id.as_str()),
            Stmt::For(f) => {
                target(&f.target, out);
                assigned_names(&f.body, out);
                assigned_names(&f.orelse, out);
            }
            Stmt::While(w) => {
                assigned_names(&w.body, out);
                assigned_names(&w.orelse, out);
            }
            Stmt::If(i) => {
                assigned_names(&i.body, out);
                for c in &i.elif_else_clauses {
                    assigned_names(&c.body, out);
                }
            }
            Stmt::Try(t) => {
                assigned_names(&t.body, out);
                for ast::ExceptHandler::ExceptHandler(h) in &t.handlers {
                    if let Some(n) = &h.name {
                        out(n.id.as_str());
                    }
                    assigned_names(&h.body, out);
                }
                assigned_names(&t.orelse, out);
                assigned_names(&t.finalbody, out);
            }
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(v) = &item.optional_vars {
                        target(v, out);
                    }
                }
                assigned_names(&w.body, out);
            }
            _ => {}
        }
    }
}

/// The local variables a function assigns exactly once, at the top level of its body, an
/// integer or a tuple of integers (`N = 100`, `shape = (16, 16)`): numba-cuda folds such a
/// constant into `cuda.shared.array(N, ...)`, so the shape of a shared or local array may name it.
fn local_constant_targets(body: &[Stmt]) -> Vec<(String, &Expr)> {
    let mut count: HashMap<String, usize> = HashMap::new();
    assigned_names(body, &mut |n| *count.entry(n.to_string()).or_default() += 1);
    body.iter()
        .filter_map(|s| match s {
            Stmt::Assign(a) if a.targets.len() == 1 => match &a.targets[0] {
                Expr::Name(n) if count.get(n.id.as_str()) == Some(&1) => Some((n.id.to_string(), &*a.value)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

struct Lower<'a> {
    f: Function,
    ssa: Ssa,
    cur: Block,
    /// (continue target, break target)
    loops: Vec<(Block, Block)>,
    env: &'a Env,
    file: FileId,
    locals: HashSet<String>,
    diags: Vec<Diagnostic>,
    callees: Vec<String>,
    /// The function's own defaults (`ModuleFunction::defaults`).
    defaults: Vec<Const>,
    kind: FunctionKind,
    depth: usize,
    hidden: u32,
    /// `locals={'x': float32}`: every assignment to `x` is cast to the declared type.
    declared: HashMap<String, Scalar>,
    /// The scopes of the inner functions being inlined, innermost last (`inner.rs`).
    frames: Vec<inner::Frame>,
    /// Inner functions and lambdas by the SSA name of the variable bound to them.
    inner: HashMap<String, std::rc::Rc<inner::InnerFn>>,
    /// The inlined calls in progress, innermost last.
    inlining: Vec<inner::Inlining>,
    /// The `for` loops over generators being lowered, innermost last (`generators.rs`).
    gens: Vec<generators::GenSite>,
    /// Inlined calls so far (makes each inlined scope's names unique).
    inline_count: u32,
    /// `parallel=True`: the outermost `prange` loops are marked for the `parallel` pass.
    parallel: bool,
    /// Parallel `prange` loops being lowered (inner ones run as `range`).
    prange_depth: usize,
    /// The module's source text (for line pragmas).
    text: &'a str,
    /// The module names one of numba-cuda's vector types (`module_uses_vectors`, computed
    /// once per module): `.x .y .z .w` are components (`vector_types.rs`).
    vectors: bool,
    /// The `try` statements being lowered, innermost last (`try_except.rs`).
    tries: Vec<try_except::TryCtx>,
    /// Locals assigned once to a constant shape (`local_constant_targets`), for array shapes.
    local_shapes: HashMap<String, Vec<i64>>,
    /// Locals assigned once to a tuple literal, with its length (`literal_unroll(t)`).
    local_tuples: HashMap<String, usize>,
    /// An `@overload`'s function (`overload.rs`): a simple statement that cannot be lowered
    /// becomes a typing-time error raised where it is, reported only if the argument types
    /// reach it (Numba runs an overload's code only for the types it is called with).
    defer_errors: bool,
}

fn unsupported(span: Span, what: &str, hint: &str) -> Diagnostic {
    let d = Diagnostic::error(format!("{what} not supported"), span, "not supported by twinjit");
    if hint.is_empty() {
        d
    } else {
        d.with_hint(hint)
    }
}

impl Lower<'_> {
    /// Reports reads of variables that are assigned on no path before the read (Python's
    /// UnboundLocalError, found at compile time). Reads assigned on only some paths are left to
    /// inference, which accepts them when the value is never used unassigned.
    fn report_unbound(&mut self) {
        let f = &self.f;
        let mut unbound: HashSet<Value> = self.ssa.names().keys().copied().collect();
        loop {
            let mut changed = false;
            for b in &f.blocks {
                for t in b.succs() {
                    let params = &f.blocks[t.block.index()].params;
                    for (k, a) in t.args.iter().enumerate() {
                        if let Some(p) = params.get(k) {
                            // A value computed from `p` itself (`total += x` in a loop) does
                            // not bind `p`.
                            if unbound.contains(p) && !unbound.contains(a) && !depends_on(f, *a, *p) {
                                unbound.remove(p);
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut reported: HashSet<String> = HashSet::new();
        let mut uses: Vec<(Value, Span)> = Vec::new();
        for b in f.reverse_postorder() {
            let bd = &f.blocks[b.index()];
            for &i in &bd.insts {
                let d = &f.insts[i.index()];
                uses.extend(d.kind.operands().into_iter().map(|v| (v, d.span)));
            }
            match &bd.term {
                Terminator::Branch(c, ..) => uses.push((*c, bd.term_span)),
                Terminator::Return(Some(v)) => uses.push((*v, bd.term_span)),
                Terminator::Raise(e) => uses.extend(e.runtime().map(|v| (*v, bd.term_span))),
                _ => {}
            }
        }
        // Report the first read in source order.
        uses.sort_by_key(|(_, s)| s.start);
        {
            for (v, span) in uses {
                if unbound.contains(&v) {
                    let name = self.ssa.names()[&v].clone();
                    let name = inner::display_name(&name).to_string();
                    if reported.insert(name.clone()) && !name.starts_with('.') {
                        self.diags.push(
                            Diagnostic::error(
                                format!("local variable `{name}` is referenced before assignment"),
                                span,
                                format!("`{name}` has no value here"),
                            )
                            .with_hint(format!("assign `{name}` before this point, e.g. `{name} = 0`")),
                        );
                    }
                }
            }
        }
    }

    fn sp(&self, r: ruff_text_size::TextRange) -> Span {
        span(self.file, r)
    }

    fn emit(&mut self, kind: InstKind, span: Span) -> Value {
        self.f.push(self.cur, kind, Some(Type::Unknown), span).expect("has a result")
    }

    fn konst(&mut self, c: Const, span: Span) -> Value {
        self.emit(InstKind::Const(c), span)
    }

    /// Records `d` and returns a placeholder value so lowering can go on.
    fn fail(&mut self, d: Diagnostic) -> Value {
        self.diags.push(d);
        self.fail_silently()
    }

    /// A placeholder value for an error reported elsewhere: lowering goes on, and the module
    /// is rejected by that report.
    fn fail_silently(&mut self) -> Value {
        let inst = self.f.make_inst(InstKind::Undef, Some(Type::Unknown), Span::DUMMY);
        self.f.blocks[self.cur.index()].insts.push(inst);
        self.f.insts[inst.index()].result.expect("undef has a result")
    }

    /// A new block; inside a `try` body it unwinds to the handler (`try_except.rs`).
    fn new_block(&mut self) -> Block {
        let b = self.f.add_block();
        self.protect(b);
        b
    }

    fn jump(&mut self, to: Block, args: Vec<Value>, span: Span) {
        self.f.terminate(self.cur, Terminator::Jump(BlockCall { block: to, args }), span);
        self.ssa.add_pred(to, self.cur);
    }

    fn branch(&mut self, cond: Value, t: Block, targs: Vec<Value>, e: Block, eargs: Vec<Value>, span: Span) {
        self.f.terminate(
            self.cur,
            Terminator::Branch(cond, BlockCall { block: t, args: targs }, BlockCall { block: e, args: eargs }),
            span,
        );
        self.ssa.add_pred(t, self.cur);
        self.ssa.add_pred(e, self.cur);
    }

    /// Continues in a fresh block that nothing jumps to (code after return/break/continue).
    fn dead(&mut self) {
        let b = self.new_block();
        self.ssa.seal(&mut self.f, b);
        self.cur = b;
    }

    fn seal(&mut self, b: Block) {
        self.ssa.seal(&mut self.f, b);
    }

    fn params(&mut self, p: &ast::Parameters) {
        for a in p.posonlyargs.iter().chain(&p.args) {
            let name = a.parameter.name.id.to_string();
            if self.f.param_names.contains(&name) {
                self.diags.push(Diagnostic::error(
                    format!("duplicate parameter `{name}`"),
                    self.sp(a.parameter.name.range),
                    "defined twice",
                ));
                continue;
            }
            let v = self.f.add_block_param(Function::ENTRY, Type::Unknown);
            self.f.param_names.push(name.clone());
            self.f.param_spans.push(self.sp(a.parameter.name.range));
            let v = self.declare(&name, v, self.sp(a.parameter.name.range));
            self.ssa.def(Function::ENTRY, &name, v);
            self.locals.insert(name);
        }
        // The defaults were evaluated when the module level ran the `def`.
        if let Some(Global::Function { params, .. }) = self.env.get(self.f.name.as_str()) {
            for d in &params.defaults {
                match d {
                    Ok(c) => self.defaults.push(*c),
                    Err(bad) => self.diags.push(bad.diagnostic()),
                }
            }
            // numba-cuda's launch marshals only the arguments given (its simulator, plain
            // Python, fills defaults): a kernel launch passes every argument here.
            let first = p.posonlyargs.iter().chain(&p.args).find_map(|a| a.default.as_deref());
            if let (FunctionKind::Kernel, Some(d)) = (self.kind, first) {
                self.diags.push(unsupported(
                    self.sp(d.range()),
                    "default values of kernel parameters are",
                    "pass every argument at the launch; device functions (`@cuda.jit(device=True)`) may have defaults",
                ));
            }
        }
        if let Some(v) = &p.vararg {
            // `*args`: one more parameter, the tuple of the extra positional arguments (as
            // Numba types it); calls pack them.
            if self.kind == FunctionKind::Kernel {
                self.diags.push(unsupported(
                    self.sp(v.range),
                    "`*args` of a kernel is",
                    "list the parameters explicitly",
                ));
            } else {
                let name = v.name.id.to_string();
                let vp = self.f.add_block_param(Function::ENTRY, Type::Unknown);
                self.f.param_names.push(name.clone());
                self.f.param_spans.push(self.sp(v.name.range));
                let vp = self.declare(&name, vp, self.sp(v.name.range));
                self.ssa.def(Function::ENTRY, &name, vp);
                self.locals.insert(name);
            }
        }
        if let Some(v) = &p.kwarg {
            self.diags.push(unsupported(self.sp(v.range), "`**kwargs` is", "list the parameters explicitly"));
        }
        for k in &p.kwonlyargs {
            self.diags.push(unsupported(self.sp(k.range), "keyword-only parameters are", "use positional parameters"));
        }
    }

    fn block(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        if !self.defer_errors
            || matches!(
                s,
                Stmt::If(_) | Stmt::For(_) | Stmt::While(_) | Stmt::Try(_) | Stmt::With(_) | Stmt::FunctionDef(_)
            )
        {
            return self.stmt_now(s);
        }
        let (before, start) = (self.diags.len(), self.cur);
        self.stmt_now(s);
        if self.diags.len() > before {
            // The statement's code (from where it started) is replaced by the raise.
            let d = self.diags.drain(before..).next().expect("one at least");
            let exception = twinjit_ir::Exception {
                class: twinjit_ir::exception::TYPING_ERROR.to_string(),
                args: vec![twinjit_ir::ExceptionArg::Str(d.message)],
            };
            let at = d.primary.as_ref().map_or(self.sp(s.range()), |l| l.span);
            self.f.terminate(start, Terminator::Raise(Box::new(exception)), at);
            self.dead();
        }
    }

    fn stmt_now(&mut self, s: &Stmt) {
        let sspan = self.sp(s.range());
        match s {
            Stmt::Return(r) => {
                if self.inline_return(r.value.as_deref(), sspan) {
                    return;
                }
                if self.kind == FunctionKind::Kernel
                    && r.value.as_ref().is_some_and(|v| !matches!(**v, Expr::NoneLiteral(_)))
                {
                    self.diags.push(
                        Diagnostic::error("a kernel cannot return a value", sspan, "returns a value")
                            .with_hint("write results into an array argument, or use @cuda.jit(device=True)"),
                    );
                }
                let v = r.value.as_ref().map(|e| self.expr(e));
                self.run_finallies(0);
                self.f.terminate(self.cur, Terminator::Return(v), sspan);
                self.dead();
            }
            Stmt::Assign(a) => {
                if let ([Expr::Name(n)], Expr::Lambda(l)) = (a.targets.as_slice(), &*a.value) {
                    return self.lambda_assign(n.id.as_str(), l);
                }
                // `a, b = x, y`: evaluate the whole right side first.
                if let [t @ (Expr::Tuple(_) | Expr::List(_))] = a.targets.as_slice() {
                    let tel = tuple_elts(t);
                    if let Expr::Tuple(vt) = &*a.value {
                        if tel.len() != vt.elts.len() {
                            self.diags.push(Diagnostic::error(
                                format!("cannot unpack {} values into {} names", vt.elts.len(), tel.len()),
                                sspan,
                                "wrong number of values",
                            ));
                            return;
                        }
                        let vals: Vec<Value> = vt.elts.iter().map(|e| self.expr(e)).collect();
                        for (t, v) in tel.iter().zip(vals) {
                            self.assign(t, v);
                        }
                        return;
                    }
                }
                let v = self.expr(&a.value);
                for t in &a.targets {
                    self.assign(t, v);
                }
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    let v = self.expr(v);
                    self.assign(&a.target, v);
                }
            }
            Stmt::AugAssign(a) => self.aug_assign(a),
            Stmt::Expr(e) => {
                if let Expr::Yield(y) = &*e.value {
                    if self.yield_stmt(y.value.as_deref(), sspan) {
                        return;
                    }
                }
                // A docstring, or `...` as a placeholder body: nothing to evaluate.
                if !matches!(&*e.value, Expr::StringLiteral(_) | Expr::EllipsisLiteral(_)) {
                    self.expr(&e.value);
                }
            }
            Stmt::If(i) => self.if_stmt(i),
            Stmt::While(w) => self.while_stmt(w),
            Stmt::For(f) => self.for_stmt(f),
            Stmt::Break(_) | Stmt::Continue(_) => {
                let Some(&(cont, brk)) = self.loops.last() else {
                    self.diags.push(Diagnostic::error(format!("`{}` outside a loop", stmt_kind(s)), sspan, "here"));
                    return;
                };
                let to = if matches!(s, Stmt::Break(_)) { brk } else { cont };
                // Leaving `try` statements inside the loop runs their `finally` first.
                let inner = self.loops.len();
                let from = self.tries.iter().position(|t| t.loops_at >= inner).unwrap_or(self.tries.len());
                self.run_finallies(from);
                self.jump(to, vec![], sspan);
                self.dead();
            }
            Stmt::Pass(_) => {}
            Stmt::Delete(d) => {
                for t in &d.targets {
                    match t {
                        Expr::Subscript(s) if !matches!(&*s.slice, Expr::Slice(_)) => {
                            let l = self.expr(&s.value);
                            let i = self.expr(&s.slice);
                            self.emit(InstKind::Builtin(Builtin::ListDel, vec![l, i]), self.sp(t.range()));
                        }
                        Expr::Subscript(s) => {
                            let Expr::Slice(sl) = &*s.slice else { unreachable!("matched above") };
                            let l = self.expr(&s.value);
                            let sp = self.sp(t.range());
                            let mut part = |e: &Option<Box<Expr>>| match e {
                                Some(e) => self.expr(e),
                                None => self.emit(InstKind::Const(Const::None), sp),
                            };
                            let (lo, hi, st) = (part(&sl.lower), part(&sl.upper), part(&sl.step));
                            self.emit(InstKind::Builtin(Builtin::ListDelSlice, vec![l, lo, hi, st]), sp);
                        }
                        _ => self.diags.push(unsupported(
                            self.sp(t.range()),
                            "this `del` is",
                            "twinjit deletes list elements (`del l[i]`, `del l[a:b:c]`) only",
                        )),
                    }
                }
            }
            Stmt::Raise(r) => self.raise_stmt(r),
            Stmt::Assert(a) => self.assert_stmt(a),
            Stmt::Nonlocal(_) if self.in_inner() => {}
            Stmt::Global(_) | Stmt::Nonlocal(_) => self.diags.push(unsupported(
                sspan,
                &format!("the {} is", stmt_kind(s)),
                "module-level names are frozen constants; pass values as arguments",
            )),
            Stmt::FunctionDef(fd) => self.inner_def(fd),
            Stmt::ClassDef(_) => self.diags.push(unsupported(sspan, "classes are", "use arrays and functions")),
            Stmt::Try(t) => self.try_stmt(t),
            Stmt::With(_) => self.diags.push(unsupported(sspan, "the `with` statement is", "")),
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                self.diags.push(unsupported(sspan, "imports inside functions are", "import at module level"))
            }
            other => self.diags.push(unsupported(sspan, &format!("the {} statement is", stmt_kind(other)), "")),
        }
    }

    fn assign(&mut self, target: &Expr, v: Value) {
        let tspan = self.sp(target.range());
        match target {
            Expr::Name(n) => {
                let v = self.declare(n.id.as_str(), v, tspan);
                let var = self.var(n.id.as_str());
                self.def_var(&var, v)
            }
            Expr::Tuple(_) | Expr::List(_) => {
                for (k, t) in tuple_elts(target).iter().enumerate() {
                    let e = self.emit(InstKind::TupleGet(v, k as u32), tspan);
                    self.assign(t, e);
                }
            }
            Expr::Subscript(s) => {
                let arr = self.expr(&s.value);
                let idx = self.indices(&s.slice);
                self.f.push(self.cur, InstKind::SetItem(arr, idx, v), None, tspan);
            }
            Expr::Attribute(_) => self.diags.push(unsupported(tspan, "assigning to an attribute is", "")),
            Expr::Starred(_) => {
                self.diags.push(unsupported(tspan, "starred assignment is", "unpack into a fixed number of names"))
            }
            _ => self.diags.push(Diagnostic::error("cannot assign to this expression", tspan, "not a name or element")),
        }
    }

    /// `v` converted to the type `locals=` declares for `name`, if it declares one.
    fn declare(&mut self, name: &str, v: Value, span: Span) -> Value {
        match self.declared.get(name) {
            Some(&s) => self.emit(InstKind::Cast(s, v), span),
            None => v,
        }
    }

    fn aug_assign(&mut self, a: &ast::StmtAugAssign) {
        let span = self.sp(a.range);
        let Some(op) = binop(a.op) else {
            self.diags.push(unsupported(span, "the `@=` operator is", ""));
            return;
        };
        match &*a.target {
            Expr::Name(n) => {
                let old = self.name(n);
                let rhs = self.expr(&a.value);
                let r = self.emit(InstKind::Binary(op, old, rhs), span);
                // An array is updated in place; anything else is rebound to the result.
                let r = self.emit(InstKind::Builtin(Builtin::InPlace, vec![old, r]), span);
                let r = self.declare(n.id.as_str(), r, span);
                let var = self.var(n.id.as_str());
                self.def_var(&var, r);
            }
            Expr::Subscript(s) => {
                let arr = self.expr(&s.value);
                let idx = self.indices(&s.slice);
                let old = self.emit(InstKind::GetItem(arr, idx.clone()), span);
                let rhs = self.expr(&a.value);
                let r = self.emit(InstKind::Binary(op, old, rhs), span);
                self.f.push(self.cur, InstKind::SetItem(arr, idx, r), None, span);
            }
            other => {
                self.diags.push(Diagnostic::error("cannot assign to this expression", self.sp(other.range()), "here"))
            }
        }
    }

    fn if_stmt(&mut self, i: &ast::StmtIf) {
        let join = self.new_block();
        let mut test = Some(&*i.test);
        let mut body = &i.body;
        let mut clauses = i.elif_else_clauses.iter();
        loop {
            let Some(t) = test else {
                // else branch
                self.block(body);
                self.jump(join, vec![], self.sp(i.range));
                break;
            };
            let then_b = self.new_block();
            let else_b = self.new_block();
            self.cond_branch(t, then_b, else_b);
            self.seal(then_b);
            self.seal(else_b);
            self.cur = then_b;
            self.block(body);
            self.jump(join, vec![], self.sp(i.range));
            self.cur = else_b;
            match clauses.next() {
                Some(cl) => {
                    test = cl.test.as_ref();
                    body = &cl.body;
                }
                None => {
                    self.jump(join, vec![], self.sp(i.range));
                    break;
                }
            }
        }
        self.seal(join);
        self.cur = join;
    }

    /// Branches to `t` when `e` is truthy and to `f` otherwise, short-circuiting `and`, `or`
    /// and `not` into control flow, so that each comparison becomes a branch condition that
    /// later passes (bounds-check elimination) can use.
    fn cond_branch(&mut self, e: &Expr, t: Block, f: Block) {
        let span = self.sp(e.range());
        match e {
            Expr::BoolOp(b) if self.depth < MAX_DEPTH => {
                self.depth += 1;
                let n = b.values.len();
                for (k, v) in b.values.iter().enumerate() {
                    if k + 1 == n {
                        self.cond_branch(v, t, f);
                        break;
                    }
                    let next = self.new_block();
                    match b.op {
                        ast::BoolOp::And => self.cond_branch(v, next, f),
                        ast::BoolOp::Or => self.cond_branch(v, t, next),
                    }
                    self.seal(next);
                    self.cur = next;
                }
                self.depth -= 1;
            }
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not && self.depth < MAX_DEPTH => {
                self.depth += 1;
                self.cond_branch(&u.operand, f, t);
                self.depth -= 1;
            }
            // In an `@overload`'s function, `lo <= x < hi` as a branch per comparison, each one
            // a condition the types may decide (`0 <= a.ndim <= 2`); middle operands once.
            // (Elsewhere the chained form stays one value, which `range_test` reads.)
            Expr::Compare(c) if c.ops.len() > 1 && self.defer_errors => {
                let mut left = self.expr(&c.left);
                let n = c.ops.len();
                for (k, (op, e)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
                    let r = self.expr(e);
                    let res = self.compare_one(*op, left, r, span);
                    if k + 1 == n {
                        self.branch(res, t, vec![], f, vec![], span);
                    } else {
                        let next = self.new_block();
                        self.branch(res, next, vec![], f, vec![], span);
                        self.seal(next);
                        self.cur = next;
                    }
                    left = r;
                }
            }
            _ => {
                let c = self.expr(e);
                self.branch(c, t, vec![], f, vec![], span);
            }
        }
    }

    /// Whether the source line where `span` starts contains `needle` (a pragma comment).
    fn line_has(&self, span: Span, needle: &str) -> bool {
        let bytes = self.text.as_bytes();
        let at = (span.start as usize).min(bytes.len());
        let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
        let end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |k| at + k);
        self.text.get(start..end).is_some_and(|l| l.contains(needle))
    }

    /// Whether `e` is a call of `prange` (`prange(n)`, `numba.prange(n)`).
    fn is_prange(&self, e: &Expr) -> bool {
        let Expr::Call(c) = e else { return false };
        match &*c.func {
            Expr::Name(n) if !self.locals.contains(n.id.as_str()) => {
                self.env.get(n.id.as_str()) == Some(&Global::Prange)
            }
            Expr::Attribute(a) => {
                a.attr.id.as_str() == "prange"
                    && matches!(&*a.value, Expr::Name(m) if self.env.get(m.id.as_str()) == Some(&Global::NumbaModule))
            }
            _ => false,
        }
    }

    fn is_range(&self, f: &Expr) -> bool {
        match f {
            Expr::Name(n) if !self.locals.contains(n.id.as_str()) => {
                n.id.as_str() == "range" && !self.env.contains_key("range")
                    || self.env.get(n.id.as_str()) == Some(&Global::Prange)
            }
            Expr::Attribute(a) => {
                a.attr.id.as_str() == "prange"
                    && matches!(&*a.value, Expr::Name(m) if self.env.get(m.id.as_str()) == Some(&Global::NumbaModule))
            }
            _ => false,
        }
    }

    fn indices(&mut self, slice: &Expr) -> Vec<Value> {
        match slice {
            Expr::Tuple(t) => t.elts.iter().map(|e| self.index_expr(e)).collect(),
            e => vec![self.index_expr(e)],
        }
    }

    /// One index of a subscript: a slice `lo:hi:step` (absent bounds as `None`) and `...`
    /// become slice builtins that only a subscript's rewrite consumes.
    fn index_expr(&mut self, e: &Expr) -> Value {
        match e {
            Expr::Slice(sl) => {
                let span = self.sp(sl.range);
                let mut bounds = Vec::with_capacity(3);
                for part in [&sl.lower, &sl.upper, &sl.step] {
                    bounds.push(match part {
                        Some(e) => self.expr(e),
                        None => self.konst(Const::None, span),
                    });
                }
                self.emit(InstKind::Builtin(Builtin::SliceIndex, bounds), span)
            }
            Expr::EllipsisLiteral(x) => {
                let span = self.sp(x.range);
                self.emit(InstKind::Builtin(Builtin::Ellipsis, vec![]), span)
            }
            // `a[slice(lo, hi, step)]`: the slice object written out, as `a[lo:hi:step]`.
            Expr::Call(c) if self.is_builtin_name(&c.func, "slice") && c.arguments.keywords.is_empty() => {
                let span = self.sp(c.range);
                let args = &c.arguments.args;
                let none = |this: &mut Self| this.konst(Const::None, span);
                let mut bounds: Vec<Value> = match args.len() {
                    1 => vec![none(self), self.expr(&args[0]), none(self)],
                    2 | 3 => args.iter().map(|a| self.expr(a)).collect(),
                    _ => {
                        return self.fail(Diagnostic::error(
                            format!("slice expected 1 to 3 arguments, got {}", args.len()),
                            span,
                            "here",
                        ))
                    }
                };
                while bounds.len() < 3 {
                    bounds.push(none(self));
                }
                self.emit(InstKind::Builtin(Builtin::SliceIndex, bounds), span)
            }
            e => self.expr(e),
        }
    }

    /// The `x` of `iter(x)` (the builtin, one argument), where an iterable is consumed whole.
    pub(crate) fn iter_of<'e>(&self, e: &'e Expr) -> Option<&'e Expr> {
        match e {
            Expr::Call(c)
                if self.is_builtin_name(&c.func, "iter")
                    && c.arguments.args.len() == 1
                    && c.arguments.keywords.is_empty() =>
            {
                Some(&c.arguments.args[0])
            }
            _ => None,
        }
    }

    /// Whether `f` names the Python builtin `name` (not shadowed by a local or a global).
    fn is_builtin_name(&self, f: &Expr, name: &str) -> bool {
        matches!(f, Expr::Name(n) if n.id.as_str() == name && !self.locals.contains(name) && !self.env.contains_key(name))
    }

    fn name(&mut self, n: &ast::ExprName) -> Value {
        let span = self.sp(n.range);
        let id = n.id.as_str();
        if let Some(f) = self.inner_fn(id) {
            return self.inner_as_value(&f, span);
        }
        if self.locals.contains(id) {
            let var = self.var(id);
            return self.ssa.use_var(&mut self.f, self.cur, &var);
        }
        match self.env.get(id) {
            Some(Global::Const(c)) => {
                let c = c.clone();
                self.const_val(&c, span)
            }
            Some(Global::MathConst(x)) => self.konst(Const::Float(*x), span),
            Some(Global::NoneConst) => self.konst(Const::None, span),
            Some(Global::Array(a)) => {
                let a = a.clone();
                self.emit(InstKind::ConstArray(a), span)
            }
            Some(Global::ArrayTuple(arrays)) => {
                let items = self.const_arrays(&arrays.clone(), span);
                self.emit(InstKind::MakeTuple(items), span)
            }
            Some(Global::Scalar(s, c)) => {
                let (s, c) = (*s, c.clone());
                let v = self.const_val(&c, span);
                self.emit(InstKind::Cast(s, v), span)
            }
            // A module-level string: a constant, as a literal is.
            Some(Global::Unfrozen(Unfrozen { why: UnfrozenWhy::Str(Some(text)), .. })) => {
                let text = text.clone();
                self.konst(Const::Str(twinjit_ir::intern(&text)), span)
            }
            Some(Global::Unfrozen(u)) => {
                let u = u.clone();
                self.unfrozen_read(id, &u, span)
            }
            Some(Global::Opaque(p)) => {
                let p = p.clone();
                self.opaque_use(id, &p, span, false)
            }
            Some(Global::Refused) => self.refused_use(id, span),
            // A compiled function as a value (passed to another compiled function, stored
            // in a variable): Numba's dispatcher type, one per function.
            Some(Global::Function { kind: Some(_), .. }) => {
                if !self.callees.iter().any(|x| x == id) {
                    self.callees.push(id.to_string());
                }
                self.emit(InstKind::FuncRef(id.to_string()), span)
            }
            Some(Global::Function { kind: None, .. }) => self.fail(
                Diagnostic::error(format!("`{id}` is not compiled"), span, "plain Python function used as a value")
                    .with_hint(format!("decorate `{id}` with @njit to pass it to compiled code")),
            ),
            Some(Global::ExceptionClass(_)) => self.exception_value(id, span),
            None if twinjit_ir::exception::BUILTIN_EXCEPTIONS.contains(&id) => self.exception_value(id, span),
            Some(_) => {
                self.fail(Diagnostic::error(format!("`{id}` cannot be used as a value"), span, "module or decorator"))
            }
            None => {
                let d = Diagnostic::error(format!("name `{id}` is not defined"), span, "undefined");
                let d = if matches!(id, "np" | "numpy" | "math" | "cmath" | "cuda" | "numba") {
                    d.with_hint(format!("add the import of `{id}` at the top of the file"))
                } else {
                    d
                };
                self.fail(d)
            }
        }
    }

    /// The frozen arrays of a module-level tuple of arrays, each read as `constarray`.
    pub(super) fn const_arrays(&mut self, arrays: &[std::sync::Arc<twinjit_ir::ConstArray>], span: Span) -> Vec<Value> {
        arrays.iter().map(|a| self.emit(InstKind::ConstArray(a.clone()), span)).collect()
    }

    /// A read of a global without a frozen value: the error names it and where it was assigned.
    fn unfrozen_read(&mut self, id: &str, u: &Unfrozen, span: Span) -> Value {
        let at = &u.at;
        let unknown = "Numba freezes a global's value when it compiles the function; twinjit freezes a global only \
                       when the file gives it exactly one constant value: assign it once, or pass it as an argument";
        let (message, hint) = match &u.why {
            UnfrozenWhy::Reassigned { again_at, .. } => (
                format!(
                    "global `{id}` (assigned at {at}) is reassigned at module level (line {}), so its value at compile time is not known",
                    again_at.rsplit(':').next().unwrap_or(again_at)
                ),
                unknown.to_string(),
            ),
            UnfrozenWhy::InBlock => (
                format!("global `{id}` (assigned at {at}) is assigned inside a module-level block, so its value at compile time is not known"),
                unknown.to_string(),
            ),
            UnfrozenWhy::Array(f, why) => (
                match why {
                    Some(why) => format!(
                        "global `{id}` (assigned at {at}) is a NumPy array (`{f}`) that twinjit cannot compute: {why}"
                    ),
                    None => format!("global `{id}` (assigned at {at}) is a NumPy array (`{f}`) that twinjit cannot compute"),
                },
                "twinjit freezes module-level arrays built from constants by np.array, np.zeros, np.ones, np.full, \
                 np.arange, np.linspace, np.eye and np.identity (with .reshape, .astype, .T, arithmetic and \
                 slicing); pass other arrays as arguments"
                    .to_string(),
            ),
            UnfrozenWhy::Str(_) => (
                format!("global `{id}` (assigned at {at}) is a string, which compiled code cannot compute with"),
                "strings are constants only where Numba uses them (exception messages, option arguments)".to_string(),
            ),
            UnfrozenWhy::Class => (
                format!("`{id}` (defined at {at}) is a class, which compiled code cannot use"),
                "classes (and jitclass) are not supported: pass numbers, tuples and arrays".to_string(),
            ),
            UnfrozenWhy::Value(src) => (
                format!("global `{id}` (assigned at {at}) is `{src}`, which twinjit cannot evaluate at compile time"),
                "twinjit freezes module-level numbers, booleans, None, tuples of them and NumPy scalars such as \
                 np.float32(0.5); pass other values as arguments"
                    .to_string(),
            ),
        };
        let assigned = if matches!(u.why, UnfrozenWhy::Class) { "defined here" } else { "assigned here" };
        let mut d = Diagnostic::error(message, span, "read here").with_secondary(u.assigned, assigned).with_hint(hint);
        if let UnfrozenWhy::Reassigned { again, .. } = &u.why {
            d = d.with_secondary(*again, "assigned again here");
        }
        self.fail(d)
    }

    /// A use of a name twinjit cannot compile (`time`, `time.perf_counter`, `cp.asarray`).
    fn opaque_use(&mut self, written: &str, path: &str, span: Span, called: bool) -> Value {
        let shown = if written == path { format!("`{written}`") } else { format!("`{written}` ({path})") };
        let (message, label) = if called {
            (format!("{shown} cannot be called from compiled code"), "called here")
        } else {
            (format!("{shown} cannot be used in compiled code"), "used here")
        };
        self.fail(Diagnostic::error(message, span, label).with_hint(format!(
            "compiled code can use math.*, NumPy scalar casts and constants, builtins (abs min max len range ...) and \
             the @njit functions of this module; call `{written}` outside the compiled function and pass its result \
             as an argument"
        )))
    }

    fn refused_use(&mut self, id: &str, span: Span) -> Value {
        self.fail(
            Diagnostic::error(format!("`{id}` is not compiled: its decorator was refused"), span, "used here")
                .with_hint(format!("see the error on `{id}`'s decorator")),
        )
    }

    /// The root of `e` if it is an opaque name: (as written, its dotted path).
    fn opaque_path(&self, e: &Expr) -> Option<(String, String)> {
        let mut p = Vec::new();
        if !Self::path(e, &mut p) || self.locals.contains(p[0]) {
            return None;
        }
        match self.env.get(p[0])? {
            Global::Opaque(root) => {
                let mut full = root.clone();
                for seg in &p[1..] {
                    full.push('.');
                    full.push_str(seg);
                }
                Some((p.join("."), full))
            }
            _ => None,
        }
    }

    fn const_val(&mut self, c: &ConstValue, span: Span) -> Value {
        match c {
            ConstValue::Int(i) => match i64::try_from(*i) {
                Ok(i) => self.konst(Const::Int(i), span),
                // Numba types an integer constant past int64 as uint64.
                Err(_) if (0..1i128 << 64).contains(i) => {
                    let bits = self.konst(Const::Int(*i as u64 as i64), span);
                    self.emit(InstKind::Cast(Scalar::UInt64, bits), span)
                }
                Err(_) => {
                    self.fail(Diagnostic::error(format!("internal: frozen constant {i} is not an int64"), span, ""))
                }
            },
            ConstValue::Float(x) => self.konst(Const::Float(*x), span),
            ConstValue::Bool(b) => self.konst(Const::Bool(*b), span),
            ConstValue::Complex(re, im) => {
                let (re, im) = (self.konst(Const::Float(*re), span), self.konst(Const::Float(*im), span));
                self.emit(InstKind::Builtin(Builtin::Complex, vec![re, im]), span)
            }
            ConstValue::Tuple(vs) => {
                let vals: Vec<Value> = vs.iter().map(|v| self.const_val(v, span)).collect();
                self.emit(InstKind::MakeTuple(vals), span)
            }
            ConstValue::Str(text) => self.konst(Const::Str(twinjit_ir::intern(text)), span),
        }
    }

    fn expr(&mut self, e: &Expr) -> Value {
        if self.depth >= MAX_DEPTH {
            return self.fail(
                Diagnostic::error(
                    "expression nested too deeply",
                    self.sp(e.range()),
                    format!("more than {MAX_DEPTH} levels"),
                )
                .with_hint("split it into several assignments"),
            );
        }
        self.depth += 1;
        let v = self.expr_inner(e);
        self.depth -= 1;
        v
    }

    fn expr_inner(&mut self, e: &Expr) -> Value {
        let span = self.sp(e.range());
        // Operators over literals are constants, as CPython's compiler folds them.
        if let Some(folded) = fold(e, span) {
            return match folded {
                Ok(c) => self.const_val(&c, span),
                Err(d) => self.fail(d),
            };
        }
        match e {
            Expr::NumberLiteral(n) => match &n.value {
                ast::Number::Int(i) => match (i.as_i64(), i.as_u64()) {
                    (Some(v), _) => self.konst(Const::Int(v), span),
                    (None, Some(u)) => self.const_val(&ConstValue::Int(u as i128), span),
                    (None, None) => self.fail(
                        Diagnostic::error("integer literal does not fit in int64", span, "too large")
                            .with_hint("Numba's integers are 64-bit; use a float literal for larger values"),
                    ),
                },
                ast::Number::Float(x) => self.konst(Const::Float(*x), span),
                // `2.5j`, `1e3j`: complex(real, imag) of two float constants.
                ast::Number::Complex { real, imag } => {
                    let re = self.konst(Const::Float(*real), span);
                    let im = self.konst(Const::Float(*imag), span);
                    self.emit(InstKind::Builtin(Builtin::Complex, vec![re, im]), span)
                }
            },
            Expr::BooleanLiteral(b) => self.konst(Const::Bool(b.value), span),
            Expr::NoneLiteral(_) => self.konst(Const::None, span),
            Expr::Name(n) => self.name(n),
            Expr::UnaryOp(u) => {
                let a = self.expr(&u.operand);
                self.unary(u.op, a, span)
            }
            Expr::BinOp(b) => {
                let l = self.expr(&b.left);
                let r = self.expr(&b.right);
                match binop(b.op) {
                    Some(op) => self.emit(InstKind::Binary(op, l, r), span),
                    None => self.emit(InstKind::Builtin(Builtin::NpMatmul, vec![l, r]), span),
                }
            }
            Expr::BoolOp(b) => self.bool_op(b),
            Expr::Compare(c) => self.compare(c),
            Expr::If(i) => {
                let c = self.expr(&i.test);
                self.choose(c, span, |this| this.expr(&i.body), |this| this.expr(&i.orelse))
            }
            Expr::Call(c) => self.call(c),
            Expr::Attribute(a) => self.attribute(e, a),
            Expr::Subscript(s) => {
                // `a.shape[k]` with a literal k is a dimension read.
                if let Expr::Attribute(at) = &*s.value {
                    // (Not where a namedtuple has a field `shape`: `attribute` decides by type.)
                    if at.attr.id.as_str() == "shape" && matches!(self.named_field("shape", span), Ok(None)) {
                        if let Some(k) = int_literal(&s.slice) {
                            if let Expr::Name(n) = &*at.value {
                                if self.locals.contains(n.id.as_str()) {
                                    let a = self.name(n);
                                    return self.emit(InstKind::Dim(a, k), span);
                                }
                            }
                        }
                    }
                }
                let v = self.expr(&s.value);
                if let Expr::Slice(sl) = &*s.slice {
                    // A tuple slice, or an array view: inference decides by the value's type
                    // (`tuple_slice` of an array is rewritten as the view `a[lo:hi:step]`).
                    let mut args = vec![v];
                    for part in [&sl.lower, &sl.upper, &sl.step] {
                        let p = match part {
                            Some(e) => self.expr(e),
                            None => self.konst(Const::None, span),
                        };
                        args.push(p);
                    }
                    return self.emit(InstKind::Builtin(Builtin::TupleSlice, args), span);
                }
                let idx = self.indices(&s.slice);
                self.emit(InstKind::GetItem(v, idx), span)
            }
            // `(x, *t, y)`: the runs of plain elements as tuples, concatenated with the
            // starred tuples (`+` of tuples).
            Expr::Tuple(t) if t.elts.iter().any(|e| matches!(e, Expr::Starred(_))) => {
                let mut acc: Option<Value> = None;
                let mut run: Vec<Value> = Vec::new();
                let join = |this: &mut Self, acc: Option<Value>, v: Value| match acc {
                    Some(a) => this.emit(InstKind::Binary(BinaryOp::Add, a, v), span),
                    None => v,
                };
                for e in &t.elts {
                    if let Expr::Starred(st) = e {
                        if !run.is_empty() {
                            let part = self.emit(InstKind::MakeTuple(std::mem::take(&mut run)), span);
                            acc = Some(join(self, acc, part));
                        }
                        let v = self.expr(&st.value);
                        acc = Some(join(self, acc, v));
                    } else {
                        run.push(self.expr(e));
                    }
                }
                if !run.is_empty() || acc.is_none() {
                    let part = self.emit(InstKind::MakeTuple(run), span);
                    acc = Some(join(self, acc, part));
                }
                acc.expect("set above")
            }
            Expr::Tuple(t) => {
                let vals: Vec<Value> = t.elts.iter().map(|e| self.expr(e)).collect();
                self.emit(InstKind::MakeTuple(vals), span)
            }
            Expr::List(l) => {
                if l.elts.iter().any(|e| matches!(e, Expr::Starred(_))) {
                    return self.fail(unsupported(span, "`*` in a list literal is", "append the elements"));
                }
                let vals: Vec<Value> = l.elts.iter().map(|e| self.expr(e)).collect();
                let b = if vals.is_empty() { Builtin::ListNew } else { Builtin::ListLiteral };
                self.emit(InstKind::Builtin(b, vals), span)
            }
            // `{}` / `{k: v, ...}`: Numba's typed dict (an empty one is typed by what it receives).
            Expr::Dict(d) => {
                if d.items.iter().any(|it| it.key.is_none()) {
                    return self.fail(unsupported(span, "`**` in a dict literal is", "use d.update(other)"));
                }
                let mut vals = Vec::new();
                for it in &d.items {
                    vals.push(self.expr(it.key.as_ref().expect("checked")));
                    vals.push(self.expr(&it.value));
                }
                let b = if vals.is_empty() { Builtin::DictNew } else { Builtin::DictLiteral };
                self.emit(InstKind::Builtin(b, vals), span)
            }
            Expr::Set(st) => {
                if st.elts.iter().any(|e| matches!(e, Expr::Starred(_))) {
                    return self.fail(unsupported(span, "`*` in a set literal is", "add the elements"));
                }
                let vals: Vec<Value> = st.elts.iter().map(|e| self.expr(e)).collect();
                self.emit(InstKind::Builtin(Builtin::SetLiteral, vals), span)
            }
            // A string constant: its value is its type (`Type::Str`), so comparisons, `len`, `+`
            // and `in` of strings are decided when the function is typed.
            Expr::StringLiteral(s) => self.konst(Const::Str(twinjit_ir::intern(s.value.to_str())), span),
            // `f"n={n}"` as a value: its text and each field's `str()`, concatenated (a run-time
            // string where a field is one; a constant when every field is).
            Expr::FString(fs) => {
                let Some(pieces) = self.fstring_pieces(fs) else { return self.konst(Const::None, span) };
                let mut acc: Option<Value> = None;
                for p in pieces {
                    let v = match p {
                        raise::FPiece::Text(t) => self.konst(Const::Str(twinjit_ir::intern(&t)), span),
                        raise::FPiece::Value(v) => {
                            let name = self.konst(Const::Str(twinjit_ir::intern("__str__")), span);
                            self.emit(InstKind::Builtin(Builtin::StrMethod, vec![v, name]), span)
                        }
                    };
                    acc = Some(match acc {
                        Some(a) => self.emit(InstKind::Binary(BinaryOp::Add, a, v), span),
                        None => v,
                    });
                }
                acc.unwrap_or_else(|| self.konst(Const::Str(twinjit_ir::intern("")), span))
            }
            Expr::TString(_) => self.fail(unsupported(span, "template strings are", "use an f-string")),
            Expr::BytesLiteral(_) => self.fail(unsupported(span, "bytes are", "twinjit compiles numeric code only")),
            Expr::Lambda(_) => self.fail(
                Diagnostic::error("lambda used as a value", span, "not called")
                    .with_hint("assign the lambda to a name (`sq = lambda v: v * v`) and call it in this function, or define an @njit function at module level"),
            ),
            Expr::ListComp(c) => self.list_comp(&c.elt, &c.generators, span),
            // A generator expression (`sum(x * x for x in a)`) as the list it yields.
            Expr::Generator(g) => self.list_comp(&g.elt, &g.generators, span),
            Expr::DictComp(c) => self.dict_comp(&c.key, &c.value, &c.generators, span),
            Expr::SetComp(c) => self.set_comp(&c.elt, &c.generators, span),
            Expr::Yield(_) | Expr::YieldFrom(_) => self.fail(
                Diagnostic::error(
                    GENERATOR_ON_ITS_OWN,
                    span,
                    "not a `yield v` statement of a generator a loop iterates",
                )
                .with_hint(
                    "iterate the generator in a compiled function (`for x in gen(n):`), where twinjit inlines it; \
                     `list(gen(n))`, comprehensions, `enumerate` and `zip` over it work too; returning or passing \
                     the generator, `x = yield v` and `yield from` are not supported",
                ),
            ),
            Expr::Await(_) => self.fail(unsupported(span, "`await` is", "")),
            Expr::Named(_) => {
                self.fail(unsupported(span, "the walrus operator `:=` is", "assign in a separate statement"))
            }
            Expr::Starred(_) => self.fail(unsupported(span, "starred expressions are", "")),
            Expr::Slice(_) => self.fail(unsupported(span, "slices are", "index single elements")),
            Expr::EllipsisLiteral(_) => self.fail(unsupported(span, "`...` is", "")),
            Expr::IpyEscapeCommand(_) => self.fail(unsupported(span, "IPython escapes are", "")),
        }
    }

    fn bool_op(&mut self, b: &ast::ExprBoolOp) -> Value {
        let span = self.sp(b.range);
        let join = self.new_block();
        let p = self.f.add_block_param(join, Type::Unknown);
        let n = b.values.len();
        for (k, e) in b.values.iter().enumerate() {
            let v = self.expr(e);
            if k + 1 == n {
                self.jump(join, vec![v], span);
                break;
            }
            let next = self.new_block();
            // `and` stops at the first falsy operand, `or` at the first truthy one; the
            // expression's value is that operand.
            match b.op {
                ast::BoolOp::And => self.branch(v, next, vec![], join, vec![v], span),
                ast::BoolOp::Or => self.branch(v, join, vec![v], next, vec![], span),
            }
            self.seal(next);
            self.cur = next;
        }
        self.seal(join);
        self.cur = join;
        p
    }

    /// `a.dtype == np.float64`, `a.dtype != b.dtype`: decided by the types (Numba folds it).
    fn dtype_compare(&mut self, c: &ast::ExprCompare, span: Span) -> Option<Value> {
        let (ast::CmpOp::Eq | ast::CmpOp::NotEq, [right]) = (c.ops[0], &*c.comparators) else { return None };
        let is_dtype_attr = |e: &Expr| matches!(e, Expr::Attribute(a) if a.attr.id.as_str() == "dtype");
        if !is_dtype_attr(&c.left) && !is_dtype_attr(right) {
            return None;
        }
        let side = |me: &mut Self, e: &Expr| -> Option<Value> {
            match e {
                Expr::Attribute(a) if a.attr.id.as_str() == "dtype" => {
                    let arr = me.expr(&a.value);
                    Some(me.emit(InstKind::Builtin(Builtin::Dtype, vec![arr]), me.sp(e.range())))
                }
                // `np.dtype("int64")`, `np.dtype(np.float32)`
                Expr::Call(call)
                    if call.arguments.args.len() == 1
                        && call.arguments.keywords.is_empty()
                        && matches!(me.module_path(&call.func), Some((Global::NumpyModule, p)) if p == ["dtype"]) =>
                {
                    me.dtype_value(&call.arguments.args[0]).map(|s| me.zero_of_dtype(s, span))
                }
                e => me.dtype_value(e).map(|s| me.zero_of_dtype(s, span)),
            }
        };
        let l = side(self, &c.left)?;
        let r = side(self, right)?;
        let same = self.emit(InstKind::Builtin(Builtin::SameDtype, vec![l, r]), span);
        Some(if c.ops[0] == ast::CmpOp::Eq { same } else { self.emit(InstKind::Unary(UnaryOp::Not, same), span) })
    }

    fn compare(&mut self, c: &ast::ExprCompare) -> Value {
        let span = self.sp(c.range);
        if c.ops.len() == 1 {
            if let Some(v) = self.dtype_compare(c, span) {
                return v;
            }
        }
        let mut left = self.expr(&c.left);
        let n = c.ops.len();
        if n == 1 {
            let r = self.expr(&c.comparators[0]);
            return self.compare_one(c.ops[0], left, r, span);
        }
        // a < b < c: each middle operand evaluated once, stop at the first false.
        let join = self.new_block();
        let p = self.f.add_block_param(join, Type::Unknown);
        for (k, (op, e)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
            let r = self.expr(e);
            let res = self.compare_one(*op, left, r, span);
            if k + 1 == n {
                self.jump(join, vec![res], span);
            } else {
                let next = self.new_block();
                self.branch(res, next, vec![], join, vec![res], span);
                self.seal(next);
                self.cur = next;
            }
            left = r;
        }
        self.seal(join);
        self.cur = join;
        p
    }

    /// One comparison. `is` is a builtin that inference folds by type (Numba: `x is None` on a
    /// number is False); `a is not b` is `not (a is b)`.
    fn unary(&mut self, op: ast::UnaryOp, a: Value, span: Span) -> Value {
        let op = match op {
            ast::UnaryOp::USub => UnaryOp::Neg,
            ast::UnaryOp::UAdd => UnaryOp::Pos,
            ast::UnaryOp::Not => UnaryOp::Not,
            ast::UnaryOp::Invert => UnaryOp::Invert,
        };
        self.emit(InstKind::Unary(op, a), span)
    }

    fn compare_one(&mut self, op: ast::CmpOp, l: Value, r: Value, span: Span) -> Value {
        match op {
            ast::CmpOp::Is => self.emit(InstKind::Builtin(Builtin::Is, vec![l, r]), span),
            ast::CmpOp::IsNot => {
                let is = self.emit(InstKind::Builtin(Builtin::Is, vec![l, r]), span);
                self.emit(InstKind::Unary(UnaryOp::Not, is), span)
            }
            ast::CmpOp::In => self.emit(InstKind::Builtin(Builtin::Contains, vec![r, l]), span),
            ast::CmpOp::NotIn => {
                let is = self.emit(InstKind::Builtin(Builtin::Contains, vec![r, l]), span);
                self.emit(InstKind::Unary(UnaryOp::Not, is), span)
            }
            _ => match cmpop(op) {
                Some(op) => self.emit(InstKind::Compare(op, l, r), span),
                None => self.bad_cmp(op, span),
            },
        }
    }

    fn bad_cmp(&mut self, op: ast::CmpOp, span: Span) -> Value {
        self.fail(unsupported(
            span,
            &format!("the `{}` comparison is", op.as_str()),
            "compare numbers with == != < <= > >= (or `is` / `is not`)",
        ))
    }

    /// Dotted path of an attribute chain rooted at a name: `cuda.atomic.add` → ["cuda", "atomic", "add"].
    fn path<'e>(e: &'e Expr, out: &mut Vec<&'e str>) -> bool {
        let mut cur = e;
        let mut rev = Vec::new();
        loop {
            match cur {
                Expr::Name(n) => {
                    out.push(n.id.as_str());
                    out.extend(rev.into_iter().rev());
                    return true;
                }
                Expr::Attribute(a) => {
                    rev.push(a.attr.id.as_str());
                    cur = &a.value;
                }
                _ => return false,
            }
        }
    }

    /// Resolves the root of a dotted path to a module: returns the path below the module.
    fn module_path<'e>(&self, e: &'e Expr) -> Option<(Global, Vec<&'e str>)> {
        let mut p = Vec::new();
        if !Self::path(e, &mut p) || self.locals.contains(p[0]) {
            return None;
        }
        let g = self.env.get(p[0])?.clone();
        let mut rest: Vec<&str> = p[1..].to_vec();
        let g = match g {
            Global::NumbaModule if rest.first() == Some(&"cuda") => {
                rest.remove(0);
                Global::CudaModule
            }
            Global::TypesModule => Global::NumbaModule,
            g @ (Global::MathModule
            | Global::CmathModule
            | Global::NumpyModule
            | Global::NumbaModule
            | Global::CudaModule
            | Global::HeapqModule) => g,
            _ => return None,
        };
        Some((g, rest))
    }

    /// `print(a, "text", b)`: each value written as Python's `str` of it, string constants as
    /// they are, separated by spaces and ended by a newline (Numba has no `sep=` or `end=`).
    /// The value is `None`.
    fn print_call(&mut self, c: &ast::ExprCall, span: Span) -> Value {
        if let Some(k) = c.arguments.keywords.first() {
            return self.fail(
                Diagnostic::error("print() with keyword arguments is not supported", self.sp(k.range), "here")
                    .with_hint("Numba's print() has no sep= or end=; format the text with separate print calls"),
            );
        }
        for (k, a) in c.arguments.args.iter().enumerate() {
            if k > 0 {
                self.print_text(" ", span);
            }
            match a {
                Expr::StringLiteral(s) => {
                    let text = s.value.to_str().to_string();
                    self.print_text(&text, span);
                }
                // `print(f"x = {x}")`: the text and each field's `str()`, with no separators.
                Expr::FString(fs) => {
                    let Some(pieces) = self.fstring_pieces(fs) else { continue };
                    for p in pieces {
                        match p {
                            raise::FPiece::Text(t) => self.print_text(&t, span),
                            raise::FPiece::Value(v) => {
                                self.emit(InstKind::Builtin(Builtin::PrintValue, vec![v]), span);
                            }
                        }
                    }
                }
                Expr::Starred(_) => {
                    return self.fail(unsupported(
                        self.sp(a.range()),
                        "this print() argument is",
                        "print values and string constants",
                    ));
                }
                e => {
                    let v = self.expr(e);
                    let sp = self.sp(e.range());
                    self.emit(InstKind::Builtin(Builtin::PrintValue, vec![v]), sp);
                }
            }
        }
        self.print_text("\n", span);
        self.konst(Const::None, span)
    }

    /// `receiver.name(args)` of a string: the builtin `str_method` (receiver, name, arguments),
    /// evaluated when the call is typed.
    fn str_method(&mut self, receiver: &Expr, name: &str, args: &[Expr], span: Span) -> Value {
        let mut vals = vec![self.expr(receiver), self.konst(Const::Str(twinjit_ir::intern(name)), span)];
        vals.extend(args.iter().map(|x| self.expr(x)));
        self.emit(InstKind::Builtin(Builtin::StrMethod, vals), span)
    }

    /// `text` written out by `print_bytes` pieces of up to 8 bytes.
    fn print_text(&mut self, text: &str, span: Span) {
        for (bits, n) in twinjit_ir::builtins::print_chunks(text) {
            let bits = self.konst(Const::Int(bits), span);
            let n = self.konst(Const::Int(n), span);
            self.emit(InstKind::Builtin(Builtin::PrintBytes, vec![bits, n]), span);
        }
    }

    /// `getattr(obj, "name")` is `obj.name`, as Numba resolves a literal attribute name;
    /// `getattr(obj, "name", default)` is `default` for a name compiled code has no
    /// attribute of (a dunder, or one neither arrays nor `obj`'s module have).
    fn getattr_call(&mut self, c: &ast::ExprCall, span: Span) -> Value {
        let args = &c.arguments.args;
        let name = match args.get(1) {
            Some(Expr::StringLiteral(s)) if c.arguments.keywords.is_empty() && (2..=3).contains(&args.len()) => {
                s.value.to_str().to_string()
            }
            _ => {
                return self.fail(
                    Diagnostic::error("getattr() needs an object and a literal attribute name", span, "here")
                        .with_hint("write getattr(x, \"name\") or x.name; Numba needs the name at compile time"),
                )
            }
        };
        let attr = Expr::Attribute(ast::ExprAttribute {
            range: c.range,
            value: Box::new(args[0].clone()),
            attr: ast::Identifier::new(name.as_str(), args[1].range()),
            ctx: ast::ExprContext::Load,
            node_index: Default::default(),
        });
        let known = !name.starts_with("__")
            && (Builtin::from_path(&format!(".{name}")).is_some() || self.module_path(&attr).is_some());
        match args.get(2) {
            Some(default) if !known => self.expr(default),
            _ => self.expr(&attr),
        }
    }

    fn attribute(&mut self, e: &Expr, a: &ast::ExprAttribute) -> Value {
        let span = self.sp(a.range);
        let attr = a.attr.id.as_str();
        if let Expr::Name(n) = &*a.value {
            if let (false, Some(Global::Function { ufunc: Some(u), params, .. })) =
                (self.locals.contains(n.id.as_str()), self.env.get(n.id.as_str()))
            {
                if let Some(c) = crate::ufunc::attribute(u, params, attr) {
                    return self.konst(c, span);
                }
            }
        }
        if let Some((written, path)) = self.opaque_path(e) {
            return self.opaque_use(&written, &path, span, false);
        }
        if let Some((g, rest)) = self.module_path(e) {
            match (g, rest.as_slice()) {
                (g @ (Global::MathModule | Global::CmathModule | Global::NumpyModule), [c])
                    if module_const(&g, c).is_some() =>
                {
                    return self.konst(Const::Float(module_const(&g, c).expect("checked")), span);
                }
                (Global::NumpyModule, ["newaxis"]) => return self.konst(Const::None, span),
                // `types.none`: `x is types.none` in an `@overload` tests for None.
                (Global::NumbaModule, ["none"]) => return self.konst(Const::None, span),
                (Global::CudaModule, path) => {
                    let b = Builtin::from_path(&format!("cuda.{}", path.join(".")))
                        .filter(|b| b.info().typing == Typing::SpecialRegister);
                    if let Some(b) = b {
                        return self.emit(InstKind::Builtin(b, vec![]), span);
                    }
                    return self.fail(
                        Diagnostic::error(
                            format!("unknown attribute `cuda.{}`", path.join(".")),
                            span,
                            "not supported",
                        )
                        .with_hint(
                            "supported: cuda.threadIdx/blockIdx/blockDim/gridDim.x|y|z, cuda.laneid, cuda.warpsize",
                        ),
                    );
                }
                (g, path) => {
                    let m = match g {
                        Global::MathModule => "math",
                        Global::CmathModule => "cmath",
                        Global::NumpyModule => "numpy",
                        _ => "numba",
                    };
                    let what = if math_function(path.last().copied().unwrap_or("")).is_some() && m == "math" {
                        format!("function `math.{}` used as a value", path.join("."))
                    } else {
                        format!("unknown attribute `{m}.{}`", path.join("."))
                    };
                    return self.fail(Diagnostic::error(what, span, "not supported").with_hint(match m {
                        "math" => supported_hint("math", " pi e inf nan tau"),
                        "numpy" => numpy_hint(),
                        _ => "supported: numba.njit, numba.jit, numba.cuda".into(),
                    }));
                }
            }
        }
        if let Expr::Call(call) = &*a.value {
            if let Some((Global::NumpyModule, path)) = self.module_path(&call.func) {
                if let [f @ ("finfo" | "iinfo")] = path.as_slice() {
                    return self.type_info(f, call, attr, span);
                }
            }
        }
        if attr == "dtype" {
            return self.fail(
                Diagnostic::error("`a.dtype` as a value is not supported", span, "a dtype object")
                    .with_hint("use it as the dtype of an array constructor: np.empty(n, dtype=a.dtype)"),
            );
        }
        if let Expr::Attribute(inner) = &*a.value {
            if inner.attr.id.as_str() == "flags" {
                let b = match attr {
                    "c_contiguous" | "contiguous" => Builtin::FlagsC,
                    "f_contiguous" | "fortran" => Builtin::FlagsF,
                    _ => {
                        return self.fail(
                            Diagnostic::error(format!("unknown flag `flags.{attr}`"), span, "not supported")
                                .with_hint("supported: a.flags.c_contiguous, a.flags.f_contiguous, a.flags.contiguous"),
                        )
                    }
                };
                let v = self.expr(&inner.value);
                return self.emit(InstKind::Builtin(b, vec![v]), span);
            }
        }
        let builtin = Builtin::from_path(&format!(".{attr}"));
        // An `@overload_attribute` of this module: `x.name` is `attribute(x)`.
        let getter = crate::overload::attribute_function(attr);
        if builtin.is_none() && matches!(self.env.get(getter.as_str()), Some(Global::Function { kind: Some(_), .. })) {
            let call = crate::overload::receiver_call(&getter, &a.value, &[], &[], a.range, a.attr.range);
            return self.call(&call);
        }
        let field = match (self.named_field(attr, span), builtin) {
            (Ok(k), _) => k,
            // A field name several namedtuples place differently is still an array attribute.
            (Err(_), Some(_)) => None,
            (Err(d), None) => return self.fail(d),
        };
        let v = self.expr(&a.value);
        match (builtin, field) {
            (None, Some(k)) => self.emit(InstKind::TupleGet(v, k), span),
            (Some(b), None) => self.emit(InstKind::Builtin(b, vec![v]), span),
            (Some(b), Some(k)) => self.field_or_attribute(v, k, b, span),
            (None, None) => self.fail(
                Diagnostic::error(format!("unknown attribute `{attr}`"), span, "not supported")
                    .with_hint("arrays support .shape .size .ndim .strides .dtype .itemsize .nbytes .T"),
            ),
        }
    }

    /// `p.size` where a namedtuple of the module has a field `size`: the field of a tuple, the
    /// attribute of anything else. The choice is a branch on `isinstance(p, tuple)`, which
    /// inference decides from `p`'s type and prunes (so only the taken side is typed).
    fn field_or_attribute(&mut self, v: Value, k: u32, b: Builtin, span: Span) -> Value {
        let tuple_bit = twinjit_ir::builtins::ISINSTANCE_CLASSES
            .iter()
            .find(|(name, _)| *name == "tuple")
            .map(|(_, bit)| *bit)
            .expect("tuple is an isinstance class");
        let bits = self.konst(Const::Int(tuple_bit), span);
        let is_tuple = self.emit(InstKind::Builtin(Builtin::IsInstance, vec![v, bits]), span);
        self.choose(
            is_tuple,
            span,
            |this| this.emit(InstKind::TupleGet(v, k), span),
            |this| this.emit(InstKind::Builtin(b, vec![v]), span),
        )
    }

    /// `yes() if c else no()`: each side lowered in its own block, the value the join's
    /// parameter.
    fn choose(
        &mut self,
        c: Value,
        span: Span,
        yes: impl FnOnce(&mut Self) -> Value,
        no: impl FnOnce(&mut Self) -> Value,
    ) -> Value {
        let (tb, eb, join) = (self.new_block(), self.new_block(), self.new_block());
        let p = self.f.add_block_param(join, Type::Unknown);
        self.branch(c, tb, vec![], eb, vec![], span);
        self.seal(tb);
        self.seal(eb);
        self.cur = tb;
        let tv = yes(self);
        self.jump(join, vec![tv], span);
        self.cur = eb;
        let ev = no(self);
        self.jump(join, vec![ev], span);
        self.seal(join);
        self.cur = join;
        p
    }

    /// `np.finfo(dtype).ATTR` / `np.iinfo(dtype).ATTR`, folded to a constant as Numba does.
    fn type_info(&mut self, f: &str, call: &ast::ExprCall, attr: &str, span: Span) -> Value {
        let dtype = match (call.arguments.args.as_ref(), call.arguments.keywords.is_empty()) {
            ([d], true) => self.dtype(d),
            _ => None,
        };
        let Some(dtype) = dtype else {
            return self.fail(
                Diagnostic::error(format!("np.{f}() needs a dtype"), self.sp(call.range), "not a NumPy dtype")
                    .with_hint(format!("write np.{f}(np.float64) or np.{f}(np.float32) (np.{f}(np.int64) for iinfo)")),
            );
        };
        match type_info(f, dtype, attr) {
            Some((s, c)) => {
                let v = self.konst(c, span);
                self.emit(InstKind::Cast(s, v), span)
            }
            None => self.fail(
                Diagnostic::error(format!("`np.{f}({}).{attr}` is not supported", dtype.name()), span, "not supported")
                    .with_hint(if f == "finfo" {
                        "supported: np.finfo(np.float64 or np.float32).eps/max/min/tiny/resolution"
                    } else {
                        "supported: np.iinfo(integer dtype).max/min/bits"
                    }),
            ),
        }
    }

    /// The argument values of a bound call: the given ones and the defaults; `None` when a
    /// default cannot be used (reported where the callee is defined).
    pub(crate) fn filled_args(&mut self, bound: Vec<Option<Filled>>, vals: &[Value], span: Span) -> Option<Vec<Value>> {
        let mut args = Vec::with_capacity(bound.len());
        for b in bound {
            args.push(match b? {
                Filled::Arg(k) => vals[k],
                Filled::Default(c) => self.konst(c, span),
            });
        }
        Some(args)
    }

    /// The keyword arguments of a call as (name, range); `**kwargs` is a located error (`Err`
    /// holds the failed value to return).
    pub(crate) fn call_keywords<'e>(
        &mut self,
        a: &'e ast::Arguments,
    ) -> Result<Vec<(&'e str, ruff_text_size::TextRange)>, Value> {
        let mut keywords = Vec::new();
        for k in a.keywords.iter() {
            match &k.arg {
                Some(name) => keywords.push((name.id.as_str(), k.range)),
                None => {
                    return Err(self.fail(unsupported(
                        self.sp(k.range),
                        "`**kwargs` in calls is",
                        "pass keywords one by one",
                    )))
                }
            }
        }
        Ok(keywords)
    }

    fn call(&mut self, c: &ast::ExprCall) -> Value {
        let span = self.sp(c.range);
        let args = &c.arguments.args;
        // A foreign or NumPy function this module gives an `@overload` for (`overload.rs`
        // names the compiled function by the target's path).
        let local = matches!(&*c.func, Expr::Name(n) if self.locals.contains(n.id.as_str()));
        if let Some(path) = crate::env::qualified(&c.func, self.env).filter(|_| !local) {
            if let Some(Global::Function { kind: Some(_), params, ufunc: None }) = self.env.get(path.as_str()) {
                return self.function_call(&path, &params.clone(), None, c, span);
            }
            // `numba.literally(x)` asks Numba to specialise on `x`'s value; its value is `x`.
            // twinjit specialises on strings and dtypes whatever the spelling, but not on
            // integers: `t[literally(i)]` of a heterogeneous tuple is still refused.
            if path == "numba.literally" && args.len() == 1 && c.arguments.keywords.is_empty() {
                return self.expr(&args[0]);
            }
        }
        if let Some((written, path)) = self.opaque_path(&c.func) {
            if let Some(v) = self.operator_call(&path, c, span) {
                return v;
            }
            // Python's `random` module (`import random`, `from random import random`).
            if let Some(b) = path.strip_prefix("random.").and(Builtin::from_path(&path)) {
                return self.alloc_call(b, None, c, span);
            }
            if let Some(rest) = path.strip_prefix("numba.typed.List") {
                if let Some(v) = self.typed_list_call(rest, c, span) {
                    return v;
                }
            }
            if let Some(rest) = path.strip_prefix("numba.typed.Dict") {
                if let Some(v) = self.typed_dict_call(rest, c, span) {
                    return v;
                }
            }
            // Numba's internal spelling of `Dict.empty(key_type, value_type)`, in its tests.
            if path == "numba.typed.dictobject.new_dict" {
                if let Some(v) = self.typed_dict_call(".empty", c, span) {
                    return v;
                }
            }
            if let Some(draw) = path.strip_prefix("numba.cuda.random.").filter(|d| cuda_random::DRAWS.contains(d)) {
                if c.arguments.keywords.is_empty() {
                    return self.cuda_random_call(draw, args, span);
                }
            }
            if let Some(f) = path.strip_prefix("numba.cuda.libdevice.").filter(|f| libdevice::known(f)) {
                if c.arguments.keywords.is_empty() {
                    return self.libdevice_call(f, args, span);
                }
            }
            if let Some(f) = path.strip_prefix("numba.cuda.fp16.").filter(|f| fp16::known(f)) {
                if c.arguments.keywords.is_empty() {
                    return self.fp16_call(f, args, span);
                }
            }
            // A name imported from numba.cuda (`from numba.cuda import syncthreads, ldcg`,
            // `import numba.cuda.cache_hints as ch`): as `cuda.NAME(...)`.
            if let Some(rest) = path.strip_prefix("numba.cuda.") {
                let segs: Vec<&str> = rest.split('.').collect();
                return self.cuda_call(&segs, c, span);
            }
            return self.opaque_use(&written, &path, span, true);
        }
        // cuda.*: module path calls.
        if let Some((g, rest)) = self.module_path(&c.func) {
            return self.module_call(g, &rest, c, span);
        }
        if let Expr::Name(n) = &*c.func {
            if let Some(f) = self.inner_fn(n.id.as_str()) {
                return self.inline_call(f, c, span);
            }
        }
        if let Expr::Lambda(l) = &*c.func {
            self.lambda_assign("<lambda>", l);
            let f = self.inner.remove("<lambda>").expect("just bound");
            return self.inline_call(f, c, span);
        }
        if let Expr::Name(n) = &*c.func {
            if let (false, Some(Global::Function { kind: Some(_), params, ufunc })) =
                (self.locals.contains(n.id.as_str()), self.env.get(n.id.as_str()))
            {
                let ufunc = ufunc.as_deref().map(crate::ufunc::builtin);
                return self.function_call(n.id.as_str(), &params.clone(), ufunc, c, span);
            }
            if let (false, Some(Global::NamedTuple(params))) =
                (self.locals.contains(n.id.as_str()), self.env.get(n.id.as_str()))
            {
                return self.named_tuple_call(n.id.as_str(), &params.clone(), c, span);
            }
        }
        if let Expr::Attribute(a) = &*c.func {
            if let Expr::Name(n) = &*a.value {
                let ufunc = match self.env.get(n.id.as_str()) {
                    Some(Global::Function { ufunc: Some(u), .. }) => {
                        u.layout.is_none() && !self.locals.contains(n.id.as_str())
                    }
                    _ => false,
                };
                if ufunc && a.attr.id.as_str() == "reduce" {
                    return self.ufunc_reduce(n.id.as_str(), c, span);
                }
            }
            if let Some(b) = Builtin::from_path(&format!(".{}()", a.attr.id.as_str())) {
                let receiver = self.expr(&a.value);
                return self.method_call(b, receiver, c, span);
            }
        }
        if let Expr::Name(n) = &*c.func {
            let id = n.id.as_str();
            if (id == "list" || id == "sorted") && !self.locals.contains(id) && !self.env.contains_key(id) {
                return self.list_call(id, c, span);
            }
            // `set(iterable)`, `dict(pairs)` (as `dict(zip(keys, values))`).
            if matches!(id, "set" | "dict")
                && !self.locals.contains(id)
                && !self.env.contains_key(id)
                && c.arguments.args.len() == 1
                && c.arguments.keywords.is_empty()
            {
                let it = &c.arguments.args[0];
                return if id == "set" { self.set_of(it, span) } else { self.dict_of(it, span) };
            }
            if id == "isinstance" && !self.locals.contains(id) && !self.env.contains_key(id) {
                return self.isinstance_call(c, span);
            }
            if id == "print" && !self.locals.contains(id) && !self.env.contains_key(id) {
                return self.print_call(c, span);
            }
        }
        if !c.arguments.keywords.is_empty() {
            if let Expr::Name(n) = &*c.func {
                let id = n.id.as_str();
                if !self.locals.contains(id) && !self.env.contains_key(id) {
                    if let Some((b, names)) = Builtin::from_path(id).and_then(|b| b.keyword_names().map(|n| (b, n))) {
                        return self.keyword_call(b, names, c, span);
                    }
                }
            }
            let kspan = self.sp(c.arguments.keywords[0].range);
            return self.fail(unsupported(kspan, "keyword arguments are", "pass arguments by position"));
        }
        if args.iter().any(|a| matches!(a, Expr::Starred(_))) {
            return self.fail(unsupported(span, "`*args` in calls is", "pass arguments one by one"));
        }
        match &*c.func {
            Expr::Name(n) => {
                let id = n.id.as_str();
                let fspan = self.sp(n.range);
                if self.locals.contains(id) {
                    // A call of a variable holding a compiled function (`f(x)` in
                    // `def apply(f, x)`): typed as the direct call of that function.
                    let var = self.var(id);
                    let fv = self.ssa.use_var(&mut self.f, self.cur, &var);
                    let mut vals = vec![fv];
                    vals.extend(args.iter().map(|a| self.expr(a)));
                    return self.emit(InstKind::Builtin(Builtin::CallValue, vals), span);
                }
                match self.env.get(id).cloned() {
                    Some(Global::Function { kind: None, .. }) => {
                        return self.fail(
                            Diagnostic::error(format!("`{id}` is not compiled"), fspan, "plain Python function")
                                .with_hint(format!("decorate `{id}` with @njit to call it from compiled code")),
                        )
                    }
                    Some(Global::MathFunction(b)) => return self.builtin_call(b, args, span),
                    Some(Global::NumbaType(s)) => return self.cast_call(s, args, span),
                    Some(Global::Unfrozen(u)) => return self.unfrozen_read(id, &u, fspan),
                    Some(Global::Refused) => return self.refused_use(id, fspan),
                    Some(Global::Prange) => {
                        return self.fail(unsupported(
                            span,
                            "prange outside a for loop is",
                            "write `for i in prange(n):`",
                        ))
                    }
                    Some(other) => {
                        return self.fail(Diagnostic::error(
                            format!("`{id}` cannot be called here ({other:?})"),
                            fspan,
                            "not callable",
                        ))
                    }
                    None => {}
                }
                if let Some(b) = Builtin::from_path(id) {
                    return self.builtin_call(b, args, span);
                }
                match id {
                    // `int(x)` keeps an integer's type (Numba's `int()`); floats become int64.
                    "int" if args.len() == 1 => self.builtin_call(Builtin::PyInt, args, span),
                    "int" => self.cast_call(Scalar::Int64, args, span),
                    "float" => self.cast_call(Scalar::Float64, args, span),
                    "bool" => self.cast_call(Scalar::Bool, args, span),
                    // A range used as a value (`len(range(n))`, `r = range(a, b)`, `x in
                    // range(n)`) is the list of its numbers: the same elements, lengths and
                    // membership (a documented deviation: no `.start`/`.stop`/`.step`).
                    "range" => self.list_of(&Expr::Call(c.clone()), span),
                    "getattr" => self.getattr_call(c, span),
                    // `tuple(t)` of a tuple is the tuple (Numba: other iterables have no
                    // length known at compile time).
                    "tuple" if args.len() == 1 => self.builtin_call(Builtin::PyTuple, args, span),
                    "print" => self.print_call(c, span),
                    // `str(s)` of a string is the string (of a number: refused when typed).
                    "str" if args.len() == 1 && c.arguments.keywords.is_empty() => {
                        self.str_method(&args[0], "__str__", &[], span)
                    }
                    _ => self.fail(
                        Diagnostic::error(format!("unknown function `{id}`"), fspan, "not defined")
                            .with_hint(format!(
                                "call builtins ({} int float bool getattr), math.* or np.* functions, or @njit functions of this module",
                                python_builtins().join(" ")
                            )),
                    ),
                }
            }
            Expr::Attribute(a) => {
                let name = a.attr.id.as_str();
                // An `@overload_method` of this module: `x.name(args)` is `method(x, args)`.
                let method = crate::overload::method_function(name);
                if matches!(self.env.get(method.as_str()), Some(Global::Function { kind: Some(_), .. })) {
                    let call = crate::overload::receiver_call(
                        &method,
                        &a.value,
                        &c.arguments.args,
                        &c.arguments.keywords,
                        c.range,
                        a.attr.range,
                    );
                    return self.call(&call);
                }
                // A string method (`kind.lower()`, `name.startswith("x")`): evaluated when the
                // call is typed, since every string's value is known then.
                if twinjit_ir::builtins::STR_METHODS.contains(&name)
                    && c.arguments.keywords.is_empty()
                    && c.arguments.args.len() <= 3
                {
                    return self.str_method(&a.value, name, &c.arguments.args, span);
                }
                self.fail(
                    Diagnostic::error(format!("method call `.{name}()` is not supported"), span, "method call")
                        .with_hint("methods of lists, strings and arrays are not compiled; write a loop"),
                )
            }
            other => self.fail(Diagnostic::error(
                "this expression cannot be called",
                self.sp(other.range()),
                "not a function",
            )),
        }
    }

    /// A call of a compiled module function: the arguments bound to its parameters by
    /// CPython's rules, evaluated in source order, omitted ones filled with their defaults.
    /// `Point(1, y=2)` of a namedtuple class: the tuple of its fields, bound like a call.
    fn named_tuple_call(&mut self, id: &str, params: &Params, c: &ast::ExprCall, span: Span) -> Value {
        let a = &c.arguments;
        if a.args.iter().any(|e| matches!(e, Expr::Starred(_))) {
            return self.fail(unsupported(
                span,
                "`*args` in a namedtuple constructor is",
                "pass the fields one by one",
            ));
        }
        let keywords = match self.call_keywords(a) {
            Ok(k) => k,
            Err(failed) => return failed,
        };
        let bound = match params.bind(id, a.args.len(), &keywords, span, self.file) {
            Ok(b) => b,
            Err(d) => return self.fail(d),
        };
        let vals: Vec<Value> = a.args.iter().chain(a.keywords.iter().map(|k| &k.value)).map(|e| self.expr(e)).collect();
        let Some(fields) = self.filled_args(bound, &vals, span) else { return self.fail_silently() };
        self.emit(InstKind::MakeTuple(fields), span)
    }

    /// The position of field `attr` in the module's namedtuple classes that have it: `Ok(None)`
    /// if none has it, an error if they disagree (twinjit's tuples carry no field names, so a
    /// field is found by its name in the module's classes).
    fn named_field(&self, attr: &str, span: Span) -> Result<Option<u32>, Diagnostic> {
        let mut found: Vec<(&str, usize)> = Vec::new();
        for (name, g) in self.env.iter() {
            if let Global::NamedTuple(p) = g {
                if let Some(k) = p.names.iter().position(|f| f == attr) {
                    found.push((name.as_str(), k));
                }
            }
        }
        if self.vectors {
            if let Some(k) = vector_types::FIELDS.iter().position(|f| *f == attr) {
                found.push(("a CUDA vector type", k));
            }
        }
        found.sort();
        match found.as_slice() {
            [] => Ok(None),
            [(_, k), rest @ ..] if rest.iter().all(|(_, j)| j == k) => Ok(Some(*k as u32)),
            all => Err(Diagnostic::error(
                format!(
                    "`.{attr}` is a field of several namedtuples at different positions ({})",
                    all.iter().map(|(n, k)| format!("{n} at {k}")).collect::<Vec<_>>().join(", ")
                ),
                span,
                "ambiguous field",
            )
            .with_hint("twinjit finds a namedtuple field by its name among the module's namedtuple classes; index the tuple instead (`p[0]`) or rename the field")),
        }
    }

    fn function_call(
        &mut self,
        id: &str,
        params: &Params,
        ufunc: Option<Builtin>,
        c: &ast::ExprCall,
        span: Span,
    ) -> Value {
        let a = &c.arguments;
        // `*(x, y)` of a tuple literal: its elements are positional arguments.
        let mut positional: Vec<&Expr> = Vec::new();
        let mut splat = false;
        for e in a.args.iter() {
            match e {
                Expr::Starred(st) => match &*st.value {
                    Expr::Tuple(t) => positional.extend(t.elts.iter()),
                    _ => {
                        positional.push(e);
                        splat = true;
                    }
                },
                e => positional.push(e),
            }
        }
        if splat {
            // `f(*t)` of a tuple value: inference flattens its elements into the call, so the
            // parameters bind by position only.
            let nfixed = params.names.len();
            let first_star = positional.iter().position(|e| matches!(e, Expr::Starred(_))).unwrap_or(0);
            if params.vararg.is_some() && (first_star < nfixed || !a.keywords.is_empty()) {
                return self.fail(unsupported(
                    span,
                    "`*t` of a tuple variable that fills named parameters of a `*args` function is",
                    "pass the named parameters one by one before `*t`, or unpack a tuple literal: f(*(x, y))",
                ));
            }
            if params.vararg.is_some() {
                // `f(a, *t, b)` of `def f(a, *args)`: `args` is `(*t, b)`, the concatenation
                // of the splatted tuples and the single arguments after the named ones.
                let mut args: Vec<Value> = positional[..nfixed].iter().map(|e| self.expr(e)).collect();
                let mut rest: Option<Value> = None;
                let mut singles: Vec<Value> = Vec::new();
                let join = |me: &mut Self, rest: Option<Value>, part: Value| match rest {
                    Some(r) => me.emit(InstKind::Binary(BinaryOp::Add, r, part), span),
                    None => part,
                };
                for e in &positional[nfixed..] {
                    if let Expr::Starred(st) = e {
                        if !singles.is_empty() {
                            let t = self.emit(InstKind::MakeTuple(std::mem::take(&mut singles)), span);
                            rest = Some(join(self, rest, t));
                        }
                        let t = self.expr(&st.value);
                        let t = self.emit(InstKind::Builtin(Builtin::PyTuple, vec![t]), self.sp(st.range));
                        rest = Some(join(self, rest, t));
                    } else {
                        singles.push(self.expr(e));
                    }
                }
                if !singles.is_empty() || rest.is_none() {
                    let t = self.emit(InstKind::MakeTuple(singles), span);
                    rest = Some(join(self, rest, t));
                }
                args.push(rest.expect("set above"));
                if !self.callees.iter().any(|x| x == id) {
                    self.callees.push(id.to_string());
                }
                return self.emit(InstKind::Call(id.to_string(), args), span);
            }
            if let Some(k) = a.keywords.first() {
                return self.fail(unsupported(
                    self.sp(k.range),
                    "keyword arguments with `*t` of a tuple variable are",
                    "pass the arguments by position",
                ));
            }
            let mut args = Vec::new();
            for e in positional {
                args.push(match e {
                    Expr::Starred(st) => {
                        let t = self.expr(&st.value);
                        self.emit(InstKind::Builtin(Builtin::Splat, vec![t]), self.sp(st.range))
                    }
                    e => self.expr(e),
                });
            }
            if !self.callees.iter().any(|x| x == id) {
                self.callees.push(id.to_string());
            }
            return self.emit(InstKind::Call(id.to_string(), args), span);
        }
        let keywords = match self.call_keywords(a) {
            Ok(k) => k,
            Err(failed) => return failed,
        };
        let npos = positional.len();
        // Positional arguments beyond the parameters go to `*args`.
        let extra = match &params.vararg {
            Some(_) => npos.saturating_sub(params.names.len()),
            None => 0,
        };
        let bound = match params.bind(id, npos - extra, &keywords, span, self.file) {
            Ok(b) => b,
            Err(d) => return self.fail(d),
        };
        let all_vals: Vec<Value> =
            positional.into_iter().chain(a.keywords.iter().map(|k| &k.value)).map(|e| self.expr(e)).collect();
        let extras: Vec<Value> = all_vals[npos - extra..npos].to_vec();
        let vals: Vec<Value> = all_vals[..npos - extra].iter().chain(&all_vals[npos..]).copied().collect();
        let Some(mut args) = self.filled_args(bound, &vals, span) else { return self.fail_silently() };
        if params.vararg.is_some() {
            args.push(self.emit(InstKind::MakeTuple(extras), span));
        }
        if let Some(call) = ufunc {
            // A ufunc applied here (not through the ufunc function): its errors are located at
            // this call, and it fuses with the array expression around it.
            let inner = crate::ufunc::inner_name(id);
            if !self.callees.contains(&inner) {
                self.callees.push(inner.clone());
            }
            let k = self.emit(InstKind::FuncRef(inner), span);
            args.insert(0, k);
            return self.emit(InstKind::Builtin(call, args), span);
        }
        if !self.callees.iter().any(|x| x == id) {
            self.callees.push(id.to_string());
        }
        self.emit(InstKind::Call(id.to_string(), args), span)
    }

    fn builtin_call(&mut self, b: Builtin, args: &[Expr], span: Span) -> Value {
        let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        if b == Builtin::Log && vals.len() == 2 {
            // math.log(x, base) == log(x) / log(base)
            let l = self.emit(InstKind::Builtin(Builtin::Log, vec![vals[0]]), span);
            let lb = self.emit(InstKind::Builtin(Builtin::Log, vec![vals[1]]), span);
            return self.emit(InstKind::Binary(BinaryOp::Div, l, lb), span);
        }
        self.emit(InstKind::Builtin(b, vals), span)
    }

    fn cast_call(&mut self, s: Scalar, args: &[Expr], span: Span) -> Value {
        match args {
            [a] => {
                let v = self.expr(a);
                self.emit(InstKind::Cast(s, v), span)
            }
            [] => {
                let c = match s {
                    Scalar::Bool => Const::Bool(false),
                    s if s.is_float() => Const::Float(0.0),
                    _ => Const::Int(0),
                };
                let v = self.konst(c, span);
                self.emit(InstKind::Cast(s, v), span)
            }
            _ => self.fail(Diagnostic::error(
                format!("{}() takes one argument", s.name()),
                span,
                "wrong number of arguments",
            )),
        }
    }

    fn module_call(&mut self, g: Global, path: &[&str], c: &ast::ExprCall, span: Span) -> Value {
        let args = &c.arguments.args;
        if let (Global::NumbaModule, ["typed", "List", rest @ ..]) = (&g, path) {
            let rest = rest.iter().map(|p| format!(".{p}")).collect::<String>();
            if let Some(v) = self.typed_list_call(&rest, c, span) {
                return v;
            }
        }
        if let (Global::NumbaModule, ["typed", "Dict", rest @ ..]) = (&g, path) {
            let rest = rest.iter().map(|p| format!(".{p}")).collect::<String>();
            if let Some(v) = self.typed_dict_call(&rest, c, span) {
                return v;
            }
        }
        if let Global::NumpyModule = &g {
            if let Some(b) = numpy_function(&path.join(".")) {
                if matches!(
                    b.info().typing,
                    Typing::Alloc(_) | Typing::Reduce(_) | Typing::Method(_) | Typing::Random(_)
                ) {
                    return self.alloc_call(b, None, c, span);
                }
            }
        }
        if let (Global::NumpyModule, false) = (&g, c.arguments.keywords.is_empty()) {
            if let Some((b, names)) = numpy_function(&path.join(".")).and_then(|b| b.keyword_names().map(|n| (b, n))) {
                return self.keyword_call(b, names, c, span);
            }
        }
        let kw_ok = matches!((&g, path), (Global::CudaModule, ["shared" | "local", "array"]));
        if !c.arguments.keywords.is_empty() && !kw_ok {
            let kspan = self.sp(c.arguments.keywords[0].range);
            return self.fail(unsupported(kspan, "keyword arguments are", "pass arguments by position"));
        }
        match (g, path) {
            (Global::MathModule, [f]) => match math_function(f) {
                Some(b) => self.builtin_call(b, args, span),
                None => self.fail(
                    Diagnostic::error(format!("unknown function `math.{f}`"), span, "not supported")
                        .with_hint(supported_hint("math", "")),
                ),
            },
            (Global::CmathModule, [f]) => match cmath_function(f) {
                Some(b) => self.builtin_call(b, args, span),
                None => self.fail(
                    Diagnostic::error(format!("unknown function `cmath.{f}`"), span, "not supported")
                        .with_hint(supported_hint("cmath", "")),
                ),
            },
            (Global::NumpyModule | Global::NumbaModule, [t]) if dtype_name(t).is_some() => {
                self.cast_call(dtype_name(t).expect("checked"), args, span)
            }
            // `numba.get_num_threads()` and friends.
            (Global::NumbaModule, [f]) if Builtin::from_path(&format!("numba.{f}")).is_some() => {
                let b = Builtin::from_path(&format!("numba.{f}")).expect("checked");
                self.builtin_call(b, args, span)
            }
            (Global::NumpyModule, path) => match numpy_function(&path.join(".")) {
                Some(b) => self.builtin_call(b, args, span),
                None => self.fail(
                    Diagnostic::error(format!("`np.{}` is not supported", path.join(".")), span, "not supported")
                        .with_hint(numpy_hint()),
                ),
            },
            (Global::CudaModule, path) => self.cuda_call(path, c, span),
            (Global::HeapqModule, [f]) if Builtin::from_path(&format!("heapq.{f}")).is_some() => {
                let b = Builtin::from_path(&format!("heapq.{f}")).expect("checked");
                self.builtin_call(b, args, span)
            }
            (Global::HeapqModule, path) => self.fail(
                Diagnostic::error(format!("unknown function `heapq.{}`", path.join(".")), span, "not supported")
                    .with_hint("supported: heapq.heappush heappop heapreplace heappushpop heapify nlargest nsmallest"),
            ),
            (_, path) => {
                self.fail(Diagnostic::error(format!("unknown function `{}`", path.join(".")), span, "not supported"))
            }
        }
    }

    fn cuda_call(&mut self, path: &[&str], c: &ast::ExprCall, span: Span) -> Value {
        let args = &c.arguments.args;
        // Plain calls of the table's kernel builtins (grid, atomics and arrays have their own
        // forms below).
        let simple = |name: &str| -> Option<Builtin> {
            Builtin::from_path(&format!("cuda.{name}")).filter(|b| {
                matches!(
                    b.info().typing,
                    Typing::NoResult
                        | Typing::BarrierPredicate
                        | Typing::ActiveMask
                        | Typing::LaneMask
                        | Typing::Bits(_)
                        | Typing::Vote(_)
                        | Typing::FloatMath
                        | Typing::Shuffle
                        | Typing::Fma
                        | Typing::Select
                        | Typing::CacheLoad
                        | Typing::CacheStore
                )
            })
        };
        match path {
            ["grid" | "gridsize"] => {
                let b = if path[0] == "grid" { Builtin::Grid } else { Builtin::Gridsize };
                match args.first().and_then(int_literal) {
                    Some(n) if args.len() == 1 && (1..=3).contains(&n) => {
                        let k = self.konst(Const::Int(n), span);
                        self.emit(InstKind::Builtin(b, vec![k]), span)
                    }
                    _ => self.fail(Diagnostic::error(
                        format!("cuda.{}() takes a literal 1, 2 or 3", path[0]),
                        span,
                        "here",
                    )),
                }
            }
            [v] if twinjit_ir::builtins::cuda_vector(v).is_some() => self.vector_call(v, c, span),
            ["cg", "this_grid"] if args.is_empty() => self.emit(InstKind::Builtin(Builtin::ThisGrid, Vec::new()), span),
            ["atomic", op] => {
                let Some(b) = Builtin::from_path(&format!("cuda.atomic.{op}")) else {
                    return self.fail(
                        Diagnostic::error(format!("unknown atomic `cuda.atomic.{op}`"), span, "not supported")
                            .with_hint(supported_hint("cuda.atomic", "")),
                    );
                };
                let mut vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
                // numba-cuda's `compare_and_swap(ary, old, val)` is `cas` on the array's first
                // element.
                if *op == "compare_and_swap" && vals.len() == 3 {
                    let first = self.konst(Const::Int(0), span);
                    vals.insert(1, first);
                }
                self.emit(InstKind::Builtin(b, vals), span)
            }
            [space @ ("shared" | "local"), "array"] => {
                let mut shape_e = args.first();
                let mut dtype_e = args.get(1);
                let mut align_e = args.get(2);
                for kw in c.arguments.keywords.iter() {
                    match kw.arg.as_ref().map(|a| a.id.as_str()) {
                        Some("shape") => shape_e = Some(&kw.value),
                        Some("dtype") => dtype_e = Some(&kw.value),
                        Some("alignment") => align_e = Some(&kw.value),
                        _ => {
                            return self.fail(Diagnostic::error(
                                "unknown keyword argument",
                                self.sp(kw.range),
                                "expected shape=, dtype= or alignment=",
                            ))
                        }
                    }
                }
                // numba-cuda's checks of `alignment=`: a positive power of two, a multiple of
                // the pointer size.
                let align = match align_e {
                    None | Some(Expr::NoneLiteral(_)) => 0,
                    Some(ae) => match self.const_shape(ae).as_deref() {
                        Some(&[a]) if a > 0 && a & (a - 1) == 0 && a % 8 == 0 && a <= 1 << 16 => a as u32,
                        _ => {
                            return self.fail(
                                Diagnostic::error(
                                    "the alignment must be a constant power of two, a multiple of 8",
                                    self.sp(ae.range()),
                                    "here",
                                )
                                .with_hint("numba-cuda raises ValueError for this alignment; write e.g. alignment=16"),
                            )
                        }
                    },
                };
                let (Some(se), Some(de)) = (shape_e, dtype_e) else {
                    return self.fail(Diagnostic::error(format!("cuda.{space}.array(shape, dtype) needs both arguments"), span, "here"));
                };
                let Some(shape) = self.const_shape(se) else {
                    return self.fail(
                        Diagnostic::error("the shape must be a constant", self.sp(se.range()), "not a compile-time constant")
                            .with_hint("use a literal, a module-level constant or a local assigned once to one, e.g. (TPB, TPB)"),
                    );
                };
                // `dtype=a.dtype`: the dtype of an array argument, known once it is typed.
                let like = match de {
                    Expr::Attribute(at) if at.attr.id.as_str() == "dtype" && self.dtype(de).is_none() => Some(&at.value),
                    _ => None,
                };
                let dtype = match (self.dtype(de), like) {
                    (Some(d), _) => Some(d),
                    (None, Some(_)) => None,
                    (None, None) => {
                        return self.fail(
                            Diagnostic::error("unknown dtype", self.sp(de.range()), "expected a NumPy dtype such as np.float64 or np.uint8")
                                .with_hint("write dtype=np.float32 (or numba.float32, or the dtype of an array: a.dtype)"),
                        );
                    }
                };
                // `cuda.shared.array(0, dtype)`: dynamic shared memory, sized at launch.
                let dynamic = *space == "shared" && shape == [0];
                if !dynamic
                    && (twinjit_ir::types::check_ndim(shape.len()).is_err() || shape.iter().any(|&d| d <= 0))
                {
                    return self.fail(
                        Diagnostic::error(
                            format!("shape must have 1 to {} positive dimensions", twinjit_ir::types::MAX_NDIM),
                            self.sp(se.range()),
                            "here",
                        )
                            .with_hint("cuda.shared.array(0, dtype) is dynamic shared memory, sized at launch"),
                    );
                }
                if let (None, Some(arr)) = (dtype, like) {
                    if dynamic {
                        return self.fail(Diagnostic::error(
                            "dynamic shared memory needs a literal dtype",
                            self.sp(de.range()),
                            "the dtype of an array",
                        ));
                    }
                    let arr = self.expr(arr);
                    let zero = self.emit(InstKind::Builtin(Builtin::Dtype, vec![arr]), self.sp(de.range()));
                    let mut vals = vec![
                        zero,
                        self.konst(Const::Int(i64::from(*space != "shared")), span),
                        self.konst(Const::Int(i64::from(align)), span),
                    ];
                    for d in shape {
                        vals.push(self.konst(Const::Int(d), span));
                    }
                    return self.emit(InstKind::Builtin(Builtin::KernelArrayLike, vals), span);
                }
                let dtype = dtype.expect("a dtype or an array's");
                let space = if *space == "shared" { AddressSpace::Shared } else { AddressSpace::Local };
                self.emit(InstKind::AllocArray { space, dtype, shape, align }, span)
            }
            ["random", draw] if cuda_random::DRAWS.contains(draw) => self.cuda_random_call(draw, args, span),
            ["libdevice", f] => self.libdevice_call(f, args, span),
            ["fp16", f] => self.fp16_call(f, args, span),
            // numba-cuda copies a module-level array into constant memory; twinjit freezes every
            // module-level array into the module already, so this is a read of that global (or
            // its own error: an array twinjit cannot compute).
            ["const", "array_like"] => match &args[..] {
                [Expr::Name(n)]
                    if !self.locals.contains(n.id.as_str())
                        && matches!(self.env.get(n.id.as_str()), Some(Global::Array(_) | Global::Unfrozen(_))) =>
                {
                    self.name(n)
                }
                _ => self.fail(
                    Diagnostic::error("cuda.const.array_like() takes a module-level NumPy array", span, "here")
                        .with_hint("define the array at module level, e.g. `COEFFS = np.array([...])`, and pass its name"),
                ),
            },
            // (`numba.cuda.cache_hints.ldcg`: the module numba-cuda defines the hints in.)
            [name] | ["cache_hints", name] if simple(name).is_some() => {
                let b = simple(name).expect("checked");
                let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
                self.emit(InstKind::Builtin(b, vals), span)
            }
            _ => self.fail(
                Diagnostic::error(format!("unknown function `cuda.{}`", path.join(".")), span, "not supported").with_hint(
                    "supported: cuda.grid, gridsize, syncthreads*, syncwarp, threadfence*, nanosleep, atomic.*, shared.array, local.array, const.array_like, random.*, shfl_*_sync, all/any/eq/ballot_sync, match_any/match_all_sync, activemask, lanemask_lt, popc, clz, ffs, brev, cbrt, fma, selp, ldcg and the other cache hints, float32x4 and the other vector types, libdevice.*",
                ),
            ),
        }
    }

    /// A builtin called with keyword arguments it has names for
    /// ([`Builtin::keyword_names`]): bound by position and name into its argument list (the
    /// trailing ones left out stay out).
    fn keyword_call(&mut self, b: Builtin, names: &[&str], c: &ast::ExprCall, span: Span) -> Value {
        let args = &c.arguments.args;
        let fname = format!("{}()", b.name());
        if args.len() > names.len() || args.iter().any(|a| matches!(a, Expr::Starred(_))) {
            return self.fail(Diagnostic::error(
                format!("{fname} takes at most {} arguments", names.len()),
                span,
                "too many arguments",
            ));
        }
        let mut slots: Vec<Option<&Expr>> = vec![None; names.len()];
        for (k, e) in args.iter().enumerate() {
            slots[k] = Some(e);
        }
        for kw in c.arguments.keywords.iter() {
            let kspan = self.sp(kw.range);
            let Some(name) = kw.arg.as_ref().map(|n| n.id.as_str()) else {
                return self.fail(unsupported(kspan, "`**kwargs` in calls is", "pass keywords one by one"));
            };
            if let Err(d) = keyword_slot(&fname, names, 0, &mut slots, name, &kw.value, kspan) {
                return self.fail(d);
            }
        }
        let last = slots.iter().rposition(|s| s.is_some()).map_or(0, |k| k + 1);
        let mut vals = Vec::new();
        for (k, slot) in slots[..last].iter().enumerate() {
            match slot {
                Some(e) => vals.push(self.expr(e)),
                None => {
                    return self.fail(Diagnostic::error(
                        format!("{fname}: give argument '{}' too (by position or name)", names[k]),
                        span,
                        "argument missing",
                    ))
                }
            }
        }
        self.emit(InstKind::Builtin(b, vals), span)
    }

    /// `isinstance(x, C)` / `isinstance(x, (C, D))` with builtin classes: the classes become a
    /// constant bit set; inference decides the test from `x`'s type.
    fn isinstance_call(&mut self, c: &ast::ExprCall, span: Span) -> Value {
        let args = &c.arguments.args;
        if args.len() != 2 || !c.arguments.keywords.is_empty() {
            return self.fail(Diagnostic::error("isinstance() takes 2 arguments", span, "wrong arguments"));
        }
        let classes: Vec<&Expr> = match &args[1] {
            Expr::Tuple(t) => t.elts.iter().collect(),
            e => vec![e],
        };
        let mut bits = 0i64;
        for e in classes {
            let known = match e {
                Expr::Name(n) if !self.locals.contains(n.id.as_str()) && !self.env.contains_key(n.id.as_str()) => {
                    twinjit_ir::builtins::ISINSTANCE_CLASSES
                        .iter()
                        .find(|(name, _)| *name == n.id.as_str())
                        .map(|(_, b)| *b)
                }
                // Numba's type classes (`types.Integer`, `numba.core.types.Array`), as an
                // `@overload` tests its arguments' types.
                e => crate::env::qualified(e, self.env).and_then(|p| {
                    let p = p.replace("numba.core.types.", "numba.types.");
                    twinjit_ir::builtins::ISINSTANCE_CLASSES.iter().find(|(name, _)| *name == p).map(|(_, b)| *b)
                }),
            };
            match known {
                Some(b) => bits |= b,
                None => {
                    return self.fail(unsupported(self.sp(e.range()), "isinstance() with this class is", "").with_hint(
                        "supported: int, float, bool, tuple, list, complex, str, Numba's types.Integer, \
                                        types.Float, types.Complex, types.Number, types.Boolean, types.Array, \
                                        types.UniTuple, types.Tuple, types.BaseTuple, types.NoneType, types.Omitted, \
                                        types.Optional, types.List (and tuples of them)",
                    ))
                }
            }
        }
        let x = match &args[0] {
            // `isinstance(a.dtype, types.Float)`: the test is on a zero of the element type.
            Expr::Attribute(at)
                if at.attr.id.as_str() == "dtype" && bits & twinjit_ir::builtins::NUMBA_TYPE_CLASSES != 0 =>
            {
                let arr = self.expr(&at.value);
                self.emit(InstKind::Builtin(Builtin::Dtype, vec![arr]), self.sp(at.range))
            }
            e => self.expr(e),
        };
        let k = self.konst(Const::Int(bits), span);
        self.emit(InstKind::Builtin(Builtin::IsInstance, vec![x, k]), span)
    }

    /// A NumPy array constructor (`np.zeros(n, dtype=np.float32)`, `a.copy()`) or reduction
    /// (`np.sum(a, axis=0)`): arguments bound to the row's parameters by name and position
    /// ([`Alloc::params`], [`twinjit_ir::builtins::Reduce::params`]); an omitted optional
    /// one is a `None` constant; the dtype, resolved here, is passed as a zero of that dtype;
    /// `np.array`'s list literals become (nested) tuples.
    fn alloc_call(&mut self, b: Builtin, receiver: Option<Value>, c: &ast::ExprCall, span: Span) -> Value {
        let ((names, required), dtype_param, literal_arg) = match b.info().typing {
            Typing::Alloc(a) => (a.params(), a.dtype_param(), matches!(a, Alloc::Array | Alloc::AsArray)),
            Typing::Reduce(r) => (r.params(), r.dtype_param(), false),
            Typing::Method(m) => (m.params(), None, false),
            Typing::Random(r) => (r.params(), None, false),
            _ => unreachable!("a builtin with parameters"),
        };
        let fname = format!("{}()", b.name());
        let mut slots: Vec<Option<&Expr>> = vec![None; names.len()];
        let mut side: Option<bool> = None;
        let mut stable: Option<bool> = None;
        let skip = usize::from(receiver.is_some());
        let args = &c.arguments.args;
        if args.len() + skip > names.len() {
            return self.fail(Diagnostic::error(
                format!("{fname} takes at most {} arguments ({} given)", names.len() - skip, args.len()),
                span,
                "too many arguments",
            ));
        }
        for (k, e) in args.iter().enumerate() {
            if let Expr::Starred(st) = e {
                return self.fail(unsupported(self.sp(st.range), "`*args` in calls is", "pass arguments one by one"));
            }
            slots[k + skip] = Some(e);
        }
        for kw in c.arguments.keywords.iter() {
            let kspan = self.sp(kw.range);
            let Some(name) = kw.arg.as_ref().map(|n| n.id.as_str()) else {
                return self.fail(unsupported(kspan, "`**kwargs` in calls is", "pass keywords one by one"));
            };
            let sorts = matches!(b.info().typing, Typing::Method(ArrayMethod::Sort | ArrayMethod::Argsort));
            if name == "kind" && sorts {
                match &kw.value {
                    Expr::StringLiteral(s)
                        if ["quicksort", "mergesort", "stable", "heapsort"].contains(&s.value.to_str()) =>
                    {
                        // Argsort's permutation depends on the kind (ties): travels as a bool,
                        // true for a stable one. Sorted values do not.
                        stable = Some(matches!(s.value.to_str(), "mergesort" | "stable"));
                        continue;
                    }
                    _ => {
                        return self.fail(unsupported(
                            kspan,
                            "this kind= is",
                            "kind= takes 'quicksort', 'mergesort', 'stable' or 'heapsort'",
                        ))
                    }
                }
            }
            // `side='left'|'right'` of searchsorted travels as a bool (true: right).
            if name == "side" && b.info().typing == Typing::Method(ArrayMethod::Searchsorted) {
                let Expr::StringLiteral(sv) = &kw.value else {
                    return self.fail(unsupported(
                        kspan,
                        "a side= that is not a string literal is",
                        "write side='left' or side='right'",
                    ));
                };
                let right = match sv.value.to_str() {
                    "left" => false,
                    "right" => true,
                    _ => return self.fail(Diagnostic::error("side must be 'left' or 'right'", kspan, "here")),
                };
                side = Some(right);
                continue;
            }
            if name == "order" {
                match &kw.value {
                    Expr::StringLiteral(s) if s.value.to_str() == "C" => continue,
                    _ => {
                        return self.fail(unsupported(
                            kspan,
                            "order= other than 'C' is",
                            "twinjit allocates C-contiguous arrays",
                        ))
                    }
                }
            }
            if let Err(d) = keyword_slot(&fname, names, skip, &mut slots, name, &kw.value, kspan) {
                return self.fail(d);
            }
        }
        if let Some(k) = (skip..required).find(|&k| slots[k].is_none()) {
            return self.fail(Diagnostic::error(
                format!("{fname} missing required argument '{}'", names[k]),
                span,
                "argument missing",
            ));
        }
        let mut vals = Vec::with_capacity(names.len());
        if let Some(r) = receiver {
            vals.push(r);
        }
        for (k, slot) in slots.into_iter().enumerate().skip(skip) {
            vals.push(match slot {
                None if names[k] == "side" => self.konst(Const::Bool(side.unwrap_or(false)), span),
                None if names[k] == "kind" => self.konst(Const::Bool(stable.unwrap_or(false)), span),
                None => self.konst(Const::None, span),
                Some(e) if Some(k) == dtype_param => {
                    if let Expr::NoneLiteral(_) = e {
                        self.konst(Const::None, span)
                    } else {
                        match self.dtype_value(e) {
                            Some(s) => self.zero_of_dtype(s, self.sp(e.range())),
                            // `dtype=a.dtype`: typed as a zero of the array's dtype.
                            None if matches!(e, Expr::Attribute(at) if at.attr.id.as_str() == "dtype") => {
                                let Expr::Attribute(at) = e else { unreachable!("matched") };
                                let arr = self.expr(&at.value);
                                self.emit(InstKind::Builtin(Builtin::Dtype, vec![arr]), self.sp(e.range()))
                            }
                            // A parameter or variable holding a dtype's name (a string argument,
                            // or a default `dtype=np.float64`): read when the call is typed.
                            None if matches!(e, Expr::Name(n) if self.locals.contains(n.id.as_str())) => {
                                let v = self.expr(e);
                                self.emit(InstKind::Builtin(Builtin::Dtype, vec![v]), self.sp(e.range()))
                            }
                            None => {
                                return self.fail(
                                    Diagnostic::error("unsupported dtype", self.sp(e.range()), "not a dtype twinjit has")
                                        .with_hint("supported: np.float64 np.float32 np.int8 ... np.int64 np.uint8 ... np.uint64 np.bool_ (or float, int, bool, or their names as strings)"),
                                )
                            }
                        }
                    }
                }
                Some(e) if literal_arg && k == 0 => self.nested_literal(e),
                Some(e) => self.expr(e),
            });
        }
        self.emit(InstKind::Builtin(b, vals), span)
    }

    /// A list or tuple literal (nested) as nested tuples; anything else as an expression.
    fn nested_literal(&mut self, e: &Expr) -> Value {
        match e {
            Expr::List(l) => {
                let span = self.sp(l.range);
                let vals: Vec<Value> = l.elts.iter().map(|x| self.nested_literal(x)).collect();
                self.emit(InstKind::MakeTuple(vals), span)
            }
            Expr::Tuple(t) => {
                let span = self.sp(t.range);
                let vals: Vec<Value> = t.elts.iter().map(|x| self.nested_literal(x)).collect();
                self.emit(InstKind::MakeTuple(vals), span)
            }
            e => self.expr(e),
        }
    }

    /// A zero of `s`: how a dtype argument reaches inference (its type is the dtype).
    fn zero_of_dtype(&mut self, s: Scalar, span: Span) -> Value {
        let z = self.konst(Const::Int(0), span);
        self.emit(InstKind::Cast(s, z), span)
    }

    /// `numba.typed.List` in compiled code (`rest` is what follows `List` in the path): the
    /// same list as `[]`, which Numba's typed list behaves as inside a compiled function.
    /// `List()` is `[]` (typed by what is put in), `List(iterable)` is `list(iterable)`,
    /// `List.empty_list(T)` (`allocated=` is a capacity hint) an empty list of `T`.
    fn typed_list_call(&mut self, rest: &str, c: &ast::ExprCall, span: Span) -> Option<Value> {
        let a = &c.arguments;
        match rest {
            "" if a.keywords.is_empty() && a.args.len() <= 1 => Some(self.list_call("list", c, span)),
            ".empty_list" => {
                let item = a.args.first().or_else(|| {
                    a.keywords
                        .iter()
                        .find(|k| k.arg.as_ref().is_some_and(|n| n.id.as_str() == "item_type"))
                        .map(|k| &k.value)
                });
                let scalar_item = item.and_then(|e| self.dtype_value(e));
                // Else an array type, `types.float64[:]` or `float32[:, ::1]`, read as a
                // signature's argument type is.
                let array_item = || {
                    let types = crate::signature::TypeReader { env: self.env, file: self.file, text: self.text };
                    match item.map(|e| types.ty(e)) {
                        Some(Ok(Type::Array(at))) => Some(at),
                        _ => None,
                    }
                };
                let first = match (scalar_item, scalar_item.is_none().then(array_item).flatten()) {
                    (Some(s), _) => self.zero_of_dtype(s, span),
                    // An empty array of that dtype and ndim stands for the item (a C array: a
                    // list of them takes any layout appended, as `[:]` says).
                    (None, Some(at)) => {
                        let zeros: Vec<Value> = (0..at.ndim).map(|_| self.konst(Const::Int(0), span)).collect();
                        let shape = self.emit(InstKind::MakeTuple(zeros), span);
                        let dtype = self.zero_of_dtype(at.dtype, span);
                        self.emit(InstKind::Builtin(Builtin::NpEmpty, vec![shape, dtype]), span)
                    }
                    (None, None) => {
                        return Some(
                            self.fail(
                                Diagnostic::error("List.empty_list() takes the item type", span, "here")
                                    .with_hint("write List.empty_list(types.float64) with a number type, or an array type such as types.float64[:]"),
                            ),
                        );
                    }
                };
                // A one-item list of that type, emptied: the list's type is fixed by the item.
                let l = self.emit(InstKind::Builtin(Builtin::ListLiteral, vec![first]), span);
                self.emit(InstKind::Builtin(Builtin::ListClear, vec![l]), span);
                Some(l)
            }
            _ => None,
        }
    }

    /// `numba.typed.Dict` in compiled code (`rest` is what follows `Dict` in the path):
    /// `Dict()` is `{}`; `Dict.empty(key_type, value_type)` an empty dict of those types (a
    /// one-entry literal of zeros of the types, cleared: the dict's type is fixed by them).
    fn typed_dict_call(&mut self, rest: &str, c: &ast::ExprCall, span: Span) -> Option<Value> {
        let a = &c.arguments;
        match rest {
            "" if a.keywords.is_empty() && a.args.is_empty() => {
                Some(self.emit(InstKind::Builtin(Builtin::DictNew, vec![]), span))
            }
            "" if a.keywords.is_empty() && a.args.len() == 1 => Some(self.dict_of(&a.args[0], span)),
            ".empty" => {
                let arg = |k: usize, name: &str| {
                    a.args.get(k).or_else(|| {
                        a.keywords
                            .iter()
                            .find(|kw| kw.arg.as_ref().is_some_and(|n| n.id.as_str() == name))
                            .map(|kw| &kw.value)
                    })
                };
                let (Some(ke), Some(ve)) = (arg(0, "key_type"), arg(1, "value_type")) else {
                    return Some(
                        self.fail(
                            Diagnostic::error("Dict.empty() takes the key and the value types", span, "here")
                                .with_hint("write Dict.empty(key_type=types.int64, value_type=types.float64)"),
                        ),
                    );
                };
                let types = crate::signature::TypeReader { env: self.env, file: self.file, text: self.text };
                let (kt, vt) = match (types.ty(ke), types.ty(ve)) {
                    (Ok(k), Ok(v)) => (k, v),
                    (Err(e), _) | (_, Err(e)) => return Some(self.fail(e)),
                };
                let (Some(k), Some(v)) = (self.witness(&kt, span), self.witness(&vt, span)) else {
                    return Some(self.fail(
                        Diagnostic::error(format!("dicts of {kt} to {vt} are not supported"), span, "here").with_hint(
                            "keys are numbers, booleans or tuples of them; values numbers, tuples or arrays",
                        ),
                    ));
                };
                let d = self.emit(InstKind::Builtin(Builtin::DictLiteral, vec![k, v]), span);
                self.emit(InstKind::Builtin(Builtin::ListClear, vec![d]), span);
                Some(d)
            }
            _ => None,
        }
    }

    /// A value of type `t` that stands for the type (a zero; an empty array), or `None`.
    fn witness(&mut self, t: &Type, span: Span) -> Option<Value> {
        Some(match t {
            Type::Scalar(s) => self.zero_of_dtype(*s, span),
            Type::Tuple(ts) => {
                let vs = ts.iter().map(|t| self.witness(t, span)).collect::<Option<Vec<_>>>()?;
                self.emit(InstKind::MakeTuple(vs), span)
            }
            Type::Array(at) => {
                let zeros: Vec<Value> = (0..at.ndim).map(|_| self.konst(Const::Int(0), span)).collect();
                let shape = self.emit(InstKind::MakeTuple(zeros), span);
                let dtype = self.zero_of_dtype(at.dtype, span);
                self.emit(InstKind::Builtin(Builtin::NpEmpty, vec![shape, dtype]), span)
            }
            _ => return None,
        })
    }

    /// A dtype written as `np.float32`, a Numba type, `float`/`int`/`bool`, or a string.
    fn dtype_value(&self, e: &Expr) -> Option<Scalar> {
        match e {
            Expr::StringLiteral(s) => dtype_string(s.value.to_str()),
            Expr::Name(n) if !self.locals.contains(n.id.as_str()) && !self.env.contains_key(n.id.as_str()) => {
                match n.id.as_str() {
                    "float" => Some(Scalar::Float64),
                    "int" => Some(Scalar::Int64),
                    "bool" => Some(Scalar::Bool),
                    "complex" => Some(Scalar::Complex128),
                    _ => None,
                }
            }
            // `np.dtype('int16')`, `np.dtype(np.float32)`.
            Expr::Call(c)
                if c.arguments.keywords.is_empty()
                    && c.arguments.args.len() == 1
                    && crate::env::qualified(&c.func, self.env).as_deref() == Some("numpy.dtype") =>
            {
                self.dtype_value(&c.arguments.args[0])
            }
            e => self.dtype(e),
        }
    }

    /// `a.copy()`, `a.reshape(2, 3)`, `a.transpose()`: a method of the builtins table.
    /// `list()`, `list(iterable)`, `sorted(iterable, reverse=False)`: a new list.
    fn list_call(&mut self, id: &str, c: &ast::ExprCall, span: Span) -> Value {
        let a = &c.arguments;
        let mut reverse = None;
        for k in a.keywords.iter() {
            match k.arg.as_ref().map(|n| n.id.as_str()) {
                Some("reverse") if id == "sorted" => reverse = Some(self.expr(&k.value)),
                _ => {
                    return self.fail(unsupported(
                        self.sp(k.range),
                        &format!("this keyword argument of {id}() is"),
                        if id == "sorted" { "only reverse= is supported (no key=)" } else { "" },
                    ))
                }
            }
        }
        let l = match (&a.args[..], id) {
            ([], "list") => return self.emit(InstKind::Builtin(Builtin::ListNew, vec![]), span),
            // `list(iter(x))` is `list(x)`.
            ([x], _) if self.iter_of(x).is_some() => {
                let inner = self.iter_of(x).expect("checked").clone();
                self.list_of(&inner, span)
            }
            ([x], _) if !matches!(x, Expr::Starred(_)) => self.list_of(x, span),
            _ => return self.fail(Diagnostic::error(format!("{id}() takes one iterable"), span, "wrong arguments")),
        };
        if id == "sorted" {
            let rev = reverse.unwrap_or_else(|| self.konst(Const::Bool(false), span));
            self.emit(InstKind::Builtin(Builtin::ListSort, vec![l, rev]), span);
        }
        l
    }

    fn method_call(&mut self, b: Builtin, receiver: Value, c: &ast::ExprCall, span: Span) -> Value {
        if matches!(b.info().typing, Typing::Alloc(_) | Typing::Reduce(_) | Typing::Method(_) | Typing::Random(_)) {
            return self.alloc_call(b, Some(receiver), c, span);
        }
        if b == Builtin::ListSort {
            let mut rev = None;
            for k in c.arguments.keywords.iter() {
                match k.arg.as_ref().map(|n| n.id.as_str()) {
                    Some("reverse") => rev = Some(self.expr(&k.value)),
                    _ => {
                        return self.fail(unsupported(
                            self.sp(k.range),
                            "this keyword argument of sort() is",
                            "only reverse= is supported (no key=)",
                        ))
                    }
                }
            }
            if !c.arguments.args.is_empty() {
                return self.fail(Diagnostic::error("sort() takes no positional arguments", span, "here"));
            }
            let rev = rev.unwrap_or_else(|| self.konst(Const::Bool(false), span));
            return self.emit(InstKind::Builtin(b, vec![receiver, rev]), span);
        }
        if b == Builtin::ListPop && c.arguments.args.is_empty() && c.arguments.keywords.is_empty() {
            let none = self.konst(Const::None, span);
            return self.emit(InstKind::Builtin(b, vec![receiver, none]), span);
        }
        if let Some(k) = c.arguments.keywords.first() {
            return self.fail(unsupported(
                self.sp(k.range),
                "keyword arguments to array methods are",
                "pass arguments by position",
            ));
        }
        let args = &c.arguments.args;
        let mut vals = vec![receiver];
        match (b, args.len()) {
            // `a.view(np.int64)`: the dtype reaches inference as a zero of it.
            (Builtin::ArrayView, 1) => match self.dtype_value(&args[0]) {
                Some(s) => vals.push(self.zero_of_dtype(s, span)),
                None => {
                    return self.fail(
                        Diagnostic::error("view() takes a dtype", self.sp(args[0].range()), "not a dtype")
                            .with_hint("write a.view(np.int64), a.view(np.uint8), ..."),
                    )
                }
            },
            (Builtin::Reshape, 0) => {
                return self.fail(Diagnostic::error("reshape() takes a shape", span, "no shape given"))
            }
            // `a.reshape(2, 3)`, `a.transpose(0, 2, 1)`: the dimensions (axes) as one tuple.
            (Builtin::Reshape | Builtin::Transpose, n) if n > 1 => {
                let dims: Vec<Value> = args.iter().map(|e| self.expr(e)).collect();
                vals.push(self.emit(InstKind::MakeTuple(dims), span));
            }
            _ => vals.extend(args.iter().map(|e| self.expr(e))),
        }
        self.emit(InstKind::Builtin(b, vals), span)
    }

    fn const_shape(&self, e: &Expr) -> Option<Vec<i64>> {
        // A local of the function being lowered (not of an inner function inlined into it).
        let local = |n: &str| self.frames.is_empty().then(|| self.local_shapes.get(n)).flatten();
        let one = |e: &Expr| -> Option<i64> {
            int_literal(e).or_else(|| match e {
                Expr::Name(n) => match (local(n.id.as_str()), self.env.get(n.id.as_str())) {
                    (Some(v), _) if v.len() == 1 => Some(v[0]),
                    (None, Some(Global::Const(c))) if !self.locals.contains(n.id.as_str()) => c.as_i64(),
                    _ => None,
                },
                _ => None,
            })
        };
        match e {
            Expr::Tuple(t) => t.elts.iter().map(one).collect(),
            Expr::Name(n) if local(n.id.as_str()).is_some() => local(n.id.as_str()).cloned(),
            Expr::Name(n) if self.locals.contains(n.id.as_str()) => None,
            Expr::Name(n) => match self.env.get(n.id.as_str()) {
                Some(Global::Const(ConstValue::Tuple(vs))) => vs.iter().map(ConstValue::as_i64).collect(),
                Some(Global::Const(c)) => c.as_i64().map(|i| vec![i]),
                _ => None,
            },
            e => one(e).map(|i| vec![i]),
        }
    }

    fn dtype(&self, e: &Expr) -> Option<Scalar> {
        match e {
            Expr::Name(n) => match self.env.get(n.id.as_str()) {
                Some(Global::NumbaType(s)) => Some(*s),
                // `DT = 'int32'` at module level, assigned once: `np.zeros(n, DT)`.
                Some(Global::Unfrozen(Unfrozen { why: UnfrozenWhy::Str(Some(s)), .. })) => dtype_string(s),
                _ => None,
            },
            Expr::Attribute(a) => match &*a.value {
                Expr::Name(m)
                    if matches!(
                        self.env.get(m.id.as_str()),
                        Some(Global::NumpyModule | Global::NumbaModule | Global::TypesModule)
                    ) =>
                {
                    dtype_name(a.attr.id.as_str())
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// Whether `v` is computed (through instruction operands) from `p`.
fn depends_on(f: &Function, v: Value, p: Value) -> bool {
    let mut stack = vec![v];
    let mut seen: HashSet<Value> = HashSet::new();
    while let Some(x) = stack.pop() {
        if x == p {
            return true;
        }
        if !seen.insert(x) {
            continue;
        }
        if let Some(d) = f.def_inst(x) {
            stack.extend(d.kind.operands());
        }
    }
    false
}

fn tuple_elts(e: &Expr) -> &[Expr] {
    match e {
        Expr::Tuple(t) => &t.elts,
        Expr::List(l) => &l.elts,
        _ => std::slice::from_ref(e),
    }
}

fn int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i.as_i64(),
            _ => None,
        },
        Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => int_literal(&u.operand).map(|v| v.wrapping_neg()),
        _ => None,
    }
}

/// Puts keyword argument `name` into its parameter's slot (parameters before `skip` are bound
/// already, a method's receiver); Python's errors for a repeated or unknown keyword.
#[allow(clippy::too_many_arguments)]
fn keyword_slot<'e>(
    fname: &str,
    names: &[&str],
    skip: usize,
    slots: &mut [Option<&'e Expr>],
    name: &str,
    value: &'e Expr,
    kspan: Span,
) -> Result<(), Diagnostic> {
    match names.iter().position(|n| *n == name) {
        Some(k) if k >= skip && slots[k].is_none() => {
            slots[k] = Some(value);
            Ok(())
        }
        Some(_) => {
            Err(Diagnostic::error(format!("{fname} got multiple values for argument '{name}'"), kspan, "given twice"))
        }
        None => Err(Diagnostic::error(
            format!("{fname} got an unexpected keyword argument '{name}'"),
            kspan,
            "unknown keyword",
        )
        .with_hint(format!("{fname} takes {}", names.join(", ")))),
    }
}

fn binop(op: ast::Operator) -> Option<BinaryOp> {
    use ast::Operator::*;
    Some(match op {
        Add => BinaryOp::Add,
        Sub => BinaryOp::Sub,
        Mult => BinaryOp::Mul,
        Div => BinaryOp::Div,
        FloorDiv => BinaryOp::FloorDiv,
        Mod => BinaryOp::Mod,
        Pow => BinaryOp::Pow,
        BitAnd => BinaryOp::BitAnd,
        BitOr => BinaryOp::BitOr,
        BitXor => BinaryOp::BitXor,
        LShift => BinaryOp::Shl,
        RShift => BinaryOp::Shr,
        MatMult => return None,
    })
}

fn cmpop(op: ast::CmpOp) -> Option<CmpOp> {
    use ast::CmpOp::*;
    Some(match op {
        Eq => CmpOp::Eq,
        NotEq => CmpOp::Ne,
        Lt => CmpOp::Lt,
        LtE => CmpOp::Le,
        Gt => CmpOp::Gt,
        GtE => CmpOp::Ge,
        _ => return None,
    })
}
