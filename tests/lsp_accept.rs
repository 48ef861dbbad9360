//! The language server's "accept as a real work" quick fix: offered on a not-found
//! finding, it creates `.citeproof/accepted.toml` with the reference's record; once
//! the file is on disk the finding is gone.

mod lsp_support;

use std::path::Path;

use citeproof::lsp::Ending;
use lsp_support::{Client, codes, uri};
use serde_json::{Value, json};

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/demo");

/// A client that applies edits with `documentChanges` and can create files.
fn caps() -> Value {
    json!({"workspace": {"workspaceEdit": {"documentChanges": true, "resourceOperations": ["create"]}}})
}

fn has_not_found(p: &Value, key: &str) -> bool {
    p["diagnostics"].as_array().is_some_and(|list| {
        list.iter().any(|d| {
            d["code"] == "CP201" && d["message"].as_str().unwrap_or_default().contains(key)
        })
    })
}

#[test]
fn accepting_a_not_found_reference_removes_its_finding() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["paper.md", "refs.bib", "corpus.jsonl"] {
        std::fs::copy(Path::new(DEMO).join(name), dir.path().join(name)).unwrap();
    }
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::write(
        dir.path().join("citeproof.toml"),
        "[resolve]\noffline = true\ncorpora = [\"corpus.jsonl\"]\ncorpus-complete = true\n",
    )
    .unwrap();
    let paper = dir.path().join("paper.md");
    let bib = uri(&dir.path().join("refs.bib"));
    let mut client = Client::start_in(dir.path(), caps(), json!({"citeproof": {}}));
    client.open(
        &uri(&paper),
        "markdown",
        1,
        &std::fs::read_to_string(&paper).unwrap(),
    );
    let found = client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == bib && has_not_found(p, "lee2023")
    });
    let finding = found["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "CP201")
        .unwrap()
        .clone();
    let response = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": bib}, "range": finding["range"],
               "context": {"diagnostics": [finding]}}),
    );
    let actions = response.response_result.unwrap();
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .unwrap_or_default()
                .starts_with("Accept `lee2023` as a real work")
        })
        .unwrap_or_else(|| panic!("no accept action in {actions:#}"))
        .clone();
    let changes = action["edit"]["documentChanges"].as_array().unwrap();
    assert_eq!(changes[0]["kind"], "create", "{action:#}");
    let target = changes[0]["uri"].as_str().unwrap();
    assert!(target.ends_with("/.citeproof/accepted.toml"), "{target}");
    let text = changes[1]["edits"][0]["newText"].as_str().unwrap();
    assert!(
        text.contains("authors = [\"Lee\", \"Novak\", \"Okafor\"]"),
        "{text}"
    );
    // What the editor does with the edit, and the file watcher's notice.
    std::fs::create_dir_all(dir.path().join(".citeproof")).unwrap();
    std::fs::write(dir.path().join(".citeproof/accepted.toml"), text).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": target, "type": 1}]}),
    );
    let after = client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == bib && !has_not_found(p, "lee2023")
    });
    // The other findings of the bibliography stay.
    assert!(codes(&after).contains(&"CP202".to_string()), "{after:#}");
    assert_eq!(client.shutdown(), Ending::Clean);
}
