//! Source text and position conversion.
//!
//! Every span in citeproof is a byte range into the original text. Conversion to
//! human (1-based line/character) or LSP (0-based line/UTF-16) positions happens only
//! at the edges, through the one [`LineIndex`] kept with each [`SourceFile`].

pub mod locations;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::model::{FileId, Span};
use locations::{Location, LocationMap};

/// What kind of document a file holds; decides which parser reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    Markdown,
    Latex,
    Bibtex,
    /// LLM answers and plain text with numbered markers and a trailing reference list.
    Text,
    /// CSL-JSON bibliography (pandoc/Manubot).
    CslJson,
    /// The bibliography a LaTeX build writes (`.bbl`: BibTeX's or biber's).
    Bbl,
    /// A typeset PDF, read by [`crate::read`] into text with pages and lines.
    Pdf,
    /// A Word file, read by [`crate::read`] into text with paragraphs.
    Docx,
    /// An OpenDocument text, read like a Word file.
    Odt,
}

impl FileKind {
    /// Guess the kind from the file extension; `None` for unsupported files.
    pub fn from_path(path: &Path) -> Option<FileKind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "md" | "markdown" | "qmd" | "rmd" | "mdx" => FileKind::Markdown,
            "tex" | "ltx" | "latex" => FileKind::Latex,
            "bib" | "bibtex" | "biblatex" => FileKind::Bibtex,
            "txt" | "text" | "answer" => FileKind::Text,
            "json" => FileKind::CslJson,
            "bbl" => FileKind::Bbl,
            "pdf" => FileKind::Pdf,
            "docx" => FileKind::Docx,
            "odt" => FileKind::Odt,
            _ => return None,
        })
    }

    /// Kinds that are checked as root documents when found in a directory.
    pub fn is_document(self) -> bool {
        matches!(
            self,
            FileKind::Markdown
                | FileKind::Latex
                | FileKind::Text
                | FileKind::Pdf
                | FileKind::Docx
                | FileKind::Odt
        )
    }

    /// Kinds read from bytes by a converter ([`crate::read`]) rather than as text.
    pub fn is_binary(self) -> bool {
        matches!(self, FileKind::Pdf | FileKind::Docx | FileKind::Odt)
    }
}

/// A 1-based line and 1-based column counted in Unicode scalar values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

/// A 0-based line and 0-based column counted in UTF-16 code units (LSP positions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Utf16Pos {
    pub line: u32,
    pub character: u32,
}

/// Start offsets of every line of a text.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { line_starts }
    }

    /// The index of the text made by replacing `span` of this one's text with
    /// `inserted`: the starts before the span kept, those after it moved, only the
    /// inserted text scanned (an editor's keystroke in a long document).
    pub fn replaced(&self, span: Span, inserted: &str) -> LineIndex {
        let kept = self.line_starts.partition_point(|&s| s <= span.start);
        let after = self.line_starts.partition_point(|&s| s <= span.end);
        let removed = span.end - span.start;
        let moved = |s: usize| s - removed + inserted.len();
        let mut line_starts = Vec::with_capacity(self.line_starts.len() + 1);
        line_starts.extend_from_slice(&self.line_starts[..kept]);
        line_starts
            .extend(memchr::memchr_iter(b'\n', inserted.as_bytes()).map(|i| span.start + i + 1));
        line_starts.extend(self.line_starts[after..].iter().map(|&s| moved(s)));
        LineIndex { line_starts }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 0-based line containing `offset` (offsets past the end map to the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte offset where 0-based `line` starts (clamped to the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts[line.min(self.line_starts.len() - 1)]
    }

    /// Byte range of 0-based `line` without its line terminator.
    pub fn line_span(&self, text: &str, line: usize) -> Span {
        let start = self.line_start(line);
        let mut end = self
            .line_starts
            .get(line + 1)
            .map(|next| next - 1)
            .unwrap_or(text.len());
        if end > start && text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        Span::new(start, end.max(start))
    }

    /// 1-based line and character column of a byte offset.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = text.floor_char_boundary(offset);
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        let column = text[start..offset].chars().count() + 1;
        LineCol {
            line: line as u32 + 1,
            column: column as u32,
        }
    }

    /// LSP position (0-based line, UTF-16 column) of a byte offset.
    pub fn utf16_pos(&self, text: &str, offset: usize) -> Utf16Pos {
        let offset = text.floor_char_boundary(offset);
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Utf16Pos {
            line: line as u32,
            character: character as u32,
        }
    }

    /// Byte offset of an LSP position; positions past the line end clamp to it.
    pub fn offset_of_utf16(&self, text: &str, pos: Utf16Pos) -> usize {
        let line = pos.line as usize;
        if line >= self.line_starts.len() {
            return text.len();
        }
        let span = self.line_span(text, line);
        let mut units = 0u32;
        for (i, c) in text[span.start..span.end].char_indices() {
            if units >= pos.character {
                return span.start + i;
            }
            units += c.len_utf16() as u32;
        }
        span.end
    }

    /// Byte offset of a 1-based line/column (character) position, clamped to the line.
    pub fn offset_of_line_col(&self, text: &str, pos: LineCol) -> usize {
        let line = (pos.line.max(1) - 1) as usize;
        if line >= self.line_starts.len() {
            return text.len();
        }
        let span = self.line_span(text, line);
        text[span.start..span.end]
            .char_indices()
            .nth((pos.column.max(1) - 1) as usize)
            .map(|(i, _)| span.start + i)
            .unwrap_or(span.end)
    }
}

/// One file's text with its line index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub id: FileId,
    /// The path as the user gave it or as it was found (relative paths stay relative).
    pub path: PathBuf,
    pub kind: FileKind,
    /// Shared, never copied on the way through: an editor's buffer, the parse
    /// cache and the loaded project hold the same text.
    pub text: Arc<str>,
    pub index: LineIndex,
    /// For a file converted from a binary format (a PDF): where each byte of
    /// `text` came from in the original. Reports show those places.
    pub locations: Option<Arc<LocationMap>>,
}

impl SourceFile {
    pub fn new(id: FileId, path: PathBuf, kind: FileKind, text: impl Into<Arc<str>>) -> SourceFile {
        let text = text.into();
        let index = LineIndex::new(&text);
        SourceFile {
            id,
            path,
            kind,
            text,
            index,
            locations: None,
        }
    }

    /// Where `offset` came from in the original file, for a converted file
    /// (`page 3, line 12`); `None` for text files.
    pub fn location(&self, offset: usize) -> Option<Location> {
        self.locations.as_ref()?.locate(&self.text, offset)
    }

    /// Whether the text was converted from another format: it is not the file's
    /// content, and nothing may be written back to the file from it.
    pub fn is_converted(&self) -> bool {
        self.locations.is_some()
    }

    pub fn line_col(&self, offset: usize) -> LineCol {
        self.index.line_col(&self.text, offset)
    }

    pub fn utf16_pos(&self, offset: usize) -> Utf16Pos {
        self.index.utf16_pos(&self.text, offset)
    }

    /// Text of a span, or "" when the span does not fit the text.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// The path with `/` separators and without `./` steps, as written in reports
    /// (so `check .` and `check paper.md` name a file alike).
    pub fn display_path(&self) -> String {
        normalize_path(&self.path)
            .to_string_lossy()
            .replace('\\', "/")
    }
}

/// Every file read during a run, addressed by [`FileId`].
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    by_path: HashMap<PathBuf, FileId>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Add a file; a path already present returns the existing id.
    pub fn add(&mut self, path: PathBuf, kind: FileKind, text: impl Into<Arc<str>>) -> FileId {
        let key = normalize_path(&path);
        if let Some(&id) = self.by_path.get(&key) {
            return id;
        }
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(id, path, kind, text));
        self.by_path.insert(key, id);
        id
    }

    /// Replace the text of an existing file (editor buffers, applied fixes).
    pub fn set_text(&mut self, id: FileId, text: impl Into<Arc<str>>) {
        let text = text.into();
        let file = &mut self.files[id.index()];
        file.index = LineIndex::new(&text);
        file.text = text;
    }

    /// [`Self::set_text`] with the text's line index already made (an editor's
    /// buffer has one).
    pub fn set_text_indexed(&mut self, id: FileId, text: Arc<str>, index: LineIndex) {
        let file = &mut self.files[id.index()];
        file.index = index;
        file.text = text;
    }

    /// Give a file the text a converter made of it, with where its bytes came from.
    pub fn set_converted(&mut self, id: FileId, text: String, locations: LocationMap) {
        self.set_text(id, text);
        self.files[id.index()].locations = Some(Arc::new(locations));
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.index()]
    }

    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(&normalize_path(path)).copied()
    }

    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Lexical normalisation (no filesystem access): drops `.` and folds `dir/..`; a
/// `..` above the start is kept.
pub fn normalize_path(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_index_is_the_index_of_the_replaced_text() {
        let texts = ["", "a", "\n", "ab\ncd\r\n\nef\n", "\n\nx\ny\n\n"];
        let inserts = ["", "z", "\n", "q\nr", "\r\n\n"];
        for text in texts {
            for start in 0..=text.len() {
                for end in start..=text.len() {
                    for inserted in inserts {
                        let mut next = text.to_string();
                        next.replace_range(start..end, inserted);
                        let replaced =
                            LineIndex::new(text).replaced(Span::new(start, end), inserted);
                        assert_eq!(
                            replaced.line_starts,
                            LineIndex::new(&next).line_starts,
                            "{text:?} [{start}, {end}) <- {inserted:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn line_col_counts_characters_and_utf16_units() {
        let text = "ab\ncé𝔸x\r\nlast";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.line_col(text, x), LineCol { line: 2, column: 4 });
        assert_eq!(
            index.utf16_pos(text, x),
            Utf16Pos {
                line: 1,
                character: 4
            }
        );
        assert_eq!(index.offset_of_utf16(text, index.utf16_pos(text, x)), x);
        let last = text.find("last").unwrap();
        assert_eq!(index.line_col(text, last), LineCol { line: 3, column: 1 });
        assert_eq!(index.line_span(text, 1), Span::new(3, x + 1));
    }

    #[test]
    fn offsets_inside_a_char_round_down() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 1), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_col(text, 99), LineCol { line: 1, column: 2 });
    }

    #[test]
    fn line_col_round_trips() {
        let text = "one\ntwo é three\n";
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices() {
            let pos = index.line_col(text, offset);
            assert_eq!(index.offset_of_line_col(text, pos), offset);
        }
    }
}
