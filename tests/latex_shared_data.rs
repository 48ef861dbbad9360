//! The LaTeX and BibTeX parsers on real data in ../shared (skipped with a message
//! when it is absent): the SciPy 1.0 paper, real .bib files, the BibTeX inputs of
//! the reference benchmark, and the LaTeX development documents with their
//! expected findings.

use std::path::{Path, PathBuf};

use citeproof::check;
use citeproof::load::{self, LoadOptions};
use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};

fn shared() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if path.is_dir() {
        Some(path)
    } else {
        eprintln!("skipped: {} is absent", path.display());
        None
    }
}

/// `\cite`-family keys (with repeats) of the uncommented text, found by plain text
/// search: an independent reading to compare the parser with.
fn keys_by_text_search(text: &str, commands: &[&str]) -> Vec<String> {
    let mut live = String::with_capacity(text.len());
    for line in text.lines() {
        let mut end = line.len();
        let mut from = 0;
        while let Some(i) = line[from..].find('%') {
            let at = from + i;
            if at > 0 && line.as_bytes()[at - 1] == b'\\' {
                from = at + 1;
                continue;
            }
            end = at;
            break;
        }
        live.push_str(&line[..end]);
        live.push('\n');
    }
    let mut out = Vec::new();
    for command in commands {
        let needle = format!("\\{command}{{");
        for (i, _) in live.match_indices(&needle) {
            let list = live[i + needle.len()..].split('}').next().unwrap_or("");
            out.extend(
                list.split(',')
                    .map(|k| k.trim().to_string())
                    .filter(|k| !k.is_empty()),
            );
        }
    }
    out
}

#[test]
fn scipy_paper_every_cite_key_maps_to_its_entry() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("data/manuscripts/latex/scipy-1.0");
    let mut project = load::load(&[dir.join("paper.tex")], &LoadOptions::default());
    check::link_all(&mut project);
    assert_eq!(project.documents.len(), 1);
    let doc = &project.documents[0];
    assert_eq!(
        doc.files.len(),
        8,
        "paper.tex, six \\input files and references.bib"
    );
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
    assert_eq!(doc.references.len(), 183);
    for citation in &doc.citations {
        let reference = citation
            .reference
            .unwrap_or_else(|| panic!("`{}` is not linked", citation.key));
        assert_eq!(doc.references[reference].key, citation.key);
    }
    // The parser finds exactly the keys a plain search of the sources finds, as
    // often, including those behind the paper's own `\inlinecite` wrapper.
    let mut expected = Vec::new();
    let mut wrapped_expected = 0;
    for name in [
        "paper",
        "core-dev",
        "subpackages",
        "ckdtree",
        "scipy-optimize",
        "poly",
        "consortium",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.tex"))).unwrap();
        expected.extend(keys_by_text_search(&text, &["cite", "inlinecite"]));
        wrapped_expected += keys_by_text_search(&text, &["inlinecite"]).len();
    }
    expected.sort();
    let mut found: Vec<String> = doc.citations.iter().map(|c| c.key.clone()).collect();
    found.sort();
    assert_eq!(found, expected);
    let wrapped = doc
        .citations
        .iter()
        .filter(|c| c.command.as_deref() == Some("inlinecite"))
        .count();
    assert!(wrapped > 0);
    assert_eq!(wrapped, wrapped_expected);
    // Every citation in running text has its sentence.
    let with_claims = doc.citations.iter().filter(|c| c.claim.is_some()).count();
    assert_eq!(with_claims, doc.citations.len());
}

#[test]
fn real_bib_files_parse_without_malformed_entries() {
    let Some(shared) = shared() else { return };
    let files = [
        "data/manuscripts/latex/scipy-1.0/references.bib",
        "data/manuscripts/markdown/joss_gmr/paper.bib",
        "bench/docs/dev_md01_pandoc/references.bib",
        "bench/docs/dev_tex01_natbib/references.bib",
        "bench/docs/dev_tex03_biblatex/references.bib",
        "data/api_responses/doi_content_negotiation/bibtex_10.1126_science.169.3946.635.bib",
    ];
    for name in files {
        let text = std::fs::read_to_string(shared.join(name)).unwrap();
        let parsed = parse::bibtex::parse(FileId(0), &text, &ParseOptions::default());
        assert!(parsed.problems.is_empty(), "{name}: {:?}", parsed.problems);
        let written = text
            .lines()
            .filter(|l| l.trim_start().starts_with('@'))
            .filter(|l| {
                !l.to_ascii_lowercase().contains("@string")
                    && !l.to_ascii_lowercase().contains("@comment")
            })
            .count();
        assert_eq!(parsed.references.len(), written, "{name}");
        let titled = parsed
            .references
            .iter()
            .filter(|r| r.fields.title.is_some())
            .count();
        assert_eq!(titled, written, "{name}: every entry has a title");
    }
}

#[test]
fn benchmark_bibtex_inputs_each_give_one_titled_reference() {
    let Some(shared) = shared() else { return };
    let text = std::fs::read_to_string(shared.join("bench/refs_dev.jsonl")).unwrap();
    let mut seen = 0;
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        if case["input_kind"] != "bibtex" {
            continue;
        }
        seen += 1;
        let input = case["input"].as_str().unwrap();
        let parsed = parse::bibtex::parse(FileId(0), input, &ParseOptions::default());
        assert!(
            parsed.problems.is_empty(),
            "{}: {:?}",
            case["case"],
            parsed.problems
        );
        assert_eq!(parsed.references.len(), 1, "{}", case["case"]);
        let fields = &parsed.references[0].fields;
        let title = fields.title.as_deref().unwrap_or("");
        assert!(
            !title.is_empty() && !title.contains(['{', '}', '\\']),
            "{}: {title:?}",
            case["case"]
        );
        assert!(!fields.authors.is_empty(), "{}", case["case"]);
        assert!(fields.year.is_some(), "{}", case["case"]);
    }
    assert_eq!(seen, 220);
}

/// The development LaTeX documents: every citation (file, line, key) and every
/// document issue (undefined key, unused entry, duplicate entry) as expected.
#[test]
fn latex_development_documents_match_their_expected_findings() {
    let Some(shared) = shared() else { return };
    for name in [
        "dev_tex01_natbib",
        "dev_tex02_natbib",
        "dev_tex03_biblatex",
        "dev_tex04_biblatex",
    ] {
        let dir = shared.join("bench/docs").join(name);
        let expected: Vec<serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        let mut project = load::load(&[dir.join("paper.tex")], &LoadOptions::default());
        check::link_all(&mut project);
        let sources = &project.sources;
        let doc = &project.documents[0];
        let place = |file: FileId, offset: usize| {
            let f = sources.get(file);
            let name = f.path.file_name().unwrap().to_string_lossy().into_owned();
            (name, f.line_col(offset).line as u64)
        };
        let mut found: Vec<(String, u64, String)> = doc
            .citations
            .iter()
            .map(|c| {
                let (file, line) = place(c.file, c.span.start);
                (file, line, c.key.clone())
            })
            .collect();
        found.sort();
        let mut want: Vec<(String, u64, String)> = expected
            .iter()
            .filter(|e| e["kind"] == "citation")
            .map(|e| {
                let file = e["file"].as_str().unwrap().to_string();
                (
                    file,
                    e["line"].as_u64().unwrap(),
                    e["key_or_marker"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        want.sort();
        assert_eq!(found, want, "{name}: citations");
        let mut issues: Vec<(String, String, u64)> = check::local_diagnostics(&project)
            .iter()
            .filter_map(|d| {
                let issue = match d.rule.code {
                    "CP101" => "undefined_key",
                    "CP102" => "unused_entry",
                    "CP103" | "CP104" => "duplicate_entry",
                    _ => return None,
                };
                let (file, line) = place(d.file, d.span.start);
                Some((issue.to_string(), file, line))
            })
            .collect();
        issues.sort();
        let mut want: Vec<(String, String, u64)> = expected
            .iter()
            .filter(|e| e["kind"] == "document_issue")
            .map(|e| {
                (
                    e["issue"].as_str().unwrap().to_string(),
                    e["file"].as_str().unwrap().to_string(),
                    e["line"].as_u64().unwrap(),
                )
            })
            .collect();
        want.sort();
        assert_eq!(issues, want, "{name}: document issues");
    }
}
