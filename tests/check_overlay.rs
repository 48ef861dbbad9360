//! The configured check reads through a file-system view: an unsaved buffer of a
//! bibliography, an `\input`-ed file or `citeproof.toml` changes what every document
//! that uses it reports, as the language server needs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use citeproof::fs::{Overlay, Vfs};
use citeproof::pipeline::{CheckSetup, Checker, Stages};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Codes of the local findings of `input` read through `fs`.
fn codes(input: &Path, fs: Vfs) -> Vec<(String, String)> {
    let checker = Checker::new(CheckSetup {
        inputs: vec![input.to_path_buf()],
        fs,
        ..CheckSetup::default()
    })
    .unwrap();
    let (_, checked) = checker.run(&Stages::default()).unwrap();
    checked
        .diagnostics
        .iter()
        .map(|d| (d.rule.code.to_string(), d.key.clone().unwrap_or_default()))
        .collect()
}

#[test]
fn an_unsaved_bibliography_changes_the_markdown_findings() {
    let dir = tempfile::tempdir().unwrap();
    let paper = write(
        dir.path(),
        "paper.md",
        "---\nbibliography: refs.bib\n---\nAs shown [@smith2020].\n",
    );
    let bib = write(
        dir.path(),
        "refs.bib",
        "@article{jones2019, title={Other}, author={Jones, A.}, year={2019}}\n",
    );
    let on_disk = codes(&paper, Vfs::disk());
    assert!(
        on_disk.contains(&("CP101".into(), "smith2020".into())),
        "{on_disk:?}"
    );
    let mut overlay = Overlay::new(Vfs::disk());
    overlay.set(
        &bib,
        Arc::from("@article{smith2020, title={Deep}, author={Smith, J.}, year={2020}}\n"),
    );
    let edited = codes(&paper, Vfs::new(overlay));
    assert!(
        !edited.iter().any(|(code, _)| code == "CP101"),
        "the buffer's entry defines the key: {edited:?}"
    );
}

#[test]
fn an_unsaved_included_latex_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "main.tex",
        "\\input{intro}\n\\bibliography{refs}\n",
    );
    write(
        dir.path(),
        "refs.bib",
        "@article{known, title={T}, author={A, B}, year={2020}}\n",
    );
    let intro = dir.path().join("intro.tex");
    // Never saved: only the editor has it.
    let mut overlay = Overlay::new(Vfs::disk());
    overlay.set(&intro, Arc::from("See \\cite{unknown}.\n"));
    let found = codes(&main, Vfs::new(overlay));
    assert!(
        found.contains(&("CP101".into(), "unknown".into())),
        "{found:?}"
    );
    let without = codes(&main, Vfs::disk());
    assert!(
        without.iter().any(|(code, _)| code == "CP001"),
        "intro.tex is missing on disk: {without:?}"
    );
}

#[test]
fn an_unsaved_configuration_turns_a_rule_off() {
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", "Text [@nowhere].\n");
    let found = codes(&paper, Vfs::disk());
    assert!(found.iter().any(|(code, _)| code == "CP101"), "{found:?}");
    let mut overlay = Overlay::new(Vfs::disk());
    overlay.set(
        &dir.path().join("citeproof.toml"),
        Arc::from("[rules]\nCP101 = \"off\"\n"),
    );
    let quiet = codes(&paper, Vfs::new(overlay));
    assert!(!quiet.iter().any(|(code, _)| code == "CP101"), "{quiet:?}");
}

#[test]
fn an_invalid_unsaved_configuration_is_an_error_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", "Text.\n");
    let mut overlay = Overlay::new(Vfs::disk());
    overlay.set(
        &dir.path().join("citeproof.toml"),
        Arc::from("no-such-key = 1\n"),
    );
    let err = Checker::new(CheckSetup {
        inputs: vec![paper],
        fs: Vfs::new(overlay),
        ..CheckSetup::default()
    })
    .unwrap_err();
    assert!(format!("{err:#}").contains("no-such-key"), "{err:#}");
}
