//! Module level: imports, constants, function definitions; everything else is rejected with a
//! hint, except `if __name__ == "__main__":` blocks and docstrings, which are Python-only.

use crate::const_eval::{eval, ConstValue, Conversion, Names, Scope, Why};
use crate::decorators::read_decorators;
use crate::env::{dtype_name, math_const, math_function, Env, Global};
use crate::lower::lower_function;
use crate::span;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use twinjit_diag::{Diagnostic, FileId};
use twinjit_ir::{Module, Scalar};

pub(crate) fn lower(text: &str, file: FileId) -> Result<Module, Vec<Diagnostic>> {
    let parsed = ruff_python_parser::parse_module(text);
    let parsed = match parsed {
        Ok(p) => p,
        Err(e) => {
            // Report every syntax error the parser recovered from, not just the first.
            let unchecked = ruff_python_parser::parse_unchecked_source(text, ruff_python_ast::PySourceType::Python);
            let mut diags: Vec<Diagnostic> = unchecked
                .errors()
                .iter()
                .take(20)
                .map(|e| Diagnostic::error(format!("syntax error: {}", e.error), span(file, e.location), "here"))
                .collect();
            if diags.is_empty() {
                diags.push(Diagnostic::error(format!("syntax error: {}", e.error), span(file, e.location), "here"));
            }
            return Err(diags);
        }
    };
    let body = &parsed.syntax().body;
    let mut diags = Vec::new();
    let mut env = Env::new();
    // Pass 1: imports, constants and the names of functions, in order.
    for (k, stmt) in body.iter().enumerate() {
        match stmt {
            Stmt::Import(imp) => {
                for alias in &imp.names {
                    let name = alias.name.id.as_str();
                    let bind = alias.asname.as_ref().map(|a| a.id.as_str());
                    let g = match name {
                        "math" => Global::MathModule,
                        "numpy" => Global::NumpyModule,
                        "numba" => Global::NumbaModule,
                        "numba.cuda" if bind.is_some() => Global::CudaModule,
                        "numba.cuda" => {
                            env.insert("numba".into(), Global::NumbaModule);
                            continue;
                        }
                        _ => {
                            diags.push(unsupported_import(file, alias.range, name));
                            continue;
                        }
                    };
                    env.insert(bind.unwrap_or(name).to_string(), g);
                }
            }
            Stmt::ImportFrom(imp) => {
                let module = imp.module.as_ref().map(|m| m.id.as_str()).unwrap_or("");
                for alias in &imp.names {
                    let name = alias.name.id.as_str();
                    let bind = alias.asname.as_ref().map(|a| a.id.as_str()).unwrap_or(name).to_string();
                    let g = match (module, name) {
                        ("numba", "njit") => Some(Global::Decorator("njit")),
                        ("numba", "jit") => Some(Global::Decorator("jit")),
                        ("numba", "cuda") => Some(Global::CudaModule),
                        ("numba", "prange") => Some(Global::Prange),
                        ("numba", t) | ("numba.types", t) => dtype_name(t).map(Global::NumbaType),
                        ("math", f) => {
                            math_function(f).map(Global::MathFunction).or_else(|| math_const(f).map(Global::MathConst))
                        }
                        _ => None,
                    };
                    match g {
                        Some(g) => {
                            env.insert(bind, g);
                        }
                        None if module == "numba" || module == "math" => diags.push(
                            Diagnostic::error(
                                format!("`{name}` cannot be imported from `{module}` here"),
                                span(file, alias.range),
                                "not supported",
                            )
                            .with_hint(if module == "numba" {
                                "supported: njit, jit, cuda, prange and the scalar types (float32, ...)"
                            } else {
                                "supported: the math functions and constants twinjit compiles"
                            }),
                        ),
                        None => diags.push(unsupported_import(file, imp.range, module)),
                    }
                }
            }
            Stmt::Assign(a) => {
                if let [Expr::Name(n)] = a.targets.as_slice() {
                    match freeze(n.id.as_str(), &a.value, a.range, &env, file, text) {
                        Ok(c) => {
                            env.insert(n.id.to_string(), Global::Const(c));
                        }
                        Err(d) => diags.push(d),
                    }
                } else {
                    diags.push(
                        Diagnostic::error(
                            "unsupported module-level assignment",
                            span(file, a.range),
                            "only `NAME = constant` is read at module level",
                        )
                        .with_hint("move driver code under `if __name__ == \"__main__\":`"),
                    );
                }
            }
            Stmt::AnnAssign(a) => {
                if let (Expr::Name(n), Some(v)) = (&*a.target, &a.value) {
                    match freeze(n.id.as_str(), v, a.range, &env, file, text) {
                        Ok(c) => {
                            env.insert(n.id.to_string(), Global::Const(c));
                        }
                        Err(d) => diags.push(d),
                    }
                }
            }
            Stmt::FunctionDef(fd) => {
                let params = fd.parameters.posonlyargs.len() + fd.parameters.args.len();
                let kind = read_decorators(fd, &env, file, text).ok().and_then(|a| a.map(|a| a.kind));
                env.insert(fd.name.id.to_string(), Global::Function { kind, params });
            }
            Stmt::If(i) if is_main_guard(&i.test) => {}
            Stmt::Expr(e) if k == 0 && matches!(&*e.value, Expr::StringLiteral(_)) => {}
            Stmt::Expr(e) if matches!(&*e.value, Expr::StringLiteral(_)) => {}
            Stmt::Pass(_) => {}
            other => diags.push(
                Diagnostic::error(
                    format!("unsupported statement at module level: {}", stmt_kind(other)),
                    span(file, other.range()),
                    "twinjit reads only imports, constants and function definitions here",
                )
                .with_hint("move driver code under `if __name__ == \"__main__\":`"),
            ),
        }
    }
    // Pass 2: function bodies.
    let mut module = Module::default();
    for stmt in body {
        let Stmt::FunctionDef(fd) = stmt else { continue };
        let attrs = match read_decorators(fd, &env, file, text) {
            Ok(Some(a)) => a,
            Ok(None) => continue, // a plain Python function: not compiled.
            Err(mut d) => {
                diags.append(&mut d);
                continue;
            }
        };
        match lower_function(fd, attrs, &env, file, text) {
            Ok(f) => module.functions.push(f),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() {
        Ok(module)
    } else {
        Err(diags)
    }
}

fn unsupported_import(file: FileId, r: ruff_text_size::TextRange, name: &str) -> Diagnostic {
    Diagnostic::error(format!("unsupported import `{name}`"), span(file, r), "cannot be compiled")
        .with_hint("twinjit compiles the numeric subset: only `math`, `numpy` and `numba` can be imported")
}

fn is_main_guard(test: &Expr) -> bool {
    if let Expr::Compare(c) = test {
        if let (Expr::Name(n), [Expr::StringLiteral(s)]) = (&*c.left, &*c.comparators) {
            return n.id.as_str() == "__name__" && s.value.to_str() == "__main__";
        }
    }
    false
}

pub(crate) fn stmt_kind(s: &Stmt) -> &'static str {
    match s {
        Stmt::FunctionDef(_) => "nested function definition",
        Stmt::ClassDef(_) => "class definition",
        Stmt::Return(_) => "return",
        Stmt::Delete(_) => "del",
        Stmt::TypeAlias(_) => "type alias",
        Stmt::Assign(_) => "assignment",
        Stmt::AugAssign(_) => "augmented assignment",
        Stmt::AnnAssign(_) => "annotated assignment",
        Stmt::For(_) => "for loop",
        Stmt::While(_) => "while loop",
        Stmt::If(_) => "if statement",
        Stmt::With(_) => "with statement",
        Stmt::Match(_) => "match statement",
        Stmt::Raise(_) => "raise",
        Stmt::Try(_) => "try statement",
        Stmt::Assert(_) => "assert",
        Stmt::Import(_) | Stmt::ImportFrom(_) => "import inside a function",
        Stmt::Global(_) => "global statement",
        Stmt::Nonlocal(_) => "nonlocal statement",
        Stmt::Expr(_) => "expression statement",
        Stmt::Pass(_) => "pass",
        Stmt::Break(_) => "break",
        Stmt::Continue(_) => "continue",
        Stmt::IpyEscapeCommand(_) => "IPython escape command",
    }
}

/// Freezes `name = value` as Numba does: Python evaluates `value` when it imports the module,
/// then Numba types the result (int64, float64, bool and tuples of them).
fn freeze(
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
            Err(if (1i128 << 63..1i128 << 64).contains(&i) {
                Diagnostic::error(
                    format!("`{name}` {what} {i}, which Numba would type as uint64"),
                    at,
                    "uint64 constant",
                )
                .with_hint("twinjit does not support uint64 yet: use a value below 2**63, or a float")
            } else {
                Diagnostic::error(format!("`{name}` {what} {i}, which does not fit in int64"), at, "too large")
                    .with_hint("Numba rejects it too (\"Int value is too large\"): its integers are 64-bit")
            })
        }
    }
}

fn first_outside_int64(v: &ConstValue) -> Option<i128> {
    match v {
        ConstValue::Int(i) if i64::try_from(*i).is_err() => Some(*i),
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
struct ModuleNames<'a>(&'a Env);

impl Names for ModuleNames<'_> {
    fn constant(&self, e: &Expr) -> Option<ConstValue> {
        match e {
            Expr::Name(n) => match self.0.get(n.id.as_str())? {
                Global::Const(c) => Some(c.clone()),
                Global::MathConst(x) => Some(ConstValue::Float(*x)),
                _ => None,
            },
            Expr::Attribute(a) => match self.0.get(a.value.as_name_expr()?.id.as_str())? {
                Global::MathModule | Global::NumpyModule => math_const(a.attr.id.as_str()).map(ConstValue::Float),
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
            _ => None,
        }
    }
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
            "X = 1 << 63",
            "error: `X` is 9223372036854775808, which Numba would type as uint64 [uint64 constant @ `1 << 63`]",
        );
        check("X = (1, 2 ** 64 - 1)", "error: `X` holds 18446744073709551615, which Numba would type as uint64 [uint64 constant @ `(1, 2 ** 64 - 1)`]");
        check("X = 2 ** 64", "error: `X` is 18446744073709551616, which does not fit in int64 [too large @ `2 ** 64`]");
        check(
            "X = -(2 ** 63) - 1",
            "error: `X` is -9223372036854775809, which does not fit in int64 [too large @ `-(2 ** 63) - 1`]",
        );
        check(
            "X = 10 ** 400 // 10 ** 399",
            "error: `X` cannot be frozen: an integer in it does not fit in 128 bits [too large @ `10 ** 400`]",
        );
        check("X = (-8.0) ** 0.5", "error: module-level value is not a numeric constant [a negative number to a fractional power is complex @ `(-8.0) ** 0.5`]");
        check("X = N + y", "error: module-level value is not a numeric constant [not a known constant @ `y`]");
        check("X = np.float32(1.5)", "error: module-level value is not a numeric constant [only int(), float(), bool(), np.int64() and np.float64() of constants are frozen @ `np.float32(1.5)`]");
    }
}
