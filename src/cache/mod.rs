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
//! PostgreSQL database shared by many machines.
//!
//! - `backend`: the rows every backend stores, and the trait they implement;
//! - `sqlite`: the file; `postgres`: the shared database.

mod backend;
mod postgres;
mod sqlite;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::storage::Location;
use backend::{CacheBackend, FAILED, FOUND, Liveness, NOT_FOUND};
pub use backend::{CacheError, NamespaceStats};
pub use sqlite::{CACHE_FILE, SCHEMA_VERSION};
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

struct Inner {
    /// Where the entries live: the SQLite file, or a PostgreSQL database shared by
    /// many machines (`--cache-dir postgres://…`).
    backend: Box<dyn CacheBackend>,
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

impl Cache {
    /// Open (or create) the cache in `dir` with the default lifetimes.
    pub fn open(dir: &Path) -> Result<Cache, CacheError> {
        Cache::open_with(dir, CacheConfig::default(), system_clock())
    }

    pub fn open_with(dir: &Path, config: CacheConfig, clock: Clock) -> Result<Cache, CacheError> {
        let (backend, path, warnings): (Box<dyn CacheBackend>, PathBuf, Vec<String>) =
            match Location::of(dir) {
                Location::Postgres(url) => {
                    let pg = postgres::PgCache::open(&url)?;
                    let shown = PathBuf::from(pg.url());
                    (Box::new(pg), shown, Vec::new())
                }
                Location::Folder(dir) => {
                    let (file, warning) =
                        sqlite::SqliteCache::open(&dir, config.busy_timeout, clock())?;
                    let path = file.path().to_path_buf();
                    (Box::new(file), path, warning.into_iter().collect())
                }
            };
        Ok(Cache {
            inner: Arc::new(Inner {
                backend,
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

    /// What makes an entry live now.
    fn liveness(&self) -> Liveness {
        Liveness {
            version: self.inner.config.logic_version,
            ttls: [self.ttl(FOUND), self.ttl(NOT_FOUND), self.ttl(FAILED)],
            now: (self.inner.clock)(),
        }
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
        let row = self.inner.backend.get(namespace, key)?;
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
        self.inner.backend.write_rows(namespace, rows, now, version)
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
        self.inner.backend.clear(namespace)
    }

    /// Remove expired entries and entries of other logic versions; returns how many.
    pub fn purge(&self) -> Result<usize, CacheError> {
        self.inner.backend.purge(self.liveness())
    }

    /// Entries per namespace and the size on disk.
    pub fn stats(&self) -> Result<CacheStats, CacheError> {
        let (namespaces, size_bytes) = self.inner.backend.stats(self.liveness())?;
        Ok(CacheStats {
            path: self.inner.path.clone(),
            size_bytes,
            namespaces,
        })
    }

    /// The journal mode in force (`wal` normally, `postgresql` for the shared database).
    pub fn journal_mode(&self) -> Result<String, CacheError> {
        self.inner.backend.journal_mode()
    }
}
