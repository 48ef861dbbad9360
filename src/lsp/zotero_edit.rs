//! Adding an entry from the user's Zotero library to the document's `.bib`: the
//! quick fix on a citation whose key no entry defines but Zotero has ("Add `key`
//! from Zotero to refs.bib"), and the command a Zotero completion item runs after
//! it is inserted (`citeproof.zotero.add`, applied with `workspace/applyEdit`).
//! The entry is Better BibTeX's own export when it gave one, else written by
//! citeproof from the item's fields ([`crate::zotero::Library::bibtex`]).

use std::path::PathBuf;

use lsp_types::{
    CodeAction, CodeActionKind, Command, Diagnostic as LspDiagnostic, Range, TextEdit, Uri,
    WorkspaceEdit,
};
use serde::{Deserialize, Serialize};

use super::edit::workspace_edit;
use super::view::{Read, View};
use crate::fs::FileSystem;
use crate::model::{CitationKind, Span};
use crate::source::{FileKind, LineIndex};

/// The command that adds a Zotero item's entry to a document's `.bib`.
pub const ADD_COMMAND: &str = "citeproof.zotero.add";

/// The command that reads the Zotero library again.
pub const REFRESH_COMMAND: &str = "citeproof.zotero.refresh";

/// `.bib` files larger than this are not edited.
const MAX_SIZE: u64 = 64 << 20;

/// The argument of [`ADD_COMMAND`]: the citing document and the key.
#[derive(Debug, Serialize, Deserialize)]
pub struct AddArgs {
    pub uri: Uri,
    pub key: String,
}

/// The `.bib` file the document at `read` names first: where entries are added.
pub fn target_bib(read: Read) -> Option<PathBuf> {
    let project = read.project();
    read.documents().find_map(|doc| {
        doc.files
            .iter()
            .map(|&f| project.sources.get(f))
            .find(|f| f.kind == FileKind::Bibtex)
            .map(|f| f.path.clone())
    })
}

/// The file name shown in titles (`refs.bib`).
pub fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The edit that appends the Zotero entry of `key` to the `.bib` of the document
/// at `read`, and that file's name; why not, when it cannot be made.
pub fn add_entry(view: &View, read: Read, key: &str) -> Result<(String, WorkspaceEdit), String> {
    let zotero = view
        .zotero
        .as_ref()
        .ok_or("Zotero is not running (or its features are off)")?;
    let entry = zotero
        .library
        .bibtex(key)
        .ok_or_else(|| format!("`{key}` is not in the Zotero library"))?;
    let path = target_bib(read).ok_or("the document names no .bib file to add the entry to")?;
    let name = file_name(&path);
    let uri = view
        .uri_of(&path)
        .ok_or_else(|| format!("`{}` has no file URI", path.display()))?;
    let fs = view.documents.buffers().snapshot();
    let old = fs
        .read_text(&path, MAX_SIZE)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    if defines(&old, key) {
        return Err(format!("`{key}` is already in {name}"));
    }
    let separator = if old.is_empty() || old.ends_with("\n\n") {
        ""
    } else if old.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    let index = LineIndex::new(&old);
    let range = view
        .encoding
        .range(&old, &index, Span::new(old.len(), old.len()));
    let edit = TextEdit::new(range, format!("{separator}{entry}"));
    Ok((name, workspace_edit(view, vec![(uri, edit)])))
}

/// Whether a BibTeX text already has an entry with this key (written since the
/// last check): `@type{key,` — a scan, not a parse of a bibliography that may hold
/// thousands of entries.
fn defines(bib: &str, key: &str) -> bool {
    let pattern = format!(r"@\w+\s*[{{(]\s*{}\s*,", regex::escape(key));
    regex::Regex::new(&pattern).is_ok_and(|entry| entry.is_match(bib))
}

/// One "Add `key` from Zotero" action per citation in `range` that no entry
/// defines and the Zotero library has.
pub fn actions(view: &View, uri: &Uri, range: Range, asked: &[LspDiagnostic]) -> Vec<CodeAction> {
    let (Some(zotero), Some(read)) = (view.zotero.as_ref(), view.read(uri)) else {
        return Vec::new();
    };
    let (start, end) = (view.offset(read, range.start), view.offset(read, range.end));
    let mut keys: Vec<(&str, Span)> = Vec::new();
    for doc in read.documents() {
        for c in &doc.citations {
            let touches = c.span.start <= end && start <= c.span.end;
            if c.file == read.file
                && touches
                && c.kind == CitationKind::Key
                && c.reference.is_none()
                && zotero.library.get(&c.key).is_some()
                && !keys.iter().any(|(k, _)| *k == c.key)
            {
                keys.push((&c.key, c.span));
            }
        }
    }
    keys.into_iter()
        .filter_map(|(key, span)| {
            let (name, edit) = add_entry(view, read, key).ok()?;
            let at = view.range(read.source(), span);
            let diagnostics: Vec<LspDiagnostic> = asked
                .iter()
                .filter(|d| d.range.start.line <= at.end.line && at.start.line <= d.range.end.line)
                .cloned()
                .collect();
            Some(CodeAction {
                title: format!("Add `{key}` from Zotero to {name}"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
                edit: Some(edit),
                is_preferred: Some(true),
                ..CodeAction::default()
            })
        })
        .collect()
}

/// The command a Zotero completion item runs once inserted: add its entry to the
/// document's `.bib` (`None` when the document has none).
pub fn add_command(read: Read, uri: &Uri, key: &str) -> Option<Command> {
    let path = target_bib(read)?;
    let args = AddArgs {
        uri: uri.clone(),
        key: key.to_string(),
    };
    Some(Command {
        title: format!("Add `{key}` from Zotero to {}", file_name(&path)),
        command: ADD_COMMAND.to_string(),
        arguments: Some(vec![serde_json::to_value(args).ok()?]),
    })
}

#[cfg(test)]
mod tests {
    use super::defines;

    #[test]
    fn an_entry_is_found_by_its_key_only() {
        let bib = "@article{smith2020,\n  title = {T},\n}\n@Book ( nash.1950 , title = {x})\n";
        assert!(defines(bib, "smith2020"));
        assert!(defines(bib, "nash.1950"));
        assert!(!defines(bib, "smith"));
        assert!(!defines(bib, "nash"));
        assert!(!defines("title = {smith2020,}", "smith2020"));
    }
}
