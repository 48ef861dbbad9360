//! LSP positions ↔ byte offsets, in the position encoding agreed with the client
//! (UTF-8, UTF-16 or UTF-32 code units per line), through the document's one
//! [`LineIndex`]. Positions past a line's end clamp to it; lines past the end clamp
//! to the end of the text, so every position a client sends maps to a valid offset.

use lsp_types::{ClientCapabilities, Position, PositionEncodingKind, Range};

use crate::model::Span;
use crate::source::LineIndex;

/// How a position's `character` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    Utf8,
    /// The protocol's default, which every client understands.
    #[default]
    Utf16,
    Utf32,
}

impl Encoding {
    /// Pick from what the client offers: UTF-8 (our spans are bytes: no conversion),
    /// then UTF-32, else the default UTF-16.
    pub fn negotiate(capabilities: &ClientCapabilities) -> Encoding {
        let offered = capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref());
        let Some(offered) = offered else {
            return Encoding::Utf16;
        };
        if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else if offered.contains(&PositionEncodingKind::UTF32) {
            Encoding::Utf32
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn units(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
            Encoding::Utf32 => 1,
        }
    }

    /// The position of a byte offset (an offset inside a character counts as the
    /// character's start).
    pub fn position(self, text: &str, index: &LineIndex, offset: usize) -> Position {
        let offset = floor_boundary(text, offset.min(text.len()));
        let line = index.line_of(offset);
        let start = index.line_start(line);
        let character = match self {
            Encoding::Utf8 => (offset - start) as u32,
            _ => text[start..offset].chars().map(|c| self.units(c)).sum(),
        };
        Position::new(line as u32, character)
    }

    /// The byte offset of a position, clamped into the text (never inside a
    /// character, never inside a `\r\n`).
    pub fn offset(self, text: &str, index: &LineIndex, position: Position) -> usize {
        let line = position.line as usize;
        if line >= index.line_count() {
            return text.len();
        }
        let span = index.line_span(text, line);
        let mut units = 0u32;
        for (i, c) in text[span.start..span.end].char_indices() {
            if units >= position.character {
                return span.start + i;
            }
            units += self.units(c);
            if units > position.character {
                // Inside a character: its start.
                return span.start + i;
            }
        }
        span.end
    }

    pub fn range(self, text: &str, index: &LineIndex, span: Span) -> Range {
        Range::new(
            self.position(text, index, span.start),
            self.position(text, index, span.end),
        )
    }

    pub fn span(self, text: &str, index: &LineIndex, range: Range) -> Span {
        let start = self.offset(text, index, range.start);
        let end = self.offset(text, index, range.end);
        Span::new(start.min(end), start.max(end))
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_encoding_counts_its_units() {
        let text = "a😀é\r\nz";
        let index = LineIndex::new(text);
        let end_of_line = 1 + 4 + 2;
        assert_eq!(
            Encoding::Utf8.position(text, &index, end_of_line),
            Position::new(0, 7)
        );
        assert_eq!(
            Encoding::Utf16.position(text, &index, end_of_line),
            Position::new(0, 4)
        );
        assert_eq!(
            Encoding::Utf32.position(text, &index, end_of_line),
            Position::new(0, 3)
        );
        for e in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let p = e.position(text, &index, end_of_line);
            assert_eq!(e.offset(text, &index, p), end_of_line);
            // Past the line end: the end of the line, before `\r\n`.
            assert_eq!(e.offset(text, &index, Position::new(0, 99)), end_of_line);
            assert_eq!(e.offset(text, &index, Position::new(9, 0)), text.len());
        }
        // Inside the emoji (a UTF-16 surrogate pair): the emoji's start.
        assert_eq!(Encoding::Utf16.offset(text, &index, Position::new(0, 2)), 1);
    }
}
