//! Numba's type and signature objects in a decorator → [`Signature`] / [`Type`]:
//! `float64(float64[:], int64)`, `void(float32[:], int32)`, `types.float64[:, ::1]`,
//! `types.Array(types.float64, 2, 'C')`, `types.UniTuple(types.float64, 3)`,
//! `types.Tuple((int64, float64))`, `types.intp`, `types.boolean`, `types.void`, with the
//! names imported from `numba`, `numba.types`, `numba.core.types` or `numba.cuda` (strings go
//! through [`twinjit_ir::parse_signature`]). A type Numba has and twinjit lacks (`float16`,
//! `unicode_type`, ...) is a located "not supported yet".

use crate::env::{qualified, Env};
use crate::span;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;
use twinjit_diag::{Diagnostic, FileId, Span};
use twinjit_ir::{ArrayType, Layout, Scalar, Signature, Type};

/// Numba type names twinjit does not have yet.
const UNSUPPORTED: &[&str] = &[
    "char",
    "ulong",
    "long_",
    "unicode_type",
    "string",
    "pyobject",
    "optional",
    "Optional",
    "List",
    "ListType",
    "DictType",
    "NamedTuple",
    "Record",
    "CPointer",
    "voidptr",
];

const HAS: &str =
    "twinjit has bool, int8 to int64, uint8 to uint64, float16 (CUDA), float32, float64, complex64, complex128, arrays of them (1 to 8 dimensions, C or A layout) and tuples";

/// What a type expression names.
enum Named {
    Type(Type),
    Void,
}

pub(crate) struct TypeReader<'a> {
    pub(crate) env: &'a Env,
    pub(crate) file: FileId,
    pub(crate) text: &'a str,
}

impl TypeReader<'_> {
    fn sp(&self, e: &Expr) -> Span {
        span(self.file, e.range())
    }

    fn src(&self, e: &Expr) -> &str {
        &self.text[e.range()]
    }

    fn bad(&self, e: &Expr, message: String, label: &str) -> Diagnostic {
        Diagnostic::error(message, self.sp(e), label).with_hint(HAS)
    }

    /// Whether `e` looks like a Numba type object (as opposed to a signature string or list).
    pub(crate) fn is_type_like(&self, e: &Expr) -> bool {
        match e {
            Expr::Name(_) | Expr::Attribute(_) => self.numba_name(e).is_some(),
            Expr::Subscript(s) => self.is_type_like(&s.value),
            Expr::Call(c) => self.is_type_like(&c.func),
            _ => false,
        }
    }

    /// The last segment of a name from `numba`, `numba.types`, `numba.core.types`,
    /// `numba.cuda` or `numba.cuda.types` (numba-cuda's own copy of the types).
    fn numba_name(&self, e: &Expr) -> Option<String> {
        let path = qualified(e, self.env)?;
        let rest = path.strip_prefix("numba.")?;
        let rest = rest.strip_prefix("cuda.").unwrap_or(rest);
        let rest = rest.strip_prefix("core.").unwrap_or(rest);
        let rest = rest.strip_prefix("types.").unwrap_or(rest);
        (!rest.contains('.')).then(|| rest.to_string())
    }

    /// A signature object: `ret(args...)`, or a tuple of argument types.
    pub(crate) fn signature(&self, e: &Expr) -> Result<Signature, Diagnostic> {
        match e {
            Expr::Call(c) if !self.is_constructor(&c.func) => {
                let ret = match self.named(&c.func)? {
                    Named::Void => Type::None,
                    Named::Type(t) => t,
                };
                if let Some(k) = c.arguments.keywords.first() {
                    return Err(Diagnostic::error(
                        "keyword arguments in a signature",
                        span(self.file, k.range),
                        "here",
                    ));
                }
                let args = c.arguments.args.iter().map(|a| self.ty(a)).collect::<Result<Vec<_>, _>>()?;
                Ok(Signature { args, ret: Some(ret) })
            }
            Expr::Tuple(t) => {
                let args = t.elts.iter().map(|a| self.ty(a)).collect::<Result<Vec<_>, _>>()?;
                Ok(Signature { args, ret: None })
            }
            other => Err(Diagnostic::error(
                format!("`{}` is a type, not a signature", self.src(other)),
                self.sp(other),
                "expected a signature",
            )
            .with_hint(format!("write the return type and the argument types: `{}(...)`", self.src(other)))),
        }
    }

    fn is_constructor(&self, callee: &Expr) -> bool {
        matches!(self.numba_name(callee).as_deref(), Some("Array" | "UniTuple" | "Tuple"))
    }

    /// An argument type (`void` is not one).
    pub(crate) fn ty(&self, e: &Expr) -> Result<Type, Diagnostic> {
        match self.named(e)? {
            Named::Type(t) => Ok(t),
            Named::Void => Err(Diagnostic::error("`void` is only a return type", self.sp(e), "here")),
        }
    }

    /// A scalar type (what `locals=` declares).
    pub(crate) fn scalar(&self, e: &Expr) -> Result<Scalar, Diagnostic> {
        match self.ty(e)? {
            Type::Scalar(s) => Ok(s),
            t => Err(Diagnostic::error(
                format!("`{}` declares a {}, not a scalar", self.src(e), t.numba_name()),
                self.sp(e),
                "not a scalar type",
            )
            .with_hint("twinjit honours `locals=` for scalar variables (float32, int64, ...)")),
        }
    }

    fn named(&self, e: &Expr) -> Result<Named, Diagnostic> {
        match e {
            // A module-level name bound to a type expression (`PAIR = types.UniTuple(int64, 2)`).
            // (Not a name again: a cycle of names would never end.)
            Expr::Name(n) if self.numba_name(e).is_none() => {
                match crate::decorators::assigned_value(self, n.id.as_str()) {
                    Some(v) if !matches!(v, Expr::Name(_)) => self.named(&v),
                    _ => Err(self.bad(
                        e,
                        format!("`{}` is not a Numba type", self.src(e)),
                        "not a type from numba, numba.types or numba.cuda",
                    )),
                }
            }
            Expr::Name(_) | Expr::Attribute(_) => {
                let Some(name) = self.numba_name(e) else {
                    return Err(self.bad(
                        e,
                        format!("`{}` is not a Numba type", self.src(e)),
                        "not a type from numba, numba.types or numba.cuda",
                    ));
                };
                if name == "void" || name == "none" {
                    return Ok(Named::Void);
                }
                if let Some(s) = Scalar::parse(&name) {
                    return Ok(Named::Type(Type::Scalar(s)));
                }
                let what = if UNSUPPORTED.contains(&name.as_str()) {
                    format!("the Numba type `{name}` is not supported yet")
                } else {
                    format!("`{}` is not a Numba type twinjit knows", self.src(e))
                };
                Err(self.bad(e, what, "not supported"))
            }
            Expr::Subscript(s) => {
                let dtype = match self.named(&s.value)? {
                    Named::Type(Type::Scalar(d)) => d,
                    _ => return Err(self.bad(e, "only scalar types make arrays".into(), "not a dtype")),
                };
                let dims: Vec<&Expr> = match &*s.slice {
                    Expr::Tuple(t) => t.elts.iter().collect(),
                    one => vec![one],
                };
                let mut contiguous = Vec::new();
                for d in &dims {
                    match d {
                        Expr::Slice(sl) if sl.lower.is_none() && sl.upper.is_none() => match sl.step.as_deref() {
                            None => contiguous.push(false),
                            Some(Expr::NumberLiteral(n)) if matches!(&n.value, ast::Number::Int(i) if i.as_u8() == Some(1)) => {
                                contiguous.push(true)
                            }
                            Some(_) => {
                                return Err(self.bad(d, "expected `:` or `::1` in an array type".into(), "here"))
                            }
                        },
                        _ => return Err(self.bad(d, "expected `:` or `::1` in an array type".into(), "here")),
                    }
                }
                array(dtype, dims.len(), {
                    let c = contiguous.last() == Some(&true) && contiguous[..contiguous.len() - 1].iter().all(|c| !c);
                    if c {
                        Layout::C
                    } else {
                        Layout::A
                    }
                })
                .map_err(|m| self.bad(e, m, "not supported"))
            }
            Expr::Call(c) if self.is_constructor(&c.func) => {
                let ctor = self.numba_name(&c.func).unwrap_or_default();
                let args = &c.arguments.args;
                match (ctor.as_str(), &**args) {
                    ("Array", [dtype, ndim, layout]) => {
                        let Type::Scalar(d) = self.ty(dtype)? else {
                            return Err(self.bad(dtype, "only scalar types make arrays".into(), "not a dtype"));
                        };
                        let Some(n) = int_literal(ndim) else {
                            return Err(self.bad(
                                ndim,
                                "the number of dimensions must be an integer literal".into(),
                                "here",
                            ));
                        };
                        let layout = match layout {
                            Expr::StringLiteral(s) if s.value.to_str() == "C" => Layout::C,
                            Expr::StringLiteral(s) if s.value.to_str() == "A" => Layout::A,
                            Expr::StringLiteral(s) if s.value.to_str() == "F" => {
                                return Err(self.bad(
                                    layout,
                                    "Fortran-order ('F') arrays are not supported yet".into(),
                                    "here",
                                ))
                            }
                            _ => return Err(self.bad(layout, "the layout must be 'C' or 'A'".into(), "here")),
                        };
                        array(d, n, layout).map_err(|m| self.bad(e, m, "not supported"))
                    }
                    ("UniTuple", [elem, count]) => {
                        let t = self.ty(elem)?;
                        match int_literal(count) {
                            Some(n) if n <= 64 => Ok(Named::Type(Type::Tuple(vec![t; n]))),
                            _ => Err(self.bad(
                                count,
                                "the tuple length must be an integer literal up to 64".into(),
                                "here",
                            )),
                        }
                    }
                    ("Tuple", [Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. })]) => {
                        Ok(Named::Type(Type::Tuple(elts.iter().map(|x| self.ty(x)).collect::<Result<_, _>>()?)))
                    }
                    _ => Err(self.bad(
                        e,
                        format!("unsupported form of `{}`", self.src(&c.func)),
                        "expected Array(dtype, ndim, layout), UniTuple(dtype, n) or Tuple((t1, t2, ...))",
                    )),
                }
            }
            other => Err(self.bad(other, format!("`{}` is not a Numba type", self.src(other)), "not a type")),
        }
    }
}

fn array(dtype: Scalar, ndim: usize, layout: Layout) -> Result<Named, String> {
    twinjit_ir::types::check_ndim(ndim)?;
    Ok(Named::Type(Type::Array(ArrayType { dtype, ndim: ndim as u8, layout })))
}

fn int_literal(e: &Expr) -> Option<usize> {
    match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i.as_u64().and_then(|v| usize::try_from(v).ok()),
            _ => None,
        },
        _ => None,
    }
}
