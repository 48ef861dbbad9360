//! `citeproof check` and `extract` on papers named by identifier, against the mock
//! world's arXiv and OpenReview web sites: an arXiv id gets its e-print (a source
//! bundle opened as an archive, or a PDF), a DOI the e-print of its arXiv version,
//! an OpenReview forum its PDF; what cannot be fetched is a CP001 naming the
//! identifier and why, and the run goes on.

mod bin_support;
mod support;

use std::process::Output;

use support::{MockConfig, MockWorld, Source};

fn run(world: &MockWorld, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    bin_support::citeproof_in_world(world.env())
        .current_dir(dir.path())
        .env("CITEPROOF_CACHE_DIR", dir.path().join("cache"))
        .env("CITEPROOF_NO_RESOLVE", "1")
        .args(args)
        .output()
        .expect("run citeproof")
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn an_arxiv_id_is_checked_from_its_source_bundle() {
    let world = MockWorld::start(MockConfig::fixtures());
    for input in ["arXiv:2106.03010", "https://arxiv.org/abs/2106.03010v2"] {
        let out = json(&run(&world, &["extract", input]));
        let doc = &out["documents"][0];
        assert_eq!(doc["root"], "arXiv-2106.03010.gz/demo/paper.tex", "{input}");
        assert_eq!(
            doc["files"][1], "arXiv-2106.03010.gz/demo/paper.bbl",
            "the .bbl stands in for the .bib"
        );
        assert_eq!(doc["references"].as_array().unwrap().len(), 9);
        assert_eq!(doc["citations"].as_array().unwrap().len(), 9);
    }
    let asked: Vec<String> = world
        .requests(Source::ArxivWeb)
        .iter()
        .map(|r| r.path_and_query.clone())
        .collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked.iter().all(|p| p.ends_with("/e-print/2106.03010")),
        "{asked:?}"
    );
}

#[test]
fn a_doi_is_fetched_through_its_arxiv_version() {
    let world = MockWorld::start(MockConfig::fixtures());
    let out = json(&run(&world, &["extract", "doi:10.1109/lra.2021.3062602"]));
    assert_eq!(
        out["documents"][0]["root"],
        "arXiv-2106.03010.gz/demo/paper.tex"
    );
    assert!(world.request_count(Source::S2) >= 1);
}

#[test]
fn pdf_only_papers_and_openreview_forums_come_as_pdfs() {
    let world = MockWorld::start(MockConfig::fixtures());
    for (input, file) in [
        ("arXiv:2302.00539", "arXiv-2302.00539.pdf"),
        (
            "https://openreview.net/forum?id=DemoPaper01",
            "openreview-DemoPaper01.pdf",
        ),
    ] {
        let output = run(&world, &["extract", input]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        // The fetched PDF is read as a file of that name (checked, or reported as
        // unreadable by a build without a PDF reader), never as a missing path.
        assert!(stdout.contains(&format!("\"{file}\"")), "{input}: {stdout}");
        assert!(!stdout.contains("no such file"), "{input}: {stdout}");
    }
    assert_eq!(world.request_count(Source::OpenReviewWeb), 1);
}

#[test]
fn what_cannot_be_fetched_is_cp001_and_the_run_goes_on() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.md");
    std::fs::write(&good, "A claim [@missing].\n").unwrap();
    let output = run(
        &world,
        &[
            "check",
            "--format",
            "json",
            "arXiv:2401.99999",
            good.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let found = json(&output);
    let found = found.as_array().unwrap();
    let missing = found
        .iter()
        .find(|f| f["file"] == "arXiv:2401.99999")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(missing["code"], "CP001");
    let message = missing["message"].as_str().unwrap();
    assert!(message.contains("could not be fetched"), "{message}");
    assert!(
        message.contains("/e-print/2401.99999: HTTP 404"),
        "{message}"
    );
    assert!(message.contains("/pdf/2401.99999: HTTP 404"), "{message}");
    assert!(found.iter().any(|f| f["code"] == "CP101"), "{found:?}");
    // Offline, nothing is asked.
    world.clear_requests();
    let output = run(
        &world,
        &["check", "--offline", "--format", "json", "arXiv:2106.03010"],
    );
    let found = json(&output);
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("the run is offline"),
        "{found}"
    );
    assert_eq!(world.request_count(Source::ArxivWeb), 0);
}
