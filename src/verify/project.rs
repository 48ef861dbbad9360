//! Verification of a whole project: every claim–citation pair whose reference resolved
//! to a work is verified, and the judgements become diagnostics (CP301–CP305).

use super::backend::{Backend, Judgement};
use super::escalate::VerifyRequest;
use crate::diagnostic::Diagnostic;
use crate::load::Project;
use crate::model::{Citation, Claim, Work};

/// One claim–citation pair with the work its reference resolved to.
#[derive(Debug, Clone, Copy)]
pub struct ResolvedPair<'a> {
    pub citation: &'a Citation,
    pub claim: &'a Claim,
    pub work: &'a Work,
    /// The URL the reference gives (first step of the full-text cascade).
    pub url: Option<&'a str>,
}

/// The pairs of `project` whose reference resolved: `work_of(document, reference)`
/// gives the resolved work of reference `reference` of document `document` (indices
/// into `project.documents` and that document's `references`), `None` when it did not
/// resolve (not found, unverified …) — such pairs are not verified.
pub fn resolved_pairs<'a>(
    project: &'a Project,
    work_of: impl Fn(usize, usize) -> Option<&'a Work>,
) -> Vec<ResolvedPair<'a>> {
    let mut out = Vec::new();
    for (d, doc) in project.documents.iter().enumerate() {
        for (claim, citation) in doc.pairs() {
            let Some(r) = citation.reference else {
                continue;
            };
            let Some(work) = work_of(d, r) else {
                continue;
            };
            let url = doc.references.get(r).and_then(|r| r.fields.url.as_deref());
            out.push(ResolvedPair {
                citation,
                claim,
                work,
                url,
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
        })
        .collect();
    backend.verify_all(&requests).await
}

/// The verification diagnostics of a project (see [`resolved_pairs`] for `work_of`).
/// Suppressions are not applied here: pass the result through [`crate::check::finish`].
pub async fn verify_project<'a>(
    project: &'a Project,
    work_of: impl Fn(usize, usize) -> Option<&'a Work>,
    backend: &Backend,
) -> Vec<Diagnostic> {
    let pairs = resolved_pairs(project, work_of);
    let judgements = verify_pairs(backend, &pairs).await;
    pairs
        .iter()
        .zip(&judgements)
        .filter_map(|(p, j)| j.diagnostic(p.citation, p.claim, Some(p.work)))
        .collect()
}
