//! Sentence segmentation and claim extraction.
//!
//! Parsers assemble each paragraph into a [`Prose`]: plain text with citation markers
//! replaced by a placeholder and a map back to source offsets. [`attach_claims`] splits
//! the prose into sentences and turns every sentence that carries a citation into a
//! [`Claim`], with the markers removed.

use std::ops::Range;

use crate::model::{Citation, Claim, FileId, Span};

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
    let start = text[..dot]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| c.is_alphanumeric() || c == '.')
        .last()
        .map_or(dot, |(i, _)| i);
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
    if word.split('.').all(|part| {
        let mut cs = part.chars();
        matches!((cs.next(), cs.next()), (Some(c), None) if c.is_uppercase())
    }) {
        return true;
    }
    let lower = word.to_lowercase();
    ABBREVIATIONS.contains(&lower.as_str())
}

/// Longest stretch (bytes) a bracket may keep a sentence open.
const MAX_PARENTHETICAL: usize = 600;

/// Byte ranges of the sentences of `text`, trimmed of surrounding whitespace.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    // Brackets opened in the current sentence: "(see Sect. 2. for details)" is one
    // sentence. Bounded, so that a stray `(` cannot swallow a paragraph.
    let mut depth = 0i32;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if matches!(c, '.' | '?' | '!' | '。') && depth > 0 && at - start < MAX_PARENTHETICAL {
            i += 1;
            continue;
        }
        if matches!(c, '.' | '?' | '!' | '。') {
            // Swallow repeated terminators and closing quotes/brackets.
            let mut j = i + 1;
            while j < chars.len()
                && (matches!(chars[j].1, '.' | '?' | '!') || is_closing(chars[j].1))
            {
                j += 1;
            }
            // Citation markers right after the terminator belong to this sentence.
            let mut k = j;
            loop {
                let mut m = k;
                while m < chars.len() && chars[m].1.is_whitespace() && chars[m].1 != '\n' {
                    m += 1;
                }
                if m < chars.len() && chars[m].1 == CITATION_PLACEHOLDER {
                    k = m + 1;
                    while k < chars.len()
                        && (is_closing(chars[k].1) || matches!(chars[k].1, '.' | ',' | ';'))
                    {
                        k += 1;
                    }
                } else {
                    break;
                }
            }
            let end_ws = k < chars.len() && chars[k].1.is_whitespace();
            if (k >= chars.len() || end_ws) && ends_sentence(text, at, c, &chars, k) {
                let end = chars.get(k).map_or(text.len(), |&(b, _)| b);
                push_trimmed(text, start..end, &mut out);
                start = end;
                depth = 0;
                i = k;
                continue;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    push_trimmed(text, start..text.len(), &mut out);
    out
}

/// Decide whether the terminator `c` at byte `at` ends a sentence, given that the
/// next non-space text starts after char index `next`.
fn ends_sentence(text: &str, at: usize, c: char, chars: &[(usize, char)], next: usize) -> bool {
    let following = chars[next.min(chars.len())..]
        .iter()
        .map(|&(_, c)| c)
        .find(|c| !c.is_whitespace());
    let Some(following) = following else {
        return true;
    };
    if c == '.' && is_abbreviation(word_before(text, at)) {
        return false;
    }
    // A lowercase continuation means the period was not a sentence end ("approx. the").
    !following.is_lowercase()
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let slice = &text[range.clone()];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    if lead + trail < slice.len() {
        out.push(range.start + lead..range.end - trail);
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
    let mut ranges = sentences(&prose.text);
    // Merge marker-only sentences into their predecessor.
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges.drain(..) {
        let only_markers = prose.text[range.clone()]
            .chars()
            .all(|c| c == CITATION_PLACEHOLDER || !c.is_alphanumeric());
        match merged.last_mut() {
            Some(prev) if only_markers => prev.end = range.end,
            _ => merged.push(range),
        }
    }
    for range in merged {
        let cited: Vec<usize> = prose
            .citations
            .iter()
            .filter(|(at, _, _)| range.contains(at))
            .map(|&(_, _, index)| index)
            .collect();
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
        for index in cited {
            if let Some(citation) = citations.get_mut(index) {
                citation.claim = Some(claim);
            }
        }
    }
}

/// Sentence text with placeholders removed, whitespace collapsed and the space that
/// a removed marker leaves before punctuation dropped.
pub fn claim_text(sentence: &str) -> String {
    static EMPTY_BRACKETS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\(\s*[;,]?\s*\)|\[\s*[;,]?\s*\]").expect("bracket regex")
    });
    let without_markers = sentence.replace(CITATION_PLACEHOLDER, " ");
    let without_brackets = EMPTY_BRACKETS.replace_all(&without_markers, " ");
    let mut out = String::with_capacity(sentence.len());
    for word in without_brackets.split_whitespace() {
        let glue = word.starts_with(['.', ',', ';', ':', '!', '?', ')']);
        if !out.is_empty() && !glue {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
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
