//! Every answered request is counted in the metrics and, with `access-log`, written
//! as one line on standard error:
//! `Thu, 26 Nov 2026 09:23:30 GMT 127.0.0.1:51234 "POST /v1/clean HTTP/1.1" 200 1234 3.2ms`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

use super::metrics::Metrics;

/// What the middleware needs.
#[derive(Debug, Clone)]
pub struct Observer {
    pub metrics: Arc<Metrics>,
    pub log: bool,
}

/// Middleware: time the request, count it, log it.
pub async fn observe(State(observer): State<Observer>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |p| p.as_str())
        .to_string();
    let method = request.method().clone();
    let target = request.uri().to_string();
    let version = request.version();
    let remote = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.to_string());
    let response = next.run(request).await;
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    observer
        .metrics
        .record(&route, method.as_str(), status, elapsed);
    if observer.log {
        let bytes = response
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("-");
        eprintln!(
            "{} {} \"{method} {target} {version:?}\" {status} {bytes} {:.1}ms",
            httpdate::fmt_http_date(SystemTime::now()),
            remote.as_deref().unwrap_or("-"),
            elapsed.as_secs_f64() * 1000.0,
        );
    }
    response
}
