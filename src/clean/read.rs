//! Reading an answer for cleaning: its citation markers, claims and reference list
//! (or a separate reference list) with the existing parsers, each citation linked to
//! what it names. Constructs that only look like markers are left out here, so that
//! nothing later can edit them: Markdown link destinations and autolinks, and numbers
//! glued to code (`array[2]`, `x.items[3] = 1`) or glued to a word with no reference
//! of that number.

use crate::document::Document;
use crate::link;
use crate::model::{Citation, CitationKind, Claim, FileId, Reference, ReferenceOrigin};
use crate::parse::{ParseOptions, answer, reflist};

use super::options::Numbering;

/// The answer's file id; a separate reference list has [`REFERENCES_FILE`].
pub const ANSWER_FILE: FileId = FileId(0);
pub const REFERENCES_FILE: FileId = FileId(1);

/// What a citation names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A reference (list entry, footnote definition, or one made from an inline
    /// identifier): index into [`Reading::references`].
    Reference(usize),
    /// The n-th source of the request (0-based), when markers number the sources.
    Source(usize),
    /// A marker whose number or label has no reference.
    Orphan,
    /// An author–year citation without a reference list to look it up in.
    Unlinked,
}

/// One citation of the answer and what it names.
#[derive(Debug, Clone)]
pub struct Cite {
    pub citation: Citation,
    /// The number of a numeric marker.
    pub number: Option<u32>,
    pub target: Target,
}

/// An answer read for cleaning.
#[derive(Debug, Clone)]
pub struct Reading {
    /// Citations in body order.
    pub cites: Vec<Cite>,
    pub references: Vec<Reference>,
    pub claims: Vec<Claim>,
    /// Markers number the request's sources rather than a reference list.
    pub numbers_sources: bool,
}

/// Read `answer` (and a separate reference list, if given).
pub fn read(
    answer: &str,
    references: Option<&str>,
    sources: Option<usize>,
    numbering: Numbering,
) -> Reading {
    let options = ParseOptions::default();
    let parsed = answer::parse(ANSWER_FILE, answer, &options);
    let mut all_refs = parsed.references;
    if let Some(text) = references {
        all_refs.extend(separate_list(text));
    }
    let has_list = all_refs
        .iter()
        .any(|r| r.origin == ReferenceOrigin::ReferenceList);
    let numbers_sources = match (numbering, sources) {
        (Numbering::Sources, Some(_)) => true,
        (Numbering::Auto, Some(_)) => !has_list,
        _ => false,
    };
    let mut doc = Document {
        root: ANSWER_FILE,
        files: vec![ANSWER_FILE, REFERENCES_FILE],
        citations: parsed.citations,
        references: all_refs,
        claims: parsed.claims,
        ..Document::default()
    };
    link::link(&mut doc);
    let cites = doc
        .citations
        .into_iter()
        .filter_map(|citation| {
            let number = (citation.kind == CitationKind::Numeric)
                .then(|| citation.key.parse::<u32>().ok())
                .flatten();
            let target = match (number, citation.reference) {
                (Some(n), _) if numbers_sources => {
                    let index = n as usize - 1;
                    if sources.is_some_and(|count| index < count) {
                        Target::Source(index)
                    } else {
                        Target::Orphan
                    }
                }
                (_, Some(r)) => Target::Reference(r),
                _ if citation.kind == CitationKind::AuthorYear && !has_list => Target::Unlinked,
                _ => Target::Orphan,
            };
            let cite = Cite {
                citation,
                number,
                target,
            };
            (!is_false_marker(answer, &cite)).then_some(cite)
        })
        .collect();
    Reading {
        cites,
        references: doc.references,
        claims: doc.claims,
        numbers_sources,
    }
}

/// A separate reference list: its items, after a leading section title if any.
fn separate_list(text: &str) -> Vec<Reference> {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            start += line.len();
            continue;
        }
        if reflist::is_section_title(trimmed) {
            start += line.len();
        }
        break;
    }
    let span = crate::model::Span::new(start.min(text.len()), text.len());
    reflist::read(REFERENCES_FILE, text, span, true)
}

/// Whether a scanned citation only looks like a marker.
fn is_false_marker(text: &str, cite: &Cite) -> bool {
    let c = &cite.citation;
    match c.kind {
        CitationKind::Identifier => in_link_destination(text, c.group_span.start),
        CitationKind::Numeric => {
            let open = c.group_span.start;
            let glued = text[..open]
                .chars()
                .next_back()
                .is_some_and(|ch| ch.is_alphanumeric() || ch == '_');
            glued && (cite.target == Target::Orphan || looks_like_code(text, c.group_span))
        }
        _ => false,
    }
}

/// Whether the byte at `at` is inside `](…)` or `<…>`: a Markdown link destination
/// or an autolink (the link text is prose; its URL is no citation marker).
fn in_link_destination(text: &str, at: usize) -> bool {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    if let Some(open) = line.rfind("](")
        && !line[open..].contains(')')
    {
        return true;
    }
    if let Some(open) = line.rfind('<') {
        let after = &text[at..];
        let closes = after.find('>').is_some_and(|close| {
            !after[..close].contains(char::is_whitespace)
                && !line[open + 1..].contains(char::is_whitespace)
        });
        return closes;
    }
    false
}

/// Whether a number in brackets glued to a word is an index into code: the word is
/// an identifier (`_` or `.` inside it), it follows an assignment or a call, or an
/// assignment, a call or a member access follows. (Capitals and digits inside a word
/// are no sign: `mRNA[1]`, `H2O[2]` and `COVID-19[3]` are prose.)
fn looks_like_code(text: &str, group: crate::model::Span) -> bool {
    let before = &text[..group.start];
    let word_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '.'))
        .last()
        .map_or(group.start, |(i, _)| i);
    let word = &before[word_start..];
    let identifier = word.contains('_') || word.trim_end_matches('.').contains('.');
    let lead = before[..word_start].trim_end_matches([' ', '\t']);
    let assigned_or_called = lead.ends_with(['=', '(', '[', '{', '+', '*', '/', '<', '>'])
        || lead.ends_with("return")
        || lead.ends_with("print");
    let after = &text[group.end..];
    let next = after.trim_start_matches([' ', '\t']);
    let operated = next.starts_with('=') && !next.starts_with("=>")
        || next.starts_with("+=")
        || next.starts_with("-=")
        || next.starts_with("->")
        || next.starts_with('(')
        || (after.starts_with('.') && after[1..].starts_with(|c: char| c.is_alphabetic()))
        || after.starts_with('[') && !after[1..].starts_with(|c: char| c.is_ascii_digit());
    identifier || assigned_or_called || operated
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(answer: &str) -> Vec<String> {
        read(answer, None, None, Numbering::Auto)
            .cites
            .iter()
            .map(|c| c.citation.key.clone())
            .collect()
    }

    const LIST: &str = "\n\nReferences:\n[1] A. Smith. One title. 2020.\n[2] B. Lee. Two. 2021.\n";

    #[test]
    fn code_and_links_are_not_markers() {
        let answer = format!(
            "Use x = array[2] or obj.items[1] here [1]. See [the paper](https://doi.org/10.1/x) \
             and <https://example.org/a> and `y[2]`; studies agree[2].{LIST}"
        );
        assert_eq!(keys(&answer), vec!["1", "2"]);
    }

    #[test]
    fn glued_markers_count_when_their_number_exists() {
        assert_eq!(
            keys(&format!("Quakes damage buildings[1][2].{LIST}")),
            ["1", "2"]
        );
        // A glued number with no reference is an index, not a marker.
        assert_eq!(
            keys(&format!("The value array[7] is read [1].{LIST}")),
            ["1"]
        );
        // Spaced orphans are markers (hallucinated numbers to remove).
        assert_eq!(keys(&format!("Claim [7].{LIST}")), ["7"]);
    }

    #[test]
    fn markers_number_sources_without_a_list() {
        let r = read("Claim [1] and [3].", None, Some(2), Numbering::Auto);
        assert!(r.numbers_sources);
        assert_eq!(r.cites[0].target, Target::Source(0));
        assert_eq!(r.cites[1].target, Target::Orphan);
        let r = read(&format!("Claim [1].{LIST}"), None, Some(2), Numbering::Auto);
        assert!(!r.numbers_sources);
        assert_eq!(r.cites[0].target, Target::Reference(0));
    }

    #[test]
    fn a_separate_list_may_start_with_its_title() {
        let r = read(
            "Claim [2].",
            Some("Sources:\n1. One 2020.\n2. Two 2021.\n"),
            None,
            Numbering::Auto,
        );
        assert_eq!(r.references.len(), 2);
        let Target::Reference(i) = r.cites[0].target else {
            panic!("{:?}", r.cites[0].target)
        };
        assert_eq!(r.references[i].key, "2");
        assert_eq!(r.references[i].file, REFERENCES_FILE);
    }
}
