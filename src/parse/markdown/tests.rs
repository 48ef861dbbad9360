use super::*;
use crate::model::{CitationKind, ReferenceOrigin};

fn run(text: &str) -> Parsed {
    parse(FileId(0), text, &ParseOptions::default())
}

fn keys(parsed: &Parsed) -> Vec<&str> {
    parsed.citations.iter().map(|c| c.key.as_str()).collect()
}

#[test]
fn defined_tags_and_numbers_are_read_through_their_links() {
    // With a definition, pulldown-cmark makes `[@tag:x]` and `[1]` links.
    let text = "Cited [@tag:x] and [1].\n\n[@tag:x]: doi:10.1000/xyz\n[1]: https://ex.org/a\n";
    let parsed = run(text);
    assert_eq!(keys(&parsed), ["tag:x", "1"]);
    assert_eq!(parsed.citations[0].kind, CitationKind::Tag);
    assert_eq!(parsed.citations[1].kind, CitationKind::Numeric);
    assert_eq!(parsed.references.len(), 2);
}

#[test]
fn images_and_footnote_text_hold_no_link_citations() {
    let text = "![a figure [@fig1]](https://doi.org/10.1038/nature14539) Text.[^n]\n\n[^n]: See [the paper](https://doi.org/10.1038/nature14539) and [@key].\n";
    let parsed = run(text);
    // The footnote marker, and the pandoc key inside the footnote; not the links.
    assert_eq!(keys(&parsed), ["^n", "key"]);
    let note = &parsed.references[0];
    assert_eq!(note.origin, ReferenceOrigin::Footnote);
    assert_eq!(note.fields.doi.as_deref(), Some("10.1038/nature14539"));
}

#[test]
fn setext_headings_and_bold_lines_open_reference_sections() {
    let text = "Claim [1].\n\nReferences\n----------\n\n1. Smith, J. (2020). Title. Journal.\n";
    let parsed = run(text);
    assert_eq!(parsed.references.len(), 1);
    let text = "Claim [1].\n\n**Sources**\n\n- https://ex.org/one\n";
    let parsed = run(text);
    assert_eq!(parsed.references.len(), 1);
    assert_eq!(parsed.references[0].key, "1");
}

#[test]
fn citations_in_headings_and_entities_keep_spans_exact() {
    let text = "# Title [@k]\n\nTom &amp; Jerry [@j].\n";
    let parsed = run(text);
    assert_eq!(keys(&parsed), ["k", "j"]);
    let j = &parsed.citations[1];
    assert_eq!(&text[j.span.start..j.span.end], "j");
    assert_eq!(parsed.claims[1].text, "Tom & Jerry.");
}

#[test]
fn references_of_every_kind_come_in_document_order() {
    // Definitions (a map in pulldown-cmark), footnotes and two reference sections,
    // interleaved.
    let text = "Text [@tag:z] [^a] [@tag:y].\n\n[@tag:z]: doi:10.1000/z\n\n[^a]: A note.\n\n\
                ## References\n\n1. Smith, J. (2020). One.\n2. Lee, K. (2021). Two.\n\n\
                [@tag:y]: doi:10.1000/y\n\n[^b]: Another note.\n\n## Sources\n\n- https://ex.org/s\n";
    let parsed = run(text);
    let got: Vec<(&str, ReferenceOrigin)> = parsed
        .references
        .iter()
        .map(|r| (r.key.as_str(), r.origin))
        .collect();
    assert_eq!(
        got,
        [
            ("tag:z", ReferenceOrigin::TagDefinition),
            ("^a", ReferenceOrigin::Footnote),
            ("1", ReferenceOrigin::ReferenceList),
            ("2", ReferenceOrigin::ReferenceList),
            ("tag:y", ReferenceOrigin::TagDefinition),
            ("^b", ReferenceOrigin::Footnote),
            ("1", ReferenceOrigin::ReferenceList),
        ]
    );
    assert!(parsed.references.is_sorted_by_key(|r| r.span.start));
}
