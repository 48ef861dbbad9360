//! The cache in an SQLite file (`cache.sqlite3` in the cache directory), in WAL mode
//! with a busy timeout so a CLI run and the language server can share it. A file that
//! is not a readable SQLite database is moved aside and recreated, with a warning.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

use super::backend::{CacheBackend, CacheError, Liveness, NamespaceStats, Row};

/// File name of the cache inside its directory.
pub const CACHE_FILE: &str = "cache.sqlite3";
/// Layout of the tables; a different value in an existing file recreates them.
pub const SCHEMA_VERSION: i64 = 1;

pub struct SqliteCache {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl SqliteCache {
    /// Open (or create) the file in `dir`; `now` names a broken file moved aside, whose
    /// warning is returned beside the cache.
    pub fn open(
        dir: &Path,
        busy_timeout: Duration,
        now: i64,
    ) -> Result<(SqliteCache, Option<String>), CacheError> {
        std::fs::create_dir_all(dir).map_err(|e| CacheError::Io {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?;
        let path = dir.join(CACHE_FILE);
        let mut warning = None;
        let conn = match open_connection(&path, busy_timeout) {
            Ok(conn) => conn,
            Err(e) if is_not_a_database(&e) => {
                let aside = move_aside(&path, now)?;
                warning = Some(format!(
                    "cache file {} was not a usable SQLite database ({e}); moved it to {} and started an empty cache",
                    path.display(),
                    aside.display()
                ));
                open_connection(&path, busy_timeout)?
            }
            Err(e) => return Err(e.into()),
        };
        let cache = SqliteCache {
            conn: Mutex::new(conn),
            path,
        };
        Ok((cache, warning))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn is_not_a_database(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
    )
}

fn open_connection(path: &Path, busy_timeout: Duration) -> Result<Connection, rusqlite::Error> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(busy_timeout)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    let check: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
    if check != "ok" {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
            Some(check),
        ));
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    )?;
    let schema: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
            r.get(0)
        })
        .optional()?;
    if schema.as_deref() != Some(SCHEMA_VERSION.to_string().as_str()) {
        conn.execute_batch("DROP TABLE IF EXISTS entries;")?;
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS entries (
             namespace TEXT NOT NULL,
             key TEXT NOT NULL,
             found INTEGER NOT NULL,
             value TEXT NOT NULL,
             stored_at INTEGER NOT NULL,
             version INTEGER NOT NULL,
             PRIMARY KEY (namespace, key)
         ) WITHOUT ROWID;",
    )?;
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?1)",
        params![SCHEMA_VERSION.to_string()],
    )?;
    Ok(conn)
}

/// Move a broken cache file (and its WAL/SHM companions) out of the way.
fn move_aside(path: &Path, now: i64) -> Result<PathBuf, CacheError> {
    let aside = path.with_file_name(format!("{CACHE_FILE}.corrupt-{now}"));
    std::fs::rename(path, &aside).map_err(|e| CacheError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    for suffix in ["-wal", "-shm"] {
        let companion = PathBuf::from(format!("{}{suffix}", path.display()));
        if companion.exists() {
            let _ = std::fs::remove_file(companion);
        }
    }
    Ok(aside)
}

impl CacheBackend for SqliteCache {
    fn get(&self, namespace: &str, key: &str) -> Result<Option<Row>, CacheError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT found, value, stored_at, version FROM entries WHERE namespace = ?1 AND key = ?2",
                params![namespace, key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?)
    }

    fn write_rows(
        &self,
        namespace: &str,
        rows: &[(&str, i64, String)],
        now: i64,
        version: u32,
    ) -> Result<(), CacheError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO entries (namespace, key, found, value, stored_at, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for (key, kind, value) in rows {
                stmt.execute(params![namespace, key, kind, value, now, version])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn clear(&self, namespace: Option<&str>) -> Result<usize, CacheError> {
        let conn = self.conn();
        let removed = match namespace {
            Some(ns) => conn.execute("DELETE FROM entries WHERE namespace = ?1", params![ns])?,
            None => conn.execute("DELETE FROM entries", [])?,
        };
        if namespace.is_none() {
            // Give the space back; harmless if another process holds the file.
            let _ = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;");
        }
        Ok(removed)
    }

    fn purge(&self, live: Liveness) -> Result<usize, CacheError> {
        let [found, not_found, failed] = live.ttls;
        let removed = self.conn().execute(
            "DELETE FROM entries WHERE version != ?1
                OR (found = 1 AND stored_at + ?2 <= ?4)
                OR (found = 0 AND stored_at + ?3 <= ?4)
                OR (found = 2 AND stored_at + ?5 <= ?4)",
            params![live.version, found, not_found, live.now, failed],
        )?;
        Ok(removed)
    }

    fn stats(&self, live: Liveness) -> Result<(Vec<NamespaceStats>, u64), CacheError> {
        let [found, not_found, failed] = live.ttls;
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT namespace,
                    SUM(live AND found = 1), SUM(live AND found = 0), SUM(live AND found = 2),
                    SUM(NOT live),
                    MIN(CASE WHEN live THEN stored_at END), MAX(CASE WHEN live THEN stored_at END)
             FROM (SELECT namespace, found, stored_at,
                          (version = ?1 AND stored_at + CASE found WHEN 1 THEN ?2 WHEN 0 THEN ?3
                                                         ELSE ?5 END > ?4) AS live
                   FROM entries)
             GROUP BY namespace ORDER BY namespace",
        )?;
        let rows = stmt.query_map(
            params![live.version, found, not_found, live.now, failed],
            |r| {
                let found: i64 = r.get(1)?;
                let not_found: i64 = r.get(2)?;
                let failed: i64 = r.get(3)?;
                Ok(NamespaceStats {
                    namespace: r.get(0)?,
                    entries: (found + not_found + failed) as u64,
                    found: found as u64,
                    not_found: not_found as u64,
                    failed: failed as u64,
                    stale: r.get::<_, i64>(4)? as u64,
                    oldest: r.get(5)?,
                    newest: r.get(6)?,
                })
            },
        )?;
        let namespaces = rows.collect::<Result<Vec<_>, _>>()?;
        let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        let wal = PathBuf::from(format!("{}-wal", self.path.display()));
        Ok((namespaces, size(&self.path) + size(&wal)))
    }

    fn journal_mode(&self) -> Result<String, CacheError> {
        Ok(self
            .conn()
            .pragma_query_value(None, "journal_mode", |r| r.get(0))?)
    }
}
