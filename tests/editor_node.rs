//! End to end with the libraries VS Code's own language client is built on: a Node
//! client (tests/editor_node/client.js, on vscode-jsonrpc and
//! vscode-languageserver-protocol from npm, pinned by package-lock.json) starts
//! `citeproof lsp`, opens fixtures/editors, receives the diagnostics, asks for code
//! actions, applies the CP108 quick fix and sends the change; this test asserts what
//! it saw. Skips with a message when Node or the client's npm packages are absent
//! (`.ci/run` runs `npm ci` in tests/editor_node). CITEPROOF_NODE names another Node.
//!
//! The server is the one the VS Code extension itself would start: with
//! CITEPROOF_VSCODE_EXTENSION naming an unpacked platform-specific .vsix (`.ci/run`
//! packs one with the binary under test inside), the extension's compiled code picks
//! the bundled `server/citeproof` (tests/editor_node/bundled-server.js); without it the
//! binary under test is started directly (CITEPROOF_E2E_REQUIRED=1 forbids that).

mod editor_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use editor_support::{
    EVENT_DEADLINE_MS, SESSION_DEADLINE, assert_session, fixture_copy, isolate, program, repo_path,
    run_with_deadline, skip,
};
use serde_json::{Value, json};

/// The server the extension starts with its default settings (see the module docs).
fn server_under_test(node: &Path, client_dir: &Path) -> PathBuf {
    let binary_under_test = PathBuf::from(env!("CARGO_BIN_EXE_citeproof"));
    let Some(extension) = std::env::var_os("CITEPROOF_VSCODE_EXTENSION") else {
        if std::env::var("CITEPROOF_E2E_REQUIRED").is_ok_and(|v| v == "1") {
            panic!("CITEPROOF_VSCODE_EXTENSION is unset: the bundled server is not tested");
        }
        eprintln!("CITEPROOF_VSCODE_EXTENSION unset: starting the binary under test directly");
        return binary_under_test;
    };
    let extension = PathBuf::from(extension);
    let out = Command::new(node)
        .arg(client_dir.join("bundled-server.js"))
        .arg(&extension)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let chosen: Value = serde_json::from_slice(&out.stdout).unwrap();
    let command = PathBuf::from(chosen["command"].as_str().unwrap());
    assert_eq!(command, extension.join("server/citeproof"), "{chosen}");
    assert_eq!(chosen["args"], json!(["lsp"]), "{chosen}");
    // The package carries this build, not a stale one.
    assert!(
        std::fs::read(&command).unwrap() == std::fs::read(&binary_under_test).unwrap(),
        "{} is not the binary under test",
        command.display()
    );
    command
}

#[test]
fn vscode_protocol_client_gets_diagnostics_and_applies_a_quick_fix() {
    let test = "vscode_protocol_client_gets_diagnostics_and_applies_a_quick_fix";
    let Some(node) = program("CITEPROOF_NODE", "node") else {
        skip(test, "no node on PATH and CITEPROOF_NODE unset");
        return;
    };
    let client_dir = repo_path("tests/editor_node");
    if !client_dir
        .join("node_modules/vscode-languageserver-protocol")
        .is_dir()
    {
        skip(
            test,
            "the client's npm packages are not installed (run `npm ci` in tests/editor_node)",
        );
        return;
    }
    let server = server_under_test(&node, &client_dir);
    let scratch = tempfile::tempdir().unwrap();
    let fixtures = fixture_copy();
    let mut command = Command::new(node);
    command
        .arg(client_dir.join("client.js"))
        .arg(&server)
        .arg(fixtures.path())
        .arg(EVENT_DEADLINE_MS.to_string())
        .current_dir(&client_dir);
    isolate(&mut command, scratch.path());
    let finished = run_with_deadline(command, scratch.path(), SESSION_DEADLINE);
    let result: Value = serde_json::from_str(&finished.stdout).unwrap_or_else(|e| {
        panic!(
            "the client printed no result ({e}); exit {:?}\nstdout:\n{}\nstderr:\n{}",
            finished.status, finished.stdout, finished.stderr
        )
    });
    let context = format!("{result:#}\nstderr:\n{}", finished.stderr);
    assert!(finished.status.success(), "{context}");
    assert_eq!(result["positionEncoding"], "utf-16", "{context}");
    let cp101 = &result["paper"][0];
    assert_eq!(cp101["source"], "citeproof", "{context}");
    assert!(
        cp101["codeDescription"]
            .as_str()
            .is_some_and(|href| href.ends_with("#cp101-undefined-citation")),
        "{context}"
    );
    assert_eq!(
        result["bib_before"][0]["hasData"], true,
        "the fix in data: {context}"
    );
    // Published again when refs.bib was opened, with its version (they were first
    // sent from the paper's check, before it was open).
    assert_eq!(result["versions"]["bib_before"], 1, "{context}");
    // The protocol's severities: 1 error, 2 warning.
    assert_session(&result, json!(1), json!(2), &context);
    assert!(!result["codeActionProvider"].is_null(), "{context}");
    assert!(
        result["action_kinds"]
            .as_array()
            .unwrap()
            .contains(&json!("quickfix"))
    );
    // After the change (version 2) the server checked the new text.
    assert_eq!(result["versions"]["bib_after"], 2, "{context}");
    assert_eq!(
        result["server_exit_code"], 0,
        "shutdown then exit: {context}"
    );
}
