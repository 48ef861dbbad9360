//! `citeproof check` and `extract` on the reviewer's inputs — Word, OpenDocument,
//! `.bbl`, submission archives — through the real binary: places in the original
//! (paragraph and character) in every format, the extract schema, archives found
//! and opened, and files that cannot be read reported as CP001 while the rest of
//! the run goes on.

mod bin_support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DEMO: &str = "fixtures/inputs/demo";

fn demo(name: &str) -> PathBuf {
    Path::new(ROOT).join(DEMO).join(name)
}

/// `citeproof ARGS` run locally (no resolution) in `dir`.
fn run(dir: &Path, args: &[&str]) -> Output {
    bin_support::citeproof()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run citeproof")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            stdout(output),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn zip_of(path: &Path, files: &[(&str, &[u8])]) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in files {
        writer
            .start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap();
}

fn tar_gz_of(path: &Path, files: &[(&str, &[u8])]) {
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(path).unwrap(),
        flate2::Compression::default(),
    );
    let mut builder = tar::Builder::new(gz);
    for (name, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, name, *bytes).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap();
}

#[test]
fn a_zotero_word_file_reads_as_cited_csl_items_with_paragraph_places() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(demo("paper-zotero.docx"), dir.path().join("paper.docx")).unwrap();
    let extracted = json(&run(dir.path(), &["extract", "paper.docx"]));
    let doc = &extracted["documents"][0];
    assert_eq!(doc["root"], "paper.docx");
    let references = doc["references"].as_array().unwrap();
    assert_eq!(references.len(), 9, "{references:?}");
    let adam = references
        .iter()
        .find(|r| r["title"] == "Adam: A method for stochastic optimization")
        .expect("the Adam item");
    assert_eq!(adam["origin"], "csl_json");
    assert_eq!(adam["year"], 2015);
    assert_eq!(adam["authors"][0]["family"], "Kingma");
    assert!(adam["raw"].as_str().unwrap().starts_with('{'), "{adam}");
    let citations = doc["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 9);
    assert!(
        citations
            .iter()
            .all(|c| c["kind"] == "key" && c["command"] == "zotero")
    );
    assert!(citations.iter().all(|c| c["reference"].is_number()));
    let first = &citations[0]["location"];
    assert_eq!(first["part"], "body");
    assert_eq!(first["paragraph"], 2);
    assert!(
        first["label"]
            .as_str()
            .unwrap()
            .starts_with("paragraph 2, character ")
    );
    // Every citation sits in a claim, and the claim is the sentence without the marker.
    let claim = &doc["claims"][citations[0]["claim"].as_u64().unwrap() as usize];
    assert_eq!(
        claim["text"],
        "Residual connections made very deep convolutional networks trainable."
    );
    // Nothing to report locally: every item is cited and defined.
    let checked = run(dir.path(), &["check", "paper.docx"]);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
}

#[test]
fn pandoc_word_and_opendocument_files_give_their_typed_lists() {
    for name in ["paper.docx", "paper.odt"] {
        let extracted = json(&run(
            Path::new(ROOT),
            &["extract", &format!("{DEMO}/{name}")],
        ));
        let doc = &extracted["documents"][0];
        let references = doc["references"].as_array().unwrap();
        assert_eq!(references.len(), 9, "{name}: {references:?}");
        assert!(references.iter().all(|r| r["origin"] == "reference_list"));
        assert_eq!(references[0]["authors"][0]["family"], "Devlin", "{name}");
        assert_eq!(references[0]["doi"], "10.18653/v1/n19-1423", "{name}");
        let citations = doc["citations"].as_array().unwrap();
        assert_eq!(citations.len(), 9, "{name}");
        assert!(
            citations
                .iter()
                .all(|c| c["kind"] == "author_year" && c["reference"].is_number()),
            "{name}: {citations:?}"
        );
        // Two works of Kingma in 2015, each cited once: told apart by the names.
        let kingma: Vec<u64> = citations
            .iter()
            .filter(|c| c["key"].as_str().unwrap().starts_with("Kingma"))
            .map(|c| c["reference"].as_u64().unwrap())
            .collect();
        assert_eq!(kingma.len(), 2);
        assert_ne!(kingma[0], kingma[1], "{name}");
    }
}

#[test]
fn every_format_names_the_paragraph() {
    let dir = tempfile::tempdir().unwrap();
    // A typed list with an uncited entry, and an orphan marker, as text in Word.
    let docx = dir.path().join("orphans.docx");
    write_docx(
        &docx,
        &[
            ("Heading1", "Introduction"),
            (
                "",
                "Transformers changed translation [1], and nothing cites [3].",
            ),
            ("Heading1", "References"),
            (
                "",
                "[1] A. Vaswani et al. Attention is all you need. In NeurIPS, 2017.",
            ),
            (
                "",
                "[2] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In CVPR, 2016.",
            ),
        ],
    );
    let text = stdout(&run(dir.path(), &["check", "orphans.docx"]));
    assert!(
        text.contains("orphans.docx: paragraph 2, character 58"),
        "{text}"
    );
    assert!(
        text.contains("orphans.docx: paragraph 5, character 2"),
        "{text}"
    );
    assert!(text.contains("= text: "), "{text}");
    let found = json(&run(
        dir.path(),
        &["check", "orphans.docx", "--format", "json"],
    ));
    let codes: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), 2, "{found}");
    for finding in found.as_array().unwrap() {
        assert_eq!(finding["file"], "orphans.docx");
        assert!(finding["location"]["paragraph"].is_number(), "{finding}");
    }
    let sarif = json(&run(
        dir.path(),
        &["check", "orphans.docx", "--format", "sarif"],
    ));
    let location = &sarif["runs"][0]["results"][0]["locations"][0];
    assert_eq!(
        location["physicalLocation"]["artifactLocation"]["uri"],
        "orphans.docx"
    );
    assert!(location["physicalLocation"].get("region").is_none());
    assert_eq!(location["logicalLocations"][0]["kind"], "paragraph");
    let html = stdout(&run(
        dir.path(),
        &["check", "orphans.docx", "--format", "html"],
    ));
    assert!(
        html.contains("orphans.docx: paragraph 2, character 58"),
        "{html}"
    );
    let github = stdout(&run(
        dir.path(),
        &["check", "orphans.docx", "--format", "github"],
    ));
    assert!(github.contains("::paragraph 2, character 58: "), "{github}");
    assert!(!github.contains("line="), "{github}");
    let junit = stdout(&run(
        dir.path(),
        &["check", "orphans.docx", "--format", "junit"],
    ));
    assert!(junit.contains("(paragraph 5, character 2)"), "{junit}");
}

/// A minimal Word file: one paragraph per (style, text).
fn write_docx(path: &Path, paragraphs: &[(&str, &str)]) {
    let body: String = paragraphs
        .iter()
        .map(|(style, text)| {
            let props = if style.is_empty() {
                String::new()
            } else {
                format!(r#"<w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#)
            };
            format!(r#"<w:p>{props}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
        })
        .collect();
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    zip_of(path, &[("word/document.xml", document.as_bytes())]);
}

#[test]
fn a_bbl_stands_in_for_a_missing_bib() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["paper.tex", "paper.bbl"] {
        std::fs::copy(demo(name), dir.path().join(name)).unwrap();
    }
    let extracted = json(&run(dir.path(), &["extract", "paper.tex"]));
    let doc = &extracted["documents"][0];
    assert_eq!(doc["files"], serde_json::json!(["paper.tex", "paper.bbl"]));
    let references = doc["references"].as_array().unwrap();
    assert_eq!(references.len(), 9);
    assert!(references.iter().all(|r| r["origin"] == "bib_item"));
    let checked = run(dir.path(), &["check", "paper.tex"]);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
    // Given on the command line, a .bbl is a bibliography like a .bib.
    std::fs::rename(dir.path().join("paper.bbl"), dir.path().join("built.bbl")).unwrap();
    let checked = run(dir.path(), &["check", "paper.tex", "--bib", "built.bbl"]);
    let out = stdout(&checked);
    // The .tex still names its (missing) .bib: that is reported, the keys resolve.
    assert!(
        out.contains("CP001") && out.contains("bibliography file not found"),
        "{out}"
    );
    assert!(!out.contains("CP101"), "{out}");
}

#[test]
fn archives_are_checked_as_projects() {
    let dir = tempfile::tempdir().unwrap();
    let tex = std::fs::read(demo("paper.tex")).unwrap();
    let bbl = std::fs::read(demo("paper.bbl")).unwrap();
    let readme = b"This is not a LaTeX file.".as_slice();
    zip_of(
        &dir.path().join("overleaf.zip"),
        &[
            ("paper.tex", &tex),
            ("paper.bbl", &bbl),
            ("README.txt", readme),
        ],
    );
    let main = b"\\documentclass{article}\\begin{document}\n\\input{sections/intro}\n\\bibliography{refs}\n\\end{document}\n";
    let intro = b"Attention changed translation \\cite{vaswani2017, missing2020}.\n";
    let bib = b"@article{vaswani2017, title={Attention Is All You Need}, author={Vaswani, A.}, journal={NeurIPS}, year={2017}}\n";
    tar_gz_of(
        &dir.path().join("2401.01234.tar.gz"),
        &[
            ("ms/main.tex", main.as_slice()),
            ("ms/sections/intro.tex", intro.as_slice()),
            ("ms/refs.bib", bib.as_slice()),
        ],
    );
    // An e-print saved without an extension is known by its bytes.
    std::fs::copy(
        dir.path().join("2401.01234.tar.gz"),
        dir.path().join("2401.01234"),
    )
    .unwrap();
    let extracted = json(&run(dir.path(), &["extract", "overleaf.zip"]));
    let doc = &extracted["documents"][0];
    assert_eq!(doc["root"], "overleaf.zip/paper.tex");
    assert_eq!(doc["references"].as_array().unwrap().len(), 9);
    for archive in ["2401.01234.tar.gz", "2401.01234"] {
        let found = json(&run(dir.path(), &["check", archive, "--format", "json"]));
        let found = found.as_array().unwrap();
        assert_eq!(found.len(), 1, "{archive}: {found:?}");
        assert_eq!(found[0]["code"], "CP101");
        assert_eq!(found[0]["key"], "missing2020");
        assert_eq!(
            found[0]["file"],
            format!("{archive}/ms/sections/intro.tex"),
            "{archive}"
        );
    }
}

#[test]
fn unreadable_inputs_are_cp001_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.md");
    std::fs::write(&good, "A claim [@missing].\n").unwrap();
    zip_of(
        &dir.path().join("evil.zip"),
        &[
            ("main.tex", b"\\documentclass{article}"),
            ("../../escape.tex", b"x"),
        ],
    );
    let word = std::fs::read(demo("paper.docx")).unwrap();
    std::fs::write(dir.path().join("truncated.docx"), &word[..word.len() / 3]).unwrap();
    let mut encrypted = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1".to_vec();
    encrypted.extend([0u8; 512]);
    std::fs::write(dir.path().join("locked.docx"), &encrypted).unwrap();
    std::fs::write(
        dir.path().join("broken.pdf"),
        b"%PDF-1.7\n garbage \x00\x01",
    )
    .unwrap();
    zip_of(&dir.path().join("empty.zip"), &[("notes.txt", b"nothing")]);
    let output = run(
        dir.path(),
        &[
            "check",
            "--format",
            "json",
            "evil.zip",
            "truncated.docx",
            "locked.docx",
            "broken.pdf",
            "empty.zip",
            "good.md",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let found = json(&output);
    let by_file = |file: &str| -> Vec<(String, String)> {
        found
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["file"] == file)
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_string(),
                    f["message"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let one = |file: &str, says: &str| {
        let found = by_file(file);
        assert_eq!(found.len(), 1, "{file}: {found:?}");
        assert_eq!(found[0].0, "CP001", "{file}");
        assert!(found[0].1.contains(file), "{file}: {}", found[0].1);
        assert!(found[0].1.contains(says), "{file}: {}", found[0].1);
    };
    one("evil.zip", "path traversal");
    one("truncated.docx", "zip");
    one("locked.docx", "encrypted");
    one("broken.pdf", "broken.pdf");
    one("empty.zip", "no LaTeX main file");
    // The Markdown file beside them was checked all the same.
    assert_eq!(by_file("good.md")[0].0, "CP101");
}
