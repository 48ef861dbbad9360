//! `textDocument/completion` of citation keys in LaTeX key lists and after `@` in
//! Markdown, and `completionItem/resolve` for their documentation.
//!
//! Large bibliographies stay fast: the server matches the typed prefix against
//! each entry's key, author names and title words itself and sends at most
//! [`LIMIT`] items (marking the list incomplete so the client asks again as the
//! user types); each item carries only its key, a one-line detail and the words it
//! matches on (`filterText`), and its documentation is computed when the client
//! asks for it.

use std::collections::HashSet;
use std::path::PathBuf;

use lsp_server::ResponseError;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionParams, CompletionResponse,
    CompletionTextEdit, Documentation, MarkupContent, MarkupKind, TextEdit,
};
use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use super::completion_context::{self, KeyAt};
use super::render;
use super::settings::ResolveWhen;
use super::view::{EntryId, Read, View};
use crate::load::Project;
use crate::model::{Reference, ReferenceOrigin, Span};
use crate::source::FileKind;

/// Characters that open a key: `\cite{`, `\cite{a,`, `@`.
pub const TRIGGERS: &[char] = &['{', ',', '@'];

/// Most items sent for one request.
pub const LIMIT: usize = 100;

/// What an item carries to `completionItem/resolve`: where its entry is written.
#[derive(Debug, Serialize, Deserialize)]
struct ItemData {
    path: PathBuf,
    start: usize,
    end: usize,
}

pub fn complete(
    view: &View,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>, ResponseError> {
    let at = params.text_document_position;
    let Some(read) = view.read(&at.text_document.uri) else {
        return Ok(None);
    };
    let offset = view.offset(read, at.position);
    let source = read.source();
    let key_at = match source.kind {
        FileKind::Latex => {
            let commands: Vec<&String> = read.documents().flat_map(|d| &d.cite_commands).collect();
            completion_context::latex(&source.text, offset, |name| {
                commands.iter().any(|c| is_command(c, name))
            })
        }
        FileKind::Markdown => completion_context::markdown(&source.text, offset),
        _ => None,
    };
    let Some(key_at) = key_at else {
        return Ok(None);
    };
    Ok(Some(CompletionResponse::List(items(view, read, &key_at))))
}

/// `name` is `command` or its capitalised form (`\Citep` for `citep`).
fn is_command(command: &str, name: &str) -> bool {
    if command == name {
        return true;
    }
    let mut chars = command.chars();
    match chars.next() {
        Some(first) if first.is_ascii_lowercase() => {
            name.len() == command.len()
                && name.starts_with(first.to_ascii_uppercase())
                && name[1..] == *chars.as_str()
        }
        _ => false,
    }
}

/// Entries that may be cited here: those of the documents that read the file, or,
/// for a file no document with a bibliography reads (a chapter opened alone), those
/// of every open document.
fn candidates<'a>(view: &View<'a>, read: Read<'a>) -> Vec<(&'a Project, &'a Reference)> {
    let citable = |r: &&Reference| {
        matches!(
            r.origin,
            ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson | ReferenceOrigin::BibItem
        )
    };
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out: Vec<(&Project, &Reference)> = Vec::new();
    for doc in read.documents() {
        for r in doc.references.iter().filter(citable) {
            if seen.insert(&r.key) {
                out.push((read.project(), r));
            }
        }
    }
    if out.is_empty() {
        for project in view.projects() {
            for r in project
                .documents
                .iter()
                .flat_map(|d| &d.references)
                .filter(citable)
            {
                if seen.insert(&r.key) {
                    out.push((project, r));
                }
            }
        }
    }
    out
}

/// Lowercase without accents: `Schölkopf` matches `scholkopf`.
fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.nfd()
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// How well an entry matches the typed prefix (lower is better), or `None`.
fn rank(reference: &Reference, prefix: &str) -> Option<u8> {
    if prefix.is_empty() {
        return Some(0);
    }
    let key = fold(&reference.key);
    if key.starts_with(prefix) {
        return Some(0);
    }
    let f = &reference.fields;
    if f.authors.iter().chain(&f.editors).any(|p| {
        fold(&p.family)
            .split([' ', '-'])
            .any(|w| w.starts_with(prefix))
    }) {
        return Some(1);
    }
    if f.title.as_deref().is_some_and(|t| {
        fold(t)
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w.starts_with(prefix))
    }) {
        return Some(2);
    }
    key.contains(prefix).then_some(3)
}

fn items(view: &View, read: Read, key_at: &KeyAt) -> CompletionList {
    let prefix = fold(&key_at.prefix);
    let mut matched: Vec<(u8, &Project, &Reference)> = candidates(view, read)
        .into_iter()
        .filter_map(|(project, r)| Some((rank(r, &prefix)?, project, r)))
        .collect();
    let total = matched.len();
    matched.sort_by(|a, b| (a.0, &a.2.key).cmp(&(b.0, &b.2.key)));
    matched.truncate(LIMIT);
    let range = view.range(read.source(), key_at.replace);
    let items = matched
        .into_iter()
        .enumerate()
        .map(|(i, (score, project, r))| item(project, r, score, i, range))
        .collect();
    CompletionList {
        is_incomplete: total > LIMIT,
        items,
    }
}

fn item(
    project: &Project,
    r: &Reference,
    score: u8,
    index: usize,
    range: lsp_types::Range,
) -> CompletionItem {
    let f = &r.fields;
    let persons = if f.authors.is_empty() {
        &f.editors
    } else {
        &f.authors
    };
    let mut detail = render::families(persons, f.authors_truncated);
    if let Some(year) = f.year {
        detail.push_str(&format!(" ({year})"));
    }
    if let Some(title) = &f.title {
        let short: String = title.chars().take(90).collect();
        let more = if short.len() < title.len() { "…" } else { "" };
        detail.push_str(&format!(" {short}{more}"));
    }
    let mut filter = r.key.clone();
    for p in persons {
        filter.push(' ');
        filter.push_str(&p.family);
    }
    if let Some(title) = &f.title {
        filter.push(' ');
        filter.push_str(title);
    }
    let entry = EntryId::of(project, r);
    let data = ItemData {
        path: entry.path,
        start: r.span.start,
        end: r.span.end,
    };
    CompletionItem {
        label: r.key.clone(),
        kind: Some(CompletionItemKind::REFERENCE),
        detail: Some(detail.trim().to_string()),
        filter_text: Some(filter),
        sort_text: Some(format!("{score}{index:04}")),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
            range,
            r.key.clone(),
        ))),
        data: serde_json::to_value(data).ok(),
        ..CompletionItem::default()
    }
}

/// `completionItem/resolve`: the entry's documentation, as its hover shows it.
pub fn resolve(view: &View, mut item: CompletionItem) -> Result<CompletionItem, ResponseError> {
    let Some(data) = item
        .data
        .clone()
        .and_then(|d| serde_json::from_value::<ItemData>(d).ok())
    else {
        return Ok(item);
    };
    let span = Span::new(data.start, data.end.max(data.start));
    let found = view.reads(&data.path).into_iter().find_map(|read| {
        let r = read
            .documents()
            .flat_map(|d| &d.references)
            .find(|r| r.file == read.file && r.span == span && r.key == item.label)?;
        Some((read, r))
    });
    if let Some((read, reference)) = found {
        let mut text = render::entry(view, read.project(), reference);
        text.push_str("\n---\n\n");
        text.push_str(&render::resolution(
            read.check.facts.reference(reference),
            view.settings.resolve == ResolveWhen::Off,
        ));
        item.documentation = Some(Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }));
    }
    Ok(item)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FileId, Person, RefFields};

    fn entry(key: &str, family: &str, title: &str) -> Reference {
        Reference {
            key: key.into(),
            origin: ReferenceOrigin::BibEntry,
            entry_type: Some("article".into()),
            file: FileId(0),
            span: Span::new(0, 1),
            key_span: None,
            raw: String::new(),
            fields: RefFields {
                title: Some(title.into()),
                authors: vec![Person::new(Some("A."), family)],
                ..RefFields::default()
            },
            field_spans: Vec::new(),
        }
    }

    #[test]
    fn ranks_key_then_authors_then_title_words() {
        let r = entry("vaswani2017", "Schölkopf", "Attention is all you need");
        assert_eq!(rank(&r, "vas"), Some(0));
        assert_eq!(rank(&r, "scholk"), Some(1));
        assert_eq!(rank(&r, "atten"), Some(2));
        assert_eq!(rank(&r, "2017"), Some(3));
        assert_eq!(rank(&r, "zebra"), None);
        assert!(is_command("citep", "Citep"));
        assert!(!is_command("citep", "citet"));
    }
}
