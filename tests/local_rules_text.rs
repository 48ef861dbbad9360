//! The local rules driven through Markdown and plain-text answers, by running the
//! real binary on the fixtures: undefined keys and tags, orphan markers, uncited
//! reference-list items, unused entries, Manubot tags through manual references,
//! suppression comments applied and unused ones reported.

mod parse_support;

use parse_support::*;
use serde_json::Value;

/// 1-based line of the first line of fixture `relative` containing `needle`.
fn line_of(relative: &str, needle: &str) -> u32 {
    let text = fixture(relative);
    let index = text
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in {relative}"));
    index as u32 + 1
}

fn has(codes: &[(String, u32)], code: &str, line: u32) -> bool {
    codes.iter().any(|(c, l)| c == code && *l == line)
}

#[test]
fn pandoc_document_undefined_keys_tags_unused_entries_and_suppressions() {
    let file = "markdown/pandoc.md";
    let codes = check_codes(&["fixtures/markdown/pandoc.md"]);
    assert!(
        has(&codes, "CP101", line_of(file, "[@missing2019]")),
        "{codes:?}"
    );
    assert!(
        has(&codes, "CP101", line_of(file, "[@tag:nodef]")),
        "tag without definition: {codes:?}"
    );
    // `<!-- citeproof: ignore[CP101] -->` silences the next line …
    assert!(
        !has(&codes, "CP101", line_of(file, "[@ghost2018]")),
        "{codes:?}"
    );
    // … and `ignore[CP105]` with nothing to silence is reported.
    assert!(
        has(&codes, "CP901", line_of(file, "ignore[CP105]")),
        "{codes:?}"
    );
    assert!(
        !has(&codes, "CP901", line_of(file, "ignore[CP101]")),
        "{codes:?}"
    );
    let unused_line = line_of("markdown/pandoc.json", "\"unused2017\"");
    assert!(has(&codes, "CP102", unused_line), "{codes:?}");
    let cp101 = codes.iter().filter(|(c, _)| c == "CP101").count();
    assert_eq!(cp101, 2, "{codes:?}");
    let (_, exit) = citeproof(&["check", "fixtures/markdown/pandoc.md"]);
    assert_eq!(exit, 1, "errors fail the check");
}

#[test]
fn numbered_markers_orphans_and_uncited_items() {
    let file = "markdown/numeric.md";
    let codes = check_codes(&["fixtures/markdown/numeric.md"]);
    assert!(
        has(&codes, "CP105", line_of(file, "no entry is an error [9]")),
        "{codes:?}"
    );
    assert!(
        has(&codes, "CP105", line_of(file, "[^missing]")),
        "{codes:?}"
    );
    assert!(
        has(&codes, "CP106", line_of(file, "7. Siegel")),
        "{codes:?}"
    );
    assert_eq!(codes.len(), 3, "nothing else is reported: {codes:?}");
}

#[test]
fn answers_orphans_uncited_items_and_suppressions() {
    let file = "answers/orphans.txt";
    let codes = check_codes(&["fixtures/answers/orphans.txt"]);
    assert!(has(&codes, "CP105", line_of(file, "[4]")), "{codes:?}");
    assert!(
        has(&codes, "CP106", line_of(file, "[2] https")),
        "{codes:?}"
    );
    assert!(
        !has(&codes, "CP106", line_of(file, "[3] https")),
        "suppressed: {codes:?}"
    );
    assert!(
        has(&codes, "CP901", line_of(file, "ignore[CP101]")),
        "{codes:?}"
    );
    assert_eq!(codes.len(), 3, "{codes:?}");

    let codes = check_codes(&["fixtures/markdown/llm_answer.md"]);
    assert_eq!(
        codes,
        vec![(
            "CP106".to_string(),
            line_of("markdown/llm_answer.md", "never-cited")
        )]
    );
    let codes = check_codes(&["fixtures/answers/numbered.txt"]);
    assert!(codes.is_empty(), "{codes:?}");
}

#[test]
fn manubot_tags_resolve_through_definitions_and_manual_references() {
    let out = extract(&["fixtures/markdown/manubot"]);
    let doc = &out["documents"][0];
    let citations = doc["citations"].as_array().unwrap();
    let references = doc["references"].as_array().unwrap();
    let target = |key: &str| -> &Value {
        let c = citations
            .iter()
            .find(|c| c["key"] == key)
            .unwrap_or_else(|| panic!("{key}"));
        &references[c["reference"]
            .as_u64()
            .unwrap_or_else(|| panic!("{key} unlinked")) as usize]
    };
    // A tag whose definition names a manual reference cites that entry.
    let krizhevsky = target("tag:krizhevsky2012");
    assert_eq!(krizhevsky["origin"], "csl_json");
    assert_eq!(krizhevsky["year"], 2012);
    // Other tags cite their definition, which carries the identifier.
    let vaswani = target("tag:vaswani2017");
    assert_eq!(vaswani["origin"], "tag_definition");
    assert_eq!(vaswani["arxiv"], "1706.03762");
    assert_eq!(target("tag:ching2018")["doi"], "10.1098/rsif.2017.0387");
    assert_eq!(
        target("url:https://example.org/interpretability-survey")["origin"],
        "csl_json"
    );
    assert_eq!(target("pmcid:PMC5938574")["origin"], "inline");
    assert!(!citations.iter().any(|c| c["key"] == "fig:overview"));

    let codes = check_codes(&["fixtures/markdown/manubot"]);
    assert_eq!(
        codes,
        vec![(
            "CP101".to_string(),
            line_of("markdown/manubot/02.discussion.md", "undefined-tag")
        )],
        "only the undefined tag; manual references are all cited"
    );
}

#[test]
fn extract_json_carries_places_and_links() {
    let out = extract(&["fixtures/answers/numbered.txt"]);
    let doc = &out["documents"][0];
    let first = &doc["citations"][0];
    assert_eq!(first["key"], "1");
    assert_eq!(first["kind"], "numeric");
    assert_eq!(first["line"], 3);
    let text = fixture("answers/numbered.txt");
    let line3 = text.lines().nth(2).unwrap();
    let column = line3[..line3.find("[1]").unwrap() + 1].chars().count() + 1;
    assert_eq!(first["column"], column as u64);
    let reference = &doc["references"][first["reference"].as_u64().unwrap() as usize];
    assert_eq!(reference["key"], "1");
    assert_eq!(reference["origin"], "reference_list");
    let claim = &doc["claims"][first["claim"].as_u64().unwrap() as usize];
    assert!(
        claim["text"]
            .as_str()
            .unwrap()
            .starts_with("Regular moderate exercise")
    );
    assert!(
        claim["citations"]
            .as_array()
            .unwrap()
            .contains(&Value::from(0))
    );
}

#[test]
fn command_line_csl_json_bibliography() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("doc.md");
    std::fs::write(&doc, "Deep learning works [@lecun2015; @nobody2000].\n").unwrap();
    let doc = doc.to_string_lossy().into_owned();
    let out = extract(&[&doc, "--bib", "fixtures/csljson/refs.json"]);
    let doc_json = &out["documents"][0];
    let lecun = &doc_json["citations"][0];
    let reference = &doc_json["references"][lecun["reference"].as_u64().unwrap() as usize];
    assert_eq!(reference["key"], "lecun2015");
    assert_eq!(reference["origin"], "csl_json");
    assert!(doc_json["citations"][1]["reference"].is_null());
    let codes = check_codes(&[&doc, "--bib", "fixtures/csljson/refs.json"]);
    let undefined: Vec<_> = codes.iter().filter(|(c, _)| c == "CP101").collect();
    assert_eq!(undefined.len(), 1, "{codes:?}");
    let unused = codes.iter().filter(|(c, _)| c == "CP102").count();
    assert_eq!(
        unused, 3,
        "the other three entries are never cited: {codes:?}"
    );
}
