//! Module level: imports, constants, function definitions; everything else is rejected with a
//! hint, except `if __name__ == "__main__":` blocks and docstrings, which are Python-only.

use crate::decorators::read_decorators;
use crate::env::{dtype_name, math_const, math_function, ConstVal, Env, Global};
use crate::lower::lower_function;
use crate::span;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
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
                    match eval_const(&a.value, &env, file) {
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
                    match eval_const(v, &env, file) {
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

/// Evaluates a module-level constant expression (numbers, booleans, tuples, earlier constants,
/// `math.pi`-style constants, arithmetic). Integers use checked arithmetic: a constant that does
/// not fit int64 is an error, as in Numba.
pub(crate) fn eval_const(e: &Expr, env: &Env, file: FileId) -> Result<ConstVal, Diagnostic> {
    let bad = |msg: &str| {
        Diagnostic::error(
            "module-level value is not a numeric constant",
            span(file, e.range()),
            msg.to_string(),
        )
        .with_hint("twinjit freezes module-level numbers, booleans and tuples of them; move other code under `if __name__ == \"__main__\":`")
    };
    match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i.as_i64().map(ConstVal::Int).ok_or_else(|| bad("integer does not fit in int64")),
            ast::Number::Float(f) => Ok(ConstVal::Float(*f)),
            ast::Number::Complex { .. } => Err(bad("complex numbers are not supported")),
        },
        Expr::BooleanLiteral(b) => Ok(ConstVal::Bool(b.value)),
        Expr::Tuple(t) => {
            t.elts.iter().map(|x| eval_const(x, env, file)).collect::<Result<_, _>>().map(ConstVal::Tuple)
        }
        Expr::Name(n) => match env.get(n.id.as_str()) {
            Some(Global::Const(c)) => Ok(c.clone()),
            Some(Global::MathConst(x)) => Ok(ConstVal::Float(*x)),
            _ => Err(bad("not a known constant")),
        },
        Expr::Attribute(a) => {
            if let Expr::Name(m) = &*a.value {
                if matches!(env.get(m.id.as_str()), Some(Global::MathModule | Global::NumpyModule)) {
                    if let Some(x) = math_const(a.attr.id.as_str()) {
                        return Ok(ConstVal::Float(x));
                    }
                }
            }
            Err(bad("not a known constant"))
        }
        Expr::Call(c) if c.arguments.args.len() == 1 && c.arguments.keywords.is_empty() => {
            // np.float64(x), np.int64(x), int(x), float(x)
            let target = match &*c.func {
                Expr::Attribute(a) => match &*a.value {
                    Expr::Name(m)
                        if matches!(env.get(m.id.as_str()), Some(Global::NumpyModule | Global::NumbaModule)) =>
                    {
                        dtype_name(a.attr.id.as_str())
                    }
                    _ => None,
                },
                Expr::Name(n) => match n.id.as_str() {
                    "int" => Some(Scalar::Int64),
                    "float" => Some(Scalar::Float64),
                    _ => None,
                },
                _ => None,
            };
            let v = eval_const(&c.arguments.args[0], env, file)?;
            match (target, v) {
                (Some(Scalar::Int64 | Scalar::Int32), ConstVal::Float(x)) => Ok(ConstVal::Int(x as i64)),
                (Some(Scalar::Int64 | Scalar::Int32), v @ ConstVal::Int(_)) => Ok(v),
                (Some(Scalar::Float64), ConstVal::Int(i)) => Ok(ConstVal::Float(i as f64)),
                (Some(Scalar::Float64), v @ ConstVal::Float(_)) => Ok(v),
                _ => Err(bad("only int(), float(), np.int64() and np.float64() of constants are frozen")),
            }
        }
        Expr::UnaryOp(u) => {
            let v = eval_const(&u.operand, env, file)?;
            match (u.op, v) {
                (ast::UnaryOp::USub, ConstVal::Int(i)) => {
                    i.checked_neg().map(ConstVal::Int).ok_or_else(|| bad("overflow"))
                }
                (ast::UnaryOp::USub, ConstVal::Float(x)) => Ok(ConstVal::Float(-x)),
                (ast::UnaryOp::UAdd, v @ (ConstVal::Int(_) | ConstVal::Float(_))) => Ok(v),
                (ast::UnaryOp::Not, ConstVal::Bool(b)) => Ok(ConstVal::Bool(!b)),
                _ => Err(bad("unsupported operator in a constant")),
            }
        }
        Expr::BinOp(b) => {
            let l = eval_const(&b.left, env, file)?;
            let r = eval_const(&b.right, env, file)?;
            const_binop(b.op, l, r).ok_or_else(|| {
                bad("this constant expression cannot be frozen (overflow, division by zero or unsupported operator)")
            })
        }
        _ => Err(bad("not a constant")),
    }
}

fn const_binop(op: ast::Operator, l: ConstVal, r: ConstVal) -> Option<ConstVal> {
    use ast::Operator::*;
    match (l, r) {
        (ConstVal::Int(a), ConstVal::Int(b)) => Some(match op {
            Add => ConstVal::Int(a.checked_add(b)?),
            Sub => ConstVal::Int(a.checked_sub(b)?),
            Mult => ConstVal::Int(a.checked_mul(b)?),
            Div => {
                if b == 0 {
                    return None;
                }
                ConstVal::Float(a as f64 / b as f64)
            }
            FloorDiv => {
                if b == 0 {
                    return None;
                }
                ConstVal::Int(twinjit_ir::interp::int_floordiv(a, b))
            }
            Mod => {
                if b == 0 {
                    return None;
                }
                ConstVal::Int(twinjit_ir::interp::int_mod(a, b))
            }
            Pow => {
                if b < 0 {
                    // CPython folds `2 ** -1` to 0.5.
                    ConstVal::Float((a as f64).powi(b as i32))
                } else {
                    ConstVal::Int(a.checked_pow(u32::try_from(b).ok()?)?)
                }
            }
            LShift => ConstVal::Int(a.checked_shl(u32::try_from(b).ok()?)?),
            RShift => ConstVal::Int(a >> b.clamp(0, 63)),
            BitAnd => ConstVal::Int(a & b),
            BitOr => ConstVal::Int(a | b),
            BitXor => ConstVal::Int(a ^ b),
            MatMult => return None,
        }),
        (l, r) => {
            let f = |v: ConstVal| match v {
                ConstVal::Int(i) => Some(i as f64),
                ConstVal::Float(x) => Some(x),
                _ => None,
            };
            let (a, b) = (f(l)?, f(r)?);
            Some(ConstVal::Float(match op {
                Add => a + b,
                Sub => a - b,
                Mult => a * b,
                Div if b != 0.0 => a / b,
                Pow => a.powf(b),
                FloorDiv if b != 0.0 => twinjit_ir::interp::divmod_f64(a, b).0,
                Mod if b != 0.0 => twinjit_ir::interp::divmod_f64(a, b).1,
                _ => return None,
            }))
        }
    }
}
