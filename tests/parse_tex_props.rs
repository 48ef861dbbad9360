//! Property tests for the LaTeX and BibTeX parsers: they never panic on arbitrary
//! input, every span lies on char boundaries inside the text, a citation span
//! slices to its key, and a field's value span slices to the value as written.

#[path = "../src/proptest_config.rs"]
mod proptest_config;

use citeproof::model::{FileId, Span};
use citeproof::parse::{self, ParseOptions, Parsed};
use proptest::prelude::*;

fn on_boundaries(text: &str, span: Span) -> bool {
    span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

fn assert_well_formed(text: &str, parsed: &Parsed) {
    for c in &parsed.citations {
        assert!(
            on_boundaries(text, c.span) && on_boundaries(text, c.group_span),
            "{c:?}"
        );
        assert_eq!(&text[c.span.start..c.span.end], c.key);
        assert!(c.group_span.covers(c.span));
        if let Some(claim) = c.claim {
            assert!(claim < parsed.claims.len());
        }
    }
    for claim in &parsed.claims {
        assert!(on_boundaries(text, claim.span), "{claim:?}");
    }
    for r in &parsed.references {
        assert!(on_boundaries(text, r.span), "{r:?}");
        assert_eq!(&text[r.span.start..r.span.end], r.raw);
        if let Some(key) = r.key_span {
            assert!(on_boundaries(text, key));
            assert_eq!(&text[key.start..key.end], r.key);
        }
        for f in &r.field_spans {
            assert!(
                on_boundaries(text, f.value) && on_boundaries(text, f.whole),
                "{f:?}"
            );
            assert!(f.whole.covers(f.value));
        }
    }
    for d in &parsed.problems {
        assert!(on_boundaries(text, d.span), "{d:?}");
    }
    for s in &parsed.suppressions {
        assert!(on_boundaries(text, s.span), "{s:?}");
    }
    for i in &parsed.includes {
        assert!(on_boundaries(text, i.at));
    }
    for b in &parsed.bibliographies {
        let (_, span) = b.at.expect("requests from a file carry their place");
        assert_eq!(&text[span.start..span.end], b.path);
    }
}

/// Text made of the pieces LaTeX markup is built from, so that generated inputs
/// exercise commands, groups, comments and environments, not just letters.
fn latex_like() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "\\cite{",
        "\\citep[",
        "\\cites(",
        "\\Textcite*{",
        "\\nocite{*}",
        "}",
        "{",
        "]",
        "[",
        "(",
        ")",
        ",",
        " ",
        "\n",
        "\n\n",
        "%",
        "\\%",
        "key",
        "é",
        "ü",
        "\u{FFFC}",
        "$",
        "$$",
        "~",
        "\\begin{verbatim}",
        "\\end{verbatim}",
        "\\iffalse",
        "\\else",
        "\\fi",
        "\\footnote{",
        "\\section{",
        "\\verb|",
        "|",
        "\\input{",
        "\\bibliography{",
        "\\addbibresource{",
        "\\begin{thebibliography}{9}",
        "\\bibitem{",
        "\\end{thebibliography}",
        "\\newcommand{\\x}[1]{\\cite{#1}}",
        "\\x{",
        "\\\"",
        "\\'",
        "\\c",
        "\\(",
        "\\)",
        "\\[",
        "\\]",
        "\\\\",
        ". ",
        "A claim",
        "% citeproof: ignore[CP101]\n",
        "\\url{",
        "``",
        "''",
        "&",
        "\\label{",
        "\\",
    ]);
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

fn bibtex_like() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "@article{",
        "@string{",
        "@comment{",
        "@preamble{",
        "@misc(",
        "@",
        "key",
        ",",
        " = ",
        "=",
        "{",
        "}",
        "(",
        ")",
        "\"",
        " # ",
        "title",
        "author",
        "crossref",
        "xdata",
        "and",
        " and others",
        "doi",
        "10.1000/x",
        "2020",
        "jan",
        "\n",
        "%",
        "% citeproof: ignore\n",
        "é",
        "\\\"u",
        "{\\\"u}",
        "\\",
        "$",
        "url",
        "https://doi.org/10.1/x",
        "eprint",
        " ",
    ]);
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

/// A value that is safe between braces: balanced, no entry-looking lines.
fn braced_value() -> impl Strategy<Value = String> {
    r"[A-Za-z0-9 .,:;éü\-]{0,30}".prop_map(|inner| inner.trim().to_string())
}

proptest! {
    #![proptest_config(crate::proptest_config::config(400))]

    #[test]
    fn latex_never_panics_on_arbitrary_text(text in any::<String>()) {
        let parsed = parse::latex::parse(FileId(0), &text, &ParseOptions::default());
        assert_well_formed(&text, &parsed);
    }

    #[test]
    fn latex_spans_hold_on_markup_like_text(text in latex_like()) {
        let parsed = parse::latex::parse(FileId(0), &text, &ParseOptions::default());
        assert_well_formed(&text, &parsed);
    }

    #[test]
    fn bibtex_never_panics_on_arbitrary_text(text in any::<String>()) {
        let parsed = parse::bibtex::parse(FileId(0), &text, &ParseOptions::default());
        assert_well_formed(&text, &parsed);
    }

    #[test]
    fn bibtex_spans_hold_on_entry_like_text(text in bibtex_like()) {
        let parsed = parse::bibtex::parse(FileId(0), &text, &ParseOptions::default());
        assert_well_formed(&text, &parsed);
    }

    #[test]
    fn citation_keys_slice_back(keys in prop::collection::vec("[A-Za-z][A-Za-z0-9:_.-]{0,12}", 1..5), pad in " {0,3}") {
        let list = keys.join(&format!(",{pad}"));
        let text = format!("Some claim \\citep[see][p. 2]{{{pad}{list}{pad}}}. Next sentence.");
        let parsed = parse::latex::parse(FileId(0), &text, &ParseOptions::default());
        let found: Vec<&str> = parsed.citations.iter().map(|c| &text[c.span.start..c.span.end]).collect();
        prop_assert_eq!(found, keys.iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert!(parsed.citations.iter().all(|c| c.claim.is_some()));
    }

    #[test]
    fn field_value_spans_slice_to_the_written_value(
        key in "[a-z][a-z0-9]{0,10}",
        values in prop::collection::vec((r"[a-z]{1,8}", braced_value(), 0..3usize), 1..6),
    ) {
        let mut text = format!("@article{{{key},\n");
        for (name, value, style) in &values {
            let written = match style {
                0 => format!("{{{value}}}"),
                1 => format!("\"{value}\""),
                _ => format!("{{{{{value}}}}}"),
            };
            text.push_str(&format!("  {name} = {written},\n"));
        }
        text.push('}');
        let parsed = parse::bibtex::parse(FileId(0), &text, &ParseOptions::default());
        prop_assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        prop_assert_eq!(parsed.references.len(), 1);
        let reference = &parsed.references[0];
        prop_assert_eq!(reference.field_spans.len(), values.len());
        for (span, (name, value, style)) in reference.field_spans.iter().zip(&values) {
            prop_assert_eq!(&span.name, name);
            let expected = if *style == 2 { format!("{{{value}}}") } else { value.clone() };
            prop_assert_eq!(&text[span.value.start..span.value.end], expected.as_str());
        }
    }
}
