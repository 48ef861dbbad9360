//! What the network stages learned about each reference and citation, kept beside
//! the diagnostics so that reports (HTML, `extract`) can show every citation with its
//! resolved record and verdict, not only the ones that produced a finding.
//!
//! Facts are keyed by where a reference or citation is written (file and span), which
//! stays the same when one bibliography is shared by several documents.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use crate::model::{Citation, FileId, Reference, Span, Work};
use crate::resolve::outcome::Status;
use crate::verify::Relation;
use crate::verify::verdict::Verdict;

/// What resolution concluded about one reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReferenceFacts {
    pub status: Status,
    /// The record the reference was matched to, if any.
    pub record: Option<Arc<Work>>,
    /// Short explanation (which fields are wrong, which sources failed …).
    pub note: Option<String>,
}

/// What verification concluded about one claim–citation pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CitationFacts {
    /// The LLM verdict, when a model judged the pair.
    pub verdict: Option<Verdict>,
    /// The embedded backend's relation, when it judged the pair.
    pub relation: Option<Relation>,
}

/// Facts for a whole run; empty when only local checks ran.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    references: HashMap<(FileId, Span), ReferenceFacts>,
    citations: HashMap<(FileId, Span), CitationFacts>,
}

impl Facts {
    pub fn new() -> Facts {
        Facts::default()
    }

    pub fn set_reference(&mut self, reference: &Reference, facts: ReferenceFacts) {
        self.references
            .insert((reference.file, reference.span), facts);
    }

    pub fn set_citation(&mut self, citation: &Citation, facts: CitationFacts) {
        self.citations.insert((citation.file, citation.span), facts);
    }

    /// Move what is said about results of `file` to their new places (an edit
    /// that only moved them, see [`crate::pipeline::MovedEdit`]).
    pub fn move_places(&mut self, file: FileId, place: impl Fn(Span) -> Span) {
        fn moved<V>(
            map: &mut HashMap<(FileId, Span), V>,
            file: FileId,
            place: &impl Fn(Span) -> Span,
        ) {
            let keys: Vec<(FileId, Span)> = map.keys().filter(|k| k.0 == file).copied().collect();
            let values: Vec<(Span, V)> = keys
                .into_iter()
                .filter_map(|k| map.remove(&k).map(|v| (place(k.1), v)))
                .collect();
            map.extend(values.into_iter().map(|(span, v)| ((file, span), v)));
        }
        moved(&mut self.references, file, &place);
        moved(&mut self.citations, file, &place);
    }

    pub fn reference(&self, reference: &Reference) -> Option<&ReferenceFacts> {
        self.references.get(&(reference.file, reference.span))
    }

    pub fn citation(&self, citation: &Citation) -> Option<&CitationFacts> {
        self.citations.get(&(citation.file, citation.span))
    }

    pub fn is_empty(&self) -> bool {
        self.references.is_empty() && self.citations.is_empty()
    }
}
