//! The SQLite engine: one file, `index.sqlite3`, in the index folder.
//!
//! - `records`: one row per dump record (its fields, the abstract deflated, flag bits),
//!   with the work it belongs to;
//! - `ids`: (scheme, value) → work, a compact B-tree without row ids;
//! - `title_keys`: a 64-bit hash of title + year + first author → work (merging);
//! - `notices`: DOIs that retraction / concern notices name;
//! - titles are searched in a tantivy index beside the file (`titles/`,
//!   [`crate::index::title_engine`]), keyed by the records' row ids;
//! - `imports`, `meta`: what was imported when.
//!
//! `check` is `citeproof index check` of a folder (`crate::index::check`).

mod check;
mod read;
mod write;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

pub use check::check;
pub use read::SqliteStore;
pub use write::{ReindexProgress, SqliteWriter};

use super::IndexError;
use crate::index::codec::now_utc;

/// The database file in an index folder.
pub const FILE_NAME: &str = "index.sqlite3";

/// Bumped when the schema changes incompatibly.
pub const SCHEMA_VERSION: &str = "2";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records(
    id INTEGER PRIMARY KEY,
    work INTEGER NOT NULL,
    source INTEGER NOT NULL,
    key TEXT NOT NULL,
    updated TEXT,
    title TEXT NOT NULL,
    authors TEXT NOT NULL,
    year INTEGER,
    venue TEXT,
    type TEXT,
    doi TEXT,
    arxiv TEXT,
    pmid TEXT,
    pmcid TEXT,
    url TEXT,
    oa_url TEXT,
    abstract BLOB,
    flags INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS records_key ON records(source, key);
CREATE INDEX IF NOT EXISTS records_work ON records(work);
CREATE TABLE IF NOT EXISTS ids(
    scheme INTEGER NOT NULL, value TEXT NOT NULL, work INTEGER NOT NULL,
    PRIMARY KEY(scheme, value)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS title_keys(key INTEGER PRIMARY KEY, work INTEGER NOT NULL, doi TEXT);
CREATE TABLE IF NOT EXISTS notices(doi TEXT NOT NULL, kind INTEGER NOT NULL,
    PRIMARY KEY(doi, kind)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS imports(path TEXT PRIMARY KEY, size INTEGER NOT NULL,
    modified INTEGER NOT NULL, source TEXT NOT NULL, records INTEGER NOT NULL,
    at TEXT NOT NULL) WITHOUT ROWID;
";

pub(crate) fn db_path(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

fn open_error(dir: &Path, e: impl std::fmt::Display) -> IndexError {
    IndexError::Open {
        path: dir.to_path_buf(),
        message: e.to_string(),
    }
}

/// Create the schema (on a new file) and check the version (on an existing one).
fn prepare(conn: &Connection, dir: &Path, create: bool) -> Result<(), IndexError> {
    if create {
        conn.execute_batch(SCHEMA).map_err(|e| open_error(dir, e))?;
        conn.execute(
            "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?1), ('created', ?2)",
            (SCHEMA_VERSION, now_utc()),
        )
        .map_err(|e| open_error(dir, e))?;
    }
    let version: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
            r.get(0)
        })
        .map_err(|e| open_error(dir, format!("not a citeproof index ({e})")))?;
    match version.as_deref() {
        Some(SCHEMA_VERSION) => Ok(()),
        other => Err(open_error(
            dir,
            format!(
                "index schema {} is not the one this citeproof reads ({SCHEMA_VERSION}): rebuild it",
                other.unwrap_or("?")
            ),
        )),
    }
}
