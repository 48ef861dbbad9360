//! The language server's protocol: handshake, document sync, local diagnostics with
//! versions, cancellation, unknown methods, shutdown and exit — in-process over
//! `Connection::memory()`, and over stdio through the real binary.

mod lsp_support;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

use citeproof::lsp::Ending;
use lsp_server::{Notification, Request, RequestId};
use lsp_support::{Client, codes, uri};
use serde_json::{Value, json};

#[test]
fn local_diagnostics_follow_edits_with_versions() {
    let dir = tempfile::tempdir().unwrap();
    let paper = dir.path().join("paper.md");
    let text = "---\nbibliography: refs.bib\n---\nAs shown [@smith2020].\n";
    std::fs::write(&paper, text).unwrap();
    std::fs::write(
        dir.path().join("refs.bib"),
        "@article{smith2020, title={Deep nets}, author={Smith, J.}, year={2020}}\n",
    )
    .unwrap();
    let mut client = Client::start(json!({}), json!({"citeproof": {"resolve": "off"}}));
    assert_eq!(
        client.initialize_result["capabilities"]["positionEncoding"],
        "utf-16"
    );
    let uri = uri(&paper);
    client.open(&uri, "markdown", 1, text);
    let first = client.diagnostics(&uri);
    assert_eq!(first["version"], 1);
    assert!(codes(&first).is_empty(), "{first}");
    // Change the key: an undefined citation on line 3 (0-based).
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 3, "character": 11}, "end": {"line": 3, "character": 20}},
             "text": "jones1999"}]}),
    );
    let second = client.diagnostics(&uri);
    assert_eq!(second["version"], 2);
    assert_eq!(codes(&second), vec!["CP101"]);
    let d = &second["diagnostics"][0];
    assert_eq!(d["range"]["start"], json!({"line": 3, "character": 11}));
    assert_eq!(d["source"], "citeproof");
    assert!(
        d["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("#cp101-undefined-citation")
    );
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn an_unsaved_bibliography_buffer_changes_the_documents_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let paper = dir.path().join("paper.md");
    let bib = dir.path().join("refs.bib");
    let text = "---\nbibliography: refs.bib\n---\nAs shown [@smith2020].\n";
    std::fs::write(&paper, text).unwrap();
    std::fs::write(
        &bib,
        "@article{other, title={X}, author={A, B}, year={2020}}\n",
    )
    .unwrap();
    let mut client = Client::start(json!({}), json!({"citeproof": {"resolve": "off"}}));
    let paper_uri = uri(&paper);
    client.open(&paper_uri, "markdown", 1, text);
    let before = client.diagnostics(&paper_uri);
    assert_eq!(codes(&before), vec!["CP101"]);
    client.open(
        &uri(&bib),
        "bibtex",
        1,
        "@article{smith2020, title={Deep nets}, author={Smith, J.}, year={2020}}\n",
    );
    let after = client.diagnostics(&paper_uri);
    assert!(codes(&after).is_empty(), "{after}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn utf8_is_chosen_when_offered() {
    let client = Client::start(
        json!({"general": {"positionEncodings": ["utf-32", "utf-8", "utf-16"]}}),
        Value::Null,
    );
    assert_eq!(
        client.initialize_result["capabilities"]["positionEncoding"],
        "utf-8"
    );
    assert_eq!(client.exit(), Ending::Abrupt);
}

#[test]
fn cancelled_and_unknown_requests_get_exactly_one_error() {
    let mut client = Client::start_with(json!({}), Value::Null, |queue| {
        // Both already waiting when the server starts reading: one batch.
        queue
            .sender
            .send(
                Request::new(
                    RequestId::from(100),
                    "textDocument/unknownThing".into(),
                    json!({}),
                )
                .into(),
            )
            .unwrap();
        queue
            .sender
            .send(Notification::new("$/cancelRequest".into(), json!({"id": 100})).into())
            .unwrap();
    });
    let cancelled = client.response(RequestId::from(100));
    assert_eq!(cancelled.response_result.unwrap_err().code, -32800);
    let unknown = client.request("citeproof/noSuchMethod", json!({}));
    assert_eq!(unknown.response_result.unwrap_err().code, -32601);
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_panicking_handler_is_answered_logged_and_survived() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_citeproof"))
        .arg("lsp")
        // Exact message order: no Zotero probe, whose log comes when it comes.
        .env("CITEPROOF_ZOTERO", "0")
        .env("CITEPROOF_NO_RESOLVE", "1")
        .env("CITEPROOF_OFFLINE", "1")
        .env(citeproof::lsp::DEBUG_PANIC_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |value: Value| stdin.write_all(&frame(&value)).unwrap();
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    assert_eq!(read_message(&mut stdout)["id"], 1);
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "citeproof/debug/panic"}));
    let log = read_message(&mut stdout);
    assert_eq!(log["method"], "window/logMessage", "{log}");
    assert!(
        log["params"]["message"]
            .as_str()
            .unwrap()
            .contains("internal error handling citeproof/debug/panic")
    );
    let answer = read_message(&mut stdout);
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    // The session goes on: the next request is answered, and it ends cleanly.
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    assert_eq!(read_message(&mut stdout)["id"], 3);
    send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert!(child.wait().unwrap().success());
}

#[test]
fn the_panicking_method_does_not_exist_without_its_variable() {
    let mut client = Client::start(json!({}), lsp_support::local());
    let answer = client.request("citeproof/debug/panic", Value::Null);
    assert_eq!(answer.response_result.unwrap_err().code, -32601);
    assert_eq!(client.shutdown(), Ending::Clean);
}

fn frame(value: &Value) -> Vec<u8> {
    let body = value.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn read_message(reader: &mut impl BufRead) -> Value {
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn the_binary_answers_malformed_messages_and_exits_cleanly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_citeproof"))
        .arg("lsp")
        // Exact message order: no Zotero probe, whose log comes when it comes.
        .env("CITEPROOF_ZOTERO", "0")
        .env("CITEPROOF_NO_RESOLVE", "1")
        .env("CITEPROOF_OFFLINE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
        ))
        .unwrap();
    let init = read_message(&mut stdout);
    assert_eq!(init["id"], 1);
    stdin
        .write_all(b"Content-Length: 9\r\n\r\n{not json")
        .unwrap();
    let error = read_message(&mut stdout);
    assert_eq!(error["error"]["code"], -32700);
    assert!(error["id"].is_null());
    // Not UTF-8, a batch array, an object that is no message: each answered.
    stdin
        .write_all(b"Content-Length: 4\r\n\r\n\"\xff\xfe\"")
        .unwrap();
    assert_eq!(read_message(&mut stdout)["error"]["code"], -32700);
    for body in [json!([]), json!({"jsonrpc": "2.0", "id": 7})] {
        stdin.write_all(&frame(&body)).unwrap();
        assert_eq!(read_message(&mut stdout)["error"]["code"], -32600);
    }
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
        ))
        .unwrap();
    let shutdown = read_message(&mut stdout);
    assert_eq!(shutdown["id"], 2);
    assert!(shutdown["result"].is_null());
    stdin
        .write_all(&frame(&json!({"jsonrpc": "2.0", "method": "exit"})))
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    // Nothing else was written.
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
}
