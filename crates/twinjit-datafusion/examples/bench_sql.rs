//! The UDF benchmark of BENCHMARKS.md ("SQL: twinjit UDFs in DataFusion"): 1e7 rows from
//! Parquet (and the same rows in memory, where the scan does not dominate), each query timed
//! side by side in one run, interleaved, median of the repetitions:
//!
//! - (a) `hypot2(a, b)` (a twinjit `@vectorize`) against DataFusion's `sqrt(a * a + b * b)`;
//! - (b) a piecewise `@njit` function against the same `CASE` expression;
//! - (c) both against hand-written Rust UDFs doing the same arithmetic;
//! - (d) an `@njit` aggregate (`rms`) against `sqrt(avg(x * x))` per group.
//!
//!     cargo run --release -p twinjit-datafusion --example bench_sql [ROWS] [REPS] [ONLY]
//!
//! ONLY (e.g. `d` or `ab`) runs only the comparisons of those letters.

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Float64Array, Int32Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Float64Type};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use std::sync::Arc;
use std::time::Instant;

const UDFS: &str = "import math\nfrom numba import njit, vectorize\n\n\
@vectorize([\"float64(float64, float64)\"])\ndef hypot2(a, b):\n    return math.sqrt(a * a + b * b)\n\n\
@njit\ndef tax_due(income):\n    if income <= 12570.0:\n        return 0.0\n    elif income <= 50270.0:\n        return (income - 12570.0) * 0.2\n    elif income <= 125140.0:\n        return 7540.0 + (income - 50270.0) * 0.4\n    return 7540.0 + 29948.0 + (income - 125140.0) * 0.45\n\n\
@njit\ndef rms(x):\n    s = 0.0\n    for v in x:\n        s += v * v\n    return math.sqrt(s / len(x))\n";

fn tax_due(income: f64) -> f64 {
    if income <= 12570.0 {
        0.0
    } else if income <= 50270.0 {
        (income - 12570.0) * 0.2
    } else if income <= 125140.0 {
        7540.0 + (income - 50270.0) * 0.4
    } else {
        7540.0 + 29948.0 + (income - 125140.0) * 0.45
    }
}

/// A hand-written Rust UDF over float64 columns (no nulls in this benchmark's data; nulls
/// handled as DataFusion's own kernels do, by the union of the inputs' null buffers).
#[derive(Debug, PartialEq, Eq, Hash)]
struct RustUdf {
    name: &'static str,
    arity: usize,
    signature: Signature,
}

impl RustUdf {
    fn new(name: &'static str, arity: usize) -> RustUdf {
        RustUdf { name, arity, signature: Signature::exact(vec![DataType::Float64; arity], Volatility::Immutable) }
    }
}

impl ScalarUDFImpl for RustUdf {
    fn name(&self) -> &str {
        self.name
    }
    fn signature(&self) -> &Signature {
        &self.signature
    }
    fn return_type(&self, _: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }
    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let n = args.number_rows;
        let arrays: Vec<ArrayRef> = args.args.iter().map(|a| a.to_array(n)).collect::<Result<_>>()?;
        let cols: Vec<&Float64Array> = arrays.iter().map(|a| a.as_primitive::<Float64Type>()).collect();
        let nulls =
            cols.iter().fold(None, |acc, c| datafusion::arrow::buffer::NullBuffer::union(acc.as_ref(), c.nulls()));
        let values: Vec<f64> = if self.arity == 2 {
            cols[0].values().iter().zip(cols[1].values().iter()).map(|(a, b)| (a * a + b * b).sqrt()).collect()
        } else {
            cols[0].values().iter().map(|&x| tax_due(x)).collect()
        };
        Ok(ColumnarValue::Array(Arc::new(Float64Array::new(values.into(), nulls))))
    }
}

fn table(n: usize) -> RecordBatch {
    let mut s = 0x9E3779B97F4A7C15u64;
    let mut next = move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    let a: Float64Array = (0..n).map(|_| Some(next() * 200.0 - 100.0)).collect();
    let b: Float64Array = (0..n).map(|_| Some(next() * 200.0 - 100.0)).collect();
    let income: Float64Array = (0..n).map(|_| Some(next() * 200_000.0)).collect();
    let k: Int32Array = (0..n).map(|i| Some((i % 16) as i32)).collect();
    RecordBatch::try_from_iter(vec![
        ("a", Arc::new(a) as ArrayRef),
        ("b", Arc::new(b) as ArrayRef),
        ("income", Arc::new(income) as ArrayRef),
        ("k", Arc::new(k) as ArrayRef),
    ])
    .unwrap()
}

async fn time(ctx: &SessionContext, sql: &str) -> (f64, f64) {
    let t0 = Instant::now();
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    // A checksum of the first column, so that every variant is seen to compute the same thing.
    let sum: f64 = batches
        .iter()
        .map(|b| {
            let c = b.column(0);
            match c.data_type() {
                DataType::Float64 => c.as_primitive::<Float64Type>().values().iter().sum::<f64>(),
                _ => c.len() as f64,
            }
        })
        .sum();
    (ms, sum)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

#[tokio::main]
async fn main() {
    let rows: usize = std::env::args().nth(1).map(|a| a.parse().unwrap()).unwrap_or(10_000_000);
    let reps: usize = std::env::args().nth(2).map(|a| a.parse().unwrap()).unwrap_or(7);
    let only = std::env::args().nth(3).unwrap_or_else(|| "abd".into());
    let wanted = |title: &str| title.chars().nth(1).is_some_and(|c| only.contains(c));
    let path = std::env::temp_dir().join(format!("twinjit-bench-sql-{rows}.parquet"));
    let data = table(rows);
    if !path.exists() {
        let mut w = ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), data.schema(), None).unwrap();
        for start in (0..rows).step_by(1 << 20) {
            w.write(&data.slice(start, (rows - start).min(1 << 20))).unwrap();
        }
        w.close().unwrap();
    }
    let engine = twinjit::Engine::new(twinjit::Target::Host).unwrap();
    let udfs = twinjit_datafusion::UdfModule::load(&engine, "bench_udfs.py", UDFS).unwrap();
    let ctx = SessionContext::new();
    udfs.register(&ctx);
    ctx.register_udf(ScalarUDF::new_from_impl(RustUdf::new("rust_hypot", 2)));
    ctx.register_udf(ScalarUDF::new_from_impl(RustUdf::new("rust_tax_due", 1)));
    ctx.register_parquet("pq", path.to_string_lossy().as_ref(), ParquetReadOptions::default()).await.unwrap();
    // In memory: the same rows as batches of DataFusion's default size.
    let mem: Vec<RecordBatch> = (0..rows).step_by(8192).map(|s| data.slice(s, (rows - s).min(8192))).collect();
    let provider = datafusion::datasource::MemTable::try_new(data.schema(), vec![mem]).unwrap();
    ctx.register_table("mem", Arc::new(provider)).unwrap();

    let case = "CASE WHEN income <= 12570.0 THEN 0.0 WHEN income <= 50270.0 THEN (income - 12570.0) * 0.2 \
                WHEN income <= 125140.0 THEN 7540.0 + (income - 50270.0) * 0.4 \
                ELSE 7540.0 + 29948.0 + (income - 125140.0) * 0.45 END";
    let groups: Vec<(&str, Vec<(&str, String)>)> = vec![
        (
            "(a) hypot",
            vec![
                ("twinjit UDF hypot2(a, b)", "hypot2(a, b)".into()),
                ("built-in sqrt(a * a + b * b)", "sqrt(a * a + b * b)".into()),
                ("Rust UDF", "rust_hypot(a, b)".into()),
            ],
        ),
        (
            "(b) piecewise",
            vec![
                ("twinjit UDF tax_due(income)", "tax_due(income)".into()),
                ("built-in CASE", case.into()),
                ("Rust UDF", "rust_tax_due(income)".into()),
            ],
        ),
    ];
    println!("rows: {rows}, repetitions: {reps} (median), threads: DataFusion's default ({})", num_threads());
    for table in ["pq", "mem"] {
        for (title, variants) in groups.iter().filter(|g| wanted(g.0)) {
            let sqls: Vec<String> = variants.iter().map(|(_, e)| format!("SELECT {e} AS v FROM {table}")).collect();
            report(&ctx, &format!("{title}, {}", source(table)), variants.iter().map(|v| v.0).collect(), sqls, reps)
                .await;
        }
        if !wanted("(d)") {
            continue;
        }
        let sqls = vec![
            format!("SELECT rms(a) AS v FROM {table} GROUP BY k ORDER BY k"),
            format!("SELECT sqrt(avg(a * a)) AS v FROM {table} GROUP BY k ORDER BY k"),
        ];
        report(
            &ctx,
            &format!("(d) aggregate, 16 groups, {}", source(table)),
            vec!["twinjit rms(a)", "built-in sqrt(avg(a * a))"],
            sqls,
            reps,
        )
        .await;
    }
}

fn source(table: &str) -> &'static str {
    if table == "pq" {
        "from Parquet"
    } else {
        "in memory"
    }
}

fn num_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

async fn report(ctx: &SessionContext, title: &str, names: Vec<&str>, sqls: Vec<String>, reps: usize) {
    // One untimed run each (compilation, file cache), then interleaved timed runs.
    let mut sums = Vec::new();
    for s in &sqls {
        sums.push(time(ctx, s).await.1);
    }
    let mut times = vec![Vec::new(); sqls.len()];
    for _ in 0..reps {
        for (i, s) in sqls.iter().enumerate() {
            times[i].push(time(ctx, s).await.0);
        }
    }
    let med: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
    println!("{title}");
    for (i, n) in names.iter().enumerate() {
        println!("  {n:<34} {:>9.1} ms  ratio to the first {:.2}  (checksum {:.6e})", med[i], med[i] / med[0], sums[i]);
    }
}
