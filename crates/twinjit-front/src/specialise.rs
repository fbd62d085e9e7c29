//! Literal specialisation of module functions: Numba's literal dispatch, for the arguments a
//! compiled function can only use as compile-time values.
//!
//! numba-cuda's tests and many users write one device function and call it with a dtype, a
//! shape or a builtin as arguments:
//!
//! ```python
//! @cuda.jit(device=True)
//! def apply(ary, n, dt, op):
//!     sm = cuda.shared.array(n, dt)
//!     ...
//!     op(sm, 0, 1)
//!
//! @cuda.jit
//! def kernel(ary):
//!     apply(ary, 32, uint32, cuda.atomic.add)
//! ```
//!
//! Numba types `32` as `Literal[int](32)`, `uint32` as a `NumberClass` and `cuda.atomic.add` as
//! a `Function` type, and compiles `apply` once per combination. twinjit does the same on the
//! AST, before lowering: for a call of a module function with such arguments, a copy of the
//! callee is made with those parameters removed and every read of them replaced by the
//! argument's expression, and the call is rewritten to call the copy (`apply__lit1(ary)`). A
//! copy is made once per callee and set of argument texts, and copies are specialised in turn
//! (to a fixed point, at most [`MAX_COPIES`] copies per module).
//!
//! Which arguments are compile-time values (an argument is never one when it names a local or
//! a parameter of the caller):
//! - always: a dtype (`uint32`, `np.float32`, `numba.types.int8`), a builtin function
//!   (`cuda.atomic.add`, `math.sqrt`, `from math import sqrt`, `abs`), a string literal;
//! - when the callee uses the parameter in the shape of a `cuda.shared.array` /
//!   `cuda.local.array`: a number literal, a tuple of them, a frozen module constant;
//! - when the callee tests the parameter in an `if` or a conditional expression (`if neg_idx:`):
//!   `True` or `False`, so that the copy prunes the other branch (which may not type-check for
//!   this call, as Numba's retry with literal types finds).
//!
//! A parameter the callee assigns is never replaced, nor one whose argument reads a name the
//! callee binds. A callee with explicit signatures, `*args`, `**kwargs` or keyword-only
//! parameters is never copied (a signature fixes the parameters). Other calls of the function
//! are untouched; a function whose every use was specialised and whose own body does not
//! compile is not an error of the module (Numba never compiles it either): `Module::refused`
//! records it with the copies made instead.

use crate::decorators::{read_decorators, Decorated};
use crate::env::{qualified, Env, Global};
use crate::globals::ModuleNames;
use crate::params::Params;
use hashbrown::{HashMap, HashSet};
use ruff_python_ast::visitor::transformer::{self, Transformer};
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, ExprContext, Stmt};
use ruff_text_size::{Ranged, TextRange};
use std::borrow::Cow;
use twinjit_diag::FileId;
use twinjit_ir::{Builtin, FunctionKind};

/// At most this many copies per module: a recursion that passes new literals forever stops
/// here (its remaining calls stay generic and report their own errors).
pub(crate) const MAX_COPIES: usize = 256;

/// A function to lower: a `def` of the module (its calls rewritten when any were specialised)
/// or a copy.
pub(crate) struct Item<'a> {
    pub(crate) fd: Cow<'a, ast::StmtFunctionDef>,
    /// For a copy: the function it was made from and its bindings (`n=32, dt=uint32`).
    pub(crate) of: Option<(String, String)>,
}

pub(crate) struct Specialised<'a> {
    /// The module's `def`s in source order, then the copies in the order they were made.
    pub(crate) items: Vec<Item<'a>>,
    /// Functions specialised at least once and used nowhere else, with their copies' names.
    pub(crate) literal_only: HashMap<String, Vec<String>>,
    /// The parameters each function reads as a shape of a shared or local array (those it
    /// passes on to another's included).
    pub(crate) shape_params: HashMap<String, HashSet<String>>,
}

/// What a callee offers to specialisation.
struct Callee<'a> {
    fd: &'a ast::StmtFunctionDef,
    /// Positional parameters in order, with their defaults.
    params: Vec<(String, Option<Expr>)>,
    /// Names the body binds (nested parameters included, the function's own excluded).
    stores: HashSet<String>,
    /// Parameters read in the shape of a shared or local array.
    shape_params: HashSet<String>,
    /// Parameters that are, alone or negated, the test of an `if` or a conditional expression
    /// (`if neg_idx:`): a `True`/`False` argument there decides a branch, which the copy prunes.
    branch_params: HashSet<String>,
}

/// One call to specialise: the callee, the parameters replaced (index, argument) and the
/// positions of the positional arguments and keywords the rewritten call drops.
struct Plan {
    callee: String,
    bind: Vec<(usize, Expr)>,
    drop_args: Vec<usize>,
    drop_keywords: Vec<usize>,
}

/// Specialises the compiled functions among `defs` (the module's `def`s in source order);
/// adds each copy to `env`. Without a call to specialise, every item borrows its `def`.
pub(crate) fn specialise<'a>(
    defs: &[&'a ast::StmtFunctionDef],
    env: &mut Env,
    file: FileId,
    text: &str,
) -> Specialised<'a> {
    let mut items: Vec<Item<'a>> = defs.iter().map(|fd| Item { fd: Cow::Borrowed(*fd), of: None }).collect();
    let mut callees: HashMap<String, Callee<'a>> =
        defs.iter().filter_map(|fd| callee(fd, env, file, text).map(|c| (fd.name.id.to_string(), c))).collect();
    pass_on_shapes(&mut callees);
    let shape_params: HashMap<String, HashSet<String>> = callees
        .iter()
        .map(|(n, c)| {
            // (A parameter the body assigns to is not the argument any more.)
            let params = c
                .shape_params
                .iter()
                .filter(|s| c.params.iter().any(|(p, _)| p == *s) && !c.stores.contains(*s))
                .cloned()
                .collect();
            (n.clone(), params)
        })
        .filter(|(_, ps): &(String, HashSet<String>)| !ps.is_empty())
        .collect();
    let mut made: HashMap<(String, String), String> = HashMap::new();
    let mut copies_of: HashMap<String, Vec<String>> = HashMap::new();
    if !callees.is_empty() {
        let mut i = 0;
        while i < items.len() {
            let compiled =
                matches!(env.get(items[i].fd.name.id.as_str()), Some(Global::Function { kind: Some(_), .. }));
            if compiled || items[i].of.is_some() {
                let plans = plans(&items[i].fd, &callees, env);
                if !plans.is_empty() {
                    let mut rewrites: HashMap<TextRange, (String, Plan)> = HashMap::new();
                    for (range, plan) in plans {
                        let callee = &callees[&plan.callee];
                        let key: Vec<String> = plan
                            .bind
                            .iter()
                            .map(|(k, e)| format!("{}={}", callee.params[*k].0, source(e, text)))
                            .collect();
                        let key = (plan.callee.clone(), key.join(", "));
                        let name = match made.get(&key) {
                            Some(n) => n.clone(),
                            None if made.len() >= MAX_COPIES => continue,
                            None => {
                                let name = fresh_name(&plan.callee, env);
                                let copy = make_copy(callee, &name, &plan.bind);
                                let params = Params::of(&copy.parameters, &ModuleNames(env), file);
                                let kind = match env.get(plan.callee.as_str()) {
                                    Some(Global::Function { kind, .. }) => *kind,
                                    _ => None,
                                };
                                env.insert(name.clone(), Global::Function { kind, params, ufunc: None });
                                copies_of.entry(plan.callee.clone()).or_default().push(name.clone());
                                items.push(Item {
                                    fd: Cow::Owned(copy),
                                    of: Some((plan.callee.clone(), key.1.clone())),
                                });
                                made.insert(key, name.clone());
                                name
                            }
                        };
                        rewrites.insert(range, (name, plan));
                    }
                    if !rewrites.is_empty() {
                        let fd = items[i].fd.to_mut();
                        let rw = Rewrite { calls: &rewrites };
                        fd.body.iter_mut().for_each(|s| rw.visit_stmt(s));
                    }
                }
            }
            i += 1;
        }
    }
    if copies_of.is_empty() {
        return Specialised { items, literal_only: copies_of, shape_params };
    }
    // A function specialised and otherwise unused exists only as its copies: no read of its
    // name is left in a compiled function other than such functions (to a fixed point: a
    // generic that passes its parameters on to another is itself used only through copies).
    let reads: Vec<(String, HashSet<String>)> = items
        .iter()
        .filter(|it| {
            it.of.is_some() || matches!(env.get(it.fd.name.id.as_str()), Some(Global::Function { kind: Some(_), .. }))
        })
        .map(|it| {
            let mut read = ReadNames::default();
            it.fd.body.iter().for_each(|s| read.visit_stmt(s));
            (it.fd.name.id.to_string(), read.0)
        })
        .collect();
    loop {
        let used: Vec<String> = copies_of
            .keys()
            .filter(|g| {
                reads.iter().any(|(reader, r)| !copies_of.contains_key(reader.as_str()) && r.contains(g.as_str()))
            })
            .cloned()
            .collect();
        if used.is_empty() {
            break;
        }
        used.iter().for_each(|g| {
            copies_of.remove(g.as_str());
        });
    }
    Specialised { items, literal_only: copies_of, shape_params }
}

/// The text of `e` in the source (its range is in the file, wherever it was copied to).
fn source<'t>(e: &Expr, text: &'t str) -> &'t str {
    text.get(e.range().to_std_range()).unwrap_or("?")
}

/// `g__litN`, a name no module-level name has.
fn fresh_name(g: &str, env: &Env) -> String {
    (1..).map(|k| format!("{g}__lit{k}")).find(|n| !env.contains_key(n.as_str())).expect("unbounded")
}

/// `fd` as a callee, when a call of it may be specialised.
fn callee<'a>(fd: &'a ast::StmtFunctionDef, env: &Env, file: FileId, text: &str) -> Option<Callee<'a>> {
    let Some(Global::Function { kind: Some(kind), ufunc: None, params }) = env.get(fd.name.id.as_str()) else {
        return None;
    };
    let p = &fd.parameters;
    if *kind == FunctionKind::Kernel || params.vararg.is_some() || p.kwarg.is_some() || !p.kwonlyargs.is_empty() {
        return None;
    }
    match read_decorators(fd, env, file, text) {
        Ok(Decorated::Compiled(attrs, _)) if attrs.signatures.is_empty() => {}
        Ok(Decorated::Plain) => {}
        _ => return None,
    }
    let mut stores = Stores::default();
    fd.body.iter().for_each(|s| stores.visit_stmt(s));
    let mut shapes = ShapeNames::default();
    fd.body.iter().for_each(|s| shapes.visit_stmt(s));
    let mut branches = BranchNames::default();
    fd.body.iter().for_each(|s| branches.visit_stmt(s));
    Some(Callee {
        fd,
        params: p
            .posonlyargs
            .iter()
            .chain(&p.args)
            .map(|a| (a.parameter.name.id.to_string(), a.default.as_deref().cloned()))
            .collect(),
        stores: stores.0,
        shape_params: shapes.0,
        branch_params: branches.0,
    })
}

/// Adds to each callee's shape parameters those it passes on, as they are, to a shape
/// parameter of another callee (`def staged(x, n): block(x, n)`), to a fixed point.
fn pass_on_shapes<'a>(callees: &mut HashMap<String, Callee<'a>>) {
    // Each callee's calls of other callees by name (the same at every round).
    let calls: Vec<(String, Vec<&'a ast::ExprCall>)> = callees
        .iter()
        .map(|(name, c)| {
            let mut calls = Calls::default();
            c.fd.body.iter().for_each(|s| calls.visit_stmt(s));
            calls.0.retain(|call| matches!(&*call.func, Expr::Name(g) if callees.contains_key(g.id.as_str())));
            (name.clone(), calls.0)
        })
        .filter(|(_, calls)| !calls.is_empty())
        .collect();
    loop {
        let mut found: Vec<(String, String)> = Vec::new();
        for (name, calls) in &calls {
            let c = &callees[name.as_str()];
            for call in calls {
                let Expr::Name(g) = &*call.func else { continue };
                let Some(target) = callees.get(g.id.as_str()).filter(|_| !c.stores.contains(g.id.as_str())) else {
                    continue;
                };
                let args = &call.arguments;
                let positional = args.args.iter().enumerate().map(|(k, a)| (Some(k), a));
                let keywords = args.keywords.iter().map(|kw| {
                    (
                        kw.arg.as_ref().and_then(|n| target.params.iter().position(|(p, _)| p == n.id.as_str())),
                        &kw.value,
                    )
                });
                for (slot, arg) in positional.chain(keywords) {
                    let (Some(slot), Expr::Name(p)) = (slot, arg) else { continue };
                    let p = p.id.as_str();
                    let passes =
                        target.params.get(slot).is_some_and(|(tp, _)| target.shape_params.contains(tp.as_str()));
                    if passes
                        && !c.shape_params.contains(p)
                        && !c.stores.contains(p)
                        && c.params.iter().any(|(q, _)| q == p)
                    {
                        found.push((name.clone(), p.to_string()));
                    }
                }
            }
        }
        if found.is_empty() {
            return;
        }
        for (name, p) in found {
            if let Some(c) = callees.get_mut(name.as_str()) {
                c.shape_params.insert(p);
            }
        }
    }
}

/// How an argument may be specialised.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Literal {
    /// A runtime value.
    No,
    /// A number (or a tuple of numbers): a compile-time value where the callee needs one.
    Number,
    /// A value with no runtime form (a dtype, a builtin function, a string).
    Always,
}

/// What `e`, an argument in a function binding `bound`, is.
fn literal(e: &Expr, bound: &HashSet<String>, env: &Env) -> Literal {
    match e {
        Expr::StringLiteral(_) => Literal::Always,
        Expr::NumberLiteral(_) | Expr::BooleanLiteral(_) => Literal::Number,
        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub | ast::UnaryOp::UAdd) => match &*u.operand {
            Expr::NumberLiteral(_) => Literal::Number,
            _ => Literal::No,
        },
        Expr::Tuple(t) if !t.elts.is_empty() => {
            if t.elts.iter().all(|x| literal(x, bound, env) == Literal::Number) {
                Literal::Number
            } else {
                Literal::No
            }
        }
        Expr::Name(n) if bound.contains(n.id.as_str()) => Literal::No,
        Expr::Name(n) => match env.get(n.id.as_str()) {
            Some(Global::NumbaType(_) | Global::MathFunction(_)) => Literal::Always,
            Some(Global::Const(c)) if c.as_i64().is_some() => Literal::Number,
            // A Python builtin the module does not shadow (`abs`, `min`, `round`).
            None if Builtin::from_path(n.id.as_str()).is_some() => Literal::Always,
            _ => Literal::No,
        },
        Expr::Attribute(_) => {
            let mut root = e;
            while let Expr::Attribute(a) = root {
                root = &a.value;
            }
            if matches!(root, Expr::Name(n) if bound.contains(n.id.as_str())) {
                return Literal::No;
            }
            let Some(path) = qualified(e, env) else { return Literal::No };
            let short = path.strip_prefix("numba.").unwrap_or(&path);
            if crate::env::dtype_path(&path).is_some()
                || Builtin::from_path(&path).is_some()
                || Builtin::from_path(short).is_some()
            {
                Literal::Always
            } else {
                Literal::No
            }
        }
        _ => Literal::No,
    }
}

/// An argument: its expression and its position among the call's positional arguments or
/// keywords.
type Filled<'e> = (&'e Expr, Option<usize>, Option<usize>);

/// The calls of `fd` to specialise, by the range of the call.
fn plans(fd: &ast::StmtFunctionDef, callees: &HashMap<String, Callee<'_>>, env: &Env) -> Vec<(TextRange, Plan)> {
    let mut bound = Stores::default();
    fd.body.iter().for_each(|s| bound.visit_stmt(s));
    let p = &fd.parameters;
    for a in p.posonlyargs.iter().chain(&p.args).chain(&p.kwonlyargs) {
        bound.0.insert(a.parameter.name.id.to_string());
    }
    for a in p.vararg.iter().chain(&p.kwarg) {
        bound.0.insert(a.name.id.to_string());
    }
    let mut calls = Calls::default();
    fd.body.iter().for_each(|s| calls.visit_stmt(s));
    calls.0.into_iter().filter_map(|c| plan(c, callees, &bound.0, env).map(|p| (c.range, p))).collect()
}

fn plan(c: &ast::ExprCall, callees: &HashMap<String, Callee<'_>>, bound: &HashSet<String>, env: &Env) -> Option<Plan> {
    let Expr::Name(n) = &*c.func else { return None };
    if bound.contains(n.id.as_str()) {
        return None;
    }
    let callee = callees.get(n.id.as_str())?;
    let args = &c.arguments;
    if args.args.iter().any(|a| matches!(a, Expr::Starred(_))) || args.args.len() > callee.params.len() {
        return None;
    }
    // Which argument fills each parameter (none: its default).
    let mut filled: Vec<Option<Filled>> = vec![None; callee.params.len()];
    for (k, a) in args.args.iter().enumerate() {
        filled[k] = Some((a, Some(k), None));
    }
    for (k, kw) in args.keywords.iter().enumerate() {
        let name = kw.arg.as_ref()?;
        let slot = callee.params.iter().position(|(p, _)| p == name.id.as_str())?;
        if filled[slot].is_some() {
            return None;
        }
        filled[slot] = Some((&kw.value, None, Some(k)));
    }
    let mut bind = Vec::new();
    let (mut drop_args, mut drop_keywords) = (Vec::new(), Vec::new());
    let empty = HashSet::new();
    for (slot, f) in filled.iter().enumerate() {
        let (param, default) = &callee.params[slot];
        // A default is read in the module's scope.
        let (e, pos, kw, scope) = match f {
            Some((e, pos, kw)) => (*e, *pos, *kw, bound),
            None => (default.as_ref()?, None, None, &empty),
        };
        if callee.stores.contains(param.as_str()) {
            continue;
        }
        let ok = match literal(e, scope, env) {
            Literal::Always => true,
            Literal::Number => {
                callee.shape_params.contains(param.as_str())
                    || (matches!(e, Expr::BooleanLiteral(_)) && callee.branch_params.contains(param.as_str()))
            }
            Literal::No => false,
        };
        if !ok || reads_any(e, &callee.stores) || reads_params(e, callee) {
            continue;
        }
        bind.push((slot, e.clone()));
        drop_args.extend(pos);
        drop_keywords.extend(kw);
    }
    (!bind.is_empty()).then(|| Plan { callee: n.id.to_string(), bind, drop_args, drop_keywords })
}

/// Whether `e` reads one of `names`.
fn reads_any(e: &Expr, names: &HashSet<String>) -> bool {
    let mut r = ReadNames::default();
    r.visit_expr(e);
    r.0.iter().any(|n| names.contains(n.as_str()))
}

/// Whether `e` reads a parameter name of `callee` (it would mean the parameter there).
fn reads_params(e: &Expr, callee: &Callee<'_>) -> bool {
    let mut r = ReadNames::default();
    r.visit_expr(e);
    r.0.iter().any(|n| callee.params.iter().any(|(p, _)| p == n))
}

/// `callee` named `name`, with the parameters of `bind` removed and their reads replaced.
fn make_copy(callee: &Callee<'_>, name: &str, bind: &[(usize, Expr)]) -> ast::StmtFunctionDef {
    let mut fd = callee.fd.clone();
    fd.name.id = ast::name::Name::new(name);
    let removed: HashMap<String, Expr> = bind.iter().map(|(k, e)| (callee.params[*k].0.clone(), e.clone())).collect();
    let p = &mut *fd.parameters;
    p.posonlyargs.retain(|a| !removed.contains_key(a.parameter.name.id.as_str()));
    p.args.retain(|a| !removed.contains_key(a.parameter.name.id.as_str()));
    let subst = Substitute { by: &removed };
    fd.body.iter_mut().for_each(|s| subst.visit_stmt(s));
    prune_block(&mut fd.body, fd.range);
    fd
}

/// Removes what a copy never runs, as Numba's dead-branch pruning does for a literal
/// argument: the untaken side of an `if` whose test folded to a constant, and statements
/// after a `return` or `raise` in the same block. They are then never lowered, so a branch
/// written for another value of the argument (a method the other dtype lacks) does not stop
/// the copy from compiling.
fn prune(body: &mut Vec<Stmt>) {
    let mut out = Vec::with_capacity(body.len());
    for mut stmt in std::mem::take(body) {
        match &mut stmt {
            Stmt::If(i) => {
                let mut branches = Vec::with_capacity(i.elif_else_clauses.len() + 1);
                branches.push((Some((*i.test).clone()), std::mem::take(&mut i.body)));
                branches.extend(std::mem::take(&mut i.elif_else_clauses).into_iter().map(|c| (c.test, c.body)));
                // Drop the branches that never run; stop at the first one that always does.
                let mut kept: Vec<(Option<Expr>, Vec<Stmt>)> = Vec::new();
                for (test, b) in branches {
                    match &test {
                        Some(Expr::BooleanLiteral(l)) if !l.value => continue,
                        Some(Expr::BooleanLiteral(_)) | None => {
                            kept.push((None, b));
                            break;
                        }
                        Some(_) => kept.push((test, b)),
                    }
                }
                let mut kept = kept.into_iter().map(|(t, mut b)| {
                    prune_block(&mut b, i.range);
                    (t, b)
                });
                match kept.next() {
                    None => continue,
                    Some((None, b)) => {
                        let ends = b.last().is_some_and(ends_block);
                        out.extend(b);
                        if ends {
                            break;
                        }
                        continue;
                    }
                    Some((Some(test), b)) => {
                        *i.test = test;
                        i.body = b;
                        i.elif_else_clauses = kept
                            .map(|(test, body)| ast::ElifElseClause {
                                range: i.range,
                                node_index: Default::default(),
                                test,
                                body,
                            })
                            .collect();
                    }
                }
            }
            Stmt::For(f) => {
                prune_block(&mut f.body, f.range);
                prune(&mut f.orelse);
            }
            Stmt::While(w) => {
                prune_block(&mut w.body, w.range);
                prune(&mut w.orelse);
            }
            Stmt::With(w) => prune_block(&mut w.body, w.range),
            Stmt::Try(t) => {
                prune_block(&mut t.body, t.range);
                prune(&mut t.orelse);
                prune(&mut t.finalbody);
                for ast::ExceptHandler::ExceptHandler(h) in &mut t.handlers {
                    prune_block(&mut h.body, h.range);
                }
            }
            _ => {}
        }
        let ends = ends_block(&stmt);
        out.push(stmt);
        if ends {
            break;
        }
    }
    *body = out;
}

/// [`prune`], keeping the block a block: `pass` when nothing is left.
fn prune_block(body: &mut Vec<Stmt>, range: TextRange) {
    prune(body);
    if body.is_empty() {
        body.push(Stmt::Pass(ast::StmtPass { range, node_index: Default::default() }));
    }
}

/// Whether nothing after `s` in its block runs.
fn ends_block(s: &Stmt) -> bool {
    matches!(s, Stmt::Return(_) | Stmt::Raise(_) | Stmt::Break(_) | Stmt::Continue(_))
}

/// Replaces reads of parameters by their arguments.
struct Substitute<'m> {
    by: &'m HashMap<String, Expr>,
}

impl Transformer for Substitute<'_> {
    fn visit_expr(&self, expr: &mut Expr) {
        if let Expr::Name(n) = expr {
            if n.ctx == ExprContext::Load {
                if let Some(e) = self.by.get(n.id.as_str()) {
                    *expr = e.clone();
                }
            }
            return;
        }
        transformer::walk_expr(self, expr);
        match expr {
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not => {
                if let Expr::BooleanLiteral(l) = &*u.operand {
                    let value = !l.value;
                    *expr = Expr::BooleanLiteral(ast::ExprBooleanLiteral {
                        range: expr.range(),
                        value,
                        node_index: Default::default(),
                    });
                }
                return;
            }
            Expr::If(i) => {
                if let Expr::BooleanLiteral(l) = &*i.test {
                    *expr = if l.value { (*i.body).clone() } else { (*i.orelse).clone() };
                }
                return;
            }
            _ => {}
        }
        if let Some(b) = fold_string_compare(expr) {
            *expr = Expr::BooleanLiteral(ast::ExprBooleanLiteral {
                range: expr.range(),
                value: b,
                node_index: Default::default(),
            });
        }
    }
}

/// `"l1" == "l2"`, `s != "max"`, `"a" in ("a", "b")` once a string parameter was replaced:
/// strings have no runtime form, so a comparison of string literals is folded to its value
/// (the branch it guards then goes as a dead branch does).
fn fold_string_compare(e: &Expr) -> Option<bool> {
    let Expr::Compare(c) = e else { return None };
    let text = |e: &Expr| match e {
        Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
        _ => None,
    };
    let mut left = text(&c.left)?;
    let mut all = true;
    for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
        let (holds, next) = match op {
            ast::CmpOp::Eq | ast::CmpOp::NotEq => {
                let r = text(right)?;
                ((left == r) == matches!(op, ast::CmpOp::Eq), r)
            }
            ast::CmpOp::In | ast::CmpOp::NotIn => {
                let Expr::Tuple(t) = right else { return None };
                let items = t.elts.iter().map(text).collect::<Option<Vec<_>>>()?;
                (items.contains(&left) == matches!(op, ast::CmpOp::In), String::new())
            }
            _ => return None,
        };
        // Only a chain of `==`/`!=` continues past a membership test.
        if matches!(op, ast::CmpOp::In | ast::CmpOp::NotIn) && c.ops.len() > 1 {
            return None;
        }
        all &= holds;
        left = next;
    }
    Some(all)
}

/// Rewrites the planned calls to call their copies.
struct Rewrite<'m> {
    calls: &'m HashMap<TextRange, (String, Plan)>,
}

impl Transformer for Rewrite<'_> {
    fn visit_expr(&self, expr: &mut Expr) {
        if let Expr::Call(c) = expr {
            if let Some((name, plan)) = self.calls.get(&c.range) {
                if let Expr::Name(n) = &mut *c.func {
                    n.id = ast::name::Name::new(name);
                }
                let args = std::mem::take(&mut c.arguments.args).into_vec();
                c.arguments.args =
                    args.into_iter().enumerate().filter(|(k, _)| !plan.drop_args.contains(k)).map(|(_, a)| a).collect();
                let kws = std::mem::take(&mut c.arguments.keywords).into_vec();
                c.arguments.keywords = kws
                    .into_iter()
                    .enumerate()
                    .filter(|(k, _)| !plan.drop_keywords.contains(k))
                    .map(|(_, a)| a)
                    .collect();
            }
        }
        transformer::walk_expr(self, expr);
    }
}

/// The calls in a body, nested ones included.
#[derive(Default)]
struct Calls<'a>(Vec<&'a ast::ExprCall>);

impl<'a> Visitor<'a> for Calls<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            self.0.push(c);
        }
        visitor::walk_expr(self, expr);
    }
}

/// The names a body binds: assignment, loop and comprehension targets, `del`, nested
/// functions, classes and their parameters, imports, `global` / `nonlocal`, `except ... as`
/// and match captures.
#[derive(Default)]
struct Stores(HashSet<String>);

impl<'a> Visitor<'a> for Stores {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                self.0.insert(f.name.id.to_string());
            }
            Stmt::ClassDef(c) => {
                self.0.insert(c.name.id.to_string());
            }
            Stmt::Import(i) => i.names.iter().for_each(|a| self.alias(a)),
            Stmt::ImportFrom(i) => i.names.iter().for_each(|a| self.alias(a)),
            Stmt::Global(g) => g.names.iter().for_each(|n| {
                self.0.insert(n.id.to_string());
            }),
            Stmt::Nonlocal(g) => g.names.iter().for_each(|n| {
                self.0.insert(n.id.to_string());
            }),
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            if n.ctx != ExprContext::Load {
                self.0.insert(n.id.to_string());
            }
        }
        visitor::walk_expr(self, expr);
    }
    fn visit_parameter(&mut self, p: &'a ast::Parameter) {
        self.0.insert(p.name.id.to_string());
        visitor::walk_parameter(self, p);
    }
    fn visit_except_handler(&mut self, h: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(eh) = h;
        if let Some(n) = &eh.name {
            self.0.insert(n.id.to_string());
        }
        visitor::walk_except_handler(self, h);
    }
    fn visit_pattern(&mut self, p: &'a ast::Pattern) {
        match p {
            ast::Pattern::MatchAs(m) => m.name.iter().for_each(|n| {
                self.0.insert(n.id.to_string());
            }),
            ast::Pattern::MatchStar(m) => m.name.iter().for_each(|n| {
                self.0.insert(n.id.to_string());
            }),
            ast::Pattern::MatchMapping(m) => m.rest.iter().for_each(|n| {
                self.0.insert(n.id.to_string());
            }),
            _ => {}
        }
        visitor::walk_pattern(self, p);
    }
}

impl Stores {
    fn alias(&mut self, a: &ast::Alias) {
        let name = a
            .asname
            .as_ref()
            .map_or_else(|| a.name.id.split('.').next().unwrap_or("").to_string(), |n| n.id.to_string());
        self.0.insert(name);
    }
}

/// The names read in a body or expression.
#[derive(Default)]
struct ReadNames(HashSet<String>);

impl<'a> Visitor<'a> for ReadNames {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            if n.ctx == ExprContext::Load {
                self.0.insert(n.id.to_string());
            }
        }
        visitor::walk_expr(self, expr);
    }
}

/// The names that are the test of an `if`, `elif` or conditional expression, alone or under
/// `not`.
#[derive(Default)]
struct BranchNames(HashSet<String>);

impl BranchNames {
    fn test(&mut self, e: &Expr) {
        match e {
            Expr::Name(n) => {
                self.0.insert(n.id.to_string());
            }
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not => self.test(&u.operand),
            _ => {}
        }
    }
}

impl<'a> Visitor<'a> for BranchNames {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if let Stmt::If(i) = stmt {
            self.test(&i.test);
            i.elif_else_clauses.iter().filter_map(|c| c.test.as_ref()).for_each(|t| self.test(t));
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::If(i) = expr {
            self.test(&i.test);
        }
        visitor::walk_expr(self, expr);
    }
}

/// The names read in the shape argument of `*.shared.array(...)` / `*.local.array(...)`.
#[derive(Default)]
struct ShapeNames(HashSet<String>);

impl<'a> Visitor<'a> for ShapeNames {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            let array = match &*c.func {
                Expr::Attribute(a) if a.attr.id.as_str() == "array" => {
                    matches!(&*a.value, Expr::Attribute(s) if matches!(s.attr.id.as_str(), "shared" | "local"))
                        || matches!(&*a.value, Expr::Name(s) if matches!(s.id.as_str(), "shared" | "local"))
                }
                _ => false,
            };
            if array {
                let shape = c
                    .arguments
                    .keywords
                    .iter()
                    .find(|k| k.arg.as_ref().is_some_and(|a| a.id.as_str() == "shape"))
                    .map(|k| &k.value)
                    .or(c.arguments.args.first());
                if let Some(s) = shape {
                    let mut r = ReadNames::default();
                    r.visit_expr(s);
                    self.0.extend(r.0);
                }
            }
        }
        visitor::walk_expr(self, expr);
    }
}
