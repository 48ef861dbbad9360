//! Sentence boundaries: a lazy iterator over the sentences of a text, so that
//! callers that stop early (after the last citation) and callers that merge
//! sentences need no buffer.

use std::ops::Range;

use super::PLACEHOLDER_UTF8;
use super::abbreviation::ends_in_abbreviation;

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
    depth: Depth,
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
            depth: Depth::new(),
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
            // Every terminator but `。` is one ASCII byte.
            let (c, len) = if bytes[at].is_ascii() {
                (bytes[at], 1)
            } else {
                (0, '。'.len_utf8())
            };
            // Bounded, so that a stray `(` cannot swallow a paragraph.
            if self.depth.is_open(bytes, self.at, at) && at - self.start < MAX_PARENTHETICAL {
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
                if !bytes[m..].starts_with(PLACEHOLDER_UTF8) {
                    break;
                }
                k = skip_while(text, m + PLACEHOLDER_UTF8.len(), |d| {
                    is_closing(d) || matches!(d, '.' | ',' | ';')
                });
            }
            let ends_here = k >= text.len() || starts_with_whitespace(text, k);
            if ends_here && ends_sentence(text, at, c == b'.', k) {
                self.depth.restart(k);
                self.at = k;
                return Some(k);
            }
            self.depth.pass(&bytes[at + len..j]);
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

/// Whether brackets are open in the sentence being read: "(see Sect. 2. for
/// details)" is one sentence. Closing brackets are counted only once a bracket has
/// been opened in the sentence, as before that none can be open, and most
/// sentences open none.
struct Depth {
    opening: Brackets,
    closing: Brackets,
    /// Brackets opened in the sentence so far.
    opened: i32,
    /// Brackets closed in the sentence before byte `closed_to`.
    closed: i32,
    closed_to: usize,
    /// Closing brackets swallowed after terminators: they do not count.
    passed: i32,
}

impl Depth {
    fn new() -> Depth {
        Depth {
            opening: Brackets::new(b'(', b'['),
            closing: Brackets::new(b')', b']'),
            opened: 0,
            closed: 0,
            closed_to: 0,
            passed: 0,
        }
    }

    /// A new sentence starts at byte `start`.
    fn restart(&mut self, start: usize) {
        (self.opened, self.closed, self.closed_to, self.passed) = (0, 0, start, 0);
    }

    /// Whether brackets are open at byte `at`, reading on from byte `from`.
    fn is_open(&mut self, bytes: &[u8], from: usize, at: usize) -> bool {
        self.opened += self.opening.count(bytes, from..at);
        if self.opened == 0 {
            return false;
        }
        self.closed += self.closing.count(bytes, self.closed_to..at);
        self.closed_to = at;
        self.opened - self.closed + self.passed > 0
    }

    /// `swallowed` (terminators, closing quotes and brackets) is read on from
    /// without its closing brackets counting.
    fn pass(&mut self, swallowed: &[u8]) {
        let closing = swallowed.iter().filter(|&&b| b == b')' || b == b']');
        self.passed += closing.count() as i32;
    }
}

/// One kind of bracket (opening or closing), found with `memchr`: brackets are rare
/// in prose, so this is cheaper than looking at every byte between terminators.
struct Brackets {
    round: u8,
    square: u8,
    /// The first bracket at or after the end of the last range counted (`None`
    /// before the first search); the text's length when there is none.
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

    /// How many brackets lie in `range`. Ranges must not go back; brackets between
    /// them are passed over.
    fn count(&mut self, bytes: &[u8], range: Range<usize>) -> i32 {
        let mut next = match self.next {
            Some(next) if next >= range.start => next,
            _ => self.find(bytes, range.start),
        };
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
    !(period && ends_in_abbreviation(text, at))
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

    /// The pieces that decide sentence ends, more often than the rest, and a long
    /// stretch of words now and then (brackets keep a sentence open for 600 bytes
    /// at most).
    fn pieces() -> impl proptest::strategy::Strategy<Value = Vec<&'static str>> {
        use proptest::prelude::*;
        const DECISIVE: &[&str] = &[".", ". ", ")", "(", "]", "[", " ", "A", "a", "\u{FFFC}"];
        let long = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod \
                    tempor incididunt ut labore et dolore magna aliqua ut enim ad minim";
        let piece = prop_oneof![
            4 => proptest::sample::select(DECISIVE),
            3 => proptest::sample::select(PIECES),
            1 => Just(long),
        ];
        proptest::collection::vec(piece, 0..80)
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(2000))]

        #[test]
        fn splits_as_the_first_version_did(parts in pieces()) {
            let text = parts.concat();
            let new: Vec<Range<usize>> = Sentences::new(&text).collect();
            proptest::prop_assert_eq!(new, reference::split(&text, usize::MAX), "{:?}", text);
        }

        #[test]
        fn claims_as_the_first_version_made_them(parts in pieces()) {
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
