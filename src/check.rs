//! The local checking pipeline: link every document, run the local rules, apply
//! suppressions, and return the diagnostics in a stable order; and the library entry
//! point of `check --verify` ([`verify_project`]).

use std::collections::HashSet;

use crate::diagnostic::Diagnostic;
use crate::link;
use crate::load::Project;
use crate::model::{Suppression, Work};
use crate::rules;
use crate::suppress;
use crate::verify::backend::Backend;
use crate::verify::project::{resolved_pairs, verify_pairs};

/// Link citations to references in every document of the project.
pub fn link_all(project: &mut Project) {
    for doc in &mut project.documents {
        link::link(doc);
    }
}

/// Every local finding of a linked project, suppressions applied, sorted and
/// de-duplicated (a bibliography shared by two documents is reported once).
pub fn local_diagnostics(project: &Project) -> Vec<Diagnostic> {
    finish(project, local_findings(project))
}

/// The local findings before suppressions: reading problems and link rules. Later
/// stages add theirs and pass the whole set through [`finish`] once, so that
/// suppressions apply to every finding and unused ones are reported once.
pub fn local_findings(project: &Project) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = project.problems.clone();
    for doc in &project.documents {
        diagnostics.extend(doc.problems.iter().cloned());
        diagnostics.extend(rules::links::check(&project.sources, doc));
    }
    diagnostics
}

/// Apply suppressions, de-duplicate and sort any set of diagnostics of the project.
pub fn finish(project: &Project, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    // The first of each finding, told apart without copying its message.
    let first: Vec<bool> = {
        let mut seen = HashSet::new();
        diagnostics
            .iter()
            .map(|d| seen.insert((d.rule.code, d.file, d.span, d.message.as_str())))
            .collect()
    };
    let diagnostics: Vec<Diagnostic> = diagnostics
        .into_iter()
        .zip(first)
        .filter_map(|(d, first)| first.then_some(d))
        .map(|d| without_fixes_to_converted(project, d))
        .collect();
    let mut seen_suppressions = HashSet::new();
    let suppressions: Vec<Suppression> = project
        .documents
        .iter()
        .flat_map(|d| d.suppressions.iter())
        .filter(|s| seen_suppressions.insert((s.file, s.span)))
        .cloned()
        .collect();
    let diagnostics = crate::accept::apply(&project.accepted, &project.documents, diagnostics);
    let mut out = suppress::apply(
        &project.sources,
        &suppressions,
        diagnostics,
        project.inline_suppressions,
    );
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    out
}

/// The verification diagnostics of a project: every claim–citation pair whose
/// reference resolved is judged (`work_of(document, reference)` gives the resolved
/// work, see [`resolved_pairs`]). Suppressions are not applied here: pass the result
/// through [`finish`].
pub async fn verify_project<'a>(
    project: &'a Project,
    work_of: impl Fn(usize, usize) -> Option<&'a Work>,
    backend: &Backend,
) -> Vec<Diagnostic> {
    let pairs = resolved_pairs(&project.documents, work_of);
    let judgements = verify_pairs(backend, &pairs).await;
    pairs
        .iter()
        .zip(&judgements)
        .filter_map(|(p, j)| {
            rules::verification::from_judgement(j, p.citation, p.claim, Some(p.work))
        })
        .collect()
}

/// A fix can only edit text files: one that edits a file converted from another
/// format (a PDF's text is not the PDF) is dropped, so no report calls it fixable.
fn without_fixes_to_converted(project: &Project, mut d: Diagnostic) -> Diagnostic {
    let edits_converted = d.fix.as_ref().is_some_and(|fix| {
        fix.edits
            .iter()
            .any(|e| project.sources.get(e.file).is_converted())
    });
    if edits_converted {
        d.fix = None;
    }
    d
}
