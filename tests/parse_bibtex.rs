//! The BibTeX/BibLaTeX parser on fixtures: every field of each case, spans, macros,
//! inheritance, identifiers, and malformed entries that lose nothing else.

use citeproof::model::{
    FileId, Person, RefFields, Reference, ReferenceOrigin, SuppressionKind, WorkKind,
};
use citeproof::parse::{self, ParseOptions, Parsed};

fn fixture(name: &str) -> String {
    let full = format!("{}/fixtures/bibtex/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn parse(text: &str) -> Parsed {
    parse::bibtex::parse(FileId(0), text, &ParseOptions::default())
}

fn entry<'p>(parsed: &'p Parsed, key: &str) -> &'p Reference {
    parsed
        .references
        .iter()
        .find(|r| r.key == key)
        .unwrap_or_else(|| panic!("no entry `{key}`"))
}

fn person(given: &str, family: &str) -> Person {
    Person::new(Some(given), family)
}

fn s(text: &str) -> Option<String> {
    Some(text.to_string())
}

/// Spans: the key span slices to the key, the entry span to `raw`, every field's
/// whole span starts with its name and holds its value span.
fn assert_spans(text: &str, parsed: &Parsed) {
    for r in &parsed.references {
        let key = r.key_span.expect("bib entries have a key span");
        assert_eq!(&text[key.start..key.end], r.key);
        assert_eq!(&text[r.span.start..r.span.end], r.raw);
        assert!(
            r.raw.starts_with('@') && r.raw.ends_with(['}', ')']),
            "{}",
            r.raw
        );
        for f in &r.field_spans {
            let whole = &text[f.whole.start..f.whole.end];
            assert!(whole.to_ascii_lowercase().starts_with(&f.name), "{whole}");
            assert!(f.whole.covers(f.value), "{f:?}");
            assert!(r.span.covers(f.whole), "{f:?}");
        }
    }
}

#[test]
fn entry_types_delimiters_and_value_forms() {
    let text = fixture("entries.bib");
    let parsed = parse(&text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    assert_spans(&text, &parsed);
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "smith2020deep",
            "lee2019graph",
            "knuth1984texbook",
            "garcia2018thesis",
            "ng2015report",
            "keyonly",
            "python2023"
        ],
        "@comment, @preamble and the text between entries are not entries"
    );
    assert!(
        parsed
            .references
            .iter()
            .all(|r| r.origin == ReferenceOrigin::BibEntry)
    );
    let smith = entry(&parsed, "smith2020deep");
    assert_eq!(smith.entry_type.as_deref(), Some("article"));
    assert_eq!(
        smith.fields,
        RefFields {
            title: s("Deep Learning for Protein Folding"),
            kind: Some(WorkKind::Article),
            authors: vec![person("John", "Smith"), person("Jane", "Doe")],
            year: Some(2020),
            venue: s("Nature Methods"),
            volume: s("17"),
            issue: s("3"),
            pages: s("245-254"),
            doi: s("10.1038/s41592-020-0001-x"),
            ..RefFields::default()
        }
    );
    assert_eq!(
        entry(&parsed, "lee2019graph").fields,
        RefFields {
            title: s("Graph Networks with \"Quoted\" Words"),
            kind: Some(WorkKind::ConferencePaper),
            authors: vec![person("Kim", "Lee"), person("Min-Jun", "Park")],
            year: Some(2019),
            venue: s("Proceedings of the 36th International Conference on Machine Learning"),
            pages: s("100-110"),
            publisher: s("PMLR"),
            ..RefFields::default()
        }
    );
    let kinds: Vec<(&str, Option<WorkKind>)> = parsed
        .references
        .iter()
        .map(|r| (r.key.as_str(), r.fields.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("smith2020deep", Some(WorkKind::Article)),
            ("lee2019graph", Some(WorkKind::ConferencePaper)),
            ("knuth1984texbook", Some(WorkKind::Book)),
            ("garcia2018thesis", Some(WorkKind::Thesis)),
            ("ng2015report", Some(WorkKind::Report)),
            ("keyonly", None),
            ("python2023", Some(WorkKind::WebPage)),
        ],
        "the kind of each entry, from its type and fields"
    );
    let knuth = entry(&parsed, "knuth1984texbook");
    assert!(knuth.raw.starts_with("@book(") && knuth.raw.ends_with(')'));
    assert_eq!(
        knuth.fields,
        RefFields {
            title: s("The TeXbook"),
            kind: Some(WorkKind::Book),
            authors: vec![person("Donald E.", "Knuth")],
            year: Some(1984),
            venue: s("Addison-Wesley"),
            publisher: s("Addison-Wesley"),
            isbn: s("0201134470"),
            ..RefFields::default()
        }
    );
    let thesis = &entry(&parsed, "garcia2018thesis").fields;
    assert_eq!(thesis.authors, [person("María", "García")]);
    assert_eq!(thesis.venue.as_deref(), Some("Universidad de Barcelona"));
    let report = &entry(&parsed, "ng2015report").fields;
    assert_eq!(report.venue.as_deref(), Some("Stanford University"));
    assert_eq!(report.issue.as_deref(), Some("TR-2015-01"));
    assert_eq!(entry(&parsed, "keyonly").fields, RefFields::default());
    assert_eq!(
        entry(&parsed, "python2023").fields,
        RefFields {
            title: s("The Python Language Reference"),
            kind: Some(WorkKind::WebPage),
            authors: vec![Person::new(None, "Python Software Foundation")],
            year: Some(2023),
            venue: s("Python Software Foundation"),
            url: s("https://docs.python.org/3/reference/"),
            ..RefFields::default()
        }
    );
}

#[test]
fn field_spans_slice_to_the_written_values() {
    let text = fixture("entries.bib");
    let parsed = parse(&text);
    let smith = entry(&parsed, "smith2020deep");
    let value = |name: &str| {
        let f = smith
            .field_span(name)
            .unwrap_or_else(|| panic!("no {name}"));
        (
            &text[f.value.start..f.value.end],
            &text[f.whole.start..f.whole.end],
        )
    };
    assert_eq!(
        value("title"),
        (
            "Deep Learning for {Protein} Folding",
            "Title    = {Deep Learning for {Protein} Folding}"
        )
    );
    assert_eq!(value("year"), ("2020", "Year     = 2020"));
    assert_eq!(value("doi").0, "10.1038/s41592-020-0001-x");
    let lee = entry(&parsed, "lee2019graph");
    let title = lee.field_span("title").unwrap();
    assert_eq!(
        &text[title.value.start..title.value.end],
        "Graph Networks with {\"}Quoted{\"} Words"
    );
    let names: Vec<&str> = lee.field_spans.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["author", "title", "booktitle", "year", "pages", "publisher"]
    );
}

#[test]
fn string_macros_months_and_concatenation() {
    let text = fixture("strings.bib");
    let parsed = parse(&text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    assert_spans(&text, &parsed);
    assert_eq!(
        parsed.references.len(),
        4,
        "@string definitions are not entries"
    );
    assert_eq!(
        entry(&parsed, "macro2001").fields.venue.as_deref(),
        Some("Nature")
    );
    let concat = &entry(&parsed, "concat2002").fields;
    assert_eq!(concat.title.as_deref(), Some("Concatenation of Parts"));
    assert_eq!(
        concat.venue.as_deref(),
        Some("Journal of Machine Learning Research (Special Issue)")
    );
    // A concatenated value's span is the whole expression.
    let f = entry(&parsed, "concat2002").field_span("title").unwrap();
    assert_eq!(
        &text[f.value.start..f.value.end],
        "\"Concatenation \" # {of} # \" Parts\""
    );
    // A macro used before its @string stays its name (BibTeX reads files in order).
    assert_eq!(
        entry(&parsed, "later2003").fields.venue.as_deref(),
        Some("early")
    );
    assert_eq!(
        entry(&parsed, "defined2004").fields.venue.as_deref(),
        Some("Proceedings of the Annual Meeting on Learning")
    );
}

#[test]
fn crossref_and_xdata_fill_missing_fields() {
    let text = fixture("crossref.bib");
    let parsed = parse(&text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "child2017",
            "parent2017",
            "grandchild2017",
            "volume2017",
            "xdatabook2010"
        ],
        "@xdata containers are not works"
    );
    assert_eq!(
        entry(&parsed, "child2017").fields,
        RefFields {
            title: s("A Paper in the Proceedings"),
            kind: Some(WorkKind::ConferencePaper),
            authors: vec![person("Carol", "Child")],
            editors: vec![person("Eve", "Editor")],
            year: Some(2017),
            venue: s("Proceedings of the Parent Conference"),
            pages: s("1-10"),
            publisher: s("Parent Press"),
            // The parent's DOI names the proceedings, not the paper.
            doi: None,
            ..RefFields::default()
        }
    );
    let grandchild = &entry(&parsed, "grandchild2017").fields;
    assert_eq!(grandchild.year, Some(2017), "from the grandparent");
    assert_eq!(
        grandchild.venue.as_deref(),
        Some("Volume Two of the Parent Conference")
    );
    assert_eq!(grandchild.publisher.as_deref(), Some("Parent Press"));
    let book = &entry(&parsed, "xdatabook2010").fields;
    assert_eq!(book.publisher.as_deref(), Some("Springer"));
    assert_eq!(book.venue.as_deref(), Some("Springer"));
    // The child keeps its own field spans only.
    assert!(entry(&parsed, "child2017").field_span("year").is_none());
}

#[test]
fn crossref_cycles_end() {
    let text = fixture("edge/crossref_cycle.bib");
    let parsed = parse(&text);
    assert_eq!(parsed.references.len(), 2);
    let second = &entry(&parsed, "loop2011b").fields;
    assert_eq!(
        second.year,
        Some(2011),
        "taken from the other half of the cycle"
    );
    assert_eq!(second.title.as_deref(), Some("The Other Half of the Cycle"));
}

#[test]
fn names_accents_and_protective_braces() {
    let text = fixture("names.bib");
    let parsed = parse(&text);
    let names = &entry(&parsed, "names2020").fields;
    assert_eq!(
        names.authors,
        [
            person("John", "von Neumann Jr"),
            person("Ludwig", "van Beethoven"),
            person("Jörg", "Müller"),
            person("Søren", "Østergaard"),
            Person::new(None, "World Health Organization"),
            person("Thiago", "do Nascimento"),
            person("Robertas", "Damaševičius"),
        ]
    );
    assert!(names.authors_truncated, "`and others`");
    assert_eq!(
        names.editors,
        [person("Donald E.", "Knuth"), person("Leslie", "Lamport")]
    );
    assert_eq!(
        names.title.as_deref(),
        Some("BERT: Pre-training of Deep α-Helix Transformers for Café Owners")
    );
    assert_eq!(
        names.venue.as_deref(),
        Some("Journal of Österreichische Studies & Applications")
    );
    assert_eq!(names.pages.as_deref(), Some("1-2"));
    let accents = &entry(&parsed, "accents2021").fields;
    assert_eq!(
        accents.authors,
        [
            person("Haluk", "Öğmen"),
            person("Paul", "Erdős"),
            person("Kurt", "Straßer"),
            person("Ayşe", "Çelik")
        ]
    );
    assert!(!accents.authors_truncated);
    assert_eq!(
        accents.title.as_deref(),
        Some("Avaliação Do Senso Comum — A Study in Vivo")
    );
}

#[test]
fn identifiers_wherever_bibtex_puts_them() {
    let text = fixture("identifiers.bib");
    let parsed = parse(&text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let f = |key: &str| entry(&parsed, key).fields.clone();
    assert_eq!(f("doifield").doi.as_deref(), Some("10.1000/abc_123"));
    let doiurl = f("doiurl");
    assert_eq!(doiurl.doi.as_deref(), Some("10.1145/3292500.3330701"));
    assert_eq!(
        doiurl.url.as_deref(),
        Some("https://doi.org/10.1145/3292500.3330701")
    );
    assert_eq!(
        f("dxdoiurl").doi.as_deref(),
        Some("10.1103/physrevlett.116.061102")
    );
    let eprint = f("arxiveprint");
    assert_eq!(
        eprint.arxiv.as_deref(),
        Some("1706.03762"),
        "version dropped"
    );
    assert_eq!(eprint.venue.as_deref(), Some("arXiv"));
    assert_eq!(eprint.doi, None);
    let old = f("arxivbiblatex");
    assert_eq!(old.arxiv.as_deref(), Some("hep-th/9901001"));
    assert_eq!(old.year, Some(2016), "from the biblatex date");
    let arxiv_doi = f("arxivdoi");
    assert_eq!(arxiv_doi.doi.as_deref(), Some("10.48550/arxiv.2303.08774"));
    assert_eq!(arxiv_doi.arxiv.as_deref(), Some("2303.08774"));
    let scholar = f("scholarstyle");
    assert_eq!(scholar.arxiv.as_deref(), Some("2005.14165"));
    assert_eq!(scholar.venue.as_deref(), Some("arXiv"));
    assert_eq!(
        f("doinote").doi.as_deref(),
        Some("10.1371/journal.pone.0033693")
    );
    let howpublished = f("doihowpublished");
    assert_eq!(howpublished.doi.as_deref(), Some("10.5281/zenodo.1234567"));
    assert_eq!(
        howpublished.url.as_deref(),
        Some("https://doi.org/10.5281/zenodo.1234567")
    );
    let pubmed = f("pubmedids");
    assert_eq!(pubmed.pmid.as_deref(), Some("22479489"));
    assert_eq!(pubmed.pmcid.as_deref(), Some("PMC3318563"));
    assert_eq!(f("pubmedeprint").pmid.as_deref(), Some("21346779"));
    let book = f("isbnbook");
    assert_eq!(book.isbn.as_deref(), Some("9780262035613"));
    assert_eq!(book.url.as_deref(), Some("https://example.org/book%20page"));
    assert_eq!(book.doi, None);
}

#[test]
fn malformed_entries_are_reported_and_lose_nothing_else() {
    let text = fixture("malformed.bib");
    let parsed = parse(&text);
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["good1", "good2", "good3", "good4", "good5"]);
    for (i, r) in parsed.references.iter().enumerate() {
        let n = ["One", "Two", "Three", "Four", "Five"][i];
        assert_eq!(r.fields.authors, [person(n, "Good")]);
        assert_eq!(r.fields.year, Some(2001 + i as i32));
    }
    assert_spans(&text, &parsed);
    let problems: Vec<(&str, &str, &str)> = parsed
        .problems
        .iter()
        .map(|p| {
            (
                p.rule.code,
                p.key.as_deref().unwrap_or(""),
                &text[p.span.start..p.span.end],
            )
        })
        .collect();
    assert_eq!(
        problems,
        [
            ("CP002", "noequals", "{"),
            ("CP002", "nocomma", "t"),
            ("CP002", "openbrace", "{"),
            ("CP002", "", "a"),
            ("CP002", "halftyped", "{"),
        ]
    );
    let messages: Vec<&str> = parsed.problems.iter().map(|p| p.message.as_str()).collect();
    assert!(
        messages[0].contains("expected `=` after the field name `title`"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("expected `,` or `}` after the field `author`"),
        "{messages:?}"
    );
    assert!(
        messages[2].contains("braces in the field `title` do not balance"),
        "{messages:?}"
    );
    assert!(messages[3].contains("expected a key"), "{messages:?}");
    assert!(
        messages[4].contains("unterminated `{` in the field `title`"),
        "{messages:?}"
    );
    // The unbalanced value is pointed at where it opens.
    let at = parsed.problems[2].span.start;
    assert!(text[at..].starts_with("{An Unterminated {Brace"));
}

#[test]
fn half_typed_entries_while_editing() {
    for (text, expected) in [
        (
            "@article{a, title = {T}, year = 2020}\n@article{b, title = ",
            "expected a value",
        ),
        (
            "@article{a, title = {T}, year = 2020}\n@article{b, title = {T",
            "unterminated `{`",
        ),
        (
            "@article{a, title = {T}, year = 2020}\n@article{b, title = \"T",
            "unterminated `\"`",
        ),
        (
            "@article{a, title = {T}, year = 2020}\n@article{b, title = {T},",
            "expected `}` to close the entry",
        ),
        (
            "@article{a, title = {T}, year = 2020}\n@article{b",
            "expected `,` after the key `b`",
        ),
        (
            "@article{a, title = {T}, year = 2020}\n@article b,",
            "expected `{` or `(`",
        ),
        (
            "@article{a, title = {T}, year = 2020}\n@string{x = ",
            "expected a value",
        ),
    ] {
        let parsed = parse(text);
        assert_eq!(parsed.references.len(), 1, "{text}");
        assert_eq!(parsed.references[0].key, "a");
        assert_eq!(parsed.problems.len(), 1, "{text}");
        assert!(
            parsed.problems[0].message.contains(expected),
            "{text}: {}",
            parsed.problems[0].message
        );
        assert_eq!(parsed.problems[0].rule.code, "CP002");
    }
}

#[test]
fn suppressions_in_bib_comments() {
    let text = "% citeproof: ignore[CP102, CP107]\n@misc{a, title = {T}}\n  %% citeproof: disable\n@misc{b}\n% not citeproof: ignore\n";
    let parsed = parse(text);
    let found: Vec<(SuppressionKind, Vec<String>, &str)> = parsed
        .suppressions
        .iter()
        .map(|s| (s.kind, s.rules.clone(), &text[s.span.start..s.span.end]))
        .collect();
    assert_eq!(
        found,
        [
            (
                SuppressionKind::Ignore,
                vec!["CP102".to_string(), "CP107".to_string()],
                "% citeproof: ignore[CP102, CP107]"
            ),
            (SuppressionKind::Disable, vec![], "%% citeproof: disable"),
        ]
    );
}

#[test]
fn stray_at_signs_and_unbalanced_comments() {
    let text = "Contact me@example.org.\n@comment{unbalanced\n@misc{kept, title = {Kept}}\n";
    let parsed = parse(text);
    assert_eq!(parsed.references.len(), 1);
    assert_eq!(parsed.references[0].fields.title.as_deref(), Some("Kept"));
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
}

#[test]
fn deep_braces_do_not_overflow() {
    let depth = 200_000;
    let text = format!(
        "@misc{{deep, title = {}x{}}}\n@misc{{open, title = {}}}\n@misc{{after, title = {{After}}}}",
        "{".repeat(depth),
        "}".repeat(depth),
        "{".repeat(depth)
    );
    let parsed = parse(&text);
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["deep", "after"]);
    assert_eq!(parsed.references[0].fields.title.as_deref(), Some("x"));
    assert_eq!(parsed.problems.len(), 1);
}
