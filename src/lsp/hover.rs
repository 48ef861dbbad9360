//! `textDocument/hover`: on a citation, its entry as written and, once resolved,
//! the record, the status and why, a retraction notice and the verdict on the
//! claim; on a bibliography entry, the same and where it is cited.

use lsp_server::ResponseError;
use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use super::render;
use super::view::{EntryId, Found, View, citations_of, cited_entry, found_at};
use super::workspace::RootCheck;
use crate::document::Document;
use crate::load::Project;
use crate::model::{Citation, ReferenceOrigin};
use crate::report::ReferenceFacts;
use crate::source::FileKind;

/// How many citing places a bibliography entry's hover lists.
const MAX_PLACES: usize = 12;

pub fn hover(view: &View, params: HoverParams) -> Result<Option<Hover>, ResponseError> {
    let at = params.text_document_position_params;
    let Some(read) = view.read(&at.text_document.uri) else {
        return Ok(None);
    };
    let offset = view.offset(read, at.position);
    let project = read.project();
    let (markdown, span) = match found_at(project, read.file, offset) {
        Some(Found::Citation { doc, citation }) => (
            citation_text(view, read.check, doc, citation),
            citation.span,
        ),
        Some(Found::Entry { reference, .. }) => {
            let entry = EntryId::of(project, reference);
            let mut text = render::entry(view, project, reference);
            text.push_str("\n---\n\n");
            text.push_str(&render::resolution(
                entry_facts(view, &entry),
                view.settings.resolve == super::settings::ResolveWhen::Off,
            ));
            text.push_str("\n---\n\n");
            text.push_str(&cited_at(view, &entry));
            (text, reference.key_span.unwrap_or(reference.span))
        }
        Some(Found::Link(link)) => {
            let target = project.sources.get(link.target);
            (format!("File `{}`", target.path.display()), link.span)
        }
        None => return Ok(None),
    };
    Ok(Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(view.range(read.source(), span)),
    }))
}

fn citation_text(view: &View, check: &RootCheck, doc: &Document, citation: &Citation) -> String {
    let project = &*check.project;
    let resolve_off = view.settings.resolve == super::settings::ResolveWhen::Off;
    let in_zotero = view
        .zotero
        .as_ref()
        .filter(|_| citation.kind == crate::model::CitationKind::Key)
        .and_then(|z| z.library.get(&citation.key))
        .map(|keyed| render::zotero_item(&citation.key, &keyed.item));
    let Some(reference) = citation.reference.and_then(|r| doc.references.get(r)) else {
        let mut text = undefined(project, doc, citation);
        if let Some(zotero) = in_zotero {
            text.push_str("\n---\n\n");
            text.push_str(&zotero);
        }
        return text;
    };
    let mut text = if reference.origin == ReferenceOrigin::Inline {
        let link = citation
            .id
            .as_ref()
            .map(|(scheme, value)| format!(" · {}", render::identifier_link(*scheme, value)))
            .unwrap_or_default();
        format!(
            "**{}** · cited by its identifier{link}\n",
            render::escape(&citation.key)
        )
    } else {
        render::entry(view, project, reference)
    };
    let facts = match cited_entry(doc, citation) {
        Some(entry) => entry_facts(view, &EntryId::of(project, entry)),
        // Made from an inline identifier: known only to this check.
        None => check.facts.reference(reference),
    };
    text.push_str("\n---\n\n");
    text.push_str(&render::resolution(facts, resolve_off));
    if let Some(verdict) = check
        .facts
        .citation(citation)
        .and_then(render::verification)
    {
        text.push_str("\n---\n\n");
        text.push_str(&verdict);
    }
    if let Some(zotero) = in_zotero {
        text.push_str("\n---\n\n");
        text.push_str(&zotero);
    }
    text
}

/// A citation no entry defines: say where the key was looked for.
fn undefined(project: &Project, doc: &Document, citation: &Citation) -> String {
    let bibliographies: Vec<String> = doc
        .files
        .iter()
        .map(|&f| project.sources.get(f))
        .filter(|f| matches!(f.kind, FileKind::Bibtex | FileKind::CslJson))
        .map(|f| format!("`{}`", f.display_path()))
        .collect();
    let looked = if bibliographies.is_empty() {
        "the document names no bibliography file".to_string()
    } else {
        format!("looked for in {}", bibliographies.join(", "))
    };
    format!(
        "**{}**: no entry defines this key ({looked}).\n",
        render::escape(&citation.key)
    )
}

/// What resolution learned about an entry, in whichever root's check resolved it.
fn entry_facts<'v>(view: &View<'v>, entry: &EntryId) -> Option<&'v ReferenceFacts> {
    view.reads(&entry.path).into_iter().find_map(|read| {
        let check = read.check;
        check
            .project
            .documents
            .iter()
            .flat_map(|d| &d.references)
            .filter(|r| r.file == read.file && r.span == entry.span)
            .find_map(|r| check.facts.reference(r))
    })
}

/// Where an entry is cited, across every open document's check.
fn cited_at(view: &View, entry: &EntryId) -> String {
    let cited = citations_of(view.projects(), entry);
    if cited.is_empty() {
        return "Not cited by any open document.\n".into();
    }
    let mut out = format!(
        "Cited {} time{}:\n\n",
        cited.len(),
        if cited.len() == 1 { "" } else { "s" }
    );
    for c in cited.iter().take(MAX_PLACES) {
        let place = render::place_link(view, c.project, c.citation.file, c.citation.span.start);
        let claim = c
            .citation
            .claim
            .and_then(|i| c.doc.claims.get(i))
            .map(|claim| {
                let short: String = claim.text.chars().take(100).collect();
                let more = if short.len() < claim.text.len() {
                    "…"
                } else {
                    ""
                };
                format!(" — {}{more}", render::escape(&short))
            })
            .unwrap_or_default();
        out.push_str(&format!("- {place}{claim}\n"));
    }
    if cited.len() > MAX_PLACES {
        out.push_str(&format!("- … and {} more\n", cited.len() - MAX_PLACES));
    }
    out
}
