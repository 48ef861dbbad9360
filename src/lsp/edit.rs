//! Building `WorkspaceEdit`s in the form the client understands: versioned
//! `documentChanges` when it supports them (an edit computed for an older version
//! of an open document is then refused by the client instead of misapplied), plain
//! `changes` otherwise.

use std::collections::HashMap;

use lsp_types::{
    CreateFile, CreateFileOptions, DocumentChangeOperation, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, Range, ResourceOp, ResourceOperationKind,
    TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use super::view::View;

/// Whether the client takes `documentChanges`.
pub fn document_changes(view: &View) -> bool {
    workspace_edit_capability(view)
        .and_then(|w| w.document_changes)
        .unwrap_or(false)
}

/// Whether the client can create files through a workspace edit.
pub fn can_create_files(view: &View) -> bool {
    document_changes(view)
        && workspace_edit_capability(view)
            .and_then(|w| w.resource_operations.as_ref())
            .is_some_and(|ops| ops.contains(&ResourceOperationKind::Create))
}

fn workspace_edit_capability<'v>(
    view: &View<'v>,
) -> Option<&'v lsp_types::WorkspaceEditClientCapabilities> {
    view.client.workspace.as_ref()?.workspace_edit.as_ref()
}

/// The edits of one document, versioned when it is open.
pub fn document_edit(view: &View, uri: Uri, edits: Vec<TextEdit>) -> TextDocumentEdit {
    TextDocumentEdit {
        text_document: OptionalVersionedTextDocumentIdentifier {
            version: view.version_of(&uri),
            uri,
        },
        edits: edits.into_iter().map(OneOf::Left).collect(),
    }
}

/// One edit over several documents; identical edits are kept once.
pub fn workspace_edit(view: &View, edits: Vec<(Uri, TextEdit)>) -> WorkspaceEdit {
    // In the order the documents first appear (a `Uri` is no map key: it caches).
    let mut by_uri: Vec<(Uri, Vec<TextEdit>)> = Vec::new();
    for (uri, edit) in edits {
        let at = match by_uri.iter().position(|(u, _)| *u == uri) {
            Some(at) => at,
            None => {
                by_uri.push((uri, Vec::new()));
                by_uri.len() - 1
            }
        };
        let list = &mut by_uri[at].1;
        if !list.contains(&edit) {
            list.push(edit);
        }
    }
    for (_, list) in &mut by_uri {
        list.sort_by_key(|e| (e.range.start.line, e.range.start.character));
    }
    if document_changes(view) {
        let changes = by_uri
            .into_iter()
            .map(|(uri, edits)| document_edit(view, uri, edits))
            .collect();
        return WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(changes)),
            ..WorkspaceEdit::default()
        };
    }
    WorkspaceEdit {
        changes: Some(by_uri.into_iter().collect::<HashMap<_, _>>()),
        ..WorkspaceEdit::default()
    }
}

/// A new file holding `text` (nothing happens to a file that exists by then); the
/// client must support creating files ([`can_create_files`]).
pub fn create_file(view: &View, uri: Uri, text: String) -> WorkspaceEdit {
    let create = CreateFile {
        uri: uri.clone(),
        options: Some(CreateFileOptions {
            overwrite: Some(false),
            ignore_if_exists: Some(true),
        }),
        annotation_id: None,
    };
    let insert = TextEdit::new(Range::new(Position::new(0, 0), Position::new(0, 0)), text);
    operations(vec![
        DocumentChangeOperation::Op(ResourceOp::Create(create)),
        DocumentChangeOperation::Edit(document_edit(view, uri, vec![insert])),
    ])
}

/// A workspace edit made of resource operations and document edits in order.
pub fn operations(operations: Vec<DocumentChangeOperation>) -> WorkspaceEdit {
    WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(operations)),
        ..WorkspaceEdit::default()
    }
}
