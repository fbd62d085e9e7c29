//! Parameter lists of module functions and how a call's arguments bind to them, by CPython's
//! rules (what Numba's dispatcher does with `inspect.Signature.bind`): positional arguments
//! fill parameters left to right, keywords by name, and omitted trailing parameters take their
//! defaults. Defaults are evaluated once, when the `def` runs (module level, in order, so a
//! default may read the constants assigned before it), and Numba types them as the constant's
//! type (`3` int64, `1.0` float64, `True` bool).
//!
//! It knows nothing of IR values: binding says, per parameter, which argument (by its index in
//! source order) or which default fills it; the caller lowers the arguments. A binding error is
//! CPython's `TypeError` message (`g() got an unexpected keyword argument 'k'`) as a located
//! diagnostic.

use crate::const_eval::{eval, ConstValue, Names, Scope, Why};
use crate::span;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};
use twinjit_diag::{Diagnostic, FileId, Span};
use twinjit_ir::Const;

/// A `def`'s parameters, as calls bind to them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Params {
    /// Positional parameters in order (positional-only ones first).
    pub(crate) names: Vec<String>,
    /// How many of `names` are positional-only (before `/`).
    pub(crate) posonly: usize,
    /// The defaults of the last `defaults.len()` parameters of `names` (Python's
    /// `__defaults__`), each its constant or why it has none twinjit can use.
    pub(crate) defaults: Vec<Result<Const, BadDefault>>,
    /// The name of the `*args` parameter, if any (it collects the extra positional arguments).
    pub(crate) vararg: Option<String>,
}

/// A default value twinjit cannot use: where it is, the message and the label.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BadDefault {
    pub(crate) span: Span,
    pub(crate) message: String,
    pub(crate) label: String,
    pub(crate) hint: String,
}

/// What fills one parameter in a call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Filled {
    /// The call's argument with this index in [`Params::bind`]'s `args`.
    Arg(usize),
    /// The parameter's default.
    Default(Const),
}

impl Params {
    /// The parameters of `p`, defaults evaluated with `names` (the module's constants so far).
    pub(crate) fn of(p: &ast::Parameters, names: &dyn Names, file: FileId) -> Params {
        let all: Vec<&ast::ParameterWithDefault> = p.posonlyargs.iter().chain(&p.args).collect();
        let defaults = all
            .iter()
            .skip_while(|a| a.default.is_none())
            .map(|a| default_value(a.default.as_deref(), a.range, names, file))
            .collect();
        Params {
            names: all.iter().map(|a| a.parameter.name.id.to_string()).collect(),
            posonly: p.posonlyargs.len(),
            defaults,
            vararg: p.vararg.as_ref().map(|v| v.name.id.to_string()),
        }
    }

    /// The parameter list as written, for hints: `g(x, n=3, scale=1.0)`.
    pub(crate) fn describe(&self, function: &str) -> String {
        let first_default = self.names.len() - self.defaults.len();
        let items: Vec<String> = self
            .names
            .iter()
            .enumerate()
            .map(|(k, n)| match k.checked_sub(first_default).map(|d| &self.defaults[d]) {
                Some(Ok(c)) => format!("{n}={}", python_const(*c)),
                Some(Err(_)) => format!("{n}=..."),
                None => n.clone(),
            })
            .chain(self.vararg.iter().map(|v| format!("*{v}")))
            .collect();
        format!("{function}({})", items.join(", "))
    }

    /// Binds a call's arguments to the parameters: `positional` arguments first, then the
    /// keywords `(name, range)` (argument indices `positional..`). `None` for a parameter
    /// whose default twinjit cannot use (already reported where the function is defined).
    pub(crate) fn bind(
        &self,
        function: &str,
        positional: usize,
        keywords: &[(&str, TextRange)],
        call: Span,
        file: FileId,
    ) -> Result<Vec<Option<Filled>>, Diagnostic> {
        let n = self.names.len();
        let here = |message: String, at: Span, label: &str| {
            Diagnostic::error(message, at, label.to_string())
                .with_hint(format!("`{function}` is defined as `{}`", self.describe(function)))
        };
        if positional > n {
            let required = n - self.defaults.len();
            let takes = match (required == n, n) {
                (true, 1) => "1 positional argument".to_string(),
                (true, _) => format!("{n} positional arguments"),
                (false, _) => format!("from {required} to {n} positional arguments"),
            };
            let were = if positional == 1 { "was" } else { "were" };
            return Err(here(
                format!("{function}() takes {takes} but {positional} {were} given"),
                call,
                "too many arguments",
            ));
        }
        let mut filled: Vec<Option<Filled>> = (0..n).map(|k| (k < positional).then_some(Filled::Arg(k))).collect();
        let mut posonly_by_name = Vec::new();
        for (j, &(name, range)) in keywords.iter().enumerate() {
            let at = span(file, range);
            match self.names.iter().position(|p| p == name) {
                Some(k) if k < self.posonly => posonly_by_name.push(name),
                Some(k) if filled[k].is_some() => {
                    return Err(here(
                        format!("{function}() got multiple values for argument '{name}'"),
                        at,
                        "given again here",
                    ))
                }
                Some(k) => filled[k] = Some(Filled::Arg(positional + j)),
                None => {
                    return Err(here(
                        format!("{function}() got an unexpected keyword argument '{name}'"),
                        at,
                        "no such parameter",
                    ))
                }
            }
        }
        if !posonly_by_name.is_empty() {
            return Err(here(
                format!(
                    "{function}() got some positional-only arguments passed as keyword arguments: '{}'",
                    posonly_by_name.join(", ")
                ),
                call,
                "positional-only parameter given by name",
            ));
        }
        let first_default = n - self.defaults.len();
        let missing: Vec<&str> =
            (0..first_default).filter(|&k| filled[k].is_none()).map(|k| self.names[k].as_str()).collect();
        if !missing.is_empty() {
            return Err(here(
                format!(
                    "{function}() missing {} required positional argument{}: {}",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" },
                    name_list(&missing)
                ),
                call,
                "missing arguments",
            ));
        }
        Ok(filled
            .into_iter()
            .enumerate()
            .map(|(k, f)| f.or_else(|| self.defaults[k - first_default].as_ref().ok().map(|c| Filled::Default(*c))))
            .collect())
    }
}

/// CPython's list of missing names: `'x'`, `'x' and 'y'`, `'x', 'y', and 'z'`.
fn name_list(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    match q.as_slice() {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

/// A constant as Python prints it (`1.0`, `True`, `3`).
fn python_const(c: Const) -> String {
    match c {
        Const::Int(i) => i.to_string(),
        Const::Float(x) if x.is_finite() && x == x.trunc() && x.abs() < 1e16 => format!("{x:.1}"),
        Const::Float(x) => format!("{x}"),
        Const::Bool(true) => "True".into(),
        Const::Bool(false) => "False".into(),
        Const::None => "None".into(),
        Const::Str(text) => format!("'{text}'"),
    }
}

/// The constant a default expression evaluates to when the `def` runs, as Numba types it.
pub(crate) fn default_value(
    e: Option<&Expr>,
    param: TextRange,
    names: &dyn Names,
    file: FileId,
) -> Result<Const, BadDefault> {
    let Some(e) = e else {
        // A parameter without a default after one with: a syntax error the parser reports.
        return Err(BadDefault {
            span: span(file, param),
            message: "parameter without a default follows parameter with a default".into(),
            label: "needs a default".into(),
            hint: String::new(),
        });
    };
    let at = span(file, e.range());
    let bad = |message: &str, label: &str, hint: &str| BadDefault {
        span: at,
        message: message.to_string(),
        label: label.to_string(),
        hint: hint.to_string(),
    };
    if matches!(e, Expr::NoneLiteral(_)) {
        // An omitted argument is None: the function is specialised for it, and branches on
        // `x is None` are decided by the types (Numba's dead-branch pruning).
        return Ok(Const::None);
    }
    // A string default: the function is specialised for the string, as for an argument. A
    // dtype default (`dtype=np.float64`) is its name, which the constructors read as a dtype.
    if let Expr::StringLiteral(s) = e {
        return Ok(Const::Str(twinjit_ir::intern(s.value.to_str())));
    }
    if let Some(text) = names.string(e) {
        return Ok(Const::Str(twinjit_ir::intern(&text)));
    }
    if let Expr::Name(n) = e {
        if matches!(n.id.as_str(), "float" | "int" | "bool" | "complex") {
            return Ok(Const::Str(twinjit_ir::intern(n.id.as_str())));
        }
    }
    match eval(e, Scope::Module(names)) {
        Ok(ConstValue::Int(i)) => i64::try_from(i)
            .map(Const::Int)
            .map_err(|_| bad("default value does not fit in int64", "too large", "Numba's integers are 64-bit")),
        Ok(ConstValue::Float(x)) => Ok(Const::Float(x)),
        Ok(ConstValue::Bool(b)) => Ok(Const::Bool(b)),
        Ok(ConstValue::Tuple(_) | ConstValue::Str(_)) => {
            Err(bad("tuple default values are not supported yet", "tuple default", "pass the tuple as an argument"))
        }
        Ok(ConstValue::Complex(..)) => Err(bad(
            "complex default values are not supported yet",
            "complex default",
            "pass the complex number as an argument",
        )),
        Err(no) => {
            let why = match no.why {
                Why::NotConstant(why) => why.to_string(),
                Why::Raises { exception, message } => format!("raises {exception}: {message}"),
                Why::TooLarge => "too large".to_string(),
            };
            Err(BadDefault {
                span: span(file, no.at),
                message: "default value is not a constant".into(),
                label: why,
                hint: "defaults of compiled functions must be numbers, booleans or module-level constants \
                       (Python evaluates them once, when the `def` runs)"
                    .into(),
            })
        }
    }
}

impl BadDefault {
    pub(crate) fn diagnostic(&self) -> Diagnostic {
        let d = Diagnostic::error(self.message.clone(), self.span, self.label.clone());
        if self.hint.is_empty() {
            d
        } else {
            d.with_hint(self.hint.clone())
        }
    }
}
