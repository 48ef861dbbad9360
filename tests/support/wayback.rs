//! archive.org `/wayback/available?url=…`: the closest archived copy of a page
//! (`archived_snapshots.closest` with `available`, `url`, `timestamp`, `status`), or
//! `"archived_snapshots": {}`; copies are served by the web service under
//! `web.archive.org`.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::json;

use super::service::{AppState, Source, json as json_reply};
use super::text::{param, query_pairs};
use super::web::same_url;

pub fn router() -> Router<AppState> {
    Router::new().route("/wayback/available", get(available))
}

async fn available(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let url = param(&pairs, "url").unwrap_or("").to_string();
    let copy = state.world.entries.iter().find_map(|e| {
        let page = e.work.page.as_ref()?;
        let stamp = page.archived.as_ref()?;
        (same_url(&page.url, &url) && e.held_by(Source::Wayback)).then_some((page, stamp))
    });
    let snapshots = match copy {
        Some((page, stamp)) => json!({"closest": {
            "status": "200", "available": true, "timestamp": stamp,
            "url": format!("http://web.archive.org/web/{stamp}/{}", page.url)}}),
        None => json!({}),
    };
    json_reply(
        StatusCode::OK,
        "application/json",
        &json!({"url": url, "archived_snapshots": snapshots}),
    )
}
