//! Shared by the end-to-end tests that drive real editor clients (tests/editor_*.rs):
//! finding the external program, a scratch copy of fixtures/editors, running a
//! program with a deadline, and what the fixtures must look like after the quick fix.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long one editor session may take before the test fails (it normally takes
/// about a second; CI machines are busy).
pub const SESSION_DEADLINE: Duration = Duration::from_secs(120);

/// How long the client waits for one expected event (diagnostics, an edit).
pub const EVENT_DEADLINE_MS: u64 = 30_000;

/// The line of `refs.bib` that CP108 flags, and what its quick fix writes instead.
pub const DOI_URL_LINE: &str = "url = {https://doi.org/10.48550/arXiv.1706.03762}";
pub const DOI_FIELD_LINE: &str = "doi = {10.48550/arxiv.1706.03762}";

/// An external program is missing: the test skips with a message, except where
/// CITEPROOF_E2E_REQUIRED=1 (`.ci/run` sets it after installing them all), where a
/// skip would hide that CI no longer runs the test: there it fails.
pub fn skip(test: &str, why: &str) {
    if std::env::var("CITEPROOF_E2E_REQUIRED").is_ok_and(|v| v == "1") {
        panic!("{test}: {why}, and CITEPROOF_E2E_REQUIRED=1 forbids skipping");
    }
    eprintln!("skipping {test}: {why}");
}

/// The program named by the environment variable `var`, else `name` on PATH.
pub fn program(var: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// A scratch copy of fixtures/editors (the quick fix edits it).
pub fn fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for entry in std::fs::read_dir(repo_path("fixtures/editors")).expect("fixtures/editors") {
        let entry = entry.expect("a directory entry");
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).expect("copy a fixture");
    }
    dir
}

/// `refs.bib` as the quick fix leaves it: the doi.org URL line replaced by a `doi`
/// field, nothing else changed.
pub fn fixed_bibliography() -> String {
    let original = std::fs::read_to_string(repo_path("fixtures/editors/refs.bib")).unwrap();
    assert!(
        original.contains(DOI_URL_LINE),
        "the fixture has the URL line"
    );
    original.replace(DOI_URL_LINE, DOI_FIELD_LINE)
}

/// Environment for the server under test: local rules only, nothing from the
/// user's cache or configuration, never the network.
pub fn isolate(command: &mut Command, scratch: &Path) {
    let home = scratch.join("home");
    std::fs::create_dir_all(&home).unwrap();
    command
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("CITEPROOF_CACHE_DIR", scratch.join("cache"))
        .env("CITEPROOF_OFFLINE", "1");
}

/// What a finished program left behind.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Run a command to its end, its output in files (no pipe can fill up); kill it and
/// fail the test when it outlives `deadline`.
pub fn run_with_deadline(mut command: Command, scratch: &Path, deadline: Duration) -> Finished {
    let stdout_path = scratch.join("stdout.log");
    let stderr_path = scratch.join("stderr.log");
    command
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap());
    let mut child = command.spawn().expect("the client starts");
    let until = Instant::now() + deadline;
    let status = loop {
        if let Some(status) = child.try_wait().expect("the client can be waited on") {
            break status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the client did not finish within {deadline:?}\nstdout:\n{}\nstderr:\n{}",
                std::fs::read_to_string(&stdout_path).unwrap_or_default(),
                std::fs::read_to_string(&stderr_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Finished {
        status,
        stdout: std::fs::read_to_string(&stdout_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
    }
}

/// Run an editor on its scenario script with the scenario's environment (the server,
/// the fixtures, the result file, the shipped configuration in `plugin`); returns the
/// result the script wrote.
pub fn run_editor(mut command: Command, plugin: &str, fixtures: &Path) -> Value {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("result.json");
    command
        .current_dir(fixtures)
        .env("CITEPROOF_E2E_BIN", env!("CARGO_BIN_EXE_citeproof"))
        .env("CITEPROOF_E2E_DIR", fixtures)
        .env("CITEPROOF_E2E_OUT", &out)
        .env("CITEPROOF_E2E_PLUGIN", repo_path(plugin))
        .env("CITEPROOF_E2E_TIMEOUT_MS", EVENT_DEADLINE_MS.to_string());
    isolate(&mut command, scratch.path());
    let finished = run_with_deadline(command, scratch.path(), SESSION_DEADLINE);
    let written = std::fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!(
            "the editor wrote no result ({e}); exit {:?}\nstdout:\n{}\nstderr:\n{}",
            finished.status, finished.stdout, finished.stderr
        )
    });
    serde_json::from_str(&written).expect("the result is JSON")
}

/// The diagnostics a client reported, each as [code, severity, line, text under the
/// range] (the scenarios report them under these names).
pub fn summary(diagnostics: &Value) -> Vec<Value> {
    diagnostics
        .as_array()
        .map(|list| {
            list.iter()
                .map(|d| json!([d["code"], d["severity"], d["line"], d["text"]]))
                .collect()
        })
        .unwrap_or_default()
}

/// What every client must have seen, given how it names an error and a warning:
/// CP101 on `brown2020` in paper.md, after CJK text and emoji (the text under the
/// range shows the UTF-16 columns arrived where they belong); CP108 in refs.bib as a
/// warning, not its default hint (the client's `configFile` setting reached the
/// server); then the CP108 quick fix offered, applied, and checked again.
pub fn assert_session(result: &Value, error: Value, warning: Value, context: &str) {
    let undefined = json!(["CP101", error, 6, "brown2020"]);
    assert_eq!(
        summary(&result["paper"]),
        vec![undefined.clone()],
        "{context}"
    );
    assert_eq!(
        summary(&result["bib_before"]),
        vec![json!(["CP108", warning, 5, DOI_URL_LINE])],
        "{context}"
    );
    // The quick fix needs the server's code actions (textDocument/codeAction).
    assert!(
        result["error"].is_null(),
        "the quick fix failed: {}\n{context}",
        result["error"]
    );
    let titles = result["actions"].as_array().expect("code actions offered");
    assert!(
        titles
            .iter()
            .any(|t| t.as_str().is_some_and(|t| t.contains("doi.org URL"))),
        "{context}"
    );
    assert_eq!(result["bib_text"], fixed_bibliography(), "{context}");
    assert!(fixed_bibliography().contains(DOI_FIELD_LINE));
    // Checked again after the edit: CP108 is gone, the paper keeps its finding.
    assert_eq!(
        summary(&result["bib_after"]),
        Vec::<Value>::new(),
        "{context}"
    );
    assert_eq!(
        summary(&result["paper_after"]),
        vec![undefined],
        "{context}"
    );
}
