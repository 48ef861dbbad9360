//! "Accept as a real work": the quick fix on a not-found, not-indexed or unverified
//! finding that records the reference in the project's `.citeproof/accepted.toml`
//! (see [`crate::accept`]) — the edit `citeproof accept KEY` makes, as a workspace
//! edit the editor applies (creating the file where it can). Once the file is
//! saved, the finding is gone in every document of the project.

use lsp_types::{
    CodeAction, CodeActionDisabled, CodeActionKind, Diagnostic as LspDiagnostic, NumberOrString,
    TextEdit, Uri, WorkspaceEdit,
};

use super::diagnostics::DiagnosticData;
use super::edit::{can_create_files, create_file, workspace_edit};
use super::view::View;
use crate::accept::{self, Entry};
use crate::fs::FileSystem;
use crate::model::Span;
use crate::source::LineIndex;

/// Accepted-works files larger than this are not edited.
const MAX_SIZE: u64 = 4 << 20;

/// One action per asked finding that an accepted work would not get.
pub fn actions(view: &View, uri: &Uri, asked: &[LspDiagnostic]) -> Vec<CodeAction> {
    let mut out: Vec<CodeAction> = Vec::new();
    for d in asked {
        let Some(action) = action(view, uri, d) else {
            continue;
        };
        if !out.iter().any(|a| a.title == action.title) {
            out.push(action);
        }
    }
    out
}

fn action(view: &View, uri: &Uri, d: &LspDiagnostic) -> Option<CodeAction> {
    let code = match &d.code {
        Some(NumberOrString::String(c)) => c.as_str(),
        _ => return None,
    };
    if !crate::rules::find(code).is_some_and(accept::is_acceptable) {
        return None;
    }
    let data: DiagnosticData = serde_json::from_value(d.data.clone()?).ok()?;
    let key = data.key?;
    let read = view.read(uri)?;
    let offset = view.offset(read, d.range.start);
    let reference = read
        .project()
        .documents
        .iter()
        .flat_map(|doc| doc.references.iter())
        .find(|r| {
            r.file == read.file && r.key == key && r.span.start <= offset && offset <= r.span.end
        })?;
    let fs = view.documents.buffers().snapshot();
    let path = accept::target_file(&fs, &read.source().path);
    let mut action = CodeAction {
        title: format!(
            "Accept `{key}` as a real work (record it in {})",
            accept::PROJECT_FILE
        ),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        is_preferred: Some(false),
        ..CodeAction::default()
    };
    let edit = Entry::of_reference(&key, &reference.fields)
        .map_err(|why| format!("cannot accept `{key}`: {why}"))
        .and_then(|entry| edit(view, &fs, &path, &entry));
    match edit {
        Ok(edit) => action.edit = Some(edit),
        Err(reason) if view.shows_disabled_actions() => {
            action.disabled = Some(CodeActionDisabled { reason })
        }
        Err(_) => return None,
    }
    Some(action)
}

/// The edit that adds `entry` to the file at `path` (created when missing).
fn edit(
    view: &View,
    fs: &dyn FileSystem,
    path: &std::path::Path,
    entry: &Entry,
) -> Result<WorkspaceEdit, String> {
    let uri = view
        .uri_of(path)
        .ok_or_else(|| format!("`{}` has no file URI", path.display()))?;
    let exists = fs.is_file(path);
    let old = if exists {
        fs.read_text(path, MAX_SIZE)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?
    } else {
        String::new()
    };
    let new = accept::file::append(&old, entry)
        .map_err(|e| format!("cannot add to `{}`: {e}", path.display()))?
        .ok_or_else(|| format!("already accepted in `{}`", path.display()))?;
    if !exists {
        if !can_create_files(view) {
            return Err(format!(
                "the editor cannot create files: run `citeproof accept {}`",
                entry.key.as_deref().unwrap_or_default()
            ));
        }
        return Ok(create_file(view, uri, new));
    }
    // The record is added after what is there; otherwise the whole text is replaced.
    let index = LineIndex::new(&old);
    let (span, text) = match new.strip_prefix(old.as_str()) {
        Some(added) => (Span::new(old.len(), old.len()), added.to_string()),
        None => (Span::new(0, old.len()), new.clone()),
    };
    let range = view.encoding.range(&old, &index, span);
    Ok(workspace_edit(
        view,
        vec![(uri, TextEdit::new(range, text))],
    ))
}
