//! The SQLite engine: one file, `index.sqlite3`, in the index folder.
//!
//! - `records`: one row per dump record (its fields, the abstract deflated, flag bits),
//!   with the work it belongs to;
//! - `ids`: (scheme, value) → work, a compact B-tree without row ids;
//! - `title_keys`: a 64-bit hash of title + year + first author → work (merging);
//! - `notices`: DOIs that retraction / concern notices name;
//! - `titles`: an FTS5 index of the records' folded title words (contentless, no
//!   positions: terms and documents only), and `titles_vocab` for document counts;
//! - `imports`, `meta`: what was imported when.

mod read;
mod write;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use rusqlite::Connection;

pub use read::SqliteStore;
pub use write::SqliteWriter;

use super::IndexError;
use crate::model::Person;

/// The database file in an index folder.
pub const FILE_NAME: &str = "index.sqlite3";

/// Bumped when the schema changes incompatibly.
pub const SCHEMA_VERSION: &str = "1";

pub(crate) const FLAG_RETRACTED: i64 = 1;
pub(crate) const FLAG_CONCERN: i64 = 2;

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
CREATE VIRTUAL TABLE IF NOT EXISTS titles USING fts5(
    words, content='', contentless_delete=1, detail=none, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE IF NOT EXISTS titles_vocab USING fts5vocab(titles, 'row');
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

/// Authors as one string: `given \x1f family`, separated by `\x1e`.
pub(crate) fn encode_authors(authors: &[Person]) -> String {
    let mut out = String::new();
    for (i, p) in authors.iter().enumerate() {
        if i > 0 {
            out.push('\u{1e}');
        }
        out.push_str(p.given.as_deref().unwrap_or(""));
        out.push('\u{1f}');
        out.push_str(&p.family);
    }
    out
}

pub(crate) fn decode_authors(text: &str) -> Vec<Person> {
    text.split('\u{1e}')
        .filter(|s| !s.is_empty())
        .map(|p| {
            let (given, family) = p.split_once('\u{1f}').unwrap_or(("", p));
            Person::new(Some(given), family)
        })
        .collect()
}

pub(crate) fn deflate(text: &str) -> Vec<u8> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(text.as_bytes());
    encoder.finish().unwrap_or_default()
}

pub(crate) fn inflate(bytes: &[u8]) -> Option<String> {
    let mut text = String::new();
    DeflateDecoder::new(bytes).read_to_string(&mut text).ok()?;
    Some(text)
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

/// The current time, UTC, RFC 3339 (seconds).
pub(crate) fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    httpdate_rfc3339(secs)
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (civil-from-days, proleptic
/// Gregorian).
fn httpdate_rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_and_abstracts_round_trip() {
        let people = vec![
            Person::new(Some("Ada"), "Lovelace"),
            Person::new(None, "WHO"),
        ];
        assert_eq!(decode_authors(&encode_authors(&people)), people);
        assert!(decode_authors("").is_empty());
        let text = "An abstract about graphs. ".repeat(20);
        let packed = deflate(&text);
        assert!(packed.len() < text.len());
        assert_eq!(inflate(&packed).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn dates_are_rfc3339() {
        assert_eq!(httpdate_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(httpdate_rfc3339(1_709_251_199), "2024-02-29T23:59:59Z");
    }
}
