//! The venue policy in the language server: with `policy` in `citeproof.toml` or in
//! the editor's settings, every diagnostic carries its class under that policy (in
//! `data` and in the message), the same class `check --policy` writes.

mod bin_support;
mod lsp_support;
mod support;

use std::path::{Path, PathBuf};

use citeproof::lsp::Ending;
use lsp_support::{Client, in_world, uri};
use serde_json::{Value, json};
use support::{MockConfig, MockWorld, Work};

/// One entry with the wrong year (an error to report), one with a DOI no source has
/// (hallucinated).
const PAPER: &str = "---\nbibliography: refs.bib\n---\nDeep nets help [@smith2020]. \
                     So do shallow ones [@ghost2021].\n";
const BIB: &str = "@article{smith2020, title={Deep nets for everything}, author={Smith, Jane}, \
                   journal={Journal of Nets}, year={2020}, doi={10.5555/deep.nets}}\n\
                   @article{ghost2021, title={Shallow nets for nothing}, author={Ghost, Gus}, \
                   journal={Journal of Nets}, year={2021}, doi={10.5555/missing.one}}\n";

fn world() -> MockWorld {
    let work: Work = serde_json::from_value(json!({
        "id": "t-deep", "doi": "10.5555/deep.nets", "arxiv": null, "pmid": null,
        "pmcid": null, "s2": null, "openalex": null, "title": "Deep nets for everything",
        "authors": [{"given": "Jane", "family": "Smith"}], "year": 2019,
        "venue": "Journal of Nets", "type": "journal-article", "abstract": null,
        "is_retracted": false, "oa_url": null,
        "sources": ["crossref", "openalex", "semantic_scholar"]
    }))
    .unwrap();
    MockWorld::start(MockConfig::works(vec![work]))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The bibliography's diagnostics once both resolution findings have arrived.
fn resolved(client: &mut Client, bib: &Path) -> Vec<Value> {
    let found = client.diagnostics_where(&uri(bib), |c| {
        c.contains(&"CP201".to_string()) && c.contains(&"CP209".to_string())
    });
    found["diagnostics"].as_array().unwrap().clone()
}

fn by_code<'a>(diagnostics: &'a [Value], code: &str) -> &'a Value {
    diagnostics
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {diagnostics:?}"))
}

fn open_and_resolve(root: &Path, options: Value) -> (Client, Vec<Value>) {
    let paper = write(root, "paper.md", PAPER);
    let bib = write(root, "refs.bib", BIB);
    let mut client = Client::start_in(root, json!({}), options);
    client.open(&uri(&paper), "markdown", 1, PAPER);
    let diagnostics = resolved(&mut client, &bib);
    (client, diagnostics)
}

#[test]
fn a_policy_in_the_configuration_file_classifies_every_diagnostic() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "citeproof.toml", "policy = \"iclr-2026\"\n");
    let (client, diagnostics) = open_and_resolve(dir.path(), in_world(world.env(), None));
    let missing = by_code(&diagnostics, "CP201");
    assert_eq!(missing["data"]["policy_class"], "hallucinated", "{missing}");
    assert_eq!(missing["data"]["policy"], "iclr-2026", "{missing}");
    let message = missing["message"].as_str().unwrap();
    assert!(message.contains("iclr-2026: hallucinated"), "{message}");
    let wrong_year = by_code(&diagnostics, "CP209");
    assert_eq!(
        wrong_year["data"]["policy_class"], "error-to-report",
        "{wrong_year}"
    );
    assert!(
        wrong_year["message"]
            .as_str()
            .unwrap()
            .contains("iclr-2026: error-to-report"),
        "{wrong_year}"
    );
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn a_policy_in_the_settings_classifies_and_without_one_nothing_is_added() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let mut options = in_world(world.env(), None);
    options["citeproof"]["policy"] = json!("neurips-2026");
    let (client, diagnostics) = open_and_resolve(dir.path(), options);
    let missing = by_code(&diagnostics, "CP201");
    assert_eq!(missing["data"]["policy_class"], "hallucinated", "{missing}");
    assert_eq!(missing["data"]["policy"], "neurips-2026", "{missing}");
    assert_eq!(client.shutdown(), Ending::Clean);

    // The same document without a policy: no class anywhere.
    let plain = tempfile::tempdir().unwrap();
    let (client, diagnostics) = open_and_resolve(plain.path(), in_world(world.env(), None));
    for d in &diagnostics {
        assert!(d["data"].get("policy_class").is_none(), "{d}");
        assert!(
            !d["message"].as_str().unwrap().contains("hallucinated"),
            "{d}"
        );
    }
    assert_eq!(client.shutdown(), Ending::Clean);
}

#[test]
fn an_unknown_policy_in_the_settings_is_reported_not_ignored() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let paper = write(dir.path(), "paper.md", PAPER);
    write(dir.path(), "refs.bib", BIB);
    let mut options = in_world(world.env(), None);
    options["citeproof"]["policy"] = json!("no-such-venue");
    let mut client = Client::start_in(dir.path(), json!({}), options);
    client.open(&uri(&paper), "markdown", 1, PAPER);
    let shown = client.notification("window/showMessage", |p| {
        p["message"]
            .as_str()
            .is_some_and(|m| m.contains("no-such-venue"))
    });
    assert_eq!(shown["type"], 1, "an error: {shown}");
    assert_eq!(client.shutdown(), Ending::Clean);
}
