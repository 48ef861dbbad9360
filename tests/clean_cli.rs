//! `citeproof clean` run as the real binary: against the request's sources (closed
//! world), against the mock scholarly world (open world), with faults injected, and
//! with bad input.

mod bin_support;
mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use support::{FaultKind, FaultRule, MockConfig, MockWorld, Source, Trigger};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/clean")
        .join(name)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `citeproof clean ARGS`, local only (no resolution, no inherited variables).
fn clean_local(args: &[&str]) -> Output {
    let mut command = bin_support::citeproof();
    command.arg("clean").args(args);
    command.output().unwrap()
}

/// `citeproof clean ARGS` resolving against `world`, with a cache of its own.
fn clean_in_world(world: &MockWorld, cache: &Path, args: &[&str]) -> Output {
    let mut command = bin_support::citeproof_in_world(world.env());
    command
        .arg("clean")
        .args(args)
        .arg("--cache-dir")
        .arg(cache);
    command.output().unwrap()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", text(&output.stdout), text(&output.stderr)))
}

/// `(marker, number, status, action)` of every report entry.
fn decisions(report: &Value) -> Vec<(String, Option<u64>, String, String)> {
    report["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["marker"].as_str().unwrap().to_string(),
                c["number"].as_u64(),
                c["status"].as_str().unwrap().to_string(),
                c["action"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn status_of(report: &Value, number: u64) -> String {
    report["citations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["number"].as_u64() == Some(number))
        .map(|c| c["status"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

fn answer() -> String {
    std::fs::read_to_string(fixture("answer.md")).unwrap()
}

#[test]
fn closed_world_cleans_against_the_sources() {
    let answer_path = fixture("answer.md");
    let sources = fixture("sources.jsonl");
    let out = clean_local(&[
        answer_path.to_str().unwrap(),
        "--sources",
        sources.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    insta::assert_snapshot!("closed_cleaned", v["cleaned"].as_str().unwrap());
    insta::assert_json_snapshot!("closed_report", v["report"]);
    let report = &v["report"];
    assert_eq!(status_of(report, 3), "not_found");
    assert_eq!(status_of(report, 4), "retracted");
    assert_eq!(status_of(report, 5), "mismatch");
    assert_eq!(status_of(report, 7), "not_found");
    // Every entry has exactly the fields of the issue.
    let fields: Vec<&str> = report["citations"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = [
        "marker",
        "number",
        "line",
        "column",
        "span",
        "identifier",
        "status",
        "similarity",
        "action",
        "new_number",
        "reason",
        "record",
        // The judge's evidence for this occurrence (issue 33).
        "evidence",
    ];
    expected.sort_unstable();
    let mut got = fields.clone();
    got.sort_unstable();
    assert_eq!(got, expected);
    // The look-alikes in code and after `=` are untouched.
    let cleaned = v["cleaned"].as_str().unwrap();
    assert!(
        cleaned.contains("`cohorts[2]`, and x = cohorts[2] stays"),
        "{cleaned}"
    );
}

#[test]
fn standard_input_in_the_answer_out_and_the_report_in_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let report_path = dir.path().join("report.json");
    let mut command = bin_support::citeproof();
    let mut child = command
        .args(["clean", "-", "--sources"])
        .arg(fixture("sources.jsonl"))
        .arg("--report")
        .arg(&report_path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answer().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json_run = clean_local(&[
        fixture("answer.md").to_str().unwrap(),
        "--sources",
        fixture("sources.jsonl").to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v = json(&json_run);
    assert_eq!(text(&out.stdout), v["cleaned"].as_str().unwrap());
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    assert_eq!(report, v["report"]);
    assert!(
        text(&out.stderr).contains("removed"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn fail_on_decides_the_exit_code() {
    let args = |fail_on: &str| {
        clean_local(&[
            fixture("answer.md").to_str().unwrap(),
            "--sources",
            fixture("sources.jsonl").to_str().unwrap(),
            "--fail-on",
            fail_on,
        ])
        .status
        .code()
    };
    assert_eq!(args("removed"), Some(1));
    assert_eq!(args("marked"), Some(1));
    assert_eq!(args("unverified"), Some(0));
    assert_eq!(args("none"), Some(0));
    assert_eq!(args("sometimes"), Some(2));
}

#[test]
fn policy_flags_change_the_actions() {
    let out = clean_local(&[
        fixture("answer.md").to_str().unwrap(),
        "--sources",
        fixture("sources.jsonl").to_str().unwrap(),
        "--not-found",
        "mark",
        "--mismatch",
        "keep",
        "--retracted",
        "remove",
        "--mark-note",
        "",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    let d = decisions(&v["report"]);
    let action = |n: u64| d.iter().find(|e| e.1 == Some(n)).unwrap().3.clone();
    assert_eq!(action(3), "marked");
    assert_eq!(action(4), "removed");
    assert_eq!(action(5), "kept");
    let cleaned = v["cleaned"].as_str().unwrap();
    assert!(cleaned.contains("pancreatic cancer [3†]."), "{cleaned}");
    assert!(
        !cleaned.contains("EEG-based brain-computer interface"),
        "{cleaned}"
    );
}

#[test]
fn bad_input_is_a_usage_error_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let bad_sources = dir.path().join("sources.jsonl");
    std::fs::write(&bad_sources, "{\"title\": \"One\"}\n{\"title\": \n").unwrap();
    let answer = fixture("answer.md");
    let out = clean_local(&[
        answer.to_str().unwrap(),
        "--sources",
        bad_sources.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("line 2") && err.contains("sources.jsonl"),
        "{err}"
    );

    let out = clean_local(&[answer.to_str().unwrap(), "--mismatch", "delete"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("delete"),
        "{}",
        text(&out.stderr)
    );

    let out = clean_local(&[answer.to_str().unwrap(), "--threshold", "1.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("between 0 and 1"),
        "{}",
        text(&out.stderr)
    );

    let out = clean_local(&[dir.path().join("missing.md").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("missing.md"),
        "{}",
        text(&out.stderr)
    );

    let binary = dir.path().join("binary.md");
    std::fs::write(&binary, [0x41, 0xff, 0xfe, 0x42]).unwrap();
    let out = clean_local(&[binary.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not UTF-8"),
        "{}",
        text(&out.stderr)
    );

    let config = dir.path().join("citeproof.toml");
    std::fs::write(&config, "[clean]\ntreshold = 0.3\n").unwrap();
    let out = clean_local(&[
        answer.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("treshold"),
        "{}",
        text(&out.stderr)
    );

    // The cosine metric needs a sentence model; without one that is said plainly.
    let out = clean_local(&[answer.to_str().unwrap(), "--preset", "microtrait"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sentence model"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn configuration_sets_the_policy_and_config_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("answer.md"), dir.path().join("answer.md")).unwrap();
    std::fs::write(
        dir.path().join("citeproof.toml"),
        "[clean]\nnot-found = \"keep\"\nfail-on = \"marked\"\n",
    )
    .unwrap();
    let mut command = bin_support::citeproof();
    let out = command
        .current_dir(dir.path())
        .args(["clean", "answer.md", "--sources"])
        .arg(fixture("sources.jsonl"))
        .output()
        .unwrap();
    // The retracted citation is marked, which the configuration fails on.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("cures pancreatic cancer [3]."));
    let mut command = bin_support::citeproof();
    let shown = command
        .current_dir(dir.path())
        .arg("config")
        .output()
        .unwrap();
    let shown = text(&shown.stdout);
    assert!(shown.contains("clean.not-found = \"keep\""), "{shown}");
    assert!(shown.contains("clean.mismatch = \"remove\""), "{shown}");
}

#[test]
fn open_world_resolves_against_the_mock_world() {
    let world = MockWorld::start(MockConfig::fixtures());
    let cache = tempfile::tempdir().unwrap();
    let out = clean_in_world(
        &world,
        cache.path(),
        &[fixture("answer.md").to_str().unwrap(), "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    let report = &v["report"];
    assert_eq!(report["summary"]["world"], "open");
    assert_eq!(status_of(report, 1), "valid");
    assert_eq!(status_of(report, 2), "valid");
    assert_eq!(status_of(report, 3), "not_found");
    assert_eq!(status_of(report, 4), "retracted");
    assert_eq!(status_of(report, 5), "mismatch");
    assert_eq!(status_of(report, 7), "not_found");
    assert!(world.total_requests() > 0);
    insta::assert_snapshot!("open_cleaned", v["cleaned"].as_str().unwrap());
}

#[test]
fn failing_sources_remove_nothing() {
    let config = MockConfig::fixtures().every_source_failing();
    let world = MockWorld::start(config);
    let cache = tempfile::tempdir().unwrap();
    let out = clean_in_world(
        &world,
        cache.path(),
        &[
            fixture("answer.md").to_str().unwrap(),
            "--format",
            "json",
            "--retries",
            "0",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    for (marker, number, status, action) in decisions(&v["report"]) {
        if number == Some(7) {
            // An orphan names no reference: no source is needed to know that.
            assert_eq!((status.as_str(), action.as_str()), ("not_found", "removed"));
        } else {
            assert_eq!(
                (status.as_str(), action.as_str()),
                ("unverified", "kept"),
                "{marker}"
            );
        }
    }
    assert_eq!(
        v["cleaned"].as_str().unwrap(),
        answer().replace(" [7]", ""),
        "only the orphan goes"
    );
}

#[test]
fn timeouts_remove_nothing_and_the_run_finishes() {
    let mut config = MockConfig::fixtures();
    for source in Source::ALL.into_iter().filter(|s| *s != Source::Landing) {
        config = config.fault(source, FaultRule::new(Trigger::Always, FaultKind::Timeout));
    }
    let world = MockWorld::start(config);
    let cache = tempfile::tempdir().unwrap();
    let out = clean_in_world(
        &world,
        cache.path(),
        &[
            fixture("answer.md").to_str().unwrap(),
            "--timeout",
            "0.3",
            "--retries",
            "0",
            "--fail-on",
            "removed",
        ],
    );
    // The orphan is removed (exit 1 as asked); nothing else is.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), answer().replace(" [7]", ""));
}

#[test]
fn a_separate_reference_list_is_written_back() {
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("body.md");
    let refs = dir.path().join("refs.txt");
    let refs_out = dir.path().join("refs.cleaned.txt");
    let full = answer();
    let (text_part, list) = full.split_once("\nReferences:\n").unwrap();
    std::fs::write(&body, text_part).unwrap();
    std::fs::write(&refs, list).unwrap();
    let out = clean_local(&[
        body.to_str().unwrap(),
        "--references",
        refs.to_str().unwrap(),
        "--references-output",
        refs_out.to_str().unwrap(),
        "--sources",
        fixture("sources.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&refs_out).unwrap();
    assert!(written.starts_with("[1] Bao Y"), "{written}");
    assert!(!written.contains("Green tea"), "{written}");
    assert!(!text(&out.stdout).contains("[7]"));
}

/// Runs only where a local sentence model is installed (CI installs one).
#[test]
fn the_microtrait_preset_with_a_sentence_model() {
    let Some(dir) = std::env::var_os("CITEPROOF_EMBEDDING_MODEL") else {
        eprintln!("skipped: CITEPROOF_EMBEDDING_MODEL is not set (no local sentence model)");
        return;
    };
    let out = clean_local(&[
        fixture("answer.md").to_str().unwrap(),
        "--sources",
        fixture("sources.jsonl").to_str().unwrap(),
        "--preset",
        "microtrait",
        "--embedding-model",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    let summary = &v["report"]["summary"];
    assert!(
        summary["alignment"]
            .as_str()
            .unwrap()
            .starts_with("cosine:")
    );
    assert_eq!(summary["threshold"], 0.6);
    for c in v["report"]["citations"].as_array().unwrap() {
        if let Some(s) = c["similarity"].as_f64() {
            assert!((0.0..=1.0).contains(&s), "{c}");
        }
    }
    assert_eq!(status_of(&v["report"], 3), "not_found");
    // Cosine of a whole window of text ranks the off-topic source lowest.
    let sim = |n: u64| {
        v["report"]["citations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["number"].as_u64() == Some(n))
            .and_then(|c| c["similarity"].as_f64())
            .unwrap()
    };
    assert!(sim(5) < sim(1), "{} {}", sim(5), sim(1));
    let _ = Command::new("true");
}
