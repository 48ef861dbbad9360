//! The library entry point for documents (the CLI and the language server call this):
//! which references of a project's documents (`Project::documents`, however they
//! were loaded) to resolve, and their resolutions.
//!
//! A document with citations has its cited references resolved (a large shared .bib
//! is not resolved entry by entry for a paper that cites a few of them); a document
//! without citations — a .bib checked on its own, a reference list — has every
//! reference resolved. A reference shared by several documents is resolved once.

use std::collections::HashSet;

use crate::document::Document;
use crate::model::{FileId, Span};
use crate::net::SourceStats;
use crate::resolve::cascade::{ResolveError, Resolver};
use crate::resolve::options::ResolveOptions;
use crate::resolve::query::RefQuery;
use crate::resolve::resolution::Resolution;

/// One resolved reference of a project.
#[derive(Debug, Clone)]
pub struct ResolvedReference {
    /// Index into `Project::documents`.
    pub document: usize,
    /// Index into that document's `references`.
    pub reference: usize,
    pub resolution: Resolution,
}

/// Everything resolved in one run.
#[derive(Debug, Clone, Default)]
pub struct ProjectResolution {
    pub entries: Vec<ResolvedReference>,
    /// Upstream requests per source during the run.
    pub stats: Vec<SourceStats>,
}

/// `(document, reference)` pairs to resolve, each reference (by file and place) once.
pub fn references_to_resolve(documents: &[Document]) -> Vec<(usize, usize)> {
    let mut seen: HashSet<(FileId, Span)> = HashSet::new();
    let mut out = Vec::new();
    for (d, doc) in documents.iter().enumerate() {
        let cited: Vec<usize> = if doc.citations.is_empty() {
            (0..doc.references.len()).collect()
        } else {
            let mut refs: Vec<usize> = doc.citations.iter().filter_map(|c| c.reference).collect();
            refs.sort_unstable();
            refs.dedup();
            refs
        };
        for r in cited {
            let reference = &doc.references[r];
            if seen.insert((reference.file, reference.span)) {
                out.push((d, r));
            }
        }
    }
    out
}

/// Resolve the references of a project's documents with an existing resolver.
pub async fn resolve_project_with(
    resolver: &Resolver,
    documents: &[Document],
) -> ProjectResolution {
    let wanted = references_to_resolve(documents);
    let queries: Vec<RefQuery> = wanted
        .iter()
        .map(|&(d, r)| RefQuery::from_reference(&documents[d].references[r]))
        .collect();
    let resolutions = resolver.resolve(&queries).await;
    ProjectResolution {
        entries: wanted
            .into_iter()
            .zip(resolutions)
            .map(|((document, reference), resolution)| ResolvedReference {
                document,
                reference,
                resolution,
            })
            .collect(),
        stats: resolver.stats(),
    }
}

/// Resolve the references of a project's documents on a runtime of its own.
pub fn resolve_project(
    documents: &[Document],
    options: &ResolveOptions,
) -> Result<ProjectResolution, ResolveError> {
    crate::resolve::cascade::runtime()?.block_on(async {
        let resolver = Resolver::new(options.clone())?;
        Ok(resolve_project_with(&resolver, documents).await)
    })
}
