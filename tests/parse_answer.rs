//! The plain-text / LLM-answer parser on fixtures/answers: numbered markers and the
//! trailing reference list (titled, "Sources:" URL lists, heading-less `[n]` lines),
//! bare identifiers in running text, Markdown-ish markup kept out of claims.

mod parse_support;

use citeproof::model::{CitationKind, IdScheme, ReferenceOrigin};
use parse_support::*;

#[test]
fn numbered_markers_map_to_a_titled_reference_list() {
    let text = fixture("answers/numbered.txt");
    let parsed = answer(&text);
    check_invariants(&text, &parsed);
    let numeric: Vec<&str> = parsed
        .citations
        .iter()
        .filter(|c| c.kind == CitationKind::Numeric)
        .map(|c| c.key.as_str())
        .collect();
    // `[1]`, `[1][2]`, `[2, 3]`, `[3]`.
    assert_eq!(numeric, ["1", "1", "2", "2", "3", "3"]);
    let list: Vec<_> = parsed
        .references
        .iter()
        .filter(|r| r.origin == ReferenceOrigin::ReferenceList)
        .collect();
    assert_eq!(list.len(), 3);
    assert_eq!(list[1].key, "2");
    assert_eq!(slice(&text, list[1].key_span.unwrap()), "2");
    assert_eq!(
        list[1].fields.doi.as_deref(),
        Some("10.1007/s10865-015-9617-6")
    );
    assert_eq!(list[2].fields.year, Some(2019));
    assert_eq!(
        claim_of(&parsed, "1"),
        "Regular moderate exercise improves self-reported sleep quality in older adults."
    );
    // "e.g." does not end the sentence.
    let third = parsed.citations.iter().rfind(|c| c.key == "3").unwrap();
    assert_eq!(
        parsed.claims[third.claim.unwrap()].text,
        "Evening exercise does not harm sleep onset, e.g. in healthy adults."
    );
}

#[test]
fn bare_identifiers_in_running_text() {
    let text = fixture("answers/numbered.txt");
    let parsed = answer(&text);
    let ids: Vec<(&str, IdScheme, &str)> = parsed
        .citations
        .iter()
        .filter(|c| c.kind == CitationKind::Identifier)
        .map(|c| {
            let (scheme, value) = c.id.as_ref().unwrap();
            (c.key.as_str(), *scheme, value.as_str())
        })
        .collect();
    assert_eq!(
        ids,
        vec![
            (
                "doi:10.1093/sleep/zsaa071",
                IdScheme::Doi,
                "10.1093/sleep/zsaa071"
            ),
            ("arXiv:2104.12255", IdScheme::Arxiv, "2104.12255"),
            ("PMID: 27797938", IdScheme::Pmid, "27797938"),
        ]
    );
    // Identifiers inside the reference list are the list's, not citations.
    assert!(!parsed.citations.iter().any(|c| c.key.contains("s10865")));
}

#[test]
fn sources_list_of_urls_is_keyed_by_position() {
    let text = fixture("answers/sources_urls.txt");
    let parsed = answer(&text);
    check_invariants(&text, &parsed);
    assert_eq!(keys(&parsed), vec!["1", "2", "3"]);
    let refs: Vec<(&str, Option<&str>)> = parsed
        .references
        .iter()
        .map(|r| (r.key.as_str(), r.fields.url.as_deref()))
        .collect();
    assert_eq!(
        refs,
        vec![
            (
                "1",
                Some("https://www.pnas.org/doi/10.1073/pnas.1208909109")
            ),
            ("2", Some("https://www.example.org/reef-bleaching-2020")),
            ("3", Some("https://www.example.org/reef-outlook")),
        ]
    );
    assert_eq!(
        parsed.references[0].fields.doi.as_deref(),
        Some("10.1073/pnas.1208909109")
    );
    assert!(parsed.references.iter().all(|r| r.key_span.is_none()));
}

#[test]
fn markdown_ish_answers_with_a_heading_less_list() {
    let text = fixture("answers/expertqa_style.txt");
    let parsed = answer(&text);
    check_invariants(&text, &parsed);
    assert_eq!(keys(&parsed), vec!["1", "2", "3", "4", "4"]);
    assert_eq!(
        claim_of(&parsed, "1"),
        "Seismic retrofitting of older buildings that are vulnerable to damage."
    );
    assert_eq!(
        claim_of(&parsed, "2"),
        "Post-earthquake inspections by trained engineers to find hidden damage."
    );
    let items: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(items, ["1", "2", "3", "4"]);
    assert!(
        !parsed.citations.iter().any(|c| c.key == "5"),
        "fenced code is skipped"
    );
    // The numbered answer item `1. Plan …` is prose, not a reference.
    assert!(parsed.references.iter().all(|r| r.raw.starts_with('[')));
}

#[test]
fn orphans_and_suppressions() {
    let text = fixture("answers/orphans.txt");
    let parsed = answer(&text);
    check_invariants(&text, &parsed);
    assert_eq!(keys(&parsed), vec!["1", "4"]);
    assert_eq!(parsed.suppressions.len(), 2);
    assert_eq!(parsed.references.len(), 3);
    assert!(
        parsed.claims.iter().all(|c| !c.text.contains("citeproof")),
        "comments are not claim text"
    );
}

#[test]
fn inline_forms_of_llm_answers() {
    let text = "Paris is the capital of France[1](https://en.wikipedia.org/wiki/Paris). \
                It has 2.1 million inhabitants [2]. Some say otherwise (Smith et al., 2020).\n\
                See https://www.nature.com/articles/nature14539 for more.\n\n\
                [2]: https://www.example.org/population\n";
    let parsed = answer(text);
    check_invariants(text, &parsed);
    let kinds: Vec<(&str, CitationKind)> = parsed
        .citations
        .iter()
        .map(|c| (c.key.as_str(), c.kind))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (
                "https://en.wikipedia.org/wiki/Paris",
                CitationKind::Identifier
            ),
            ("2", CitationKind::Numeric),
            ("Smith et al., 2020", CitationKind::AuthorYear),
            (
                "https://www.nature.com/articles/nature14539",
                CitationKind::Identifier
            ),
        ]
    );
    assert_eq!(claim_of(&parsed, "2"), "It has 2.1 million inhabitants.");
    assert_eq!(parsed.references.len(), 1);
    assert_eq!(parsed.references[0].key, "2");
}

#[test]
fn odd_input_never_panics_and_keeps_invariants() {
    for text in [
        "",
        "\n\n\n",
        "[",
        "[1",
        "[^",
        "```\nunclosed fence [1]",
        "References:",
        "(Smith et al., 20",
        "\u{FEFF}Ünïcödé [1] ✓.\r\n\r\n[1] https://ex.org/ü\r\n",
        "<!-- citeproof: disable -->",
        "doi:10.",
        "[1-999999] [0] [3-1] [1,,2]",
    ] {
        let parsed = answer(text);
        check_invariants(text, &parsed);
    }
}
