//! Building an SQLite index: records are merged into works as they arrive (identifier
//! tables first, then the title key), a newer version of a record replaces the older
//! one, and every few thousand records are committed, so memory stays bounded by the
//! page cache and the title writer's budget, whatever the size of the dumps.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use super::{db_path, open_error, prepare};
use crate::index::check::UNFINISHED_BUILD;
use crate::index::codec::{
    deflate, encode_authors, flags_of, indexed_words, notice_code, now_utc, source_code,
};
use crate::index::merge::{id_column, ids_of, scheme_code};
use crate::index::put::{self, Id, MergeTarget, Stored};
use crate::index::store::{FileStamp, PutOutcome, StoreWriter, WorkId};
use crate::index::title_engine::{self, TitleWriter};
use crate::index::{DumpSource, IndexError, Record};
use crate::model::IdScheme;

/// Page cache of the building connection (KiB).
const BUILD_CACHE_KIB: i64 = 64 * 1024;

pub struct SqliteWriter {
    dir: PathBuf,
    conn: Connection,
    /// `None` after `finish` (which waits for the title index's merges).
    titles: Option<TitleWriter>,
    next_work: WorkId,
    in_transaction: bool,
}

impl SqliteWriter {
    /// Open (creating it and the folder when needed) an index for building.
    pub fn open(dir: &Path) -> Result<SqliteWriter, IndexError> {
        SqliteWriter::open_reporting(dir, &|_| {})
    }

    /// [`SqliteWriter::open`], reporting the titles indexed again when the index's
    /// title index must be rebuilt first (see [`title_engine::lacks_pairs`], or an
    /// interrupted rebuild): a long step on a large index, shown as progress. Nothing
    /// is reported when no rebuild is needed; a rebuild reports 0 done first.
    pub fn open_reporting(
        dir: &Path,
        progress: &dyn Fn(&ReindexProgress),
    ) -> Result<SqliteWriter, IndexError> {
        std::fs::create_dir_all(dir).map_err(|e| open_error(dir, e))?;
        let conn = Connection::open(db_path(dir)).map_err(|e| open_error(dir, e))?;
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; \
             PRAGMA cache_size = {}; PRAGMA temp_store = FILE;",
            -BUILD_CACHE_KIB
        ))
        .map_err(|e| open_error(dir, e))?;
        prepare(&conn, dir, true)?;
        // Removed by `finish`: `citeproof index check` knows a build did not finish.
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)",
            (UNFINISHED_BUILD, now_utc()),
        )
        .map_err(|e| open_error(dir, e))?;
        let unfinished: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [REINDEXING], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| open_error(dir, e))?;
        if unfinished.is_some() || title_engine::lacks_pairs(dir)? {
            reindex_titles(&conn, dir, progress)?;
        }
        let titles = TitleWriter::open(dir)?;
        let next_work: WorkId = conn
            .query_row("SELECT COALESCE(MAX(work), 0) + 1 FROM records", [], |r| {
                r.get(0)
            })
            .map_err(|e| open_error(dir, e))?;
        Ok(SqliteWriter {
            dir: dir.to_path_buf(),
            conn,
            titles: Some(titles),
            next_work,
            in_transaction: false,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn begin(&mut self) -> Result<(), IndexError> {
        if !self.in_transaction {
            self.conn.execute_batch("BEGIN")?;
            self.in_transaction = true;
        }
        Ok(())
    }

    /// The title writer, opened again when a finished build is continued.
    fn titles(&mut self) -> Result<&mut TitleWriter, IndexError> {
        if self.titles.is_none() {
            self.titles = Some(TitleWriter::open(&self.dir)?);
        }
        Ok(self.titles.as_mut().expect("opened above"))
    }

    /// The identifiers a stored record carries.
    fn record_ids(&self, id: i64) -> Result<Vec<Id>, IndexError> {
        let work = self
            .conn
            .prepare_cached("SELECT doi, arxiv, pmid, pmcid FROM records WHERE id = ?1")?
            .query_row([id], |r| {
                Ok(crate::model::Work {
                    doi: r.get(0)?,
                    arxiv: r.get(1)?,
                    pmid: r.get(2)?,
                    pmcid: r.get(3)?,
                    ..crate::model::Work::default()
                })
            })
            .optional()?;
        Ok(work.map(|w| ids_of(&w)).unwrap_or_default())
    }

    fn set_meta(&self, key: &str, value: &str) -> Result<(), IndexError> {
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?1, ?2) \
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )?;
        Ok(())
    }
}

impl StoreWriter for SqliteWriter {
    fn already_imported(&mut self, file: &FileStamp) -> Result<bool, IndexError> {
        let found: Option<(i64, i64)> = self
            .conn
            .query_row(
                "SELECT size, modified FROM imports WHERE path = ?1",
                [&file.path],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(found == Some((file.size as i64, file.modified)))
    }

    fn put(&mut self, record: &Record) -> Result<PutOutcome, IndexError> {
        self.begin()?;
        put::put(self, record)
    }

    fn mark_imported(
        &mut self,
        file: &FileStamp,
        source: &str,
        records: u64,
    ) -> Result<(), IndexError> {
        self.begin()?;
        self.conn.execute(
            "INSERT OR REPLACE INTO imports(path, size, modified, source, records, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                file.path,
                file.size as i64,
                file.modified,
                source,
                records as i64,
                now_utc()
            ],
        )?;
        Ok(())
    }

    fn commit(&mut self) -> Result<(), IndexError> {
        if self.in_transaction {
            // Titles first: see `TitleWriter::commit`.
            if let Some(titles) = self.titles.as_mut() {
                titles.commit()?;
            }
            self.conn.execute_batch("COMMIT")?;
            self.in_transaction = false;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), IndexError> {
        self.begin()?;
        for source in DumpSource::ALL {
            let n: i64 = self.conn.query_row(
                "SELECT COUNT(*) FROM records WHERE source = ?1",
                [source_code(source)],
                |r| r.get(0),
            )?;
            self.set_meta(&format!("records.{}", source.as_str()), &n.to_string())?;
        }
        let works: i64 =
            self.conn
                .query_row("SELECT COUNT(DISTINCT work) FROM records", [], |r| r.get(0))?;
        self.set_meta("works", &works.to_string())?;
        let notices: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM notices", [], |r| r.get(0))?;
        self.set_meta("notices", &notices.to_string())?;
        self.set_meta("built", &now_utc())?;
        self.conn
            .execute("DELETE FROM meta WHERE key = ?1", [UNFINISHED_BUILD])?;
        self.commit()?;
        if let Some(titles) = self.titles.take() {
            titles.finish()?;
        }
        self.conn
            .execute_batch("PRAGMA optimize; PRAGMA wal_checkpoint(TRUNCATE);")?;
        Ok(())
    }
}

/// Index every record's title again, into a title index of the current schema (one
/// built by an older citeproof lacks word pairs): the records table holds the titles.
fn reindex_titles(
    conn: &Connection,
    dir: &Path,
    progress: &dyn Fn(&ReindexProgress),
) -> Result<(), IndexError> {
    let total: i64 = conn.query_row("SELECT COUNT(*) FROM records", [], |r| r.get(0))?;
    let total = total as u64;
    progress(&ReindexProgress { done: 0, total });
    // Marked first, so a build interrupted half way starts again on the next build.
    conn.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)",
        (REINDEXING, now_utc()),
    )?;
    title_engine::remove(dir)?;
    let mut titles = TitleWriter::open(dir)?;
    let mut stmt = conn.prepare("SELECT id, work, title FROM records")?;
    let mut rows = stmt.query([])?;
    let mut done: u64 = 0;
    while let Some(row) = rows.next()? {
        let words = indexed_words(&row.get::<_, String>(2)?);
        if !words.is_empty() {
            titles.put_new(row.get(0)?, row.get(1)?, &words)?;
        }
        done += 1;
        if done.is_multiple_of(REINDEX_COMMIT_EVERY) {
            titles.commit()?;
        }
        if done.is_multiple_of(REINDEX_REPORT_EVERY) {
            progress(&ReindexProgress { done, total });
        }
    }
    progress(&ReindexProgress { done, total });
    titles.finish()?;
    conn.execute("DELETE FROM meta WHERE key = ?1", [REINDEXING])?;
    Ok(())
}

/// The meta key present while every title is being indexed again.
const REINDEXING: &str = "titles_reindex_started";

/// Records whose titles were indexed again so far, of all the records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReindexProgress {
    pub done: u64,
    pub total: u64,
}

/// Titles indexed again between progress reports.
const REINDEX_REPORT_EVERY: u64 = 10_000;

/// Titles indexed again between commits of the title index.
const REINDEX_COMMIT_EVERY: u64 = 1_000_000;

/// The merge rules ([`put`]) against the file, one statement at a time.
impl MergeTarget for SqliteWriter {
    type Error = IndexError;

    fn stored(&mut self, record: &Record) -> Result<Option<Stored>, IndexError> {
        Ok(self
            .conn
            .prepare_cached("SELECT id, work, updated FROM records WHERE source = ?1 AND key = ?2")?
            .query_row(params![source_code(record.source), record.key], |r| {
                Ok(Stored {
                    id: r.get(0)?,
                    work: r.get(1)?,
                    updated: r.get(2)?,
                })
            })
            .optional()?)
    }

    fn work_with_id(&mut self, (scheme, value): &Id) -> Result<Option<WorkId>, IndexError> {
        Ok(self
            .conn
            .prepare_cached("SELECT work FROM ids WHERE scheme = ?1 AND value = ?2")?
            .query_row(params![scheme_code(*scheme), value], |r| r.get(0))
            .optional()?)
    }

    fn work_with_title_key(
        &mut self,
        key: i64,
    ) -> Result<Option<(WorkId, Option<String>)>, IndexError> {
        Ok(self
            .conn
            .prepare_cached("SELECT work, doi FROM title_keys WHERE key = ?1")?
            .query_row([key], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    fn new_work(&mut self) -> Result<WorkId, IndexError> {
        let work = self.next_work;
        self.next_work += 1;
        Ok(work)
    }

    fn ids_of_stored(&mut self, stored: &Stored) -> Result<Vec<Id>, IndexError> {
        self.record_ids(stored.id)
    }

    fn delete(&mut self, stored: &Stored) -> Result<(), IndexError> {
        self.conn
            .execute("DELETE FROM records WHERE id = ?1", [stored.id])?;
        self.titles()?.remove(stored.id);
        Ok(())
    }

    fn ids_of_work(&mut self, work: WorkId) -> Result<Vec<Id>, IndexError> {
        let members: Vec<i64> = self
            .conn
            .prepare_cached("SELECT id FROM records WHERE work = ?1")?
            .query_map([work], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut ids = Vec::new();
        for member in members {
            ids.extend(self.record_ids(member)?);
        }
        Ok(ids)
    }

    fn forget_id(&mut self, (scheme, value): &Id, work: WorkId) -> Result<(), IndexError> {
        self.conn.execute(
            "DELETE FROM ids WHERE scheme = ?1 AND value = ?2 AND work = ?3",
            params![scheme_code(*scheme), value, work],
        )?;
        Ok(())
    }

    fn other_work_carrying(
        &mut self,
        (scheme, value): &Id,
        except: WorkId,
    ) -> Result<Option<WorkId>, IndexError> {
        // No index on the identifier columns: a scan, for the rare dropped identifier.
        let sql = format!(
            "SELECT MIN(work) FROM records WHERE {} = ?1 AND work <> ?2",
            id_column(*scheme)
        );
        Ok(self
            .conn
            .prepare_cached(&sql)?
            .query_row(params![value, except], |r| r.get(0))?)
    }

    fn insert(&mut self, record: &Record, work: WorkId) -> Result<(), IndexError> {
        let w = &record.work;
        let ids = ids_of(w);
        let id_value = |scheme: IdScheme| {
            ids.iter()
                .find(|(s, _)| *s == scheme)
                .map(|(_, v)| v.as_str())
        };
        self.conn
            .prepare_cached(
                "INSERT INTO records(work, source, key, updated, title, authors, year, venue, \
                 type, doi, arxiv, pmid, pmcid, url, oa_url, abstract, flags) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            )?
            .execute(params![
                work,
                source_code(record.source),
                record.key,
                record.updated,
                w.title,
                encode_authors(&w.authors),
                w.year,
                w.venue,
                w.work_type,
                id_value(IdScheme::Doi),
                id_value(IdScheme::Arxiv),
                id_value(IdScheme::Pmid),
                id_value(IdScheme::Pmcid),
                w.url,
                w.oa_url,
                w.abstract_text.as_deref().map(deflate),
                flags_of(w),
            ])?;
        let id = self.conn.last_insert_rowid();
        let words = indexed_words(&w.title);
        if !words.is_empty() {
            self.titles()?.put(id, work, &words)?;
        }
        Ok(())
    }

    fn claim_id(&mut self, (scheme, value): &Id, work: WorkId) -> Result<(), IndexError> {
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO ids(scheme, value, work) VALUES (?1, ?2, ?3)")?
            .execute(params![scheme_code(*scheme), value, work])?;
        Ok(())
    }

    fn claim_title_key(
        &mut self,
        key: i64,
        work: WorkId,
        doi: Option<&str>,
    ) -> Result<(), IndexError> {
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO title_keys(key, work, doi) VALUES (?1, ?2, ?3)")?
            .execute(params![key, work, doi])?;
        Ok(())
    }

    fn put_notices(&mut self, record: &Record) -> Result<(), IndexError> {
        let mut put = self
            .conn
            .prepare_cached("INSERT OR IGNORE INTO notices(doi, kind) VALUES (?1, ?2)")?;
        for notice in &record.notices {
            put.execute(params![notice.target_doi, notice_code(notice.kind)])?;
        }
        Ok(())
    }
}
