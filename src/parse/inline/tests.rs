use super::*;

fn items(text: &str, syntax: Syntax) -> Vec<(String, CitationKind, String)> {
    scan(text, 0, syntax, None)
        .into_iter()
        .flat_map(|f| f.items)
        .map(|i| (i.key, i.kind, text[i.span.start..i.span.end].to_string()))
        .collect()
}

fn keys(text: &str, syntax: Syntax) -> Vec<String> {
    items(text, syntax).into_iter().map(|(k, _, _)| k).collect()
}

#[test]
fn numeric_lists_and_ranges() {
    let got = items("see [1, 3-5] and [7–8]", Syntax::ANSWER);
    let written: Vec<&str> = got.iter().map(|(k, _, _)| k.as_str()).collect();
    assert_eq!(written, ["1", "3", "4", "5", "7", "8"]);
    assert_eq!(got[1].2, "3-5");
    assert_eq!(got[4].2, "7–8");
    for not_marker in [
        "[0]", "[5-2]", "[1-500]", "[12345]", "[a]", "[ ]", "[1,,2]", "[01]",
    ] {
        assert!(keys(not_marker, Syntax::ANSWER).is_empty(), "{not_marker}");
    }
}

#[test]
fn escapes_and_mail_addresses_across_run_boundaries() {
    assert!(scan("[@key]", 0, Syntax::MARKDOWN, Some('\\')).is_empty());
    assert!(scan("@key here", 0, Syntax::MARKDOWN, Some('a')).is_empty());
    assert_eq!(scan("@key here", 0, Syntax::MARKDOWN, Some(' ')).len(), 1);
    assert!(keys("write to me@example.org", Syntax::MARKDOWN).is_empty());
    assert!(keys("see https://example.org/@user/page here", Syntax::MARKDOWN).is_empty());
    // A marker glued to a URL is still a marker.
    assert_eq!(
        keys("see https://example.org/page[1]", Syntax::MARKDOWN),
        ["1"]
    );
}

#[test]
fn spans_are_shifted_by_the_base() {
    let found = scan("x [@k]", 100, Syntax::MARKDOWN, None);
    assert_eq!(found[0].group, Span::new(102, 106));
    assert_eq!(found[0].items[0].span, Span::new(104, 105));
}

#[test]
fn a_marker_that_links_its_source_cites_the_url() {
    let got = items(
        "capital[1](https://en.wikipedia.org/wiki/Paris).",
        Syntax::ANSWER,
    );
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].1, CitationKind::Identifier);
    assert_eq!(got[0].0, "https://en.wikipedia.org/wiki/Paris");
}

#[test]
fn a_narrative_mention_before_a_bracket_is_not_a_second_citation() {
    let text = "Yoshikawa et al. (2019) [@doi:10.1246/cl.180665] showed it.";
    assert_eq!(keys(text, Syntax::MARKDOWN), ["doi:10.1246/cl.180665"]);
    let text = "Yoshikawa et al. (2019) showed it.";
    assert_eq!(keys(text, Syntax::MARKDOWN), ["Yoshikawa et al. (2019)"]);
}

#[test]
fn urls_cite_only_scholarly_pages_in_markdown_but_every_page_in_answers() {
    let text = "see https://github.com/a/b and https://doi.org/10.1038/nature14539.";
    assert_eq!(
        keys(text, Syntax::MARKDOWN),
        ["https://doi.org/10.1038/nature14539"]
    );
    assert_eq!(keys(text, Syntax::ANSWER).len(), 2);
    assert!(keys(text, Syntax::KEYS_ONLY).is_empty());
}

#[test]
fn empty_group_parts_are_tolerated() {
    assert_eq!(
        keys("[@tag:a;; @tag:b]", Syntax::MARKDOWN),
        ["tag:a", "tag:b"]
    );
    // A bracket that is not a citation group leaves an in-text key.
    let got = scan("[;; @a]", 0, Syntax::MARKDOWN, None);
    assert_eq!(got.len(), 1);
    assert!(got[0].items[0].narrative);
}

/// [`closing_bracket`] one byte at a time.
fn closing_bracket_bytewise(bytes: &[u8], open: usize) -> Option<usize> {
    let end = bytes.len().min(open + 2000);
    let mut newline = false;
    for (j, &b) in bytes.iter().enumerate().take(end).skip(open + 1) {
        match b {
            b']' => return Some(j),
            b'[' => return None,
            b'\n' if newline => return None,
            b'\n' => newline = true,
            b' ' | b'\t' | b'\r' => {}
            _ => newline = false,
        }
    }
    None
}

proptest::proptest! {
    #![proptest_config(crate::proptest_config::config(256))]
    /// Brackets close where a byte-wise reading closes them: not across a blank
    /// line or another `[`.
    #[test]
    fn brackets_close_where_a_bytewise_reading_closes_them(parts in proptest::collection::vec(
        proptest::sample::select(&["[", "]", "\n", " ", "\t", "\r", "@a", "x", "é"][..]), 0..30)) {
        let text = parts.concat();
        let bytes = text.as_bytes();
        for open in 0..bytes.len() {
            proptest::prop_assert_eq!(
                closing_bracket(bytes, open),
                closing_bracket_bytewise(bytes, open),
                "{:?} at {}", text, open
            );
        }
    }
}

/// [`classify_key`] as it was written before it looked for the colon only where a
/// prefix can end: the first colon anywhere, prefixes of up to eight bytes.
fn classify_key_by_first_colon(key: &str) -> Option<(CitationKind, Option<(IdScheme, String)>)> {
    let prefix = key
        .find(':')
        .map(|colon| key[..colon].to_ascii_lowercase())
        .filter(|p| p.len() <= 8);
    match prefix.as_deref() {
        Some("fig" | "tbl" | "eq" | "sec" | "lst" | "table" | "figure") => None,
        Some("tag") => Some((CitationKind::Tag, None)),
        Some(
            "doi" | "arxiv" | "pmid" | "pubmed" | "pmcid" | "pmc" | "isbn" | "url" | "http"
            | "https",
        ) => match crate::parse::ids::parse_prefixed(key) {
            Some(id) => Some((CitationKind::Identifier, Some(id))),
            None => Some((CitationKind::Key, None)),
        },
        _ => Some((CitationKind::Key, None)),
    }
}

proptest::proptest! {
    #![proptest_config(crate::proptest_config::config(256))]
    /// Keys are classified as by their first colon, wherever it is.
    #[test]
    fn keys_classify_as_by_their_first_colon(parts in proptest::collection::vec(
        proptest::sample::select(&["doi", "DOI", "tag", "fig", "figure", "tables", "Url", ":",
            "10.1038/x", "1706.03762", "pmc", "PMC123456", "a", "é", "12345678", "https", "//a.org"][..]),
        0..6)) {
        let key = parts.concat();
        proptest::prop_assert_eq!(classify_key(&key), classify_key_by_first_colon(&key), "{:?}", key);
    }
}
