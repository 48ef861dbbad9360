//! End to end with a real editor: headless Neovim starts `citeproof lsp` through the
//! shipped configuration (editors/neovim), opens fixtures/editors, receives the
//! diagnostics and applies the CP108 quick fix through its own code-action menu
//! (tests/editor_support/neovim_e2e.lua); this test asserts what Neovim saw.
//!
//! A second scenario completes a key from the mock Zotero library and adds its
//! entry to refs.bib through Neovim's own `workspace/applyEdit` handler
//! (tests/editor_support/neovim_zotero.lua).
//!
//! Two Neovims: the one on PATH or in CITEPROOF_NVIM (Debian 12's 0.7, which takes the
//! `vim.lsp.start_client` fallback), and a 0.11+ one in CITEPROOF_NVIM_MODERN (the
//! `vim.lsp.config` path). Each test skips with a message when its Neovim is absent;
//! `.ci/run` installs both.

mod editor_support;
mod support;

use std::path::Path;
use std::process::Command;

use editor_support::{assert_session, fixture_copy, program, repo_path, run_editor, skip};
use serde_json::json;
use support::zotero::{MockItem, MockZotero};

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

fn check_scenario(nvim: &Path) {
    let version = version(nvim);
    let fixtures = fixture_copy();
    let mut command = Command::new(nvim);
    command
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(repo_path("tests/editor_support/neovim_e2e.lua"));
    let result = run_editor(command, "editors/neovim", fixtures.path());
    let context = format!("Neovim {version:?}: {result:#}");
    assert_eq!(result["method"], expected_method(version), "{context}");
    assert_eq!(
        result["clients"],
        json!(["citeproof"]),
        "one client for both files: {context}"
    );
    // vim.diagnostic's severities: 1 error, 2 warning.
    assert_session(&result, json!(1), json!(2), &context);
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

fn zotero_scenario(nvim: &Path) {
    let zotero = MockZotero::start(vec![MockItem::residual_learning()], Vec::new());
    let fixtures = fixture_copy();
    let mut command = Command::new(nvim);
    command
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(repo_path("tests/editor_support/neovim_zotero.lua"))
        .env("CITEPROOF_E2E_ZOTERO", zotero.url());
    let result = run_editor(command, "editors/neovim", fixtures.path());
    let context = format!("Neovim {:?}: {result:#}", version(nvim));
    assert!(result["error"].is_null(), "{context}");
    assert_eq!(result["zotero"]["available"], true, "{context}");
    assert_eq!(result["labels"], json!(["he2016deep"]), "{context}");
    assert_eq!(result["description"], "Zotero", "{context}");
    assert_eq!(
        result["typed_line"], "Residual nets [@he2016deep",
        "{context}"
    );
    let original = std::fs::read_to_string(repo_path("fixtures/editors/refs.bib")).unwrap();
    let bib = result["bib_text"].as_str().unwrap();
    assert!(
        bib.starts_with(&original),
        "the entry is appended: {context}"
    );
    assert!(
        bib.contains(
            "@article{he2016deep,\n  title = {{Deep Residual Learning for Image Recognition}},"
        ),
        "{context}"
    );
}

#[test]
fn neovim_completes_a_key_from_zotero() {
    let Some(nvim) = program("CITEPROOF_NVIM", "nvim") else {
        skip(
            "neovim_completes_a_key_from_zotero",
            "no nvim on PATH and CITEPROOF_NVIM unset (apt-get install neovim)",
        );
        return;
    };
    zotero_scenario(&nvim);
}

#[test]
fn neovim_0_11_completes_a_key_from_zotero() {
    let Some(nvim) = std::env::var_os("CITEPROOF_NVIM_MODERN").filter(|p| !p.is_empty()) else {
        skip(
            "neovim_0_11_completes_a_key_from_zotero",
            "CITEPROOF_NVIM_MODERN (a Neovim 0.11 or later) is unset",
        );
        return;
    };
    zotero_scenario(Path::new(&nvim));
}
