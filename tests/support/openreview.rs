//! api2.openreview.net: `/notes/search?term=…&content=title&source=forum&limit=n` and
//! `/notes?id=…`, in OpenReview's API v2 shape (`{"notes": [...], "count": n}`, content
//! fields as `{"value": …}`), following its API documentation (nothing is recorded in
//! `api_responses/`). A world work's `openreview` field gives its forum id and the
//! decision (`venueid`, `venue`); an unknown id is answered with OpenReview's 404
//! `NotFoundError` document.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::search::{Fields, terms};
use super::service::{AppState, Source, json as json_reply};
use super::text::{param, query_pairs};
use super::world::Entry;

const JSON: &str = "application/json; charset=utf-8";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/notes", get(by_id))
        .route("/notes/search", get(search))
}

fn not_found(id: &str) -> Response {
    json_reply(
        StatusCode::NOT_FOUND,
        JSON,
        &json!({"name": "NotFoundError", "message": format!("The Note {id} was not found"),
                "status": 404, "details": {"path": "id", "value": id}}),
    )
}

async fn by_id(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let Some(id) = param(&pairs, "id") else {
        return json_reply(StatusCode::OK, JSON, &json!({"notes": [], "count": 0}));
    };
    let world = &state.world;
    let found = world.entries.iter().find(|e| {
        e.work.openreview.as_ref().is_some_and(|n| n.id == id) && e.held_by(Source::OpenReview)
    });
    match found {
        Some(e) => json_reply(
            StatusCode::OK,
            JSON,
            &json!({"notes": [note(e)], "count": 1}),
        ),
        None => not_found(id),
    }
}

async fn search(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let term = param(&pairs, "term").unwrap_or("");
    let limit: usize = param(&pairs, "limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(10);
    let world = &state.world;
    let hits = world.index.rank(&terms(term, Fields::TITLE), |i| {
        world.entry(i).held_by(Source::OpenReview)
    });
    let notes: Vec<Value> = hits
        .iter()
        .take(limit)
        .map(|h| note(world.entry(h.entry)))
        .collect();
    json_reply(
        StatusCode::OK,
        JSON,
        &json!({"count": notes.len(), "notes": notes}),
    )
}

fn value(v: impl Into<Value>) -> Value {
    json!({"value": v.into()})
}

fn note(e: &Entry) -> Value {
    let w = &e.work;
    let n = w.openreview.as_ref().expect("held by OpenReview");
    let authors: Vec<String> = w.authors.iter().map(|a| a.display_name()).collect();
    let authorids: Vec<String> = w
        .authors
        .iter()
        .map(|a| format!("~{}1", a.display_name().replace(' ', "_")))
        .collect();
    let year = w.year.unwrap_or(2024);
    let ms = super::service::epoch_days(year, 5, 1) * 86_400_000;
    let group = n.venueid.split('/').take(3).collect::<Vec<_>>().join("/");
    let mut content = json!({
        "title": value(w.title.clone()),
        "authors": value(authors),
        "authorids": value(authorids),
        "venue": value(n.venue.clone()),
        "venueid": value(n.venueid.clone()),
        "pdf": value(format!("/pdf/{}.pdf", e.salt("pdf") % 0xffff_ffff)),
        "_bibtex": value(format!("@inproceedings{{\n{}\n}}", w.title)),
    });
    if let Some(a) = &w.abstract_text {
        content["abstract"] = value(a.clone());
    }
    json!({
        "id": n.id, "forum": n.id, "number": e.corpus_id % 20_000,
        "cdate": ms, "mdate": ms, "tcdate": ms, "tmdate": ms, "odate": ms, "pdate": ms,
        "invitations": [format!("{group}/-/Submission"), format!("{group}/-/Post_Submission")],
        "domain": group, "readers": ["everyone"], "writers": [group.clone()],
        "signatures": [format!("{group}/Submission{}", e.corpus_id % 20_000)],
        "content": content, "version": 2,
    })
}
