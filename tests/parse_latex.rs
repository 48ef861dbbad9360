//! The LaTeX parser on fixtures of every syntax it reads: keys, kinds, spans,
//! claims, bibliography and include requests, `thebibliography`, skipped regions,
//! half-typed input and suppressions.

use citeproof::model::{CitationKind, FileId, ReferenceOrigin, SuppressionKind};
use citeproof::parse::{self, ParseOptions, Parsed};

fn parse(text: &str) -> Parsed {
    parse::latex::parse(FileId(0), text, &ParseOptions::default())
}

fn fixture(path: &str) -> String {
    let full = format!("{}/fixtures/latex/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn keys(parsed: &Parsed) -> Vec<&str> {
    parsed.citations.iter().map(|c| c.key.as_str()).collect()
}

/// The claim text of the first citation of `key`.
fn claim_of<'p>(parsed: &'p Parsed, key: &str) -> Option<&'p str> {
    let citation = parsed.citations.iter().find(|c| c.key == key)?;
    citation.claim.map(|i| parsed.claims[i].text.as_str())
}

/// Every span slices to its key, inside the text; every group span covers its key.
fn assert_spans(text: &str, parsed: &Parsed) {
    for c in &parsed.citations {
        assert_eq!(&text[c.span.start..c.span.end], c.key, "{c:?}");
        assert!(c.group_span.covers(c.span), "{c:?}");
        assert!(text[c.group_span.start..].starts_with('\\'), "{c:?}");
        if let Some(claim) = c.claim {
            assert!(parsed.claims[claim].span.covers(c.group_span), "{c:?}");
        }
    }
}

#[test]
fn natbib_commands_keys_and_spans() {
    let text = fixture("natbib/paper.tex");
    let parsed = parse(&text);
    assert_eq!(
        keys(&parsed),
        [
            "lecun2015deep",
            "vaswani2017attention",
            "goodfellow2016deep",
            "lecun2015deep",
            "he2016residual",
            "he2016residual",
            "mueller2018efficient",
            "ignored2020",
            "nosuch2021",
            "vaswani2017attention",
            "ioffe2015batch",
        ]
    );
    assert!(parsed.citations.iter().all(|c| c.kind == CitationKind::Key));
    assert_spans(&text, &parsed);
    let commands: Vec<&str> = parsed
        .citations
        .iter()
        .map(|c| c.command.as_deref().unwrap())
        .collect();
    assert_eq!(
        commands,
        [
            "citep", "citet", "citep", "citep", "Citet", "citealp", "citep", "citep", "citep",
            "citep", "citep"
        ]
    );
    // `\citet` and `\Citet` are narrative, `\citep` is not.
    assert!(parsed.citations[1].narrative && parsed.citations[4].narrative);
    assert!(!parsed.citations[0].narrative);
    // Two keys of one command share the group span and have their own key spans.
    let (a, b) = (&parsed.citations[2], &parsed.citations[3]);
    assert_eq!(a.group_span, b.group_span);
    assert_eq!(
        &text[a.group_span.start..a.group_span.end],
        r"\citep[see][chap.~2]{goodfellow2016deep, lecun2015deep}"
    );
    assert_ne!(a.span, b.span);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
}

#[test]
fn natbib_claims_are_the_sentences_without_markers() {
    let text = fixture("natbib/paper.tex");
    let parsed = parse(&text);
    assert_eq!(
        claim_of(&parsed, "lecun2015deep"),
        Some("Deep networks learn layered representations of their input.")
    );
    assert_eq!(
        claim_of(&parsed, "goodfellow2016deep"),
        Some("Several surveys cover the field.")
    );
    // A narrative citation that opens a sentence belongs to that sentence.
    assert_eq!(
        claim_of(&parsed, "he2016residual"),
        Some("introduced residual connections; is cited often.")
    );
    // Accents and `~` decoded; inline math kept as text; `\label` dropped.
    assert_eq!(
        claim_of(&parsed, "mueller2018efficient"),
        Some("The effect was first described by Müller in 2018.")
    );
    let threshold = parsed
        .citations
        .iter()
        .rfind(|c| c.key == "vaswani2017attention")
        .and_then(|c| c.claim)
        .map(|i| parsed.claims[i].text.as_str());
    assert_eq!(threshold, Some("We use α = 0.05 as the threshold."));
    // A footnote is a claim of its own, not part of the sentence around it.
    assert_eq!(
        claim_of(&parsed, "ioffe2015batch"),
        Some("Batch normalisation speeds up training.")
    );
    for claim in &parsed.claims {
        assert!(!claim.text.contains('\u{FFFC}'), "{claim:?}");
        assert!(!claim.text.contains('\\'), "{claim:?}");
    }
}

#[test]
fn natbib_bibliography_and_suppression() {
    let text = fixture("natbib/paper.tex");
    let parsed = parse(&text);
    assert_eq!(parsed.bibliographies.len(), 1);
    let request = &parsed.bibliographies[0];
    assert_eq!(request.path, "references");
    let (file, span) = request.at.expect("written in the file");
    assert_eq!(file, FileId(0));
    assert_eq!(&text[span.start..span.end], "references");
    assert_eq!(parsed.suppressions.len(), 1);
    let s = &parsed.suppressions[0];
    assert_eq!(s.kind, SuppressionKind::Ignore);
    assert_eq!(s.rules, ["CP101"]);
    assert_eq!(
        &text[s.span.start..s.span.end],
        "% citeproof: ignore[CP101]"
    );
}

#[test]
fn biblatex_commands_including_multicite() {
    let text = fixture("biblatex/paper.tex");
    let parsed = parse(&text);
    assert_spans(&text, &parsed);
    let written: Vec<(&str, &str)> = parsed
        .citations
        .iter()
        .map(|c| (c.command.as_deref().unwrap(), c.key.as_str()))
        .collect();
    assert_eq!(
        written,
        [
            ("cite", "kipf2017"),
            ("parencite", "vaswani2017"),
            ("Textcite", "devlin2019"),
            ("autocite", "kipf2017"),
            ("cites", "vaswani2017"),
            ("cites", "devlin2019"),
            ("footcite", "kipf2017"),
            ("supercite", "devlin2019"),
            ("smartcite", "vaswani2017"),
            ("fullcite", "kipf2017"),
            ("textcites", "vaswani2017"),
            ("textcites", "kipf2017"),
            ("parencites", "vaswani2017"),
            ("parencites", "devlin2019"),
            ("nocite", "*"),
        ]
    );
    let multi = &parsed.citations[4];
    assert_eq!(
        &text[multi.group_span.start..multi.group_span.end],
        r"\cites(compare)(and the discussion there)[see][3]{vaswani2017}[][ch.~2]{devlin2019}"
    );
    assert_eq!(
        claim_of(&parsed, "vaswani2017"),
        Some("Transformers dominate language modelling.")
    );
    // A citation in a heading carries the heading as its claim.
    assert_eq!(claim_of(&parsed, "kipf2017"), Some("Background"));
    let cites_claim = parsed.citations[4].claim.map(|i| &parsed.claims[i].text);
    assert_eq!(
        cites_claim.map(String::as_str),
        Some("Both architectures rely on attention.")
    );
    let textcites = parsed.citations[10].claim.map(|i| &parsed.claims[i].text);
    assert_eq!(
        textcites.map(String::as_str),
        Some("both report large gains.")
    );
    // `\nocite{*}` cites everything and carries no claim.
    let nocite = parsed.citations.last().unwrap();
    assert_eq!(nocite.claim, None);
    assert_eq!(
        parsed
            .bibliographies
            .iter()
            .map(|b| b.path.as_str())
            .collect::<Vec<_>>(),
        ["refs.bib"],
        "a remote resource is not a file to read"
    );
}

#[test]
fn includes_are_requested_with_their_place() {
    let text = fixture("multifile/main.tex");
    let parsed = parse(&text);
    let includes: Vec<(&str, &str)> = parsed
        .includes
        .iter()
        .map(|i| (i.command.as_str(), i.path.as_str()))
        .collect();
    assert_eq!(
        includes,
        [
            ("input", "sections/intro"),
            ("include", "chapter"),
            ("subfile", "appendix"),
            ("input", "sections/missing"),
            ("input", "loop/a"),
        ]
    );
    assert_eq!(
        &text[parsed.includes[0].at.start..parsed.includes[0].at.end],
        r"\input{sections/intro}"
    );
    let bibs: Vec<&str> = parsed
        .bibliographies
        .iter()
        .map(|b| b.path.as_str())
        .collect();
    assert_eq!(bibs, ["refs", "absent"]);
    // The wrapper's body is not a citation; the wrapper is reported for includes.
    assert!(parsed.citations.is_empty(), "{:?}", parsed.citations);
    assert_eq!(parsed.cite_commands, ["mycite"]);
}

#[test]
fn tex_input_without_braces_and_import() {
    let parsed = parse("\\input chapter1 \\import{parts/}{two}\n\\subimport*{deep/}{three.tex}");
    let paths: Vec<&str> = parsed.includes.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, ["chapter1", "parts/two", "deep/three.tex"]);
}

#[test]
fn wrappers_defined_in_the_file_are_citation_commands() {
    let text = r"\newcommand{\mycite}[1]{\citep{#1}}
\newcommand\seecite[2][see]{\citep[#1][]{#2}}
\def\oldcite#1{\cite{#1}}
\newcommand{\textthencite}[2]{#1 \cite{#2}}
A claim \mycite{a}. Another \seecite[compare]{b}. Old style \oldcite{c}.
Text first \textthencite{some text}{d}.";
    let parsed = parse(text);
    assert_eq!(keys(&parsed), ["a", "b", "c", "d"]);
    assert_eq!(parsed.citations[0].command.as_deref(), Some("mycite"));
    assert_eq!(parsed.citations[3].command.as_deref(), Some("textthencite"));
    assert_eq!(
        parsed.cite_commands,
        ["mycite", "seecite", "oldcite", "textthencite"]
    );
    assert_spans(text, &parsed);
}

#[test]
fn configured_commands_replace_the_defaults() {
    let options = ParseOptions {
        cite_commands: vec!["mycite".into()],
        ..ParseOptions::default()
    };
    let parsed = parse::latex::parse(
        FileId(0),
        r"\mycite{a} and \cite{b} and \Mycite{c}",
        &options,
    );
    let keys: Vec<&str> = parsed.citations.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["a", "c"]);
}

#[test]
fn thebibliography_items_are_references() {
    let text = fixture("thebibliography/paper.tex");
    let parsed = parse(&text);
    assert_eq!(keys(&parsed), ["vaswani", "srivastava", "nosuchitem"]);
    let refs = &parsed.references;
    assert_eq!(refs.len(), 3);
    assert!(refs.iter().all(|r| r.origin == ReferenceOrigin::BibItem));
    for r in refs {
        let key_span = r.key_span.expect("key written");
        assert_eq!(&text[key_span.start..key_span.end], r.key);
        assert_eq!(&text[r.span.start..r.span.end], r.raw);
        assert!(r.raw.starts_with("\\bibitem"), "{}", r.raw);
        assert!(!r.raw.contains("\\end{thebibliography}"), "{}", r.raw);
    }
    let vaswani = &refs[0];
    assert_eq!(vaswani.key, "vaswani");
    assert_eq!(
        vaswani.fields.title.as_deref(),
        Some("Attention is all you need")
    );
    assert_eq!(vaswani.fields.year, Some(2017));
    assert_eq!(vaswani.fields.arxiv.as_deref(), Some("1706.03762"));
    let families: Vec<&str> = vaswani
        .fields
        .authors
        .iter()
        .map(|p| p.family.as_str())
        .collect();
    assert_eq!(families, ["Vaswani", "Shazeer", "Parmar", "Uszkoreit"]);
    let srivastava = &refs[1];
    assert_eq!(srivastava.key, "srivastava");
    assert_eq!(srivastava.fields.year, Some(2014));
    assert_eq!(
        srivastava.fields.venue.as_deref(),
        Some("Journal of Machine Learning Research")
    );
    // The comment line between items belongs to neither.
    assert!(!srivastava.raw.contains("A comment"), "{}", srivastava.raw);
    let he = &refs[2];
    assert_eq!(he.fields.doi.as_deref(), Some("10.1109/cvpr.2016.90"));
    assert_eq!(
        he.fields.title.as_deref(),
        Some("Deep residual learning for image recognition")
    );
}

#[test]
fn comments_verbatim_and_dead_code_are_skipped() {
    let text = fixture("skipped/paper.tex");
    let parsed = parse(&text);
    assert_eq!(keys(&parsed), ["real2020", "livebranch", "real2021"]);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    assert_eq!(claim_of(&parsed, "livebranch"), Some("Live branch."));
    // `\verb` text and a URL with `%` stay in the sentence; nothing after them is lost.
    assert_eq!(
        claim_of(&parsed, "real2021"),
        Some(r"Inline code \cite{inverb} and a link https://example.org/a%20b stay text.")
    );
}

#[test]
fn half_typed_input_is_reported_and_the_rest_is_read() {
    let text = fixture("edge/halftyped/paper.tex");
    let parsed = parse(&text);
    assert_eq!(
        keys(&parsed),
        ["later2020", "afteriffalse", "ingroup", "afterverbatim"]
    );
    let problems: Vec<(&str, &str)> = parsed
        .problems
        .iter()
        .map(|p| (p.rule.code, &text[p.span.start..p.span.end]))
        .collect();
    assert_eq!(
        problems,
        [
            ("CP003", "{"),
            ("CP003", "["),
            ("CP003", r"\iffalse"),
            ("CP003", r"\begin{verbatim}"),
            ("CP003", "{"),
        ]
    );
    let messages: Vec<&str> = parsed.problems.iter().map(|p| p.message.as_str()).collect();
    assert!(messages[0].contains("key list of \\cite"), "{messages:?}");
    assert!(messages[2].contains("\\iffalse"), "{messages:?}");
    assert!(messages[3].contains("verbatim"), "{messages:?}");
    // The unclosed group is the one before `An unclosed group`.
    let group = parsed.problems[4].span.start;
    assert!(text[group..].starts_with("{An unclosed group"));
}

#[test]
fn deep_nesting_and_huge_inputs_do_not_overflow() {
    let depth = 100_000;
    let mut text = "\\footnote{".repeat(depth);
    text.push_str("Deep claim \\cite{deep}.");
    text.push_str(&"}".repeat(depth));
    text.push_str(&"{".repeat(depth));
    let parsed = parse(&text);
    assert_eq!(keys(&parsed), ["deep"]);
    assert_eq!(claim_of(&parsed, "deep"), Some("Deep claim."));
    assert_eq!(
        parsed.problems.len(),
        1,
        "one report for the unclosed braces"
    );
    assert!(parsed.problems[0].message.contains("99999 more"));
    let cite = format!("\\cite[{}]{{k}}", "{".repeat(depth));
    assert!(parse(&cite).citations.is_empty());
}

#[test]
fn escapes_and_odd_keys() {
    let text = "50\\% of runs \\cite{a ,  b,,c%comment\n , d} \\cite{#1} \\cite{\\x} \\cite{}";
    let parsed = parse(text);
    assert_eq!(keys(&parsed), ["a", "b", "c", "d"]);
    assert_spans(text, &parsed);
    assert_eq!(claim_of(&parsed, "a"), Some("50% of runs"));
}

#[test]
fn endinput_stops_reading() {
    let parsed = parse("\\cite{a}\n\\endinput\n\\cite{b}");
    assert_eq!(keys(&parsed), ["a"]);
}

#[test]
fn dashes_quotes_and_text_symbols_in_claims() {
    let text = "Pages 1--3 of ``the book''---a classic \\cite{a}.\n\
                The \\texttt{differential\\textunderscore evolution} solver \\cite{b}.\n\
                Written by M\\\"{u}ller and Erd\\H{o}s, \\S~2 \\cite{c}.";
    let parsed = parse(text);
    assert_eq!(
        claim_of(&parsed, "a"),
        Some("Pages 1–3 of \"the book\"—a classic.")
    );
    assert_eq!(
        claim_of(&parsed, "b"),
        Some("The differential_evolution solver.")
    );
    assert_eq!(
        claim_of(&parsed, "c"),
        Some("Written by Müller and Erdős, § 2.")
    );
}
