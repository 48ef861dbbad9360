//! What the network stages concluded, keyed by content: each reference's
//! resolution by the query it makes, each claim–citation pair's judgement by the
//! claim, the work and the URL it was judged on.
//!
//! A language server resolves in the background (on open and on save) but checks
//! locally on every keystroke. [`replay`] runs the local stages on the current text
//! and adds the findings of every resolution and judgement already learned whose
//! content is unchanged, so a fabricated reference stays flagged while the writer
//! types elsewhere, an edited reference waits for the next resolution instead of
//! showing a verdict about its old text, and a text whose every reference and pair
//! is known gets exactly the findings a full run would report.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::check;
use crate::load::Project;
use crate::model::{Claim, Work};
use crate::report::Facts;
use crate::resolve::resolution::Resolution;
use crate::resolve::run::{ProjectResolution, ResolvedReference, references_to_resolve};
use crate::rules::resolution::diagnostics_of as resolution_diagnostics_of;
use crate::rules::verification::from_judgement;
use crate::verify::backend::Judgement;
use crate::verify::project::{ResolvedPair, resolved_pairs, resolved_pairs_without_rivals};

use super::{Checked, citation_facts, record_each, resolved_works};

/// Resolutions and judgements by content.
#[derive(Debug, Clone, Default)]
pub struct Learned {
    resolutions: HashMap<u64, Resolution>,
    judgements: HashMap<u64, Judgement>,
    /// Changes with every change of what is known (0: never changed), so a caller
    /// can tell whether a check replayed what is known now.
    version: u64,
}

/// The source of [`Learned::version`]s: unique within the process.
static VERSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Learned {
    /// Which state of what is known this is (see the field).
    pub fn version(&self) -> u64 {
        self.version
    }

    fn changed(&mut self) {
        self.version = VERSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn is_empty(&self) -> bool {
        self.resolutions.is_empty() && self.judgements.is_empty()
    }

    /// How many resolutions and judgements are known.
    pub fn len(&self) -> usize {
        self.resolutions.len() + self.judgements.len()
    }

    /// Remember what a run resolved.
    pub fn add_resolutions(&mut self, project: &Project, resolution: &ProjectResolution) {
        self.changed();
        for entry in &resolution.entries {
            let key = project.documents[entry.document].reference_key(entry.reference);
            self.resolutions.insert(key, entry.resolution.clone());
        }
    }

    /// Remember what a run judged, pair by pair.
    pub fn add_judgements(&mut self, pairs: &[ResolvedPair<'_>], judgements: &[Judgement]) {
        self.changed();
        for (pair, judgement) in pairs.iter().zip(judgements) {
            self.judgements
                .insert(pair_key(pair.claim, pair.work, pair.url), judgement.clone());
        }
    }

    /// Everything `other` knows, over what this knows.
    pub fn merge(&mut self, other: Learned) {
        self.changed();
        self.resolutions.extend(other.resolutions);
        self.judgements.extend(other.judgements);
    }

    /// Keep only what `project` uses (a long session does not keep every old
    /// version of every reference); returns how many were dropped.
    pub fn retain_used(&mut self, projects: &[&Project]) -> usize {
        let before = self.len();
        let mut used_refs = std::collections::HashSet::new();
        let mut used_pairs = std::collections::HashSet::new();
        for project in projects {
            // The key of every reference a run would resolve, each made once (a
            // key nothing was learned under retains nothing).
            for (document, reference) in references_to_resolve(&project.documents) {
                used_refs.insert(project.documents[document].reference_key(reference));
            }
            // Keying a pair serialises its work: not done when nothing was judged.
            if self.judgements.is_empty() {
                continue;
            }
            let resolution = self.known_resolution(project);
            let works = resolved_works(project, &resolution);
            for pair in pairs_to_look_up(project, &works) {
                used_pairs.insert(pair_key(pair.claim, pair.work, pair.url));
            }
        }
        self.resolutions.retain(|k, _| used_refs.contains(k));
        self.judgements.retain(|k, _| used_pairs.contains(k));
        if self.len() != before {
            self.changed();
        }
        before - self.len()
    }

    /// The resolutions known for the references a run of `project` would resolve,
    /// as `(document, reference, resolution)`, borrowed (a keystroke does not copy
    /// every record).
    fn known<'s>(&'s self, project: &Project) -> Vec<(usize, usize, &'s Resolution)> {
        references_to_resolve(&project.documents)
            .into_iter()
            .filter_map(|(document, reference)| {
                let key = project.documents[document].reference_key(reference);
                let resolution = self.resolutions.get(&key)?;
                Some((document, reference, resolution))
            })
            .collect()
    }

    /// The resolutions known for the references a run of `project` would resolve.
    fn known_resolution(&self, project: &Project) -> ProjectResolution {
        let entries = references_to_resolve(&project.documents)
            .into_iter()
            .filter_map(|(document, reference)| {
                let key = project.documents[document].reference_key(reference);
                let resolution = self.resolutions.get(&key)?.clone();
                Some(ResolvedReference {
                    document,
                    reference,
                    resolution,
                })
            })
            .collect();
        ProjectResolution {
            entries,
            stats: Vec::new(),
        }
    }
}

/// The local stages on `project`, plus the findings and facts of every resolution
/// (and, with `verify`, every judgement) `learned` holds for its current content;
/// suppressions applied once over everything, as [`super::run`] does. The
/// resolution itself is returned only with `verify` (the findings and facts carry
/// what it says).
pub fn replay(project: &mut Project, learned: &Learned, verify: bool) -> Checked {
    check::link_all(project);
    let project = &*project;
    let mut found = check::local_findings(project);
    let mut facts = Facts::new();
    if learned.is_empty() {
        return Checked {
            diagnostics: check::finish(project, found),
            facts,
            resolution: None,
            verification: None,
            learned: Learned::default(),
        };
    }
    let known = learned.known(project);
    found.extend(resolution_diagnostics_of(
        &project.sources,
        &project.documents,
        known.iter().copied(),
    ));
    record_each(project, known, &mut facts);
    // The resolution itself (a copy of every record) only when verification
    // needs the works.
    let resolution = verify.then(|| learned.known_resolution(project));
    if let Some(resolution) = &resolution {
        let works = resolved_works(project, resolution);
        for pair in pairs_to_look_up(project, &works) {
            let key = pair_key(pair.claim, pair.work, pair.url);
            if let Some(judgement) = learned.judgements.get(&key) {
                facts.set_citation(pair.citation, citation_facts(judgement));
                found.extend(from_judgement(
                    judgement,
                    pair.citation,
                    pair.claim,
                    Some(pair.work),
                ));
            }
        }
    }
    Checked {
        diagnostics: check::finish(project, found),
        facts,
        resolution,
        verification: None,
        learned: Learned::default(),
    }
}

/// The pairs a run would verify, given the works the references resolved to.
pub(super) fn pairs<'a>(
    project: &'a Project,
    works: &HashMap<(crate::model::FileId, crate::model::Span), &'a Work>,
) -> Vec<ResolvedPair<'a>> {
    resolved_pairs(&project.documents, work_at(project, works))
}

/// [`pairs`] without their rivals, to look up what was judged.
fn pairs_to_look_up<'a>(
    project: &'a Project,
    works: &HashMap<(crate::model::FileId, crate::model::Span), &'a Work>,
) -> Vec<ResolvedPair<'a>> {
    resolved_pairs_without_rivals(&project.documents, work_at(project, works))
}

/// The work of `(document, reference)` in `works` (keyed by where a reference is
/// written).
fn work_at<'a>(
    project: &'a Project,
    works: &HashMap<(crate::model::FileId, crate::model::Span), &'a Work>,
) -> impl Fn(usize, usize) -> Option<&'a Work> {
    move |d, r| {
        let reference = project.documents.get(d)?.references.get(r)?;
        works.get(&(reference.file, reference.span)).copied()
    }
}

/// A pair's identity for verification: the claim's text, the work and the URL the
/// reference gives (the first step of the full-text cascade).
fn pair_key(claim: &Claim, work: &Work, url: Option<&str>) -> u64 {
    let mut hasher = DefaultHasher::new();
    claim.text.hash(&mut hasher);
    serde_json::to_string(work)
        .unwrap_or_default()
        .hash(&mut hasher);
    url.hash(&mut hasher);
    hasher.finish()
}
