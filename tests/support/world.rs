//! The world of works the mock serves: loaded from JSONL in the schema of
//! `../shared/data/world/works.jsonl`, indexed by every identifier and by title tokens.
//!
//! Three optional fields extend the schema for hand-written fixtures: `updates` (Crossref-style
//! update notices: retraction, expression of concern, correction), `published_print` (the
//! year in print of an article online first in `year`) and `fixture_note` (a label saying
//! what in the record was constructed for tests).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ids::{self, Agency};
use super::search::SearchIndex;
use super::service::Source;

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Author {
    pub given: Option<String>,
    pub family: String,
}

impl Author {
    /// "Given Family", or the family name alone for organisations.
    pub fn display_name(&self) -> String {
        match &self.given {
            Some(given) if !given.is_empty() => format!("{given} {}", self.family),
            _ => self.family.clone(),
        }
    }

    /// Initials of the given names without dots (`Henry S.` → `HS`).
    pub fn initials(&self) -> String {
        self.given
            .as_deref()
            .unwrap_or("")
            .split(|c: char| c.is_whitespace() || c == '.' || c == '-')
            .filter_map(|part| part.chars().next())
            .filter(|c| c.is_alphabetic())
            .flat_map(char::to_uppercase)
            .collect()
    }

    pub fn is_organisation(&self) -> bool {
        self.given.is_none()
    }
}

/// An update notice attached to a work (Crossref `updated-by`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Update {
    /// `retraction`, `expression_of_concern`, `correction`, `withdrawal`.
    #[serde(rename = "type")]
    pub kind: String,
    /// DOI of the notice.
    pub doi: String,
    /// `retraction-watch` or `publisher`.
    pub source: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
}

impl Update {
    pub fn label(&self) -> &'static str {
        match self.kind.as_str() {
            "retraction" => "Retraction",
            "expression_of_concern" => "Expression of concern",
            "withdrawal" => "Withdrawal",
            _ => "Correction",
        }
    }

    pub fn date_parts(&self) -> (i32, u32, u32) {
        let mut parts = self.date.split('-').map(|p| p.parse::<u32>().unwrap_or(1));
        let year = parts.next().unwrap_or(2000) as i32;
        (year, parts.next().unwrap_or(1), parts.next().unwrap_or(1))
    }
}

/// One line of works.jsonl.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Work {
    pub id: String,
    pub doi: Option<String>,
    pub arxiv: Option<String>,
    pub pmid: Option<String>,
    pub pmcid: Option<String>,
    pub s2: Option<String>,
    pub openalex: Option<String>,
    #[serde(default)]
    pub dblp: Option<String>,
    pub title: String,
    pub authors: Vec<Author>,
    pub year: Option<i32>,
    pub venue: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    #[serde(rename = "abstract")]
    pub abstract_text: Option<String>,
    #[serde(default)]
    pub is_retracted: bool,
    pub oa_url: Option<String>,
    #[serde(default)]
    pub full_text_file: Option<String>,
    #[serde(default)]
    pub sources: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub updates: Vec<Update>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixture_note: Option<String>,
    /// Exactly the services that hold the work (`["openlibrary", "web"]`), instead of
    /// those its identifiers imply: books, RFCs, packages and pages the scholarly
    /// indexes do not have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_by: Option<Vec<String>>,
    /// ISBNs of the book's editions (Open Library).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub isbn: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// Years of the book's editions besides `year`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub editions: Vec<i32>,
    /// The submission on OpenReview (its forum id, `venueid` and `venue`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openreview: Option<OpenReviewNote>,
    /// The RFC number (the RFC index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rfc: Option<u32>,
    /// The package in its registry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<Package>,
    /// The page at `url` (web pages, software home pages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<Page>,
    /// The year of the printed issue when it is not `year` (an article online first,
    /// in print the next year): served as Crossref `published-print`, PubMed `PubDate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_print: Option<i32>,
}

/// A submission as OpenReview records it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct OpenReviewNote {
    /// The forum id.
    pub id: String,
    /// `ICLR.cc/2025/Conference`, `…/Rejected_Submission`, `…/Withdrawn_Submission` …
    pub venueid: String,
    /// `ICLR 2025 Poster`, `Submitted to ICLR 2025` …
    pub venue: String,
}

/// A package as a registry records it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Package {
    /// `pypi`, `cran`, `crates` or `npm`.
    pub registry: String,
    pub name: String,
    /// `(version, ISO date)`, oldest first.
    pub releases: Vec<(String, String)>,
}

/// The web page of a work.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Page {
    pub url: String,
    /// 200 (served), 404/410 (gone), 403/429 (refused), or 0 for a captcha wall.
    #[serde(default = "ok_status")]
    pub status: u16,
    /// A Wayback Machine copy's timestamp (`20190301000000`), for a page that is gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<String>,
}

fn ok_status() -> u16 {
    200
}

/// Normalised publication kind, mapped to each service's own vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Journal,
    Proceedings,
    Preprint,
    Chapter,
    Book,
    Dataset,
    Thesis,
    Other,
}

fn kind_of(work: &Work) -> Kind {
    let venue = work.venue.as_deref().unwrap_or("").to_lowercase();
    let conference_venue = ["proceedings", "conference", "symposium", "workshop"]
        .iter()
        .any(|w| venue.contains(w));
    if work
        .doi
        .as_deref()
        .is_some_and(|d| d.starts_with("10.48550/"))
    {
        return Kind::Preprint;
    }
    let t = work.kind.as_deref().unwrap_or("").to_lowercase();
    match t.as_str() {
        "proceedings-article" | "conference" | "conference and workshop papers" => {
            Kind::Proceedings
        }
        "preprint" | "posted-content" | "informal and other publications" => Kind::Preprint,
        "book-chapter" => Kind::Chapter,
        "book" | "monograph" | "edited-book" => Kind::Book,
        "dataset" => Kind::Dataset,
        "dissertation" => Kind::Thesis,
        _ if conference_venue => Kind::Proceedings,
        _ if venue == "corr" || venue.starts_with("arxiv") => Kind::Preprint,
        _ if !venue.is_empty() || t.contains("journal") || t.contains("article") => Kind::Journal,
        _ if work.arxiv.is_some() => Kind::Preprint,
        _ => Kind::Other,
    }
}

/// A work with everything the services derive from it.
#[derive(Clone, Debug)]
pub struct Entry {
    pub work: Work,
    pub kind: Kind,
    pub s2_id: String,
    pub corpus_id: u64,
    pub openalex_id: String,
    /// The arXiv DataCite DOI, for works with an arXiv id.
    pub arxiv_doi: Option<String>,
    /// Update notices, including the retraction synthesised for retracted works without one.
    pub updates: Vec<Update>,
    holds: [bool; Source::ALL.len()],
}

impl Entry {
    fn new(work: Work) -> Entry {
        let kind = kind_of(&work);
        let s2_id = work
            .s2
            .clone()
            .unwrap_or_else(|| ids::synth_s2_id(&work.id));
        let corpus_id = ids::synth_corpus_id(&work.id);
        let openalex_id = work
            .openalex
            .clone()
            .unwrap_or_else(|| ids::synth_openalex_id(&work.id));
        let arxiv_doi = work.arxiv.as_deref().map(ids::arxiv_doi);
        let mut updates = work.updates.clone();
        if work.is_retracted && !updates.iter().any(|u| u.kind == "retraction") {
            updates.push(synth_retraction(&work));
        }
        let mut entry = Entry {
            work,
            kind,
            s2_id,
            corpus_id,
            openalex_id,
            arxiv_doi,
            updates,
            holds: [false; Source::ALL.len()],
        };
        for source in Source::ALL {
            entry.holds[source as usize] = entry.compute_holds(source);
        }
        entry
    }

    fn crossref_doi(&self) -> Option<&str> {
        self.work
            .doi
            .as_deref()
            .filter(|d| ids::agency(d) == Agency::Crossref)
    }

    fn compute_holds(&self, source: Source) -> bool {
        let w = &self.work;
        if let Some(services) = &w.held_by {
            // doi.org resolves every DOI its registration agencies hold.
            let registered =
                w.doi.is_some() && services.iter().any(|s| s == "crossref" || s == "datacite");
            return services.iter().any(|s| s == source.name())
                || (source == Source::Doi && registered);
        }
        match source {
            Source::Crossref | Source::Unpaywall => self.crossref_doi().is_some(),
            Source::DataCite => self.datacite_dois().next().is_some(),
            Source::Arxiv => w.arxiv.is_some(),
            Source::Pubmed => w.pmid.is_some(),
            Source::EuropePmc => w.pmid.is_some() || w.pmcid.is_some(),
            Source::Doi => w.doi.is_some() || w.arxiv.is_some(),
            // OpenAlex indexes everything with a persistent identifier, and what it recorded.
            Source::OpenAlex => {
                w.openalex.is_some()
                    || w.doi.is_some()
                    || w.arxiv.is_some()
                    || w.pmid.is_some()
                    || w.sources.iter().any(|s| s == "openalex")
            }
            Source::S2 | Source::Landing => true,
            Source::OpenLibrary => !w.isbn.is_empty(),
            Source::Rfc => w.rfc.is_some(),
            Source::Pypi | Source::Cran | Source::Crates | Source::Npm => w
                .package
                .as_ref()
                .is_some_and(|p| p.registry == source.name()),
            Source::Web => w.page.is_some(),
            Source::Wayback => w.page.as_ref().is_some_and(|p| p.archived.is_some()),
            // Web sites serving files, not records.
            Source::ArxivWeb | Source::OpenReviewWeb => false,
            Source::Dblp => w.dblp.is_some(),
            Source::OpenReview => w.openreview.is_some(),
            Source::Acl => self.anthology_id().is_some(),
        }
    }

    /// The ACL Anthology id of a work with an Anthology DOI (`10.18653/v1/{id}`).
    pub fn anthology_id(&self) -> Option<&str> {
        let doi = self.work.doi.as_deref()?;
        let id = doi.strip_prefix("10.18653/v1/")?;
        (!id.is_empty()).then_some(id)
    }

    /// Whether a service holds this work.
    pub fn held_by(&self, source: Source) -> bool {
        self.holds[source as usize]
    }

    /// DataCite-registered DOIs of this work (its own DOI and/or its arXiv DOI).
    pub fn datacite_dois(&self) -> impl Iterator<Item = &str> {
        let own = self
            .work
            .doi
            .as_deref()
            .filter(|d| ids::agency(d) == Agency::DataCite);
        let arxiv = self.arxiv_doi.as_deref().filter(|a| Some(*a) != own);
        own.into_iter().chain(arxiv)
    }

    /// The work's DOI as the services report it: its own, else its arXiv DOI.
    pub fn any_doi(&self) -> Option<&str> {
        self.work.doi.as_deref().or(self.arxiv_doi.as_deref())
    }

    pub fn is_open_access(&self) -> bool {
        self.work.oa_url.is_some()
    }

    /// A stable per-work number used to vary cosmetic values deterministically.
    pub fn salt(&self, what: &str) -> u64 {
        ids::stable_hash(&[what, &self.work.id])
    }

    pub fn has_expression_of_concern(&self) -> bool {
        self.updates
            .iter()
            .any(|u| u.kind == "expression_of_concern")
    }
}

/// The retraction notice of a retracted work whose record names none. The notice DOI is
/// constructed (`<doi>.retraction-notice`): the world records retraction, not the notice.
fn synth_retraction(work: &Work) -> Update {
    let doi = work.doi.as_deref().unwrap_or("10.0000/unknown");
    let year = work.year.unwrap_or(2020) + 1;
    Update {
        kind: "retraction".into(),
        doi: format!("{doi}.retraction-notice"),
        source: "retraction-watch".into(),
        date: format!("{year}-06-01"),
        record_id: Some(format!(
            "{}",
            40_000 + ids::stable_hash(&["rw", &work.id]) % 20_000
        )),
    }
}

/// Works indexed by identifier and title tokens.
pub struct World {
    pub entries: Vec<Entry>,
    pub index: SearchIndex,
    /// Directories against which `full_text_file` paths are resolved.
    pub data_roots: Vec<PathBuf>,
    by_doi: HashMap<String, usize>,
    by_arxiv: HashMap<String, usize>,
    by_pmid: HashMap<String, usize>,
    by_pmcid: HashMap<String, usize>,
    by_s2: HashMap<String, usize>,
    by_corpus: HashMap<u64, usize>,
    by_openalex: HashMap<String, usize>,
    by_id: HashMap<String, usize>,
}

impl World {
    pub fn from_works(works: Vec<Work>, data_roots: Vec<PathBuf>) -> World {
        let entries: Vec<Entry> = works.into_iter().map(Entry::new).collect();
        let mut world = World {
            index: SearchIndex::build(&entries),
            entries,
            data_roots,
            by_doi: HashMap::new(),
            by_arxiv: HashMap::new(),
            by_pmid: HashMap::new(),
            by_pmcid: HashMap::new(),
            by_s2: HashMap::new(),
            by_corpus: HashMap::new(),
            by_openalex: HashMap::new(),
            by_id: HashMap::new(),
        };
        for (i, e) in world.entries.iter().enumerate() {
            let w = &e.work;
            if let Some(doi) = &w.doi {
                world.by_doi.entry(doi.to_lowercase()).or_insert(i);
            }
            if let Some(a) = &w.arxiv {
                world.by_arxiv.entry(a.to_lowercase()).or_insert(i);
            }
            if let Some(p) = &w.pmid {
                world.by_pmid.entry(p.clone()).or_insert(i);
            }
            if let Some(p) = w.pmcid.as_deref().and_then(ids::normalize_pmcid) {
                world.by_pmcid.entry(p).or_insert(i);
            }
            world.by_s2.entry(e.s2_id.to_lowercase()).or_insert(i);
            world.by_corpus.entry(e.corpus_id).or_insert(i);
            world
                .by_openalex
                .entry(e.openalex_id.to_uppercase())
                .or_insert(i);
            world.by_id.entry(w.id.clone()).or_insert(i);
        }
        // arXiv DOIs are aliases: a work's own DOI wins if two works claim the same one.
        for (i, e) in world.entries.iter().enumerate() {
            if let Some(a) = &e.arxiv_doi {
                world.by_doi.entry(a.clone()).or_insert(i);
            }
        }
        world
    }

    /// Load every `*.jsonl` file given (a directory contributes its `*.jsonl` files, sorted).
    pub fn load(paths: &[PathBuf], data_roots: Vec<PathBuf>) -> Result<World, String> {
        let mut works = Vec::new();
        for path in paths {
            for file in jsonl_files(path)? {
                let text = std::fs::read_to_string(&file)
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                for (n, line) in text.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let work: Work = serde_json::from_str(line)
                        .map_err(|e| format!("{}:{}: {e}", file.display(), n + 1))?;
                    works.push(work);
                }
            }
        }
        Ok(World::from_works(works, data_roots))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn entry(&self, i: usize) -> &Entry {
        &self.entries[i]
    }

    pub fn by_world_id(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    pub fn by_doi(&self, doi: &str) -> Option<usize> {
        self.by_doi.get(&ids::normalize_doi(doi)).copied()
    }

    pub fn by_arxiv(&self, arxiv: &str) -> Option<usize> {
        let (id, _) = ids::parse_arxiv(arxiv)?;
        self.by_arxiv.get(&id.to_lowercase()).copied()
    }

    pub fn by_pmid(&self, pmid: &str) -> Option<usize> {
        self.by_pmid.get(pmid.trim()).copied()
    }

    pub fn by_pmcid(&self, pmcid: &str) -> Option<usize> {
        self.by_pmcid.get(&ids::normalize_pmcid(pmcid)?).copied()
    }

    pub fn by_s2(&self, paper_id: &str) -> Option<usize> {
        self.by_s2.get(&paper_id.to_lowercase()).copied()
    }

    pub fn by_corpus_id(&self, corpus: u64) -> Option<usize> {
        self.by_corpus.get(&corpus).copied()
    }

    pub fn by_openalex(&self, id: &str) -> Option<usize> {
        self.by_openalex.get(&id.to_uppercase()).copied()
    }

    /// Find a file named by `full_text_file` under the data roots.
    pub fn full_text_path(&self, entry: &Entry) -> Option<PathBuf> {
        let rel = entry.work.full_text_file.as_deref()?;
        self.data_roots
            .iter()
            .map(|root| root.join(rel))
            .find(|p| p.exists())
    }
}

fn jsonl_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        Ok(files)
    } else if path.exists() {
        Ok(vec![path.to_path_buf()])
    } else {
        Err(format!("{}: no such file or directory", path.display()))
    }
}
