//! The dispatcher skeleton both targets share: one table of compiled specialisations per
//! function, keyed by argument types (Numba's dispatcher). A target's handle
//! ([`crate::Function`] on the host, `Kernel` on CUDA) turns call arguments into types through
//! [`CallArg`], and builds a missing specialisation with its own backend; everything else (arity,
//! argument errors, signatures in Numba's spelling, compile-once) lives here.

use crate::error::Error;
use crate::spec_table::{SpecTable, Types};
use std::sync::Arc;
use twinjit_ir::{Signature, Type};

/// A call argument as the dispatcher sees it: its type, or why it cannot be passed.
pub(crate) trait CallArg {
    /// The argument's type, or the message of an argument error.
    fn arg_type(&self) -> Result<Type, String>;
}

/// The compiled specialisations of one function.
pub(crate) struct Dispatcher<C> {
    pub(crate) name: String,
    pub(crate) params: Vec<String>,
    pub(crate) specs: SpecTable<C>,
}

impl<C> Dispatcher<C> {
    pub(crate) fn new(name: String, params: Vec<String>) -> Self {
        Dispatcher { name, params, specs: SpecTable::default() }
    }

    /// The error for a call with `given` arguments, when that is not the parameter count.
    pub(crate) fn check_arity(&self, given: usize) -> Result<(), Error> {
        let n = self.params.len();
        if given == n {
            return Ok(());
        }
        Err(Error::Argument {
            function: self.name.clone(),
            param: None,
            message: format!(
                "takes {n} argument{} ({}) but {given} were given",
                if n == 1 { "" } else { "s" },
                self.params.join(", ")
            ),
        })
    }

    /// The argument types of a call: its arity checked, each argument typed or refused with an
    /// error naming its parameter.
    pub(crate) fn arg_types(&self, args: &[impl CallArg]) -> Result<Types, Error> {
        self.check_arity(args.len())?;
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
