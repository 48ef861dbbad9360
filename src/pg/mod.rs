//! PostgreSQL connections for the stores kept in a database shared by a fleet of CI
//! runners, language servers and `serve` instances: the resolution cache
//! (`crate::cache`'s postgres backend) and the offline index (`crate::index::postgres`;
//! titles searched by word postings), each selected by a `postgres://…` URL where a
//! folder is otherwise given (`--cache-dir`, `--index`; see [`crate::storage`]).
//!
//! The schema is created and migrated by citeproof itself (`migrate`): versioned
//! migrations per component, applied in order under an advisory lock, so several
//! processes starting at once migrate once.
//!
//! The client is the synchronous `postgres` crate behind an r2d2 pool. It runs its own
//! small runtime, which must not be entered from a Tokio worker: every call goes
//! through [`off_runtime`].

mod migrate;
pub mod tls;

use std::time::Duration;

use r2d2_postgres::PostgresConnectionManager;
use tokio_postgres_rustls::MakeRustlsConnect;

pub use migrate::{Migration, migrate};

/// A pool of connections to one database.
pub type Pool = r2d2::Pool<PostgresConnectionManager<MakeRustlsConnect>>;
pub type Client = r2d2::PooledConnection<PostgresConnectionManager<MakeRustlsConnect>>;

/// Connections per pool: enough for the resolver's threads and a few async tasks.
const POOL_SIZE: u32 = 8;
/// How long a caller waits for a connection (or for the server at start).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The URL with any password hidden, for messages.
pub fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

/// Run `f` where the synchronous client may block: on a scoped thread when called
/// from inside a Tokio runtime, else right here.
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|scope| match scope.spawn(f).join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

/// One connection to `url` (not pooled: an index build owns one), with TLS as its
/// libpq parameters say ([`tls`]). The error does not repeat the URL: callers name it.
pub fn connect(url: &str) -> Result<postgres::Client, String> {
    let (config, tls) = tls::connect_config(url)?;
    connect_with(&config, tls)
}

fn connect_with(
    config: &postgres::Config,
    tls: MakeRustlsConnect,
) -> Result<postgres::Client, String> {
    off_runtime(|| config.connect(tls)).map_err(|e| format!("cannot connect ({})", error_text(&e)))
}

/// A pool that is closed off any runtime (dropping the client's runtime from inside
/// an async context would panic).
pub struct SharedPool {
    pool: Option<Pool>,
}

impl SharedPool {
    /// Connect to `url`, with TLS as its libpq parameters say ([`tls`]).
    /// The error does not repeat the URL: callers name it.
    pub fn connect(url: &str) -> Result<SharedPool, String> {
        let (config, tls) = tls::connect_config(url)?;
        // One connection first, so that a refusal (TLS, authentication, no server) is
        // reported at once with its reason rather than after the pool's wait.
        drop(connect_with(&config, tls.clone())?);
        let manager = PostgresConnectionManager::new(config, tls);
        let pool = off_runtime(|| {
            r2d2::Pool::builder()
                .max_size(POOL_SIZE)
                .min_idle(Some(1))
                .connection_timeout(CONNECT_TIMEOUT)
                .build(manager)
        })
        .map_err(|e| format!("cannot connect ({e})"))?;
        Ok(SharedPool { pool: Some(pool) })
    }

    /// Run `f` with a pooled connection, off any runtime.
    pub fn with<T: Send>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, postgres::Error> + Send,
    ) -> Result<T, String> {
        let Some(pool) = &self.pool else {
            return Err("the connection pool is closed".to_string());
        };
        off_runtime(|| {
            let mut client = pool.get().map_err(|e| e.to_string())?;
            f(&mut client).map_err(|e| error_text(&e))
        })
    }
}

impl Drop for SharedPool {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            off_runtime(move || drop(pool));
        }
    }
}

/// A PostgreSQL error with the server's message when there is one, else with its
/// causes (a TLS handshake's reason is the cause of the client's error).
pub fn error_text(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{}: {}", db.severity(), db.message());
    }
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(inner) = cause {
        let inner_text = inner.to_string();
        if !text.contains(&inner_text) {
            text = format!("{text}: {inner_text}");
        }
        cause = inner.source();
    }
    text
}
