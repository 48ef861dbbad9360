//! `citeproof serve`: the library over HTTP. `POST /v1/check`, `/v1/resolve`,
//! `/v1/validate` and `/v1/clean` answer what `citeproof check --format json`,
//! `resolve --format jsonl`, `validate-sources --format json` and `clean --format
//! json` print for the same input and configuration; `GET /healthz`, `/metrics`
//! (Prometheus), `/openapi.json` and `/` (a page to paste a document and see the HTML
//! report) complete it.
//!
//! One [`Service`] per process holds what is expensive — the resolver with its HTTP
//! clients, rate limiters, cache and corpora, the sentence model, the model backends —
//! and every request shares it. Limits: a body size (413), a request timeout (504), a
//! bounded number of requests handled and waiting (503 with `Retry-After` beyond it);
//! every error is JSON; SIGTERM or Ctrl-C stops accepting and lets requests in flight
//! finish (up to `shutdown-timeout`).

pub mod access;
pub mod check;
pub mod errors;
pub mod limits;
pub mod metrics;
pub mod routes;
pub mod upload;

use std::collections::HashSet;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use tokio::net::TcpListener;

use crate::cache::Cache;
use crate::clean::Cleaner;
use crate::config::Overrides;
use crate::net::SourceStats;
use crate::validate::Validator;
use crate::verify::backend::Backend;

use access::Observer;
use check::CheckService;
use limits::Limiter;
use metrics::{Metrics, Upstream};

/// The OpenAPI 3.1 description of the routes.
pub const OPENAPI: &str = include_str!("openapi.json");
/// The page at `GET /`.
pub const PAGE: &str = include_str!("page.html");

/// Every route, as `(method, path)`.
pub const ROUTES: [(&str, &str); 8] = [
    ("post", "/v1/check"),
    ("post", "/v1/resolve"),
    ("post", "/v1/validate"),
    ("post", "/v1/clean"),
    ("get", "/healthz"),
    ("get", "/metrics"),
    ("get", "/openapi.json"),
    ("get", "/"),
];

/// Where the service listens and the limits it keeps (`[serve]`).
#[derive(Debug, Clone, PartialEq)]
pub struct ServeSettings {
    pub listen: SocketAddr,
    pub max_body_size: u64,
    /// Largest body of `POST /v1/check`, which takes whole documents (a PDF, a
    /// bundle); the other routes keep `max_body_size`.
    pub max_upload_size: u64,
    pub request_timeout: Duration,
    pub max_concurrency: usize,
    pub max_queue: usize,
    pub shutdown_timeout: Duration,
    pub access_log: bool,
}

impl Default for ServeSettings {
    fn default() -> ServeSettings {
        ServeSettings {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_body_size: 2 << 20,
            max_upload_size: 32 << 20,
            request_timeout: Duration::from_secs(120),
            max_concurrency: default_concurrency(),
            max_queue: 256,
            shutdown_timeout: Duration::from_secs(30),
            access_log: true,
        }
    }
}

/// Requests handled at once by default: four per CPU. Their work is mostly CPU-bound
/// (parsing, scoring) and each worker thread keeps per-thread caches (word stems), so
/// more slots add memory without adding throughput; waiting requests queue instead.
pub fn default_concurrency() -> usize {
    let cpus = std::thread::available_parallelism().map_or(2, usize::from);
    (4 * cpus).max(4)
}

/// What the service is built from: the configuration turned into library objects.
pub struct ServiceSetup {
    pub settings: ServeSettings,
    /// Built from `[clean]`, `[resolve]`, `[sources]`, `[cache]`, `[verify]`; its
    /// resolver and sentence model serve every route.
    pub cleaner: Cleaner,
    /// `[validate]`.
    pub validate: crate::validate::ValidateOptions,
    /// The environment and command-line layers, with the configuration file of the
    /// run, for the per-request configured check.
    pub overrides: Overrides,
    /// `check --verify`'s backend, when verification is on.
    pub verify: Option<Backend>,
}

/// The shared state of the routes.
pub struct Service {
    pub settings: ServeSettings,
    pub cleaner: Cleaner,
    pub validator: Validator,
    pub check: CheckService,
    pub metrics: Arc<Metrics>,
}

impl Service {
    pub fn new(setup: ServiceSetup) -> anyhow::Result<Arc<Service>> {
        let config_files: HashSet<PathBuf> =
            check::config_files(setup.overrides.config_file.as_deref())?;
        let validator = Validator::new(setup.validate, setup.cleaner.aligner().clone());
        Ok(Arc::new_cyclic(|weak: &std::sync::Weak<Service>| {
            let upstream: Arc<dyn Upstream> = Arc::new(WeakCounters(weak.clone()));
            Service {
                settings: setup.settings,
                cleaner: setup.cleaner,
                validator,
                check: CheckService {
                    overrides: setup.overrides,
                    config_files: Arc::new(config_files),
                    verify: setup.verify,
                },
                metrics: Arc::new(Metrics::new(Some(upstream))),
            }
        }))
    }
}

/// The shared resolver's counters, for the metrics, through a weak reference (the
/// service holds the metrics).
struct WeakCounters(std::sync::Weak<Service>);

impl Upstream for WeakCounters {
    fn source_stats(&self) -> Vec<SourceStats> {
        self.0
            .upgrade()
            .and_then(|s| s.cleaner.resolver().map(|r| r.stats()))
            .unwrap_or_default()
    }

    fn cache(&self) -> Option<Cache> {
        self.0
            .upgrade()
            .and_then(|s| s.cleaner.resolver().and_then(|r| r.options().cache.clone()))
    }
}

/// The routes with their limits, metrics and access log.
pub fn router(service: Arc<Service>) -> Router {
    let s = &service.settings;
    let limiter = Limiter::new(s.max_concurrency, s.max_queue, service.metrics.clone());
    let observer = Observer {
        metrics: service.metrics.clone(),
        log: s.access_log,
    };
    let upload_limit = DefaultBodyLimit::max(
        usize::try_from(s.max_upload_size.max(s.max_body_size)).unwrap_or(usize::MAX),
    );
    let api = Router::new()
        .route("/v1/check", post(routes::check).layer(upload_limit))
        .route("/v1/resolve", post(routes::resolve))
        .route("/v1/validate", post(routes::validate))
        .route("/v1/clean", post(routes::clean_answer))
        .layer(limits::timeout(s.request_timeout))
        .layer(axum::middleware::from_fn_with_state(limiter, limits::limit))
        .layer(DefaultBodyLimit::max(
            usize::try_from(s.max_body_size).unwrap_or(usize::MAX),
        ));
    Router::new()
        .route("/healthz", get(routes::healthz))
        .route("/metrics", get(routes::metrics))
        .route("/openapi.json", get(routes::openapi))
        .route("/", get(routes::page))
        .merge(api)
        .with_state(service)
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            errors::panicked,
        ))
        .layer(axum::middleware::from_fn(errors::json_errors))
        .layer(axum::middleware::from_fn_with_state(
            observer,
            access::observe,
        ))
}

/// Serve on `listener` until `shutdown` completes, then let the requests in flight
/// finish for up to `shutdown-timeout`.
pub async fn serve(
    listener: TcpListener,
    service: Arc<Service>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let grace = service.settings.shutdown_timeout;
    let app = router(service).into_make_service_with_connect_info::<SocketAddr>();
    let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel::<()>();
    let signal = async move {
        shutdown.await;
        let _ = stopping_tx.send(());
    };
    let server = axum::serve(listener, app).with_graceful_shutdown(signal);
    let deadline = async move {
        if stopping_rx.await.is_ok() {
            tokio::time::sleep(grace).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => result,
        () = deadline => {
            eprintln!(
                "citeproof serve: requests still running {} s after the shutdown signal; stopping",
                grace.as_secs()
            );
            Ok(())
        }
    }
}

/// SIGTERM or Ctrl-C (SIGINT).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
