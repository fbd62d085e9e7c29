//! The facade's one error type; every crate's errors convert into it.

use crate::Target;
use std::fmt;
use twinjit_diag::Diagnostic;
use twinjit_ir::abi::{ErrorCode, ErrorRecord, RaiseSite, Unsupported};
use twinjit_ir::interp::RuntimeError;
pub use twinjit_ir::interp::RuntimeErrorKind;

/// Compilation failed: the diagnostics, rendered against their sources.
#[derive(Clone, Debug)]
pub struct CompileError {
    /// Every diagnostic found.
    pub diagnostics: Vec<Diagnostic>,
    /// The diagnostics rendered like rustc (file, line, column, excerpt, label, hint).
    pub rendered: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rendered.trim_end())
    }
}

/// Any twinjit failure.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Error {
    /// The source or a signature was rejected.
    #[error("{0}")]
    Compile(CompileError),
    /// The function raised at run time (`ZeroDivisionError`, `IndexError`).
    #[error("{message}")]
    Runtime {
        /// What was raised.
        kind: RuntimeErrorKind,
        /// Source name of the raising function.
        function: String,
        /// `file:line:col` of the raising operation, if known.
        location: Option<String>,
        /// The full message (`IndexError: index 10 is out of bounds ... at k.py:4:9`).
        message: String,
    },
    /// Arguments do not fit the function (count, kind, dimensions, mutability).
    #[error("bad argument for `{function}`{}: {message}", param.as_ref().map(|p| format!(", parameter `{p}`")).unwrap_or_default())]
    Argument {
        /// The function called.
        function: String,
        /// The parameter, when one is at fault.
        param: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// No function of that name in the module.
    #[error("no compiled function `{name}` in this module{}", if available.is_empty() { String::new() } else { format!(" (functions: {})", available.join(", ")) })]
    UnknownFunction {
        /// The name asked for.
        name: String,
        /// The names that exist.
        available: Vec<String>,
    },
    /// The target cannot be used here (feature not built, no driver, no such device).
    #[error("target {target} is unavailable: {reason}")]
    TargetUnavailable {
        /// The target named.
        target: Target,
        /// Why.
        reason: String,
    },
    /// The CUDA driver reported an error: a launch the device cannot run (the limit, the
    /// value and the device are named), a fault found at synchronize, a module the driver
    /// rejected, or a missing libdevice.
    #[error("{message}")]
    Cuda {
        /// The kernel involved, when known.
        kernel: Option<String>,
        /// The full message.
        message: String,
    },
    /// The target cannot compile this construct.
    #[error("{0}")]
    Unsupported(String),
    /// An internal invariant broke: a twinjit bug, reported as a value rather than a panic.
    #[error("internal compiler error: {0}")]
    Internal(String),
}

impl Error {
    /// The diagnostics of a compile error (empty for other errors).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Compile(c) => &c.diagnostics,
            _ => &[],
        }
    }

    /// The Python exception name of a runtime error (`ZeroDivisionError`, `IndexError`, and
    /// for a `raise` or `assert` the class raised: `ValueError`, `AssertionError`, `MyError`).
    pub fn python_exception(&self) -> Option<&str> {
        match self {
            Error::Runtime { kind, .. } => Some(kind.python_name()),
            _ => None,
        }
    }

    /// `str(exc)` of an exception the program raised (`raise ValueError("negative input")`
    /// gives `negative input`, `raise ValueError` the empty string); `None` for other errors,
    /// including the builtin checks (division by zero, bounds, recursion).
    pub fn exception_message(&self) -> Option<&str> {
        match self {
            Error::Runtime { kind: RuntimeErrorKind::Raised { message, .. }, .. } => Some(message),
            _ => None,
        }
    }

    pub(crate) fn from_interp(error: RuntimeError, sources: &twinjit_diag::SourceMap) -> Error {
        let kind = error.kind.clone();
        let location = sources.location(error.span).map(|(f, lc)| format!("{f}:{}:{}", lc.line, lc.col));
        Error::Runtime { kind, function: error.function.clone(), location, message: error.describe(sources) }
    }
}

/// What a compiled function raised, from the error record both backends fill in the same way
/// (`twinjit_ir::abi`'s codes; for a recursion error `len` is the limit; for a `raise` the
/// record's `site` holds the exception): the kind and the Python-style message, without the
/// location.
pub(crate) fn raised(record: &ErrorRecord, site: Option<&RaiseSite>) -> (RuntimeErrorKind, String) {
    let ErrorRecord { kind: code, index, len, axis, .. } = *record;
    match ErrorCode::from_raw(code) {
        Some(ErrorCode::Raised) => match site.and_then(|s| s.render(record)) {
            Some((class, message)) => {
                let shown = if message.is_empty() { class.clone() } else { format!("{class}: {message}") };
                (RuntimeErrorKind::Raised { class, message }, shown)
            }
            None => (
                RuntimeErrorKind::Unsupported("an exception without its raise site".into()),
                "internal error: an exception was raised at an unknown site".to_string(),
            ),
        },
        Some(ErrorCode::ZeroDivision) => {
            (RuntimeErrorKind::ZeroDivision, "ZeroDivisionError: division by zero".to_string())
        }
        Some(ErrorCode::Index) if axis as u8 == twinjit_ir::TUPLE_INDEX_AXIS => (
            RuntimeErrorKind::Index { index, len, axis: axis as u8 },
            "IndexError: tuple index out of range".to_string(),
        ),
        Some(ErrorCode::Index) => (
            RuntimeErrorKind::Index { index, len, axis: axis as u8 },
            format!("IndexError: index {index} is out of bounds for axis {axis} with size {len}"),
        ),
        // `cuda-sim` reports races itself (`SimError::Race`); a record never carries one out.
        Some(ErrorCode::DataRace) => (
            RuntimeErrorKind::Unsupported("a data race without its details".into()),
            "RuntimeError: data race".to_string(),
        ),
        Some(ErrorCode::Recursion) => {
            (RuntimeErrorKind::RecursionLimit, format!("RecursionError: maximum recursion depth ({len}) exceeded"))
        }
        None => (
            RuntimeErrorKind::Unsupported(format!("unknown error kind {code}")),
            format!("internal error: unknown error kind {code}"),
        ),
    }
}

/// A program a backend cannot compile (`target` names it in the message), as a located
/// compile error.
pub(crate) fn unsupported(u: Unsupported, target: &str, sources: &twinjit_diag::SourceMap) -> Error {
    let d =
        twinjit_diag::Diagnostic::error(format!("{} is not supported on the {target} target", u.what), u.span, "here")
            .with_hint(u.hint);
    crate::source::compile_error(vec![d], sources)
}
