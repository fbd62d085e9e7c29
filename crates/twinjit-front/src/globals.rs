//! Module-level assignments → what each global means to a compiled function.
//!
//! Python runs the whole module; Numba then freezes the globals a compiled function reads, at
//! compile time. twinjit never runs module code, so it freezes a global only when the file
//! gives it exactly one value that twinjit can compute: a top-level `NAME = expr` (or
//! `NAME: T = expr`) evaluated by [`crate::const_eval`], `None`, or a NumPy scalar constructor
//! (`np.float32(0.5)`). Every other global (assigned twice, inside an `if`/`for`/`try` block,
//! an array, a string, a call twinjit cannot evaluate) is bound to [`Unfrozen`], and only a
//! compiled function that reads it gets an error, located at the read (`lower.rs`).

use crate::const_eval::{eval, ConstValue, Conversion, Names, Scope, Why};
use crate::env::{dtype_name, module_const, qualified, Env, Global, Unfrozen, UnfrozenWhy};
use crate::span;
use hashbrown::HashMap;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use twinjit_diag::{Diagnostic, FileId};
use twinjit_ir::Scalar;

/// NumPy functions that build arrays (a global bound to one of their results is an array).
const ARRAY_BUILDERS: &[&str] = &[
    "array",
    "asarray",
    "ascontiguousarray",
    "asfortranarray",
    "zeros",
    "ones",
    "empty",
    "full",
    "arange",
    "linspace",
    "eye",
    "identity",
    "zeros_like",
    "ones_like",
    "empty_like",
    "full_like",
    "copy",
    "concatenate",
    "stack",
    "fromfunction",
    "meshgrid",
    "diag",
    "tile",
    "repeat",
    "outer",
];

/// Every statement that binds a module-level name, per name, in source order.
pub(crate) struct Bindings {
    by_name: HashMap<String, Vec<TextRange>>,
}

impl Bindings {
    pub(crate) fn of(body: &[Stmt]) -> Bindings {
        let mut by_name: HashMap<String, Vec<TextRange>> = HashMap::new();
        collect(body, &mut |name, r| by_name.entry(name.to_string()).or_default().push(r));
        Bindings { by_name }
    }

    fn count(&self, name: &str) -> usize {
        self.by_name.get(name).map_or(0, Vec::len)
    }
}

/// Calls `bind` for each name each statement of `body` (and of its nested blocks, not of
/// functions or classes) binds by assignment, `for`, `with`, `del` or `+=`.
fn collect(body: &[Stmt], bind: &mut dyn FnMut(&str, TextRange)) {
    fn targets(e: &Expr, r: TextRange, bind: &mut dyn FnMut(&str, TextRange)) {
        match e {
            Expr::Name(n) => bind(n.id.as_str(), r),
            Expr::Tuple(t) => t.elts.iter().for_each(|x| targets(x, r, bind)),
            Expr::List(l) => l.elts.iter().for_each(|x| targets(x, r, bind)),
            Expr::Starred(s) => targets(&s.value, r, bind),
            _ => {}
        }
    }
    for s in body {
        let r = s.range();
        match s {
            Stmt::Assign(a) => a.targets.iter().for_each(|t| targets(t, r, bind)),
            Stmt::AnnAssign(a) if a.value.is_some() => targets(&a.target, r, bind),
            Stmt::AugAssign(a) => targets(&a.target, r, bind),
            Stmt::Delete(d) => d.targets.iter().for_each(|t| targets(t, r, bind)),
            Stmt::For(f) => {
                targets(&f.target, r, bind);
                collect(&f.body, bind);
                collect(&f.orelse, bind);
            }
            Stmt::While(w) => {
                collect(&w.body, bind);
                collect(&w.orelse, bind);
            }
            Stmt::If(i) => {
                collect(&i.body, bind);
                i.elif_else_clauses.iter().for_each(|c| collect(&c.body, bind));
            }
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(v) = &item.optional_vars {
                        targets(v, r, bind);
                    }
                }
                collect(&w.body, bind);
            }
            Stmt::Try(t) => {
                collect(&t.body, bind);
                for h in &t.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = h;
                    collect(&h.body, bind);
                }
                collect(&t.orelse, bind);
                collect(&t.finalbody, bind);
            }
            Stmt::Match(m) => m.cases.iter().for_each(|c| collect(&c.body, bind)),
            _ => {}
        }
    }
}

/// Reads module-level assignments into `env`, in source order, as Python would run them.
pub(crate) struct Globals<'a> {
    pub(crate) bindings: Bindings,
    pub(crate) file: FileId,
    pub(crate) file_name: &'a str,
    pub(crate) text: &'a str,
}

impl Globals<'_> {
    /// `file.py:LINE` of `r`.
    fn at(&self, r: TextRange) -> String {
        let line = self.text[..usize::from(r.start()).min(self.text.len())].matches('\n').count() + 1;
        format!("{}:{line}", self.file_name)
    }

    fn unfrozen(&self, stmt: TextRange, why: UnfrozenWhy) -> Global {
        Global::Unfrozen(Unfrozen { assigned: span(self.file, stmt), at: self.at(stmt), why })
    }

    /// The meaning of a name bound more than once, or only inside a block: reading it is an
    /// error. `None` if `name` is bound exactly once, at top level (by `stmt`).
    fn not_single(&self, name: &str, stmt: TextRange, top_level: bool) -> Option<Global> {
        let all = self.bindings.by_name.get(name)?;
        match all.as_slice() {
            [only] if top_level && *only == stmt => None,
            [first, again, ..] => {
                let (first, again) = (*first, *again);
                Some(self.unfrozen(
                    first,
                    UnfrozenWhy::Reassigned { again: span(self.file, again), again_at: self.at(again) },
                ))
            }
            [only] => Some(self.unfrozen(*only, UnfrozenWhy::InBlock)),
            [] => Some(self.unfrozen(stmt, UnfrozenWhy::InBlock)),
        }
    }

    /// A top-level statement: its bindings into `env`; errors Python would raise at import
    /// time (`X = 1 / 0`) and constants Numba cannot type are module errors.
    pub(crate) fn statement(&self, stmt: &Stmt, env: &mut Env, diags: &mut Vec<Diagnostic>) {
        let r = stmt.range();
        match stmt {
            Stmt::Assign(a) => match (a.targets.as_slice(), &*a.value) {
                ([Expr::Name(n)], v) => self.bind(n.id.as_str(), v, r, env, diags),
                ([Expr::Tuple(t)], Expr::Tuple(v)) if t.elts.len() == v.elts.len() => {
                    for (t, v) in t.elts.iter().zip(&v.elts) {
                        match t {
                            Expr::Name(n) => self.bind(n.id.as_str(), v, r, env, diags),
                            other => self.bind_all(other, r, env),
                        }
                    }
                }
                (targets, _) => targets.iter().for_each(|t| self.bind_all(t, r, env)),
            },
            Stmt::AnnAssign(a) => {
                if let (Expr::Name(n), Some(v)) = (&*a.target, &a.value) {
                    self.bind(n.id.as_str(), v, r, env, diags)
                }
            }
            Stmt::ClassDef(c) => {
                if self.bindings.count(c.name.id.as_str()) == 0 {
                    let g = if derives_from_exception(c, env) {
                        Global::ExceptionClass(c.name.id.to_string())
                    } else if c.bases().iter().any(|b| qualified(b, env).as_deref() == Some("typing.NamedTuple")) {
                        match self.named_tuple_class(c, env) {
                            Ok(p) => Global::NamedTuple(p),
                            Err(why) => self.unfrozen(r, UnfrozenWhy::Value(why)),
                        }
                    } else {
                        self.unfrozen(r, UnfrozenWhy::Class)
                    };
                    env.insert(c.name.id.to_string(), g);
                }
            }
            // Anything else binds only through `collect` (`for`, `with`, `del`, blocks).
            other => {
                let mut names = Vec::new();
                collect(std::slice::from_ref(other), &mut |n, _| names.push(n.to_string()));
                for n in names {
                    if let Some(g) = self.not_single(&n, r, false) {
                        env.insert(n, g);
                    }
                }
            }
        }
    }

    /// Every name in the target `e` without a frozen value.
    fn bind_all(&self, e: &Expr, stmt: TextRange, env: &mut Env) {
        let mut names = Vec::new();
        collect_targets(e, &mut names);
        for n in names {
            let g = self
                .not_single(&n, stmt, true)
                .unwrap_or_else(|| self.unfrozen(stmt, UnfrozenWhy::Value(snippet(self.text, stmt))));
            env.insert(n, g);
        }
    }

    /// `name = value` at top level.
    fn bind(&self, name: &str, value: &Expr, stmt: TextRange, env: &mut Env, diags: &mut Vec<Diagnostic>) {
        if let Some(g) = self.not_single(name, stmt, true) {
            env.insert(name.to_string(), g);
            return;
        }
        let g = match self.value(name, value, stmt, env) {
            Ok(g) => g,
            Err(d) => {
                diags.push(d);
                return;
            }
        };
        env.insert(name.to_string(), g);
    }

    fn value(&self, name: &str, value: &Expr, stmt: TextRange, env: &Env) -> Result<Global, Diagnostic> {
        let unfrozen = |why| Ok(self.unfrozen(stmt, why));
        // `DT = np.float32`, `DT = numba.int16`, `DT = np.dtype('int32')`, `DT = float32` (a
        // name imported from numba or numba.cuda, or another such global), `DT =
        // numpy_support.from_dtype(arr.dtype)` (of a module-level array): a dtype, for
        // `dtype=DT` and `DT(x)` in compiled code.
        fn dtype_of(e: &Expr, env: &Env) -> Option<Scalar> {
            match e {
                Expr::Name(n) => {
                    if let Some(Global::NumbaType(s)) = env.get(n.id.as_str()) {
                        return Some(*s);
                    }
                }
                // The dtype of a module-level array.
                Expr::Attribute(a) if a.attr.id.as_str() == "dtype" => {
                    if let Expr::Name(n) = &*a.value {
                        if let Some(Global::Array(arr)) = env.get(n.id.as_str()) {
                            return Some(arr.dtype);
                        }
                    }
                }
                // numba's `numpy_support.from_dtype(dt)` and `np.dtype(dt)` are the dtype itself.
                Expr::Call(c) if c.arguments.keywords.is_empty() && c.arguments.args.len() == 1 => {
                    let f = qualified(&c.func, env)?;
                    let arg = &c.arguments.args[0];
                    if f.ends_with("numpy_support.from_dtype") || f == "numpy.dtype" {
                        return match arg {
                            Expr::StringLiteral(t) => dtype_name(t.value.to_str()),
                            other => dtype_of(other, env),
                        };
                    }
                    return None;
                }
                _ => {}
            }
            let path = qualified(e, env)?;
            let (module, last) = path.rsplit_once('.')?;
            matches!(module, "numpy" | "numba" | "numba.types" | "numba.core.types" | "numba.cuda" | "numba.cuda.types")
                .then(|| dtype_name(last))
                .flatten()
        }
        let dtype_of = |e: &Expr| dtype_of(e, env);
        match value {
            Expr::Attribute(_) | Expr::Name(_) if dtype_of(value).is_some() => {
                return Ok(Global::NumbaType(dtype_of(value).expect("checked")))
            }
            Expr::Call(_) if dtype_of(value).is_some() => {
                return Ok(Global::NumbaType(dtype_of(value).expect("checked")))
            }
            _ => {}
        }
        if let Expr::Call(c) = value {
            if qualified(&c.func, env).as_deref() == Some("collections.namedtuple") {
                return match self.named_tuple(c, env) {
                    Ok(p) => Ok(Global::NamedTuple(p)),
                    Err(why) => unfrozen(UnfrozenWhy::Value(why)),
                };
            }
        }
        match value {
            Expr::NoneLiteral(_) => return Ok(Global::NoneConst),
            Expr::StringLiteral(s) => return unfrozen(UnfrozenWhy::Str(Some(s.value.to_str().to_string()))),
            Expr::FString(_) | Expr::BytesLiteral(_) => return unfrozen(UnfrozenWhy::Str(None)),
            Expr::Call(c) => {
                if let Some(path) = qualified(&c.func, env) {
                    let last = path.rsplit('.').next().unwrap_or("");
                    let numpy_like = path.starts_with("numpy.") || path.starts_with("numba.");
                    if let (true, Some(s), [arg], true) =
                        (numpy_like, dtype_name(last), &*c.arguments.args, c.arguments.keywords.is_empty())
                    {
                        if let Some(v) = narrow(s, eval(arg, Scope::Module(&ModuleNames(env))).ok()) {
                            return Ok(Global::Scalar(s, v));
                        }
                    }
                    let builder = path.starts_with("numpy.random.")
                        || (path.starts_with("numpy.")
                            && path.matches('.').count() == 1
                            && ARRAY_BUILDERS.contains(&last));
                    if builder {
                        let shown = format!("{}(...)", path.replacen("numpy.", "np.", 1));
                        return match crate::const_array::eval_array(name, value, env) {
                            Ok(Some(a)) => Ok(Global::Array(std::sync::Arc::new(a))),
                            Ok(None) if path.starts_with("numpy.random.") => unfrozen(UnfrozenWhy::Array(
                                shown,
                                Some("its values exist only when Python runs the module".into()),
                            )),
                            Ok(None) => unfrozen(UnfrozenWhy::Array(shown, None)),
                            Err(why) => unfrozen(UnfrozenWhy::Array(shown, Some(why))),
                        };
                    }
                }
                // A method of an array constructor's result: `np.arange(12).reshape(3, 4)`.
                match crate::const_array::eval_array(name, value, env) {
                    Ok(Some(a)) => return Ok(Global::Array(std::sync::Arc::new(a))),
                    Err(why) => return unfrozen(UnfrozenWhy::Array(snippet(self.text, value.range()), Some(why))),
                    Ok(None) => {}
                }
            }
            // Arithmetic and indexing on arrays: `np.arange(10) / 2.0`, `W[::-1]`, `-W`.
            Expr::BinOp(_) | Expr::UnaryOp(_) | Expr::Subscript(_) => {
                match crate::const_array::eval_array(name, value, env) {
                    Ok(Some(a)) => return Ok(Global::Array(std::sync::Arc::new(a))),
                    Err(why) => return unfrozen(UnfrozenWhy::Array(snippet(self.text, value.range()), Some(why))),
                    Ok(None) => {}
                }
            }
            // `np.eye(3).T`
            Expr::Attribute(_) => {
                if let Ok(Some(a)) = crate::const_array::eval_array(name, value, env) {
                    return Ok(Global::Array(std::sync::Arc::new(a)));
                }
            }
            Expr::List(_) | Expr::ListComp(_) => {
                return unfrozen(UnfrozenWhy::Value(snippet(self.text, value.range())))
            }
            // A tuple of arrays: each frozen as an array is.
            Expr::Tuple(t) if !t.elts.is_empty() => {
                let arrays: Option<Vec<_>> = t
                    .elts
                    .iter()
                    .map(|e| crate::const_array::eval_array(name, e, env).ok().flatten().map(std::sync::Arc::new))
                    .collect();
                if let Some(arrays) = arrays {
                    return Ok(Global::ArrayTuple(arrays));
                }
            }
            _ => {}
        }
        // Not a constant expression at all: reading it is the error, not the module.
        if let Err(no) = eval(value, Scope::Module(&ModuleNames(env))) {
            if matches!(no.why, Why::NotConstant(_)) {
                return unfrozen(UnfrozenWhy::Value(snippet(self.text, value.range())));
            }
        }
        freeze(name, value, stmt, env, self.file, self.text).map(Global::Const)
    }
}

impl Globals<'_> {
    /// `namedtuple('P', ['x', 'y'])` (fields as a list or tuple of strings, or one string of
    /// names separated by spaces or commas), with `defaults=` of constants.
    fn named_tuple(&self, c: &ruff_python_ast::ExprCall, env: &Env) -> Result<crate::params::Params, String> {
        let what = || format!("namedtuple {}", snippet(self.text, c.range()));
        let fields: Vec<String> = match c.arguments.args.get(1) {
            Some(Expr::StringLiteral(s)) => {
                s.value.to_str().replace(',', " ").split_whitespace().map(str::to_string).collect()
            }
            Some(Expr::List(ruff_python_ast::ExprList { elts, .. }))
            | Some(Expr::Tuple(ruff_python_ast::ExprTuple { elts, .. })) => elts
                .iter()
                .map(|e| match e {
                    Expr::StringLiteral(s) => Ok(s.value.to_str().to_string()),
                    _ => Err(what()),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(what()),
        };
        let mut defaults = Vec::new();
        for kw in &c.arguments.keywords {
            match kw.arg.as_ref().map(|a| a.id.as_str()) {
                Some("defaults") => match &kw.value {
                    Expr::List(ruff_python_ast::ExprList { elts, .. })
                    | Expr::Tuple(ruff_python_ast::ExprTuple { elts, .. }) => {
                        defaults = elts
                            .iter()
                            .map(|e| crate::params::default_value(Some(e), e.range(), &ModuleNames(env), self.file))
                            .collect();
                    }
                    _ => return Err(what()),
                },
                Some("rename" | "module") => {}
                _ => return Err(what()),
            }
        }
        if c.arguments.args.len() != 2 || defaults.len() > fields.len() {
            return Err(what());
        }
        named_fields(fields, defaults).ok_or_else(what)
    }

    /// `class P(NamedTuple):` with annotated fields (`x: float`, `y: float = 0.0`); methods
    /// and docstrings are ignored (compiled code cannot call them).
    fn named_tuple_class(&self, c: &ruff_python_ast::StmtClassDef, env: &Env) -> Result<crate::params::Params, String> {
        let mut fields = Vec::new();
        let mut defaults = Vec::new();
        for s in &c.body {
            if let Stmt::AnnAssign(a) = s {
                let Expr::Name(n) = &*a.target else { return Err(format!("the class {}", c.name.id)) };
                fields.push(n.id.to_string());
                match &a.value {
                    Some(v) => {
                        defaults.push(crate::params::default_value(Some(v), v.range(), &ModuleNames(env), self.file))
                    }
                    None if !defaults.is_empty() => {
                        return Err(format!("the class {} (a field without a default follows one with)", c.name.id))
                    }
                    None => {}
                }
            }
        }
        named_fields(fields, defaults).ok_or_else(|| format!("the class {}", c.name.id))
    }
}

/// The constructor parameters of a namedtuple with these fields (valid, distinct identifiers,
/// as Python checks) and defaults of the last ones.
fn named_fields(
    fields: Vec<String>,
    defaults: Vec<Result<twinjit_ir::Const, crate::params::BadDefault>>,
) -> Option<crate::params::Params> {
    let valid = |f: &String| {
        f.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && f.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !f.starts_with('_')
    };
    let distinct = fields.iter().enumerate().all(|(k, f)| !fields[..k].contains(f));
    (fields.iter().all(valid) && distinct).then_some(crate::params::Params {
        names: fields,
        posonly: 0,
        defaults,
        vararg: None,
    })
}

fn collect_targets(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|x| collect_targets(x, out)),
        Expr::List(l) => l.elts.iter().for_each(|x| collect_targets(x, out)),
        Expr::Starred(s) => collect_targets(&s.value, out),
        _ => {}
    }
}

/// `np.float32(v)` / `np.uint8(v)` / … of a constant: the value rounded (float32) or
/// range-checked (integers: NumPy refuses a Python int out of range and Numba's freezing
/// wraps nothing), a float truncated first; `None` if it is not a number NumPy converts
/// silently, or a type (int64, float64, bool) that plain constants already give.
fn narrow(s: Scalar, v: Option<ConstValue>) -> Option<ConstValue> {
    let (x, im) = match v? {
        ConstValue::Int(i) => (i as f64, 0.0),
        ConstValue::Float(x) => (x, 0.0),
        ConstValue::Bool(b) => (f64::from(u8::from(b)), 0.0),
        ConstValue::Complex(re, im) => (re, im),
        ConstValue::Tuple(_) | ConstValue::Str(_) => return None,
    };
    match s {
        Scalar::Complex64 => Some(ConstValue::Complex(f64::from(x as f32), f64::from(im as f32))),
        Scalar::Complex128 => Some(ConstValue::Complex(x, im)),
        // NumPy drops the imaginary part with a ComplexWarning: not frozen silently.
        _ if im != 0.0 => None,
        Scalar::Float32 => Some(ConstValue::Float(f64::from(x as f32))),
        Scalar::Float16 => Some(ConstValue::Float(twinjit_ir::half::f16::from_f64(x).to_f64())),
        s if s.is_int() && s != Scalar::Int64 => {
            let t = x.trunc();
            let (lo, hi) = s.int_range();
            (t.is_finite() && t >= lo as f64 && t <= hi as f64).then_some(ConstValue::Int(t as i128))
        }
        _ => None,
    }
}

/// Freezes `name = value` as Numba does: Python evaluates `value` when it imports the module,
/// then Numba types the result (int64, float64, bool and tuples of them).
pub(crate) fn freeze(
    name: &str,
    value: &Expr,
    stmt: TextRange,
    env: &Env,
    file: FileId,
    text: &str,
) -> Result<ConstValue, Diagnostic> {
    let v = eval(value, Scope::Module(&ModuleNames(env))).map_err(|no| {
        let at = span(file, no.at);
        match no.why {
            Why::NotConstant(why) => Diagnostic::error("module-level value is not a numeric constant", at, why)
                .with_hint("twinjit freezes module-level numbers, booleans and tuples of them; move other code under `if __name__ == \"__main__\":`"),
            Why::Raises { exception, message } => Diagnostic::error(
                format!("evaluating `{}` raises {exception}: {message}", snippet(text, stmt)),
                at,
                format!("raises {exception}"),
            )
            .with_hint("Python raises it too, when it imports this module"),
            Why::TooLarge => Diagnostic::error(format!("`{name}` cannot be frozen: an integer in it does not fit in 128 bits"), at, "too large")
                .with_hint("Numba's integers are 64-bit; twinjit evaluates module-level integers exactly up to 127 bits"),
        }
    })?;
    match first_outside_int64(&v) {
        None => Ok(v),
        Some(i) => {
            let (what, at) =
                (if matches!(v, ConstValue::Tuple(_)) { "holds" } else { "is" }, span(file, value.range()));
            Err(Diagnostic::error(format!("`{name}` {what} {i}, which does not fit in 64 bits"), at, "too large")
                .with_hint("Numba rejects it too (\"Int value is too large\"): its integers are 64-bit"))
        }
    }
}

/// The first integer in `v` that neither int64 nor (as Numba types the larger ones) uint64
/// holds.
fn first_outside_int64(v: &ConstValue) -> Option<i128> {
    match v {
        ConstValue::Int(i) if !(i64::MIN as i128..1i128 << 64).contains(i) => Some(*i),
        ConstValue::Tuple(items) => items.iter().find_map(first_outside_int64),
        _ => None,
    }
}

/// The statement's text for a message: its first line, shortened.
fn snippet(text: &str, r: TextRange) -> String {
    let whole = &text[r];
    let first = whole.lines().next().unwrap_or("").trim_end();
    match first.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &first[..cut]),
        None if first.len() < whole.trim_end().len() => format!("{first}..."),
        None => first.to_string(),
    }
}

/// Module-level names as constants: earlier constants, `math`/`numpy` constants, and the
/// conversions `int`, `float`, `bool`, `np.int64`, `np.float64`, `np.bool_`.
pub(crate) struct ModuleNames<'a>(pub(crate) &'a Env);

impl Names for ModuleNames<'_> {
    fn string(&self, e: &Expr) -> Option<String> {
        // A dtype (`np.float64`, `numba.int32`, `from numba import float32`) stands for its name,
        // which is what the constructors read from a value (`np.zeros(n, dtype)`).
        if let Some(s) = qualified(e, self.0).as_deref().and_then(crate::env::dtype_path) {
            return Some(s.name().to_string());
        }
        match self.0.get(e.as_name_expr()?.id.as_str())? {
            Global::Unfrozen(crate::env::Unfrozen { why: crate::env::UnfrozenWhy::Str(Some(text)), .. }) => {
                Some(text.clone())
            }
            Global::NumbaType(s) => Some(s.name().to_string()),
            _ => None,
        }
    }

    fn constant(&self, e: &Expr) -> Option<ConstValue> {
        match e {
            Expr::Name(n) => match self.0.get(n.id.as_str())? {
                Global::Const(c) => Some(c.clone()),
                Global::MathConst(x) => Some(ConstValue::Float(*x)),
                _ => None,
            },
            Expr::Attribute(a) => match self.0.get(a.value.as_name_expr()?.id.as_str())? {
                g @ (Global::MathModule | Global::CmathModule | Global::NumpyModule) => {
                    module_const(g, a.attr.id.as_str()).map(ConstValue::Float)
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn conversion(&self, callee: &Expr) -> Option<Conversion> {
        let dtype = match callee {
            Expr::Attribute(a) => match self.0.get(a.value.as_name_expr()?.id.as_str())? {
                Global::NumpyModule | Global::NumbaModule => dtype_name(a.attr.id.as_str())?,
                _ => return None,
            },
            Expr::Name(n) => match self.0.get(n.id.as_str()) {
                Some(Global::NumbaType(t)) => *t,
                Some(_) => return None,
                None => {
                    return match n.id.as_str() {
                        "int" => Some(Conversion::Int),
                        "float" => Some(Conversion::Float),
                        "bool" => Some(Conversion::Bool),
                        "complex" => Some(Conversion::Complex),
                        _ => None,
                    }
                }
            },
            _ => return None,
        };
        match dtype {
            Scalar::Int64 | Scalar::Int32 => Some(Conversion::Int),
            Scalar::Float64 => Some(Conversion::Float),
            Scalar::Bool => Some(Conversion::Bool),
            Scalar::Complex128 => Some(Conversion::Complex),
            _ => None,
        }
    }
}

/// Whether a class derives from a builtin exception or from an exception class defined
/// earlier in the module (`class MyError(Exception)`, `class Neg(MyError)`).
fn derives_from_exception(c: &ruff_python_ast::StmtClassDef, env: &Env) -> bool {
    c.bases().iter().any(|b| match b {
        Expr::Name(n) => match env.get(n.id.as_str()) {
            Some(Global::ExceptionClass(_)) => true,
            None => twinjit_ir::exception::BUILTIN_EXCEPTIONS.contains(&n.id.as_str()),
            Some(_) => false,
        },
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Freezes the module-level assignment `src` (after `import math`, `import numpy as np`,
    /// `N = 8`): `int:…`, `float:…`, `bool:…`, `tuple:…` or the error's message and label.
    fn check(src: &str, expect: &str) {
        let mut env = Env::new();
        env.insert("math".into(), Global::MathModule);
        env.insert("np".into(), Global::NumpyModule);
        env.insert("N".into(), Global::Const(ConstValue::Int(8)));
        let parsed = ruff_python_parser::parse_module(src).expect("parses");
        let Some(Stmt::Assign(a)) = parsed.syntax().body.first() else { panic!("{src}: not an assignment") };
        let got = match freeze("X", &a.value, a.range, &env, FileId(0), src) {
            Ok(ConstValue::Int(i)) => format!("int:{i}"),
            Ok(ConstValue::Float(x)) => format!("float:{x:?}"),
            Ok(ConstValue::Bool(b)) => format!("bool:{b}"),
            Ok(v) => format!("{v:?}"),
            Err(d) => {
                let label = d
                    .primary
                    .map(|l| format!("{} @ `{}`", l.message, &src[l.span.start as usize..l.span.end as usize]));
                format!("error: {} [{}]", d.message, label.unwrap_or_default())
            }
        };
        assert_eq!(got, expect, "{src}");
    }

    #[test]
    fn freezes_what_python_computes() {
        check("X = -9223372036854775808", "int:-9223372036854775808");
        check("X = (1 << 63) - 1", "int:9223372036854775807");
        check("X = 2 ** -1", "float:0.5");
        check("X = N // 3 + N % 3", "int:4");
        check("X = math.pi * 2", &format!("float:{:?}", std::f64::consts::TAU));
        check("X = np.float64(N) / 3", &format!("float:{:?}", 8.0 / 3.0));
        check("X = int(-2.5)", "int:-2");
        check("X = N > 4 and N < 16", "bool:true");
        check("X = 1.5 if N else 2", "float:1.5");
        check("X = (N, 2.0) + (True,)", "Tuple([Int(8), Float(2.0), Bool(true)])");
        // Python's complex numbers: a negative float to a fractional power is one.
        check("X = (-8.0) ** 0.5", "Complex(1.7319121124709868e-16, 2.8284271247461903)");
        check("X = complex(N, -1) * 1j", "Complex(1.0, 8.0)");
        check("X = np.complex128(2.5) - 1j", "Complex(2.5, -1.0)");
    }

    #[test]
    fn reports_what_python_raises() {
        check("X = 1 / 0", "error: evaluating `X = 1 / 0` raises ZeroDivisionError: division by zero [raises ZeroDivisionError @ `1 / 0`]");
        check(
            "X = 1 + 0 ** -1",
            "error: evaluating `X = 1 + 0 ** -1` raises ZeroDivisionError: 0.0 cannot be raised to a negative power [raises ZeroDivisionError @ `0 ** -1`]",
        );
        check("X = 2.0 ** 10000", "error: evaluating `X = 2.0 ** 10000` raises OverflowError: (34, 'Numerical result out of range') [raises OverflowError @ `2.0 ** 10000`]");
        check(
            "X = N << -1",
            "error: evaluating `X = N << -1` raises ValueError: negative shift count [raises ValueError @ `N << -1`]",
        );
        check("X = int(math.nan)", "error: evaluating `X = int(math.nan)` raises ValueError: cannot convert float NaN to integer [raises ValueError @ `int(math.nan)`]");
    }

    #[test]
    fn rejects_what_numba_cannot_type() {
        check(
            "X = 2 ** 64",
            "error: `X` is 18446744073709551616, which does not fit in 64 bits [too large @ `2 ** 64`]",
        );
        check(
            "X = -(2 ** 63) - 1",
            "error: `X` is -9223372036854775809, which does not fit in 64 bits [too large @ `-(2 ** 63) - 1`]",
        );
        check(
            "X = 10 ** 400 // 10 ** 399",
            "error: `X` cannot be frozen: an integer in it does not fit in 128 bits [too large @ `10 ** 400`]",
        );
        check("X = N + y", "error: module-level value is not a numeric constant [not a known constant @ `y`]");
        check("X = np.float32(1.5)", "error: module-level value is not a numeric constant [only int(), float(), bool(), complex(), np.int64(), np.float64() and np.complex128() of constants are frozen @ `np.float32(1.5)`]");
    }
}
