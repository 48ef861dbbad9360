//! `citeproof check --verify` end to end: a Markdown manuscript with a BibTeX file,
//! resolved against the mock scholarly world (tests/support), verified with the mock
//! model server (tests/support_llm) or the embedded backend. Each claim is scripted to
//! end in one verification rule.

mod support;
mod support_llm;

use std::path::Path;
use std::process::Command;

use support::{MockConfig, MockWorld, Work};
use support_llm::Reply;
use support_llm::verify::{KEY_SENTENCE, SLEEP_ABSTRACT, SLEEP_TITLE, STAGE1, STAGE2};

const SLEEP_DOI: &str = "10.1038/s41598-023-00001-1";
const FEVER_DOI: &str = "10.1038/s41467-025-63038-5";
const FEVER_TITLE: &str = "A single residue in the yellow fever virus envelope protein \
                           modulates virion architecture and antigenicity";

const CONTRADICTED: &str = "Sleep loss after training improved contextual fear memory in adult mice";
const FULL_TEXT: &str = "Five hours of sleep deprivation right after training reduced freezing \
                         in mice by 41%";
const UNSUPPORTED: &str = "Sleep deprived mice also lost body weight over the following week";
const UNRELATED: &str = "Sleep deprivation after learning impairs contextual fear memory \
                         consolidation in adult mice";

fn world() -> MockWorld {
    let work = |id: &str, doi: &str, title: &str, abs: &str| -> Work {
        serde_json::from_value(serde_json::json!({
            "id": id, "doi": doi, "arxiv": null, "pmid": "39000001", "pmcid": "PMC9000001",
            "s2": null, "openalex": null, "title": title,
            "authors": [{"given": "Hana", "family": "Kim"}], "year": 2023,
            "venue": "Scientific Reports", "type": "journal-article", "abstract": abs,
            "is_retracted": false, "oa_url": null,
            "full_text_file": "fixtures/verify/sleep_fulltext.md",
            "sources": ["crossref", "openalex", "semantic_scholar"]
        }))
        .expect("work")
    };
    let mut fever = work(
        "t-fever",
        FEVER_DOI,
        FEVER_TITLE,
        "Yellow fever virus (YFV) is a re-emerging flavivirus that causes severe hepatic \
         disease and mortality in humans. Here we use a chimeric virus platform to resolve \
         the first high resolution cryo-EM structures of YFV and show that a single envelope \
         residue modulates virion morphology and antigenicity.",
    );
    (fever.pmid, fever.pmcid, fever.full_text_file) = (None, None, None);
    MockWorld::start(MockConfig::works(vec![
        work("t-sleep", SLEEP_DOI, SLEEP_TITLE, SLEEP_ABSTRACT),
        fever,
    ]))
}

fn manuscript(dir: &Path, claims: &[(&str, &str)]) -> (String, String) {
    let text: Vec<String> = claims
        .iter()
        .map(|(claim, key)| format!("{claim} [@{key}].\n"))
        .collect();
    std::fs::write(dir.join("paper.md"), text.join("\n")).unwrap();
    let bib = format!(
        "@article{{kim2023, title = {{{SLEEP_TITLE}}}, author = {{Kim, Hana}}, year = {{2023}},\n  \
         journal = {{Scientific Reports}}, doi = {{{SLEEP_DOI}}}}}\n\n\
         @article{{yfv2023, title = {{{FEVER_TITLE}}}, author = {{Kim, Hana}}, year = {{2023}},\n  \
         journal = {{Scientific Reports}}, doi = {{{FEVER_DOI}}}}}\n"
    );
    std::fs::write(dir.join("refs.bib"), bib).unwrap();
    (
        dir.join("paper.md").display().to_string(),
        dir.join("refs.bib").display().to_string(),
    )
}

fn check(world: &MockWorld, dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_citeproof"));
    for var in [
        "CITEPROOF_LLM_URL",
        "CITEPROOF_LLM_MODEL",
        "CITEPROOF_LLM_STAGE2_MODEL",
        "CITEPROOF_EMBEDDING_MODEL",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(world.env())
        .env("CITEPROOF_CACHE_DIR", dir.join("cache"))
        .env("NO_COLOR", "1");
    cmd
}

/// Rule codes in the text report, with the line each is on.
fn codes(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split(|c: char| !c.is_ascii_alphanumeric()).find(|w| w.starts_with("CP3")))
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn llm_verdicts_become_cp301_cp302_cp304_cp305() {
    let sources = world();
    let models = support_llm::World::start().await;
    let quote = "a single period of sleep deprivation after learning affects contextual fear memory";
    models.script_for(Some(STAGE1), "improved contextual", vec![Reply::verdict("CONTRADICTS", quote)]);
    models.script_for(Some(STAGE1), "reduced freezing", vec![Reply::verdict("NOT_ENOUGH_INFO", "")]);
    models.script_for(Some(STAGE2), "reduced freezing", vec![Reply::verdict("SUPPORTS", KEY_SENTENCE)]);
    models.script_for(Some(STAGE1), "body weight", vec![Reply::verdict("NOT_ENOUGH_INFO", "")]);
    models.script_for(Some(STAGE2), "body weight", vec![Reply::verdict("NOT_ENOUGH_INFO", "")]);
    models.script_for(None, "consolidation in adult", vec![Reply::Status(400, "bad request".into())]);
    let dir = tempfile::tempdir().unwrap();
    let (paper, bib) = manuscript(
        dir.path(),
        &[
            (CONTRADICTED, "kim2023"),
            (FULL_TEXT, "kim2023"),
            (UNSUPPORTED, "kim2023"),
            (UNRELATED, "yfv2023"),
        ],
    );
    let mut cmd = check(&sources, dir.path());
    cmd.env("CITEPROOF_LLM_URL", models.llm_url())
        .env("CITEPROOF_LLM_MODEL", STAGE1)
        .env("CITEPROOF_LLM_STAGE2_MODEL", STAGE2)
        .args(["check", "--verify", "--exit-zero", &paper, "--bib", &bib]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let mut found = codes(&stdout);
    found.sort();
    assert_eq!(found, ["CP301", "CP302", "CP304", "CP305"], "{stdout}\n{stderr}");
    assert!(stderr.contains("model usage:"), "{stderr}");
}

#[test]
fn the_embedded_backend_flags_the_unrelated_citation_as_cp303() {
    let sources = world();
    let dir = tempfile::tempdir().unwrap();
    let (paper, bib) = manuscript(dir.path(), &[(FULL_TEXT, "kim2023"), (UNRELATED, "yfv2023")]);
    let out = check(&sources, dir.path())
        .args(["check", "--verify", "--exit-zero", &paper, "--bib", &bib])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(codes(&stdout), ["CP303"], "{stdout}\n{stderr}");
    assert!(stdout.contains("yfv2023"), "{stdout}");
    assert!(stderr.contains("embedded backend"), "{stderr}");
}

#[test]
fn verify_needs_resolution() {
    let out = Command::new(env!("CARGO_BIN_EXE_citeproof"))
        .args(["check", "--verify", "--no-resolve", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
