//! What a reader of a store of works (the offline index) may ask of it: the
//! [`WorkStore`] trait, its answers and its error. It lives here, below both the
//! resolver that reads an index and the index that implements it (`crate::index`,
//! with a SQLite and a PostgreSQL engine), so neither depends on the other for it.

use std::path::PathBuf;

use serde::Serialize;

use crate::model::{IdScheme, Work};

/// The prefix of the `source` of every record the index returns (`index:openalex`).
pub const INDEX_SOURCE: &str = "index";

/// An index that cannot be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("index {}: {message}", path.display())]
    Open { path: PathBuf, message: String },
    #[error("index: {0}")]
    Store(String),
    #[error("{}: {message}", path.display())]
    Input { path: PathBuf, message: String },
}

impl From<rusqlite::Error> for IndexError {
    fn from(e: rusqlite::Error) -> Self {
        IndexError::Store(e.to_string())
    }
}

/// A work of the index: the records of every dump that describe it share one id.
pub type WorkId = i64;

/// A title the engine matched for a query, with the work it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct TitleHit {
    pub work: WorkId,
    pub title: String,
}

/// What the resolver reads. Implementations must be safe to share between threads.
pub trait WorkStore: Send + Sync {
    /// The work carrying an identifier (normalised: DOI lowercase and bare, arXiv id
    /// without version, PMID digits, PMCID `PMC` + digits).
    fn work_with_id(&self, scheme: IdScheme, value: &str) -> Result<Option<WorkId>, IndexError>;

    /// Every record of a work, each with the work's retraction and concern flags and,
    /// where the record has none, the abstract another record of the work carries.
    fn records(&self, work: WorkId) -> Result<Vec<Work>, IndexError>;

    /// Titles sharing words with `words` (folded content words of a cited title or of
    /// a raw reference string), best first by the engine's own ranking, at most
    /// `limit`. The resolver re-scores them with the title gate.
    fn title_hits(&self, words: &[String], limit: usize) -> Result<Vec<TitleHit>, IndexError>;

    /// Titles containing all of the rarest few of `words` (an engine that can answer
    /// a conjunctive search cheaply; the default answers nothing, and the caller then
    /// asks [`WorkStore::title_hits`]).
    fn title_hits_with_all(
        &self,
        _words: &[String],
        _limit: usize,
    ) -> Result<Vec<TitleHit>, IndexError> {
        Ok(Vec::new())
    }

    /// Counts, size and build information.
    fn stats(&self) -> Result<IndexStats, IndexError>;

    /// Every record of the work carrying an identifier.
    fn by_id(&self, scheme: IdScheme, value: &str) -> Result<Vec<Work>, IndexError> {
        match self.work_with_id(scheme, value)? {
            Some(work) => self.records(work),
            None => Ok(Vec::new()),
        }
    }
}

/// Records per dump.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceCount {
    pub source: String,
    pub records: u64,
}

/// One imported file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImportInfo {
    pub path: String,
    pub source: String,
    pub records: u64,
    pub at: String,
}

/// `citeproof index stats`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexStats {
    pub location: PathBuf,
    pub engine: String,
    /// Distinct works (records of the same work merged).
    pub works: u64,
    pub records: Vec<SourceCount>,
    /// Retraction and concern notices known by DOI.
    pub notices: u64,
    pub bytes: u64,
    /// When the last build finished (UTC, RFC 3339).
    pub built: Option<String>,
    pub created: Option<String>,
    pub imports: Vec<ImportInfo>,
}
