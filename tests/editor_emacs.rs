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
    assert_session, fixed_bibliography, fixture_copy, program, repo_path, run_editor, skip,
};
use serde_json::json;

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

#[test]
fn emacs_eglot_shows_diagnostics_and_applies_a_quick_fix() {
    let test = "emacs_eglot_shows_diagnostics_and_applies_a_quick_fix";
    let Some(emacs) = program("CITEPROOF_EMACS", "emacs") else {
        skip(
            test,
            "no emacs on PATH and CITEPROOF_EMACS unset \
             (apt-get install emacs-nox elpa-eglot elpa-markdown-mode)",
        );
        return;
    };
    if !has_packages(&emacs) {
        skip(
            test,
            "this Emacs cannot load eglot and markdown-mode \
             (apt-get install elpa-eglot elpa-markdown-mode)",
        );
        return;
    }
    let fixtures = fixture_copy();
    let mut command = Command::new(&emacs);
    command
        .args(["-q", "--batch", "-l"])
        .arg(repo_path("tests/editor_support/emacs_e2e.el"));
    let result = run_editor(command, "editors/emacs", fixtures.path());
    let context = format!("{result:#}");
    assert_eq!(result["paper_mode"], "markdown-mode", "{context}");
    // bibtex-mode's file is read as BibTeX although eglot 1.9 sends the first
    // buffer's language id ("markdown") for every file of the server.
    assert_eq!(result["bib_mode"], "bibtex-mode", "{context}");
    assert_eq!(result["servers"], 1, "one server for both files: {context}");
    assert_eq!(result["same_server"], true, "{context}");
    // Flymake's types; eglot counts columns in UTF-16 code units, as the server.
    assert_session(
        &result,
        json!("eglot-error"),
        json!("eglot-warning"),
        &context,
    );
    // The scenario saved the fixed buffer.
    assert_eq!(
        std::fs::read_to_string(fixtures.path().join("refs.bib")).unwrap(),
        fixed_bibliography()
    );
}
