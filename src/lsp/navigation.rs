//! Going from a citation to its entry and from a file's name to the file
//! (`textDocument/definition`), from an entry to every citation of it in the
//! workspace (`textDocument/references`), and the entries of a bibliography as
//! its outline (`textDocument/documentSymbol`).

use std::collections::HashSet;

use lsp_server::ResponseError;
use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams,
    GotoDefinitionResponse, Location, Position, Range, ReferenceParams, SymbolInformation,
    SymbolKind,
};

use super::scan;
use super::view::{
    Cited, EntryId, Found, View, citations_of, cited_entry, found_at, undefined_citations_of,
};
use crate::load::Project;
use crate::model::{Reference, ReferenceOrigin};

pub fn definition(
    view: &View,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>, ResponseError> {
    let at = params.text_document_position_params;
    let Some(read) = view.read(&at.text_document.uri) else {
        return Ok(None);
    };
    let project = read.project();
    let location = match found_at(project, read.file, view.offset(read, at.position)) {
        Some(Found::Citation { doc, citation }) => cited_entry(doc, citation)
            .and_then(|r| view.location(project, r.file, r.key_span.unwrap_or(r.span))),
        Some(Found::Link(link)) => {
            let target = project.sources.get(link.target);
            view.uri_of(&target.path)
                .map(|uri| Location::new(uri, Range::new(Position::new(0, 0), Position::new(0, 0))))
        }
        Some(Found::Entry { .. }) | None => None,
    };
    Ok(location.map(GotoDefinitionResponse::Scalar))
}

pub fn references(
    view: &View,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>, ResponseError> {
    let at = params.text_document_position;
    let Some(read) = view.read(&at.text_document.uri) else {
        return Ok(None);
    };
    let project = read.project();
    enum Target<'a> {
        Entry(&'a Reference),
        Undefined(&'a str),
    }
    let target = match found_at(project, read.file, view.offset(read, at.position)) {
        Some(Found::Citation { doc, citation }) => match cited_entry(doc, citation) {
            Some(reference) => Target::Entry(reference),
            None if citation.reference.is_none() => Target::Undefined(&citation.key),
            // An identifier cited inline: it has no entry to gather citations on.
            None => return Ok(None),
        },
        Some(Found::Entry { reference, .. }) => Target::Entry(reference),
        Some(Found::Link(_)) | None => return Ok(None),
    };
    let folders = scan::folder_projects(view);
    let projects = || view.projects().chain(folders.iter());
    let mut out = Vec::new();
    let cited: Vec<Cited> = match &target {
        Target::Entry(reference) => {
            if params.context.include_declaration
                && let Some(l) = view.location(
                    project,
                    reference.file,
                    reference.key_span.unwrap_or(reference.span),
                )
            {
                out.push(l);
            }
            citations_of(projects(), &EntryId::of(project, reference))
        }
        Target::Undefined(key) => undefined_citations_of(projects(), key),
    };
    out.extend(
        cited
            .iter()
            .filter_map(|c| view.location(c.project, c.citation.file, c.citation.span)),
    );
    Ok(Some(out))
}

fn symbol_kind(reference: &Reference) -> SymbolKind {
    match reference.origin {
        ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson | ReferenceOrigin::BibItem => {
            SymbolKind::OBJECT
        }
        _ => SymbolKind::KEY,
    }
}

fn symbol_detail(reference: &Reference) -> Option<String> {
    let title = reference.fields.title.as_deref().map(|t| {
        let short: String = t.chars().take(80).collect();
        if short.len() < t.len() {
            format!("{short}…")
        } else {
            short
        }
    });
    match (&reference.entry_type, title) {
        (Some(kind), Some(title)) => Some(format!("{kind} · {title}")),
        (Some(kind), None) => Some(kind.clone()),
        (None, title) => title,
    }
}

/// The entries and reference-list items a file defines, in order.
fn defined_in(project: &Project, file: crate::model::FileId) -> Vec<&Reference> {
    let mut seen = HashSet::new();
    let mut out: Vec<&Reference> = project
        .documents
        .iter()
        .filter(|d| d.files.contains(&file))
        .flat_map(|d| &d.references)
        .filter(|r| r.file == file && r.origin != ReferenceOrigin::Inline)
        .filter(|r| seen.insert(r.span))
        .collect();
    out.sort_by_key(|r| r.span.start);
    out
}

pub fn symbols(
    view: &View,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>, ResponseError> {
    let Some(read) = view.read(&params.text_document.uri) else {
        return Ok(None);
    };
    let source = read.source();
    let references = defined_in(read.project(), read.file);
    let hierarchical = view
        .client
        .text_document
        .as_ref()
        .and_then(|t| t.document_symbol.as_ref())
        .and_then(|s| s.hierarchical_document_symbol_support)
        .unwrap_or(false);
    if !hierarchical {
        #[allow(deprecated)] // `deprecated` is a required field of the type.
        let flat = references
            .iter()
            .map(|r| SymbolInformation {
                name: r.key.clone(),
                kind: symbol_kind(r),
                tags: None,
                deprecated: None,
                location: Location::new(
                    params.text_document.uri.clone(),
                    view.range(source, r.span),
                ),
                container_name: r.entry_type.clone(),
            })
            .collect();
        return Ok(Some(DocumentSymbolResponse::Flat(flat)));
    }
    #[allow(deprecated)] // `deprecated` is a required field of the type.
    let nested = references
        .iter()
        .map(|r| {
            let range = view.range(source, r.span);
            let selection = r
                .key_span
                .filter(|k| r.span.covers(*k))
                .map_or(range, |k| view.range(source, k));
            DocumentSymbol {
                name: if r.key.is_empty() {
                    "(no key)".into()
                } else {
                    r.key.clone()
                },
                detail: symbol_detail(r),
                kind: symbol_kind(r),
                tags: None,
                deprecated: None,
                range,
                selection_range: selection,
                children: None,
            }
        })
        .collect();
    Ok(Some(DocumentSymbolResponse::Nested(nested)))
}
