//! For the tests of the language server's editor features: a copy of
//! `fixtures/lsp` to edit, the client capabilities of a full editor, and a client's
//! application of a `WorkspaceEdit` (UTF-16 positions, `changes` or
//! `documentChanges` with file creation), independent of any real editor.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// `fixtures/lsp` copied into a fresh temporary folder (its README left out).
pub fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lsp");
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap() != "README.md" {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

pub fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// What a full-featured editor (VS Code) announces: versioned document changes
/// with file creation, code action literals with resolution of edits, hierarchical
/// symbols.
pub fn full_capabilities() -> Value {
    json!({
        "workspace": {"workspaceEdit": {"documentChanges": true, "resourceOperations": ["create"]}},
        "textDocument": {
            "codeAction": {
                "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source.fixAll"]}},
                "isPreferredSupport": true,
                "dataSupport": true,
                "disabledSupport": true,
                "resolveSupport": {"properties": ["edit"]}
            },
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": true},
            "completion": {"completionItem": {"snippetSupport": false}}
        }
    })
}

/// The initialize options every feature test uses: local checks only.
pub fn local_only() -> Value {
    json!({"citeproof": {"resolve": "off"}})
}

/// The byte offset of an LSP position (UTF-16 code units) in `text`.
pub fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().unwrap() as usize;
    let character = position["character"].as_u64().unwrap() as usize;
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
}

/// The UTF-16 position of a byte offset.
pub fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}

/// The position of the first `needle` in `text`, `shift` bytes into it.
pub fn at(text: &str, needle: &str, shift: usize) -> Value {
    let found = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` in the text"));
    position(text, found + shift)
}

/// `text` with text edits applied (as a client does: all ranges refer to the text
/// before any of them).
pub fn apply(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(text, &e["range"]["start"]),
                offset(text, &e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| (s.0, s.1));
    for pair in spans.windows(2) {
        assert!(pair[0].1 <= pair[1].0, "overlapping edits: {edits:?}");
    }
    let mut out = text.to_string();
    for (start, end, new) in spans.into_iter().rev() {
        out.replace_range(start..end, &new);
    }
    out
}

/// The path of a `file://` URI.
pub fn path_of(uri: &str) -> PathBuf {
    url::Url::parse(uri).unwrap().to_file_path().unwrap()
}

/// Apply a workspace edit to the files on disk; returns the files it changed or
/// created, with their new text.
pub fn apply_to_disk(edit: &Value) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut edit_file = |uri: &str, edits: &[Value]| {
        let path = path_of(uri);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let new = apply(&old, edits);
        std::fs::write(&path, &new).unwrap();
        out.insert(path, new);
    };
    if let Some(changes) = edit["changes"].as_object() {
        for (uri, edits) in changes {
            edit_file(uri, edits.as_array().unwrap());
        }
    }
    for change in edit["documentChanges"].as_array().into_iter().flatten() {
        match change["kind"].as_str() {
            Some("create") => {
                let path = path_of(change["uri"].as_str().unwrap());
                assert!(!path.exists() || change["options"]["ignoreIfExists"] == true);
                if !path.exists() {
                    std::fs::write(&path, "").unwrap();
                }
            }
            Some(other) => panic!("unexpected resource operation {other}"),
            None => edit_file(
                change["textDocument"]["uri"].as_str().unwrap(),
                change["edits"].as_array().unwrap(),
            ),
        }
    }
    out
}

/// The codes of a `publishDiagnostics`, with the first line of each.
pub fn codes_at_lines(params: &Value) -> Vec<(String, u64)> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}
