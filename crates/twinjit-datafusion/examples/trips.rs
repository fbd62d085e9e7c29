//! A SQL query with twinjit UDFs over a generated Parquet file: the functions of
//! `examples/kernels/trips.py` (a Numba module) as SQL functions in Apache DataFusion.
//!
//!     cargo run --release -p twinjit-datafusion --example trips [ROWS]
//!
//! Writes `trips.parquet` (ROWS rows, default 1,000,000) to the system's temporary directory,
//! then runs one query that calls a `@vectorize` ufunc, two `@njit` scalar functions and two
//! `@njit` aggregates, and prints its result.

use datafusion::arrow::array::{ArrayRef, BooleanArray, Float64Array, Int32Array, RecordBatch};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use std::sync::Arc;
use std::time::Instant;
use twinjit_datafusion::UdfModule;

const UDFS: &str = include_str!("kernels/trips.py");

/// `n` trips around London: pickup and drop-off coordinates, duration, night flag, zone.
fn trips(n: usize, seed: u64) -> RecordBatch {
    let mut s = seed;
    let mut next = move || {
        // xorshift64*: the same table on every run.
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut cols: [Vec<f64>; 5] = Default::default();
    let mut night = Vec::with_capacity(n);
    let mut zone = Vec::with_capacity(n);
    for _ in 0..n {
        let (lat, lon) = (51.3 + 0.4 * next(), -0.5 + 0.7 * next());
        cols[0].push(lat);
        cols[1].push(lon);
        cols[2].push(lat + 0.1 * (next() - 0.5));
        cols[3].push(lon + 0.15 * (next() - 0.5));
        cols[4].push(3.0 + 60.0 * next());
        night.push(next() < 0.3);
        zone.push((next() * 6.0) as i32);
    }
    let [lat1, lon1, lat2, lon2, minutes] = cols;
    let f = |v: Vec<f64>| Arc::new(Float64Array::from(v)) as ArrayRef;
    RecordBatch::try_from_iter(vec![
        ("lat1", f(lat1)),
        ("lon1", f(lon1)),
        ("lat2", f(lat2)),
        ("lon2", f(lon2)),
        ("minutes", f(minutes)),
        ("night", Arc::new(BooleanArray::from(night)) as ArrayRef),
        ("zone", Arc::new(Int32Array::from(zone)) as ArrayRef),
    ])
    .expect("columns of one length")
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows: usize = std::env::args().nth(1).map(|a| a.parse()).transpose()?.unwrap_or(1_000_000);
    let path = std::env::temp_dir().join("trips.parquet");
    let t0 = Instant::now();
    {
        let mut w = ArrowWriter::try_new(std::fs::File::create(&path)?, trips(1, 1).schema(), None)?;
        for (k, start) in (0..rows).step_by(250_000).enumerate() {
            w.write(&trips((rows - start).min(250_000), 0x9E3779B97F4A7C15 ^ k as u64))?;
        }
        w.close()?;
    }
    println!("wrote {rows} trips to {} in {:.2} s", path.display(), t0.elapsed().as_secs_f64());

    let engine = twinjit::Engine::new(twinjit::Target::Host)?;
    let ctx = SessionContext::new();
    let udfs = UdfModule::load(&engine, "trips.py", UDFS)?;
    udfs.register(&ctx);
    ctx.register_parquet("trips", path.to_string_lossy().as_ref(), ParquetReadOptions::default()).await?;
    let sql = "SELECT zone, count(*) AS trips, round(avg(fare(km, minutes, night)), 2) AS avg_fare,
                      round(p90(km), 3) AS p90_km, round(trimmed_mean(minutes), 2) AS trimmed_minutes,
                      sum(CASE WHEN speed_band(km, minutes) = 3 THEN 1 ELSE 0 END) AS fast
               FROM (SELECT zone, haversine_km(lat1, lon1, lat2, lon2) AS km, minutes, night FROM trips)
               GROUP BY zone ORDER BY zone";
    println!("{sql}");
    let t0 = Instant::now();
    let batches = ctx.sql(sql).await?.collect().await?;
    let took = t0.elapsed();
    println!("{}", datafusion::arrow::util::pretty::pretty_format_batches(&batches)?);
    println!(
        "query: {:.1} ms ({} rows through twinjit UDFs; compile included on first use)",
        took.as_secs_f64() * 1e3,
        twinjit_datafusion::rows_processed()
    );
    Ok(())
}
