//! The whole `check` pipeline on a loaded project, as one library call (the CLI, the
//! language server and the HTTP service call it through [`Checker`]): link citations to references, the local
//! findings, resolution of the cited works, verification of the claims against the
//! resolved works, then [`check::finish`] once over everything, so that suppressions
//! see every rule and an unused suppression is reported exactly once.
//!
//! What the network stages learned is returned as [`Facts`] beside the findings, so a
//! report can show every citation with its record and verdict, not only the ones
//! that produced a finding.

mod configured;
mod engines;
mod learned;
mod moved;
mod spliced;

use std::collections::HashMap;

use crate::check;
use crate::diagnostic::Diagnostic;
use crate::load::Project;
use crate::model::{FileId, Span, Work};
use crate::report::{CitationFacts, Facts, ReferenceFacts};
use crate::resolve::cascade::{ResolveError, Resolver};
use crate::resolve::options::ResolveOptions;
use crate::resolve::outcome::Status;
use crate::resolve::resolution::Resolution;
use crate::resolve::run::{ProjectResolution, resolve_project_with};
use crate::rules::resolution::{diagnostics as resolution_diagnostics, explain};
use crate::rules::verification::from_judgement;
use crate::verify::backend::{Backend, BackendError, Judgement, VerifySettings};
use crate::verify::project::verify_pairs;
use crate::verify::usage::UsageSummary;

pub use configured::{CheckSetup, Checker, PlannedStages, Recheck};
pub use engines::Engines;
pub use learned::{Learned, replay};
pub use moved::MovedEdit;

/// Which network stages run, and with what settings.
#[derive(Debug, Clone, Default)]
pub struct Stages {
    /// Resolve the cited works (`None`: local checks only).
    pub resolve: Option<ResolveOptions>,
    /// Verify each claim against its resolved work (only when resolving).
    pub verify: Option<VerifySettings>,
}

/// How verification went, for the summary at the end of a run.
#[derive(Debug, Clone)]
pub struct VerificationRun {
    /// `llm` or `embedded`.
    pub backend: &'static str,
    /// Claim–citation pairs verified.
    pub pairs: usize,
    /// Model requests and tokens (the LLM backend only).
    pub usage: Option<UsageSummary>,
}

/// The outcome of a run.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Every finding, suppressions applied, de-duplicated and sorted.
    pub diagnostics: Vec<Diagnostic>,
    pub facts: Facts,
    pub resolution: Option<ProjectResolution>,
    pub verification: Option<VerificationRun>,
    /// What resolution and verification concluded, by content, for [`replay`].
    pub learned: Learned,
}

/// Why a run could not be made (not a finding: the stages could not start).
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error("resolution: {0}")]
    Resolve(#[from] ResolveError),
    #[error("verification: {0}")]
    Verify(#[from] BackendError),
}

/// Run the pipeline on a loaded project, on a runtime and with engines of its own.
pub fn run(project: &mut Project, stages: &Stages) -> Result<Checked, PipelineError> {
    if stages.resolve.is_none() {
        return Ok(learned::replay(project, &Learned::default(), false));
    }
    let runtime = crate::resolve::cascade::runtime()?;
    runtime.block_on(async {
        let engines = Engines::new(stages.clone())?;
        Ok(run_with(project, &engines).await)
    })
}

/// Run the pipeline on a loaded project with engines the caller keeps (a language
/// server's session; the stages are the engines').
pub async fn run_with(project: &mut Project, engines: &Engines) -> Checked {
    run_shared(project, engines.resolver(), engines.backend()).await
}

/// Run the pipeline with a resolver and a verification backend built once and shared
/// by many runs (the HTTP service, the language server): no resolver, local checks
/// only; no backend, no verification.
pub async fn run_shared(
    project: &mut Project,
    resolver: Option<&Resolver>,
    backend: Option<&Backend>,
) -> Checked {
    check::link_all(project);
    let project = &*project;
    let mut found = check::local_findings(project);
    let mut facts = Facts::new();
    let mut learned = Learned::default();
    let Some(resolver) = resolver else {
        return Checked {
            diagnostics: check::finish(project, found),
            facts,
            resolution: None,
            verification: None,
            learned,
        };
    };
    let resolution = resolve_project_with(resolver, &project.documents).await;
    found.extend(resolution_diagnostics(
        &project.sources,
        &project.documents,
        &resolution,
    ));
    record_resolutions(project, &resolution, &mut facts);
    learned.add_resolutions(project, &resolution);
    let verification = match backend {
        Some(backend) => Some(
            verify(
                project,
                &resolution,
                backend,
                &mut found,
                &mut facts,
                &mut learned,
            )
            .await,
        ),
        None => None,
    };
    Checked {
        diagnostics: check::finish(project, found),
        facts,
        resolution: Some(resolution),
        verification,
        learned,
    }
}

/// `N references: a verified, b miscited, …`.
pub fn resolution_summary(statuses: &[Status]) -> String {
    let count = |s: Status| statuses.iter().filter(|&&x| x == s).count();
    let mut text = format!(
        "{} references: {} verified, {} miscited, {} not found, {} retracted, {} unverified",
        statuses.len(),
        count(Status::Verified),
        count(Status::Miscited),
        count(Status::NotFound),
        count(Status::Retracted),
        count(Status::Unverified)
    );
    // Only where it occurs: most runs cite papers alone.
    let not_indexed = count(Status::NotIndexed);
    if not_indexed > 0 {
        text.push_str(&format!(", {not_indexed} not in the indexes of their kind"));
    }
    text
}

/// Each resolved reference's status, record and explanation as facts.
pub fn record_resolutions(project: &Project, resolution: &ProjectResolution, facts: &mut Facts) {
    record_each(
        project,
        resolution
            .entries
            .iter()
            .map(|e| (e.document, e.reference, &e.resolution)),
        facts,
    );
}

/// [`record_resolutions`] of each `(document, reference, resolution)`.
pub(crate) fn record_each<'r>(
    project: &Project,
    resolved: impl IntoIterator<Item = (usize, usize, &'r Resolution)>,
    facts: &mut Facts,
) {
    for (document, index, r) in resolved {
        let reference = &project.documents[document].references[index];
        let note = explain(r).join("; ");
        facts.set_reference(
            reference,
            ReferenceFacts {
                status: r.status,
                record: r.work.clone(),
                note: Some(note).filter(|n| !n.is_empty()),
            },
        );
    }
}

/// The work each reference resolved to, by where the reference is written (a
/// bibliography shared by several documents is resolved once). Works not found or
/// not decided are left out: there is nothing to verify the claim against.
pub(crate) fn resolved_works<'a>(
    project: &Project,
    resolution: &'a ProjectResolution,
) -> HashMap<(FileId, Span), &'a Work> {
    let mut works = HashMap::new();
    for entry in &resolution.entries {
        let Some(work) = entry.resolution.identified_work() else {
            continue;
        };
        let reference = &project.documents[entry.document].references[entry.reference];
        works.insert((reference.file, reference.span), work);
    }
    works
}

/// Verify every claim–citation pair whose reference resolved; findings and facts
/// are added to `found` and `facts`.
async fn verify(
    project: &Project,
    resolution: &ProjectResolution,
    backend: &Backend,
    found: &mut Vec<Diagnostic>,
    facts: &mut Facts,
    learned: &mut Learned,
) -> VerificationRun {
    let works = resolved_works(project, resolution);
    let pairs = learned::pairs(project, &works);
    let judgements = verify_pairs(backend, &pairs).await;
    learned.add_judgements(&pairs, &judgements);
    for (pair, judgement) in pairs.iter().zip(&judgements) {
        facts.set_citation(pair.citation, citation_facts(judgement));
        found.extend(from_judgement(
            judgement,
            pair.citation,
            pair.claim,
            Some(pair.work),
        ));
    }
    VerificationRun {
        backend: backend.kind(),
        pairs: pairs.len(),
        usage: backend.usage(),
    }
}

/// What a judgement says about a citation, as facts.
pub fn citation_facts(judgement: &Judgement) -> CitationFacts {
    match judgement {
        Judgement::Llm(verdict) => CitationFacts {
            verdict: Some(verdict.clone()),
            relation: None,
        },
        Judgement::Embedded(offline) => CitationFacts {
            verdict: None,
            relation: Some(offline.relation),
        },
    }
}
