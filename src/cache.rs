//! The persistent cache: an embedded SQLite key → JSON store with namespaces.
//!
//! Source lookups (`namespace = "crossref"`, `key = "doi/10.1/x"`) and later verification
//! verdicts live here. Found entries, not-found entries and failures (a lookup that got
//! no answer: rate-limited, timed out, an error page) have separate lifetimes (30 days,
//! 1 day and 15 minutes by default): what could not be decided is not asked again on a
//! rerun until its short lifetime ends; an entry written under another logic version is ignored,
//! so bumping [`LOGIC_VERSION`] invalidates everything cached before. The file is in WAL
//! mode with a busy timeout so a CLI run and the language server can share it; a file
//! that is not a readable SQLite database is moved aside and recreated, with a warning
//! the caller can show ([`Cache::warnings`]).
//! A `postgres://…` URL in place of the directory keeps the same entries in a
//! PostgreSQL database shared by many machines (`crate::pg::cache`).

use std::collections::BTreeMap;
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

/// How long a failed lookup is remembered by default.
pub const DEFAULT_FAILED_TTL: Duration = Duration::from_secs(15 * 60);

/// What an entry records (the `found` column).
const NOT_FOUND: i64 = 0;
const FOUND: i64 = 1;
const FAILED: i64 = 2;

#[derive(Debug, Clone, PartialEq)]
pub struct CacheConfig {
    pub found_ttl: Duration,
    pub not_found_ttl: Duration,
    /// How long a failure is remembered (zero: failures are always asked again).
    pub failed_ttl: Duration,
    pub logic_version: u32,
    /// How long a write waits for another process holding the lock.
    pub busy_timeout: Duration,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            found_ttl: Duration::from_secs(30 * 24 * 3600),
            not_found_ttl: Duration::from_secs(24 * 3600),
            failed_ttl: DEFAULT_FAILED_TTL,
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
    /// Whether the source had the thing (`false`: it answered "not there", or failed).
    pub found: bool,
    /// The source gave no answer (the value is the reason, a string).
    pub failed: bool,
    pub value: serde_json::Value,
    /// Unix seconds when it was stored.
    pub stored_at: i64,
}

/// A typed live entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Cached<T> {
    Found(T),
    NotFound,
    /// The source gave no answer; the reason.
    Failed(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamespaceStats {
    pub namespace: String,
    /// Live entries (current version, not expired).
    pub entries: u64,
    pub found: u64,
    pub not_found: u64,
    /// Failures remembered (lookups that got no answer).
    pub failed: u64,
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
    /// Hits and misses of [`Cache::get`] per namespace since the cache was opened.
    lookups: Mutex<BTreeMap<String, [u64; 2]>>,
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
                    lookups: Mutex::new(BTreeMap::new()),
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
                lookups: Mutex::new(BTreeMap::new()),
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

    /// The lifetimes of found, not-found and failed entries, in seconds.
    fn ttls(&self) -> [i64; 3] {
        [self.ttl(FOUND), self.ttl(NOT_FOUND), self.ttl(FAILED)]
    }

    fn ttl(&self, kind: i64) -> i64 {
        let config = &self.inner.config;
        let ttl = match kind {
            FOUND => config.found_ttl,
            NOT_FOUND => config.not_found_ttl,
            _ => config.failed_ttl,
        };
        ttl.as_secs() as i64
    }

    /// Hits and misses of [`Cache::get`] per namespace since the cache was opened
    /// (namespace, hits, misses), for a service's metrics.
    pub fn lookup_counts(&self) -> Vec<(String, u64, u64)> {
        let lookups = self.inner.lookups.lock().unwrap_or_else(|e| e.into_inner());
        lookups
            .iter()
            .map(|(namespace, [hits, misses])| (namespace.clone(), *hits, *misses))
            .collect()
    }

    fn count_lookup(&self, namespace: &str, hit: bool) {
        let mut lookups = self.inner.lookups.lock().unwrap_or_else(|e| e.into_inner());
        let counts = match lookups.get_mut(namespace) {
            Some(counts) => counts,
            None => lookups.entry(namespace.to_string()).or_default(),
        };
        counts[usize::from(!hit)] += 1;
    }

    /// The live entry under `namespace`/`key`, if any.
    pub fn get(&self, namespace: &str, key: &str) -> Result<Option<CacheEntry>, CacheError> {
        let entry = self.lookup(namespace, key)?;
        self.count_lookup(namespace, entry.is_some());
        Ok(entry)
    }

    fn lookup(&self, namespace: &str, key: &str) -> Result<Option<CacheEntry>, CacheError> {
        let row: Option<(i64, String, i64, u32)> = match self.backend() {
            Ok(conn) => conn
                .query_row(
                    "SELECT found, value, stored_at, version FROM entries WHERE namespace = ?1 AND key = ?2",
                    params![namespace, key],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?,
            Err(pg) => pg.get(namespace, key).map_err(|e| self.pg_error(e))?,
        };
        let Some((kind, value, stored_at, version)) = row else {
            return Ok(None);
        };
        let now = (self.inner.clock)();
        if version != self.inner.config.logic_version || stored_at + self.ttl(kind) <= now {
            return Ok(None);
        }
        Ok(Some(CacheEntry {
            found: kind == FOUND,
            failed: kind == FAILED,
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
        let rows: Vec<(&str, i64, String)> = entries
            .iter()
            .map(|(key, found, value)| {
                let kind = if *found { FOUND } else { NOT_FOUND };
                (key.as_str(), kind, value.to_string())
            })
            .collect();
        self.write_rows(namespace, &rows)
    }

    /// Remember lookups that got no answer (key, reason), for the short failure
    /// lifetime; nothing is stored when that lifetime is zero.
    pub fn put_failures(
        &self,
        namespace: &str,
        entries: &[(String, String)],
    ) -> Result<(), CacheError> {
        if self.inner.config.failed_ttl.is_zero() {
            return Ok(());
        }
        let rows: Vec<(&str, i64, String)> = entries
            .iter()
            .map(|(key, why)| {
                (
                    key.as_str(),
                    FAILED,
                    serde_json::Value::from(why.as_str()).to_string(),
                )
            })
            .collect();
        self.write_rows(namespace, &rows)
    }

    fn write_rows(&self, namespace: &str, rows: &[(&str, i64, String)]) -> Result<(), CacheError> {
        let now = (self.inner.clock)();
        let version = self.inner.config.logic_version;
        let mut conn = match self.backend() {
            Ok(conn) => conn,
            Err(pg) => {
                return pg
                    .write_rows(namespace, rows, now, version)
                    .map_err(|e| self.pg_error(e));
            }
        };
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

    /// [`Cache::get`] decoded into `T`.
    pub fn get_as<T: DeserializeOwned>(
        &self,
        namespace: &str,
        key: &str,
    ) -> Result<Option<Cached<T>>, CacheError> {
        match self.get(namespace, key)? {
            None => Ok(None),
            Some(e) if e.failed => {
                let why = e.value.as_str().unwrap_or("no answer").to_string();
                Ok(Some(Cached::Failed(why)))
            }
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
            Cached::Failed(why) => self.put_failures(namespace, &[(key.to_string(), why.clone())]),
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

    /// [`Cache::put_failures`] on the blocking pool, for async callers.
    pub async fn put_failures_async(
        &self,
        namespace: &str,
        entries: Vec<(String, String)>,
    ) -> Result<(), CacheError> {
        let (cache, namespace) = (self.clone(), namespace.to_string());
        tokio::task::spawn_blocking(move || cache.put_failures(&namespace, &entries))
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
        let version = self.inner.config.logic_version;
        let conn = match self.backend() {
            Ok(conn) => conn,
            Err(pg) => {
                return pg
                    .purge(version, self.ttls(), now)
                    .map_err(|e| self.pg_error(e));
            }
        };
        let removed = conn.execute(
            "DELETE FROM entries WHERE version != ?1
                OR (found = 1 AND stored_at + ?2 <= ?4)
                OR (found = 0 AND stored_at + ?3 <= ?4)
                OR (found = 2 AND stored_at + ?5 <= ?4)",
            params![
                self.inner.config.logic_version,
                self.ttl(FOUND),
                self.ttl(NOT_FOUND),
                now,
                self.ttl(FAILED)
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
                let version = self.inner.config.logic_version;
                let (namespaces, size_bytes) = pg
                    .stats(version, self.ttls(), now)
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
            params![
                self.inner.config.logic_version,
                self.ttl(FOUND),
                self.ttl(NOT_FOUND),
                now,
                self.ttl(FAILED)
            ],
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
