//! End to end with Emacs and eglot: batch Emacs loads the shipped configuration
//! (editors/emacs/citeproof.el), opens fixtures/editors in markdown-mode and
//! bibtex-mode, reads the diagnostics Flymake shows, applies the CP108 quick fix
//! through `eglot-code-actions` and saves (tests/editor_support/emacs_e2e.el); this
//! test asserts what Emacs saw.
//!
//! Needs Emacs with eglot (built in from Emacs 29; Debian 12's Emacs 28 takes it from
//! the elpa-eglot package) and markdown-mode (elpa-markdown-mode). Skips with a
//! message when they are absent; `.ci/run` installs them. CITEPROOF_EMACS names
//! another Emacs.

mod editor_support;

use std::path::Path;
use std::process::Command;

use editor_support::{
    DOI_URL_LINE, EVENT_DEADLINE_MS, SESSION_DEADLINE, fixed_bibliography, fixture_copy, isolate,
    program, repo_path, run_with_deadline, skip,
};
use serde_json::{Value, json};

/// Whether this Emacs can load eglot and markdown-mode.
fn has_packages(emacs: &Path) -> bool {
    Command::new(emacs)
        .args([
            "-q",
            "--batch",
            "--eval",
            "(progn (require 'eglot) (require 'markdown-mode))",
        ])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The diagnostics as (code, Flymake type, line, text under the range).
fn summary(diagnostics: &Value) -> Vec<Value> {
    diagnostics
        .as_array()
        .map(|list| {
            list.iter()
                .map(|d| json!([d["code"], d["type"], d["line"], d["text"]]))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn emacs_eglot_shows_diagnostics_and_applies_a_quick_fix() {
    let Some(emacs) = program("CITEPROOF_EMACS", "emacs") else {
        skip(
            "emacs_eglot_shows_diagnostics_and_applies_a_quick_fix",
            "no emacs on PATH and CITEPROOF_EMACS unset \
             (apt-get install emacs-nox elpa-eglot elpa-markdown-mode)",
        );
        return;
    };
    if !has_packages(&emacs) {
        skip(
            "emacs_eglot_shows_diagnostics_and_applies_a_quick_fix",
            "this Emacs cannot load eglot and markdown-mode \
             (apt-get install elpa-eglot elpa-markdown-mode)",
        );
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let fixtures = fixture_copy();
    let out = scratch.path().join("result.json");
    let mut command = Command::new(&emacs);
    command
        .args(["-q", "--batch", "-l"])
        .arg(repo_path("tests/editor_support/emacs_e2e.el"))
        .current_dir(fixtures.path())
        .env("CITEPROOF_E2E_BIN", env!("CARGO_BIN_EXE_citeproof"))
        .env("CITEPROOF_E2E_DIR", fixtures.path())
        .env("CITEPROOF_E2E_OUT", &out)
        .env("CITEPROOF_E2E_PLUGIN", repo_path("editors/emacs"))
        .env("CITEPROOF_E2E_TIMEOUT_MS", EVENT_DEADLINE_MS.to_string());
    isolate(&mut command, scratch.path());
    let finished = run_with_deadline(command, scratch.path(), SESSION_DEADLINE);
    let written = std::fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!(
            "Emacs wrote no result ({e}); exit {:?}\nstdout:\n{}\nstderr:\n{}",
            finished.status, finished.stdout, finished.stderr
        )
    });
    let result: Value = serde_json::from_str(&written).expect("the result is JSON");
    let context = format!("{result:#}\nstderr:\n{}", finished.stderr);

    assert_eq!(result["paper_mode"], "markdown-mode", "{context}");
    assert_eq!(result["bib_mode"], "bibtex-mode", "{context}");
    // eglot counts columns in UTF-16 code units: the text under the range after the
    // CJK text and emoji shows they agree with the server's.
    assert_eq!(
        summary(&result["paper"]),
        vec![json!(["CP101", "eglot-error", 6, "brown2020"])],
        "{context}"
    );
    // A warning, not the default hint: the settings (configFile) reached the server.
    // And bibtex-mode's file is read as BibTeX although eglot 1.9 sends the first
    // buffer's language id ("markdown") for every file of the server.
    assert_eq!(
        summary(&result["bib_before"]),
        vec![json!(["CP108", "eglot-warning", 5, DOI_URL_LINE])],
        "{context}"
    );
    assert_eq!(result["servers"], 1, "one server for both files: {context}");
    assert_eq!(result["same_server"], true, "{context}");

    // The quick fix. It needs the server's code actions (textDocument/codeAction).
    assert!(
        result["error"].is_null(),
        "the quick fix failed: {}\n{context}",
        result["error"]
    );
    assert!(
        result["actions"].as_array().is_some_and(|titles| titles
            .iter()
            .any(|t| t.as_str().is_some_and(|t| t.contains("doi.org URL")))),
        "{context}"
    );
    assert_eq!(result["bib_text"], fixed_bibliography(), "{context}");
    // Saved, then checked again: CP108 is gone, and the paper keeps its finding.
    assert_eq!(
        std::fs::read_to_string(fixtures.path().join("refs.bib")).unwrap(),
        fixed_bibliography()
    );
    assert_eq!(
        summary(&result["bib_after"]),
        Vec::<Value>::new(),
        "{context}"
    );
    assert_eq!(
        summary(&result["paper_after"]),
        vec![json!(["CP101", "eglot-error", 6, "brown2020"])],
        "{context}"
    );
}
