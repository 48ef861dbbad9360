//! The sentence splitter and claim maker as first written (every sentence into a
//! vector, brackets counted byte by byte, marker-only sentences merged into a
//! second vector), kept to test the lazy splitter against. The helpers that did not
//! change (and the abbreviation test, checked on its own) are shared.

use std::ops::Range;

use super::super::abbreviation::{is_abbreviation, word_before};
use super::super::{CITATION_PLACEHOLDER, Prose, claim_text};
use super::{is_closing, next_terminator, skip_while};
use crate::model::{Citation, Claim, FileId};

/// Longest stretch (bytes) a bracket may keep a sentence open.
const MAX_PARENTHETICAL: usize = 600;

/// The sentences of `text` up to the first one that starts after byte `last` and
/// holds a letter or digit (after it, no sentence joins one that reaches `last`).
pub fn split(text: &str, last: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    // Brackets opened in the current sentence: "(see Sect. 2. for details)" is one
    // sentence. Bounded, so that a stray `(` cannot swallow a paragraph.
    let mut depth = 0i32;
    let ideographic = memchr::memchr(0xE3, bytes).is_some() && text.contains('。');
    let mut i = 0;
    while let Some(at) = next_terminator(text, i, ideographic) {
        // Only the brackets between here and the terminator change the depth.
        depth += bracket_balance(&bytes[i..at]);
        i = at;
        let c = char_at(text, i).unwrap_or('.');
        if depth > 0 && i - start < MAX_PARENTHETICAL {
            i += c.len_utf8();
            continue;
        }
        // Swallow repeated terminators and closing quotes/brackets.
        let j = skip_while(text, i + c.len_utf8(), |d| {
            matches!(d, '.' | '?' | '!') || is_closing(d)
        });
        // Citation markers right after the terminator belong to this sentence.
        let mut k = j;
        loop {
            let m = skip_while(text, k, |d| d.is_whitespace() && d != '\n');
            if char_at(text, m) != Some(CITATION_PLACEHOLDER) {
                break;
            }
            k = skip_while(text, m + CITATION_PLACEHOLDER.len_utf8(), |d| {
                is_closing(d) || matches!(d, '.' | ',' | ';')
            });
        }
        let at_end = k >= text.len();
        let end_ws = char_at(text, k).is_some_and(char::is_whitespace);
        if (at_end || end_ws) && ends_sentence(text, i, c, k) {
            push_trimmed(text, start..k, &mut out);
            if out
                .last()
                .is_some_and(|r| r.start > last && has_word(&text[r.clone()]))
            {
                return out;
            }
            start = k;
            depth = 0;
            i = k;
            continue;
        }
        i = j;
    }
    push_trimmed(text, start..text.len(), &mut out);
    out
}

/// Brackets opened minus brackets closed in `bytes`.
fn bracket_balance(bytes: &[u8]) -> i32 {
    // Byte-wide sums over short chunks cannot overflow and compile to SIMD code.
    bytes
        .chunks(64)
        .map(|chunk| {
            let sum = chunk.iter().fold(0i8, |acc, &b| {
                acc + i8::from(b == b'(' || b == b'[') - i8::from(b == b')' || b == b']')
            });
            i32::from(sum)
        })
        .sum()
}

/// Whether `text` holds a letter or digit (citation placeholders are neither).
fn has_word(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric)
}

fn char_at(text: &str, at: usize) -> Option<char> {
    text.get(at..)?.chars().next()
}

/// Decide whether the terminator `c` at byte `at` ends a sentence, given that the
/// next text starts at byte `next`.
fn ends_sentence(text: &str, at: usize, c: char, next: usize) -> bool {
    let following = text
        .get(next..)
        .and_then(|rest| rest.chars().find(|c| !c.is_whitespace()));
    let Some(following) = following else {
        return true;
    };
    // A lowercase continuation means the period was not a sentence end ("approx. the");
    // looked at first, as it is cheaper than the abbreviation test.
    if following.is_lowercase() {
        return false;
    }
    !(c == '.' && is_abbreviation(word_before(text, at)))
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let bytes = text.as_bytes();
    let blank = |b: u8| b.is_ascii() && (b as char).is_whitespace();
    let (mut start, mut end) = (range.start, range.end);
    while start < end && blank(bytes[start]) {
        start += 1;
    }
    if start < end && !bytes[start].is_ascii() {
        // Maybe Unicode whitespace.
        start = end - text[start..end].trim_start().len();
    }
    while end > start && blank(bytes[end - 1]) {
        end -= 1;
    }
    if end > start && !bytes[end - 1].is_ascii() {
        end = start + text[start..end].trim_end().len();
    }
    if start < end {
        out.push(start..end);
    }
}

/// Split `prose` into sentences and make a claim of each that holds a citation.
pub fn attach_claims(
    file: FileId,
    prose: &Prose,
    citations: &mut [Citation],
    claims: &mut Vec<Claim>,
) {
    // Sentences after the last citation make no claim.
    let last = prose.citations.last().map_or(0, |c| c.0);
    let mut ranges = split(&prose.text, last);
    // Merge marker-only sentences into their predecessor.
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges.drain(..) {
        let only_markers = !has_word(&prose.text[range.clone()]);
        match merged.last_mut() {
            Some(prev) if only_markers => prev.end = range.end,
            _ => merged.push(range),
        }
    }
    // Citations are in text order, and so are the sentences.
    let mut next = 0;
    for range in merged {
        let first = next + prose.citations[next..].partition_point(|c| c.0 < range.start);
        next = first + prose.citations[first..].partition_point(|c| c.0 < range.end);
        let cited = &prose.citations[first..next];
        if cited.is_empty() {
            continue;
        }
        let text = claim_text(&prose.text[range.clone()]);
        let claim = claims.len();
        claims.push(Claim {
            file,
            span: prose.source_span(range),
            text,
        });
        for &(_, _, index) in cited {
            if let Some(citation) = citations.get_mut(index) {
                citation.claim = Some(claim);
            }
        }
    }
}
