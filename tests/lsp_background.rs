//! The language server's background runs, against the mock scholarly world
//! (tests/support): resolution findings arrive after the local ones, with
//! `$/progress`; a run for an old version is never published as such; the cache is
//! the CLI's, so a server opened after `citeproof check` shows its verdicts at once,
//! offline; `resolve: "off"` sends no request; `verify: true` verifies claims.

mod bin_support;
mod lsp_support;
mod support;
mod support_llm;

use std::path::{Path, PathBuf};

use citeproof::lsp::Ending;
use lsp_support::{Client, codes, in_world, uri};
use serde_json::{Value, json};
use support::{Latency, MockConfig, MockWorld, Work};

const DEEP_DOI: &str = "10.5555/deep.nets";
const PAPER: &str = "---\nbibliography: refs.bib\n---\nDeep nets help [@smith2020].\n";
/// The entry cites the right work with the wrong year (the record says 2019).
const BIB: &str = "@article{smith2020, title={Deep nets for everything}, author={Smith, Jane}, \
                   journal={Journal of Nets}, year={2020}, doi={10.5555/deep.nets}}\n";

fn work(id: &str, doi: &str, title: &str, year: i32, abstract_text: Option<&str>) -> Work {
    serde_json::from_value(json!({
        "id": id, "doi": doi, "arxiv": null, "pmid": null, "pmcid": null, "s2": null,
        "openalex": null, "title": title,
        "authors": [{"given": "Jane", "family": "Smith"}], "year": year,
        "venue": "Journal of Nets", "type": "journal-article", "abstract": abstract_text,
        "is_retracted": false, "oa_url": null,
        "sources": ["crossref", "openalex", "semantic_scholar"]
    }))
    .unwrap()
}

fn world(latency_ms: u64) -> MockWorld {
    MockWorld::start(
        MockConfig::works(vec![work(
            "t-deep",
            DEEP_DOI,
            "Deep nets for everything",
            2019,
            None,
        )])
        .latency_all(Latency::fixed_ms(latency_ms)),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn progress_caps() -> Value {
    json!({"window": {"workDoneProgress": true}})
}

/// Wait for the `$/progress` end of a background run.
fn progress_end(client: &mut Client) -> Value {
    client.notification("$/progress", |p| p["value"]["kind"] == "end")
}

#[test]
fn resolution_findings_arrive_after_the_local_ones_with_progress() {
    let world = world(0);
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", PAPER);
    let bib = write(dir.path(), "refs.bib", BIB);
    let mut client = Client::start(progress_caps(), in_world(world.env(), None));
    client.open(&uri(&paper), "markdown", 1, PAPER);
    let local = client.diagnostics(&uri(&paper));
    assert_eq!(local["version"], 1);
    assert!(codes(&local).is_empty(), "{local}");
    // The background run: a progress token, begin, end, then the wrong year on
    // the entry.
    let created = client.server_request("window/workDoneProgress/create");
    let token = created.params["token"].clone();
    let begin = client.notification("$/progress", |p| p["value"]["kind"] == "begin");
    assert_eq!(begin["token"], token);
    let end = progress_end(&mut client);
    assert_eq!(end["token"], token);
    assert!(
        end["value"]["message"]
            .as_str()
            .unwrap()
            .contains("1 miscited"),
        "{end}"
    );
    let resolved = client.diagnostics_where(&uri(&bib), |c| c.contains(&"CP209".to_string()));
    let wrong_year = &resolved["diagnostics"][0];
    assert!(
        wrong_year["message"].as_str().unwrap().contains("2019"),
        "{resolved}"
    );
    assert!(world.total_requests() > 0);
    // Hover on the citation now shows what the background run learned.
    let at = PAPER.find("smith2020").unwrap();
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&paper)},
               "position": {"line": 3, "character": at - PAPER[..at].rfind('\n').unwrap() - 1}}),
    );
    let value = hover.response_result.unwrap()["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    for part in ["**Miscited**", "2019", "10.5555/deep.nets"] {
        assert!(value.contains(part), "`{part}` in {value}");
    }
    assert!(!value.contains("Not looked up"), "{value}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

/// A document whose only reference is an identifier no source has: likely
/// fabricated (CP201).
const MISSING: &str = "Deep nets help [@doi:10.5555/missing.one].\n";

#[test]
fn a_run_for_an_old_version_is_applied_to_the_current_text_only_where_unchanged() {
    let world = world(800);
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", MISSING);
    let paper_uri = uri(&paper);
    let mut client = Client::start(progress_caps(), in_world(world.env(), None));
    client.open(&paper_uri, "markdown", 1, MISSING);
    client.diagnostics(&paper_uri);
    // Version 2 before the run (of version 1) ends: two lines above the citation.
    let shifted = format!("Intro.\n\n{MISSING}");
    client.replace(&paper_uri, 2, &shifted);
    progress_end(&mut client);
    let found = client.diagnostics_where(&paper_uri, |c| c.contains(&"CP201".to_string()));
    assert_eq!(found["version"], 2, "{found}");
    assert_eq!(
        found["diagnostics"][0]["range"]["start"]["line"], 2,
        "{found}"
    );
    client.roundtrip();
    for publish in client.take_notifications("textDocument/publishDiagnostics") {
        assert_ne!(
            publish["version"], 1,
            "nothing for version 1 after version 2: {publish}"
        );
    }
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_run_for_an_old_version_says_nothing_about_an_edited_reference() {
    let world = world(800);
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", MISSING);
    let paper_uri = uri(&paper);
    let mut client = Client::start(progress_caps(), in_world(world.env(), None));
    client.open(&paper_uri, "markdown", 1, MISSING);
    client.diagnostics(&paper_uri);
    // The identifier is corrected before the run about the old one ends.
    let fixed = format!("Deep nets help [@doi:{DEEP_DOI}].\n");
    client.replace(&paper_uri, 2, &fixed);
    progress_end(&mut client);
    client.roundtrip();
    let published = client.take_notifications("textDocument/publishDiagnostics");
    assert!(
        published
            .iter()
            .all(|p| !codes(p).contains(&"CP201".into())),
        "the old identifier's verdict is not shown on the new one: {published:?}"
    );
    // Saving resolves the new text: the identifier is found.
    client.save(&paper_uri);
    let end = progress_end(&mut client);
    assert!(
        end["value"]["message"]
            .as_str()
            .unwrap()
            .contains("1 verified"),
        "{end}"
    );
    client.roundtrip();
    let published = client.take_notifications("textDocument/publishDiagnostics");
    assert!(
        published
            .iter()
            .all(|p| !codes(p).contains(&"CP201".into()))
    );
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_server_opened_after_a_cli_run_shows_its_verdicts_offline() {
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", PAPER);
    let bib = write(dir.path(), "refs.bib", BIB);
    let cache = dir.path().join("cache");
    let world = world(0);
    let world_env = world.env();
    let out = bin_support::citeproof_in_world(world_env.clone())
        .env("CITEPROOF_CACHE_DIR", &cache)
        .args(["check", "--format", "json", "--exit-zero"])
        .arg(&paper)
        .output()
        .unwrap();
    let cli: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(cli.iter().any(|d| d["code"] == "CP209"), "{cli:?}");
    // The world goes away: only the cache can tell the server anything.
    world.shutdown();
    let offline = |cache: &Path| {
        let mut options = in_world(world_env.clone(), Some(cache));
        options["citeproof"]["env"]["CITEPROOF_OFFLINE"] = json!("1");
        Client::start(progress_caps(), options)
    };
    let mut client = offline(&cache);
    client.open(&uri(&paper), "markdown", 1, PAPER);
    progress_end(&mut client);
    let resolved = client.diagnostics_where(&uri(&bib), |c| c.contains(&"CP209".to_string()));
    assert_eq!(codes(&resolved), ["CP209"]);
    assert_eq!(client.shutdown(), Ending::Clean);
    // The same with an empty cache: nothing is known, the reference is unverified.
    let empty = dir.path().join("empty-cache");
    let mut client = offline(&empty);
    client.open(&uri(&paper), "markdown", 1, PAPER);
    progress_end(&mut client);
    let unknown = client.diagnostics_where(&uri(&bib), |c| !c.is_empty());
    assert_eq!(codes(&unknown), ["CP211"], "{unknown}");
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn resolution_off_checks_locally_and_asks_no_source() {
    let world = world(0);
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", PAPER);
    write(dir.path(), "refs.bib", BIB);
    let mut options = in_world(world.env(), None);
    options["citeproof"]["resolve"] = json!("off");
    let mut client = Client::start(progress_caps(), options);
    client.open(&uri(&paper), "markdown", 1, PAPER);
    client.diagnostics(&uri(&paper));
    client.save(&uri(&paper));
    client.roundtrip();
    assert!(client.take_notifications("$/progress").is_empty());
    assert!(client.server_requests.is_empty());
    assert_eq!(world.total_requests(), 0);
    // Turned on by the client's settings: the run starts.
    let cache = tempfile::tempdir().unwrap();
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": in_world(world.env(), Some(cache.path()))}),
    );
    progress_end(&mut client);
    assert!(world.total_requests() > 0);
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn claims_are_verified_in_the_background_when_asked() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/verify/check");
    let world = MockWorld::start(MockConfig::works(vec![
        work(
            "t-sleep",
            "10.1038/s41598-023-00001-1",
            support_llm::verify::SLEEP_TITLE,
            2023,
            Some(support_llm::verify::SLEEP_ABSTRACT),
        ),
        work(
            "t-fever",
            "10.1038/s41467-025-63038-5",
            "A single residue in the yellow fever virus envelope protein modulates virion \
             architecture and antigenicity",
            2023,
            Some(
                "Yellow fever virus (YFV) is a re-emerging flavivirus that causes severe \
                 hepatic disease and mortality in humans. Here we use a chimeric virus \
                 platform to resolve the first high resolution cryo-EM structures of YFV and \
                 show that a single envelope residue modulates virion morphology and \
                 antigenicity.",
            ),
        ),
    ]));
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixtures.join("embedded.md")).unwrap();
    let paper = write(dir.path(), "embedded.md", &text);
    std::fs::copy(fixtures.join("refs.bib"), dir.path().join("refs.bib")).unwrap();
    let mut options = in_world(world.env(), None);
    options["citeproof"]["verify"] = json!(true);
    let mut client = Client::start(progress_caps(), options);
    client.open(&uri(&paper), "markdown", 1, &text);
    progress_end(&mut client);
    let verified = client.diagnostics_where(&uri(&paper), |c| c.contains(&"CP303".to_string()));
    let unrelated: Vec<&Value> = verified["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "CP303")
        .collect();
    assert_eq!(unrelated.len(), 1, "{verified}");
    assert_eq!(unrelated[0]["range"]["start"]["line"], 9, "{verified}");
    assert_eq!(client.shutdown(), Ending::Clean);
}
