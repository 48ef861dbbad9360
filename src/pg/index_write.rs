//! Building the index in PostgreSQL: the same merging and replacement as the SQLite
//! writer (identifiers, then the title key; a newer record replaces the older one),
//! in transactions committed every few thousand records. One build at a time: the
//! writer holds a session advisory lock.

use postgres::Client;

use super::index_read::{MIGRATIONS, store_error};
use super::{migrate, redacted};
use crate::index::codec::{
    deflate, encode_authors, flags_of, indexed_words, is_newer_or_same, notice_code, now_utc,
    source_code,
};
use crate::index::merge::{ids_of, may_join_by_title, scheme_code, title_key};
use crate::index::store::{FileStamp, PutOutcome, StoreWriter, WorkId};
use crate::index::{DumpSource, IndexError, Record};
use crate::model::{IdScheme, Work};

/// A record's identifiers.
type RecordIds = Vec<(IdScheme, String)>;

/// The advisory lock a build holds ("citeidx").
const BUILD_LOCK: i64 = 0x0063_6974_6569_6478;

/// A build into PostgreSQL. It owns one connection, on a thread of its own (the
/// synchronous client must not run inside a Tokio runtime; a build never does).
pub struct PgWriter {
    client: Client,
    next_work: WorkId,
    in_transaction: bool,
}

fn err(e: postgres::Error) -> IndexError {
    store_error(super::error_text(&e))
}

impl PgWriter {
    /// Connect, migrate the schema and take the build lock.
    pub fn open(url: &str) -> Result<PgWriter, IndexError> {
        let open_error = |message: String| IndexError::Open {
            path: redacted(url).into(),
            message,
        };
        let mut client =
            Client::connect(url, postgres::NoTls).map_err(|e| open_error(super::error_text(&e)))?;
        migrate(&mut client, "index", MIGRATIONS).map_err(open_error)?;
        let locked: bool = client
            .query_one("SELECT pg_try_advisory_lock($1)", &[&BUILD_LOCK])
            .map_err(err)?
            .get(0);
        if !locked {
            return Err(open_error(
                "another `citeproof index build` is writing this database".to_string(),
            ));
        }
        client
            .execute(
                "INSERT INTO citeproof_index_meta(key, value) VALUES ('created', $1) \
                 ON CONFLICT (key) DO NOTHING",
                &[&now_utc()],
            )
            .map_err(err)?;
        let next_work: WorkId = client
            .query_one(
                "SELECT COALESCE(MAX(work), 0) + 1 FROM citeproof_index_records",
                &[],
            )
            .map_err(err)?
            .get(0);
        Ok(PgWriter {
            client,
            next_work,
            in_transaction: false,
        })
    }

    fn begin(&mut self) -> Result<(), IndexError> {
        if !self.in_transaction {
            self.client.batch_execute("BEGIN").map_err(err)?;
            self.in_transaction = true;
        }
        Ok(())
    }

    /// The work a new record belongs to (as in the SQLite writer).
    fn work_for(&mut self, record: &Record) -> Result<WorkId, IndexError> {
        for (scheme, value) in ids_of(&record.work) {
            let code = scheme_code(scheme).unwrap_or(0) as i16;
            let row = self
                .client
                .query_opt(
                    "SELECT work FROM citeproof_index_ids WHERE scheme = $1 AND value = $2",
                    &[&code, &value],
                )
                .map_err(err)?;
            if let Some(row) = row {
                return Ok(row.get(0));
            }
        }
        if let Some(key) = title_key(&record.work) {
            let row = self
                .client
                .query_opt(
                    "SELECT work, doi FROM citeproof_index_title_keys WHERE key = $1",
                    &[&key],
                )
                .map_err(err)?;
            if let Some(row) = row {
                let doi: Option<String> = row.get(1);
                if may_join_by_title(record.work.doi.as_deref(), doi.as_deref()) {
                    return Ok(row.get(0));
                }
            }
        }
        let work = self.next_work;
        self.next_work += 1;
        Ok(work)
    }

    fn record_ids(&mut self, work: WorkId) -> Result<Vec<(i64, RecordIds)>, IndexError> {
        let rows = self
            .client
            .query(
                "SELECT id, doi, arxiv, pmid, pmcid FROM citeproof_index_records WHERE work = $1",
                &[&work],
            )
            .map_err(err)?;
        Ok(rows
            .iter()
            .map(|r| {
                let w = Work {
                    doi: r.get(1),
                    arxiv: r.get(2),
                    pmid: r.get(3),
                    pmcid: r.get(4),
                    ..Work::default()
                };
                (r.get(0), ids_of(&w))
            })
            .collect())
    }

    /// Remove a replaced record; identifiers no other record of its work carries go.
    fn remove(&mut self, id: i64, work: WorkId) -> Result<(), IndexError> {
        let all = self.record_ids(work)?;
        let old: RecordIds = all
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, ids)| ids.clone())
            .unwrap_or_default();
        let others: Vec<&(IdScheme, String)> = all
            .iter()
            .filter(|(i, _)| *i != id)
            .flat_map(|(_, ids)| ids)
            .collect();
        self.client
            .execute("DELETE FROM citeproof_index_records WHERE id = $1", &[&id])
            .map_err(err)?;
        for (scheme, value) in old.iter().filter(|i| !others.contains(i)) {
            let code = scheme_code(*scheme).unwrap_or(0) as i16;
            self.client
                .execute(
                    "DELETE FROM citeproof_index_ids WHERE scheme = $1 AND value = $2 AND work = $3",
                    &[&code, value, &work],
                )
                .map_err(err)?;
        }
        Ok(())
    }

    fn insert(&mut self, record: &Record, work: WorkId) -> Result<(), IndexError> {
        let w = &record.work;
        let ids = ids_of(w);
        let id_value = |scheme: IdScheme| {
            ids.iter()
                .find(|(s, _)| *s == scheme)
                .map(|(_, v)| v.clone())
        };
        let flags = flags_of(w) as i16;
        let source = source_code(record.source) as i16;
        self.client
            .execute(
                "INSERT INTO citeproof_index_records(work, source, key, updated, title, words, \
                 authors, year, venue, type, doi, arxiv, pmid, pmcid, url, oa_url, abstract, flags) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
                &[
                    &work,
                    &source,
                    &record.key,
                    &record.updated,
                    &w.title,
                    &indexed_words(&w.title),
                    &encode_authors(&w.authors),
                    &w.year,
                    &w.venue,
                    &w.work_type,
                    &id_value(IdScheme::Doi),
                    &id_value(IdScheme::Arxiv),
                    &id_value(IdScheme::Pmid),
                    &id_value(IdScheme::Pmcid),
                    &w.url,
                    &w.oa_url,
                    &w.abstract_text.as_deref().map(deflate),
                    &flags,
                ],
            )
            .map_err(err)?;
        for (scheme, value) in &ids {
            let code = scheme_code(*scheme).unwrap_or(0) as i16;
            self.client
                .execute(
                    "INSERT INTO citeproof_index_ids(scheme, value, work) VALUES ($1, $2, $3) \
                     ON CONFLICT DO NOTHING",
                    &[&code, value, &work],
                )
                .map_err(err)?;
        }
        if let Some(key) = title_key(w) {
            self.client
                .execute(
                    "INSERT INTO citeproof_index_title_keys(key, work, doi) VALUES ($1, $2, $3) \
                     ON CONFLICT DO NOTHING",
                    &[&key, &work, &id_value(IdScheme::Doi)],
                )
                .map_err(err)?;
        }
        self.put_notices(record)
    }

    fn put_notices(&mut self, record: &Record) -> Result<(), IndexError> {
        for notice in &record.notices {
            let kind = notice_code(notice.kind) as i16;
            self.client
                .execute(
                    "INSERT INTO citeproof_index_notices(doi, kind) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING",
                    &[&notice.target_doi, &kind],
                )
                .map_err(err)?;
        }
        Ok(())
    }

    fn set_meta(&mut self, key: &str, value: &str) -> Result<(), IndexError> {
        self.client
            .execute(
                "INSERT INTO citeproof_index_meta(key, value) VALUES ($1, $2) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&key, &value],
            )
            .map_err(err)?;
        Ok(())
    }

    fn count(&mut self, sql: &str) -> Result<i64, IndexError> {
        Ok(self.client.query_one(sql, &[]).map_err(err)?.get(0))
    }
}

impl StoreWriter for PgWriter {
    fn already_imported(&mut self, file: &FileStamp) -> Result<bool, IndexError> {
        let row = self
            .client
            .query_opt(
                "SELECT size, modified FROM citeproof_index_imports WHERE path = $1",
                &[&file.path],
            )
            .map_err(err)?;
        Ok(row.map(|r| (r.get::<_, i64>(0), r.get::<_, i64>(1)))
            == Some((file.size as i64, file.modified)))
    }

    fn put(&mut self, record: &Record) -> Result<PutOutcome, IndexError> {
        self.begin()?;
        if record.work.title.trim().is_empty() {
            self.put_notices(record)?;
            return Ok(PutOutcome::Kept);
        }
        let source = source_code(record.source) as i16;
        let existing = self
            .client
            .query_opt(
                "SELECT id, work, updated FROM citeproof_index_records WHERE source = $1 AND key = $2",
                &[&source, &record.key],
            )
            .map_err(err)?
            .map(|r| (r.get::<_, i64>(0), r.get::<_, i64>(1), r.get::<_, Option<String>>(2)));
        let (work, outcome) = match existing {
            Some((_, _, old)) if !is_newer_or_same(record.updated.as_deref(), old.as_deref()) => {
                return Ok(PutOutcome::Kept);
            }
            Some((id, work, _)) => {
                self.remove(id, work)?;
                (work, PutOutcome::Replaced)
            }
            None => (self.work_for(record)?, PutOutcome::Added),
        };
        self.insert(record, work)?;
        Ok(outcome)
    }

    fn mark_imported(
        &mut self,
        file: &FileStamp,
        source: &str,
        records: u64,
    ) -> Result<(), IndexError> {
        self.begin()?;
        self.client
            .execute(
                "INSERT INTO citeproof_index_imports(path, size, modified, source, records, at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (path) DO UPDATE SET \
                 size = excluded.size, modified = excluded.modified, source = excluded.source, \
                 records = excluded.records, at = excluded.at",
                &[
                    &file.path,
                    &(file.size as i64),
                    &file.modified,
                    &source,
                    &(records as i64),
                    &now_utc(),
                ],
            )
            .map_err(err)?;
        Ok(())
    }

    fn commit(&mut self) -> Result<(), IndexError> {
        if self.in_transaction {
            self.client.batch_execute("COMMIT").map_err(err)?;
            self.in_transaction = false;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), IndexError> {
        self.begin()?;
        for source in DumpSource::ALL {
            let n = self.count(&format!(
                "SELECT COUNT(*) FROM citeproof_index_records WHERE source = {}",
                source_code(source)
            ))?;
            self.set_meta(&format!("records.{}", source.as_str()), &n.to_string())?;
        }
        let works = self.count("SELECT COUNT(DISTINCT work) FROM citeproof_index_records")?;
        self.set_meta("works", &works.to_string())?;
        let notices = self.count("SELECT COUNT(*) FROM citeproof_index_notices")?;
        self.set_meta("notices", &notices.to_string())?;
        self.set_meta("built", &now_utc())?;
        self.commit()?;
        self.client
            .batch_execute("ANALYZE citeproof_index_records; ANALYZE citeproof_index_ids")
            .map_err(err)
    }
}
