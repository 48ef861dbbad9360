//! The report of a clean run: one entry per citation number per occurrence, in body
//! order, with exactly the fields `marker`, `number`, `line`, `column`, `span`,
//! `identifier`, `status`, `similarity`, `action`, `new_number`, `reason`,
//! `record` and (with the judge) `evidence`; and a summary of counts.

use serde::{Deserialize, Serialize};

use crate::model::{IdScheme, Work};

/// What was concluded about one citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The article exists (among the sources, or in the scholarly record) and the
    /// citing text is about it.
    Valid,
    /// The article exists but the citing text is not about it (the judge is confident).
    Mismatch,
    /// The article exists and the citing text may not be about it: the judge doubts,
    /// without the confidence to call it a mismatch.
    Doubtful,
    /// The marker names no reference, or the referenced work is not among the sources
    /// (closed world) or does not exist (open world): likely hallucinated.
    NotFound,
    /// The article was retracted.
    Retracted,
    /// It could not be checked (a source failed or timed out, nothing to look up).
    Unverified,
    /// No source asked has the work, but they hold its kind (a book, a thesis,
    /// software …) only partly: not evidence of hallucination.
    NotIndexed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Mismatch => "mismatch",
            Status::Doubtful => "doubtful",
            Status::NotFound => "not_found",
            Status::Retracted => "retracted",
            Status::Unverified => "unverified",
            Status::NotIndexed => "not_indexed",
        }
    }
}

/// What was done with one citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Taken {
    Kept,
    Removed,
    Marked,
}

/// A persistent identifier of the cited work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identifier {
    pub scheme: IdScheme,
    pub value: String,
}

/// The record a citation was matched to: a source of the request (closed world) or
/// the scholarly record that resolution found (open world).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `sources` (closed world) or the service that answered (`crossref`, `corpus`, …).
    pub source: String,
    /// Position of the article in the request's sources (0-based), closed world only.
    pub index: Option<usize>,
    pub title: String,
    pub doi: Option<String>,
    pub pmcid: Option<String>,
    pub pmid: Option<String>,
    pub arxiv: Option<String>,
    pub url: Option<String>,
    pub venue: Option<String>,
    pub year: Option<i32>,
    pub is_retracted: bool,
}

impl Record {
    pub fn from_work(work: &Work, index: Option<usize>) -> Record {
        Record {
            source: work.source.clone(),
            index,
            title: work.title.clone(),
            doi: work.doi.clone(),
            pmcid: work.pmcid.clone(),
            pmid: work.pmid.clone(),
            arxiv: work.arxiv.clone(),
            url: work.url.clone(),
            venue: work.venue.clone(),
            year: work.year,
            is_retracted: crate::resolve::outcome::is_retracted(work),
        }
    }
}

/// One citation number at one place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CitationReport {
    /// The marker as written (`[1, 3]`, `[^2]`, `(Smith et al., 2020)`, a DOI).
    pub marker: String,
    /// The reference number this entry is about (`None` for footnotes, author–year
    /// citations and inline identifiers).
    pub number: Option<u32>,
    /// 1-based line and column (in characters) of the marker.
    pub line: u32,
    pub column: u32,
    /// `[start, end)` byte offsets of the marker in the answer.
    pub span: [usize; 2],
    pub identifier: Option<Identifier>,
    pub status: Status,
    /// How close the citing text is to the article (on the scale of the metric in
    /// use); `None` when no comparison was made.
    pub similarity: Option<f64>,
    pub action: Taken,
    /// The number in the cleaned answer (`None` when removed or not numbered).
    pub new_number: Option<u32>,
    pub reason: String,
    pub record: Option<Record>,
    /// What the judge's verdict on this occurrence rests on: the cited article's
    /// closest passage, the sentence's specific terms it holds and lacks, the rival
    /// article (`score` metric only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<crate::verify::judge::Evidence>,
}

/// Counts over the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Report entries (citation numbers per occurrence).
    pub citations: usize,
    pub valid: usize,
    pub mismatch: usize,
    #[serde(default)]
    pub doubtful: usize,
    pub not_found: usize,
    pub retracted: usize,
    pub unverified: usize,
    #[serde(default)]
    pub not_indexed: usize,
    pub kept: usize,
    pub removed: usize,
    pub marked: usize,
    /// Reference-list entries in the cleaned answer, and entries dropped from it.
    pub references_kept: usize,
    pub references_removed: usize,
    /// `closed` (checked against the request's sources) or `open` (resolved).
    pub world: String,
    /// How citing text and article were compared (`embedded-lexical`,
    /// `all-MiniLM-L6-v2+lexical`, `cosine:all-MiniLM-L6-v2`, with `+llm:MODEL`).
    pub alignment: String,
    /// The similarity (the judge's support, or the cosine) below which a found
    /// article is a mismatch.
    pub threshold: f64,
    /// The support below which a found article is doubtful (`score` metric).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doubt_threshold: Option<f64>,
}

/// The whole report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CleanReport {
    pub citations: Vec<CitationReport>,
    pub summary: Summary,
}

impl CleanReport {
    /// Fill the summary's counts from the entries.
    pub fn count(&mut self) {
        let s = &mut self.summary;
        s.citations = self.citations.len();
        for c in &self.citations {
            match c.status {
                Status::Valid => s.valid += 1,
                Status::Mismatch => s.mismatch += 1,
                Status::Doubtful => s.doubtful += 1,
                Status::NotFound => s.not_found += 1,
                Status::Retracted => s.retracted += 1,
                Status::Unverified => s.unverified += 1,
                Status::NotIndexed => s.not_indexed += 1,
            }
            match c.action {
                Taken::Kept => s.kept += 1,
                Taken::Removed => s.removed += 1,
                Taken::Marked => s.marked += 1,
            }
        }
    }
}
