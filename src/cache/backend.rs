//! What a cache backend stores and answers: rows of (namespace, key, kind, JSON text,
//! time stored, logic version). Lifetimes and versions are judged here, in the SQL each
//! backend runs with the same parameters, and by [`super::Cache`] on every read.

use std::path::PathBuf;

use serde::Serialize;

/// What an entry records (the `found` / `kind` column).
pub const NOT_FOUND: i64 = 0;
pub const FOUND: i64 = 1;
pub const FAILED: i64 = 2;

/// A stored row: its kind, the JSON text, when stored, the logic version.
pub type Row = (i64, String, i64, u32);

#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cache database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("cache directory {path}: {message}")]
    Io { path: PathBuf, message: String },
    #[error("cache value is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cache task failed: {0}")]
    Task(String),
    #[error("cache database {url}: {message}")]
    Postgres { url: String, message: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamespaceStats {
    pub namespace: String,
    /// Live entries (current version, not expired).
    pub entries: u64,
    pub found: u64,
    pub not_found: u64,
    /// Failures remembered (lookups that got no answer).
    pub failed: u64,
    /// Entries expired or written under another logic version (removed by `purge`).
    pub stale: u64,
    /// Unix seconds of the oldest and newest live entry.
    pub oldest: Option<i64>,
    pub newest: Option<i64>,
}

/// What makes an entry live: the logic version in force, the lifetimes of found,
/// not-found and failed entries in seconds, and the time now.
#[derive(Debug, Clone, Copy)]
pub struct Liveness {
    pub version: u32,
    pub ttls: [i64; 3],
    pub now: i64,
}

/// One storage of the cache's rows: the SQLite file or a PostgreSQL database.
pub trait CacheBackend: Send + Sync {
    fn get(&self, namespace: &str, key: &str) -> Result<Option<Row>, CacheError>;
    /// Store rows (key, kind, JSON text) in one transaction; the last write of a key wins.
    fn write_rows(
        &self,
        namespace: &str,
        rows: &[(&str, i64, String)],
        now: i64,
        version: u32,
    ) -> Result<(), CacheError>;
    /// Remove every row of `namespace`, or every row; how many.
    fn clear(&self, namespace: Option<&str>) -> Result<usize, CacheError>;
    /// Remove rows that are not live; how many.
    fn purge(&self, live: Liveness) -> Result<usize, CacheError>;
    /// Rows per namespace, and the size on disk in bytes.
    fn stats(&self, live: Liveness) -> Result<(Vec<NamespaceStats>, u64), CacheError>;
    /// The journal mode in force (`wal` for SQLite), or the backend's name.
    fn journal_mode(&self) -> Result<String, CacheError>;
}
