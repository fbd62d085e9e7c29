//! Numba functions as Apache DataFusion user-defined functions.
//!
//! [`UdfModule::load`] reads a Numba module (the same `.py` file Numba runs) and makes a
//! DataFusion function of each function a SQL query can call:
//!
//! - every `@vectorize` ufunc, and every `@njit` function whose parameters are numbers and whose
//!   result is a number, is a **scalar UDF** ([`ScalarUdf`]). Its batch loop is compiled code
//!   over the Arrow buffers: an `@njit` function is wrapped in a lazily typed `@vectorize` of
//!   one line, so both run the host ufunc loop (no per-row call through the dispatcher);
//! - every `@njit` function of one parameter that types with a 1-D array and returns a number is
//!   an **aggregate UDF** ([`AggregateUdf`]): `SELECT k, f(x) FROM t GROUP BY k` runs the
//!   compiled function on each group's values.
//!
//! Types follow Numba: a function with a signature list in its decorator takes the first
//! declared signature the argument types convert to safely (NumPy's loop choice); a lazy one is
//! compiled per combination of argument types (every integer, unsigned and float width, and
//! `boolean`), through the engine's dispatcher and its disk cache. Arrow nulls propagate: a row
//! with a null argument is null and the function is not called on it; aggregates skip nulls, as
//! SQL's do, and a group without values is null. A Python exception raised in a row fails the
//! query with a [`UdfError`] that names the function, the source line and the row. The UDFs of
//! a module whose source mentions `random` are volatile (DataFusion does not fold their calls
//! on literals); the others are immutable.
//!
//! ```no_run
//! # async fn demo() -> datafusion::error::Result<()> {
//! use datafusion::prelude::*;
//! let engine = twinjit::Engine::new(twinjit::Target::Host).unwrap();
//! let udfs = twinjit_datafusion::UdfModule::load_file(&engine, "udfs.py").unwrap();
//! let ctx = SessionContext::new();
//! udfs.register(&ctx);
//! ctx.register_parquet("t", "t.parquet", ParquetReadOptions::default()).await?;
//! ctx.sql("SELECT k, my_stat(x), hypot2(a, b) FROM t GROUP BY k").await?.show().await?;
//! # Ok(()) }
//! ```

mod aggregate;
mod arrow_types;
mod error;
mod module;
mod scalar;
pub mod sql;

pub use aggregate::AggregateUdf;
pub use error::UdfError;
pub use module::{LoadError, Origin, UdfModule};
pub use scalar::ScalarUdf;

use std::sync::atomic::{AtomicU64, Ordering};

static ROWS: AtomicU64 = AtomicU64::new(0);

/// Rows the twinjit UDFs of this process have been called on so far (scalar UDF rows and
/// aggregate input values): what `twinjit sql` reports as progress.
pub fn rows_processed() -> u64 {
    ROWS.load(Ordering::Relaxed)
}

pub(crate) fn count_rows(n: usize) {
    ROWS.fetch_add(n as u64, Ordering::Relaxed);
}
