//! Files, spans and line/column lookup.

use std::sync::Arc;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range in one file. `Span::DUMMY` marks synthesised code with no source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// Start byte offset (inclusive).
    pub start: u32,
    /// End byte offset (exclusive).
    pub end: u32,
}

impl Span {
    /// A span that points at nothing.
    pub const DUMMY: Span = Span { file: FileId(u32::MAX), start: 0, end: 0 };

    /// A span in `file` from `start` to `end`.
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end: end.max(start) }
    }

    /// Whether this is [`Span::DUMMY`].
    pub fn is_dummy(&self) -> bool {
        self.file.0 == u32::MAX
    }

    /// The smallest span covering both (they must be in the same file; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// A 1-based line and column (column counted in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1, in Unicode scalar values.
    pub col: u32,
}

/// One source file: its name, text and line starts (found on the first line lookup: a file
/// loaded only to run cached code may never need them).
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: Arc<str>,
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

impl SourceFile {
    fn new(name: String, text: Arc<str>) -> Self {
        SourceFile { name, text, line_starts: std::sync::OnceLock::new() }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            for (i, b) in self.text.bytes().enumerate() {
                if b == b'\n' {
                    starts.push((i + 1) as u32);
                }
            }
            starts
        })
    }

    /// The name shown in diagnostics (usually the path).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Clamps `offset` into the text and back onto a character boundary.
    fn clamp(&self, offset: u32) -> usize {
        let mut o = (offset as usize).min(self.text.len());
        while o > 0 && !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }

    /// 0-based line index containing `offset`.
    pub fn line_index(&self, offset: u32) -> usize {
        let o = self.clamp(offset) as u32;
        match self.line_starts().binary_search(&o) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Line and column of a byte offset.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let o = self.clamp(offset);
        let line = self.line_index(o as u32);
        let start = self.line_starts()[line] as usize;
        let col = self.text[start..o].chars().count() as u32 + 1;
        LineCol { line: line as u32 + 1, col }
    }

    /// The text of 0-based line `index`, without its newline.
    pub fn line_text(&self, index: usize) -> &str {
        let Some(&start) = self.line_starts().get(index) else { return "" };
        let end = self.line_starts().get(index + 1).map(|&e| e as usize).unwrap_or(self.text.len());
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    /// Byte offset where 0-based line `index` starts.
    pub fn line_start(&self, index: usize) -> usize {
        self.line_starts().get(index).copied().unwrap_or(0) as usize
    }

    /// The source text a span covers (clamped).
    pub fn slice(&self, span: Span) -> &str {
        let s = self.clamp(span.start);
        let e = self.clamp(span.end).max(s);
        &self.text[s..e]
    }
}

/// All source files of a compilation, addressed by [`FileId`].
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(name.into(), text.into()));
        id
    }

    /// The file with id `id`, if it exists.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// `file:line:col` of a span's start, or `None` for dummy spans.
    pub fn location(&self, span: Span) -> Option<(String, LineCol)> {
        let f = self.get(span.file)?;
        Some((f.name().to_string(), f.line_col(span.start)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_from_one() {
        let mut sm = SourceMap::new();
        let f = sm.add("a.py", "x = 1\nπ = 2\n");
        let file = sm.get(f).unwrap();
        assert_eq!(file.line_col(0), LineCol { line: 1, col: 1 });
        assert_eq!(file.line_col(6), LineCol { line: 2, col: 1 });
        // 'π' is two bytes; '=' is the third character of line 2.
        assert_eq!(file.line_col(9), LineCol { line: 2, col: 3 });
        assert_eq!(file.line_text(1), "π = 2");
    }

    #[test]
    fn offsets_past_the_end_or_inside_a_char_are_clamped() {
        let mut sm = SourceMap::new();
        let f = sm.add("a.py", "π");
        let file = sm.get(f).unwrap();
        assert_eq!(file.line_col(1), LineCol { line: 1, col: 1 });
        assert_eq!(file.line_col(99), LineCol { line: 1, col: 2 });
        assert_eq!(file.slice(Span::new(f, 1, 99)), "π");
    }
}
