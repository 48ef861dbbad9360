//! The Markdown parser on the fixtures in fixtures/markdown: every citation syntax
//! with its key, kind, span and claim; the regions that hold no citations; front
//! matter, reference sections, footnotes, tags and suppression comments.

mod parse_support;

use citeproof::model::{CitationKind, IdScheme, ReferenceOrigin, SuppressionKind};
use parse_support::*;

#[test]
fn pandoc_keys_groups_and_narrative_forms() {
    let text = fixture("markdown/pandoc.md");
    let parsed = markdown(&text);
    check_invariants(&text, &parsed);
    let smith = &parsed.citations[0];
    assert_eq!(smith.key, "smith2020");
    assert_eq!(smith.kind, CitationKind::Key);
    assert_eq!(slice(&text, smith.group_span), "[@smith2020]");
    assert!(!smith.narrative);

    // `[see @smith2020, p. 3; @lee2021]`: one citation per key, one shared group.
    let group: Vec<_> = parsed
        .citations
        .iter()
        .filter(|c| slice(&text, c.group_span).starts_with("[see"))
        .collect();
    assert_eq!(group.len(), 2);
    assert_eq!(
        (group[0].key.as_str(), group[1].key.as_str()),
        ("smith2020", "lee2021")
    );
    assert_eq!(group[0].group_span, group[1].group_span);
    assert_eq!(
        slice(&text, group[0].group_span),
        "[see @smith2020, p. 3; @lee2021]"
    );

    let suppressed = parsed
        .citations
        .iter()
        .find(|c| c.command.as_deref() == Some("pandoc-suppress-author"))
        .expect("[-@lee2021]");
    assert_eq!(slice(&text, suppressed.group_span), "[-@lee2021]");

    let narrative: Vec<_> = parsed.citations.iter().filter(|c| c.narrative).collect();
    assert_eq!(narrative.len(), 1);
    assert_eq!(slice(&text, narrative[0].group_span), "@smith2020");
    assert_eq!(find(&parsed, "odd:key.2019").kind, CitationKind::Key);
    assert_eq!(find(&parsed, "missing2019").kind, CitationKind::Key);
}

#[test]
fn prefixed_identifiers_and_tags() {
    let text = fixture("markdown/pandoc.md");
    let parsed = markdown(&text);
    let expect = [
        (
            "doi:10.1038/nature14539",
            IdScheme::Doi,
            "10.1038/nature14539",
        ),
        ("arxiv:1706.03762", IdScheme::Arxiv, "1706.03762"),
        ("pmid:27797938", IdScheme::Pmid, "27797938"),
        ("pmcid:PMC4425999", IdScheme::Pmcid, "PMC4425999"),
        (
            "url:https://example.org/report",
            IdScheme::Url,
            "https://example.org/report",
        ),
    ];
    for (key, scheme, value) in expect {
        let c = find(&parsed, key);
        assert_eq!(c.kind, CitationKind::Identifier, "{key}");
        assert_eq!(c.id, Some((scheme, value.to_string())), "{key}");
        assert_eq!(slice(&text, c.span), key);
    }
    let tag = find(&parsed, "tag:deep-book");
    assert_eq!(tag.kind, CitationKind::Tag);
    assert_eq!(find(&parsed, "tag:nodef").kind, CitationKind::Tag);
    let definition = parsed
        .references
        .iter()
        .find(|r| r.origin == ReferenceOrigin::TagDefinition)
        .expect("tag definition");
    assert_eq!(definition.key, "tag:deep-book");
    assert_eq!(
        definition.fields.doi.as_deref(),
        Some("10.7551/mitpress/13811.001.0001")
    );
    assert_eq!(
        slice(&text, definition.span),
        "[@tag:deep-book]: doi:10.7551/mitpress/13811.001.0001"
    );
}

#[test]
fn code_comments_emails_urls_crossrefs_and_escapes_are_not_citations() {
    let text = fixture("markdown/pandoc.md");
    let parsed = markdown(&text);
    for absent in [
        "index",
        "incode",
        "inblock",
        "alsoinblock",
        "incomment",
        "example.org",
        "user",
        "fig:overview",
        "tbl:summary",
        "escaped",
        "home",
    ] {
        assert!(
            !parsed.citations.iter().any(|c| c.key == absent),
            "`{absent}` taken for a citation: {:?}",
            keys(&parsed)
        );
    }
    // Nothing in the "Not citations" section at all.
    let section = text.find("## Not citations").unwrap()..text.find("## Suppressions").unwrap();
    assert!(
        parsed
            .citations
            .iter()
            .all(|c| !section.contains(&c.span.start)),
        "{:?}",
        keys(&parsed)
    );
}

#[test]
fn suppression_comments_and_front_matter() {
    let text = fixture("markdown/pandoc.md");
    let parsed = markdown(&text);
    assert_eq!(parsed.suppressions.len(), 2);
    let first = &parsed.suppressions[0];
    assert_eq!(first.kind, SuppressionKind::Ignore);
    assert_eq!(first.rules, vec!["CP101".to_string()]);
    assert_eq!(
        slice(&text, first.span),
        "<!-- citeproof: ignore[CP101] -->"
    );
    assert_eq!(parsed.suppressions[1].rules, vec!["CP105".to_string()]);

    assert_eq!(parsed.bibliographies.len(), 1);
    let bib = &parsed.bibliographies[0];
    assert_eq!(bib.path, "pandoc.json");
    let (_, at) = bib.at.expect("request place");
    assert_eq!(slice(&text, at), "pandoc.json");
}

#[test]
fn claims_are_sentences_without_markers() {
    let text = fixture("markdown/pandoc.md");
    let parsed = markdown(&text);
    assert_eq!(
        claim_of(&parsed, "doi:10.1038/nature14539"),
        "The original result is in a letter."
    );
    assert_eq!(
        claim_of(&parsed, "lee2021"),
        "Two studies agree on this point."
    );
    let pmid = find(&parsed, "pmid:27797938");
    let pmcid = find(&parsed, "pmcid:PMC4425999");
    assert_eq!(pmid.claim, pmcid.claim);
    assert_eq!(
        claim_of(&parsed, "pmid:27797938"),
        "Clinical follow-up is indexed by PubMed and PMC."
    );
    let claim = &parsed.claims[pmid.claim.unwrap()];
    assert_eq!(
        slice(&text, claim.span),
        "Clinical follow-up is indexed by PubMed [@pmid:27797938] and PMC [@pmcid:PMC4425999]."
    );
}

#[test]
fn numeric_markers_ranges_footnotes_and_the_reference_list() {
    let text = fixture("markdown/numeric.md");
    let parsed = markdown(&text);
    check_invariants(&text, &parsed);
    assert_eq!(
        keys(&parsed),
        vec![
            "1", "1", "3", "2", "3", "4", "5", "6", "^1", "9", "^missing"
        ]
    );
    let range: Vec<_> = parsed
        .citations
        .iter()
        .filter(|c| slice(&text, c.span) == "2-4")
        .collect();
    assert_eq!(range.len(), 3, "[2-4] gives one citation per number");
    assert!(range.iter().all(|c| slice(&text, c.group_span) == "[2-4]"));
    let en_dash = find(&parsed, "5");
    assert_eq!(slice(&text, en_dash.span), "5–6");
    let footnote = find(&parsed, "^1");
    assert_eq!(footnote.kind, CitationKind::Footnote);
    assert_eq!(slice(&text, footnote.group_span), "[^1]");
    assert_eq!(find(&parsed, "^missing").kind, CitationKind::Footnote);
    assert_eq!(
        claim_of(&parsed, "9"),
        "A marker with no entry is an error."
    );

    let list: Vec<_> = parsed
        .references
        .iter()
        .filter(|r| r.origin == ReferenceOrigin::ReferenceList)
        .collect();
    assert_eq!(
        list.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(),
        ["1", "2", "3", "4", "5", "6", "7"]
    );
    assert_eq!(list[0].fields.doi.as_deref(), Some("10.1038/nrn2762"));
    assert_eq!(list[0].fields.year, Some(2010));
    // A wrapped item keeps its continuation line.
    assert!(
        list[4].raw.ends_with("Neuron, 81(1), 12–34."),
        "{}",
        list[4].raw
    );
    assert_eq!(
        list[4].fields.title.as_deref(),
        Some("Sleep and the price of plasticity")
    );

    let note = parsed
        .references
        .iter()
        .find(|r| r.origin == ReferenceOrigin::Footnote)
        .expect("footnote definition");
    assert_eq!(note.key, "^1");
    assert_eq!(note.fields.year, Some(2009));
    assert_eq!(
        note.fields.doi.as_deref(),
        Some("10.1111/j.1749-6632.2009.04416.x")
    );
}

#[test]
fn author_year_citations() {
    let text = fixture("markdown/author_year.md");
    let parsed = markdown(&text);
    check_invariants(&text, &parsed);
    assert_eq!(
        keys(&parsed),
        vec![
            "Bialystok et al., 2012",
            "Paap & Greenberg 2013",
            "de Bruin 2015",
            "Lee and Kim (2019a)",
            "Lee and Kim, 2019b",
        ]
    );
    assert!(
        parsed
            .citations
            .iter()
            .all(|c| c.kind == CitationKind::AuthorYear)
    );
    assert!(find(&parsed, "Lee and Kim (2019a)").narrative);
    assert_eq!(
        claim_of(&parsed, "de Bruin 2015"),
        "The advantage is debated."
    );
    let works_cited = parsed
        .references
        .iter()
        .filter(|r| r.origin == ReferenceOrigin::ReferenceList)
        .count();
    assert_eq!(works_cited, 5, "bulleted Works Cited items");
}

#[test]
fn links_to_works_cite_their_identifiers() {
    let text = fixture("markdown/links.md");
    let parsed = markdown(&text);
    check_invariants(&text, &parsed);
    let ids: Vec<(IdScheme, &str)> = parsed
        .citations
        .iter()
        .map(|c| {
            let (scheme, value) = c.id.as_ref().expect("identifier");
            (*scheme, value.as_str())
        })
        .collect();
    assert_eq!(
        ids,
        vec![
            (IdScheme::Doi, "10.1038/nature14539"),
            (IdScheme::Arxiv, "1706.03762"),
            (IdScheme::Pmid, "27797938"),
            (IdScheme::Doi, "10.3389/fpsyg.2019.00422"),
            (IdScheme::Url, "https://www.example.org/source"),
            (IdScheme::Doi, "10.1093/bioinformatics/btt234"),
        ]
    );
    let nature = &parsed.citations[0];
    assert_eq!(
        slice(&text, nature.span),
        "https://doi.org/10.1038/nature14539"
    );
    assert_eq!(
        slice(&text, nature.group_span),
        "[appeared in Nature](https://doi.org/10.1038/nature14539)"
    );
    // The link text stays in the claim; a numbered link's text does not.
    assert_eq!(
        parsed.claims[nature.claim.unwrap()].text,
        "The landmark review appeared in Nature."
    );
    assert_eq!(
        claim_of(&parsed, "https://www.example.org/source"),
        "A linked marker points straight at its source."
    );
    assert!(!keys(&parsed).iter().any(|k| k.contains("github")));
}

#[test]
fn llm_answers_in_markdown_and_heading_less_lists() {
    let text = fixture("markdown/llm_answer.md");
    let parsed = markdown(&text);
    check_invariants(&text, &parsed);
    assert_eq!(keys(&parsed), vec!["1", "2", "3", "1", "3", "4"]);
    let items: Vec<_> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(items, ["1", "2", "3", "4", "5"]);
    assert_eq!(
        parsed.references[2].fields.doi.as_deref(),
        Some("10.1016/j.jpowsour.2016.12.011")
    );

    let text = fixture("markdown/bracket_list.md");
    let parsed = markdown(&text);
    check_invariants(&text, &parsed);
    assert_eq!(keys(&parsed), vec!["1", "2"]);
    assert_eq!(parsed.references.len(), 2);
    assert_eq!(
        parsed.references[0].fields.doi.as_deref(),
        Some("10.1056/nejmoa2202106")
    );
    assert_eq!(slice(&text, parsed.references[1].key_span.unwrap()), "2");
}

#[test]
fn lists_tables_quotes_and_numbered_link_definitions() {
    let text = "- first item [@a]\n- second item [@b]\n\n| claim | source |\n|---|---|\n| cell text [@c] | x |\n\n> Quoted claim [@d].\n\nSee the docs [1] and [the paper][2].\n\n[1]: https://example.org/docs\n[2]: https://doi.org/10.1038/nature14539 \"Deep learning\"\n";
    let parsed = markdown(text);
    check_invariants(text, &parsed);
    assert_eq!(keys(&parsed), vec!["a", "b", "c", "d", "1", "2"]);
    assert_eq!(claim_of(&parsed, "a"), "first item");
    assert_eq!(claim_of(&parsed, "c"), "cell text");
    assert_eq!(claim_of(&parsed, "d"), "Quoted claim.");
    let linked = find(&parsed, "2");
    assert_eq!(linked.kind, CitationKind::Numeric);
    assert_eq!(slice(text, linked.group_span), "[the paper][2]");
    let defined: Vec<_> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(defined, ["1", "2"]);
    assert_eq!(
        parsed.references[1].fields.doi.as_deref(),
        Some("10.1038/nature14539")
    );
}

#[test]
fn unterminated_comment_is_reported_and_the_rest_still_read() {
    let text = "Before [@a].\n\n<!-- never closed\n\n[@b]\n";
    let parsed = markdown(text);
    check_invariants(text, &parsed);
    assert_eq!(keys(&parsed), vec!["a"]);
    assert_eq!(parsed.problems.len(), 1);
    assert_eq!(parsed.problems[0].rule.code, "CP003");
    assert_eq!(slice(text, parsed.problems[0].span), "<!--");
}

#[test]
fn reference_sections_end_at_the_next_heading() {
    let text = "Text [1].\n\n## References\n\n1. Smith, J. (2020). A title. Nature.\n\n## Appendix\n\nMore text cites [@k].\n";
    let parsed = markdown(text);
    assert_eq!(keys(&parsed), vec!["1", "k"]);
    assert_eq!(parsed.references.len(), 1);
    assert_eq!(parsed.references[0].fields.year, Some(2020));
}

#[test]
fn deeply_nested_and_huge_inputs_do_not_crash() {
    let quotes = format!("{} deep [@k].\n", "> ".repeat(20_000));
    let lists = format!("{}[@k]\n", "- ".repeat(20_000));
    let brackets = format!("{}@k{}", "[".repeat(50_000), "]".repeat(50_000));
    let parens = format!("{}Smith 2020{}", "(".repeat(50_000), ")".repeat(50_000));
    let emphasis = format!("{}[@k]{}", "*".repeat(50_000), "*".repeat(50_000));
    let long_line = format!("{} [1]", "word ".repeat(200_000));
    for text in [quotes, lists, brackets, parens, emphasis, long_line] {
        let parsed = markdown(&text);
        check_invariants(&text, &parsed);
        let parsed = answer(&text);
        check_invariants(&text, &parsed);
    }
}
