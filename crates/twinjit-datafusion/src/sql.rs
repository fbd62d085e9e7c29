//! `twinjit sql`: a SQL query over Parquet and CSV files with the UDFs of Numba modules.

use crate::{LoadError, UdfError, UdfModule};
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::dataframe::DataFrameWriteOptions;
use datafusion::error::DataFusionError;
use datafusion::prelude::{CsvReadOptions, ParquetReadOptions, SessionContext};
use futures::StreamExt;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `twinjit sql` runs.
#[derive(Debug, Clone, Default)]
pub struct SqlRequest {
    /// Numba modules whose functions become UDFs.
    pub udfs: Vec<PathBuf>,
    /// Tables: a name and a `.parquet` or `.csv` file (or a directory of them).
    pub tables: Vec<(String, PathBuf)>,
    /// The query.
    pub query: String,
    /// Write the result here (`.parquet` or `.csv`) instead of printing it.
    pub out: Option<PathBuf>,
    /// Progress on stderr once a second: `Some(true)` always, `Some(false)` never, `None` when
    /// stderr is a terminal.
    pub progress: Option<bool>,
}

/// Why `twinjit sql` failed.
#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    /// A UDF module did not load (twinjit's located diagnostic).
    #[error("{0}")]
    Udfs(#[from] LoadError),
    /// A `--table` argument is not `NAME=PATH` or its file has no known format.
    #[error("--table {0}")]
    Table(String),
    /// DataFusion failed (a SQL error, or a UDF's run-time error: see [`UdfError`]).
    #[error("{}", describe(.0))]
    Query(#[from] DataFusionError),
    /// The output could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

fn describe(e: &DataFusionError) -> String {
    match UdfError::find(e) {
        Some(u) => u.to_string(),
        None => e.to_string(),
    }
}

/// Reads `NAME=PATH`.
pub fn parse_table(arg: &str) -> Result<(String, PathBuf), SqlError> {
    match arg.split_once('=') {
        Some((n, p)) if !n.is_empty() && !p.is_empty() => Ok((n.to_string(), PathBuf::from(p))),
        _ => Err(SqlError::Table(format!("`{arg}`: expected NAME=PATH (a .parquet or .csv file or directory)"))),
    }
}

enum Format {
    Parquet,
    Csv,
}

fn format_of(path: &Path) -> Option<Format> {
    let ext = |p: &Path| p.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase());
    let e = if path.is_dir() {
        std::fs::read_dir(path)
            .ok()?
            .filter_map(|e| e.ok())
            .find_map(|e| ext(&e.path()).filter(|x| x == "parquet" || x == "csv"))
    } else {
        ext(path)
    }?;
    match e.as_str() {
        "parquet" => Some(Format::Parquet),
        "csv" => Some(Format::Csv),
        _ => None,
    }
}

/// A session with the request's UDFs and tables registered.
pub async fn session(engine: &twinjit::Engine, req: &SqlRequest) -> Result<SessionContext, SqlError> {
    let ctx = SessionContext::new();
    for path in &req.udfs {
        UdfModule::load_file(engine, path)?.register(&ctx);
    }
    for (name, path) in &req.tables {
        let p = path.to_string_lossy();
        if !path.exists() {
            return Err(SqlError::Table(format!("{name}={p}: no such file or directory")));
        }
        match format_of(path) {
            Some(Format::Parquet) => {
                ctx.register_parquet(name.as_str(), p.as_ref(), ParquetReadOptions::default()).await?
            }
            Some(Format::Csv) => ctx.register_csv(name.as_str(), p.as_ref(), CsvReadOptions::new()).await?,
            None => {
                return Err(SqlError::Table(format!(
                    "{name}={p}: not a .parquet or .csv file (or a directory of them)"
                )))
            }
        }
    }
    Ok(ctx)
}

/// Runs the request: the result as a printed table, or (with `out`) a line saying what was
/// written.
pub async fn run(engine: &twinjit::Engine, req: &SqlRequest) -> Result<String, SqlError> {
    let ctx = session(engine, req).await?;
    let df = ctx.sql(&req.query).await?;
    let show = req.progress.unwrap_or_else(|| std::io::stderr().is_terminal());
    let reporter = Progress::start(show);
    let result = async {
        if let Some(out) = &req.out {
            let p = out.to_string_lossy().into_owned();
            let opts = DataFrameWriteOptions::new().with_single_file_output(true);
            let written = match out.extension().and_then(|e| e.to_str()) {
                Some("parquet") => df.write_parquet(&p, opts, None).await?,
                Some("csv") => df.write_csv(&p, opts, None).await?,
                _ => return Err(SqlError::Table(format!("--out {p}: give a .parquet or .csv file"))),
            };
            let rows: u64 = written
                .iter()
                .filter_map(|b| b.column(0).as_any().downcast_ref::<datafusion::arrow::array::UInt64Array>())
                .map(|c| c.values().iter().sum::<u64>())
                .sum();
            Ok(format!("wrote {rows} rows to {p}"))
        } else {
            let mut stream = df.execute_stream().await?;
            let mut batches: Vec<RecordBatch> = Vec::new();
            while let Some(b) = stream.next().await {
                let b = b?;
                reporter.rows.fetch_add(b.num_rows() as u64, Ordering::Relaxed);
                batches.push(b);
            }
            Ok(pretty_format_batches(&batches).map_err(DataFusionError::from)?.to_string())
        }
    }
    .await;
    reporter.stop();
    result
}

/// `run` on a runtime of its own (for the CLI).
pub fn run_blocking(engine: &twinjit::Engine, req: &SqlRequest) -> Result<String, SqlError> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(run(engine, req))
}

/// A line on stderr once a second while a query runs: time, rows through twinjit UDFs, result
/// rows so far.
struct Progress {
    rows: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    fn start(show: bool) -> Progress {
        let rows = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let thread = show.then(|| {
            let (rows, done) = (rows.clone(), done.clone());
            let t0 = Instant::now();
            let udf0 = crate::rows_processed();
            std::thread::spawn(move || {
                let mut printed = false;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if t0.elapsed().as_millis() / 1000 > 0 && t0.elapsed().as_millis() % 1000 < 100 {
                        eprint!(
                            "\r[twinjit sql] {:.0} s: {} rows through twinjit UDFs, {} result rows   ",
                            t0.elapsed().as_secs_f64(),
                            crate::rows_processed() - udf0,
                            rows.load(Ordering::Relaxed)
                        );
                        let _ = std::io::stderr().flush();
                        printed = true;
                    }
                }
                if printed {
                    eprintln!();
                }
            })
        });
        Progress { rows, done, thread }
    }

    fn stop(self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread {
            let _ = t.join();
        }
    }
}
