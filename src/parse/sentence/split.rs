//! Sentence boundaries: a lazy iterator over the sentences of a text, so that
//! callers that stop early (after the last citation) and callers that merge
//! sentences need no buffer.

use std::ops::Range;

use super::abbreviation::is_abbreviation;

/// The placeholder's UTF-8 bytes, compared without decoding.
const PLACEHOLDER: &[u8] = "\u{FFFC}".as_bytes();

/// Longest stretch (bytes) a bracket may keep a sentence open.
const MAX_PARENTHETICAL: usize = 600;

/// The sentences of a text as byte ranges trimmed of surrounding whitespace, in
/// order; blank sentences are left out.
pub struct Sentences<'t> {
    text: &'t str,
    /// Start of the sentence being read.
    start: usize,
    /// Where the search for the next terminator goes on.
    at: usize,
    /// Brackets opened in the current sentence: "(see Sect. 2. for details)" is one
    /// sentence. Bounded, so that a stray `(` cannot swallow a paragraph.
    depth: i32,
    opening: Brackets,
    closing: Brackets,
    ideographic: bool,
    done: bool,
}

impl<'t> Sentences<'t> {
    pub fn new(text: &'t str) -> Sentences<'t> {
        let bytes = text.as_bytes();
        Sentences {
            text,
            start: 0,
            at: 0,
            depth: 0,
            opening: Brackets::new(b'(', b'['),
            closing: Brackets::new(b')', b']'),
            ideographic: memchr::memchr(0xE3, bytes).is_some() && text.contains('。'),
            done: false,
        }
    }

    /// The end of the current sentence (where the next one starts), or `None` when
    /// no terminator is left.
    fn next_end(&mut self) -> Option<usize> {
        let text = self.text;
        let bytes = text.as_bytes();
        while let Some(at) = next_terminator(text, self.at, self.ideographic) {
            // Only the brackets between here and the terminator change the depth.
            self.depth += self.opening.count(bytes, self.at..at);
            self.depth -= self.closing.count(bytes, self.at..at);
            // Every terminator but `。` is one ASCII byte.
            let (c, len) = if bytes[at].is_ascii() {
                (bytes[at], 1)
            } else {
                (0, '。'.len_utf8())
            };
            if self.depth > 0 && at - self.start < MAX_PARENTHETICAL {
                self.at = at + len;
                continue;
            }
            // Swallow repeated terminators and closing quotes/brackets.
            let j = skip_while(text, at + len, |d| {
                matches!(d, '.' | '?' | '!') || is_closing(d)
            });
            // Citation markers right after the terminator belong to this sentence.
            let mut k = j;
            loop {
                let m = skip_while(text, k, |d| d.is_whitespace() && d != '\n');
                if !bytes[m..].starts_with(PLACEHOLDER) {
                    break;
                }
                k = skip_while(text, m + PLACEHOLDER.len(), |d| {
                    is_closing(d) || matches!(d, '.' | ',' | ';')
                });
            }
            let ends_here = k >= text.len() || starts_with_whitespace(text, k);
            if ends_here && ends_sentence(text, at, c == b'.', k) {
                self.depth = 0;
                self.at = k;
                return Some(k);
            }
            self.at = j;
        }
        None
    }
}

impl Iterator for Sentences<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        while !self.done {
            let start = self.start;
            let end = match self.next_end() {
                Some(end) => end,
                None => {
                    self.done = true;
                    self.text.len()
                }
            };
            self.start = end;
            if let Some(range) = trimmed(self.text, start..end) {
                return Some(range);
            }
        }
        None
    }
}

fn is_closing(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | ')' | ']' | '}' | '”' | '’' | '»' | '*' | '_'
    )
}

/// The next `.`, `?`, `!` or `。` at or after byte `from`.
fn next_terminator(text: &str, from: usize, ideographic: bool) -> Option<usize> {
    let rest = text.as_bytes().get(from..)?;
    let ascii = memchr::memchr3(b'.', b'?', b'!', rest);
    let wide = if ideographic {
        text[from..].find('。')
    } else {
        None
    };
    match (ascii, wide) {
        (Some(a), Some(w)) => Some(from + a.min(w)),
        (a, w) => a.or(w).map(|x| from + x),
    }
}

/// One kind of bracket (opening or closing), found with `memchr` as the reading
/// moves on: brackets are rare in prose, so this is cheaper than looking at every
/// byte between terminators.
struct Brackets {
    round: u8,
    square: u8,
    /// The next bracket at or after where the last count ended, `None` before the
    /// first search; the text's length when there is none.
    next: Option<usize>,
}

impl Brackets {
    fn new(round: u8, square: u8) -> Brackets {
        Brackets {
            round,
            square,
            next: None,
        }
    }

    /// How many brackets lie in `range`; those before it are passed over.
    /// Ranges must come in increasing order.
    fn count(&mut self, bytes: &[u8], range: Range<usize>) -> i32 {
        let mut next = match self.next {
            Some(next) => next,
            None => self.find(bytes, 0),
        };
        while next < range.start {
            next = self.find(bytes, next + 1);
        }
        let mut count = 0;
        while next < range.end {
            count += 1;
            next = self.find(bytes, next + 1);
        }
        self.next = Some(next);
        count
    }

    fn find(&self, bytes: &[u8], from: usize) -> usize {
        bytes
            .get(from..)
            .and_then(|rest| memchr::memchr2(self.round, self.square, rest))
            .map_or(bytes.len(), |at| from + at)
    }
}

/// Whether `text` holds a letter or digit (citation placeholders are neither).
pub fn has_word(text: &str) -> bool {
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if b.is_ascii_alphanumeric() {
            return true;
        }
        if !b.is_ascii() {
            return text[i..].chars().any(char::is_alphanumeric);
        }
    }
    false
}

/// An ASCII whitespace byte, as `char::is_whitespace` sees it.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

/// Whether the character at byte `at` is whitespace.
fn starts_with_whitespace(text: &str, at: usize) -> bool {
    match text.as_bytes().get(at) {
        Some(&b) if b.is_ascii() => is_blank(b),
        Some(_) => text[at..].chars().next().is_some_and(char::is_whitespace),
        None => false,
    }
}

/// The first byte at or after `from` whose character does not satisfy `keep`.
fn skip_while(text: &str, from: usize, keep: impl Fn(char) -> bool) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        let c = match bytes[i] {
            b if b.is_ascii() => b as char,
            _ => match text.get(i..).and_then(|rest| rest.chars().next()) {
                Some(c) => c,
                None => return text.len(),
            },
        };
        if !keep(c) {
            return i;
        }
        i += c.len_utf8();
    }
    text.len()
}

/// Decide whether the terminator at byte `at` (a period when `period`) ends a
/// sentence, given that the next text starts at byte `next`.
fn ends_sentence(text: &str, at: usize, period: bool, next: usize) -> bool {
    let following = skip_while(text, next, char::is_whitespace);
    let Some(&b) = text.as_bytes().get(following) else {
        return true;
    };
    // A lowercase continuation means the period was not a sentence end ("approx. the");
    // looked at first, as it is cheaper than the abbreviation test.
    let lowercase = if b.is_ascii() {
        b.is_ascii_lowercase()
    } else {
        text[following..]
            .chars()
            .next()
            .is_some_and(char::is_lowercase)
    };
    if lowercase {
        return false;
    }
    !(period && is_abbreviation(word_before(text, at)))
}

/// The word (letters, digits and inner periods) that ends just before byte `dot`.
fn word_before(text: &str, dot: usize) -> &str {
    let bytes = text.as_bytes();
    let mut start = dot;
    while start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'.') {
        start -= 1;
    }
    if start > 0 && !bytes[start - 1].is_ascii() {
        // A non-ASCII letter may continue the word: read it by characters.
        start = text[..start]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| c.is_alphanumeric() || c == '.')
            .last()
            .map_or(start, |(i, _)| i);
    }
    &text[start..dot]
}

/// `range` without surrounding whitespace, unless nothing is left.
fn trimmed(text: &str, range: Range<usize>) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let (mut start, mut end) = (range.start, range.end);
    while start < end && is_blank(bytes[start]) {
        start += 1;
    }
    if start < end && !bytes[start].is_ascii() {
        // Maybe Unicode whitespace.
        start = end - text[start..end].trim_start().len();
    }
    while end > start && is_blank(bytes[end - 1]) {
        end -= 1;
    }
    if end > start && !bytes[end - 1].is_ascii() {
        end = start + text[start..end].trim_end().len();
    }
    (start < end).then_some(start..end)
}

#[cfg(test)]
mod reference;

#[cfg(test)]
mod tests {
    use super::super::{Prose, attach_claims};
    use super::*;
    use crate::model::{Citation, CitationKind, Claim, FileId, Span};

    /// Text pieces around sentence ends: terminators, brackets, quotes, markers,
    /// abbreviations, initials, whitespace of all kinds and non-ASCII letters.
    const PIECES: &[&str] = &[
        "Word", "word", "a", "J", "Ö", "é", "3", "5", "al", "e.g", "Fig", "approx", "u.s", ".",
        "..", "?", "!", "。", ",", ";", ")", "(", "[", "]", "\"", "'", "”", "’", "»", "*", "_",
        "}", " ", "  ", "\n", "\t", "\u{A0}", "\u{3000}", "\u{FFFC}",
    ];

    proptest::proptest! {
        #[test]
        fn splits_as_the_first_version_did(parts in proptest::collection::vec(
            proptest::sample::select(PIECES), 0..60)) {
            let text = parts.concat();
            let new: Vec<Range<usize>> = Sentences::new(&text).collect();
            proptest::prop_assert_eq!(new, reference::split(&text, usize::MAX), "{:?}", text);
        }

        #[test]
        fn claims_as_the_first_version_made_them(parts in proptest::collection::vec(
            proptest::sample::select(PIECES), 0..60)) {
            // Every placeholder piece becomes a citation marker of its own.
            let mut prose = Prose::new();
            let mut citations = Vec::new();
            let mut src = 0;
            for part in &parts {
                if *part == "\u{FFFC}" {
                    prose.push_citation(Span::new(src, src + 4), citations.len());
                    citations.push(citation(src));
                    src += 4;
                } else {
                    prose.push_source(part, src);
                    src += part.len();
                }
            }
            let (mut new_citations, mut new_claims) = (citations.clone(), Vec::<Claim>::new());
            let (mut old_citations, mut old_claims) = (citations, Vec::<Claim>::new());
            if prose.has_citations() {
                attach_claims(FileId(0), &prose, &mut new_citations, &mut new_claims);
                reference::attach_claims(FileId(0), &prose, &mut old_citations, &mut old_claims);
            }
            proptest::prop_assert_eq!(&new_claims, &old_claims, "{:?}", prose.text);
            proptest::prop_assert_eq!(new_citations, old_citations);
        }
    }

    fn citation(at: usize) -> Citation {
        Citation {
            key: "k".into(),
            kind: CitationKind::Key,
            file: FileId(0),
            span: Span::new(at, at + 4),
            group_span: Span::new(at, at + 4),
            command: None,
            id: None,
            narrative: false,
            claim: None,
            reference: None,
        }
    }

    #[test]
    fn has_word_reads_non_ascii_letters() {
        assert!(has_word("\u{FFFC} é"));
        assert!(has_word(" (x)"));
        assert!(!has_word("\u{FFFC}. \u{FFFC}"));
        assert!(!has_word(""));
    }

    #[test]
    fn trimmed_drops_unicode_spaces_and_blank_ranges() {
        let text = "\u{A0} a b\u{3000} ";
        assert_eq!(trimmed(text, 0..text.len()).map(|r| &text[r]), Some("a b"));
        assert_eq!(trimmed("  \n", 0..3), None);
    }
}
