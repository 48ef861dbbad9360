//! The persistent cache: an embedded SQLite key → JSON store with namespaces.
//!
//! Source lookups (`namespace = "crossref"`, `key = "doi/10.1/x"`) and later verification
//! verdicts live here. Found entries and not-found entries have separate lifetimes (30
//! days and 1 day by default); an entry written under another logic version is ignored,
//! so bumping [`LOGIC_VERSION`] invalidates everything cached before. The file is in WAL
//! mode with a busy timeout so a CLI run and the language server can share it; a file
//! that is not a readable SQLite database is moved aside and recreated, with a warning
//! the caller can show ([`Cache::warnings`]). A `postgres://…` URL in place of the
//! directory keeps the same entries in a PostgreSQL database shared by many machines
//! (`crate::pg::cache`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// File name of the cache inside its directory.
pub const CACHE_FILE: &str = "cache.sqlite3";
/// Layout of the tables; a different value in an existing file recreates them.
pub const SCHEMA_VERSION: i64 = 1;
/// Meaning of what is cached (parsers, normalisation); bump to invalidate old entries.
pub const LOGIC_VERSION: u32 = 1;
/// Environment variable that overrides the cache directory.
pub const CACHE_DIR_ENV: &str = "CITEPROOF_CACHE_DIR";

/// The cache directory: `$CITEPROOF_CACHE_DIR` when set, else the platform cache
/// directory + `citeproof` (`None` when the platform has none).
pub fn default_dir() -> Option<PathBuf> {
    default_dir_from(std::env::var_os(CACHE_DIR_ENV).map(PathBuf::from))
}

/// [`default_dir`] with the environment value passed in.
pub fn default_dir_from(env_value: Option<PathBuf>) -> Option<PathBuf> {
    match env_value.filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => Some(dir),
        None => dirs::cache_dir().map(|d| d.join("citeproof")),
    }
}

/// Seconds since the Unix epoch; injectable so tests can move time.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

pub fn system_clock() -> Clock {
    Arc::new(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0)
    })
}

#[derive(Debug, Clone, PartialEq)]
pub struct CacheConfig {
    pub found_ttl: Duration,
    pub not_found_ttl: Duration,
    pub logic_version: u32,
    /// How long a write waits for another process holding the lock.
    pub busy_timeout: Duration,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            found_ttl: Duration::from_secs(30 * 24 * 3600),
            not_found_ttl: Duration::from_secs(24 * 3600),
            logic_version: LOGIC_VERSION,
            busy_timeout: Duration::from_secs(5),
        }
    }
}

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

/// One live entry.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheEntry {
    /// Whether the source had the thing (`false`: it answered "not there").
    pub found: bool,
    pub value: serde_json::Value,
    /// Unix seconds when it was stored.
    pub stored_at: i64,
}

/// A typed live entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Cached<T> {
    Found(T),
    NotFound,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamespaceStats {
    pub namespace: String,
    /// Live entries (current version, not expired).
    pub entries: u64,
    pub found: u64,
    pub not_found: u64,
    /// Entries expired or written under another logic version (removed by `purge`).
    pub stale: u64,
    /// Unix seconds of the oldest and newest live entry.
    pub oldest: Option<i64>,
    pub newest: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    pub path: PathBuf,
    /// The database file plus its WAL, in bytes.
    pub size_bytes: u64,
    pub namespaces: Vec<NamespaceStats>,
}

impl CacheStats {
    pub fn entries(&self) -> u64 {
        self.namespaces.iter().map(|n| n.entries).sum()
    }
}

/// Where the entries live: the SQLite file, or a PostgreSQL database shared by many
/// machines (`--cache-dir postgres://…`).
enum Backend {
    Sqlite(Mutex<Connection>),
    Postgres(crate::pg::cache::PgCache),
}

struct Inner {
    backend: Backend,
    path: PathBuf,
    config: CacheConfig,
    clock: Clock,
    warnings: Vec<String>,
}

/// A handle on the cache file; clones share one connection.
#[derive(Clone)]
pub struct Cache {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("path", &self.inner.path)
            .finish()
    }
}

fn is_not_a_database(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
    )
}

fn open_connection(path: &Path, config: &CacheConfig) -> Result<Connection, rusqlite::Error> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(config.busy_timeout)?;
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

impl Cache {
    /// Open (or create) the cache in `dir` with the default lifetimes.
    pub fn open(dir: &Path) -> Result<Cache, CacheError> {
        Cache::open_with(dir, CacheConfig::default(), system_clock())
    }

    pub fn open_with(dir: &Path, config: CacheConfig, clock: Clock) -> Result<Cache, CacheError> {
        if crate::pg::is_url_path(dir) {
            let url = dir.to_string_lossy().to_string();
            let pg =
                crate::pg::cache::PgCache::open(&url).map_err(|message| CacheError::Postgres {
                    url: crate::pg::redacted(&url),
                    message,
                })?;
            return Ok(Cache {
                inner: Arc::new(Inner {
                    backend: Backend::Postgres(pg),
                    path: PathBuf::from(crate::pg::redacted(&url)),
                    config,
                    clock,
                    warnings: Vec::new(),
                }),
            });
        }
        std::fs::create_dir_all(dir).map_err(|e| CacheError::Io {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?;
        let path = dir.join(CACHE_FILE);
        let mut warnings = Vec::new();
        let conn = match open_connection(&path, &config) {
            Ok(conn) => conn,
            Err(e) if is_not_a_database(&e) => {
                let aside = move_aside(&path, clock())?;
                warnings.push(format!(
                    "cache file {} was not a usable SQLite database ({e}); moved it to {} and started an empty cache",
                    path.display(),
                    aside.display()
                ));
                open_connection(&path, &config)?
            }
            Err(e) => return Err(e.into()),
        };
        Ok(Cache {
            inner: Arc::new(Inner {
                backend: Backend::Sqlite(Mutex::new(conn)),
                path,
                config,
                clock,
                warnings,
            }),
        })
    }

    /// Problems met while opening (a recreated file), for the caller to show.
    pub fn warnings(&self) -> &[String] {
        &self.inner.warnings
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    pub fn config(&self) -> &CacheConfig {
        &self.inner.config
    }

    /// The SQLite connection, or the PostgreSQL store.
    fn backend(&self) -> Result<std::sync::MutexGuard<'_, Connection>, &crate::pg::cache::PgCache> {
        match &self.inner.backend {
            // A panic while holding the lock cannot leave SQLite inconsistent.
            Backend::Sqlite(conn) => Ok(conn.lock().unwrap_or_else(|e| e.into_inner())),
            Backend::Postgres(pg) => Err(pg),
        }
    }

    fn pg_error(&self, message: String) -> CacheError {
        CacheError::Postgres {
            url: self.inner.path.display().to_string(),
            message,
        }
    }

    fn ttl(&self, found: bool) -> i64 {
        let ttl = if found {
            self.inner.config.found_ttl
        } else {
            self.inner.config.not_found_ttl
        };
        ttl.as_secs() as i64
    }

    /// The live entry under `namespace`/`key`, if any.
    pub fn get(&self, namespace: &str, key: &str) -> Result<Option<CacheEntry>, CacheError> {
        let row: Option<(bool, String, i64, u32)> = match self.backend() {
            Ok(conn) => conn
                .query_row(
                    "SELECT found, value, stored_at, version FROM entries WHERE namespace = ?1 AND key = ?2",
                    params![namespace, key],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?,
            Err(pg) => pg.get(namespace, key).map_err(|e| self.pg_error(e))?,
        };
        let Some((found, value, stored_at, version)) = row else {
            return Ok(None);
        };
        let now = (self.inner.clock)();
        if version != self.inner.config.logic_version || stored_at + self.ttl(found) <= now {
            return Ok(None);
        }
        Ok(Some(CacheEntry {
            found,
            value: serde_json::from_str(&value)?,
            stored_at,
        }))
    }

    /// Store an entry (replacing any previous one). `value` is ignored by readers of a
    /// not-found entry but kept (a reason, a query echo).
    pub fn put(
        &self,
        namespace: &str,
        key: &str,
        found: bool,
        value: &serde_json::Value,
    ) -> Result<(), CacheError> {
        self.put_many(namespace, &[(key.to_string(), found, value.clone())])
    }

    /// Store several entries in one transaction.
    pub fn put_many(
        &self,
        namespace: &str,
        entries: &[(String, bool, serde_json::Value)],
    ) -> Result<(), CacheError> {
        let now = (self.inner.clock)();
        let version = self.inner.config.logic_version;
        let mut conn = match self.backend() {
            Ok(conn) => conn,
            Err(pg) => {
                return pg
                    .put_many(namespace, entries, now, version)
                    .map_err(|e| self.pg_error(e));
            }
        };
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO entries (namespace, key, found, value, stored_at, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for (key, found, value) in entries {
                stmt.execute(params![
                    namespace,
                    key,
                    found,
                    value.to_string(),
                    now,
                    version
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// [`Cache::get`] decoded into `T`.
    pub fn get_as<T: DeserializeOwned>(
        &self,
        namespace: &str,
        key: &str,
    ) -> Result<Option<Cached<T>>, CacheError> {
        match self.get(namespace, key)? {
            None => Ok(None),
            Some(e) if !e.found => Ok(Some(Cached::NotFound)),
            Some(e) => Ok(Some(Cached::Found(serde_json::from_value(e.value)?))),
        }
    }

    /// Store a typed entry.
    pub fn put_as<T: Serialize>(
        &self,
        namespace: &str,
        key: &str,
        value: &Cached<T>,
    ) -> Result<(), CacheError> {
        match value {
            Cached::Found(v) => self.put(namespace, key, true, &serde_json::to_value(v)?),
            Cached::NotFound => self.put(namespace, key, false, &serde_json::Value::Null),
        }
    }

    /// [`Cache::get`] on the blocking pool, for async callers.
    pub async fn get_async(
        &self,
        namespace: &str,
        key: &str,
    ) -> Result<Option<CacheEntry>, CacheError> {
        let (cache, namespace, key) = (self.clone(), namespace.to_string(), key.to_string());
        tokio::task::spawn_blocking(move || cache.get(&namespace, &key))
            .await
            .map_err(|e| CacheError::Task(e.to_string()))?
    }

    /// [`Cache::put_many`] on the blocking pool, for async callers.
    pub async fn put_many_async(
        &self,
        namespace: &str,
        entries: Vec<(String, bool, serde_json::Value)>,
    ) -> Result<(), CacheError> {
        let (cache, namespace) = (self.clone(), namespace.to_string());
        tokio::task::spawn_blocking(move || cache.put_many(&namespace, &entries))
            .await
            .map_err(|e| CacheError::Task(e.to_string()))?
    }

    /// Remove every entry of `namespace`, or every entry when `None`; returns how many.
    pub fn clear(&self, namespace: Option<&str>) -> Result<usize, CacheError> {
        let conn = match self.backend() {
            Ok(conn) => conn,
            Err(pg) => return pg.clear(namespace).map_err(|e| self.pg_error(e)),
        };
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

    /// Remove expired entries and entries of other logic versions; returns how many.
    pub fn purge(&self) -> Result<usize, CacheError> {
        let now = (self.inner.clock)();
        let conn = match self.backend() {
            Ok(conn) => conn,
            Err(pg) => {
                let (version, found, missing) = (
                    self.inner.config.logic_version,
                    self.ttl(true),
                    self.ttl(false),
                );
                return pg
                    .purge(version, found, missing, now)
                    .map_err(|e| self.pg_error(e));
            }
        };
        let removed = conn.execute(
            "DELETE FROM entries WHERE version != ?1
                OR (found = 1 AND stored_at + ?2 <= ?4)
                OR (found = 0 AND stored_at + ?3 <= ?4)",
            params![
                self.inner.config.logic_version,
                self.ttl(true),
                self.ttl(false),
                now
            ],
        )?;
        Ok(removed)
    }

    /// Entries per namespace and the size on disk.
    pub fn stats(&self) -> Result<CacheStats, CacheError> {
        let now = (self.inner.clock)();
        let conn = match self.backend() {
            Ok(conn) => conn,
            Err(pg) => {
                let (version, found, missing) = (
                    self.inner.config.logic_version,
                    self.ttl(true),
                    self.ttl(false),
                );
                let (namespaces, size_bytes) = pg
                    .stats(version, found, missing, now)
                    .map_err(|e| self.pg_error(e))?;
                return Ok(CacheStats {
                    path: self.inner.path.clone(),
                    size_bytes,
                    namespaces,
                });
            }
        };
        let mut stmt = conn.prepare(
            "SELECT namespace,
                    SUM(live AND found), SUM(live AND NOT found), SUM(NOT live),
                    MIN(CASE WHEN live THEN stored_at END), MAX(CASE WHEN live THEN stored_at END)
             FROM (SELECT namespace, found, stored_at,
                          (version = ?1 AND stored_at + CASE WHEN found THEN ?2 ELSE ?3 END > ?4) AS live
                   FROM entries)
             GROUP BY namespace ORDER BY namespace",
        )?;
        let rows = stmt.query_map(
            params![
                self.inner.config.logic_version,
                self.ttl(true),
                self.ttl(false),
                now
            ],
            |r| {
                let found: i64 = r.get(1)?;
                let not_found: i64 = r.get(2)?;
                Ok(NamespaceStats {
                    namespace: r.get(0)?,
                    entries: (found + not_found) as u64,
                    found: found as u64,
                    not_found: not_found as u64,
                    stale: r.get::<_, i64>(3)? as u64,
                    oldest: r.get(4)?,
                    newest: r.get(5)?,
                })
            },
        )?;
        let namespaces = rows.collect::<Result<Vec<_>, _>>()?;
        let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        let wal = PathBuf::from(format!("{}-wal", self.inner.path.display()));
        Ok(CacheStats {
            path: self.inner.path.clone(),
            size_bytes: size(&self.inner.path) + size(&wal),
            namespaces,
        })
    }

    /// The journal mode in force (`wal` normally).
    pub fn journal_mode(&self) -> Result<String, CacheError> {
        match self.backend() {
            Ok(conn) => Ok(conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?),
            Err(_) => Ok("postgresql".to_string()),
        }
    }
}
