//! Writing a converted text: one line per paragraph of the original (a PDF
//! paragraph's lines joined, a Word paragraph, a reference-list entry), with a
//! mark wherever a piece of the original starts (each PDF line), and reading the
//! citations and claims of its prose paragraphs. Shared by the PDF and the
//! word-processor readers.
//!
//! A paragraph is one line so that the citation scanner sees a marker broken over
//! two lines of the page (`(Smith et al.,` / `2020)`) whole, and a word hyphenated
//! at a line end is written whole; the marks keep every byte's page and line.

use crate::model::{Citation, Claim, FileId, Span};
use crate::parse::collect::Collector;
use crate::parse::inline::{Found, Syntax};

use crate::source::locations::{LocationMap, Origin};

/// A converted text being written.
#[derive(Debug, Default)]
pub struct Composer {
    text: String,
    locations: LocationMap,
    /// Where the line being written starts, while one is open.
    open: Option<usize>,
}

impl Composer {
    pub fn new() -> Composer {
        Composer::default()
    }

    /// Add `content`, which came from `origin`, to the line being written (a new
    /// one when none is open): after a space, or right after a hyphen-broken word
    /// (the hyphen is dropped). Returns the bytes `content` took.
    pub fn append(&mut self, origin: Origin, content: &str) -> Span {
        let content = content.trim();
        match self.open {
            Some(start) if self.text.len() > start => {
                if breaks_word(&self.text[start..], content) {
                    self.text.pop();
                } else {
                    self.text.push(' ');
                }
            }
            Some(_) => {}
            None => self.open = Some(self.text.len()),
        }
        self.locations.mark(self.text.len(), origin);
        let start = self.text.len();
        self.push_flat(content);
        Span::new(start, self.text.len())
    }

    /// End the line being written; returns its span (`None` when none was open or
    /// it is empty).
    pub fn end_line(&mut self) -> Option<Span> {
        let start = self.open.take()?;
        let span = Span::new(start, self.text.len());
        self.text.push('\n');
        (!span.is_empty()).then_some(span)
    }

    /// Write `content` as a line of its own, as it is (flattened by [`flat_char`],
    /// not trimmed: a byte of `content` at offset `k` is at `span.start + k` when
    /// `content` is flat already).
    pub fn line(&mut self, origin: Origin, content: &str) -> Span {
        self.end_line();
        self.locations.mark(self.text.len(), origin);
        let start = self.text.len();
        self.push_flat(content);
        let span = Span::new(start, self.text.len());
        self.text.push('\n');
        span
    }

    /// Write `[label] content` as a line of its own; returns the line's span and
    /// the label's.
    pub fn labelled_line(&mut self, origin: Origin, label: &str, content: &str) -> (Span, Span) {
        self.end_line();
        self.locations.mark(self.text.len(), origin);
        let start = self.text.len();
        self.text.push('[');
        let label_start = self.text.len();
        self.push_flat(label.trim());
        let label_span = Span::new(label_start, self.text.len());
        self.text.push_str("] ");
        self.push_flat(content.trim());
        let span = Span::new(start, self.text.len());
        self.text.push('\n');
        (span, label_span)
    }

    /// An empty line (the parsers of plain text end a block there).
    pub fn blank(&mut self) {
        self.end_line();
        self.text.push('\n');
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn finish(mut self) -> (String, LocationMap) {
        self.end_line();
        (self.text, self.locations)
    }

    fn push_flat(&mut self, content: &str) {
        self.text.extend(content.chars().map(flat_char));
    }
}

/// A character as a converted text holds it: control characters and line or
/// paragraph separators become spaces, so that one piece of the original stays on
/// one line. Readers that keep offsets into their pieces flatten with it first.
pub fn flat_char(c: char) -> char {
    if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
        ' '
    } else {
        c
    }
}

/// `line` ends with a hyphen that splits a word whose rest starts `next`:
/// `… cita-` / `tion checking …`.
fn breaks_word(line: &str, next: &str) -> bool {
    let mut back = line.chars().rev();
    let hyphen = back.next() == Some('-');
    let letter_before = back.next().is_some_and(char::is_alphabetic);
    let lower_after = next.chars().next().is_some_and(char::is_lowercase);
    hyphen && letter_before && lower_after
}

/// A paragraph of prose, with the citations a reader already knows in it (a
/// Word file's reference-manager fields), which the scanners do not read again.
#[derive(Debug, Clone, Default)]
pub struct Paragraph {
    pub span: Span,
    /// In text order, inside `span`, not overlapping.
    pub known: Vec<Found>,
}

impl Paragraph {
    pub fn plain(span: Span) -> Paragraph {
        Paragraph {
            span,
            known: Vec::new(),
        }
    }
}

/// The citations and claims of prose paragraphs of `text`: markers are found by
/// the scanners outside the known citations, and each paragraph's sentences that
/// carry a citation become claims.
pub fn read_prose(
    file: FileId,
    text: &str,
    paragraphs: Vec<Paragraph>,
) -> (Vec<Citation>, Vec<Claim>) {
    let mut collector = Collector::new(file, text);
    for paragraph in paragraphs {
        let mut at = paragraph.span.start;
        for found in paragraph.known {
            if found.group.start < at || found.group.end > paragraph.span.end {
                continue;
            }
            collector.run(Span::new(at, found.group.start), Syntax::TYPESET);
            at = found.group.end;
            collector.construct(found);
        }
        collector.run(Span::new(at, paragraph.span.end), Syntax::TYPESET);
        collector.flush();
    }
    collector.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(page: u32, line: u32) -> Origin {
        Origin::PageLine { page, line }
    }

    #[test]
    fn paragraphs_are_lines_and_every_piece_is_marked() {
        let mut c = Composer::new();
        c.append(at(1, 1), "Citation check-");
        let second = c.append(at(1, 2), "ing\tmatters (Smith et al.,");
        c.append(at(2, 1), "2020).");
        let paragraph = c.end_line().unwrap();
        let (entry, label) = c.labelled_line(at(9, 3), "12", "An entry.\n");
        let (text, map) = c.finish();
        assert_eq!(
            text,
            "Citation checking matters (Smith et al., 2020).\n[12] An entry.\n"
        );
        assert_eq!(
            &text[second.start..second.end],
            "ing matters (Smith et al.,"
        );
        assert_eq!(&text[label.start..label.end], "12");
        let place = |offset| map.locate(&text, offset).unwrap().to_string();
        assert_eq!(place(text.find("checking").unwrap()), "page 1, line 1");
        assert_eq!(place(text.find("matters").unwrap()), "page 1, line 2");
        assert_eq!(place(text.find("2020").unwrap()), "page 2, line 1");
        assert_eq!(place(entry.start), "page 9, line 3");
        let (citations, claims) = read_prose(FileId(0), &text, vec![Paragraph::plain(paragraph)]);
        assert_eq!(citations.len(), 1, "{citations:?}");
        assert_eq!(citations[0].key, "Smith et al., 2020");
        assert_eq!(claims[0].text, "Citation checking matters.");
    }

    #[test]
    fn hyphens_stay_unless_they_break_a_word() {
        let mut c = Composer::new();
        c.append(at(1, 1), "a state-of-the-");
        c.append(at(1, 2), "Art model, see-");
        c.append(at(1, 3), "ing it");
        let (text, _) = c.finish();
        assert_eq!(text, "a state-of-the- Art model, seeing it\n");
    }
}
