//! Loading a Numba module and choosing which of its functions become UDFs.

use crate::aggregate::AggregateUdf;
use crate::scalar::ScalarUdf;
use datafusion::execution::FunctionRegistry;
use datafusion::logical_expr::{AggregateUDF, ScalarUDF};
use datafusion::prelude::SessionContext;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use twinjit::ir::{ArrayType, Layout, Scalar, Signature, Type};
use twinjit::{Engine, Module};

/// Why a UDF module did not load.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The path given.
        path: String,
        /// The OS error.
        error: std::io::Error,
    },
    /// twinjit refused the module (its located diagnostic).
    #[error("{0}")]
    Twinjit(#[from] twinjit::Error),
}

/// Where a UDF comes from: the module's name and source text (what a Ballista codec ships),
/// and the function's name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The module's file name, as diagnostics show it.
    pub module_name: String,
    /// The module's source text.
    pub source: Arc<str>,
    /// The function's name in it (and the SQL name).
    pub function: String,
}

/// Equality and hashing of a UDF by where it comes from (DataFusion compares UDFs), and
/// `origin()`: its fields `origin` and `key` (the module's hash).
macro_rules! identity_by_origin {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                self.key == other.key && self.origin.function == other.origin.function
            }
        }
        impl Eq for $t {}
        impl std::hash::Hash for $t {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.key.hash(state);
                self.origin.function.hash(state);
            }
        }
        impl $t {
            /// Where the function comes from (module source and name): what a Ballista codec
            /// ships.
            pub fn origin(&self) -> &Origin {
                &self.origin
            }
        }
    };
}
pub(crate) use identity_by_origin;

/// The UDFs of one Numba module (see the crate documentation for which functions they are).
#[derive(Debug, Clone)]
pub struct UdfModule {
    scalars: Vec<ScalarUDF>,
    aggregates: Vec<AggregateUDF>,
    skipped: Vec<(String, String)>,
}

/// The name of the one-line `@vectorize` that runs an `@njit` function over a batch.
pub(crate) fn batch_name(function: &str) -> String {
    format!("__twinjit_batch_{function}")
}

impl UdfModule {
    /// Loads the module at `path` (see [`UdfModule::load`]).
    pub fn load_file(engine: &Engine, path: impl AsRef<std::path::Path>) -> Result<UdfModule, LoadError> {
        let path = path.as_ref();
        let text =
            std::fs::read_to_string(path).map_err(|error| LoadError::Io { path: path.display().to_string(), error })?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "udfs.py".into());
        UdfModule::load(engine, &name, &text)
    }

    /// Loads the Numba module `source` (named `module_name` in diagnostics) with `engine`
    /// (a host engine) and makes the UDFs of its functions. Functions that are neither (kernels,
    /// `@guvectorize`, functions of arrays that return arrays, functions that type for no
    /// numeric argument) are left out; [`UdfModule::skipped`] says why.
    pub fn load(engine: &Engine, module_name: &str, source: &str) -> Result<UdfModule, LoadError> {
        let user = engine.load(module_name, source)?;
        let parsed = user.source()?;
        let mut scalar_fns: Vec<(String, usize, bool)> = Vec::new();
        let mut aggregate_fns: Vec<(String, Vec<Signature>)> = Vec::new();
        let mut skipped = Vec::new();
        // A `@vectorize` function `f` is the ufunc `f` the front end makes, which applies the
        // decorated `def` (kept as `f.inner`, with the ufunc's specification).
        let ufuncs: std::collections::HashMap<&str, &twinjit::ir::module::UfuncSpec> = parsed
            .functions()
            .iter()
            .filter_map(|f| Some((f.name.strip_suffix(".inner")?, f.options.ufunc.as_ref()?)))
            .collect();
        for f in parsed.functions() {
            let name = f.name.as_str();
            if name.contains('.') || name.starts_with("__twinjit") {
                continue;
            }
            if f.attrs.kind != twinjit::ir::module::FunctionKind::Host {
                skipped.push((name.to_string(), format!("a {}, not a host function", f.attrs.kind.describe())));
                continue;
            }
            let arity = f.body.params().len();
            if let Some(u) = ufuncs.get(name).copied().or(f.options.ufunc.as_ref()) {
                if u.layout.is_some() || u.cuda {
                    skipped.push((name.to_string(), "a @guvectorize or CUDA ufunc".into()));
                } else {
                    scalar_fns.push((name.to_string(), arity - 1, true));
                }
                continue;
            }
            if arity == 0 {
                skipped.push((name.to_string(), "takes no arguments".into()));
                continue;
            }
            let declared = &f.attrs.signatures;
            if !declared.is_empty() {
                let scalar: Vec<Signature> = declared.iter().filter(|s| is_scalar_sig(s)).cloned().collect();
                let agg: Vec<Signature> = declared.iter().filter(|s| is_aggregate_sig(s)).cloned().collect();
                if !scalar.is_empty() {
                    scalar_fns.push((name.to_string(), arity, false));
                } else if !agg.is_empty() {
                    aggregate_fns.push((name.to_string(), agg));
                } else {
                    skipped.push((name.to_string(), "no declared signature of numbers or of one 1-D array".into()));
                }
                continue;
            }
            // Lazy: an aggregate if it types with one 1-D array and returns a number, else a
            // scalar function if it types with numbers (float64, then int64) and returns one.
            let types_to_scalar = |args: Vec<Type>| {
                parsed
                    .specialize(name, &Signature { args, ret: None }, None)
                    .ok()
                    .map(|p| matches!(p.entry().func.ret, Type::Scalar(s) if crate::arrow_types::data_type_of(s).is_some()))
                    .unwrap_or(false)
            };
            let vec1 = Type::Array(ArrayType { dtype: Scalar::Float64, ndim: 1, layout: Layout::C });
            if arity == 1 && types_to_scalar(vec![vec1]) {
                aggregate_fns.push((name.to_string(), Vec::new()));
            } else if types_to_scalar(vec![Type::F64; arity]) || types_to_scalar(vec![Type::I64; arity]) {
                scalar_fns.push((name.to_string(), arity, false));
            } else {
                skipped.push((
                    name.to_string(),
                    "types neither with numbers (a scalar UDF) nor with one 1-D array to a number (an aggregate)"
                        .into(),
                ));
            }
        }

        // The batch loops: a `@vectorize` of one line around each `@njit` scalar function,
        // appended to the module so that it calls the function as the module defines it.
        let mut batch_source = source.to_string();
        let wrapped: Vec<&(String, usize, bool)> = scalar_fns.iter().filter(|f| !f.2).collect();
        if !wrapped.is_empty() {
            batch_source.push_str("\n\nfrom numba import vectorize as __twinjit_vectorize\n");
            for (name, arity, _) in &wrapped {
                let params: Vec<String> = (0..*arity).map(|k| format!("__a{k}")).collect();
                let params = params.join(", ");
                batch_source.push_str(&format!(
                    "\n\n@__twinjit_vectorize\ndef {}({params}):\n    return {name}({params})\n",
                    batch_name(name)
                ));
            }
        }
        let batch_module: Module =
            if wrapped.is_empty() { user.clone() } else { engine.load(module_name, &batch_source)? };
        let source: Arc<str> = Arc::from(source);
        let volatile = source.contains("random");
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            module_name.hash(&mut h);
            source.hash(&mut h);
            h.finish()
        };
        let origin = |function: &str| Origin {
            module_name: module_name.to_string(),
            source: source.clone(),
            function: function.to_string(),
        };
        let mut scalars = Vec::new();
        for (name, arity, is_ufunc) in &scalar_fns {
            let batch = if *is_ufunc { name.clone() } else { batch_name(name) };
            let udf = ScalarUdf::new(origin(name), key, batch_module.clone(), &batch, *arity, volatile)?;
            scalars.push(ScalarUDF::new_from_impl(udf));
        }
        let mut aggregates = Vec::new();
        for (name, declared) in aggregate_fns {
            let udf = AggregateUdf::new(origin(&name), key, user.clone(), declared, volatile)?;
            aggregates.push(AggregateUDF::new_from_impl(udf));
        }
        Ok(UdfModule { scalars, aggregates, skipped })
    }

    /// The scalar UDFs.
    pub fn scalar_udfs(&self) -> &[ScalarUDF] {
        &self.scalars
    }

    /// The aggregate UDFs.
    pub fn aggregate_udfs(&self) -> &[AggregateUDF] {
        &self.aggregates
    }

    /// The module's functions that are not UDFs, each with why.
    pub fn skipped(&self) -> &[(String, String)] {
        &self.skipped
    }

    /// Registers every UDF with `ctx`.
    pub fn register(&self, ctx: &SessionContext) {
        for u in &self.scalars {
            ctx.register_udf(u.clone());
        }
        for u in &self.aggregates {
            ctx.register_udaf(u.clone());
        }
    }

    /// Registers every UDF with a function registry (a `SessionState`, for example).
    pub fn register_with(&self, registry: &mut dyn FunctionRegistry) -> datafusion::error::Result<()> {
        for u in &self.scalars {
            registry.register_udf(Arc::new(u.clone()))?;
        }
        for u in &self.aggregates {
            registry.register_udaf(Arc::new(u.clone()))?;
        }
        Ok(())
    }
}

fn is_number(t: &Type) -> bool {
    matches!(t, Type::Scalar(s) if crate::arrow_types::data_type_of(*s).is_some())
}

fn is_scalar_sig(s: &Signature) -> bool {
    s.args.iter().all(is_number) && s.ret.as_ref().is_none_or(is_number)
}

fn is_aggregate_sig(s: &Signature) -> bool {
    matches!(&s.args[..], [Type::Array(a)] if a.ndim == 1 && crate::arrow_types::data_type_of(a.dtype).is_some())
        && s.ret.as_ref().is_none_or(is_number)
}
