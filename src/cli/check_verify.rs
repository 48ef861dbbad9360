//! `check --verify`: verify every claim–citation pair whose reference resolved, as
//! CP301–CP305 diagnostics, with the model usage summary on stderr.

use std::collections::HashMap;

use anyhow::Context;

use citeproof::diagnostic::Diagnostic;
use citeproof::load::Project;
use citeproof::model::{FileId, Span, Work};
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::run::ProjectResolution;
use citeproof::verify::project::verify_project;

use super::verify_flags::{Setup, VerifyFlags, report_usage};

/// The verification diagnostics of a resolved project.
pub fn diagnostics(
    project: &Project,
    resolved: &ProjectResolution,
    options: &ResolveOptions,
    flags: &VerifyFlags,
) -> anyhow::Result<Vec<Diagnostic>> {
    // A reference shared by several documents is resolved once: find it by place.
    let mut works: HashMap<(FileId, Span), &Work> = HashMap::new();
    for entry in &resolved.entries {
        let r = &entry.resolution;
        if !matches!(
            r.status,
            Status::Verified | Status::Miscited | Status::Retracted
        ) {
            continue;
        }
        let Some(work) = &r.work else { continue };
        let reference = &project.documents[entry.document].references[entry.reference];
        works.insert((reference.file, reference.span), work);
    }
    let setup = Setup::new(options)?;
    let backend = setup.backend(flags)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("async runtime")?;
    let found = runtime.block_on(verify_project(
        project,
        |d, r| {
            let reference = project.documents.get(d)?.references.get(r)?;
            works.get(&(reference.file, reference.span)).copied()
        },
        &backend,
    ));
    report_usage(&backend);
    Ok(found)
}
