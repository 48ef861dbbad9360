//! One submission of a batch, checked exactly as `citeproof check PATH` checks it —
//! the same [`Checker`] (configuration nearest the submission, or `--config`; flags
//! as layers; rule severities, suppressions, venue policy) — with network engines
//! shared by the whole batch; then its reports and its summary line.

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::fs::Vfs;
use crate::load::Project;
use crate::output::Report;
use crate::pipeline::{CheckSetup, Checker, Engines};
use crate::rules::UNREADABLE_FILE;

use super::files::write_reports;
use super::submissions::Submission;
use super::summary::SubmissionLine;

/// What every submission's check shares.
pub struct Shared<'a> {
    pub setup: &'a super::BatchSetup,
    pub runtime: &'a tokio::runtime::Runtime,
    /// Engines by [`Checker::engines_key`]: submissions under one configuration share
    /// one resolver (rate limits, connections, cache) and one verification backend.
    pub engines: Mutex<Vec<(String, Arc<Engines>)>>,
    /// Warnings about the stages, told once per configuration.
    pub warn: &'a (dyn Fn(&str) + Sync),
}

impl Shared<'_> {
    fn engines_for(&self, checker: &Checker) -> anyhow::Result<Arc<Engines>> {
        let key = checker.engines_key();
        let mut built = self.engines.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, engines)) = built.iter().find(|(k, _)| *k == key) {
            return Ok(engines.clone());
        }
        let planned = checker.stages()?;
        for warning in &planned.warnings {
            (self.warn)(warning);
        }
        let engines = {
            let _inside = self.runtime.enter();
            Arc::new(Engines::new(planned.stages)?)
        };
        built.push((key, engines.clone()));
        Ok(engines)
    }
}

/// Check one submission and write its reports; an error is the submission's
/// failure, not the batch's.
pub fn check(shared: &Shared, submission: &Submission) -> anyhow::Result<SubmissionLine> {
    let setup = shared.setup;
    let checker = Checker::new(CheckSetup {
        inputs: vec![submission.path.clone()],
        bibliographies: setup.bibliographies.clone(),
        overrides: setup.overrides.clone(),
        fs: Vfs::disk(),
    })?;
    let mut project = checker.load()?;
    if let Some(error) = unreadable(&project) {
        anyhow::bail!(error);
    }
    let engines = shared.engines_for(&checker)?;
    let checked = shared
        .runtime
        .block_on(checker.check_with(&mut project, &engines))?;
    let fail_on = checker.fail_on();
    let report = Report::new(&project, &checked.diagnostics, &checked.facts, &fail_on);
    write_reports(&setup.out, &submission.id, &report)?;
    Ok(SubmissionLine::checked(
        &submission.id,
        &display(&submission.path),
        &project,
        &checked.diagnostics,
        &fail_on,
        setup.worst,
    ))
}

/// A submission's path as the summary writes it.
pub fn display(path: &Path) -> String {
    path.display().to_string()
}

/// Why nothing of a submission could be read: no document was read, or none of what
/// was read holds a citation or a reference and the reader said why (a scanned PDF,
/// a damaged archive).
fn unreadable(project: &Project) -> Option<String> {
    let read_something = project
        .documents
        .iter()
        .any(|d| !d.citations.is_empty() || !d.references.is_empty());
    if read_something {
        return None;
    }
    let reasons: Vec<&str> = project
        .problems
        .iter()
        .chain(project.documents.iter().flat_map(|d| &d.problems))
        .filter(|d| d.rule.code == UNREADABLE_FILE.code)
        .map(|d| d.message.as_str())
        .collect();
    match (project.documents.is_empty(), reasons.is_empty()) {
        (_, false) => Some(reasons.join("; ")),
        (true, true) => Some("no document to check was found".to_string()),
        (false, true) => None,
    }
}
