//! Source spans, the source map and diagnostics for twinjit.
//!
//! Every stage that can reject user input reports [`Diagnostic`]s located by [`Span`]s into
//! files held by a [`SourceMap`]. There is one renderer ([`Diagnostic::render`]), in rustc's
//! shape, so every crate's errors look alike.
//!
//! This crate knows nothing of Python, IR or backends. Invariant: a span's byte range lies
//! inside its file and on UTF-8 character boundaries (the renderer clamps anything else, so a
//! bad span can garble a message but never panic).

#![forbid(unsafe_code)]

mod render;
mod source;

pub use source::{FileId, LineCol, SourceFile, SourceMap, Span};

use std::fmt;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The input is rejected.
    Error,
    /// The input is accepted but something deserves attention.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// A labelled region of source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say under the underline (may be empty).
    pub message: String,
}

/// One message about the user's input: what is wrong, where, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// One line, lower case, no final period, like rustc.
    pub message: String,
    /// The primary location; `None` only for errors about no place in particular.
    pub primary: Option<Label>,
    /// Other places worth showing (e.g. the earlier definition in a type conflict).
    pub secondary: Vec<Label>,
    /// Extra facts (`= note: ...`).
    pub notes: Vec<String>,
    /// How to fix it (`= hint: ...`).
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error with a primary label.
    pub fn error(message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            primary: Some(Label { span, message: label.into() }),
            secondary: Vec::new(),
            notes: Vec::new(),
            hint: None,
        }
    }

    /// An error that points nowhere (bad command-line signature, missing function...).
    pub fn error_unlocated(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            hint: None,
        }
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    /// The primary span, if any.
    pub fn span(&self) -> Option<Span> {
        self.primary.as_ref().map(|l| l.span)
    }

    /// Renders the diagnostic like rustc does: header, `--> file:line:col`, excerpt with an
    /// underline and label, secondary excerpts, then notes and hint.
    pub fn render(&self, sources: &SourceMap) -> String {
        render::render(self, sources)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Renders several diagnostics separated by blank lines.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.render(sources));
        out.push('\n');
    }
    out
}
