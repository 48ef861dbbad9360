//! Reading an SQLite index: a small pool of read-only connections, so that several
//! threads resolve at once.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params};

use super::{db_path, open_error, prepare};
use crate::index::codec::{
    FLAG_CONCERN, FLAG_RETRACTED, decode_authors, inflate, notice_kind, share_across_records,
    source_of,
};
use crate::index::merge::scheme_code;
use crate::index::store::{ImportInfo, IndexStats, SourceCount, TitleHit, WorkId, WorkStore};
use crate::index::title_engine::{RecordHit, TitleSearch};
use crate::index::{DumpSource, IndexError};
use crate::model::{IdScheme, Work};

/// Page cache per reading connection (KiB); with the pool's size this bounds the
/// memory a resolution run uses, whatever the number of works. (The file is not
/// memory-mapped: 8 % faster on a 1 M-work index, but the mapped pages count as the
/// process's memory and grow with the index.)
const READ_CACHE_KIB: i64 = 16 * 1024;

pub struct SqliteStore {
    dir: PathBuf,
    pool: Mutex<Vec<Connection>>,
    titles: TitleSearch,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("dir", &self.dir)
            .finish()
    }
}

const RECORD_COLUMNS: &str = "source, title, authors, year, venue, type, doi, arxiv, pmid, \
     pmcid, url, oa_url, abstract, flags";

impl SqliteStore {
    /// Open an index folder for reading.
    pub fn open(dir: &Path) -> Result<SqliteStore, IndexError> {
        if !db_path(dir).is_file() {
            return Err(open_error(
                dir,
                format!(
                    "no index here (expected {}; build one with `citeproof index build`)",
                    super::FILE_NAME
                ),
            ));
        }
        let store = SqliteStore {
            dir: dir.to_path_buf(),
            pool: Mutex::new(Vec::new()),
            titles: TitleSearch::open(dir)?,
        };
        let conn = store.connect()?;
        store.give_back(conn);
        Ok(store)
    }

    fn connect(&self) -> Result<Connection, IndexError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(db_path(&self.dir), flags)
            .map_err(|e| open_error(&self.dir, e))?;
        conn.pragma_update(None, "cache_size", -READ_CACHE_KIB)
            .map_err(|e| open_error(&self.dir, e))?;
        prepare(&conn, &self.dir, false)?;
        Ok(conn)
    }

    fn give_back(&self, conn: Connection) {
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(conn);
        }
    }

    /// Run `f` on a pooled connection.
    fn with<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, IndexError>,
    ) -> Result<T, IndexError> {
        let pooled = self.pool.lock().ok().and_then(|mut p| p.pop());
        let conn = match pooled {
            Some(conn) => conn,
            None => self.connect()?,
        };
        let result = f(&conn);
        self.give_back(conn);
        result
    }

    /// The titles of the records the title index proposed, read from the records.
    fn with_titles(&self, found: Vec<RecordHit>) -> Result<Vec<TitleHit>, IndexError> {
        if found.is_empty() {
            return Ok(Vec::new());
        }
        self.with(|conn| {
            let mut stmt = conn.prepare_cached("SELECT title FROM records WHERE id = ?1")?;
            let mut hits = Vec::with_capacity(found.len());
            for hit in found {
                // A title whose record a concurrent build just replaced is skipped.
                if let Some(title) = stmt.query_row([hit.record], |r| r.get(0)).optional()? {
                    hits.push(TitleHit {
                        work: hit.work,
                        title,
                    });
                }
            }
            Ok(hits)
        })
    }
}

fn work_of_row(row: &Row) -> rusqlite::Result<(Work, i64)> {
    let text = |i: usize| row.get::<_, Option<String>>(i);
    let abstract_text = row.get::<_, Option<Vec<u8>>>(12)?.and_then(|b| inflate(&b));
    let flags: i64 = row.get(13)?;
    let work = Work {
        source: source_of(row.get(0)?).record_source(),
        title: row.get(1)?,
        authors: decode_authors(&row.get::<_, String>(2)?),
        year: row.get(3)?,
        venue: text(4)?,
        work_type: text(5)?,
        doi: text(6)?,
        arxiv: text(7)?,
        pmid: text(8)?,
        pmcid: text(9)?,
        url: text(10)?,
        abstract_text,
        is_retracted: flags & FLAG_RETRACTED != 0,
        has_concern: flags & FLAG_CONCERN != 0,
        oa_url: text(11)?,
        ..Work::default()
    };
    Ok((work, flags))
}

/// The flags and abstract of a work shared by its records (notices read here).
fn share(conn: &Connection, works: &mut [Work]) -> Result<(), IndexError> {
    let mut stmt = conn.prepare_cached("SELECT kind FROM notices WHERE doi = ?1")?;
    share_across_records(works, |doi| {
        let kinds = stmt.query_map([doi], |r| r.get::<_, i64>(0))?;
        Ok(kinds
            .map(|k| k.map(notice_kind))
            .collect::<Result<Vec<_>, _>>()?)
    })
}

impl WorkStore for SqliteStore {
    fn work_with_id(&self, scheme: IdScheme, value: &str) -> Result<Option<WorkId>, IndexError> {
        let Some(code) = scheme_code(scheme) else {
            return Ok(None);
        };
        self.with(|conn| {
            let mut stmt =
                conn.prepare_cached("SELECT work FROM ids WHERE scheme = ?1 AND value = ?2")?;
            Ok(stmt
                .query_row(params![code, value], |r| r.get(0))
                .optional()?)
        })
    }

    fn records(&self, work: WorkId) -> Result<Vec<Work>, IndexError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {RECORD_COLUMNS} FROM records WHERE work = ?1 ORDER BY source, id"
            ))?;
            let mut works = stmt
                .query_map([work], work_of_row)?
                .map(|r| r.map(|(w, _)| w))
                .collect::<Result<Vec<_>, _>>()?;
            share(conn, &mut works)?;
            Ok(works)
        })
    }

    fn title_hits(&self, words: &[String], limit: usize) -> Result<Vec<TitleHit>, IndexError> {
        let found = self.titles.hits(words, limit)?;
        self.with_titles(found)
    }

    fn title_hits_with_all(
        &self,
        words: &[String],
        limit: usize,
    ) -> Result<Vec<TitleHit>, IndexError> {
        let found = self.titles.hits_with_all(words, limit)?;
        self.with_titles(found)
    }

    fn stats(&self) -> Result<IndexStats, IndexError> {
        self.with(|conn| {
            let meta = |key: &str| -> Result<Option<String>, IndexError> {
                Ok(conn
                    .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                    .optional()?)
            };
            let number = |key: &str| -> Result<u64, IndexError> {
                Ok(meta(key)?.and_then(|v| v.parse().ok()).unwrap_or(0))
            };
            let records = DumpSource::ALL
                .iter()
                .map(|s| {
                    Ok(SourceCount {
                        source: s.as_str().to_string(),
                        records: number(&format!("records.{}", s.as_str()))?,
                    })
                })
                .collect::<Result<Vec<_>, IndexError>>()?;
            let mut stmt =
                conn.prepare("SELECT path, source, records, at FROM imports ORDER BY at, path")?;
            let imports = stmt
                .query_map([], |r| {
                    Ok(ImportInfo {
                        path: r.get(0)?,
                        source: r.get(1)?,
                        records: r.get::<_, i64>(2)? as u64,
                        at: r.get(3)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(IndexStats {
                location: self.dir.clone(),
                engine: format!("sqlite {} with tantivy titles", rusqlite::version()),
                works: number("works")?,
                records,
                notices: number("notices")?,
                bytes: folder_bytes(&self.dir),
                built: meta("built")?,
                created: meta("created")?,
                imports,
            })
        })
    }
}

/// Bytes of the files in the index folder (the database, its journal and the title
/// index).
pub(crate) fn folder_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => folder_bytes(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}
