//! The computing platforms as sources, end to end through the real binary: a paper
//! only OpenReview holds, a rejected OpenReview submission cited as an ICLR paper, an
//! ACL Anthology paper known by its Anthology id, a DBLP-only paper whose authors DBLP
//! numbers as homonyms (`Wei Wang 0001`); and `--policy iclr-2026`'s exit codes.

use serde_json::{Value, json};

use crate::helpers::{Run, citeproof, write_lines};
use crate::support::{MockConfig, MockWorld, Source, Work, dblp};

fn work(value: Value) -> Work {
    serde_json::from_value(value).expect("world record")
}

const DBLP_ONLY: &str = "p-dblp";

/// Invented works, each held only by the platforms named.
fn world() -> MockWorld {
    MockWorld::start(MockConfig::works(vec![
        work(json!({"id": "p-openreview",
            "title": "Sparse Mixture Routers Learn Stable Token Assignments",
            "authors": [{"given": "Ana", "family": "Ruiz"}, {"given": "Tomas", "family": "Berg"}],
            "year": 2025, "venue": "ICLR 2025 Poster",
            "openreview": {"id": "Xq7RmV2pLk", "venueid": "ICLR.cc/2025/Conference",
                           "venue": "ICLR 2025 Poster"},
            "held_by": ["openreview"]})),
        work(json!({"id": "p-rejected",
            "title": "Curvature-Aware Warmup Schedules for Adaptive Optimisers",
            "authors": [{"given": "Jonas", "family": "Lindqvist"}, {"given": "Priya", "family": "Natarajan"}],
            "year": 2024, "venue": "arXiv", "type": "preprint", "arxiv": "2410.04417",
            "openreview": {"id": "Rj3kT9wQzN",
                           "venueid": "ICLR.cc/2025/Conference/Rejected_Submission",
                           "venue": "Submitted to ICLR 2025"},
            "held_by": ["arxiv", "openreview"]})),
        work(json!({"id": "p-acl",
            "title": "Probing Clause Boundaries in Multilingual Encoders",
            "authors": [{"given": "Mei", "family": "Tanaka"}, {"given": "Omar", "family": "Haddad"}],
            "year": 2023,
            "venue": "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)",
            "doi": "10.18653/v1/2023.acl-long.417", "held_by": ["acl"]})),
        work(json!({"id": DBLP_ONLY,
            "title": "Federated Graph Condensation with Heterogeneous Clients",
            "authors": [{"given": "Wei", "family": "Wang"}, {"given": "Li", "family": "Zhang"},
                        {"given": "Jun", "family": "Liu"}, {"given": "Yang", "family": "Li"},
                        {"given": "Xin", "family": "Chen"}, {"given": "Hao", "family": "Wu"}],
            "year": 2024, "venue": "NeurIPS", "type": "proceedings-article",
            "dblp": "conf/nips/WangZLLCW24", "held_by": ["dblp"]})),
    ]))
}

const REFS: &[&str] = &[
    "Ana Ruiz and Tomas Berg. Sparse Mixture Routers Learn Stable Token Assignments. In International Conference on Learning Representations (ICLR), 2025.",
    "Jonas Lindqvist and Priya Natarajan. Curvature-Aware Warmup Schedules for Adaptive Optimisers. In International Conference on Learning Representations (ICLR), 2025.",
    "Mei Tanaka and Omar Haddad. 2023. Probing Clause Boundaries in Multilingual Encoders. In Proceedings of ACL, pages 1–12. https://aclanthology.org/2023.acl-long.417",
    "Wei Wang, Li Zhang, Jun Liu, Yang Li, Xin Chen, and Hao Wu. Federated Graph Condensation with Heterogeneous Clients. In Advances in Neural Information Processing Systems (NeurIPS), 2024.",
];

fn resolve(world: &MockWorld, lines: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let refs = write_lines(dir.path(), "refs.txt", lines);
    citeproof(
        Some(world),
        &[
            "resolve",
            refs.to_str().unwrap(),
            "--format",
            "jsonl",
            "--no-cache",
        ],
    )
}

/// The sources a resolved line's record came from.
fn record_source(line: &Value) -> String {
    line["match"]["source"].as_str().unwrap_or("").to_string()
}

#[test]
fn the_computing_platforms_verify_what_only_they_hold() {
    let world = world();
    let entry = world
        .world()
        .by_world_id(DBLP_ONLY)
        .map(|i| world.world().entry(i))
        .unwrap();
    let numbered: Vec<String> = (0..entry.work.authors.len())
        .map(|i| dblp::author_name(entry, i))
        .filter(|name| {
            name.rsplit(' ')
                .next()
                .is_some_and(|n| n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    assert!(
        !numbered.is_empty(),
        "DBLP numbers one of the authors as a homonym"
    );

    let run = resolve(&world, REFS);
    let lines = run.lines();
    assert_eq!(lines.len(), 4, "{}\n{}", run.stdout, run.stderr);
    let (openreview, rejected, acl, dblp_only) = (&lines[0], &lines[1], &lines[2], &lines[3]);
    assert_eq!(openreview["status"], "verified", "{openreview:#}");
    assert!(
        record_source(openreview).contains("openreview"),
        "{openreview:#}"
    );
    assert_eq!(acl["status"], "verified", "{acl:#}");
    assert!(record_source(acl).contains("acl"), "{acl:#}");
    assert_eq!(
        dblp_only["status"], "verified",
        "{numbered:?} {dblp_only:#}"
    );
    assert!(record_source(dblp_only).contains("dblp"), "{dblp_only:#}");
    assert!(world.request_count(Source::Dblp) > 0);

    // The rejected submission exists (its preprint), but not as an ICLR paper.
    assert_eq!(rejected["status"], "miscited", "{rejected:#}");
    let wrong = rejected["fields_wrong"].as_array().unwrap();
    assert!(wrong.iter().any(|f| f == "venue"), "{rejected:#}");
    let asked: Vec<String> = world
        .requests(Source::OpenReview)
        .into_iter()
        .map(|r| r.path_and_query)
        .collect();
    assert!(
        asked.iter().any(|q| q.to_lowercase().contains("curvature")),
        "OpenReview was asked what became of the submission: {asked:?}\n{rejected:#}"
    );
}

const REJECTED_BIB: &str = "@inproceedings{lindqvist2025,
  author = {Lindqvist, Jonas and Natarajan, Priya},
  title = {Curvature-Aware Warmup Schedules for Adaptive Optimisers},
  booktitle = {International Conference on Learning Representations (ICLR)},
  year = {2025}
}";

const FABRICATED_BIB: &str = "@inproceedings{okafor2025,
  author = {Okafor, Chidi and Brandt, Lena},
  title = {Self-Distilled Spectral Adapters Close the Gap to Full Fine-Tuning},
  booktitle = {International Conference on Learning Representations (ICLR)},
  year = {2025}
}";

/// `citeproof check paper.md --policy iclr-2026 --format json` on a paper citing the
/// entries of `bib`: the exit code and the findings' (rule code, policy class).
fn check_with_policy(world: &MockWorld, bib: &[&str]) -> (i32, Vec<(String, String)>, Run) {
    let dir = tempfile::tempdir().unwrap();
    let keys: Vec<String> = bib
        .iter()
        .filter_map(|e| {
            e.split_once('{')?
                .1
                .split_once(',')
                .map(|(k, _)| format!("@{k}"))
        })
        .collect();
    let paper = write_lines(
        dir.path(),
        "paper.md",
        &[
            "---",
            "bibliography: refs.bib",
            "---",
            "",
            &format!(
                "Warmup schedules matter for adaptive optimisers [{}].",
                keys.join("; ")
            ),
        ],
    );
    std::fs::write(dir.path().join("refs.bib"), bib.join("\n\n")).unwrap();
    let cache = dir.path().join("cache");
    let run = citeproof(
        Some(world),
        &[
            "check",
            paper.to_str().unwrap(),
            "--policy",
            "iclr-2026",
            "--format",
            "json",
            "--cache-dir",
            cache.to_str().unwrap(),
        ],
    );
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    let classes = report
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["policy_class"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    (run.code, classes, run)
}

#[test]
fn the_iclr_policy_fails_a_hallucinated_reference_and_only_reports_a_wrong_venue() {
    let world = world();
    let (code, classes, run) = check_with_policy(&world, &[REJECTED_BIB]);
    assert!(
        classes.contains(&("CP210".to_string(), "error-to-report".to_string())),
        "{classes:?}\n{}",
        run.stdout
    );
    assert!(
        !classes.iter().any(|(_, c)| c == "hallucinated"),
        "{classes:?}"
    );
    assert_eq!(
        code, 0,
        "an error to report does not fail the run: {}",
        run.stderr
    );

    let (code, classes, run) = check_with_policy(&world, &[REJECTED_BIB, FABRICATED_BIB]);
    assert!(
        classes.contains(&("CP201".to_string(), "hallucinated".to_string())),
        "{classes:?}\n{}",
        run.stdout
    );
    assert_eq!(
        code, 1,
        "a hallucinated reference fails the run: {}",
        run.stderr
    );
}
