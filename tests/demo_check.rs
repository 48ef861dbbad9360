//! The bundled demo (fixtures/demo): a manuscript checked against the bundled corpus
//! with no network shows verified, mis-cited, fabricated and retracted references.

mod bin_support;

use std::process::Command;

use citeproof::diagnostic::Applicability;
use citeproof::load::{LoadOptions, load};
use citeproof::resolve::corpus::Corpus;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::run::resolve_project;
use citeproof::rules::resolution::diagnostics;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// What the demo's README promises, entry by entry.
const EXPECTED: &[(&str, &str)] = &[
    ("CP201", "lee2023"),
    ("CP202", "mattioli2021"),
    ("CP205", "xie2020"),
    ("CP207", "kingma2015vd"),
    ("CP208", "reimers2019"),
    ("CP209", "ioffe2017"),
    ("CP212", "he2016"),
];

#[test]
fn the_demo_command_shows_every_kind_of_finding_offline() {
    let cache = tempfile::tempdir().unwrap();
    let mut command = Command::new(bin_support::BIN);
    let output = bin_support::isolate(&mut command)
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("CITEPROOF_CACHE_DIR", cache.path())
        .args([
            "check",
            "--offline",
            "--corpus",
            "fixtures/demo/corpus.jsonl",
            "--corpus-complete",
            "fixtures/demo/paper.md",
        ])
        .output()
        .expect("run citeproof");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(
            "resolved 9 references: 3 verified, 4 miscited, 1 not found, 1 retracted, 0 unverified"
        ),
        "{stderr}"
    );
    for (code, key) in EXPECTED {
        assert!(
            stdout
                .lines()
                .any(|l| l.contains(&format!("[{code}]")) && l.contains(&format!("`{key}`"))),
            "no {code} for {key} in\n{stdout}"
        );
    }
}

#[test]
fn the_demo_through_the_library_with_fixes() {
    let root = std::path::Path::new(ROOT);
    let mut project = load(
        &[root.join("fixtures/demo/paper.md")],
        &LoadOptions::default(),
    );
    citeproof::check::link_all(&mut project);
    let (corpus, warnings) = Corpus::load(&[root.join("fixtures/demo/corpus.jsonl")]).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(corpus.len(), 32);
    let options = ResolveOptions {
        corpus: Some(std::sync::Arc::new(corpus)),
        corpus_complete: true,
        ..ResolveOptions::default()
    };
    let resolved = resolve_project(&project.documents, &options).unwrap();
    assert_eq!(resolved.entries.len(), 9);
    let found = diagnostics(&project.sources, &project.documents, &resolved);
    let mut pairs: Vec<(&str, &str)> = found
        .iter()
        .map(|d| (d.rule.code, d.key.as_deref().unwrap_or("")))
        .collect();
    pairs.sort();
    assert_eq!(pairs, EXPECTED);
    let text = |d: &citeproof::diagnostic::Diagnostic| {
        project.sources.get(d.file).slice(d.span).to_string()
    };
    let year = found.iter().find(|d| d.rule.code == "CP209").unwrap();
    assert!(text(year).starts_with("year"), "{}", text(year));
    assert_eq!(year.fix.as_ref().unwrap().edits[0].replacement, "2015");
    let doi = found.iter().find(|d| d.rule.code == "CP212").unwrap();
    let fix = doi.fix.as_ref().unwrap();
    assert_eq!(fix.applicability, Applicability::Safe);
    assert!(
        fix.edits[0]
            .replacement
            .contains("doi = {10.1109/cvpr.2016.90}")
    );
    let conflation = found.iter().find(|d| d.rule.code == "CP205").unwrap();
    assert_eq!(
        conflation.fix.as_ref().unwrap().edits[0].replacement,
        "1911.04252"
    );
    assert!(conflation.record.is_some());
}
