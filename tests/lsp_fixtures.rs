//! For every fixture document, what the language server publishes (over every file
//! the check reads) equals what `citeproof check --format json` reports for the same
//! text and settings: code, severity, message and range, file by file. Local rules
//! on every fixture; resolution too on the demo manuscript (its bundled corpus,
//! offline), after the background run.

mod bin_support;
mod lsp_support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use citeproof::lsp::Ending;
use citeproof::source::LineIndex;
use lsp_support::{Client, uri};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every file a user could open: documents and bibliographies, except the large
/// JSON data that is no bibliography (the SARIF schema).
fn fixture_documents() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![root()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            let small = std::fs::metadata(&path).unwrap().len() < 100_000;
            if ["md", "tex", "bib", "json", "txt"].contains(&ext) && small {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// One diagnostic as both sides can say it: file, code, severity (LSP number),
/// message with the rule name, range in UTF-16.
type Finding = (String, String, u64, String, (u32, u32, u32, u32));

fn severity(name: &str) -> u64 {
    match name {
        "error" => 1,
        "warning" => 2,
        "info" => 3,
        _ => 4,
    }
}

/// What `citeproof check` reports for `inputs`, with `args` before them; locally
/// only unless `resolve`.
fn cli_findings(inputs: &[PathBuf], args: &[&str], resolve: bool) -> BTreeSet<Finding> {
    let mut command = bin_support::citeproof();
    if resolve {
        command.env_remove("CITEPROOF_NO_RESOLVE");
    }
    let out = command
        .args(["check", "--format", "json", "--exit-zero"])
        .args(args)
        .args(inputs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{inputs:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    found
        .iter()
        .map(|d| {
            let file = PathBuf::from(d["file"].as_str().unwrap());
            let file = if file.is_absolute() {
                file
            } else {
                std::env::current_dir().unwrap().join(file)
            };
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let index = LineIndex::new(&text);
            let start = index.utf16_pos(&text, d["span"][0].as_u64().unwrap() as usize);
            let end = index.utf16_pos(&text, d["span"][1].as_u64().unwrap() as usize);
            (
                citeproof::fs::normalize(&file).display().to_string(),
                d["code"].as_str().unwrap().to_string(),
                severity(d["severity"].as_str().unwrap()),
                format!(
                    "{} ({})",
                    d["message"].as_str().unwrap(),
                    d["name"].as_str().unwrap()
                ),
                (start.line, start.character, end.line, end.character),
            )
        })
        .collect()
}

/// Everything the server published, by file, in the latest publication per file.
fn server_findings(client: &mut Client) -> BTreeSet<Finding> {
    client.roundtrip();
    let mut out = BTreeSet::new();
    for (uri, params) in client.latest_diagnostics() {
        let path = url::Url::parse(&uri).unwrap().to_file_path().unwrap();
        for d in params["diagnostics"].as_array().unwrap() {
            let r = &d["range"];
            let n = |v: &Value| v.as_u64().unwrap() as u32;
            out.insert((
                path.display().to_string(),
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
                (
                    n(&r["start"]["line"]),
                    n(&r["start"]["character"]),
                    n(&r["end"]["line"]),
                    n(&r["end"]["character"]),
                ),
            ));
        }
    }
    out
}

fn language(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("md") => "markdown",
        Some("tex") => "latex",
        Some("bib") => "bibtex",
        Some("json") => "json",
        _ => "plaintext",
    }
}

/// What the server checks a file within, as documented: a Manubot section with
/// the other sections of its folder; anything else on its own (no workspace
/// folder is given, and no fixture has a `% !TEX root` comment).
fn cli_inputs(path: &Path) -> Vec<PathBuf> {
    let is_section = |p: &Path| {
        let name = p.file_name().unwrap().to_str().unwrap();
        p.extension().is_some_and(|e| e == "md")
            && name.chars().next().is_some_and(|c| c.is_ascii_digit())
            && name
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .starts_with('.')
    };
    let dir = path.parent().unwrap();
    let sections = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| is_section(&e.as_ref().unwrap().path()))
        .count();
    if is_section(path) && sections > 1 {
        vec![dir.to_path_buf()]
    } else {
        vec![path.to_path_buf()]
    }
}

#[test]
fn the_server_reports_what_check_reports_on_every_fixture() {
    let documents = fixture_documents();
    assert!(documents.len() > 40, "{}", documents.len());
    let mut compared = 0;
    for path in documents {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("!TEX root"),
            "{}: a magic comment; the expectation would need its main file",
            path.display()
        );
        let expected = cli_findings(&cli_inputs(&path), &["--no-resolve"], false);
        let mut client = Client::start(json!({}), lsp_support::local());
        client.open(&uri(&path), language(&path), 1, &text);
        client.await_notification("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri(&path)
        });
        let got = server_findings(&mut client);
        assert_eq!(client.shutdown(), Ending::Clean);
        assert_eq!(got, expected, "{}", path.display());
        compared += expected.len();
    }
    assert!(compared > 50, "only {compared} findings compared");
}

#[test]
fn with_resolution_too_on_the_demo_manuscript() {
    let demo = root().join("demo");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("citeproof.toml");
    std::fs::write(
        &config,
        format!(
            "[resolve]\noffline = true\ncorpora = [\"{}\"]\ncorpus-complete = true\n",
            demo.join("corpus.jsonl").display()
        ),
    )
    .unwrap();
    let paper = demo.join("paper.md");
    let expected = cli_findings(
        std::slice::from_ref(&paper),
        &["--config", config.to_str().unwrap()],
        true,
    );
    let codes: BTreeSet<&str> = expected.iter().map(|f| f.1.as_str()).collect();
    for code in [
        "CP201", "CP202", "CP205", "CP207", "CP208", "CP209", "CP212",
    ] {
        assert!(codes.contains(code), "the demo's {code}: {expected:?}");
    }
    let mut options = lsp_support::local();
    options["citeproof"] = json!({"configFile": config});
    let mut client = Client::start(json!({"window": {"workDoneProgress": true}}), options);
    let text = std::fs::read_to_string(&paper).unwrap();
    client.open(&uri(&paper), "markdown", 1, &text);
    client.notification("$/progress", |p| p["value"]["kind"] == "end");
    // The background run's findings are published after it ends.
    let bib = uri(&demo.join("refs.bib"));
    client.await_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == bib && lsp_support::codes(p).contains(&"CP209".to_string())
    });
    let got = server_findings(&mut client);
    assert_eq!(client.shutdown(), Ending::Clean);
    assert_eq!(got, expected);
}
