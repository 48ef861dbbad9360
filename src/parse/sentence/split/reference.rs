//! The sentence splitter and claim maker as first written (one sentence vector,
//! a second one for merged sentences), kept to test the streaming code against.

use std::ops::Range;

use super::super::{CITATION_PLACEHOLDER, Prose, claim_text};
use crate::model::{Citation, Claim, FileId};

/// Abbreviations after which a period does not end a sentence (compared lowercase,
/// without the final period).
const ABBREVIATIONS: &[&str] = &[
    "al", "e.g", "i.e", "cf", "vs", "viz", "fig", "figs", "eq", "eqs", "eqn", "eqns", "ref",
    "refs", "sec", "secs", "tab", "tbl", "ch", "chap", "app", "no", "nos", "vol", "vols", "pp",
    "p", "ed", "eds", "approx", "resp", "dr", "mr", "mrs", "ms", "prof", "st", "inc", "ltd", "co",
    "corp", "jr", "sr", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
    "nov", "dec", "u.s", "u.k", "e.u", "ca", "c", "incl", "def", "thm", "lem", "prop", "cor",
    "suppl", "supp", "est", "dept", "univ", "ibid", "op", "cit", "n.b", "a.k.a", "mt", "sp", "spp",
    "sect", "sects", "para", "paras", "fn", "n.d", "appx", "ex",
];

fn is_closing(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | ')' | ']' | '}' | '”' | '’' | '»' | '*' | '_'
    )
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

fn is_abbreviation(word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    // A single capital letter is an initial ("J. Smith"); so are chains like "J.R".
    let mut chars = word.chars();
    if let (Some(first), None) = (chars.next(), chars.next()) {
        return first.is_uppercase();
    }
    if word.is_ascii() {
        // `J.R`: single capitals separated by periods.
        let initials = word.bytes().enumerate().all(|(i, b)| {
            if i % 2 == 0 {
                b.is_ascii_uppercase()
            } else {
                b == b'.'
            }
        });
        if initials && word.len() % 2 == 1 {
            return true;
        }
    } else if word.split('.').all(|part| {
        let mut cs = part.chars();
        matches!((cs.next(), cs.next()), (Some(c), None) if c.is_uppercase())
    }) {
        return true;
    }
    // Listed words are short ASCII: compare them as integers, without allocating.
    static LISTED: std::sync::LazyLock<Vec<u64>> = std::sync::LazyLock::new(|| {
        let mut listed: Vec<u64> = ABBREVIATIONS.iter().filter_map(|a| packed(a)).collect();
        listed.sort_unstable();
        listed
    });
    packed(word).is_some_and(|key| LISTED.binary_search(&key).is_ok())
}

/// An ASCII word of at most eight bytes as one lowercase integer.
fn packed(word: &str) -> Option<u64> {
    if word.len() > 8 || !word.is_ascii() {
        return None;
    }
    let mut buf = [0u8; 8];
    for (b, w) in buf.iter_mut().zip(word.bytes()) {
        *b = w.to_ascii_lowercase();
    }
    Some(u64::from_be_bytes(buf))
}

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
