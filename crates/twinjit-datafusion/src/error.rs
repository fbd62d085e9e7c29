//! The error a query fails with when a twinjit UDF fails.

use datafusion::error::DataFusionError;
use std::fmt;

/// A twinjit UDF failed while a query ran: a Python exception raised in a row
/// (`ZeroDivisionError`, a `raise` in the function, an `IndexError` in an aggregate), or a
/// signature that does not compile. It reaches the caller inside
/// [`DataFusionError::External`]; its `Display` names the function, the row and the arguments,
/// and twinjit's message names the source line.
#[derive(Debug)]
pub struct UdfError {
    /// The SQL name of the function (its Python name).
    pub function: String,
    /// The row of the batch the function failed on (0-based), and the batch's length; `None`
    /// for an aggregate or when no single row fails on its own.
    pub row: Option<(usize, usize)>,
    /// The row's arguments, as Python would print them.
    pub arguments: Option<String>,
    /// twinjit's error (its message has the exception and `file:line:col`).
    pub source: twinjit::Error,
}

impl fmt::Display for UdfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "twinjit UDF `{}` failed", self.function)?;
        if let Some((row, len)) = self.row {
            write!(f, " at row {row} of a batch of {len}")?;
        }
        if let Some(a) = &self.arguments {
            write!(f, " ({}({a}))", self.function)?;
        }
        write!(f, ": {}", self.source)
    }
}

impl std::error::Error for UdfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl UdfError {
    pub(crate) fn into_df(self) -> DataFusionError {
        DataFusionError::External(Box::new(self))
    }

    /// The `UdfError` inside a DataFusion error (however deeply DataFusion wrapped it).
    pub fn find(e: &DataFusionError) -> Option<&UdfError> {
        let mut cur: &(dyn std::error::Error + 'static) = e;
        loop {
            if let Some(u) = cur.downcast_ref::<UdfError>() {
                return Some(u);
            }
            if let Some(DataFusionError::External(inner)) = cur.downcast_ref::<DataFusionError>() {
                cur = inner.as_ref();
                continue;
            }
            cur = cur.source()?;
        }
    }
}

/// A twinjit error while planning (typing a signature): a DataFusion plan error with the
/// diagnostic.
pub(crate) fn plan_error(function: &str, e: &twinjit::Error) -> DataFusionError {
    DataFusionError::Plan(format!("twinjit UDF `{function}`: {e}"))
}
