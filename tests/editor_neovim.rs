//! End to end with a real editor: headless Neovim starts `citeproof lsp` through the
//! shipped configuration (editors/neovim), opens fixtures/editors, receives the
//! diagnostics and applies the CP108 quick fix through its own code-action menu
//! (tests/editor_support/neovim_e2e.lua); this test asserts what Neovim saw.
//!
//! Two Neovims: the one on PATH or in CITEPROOF_NVIM (Debian 12's 0.7, which takes the
//! `vim.lsp.start_client` fallback), and a 0.11+ one in CITEPROOF_NVIM_MODERN (the
//! `vim.lsp.config` path). Each test skips with a message when its Neovim is absent;
//! `.ci/run` installs both.

mod editor_support;

use std::path::Path;
use std::process::Command;

use editor_support::{
    DOI_FIELD_LINE, DOI_URL_LINE, EVENT_DEADLINE_MS, SESSION_DEADLINE, fixed_bibliography,
    fixture_copy, isolate, program, repo_path, run_with_deadline, skip,
};
use serde_json::{Value, json};

/// Neovim's version as (major, minor), from `nvim --version`.
fn version(nvim: &Path) -> (u32, u32) {
    let output = Command::new(nvim)
        .arg("--version")
        .output()
        .expect("nvim --version runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let first = text.lines().next().unwrap_or_default();
    let numbers: Vec<u32> = first
        .trim_start_matches("NVIM v")
        .split(['.', '-'])
        .take(2)
        .map(|n| n.parse().unwrap_or(0))
        .collect();
    assert_eq!(numbers.len(), 2, "a version in {first:?}");
    (numbers[0], numbers[1])
}

/// How editors/neovim must start the server on this version.
fn expected_method(version: (u32, u32)) -> &'static str {
    match version {
        (0, minor) if minor < 8 => "vim.lsp.start_client",
        (0, minor) if minor < 11 => "vim.lsp.start",
        _ => "vim.lsp.config",
    }
}

/// Run the scenario in one Neovim; returns what it wrote.
fn run_scenario(nvim: &Path) -> Value {
    let scratch = tempfile::tempdir().unwrap();
    let fixtures = fixture_copy();
    let out = scratch.path().join("result.json");
    let mut command = Command::new(nvim);
    command
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(repo_path("tests/editor_support/neovim_e2e.lua"))
        .current_dir(fixtures.path())
        .env("CITEPROOF_E2E_BIN", env!("CARGO_BIN_EXE_citeproof"))
        .env("CITEPROOF_E2E_DIR", fixtures.path())
        .env("CITEPROOF_E2E_OUT", &out)
        .env("CITEPROOF_E2E_PLUGIN", repo_path("editors/neovim"))
        .env("CITEPROOF_E2E_TIMEOUT_MS", EVENT_DEADLINE_MS.to_string());
    isolate(&mut command, scratch.path());
    let finished = run_with_deadline(command, scratch.path(), SESSION_DEADLINE);
    let written = std::fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!(
            "Neovim wrote no result ({e}); exit {:?}\nstdout:\n{}\nstderr:\n{}",
            finished.status, finished.stdout, finished.stderr
        )
    });
    serde_json::from_str(&written).expect("the result is JSON")
}

/// The diagnostics as (code, severity, line, text under the range).
fn summary(diagnostics: &Value) -> Vec<Value> {
    diagnostics
        .as_array()
        .map(|list| {
            list.iter()
                .map(|d| json!([d["code"], d["severity"], d["lnum"], d["text"]]))
                .collect()
        })
        .unwrap_or_default()
}

fn check_scenario(nvim: &Path) {
    let version = version(nvim);
    let result = run_scenario(nvim);
    let context = format!("Neovim {version:?}: {result:#}");
    assert_eq!(result["method"], expected_method(version), "{context}");
    // Severities are vim.diagnostic's: 1 error, 2 warning. The text under each range
    // shows the UTF-16 columns (after CJK and emoji) arrived where they belong.
    assert_eq!(
        summary(&result["paper"]),
        vec![json!(["CP101", 1, 6, "brown2020"])],
        "{context}"
    );
    // CP108 is a hint by default: a warning here means the client's settings
    // (configFile) reached the server.
    assert_eq!(
        summary(&result["bib_before"]),
        vec![json!(["CP108", 2, 5, DOI_URL_LINE])],
        "{context}"
    );
    assert_eq!(
        result["clients"],
        json!(["citeproof"]),
        "one client for both files: {context}"
    );

    // The quick fix. It needs the server's code actions (textDocument/codeAction).
    assert!(
        result["error"].is_null(),
        "the quick fix failed: {}\n{context}",
        result["error"]
    );
    let actions = result["actions"].as_array().expect("code actions offered");
    assert!(
        actions
            .iter()
            .any(|a| a.as_str().is_some_and(|t| t.contains("doi.org URL"))),
        "{context}"
    );
    assert_eq!(result["bib_text"], fixed_bibliography(), "{context}");
    assert!(fixed_bibliography().contains(DOI_FIELD_LINE));
    assert_eq!(
        summary(&result["bib_after"]),
        Vec::<Value>::new(),
        "{context}"
    );
    assert_eq!(
        summary(&result["paper_after"]),
        vec![json!(["CP101", 1, 6, "brown2020"])],
        "{context}"
    );
}

#[test]
fn neovim_shows_diagnostics_and_applies_a_quick_fix() {
    let Some(nvim) = program("CITEPROOF_NVIM", "nvim") else {
        skip(
            "neovim_shows_diagnostics_and_applies_a_quick_fix",
            "no nvim on PATH and CITEPROOF_NVIM unset (apt-get install neovim)",
        );
        return;
    };
    check_scenario(&nvim);
}

#[test]
fn neovim_0_11_takes_the_vim_lsp_config_path() {
    let Some(nvim) = std::env::var_os("CITEPROOF_NVIM_MODERN").filter(|p| !p.is_empty()) else {
        skip(
            "neovim_0_11_takes_the_vim_lsp_config_path",
            "CITEPROOF_NVIM_MODERN (a Neovim 0.11 or later) is unset \
             (tests/editor_support/fetch-modern-neovim.sh DIR fetches one)",
        );
        return;
    };
    let nvim = Path::new(&nvim);
    assert!(
        version(nvim) >= (0, 11),
        "CITEPROOF_NVIM_MODERN is older than 0.11"
    );
    check_scenario(nvim);
}
