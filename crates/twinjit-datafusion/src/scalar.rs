//! A Numba scalar function (or `@vectorize` ufunc) as a DataFusion scalar UDF.

use crate::arrow_types::{build_output, coerce_lazy, data_type_of, python_repr, scalar_of, Held};
use crate::error::{plan_error, UdfError};
use crate::module::Origin;
use datafusion::arrow::array::{Array, ArrayRef, BooleanArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::compute::filter;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{plan_err, Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility};
use std::collections::HashMap;
use std::sync::Mutex;
use twinjit::ir::{ArrayType, Layout, Type};
use twinjit::{ArgValue, Ignored, Module, Value};

/// A scalar UDF over a Numba function: see the crate documentation.
#[derive(Debug)]
pub struct ScalarUdf {
    origin: Origin,
    key: u64,
    /// The module with the batch loops, and the ufunc that runs this function over a batch.
    module: Module,
    batch: twinjit::Function,
    batch_name: String,
    arity: usize,
    signature: Signature,
    /// Result types found for argument types (typing runs once per combination).
    returns: Mutex<HashMap<Vec<DataType>, DataType>>,
}

crate::module::identity_by_origin!(ScalarUdf);

impl ScalarUdf {
    pub(crate) fn new(
        origin: Origin,
        key: u64,
        module: Module,
        batch_name: &str,
        arity: usize,
        volatile: bool,
    ) -> Result<ScalarUdf, twinjit::Error> {
        let batch = module.function(batch_name)?;
        let volatility = if volatile { Volatility::Volatile } else { Volatility::Immutable };
        Ok(ScalarUdf {
            origin,
            key,
            module,
            batch,
            batch_name: batch_name.to_string(),
            arity,
            signature: Signature::user_defined(volatility),
            returns: Mutex::new(HashMap::new()),
        })
    }

    fn name_(&self) -> &str {
        &self.origin.function
    }

    /// The result type for arguments of these (coerced) Arrow types.
    fn result_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        if let Some(t) = self.returns.lock().unwrap().get(arg_types) {
            return Ok(t.clone());
        }
        let scalars: Vec<_> = arg_types.iter().map(scalar_of).collect::<Option<_>>().ok_or_else(|| {
            datafusion::error::DataFusionError::Plan(format!(
                "twinjit UDF `{}` takes numbers, not ({})",
                self.name_(),
                list(arg_types)
            ))
        })?;
        // The ufunc's result for 1-D arrays of these types is an array of the result dtype:
        // typing applies Numba's choice of loop (the first declared one the inputs cast to
        // safely, as NumPy) or of the `@njit` function's declared signature.
        let args = scalars.iter().map(|&dtype| Type::Array(ArrayType { dtype, ndim: 1, layout: Layout::C })).collect();
        let program = self
            .module
            .source()
            .and_then(|s| s.specialize(&self.batch_name, &twinjit::ir::Signature { args, ret: None }, None))
            .map_err(|e| plan_error(self.name_(), &e))?;
        let ret = match &program.entry().func.ret {
            Type::Array(a) => a.dtype,
            Type::Scalar(s) => *s,
            other => return plan_err!("twinjit UDF `{}` returns {other:?}, not a number", self.name_()),
        };
        let dt = data_type_of(ret).ok_or_else(|| {
            datafusion::error::DataFusionError::Plan(format!(
                "twinjit UDF `{}` returns {}, which SQL has no type for",
                self.name_(),
                Type::Scalar(ret).numba_name()
            ))
        })?;
        self.returns.lock().unwrap().insert(arg_types.to_vec(), dt.clone());
        Ok(dt)
    }

    /// Calls the batch loop on `held` (all of `len` rows), writing into an Arrow array of `dt`.
    fn run(&self, held: &[Held], len: usize, dt: &DataType, nulls: Option<NullBuffer>) -> Result<ArrayRef> {
        let args: Vec<ArgValue<'_>> = held.iter().map(Held::arg).collect::<Result<_>>()?;
        let places = nulls.clone();
        let out = build_output(dt, len, nulls, &mut |out| {
            let all: Vec<ArgValue<'_>> = args.iter().cloned().chain(std::iter::once(out)).collect();
            self.batch
                .call::<Ignored>(all.as_slice())
                .map(|_| ())
                .map_err(|e| self.locate(held, len, places.as_ref(), e))
        })?;
        crate::count_rows(len);
        Ok(out)
    }

    /// The error of a batch, with the first row that fails on its own (found by calling the
    /// function on each row's scalars: only on this error path). `held` has the `len` rows
    /// without nulls; `nulls` says where they are in the batch.
    fn locate(
        &self,
        held: &[Held],
        len: usize,
        nulls: Option<&NullBuffer>,
        error: twinjit::Error,
    ) -> datafusion::error::DataFusionError {
        let batch_len = nulls.map_or(len, |n| n.len());
        let mut places = nulls.map(|n| n.valid_indices());
        for i in 0..len {
            let place = places.as_mut().and_then(|p| p.next()).unwrap_or(i);
            let Ok(row) = held.iter().map(|h| h.row(i)).collect::<Result<Vec<_>>>() else { break };
            if let Err(e) = self.batch.call::<Value>(row.as_slice()) {
                let arguments = row.iter().map(python_repr).collect::<Vec<_>>().join(", ");
                return UdfError {
                    function: self.name_().to_string(),
                    row: Some((place, batch_len)),
                    arguments: Some(arguments),
                    source: e,
                }
                .into_df();
            }
        }
        UdfError { function: self.name_().to_string(), row: None, arguments: None, source: error }.into_df()
    }
}

fn list(types: &[DataType]) -> String {
    types.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
}

impl ScalarUDFImpl for ScalarUdf {
    fn name(&self) -> &str {
        &self.origin.function
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() != self.arity {
            return plan_err!(
                "twinjit UDF `{}` takes {} argument{}, got {}",
                self.name_(),
                self.arity,
                if self.arity == 1 { "" } else { "s" },
                arg_types.len()
            );
        }
        let lazy: Vec<DataType> = arg_types.iter().map(coerce_lazy).collect::<Option<_>>().ok_or_else(|| {
            datafusion::error::DataFusionError::Plan(format!(
                "twinjit UDF `{}` takes numbers and booleans, not ({})",
                self.name_(),
                list(arg_types)
            ))
        })?;
        Ok(lazy)
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        self.result_type(arg_types)
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let n = args.number_rows;
        let dt = args.return_field.data_type().clone();
        // A NULL literal makes every row null; literals otherwise broadcast in the loop.
        if args.args.iter().any(|a| matches!(a, ColumnarValue::Scalar(s) if s.is_null())) {
            return Ok(ColumnarValue::Scalar(ScalarValue::try_from(&dt)?));
        }
        let all_scalars = args.args.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let mut nulls: Option<NullBuffer> = None;
        for a in &args.args {
            if let ColumnarValue::Array(a) = a {
                nulls = NullBuffer::union(nulls.as_ref(), a.logical_nulls().as_ref());
            }
        }
        let nulls = nulls.filter(|n| n.null_count() > 0);
        let mask = nulls.as_ref().map(|n| BooleanArray::new(n.inner().clone(), None));
        let held: Vec<Held> = args
            .args
            .into_iter()
            .map(|a| match a {
                ColumnarValue::Scalar(s) if all_scalars => s.to_array_of_size(1).map(Held::from_array),
                ColumnarValue::Scalar(s) => Ok(Held::Scalar(s)),
                // Only the rows without a null are computed: the function never sees a null's
                // (arbitrary) value, so it cannot raise or loop on one.
                ColumnarValue::Array(a) => match &mask {
                    Some(m) => Ok(Held::from_array(filter(a.as_ref(), m)?)),
                    None => Ok(Held::from_array(a)),
                },
            })
            .collect::<Result<_>>()?;
        if all_scalars {
            let out = self.run(&held, 1, &dt, None)?;
            return Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(out.as_ref(), 0)?));
        }
        let valid = nulls.as_ref().map_or(n, |m| n - m.null_count());
        Ok(ColumnarValue::Array(self.run(&held, valid, &dt, nulls)?))
    }
}
