//! `textDocument/prepareRename` and `textDocument/rename` of a citation key: the
//! entry's key in its bibliography and every citation of it, in the open documents
//! and in every document of the workspace folders. Anything that is not a key
//! (a numbered marker, an identifier, a key no entry defines) is refused with a
//! message that says why, as is a new key that is not valid or already taken.

use lsp_server::ResponseError;
use lsp_types::{
    PrepareRenameResponse, RenameParams, TextDocumentPositionParams, TextEdit, WorkspaceEdit,
};

use super::client::refused;
use super::edit::workspace_edit;
use super::scan;
use super::view::{EntryId, Found, Read, View, citations_of, cited_entry, found_at};
use crate::load::Project;
use crate::model::{CitationKind, Reference, ReferenceOrigin, Span};

/// What a rename renames: an entry, found through the place the cursor is on.
struct Target<'a> {
    reference: &'a Reference,
    /// The key under the cursor (on a citation or on the entry's key).
    at: Span,
}

fn target(read: Read<'_>, offset: usize) -> Result<Target<'_>, ResponseError> {
    let nothing = "citeproof renames citation keys: put the cursor on a citation's key or on \
                   the key of a bibliography entry";
    match found_at(read.project(), read.file, offset) {
        Some(Found::Citation { doc, citation }) => {
            if citation.kind != CitationKind::Key {
                let what = match citation.kind {
                    CitationKind::Numeric => "a numbered citation marker",
                    CitationKind::Footnote => "a footnote marker",
                    CitationKind::Identifier => "an identifier cited inline",
                    CitationKind::AuthorYear => "an author–year citation",
                    CitationKind::Tag => "a Manubot tag",
                    CitationKind::Key => unreachable!(),
                };
                return Err(refused(format!(
                    "`{}` is {what}, not a citation key: {nothing}",
                    citation.key
                )));
            }
            let Some(reference) = cited_entry(doc, citation) else {
                return Err(refused(format!(
                    "no bibliography entry defines `{}`: there is no key to rename \
                     (a key is renamed together with its entry)",
                    citation.key
                )));
            };
            renamable(reference)?;
            Ok(Target {
                reference,
                at: citation.span,
            })
        }
        Some(Found::Entry {
            reference, on_key, ..
        }) => {
            renamable(reference)?;
            match (on_key, reference.key_span) {
                (true, Some(at)) => Ok(Target { reference, at }),
                _ => Err(refused(format!(
                    "put the cursor on the key `{}` of this entry to rename it",
                    reference.key
                ))),
            }
        }
        Some(Found::Link(_)) => Err(refused(format!(
            "this names a file, not a citation key: {nothing}"
        ))),
        None => Err(refused(format!("nothing to rename here: {nothing}"))),
    }
}

fn renamable(reference: &Reference) -> Result<(), ResponseError> {
    let keyed = matches!(
        reference.origin,
        ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson | ReferenceOrigin::BibItem
    );
    if keyed && reference.key_span.is_some() {
        Ok(())
    } else {
        Err(refused(format!(
            "`{}` is the label of a reference-list item, not a bibliography key",
            reference.key
        )))
    }
}

pub fn prepare(
    view: &View,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>, ResponseError> {
    let Some(read) = view.read(&params.text_document.uri) else {
        return Ok(None);
    };
    let target = target(read, view.offset(read, params.position))?;
    Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: view.range(read.source(), target.at),
        placeholder: target.reference.key.clone(),
    }))
}

/// A key every citation syntax reads whole: pandoc's `@key` (letters, digits and
/// `_`, inner `:.-+/`), BibTeX's and LaTeX's key lists.
fn check_key(key: &str) -> Result<(), ResponseError> {
    let inner_ok = |c: char| c.is_alphanumeric() || "_:.-+/".contains(c);
    let edge_ok = |c: char| c.is_alphanumeric() || c == '_';
    let valid = !key.is_empty()
        && key.chars().all(inner_ok)
        && key.chars().next().is_some_and(edge_ok)
        && key.chars().next_back().is_some_and(edge_ok);
    if valid {
        Ok(())
    } else {
        Err(refused(format!(
            "`{key}` is not a valid citation key: use letters, digits and `_`, with `:` `.` \
             `-` `+` `/` only inside the key"
        )))
    }
}

pub fn rename(view: &View, params: RenameParams) -> Result<Option<WorkspaceEdit>, ResponseError> {
    let at = params.text_document_position;
    let Some(read) = view.read(&at.text_document.uri) else {
        return Ok(None);
    };
    let target = target(read, view.offset(read, at.position))?;
    let new = params.new_name.trim();
    check_key(new)?;
    let project = read.project();
    let entry = EntryId::of(project, target.reference);
    let folders = scan::folder_projects(view);
    let projects: Vec<&Project> = view.projects().chain(folders.iter()).collect();
    if let Some(taken) = taken_by(&projects, &entry, new) {
        return Err(refused(format!(
            "`{new}` is already the key of {taken}: choose another key"
        )));
    }
    let mut edits = Vec::new();
    let key_span = target.reference.key_span.expect("checked by renamable");
    if let Some(place) = view.location(project, target.reference.file, key_span) {
        edits.push((place.uri, TextEdit::new(place.range, new.to_string())));
    }
    edits.extend(key_field_edits(
        view,
        &projects,
        &entry,
        &target.reference.key,
        new,
    ));
    for cited in citations_of(projects.iter().copied(), &entry) {
        if let Some(place) = view.location(cited.project, cited.citation.file, cited.citation.span)
        {
            edits.push((place.uri, TextEdit::new(place.range, new.to_string())));
        }
    }
    Ok(Some(workspace_edit(view, edits)))
}

/// Fields of BibTeX entries that name other entries by key (lists for all but
/// `crossref`).
const KEY_FIELDS: &[&str] = &["crossref", "xref", "xdata", "related", "entryset"];

/// The keys in `crossref`, `xdata` … fields of the entries read beside `entry` that
/// name it: renamed with it, or the entries that inherit from it would lose it.
fn key_field_edits(
    view: &View,
    projects: &[&Project],
    entry: &EntryId,
    old: &str,
    new: &str,
) -> Vec<(lsp_types::Uri, TextEdit)> {
    let mut out = Vec::new();
    for project in projects {
        let Some(file) = project.sources.find(&entry.path) else {
            continue;
        };
        let entries = project
            .documents
            .iter()
            .filter(|d| d.files.contains(&file))
            .flat_map(|d| &d.references)
            .filter(|r| r.origin == ReferenceOrigin::BibEntry);
        for reference in entries {
            let text = &project.sources.get(reference.file).text;
            for field in reference
                .field_spans
                .iter()
                .filter(|f| KEY_FIELDS.contains(&f.name.as_str()))
            {
                let mut at = field.value.start;
                for piece in text[field.value.start..field.value.end].split(',') {
                    let lead = piece.len() - piece.trim_start().len();
                    if piece.trim() == old {
                        let start = at + lead;
                        let span = Span::new(start, start + old.len());
                        if let Some(place) = view.location(project, reference.file, span) {
                            out.push((place.uri, TextEdit::new(place.range, new.to_string())));
                        }
                    }
                    at += piece.len() + 1;
                }
            }
        }
    }
    out
}

/// Another entry that documents reading `entry` can see under `key`.
fn taken_by(projects: &[&Project], entry: &EntryId, key: &str) -> Option<String> {
    for project in projects {
        let Some(file) = project.sources.find(&entry.path) else {
            continue;
        };
        for doc in project.documents.iter().filter(|d| d.files.contains(&file)) {
            let other = doc.references.iter().find(|r| {
                r.origin != ReferenceOrigin::Inline
                    && r.key == key
                    && !(r.file == file && r.span == entry.span)
            });
            if let Some(r) = other {
                let source = project.sources.get(r.file);
                let line = source.index.line_of(r.span.start) + 1;
                return Some(format!("an entry in {}:{line}", source.display_path()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        assert!(check_key("smith2020").is_ok());
        assert!(check_key("doe:2020.a").is_ok());
        assert!(check_key("Müller_2019").is_ok());
        for bad in ["", "a b", "a,b", "a}", "-a", "a.", "a@b", "a;b"] {
            assert!(check_key(bad).is_err(), "{bad}");
        }
    }
}
