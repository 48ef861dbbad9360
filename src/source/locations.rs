//! Where a byte of a converted text came from in the original file: a line on a
//! page of a PDF, a paragraph (and character) of a Word or OpenDocument file.
//!
//! A reader writes the text it makes one piece at a time and marks where each piece
//! starts ([`LocationMap::mark`]); a place in the text is then the last mark at or
//! before it, plus the characters since. Every output format asks the map through
//! [`crate::source::SourceFile::location`], so a finding in a PDF reads
//! `paper.pdf: page 3, line 12` everywhere.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

/// Which part of a word-processor document a paragraph belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    Body,
    /// The n-th footnote (1-based, in the order the text refers to them).
    Footnote(u32),
    /// The n-th endnote.
    Endnote(u32),
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Body => f.write_str("body"),
            Part::Footnote(n) => write!(f, "footnote {n}"),
            Part::Endnote(n) => write!(f, "endnote {n}"),
        }
    }
}

/// Where a piece of converted text starts in the original.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A line of a page (both 1-based; lines counted on their page).
    PageLine { page: u32, line: u32 },
    /// A paragraph (1-based, counted within its part).
    Paragraph { part: Part, paragraph: u32 },
}

/// A place in the original file, as reports show it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Location {
    /// `page 3, line 12`.
    Page { page: u32, line: u32 },
    /// `paragraph 14, character 230`, `footnote 2, paragraph 1, character 5`
    /// (`character` 1-based, counted in Unicode scalar values).
    Paragraph {
        part: Part,
        paragraph: u32,
        character: u32,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Page { page, line } => write!(f, "page {page}, line {line}"),
            Location::Paragraph {
                part: Part::Body,
                paragraph,
                character,
            } => write!(f, "paragraph {paragraph}, character {character}"),
            Location::Paragraph {
                part,
                paragraph,
                character,
            } => write!(f, "{part}, paragraph {paragraph}, character {character}"),
        }
    }
}

/// JSON: `{"page": 3, "line": 12, "label": "page 3, line 12"}` or
/// `{"part": "footnote 2", "paragraph": 1, "character": 5, "label": …}`.
impl Serialize for Location {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            Location::Page { page, line } => {
                map.serialize_entry("page", page)?;
                map.serialize_entry("line", line)?;
            }
            Location::Paragraph {
                part,
                paragraph,
                character,
            } => {
                map.serialize_entry("part", &part.to_string())?;
                map.serialize_entry("paragraph", paragraph)?;
                map.serialize_entry("character", character)?;
            }
        }
        map.serialize_entry("label", &self.to_string())?;
        map.end()
    }
}

/// Marks from offsets of a converted text to places in its original, in text order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LocationMap {
    marks: Vec<(usize, Origin)>,
}

impl LocationMap {
    pub fn new() -> LocationMap {
        LocationMap::default()
    }

    /// The text from `offset` on (up to the next mark) comes from `origin`. Marks
    /// are added in text order; a mark before the last one is ignored.
    pub fn mark(&mut self, offset: usize, origin: Origin) {
        if self.marks.last().is_some_and(|(last, _)| *last > offset) {
            return;
        }
        if self.marks.last().is_some_and(|(last, _)| *last == offset) {
            self.marks.pop();
        }
        self.marks.push((offset, origin));
    }

    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    /// Every mark, in text order.
    pub fn marks(&self) -> &[(usize, Origin)] {
        &self.marks
    }

    /// Where byte `offset` of `text` (the converted text) came from; `None` before
    /// the first mark.
    pub fn locate(&self, text: &str, offset: usize) -> Option<Location> {
        let k = self.marks.partition_point(|(start, _)| *start <= offset);
        let (start, origin) = self.marks.get(k.checked_sub(1)?)?;
        Some(match origin {
            Origin::PageLine { page, line } => Location::Page {
                page: *page,
                line: *line,
            },
            Origin::Paragraph { part, paragraph } => {
                let offset = text.floor_char_boundary(offset);
                let start = (*start).min(offset);
                Location::Paragraph {
                    part: part.clone(),
                    paragraph: *paragraph,
                    character: text[start..offset].chars().count() as u32 + 1,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_the_last_mark_before_it() {
        let text = "first line\nsecond é line\n";
        let mut map = LocationMap::new();
        map.mark(0, Origin::PageLine { page: 1, line: 4 });
        map.mark(11, Origin::PageLine { page: 2, line: 1 });
        assert_eq!(
            map.locate(text, 3),
            Some(Location::Page { page: 1, line: 4 })
        );
        assert_eq!(map.locate(text, 11).unwrap().to_string(), "page 2, line 1");
        assert_eq!(map.locate(text, 999).unwrap().to_string(), "page 2, line 1");
    }

    #[test]
    fn paragraphs_count_characters_from_their_start() {
        let text = "Intro.\nSé [1] here\n";
        let mut map = LocationMap::new();
        map.mark(
            0,
            Origin::Paragraph {
                part: Part::Body,
                paragraph: 1,
            },
        );
        map.mark(
            7,
            Origin::Paragraph {
                part: Part::Footnote(2),
                paragraph: 1,
            },
        );
        let at = text.find("[1]").unwrap();
        let location = map.locate(text, at).unwrap();
        assert_eq!(location.to_string(), "footnote 2, paragraph 1, character 4");
        let json = serde_json::to_value(&location).unwrap();
        assert_eq!(json["part"], "footnote 2");
        assert_eq!(json["character"], 4);
        assert_eq!(
            map.locate(text, 2).unwrap().to_string(),
            "paragraph 1, character 3"
        );
    }

    #[test]
    fn marks_out_of_order_are_ignored() {
        let mut map = LocationMap::new();
        assert_eq!(map.locate("x", 0), None);
        map.mark(5, Origin::PageLine { page: 1, line: 1 });
        map.mark(2, Origin::PageLine { page: 9, line: 9 });
        map.mark(5, Origin::PageLine { page: 1, line: 2 });
        assert_eq!(map.marks().len(), 1);
        assert_eq!(map.locate("x", 1), None);
    }
}
