//! The resolution cache in PostgreSQL: the same entries as the SQLite file
//! (namespace, key, found, JSON value, time stored, logic version), shared by every
//! process pointed at the database. Lifetimes and versions are judged by
//! [`crate::cache::Cache`], as for the file.

use super::{Migration, SharedPool, migrate};
use crate::cache::NamespaceStats;

const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    sql: "CREATE TABLE citeproof_cache(
              namespace TEXT NOT NULL,
              key TEXT NOT NULL,
              found BOOLEAN NOT NULL,
              value TEXT NOT NULL,
              stored_at BIGINT NOT NULL,
              version INTEGER NOT NULL,
              PRIMARY KEY (namespace, key))",
}];

/// A stored row: found, the JSON text, when stored, the logic version.
pub type Row = (bool, String, i64, u32);

pub struct PgCache {
    pool: SharedPool,
}

impl PgCache {
    /// Connect and bring the schema up to date.
    pub fn open(url: &str) -> Result<PgCache, String> {
        let pool = SharedPool::connect(url)?;
        pool.with(|client| Ok(migrate(&mut **client, "cache", MIGRATIONS)))??;
        Ok(PgCache { pool })
    }

    pub fn get(&self, namespace: &str, key: &str) -> Result<Option<Row>, String> {
        self.pool.with(|client| {
            let row = client.query_opt(
                "SELECT found, value, stored_at, version FROM citeproof_cache \
                 WHERE namespace = $1 AND key = $2",
                &[&namespace, &key],
            )?;
            Ok(row.map(|r| (r.get(0), r.get(1), r.get(2), r.get::<_, i32>(3) as u32)))
        })
    }

    /// Store entries in one transaction; keys are written in order, so two processes
    /// writing overlapping batches cannot deadlock.
    pub fn put_many(
        &self,
        namespace: &str,
        entries: &[(String, bool, serde_json::Value)],
        now: i64,
        version: u32,
    ) -> Result<(), String> {
        let mut sorted: Vec<&(String, bool, serde_json::Value)> = entries.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        sorted.dedup_by(|a, b| a.0 == b.0);
        let version = version as i32;
        self.pool.with(|client| {
            let mut tx = client.transaction()?;
            let stmt = tx.prepare(
                "INSERT INTO citeproof_cache(namespace, key, found, value, stored_at, version) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (namespace, key) DO UPDATE SET found = excluded.found, \
                 value = excluded.value, stored_at = excluded.stored_at, version = excluded.version",
            )?;
            for (key, found, value) in sorted {
                let text = value.to_string();
                tx.execute(&stmt, &[&namespace, key, found, &text, &now, &version])?;
            }
            tx.commit()
        })
    }

    pub fn clear(&self, namespace: Option<&str>) -> Result<usize, String> {
        self.pool.with(|client| {
            let n = match namespace {
                Some(ns) => {
                    client.execute("DELETE FROM citeproof_cache WHERE namespace = $1", &[&ns])?
                }
                None => client.execute("DELETE FROM citeproof_cache", &[])?,
            };
            Ok(n as usize)
        })
    }

    /// Remove entries of other logic versions and expired ones.
    pub fn purge(
        &self,
        version: u32,
        ttl_found: i64,
        ttl_missing: i64,
        now: i64,
    ) -> Result<usize, String> {
        let version = version as i32;
        self.pool.with(|client| {
            let n = client.execute(
                "DELETE FROM citeproof_cache WHERE version <> $1 \
                 OR (found AND stored_at + $2 <= $4) OR (NOT found AND stored_at + $3 <= $4)",
                &[&version, &ttl_found, &ttl_missing, &now],
            )?;
            Ok(n as usize)
        })
    }

    /// Entries per namespace and the table's size on disk (with its index).
    pub fn stats(
        &self,
        version: u32,
        ttl_found: i64,
        ttl_missing: i64,
        now: i64,
    ) -> Result<(Vec<NamespaceStats>, u64), String> {
        let version = version as i32;
        self.pool.with(|client| {
            let rows = client.query(
                "SELECT namespace,
                        COUNT(*) FILTER (WHERE live AND found),
                        COUNT(*) FILTER (WHERE live AND NOT found),
                        COUNT(*) FILTER (WHERE NOT live),
                        MIN(stored_at) FILTER (WHERE live), MAX(stored_at) FILTER (WHERE live)
                 FROM (SELECT namespace, found, stored_at,
                              (version = $1 AND stored_at +
                               CASE WHEN found THEN $2::BIGINT ELSE $3::BIGINT END > $4::BIGINT) AS live
                       FROM citeproof_cache) e
                 GROUP BY namespace ORDER BY namespace",
                &[&version, &ttl_found, &ttl_missing, &now],
            )?;
            let namespaces = rows
                .iter()
                .map(|r| {
                    let (found, missing) = (r.get::<_, i64>(1) as u64, r.get::<_, i64>(2) as u64);
                    NamespaceStats {
                        namespace: r.get(0),
                        entries: found + missing,
                        found,
                        not_found: missing,
                        stale: r.get::<_, i64>(3) as u64,
                        oldest: r.get(4),
                        newest: r.get(5),
                    }
                })
                .collect();
            let bytes: i64 = client
                .query_one("SELECT pg_total_relation_size('citeproof_cache')", &[])?
                .get(0);
            Ok((namespaces, bytes.max(0) as u64))
        })
    }
}
