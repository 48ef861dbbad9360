//! The cache (warm reruns, `cache stats`, `cache clear`), `--offline`, and local corpora.

use crate::helpers::{
    citeproof, line, refs, resolve_jsonl, resolve_text, write_jsonl, write_lines,
};
use crate::support::{MockConfig, MockWorld};

#[test]
fn a_warm_rerun_makes_no_upstream_request() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let input = write_jsonl(
        dir.path(),
        &[
            ("resnet", refs::RESNET_DOI),
            ("conscious", refs::CONSCIOUS_TITLE),
            ("turing", refs::TURING_TITLE),
            ("fake", refs::FABRICATED),
            ("fake_doi", refs::FABRICATED_DOI),
            ("retracted", refs::RETRACTED_DOI),
            ("arxiv", refs::ARXIV_DOI),
        ],
    );
    let args = [
        "resolve",
        input.to_str().unwrap(),
        "--format",
        "jsonl",
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let cold = citeproof(Some(&world), &args);
    assert!(world.total_requests() > 0);
    world.clear_requests();
    let warm = citeproof(Some(&world), &args);
    assert_eq!(world.total_requests(), 0, "the warm rerun asked upstream");
    assert_eq!(warm.stdout, cold.stdout);
    assert_eq!(
        cold.statuses(),
        [
            "verified",
            "verified",
            "verified",
            "not_found",
            "not_found",
            "retracted",
            "verified"
        ]
    );
}

#[test]
fn cache_stats_and_clear() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let input = write_jsonl(
        dir.path(),
        &[("resnet", refs::RESNET_DOI), ("fake", refs::FABRICATED)],
    );
    let cache_arg = cache.to_str().unwrap();
    citeproof(
        Some(&world),
        &["resolve", input.to_str().unwrap(), "--cache-dir", cache_arg],
    );
    let stats = citeproof(
        None,
        &["cache", "stats", "--json", "--cache-dir", cache_arg],
    );
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    let v: serde_json::Value = serde_json::from_str(&stats.stdout).unwrap();
    let entries = |v: &serde_json::Value, ns: &str| {
        v["namespaces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["namespace"] == ns)
            .map_or(0, |n| n["entries"].as_u64().unwrap())
    };
    assert!(entries(&v, "crossref") >= 2, "{v}");
    assert!(entries(&v, "s2") >= 1, "{v}");
    let cleared = citeproof(
        None,
        &[
            "cache",
            "clear",
            "--source",
            "crossref",
            "--cache-dir",
            cache_arg,
        ],
    );
    assert!(cleared.stdout.starts_with("removed "), "{}", cleared.stdout);
    let v: serde_json::Value = serde_json::from_str(
        &citeproof(
            None,
            &["cache", "stats", "--json", "--cache-dir", cache_arg],
        )
        .stdout,
    )
    .unwrap();
    assert_eq!(entries(&v, "crossref"), 0);
    assert!(entries(&v, "s2") >= 1);
    let text = citeproof(None, &["cache", "stats", "--cache-dir", cache_arg]);
    assert!(text.stdout.contains(cache_arg), "{}", text.stdout);
}

/// Two works of the fixture world in the world schema, the second retracted.
const CORPUS_JSONL: &[&str] = &[
    r#"{"id": "w001382", "doi": "10.1109/cvpr.2016.90", "title": "Deep Residual Learning for Image Recognition", "authors": [{"given": "Kaiming", "family": "He"}, {"given": "Xiangyu", "family": "Zhang"}, {"given": "Shaoqing", "family": "Ren"}, {"given": "Jian", "family": "Sun"}], "year": 2016, "venue": "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)", "is_retracted": false}"#,
    r#"{"id": "w003788", "doi": "10.1088/1741-2552/ac4430", "title": "RETRACTED: A 1D CNN for high accuracy classification and transfer learning in motor imagery EEG-based brain-computer interface", "authors": [{"given": "F.", "family": "Mattioli"}, {"given": "Camillo", "family": "Porcaro"}, {"given": "Gianluca", "family": "Baldassarre"}], "year": 2021, "venue": "Journal of Neural Engineering", "is_retracted": true}"#,
];

#[test]
fn offline_uses_only_the_cache_and_the_corpora() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_lines(dir.path(), "corpus.jsonl", CORPUS_JSONL);
    let input = write_jsonl(
        dir.path(),
        &[
            ("resnet", refs::RESNET_DOI),
            ("retracted", refs::RETRACTED_DOI),
            ("fake", refs::FABRICATED),
            ("conscious", refs::CONSCIOUS_TITLE),
        ],
    );
    // No world at all: any request would fail, and offline none is made.
    let bare = resolve_jsonl(None, &input, &["--offline"]);
    assert_eq!(bare.statuses(), vec!["unverified"; 4], "{}", bare.stdout);
    let text = resolve_text(None, &input, &["--offline"]);
    assert!(text.stdout.contains("4 unverified"), "{}", text.stdout);
    let corpus = corpus.to_str().unwrap();
    let with_corpus = resolve_jsonl(None, &input, &["--offline", "--corpus", corpus]);
    let lines = with_corpus.lines();
    assert_eq!(line(&lines, "resnet")["status"], "verified");
    assert_eq!(line(&lines, "resnet")["match"]["source"], "corpus");
    assert_eq!(line(&lines, "retracted")["status"], "retracted");
    // Not in an ordinary corpus: unknown, not fabricated.
    assert_eq!(line(&lines, "fake")["status"], "unverified");
    let complete = resolve_jsonl(None, &input, &["--corpus", corpus, "--corpus-complete"]);
    let lines = complete.lines();
    assert_eq!(line(&lines, "fake")["status"], "not_found");
    assert_eq!(line(&lines, "conscious")["status"], "not_found");
    assert_eq!(line(&lines, "resnet")["status"], "verified");
}

#[test]
fn a_csl_json_corpus_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let csl = dir.path().join("library.json");
    std::fs::write(
        &csl,
        r#"[{"id": "oliveira2022", "type": "article-journal", "title": "A blueprint for conscious machines",
            "author": [{"family": "Oliveira", "given": "Arlindo L."}], "issued": {"date-parts": [[2022]]},
            "container-title": "Proceedings of the National Academy of Sciences of the United States of America",
            "DOI": "10.1073/pnas.2205971119"}]"#,
    )
    .unwrap();
    let input = write_jsonl(dir.path(), &[("conscious", refs::CONSCIOUS_TITLE)]);
    let run = resolve_jsonl(
        None,
        &input,
        &["--offline", "--corpus", csl.to_str().unwrap()],
    );
    let l = &run.lines()[0];
    assert_eq!(l["status"], "verified", "{}", run.stdout);
    assert_eq!(l["match"]["doi"], "10.1073/pnas.2205971119");
}

#[test]
fn a_missing_corpus_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_jsonl(dir.path(), &[("a", refs::FABRICATED)]);
    let run = citeproof(
        None,
        &[
            "resolve",
            input.to_str().unwrap(),
            "--offline",
            "--corpus",
            "/nonexistent/corpus.jsonl",
        ],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("/nonexistent/corpus.jsonl"),
        "{}",
        run.stderr
    );
    let no_corpus = citeproof(
        None,
        &["resolve", input.to_str().unwrap(), "--corpus-complete"],
    );
    assert_eq!(no_corpus.code, 2, "--corpus-complete needs --corpus");
}
