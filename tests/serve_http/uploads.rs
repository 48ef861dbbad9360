//! `POST /v1/check` with documents that are not text: a Word file and a `.zip`
//! bundle uploaded as a multipart form (what the page's file input sends) or
//! posted in base64, answered with the same findings as `citeproof check` gives
//! the file; bad uploads answered with a JSON error that says what was wrong, and
//! uploads beyond `[serve] max-upload-size` with 413.

use std::io::Write;
use std::path::Path;

use base64::Engine;
use serde_json::{Value, json};

use crate::serve_support::{Server, isolated, local_env};

const BOUNDARY: &str = "citeproof-test-boundary";

fn demo(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/inputs/demo")
            .join(name),
    )
    .unwrap()
}

/// A multipart body: (field, file name, bytes) parts.
fn form(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
    let mut body = Vec::new();
    for (field, file, bytes) in parts {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\""
        )
        .unwrap();
        if let Some(file) = file {
            write!(
                body,
                "; filename=\"{file}\"\r\nContent-Type: application/octet-stream"
            )
            .unwrap();
        }
        body.extend_from_slice(b"\r\n\r\n");
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{BOUNDARY}--\r\n").unwrap();
    body
}

fn upload(server: &Server, parts: &[(&str, Option<&str>, &[u8])]) -> crate::serve_support::Reply {
    server.post_bytes(
        "/v1/check",
        form(parts),
        &format!("multipart/form-data; boundary={BOUNDARY}"),
    )
}

fn codes(reply: &crate::serve_support::Reply) -> Vec<String> {
    reply
        .json()
        .as_array()
        .unwrap_or_else(|| panic!("{}", reply.body))
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// A Word file whose list holds an entry the text never cites.
fn orphan_docx() -> Vec<u8> {
    let body = "<w:p><w:r><w:t>Attention changed translation [1].</w:t></w:r></w:p>\
                <w:p><w:r><w:t>References</w:t></w:r></w:p>\
                <w:p><w:r><w:t>[1] A. Vaswani et al. Attention is all you need. In NeurIPS, 2017.</w:t></w:r></w:p>\
                <w:p><w:r><w:t>[2] K. He et al. Deep residual learning. In CVPR, 2016.</w:t></w:r></w:p>";
    let document = format!(
        r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    writer
        .start_file(
            "word/document.xml",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
    writer.write_all(document.as_bytes()).unwrap();
    writer.finish().unwrap().into_inner()
}

#[test]
fn uploads_are_checked_as_the_command_line_checks_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &local_env(), &[]);
    let docx = orphan_docx();
    // The command line on the same file.
    std::fs::write(dir.path().join("paper.docx"), &docx).unwrap();
    let cli = isolated(dir.path())
        .envs(local_env())
        .args(["check", "--format", "json", "paper.docx"])
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let uploaded = upload(&server, &[("file", Some("paper.docx"), &docx)]);
    assert_eq!(uploaded.status, 200, "{}", uploaded.body);
    assert_eq!(uploaded.json(), cli);
    assert_eq!(codes(&uploaded), ["CP106"]);
    assert_eq!(uploaded.json()[0]["location"]["paragraph"], 4);
    // The same in base64, in a JSON body; a name is not needed (the bytes tell).
    let encoded = base64::engine::general_purpose::STANDARD.encode(&docx);
    let posted = server.post("/v1/check", &json!({"file": encoded}));
    assert_eq!(posted.status, 200, "{}", posted.body);
    assert_eq!(codes(&posted), ["CP106"]);
    assert_eq!(posted.json()[0]["file"], "document.docx");
    // The page's form asks for HTML.
    let html = upload(
        &server,
        &[
            ("file", Some("paper.docx"), &docx),
            ("format", None, b"html"),
        ],
    );
    assert!(
        html.body.contains("paper.docx: paragraph 4"),
        "{}",
        html.body
    );
    assert_eq!(html.header("x-citeproof-failing"), Some("false"));
}

#[test]
fn a_bundle_is_opened_and_a_bad_upload_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        &local_env(),
        &["--max-body-size", "16K", "--max-upload-size", "64K"],
    );
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in [
        ("paper.tex", demo("paper.tex")),
        ("paper.bbl", demo("paper.bbl")),
    ] {
        writer
            .start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(&bytes).unwrap();
    }
    // A figure that does not compress: the bundle is over `max-body-size` (16K),
    // within `max-upload-size` (64K), which is what the check route keeps.
    let mut noise = 0x2545_f491_u32;
    let figure: Vec<u8> = (0..30 << 10)
        .map(|_| {
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            noise as u8
        })
        .collect();
    writer
        .start_file("figure.png", zip::write::SimpleFileOptions::default())
        .unwrap();
    writer.write_all(&figure).unwrap();
    let bundle = writer.finish().unwrap().into_inner();
    assert!(bundle.len() > 16 << 10, "{}", bundle.len());
    let reply = upload(&server, &[("file", Some("submission.zip"), &bundle)]);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        codes(&reply),
        Vec::<String>::new(),
        "every key is in the .bbl"
    );
    // A traversal path in the bundle: the bundle is reported, not read.
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    writer
        .start_file(
            "../../etc/passwd.tex",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
    writer.write_all(b"\\documentclass{article}").unwrap();
    let evil = writer.finish().unwrap().into_inner();
    let reply = upload(&server, &[("file", Some("evil.zip"), &evil)]);
    assert_eq!(codes(&reply), ["CP001"]);
    assert!(reply.body.contains("path traversal"), "{}", reply.body);
    // Errors of the request itself.
    let cases: Vec<(crate::serve_support::Reply, u16, &str)> = vec![
        (
            upload(&server, &[("format", None, b"json")]),
            422,
            "no `file` part",
        ),
        (
            upload(
                &server,
                &[("file", Some("a.md"), b"x"), ("color", None, b"red")],
            ),
            422,
            "unknown form field `color`",
        ),
        (
            server.post("/v1/check", &json!({"file": "***"})),
            422,
            "not base64",
        ),
        (
            server.post("/v1/check", &json!({"text": "x", "file": "eA=="})),
            422,
            "not both",
        ),
        (server.post("/v1/check", &json!({})), 422, "no document"),
        (
            upload(
                &server,
                &[("file", Some("big.pdf"), &vec![b'%'; 100 << 10])],
            ),
            413,
            "max-upload-size",
        ),
    ];
    for (reply, status, says) in cases {
        assert_eq!(reply.status, status, "{says}: {}", reply.body);
        assert!(
            reply.json()["error"].as_str().unwrap().contains(says),
            "{}",
            reply.body
        );
    }
}

#[test]
fn the_openapi_document_describes_both_bodies() {
    let doc: Value = serde_json::from_str(citeproof::serve::OPENAPI).unwrap();
    let content = &doc["paths"]["/v1/check"]["post"]["requestBody"]["content"];
    assert!(content["application/json"].is_object());
    assert_eq!(
        content["multipart/form-data"]["schema"]["$ref"],
        "#/components/schemas/CheckUpload"
    );
    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(boon::Draft::V2020_12);
    compiler.add_resource("urn:openapi", doc.clone()).unwrap();
    let mut schemas = boon::Schemas::new();
    let request = compiler
        .compile("urn:openapi#/components/schemas/CheckRequest", &mut schemas)
        .unwrap();
    for (body, valid) in [
        (json!({"text": "# x"}), true),
        (
            json!({"file": "eA==", "name": "paper.pdf", "kind": "pdf"}),
            true,
        ),
        (
            json!({"file": "eA==", "kind": "docx", "format": "html"}),
            true,
        ),
        (json!({}), false),
        (json!({"text": "x", "file": "eA=="}), false),
        (json!({"file": "eA==", "kind": "ppt"}), false),
    ] {
        assert_eq!(schemas.validate(&body, request).is_ok(), valid, "{body}");
    }
    // The form's fields are the ones the route reads (in map order).
    let fields: Vec<&str> = doc["components"]["schemas"]["CheckUpload"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(fields, ["file", "files", "format", "kind", "name"]);
}
