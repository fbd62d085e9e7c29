//! Nesting limits checked on the raw text before parsing, so that no input can exhaust the
//! stack of the (recursive) parser, of the AST's destructors, or of the lowering.
//!
//! The limits are CPython's where it has one: 200 nested brackets ("too many nested
//! parentheses") and 100 indentation levels ("too many levels of indentation"). Runs of
//! operators that nest without brackets (`- - - x`, `not not x`, `a ** b ** c`,
//! `x if c else y if d else ...`) are capped at 1000 per logical line, and a logical line at
//! 100,000 tokens-worth of characters.

use twinjit_diag::{Diagnostic, FileId, Span};

/// CPython's maximum bracket nesting.
pub const MAX_BRACKETS: usize = 200;
/// CPython's maximum indentation depth.
pub const MAX_INDENT: usize = 100;
/// Operators that nest without brackets, per logical line.
pub const MAX_NESTING_OPS: usize = 1000;
/// Length of one logical line, in bytes.
pub const MAX_LINE: usize = 1_000_000;

fn too_deep(file: FileId, at: usize, what: &str, hint: &str) -> Diagnostic {
    Diagnostic::error(what.to_string(), Span::new(file, at as u32, at as u32 + 1), "here").with_hint(hint.to_string())
}

/// Scans `text`; an error names the first place a limit is exceeded.
pub fn check(text: &str, file: FileId) -> Result<(), Diagnostic> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    let mut line_start = 0usize;
    let mut nesting_ops = 0usize;
    let mut at_line_start = true;
    let mut indents: Vec<usize> = vec![0];
    while i < b.len() {
        let c = b[i];
        if at_line_start && depth == 0 {
            // Measure indentation of a non-blank, non-comment line.
            let mut j = i;
            let mut col = 0;
            while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                col += if b[j] == b'\t' { 8 - col % 8 } else { 1 };
                j += 1;
            }
            if j < b.len() && b[j] != b'\n' && b[j] != b'\r' && b[j] != b'#' {
                while col < *indents.last().expect("never empty") {
                    indents.pop();
                }
                if col > *indents.last().expect("never empty") {
                    indents.push(col);
                    if indents.len() > MAX_INDENT + 1 {
                        return Err(too_deep(
                            file,
                            j,
                            "too many levels of indentation",
                            "Python allows at most 100 nested blocks",
                        ));
                    }
                }
            }
            at_line_start = false;
            i = j;
            continue;
        }
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let triple = b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c);
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if triple {
                        if b[i] == c && b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c) {
                            i += 3;
                            break;
                        }
                    } else if b[i] == c || b[i] == b'\n' {
                        i += 1;
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_BRACKETS {
                    return Err(too_deep(
                        file,
                        i,
                        "too many nested parentheses",
                        "Python allows at most 200 nested brackets; split the expression into assignments",
                    ));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'-' | b'+' | b'~' => nesting_ops += 1,
            b'*' if b.get(i + 1) == Some(&b'*') => {
                nesting_ops += 1;
                i += 1;
            }
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                i += 2;
                continue;
            }
            b'\n' if depth == 0 => {
                line_start = i + 1;
                nesting_ops = 0;
                at_line_start = true;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if matches!(&b[s..i], b"not" | b"if" | b"lambda" | b"await") {
                    nesting_ops += 1;
                }
                if nesting_ops > MAX_NESTING_OPS {
                    return Err(too_deep(file, s, "expression nested too deeply", "split it into several assignments"));
                }
                continue;
            }
            _ => {}
        }
        if nesting_ops > MAX_NESTING_OPS {
            return Err(too_deep(file, i, "expression nested too deeply", "split it into several assignments"));
        }
        if i.saturating_sub(line_start) > MAX_LINE {
            return Err(too_deep(file, i, "logical line too long", "split it into several statements"));
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(text: &str) -> String {
        match check(text, FileId(0)) {
            Ok(()) => "ok".into(),
            Err(d) => d.message,
        }
    }

    #[test]
    fn limits() {
        assert_eq!(msg("x = (1 + 2)\n"), "ok");
        assert_eq!(msg(&format!("x = {}1{}\n", "(".repeat(200), ")".repeat(200))), "ok");
        assert_eq!(msg(&format!("x = {}1{}\n", "(".repeat(201), ")".repeat(201))), "too many nested parentheses");
        assert_eq!(msg(&format!("x = {}1\n", "-".repeat(10_000))), "expression nested too deeply");
        assert_eq!(msg(&format!("x = {}1\n", "not ".repeat(5_000))), "expression nested too deeply");
        // Brackets inside strings and comments do not count.
        assert_eq!(msg(&format!("s = '{}'  # {}\n", "(".repeat(500), "[".repeat(500))), "ok");
        assert_eq!(msg(&format!("s = \"\"\"{}\"\"\"\n", "(".repeat(500))), "ok");
        let mut deep = String::new();
        for k in 0..101 {
            deep.push_str(&format!("{}if x:\n", " ".repeat(k)));
        }
        deep.push_str(&format!("{}pass\n", " ".repeat(101)));
        assert_eq!(msg(&deep), "too many levels of indentation");
        // Many operators on separate lines are fine.
        assert_eq!(msg(&"x = -1\n".repeat(50_000)), "ok");
    }
}
