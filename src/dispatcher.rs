//! The dispatcher skeleton both targets share: one table of compiled specialisations per
//! function, keyed by argument types (Numba's dispatcher). A target's handle
//! ([`crate::Function`] on the host, `Kernel` on CUDA) turns call arguments into types through
//! [`CallArg`], and builds a missing specialisation with its own backend; everything else (arity,
//! argument errors, signatures in Numba's spelling, compile-once) lives here.

use crate::error::Error;
use crate::spec_table::{SpecTable, Types};
use std::sync::Arc;
use twinjit_ir::{Const, Signature, Type};

/// A call argument as the dispatcher sees it: its type, or why it cannot be passed.
pub(crate) trait CallArg {
    /// The argument's type, or the message of an argument error.
    fn arg_type(&self) -> Result<Type, String>;
}

/// The compiled specialisations of one function.
pub(crate) struct Dispatcher<C> {
    pub(crate) name: String,
    pub(crate) params: Vec<String>,
    /// The defaults of the last `defaults.len()` parameters.
    pub(crate) defaults: Vec<Const>,
    pub(crate) specs: SpecTable<C>,
}

impl<C> Dispatcher<C> {
    pub(crate) fn new(name: String, params: Vec<String>, defaults: Vec<Const>) -> Self {
        Dispatcher { name, params, defaults, specs: SpecTable::default() }
    }

    /// The error for a call with `given` arguments, when that is not the parameter count.
    pub(crate) fn check_arity(&self, given: usize) -> Result<(), Error> {
        arity(&self.name, &self.params, self.defaults.len(), given).map(|_| ())
    }

    /// The defaults a call with `given` positional arguments takes for the parameters it omits
    /// (none when it passes them all), or its arity error.
    pub(crate) fn omitted(&self, given: usize) -> Result<&[Const], Error> {
        arity(&self.name, &self.params, self.defaults.len(), given)
            .map(|from| &self.defaults[self.defaults.len() - from..])
    }

    /// The argument types of a call: its arity checked, each argument typed or refused with an
    /// error naming its parameter.
    pub(crate) fn arg_types(&self, args: &[impl CallArg]) -> Result<Types, Error> {
        if args.len() != self.params.len() {
            self.check_arity(args.len())?;
            // Within the defaults: `Function::call` fills them before typing; a kernel launch
            // passes every argument.
            return Err(Error::Argument {
                function: self.name.clone(),
                param: Some(self.params[args.len().min(self.params.len() - 1)].clone()),
                message: "a kernel launch passes every argument (defaults are not filled in launches)".into(),
            });
        }
        args.iter()
            .enumerate()
            .map(|(k, a)| {
                a.arg_type().map_err(|message| Error::Argument {
                    function: self.name.clone(),
                    param: Some(self.params[k].clone()),
                    message,
                })
            })
            .collect()
    }

    /// The specialisation for `types` (and the declared return type, if any), built once.
    pub(crate) fn get_or_build(
        &self,
        types: Types,
        ret: Option<Type>,
        build: impl FnOnce(&Signature) -> Result<C, Error>,
    ) -> Result<Arc<C>, Error> {
        self.specs.get_or_build(types, |t| build(&Signature { args: t.to_vec(), ret }).map(Arc::new))
    }

    /// The specialisation for a signature, built once.
    pub(crate) fn for_signature(
        &self,
        sig: &Signature,
        build: impl FnOnce(&Signature) -> Result<C, Error>,
    ) -> Result<Arc<C>, Error> {
        self.get_or_build(sig.args.iter().cloned().collect(), sig.ret.clone(), build)
    }
}

/// A signature in Numba's spelling (`"(float64[:], int64)"`), or an argument error of
/// `function`.
pub(crate) fn parse_signature(function: &str, text: &str) -> Result<Signature, Error> {
    twinjit_ir::parse_signature(text).map_err(|e| Error::Argument {
        function: function.to_string(),
        param: None,
        message: e.to_string(),
    })
}

/// The argument error of passing a value of type `got` (`None`: not a valid value) where a
/// specialisation of `function` takes `expected`.
pub(crate) fn type_mismatch(function: &str, param: &str, expected: &Type, got: Option<Type>) -> Error {
    Error::Argument {
        function: function.to_string(),
        param: Some(param.to_string()),
        message: format!(
            "expected {}, got {}",
            expected.numba_name(),
            got.map(|t| t.numba_name()).unwrap_or_else(|| "an invalid argument".into())
        ),
    }
}

/// Checks a call of `function` with `given` positional arguments against its `params`, of which
/// the last `defaults` have defaults: how many trailing parameters take their default, or the
/// argument error (CPython's wording: a missing argument is named).
pub(crate) fn arity(function: &str, params: &[String], defaults: usize, given: usize) -> Result<usize, Error> {
    let n = params.len();
    let required = n - defaults.min(n);
    if (required..=n).contains(&given) {
        return Ok(n - given);
    }
    let (param, message) = if given < required {
        let missing: Vec<String> = params[given..required].iter().map(|p| format!("'{p}'")).collect();
        let list = match missing.as_slice() {
            [a] => a.clone(),
            [a, b] => format!("{a} and {b}"),
            [init @ .., last] => format!("{}, and {last}", init.join(", ")),
            [] => String::new(),
        };
        let s = if missing.len() == 1 { "" } else { "s" };
        (Some(params[given].clone()), format!("missing {} required argument{s}: {list}", missing.len()))
    } else {
        let takes = match (required == n, n) {
            (true, 1) => "1 argument".to_string(),
            (true, _) => format!("{n} arguments"),
            (false, _) => format!("from {required} to {n} arguments"),
        };
        (None, format!("takes {takes} ({}) but {given} were given", params.join(", ")))
    };
    Err(Error::Argument { function: function.to_string(), param, message })
}
