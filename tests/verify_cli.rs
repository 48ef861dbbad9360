//! `citeproof verify` end to end: the real binary against the mock scholarly world
//! (tests/support) and, for the LLM backend, the mock model server (tests/support_llm).
//! The works are constructed here: a sleep-deprivation paper with an abstract and a
//! full text (served by Europe PMC as JATS) and an unrelated yellow-fever paper.

mod bin_support;
mod support;
mod support_llm;
mod support_model;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use support::{MockConfig, MockWorld, Source, Work};
use support_llm::Reply;
use support_llm::verify::{KEY_SENTENCE, SLEEP_ABSTRACT, SLEEP_TITLE, STAGE1, STAGE2};

const SLEEP_DOI: &str = "10.1038/s41598-023-00001-1";
const FEVER_DOI: &str = "10.1038/s41467-025-63038-5";
const MISSING_DOI: &str = "10.1038/s41598-099-99999-9";
const CLAIM: &str = "Five hours of sleep deprivation right after training reduced freezing \
                     in mice by 41%, impairing contextual fear memory consolidation.";

fn work(id: &str, doi: &str, title: &str, abstract_text: &str) -> Work {
    serde_json::from_value(serde_json::json!({
        "id": id, "doi": doi, "arxiv": null, "pmid": null, "pmcid": null, "s2": null,
        "openalex": null, "title": title, "authors": [{"given": "Hana", "family": "Kim"}],
        "year": 2023, "venue": "Scientific Reports", "type": "journal-article",
        "abstract": abstract_text, "is_retracted": false, "oa_url": null,
        "sources": ["crossref", "openalex", "semantic_scholar"]
    }))
    .expect("work")
}

fn world() -> MockWorld {
    let mut sleep = work("t-sleep", SLEEP_DOI, SLEEP_TITLE, SLEEP_ABSTRACT);
    sleep.pmid = Some("39000001".into());
    sleep.pmcid = Some("PMC9000001".into());
    sleep.full_text_file = Some("fixtures/verify/sleep_fulltext.md".into());
    let fever = work(
        "t-fever",
        FEVER_DOI,
        "A single residue in the yellow fever virus envelope protein modulates virion \
         architecture and antigenicity",
        "Yellow fever virus (YFV) is a re-emerging flavivirus that causes severe hepatic \
         disease and mortality in humans. Here we use a chimeric virus platform to resolve \
         the first high resolution cryo-EM structures of YFV and show that a single envelope \
         residue modulates virion morphology and antigenicity.",
    );
    MockWorld::start(MockConfig::works(vec![sleep, fever]))
}

/// The binary with the world's URLs, a fresh cache and no model configured from outside.
fn citeproof(world: &MockWorld, cache: &Path) -> Command {
    let mut cmd = bin_support::citeproof_in_world(world.env());
    cmd.env("CITEPROOF_CACHE_DIR", cache).env(
        "CITEPROOF_ARXIV_WEB_URL",
        format!("{}/arxiv-web", world.origin()),
    );
    cmd
}

fn input(dir: &Path, lines: &[String]) -> std::path::PathBuf {
    let path = dir.join("input.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    path
}

fn outputs(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("output line is JSON"))
        .collect()
}

fn line(id: &str, field: &str, value: &str) -> String {
    serde_json::json!({"id": id, "claim": CLAIM, field: value}).to_string()
}

const KEYS: [&str; 7] = [
    "evidence",
    "id",
    "label",
    "model",
    "passage",
    "rationale",
    "stage",
];

fn assert_schema(v: &Value) {
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, KEYS, "{v}");
    assert!(["abstract", "full_text"].contains(&v["stage"].as_str().unwrap()));
    if let Some(p) = v["passage"].as_object() {
        let mut pk: Vec<&str> = p.keys().map(String::as_str).collect();
        pk.sort_unstable();
        assert_eq!(pk, ["offset", "section", "source"]);
        assert!(p["offset"].is_u64());
    }
}

#[test]
fn identifier_and_reference_inputs_with_the_embedded_backend() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let path = input(
        dir.path(),
        &[
            line("own", "doi", &format!("https://doi.org/{SLEEP_DOI}")),
            line("swap", "doi", FEVER_DOI),
            line("missing", "doi", MISSING_DOI),
            line(
                "ref",
                "reference",
                &format!("Kim H. {SLEEP_TITLE}. Sci Rep 2023. doi:{SLEEP_DOI}"),
            ),
            "{\"id\": \"broken\", \"claim\": \"c\"}".to_string(),
            "not json at all".to_string(),
        ],
    );
    let out = citeproof(&world, &dir.path().join("cache"))
        .args(["verify", path.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "invalid lines give exit 2: {stderr}"
    );
    assert!(stderr.contains("input.jsonl:5:"), "{stderr}");
    assert!(stderr.contains("input.jsonl:6:"), "{stderr}");
    let got = outputs(&out);
    let ids: Vec<&str> = got.iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["own", "swap", "missing", "ref", "broken"]);
    for v in &got {
        assert_schema(v);
    }
    let by = |id: &str| got.iter().find(|v| v["id"] == id).unwrap();
    assert_eq!(by("own")["model"], "embedded-lexical");
    assert_ne!(by("own")["label"], "unrelated", "{}", by("own"));
    assert_eq!(by("swap")["label"], "unrelated", "{}", by("swap"));
    assert!(
        by("swap")["evidence"]
            .as_str()
            .unwrap()
            .contains("yellow fever")
    );
    assert_eq!(by("missing")["label"], "uncertain");
    assert!(
        by("missing")["rationale"]
            .as_str()
            .unwrap()
            .contains("not found"),
        "{}",
        by("missing")
    );
    assert_eq!(by("ref")["label"], by("own")["label"]);
    assert!(
        by("broken")["rationale"]
            .as_str()
            .unwrap()
            .contains("invalid input")
    );
    // The DOIs were looked up by the resolution cascade (Crossref first).
    assert!(world.request_count(Source::Crossref) >= 1);
}

#[test]
fn the_embedded_backend_reads_the_full_text_when_the_abstract_does_not_settle_it() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    // Only the discussion says this; the abstract is about the study in general.
    let claim = "The rescue by rolipram points to cAMP signalling as the mechanism.";
    let text = serde_json::json!({"id": "creb", "claim": claim, "doi": SLEEP_DOI}).to_string();
    let path = input(dir.path(), &[text]);
    let out = bin_support::succeeded(
        citeproof(&world, &dir.path().join("cache"))
            .args(["verify", path.to_str().unwrap(), "--scoring", "lexical"])
            .output()
            .unwrap(),
    );
    let v = &outputs(&out)[0];
    assert_schema(v);
    assert_eq!(v["stage"], "full_text", "{v}");
    assert_eq!(v["label"], "related", "{v}");
    let passage = &v["passage"];
    assert!(
        passage["source"]
            .as_str()
            .unwrap()
            .contains("PMC9000001/fullTextXML"),
        "{v}"
    );
    assert_eq!(passage["section"], "Discussion", "{v}");
    assert!(v["evidence"].as_str().unwrap().contains("rolipram"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_llm_backend_escalates_and_a_rerun_is_answered_from_the_cache() {
    let sources = world();
    let models = support_llm::World::start().await;
    models.script_for(
        Some(STAGE1),
        "Five hours",
        vec![Reply::verdict("NOT_ENOUGH_INFO", "")],
    );
    models.script_for(
        Some(STAGE2),
        "Five hours",
        vec![Reply::verdict("SUPPORTS", KEY_SENTENCE)],
    );
    let dir = tempfile::tempdir().unwrap();
    let path = input(dir.path(), &[line("q1", "doi", SLEEP_DOI)]);
    let cache = dir.path().join("cache");
    let run = |cmd: Command| {
        let mut cmd = cmd;
        tokio::task::spawn_blocking(move || cmd.output().unwrap())
    };
    let command = || {
        let mut cmd = citeproof(&sources, &cache);
        cmd.env("CITEPROOF_LLM_URL", models.llm_url())
            .env("CITEPROOF_LLM_MODEL", STAGE1)
            .env("CITEPROOF_LLM_STAGE2_MODEL", STAGE2)
            .args(["verify", path.to_str().unwrap()]);
        cmd
    };
    let first = run(command()).await.unwrap();
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{stderr}");
    let v = &outputs(&first)[0];
    assert_schema(v);
    assert_eq!(v["label"], "SUPPORTS", "{v}");
    assert_eq!(v["stage"], "full_text");
    assert_eq!(v["model"], STAGE2);
    assert_eq!(v["evidence"], KEY_SENTENCE);
    assert!(
        v["passage"]["source"]
            .as_str()
            .unwrap()
            .contains("fullTextXML")
    );
    assert_eq!(models.chat_count(), 2, "stage 1 then stage 2");
    assert!(stderr.contains("model usage: 2 requests"), "{stderr}");

    let second = run(command()).await.unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{stderr}");
    assert_eq!(&outputs(&second)[0], v, "the cached verdict is the same");
    assert_eq!(models.chat_count(), 2, "no model request on the rerun");
    assert!(stderr.contains("verdicts from cache: 1"), "{stderr}");
}

#[test]
fn the_embedded_backend_uses_the_sentence_model_when_one_is_configured() {
    let Some(model_dir) = support_model::model_dir() else {
        return;
    };
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let path = input(
        dir.path(),
        &[
            line("own", "doi", SLEEP_DOI),
            line("swap", "doi", FEVER_DOI),
        ],
    );
    let out = bin_support::succeeded(
        citeproof(&world, &dir.path().join("cache"))
            .args(["verify", path.to_str().unwrap(), "--embedding-model"])
            .arg(&model_dir)
            .output()
            .unwrap(),
    );
    let got = outputs(&out);
    let name = model_dir.canonicalize().unwrap();
    let name = name.file_name().unwrap().to_string_lossy();
    assert_eq!(got[0]["model"], format!("{name}+lexical"));
    assert_ne!(got[0]["label"], "unrelated", "{}", got[0]);
    assert_eq!(got[1]["label"], "unrelated", "{}", got[1]);
}

#[test]
fn a_model_without_a_server_is_a_usage_error() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let path = input(dir.path(), &[line("x", "doi", SLEEP_DOI)]);
    let out = citeproof(&world, &dir.path().join("cache"))
        .env("CITEPROOF_LLM_MODEL", "m")
        .args(["verify", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no server"));
    assert!(out.stdout.is_empty());
}
