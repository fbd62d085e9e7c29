//! The one diagnostic renderer, in rustc's shape.

use crate::{Diagnostic, Label, SourceMap};
use std::fmt::Write;

const WINDOW: usize = 80;

/// The part of `line` shown for a label at character `col`: the whole line when short, else
/// `…` plus a window around the column; returns the text and how many characters were cut
/// from the front.
fn window(line: &str, col: usize) -> (String, usize) {
    let n = line.chars().count();
    if n <= 2 * WINDOW {
        return (line.to_string(), 0);
    }
    let start = col.saturating_sub(WINDOW / 2);
    let body: String = line.chars().skip(start).take(WINDOW).collect();
    let head = if start > 0 { "…" } else { "" };
    let tail = if start + WINDOW < n { "…" } else { "" };
    (format!("{head}{body}{tail}"), start)
}

pub(crate) fn render(d: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", d.severity, d.message);
    let labels: Vec<(&Label, bool)> = d
        .primary
        .iter()
        .map(|l| (l, true))
        .chain(d.secondary.iter().map(|l| (l, false)))
        .filter(|(l, _)| sources.get(l.span.file).is_some())
        .collect();
    let gutter = labels
        .iter()
        .map(|(l, _)| {
            let f = sources.get(l.span.file).expect("filtered above");
            (f.line_index(l.span.start) + 1).to_string().len()
        })
        .max()
        .unwrap_or(1);
    let pad = " ".repeat(gutter);
    for (i, (label, primary)) in labels.iter().enumerate() {
        let file = sources.get(label.span.file).expect("filtered above");
        let lc = file.line_col(label.span.start);
        let arrow = if i == 0 { "-->" } else { ":::" };
        let _ = writeln!(out, "{pad}{arrow} {}:{}:{}", file.name(), lc.line, lc.col);
        let _ = writeln!(out, "{pad} |");
        let line_idx = file.line_index(label.span.start);
        let full = file.line_text(line_idx);
        // Very long lines are shown as a window around the label.
        let (text, skipped) = window(full, lc.col as usize - 1);
        let _ = writeln!(out, "{:>gutter$} | {}", line_idx + 1, text.replace('\t', "    "));
        // Underline from the start column to the span end, or to the end of the line when the
        // span covers several lines.
        let start_chars = lc.col as usize - 1 - skipped + if skipped > 0 { 1 } else { 0 };
        let covered = file.slice(label.span);
        let first_line = covered.split('\n').next().unwrap_or("");
        let width = first_line.chars().count().clamp(1, 80);
        let tabs_before = text.chars().take(start_chars).filter(|&c| c == '\t').count() * 3 + start_chars;
        let mark = if *primary { '^' } else { '-' };
        let underline: String = std::iter::repeat_n(mark, width).collect();
        let msg = if label.message.is_empty() { String::new() } else { format!(" {}", label.message) };
        let _ = writeln!(out, "{pad} | {}{underline}{msg}", " ".repeat(tabs_before));
    }
    if !labels.is_empty() && (!d.notes.is_empty() || d.hint.is_some()) {
        let _ = writeln!(out, "{pad} |");
    }
    for n in &d.notes {
        let _ = writeln!(out, "{pad} = note: {n}");
    }
    if let Some(h) = &d.hint {
        let _ = writeln!(out, "{pad} = hint: {h}");
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::{Diagnostic, SourceMap, Span};
    use expect_test::expect;

    #[test]
    fn renders_like_rustc() {
        let mut sm = SourceMap::new();
        let f = sm.add("k.py", "def f(a):\n    d = {}\n    return a\n");
        let d = Diagnostic::error("dict literals are not supported", Span::new(f, 18, 20), "dict")
            .with_secondary(Span::new(f, 0, 3), "in this function")
            .with_hint("use a NumPy array");
        expect![[r#"
            error: dict literals are not supported
             --> k.py:2:9
              |
            2 |     d = {}
              |         ^^ dict
             ::: k.py:1:1
              |
            1 | def f(a):
              | --- in this function
              |
              = hint: use a NumPy array
        "#]]
        .assert_eq(&d.render(&sm));
    }

    #[test]
    fn long_lines_are_windowed() {
        let mut sm = SourceMap::new();
        let line = format!("x = {}y", "1+".repeat(500));
        let f = sm.add("k.py", line.as_str());
        let at = line.len() as u32 - 1;
        let out = Diagnostic::error("bad", Span::new(f, at, at + 1), "here").render(&sm);
        assert!(out.lines().all(|l| l.chars().count() < 120), "{out}");
        let excerpt = out.lines().nth(3).unwrap();
        let marker = out.lines().nth(4).unwrap();
        // The caret sits under the `y`.
        let col = marker.chars().position(|c| c == '^').unwrap();
        assert_eq!(excerpt.chars().nth(col), Some('y'), "{out}");
    }

    #[test]
    fn unlocated_and_out_of_range_spans_do_not_panic() {
        let mut sm = SourceMap::new();
        let f = sm.add("k.py", "x");
        let d = Diagnostic::error("bad", Span::new(f, 50, 90), "here");
        assert!(d.render(&sm).contains("k.py:1:2"));
        let d = Diagnostic::error_unlocated("no place").with_note("n");
        assert_eq!(d.render(&sm), "error: no place\n  = note: n\n");
    }
}
