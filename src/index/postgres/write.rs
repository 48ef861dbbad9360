//! Building the index in PostgreSQL: the same merging and replacement as the SQLite
//! writer (identifiers, then the title key; a newer record replaces the older one),
//! a batch of records at a time (`index_batch`), in transactions committed every few
//! thousand records. One build at a time: the writer holds a session advisory lock,
//! and a build started while another writes waits for it (builds started at once
//! run one after the other, and none of their records is lost).

use postgres::Client;

use super::batch::put_batch;
use super::read::{MIGRATIONS, store_error};
use crate::index::check::UNFINISHED_BUILD;
use crate::index::codec::{now_utc, source_code};
use crate::index::store::{FileStamp, PutOutcome, StoreWriter, WorkId};
use crate::index::{DumpSource, IndexError, Record};
use crate::pg::{migrate, redacted};

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
    store_error(crate::pg::error_text(&e))
}

impl PgWriter {
    /// Connect, migrate the schema and take the build lock.
    pub fn open(url: &str) -> Result<PgWriter, IndexError> {
        let open_error = |message: String| IndexError::Open {
            path: redacted(url).into(),
            message,
        };
        let mut client = crate::pg::connect(url).map_err(open_error)?;
        migrate(&mut client, "index", MIGRATIONS).map_err(open_error)?;
        let locked: bool = client
            .query_one("SELECT pg_try_advisory_lock($1)", &[&BUILD_LOCK])
            .map_err(err)?
            .get(0);
        if !locked {
            eprintln!(
                "citeproof index build: another build is writing {}; waiting for it to end",
                redacted(url)
            );
            client
                .execute("SELECT pg_advisory_lock($1)", &[&BUILD_LOCK])
                .map_err(err)?;
        }
        client
            .execute(
                "INSERT INTO citeproof_index_meta(key, value) VALUES ('created', $1) \
                 ON CONFLICT (key) DO NOTHING",
                &[&now_utc()],
            )
            .map_err(err)?;
        // Removed by `finish`: `citeproof index check` knows a build did not finish.
        client
            .execute(
                "INSERT INTO citeproof_index_meta(key, value) VALUES ($1, $2) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&UNFINISHED_BUILD, &now_utc()],
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
        let outcomes = self.put_batch(std::slice::from_ref(record))?;
        Ok(outcomes.first().copied().unwrap_or(PutOutcome::Kept))
    }

    fn put_batch(&mut self, records: &[Record]) -> Result<Vec<PutOutcome>, IndexError> {
        self.begin()?;
        put_batch(&mut self.client, records, &mut self.next_work).map_err(err)
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
        self.client
            .execute(
                "DELETE FROM citeproof_index_meta WHERE key = $1",
                &[&UNFINISHED_BUILD],
            )
            .map_err(err)?;
        self.commit()?;
        self.client
            .batch_execute(
                "ANALYZE citeproof_index_records; ANALYZE citeproof_index_ids; \
                 ANALYZE citeproof_index_words",
            )
            .map_err(err)
    }
}
