//! The CSL-JSON parser: fields of well-formed items, one malformed item reported
//! with its place while the others are still read, inputs that are not CSL-JSON.

mod parse_support;

use citeproof::model::{Person, ReferenceOrigin};
use parse_support::*;

#[test]
fn items_become_references_with_their_fields() {
    let text = fixture("csljson/refs.json");
    let parsed = csljson(&text);
    check_invariants(&text, &parsed);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "lecun2015",
            "vaswani2017",
            "vanderberg2019",
            "pmcid:PMC4425999"
        ]
    );
    assert!(
        parsed
            .references
            .iter()
            .all(|r| r.origin == ReferenceOrigin::CslJson)
    );

    let lecun = &parsed.references[0];
    assert_eq!(lecun.entry_type.as_deref(), Some("article-journal"));
    let f = &lecun.fields;
    assert_eq!(f.title.as_deref(), Some("Deep learning"));
    assert_eq!(f.authors[0], Person::new(Some("Yann"), "LeCun"));
    assert_eq!(f.authors.len(), 3);
    assert_eq!(f.year, Some(2015));
    assert_eq!(f.venue.as_deref(), Some("Nature"));
    assert_eq!(f.volume.as_deref(), Some("521"));
    assert_eq!(f.issue.as_deref(), Some("7553"), "numbers are read as text");
    assert_eq!(f.pages.as_deref(), Some("436-444"));
    assert_eq!(
        f.doi.as_deref(),
        Some("10.1038/nature14539"),
        "DOIs are lowercased"
    );
    assert_eq!(f.pmid.as_deref(), Some("26017442"));
    assert_eq!(
        f.url.as_deref(),
        Some("https://www.nature.com/articles/nature14539")
    );
    assert_eq!(slice(&text, lecun.key_span.unwrap()), "lecun2015");
    assert!(slice(&text, lecun.span).starts_with('{') && slice(&text, lecun.span).ends_with('}'));

    let vaswani = &parsed.references[1].fields;
    assert_eq!(vaswani.year, Some(2017), "from `raw`");
    assert_eq!(
        vaswani.arxiv.as_deref(),
        Some("1706.03762"),
        "from an arXiv URL"
    );
    assert_eq!(vaswani.authors[1], Person::new(None, "Google Brain"));

    let book = &parsed.references[2].fields;
    assert_eq!(
        book.editors,
        vec![Person::new(Some("Anna"), "van der Berg")]
    );
    assert_eq!(book.isbn.as_deref(), Some("9780262035613"));
    assert_eq!(book.publisher.as_deref(), Some("Example Press"));
    assert_eq!(book.year, Some(2019), "string date parts");

    let by_id = &parsed.references[3].fields;
    assert_eq!(
        by_id.pmcid.as_deref(),
        Some("PMC4425999"),
        "from a prefixed id"
    );
    assert_eq!(by_id.year, Some(2014), "from `literal`");
}

#[test]
fn one_malformed_item_does_not_lose_the_others() {
    let text = fixture("csljson/malformed.json");
    let parsed = csljson(&text);
    check_invariants(&text, &parsed);
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["good1", "good2"]);
    let problems: Vec<(&str, &str)> = parsed
        .problems
        .iter()
        .map(|p| (p.rule.code, p.message.as_str()))
        .collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems.iter().all(|(code, _)| *code == "CP002"));
    assert!(problems[0].1.contains("`broken`") && problems[0].1.contains("trailing comma"));
    assert!(problems[1].1.contains("no `id`"));
    assert!(problems[2].1.contains("closing `\"`"));
    // Each problem points into the item it is about.
    let broken_at = parsed.problems[0].span.start;
    let broken_item = text.find("\"broken\"").unwrap();
    assert!(broken_at > broken_item && broken_at < text.find("without an id").unwrap());
    assert_eq!(slice(&text, parsed.problems[2].span), "\"");
}

#[test]
fn inputs_that_are_not_csl_json() {
    for (text, expect_problem) in [
        ("", false),
        ("   \n", false),
        ("[]", false),
        ("{\"not\": \"an item\"}", true),
        ("\"a string\"", true),
        ("[1, 2, 3]", true),
        ("[{\"id\": 5, \"title\": \"numeric id\"}]", false),
        ("[{\"id\": \"x\"} {\"id\": \"y\"}]", true),
        ("[{\"id\": \"a\\\"b\", \"title\": \"escaped id\"}]", false),
    ] {
        let parsed = csljson(text);
        check_invariants(text, &parsed);
        assert_eq!(
            !parsed.problems.is_empty(),
            expect_problem,
            "{text:?}: {:?}",
            parsed.problems
        );
    }
    let single = csljson("{\"id\": \"only\", \"title\": \"A single item\"}");
    assert_eq!(single.references.len(), 1);
    assert_eq!(single.references[0].key, "only");
    let escaped = csljson("[{\"id\": \"a\\\"b\"}]");
    assert_eq!(escaped.references[0].key, "a\"b");
    assert_eq!(
        escaped.references[0].key_span, None,
        "escaped ids have no exact span"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "[{{\"id\": \"x\", \"n\": {}1{}}}]",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let parsed = csljson(&deep);
    check_invariants(&deep, &parsed);
    assert_eq!(parsed.references.len(), 0);
    assert_eq!(parsed.problems.len(), 1);
    assert!(
        parsed.problems[0].message.contains("recursion"),
        "{}",
        parsed.problems[0].message
    );
}
