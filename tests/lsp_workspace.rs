//! The language server and the files around a document: bibliographies (missing,
//! CSL-JSON, unsaved), plain-text answers, LaTeX chapters checked within their main
//! file, Manubot sections within their folder, `citeproof.toml` (watched, invalid),
//! settings pulled with `workspace/configuration`, and pull diagnostics.

mod lsp_support;

use std::path::{Path, PathBuf};

use citeproof::lsp::Ending;
use lsp_support::{Client, codes, hover, local, uri};
use serde_json::{Value, json};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

fn lines_with(params: &Value, code: &str) -> Vec<u64> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| d["range"]["start"]["line"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_missing_bibliography_is_reported_on_the_line_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = "---\ntitle: T\nbibliography: nowhere.bib\n---\nAs shown [@smith2020].\n";
    let paper = write(dir.path(), "paper.md", text);
    let mut client = Client::start(json!({}), local());
    client.open(&uri(&paper), "markdown", 1, text);
    let found = client.diagnostics(&uri(&paper));
    assert_eq!(lines_with(&found, "CP001"), [2], "{found}");
    let missing = found["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "CP001")
        .unwrap();
    assert!(
        missing["message"].as_str().unwrap().contains("nowhere.bib"),
        "{missing}"
    );
    // Opening a buffer at that path (never saved) supplies the bibliography.
    let bib = dir.path().join("nowhere.bib");
    client.open(
        &uri(&bib),
        "bibtex",
        1,
        "@article{smith2020, title={T}, author={Smith, J.}, year={2020}}\n",
    );
    let after = client.diagnostics_where(&uri(&paper), |c| !c.contains(&"CP001".to_string()));
    assert!(codes(&after).is_empty(), "{after}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn csl_json_and_plain_text_are_read_by_language_and_extension() {
    let dir = tempfile::tempdir().unwrap();
    // A CSL-JSON bibliography opened alone, by language id `json`.
    let csl = r#"[{"id": "a", "type": "article-journal", "title": "T", "issued": {"date-parts": [[2020]]}},
 {"id": "a", "type": "article-journal", "title": "U", "author": [{"family": "X"}], "issued": {"date-parts": [[2021]]}}]"#;
    let refs = write(dir.path(), "refs.json", csl);
    // A plain-text LLM answer with a marker that has no reference, by extension.
    let answer = "Sleep helps memory [1]. It also helps mood [2].\n\nSources:\n[1] Smith J. Sleep and memory. Nature. 2020. doi:10.1/abc\n";
    let txt = write(dir.path(), "answer.txt", answer);
    let mut client = Client::start(json!({}), local());
    client.open(&uri(&refs), "json", 1, csl);
    client.open(&uri(&txt), "plaintext", 1, answer);
    let csl_found = client.diagnostics_where(&uri(&refs), |c| !c.is_empty());
    assert!(
        codes(&csl_found).contains(&"CP103".to_string()),
        "{csl_found}"
    );
    let text_found = client.diagnostics_where(&uri(&txt), |c| !c.is_empty());
    assert_eq!(codes(&text_found), ["CP105"], "{text_found}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

const MAIN: &str = "\\documentclass{article}\n\\begin{document}\n\\input{chapters/intro}\n\
                    \\bibliography{refs}\n\\end{document}\n";
const INTRO: &str = "Known \\cite{known}, unknown \\cite{unknown}.\n";
const REFS: &str = "@article{known, title={K}, author={A, B}, year={2020}}\n";

#[test]
fn an_included_chapter_opened_alone_is_checked_within_its_main_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "main.tex", MAIN);
    write(&root, "refs.bib", REFS);
    let intro = write(&root, "chapters/intro.tex", INTRO);
    let mut client = Client::start_in(&root, json!({}), local());
    client.open(&uri(&intro), "latex", 1, INTRO);
    let found = client.diagnostics(&uri(&intro));
    // Within main.tex, `known` is defined by its bibliography.
    assert_eq!(codes(&found), ["CP101"], "{found}");
    assert!(
        found["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("unknown")
    );
    // An edit of the chapter is checked within the main file too.
    client.replace(&uri(&intro), 2, "Now \\cite{known} only.\n");
    let edited = client.diagnostics(&uri(&intro));
    assert_eq!(edited["version"], 2);
    assert!(codes(&edited).is_empty(), "{edited}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_magic_comment_names_the_main_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "book/main.tex", MAIN);
    write(&root, "book/refs.bib", REFS);
    let text = format!("% !TEX root = ../main.tex\n{INTRO}");
    let intro = write(&root, "book/chapters/intro.tex", &text);
    // No workspace folder: only the comment can lead to main.tex.
    let mut client = Client::start(json!({}), local());
    client.open(&uri(&intro), "latex", 1, &text);
    let found = client.diagnostics(&uri(&intro));
    assert_eq!(codes(&found), ["CP101"], "{found}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_manubot_section_is_checked_with_the_other_sections() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().canonicalize().unwrap().join("content");
    write(
        &content,
        "01.intro.md",
        "Deep learning [@tag:lecun].\n\n[@tag:lecun]: doi:10.1038/nature14539\n",
    );
    let text = "As before [@tag:lecun], and [@tag:nowhere].\n";
    let section = write(&content, "02.results.md", text);
    let mut client = Client::start(json!({}), local());
    client.open(&uri(&section), "markdown", 1, text);
    let found = client.diagnostics(&uri(&section));
    // The tag defined in 01.intro.md counts; the other is undefined.
    assert_eq!(codes(&found), ["CP101"], "{found}");
    assert!(
        found["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("nowhere")
    );
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_watched_configuration_file_changes_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let text = "Undefined [@nowhere].\n";
    let paper = write(&root, "paper.md", text);
    let caps = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut client = Client::start_in(&root, caps, local());
    let registration = client.server_request("client/registerCapability");
    let watchers =
        registration.params["registrations"][0]["registerOptions"]["watchers"].to_string();
    for glob in [
        "**/citeproof.toml",
        "**/.citeproof.toml",
        "**/*.{bib,bibtex,biblatex}",
    ] {
        assert!(watchers.contains(glob), "{watchers}");
    }
    client.open(&uri(&paper), "markdown", 1, text);
    assert_eq!(codes(&client.diagnostics(&uri(&paper))), ["CP101"]);
    let config = write(
        &root,
        "citeproof.toml",
        "[rules]\nundefined-citation = \"off\"\n",
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 1}]}),
    );
    let after = client.diagnostics(&uri(&paper));
    assert!(codes(&after).is_empty(), "{after}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn an_invalid_configuration_is_a_diagnostic_on_it_or_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let text = "Undefined [@nowhere].\n";
    let paper = write(&root, "paper.md", text);
    let bad = "[rules]\nundefined-citation = \"off\"\ncolour = 3\n";
    let config = write(&root, "citeproof.toml", bad);
    let mut client = Client::start_in(&root, json!({}), local());
    client.open(&uri(&paper), "markdown", 1, text);
    // Not open: a message naming the file.
    let shown = client.notification("window/showMessage", |_| true);
    let message = shown["message"].as_str().unwrap();
    assert!(
        message.contains("citeproof.toml") && message.contains("colour"),
        "{message}"
    );
    // Open: a diagnostic on the key.
    client.open(&uri(&config), "toml", 1, bad);
    let on_file = client.diagnostics_where(&uri(&config), |c| !c.is_empty());
    assert_eq!(codes(&on_file), [citeproof::lsp::INVALID_CONFIGURATION]);
    assert_eq!(
        on_file["diagnostics"][0]["range"]["start"]["line"], 2,
        "{on_file}"
    );
    // Fixed in the buffer: the rule is off for the paper, the file is clean.
    client.replace(&uri(&config), 2, "[rules]\nundefined-citation = \"off\"\n");
    let clean = client.diagnostics_where(&uri(&config), |c| c.is_empty());
    assert_eq!(clean["version"], 2);
    let paper_now = client.diagnostics_where(&uri(&paper), |c| c.is_empty());
    assert!(codes(&paper_now).is_empty());
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn settings_are_pulled_and_pulled_again_on_change() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Undefined [@nowhere].\n";
    let paper = write(dir.path(), "paper.md", text);
    let caps = json!({"workspace": {"configuration": true}});
    // initializationOptions ask for nothing special; the pulled settings turn
    // resolution off (no progress, no source) — checked through `env`.
    let mut client = Client::start(caps, json!({"citeproof": {}}));
    client.configuration["resolve"] = json!("off");
    let pulled = client.server_request("workspace/configuration");
    assert_eq!(pulled.params["items"][0]["section"], "citeproof");
    client.open(&uri(&paper), "markdown", 1, text);
    assert_eq!(codes(&client.diagnostics(&uri(&paper))), ["CP101"]);
    // A change notification without settings: pulled again, and applied.
    client.configuration["env"]["CITEPROOF_NO_RESOLVE"] = json!("1");
    client.configuration["configFile"] = json!(write(
        dir.path(),
        "quiet.toml",
        "[rules]\nundefined-citation = \"hint\"\n"
    ));
    client.server_requests.clear();
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    client.server_request("workspace/configuration");
    let after = client.diagnostics_where(&uri(&paper), |_| true);
    assert_eq!(after["diagnostics"][0]["severity"], 4, "{after}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

fn pull_caps() -> Value {
    json!({"textDocument": {"diagnostic": {"relatedDocumentSupport": true}},
           "workspace": {"diagnostics": {"refreshSupport": true},
                         "didChangeWatchedFiles": {"dynamicRegistration": true}}})
}

#[test]
fn pulled_diagnostics_carry_the_bibliography_and_are_never_also_pushed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let text = "---\nbibliography: refs.bib\n---\nAs shown [@nowhere].\n";
    let paper = write(&root, "paper.md", text);
    let bib = write(
        &root,
        "refs.bib",
        "@article{unused, title={U}, author={A, B}, year={2020}}\n",
    );
    let mut client = Client::start_in(&root, pull_caps(), local());
    assert_eq!(
        client.initialize_result["capabilities"]["diagnosticProvider"]["interFileDependencies"],
        true
    );
    client.open(&uri(&paper), "markdown", 1, text);
    let report = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri(&paper)}}),
    );
    let report = report.response_result.unwrap();
    assert_eq!(report["kind"], "full");
    assert_eq!(codes(&json!({"diagnostics": report["items"]})), ["CP101"]);
    let related = &report["relatedDocuments"][uri(&bib)];
    assert_eq!(
        codes(&json!({"diagnostics": related["items"]})),
        ["CP102"],
        "{report}"
    );
    // Whatever was pushed before the first pull is cleared, once.
    client.roundtrip();
    let pushed = client.latest_diagnostics();
    for params in pushed.values() {
        assert!(codes(params).is_empty(), "{params}");
    }
    // Unchanged since: the same result id is unchanged.
    let again = client
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri(&paper)}, "previousResultId": report["resultId"]}),
        )
        .response_result
        .unwrap();
    assert_eq!(again["kind"], "unchanged");
    // An edit is answered on the edited text, and nothing is pushed.
    client.replace(
        &uri(&paper),
        2,
        "---\nbibliography: refs.bib\n---\nAs shown [@unused].\n",
    );
    let edited = client
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri(&paper)}}),
        )
        .response_result
        .unwrap();
    assert_eq!(edited["items"], json!([]), "{edited}");
    // The bibliography changes on disk: the client is asked to pull again.
    client.server_requests.clear();
    write(
        &root,
        "refs.bib",
        "@article{unused, title={U}, year={2020}}\n",
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&bib), "type": 2}]}),
    );
    client.server_request("workspace/diagnostic/refresh");
    client.roundtrip();
    assert!(
        client
            .take_notifications("textDocument/publishDiagnostics")
            .is_empty()
    );
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_closed_bibliography_is_published_at_a_pause_in_typing_and_before_an_answer() {
    const ONE: &str = "---\nbibliography: refs.bib\n---\nAs shown [@a].\n";
    const BOTH: &str = "---\nbibliography: refs.bib\n---\nAs shown [@a; @b].\n";
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let paper = write(&root, "paper.md", ONE);
    let bib = write(
        &root,
        "refs.bib",
        "@article{a, title={Alpha}, author={Doe, Jane}, journal={J}, year={2020}}\n\
         @article{b, title={Beta}, author={Roe, Rick}, journal={J}, year={2021}}\n",
    );
    let unused = |params: &Value| lines_with(params, "CP102");
    let mut client = Client::start_in(&root, json!({}), local());
    client.open(&uri(&paper), "markdown", 1, ONE);
    assert_eq!(unused(&client.diagnostics(&uri(&bib))), [1]);

    // Typing cites `b`: the bibliography's new list is sent by the time a
    // request that follows the keystroke is answered.
    client.replace(&uri(&paper), 2, BOTH);
    hover(
        &mut client,
        &uri(&paper),
        json!({"line": 3, "character": 0}),
    );
    let published = client.take_notifications("textDocument/publishDiagnostics");
    let latest = published.iter().rev().find(|p| p["uri"] == uri(&bib));
    assert!(
        latest.is_some_and(|p| unused(p).is_empty()),
        "{published:?}"
    );

    // Typing stops: with no request, the list is sent after the pause.
    client.replace(&uri(&paper), 3, ONE);
    assert_eq!(unused(&client.diagnostics(&uri(&bib))), [1]);
    assert_eq!(client.shutdown(), Ending::Clean);
}
