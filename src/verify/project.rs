//! Verification of a whole project: every claim–citation pair of its documents whose
//! reference resolved to a work is verified ([`crate::check::verify_project`] makes
//! the judgements diagnostics, CP301–CP305).
//!
//! Each pair carries its document's other cited works as rivals, so the judge can see
//! a claim that is another cited work's. Works cited by the same claim are never
//! rivals of each other, and a claim one of whose citations did not resolve gets none:
//! what it cites is known only in part, and a lookup failure must never make a finding.

use std::collections::HashSet;

use super::backend::{Backend, Judgement};
use super::escalate::{Rival, VerifyRequest};
use crate::document::Document;
use crate::model::{Citation, Claim, Reference, Work};

/// One claim–citation pair with the work its reference resolved to.
#[derive(Debug, Clone)]
pub struct ResolvedPair<'a> {
    pub citation: &'a Citation,
    pub claim: &'a Claim,
    pub work: &'a Work,
    /// The URL the reference gives (first step of the full-text cascade).
    pub url: Option<&'a str>,
    /// The document's other cited works (see the module's documentation).
    pub rivals: Vec<Rival<'a>>,
}

/// The pairs of a project's `documents` whose reference resolved:
/// `work_of(document, reference)` gives the resolved work of reference `reference` of
/// document `document` (indices into `documents` and that document's `references`), `None` when it did not
/// resolve (not found, unverified …) — such pairs are not verified.
pub fn resolved_pairs<'a>(
    documents: &'a [Document],
    work_of: impl Fn(usize, usize) -> Option<&'a Work>,
) -> Vec<ResolvedPair<'a>> {
    pairs_of(documents, &work_of, true)
}

/// [`resolved_pairs`] without their rivals: which pairs there are (to look up
/// what was judged), not what a judge is shown. Each pair's rivals are a list as
/// long as the document's cited works, too much to make at every keystroke.
pub fn resolved_pairs_without_rivals<'a>(
    documents: &'a [Document],
    work_of: impl Fn(usize, usize) -> Option<&'a Work>,
) -> Vec<ResolvedPair<'a>> {
    pairs_of(documents, &work_of, false)
}

fn pairs_of<'a>(
    documents: &'a [Document],
    work_of: &impl Fn(usize, usize) -> Option<&'a Work>,
    with_rivals: bool,
) -> Vec<ResolvedPair<'a>> {
    let mut out = Vec::new();
    for (d, doc) in documents.iter().enumerate() {
        let cited: Vec<Rival<'a>> = match with_rivals {
            true => cited_works(&doc.references, |r| work_of(d, r)),
            false => Vec::new(),
        };
        for (claim, citation) in doc.pairs() {
            let Some(r) = citation.reference else {
                continue;
            };
            let Some(work) = work_of(d, r) else {
                continue;
            };
            let rivals = match with_rivals {
                true => rivals(&doc.citations, citation, &cited, |r| work_of(d, r)),
                false => Vec::new(),
            };
            let url = doc.references.get(r).and_then(|r| r.fields.url.as_deref());
            out.push(ResolvedPair {
                citation,
                claim,
                work,
                url,
                rivals,
            });
        }
    }
    out
}

/// The rivals of `citation`: the document's `cited` works but those its claim
/// cites, or none when one of those did not resolve.
fn rivals<'a>(
    citations: &[Citation],
    citation: &Citation,
    cited: &[Rival<'a>],
    work_of: impl Fn(usize) -> Option<&'a Work>,
) -> Vec<Rival<'a>> {
    let beside: Vec<Option<&Work>> = citations
        .iter()
        .filter(|c| c.claim == citation.claim)
        .map(|c| c.reference.and_then(&work_of))
        .collect();
    if !beside.iter().all(Option::is_some) {
        return Vec::new();
    }
    cited
        .iter()
        .filter(|rival| !beside.iter().flatten().any(|w| w.same_record(rival.work)))
        .copied()
        .collect()
}

/// The distinct works a document's references resolved to, each named by the first
/// reference that cites it.
fn cited_works<'a>(
    references: &'a [Reference],
    work_of: impl Fn(usize) -> Option<&'a Work>,
) -> Vec<Rival<'a>> {
    let mut seen = HashSet::new();
    let mut out: Vec<Rival<'a>> = Vec::new();
    for (r, reference) in references.iter().enumerate() {
        if let Some(work) = work_of(r)
            && seen.insert(work.record_identity())
        {
            out.push(Rival {
                name: &reference.key,
                work,
            });
        }
    }
    out
}

/// Verify pairs; one judgement per pair, in order.
pub async fn verify_pairs(backend: &Backend, pairs: &[ResolvedPair<'_>]) -> Vec<Judgement> {
    let requests: Vec<VerifyRequest<'_>> = pairs
        .iter()
        .map(|p| VerifyRequest {
            claim: &p.claim.text,
            work: p.work,
            citation_url: p.url,
            rivals: &p.rivals,
        })
        .collect();
    backend.verify_all(&requests).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CitationKind, FileId, ReferenceOrigin, Span};

    fn reference(key: &str) -> Reference {
        Reference {
            key: key.to_string(),
            origin: ReferenceOrigin::ReferenceList,
            entry_type: None,
            file: FileId::default(),
            span: Span::new(0, 1),
            key_span: None,
            raw: key.to_string(),
            fields: Default::default(),
            field_spans: Vec::new(),
        }
    }

    fn citation(claim: usize, reference: usize) -> Citation {
        Citation {
            key: format!("r{reference}"),
            kind: CitationKind::Key,
            file: FileId::default(),
            span: Span::new(0, 1),
            group_span: Span::new(0, 1),
            command: None,
            id: None,
            narrative: false,
            claim: Some(claim),
            reference: Some(reference),
        }
    }

    fn work(title: &str) -> Work {
        Work {
            title: title.to_string(),
            ..Work::default()
        }
    }

    /// Claim 0 cites r0 and r1 together, claim 1 cites r2, claim 2 cites r3 (which did
    /// not resolve) and r0; r4 is the same work as r0 under another key.
    fn documents() -> Vec<Document> {
        let claim = |text: &str| Claim {
            file: FileId::default(),
            span: Span::new(0, 1),
            text: text.to_string(),
        };
        let doc = Document {
            claims: vec![claim("a"), claim("b"), claim("c")],
            citations: vec![
                citation(0, 0),
                citation(0, 1),
                citation(1, 2),
                citation(2, 3),
                citation(2, 0),
            ],
            references: ["r0", "r1", "r2", "r3", "r4"].map(reference).to_vec(),
            ..Document::default()
        };
        vec![doc]
    }

    fn rival_names<'a>(pair: &ResolvedPair<'a>) -> Vec<&'a str> {
        pair.rivals.iter().map(|r| r.name).collect()
    }

    #[test]
    fn rivals_are_the_documents_other_works_and_none_when_a_co_citation_is_unknown() {
        let works = [work("A"), work("B"), work("C"), work("D"), work("A")];
        let documents = documents();
        let pairs = resolved_pairs(&documents, |_, r| (r != 3).then(|| &works[r]));
        let by_claim: Vec<(&str, Vec<&str>)> = pairs
            .iter()
            .map(|p| (p.claim.text.as_str(), rival_names(p)))
            .collect();
        assert_eq!(
            by_claim,
            [
                // Cited together: never rivals; r4 is r0's work, named once.
                ("a", vec!["r2"]),
                ("a", vec!["r2"]),
                ("b", vec!["r0", "r1"]),
                // r3 did not resolve: what claim c cites is known only in part.
                ("c", vec![]),
            ]
        );
    }
}
