//! The parsers on real documents in ../shared (skipped with a message when it is
//! absent): the Manubot deep-review sources, the JOSS gmr paper, the ExpertQA LLM
//! answers (rand_test only; domain_test is held out) and the development documents
//! of ../shared/bench/docs with their expected citations.

mod parse_support;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::LazyLock;

use citeproof::check;
use citeproof::document::Document;
use citeproof::load::{self, LoadOptions};
use citeproof::model::{CitationKind, FileId, ReferenceOrigin};
use parse_support::*;
use regex::Regex;
use serde_json::Value;

/// Manubot citations as the sources write them, found independently of the parser:
/// `@prefix:key` after `[`, `;` or a space.
static MANUBOT_CITE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\[;\s])-?@((?:tag|doi|arxiv|url|pmcid|pmid):[^\s;\]]+)").unwrap()
});

#[test]
fn deep_review_every_citation_form_is_recognised_and_every_tag_resolves() {
    let Some(dir) = shared("data/manuscripts/markdown/deep-review") else {
        return;
    };
    let mut project = load::load(std::slice::from_ref(&dir), &LoadOptions::default());
    check::link_all(&mut project);
    assert_eq!(
        project.documents.len(),
        1,
        "the numbered sections form one document"
    );
    let doc = &project.documents[0];
    let file_name = |id: FileId| {
        project
            .sources
            .get(id)
            .path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };

    let mut expected: BTreeMap<(String, String), usize> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".md") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            if line.starts_with("[@tag:") && line.contains("]:") {
                continue; // a definition
            }
            for caps in MANUBOT_CITE.captures_iter(line) {
                let key = caps[1].trim_end_matches(['.', ',']).to_string();
                *expected.entry((name.clone(), key)).or_default() += 1;
            }
        }
    }
    let mut found: BTreeMap<(String, String), usize> = BTreeMap::new();
    for c in &doc.citations {
        *found.entry((file_name(c.file), c.key.clone())).or_default() += 1;
    }
    assert!(
        expected.values().sum::<usize>() > 800,
        "the manuscript cites hundreds of works"
    );
    assert_eq!(found, expected);

    let definitions = doc
        .references
        .iter()
        .filter(|r| r.origin == ReferenceOrigin::TagDefinition)
        .count();
    let back_matter = std::fs::read_to_string(dir.join("90.back-matter.md")).unwrap();
    let written = back_matter
        .lines()
        .filter(|l| l.starts_with("[@tag:"))
        .count();
    assert_eq!(definitions, written);

    for c in &doc.citations {
        let r = c
            .reference
            .unwrap_or_else(|| panic!("`{}` in {} is not linked", c.key, file_name(c.file)));
        let reference = &doc.references[r];
        match c.kind {
            CitationKind::Tag => {
                let f = &reference.fields;
                let identified = f.doi.is_some()
                    || f.arxiv.is_some()
                    || f.url.is_some()
                    || f.pmid.is_some()
                    || f.pmcid.is_some();
                assert!(
                    matches!(
                        reference.origin,
                        ReferenceOrigin::TagDefinition | ReferenceOrigin::CslJson
                    ),
                    "{c:?}"
                );
                assert!(
                    identified || reference.fields.title.is_some(),
                    "{c:?} → {reference:?}"
                );
            }
            CitationKind::Identifier => assert!(c.id.is_some(), "{c:?}"),
            other => panic!("unexpected {other:?} citation `{}`", c.key),
        }
        assert!(c.claim.is_some(), "`{}` has no claim", c.key);
    }
    let undefined = check::local_diagnostics(&project)
        .into_iter()
        .filter(|d| d.rule.code == "CP101")
        .count();
    assert_eq!(undefined, 0);
}

#[test]
fn joss_paper_keys_are_all_in_its_bib_file() {
    let Some(dir) = shared("data/manuscripts/markdown/joss_gmr") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("paper.md")).unwrap();
    let parsed = markdown(&text);
    check_invariants(&text, &parsed);
    assert_eq!(parsed.bibliographies[0].path, "paper.bib");
    let bib = std::fs::read_to_string(dir.join("paper.bib")).unwrap();
    let entry = Regex::new(r"@\w+\s*\{\s*([^,\s]+)\s*,").unwrap();
    let bib_keys: BTreeSet<&str> = entry
        .captures_iter(&bib)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    let cited: BTreeSet<&str> = parsed.citations.iter().map(|c| c.key.as_str()).collect();
    assert!(cited.len() >= 8, "{cited:?}");
    assert!(parsed.citations.iter().all(|c| c.kind == CitationKind::Key));
    assert!(
        parsed.citations.iter().any(|c| c.narrative),
        "`@Calinon2007 introduced …`"
    );
    let missing: Vec<_> = cited.difference(&bib_keys).collect();
    assert!(
        missing.is_empty(),
        "cited but not in paper.bib: {missing:?}"
    );
}

/// Link one parsed file as a document of its own.
fn linked(parsed: citeproof::parse::Parsed) -> Document {
    let mut doc = Document {
        citations: parsed.citations,
        references: parsed.references,
        claims: parsed.claims,
        ..Document::default()
    };
    citeproof::link::link(&mut doc);
    doc
}

#[test]
fn expertqa_markers_map_to_their_references() {
    let Some(path) = shared("data/llm_answers/expertqa/rand_test.jsonl") else {
        return;
    };
    let marker = Regex::new(r"\[(\d+)\]").unwrap();
    let mut answers = 0;
    let mut markers = 0;
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        for system in record["answers"].as_object().unwrap().values() {
            let body = system["answer_string"].as_str().unwrap();
            let attribution: Vec<&str> = system["attribution"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            // As the data presents it: the answer, then its numbered sources.
            let text = format!("{body}\n\n{}\n", attribution.join("\n"));
            let sources: HashMap<&str, &str> = attribution
                .iter()
                .filter_map(|a| {
                    let (n, url) = a.strip_prefix('[')?.split_once(']')?;
                    Some((n, url.trim()))
                })
                .collect();
            let written = marker.captures_iter(body).count();
            answers += 1;
            markers += written;
            for parsed in [answer(&text), markdown(&text)] {
                check_invariants(&text, &parsed);
                let doc = linked(parsed);
                let numeric: Vec<_> = doc
                    .citations
                    .iter()
                    .filter(|c| c.kind == CitationKind::Numeric)
                    .collect();
                assert_eq!(numeric.len(), written, "{text}");
                for c in numeric {
                    let r = &doc.references[c
                        .reference
                        .unwrap_or_else(|| panic!("[{}] unlinked in {text}", c.key))];
                    assert_eq!(r.key, c.key);
                    assert_eq!(r.origin, ReferenceOrigin::ReferenceList);
                    let url = sources[c.key.as_str()];
                    assert!(
                        r.fields.url.as_deref() == Some(url) || r.raw.contains(url),
                        "[{}] → {:?}, expected {url}",
                        c.key,
                        r.fields.url
                    );
                }
            }
        }
    }
    assert!(
        answers > 200 && markers > 1000,
        "{answers} answers, {markers} markers"
    );
}

#[test]
fn bench_documents_yield_the_expected_citations() {
    let Some(docs) = shared("bench/docs") else {
        return;
    };
    let mut checked = 0;
    for entry in std::fs::read_dir(&docs).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        // Markdown and LLM answers here; LaTeX documents belong to the LaTeX parser.
        if !(name.starts_with("dev_md") || name.starts_with("dev_llm")) {
            continue;
        }
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        let mut want: BTreeMap<(String, u64, String), usize> = BTreeMap::new();
        for e in expected
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "citation")
        {
            let key = e["key_or_marker"]
                .as_str()
                .unwrap()
                .trim_matches(['[', ']'])
                .to_string();
            let file = e["file"].as_str().unwrap().to_string();
            *want
                .entry((file, e["line"].as_u64().unwrap(), key))
                .or_default() += 1;
        }
        let mut got: BTreeMap<(String, u64, String), usize> = BTreeMap::new();
        for md in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
            if md.extension().and_then(|e| e.to_str()) != Some("md") {
                continue;
            }
            let text = std::fs::read_to_string(&md).unwrap();
            let parsed = markdown(&text);
            check_invariants(&text, &parsed);
            let file = md.file_name().unwrap().to_string_lossy().into_owned();
            for c in &parsed.citations {
                let line = text[..c.span.start].matches('\n').count() as u64 + 1;
                *got.entry((file.clone(), line, c.key.clone())).or_default() += 1;
            }
        }
        assert_eq!(got, want, "{}", Path::new(&name).display());
        checked += 1;
    }
    assert_eq!(checked, 8);
}
