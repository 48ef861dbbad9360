//! The storage an index lives in, as two small traits: [`WorkStore`] (what the
//! resolver reads: identifier lookups, title hits, stats) and [`StoreWriter`] (what a
//! build writes). The SQLite engine implements both; another engine (PostgreSQL with
//! `pg_trgm`) implements the same traits and nothing in the resolver changes.

use std::path::PathBuf;

use serde::Serialize;

use super::{IndexError, Record};
use crate::model::{IdScheme, Work};

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

/// A dump file as imported: a rerun skips files whose size and modification time
/// are unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileStamp {
    pub path: String,
    pub size: u64,
    pub modified: i64,
}

/// What became of one record put into the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutOutcome {
    /// A new record (of a new or of an existing work).
    Added,
    /// It replaced an older version of the same record.
    Replaced,
    /// The index already holds this version or a newer one.
    Kept,
}

/// What a build writes. One writer at a time per index.
pub trait StoreWriter {
    fn already_imported(&mut self, file: &FileStamp) -> Result<bool, IndexError>;
    fn put(&mut self, record: &Record) -> Result<PutOutcome, IndexError>;
    /// Put records in order (a record may replace or join one put before it in the
    /// same call); what became of each. An engine that writes faster in batches
    /// (PostgreSQL) overrides it.
    fn put_batch(&mut self, records: &[Record]) -> Result<Vec<PutOutcome>, IndexError> {
        records.iter().map(|record| self.put(record)).collect()
    }
    fn mark_imported(
        &mut self,
        file: &FileStamp,
        source: &str,
        records: u64,
    ) -> Result<(), IndexError>;
    /// Make what was put so far durable (called every few thousand records).
    fn commit(&mut self) -> Result<(), IndexError>;
    /// Commit, record the build date and counts, and tidy the storage.
    fn finish(&mut self) -> Result<(), IndexError>;
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
