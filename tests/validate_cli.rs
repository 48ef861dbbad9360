//! `citeproof validate-sources` as the real binary against the mock scholarly world:
//! identifiers that resolve, that name nothing, that were retracted, and that could
//! not be checked because the sources failed; the filter; the configuration.

mod serve_support;
mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

use serde_json::{Value, json};

use serve_support::{isolated, local_env, world_env};
use support::{MockConfig, MockWorld, Source};

const QUERY: &str = "How could machines become conscious?";

fn articles() -> Vec<Value> {
    vec![
        json!({"doi": "10.1073/pnas.2205971119", "title": "A blueprint for conscious machines",
               "abstract": "Consciousness remains a mysterious and controversial topic; a blueprint for conscious machines.",
               "journal": "Proc Natl Acad Sci U S A", "year": 2022, "citation_count": 40,
               "is_peer_reviewed": true, "retrieval_rank": 1}),
        json!({"doi": "10.9999/fake.2021.1", "title": "Machine consciousness made easy",
               "abstract": "Conscious machines are easy to build.", "journal": "Journal of Everything",
               "year": 2024, "citation_count": 900, "is_peer_reviewed": true}),
        json!({"doi": "10.1088/1741-2552/ac4430",
               "title": "A 1D CNN for high accuracy classification and transfer learning in motor imagery EEG-based brain-computer interface",
               "journal": "Journal of Neural Engineering", "year": 2021, "citation_count": 30}),
        json!({"title": "Sleep and exercise in older adults", "abstract": "Exercise improves sleep.",
               "journal": "Sleep", "year": 2005, "citation_count": 3}),
    ]
}

fn jsonl(values: &[Value]) -> String {
    values.iter().map(|v| v.to_string() + "\n").collect()
}

fn run(dir: &Path, env: &[(String, String)], args: &[&str], stdin: &str) -> Output {
    let mut child = isolated(dir)
        .envs(env.iter().cloned())
        .arg("validate-sources")
        .args(["--query", QUERY, "--current-year", "2025"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Every article of a `--format json` report, kept or filtered, by input position.
fn by_index(report: &Value) -> Vec<Value> {
    let mut all: Vec<Value> = report["articles"]
        .as_array()
        .unwrap()
        .iter()
        .chain(report["filtered"].as_array().unwrap())
        .cloned()
        .collect();
    all.sort_by_key(|a| a["validation"]["index"].as_u64().unwrap());
    all
}

#[test]
fn identifiers_are_resolved_and_bad_ones_filtered() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let env = world_env(world.env());
    let out = run(
        dir.path(),
        &env,
        &["--format", "json", "-"],
        &jsonl(&articles()),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = json_of(&out);
    let all = by_index(&report);
    let label = |i: usize| all[i]["confidence_label"].as_str().unwrap().to_string();
    let access = |i: usize| {
        all[i]["validation"]["identifier"]["status"]
            .as_str()
            .unwrap()
            .to_string()
    };

    assert_eq!(access(0), "resolved", "{:#}", all[0]);
    assert_eq!(
        all[0]["validation"]["components"]["reputation"]["score"], 0.9,
        "PNAS is in a tier"
    );
    assert_eq!(all[0]["retrieval_rank"], 1);
    assert!(
        matches!(label(0).as_str(), "high" | "medium"),
        "{:#}",
        all[0]
    );

    assert_eq!(access(1), "not_found", "{:#}", all[1]);
    assert_eq!(label(1), "invalid_id");
    assert_eq!(all[1]["validation_score"], 0.0);
    assert!(
        all[1]["validation"]["identifier"]["explanation"]
            .as_str()
            .unwrap()
            .contains("does not resolve")
    );

    assert_eq!(access(2), "retracted", "{:#}", all[2]);
    assert_eq!(label(2), "invalid_id");

    assert_eq!(access(3), "no_identifier");
    assert_eq!(
        label(3),
        "low",
        "old, barely cited, off the query: {:#}",
        all[3]
    );

    let kept: Vec<u64> = report["articles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["validation"]["index"].as_u64().unwrap())
        .collect();
    assert_eq!(kept, [0]);
    assert_eq!(report["summary"]["invalid_id"], 2);
    assert_eq!(report["summary"]["filtered"], 3);
    for article in &all {
        for part in ["recency", "reputation", "citations", "relevance"] {
            let c = &article["validation"]["components"][part];
            assert!(
                c["explanation"].as_str().is_some_and(|e| !e.is_empty()),
                "{part}: {c}"
            );
        }
    }

    // JSON Lines: the kept articles only; --keep-all keeps every one.
    let out = run(dir.path(), &env, &["-"], &jsonl(&articles()));
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["doi"], "10.1073/pnas.2205971119");
    let out = run(dir.path(), &env, &["--keep-all", "-"], &jsonl(&articles()));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
}

#[test]
fn a_failed_source_leaves_the_article_unknown_and_kept() {
    let world = MockWorld::start(MockConfig::fixtures());
    for source in Source::ALL {
        world.set_down(source, true);
    }
    let dir = tempfile::tempdir().unwrap();
    let input = jsonl(&articles()[..2]);
    let out = run(
        dir.path(),
        &world_env(world.env()),
        &["--format", "json", "-"],
        &input,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = json_of(&out);
    let all = by_index(&report);
    for article in &all {
        assert_eq!(article["confidence_label"], "unknown", "{article:#}");
        assert_eq!(article["validation"]["identifier"]["status"], "unverified");
        assert_eq!(
            article["validation"]["kept"], true,
            "a network failure never drops an article"
        );
    }
    assert_eq!(report["articles"].as_array().unwrap().len(), 2);
}

#[test]
fn without_resolution_identifiers_are_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let array = Value::Array(articles()).to_string();
    let out = run(
        dir.path(),
        &local_env(),
        &["--format", "json", "--keep-all", "-"],
        &array,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all = by_index(&json_of(&out));
    assert_eq!(all[1]["validation"]["identifier"]["status"], "not_checked");
    assert_ne!(all[1]["confidence_label"], "invalid_id");
    assert_eq!(
        all[3]["validation"]["identifier"]["status"],
        "no_identifier"
    );
}

#[test]
fn the_configuration_sets_weights_tiers_and_thresholds() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("citeproof.toml"),
        "[validate]\nmin-score = 0.1\njournals = [{ name = \"Sleep\", score = 1.0 }]\n\
         [validate.weights]\nrecency = 0\ncitations = 0\nrelevance = 0\n",
    )
    .unwrap();
    let out = run(
        dir.path(),
        &local_env(),
        &["--format", "json", "-"],
        &jsonl(&articles()[3..]),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = json_of(&out);
    let article = &report["articles"][0];
    assert_eq!(
        article["validation_score"], 1.0,
        "only reputation counts: {article:#}"
    );
    assert_eq!(article["confidence_label"], "high");
    assert_eq!(
        article["validation"]["components"]["reputation"]["weight"],
        1.0
    );

    std::fs::write(
        dir.path().join("citeproof.toml"),
        "[validate]\nminscore = 0.1\n",
    )
    .unwrap();
    let out = run(dir.path(), &local_env(), &["-"], &jsonl(&articles()[3..]));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("minscore"), "{stderr}");

    std::fs::remove_file(dir.path().join("citeproof.toml")).unwrap();
    let out = run(
        dir.path(),
        &local_env(),
        &["-"],
        "{\"title\": \"ok\"}\nnot json\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
}
