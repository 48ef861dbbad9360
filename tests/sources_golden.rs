//! Every recorded API body in ../shared/data/api_responses goes through the parser of
//! the client that would receive it, with the status and content type it was recorded
//! with (index.jsonl), and must give the expected answer: found works with their exact
//! fields, not found, or a failure. Bodies from endpoints citeproof does not call go
//! through the parser of the nearest endpoint it does call and must fail rather than be
//! mistaken for a record. Our own bodies in fixtures/api are checked the same way.

mod golden;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use citeproof::model::Person;
use citeproof::net::HttpReply;
use citeproof::resolve::sources::{
    SourceError, arxiv, crossref, datacite, doi, europepmc, openalex, pubmed, s2, unpaywall,
};
use golden::{check_recorded, found, not_found};

fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/api_responses");
    dir.is_dir().then_some(dir)
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/api")
}

/// Status and content type per body file, from the index.jsonl files.
fn recorded_meta(dir: &Path) -> HashMap<String, (u16, Option<String>)> {
    let mut meta = HashMap::new();
    for sub in [
        "arxiv",
        "crossref",
        "doi_content_negotiation",
        "semanticscholar",
    ] {
        let index =
            std::fs::read_to_string(dir.join(sub).join("index.jsonl")).expect("index.jsonl");
        for line in index.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("index line");
            let Some(file) = v["file"].as_str() else {
                continue;
            };
            let status = match &v["status"] {
                serde_json::Value::Number(n) => n.as_u64().unwrap() as u16,
                serde_json::Value::String(s) => s.parse().unwrap(),
                other => panic!("status {other}"),
            };
            let ct = v["content_type"].as_str().map(str::to_string);
            meta.insert(format!("{sub}/{file}"), (status, ct));
        }
    }
    meta
}

fn reply_for(dir: &Path, rel: &str, meta: &HashMap<String, (u16, Option<String>)>) -> HttpReply {
    let body = std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let (status, ct) = meta.get(rel).cloned().unwrap_or((200, None));
    HttpReply::new(status, ct.as_deref(), body)
}

#[test]
fn every_recorded_body_parses_with_its_client() {
    let Some(dir) = shared_dir() else {
        eprintln!("skipping: recorded API bodies (../shared absent)");
        return;
    };
    let meta = recorded_meta(&dir);
    let mut missing = BTreeSet::new();
    let mut checked = 0;
    for sub in std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
    {
        for file in std::fs::read_dir(sub.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if name == "index.jsonl" {
                continue;
            }
            let rel = format!("{}/{name}", sub.file_name().to_string_lossy());
            let reply = reply_for(&dir, &rel, &meta);
            if check_recorded(&rel, &reply) {
                checked += 1;
            } else {
                missing.insert(rel);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "recorded bodies without an expectation: {missing:?}"
    );
    assert!(checked >= 90, "only {checked} bodies checked");
}

#[test]
fn index_statuses_are_the_ones_checked() {
    // The expectations above rely on the recorded statuses; make sure they are read.
    let Some(dir) = shared_dir() else {
        eprintln!("skipping: recorded API bodies (../shared absent)");
        return;
    };
    let meta = recorded_meta(&dir);
    assert_eq!(
        meta["crossref/works_notfound_10.1371_notarealdoi.txt"].0,
        404
    );
    assert_eq!(meta["arxiv/id_list_400_malformed_abc.xml"].0, 400);
    assert_eq!(meta["semanticscholar/paper_404_notfound.json"].0, 404);
}

fn fixture(rel: &str, status: u16) -> HttpReply {
    let body = std::fs::read(fixture_dir().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    HttpReply::new(status, Some("application/json"), body)
}

#[test]
fn datacite_fixture_bodies() {
    let rel = "datacite/dois_10.48550_arxiv.1706.03762.json";
    let w = found(rel, datacite::parse_doi(&fixture(rel, 200)));
    assert_eq!(w.title, "Attention Is All You Need");
    assert_eq!(w.doi.as_deref(), Some("10.48550/arxiv.1706.03762"));
    assert_eq!(w.arxiv.as_deref(), Some("1706.03762"));
    assert_eq!(w.authors[0], Person::new(Some("Ashish"), "Vaswani"));
    assert_eq!((w.year, w.venue.as_deref()), (Some(2017), Some("arXiv")));
    assert_eq!(w.work_type.as_deref(), Some("Preprint"));
    assert!(
        w.abstract_text
            .as_deref()
            .unwrap()
            .starts_with("Abbreviated abstract")
    );
    not_found(
        "datacite/dois_404.json",
        datacite::parse_doi(&fixture("datacite/dois_404.json", 404)),
    );
    let html = HttpReply::new(
        404,
        Some("text/html"),
        "<!DOCTYPE html><html><body>Not Found</body></html>",
    );
    assert!(matches!(
        datacite::parse_doi(&html),
        Err(SourceError::Status { status: 404, .. })
    ));
}

#[test]
fn unpaywall_fixture_bodies() {
    let rel = "unpaywall/v2_10.7717_peerj.4375.json";
    let w = found(rel, unpaywall::parse(&fixture(rel, 200)));
    assert_eq!(
        w.oa_url.as_deref(),
        Some("https://peerj.com/articles/4375.pdf")
    );
    assert_eq!(w.authors[2], Person::new(Some("Vincent"), "Larivière"));
    assert_eq!((w.year, w.venue.as_deref()), (Some(2018), Some("PeerJ")));
    not_found(
        "unpaywall/v2_404.json",
        unpaywall::parse(&fixture("unpaywall/v2_404.json", 404)),
    );
}

#[test]
fn crossref_retraction_fixture_bodies() {
    let rel = "crossref/works_10.5555_retracted.json";
    let w = found(rel, crossref::parse_work(&fixture(rel, 200)));
    assert!(w.is_retracted, "Retraction Watch updated-by");
    assert!(w.has_concern, "expression of concern");
    assert_eq!(w.doi.as_deref(), Some("10.5555/retracted-example"));
    assert_eq!(
        w.authors,
        vec![
            Person::new(Some("Ana"), "de la Cruz"),
            Person::new(None, "Example Consortium")
        ]
    );
    assert_eq!(
        w.url.as_deref(),
        Some("https://example.org/articles/retracted-example")
    );
    assert_eq!(
        w.abstract_text.as_deref(),
        Some("We report results that were later withdrawn.")
    );
    let rel = "crossref/works_filter_doi_notice.json";
    let works = crossref::parse_list(&fixture(rel, 200)).unwrap();
    assert!(
        works[0].is_retracted,
        "retracted by the notice in the same answer"
    );
    assert!(!works[1].is_retracted, "the notice itself is not retracted");
}

#[test]
fn openalex_list_fixture_body() {
    let rel = "openalex/works_filter_doi.json";
    let works = openalex::parse_list(&fixture(rel, 200)).unwrap();
    assert_eq!(works.len(), 2);
    assert_eq!(
        works[0].abstract_text.as_deref(),
        Some("Despite growing interest in Open Access")
    );
    assert_eq!(works[1].doi.as_deref(), Some("10.1088/1741-2552/ac4430"));
    assert!(works[1].is_retracted);
    assert_eq!(works[1].authors[0], Person::new(Some("F."), "Mattioli"));
    assert_eq!(
        works[1].venue.as_deref(),
        Some("Journal of Neural Engineering")
    );
}

#[test]
fn html_error_pages_with_status_200_are_failures_everywhere() {
    let page = HttpReply::new(
        200,
        Some("text/html"),
        "<!DOCTYPE html><html><body>Service Unavailable</body></html>",
    );
    assert!(matches!(
        crossref::parse_work(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        crossref::parse_list(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        openalex::parse_work(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        s2::parse_batch(&page, 1),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        arxiv::parse_feed(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        pubmed::parse_efetch(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        europepmc::parse_search(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        datacite::parse_doi(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        unpaywall::parse(&page),
        Err(SourceError::Malformed(_))
    ));
    // doi.org: a page instead of CSL-JSON means the DOI resolves without metadata.
    assert!(matches!(
        doi::parse_csl(&page),
        Err(SourceError::NoMetadata { .. })
    ));
}

#[test]
fn truncated_bodies_are_failures() {
    let Some(dir) = shared_dir() else {
        eprintln!("skipping: recorded API bodies (../shared absent)");
        return;
    };
    let cut = |rel: &str| {
        let body = std::fs::read(dir.join(rel)).unwrap();
        HttpReply::new(200, None, body[..body.len() / 2].to_vec())
    };
    assert!(matches!(
        crossref::parse_work(&cut("crossref/works_10.1038_srep16696.json")),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        arxiv::parse_feed(&cut("arxiv/id_list_1605.08386.xml")),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        pubmed::parse_efetch(&cut(
            "pubmed_eutils/efetch_pubmed_xml_pmids_12091962_9997.xml"
        )),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        s2::parse_batch(&cut("semanticscholar/paper_batch_authors.json"), 3),
        Err(SourceError::Malformed(_))
    ));
}
