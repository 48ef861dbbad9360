//! `check --verify`: its library entry point, `verify_project`, on a project built
//! directly, and the real binary on Markdown fixtures (fixtures/verify/check), with
//! the mock scholarly world (tests/support) serving abstracts and full texts and the
//! mock model server (tests/support_llm) or the embedded backend judging. Each claim is
//! scripted to end in one verification rule.

mod bin_support;
mod support;
mod support_llm;

use citeproof::check::verify_project;
use citeproof::document::Document;
use citeproof::load::Project;
use citeproof::model::{Citation, CitationKind, Claim, FileId, Span};
use citeproof::resolve::sources::{Sources, SourcesSettings};
use citeproof::verify::backend::{Backend, VerifySettings};
use citeproof::verify::escalate::VerifyConfig;
use citeproof::verify::fulltext::FullTextConfig;
use support::{MockConfig, MockWorld, Work};
use support_llm::Reply;
use support_llm::verify::{KEY_SENTENCE, SLEEP_ABSTRACT, SLEEP_TITLE, STAGE1, STAGE2};

const SLEEP_DOI: &str = "10.1038/s41598-023-00001-1";
const FEVER_DOI: &str = "10.1038/s41467-025-63038-5";
const FEVER_TITLE: &str = "A single residue in the yellow fever virus envelope protein \
                           modulates virion architecture and antigenicity";

const CONTRADICTED: &str =
    "Sleep loss after training improved contextual fear memory in adult mice";
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

/// A project with one document whose claims each cite one work (by index into the
/// works `verify_project` is given); built directly until the Markdown and LaTeX
/// parsers land.
fn project(claims: &[(&str, usize)]) -> Project {
    let mut doc = Document::default();
    let mut at = 0;
    for (i, (text, work)) in claims.iter().enumerate() {
        let span = Span::new(at, at + text.len());
        at += text.len() + 1;
        doc.claims.push(Claim {
            file: FileId::default(),
            span,
            text: (*text).to_string(),
        });
        doc.citations.push(Citation {
            key: format!("ref{work}"),
            kind: CitationKind::Key,
            file: FileId::default(),
            span: Span::new(span.end - 1, span.end),
            group_span: Span::new(span.end - 1, span.end),
            command: None,
            id: None,
            narrative: false,
            claim: Some(i),
            reference: Some(*work),
        });
    }
    Project {
        documents: vec![doc],
        ..Project::default()
    }
}

/// The two works as the cascade would have resolved them.
fn resolved() -> Vec<citeproof::model::Work> {
    vec![
        citeproof::model::Work {
            source: "crossref".into(),
            title: SLEEP_TITLE.into(),
            doi: Some(SLEEP_DOI.into()),
            pmid: Some("39000001".into()),
            pmcid: Some("PMC9000001".into()),
            year: Some(2023),
            abstract_text: Some(SLEEP_ABSTRACT.into()),
            ..Default::default()
        },
        citeproof::model::Work {
            source: "crossref".into(),
            title: FEVER_TITLE.into(),
            doi: Some(FEVER_DOI.into()),
            year: Some(2023),
            ..Default::default()
        },
    ]
}

fn settings(world: &MockWorld) -> (SourcesSettings, VerifySettings) {
    let env: std::collections::HashMap<String, String> = world.env().into_iter().collect();
    let sources = SourcesSettings::from_env_with(|k| env.get(k).cloned()).unwrap();
    let fulltext = FullTextConfig::for_sources(&sources, &format!("{}/arxiv-web", world.origin()));
    (sources, VerifySettings::new(fulltext))
}

async fn rules(
    world: &MockWorld,
    settings: VerifySettings,
    sources: &SourcesSettings,
    claims: &[(&str, usize)],
) -> Vec<&'static str> {
    let net = support_llm::net();
    let backend = Backend::build(&net, &settings, Some(Sources::new(&net, sources)), None).unwrap();
    let project = project(claims);
    let works = resolved();
    let found = verify_project(&project, |_, r| works.get(r), &backend).await;
    let _ = world;
    let mut codes: Vec<&'static str> = found.iter().map(|d| d.rule.code).collect();
    codes.sort_unstable();
    codes
}

#[tokio::test(flavor = "multi_thread")]
async fn llm_verdicts_become_cp301_cp302_cp304_cp305() {
    let sources_world = world();
    let models = support_llm::World::start().await;
    let quote =
        "a single period of sleep deprivation after learning affects contextual fear memory";
    models.script_for(
        Some(STAGE1),
        "improved contextual",
        vec![Reply::verdict("CONTRADICTS", quote)],
    );
    models.script_for(
        Some(STAGE1),
        "reduced freezing",
        vec![Reply::verdict("NOT_ENOUGH_INFO", "")],
    );
    models.script_for(
        Some(STAGE2),
        "reduced freezing",
        vec![Reply::verdict("SUPPORTS", KEY_SENTENCE)],
    );
    models.script_for(
        Some(STAGE1),
        "body weight",
        vec![Reply::verdict("NOT_ENOUGH_INFO", "")],
    );
    models.script_for(
        Some(STAGE2),
        "body weight",
        vec![Reply::verdict("NOT_ENOUGH_INFO", "")],
    );
    models.script_for(
        None,
        "consolidation in adult",
        vec![Reply::Status(400, "bad request".into())],
    );
    let (sources, mut settings) = settings(&sources_world);
    let mut llm = VerifyConfig::new(models.model(STAGE1));
    llm.stage2 = Some(models.model(STAGE2));
    settings.llm = Some(llm);
    let found = rules(
        &sources_world,
        settings,
        &sources,
        &[
            (CONTRADICTED, 0),
            (FULL_TEXT, 0),
            (UNSUPPORTED, 0),
            (UNRELATED, 1),
        ],
    )
    .await;
    assert_eq!(found, ["CP301", "CP302", "CP304", "CP305"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_embedded_backend_flags_the_unrelated_citation_as_cp303() {
    let sources_world = world();
    let (sources, settings) = settings(&sources_world);
    let found = rules(
        &sources_world,
        settings,
        &sources,
        &[(FULL_TEXT, 0), (UNRELATED, 1)],
    )
    .await;
    assert_eq!(found, ["CP303"]);
}

/// `project(claims)` with a reference list (`ref0`, `ref1`, …), so that each claim's
/// document has other cited works to compare it with.
fn project_with_references(claims: &[(&str, usize)], references: usize) -> Project {
    let mut project = project(claims);
    project.documents[0].references = (0..references)
        .map(|i| citeproof::model::Reference {
            key: format!("ref{i}"),
            origin: citeproof::model::ReferenceOrigin::ReferenceList,
            entry_type: None,
            file: FileId::default(),
            span: Span::new(1000 + i * 10, 1005 + i * 10),
            key_span: None,
            raw: format!("ref{i}"),
            fields: Default::default(),
            field_spans: Vec::new(),
        })
        .collect();
    project
}

#[tokio::test(flavor = "multi_thread")]
async fn a_claim_another_cited_work_holds_names_that_work_and_a_right_one_stays_unflagged() {
    let sources_world = world();
    let (sources, mut settings) = settings(&sources_world);
    // The abstract settles these claims: keep the full text out of the comparison.
    settings.full_text = false;
    let net = support_llm::net();
    let backend =
        Backend::build(&net, &settings, Some(Sources::new(&net, &sources)), None).unwrap();
    let works = resolved();
    // The unrelated claim cites the fever paper; the sleep paper, cited elsewhere in
    // the document, is its rival.
    let claims = [(UNRELATED, 1), (FULL_TEXT, 0)];
    let listed = project_with_references(&claims, 2);
    let found = verify_project(&listed, |_, r| works.get(r), &backend).await;
    let messages: Vec<(&str, &str)> = found
        .iter()
        .map(|d| (d.rule.code, d.message.as_str()))
        .collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(messages[0].0, "CP303");
    assert!(
        messages[0].1.contains(&format!(
            "the claim matches `ref0` (\"{SLEEP_TITLE}\") better"
        )),
        "{messages:?}"
    );
    // Without the reference list there are no rivals, and none is named.
    let alone = verify_project(&project(&claims), |_, r| works.get(r), &backend).await;
    assert_eq!(alone.len(), 1);
    assert!(!alone[0].message.contains("better"), "{}", alone[0].message);
}

#[test]
fn verify_needs_resolution() {
    let out = bin_support::citeproof()
        .args(["check", "--verify", "--no-resolve", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The `check --verify` fixtures (fixtures/verify/check).
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/verify/check");

/// What `citeproof check --verify --format json FILE` found: each finding's code and
/// line, sorted, and stderr.
struct Checked {
    findings: Vec<(String, u64)>,
    stderr: String,
}

/// Run `check --verify` on a fixture with the sources at `world`, a fresh cache and
/// the extra variables `env` (the model server, when one is used). Blocking: call it
/// through `spawn_blocking` when a mock model server runs on the test's runtime.
fn check_verify(
    world_env: Vec<(String, String)>,
    file: &str,
    env: Vec<(String, String)>,
) -> Checked {
    let cache = tempfile::tempdir().unwrap();
    let out = bin_support::citeproof_in_world(world_env)
        .env("CITEPROOF_CACHE_DIR", cache.path())
        .envs(env)
        .current_dir(FIXTURES)
        .args(["check", "--verify", "--format", "json", "--exit-zero", file])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let found: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    let mut findings: Vec<(String, u64)> = found
        .iter()
        .map(|f| {
            assert_eq!(f["file"], file, "{f}");
            (
                f["code"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect();
    findings.sort();
    Checked { findings, stderr }
}

#[tokio::test(flavor = "multi_thread")]
async fn check_verify_on_a_markdown_paper_reports_cp301_cp302_cp304_cp305() {
    let sources_world = world();
    let models = support_llm::World::start().await;
    let quote =
        "a single period of sleep deprivation after learning affects contextual fear memory";
    models.script_for(
        Some(STAGE1),
        "improved contextual",
        vec![Reply::verdict("CONTRADICTS", quote)],
    );
    for (stage2, needle) in [
        ("SUPPORTS", "reduced freezing"),
        ("NOT_ENOUGH_INFO", "body weight"),
    ] {
        models.script_for(
            Some(STAGE1),
            needle,
            vec![Reply::verdict("NOT_ENOUGH_INFO", "")],
        );
        let evidence = if stage2 == "SUPPORTS" {
            KEY_SENTENCE
        } else {
            ""
        };
        models.script_for(Some(STAGE2), needle, vec![Reply::verdict(stage2, evidence)]);
    }
    models.script_for(
        None,
        "consolidation in adult",
        vec![Reply::Status(400, "bad request".into())],
    );
    let env = vec![
        ("CITEPROOF_LLM_URL".to_string(), models.llm_url()),
        ("CITEPROOF_LLM_MODEL".to_string(), STAGE1.to_string()),
        ("CITEPROOF_LLM_STAGE2_MODEL".to_string(), STAGE2.to_string()),
    ];
    let world_env = sources_world.env();
    let run = tokio::task::spawn_blocking(move || check_verify(world_env, "paper.md", env))
        .await
        .unwrap();
    let expected: Vec<(String, u64)> = [("CP301", 8), ("CP302", 12), ("CP304", 10), ("CP305", 14)]
        .iter()
        .map(|(c, l)| (c.to_string(), *l))
        .collect();
    assert_eq!(run.findings, expected, "{}", run.stderr);
    assert!(
        run.stderr.contains("2 references: 2 verified"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("verified 4 claim"), "{}", run.stderr);
    assert!(run.stderr.contains("model usage:"), "{}", run.stderr);
    assert!(
        sources_world.request_count(support::Source::EuropePmc) > 0,
        "the full text was fetched for the claims the abstract did not settle"
    );
}

#[test]
fn check_verify_with_the_embedded_backend_reports_the_unrelated_citation_as_cp303() {
    let sources_world = world();
    let run = check_verify(sources_world.env(), "embedded.md", Vec::new());
    assert_eq!(run.findings, [("CP303".to_string(), 10)], "{}", run.stderr);
    assert!(run.stderr.contains("embedded backend"), "{}", run.stderr);
}

#[test]
fn a_configuration_file_turns_verification_on_and_points_the_sources() {
    let sources_world = world();
    let dir = tempfile::tempdir().unwrap();
    for name in ["embedded.md", "refs.bib"] {
        std::fs::copy(
            std::path::Path::new(FIXTURES).join(name),
            dir.path().join(name),
        )
        .unwrap();
    }
    let mut config =
        String::from("[verify]\nenabled = true\nembedded = true\n[cache]\ndir = \"cache\"\n");
    for (var, url) in sources_world.env() {
        let name = var
            .trim_start_matches("CITEPROOF_")
            .trim_end_matches("_URL")
            .to_ascii_lowercase();
        // arXiv's and OpenReview's web sites are `[verify]` keys, not sources.
        if name.ends_with("_web") {
            continue;
        }
        config.push_str(&format!(
            "[sources.{name}]\nurl = \"{url}\"\nrate-limit = \"1000/s\"\ntimeout = \"5s\"\nretries = 1\n"
        ));
    }
    std::fs::write(dir.path().join("citeproof.toml"), config).unwrap();
    let mut command = std::process::Command::new(bin_support::BIN);
    let out = bin_support::isolate(&mut command)
        .current_dir(dir.path())
        .args(["check", "--format", "json", "--exit-zero", "embedded.md"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let found: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = found.iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["CP303"], "{stderr}");
    assert!(
        sources_world.request_count(support::Source::Crossref) > 0,
        "the configured base URL was used"
    );
    assert!(dir.path().join("cache").is_dir(), "the configured cache");

    // The same folder with `--no-verify`: resolution only.
    let mut command = std::process::Command::new(bin_support::BIN);
    let out = bin_support::isolate(&mut command)
        .current_dir(dir.path())
        .args(["check", "--format", "json", "--no-verify", "embedded.md"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[]");
}
