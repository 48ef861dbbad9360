//! One manuscript in every form a reviewer may receive it — LaTeX with its `.bib`,
//! LaTeX with only the `.bbl` a BibTeX or biber run left (as arXiv ships it), the
//! PDF pdflatex made of it, a Word file and an OpenDocument file typeset by pandoc,
//! a Word file written with Zotero — checked against the demo's corpus: every form gives the same
//! resolution findings, about the same works.
//!
//! The forms are in fixtures/inputs/demo, made from fixtures/demo by
//! fixtures/inputs/demo/generate.sh (real pdflatex, bibtex, biber and pandoc runs).

mod bin_support;

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One finding as compared across forms: rule code and the title of the record it
/// compares against ("" for a work no source has).
type Finding = (String, String);

fn findings(input: &Path) -> Vec<Finding> {
    let cache = tempfile::tempdir().unwrap();
    let mut command = Command::new(bin_support::BIN);
    let output = bin_support::isolate(&mut command)
        .current_dir(ROOT)
        .env("CITEPROOF_CACHE_DIR", cache.path())
        .args([
            "check",
            "--offline",
            "--corpus",
            "fixtures/demo/corpus.jsonl",
        ])
        .args(["--corpus-complete", "--format", "json"])
        .arg(input)
        .output()
        .expect("run citeproof");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let all: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{}: not JSON ({e}): {stdout}\n{}",
            input.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let mut out: Vec<Finding> = all
        .iter()
        .filter(|f| f["family"] == "resolution")
        // `missing-doi` offers an edit of a .bib entry: only the .bib form has one.
        .filter(|f| f["code"] != "CP212")
        .map(|f| {
            let title = f["record"]["title"].as_str().unwrap_or("").to_string();
            (f["code"].as_str().unwrap().to_string(), title)
        })
        .collect();
    out.sort();
    out
}

/// `files` copied into a folder of their own (the `.bbl` forms must not find the
/// `.bib`), and the path of the first.
fn alone(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    for (from, to) in files {
        std::fs::copy(Path::new(ROOT).join(from), dir.join(to)).unwrap();
    }
    dir.join(files[0].1)
}

#[test]
fn every_form_of_the_manuscript_gives_the_same_findings() {
    let demo = "fixtures/inputs/demo";
    let bibtex_dir = tempfile::tempdir().unwrap();
    let biber_dir = tempfile::tempdir().unwrap();
    let forms: Vec<(&str, PathBuf)> = vec![
        ("LaTeX + .bib", Path::new(demo).join("paper.tex")),
        (
            "LaTeX + BibTeX .bbl",
            alone(
                bibtex_dir.path(),
                &[
                    ("fixtures/inputs/demo/paper.tex", "paper.tex"),
                    ("fixtures/inputs/demo/paper.bbl", "paper.bbl"),
                ],
            ),
        ),
        (
            "LaTeX + biber .bbl",
            alone(
                biber_dir.path(),
                &[
                    (
                        "fixtures/inputs/demo/paper-biblatex.tex",
                        "paper-biblatex.tex",
                    ),
                    (
                        "fixtures/inputs/demo/paper-biblatex.bbl",
                        "paper-biblatex.bbl",
                    ),
                ],
            ),
        ),
        ("PDF (pdflatex)", Path::new(demo).join("paper.pdf")),
        ("Word (pandoc)", Path::new(demo).join("paper.docx")),
        ("OpenDocument (pandoc)", Path::new(demo).join("paper.odt")),
        (
            "Word (Zotero fields)",
            Path::new(demo).join("paper-zotero.docx"),
        ),
    ];
    let (_, reference) = &forms[0];
    let expected = findings(reference);
    let codes: Vec<&str> = expected.iter().map(|(c, _)| c.as_str()).collect();
    // What fixtures/demo/README.md promises (CP212 aside).
    assert_eq!(
        codes,
        ["CP201", "CP202", "CP205", "CP207", "CP208", "CP209"],
        "{expected:?}"
    );
    for (form, input) in &forms[1..] {
        assert_eq!(&findings(input), &expected, "{form}: {}", input.display());
    }
}
