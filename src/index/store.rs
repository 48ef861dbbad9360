//! The storage an index lives in, as two small traits: [`WorkStore`] (what the
//! resolver reads: identifier lookups, title hits, stats; defined below both, in
//! [`crate::storage::works`], so the resolver reads an index without depending on
//! it) and [`StoreWriter`] (what a build writes). The SQLite engine implements both;
//! another engine (PostgreSQL with `pg_trgm`) implements the same traits and nothing
//! in the resolver changes.

use serde::Serialize;

use super::{IndexError, Record};
pub use crate::storage::works::{ImportInfo, IndexStats, SourceCount, TitleHit, WorkId, WorkStore};

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
