//! `/_mock/…`: health check and request counts, for tests and for benchmarks that run the
//! `mockworld` example as a separate process. These routes are not logged.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::{Value, json};

use super::knobs::Control;
use super::service::{Source, json as json_reply, reply};

pub fn router(control: Arc<Control>) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/requests", get(counts))
        .route("/requests/{source}", get(log))
        .route("/reset", post(reset))
        .with_state(control)
}

/// `{"crossref": 12, "openalex": 3, …, "total": 15}`
async fn counts(State(control): State<Arc<Control>>) -> Response {
    let mut map = serde_json::Map::new();
    let mut total = 0;
    for source in Source::ALL {
        let n = control.request_count(source);
        total += n;
        map.insert(source.name().to_string(), json!(n));
    }
    map.insert("total".into(), json!(total));
    json_reply(StatusCode::OK, "application/json", &Value::Object(map))
}

async fn log(State(control): State<Arc<Control>>, Path(name): Path<String>) -> Response {
    let Some(source) = Source::from_name(&name) else {
        return reply(
            StatusCode::NOT_FOUND,
            "text/plain",
            format!("no source {name}"),
        );
    };
    let entries: Vec<Value> = control
        .requests(source)
        .into_iter()
        .map(|r| {
            json!({
                "method": r.method,
                "path": r.path_and_query,
                "at_ms": r.at.as_secs_f64() * 1000.0,
                "status": r.status,
                "outcome": r.outcome,
            })
        })
        .collect();
    json_reply(StatusCode::OK, "application/json", &Value::Array(entries))
}

async fn reset(State(control): State<Arc<Control>>) -> Response {
    control.clear_requests();
    reply(StatusCode::OK, "text/plain", "ok")
}
