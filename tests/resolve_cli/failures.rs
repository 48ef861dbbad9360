//! Failing sources: whatever cannot be decided is `unverified`, never `not_found`, and
//! failures are remembered only briefly (a rerun soon after asks nothing).

use crate::helpers::{citeproof, line, refs, resolve_jsonl, resolve_text, write_jsonl};
use crate::support::{FaultKind, FaultRule, MockConfig, MockWorld, Source, Trigger};

fn mixed_refs(dir: &std::path::Path) -> std::path::PathBuf {
    write_jsonl(
        dir,
        &[
            ("resnet", refs::RESNET_DOI),
            ("conscious", refs::CONSCIOUS_TITLE),
            ("fake", refs::FABRICATED),
            ("fake_doi", refs::FABRICATED_DOI),
        ],
    )
}

#[test]
fn every_source_failing_gives_unverified_never_not_found() {
    let config = MockConfig::fixtures().every_source_failing();
    let world = MockWorld::start(config);
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_refs(dir.path());
    let run = resolve_jsonl(Some(&world), &input, &["--retries", "0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.statuses(), vec!["unverified"; 4], "{}", run.stdout);
    let text = resolve_text(Some(&world), &input, &["--retries", "0"]);
    assert!(text.stdout.contains("4 unverified"), "{}", text.stdout);
}

#[test]
fn timeouts_give_unverified_and_the_run_finishes() {
    let mut config = MockConfig::fixtures();
    for source in Source::ALL.into_iter().filter(|s| *s != Source::Landing) {
        config = config.fault(source, FaultRule::new(Trigger::Always, FaultKind::Timeout));
    }
    let world = MockWorld::start(config);
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_refs(dir.path());
    let run = resolve_jsonl(
        Some(&world),
        &input,
        &["--timeout", "0.3", "--retries", "0"],
    );
    assert_eq!(run.statuses(), vec!["unverified"; 4], "{}", run.stdout);
    let text = resolve_text(
        Some(&world),
        &input,
        &["--timeout", "0.3", "--retries", "0"],
    );
    assert!(text.stdout.contains("timed out"), "{}", text.stdout);
}

#[test]
fn one_failing_source_is_covered_by_the_next_in_the_chain() {
    // Crossref is down: the DOI is read from doi.org, the title from OpenAlex.
    let config = MockConfig::fixtures().fault(
        Source::Crossref,
        FaultRule::new(Trigger::Always, FaultKind::Status(503)),
    );
    let world = MockWorld::start(config);
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_refs(dir.path());
    let run = resolve_jsonl(Some(&world), &input, &["--retries", "0"]);
    let lines = run.lines();
    assert_eq!(
        line(&lines, "resnet")["status"],
        "verified",
        "{}",
        run.stdout
    );
    assert_eq!(
        line(&lines, "conscious")["status"],
        "verified",
        "{}",
        run.stdout
    );
    // A general index failed: absence cannot be concluded.
    assert_eq!(
        line(&lines, "fake")["status"],
        "unverified",
        "{}",
        run.stdout
    );
    assert_eq!(
        line(&lines, "fake_doi")["status"],
        "unverified",
        "{}",
        run.stdout
    );
}

#[test]
fn failures_are_remembered_briefly_and_asked_again_on_request() {
    let world = MockWorld::start(MockConfig::fixtures());
    // Crossref and OpenAlex fail; Semantic Scholar rate-limits every request.
    for source in [Source::Crossref, Source::OpenAlex] {
        world.set_fault(
            source,
            FaultRule::new(Trigger::Always, FaultKind::Status(500)),
        );
    }
    world.set_fault(
        Source::S2,
        FaultRule::new(Trigger::Always, FaultKind::Status(429)),
    );
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let input = write_jsonl(
        dir.path(),
        &[
            ("conscious", refs::CONSCIOUS_TITLE),
            ("fake", refs::FABRICATED),
        ],
    );
    let args = [
        "resolve",
        input.to_str().unwrap(),
        "--format",
        "jsonl",
        "--retries",
        "0",
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let first = citeproof(Some(&world), &args);
    assert_eq!(
        first.statuses(),
        ["unverified", "unverified"],
        "{}",
        first.stdout
    );
    assert!(
        world
            .requests(Source::S2)
            .iter()
            .any(|r| r.status == Some(429)),
        "{:?}",
        world.requests(Source::S2)
    );
    // The sources recover; a warm rerun still asks nothing and concludes the same.
    for source in [Source::Crossref, Source::OpenAlex, Source::S2] {
        world.clear_faults(source);
    }
    world.clear_requests();
    let warm = citeproof(Some(&world), &args);
    assert_eq!(warm.statuses(), first.statuses(), "{}", warm.stdout);
    assert_eq!(world.total_requests(), 0, "a warm rerun makes no request");
    // Asked to, it asks again what it could not decide, and only that.
    let mut retry = args.to_vec();
    retry.push("--retry-unverified");
    let run = citeproof(Some(&world), &retry);
    assert_eq!(run.statuses(), ["verified", "not_found"], "{}", run.stdout);
    assert!(world.request_count(Source::Crossref) >= 1);
    world.clear_requests();
    assert_eq!(citeproof(Some(&world), &args).statuses(), run.statuses());
    assert_eq!(world.total_requests(), 0, "definite answers are cached");
}

#[test]
fn an_unreadable_answer_is_asked_again_once() {
    // The first Crossref answer is an HTML maintenance page with status 200.
    let config = MockConfig::fixtures().fault(
        Source::Crossref,
        FaultRule::new(Trigger::Nth(1), FaultKind::HtmlErrorPage),
    );
    let world = MockWorld::start(config);
    let dir = tempfile::tempdir().unwrap();
    let input = write_jsonl(dir.path(), &[("resnet", refs::RESNET_DOI)]);
    let run = resolve_jsonl(Some(&world), &input, &["--retries", "0"]);
    let l = &run.lines()[0];
    assert_eq!(l["status"], "verified", "{}", run.stdout);
    assert_eq!(l["match"]["source"], "crossref");
    let crossref = world.requests(Source::Crossref);
    assert_eq!(crossref.len(), 2, "{crossref:?}");
    assert!(crossref[0].outcome.is_some() && crossref[1].outcome.is_none());
}

#[test]
fn without_network_every_source_is_given_up_on_and_the_run_says_so() {
    // No world: every source points at a closed port.
    let dir = tempfile::tempdir().unwrap();
    let refs: Vec<(String, &str)> = [
        refs::RESNET_DOI,
        refs::CONSCIOUS_TITLE,
        refs::FABRICATED,
        refs::FABRICATED_DOI,
        refs::TRAJECTORY_DOI,
        refs::TELOMERE_DOI,
    ]
    .iter()
    .enumerate()
    .map(|(i, r)| (format!("r{i}"), *r))
    .collect();
    let pairs: Vec<(&str, &str)> = refs.iter().map(|(id, r)| (id.as_str(), *r)).collect();
    let input = write_jsonl(dir.path(), &pairs);
    let run = resolve_text(None, &input, &["--retries", "0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("6 unverified"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("unreachable: 3 attempts in a row got no answer"),
        "later references fail at once: {}",
        run.stdout
    );
    assert!(
        run.stderr.contains("note: no answer from") && run.stderr.contains("crossref"),
        "{}",
        run.stderr
    );
}
