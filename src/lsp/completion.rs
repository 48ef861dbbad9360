//! `textDocument/completion` of citation keys in LaTeX key lists and after `@` in
//! Markdown, and `completionItem/resolve` for their documentation.
//!
//! Large bibliographies stay fast: the server matches the typed prefix against
//! each entry's key, author names and title words itself and sends at most
//! [`LIMIT`] items (marking the list incomplete so the client asks again as the
//! user types); each item carries only its key, a one-line detail and the words it
//! matches on (`filterText`), and its documentation is computed when the client
//! asks for it.
//!
//! When the user's Zotero answers (see [`super::zotero`]), the keys of its items
//! that the `.bib` lacks follow the `.bib`'s own, labelled "Zotero"; inserting
//! one runs `citeproof.zotero.add`, which adds its entry to the `.bib`.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use lsp_server::ResponseError;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionItemLabelDetails, CompletionList,
    CompletionParams, CompletionResponse, CompletionTextEdit, Documentation, MarkupContent,
    MarkupKind, TextEdit, Uri,
};
use serde::{Deserialize, Serialize};

use super::completion_context;
use super::completion_index::{KeyIndex, fold, index_of, rank};
use super::render;
use super::settings::ResolveWhen;
use super::view::{EntryId, Read, View};
use super::zotero::ZoteroIndex;
use super::zotero_edit;
use crate::load::Project;
use crate::model::{Reference, Span};
use crate::source::FileKind;
use crate::zotero::Keyed;

/// Characters that open a key: `\cite{`, `\cite{a,`, `@`.
pub const TRIGGERS: &[char] = &['{', ',', '@'];

/// Most items sent for one request.
pub const LIMIT: usize = 100;

/// The key of a Zotero item's `data`: the item's citation key.
const ZOTERO_DATA: &str = "zotero";

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
    // The buffer as it is now: the check of the last keystroke may still be to come.
    let checked = read.source();
    let (text, index) = match view.documents.by_path(&checked.path) {
        Some(doc) => (&*doc.text, &doc.index),
        None => (&*checked.text, &checked.index),
    };
    let offset = view.encoding.offset(text, index, at.position);
    let key_at = match checked.kind {
        FileKind::Latex => {
            let commands: Vec<&String> = read.documents().flat_map(|d| &d.cite_commands).collect();
            completion_context::latex(text, offset, |name| {
                commands.iter().any(|c| is_command(c, name))
            })
        }
        FileKind::Markdown => completion_context::markdown(text, offset),
        _ => None,
    };
    let Some(key_at) = key_at else {
        return Ok(None);
    };
    let range = view.encoding.range(text, index, key_at.replace);
    Ok(Some(CompletionResponse::List(items(
        view,
        read,
        &at.text_document.uri,
        &fold(&key_at.prefix),
        range,
    ))))
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

/// One document's entries: its project, the project's index, the document.
type EntryList<'a> = (&'a Project, Arc<KeyIndex>, usize);

/// The entry lists that may be cited here: those of the documents that read the
/// file, or, for a file no document with a bibliography reads (a chapter opened
/// alone), those of every open document.
fn lists<'a>(view: &View<'a>, read: Read<'a>) -> Vec<EntryList<'a>> {
    let own: Vec<usize> = read
        .project()
        .documents
        .iter()
        .enumerate()
        .filter(|(_, d)| d.files.contains(&read.file))
        .map(|(i, _)| i)
        .collect();
    let mut lists: Vec<EntryList<'a>> = Vec::new();
    let index = index_of(&read.check.project);
    for d in own.into_iter().filter(|&d| !index.entries(d).is_empty()) {
        lists.push((read.project(), index.clone(), d));
    }
    if lists.is_empty() {
        for check in view.workspace.roots.values() {
            let index = index_of(&check.project);
            for d in (0..check.project.documents.len()).filter(|&d| !index.entries(d).is_empty()) {
                lists.push((&check.project, index.clone(), d));
            }
        }
    }
    lists
}

/// The matches of the entries of `lists`, best first, at most [`LIMIT`], and
/// whether there were more.
fn matches<'a>(
    lists: &[EntryList<'a>],
    prefix: &str,
) -> (Vec<(u8, &'a Project, &'a Reference)>, bool) {
    // Per rank, in key order; with several lists, a key already seen is left out.
    let several = lists.len() > 1;
    let mut buckets: [Vec<(&Project, &Reference)>; 4] = Default::default();
    let mut seen: HashSet<&str> = HashSet::new();
    for (project, index, d) in lists {
        for entry in index.entries(*d) {
            let Some(rank) = rank(entry, prefix) else {
                continue;
            };
            let reference = &project.documents[entry.doc].references[entry.reference];
            if several && !seen.insert(&reference.key) {
                continue;
            }
            buckets[rank as usize].push((*project, reference));
        }
    }
    let total: usize = buckets.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total.min(LIMIT));
    for (rank, mut bucket) in buckets.into_iter().enumerate() {
        if several {
            bucket.sort_by(|a, b| a.1.key.cmp(&b.1.key));
        }
        let room = LIMIT - out.len();
        out.extend(
            bucket
                .into_iter()
                .take(room)
                .map(|(p, r)| (rank as u8, p, r)),
        );
    }
    (out, total > LIMIT)
}

/// The items of the user's Zotero library that match, are cited by a key none of
/// `lists` defines, and fit in `room`, best first; and whether there were more.
fn zotero_matches<'z>(
    zotero: &'z ZoteroIndex,
    lists: &[EntryList],
    prefix: &str,
    room: usize,
) -> (Vec<(u8, &'z Keyed)>, bool) {
    // Whether the .bib has the key is asked only of the items that would be shown.
    let defined = |i: usize| {
        let key = zotero.words[i].folded_key();
        lists.iter().any(|(_, index, d)| index.defines(*d, key))
    };
    if room == 0 {
        // The .bib's entries fill the list: only whether Zotero has more.
        let more = (zotero.words.iter().enumerate())
            .any(|(i, words)| words.rank(prefix).is_some() && !defined(i));
        return (Vec::new(), more);
    }
    let mut buckets: [Vec<usize>; 4] = Default::default();
    for (i, words) in zotero.words.iter().enumerate() {
        if let Some(rank) = words.rank(prefix) {
            buckets[rank as usize].push(i);
        }
    }
    let mut out = Vec::new();
    for (rank, bucket) in buckets.iter().enumerate() {
        for &i in bucket {
            if defined(i) {
                continue;
            }
            if out.len() == room {
                return (out, true);
            }
            out.push((rank as u8, &zotero.library.items()[i]));
        }
    }
    (out, false)
}

fn items(
    view: &View,
    read: Read,
    uri: &Uri,
    prefix: &str,
    range: lsp_types::Range,
) -> CompletionList {
    let lists = lists(view, read);
    let (matched, mut more) = matches(&lists, prefix);
    let mut items: Vec<CompletionItem> = matched
        .into_iter()
        .enumerate()
        .map(|(i, (score, project, r))| item(project, r, score, i, range))
        .collect();
    // Keys that are in Zotero but not yet in the .bib, after the .bib's own.
    if let Some(zotero) = &view.zotero {
        let (found, extra) = zotero_matches(zotero, &lists, prefix, LIMIT - items.len());
        more |= extra;
        items.extend(
            found
                .into_iter()
                .enumerate()
                .map(|(i, (score, keyed))| zotero_item(read, uri, keyed, score, i, range)),
        );
    }
    CompletionList {
        is_incomplete: more,
        items,
    }
}

/// What an item shows and is found by.
struct Shown<'a> {
    key: &'a str,
    /// The names shown (`Smith, Müller`, `… et al.`).
    names: String,
    /// Every family name, matched by the client's filter.
    families: Vec<&'a str>,
    year: Option<i32>,
    title: Option<&'a str>,
}

/// An item that inserts the key: its detail `names (year) title`, filtered on the
/// key, the family names and the title.
fn key_item(shown: Shown, sort_text: String, range: lsp_types::Range) -> CompletionItem {
    let mut detail = shown.names;
    if let Some(year) = shown.year {
        detail.push_str(&format!(" ({year})"));
    }
    if let Some(title) = shown.title {
        let short: String = title.chars().take(90).collect();
        let more = if short.len() < title.len() { "…" } else { "" };
        detail.push_str(&format!(" {short}{more}"));
    }
    let mut filter = shown.key.to_string();
    for family in &shown.families {
        filter.push(' ');
        filter.push_str(family);
    }
    if let Some(title) = shown.title {
        filter.push(' ');
        filter.push_str(title);
    }
    CompletionItem {
        label: shown.key.to_string(),
        kind: Some(CompletionItemKind::REFERENCE),
        detail: Some(detail.trim().to_string()),
        filter_text: Some(filter),
        sort_text: Some(sort_text),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
            range,
            shown.key.to_string(),
        ))),
        ..CompletionItem::default()
    }
}

/// An item of the Zotero library, labelled as such; once inserted, its command
/// adds the entry to the document's `.bib`.
fn zotero_item(
    read: Read,
    uri: &Uri,
    keyed: &Keyed,
    score: u8,
    index: usize,
    range: lsp_types::Range,
) -> CompletionItem {
    let item = &keyed.item;
    let families: Vec<&str> = item.authors().iter().map(|c| c.family.as_str()).collect();
    let mut names: Vec<&str> = families.iter().take(3).copied().collect();
    if families.len() > 3 {
        names.push("et al.");
    }
    let shown = Shown {
        key: &keyed.key,
        names: format!("Zotero · {}", names.join(", ")),
        families,
        year: item.year(),
        title: Some(item.title.as_str()).filter(|t| !t.is_empty()),
    };
    // After every entry of the .bib (whose sort texts start with a digit).
    let base = key_item(shown, format!("z{score}{index:04}"), range);
    CompletionItem {
        label_details: Some(CompletionItemLabelDetails {
            detail: None,
            description: Some("Zotero".into()),
        }),
        command: zotero_edit::add_command(read, uri, &keyed.key),
        data: Some(serde_json::json!({ ZOTERO_DATA: keyed.key })),
        ..base
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
    let shown = Shown {
        key: &r.key,
        names: render::families(persons, f.authors_truncated),
        families: persons.iter().map(|p| p.family.as_str()).collect(),
        year: f.year,
        title: f.title.as_deref(),
    };
    let entry = EntryId::of(project, r);
    let data = ItemData {
        path: entry.path,
        start: r.span.start,
        end: r.span.end,
    };
    CompletionItem {
        data: serde_json::to_value(data).ok(),
        ..key_item(shown, format!("{score}{index:04}"), range)
    }
}

/// `completionItem/resolve`: the entry's documentation, as its hover shows it.
pub fn resolve(view: &View, mut item: CompletionItem) -> Result<CompletionItem, ResponseError> {
    let zotero_key = item
        .data
        .as_ref()
        .and_then(|d| d.get(ZOTERO_DATA))
        .and_then(|k| k.as_str());
    if let Some(key) = zotero_key {
        let text = view
            .zotero
            .as_ref()
            .and_then(|z| z.library.get(key))
            .map(|keyed| render::zotero_item(key, &keyed.item));
        item.documentation = text.map(|value| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            })
        });
        return Ok(item);
    }
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
