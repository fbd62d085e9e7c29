//! A Numba function of one 1-D array that returns a number, as a DataFusion aggregate UDF.

use crate::arrow_types::{coerce_lazy, data_type_of, scalar_of, value_to_scalar, Held};
use crate::error::{plan_error, UdfError};
use crate::module::Origin;
use datafusion::arrow::array::{Array, ArrayRef, AsArray, BooleanArray, ListArray, PrimitiveArray};
use datafusion::arrow::buffer::OffsetBuffer;
use datafusion::arrow::compute::{concat, filter};
use datafusion::arrow::datatypes::*;
use datafusion::common::{plan_err, Result, ScalarValue};
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use datafusion::logical_expr::{Accumulator, AggregateUDFImpl, EmitTo, GroupsAccumulator, Signature, Volatility};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use twinjit::ir::{ArrayType, Layout, Type};
use twinjit::{Module, Value};

/// An aggregate UDF over a Numba function of one 1-D array: each group's non-null values are
/// gathered into one contiguous array and the compiled function runs on it once.
#[derive(Debug)]
pub struct AggregateUdf {
    origin: Origin,
    key: u64,
    module: Module,
    func: twinjit::Function,
    declared: Vec<twinjit::ir::Signature>,
    signature: Signature,
    returns: Mutex<HashMap<DataType, DataType>>,
}

crate::module::identity_by_origin!(AggregateUdf);

fn vector(dtype: twinjit::ir::Scalar) -> Type {
    Type::Array(ArrayType { dtype, ndim: 1, layout: Layout::C })
}

impl AggregateUdf {
    pub(crate) fn new(
        origin: Origin,
        key: u64,
        module: Module,
        declared: Vec<twinjit::ir::Signature>,
        volatile: bool,
    ) -> Result<AggregateUdf, twinjit::Error> {
        let func = module.function(&origin.function)?;
        let volatility = if volatile { Volatility::Volatile } else { Volatility::Immutable };
        Ok(AggregateUdf {
            origin,
            key,
            module,
            func,
            declared,
            signature: Signature::user_defined(volatility),
            returns: Mutex::new(HashMap::new()),
        })
    }

    fn name_(&self) -> &str {
        &self.origin.function
    }
}

impl AggregateUDFImpl for AggregateUdf {
    fn name(&self) -> &str {
        &self.origin.function
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let [t] = arg_types else {
            return plan_err!("twinjit aggregate `{}` takes one column, got {}", self.name_(), arg_types.len());
        };
        let Some(lazy) = coerce_lazy(t) else {
            return plan_err!("twinjit aggregate `{}` takes numbers and booleans, not {t}", self.name_());
        };
        if self.declared.is_empty() {
            return Ok(vec![lazy]);
        }
        let k = twinjit::ir::typing::pick_signature(&self.declared, &[vector(scalar_of(&lazy).unwrap())]);
        match k.map(|k| &self.declared[k].args[0]) {
            Some(Type::Array(a)) => Ok(vec![data_type_of(a.dtype).unwrap()]),
            _ => {
                let sigs: Vec<String> = self.declared.iter().map(|s| s.to_string()).collect();
                plan_err!(
                    "twinjit aggregate `{}` has no declared signature for a column of {t}; it declares {}",
                    self.name_(),
                    sigs.join(", ")
                )
            }
        }
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [t] = arg_types else { return plan_err!("twinjit aggregate `{}` takes one column", self.name_()) };
        if let Some(r) = self.returns.lock().unwrap().get(t) {
            return Ok(r.clone());
        }
        let Some(s) = scalar_of(t) else {
            return plan_err!("twinjit aggregate `{}` takes numbers, not {t}", self.name_());
        };
        let program = self
            .module
            .source()
            .and_then(|m| {
                m.specialize(self.name_(), &twinjit::ir::Signature { args: vec![vector(s)], ret: None }, None)
            })
            .map_err(|e| plan_error(self.name_(), &e))?;
        let ret = match &program.entry().func.ret {
            Type::Scalar(r) => data_type_of(*r),
            _ => None,
        };
        let Some(ret) = ret else {
            return plan_err!(
                "twinjit aggregate `{}` returns {:?} for a {} column, not a number",
                self.name_(),
                program.entry().func.ret,
                t
            );
        };
        self.returns.lock().unwrap().insert(t.clone(), ret.clone());
        Ok(ret)
    }

    fn accumulator(&self, acc_args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        let input = acc_args.expr_fields.first().map(|f| f.data_type().clone()).unwrap_or(DataType::Float64);
        Ok(Box::new(Gather {
            func: self.func.clone(),
            name: self.origin.function.clone(),
            input,
            ret: acc_args.return_type().clone(),
            chunks: Vec::new(),
            bytes: 0,
        }))
    }

    fn groups_accumulator_supported(&self, args: AccumulatorArgs) -> bool {
        args.expr_fields.first().is_some_and(|f| f.data_type().is_primitive())
    }

    fn create_groups_accumulator(&self, args: AccumulatorArgs) -> Result<Box<dyn GroupsAccumulator>> {
        let input = args.expr_fields.first().map(|f| f.data_type().clone()).unwrap_or(DataType::Float64);
        let ret = args.return_type().clone();
        let (func, name) = (self.func.clone(), self.origin.function.clone());
        macro_rules! per_type {
            ($($dt:ident => $t:ty),*) => {
                match &input {
                    $(DataType::$dt => Ok(Box::new(Groups::<$t> { func, name, ret, groups: Vec::new() })),)*
                    other => plan_err!("twinjit aggregate `{}` cannot group a column of {other}", self.name_()),
                }
            };
        }
        per_type!(Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
                  UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
                  Float32 => Float32Type, Float64 => Float64Type)
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        let input = args.input_fields.first().map(|f| f.data_type().clone()).unwrap_or(DataType::Float64);
        let item = Field::new_list_field(input, true);
        Ok(vec![Arc::new(Field::new(format_state_name(args.name, "values"), DataType::List(Arc::new(item)), true))])
    }
}

/// Every group's values at once (DataFusion's `GroupsAccumulator`): one pass over a batch
/// appends each non-null value to its group's vector, and the function runs once per group on
/// it. The plain [`Accumulator`] below serves boolean columns.
struct Groups<T: ArrowPrimitiveType> {
    func: twinjit::Function,
    name: String,
    ret: DataType,
    groups: Vec<Vec<T::Native>>,
}

impl<T: ArrowPrimitiveType> std::fmt::Debug for Groups<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Groups({}, {} groups)", self.name, self.groups.len())
    }
}

impl<T: ArrowPrimitiveType> Groups<T>
where
    T::Native: twinjit::Element,
{
    fn append(&mut self, a: &PrimitiveArray<T>, group_indices: &[usize], filter: Option<&BooleanArray>, total: usize) {
        if self.groups.len() < total {
            self.groups.resize_with(total, Vec::new);
        }
        let values = a.values();
        match (a.logical_nulls().filter(|n| n.null_count() > 0), filter) {
            (None, None) => {
                for (&g, &v) in group_indices.iter().zip(values.iter()) {
                    self.groups[g].push(v);
                }
            }
            (nulls, filter) => {
                for (i, (&g, &v)) in group_indices.iter().zip(values.iter()).enumerate() {
                    let keep = nulls.as_ref().is_none_or(|n| n.is_valid(i))
                        && filter.is_none_or(|f| f.is_valid(i) && f.value(i));
                    if keep {
                        self.groups[g].push(v);
                    }
                }
            }
        }
    }
}

impl<T: ArrowPrimitiveType> GroupsAccumulator for Groups<T>
where
    T::Native: twinjit::Element,
{
    fn update_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        opt_filter: Option<&BooleanArray>,
        total_num_groups: usize,
    ) -> Result<()> {
        self.append(values[0].as_primitive::<T>(), group_indices, opt_filter, total_num_groups);
        Ok(())
    }

    fn merge_batch(&mut self, values: &[ArrayRef], group_indices: &[usize], total_num_groups: usize) -> Result<()> {
        if self.groups.len() < total_num_groups {
            self.groups.resize_with(total_num_groups, Vec::new);
        }
        let lists = values[0].as_list::<i32>();
        for (row, &g) in group_indices.iter().enumerate() {
            if lists.is_valid(row) {
                let inner = lists.value(row);
                let inner = inner.as_primitive::<T>();
                match inner.logical_nulls().filter(|n| n.null_count() > 0) {
                    None => self.groups[g].extend_from_slice(inner.values()),
                    Some(n) => self.groups[g].extend(n.valid_indices().map(|i| inner.value(i))),
                }
            }
        }
        Ok(())
    }

    fn evaluate(&mut self, emit_to: EmitTo) -> Result<ArrayRef> {
        let groups = emit_to.take_needed(&mut self.groups);
        let mut out = Vec::with_capacity(groups.len());
        for v in &groups {
            // SQL's aggregates give NULL for a group without values; the function is not called.
            if v.is_empty() {
                out.push(ScalarValue::try_from(&self.ret)?);
                continue;
            }
            crate::count_rows(v.len());
            match self.func.call::<Value>((v.as_slice(),)) {
                Ok(r) => out.push(value_to_scalar(r, &self.ret)?),
                Err(e) => {
                    return Err(
                        UdfError { function: self.name.clone(), row: None, arguments: None, source: e }.into_df()
                    )
                }
            }
        }
        if out.is_empty() {
            return Ok(datafusion::arrow::array::new_empty_array(&self.ret));
        }
        ScalarValue::iter_to_array(out)
    }

    fn state(&mut self, emit_to: EmitTo) -> Result<Vec<ArrayRef>> {
        let groups = emit_to.take_needed(&mut self.groups);
        let lengths: Vec<usize> = groups.iter().map(Vec::len).collect();
        // One exact allocation and a copy per group (a flattening iterator grows the vector
        // as it goes and copies element by element).
        let mut values: Vec<T::Native> = Vec::with_capacity(lengths.iter().sum());
        for g in &groups {
            values.extend_from_slice(g);
        }
        drop(groups);
        let values = PrimitiveArray::<T>::new(values.into(), None);
        let item = Arc::new(Field::new_list_field(T::DATA_TYPE, true));
        let list = ListArray::new(item, OffsetBuffer::from_lengths(lengths), Arc::new(values), None);
        Ok(vec![Arc::new(list)])
    }

    fn convert_to_state(&self, values: &[ArrayRef], opt_filter: Option<&BooleanArray>) -> Result<Vec<ArrayRef>> {
        // Each row its own group: a list of its value, or an empty list (null or filtered out).
        let a = values[0].as_primitive::<T>();
        let nulls = a.logical_nulls();
        let keep = |i: usize| {
            nulls.as_ref().is_none_or(|n| n.is_valid(i)) && opt_filter.is_none_or(|f| f.is_valid(i) && f.value(i))
        };
        let lengths: Vec<usize> = (0..a.len()).map(|i| usize::from(keep(i))).collect();
        let kept: Vec<T::Native> = (0..a.len()).filter(|&i| keep(i)).map(|i| a.value(i)).collect();
        let item = Arc::new(Field::new_list_field(T::DATA_TYPE, true));
        let values = Arc::new(PrimitiveArray::<T>::new(kept.into(), None));
        Ok(vec![Arc::new(ListArray::new(item, OffsetBuffer::from_lengths(lengths), values, None))])
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
            + self.groups.capacity() * std::mem::size_of::<Vec<T::Native>>()
            + self.groups.iter().map(|g| g.capacity() * std::mem::size_of::<T::Native>()).sum::<usize>()
    }
}

/// One group's values, kept as the Arrow chunks they came in (nulls removed) until the end.
#[derive(Debug)]
struct Gather {
    func: twinjit::Function,
    name: String,
    input: DataType,
    ret: DataType,
    chunks: Vec<ArrayRef>,
    bytes: usize,
}

impl Gather {
    fn push(&mut self, a: ArrayRef) -> Result<()> {
        let a = match a.logical_nulls() {
            Some(n) if n.null_count() > 0 => filter(a.as_ref(), &BooleanArray::new(n.inner().clone(), None))?,
            _ => a,
        };
        if !a.is_empty() {
            self.bytes += a.get_array_memory_size();
            self.chunks.push(a);
        }
        Ok(())
    }

    fn values(&mut self) -> Result<ArrayRef> {
        if self.chunks.len() != 1 {
            let parts: Vec<&dyn Array> = self.chunks.iter().map(|a| a.as_ref()).collect();
            let all =
                if parts.is_empty() { datafusion::arrow::array::new_empty_array(&self.input) } else { concat(&parts)? };
            self.chunks = vec![all];
        }
        Ok(self.chunks[0].clone())
    }
}

impl Accumulator for Gather {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        self.push(values[0].clone())
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists = states[0].as_list::<i32>();
        for inner in lists.iter().flatten() {
            self.push(inner)?;
        }
        Ok(())
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let values = self.values()?;
        let item = Arc::new(Field::new_list_field(self.input.clone(), true));
        let list = ListArray::new(item, OffsetBuffer::from_lengths([values.len()]), values, None);
        Ok(vec![ScalarValue::List(Arc::new(list))])
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let values = self.values()?;
        // SQL's aggregates give NULL for a group without values; the function is not called.
        if values.is_empty() {
            return ScalarValue::try_from(&self.ret);
        }
        let held = Held::from_array(values);
        crate::count_rows(match &held {
            Held::Array(a) => a.len(),
            Held::Bools(b) => b.len(),
            Held::Scalar(_) => 1,
        });
        let arg = held.arg()?;
        match self.func.call::<Value>(std::slice::from_ref(&arg)) {
            Ok(v) => value_to_scalar(v, &self.ret),
            Err(e) => Err(UdfError { function: self.name.clone(), row: None, arguments: None, source: e }.into_df()),
        }
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self) + self.bytes
    }
}
