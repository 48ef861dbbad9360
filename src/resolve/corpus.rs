//! Local corpora: works a user holds (a lab's Zotero export, a RAG system's retrieved
//! articles, a mirror) consulted before any network source. Three formats:
//! JSONL in the schema of the world of works (`{"doi", "arxiv", "pmid", "title",
//! "authors": [{"given", "family"}], "year", "venue", "is_retracted", …}`), CSL-JSON
//! (a list of items, as Zotero and pandoc write it), and BibTeX.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::model::{FileId, IdScheme, Person, Reference, Work};
use crate::parse::ParseOptions;
use crate::parse::ids::{normalize_arxiv, normalize_doi, normalize_pmcid, normalize_pmid};
use crate::resolve::sources::crossref::work_from_json;
use crate::resolve::sources::text::finish;
use crate::resolve::title_index::TitleIndex;

/// The `source` of every corpus record.
pub const CORPUS_SOURCE: &str = "corpus";

/// A corpus file that cannot be used at all.
#[derive(Debug, thiserror::Error)]
#[error("corpus {path}: {message}")]
pub struct CorpusError {
    pub path: PathBuf,
    pub message: String,
}

/// One line of a world-schema JSONL file (unknown keys ignored).
#[derive(Debug, Deserialize)]
struct WorldRecord {
    #[serde(default)]
    doi: Option<String>,
    #[serde(default)]
    arxiv: Option<String>,
    #[serde(default)]
    pmid: Option<String>,
    #[serde(default)]
    pmcid: Option<String>,
    title: String,
    #[serde(default)]
    authors: Vec<WorldAuthor>,
    #[serde(default)]
    year: Option<i32>,
    #[serde(default)]
    venue: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default, rename = "abstract")]
    abstract_text: Option<String>,
    #[serde(default)]
    is_retracted: bool,
    #[serde(default)]
    has_concern: bool,
    #[serde(default)]
    oa_url: Option<String>,
    /// Update notices (`{"type": "retraction" | "expression_of_concern" | …}`).
    #[serde(default)]
    updates: Vec<Value>,
}

#[derive(Debug, Deserialize)]
struct WorldAuthor {
    #[serde(default)]
    given: Option<String>,
    family: String,
}

impl WorldRecord {
    fn into_work(self) -> Work {
        let update = |kind: &str| {
            self.updates
                .iter()
                .any(|u| u.get("type").and_then(Value::as_str) == Some(kind))
        };
        let (retracted, concern) = (update("retraction"), update("expression_of_concern"));
        finish(Work {
            source: CORPUS_SOURCE.into(),
            title: self.title,
            authors: self
                .authors
                .iter()
                .map(|a| Person::new(a.given.as_deref(), &a.family))
                .collect(),
            year: self.year,
            venue: self.venue,
            work_type: self.kind,
            doi: self.doi,
            arxiv: self.arxiv,
            pmid: self.pmid,
            pmcid: self.pmcid,
            url: None,
            abstract_text: self.abstract_text,
            is_retracted: self.is_retracted || retracted,
            has_concern: self.has_concern || concern,
            oa_url: self.oa_url,
            ..Work::default()
        })
    }
}

/// Works indexed by identifier and by title.
#[derive(Debug, Default)]
pub struct Corpus {
    works: Vec<Work>,
    ids: HashMap<(IdScheme, String), usize>,
    titles: TitleIndex,
}

impl Corpus {
    pub fn from_works(works: Vec<Work>) -> Corpus {
        let mut corpus = Corpus::default();
        for work in works {
            corpus.push(work);
        }
        corpus
    }

    fn push(&mut self, mut work: Work) {
        work.source = CORPUS_SOURCE.into();
        let i = self.works.len();
        let ids = [
            (IdScheme::Doi, work.doi.as_deref().and_then(normalize_doi)),
            (
                IdScheme::Arxiv,
                work.arxiv.as_deref().and_then(normalize_arxiv),
            ),
            (
                IdScheme::Pmid,
                work.pmid.as_deref().and_then(normalize_pmid),
            ),
            (
                IdScheme::Pmcid,
                work.pmcid.as_deref().and_then(normalize_pmcid),
            ),
        ];
        for (scheme, value) in ids {
            if let Some(value) = value {
                self.ids.entry((scheme, value)).or_insert(i);
            }
        }
        self.titles.push(work.title.clone());
        self.works.push(work);
    }

    /// Read corpus files; lines or items that cannot be read are skipped with a
    /// warning naming the file and the place. A file that cannot be read, or that
    /// yields no work at all, is an error.
    pub fn load(paths: &[PathBuf]) -> Result<(Corpus, Vec<String>), CorpusError> {
        let mut works = Vec::new();
        let mut warnings = Vec::new();
        for path in paths {
            let error = |message: String| CorpusError {
                path: path.clone(),
                message,
            };
            let text = crate::walk::read_text(path, 1 << 30).map_err(error)?;
            let before = works.len();
            match detect(path, &text) {
                Format::Jsonl => read_jsonl(path, &text, &mut works, &mut warnings),
                Format::CslJson => read_csl(&text, &mut works).map_err(error)?,
                Format::Bibtex => read_bibtex(path, &text, &mut works, &mut warnings),
            }
            if works.len() == before {
                return Err(error("no work could be read from it".into()));
            }
        }
        Ok((Corpus::from_works(works), warnings))
    }

    pub fn len(&self) -> usize {
        self.works.len()
    }

    /// Every work, in the order read.
    pub fn works(&self) -> &[Work] {
        &self.works
    }

    pub fn is_empty(&self) -> bool {
        self.works.is_empty()
    }

    /// The work carrying an identifier.
    pub fn by_id(&self, scheme: IdScheme, value: &str) -> Option<&Work> {
        self.ids
            .get(&(scheme, value.to_string()))
            .map(|&i| &self.works[i])
    }

    /// The works whose titles come closest to `title` (at most `k`), and those whose
    /// title a raw reference string contains.
    pub fn title_candidates(&self, title: Option<&str>, raw: &str, k: usize) -> Vec<&Work> {
        let mut ids: Vec<usize> = title
            .map(|t| self.titles.best(t, k).into_iter().map(|(i, _)| i).collect())
            .unwrap_or_default();
        ids.extend(self.titles.contained_in(raw, 2).into_iter().take(k));
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter().map(|i| &self.works[i]).collect()
    }
}

/// One line of a world-schema JSONL corpus as a work (`None` for a record without a
/// title), for readers that stream a corpus (the index build).
pub fn work_from_world_line(line: &str) -> Result<Option<Work>, String> {
    let record: WorldRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
    Ok((!record.title.trim().is_empty()).then(|| record.into_work()))
}

/// Whether a corpus file is JSON Lines in the world schema (read line by line).
pub fn is_jsonl(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    matches!(ext.as_deref(), Some("jsonl" | "ndjson"))
}

enum Format {
    Jsonl,
    CslJson,
    Bibtex,
}

fn detect(path: &Path, text: &str) -> Format {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("jsonl" | "ndjson") => Format::Jsonl,
        Some("json") => Format::CslJson,
        Some("bib" | "bibtex") => Format::Bibtex,
        _ => match text.trim_start().chars().next() {
            Some('[') => Format::CslJson,
            Some('@') | Some('%') => Format::Bibtex,
            _ => Format::Jsonl,
        },
    }
}

fn read_jsonl(path: &Path, text: &str, works: &mut Vec<Work>, warnings: &mut Vec<String>) {
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<WorldRecord>(line) {
            Ok(record) if !record.title.trim().is_empty() => works.push(record.into_work()),
            Ok(_) => warnings.push(format!(
                "{}:{}: record without a title, skipped",
                path.display(),
                n + 1
            )),
            Err(e) => warnings.push(format!(
                "{}:{}: not a work record ({e}), skipped",
                path.display(),
                n + 1
            )),
        }
    }
}

/// CSL-JSON: a list of items, or `{"items": [...]}`.
fn read_csl(text: &str, works: &mut Vec<Work>) -> Result<(), String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not CSL-JSON: {e}"))?;
    let items = match &v {
        Value::Array(items) => items.as_slice(),
        Value::Object(o) => o
            .get("items")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .ok_or("expected a list of CSL-JSON items")?,
        _ => return Err("expected a list of CSL-JSON items".into()),
    };
    for item in items {
        let mut work = work_from_json(item, CORPUS_SOURCE);
        if work.arxiv.is_none() {
            work.arxiv = item
                .get("arxiv")
                .or_else(|| item.get("arXiv"))
                .and_then(Value::as_str)
                .and_then(normalize_arxiv);
        }
        work.pmid = item
            .get("PMID")
            .and_then(Value::as_str)
            .and_then(normalize_pmid);
        work.pmcid = item
            .get("PMCID")
            .and_then(Value::as_str)
            .and_then(normalize_pmcid);
        if !work.title.is_empty() {
            works.push(finish(work));
        }
    }
    Ok(())
}

fn read_bibtex(path: &Path, text: &str, works: &mut Vec<Work>, warnings: &mut Vec<String>) {
    let parsed = crate::parse::bibtex::parse(FileId(0), text, &ParseOptions::default());
    for problem in &parsed.problems {
        warnings.push(format!("{}: {}", path.display(), problem.message));
    }
    works.extend(parsed.references.iter().filter_map(work_of_entry));
}

/// A BibTeX entry as a work (entries without a title are no use as records).
pub fn work_of_entry(reference: &Reference) -> Option<Work> {
    let f = &reference.fields;
    let title = f.title.clone().filter(|t| !t.trim().is_empty())?;
    let title =
        crate::resolve::normalize::strip_markup(&crate::resolve::normalize::decode_latex(&title));
    Some(finish(Work {
        work_type: reference.entry_type.clone(),
        ..f.to_work(CORPUS_SOURCE, title)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn jsonl_and_csl_corpora_index_ids_and_titles() {
        let dir = tempfile::tempdir().unwrap();
        let jsonl = write(
            dir.path(),
            "works.jsonl",
            "{\"doi\": \"10.1234/ABC\", \"title\": \"Deep residual learning for image recognition\", \"authors\": [{\"given\": \"Kaiming\", \"family\": \"He\"}], \"year\": 2016, \"is_retracted\": false}\n\
             not json\n\
             {\"arxiv\": \"1706.03762v5\", \"title\": \"Attention is all you need\", \"updates\": [{\"type\": \"expression_of_concern\"}]}\n",
        );
        let csl = write(
            dir.path(),
            "zotero.json",
            r#"[{"type": "article-journal", "title": "Graph attention networks", "DOI": "10.5555/GAT", "PMID": "123", "author": [{"family": "Velickovic", "given": "Petar"}], "issued": {"date-parts": [[2018]]}}]"#,
        );
        let (corpus, warnings) = Corpus::load(&[jsonl, csl]).unwrap();
        assert_eq!(corpus.len(), 3);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("works.jsonl:2"), "{warnings:?}");
        let he = corpus.by_id(IdScheme::Doi, "10.1234/abc").unwrap();
        assert_eq!(he.year, Some(2016));
        assert_eq!(he.source, CORPUS_SOURCE);
        assert!(
            corpus
                .by_id(IdScheme::Arxiv, "1706.03762")
                .unwrap()
                .has_concern
        );
        assert_eq!(
            corpus.by_id(IdScheme::Pmid, "123").unwrap().year,
            Some(2018)
        );
        let found = corpus.title_candidates(Some("Attention is all you need"), "", 3);
        assert_eq!(found[0].title, "Attention is all you need");
        let raw = "He K. Deep residual learning for image recognition. CVPR 2016.";
        assert!(
            corpus
                .title_candidates(None, raw, 3)
                .iter()
                .any(|w| w.doi.as_deref() == Some("10.1234/abc"))
        );
    }

    #[test]
    fn unreadable_or_empty_corpus_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.jsonl");
        let err = Corpus::load(&[missing]).unwrap_err();
        assert!(err.to_string().contains("nope.jsonl"));
        let empty = write(dir.path(), "empty.jsonl", "\n\n");
        assert!(Corpus::load(&[empty]).is_err());
        let bad = write(dir.path(), "bad.json", "{\"x\": 1}");
        assert!(
            Corpus::load(&[bad])
                .unwrap_err()
                .to_string()
                .contains("CSL")
        );
    }
}
