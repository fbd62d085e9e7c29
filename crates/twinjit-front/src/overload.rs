//! `@overload(target)` (numba.extending, numba.core.extending, numba.cuda.extending): Numba's
//! high-level extension API, read as a module-level rewrite.
//!
//! Numba calls an overload function at typing time with the *types* of a call's arguments; the
//! function tests them (`isinstance(x, types.Integer)`, `a.ndim == 1`, `x is None` for an
//! omitted argument), raises `TypingError` to reject them, and returns an inner `def` that
//! implements the call. twinjit compiles the same code as one function named as the target
//! (the stub `def bar(x): pass`, or the dotted path of a foreign function such as
//! `scipy.linalg.norm`), marked `@register_jitable`, whose body is the overload's with:
//! - every inner `def` kept (renamed apart) and `return impl` replaced by `return impl(params)`,
//!   so the implementation is inlined at the call;
//! - `raise ...` replaced by a raise of the typing-time class
//!   [`twinjit_ir::exception::TYPING_ERROR`], which inference reports as a compile-time error
//!   if its block survives type-decided branch pruning;
//! - `print(...)` (which shows types at typing time) and docstrings dropped.
//!
//! The tests are type-decided branches (`decided` in inference: `isinstance` with Numba's type
//! classes, `is None`, comparisons of `.ndim`), so a branch whose implementation would not type
//! for the arguments is never typed, as Numba never calls it. Several overloads of one target
//! are tried in source order (their bodies follow one another); when none returns an
//! implementation, the end of the function raises the typing error Numba gives ("no
//! implementation"). An overload of a function twinjit implements itself (`np.where`) is
//! dropped: the built-in serves the calls. What is not read: typing-time computation other than
//! tests (`ord = ord.type`) becomes a typing error where it is, reported only when the argument
//! types reach it (`Lower::defer_errors`); `return None` (declining in the middle of an
//! overload) is a typing error rather than a fall-through to the next overload, and so is a
//! `raise` (Numba would try the next overload); `@overload` of a builtin name (`len`), a class
//! or a jitted function is not read (its decorator is reported). Known differences, none of
//! them a silent wrong result in the common forms: the dispatcher takes the first overload's
//! parameter defaults; `types.Omitted` tests like `types.NoneType` (an omitted argument arrives
//! as its default, almost always `None`); Python classes in `isinstance` (`int`) test the
//! argument's type as in compiled code; an implementation defined in a branch of an earlier
//! `if` and returned later is a typing error (it is read only by `return impl` right after the
//! `if`). Overloads that name their parameters apart read the arguments from copies made once.

use crate::env::{qualified, Env};
use crate::imports;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::TextRange;

/// The decorator paths of `@overload`.
const OVERLOAD: &[&str] =
    &["numba.extending.overload", "numba.core.extending.overload", "numba.cuda.extending.overload"];

/// The decorator paths of `@overload_method(TypeClass, "name")`.
const OVERLOAD_METHOD: &[&str] = &[
    "numba.extending.overload_method",
    "numba.core.extending.overload_method",
    "numba.cuda.extending.overload_method",
];

/// The decorator paths of `@overload_attribute(TypeClass, "name")`.
const OVERLOAD_ATTRIBUTE: &[&str] = &[
    "numba.extending.overload_attribute",
    "numba.core.extending.overload_attribute",
    "numba.cuda.extending.overload_attribute",
];

/// The function `x.name(...)` calls when `name` is an `@overload_method` (and not a built-in
/// method): `x` is its first argument.
pub(crate) fn method_function(name: &str) -> String {
    format!("{}{name}", twinjit_ir::exception::OVERLOAD_METHOD_PREFIX)
}

/// The function reading `x.name` calls when `name` is an `@overload_attribute`.
pub(crate) fn attribute_function(name: &str) -> String {
    format!("{}{name}", twinjit_ir::exception::OVERLOAD_ATTRIBUTE_PREFIX)
}

/// `callee(receiver, args..., keywords...)`: how `x.m(...)` / `x.m` call the function of an
/// `@overload_method` / `@overload_attribute`.
pub(crate) fn receiver_call(
    callee: &str,
    receiver: &Expr,
    args: &[Expr],
    keywords: &[ast::Keyword],
    range: TextRange,
    name_range: TextRange,
) -> ast::ExprCall {
    let mut all = Vec::with_capacity(args.len() + 1);
    all.push(receiver.clone());
    all.extend(args.iter().cloned());
    ast::ExprCall {
        node_index: Default::default(),
        range,
        func: Box::new(name(callee, name_range)),
        arguments: ast::Arguments {
            range,
            node_index: Default::default(),
            args: all.into_boxed_slice(),
            keywords: keywords.to_vec().into_boxed_slice(),
        },
    }
}

/// The name the rewritten module imports `register_jitable` as (a name no user module binds).
const JITABLE: &str = "__twinjit_register_jitable__";

/// The exception name a rewritten `raise` uses; `lower/raise.rs` maps it to
/// [`twinjit_ir::exception::TYPING_ERROR`].
pub(crate) const RAISE_NAME: &str = "__twinjit_typing_error__";

/// One compiled function: its name, the stub it replaces, and its overloads (statement index,
/// and the type class of a method's or attribute's receiver).
type Group<'a> = (String, Option<usize>, Vec<(usize, Option<&'a Expr>)>);

/// The module with its `@overload` functions rewritten, or `None` when it has none.
pub(crate) fn overload_defs(body: &[Stmt]) -> Option<Vec<Stmt>> {
    let looks = |s: &Stmt| match s {
        Stmt::FunctionDef(fd) => fd.decorator_list.iter().any(|d| match &d.expression {
            Expr::Call(c) => match &*c.func {
                Expr::Name(n) => n.id.as_str().starts_with("overload"),
                Expr::Attribute(a) => a.attr.id.as_str().starts_with("overload"),
                _ => false,
            },
            _ => false,
        }),
        _ => false,
    };
    if !body.iter().any(looks) {
        return None;
    }
    let mut env = Env::new();
    // Plain module-level `def`s by name (a stub the overload targets): their index.
    let mut plain: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    // Per target, in order of first appearance: (key, stub index, overload def indices with
    // the type class a method's or attribute's receiver must be).
    let mut groups: Vec<Group> = Vec::new();
    // Overloads of functions twinjit has built in: dropped.
    let mut builtin: Vec<usize> = Vec::new();
    for (i, stmt) in body.iter().enumerate() {
        match stmt {
            Stmt::Import(imp) => imports::import(imp, &mut env),
            Stmt::ImportFrom(imp) => imports::import_from(imp, &mut env),
            Stmt::FunctionDef(fd) => {
                // `@overload_method(types.Array, "name")` / `@overload_attribute(...)`: one
                // function per name, each overload guarded by its receiver's type class.
                let member = fd.decorator_list.iter().find_map(|d| match &d.expression {
                    Expr::Call(c) => {
                        let path = qualified(&c.func, &env)?;
                        let key: fn(&str) -> String = if OVERLOAD_METHOD.contains(&path.as_str()) {
                            method_function
                        } else if OVERLOAD_ATTRIBUTE.contains(&path.as_str()) {
                            attribute_function
                        } else {
                            return None;
                        };
                        match &c.arguments.args[..] {
                            [class, Expr::StringLiteral(n), ..] => Some((key(n.value.to_str()), class)),
                            _ => None,
                        }
                    }
                    _ => None,
                });
                if let Some((key, class)) = member {
                    match groups.iter_mut().find(|g| g.0 == key) {
                        Some(g) => g.2.push((i, Some(class))),
                        None => groups.push((key, None, vec![(i, Some(class))])),
                    }
                    continue;
                }
                let target = fd.decorator_list.iter().find_map(|d| match &d.expression {
                    Expr::Call(c) if qualified(&c.func, &env).is_some_and(|p| OVERLOAD.contains(&p.as_str())) => {
                        c.arguments.args.first()
                    }
                    _ => None,
                });
                match target {
                    Some(t) => {
                        let (key, stub) = match t {
                            Expr::Name(n) if plain.contains_key(n.id.as_str()) => {
                                (n.id.to_string(), plain.get(n.id.as_str()).copied())
                            }
                            t => match qualified(t, &env) {
                                // A function twinjit compiles itself (`np.where`, `math.hypot`):
                                // its own implementation serves every call, as NumPy's
                                // semantics are what such an overload reimplements.
                                Some(p) if twinjit_ir::Builtin::from_path(&p).is_some() => {
                                    builtin.push(i);
                                    continue;
                                }
                                Some(p) => (p, None),
                                // `@overload(len)`, a class, a jitted function: not read (the
                                // decorator is reported where it is).
                                None => continue,
                            },
                        };
                        match groups.iter_mut().find(|g| g.0 == key) {
                            Some(g) => g.2.push((i, None)),
                            None => groups.push((key, stub, vec![(i, None)])),
                        }
                    }
                    None if fd.decorator_list.is_empty() => {
                        plain.insert(fd.name.id.as_str(), i);
                    }
                    None => {
                        plain.remove(fd.name.id.as_str());
                    }
                }
            }
            _ => {}
        }
    }
    if groups.is_empty() && builtin.is_empty() {
        return None;
    }
    // What each statement index becomes: dropped (a stub, a later overload) or a dispatcher.
    let mut dispatch: hashbrown::HashMap<usize, ast::StmtFunctionDef> = hashbrown::HashMap::new();
    let mut dropped: hashbrown::HashSet<usize> = builtin.into_iter().collect();
    for (key, stub, idx) in &groups {
        let defs: Vec<(&ast::StmtFunctionDef, Option<&Expr>)> = idx
            .iter()
            .filter_map(|&(i, class)| match &body[i] {
                Stmt::FunctionDef(fd) => Some((fd, class)),
                _ => None,
            })
            .collect();
        // The dispatcher goes where the stub is, or where the first overload is.
        dispatch.insert(stub.unwrap_or(idx[0].0), dispatcher(key, &defs));
        dropped.extend(stub.iter().copied().chain(idx.iter().map(|&(i, _)| i)));
    }
    let mut out = Vec::with_capacity(body.len() + 1);
    out.push(jitable_import());
    for (i, stmt) in body.iter().enumerate() {
        if let Some(d) = dispatch.remove(&i) {
            out.push(Stmt::FunctionDef(d));
        } else if !dropped.contains(&i) {
            out.push(stmt.clone());
        }
    }
    Some(out)
}

/// Whether `fd` is a function this rewrite made (its decorator is the rewrite's import).
pub(crate) fn is_dispatcher(fd: &ast::StmtFunctionDef) -> bool {
    matches!(&fd.decorator_list[..], [d] if matches!(&d.expression, Expr::Name(n) if n.id.as_str() == JITABLE))
}

/// `from numba.extending import register_jitable as __twinjit_register_jitable__`.
fn jitable_import() -> Stmt {
    let src = format!("from numba.extending import register_jitable as {JITABLE}\n");
    let parsed = ruff_python_parser::parse_module(&src).expect("a valid import");
    parsed.into_syntax().body.into_iter().next().expect("one statement")
}

fn name(id: &str, range: TextRange) -> Expr {
    Expr::Name(ast::ExprName {
        node_index: Default::default(),
        range,
        id: ast::name::Name::new(id),
        ctx: ast::ExprContext::Load,
    })
}

/// `callee(args...)`: the call at `at`, its argument list at `list`.
fn call(callee: &str, args: Vec<Expr>, at: TextRange, list: TextRange) -> Expr {
    Expr::Call(ast::ExprCall {
        node_index: Default::default(),
        range: at,
        func: Box::new(name(callee, at)),
        arguments: ast::Arguments {
            range: list,
            node_index: Default::default(),
            args: args.into_boxed_slice(),
            keywords: Box::new([]),
        },
    })
}

/// The function compiled for `key`: the overloads' bodies one after the other.
fn dispatcher(key: &str, defs: &[(&ast::StmtFunctionDef, Option<&Expr>)]) -> ast::StmtFunctionDef {
    let first = defs[0].0;
    let params: Vec<String> = positional(first);
    let mut out = Vec::new();
    let mut counter = 0usize;
    // Overloads that name their parameters apart read the arguments from copies made once, so
    // that one overload's names (`def ol2(y, x)`) never clobber another's.
    let renamed = defs.iter().skip(1).any(|(d, _)| positional(d) != params);
    let saved: Vec<String> = (0..params.len()).map(|i| format!("__twinjit_arg{i}")).collect();
    if renamed {
        for (s, p) in saved.iter().zip(&params) {
            out.push(assign(s, name(p, first.name.range), first.name.range));
        }
    }
    for (k, &(d, class)) in defs.iter().enumerate() {
        let own = positional(d);
        let mut body = Vec::new();
        if renamed && k > 0 {
            for (p, s) in own.iter().zip(&saved) {
                body.push(assign(p, name(s, d.name.range), d.name.range));
            }
        }
        let mut scope = hashbrown::HashMap::new();
        body.extend(rewrite(&d.body, &mut scope, k, &mut counter, &own));
        let receiver = if renamed { saved.first() } else { params.first() };
        match (class, receiver) {
            // A method's or attribute's overload applies to receivers of its type class.
            (Some(class), Some(receiver)) => {
                let test =
                    call("isinstance", vec![name(receiver, d.name.range), class.clone()], d.name.range, d.name.range);
                out.push(Stmt::If(ast::StmtIf {
                    node_index: Default::default(),
                    range: d.name.range,
                    test: Box::new(test),
                    body,
                    elif_else_clauses: vec![],
                }));
            }
            _ => out.extend(body),
        }
    }
    let mut body = out;
    // No overload returned an implementation.
    body.push(typing_error(first.name.range, vec![]));
    let mut def = first.clone();
    def.name.id = ast::name::Name::new(key);
    def.decorator_list = vec![ast::Decorator {
        range: first.range,
        node_index: Default::default(),
        expression: name(JITABLE, first.range),
    }];
    def.body = body;
    def
}

/// `target = value` at `range`.
fn assign(target: &str, value: Expr, range: TextRange) -> Stmt {
    Stmt::Assign(ast::StmtAssign {
        node_index: Default::default(),
        range,
        targets: vec![Expr::Name(ast::ExprName {
            node_index: Default::default(),
            range,
            id: ast::name::Name::new(target),
            ctx: ast::ExprContext::Store,
        })],
        value: Box::new(value),
    })
}

/// A string literal (a typing error's message).
fn string(text: &str, range: TextRange) -> Expr {
    Expr::StringLiteral(ast::ExprStringLiteral {
        node_index: Default::default(),
        range,
        value: ast::StringLiteralValue::single(ast::StringLiteral {
            range,
            node_index: Default::default(),
            value: text.into(),
            flags: ast::StringLiteralFlags::empty(),
        }),
    })
}

/// The names of `d`'s positional parameters.
fn positional(d: &ast::StmtFunctionDef) -> Vec<String> {
    d.parameters.posonlyargs.iter().chain(&d.parameters.args).map(|p| p.parameter.name.id.to_string()).collect()
}

/// `raise __twinjit_typing_error__(args...)` at `range`.
fn typing_error(range: TextRange, args: Vec<Expr>) -> Stmt {
    Stmt::Raise(ast::StmtRaise {
        node_index: Default::default(),
        range,
        exc: Some(Box::new(call(RAISE_NAME, args, range, range))),
        cause: None,
    })
}

/// One overload's statements as code of the dispatcher.
fn rewrite(
    stmts: &[Stmt],
    scope: &mut hashbrown::HashMap<String, String>,
    k: usize,
    counter: &mut usize,
    params: &[String],
) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for (idx, s) in stmts.iter().enumerate() {
        match s {
            Stmt::FunctionDef(fd) => {
                *counter += 1;
                let unique = format!("{}__overload{k}_{counter}", fd.name.id);
                scope.insert(fd.name.id.to_string(), unique.clone());
                let mut def = fd.clone();
                def.name.id = ast::name::Name::new(&unique);
                out.push(Stmt::FunctionDef(def));
            }
            Stmt::Return(r) => match r.value.as_deref() {
                // An implementation defined in some branches of an earlier `if` only.
                Some(Expr::Name(n)) if scope.get(n.id.as_str()).is_some_and(|u| u.is_empty()) => {
                    let why = format!(
                        "twinjit cannot tell which `{0}` this returns: it is defined in a branch of an earlier `if` \
                         (Numba accepts this; write `return {0}` right after that `if`)",
                        n.id
                    );
                    out.push(typing_error(r.range, vec![string(&why, r.range)]));
                }
                Some(Expr::Name(n)) if scope.contains_key(n.id.as_str()) => {
                    out.push(call_impl(&scope[n.id.as_str()], params, r.range, n.range));
                }
                // Declining (`return None`, `return`): no implementation for these types.
                None | Some(Expr::NoneLiteral(_)) => out.push(typing_error(r.range, vec![])),
                _ => out.push(s.clone()),
            },
            Stmt::Raise(r) => {
                let args = match r.exc.as_deref() {
                    Some(Expr::Call(c)) => c.arguments.args.to_vec(),
                    _ => vec![],
                };
                out.push(typing_error(r.range, args));
            }
            Stmt::If(i) => {
                // `if ...: def impl ... elif ...: def impl ...` then `return impl`: each branch
                // that defines the name returns its own implementation.
                let after = match stmts.get(idx + 1) {
                    Some(Stmt::Return(r)) => match r.value.as_deref() {
                        Some(Expr::Name(n)) => Some((n.id.to_string(), r.range, n.range)),
                        _ => None,
                    },
                    _ => None,
                };
                let mut i = i.clone();
                // Names a branch (re)defines: after the `if`, which definition holds depends on
                // the branch taken, so they are marked ambiguous (`""`) for later statements.
                let mut changed: Vec<String> = Vec::new();
                let mut branch = |body: &[Stmt], counter: &mut usize| {
                    let mut inner = scope.clone();
                    let mut b = rewrite(body, &mut inner, k, counter, params);
                    if let Some((n, range, nrange)) = &after {
                        if let Some(u) = inner.get(n).filter(|u| !u.is_empty() && scope.get(n) != Some(*u)) {
                            b.push(call_impl(u, params, *range, *nrange));
                        }
                    }
                    changed.extend(inner.into_iter().filter(|(n, u)| scope.get(n) != Some(u)).map(|(n, _)| n));
                    b
                };
                i.body = branch(&i.body, counter);
                for c in i.elif_else_clauses.iter_mut() {
                    c.body = branch(&c.body, counter);
                }
                for n in changed {
                    // The `return` right after the `if` keeps the definition from before it.
                    if after.as_ref().is_none_or(|(a, _, _)| *a != n) {
                        scope.insert(n, String::new());
                    }
                }
                out.push(Stmt::If(i));
            }
            // Typing-time output (the argument types) and docstrings.
            Stmt::Expr(e) if matches!(&*e.value, Expr::StringLiteral(_)) => {}
            Stmt::Expr(e) if matches!(&*e.value, Expr::Call(c) if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "print")) =>
                {}
            other => out.push(other.clone()),
        }
    }
    out
}

/// `return impl(params...)` where the overload wrote `return impl`.
fn call_impl(callee: &str, params: &[String], range: TextRange, name_range: TextRange) -> Stmt {
    let args: Vec<Expr> = params.iter().map(|p| name(p, range)).collect();
    Stmt::Return(ast::StmtReturn {
        node_index: Default::default(),
        range,
        value: Some(Box::new(call(callee, args, name_range, range))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(src: &str) -> Vec<String> {
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        let out = overload_defs(&parsed.syntax().body).expect("rewritten");
        out.iter()
            .filter_map(|s| match s {
                Stmt::FunctionDef(fd) => Some(fd.name.id.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn stub_and_overloads_become_one_function() {
        let src = "from numba.extending import overload\nfrom numba import types\n\
                   def bar(x):\n    pass\n\n\
                   @overload(bar)\ndef ol1(x):\n    if isinstance(x, types.Integer):\n        def impl(x):\n            return x + 1\n        return impl\n\n\
                   @overload(bar)\ndef ol2(y):\n    def impl(y):\n        return y\n    return impl\n";
        assert_eq!(rewritten(src), vec!["bar".to_string()]);
    }

    #[test]
    fn foreign_target_is_named_by_its_path() {
        let src = "import scipy.linalg\nfrom numba.extending import overload\n\
                   @overload(scipy.linalg.norm)\ndef ol(a):\n    def impl(a):\n        return a\n    return impl\n";
        assert_eq!(rewritten(src), vec!["scipy.linalg.norm".to_string()]);
    }

    #[test]
    fn overload_of_a_builtin_is_dropped_and_of_len_left_alone() {
        let src = "import numpy as np\nfrom numba.extending import overload\n\
                   @overload(np.where)\ndef ol(c, x, y):\n    def impl(c, x, y):\n        return x\n    return impl\n";
        assert_eq!(rewritten(src), Vec::<String>::new());
        let src = "from numba.extending import overload\n\
                   @overload(len)\ndef ol(x):\n    def impl(x):\n        return 1\n    return impl\n";
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        assert!(overload_defs(&parsed.syntax().body).is_none());
    }

    #[test]
    fn no_overload_no_rewrite() {
        let parsed = ruff_python_parser::parse_module("def f(x):\n    return x\n").unwrap();
        assert!(overload_defs(&parsed.syntax().body).is_none());
    }
}
