//! Shared by the end-to-end tests that drive real editor clients (tests/editor_*.rs):
//! finding the external program, a scratch copy of fixtures/editors, running a
//! program with a deadline, and what the fixtures must look like after the quick fix.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

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
