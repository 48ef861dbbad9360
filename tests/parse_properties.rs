//! Property tests: on arbitrary input the Markdown, answer and CSL-JSON parsers
//! never panic, every span lies on character boundaries inside the text, a
//! citation's span spells its key and a reference's span its raw text.

#[path = "../src/proptest_config.rs"]
mod proptest_config;

mod parse_support;

use parse_support::*;
use proptest::prelude::*;

/// Pieces of citation syntax, Markdown structure and awkward characters, so that
/// random documents exercise the interesting paths rather than plain words.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[@smith2020]".to_string()),
        Just("[see @a, p. 3; -@b]".to_string()),
        Just("[@doi:10.1000/xyz(1)]".to_string()),
        Just("[@tag:t]".to_string()),
        Just("[@tag:t]: doi:10.1/abc\n".to_string()),
        Just("@key".to_string()),
        Just("[1]".to_string()),
        Just("[1, 3-5]".to_string()),
        Just("[2–4]".to_string()),
        Just("[^1]".to_string()),
        Just("[^1]: A note (Smith 2020).\n".to_string()),
        Just("[1]: https://ex.org/a\n".to_string()),
        Just("(Smith et al., 2020)".to_string()),
        Just("Lee and Kim (2019a)".to_string()),
        Just("`code [@x]`".to_string()),
        Just("```\n".to_string()),
        Just("<!-- citeproof: ignore[CP101] -->".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("https://doi.org/10.1038/nature14539".to_string()),
        Just("[link](https://arxiv.org/abs/1706.03762)".to_string()),
        Just("<https://pubmed.ncbi.nlm.nih.gov/1/>".to_string()),
        Just("doi:10.1/x".to_string()),
        Just("PMID: 123".to_string()),
        Just("\n".to_string()),
        Just("\n\n".to_string()),
        Just("\r\n".to_string()),
        Just("## References\n".to_string()),
        Just("Sources:\n".to_string()),
        Just("1. ".to_string()),
        Just("- ".to_string()),
        Just("> ".to_string()),
        Just("| a | b |\n|---|---|\n".to_string()),
        Just("---\nbibliography: [a.bib\n---\n".to_string()),
        Just("$x.y$".to_string()),
        Just("e.g. ".to_string()),
        Just("et al. ".to_string()),
        Just(". ".to_string()),
        Just("\\".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("**".to_string()),
        Just("ü".to_string()),
        Just("—".to_string()),
        Just("\u{FFFC}".to_string()),
        "[a-zA-Z0-9 ]{0,12}",
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn document() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..60).prop_map(|pieces| pieces.concat())
}

fn json_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[".to_string()),
        Just("]".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("\"id\"".to_string()),
        Just("\"title\"".to_string()),
        Just("\"author\": [{\"family\": \"Ü\", \"given\": \"A\"}]".to_string()),
        Just("\"issued\": {\"date-parts\": [[2020]]}".to_string()),
        Just("\"x\\\"y\"".to_string()),
        Just("\"é\"".to_string()),
        Just("12".to_string()),
        Just("null".to_string()),
        Just(" \n".to_string()),
        Just("{\"id\": \"k\", \"title\": \"T\"}".to_string()),
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

proptest! {
    #![proptest_config(crate::proptest_config::config(400))]

    #[test]
    fn markdown_keeps_invariants(text in document()) {
        check_invariants(&text, &markdown(&text));
    }

    #[test]
    fn markdown_survives_any_string(text in any::<String>()) {
        check_invariants(&text, &markdown(&text));
    }

    #[test]
    fn answers_keep_invariants(text in document()) {
        check_invariants(&text, &answer(&text));
    }

    #[test]
    fn answers_survive_any_string(text in any::<String>()) {
        check_invariants(&text, &answer(&text));
    }

    #[test]
    fn csljson_keeps_invariants(pieces in prop::collection::vec(json_piece(), 0..40)) {
        let text = pieces.concat();
        check_invariants(&text, &csljson(&text));
    }

    #[test]
    fn csljson_survives_any_string(text in any::<String>()) {
        check_invariants(&text, &csljson(&text));
    }
}
