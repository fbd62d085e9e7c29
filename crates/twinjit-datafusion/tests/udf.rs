//! twinjit UDFs in DataFusion queries, checked against DataFusion's own evaluation of the
//! equivalent SQL (built-in functions and CASE), and against Numba's results where SQL cannot
//! express the function (values printed by `python tests/udfs/pricing.py` under Numba 0.68).

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Float32Array, Float64Array, Int32Array, Int64Array, RecordBatch,
    StringArray,
};
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};
use datafusion::prelude::SessionContext;
use std::sync::Arc;
use twinjit_datafusion::{UdfError, UdfModule};

const PRICING: &str = include_str!("udfs/pricing.py");

fn engine() -> twinjit::Engine {
    twinjit::Engine::new(twinjit::Target::Host).unwrap()
}

/// A table `t` of `n` rows: floats with some nulls, ints, a group key.
fn table(n: usize) -> RecordBatch {
    let a: Float64Array = (0..n).map(|i| if i % 7 == 3 { None } else { Some((i as f64) * 0.37 - 11.0) }).collect();
    let b: Float64Array = (0..n).map(|i| Some(((i * 31) % 17) as f64 * 1.5 - 4.0)).collect();
    // Zero where `a` is null: the UDF must not run on those rows (ratio would raise).
    let d: Float64Array = (0..n).map(|i| Some(if i % 7 == 3 { 0.0 } else { 1.0 + (i % 5) as f64 })).collect();
    let income: Float64Array = (0..n).map(|i| Some((i as f64) * 1733.0 % 210000.0)).collect();
    let k: Int32Array = (0..n).map(|i| Some((i % 4) as i32)).collect();
    let small: Int32Array = (0..n).map(|i| Some((i as i32 % 23) - 6)).collect();
    let f32s: Float32Array = (0..n).map(|i| Some(i as f32 * 0.5)).collect();
    let name: StringArray = (0..n).map(|i| Some(format!("r{i}"))).collect();
    let cols: Vec<(&str, ArrayRef)> = vec![
        ("a", Arc::new(a)),
        ("b", Arc::new(b)),
        ("d", Arc::new(d)),
        ("income", Arc::new(income)),
        ("k", Arc::new(k)),
        ("small", Arc::new(small)),
        ("f", Arc::new(f32s)),
        ("name", Arc::new(name)),
    ];
    RecordBatch::try_from_iter(cols).unwrap()
}

async fn session(n: usize) -> SessionContext {
    let ctx = SessionContext::new();
    let udfs = UdfModule::load(&engine(), "pricing.py", PRICING).unwrap();
    udfs.register(&ctx);
    ctx.register_batch("t", table(n)).unwrap();
    ctx
}

/// The query's result columns, in one array each.
async fn columns(ctx: &SessionContext, sql: &str) -> Vec<ArrayRef> {
    let batches = ctx.sql(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}")).collect().await.unwrap();
    let schema = batches[0].schema();
    (0..schema.fields().len())
        .map(|c| {
            let parts: Vec<&dyn Array> = batches.iter().map(|b| b.column(c).as_ref()).collect();
            datafusion::arrow::compute::concat(&parts).unwrap()
        })
        .collect()
}

async fn error(ctx: &SessionContext, sql: &str) -> datafusion::error::DataFusionError {
    match ctx.sql(sql).await {
        Err(e) => e,
        Ok(df) => df.collect().await.expect_err(sql),
    }
}

#[test]
fn module_functions_become_udfs() {
    let udfs = UdfModule::load(&engine(), "pricing.py", PRICING).unwrap();
    let mut scalars: Vec<&str> = udfs.scalar_udfs().iter().map(|u| u.name()).collect();
    scalars.sort();
    assert_eq!(scalars, ["checked_sqrt", "clamp", "collatz_steps", "hypot2", "is_outlier", "lerp", "ratio", "tax_due"]);
    let mut aggs: Vec<&str> = udfs.aggregate_udfs().iter().map(|u| u.name()).collect();
    aggs.sort();
    assert_eq!(aggs, ["count_above", "rms", "value_range"]);
    let skipped: Vec<&str> = udfs.skipped().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(skipped, ["smooth"]);
}

#[tokio::test]
async fn hypot_equals_the_sql_expression_and_nulls_propagate() {
    let ctx = session(5000).await;
    let c = columns(&ctx, "SELECT hypot2(a, b), sqrt(a * a + b * b), a FROM t").await;
    assert_eq!(c[0].data_type(), &DataType::Float64);
    assert_eq!(c[0].as_ref(), c[1].as_ref(), "same bits and the same nulls as DataFusion's expression");
    assert!(c[0].null_count() > 0);
    assert_eq!(c[0].logical_nulls(), c[2].logical_nulls());
}

#[tokio::test]
async fn piecewise_function_equals_the_case_expression() {
    let ctx = session(4000).await;
    let c = columns(
        &ctx,
        "SELECT tax_due(income),
                CASE WHEN income <= 12570.0 THEN 0.0
                     WHEN income <= 50270.0 THEN (income - 12570.0) * 0.2
                     WHEN income <= 125140.0 THEN 7540.0 + (income - 50270.0) * 0.4
                     ELSE 7540.0 + 29948.0 + (income - 125140.0) * 0.45 END
         FROM t",
    )
    .await;
    assert_eq!(c[0].as_ref(), c[1].as_ref());
}

#[tokio::test]
async fn literals_broadcast_and_integers_keep_numba_types() {
    let ctx = session(300).await;
    let c = columns(
        &ctx,
        "SELECT lerp(a, b, 0.25), a + (b - a) * 0.25, clamp(small, 0, 10), least(greatest(small, 0), 10) FROM t",
    )
    .await;
    assert_eq!(c[0].as_ref(), c[1].as_ref());
    // int32 column with int64 literals: Numba's min/max of int32 and int64 is int64.
    assert_eq!(c[2].data_type(), &DataType::Int64);
    let want = datafusion::arrow::compute::cast(&c[3], &DataType::Int64).unwrap();
    assert_eq!(c[2].as_ref(), want.as_ref());
    // Every argument a literal: one value.
    let c = columns(&ctx, "SELECT hypot2(3.0, 4.0), collatz_steps(27), clamp(15, 0, 10)").await;
    assert_eq!(c[0].as_primitive::<Float64Type>().value(0), 5.0);
    assert_eq!(c[1].as_primitive::<Int64Type>().value(0), 111);
    assert_eq!(c[2].as_primitive::<Int64Type>().value(0), 10);
}

#[tokio::test]
async fn boolean_results_and_declared_signatures() {
    let ctx = session(1000).await;
    let c = columns(&ctx, "SELECT is_outlier(a, 0.0, 3.0), abs(a - 0.0) > 3.0 * 3.0 FROM t").await;
    assert_eq!(c[0].data_type(), &DataType::Boolean);
    assert_eq!(c[0].as_ref(), c[1].as_ref());
    // `@njit("int64(int64)")` on an int32 column: converted to its declared signature.
    let c = columns(&ctx, "SELECT collatz_steps(CAST(k AS INT) + 1) FROM t LIMIT 4").await;
    assert_eq!(c[0].as_ref(), &Int64Array::from(vec![0, 1, 7, 2]) as &dyn Array);
    // NumPy's loop choice for the signature list [float64, float32]: the first loop float32
    // casts to safely, so float32 columns give float64 (as Numba's ufunc does).
    let c = columns(&ctx, "SELECT hypot2(f, f), arrow_typeof(hypot2(f, f)) FROM t LIMIT 3").await;
    assert_eq!(c[0].data_type(), &DataType::Float64);
    let expected: Float64Array = (0..3).map(|i| Some(((i as f64 * 0.5) * 2.0f64.sqrt()).max(0.0))).collect();
    let got = c[0].as_primitive::<Float64Type>();
    for i in 0..3 {
        assert!((got.value(i) - expected.value(i)).abs() < 1e-12);
    }
}

#[tokio::test]
async fn null_rows_are_not_computed() {
    let ctx = session(700).await;
    // `d` is 0.0 exactly where `a` is null: computed on those rows, ratio would raise.
    let c = columns(&ctx, "SELECT ratio(a, d), a / d FROM t").await;
    assert_eq!(c[0].as_ref(), c[1].as_ref());
    // A NULL literal: every row null.
    let c = columns(&ctx, "SELECT hypot2(a, NULL) FROM t").await;
    assert_eq!(c[0].null_count(), 700);
}

#[tokio::test]
async fn an_exception_in_a_row_fails_the_query_with_the_function_line_and_row() {
    let ctx = session(50).await;
    let e = error(&ctx, "SELECT ratio(b, b - b) FROM t").await;
    let u = UdfError::find(&e).unwrap_or_else(|| panic!("not a UdfError: {e}"));
    assert_eq!(u.function, "ratio");
    assert_eq!(u.row, Some((0, 50)));
    assert_eq!(u.source.python_exception(), Some("ZeroDivisionError"));
    let msg = u.to_string();
    assert!(msg.contains("ZeroDivisionError: division by zero"), "{msg}");
    assert!(msg.contains("pricing.py:36"), "names the source line: {msg}");
    assert!(msg.contains("ratio(-4.0, 0.0)"), "names the arguments: {msg}");

    // A `raise` in the function (a + 10 < 0 from the first row), with nulls in the batch.
    let e = error(&ctx, "SELECT checked_sqrt(a + 10.0) FROM t").await;
    let u = UdfError::find(&e).unwrap();
    assert_eq!(u.source.python_exception(), Some("ValueError"));
    assert_eq!(u.row, Some((0, 50)), "{u}");
    assert!(u.to_string().contains("negative input"), "{u}");
}

#[tokio::test]
async fn planning_errors_are_clear() {
    let ctx = session(10).await;
    let e = error(&ctx, "SELECT hypot2(name, a) FROM t").await.to_string();
    assert!(e.contains("twinjit UDF `hypot2` takes numbers and booleans, not (Utf8, Float64)"), "{e}");
    let e = error(&ctx, "SELECT tax_due(a, b) FROM t").await.to_string();
    assert!(e.contains("twinjit UDF `tax_due` takes 1 argument, got 2"), "{e}");
    let e = error(&ctx, "SELECT rms(name) FROM t").await.to_string();
    assert!(e.contains("twinjit aggregate `rms` takes numbers and booleans, not Utf8"), "{e}");
}

#[tokio::test]
async fn aggregates_run_per_group_and_equal_sql() {
    let ctx = session(3000).await;
    let c = columns(
        &ctx,
        "SELECT k, value_range(a), max(a) - min(a), count_above(income), count(CASE WHEN income > 100 THEN 1 END),
                rms(b), sqrt(avg(b * b))
         FROM t GROUP BY k ORDER BY k",
    )
    .await;
    assert_eq!(c[0].len(), 4);
    assert_eq!(c[1].as_ref(), c[2].as_ref(), "value_range = max - min, nulls skipped");
    let counts = datafusion::arrow::compute::cast(&c[4], &DataType::Int64).unwrap();
    assert_eq!(c[3].as_ref(), counts.as_ref());
    let (r, s) = (c[5].as_primitive::<Float64Type>(), c[6].as_primitive::<Float64Type>());
    for i in 0..4 {
        // Summation order differs (Numba's loop against DataFusion's partial sums).
        assert!((r.value(i) - s.value(i)).abs() <= 1e-12 * s.value(i).abs(), "{} vs {}", r.value(i), s.value(i));
    }
    // A group with only nulls gives NULL (the function is not called on an empty array).
    let c = columns(&ctx, "SELECT value_range(a) FROM t WHERE a IS NULL").await;
    assert_eq!(c[0].null_count(), 1);
}

#[tokio::test]
async fn aggregates_over_many_groups_and_partitions() {
    let ctx = session(20_000).await;
    // Many small groups, several partitions, and DataFusion told to skip partial aggregation
    // early: every path of the groups accumulator (update, state, merge, convert_to_state).
    ctx.sql("SET datafusion.execution.target_partitions = 4").await.unwrap();
    ctx.sql("SET datafusion.execution.skip_partial_aggregation_probe_rows_threshold = 100").await.unwrap();
    ctx.sql("SET datafusion.execution.skip_partial_aggregation_probe_ratio_threshold = 0.01").await.unwrap();
    let c = columns(
        &ctx,
        "SELECT value_range(a), max(a) - min(a), count_above(b * 40.0), count(CASE WHEN b * 40.0 > 100 THEN 1 END)
         FROM (SELECT * FROM t UNION ALL SELECT * FROM t) GROUP BY CAST(income AS BIGINT) % 3001 ORDER BY CAST(income AS BIGINT) % 3001",
    )
    .await;
    assert_eq!(c[0].len(), 3001);
    assert_eq!(c[0].as_ref(), c[1].as_ref());
    let counts = datafusion::arrow::compute::cast(&c[3], &DataType::Int64).unwrap();
    assert_eq!(c[2].as_ref(), counts.as_ref());
}

#[tokio::test]
async fn boolean_columns_pass_to_udfs() {
    let ctx = SessionContext::new();
    let src = "from numba import njit\n\n@njit\ndef pick(flag, x, y):\n    return x if flag else y\n\n@njit\ndef n_true(v):\n    n = 0\n    for b in v:\n        if b:\n            n += 1\n    return n\n";
    UdfModule::load(&engine(), "flags.py", src).unwrap().register(&ctx);
    let flag: BooleanArray = (0..100).map(|i| Some(i % 3 == 0)).collect();
    let x: Float64Array = (0..100).map(|i| Some(i as f64)).collect();
    let batch =
        RecordBatch::try_from_iter(vec![("flag", Arc::new(flag) as ArrayRef), ("x", Arc::new(x) as ArrayRef)]).unwrap();
    ctx.register_batch("f", batch).unwrap();
    let c = columns(&ctx, "SELECT pick(flag, x, -x), CASE WHEN flag THEN x ELSE -x END FROM f").await;
    assert_eq!(c[0].as_ref(), c[1].as_ref());
    let c = columns(&ctx, "SELECT n_true(flag), count(CASE WHEN flag THEN 1 END) FROM f").await;
    assert_eq!(c[0].as_primitive::<Int64Type>().value(0), 34);
    assert_eq!(c[1].as_primitive::<Int64Type>().value(0), 34);
}
