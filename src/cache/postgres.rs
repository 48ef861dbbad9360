//! The resolution cache in PostgreSQL: the same entries as the SQLite file
//! (namespace, key, found, JSON value, time stored, logic version), shared by every
//! process pointed at the database. Lifetimes and versions are judged by
//! [`crate::cache::Cache`], as for the file; the connection pool and migrations are
//! [`crate::pg`]'s.

use super::backend::{CacheBackend, CacheError, Liveness, NamespaceStats, Row};
use crate::pg::{Migration, SharedPool, migrate, redacted};

const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    sql: "CREATE TABLE citeproof_cache(
              namespace TEXT NOT NULL,
              key TEXT NOT NULL,
              kind SMALLINT NOT NULL,
              value TEXT NOT NULL,
              stored_at BIGINT NOT NULL,
              version INTEGER NOT NULL,
              PRIMARY KEY (namespace, key))",
}];

pub struct PgCache {
    pool: SharedPool,
    /// The URL with its password hidden, for messages.
    url: String,
}

impl PgCache {
    /// Connect and bring the schema up to date.
    pub fn open(url: &str) -> Result<PgCache, CacheError> {
        let shown = redacted(url);
        let error = |message| CacheError::Postgres {
            url: shown.clone(),
            message,
        };
        let pool = SharedPool::connect(url).map_err(error)?;
        pool.with(|client| Ok(migrate(&mut **client, "cache", MIGRATIONS)))
            .map_err(error)?
            .map_err(error)?;
        Ok(PgCache { pool, url: shown })
    }

    /// The URL with its password hidden.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn error(&self, message: String) -> CacheError {
        CacheError::Postgres {
            url: self.url.clone(),
            message,
        }
    }
}

impl CacheBackend for PgCache {
    fn get(&self, namespace: &str, key: &str) -> Result<Option<Row>, CacheError> {
        self.pool
            .with(|client| {
                let row = client.query_opt(
                    "SELECT kind, value, stored_at, version FROM citeproof_cache \
                 WHERE namespace = $1 AND key = $2",
                    &[&namespace, &key],
                )?;
                Ok(row.map(|r| {
                    let kind = i64::from(r.get::<_, i16>(0));
                    (kind, r.get(1), r.get(2), r.get::<_, i32>(3) as u32)
                }))
            })
            .map_err(|e| self.error(e))
    }

    /// Keys are written in order, so two processes writing overlapping batches cannot
    /// deadlock.
    fn write_rows(
        &self,
        namespace: &str,
        rows: &[(&str, i64, String)],
        now: i64,
        version: u32,
    ) -> Result<(), CacheError> {
        let mut sorted: Vec<&(&str, i64, String)> = rows.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        // The last write of a key in the batch wins, as in SQLite.
        sorted.reverse();
        sorted.dedup_by(|a, b| a.0 == b.0);
        sorted.reverse();
        let version = version as i32;
        self.pool.with(|client| {
            let mut tx = client.transaction()?;
            let stmt = tx.prepare(
                "INSERT INTO citeproof_cache(namespace, key, kind, value, stored_at, version) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (namespace, key) DO UPDATE SET kind = excluded.kind, \
                 value = excluded.value, stored_at = excluded.stored_at, version = excluded.version",
            )?;
            for (key, kind, value) in sorted {
                let kind = *kind as i16;
                tx.execute(&stmt, &[&namespace, key, &kind, value, &now, &version])?;
            }
            tx.commit()
        })
        .map_err(|e| self.error(e))
    }

    fn clear(&self, namespace: Option<&str>) -> Result<usize, CacheError> {
        self.pool
            .with(|client| {
                let n = match namespace {
                    Some(ns) => client
                        .execute("DELETE FROM citeproof_cache WHERE namespace = $1", &[&ns])?,
                    None => client.execute("DELETE FROM citeproof_cache", &[])?,
                };
                Ok(n as usize)
            })
            .map_err(|e| self.error(e))
    }

    fn purge(&self, live: Liveness) -> Result<usize, CacheError> {
        let (version, now) = (live.version as i32, live.now);
        let [found, missing, failed] = live.ttls;
        self.pool
            .with(|client| {
                let n = client.execute(
                    "DELETE FROM citeproof_cache WHERE version <> $1 \
                 OR stored_at + CASE kind WHEN 1 THEN $2::BIGINT WHEN 0 THEN $3::BIGINT \
                                ELSE $5::BIGINT END <= $4::BIGINT",
                    &[&version, &found, &missing, &now, &failed],
                )?;
                Ok(n as usize)
            })
            .map_err(|e| self.error(e))
    }

    /// The size on disk is the table's with its index.
    fn stats(&self, live: Liveness) -> Result<(Vec<NamespaceStats>, u64), CacheError> {
        let (version, now) = (live.version as i32, live.now);
        let [found, missing, failed] = live.ttls;
        self.pool
            .with(|client| {
                let rows = client.query(
                    "SELECT namespace,
                        COUNT(*) FILTER (WHERE live AND kind = 1),
                        COUNT(*) FILTER (WHERE live AND kind = 0),
                        COUNT(*) FILTER (WHERE live AND kind = 2),
                        COUNT(*) FILTER (WHERE NOT live),
                        MIN(stored_at) FILTER (WHERE live), MAX(stored_at) FILTER (WHERE live)
                 FROM (SELECT namespace, kind, stored_at,
                              (version = $1 AND stored_at + CASE kind WHEN 1 THEN $2::BIGINT
                                   WHEN 0 THEN $3::BIGINT ELSE $5::BIGINT END > $4::BIGINT) AS live
                       FROM citeproof_cache) e
                 GROUP BY namespace ORDER BY namespace",
                    &[&version, &found, &missing, &now, &failed],
                )?;
                let namespaces = rows
                    .iter()
                    .map(|r| {
                        let count = |i: usize| r.get::<_, i64>(i) as u64;
                        NamespaceStats {
                            namespace: r.get(0),
                            entries: count(1) + count(2) + count(3),
                            found: count(1),
                            not_found: count(2),
                            failed: count(3),
                            stale: count(4),
                            oldest: r.get(5),
                            newest: r.get(6),
                        }
                    })
                    .collect();
                let bytes: i64 = client
                    .query_one("SELECT pg_total_relation_size('citeproof_cache')", &[])?
                    .get(0);
                Ok((namespaces, bytes.max(0) as u64))
            })
            .map_err(|e| self.error(e))
    }

    fn journal_mode(&self) -> Result<String, CacheError> {
        Ok("postgresql".to_string())
    }
}
