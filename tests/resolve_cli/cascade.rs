//! The cascade as `citeproof resolve` runs it: identifiers batched before any search,
//! tiers stopping at the first accepted record, the gate, conflation, retractions,
//! expressions of concern, arXiv DOIs, fabricated identifiers, disabled sources and
//! the URL fallback.

use crate::helpers::{
    citeproof, decoded, line, refs, requests_with, resolve_jsonl, resolve_text, tried, write_jsonl,
    write_lines,
};
use crate::support::{MockConfig, MockWorld, Source};

#[test]
fn identifiers_are_batched_across_the_run_before_any_search() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let input = write_jsonl(
        dir.path(),
        &[
            ("resnet", refs::RESNET_DOI),
            ("brain", refs::BRAIN_DOI),
            ("trajectory", refs::TRAJECTORY_DOI),
            ("telomere", refs::TELOMERE_DOI),
            ("conscious", refs::CONSCIOUS_TITLE),
            ("entropy", refs::ENTROPY_TITLE),
        ],
    );
    let run = resolve_jsonl(Some(&world), &input, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.statuses(), vec!["verified"; 6], "{}", run.stdout);
    let batches = requests_with(&world, Source::Crossref, "filter=doi");
    let first = batches.first().expect("a Crossref DOI batch");
    for doi in [
        "10.1109/cvpr.2016.90",
        "10.1093/brain/awm336",
        "10.1038/s41587-019-0071-9",
    ] {
        assert!(
            decoded(first).contains(doi),
            "{doi} not in {}",
            decoded(first)
        );
    }
    assert!(requests_with(&world, Source::Crossref, "/works/10.").is_empty());
    let searches = requests_with(&world, Source::Crossref, "query.bibliographic");
    assert_eq!(searches.len(), 2, "one search per title-only reference");
    assert!(searches.iter().all(|s| s.at > first.at));
}

#[test]
fn search_stops_at_the_first_tier_with_an_accepted_record() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let input = write_jsonl(dir.path(), &[("conscious", refs::CONSCIOUS_TITLE)]);
    let run = resolve_jsonl(Some(&world), &input, &[]);
    assert_eq!(run.statuses(), vec!["verified"]);
    assert_eq!(world.request_count(Source::S2), 0, "S2 is the second tier");
    assert_eq!(world.request_count(Source::Pubmed), 0);
    // A work only Semantic Scholar has is found in the second tier.
    world.clear_requests();
    let input = write_jsonl(dir.path(), &[("turing", refs::TURING_TITLE)]);
    let run = resolve_jsonl(Some(&world), &input, &[]);
    let lines = run.lines();
    assert_eq!(lines[0]["status"], "verified", "{}", run.stdout);
    assert_eq!(lines[0]["match"]["source"], "s2");
    assert!(world.request_count(Source::S2) >= 1);
    assert_eq!(tried(&lines[0], "source"), ["crossref", "openalex", "s2"]);
}

#[test]
fn the_gate_rejects_a_near_title_of_another_work() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let input = write_jsonl(
        dir.path(),
        &[(
            "near",
            "Smith J, Brown T. Deep residual learning for image segmentation. Pattern Recognition Letters. 2019.",
        )],
    );
    let run = resolve_jsonl(Some(&world), &input, &[]);
    let lines = run.lines();
    assert_eq!(lines[0]["status"], "not_found", "{}", run.stdout);
    assert!(lines[0]["match"].is_null());
    let outcomes = tried(&lines[0], "outcome");
    assert!(outcomes.contains(&"rejected"), "{outcomes:?}");
}

#[test]
fn an_identifier_of_another_work_is_a_conflation_naming_both() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let conflated = "Boettiger C, Ross N, Hastings A. Early warning signals: the charted and uncharted territories. Theoretical Ecology. 2013. doi:10.1093/brain/awm336";
    let input = write_jsonl(dir.path(), &[("ews", conflated)]);
    let run = resolve_jsonl(Some(&world), &input, &[]);
    let l = &run.lines()[0];
    assert_eq!(l["status"], "miscited", "{}", run.stdout);
    assert_eq!(l["fields_wrong"], serde_json::json!(["doi"]));
    assert_eq!(l["expected"]["doi"], "10.1007/s12080-013-0192-6");
    assert_eq!(l["match"]["doi"], "10.1007/s12080-013-0192-6");
    let text = resolve_text(Some(&world), &input, &[]);
    assert!(
        text.stdout.contains("its identifier names \"11C PiB"),
        "{}",
        text.stdout
    );
}

#[test]
fn retractions_and_expressions_of_concern() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let retracted_title = "Kumar Y, Koul A, Singla R, Ijaz MF. Artificial intelligence in disease diagnosis: a systematic literature review, synthesizing framework and future research agenda. Journal of Ambient Intelligence and Humanized Computing. 2022.";
    let input = write_jsonl(
        dir.path(),
        &[
            ("retracted", refs::RETRACTED_DOI),
            ("retracted_title", retracted_title),
            ("concern", refs::CONCERN_TITLE),
        ],
    );
    let run = resolve_jsonl(Some(&world), &input, &[]);
    let lines = run.lines();
    assert_eq!(
        line(&lines, "retracted")["status"],
        "retracted",
        "{}",
        run.stdout
    );
    assert_eq!(
        line(&lines, "retracted_title")["status"],
        "retracted",
        "{}",
        run.stdout
    );
    assert_eq!(
        line(&lines, "concern")["status"],
        "verified",
        "{}",
        run.stdout
    );
    let text = resolve_text(Some(&world), &input, &[]);
    let concern_line = text
        .stdout
        .lines()
        .find(|l| l.starts_with("concern"))
        .unwrap();
    assert!(
        concern_line.contains("expression of concern"),
        "{concern_line}"
    );
}

#[test]
fn arxiv_datacite_doi_goes_through_the_arxiv_chain() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let input = write_lines(dir.path(), "refs.txt", &[refs::ARXIV_DOI]);
    let run = resolve_jsonl(Some(&world), &input, &[]);
    let l = &run.lines()[0];
    assert_eq!(l["status"], "verified", "{}", run.stdout);
    assert_eq!(l["match"]["arxiv"], "2412.07825");
    assert!(requests_with(&world, Source::Crossref, "10.48550").is_empty());
    assert!(!requests_with(&world, Source::S2, "paper/batch").is_empty());
}

#[test]
fn a_fabricated_reference_with_a_fabricated_doi_is_not_found() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let input = write_jsonl(
        dir.path(),
        &[
            ("fake", refs::FABRICATED),
            ("fake_doi", refs::FABRICATED_DOI),
        ],
    );
    let run = resolve_jsonl(Some(&world), &input, &[]);
    assert_eq!(run.statuses(), ["not_found", "not_found"], "{}", run.stdout);
    // The DOI's registry was asked: its "no" is what settles that the DOI is made up.
    assert!(!requests_with(&world, Source::Doi, "9876543").is_empty());
    let text = resolve_text(Some(&world), &input, &[]);
    assert!(text.stdout.contains("does not resolve"), "{}", text.stdout);
    assert!(text.stdout.contains("2 not found"), "{}", text.stdout);
}

#[test]
fn disabled_sources_are_never_asked() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let input = write_jsonl(
        dir.path(),
        &[("fake", refs::FABRICATED), ("turing", refs::TURING_TITLE)],
    );
    let run = resolve_jsonl(
        Some(&world),
        &input,
        &["--disable-source", "s2", "--disable-source", "openalex"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(world.request_count(Source::S2), 0);
    assert_eq!(world.request_count(Source::OpenAlex), 0);
    // Crossref alone answered: without the disabled sources the S2-only work is not
    // found — but a reference from 1989 with no venue, publisher or identifier may be a
    // report or a manuscript, which the indexes hold only partly: not concluded fabricated.
    assert_eq!(run.statuses(), ["not_found", "not_indexed"]);
}

#[test]
fn the_cited_url_is_read_when_the_search_sources_are_down() {
    let world = MockWorld::start(MockConfig::fixtures());
    for source in [Source::Crossref, Source::OpenAlex, Source::S2] {
        world.set_down(source, true);
    }
    let dir = tempfile::tempdir().unwrap();
    let landing = format!("{}/w001021", world.base_url(Source::Landing));
    let reference = format!("{} {landing}", refs::TURING_TITLE);
    let input = write_jsonl(dir.path(), &[("turing", &reference)]);
    let base = [
        "resolve",
        input.to_str().unwrap(),
        "--format",
        "jsonl",
        "--no-cache",
        "--retries",
        "0",
    ];
    // Without permission to fetch a loopback URL the reference stays unverified.
    let refused = citeproof(Some(&world), &base);
    assert_eq!(refused.statuses(), ["unverified"], "{}", refused.stdout);
    let mut args = base.to_vec();
    args.push("--allow-private-urls");
    let run = citeproof(Some(&world), &args);
    let l = &run.lines()[0];
    assert_eq!(l["status"], "verified", "{}", run.stdout);
    assert_eq!(l["match"]["source"], "landing");
    assert_eq!(world.request_count(Source::Landing), 1);
}
