//! `check` and `extract` on a PDF, as the real binary: the same manuscript checked from
//! its `.tex` + `.bib` and from the PDF that LaTeX made of them gives the same
//! resolution findings against the mock scholarly world (fixtures/pdf/manuscript; the
//! PDF is made by `scripts/pdf-bench.sh OUT --fixtures`).

mod bin_support;
mod support;

use serde_json::{Value, json};
use support::{MockConfig, MockWorld, Work};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pdf/manuscript");

fn work(
    id: &str,
    doi: &str,
    title: &str,
    authors: &[(&str, &str)],
    year: i32,
    venue: &str,
) -> Work {
    let authors: Vec<Value> = authors
        .iter()
        .map(|(g, f)| json!({"given": g, "family": f}))
        .collect();
    serde_json::from_value(json!({
        "id": id, "doi": doi, "arxiv": null, "pmid": null, "pmcid": null, "s2": null,
        "openalex": null, "dblp": null, "title": title, "authors": authors, "year": year,
        "venue": venue, "type": "journal-article", "abstract": null, "is_retracted": false,
        "oa_url": null, "full_text_file": null,
        "sources": ["crossref", "openalex", "semantic_scholar"]
    }))
    .expect("work")
}

fn world() -> MockWorld {
    MockWorld::start(MockConfig::works(vec![
        work(
            "w-attention",
            "10.5555/3295222.3295349",
            "Attention Is All You Need",
            &[
                ("Ashish", "Vaswani"),
                ("Noam", "Shazeer"),
                ("Niki", "Parmar"),
                ("Jakob", "Uszkoreit"),
            ],
            2017,
            "Advances in Neural Information Processing Systems",
        ),
        work(
            "w-resnet",
            "10.1109/cvpr.2016.90",
            "Deep Residual Learning for Image Recognition",
            &[
                ("Kaiming", "He"),
                ("Xiangyu", "Zhang"),
                ("Shaoqing", "Ren"),
                ("Jian", "Sun"),
            ],
            2016,
            "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition",
        ),
        work(
            "w-deep",
            "10.1038/nature14539",
            "Deep learning",
            &[
                ("Yann", "LeCun"),
                ("Yoshua", "Bengio"),
                ("Geoffrey", "Hinton"),
            ],
            2015,
            "Nature",
        ),
    ]))
}

/// The resolution findings (CP2xx) of `check FILE`: code and the cited work's title
/// as the report names it, sorted. `missing-doi` (CP212) is left out: it offers to add
/// a DOI field to a `.bib` entry, and a PDF's reference list has no entry to edit.
fn resolution_findings(world: &MockWorld, file: &str) -> Vec<(String, String)> {
    let cache = tempfile::tempdir().unwrap();
    let out = bin_support::citeproof_in_world(world.env())
        .env("CITEPROOF_CACHE_DIR", cache.path())
        .current_dir(DIR)
        .args(["check", "--format", "json", "--exit-zero", file])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let found: Vec<Value> = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    let mut findings: Vec<(String, String)> = found
        .iter()
        .filter(|f| {
            f["code"]
                .as_str()
                .is_some_and(|c| c.starts_with("CP2") && c != "CP212")
        })
        .map(|f| {
            let title = f["record"]["title"]
                .as_str()
                .unwrap_or("(no record)")
                .to_string();
            (f["code"].as_str().unwrap().to_string(), title)
        })
        .collect();
    findings.sort();
    findings
}

#[test]
fn the_pdf_gives_the_findings_of_its_sources() {
    let world = world();
    let from_tex = resolution_findings(&world, "main.tex");
    let from_pdf = resolution_findings(&world, "main.pdf");
    // The year of LeCun et al. is wrong in refs.bib, and the fourth work does not exist.
    let codes: Vec<&str> = from_tex.iter().map(|(c, _)| c.as_str()).collect();
    assert!(
        codes.contains(&"CP209") && codes.contains(&"CP201"),
        "{from_tex:?}"
    );
    assert_eq!(from_pdf, from_tex);
}

#[test]
fn check_on_a_pdf_names_pages_and_lines() {
    let world = world();
    let cache = tempfile::tempdir().unwrap();
    let out = bin_support::citeproof_in_world(world.env())
        .env("CITEPROOF_CACHE_DIR", cache.path())
        .env("NO_COLOR", "1")
        .current_dir(DIR)
        .args(["check", "main.pdf"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // A fabricated reference is an error: the exit policy holds for PDFs too.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("CP201"), "{stdout}");
    assert!(stdout.contains("page 1, line"), "{stdout}");
}

#[test]
fn extract_on_a_pdf_prints_the_common_schema() {
    let out = bin_support::citeproof()
        .env("CITEPROOF_NO_RESOLVE", "1")
        .current_dir(DIR)
        .args(["extract", "main.pdf"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let doc = &json["documents"][0];
    let titles: Vec<&str> = doc["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["title"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        titles,
        [
            "Attention is all you need",
            "Deep residual learning for image recognition",
            "Deep learning",
            "A unified theory of hallucinated citations in scholarly corpora"
        ]
    );
    let citations = doc["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 4);
    assert!(
        citations
            .iter()
            .all(|c| !c["reference"].is_null() && c["location"]["page"] == 1)
    );
    assert!(
        doc["references"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["raw"].as_str().is_some_and(|s| !s.is_empty()))
    );
}
