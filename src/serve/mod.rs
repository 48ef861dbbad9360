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
//! finish (up to `shutdown-timeout`). With bearer tokens every `/v1/` request needs one
//! (401) and each token keeps its own quotas (429); CORS is closed unless origins are
//! configured; `/healthz` and `/metrics` may move to a listener of their own.

pub mod access;
pub mod auth;
pub mod check;
pub mod cors;
pub mod errors;
pub mod limits;
pub mod metrics;
pub mod routes;
pub mod upload;
pub mod workers;

use std::collections::HashSet;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use tokio::net::TcpListener;

use crate::cache::Cache;
use crate::clean::Cleaner;
use crate::config::Overrides;
pub use crate::config::serve::{ServeSettings, default_concurrency};
use crate::net::SourceStats;
use crate::validate::Validator;
use crate::verify::backend::Backend;

use access::Observer;
use auth::Gate;
use check::CheckService;
use limits::Limiter;
use metrics::{Metrics, Upstream};
use workers::Workers;

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
    /// The threads the requests' work runs on, one per `max-concurrency` slot.
    pub workers: Workers,
}

impl Service {
    pub fn new(setup: ServiceSetup) -> anyhow::Result<Arc<Service>> {
        let config_files: HashSet<PathBuf> =
            check::config_files(setup.overrides.config_file.as_deref())?;
        let validator = Validator::new(setup.validate, setup.cleaner.aligner().clone());
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|e| anyhow::anyhow!("the service starts inside its runtime: {e}"))?;
        let workers = Workers::start(setup.settings.max_concurrency, runtime)
            .map_err(|e| anyhow::anyhow!("cannot start the service's worker threads: {e}"))?;
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
                workers,
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

/// The routes of the main listener with their limits, tokens, CORS policy, metrics
/// and access log; `/healthz` and `/metrics` are among them unless `admin-listen` puts
/// them on a listener of their own ([`admin_router`]).
pub fn router(service: Arc<Service>) -> Router {
    let s = &service.settings;
    let limiter = Limiter::new(s.max_concurrency, s.max_queue, service.metrics.clone());
    let upload_limit = DefaultBodyLimit::max(
        usize::try_from(s.max_upload_size.max(s.max_body_size)).unwrap_or(usize::MAX),
    );
    let cors = cors::layer(&s.cors_origins);
    let separate_admin = s.admin_listen.is_some();
    // Layers run outside in: a request without a valid token is refused before it
    // takes a slot, and the token's permit travels with the slot. Route layers, so a
    // path that is no route gets its 404 from the merged router, not a 401.
    let api = Router::new()
        .route("/v1/check", post(routes::check).layer(upload_limit))
        .route("/v1/resolve", post(routes::resolve))
        .route("/v1/validate", post(routes::validate))
        .route("/v1/clean", post(routes::clean_answer))
        .route_layer(limits::timeout(s.request_timeout))
        .route_layer(axum::middleware::from_fn_with_state(limiter, limits::limit))
        .route_layer(axum::middleware::from_fn_with_state(
            Gate::new(s),
            auth::authenticate,
        ))
        .layer(DefaultBodyLimit::max(
            usize::try_from(s.max_body_size).unwrap_or(usize::MAX),
        ));
    let mut main = Router::new()
        .route("/openapi.json", get(routes::openapi))
        .route("/", get(routes::page))
        .merge(api);
    if !separate_admin {
        main = main.merge(admin_routes());
    }
    let main = observed(main.with_state(service.clone()), &service);
    match cors {
        Some(cors) => main.layer(cors),
        None => main,
    }
}

/// `/healthz` and `/metrics` alone, for the `admin-listen` listener (no tokens, no
/// CORS: keep it where only the operator's monitoring reaches it).
pub fn admin_router(service: Arc<Service>) -> Router {
    observed(admin_routes().with_state(service.clone()), &service)
}

fn admin_routes() -> Router<Arc<Service>> {
    Router::new()
        .route("/healthz", get(routes::healthz))
        .route("/metrics", get(routes::metrics))
}

/// Panics caught, errors as JSON, every answer counted and logged.
fn observed(router: Router, service: &Service) -> Router {
    let observer = Observer {
        metrics: service.metrics.clone(),
        log: service.settings.access_log,
    };
    router
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            errors::panicked,
        ))
        .layer(axum::middleware::from_fn(errors::json_errors))
        .layer(axum::middleware::from_fn_with_state(
            observer,
            access::observe,
        ))
}

/// Where the service listens: the main listener, and the admin one when
/// `admin-listen` is set.
pub struct Listeners {
    pub main: TcpListener,
    pub admin: Option<TcpListener>,
}

/// Serve on the listeners until `shutdown` completes, then let the requests in
/// flight finish for up to `shutdown-timeout`.
pub async fn serve(
    listeners: Listeners,
    service: Arc<Service>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let grace = service.settings.shutdown_timeout;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let main = axum::serve(
        listeners.main,
        router(service.clone()).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stopped(stop_rx.clone()));
    let admin = listeners.admin.map(|listener| {
        axum::serve(
            listener,
            admin_router(service).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(stopped(stop_rx.clone()))
    });
    let servers = async move {
        match admin {
            Some(admin) => tokio::try_join!(main.into_future(), admin.into_future()).map(|_| ()),
            None => main.await,
        }
    };
    let signal = async move {
        shutdown.await;
        let _ = stop_tx.send(true);
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        result = servers => result,
        () = signal => {
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
