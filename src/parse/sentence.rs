//! Sentence segmentation and claim extraction.
//!
//! Parsers assemble each paragraph into a [`Prose`]: plain text with citation markers
//! replaced by a placeholder and a map back to source offsets. [`attach_claims`] splits
//! the prose into sentences and turns every sentence that carries a citation into a
//! [`Claim`], with the markers removed.

use std::ops::Range;

use crate::model::{Citation, Claim, FileId, Span};

mod claim;

pub use claim::claim_text;

/// Stands in for a citation marker in prose text.
pub const CITATION_PLACEHOLDER: char = '\u{FFFC}';

#[derive(Debug, Clone, Copy)]
struct Segment {
    text_start: usize,
    src_start: usize,
    len: usize,
    /// Bytes map one to one onto the source (copied text) rather than to one point.
    copied: bool,
}

/// Plain text of one paragraph with a map back to source byte offsets.
#[derive(Debug, Clone, Default)]
pub struct Prose {
    pub text: String,
    segments: Vec<Segment>,
    /// (text offset of the placeholder, source span, citation index).
    citations: Vec<(usize, Span, usize)>,
}

impl Prose {
    pub fn new() -> Prose {
        Prose::default()
    }

    pub fn is_empty(&self) -> bool {
        self.text.trim().is_empty() && self.citations.is_empty()
    }

    /// Whether a citation marker has been pushed.
    pub fn has_citations(&self) -> bool {
        !self.citations.is_empty()
    }

    /// Empty the prose, keeping its allocations for the next paragraph.
    pub fn clear(&mut self) {
        self.text.clear();
        self.segments.clear();
        self.citations.clear();
    }

    /// Append text copied verbatim from the source, starting at `src_start`.
    pub fn push_source(&mut self, text: &str, src_start: usize) {
        self.push(text, src_start, true);
    }

    /// Append text that does not occur verbatim (a space for a line break, `ü` for
    /// `{\"u}`, the text of inline math); it maps to the source span `src`.
    pub fn push_synthetic(&mut self, text: &str, src: Span) {
        if text.is_empty() {
            return;
        }
        let text_start = self.text.len();
        self.text.push_str(text);
        self.segments.push(Segment {
            text_start,
            src_start: src.start,
            len: text.len(),
            copied: false,
        });
        // Remember the end too so a sentence ending here maps to the end of `src`.
        self.segments.push(Segment {
            text_start: self.text.len(),
            src_start: src.end,
            len: 0,
            copied: false,
        });
    }

    /// Append a citation marker occupying `src` in the source; `citation` is its index
    /// in the parser's citation list. Several citations may share one marker.
    pub fn push_citation(&mut self, src: Span, citation: usize) {
        let at = match self.citations.last() {
            Some(&(at, span, _)) if span == src => at,
            _ => {
                let at = self.text.len();
                let mut buf = [0u8; 4];
                self.push_synthetic(CITATION_PLACEHOLDER.encode_utf8(&mut buf), src);
                at
            }
        };
        self.citations.push((at, src, citation));
    }

    fn push(&mut self, text: &str, src_start: usize, copied: bool) {
        if text.is_empty() {
            return;
        }
        self.segments.push(Segment {
            text_start: self.text.len(),
            src_start,
            len: text.len(),
            copied,
        });
        self.text.push_str(text);
    }

    /// Source offset of a text offset (the start of the segment for synthetic text).
    pub fn source_offset(&self, text_offset: usize) -> usize {
        let index = self
            .segments
            .partition_point(|s| s.text_start <= text_offset)
            .saturating_sub(1);
        match self.segments.get(index) {
            Some(s) if s.copied => s.src_start + (text_offset - s.text_start).min(s.len),
            Some(s) => s.src_start,
            None => 0,
        }
    }

    /// Source span of a text range: from the start of its first byte to the end of its last.
    pub fn source_span(&self, range: Range<usize>) -> Span {
        let start = self.source_offset(range.start);
        let end = if range.end > range.start {
            let last = range.end - 1;
            let index = self
                .segments
                .partition_point(|s| s.text_start <= last)
                .saturating_sub(1);
            match self.segments.get(index) {
                Some(s) if s.copied => s.src_start + (range.end - s.text_start).min(s.len),
                Some(s) => self
                    .segments
                    .get(index + 1)
                    .filter(|next| next.len == 0 && !next.copied)
                    .map_or(s.src_start, |next| next.src_start),
                None => start,
            }
        } else {
            start
        };
        Span::new(start, end.max(start))
    }
}

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

/// Byte ranges of the sentences of `text`, trimmed of surrounding whitespace.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    split(text, usize::MAX)
}

/// The sentences of `text` up to the first one that starts after byte `last` and
/// holds a letter or digit (after it, no sentence joins one that reaches `last`).
fn split(text: &str, last: usize) -> Vec<Range<usize>> {
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

/// Split `prose` into sentences and make a [`Claim`] of each sentence that holds a
/// citation placeholder; sets `claim` on those citations. A sentence made only of
/// markers joins the one before it.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        sentences(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn survives_abbreviations_initials_and_decimals() {
        let text = "Smith et al. showed a 3.5 fold rise (see Fig. 2, cf. Eq. 4). \
                    J. R. R. Tolkien agreed, e.g. in vol. 2. A second sentence follows!";
        assert_eq!(
            split(text),
            vec![
                "Smith et al. showed a 3.5 fold rise (see Fig. 2, cf. Eq. 4).",
                "J. R. R. Tolkien agreed, e.g. in vol. 2.",
                "A second sentence follows!",
            ]
        );
    }

    #[test]
    fn brackets_keep_a_sentence_open_and_more_abbreviations() {
        let text = "Their work (see Sect. 2. Also Fig. 3) is fine. Sect. 4 has more. \
                    Values fell (p < 0.05). Why? Because.";
        assert_eq!(
            split(text),
            vec![
                "Their work (see Sect. 2. Also Fig. 3) is fine.",
                "Sect. 4 has more.",
                "Values fell (p < 0.05).",
                "Why?",
                "Because.",
            ]
        );
        // An unclosed bracket does not swallow the rest of a long paragraph.
        let long = format!(
            "An (unclosed aside. {} End here. Next one.",
            "word ".repeat(150)
        );
        assert!(split(&long).len() >= 2);
    }

    #[test]
    fn markers_after_the_period_stay_with_their_sentence() {
        let text = format!(
            "First claim. {p} Second claim.{p}{p} Third.",
            p = CITATION_PLACEHOLDER
        );
        assert_eq!(
            split(&text),
            vec![
                format!("First claim. {CITATION_PLACEHOLDER}"),
                format!("Second claim.{CITATION_PLACEHOLDER}{CITATION_PLACEHOLDER}"),
                "Third.".to_string(),
            ]
        );
    }

    #[test]
    fn claim_text_drops_markers_and_spaces() {
        let s = format!(
            "Deep nets work well {p}. Really {p}, yes ({p}).",
            p = CITATION_PLACEHOLDER
        );
        assert_eq!(claim_text(&s), "Deep nets work well. Really, yes.");
    }

    #[test]
    fn prose_maps_back_to_source() {
        let src = "Alpha beta [@k]. Gamma.";
        let mut prose = Prose::new();
        prose.push_source("Alpha beta ", 0);
        prose.push_citation(Span::new(11, 15), 0);
        prose.push_source(". Gamma.", 15);
        let mut citations = vec![Citation {
            key: "k".into(),
            kind: crate::model::CitationKind::Key,
            file: FileId(0),
            span: Span::new(13, 14),
            group_span: Span::new(11, 15),
            command: None,
            id: None,
            narrative: false,
            claim: None,
            reference: None,
        }];
        let mut claims = Vec::new();
        attach_claims(FileId(0), &prose, &mut citations, &mut claims);
        assert_eq!(claims.len(), 1);
        assert_eq!(
            &src[claims[0].span.start..claims[0].span.end],
            "Alpha beta [@k]."
        );
        assert_eq!(claims[0].text, "Alpha beta.");
        assert_eq!(citations[0].claim, Some(0));
    }
}
