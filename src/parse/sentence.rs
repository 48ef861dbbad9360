//! Sentence segmentation and claim extraction.
//!
//! Parsers assemble each paragraph into a [`Prose`]: plain text with citation markers
//! replaced by a placeholder and a map back to source offsets. [`attach_claims`] splits
//! the prose into sentences and turns every sentence that carries a citation into a
//! [`Claim`], with the markers removed.

use std::ops::Range;

use crate::model::{Citation, Claim, FileId, Span};

mod abbreviation;
mod claim;
mod split;

pub use claim::claim_text;
use split::{Sentences, has_word};

/// Stands in for a citation marker in prose text.
pub const CITATION_PLACEHOLDER: char = '\u{FFFC}';

/// The placeholder's UTF-8 bytes, compared without decoding.
const PLACEHOLDER_UTF8: &[u8] = "\u{FFFC}".as_bytes();

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
        self.offset_in(self.segment_at(text_offset), text_offset)
    }

    /// Index of the last segment that starts at or before `text_offset` (0 when none).
    fn segment_at(&self, text_offset: usize) -> usize {
        self.segments
            .partition_point(|s| s.text_start <= text_offset)
            .saturating_sub(1)
    }

    fn offset_in(&self, index: usize, text_offset: usize) -> usize {
        match self.segments.get(index) {
            Some(s) if s.copied => s.src_start + (text_offset - s.text_start).min(s.len),
            Some(s) => s.src_start,
            None => 0,
        }
    }

    /// Source span of a text range: from the start of its first byte to the end of its last.
    pub fn source_span(&self, range: Range<usize>) -> Span {
        let first = self.segment_at(range.start);
        let start = self.offset_in(first, range.start);
        let end = if range.end > range.start {
            // The last byte's segment: a sentence spans few, so step to it.
            let last = range.end - 1;
            let mut index = first;
            while self
                .segments
                .get(index + 1)
                .is_some_and(|s| s.text_start <= last)
            {
                index += 1;
            }
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

/// Byte ranges of the sentences of `text`, trimmed of surrounding whitespace.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    Sentences::new(text).collect()
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
    let text = prose.text.as_str();
    // Sentences after the last citation make no claim.
    let last = prose.citations.last().map_or(0, |c| c.0);
    let mut claimer = Claimer {
        file,
        prose,
        citations,
        claims,
        next: 0,
    };
    // The sentence read last, to which marker-only sentences that follow are joined.
    let mut open: Option<Range<usize>> = None;
    for range in Sentences::new(text) {
        let words = has_word(&text[range.clone()]);
        if !words && let Some(open) = &mut open {
            open.end = range.end;
            continue;
        }
        if let Some(done) = open.take() {
            claimer.claim(done);
        }
        if words && range.start > last {
            // No citation is left and no sentence after this one joins one before.
            return;
        }
        open = Some(range);
    }
    if let Some(done) = open {
        claimer.claim(done);
    }
}

/// Makes claims of the sentences of one piece of prose, given in text order.
struct Claimer<'a> {
    file: FileId,
    prose: &'a Prose,
    citations: &'a mut [Citation],
    claims: &'a mut Vec<Claim>,
    /// The first citation not in a sentence yet (citations are in text order).
    next: usize,
}

impl Claimer<'_> {
    /// Make a claim of the sentence `range` if it holds citations.
    fn claim(&mut self, range: Range<usize>) {
        // Sentences hold few citations: step over them rather than search.
        let all = &self.prose.citations;
        let first = self.next
            + all[self.next..]
                .iter()
                .take_while(|c| c.0 < range.start)
                .count();
        let count = all[first..].iter().take_while(|c| c.0 < range.end).count();
        self.next = first + count;
        if count == 0 {
            return;
        }
        let cited = &all[first..first + count];
        let claim = self.claims.len();
        self.claims.push(Claim {
            file: self.file,
            span: self.prose.source_span(range.clone()),
            text: claim_text(&self.prose.text[range]),
        });
        for &(_, _, index) in cited {
            if let Some(citation) = self.citations.get_mut(index) {
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
