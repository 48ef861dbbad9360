//! www.rfc-editor.org `/rfc/rfc{n}.json`: the RFC index's JSON record (`doc_id`, `title`,
//! `authors` as `"S. Bradner"`, `pub_date` as `"March 1997"`, `doi`); an unissued number
//! gets the site's HTML 404 page.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::json;

use super::service::{AppState, Source, json as json_reply, reply};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/rfc/{file}", get(record))
        .fallback(|| async { not_found() })
}

fn not_found() -> Response {
    reply(
        StatusCode::NOT_FOUND,
        "text/html; charset=utf-8",
        "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>",
    )
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

async fn record(State(state): State<AppState>, uri: Uri) -> Response {
    let file = uri.path().trim_start_matches("/rfc/");
    let Some(n) = file
        .strip_prefix("rfc")
        .and_then(|f| f.strip_suffix(".json"))
        .and_then(|n| n.parse::<u32>().ok())
    else {
        return not_found();
    };
    let entry = state
        .world
        .entries
        .iter()
        .find(|e| e.work.rfc == Some(n) && e.held_by(Source::Rfc));
    let Some(e) = entry else {
        return not_found();
    };
    let w = &e.work;
    let authors: Vec<String> = w
        .authors
        .iter()
        .map(|a| match a.initials().chars().next() {
            Some(i) => format!("{i}. {}", a.family),
            None => a.family.clone(),
        })
        .collect();
    let month = MONTHS[(e.salt("rfc-month") % 12) as usize];
    json_reply(
        StatusCode::OK,
        "application/json",
        &json!({
            "draft": format!("draft-ietf-{}", w.id),
            "doc_id": format!("RFC{n:04}"),
            "title": w.title,
            "authors": authors,
            "format": ["ASCII", "HTML"],
            "page_count": "12",
            "pub_status": "PROPOSED STANDARD",
            "status": "PROPOSED STANDARD",
            "source": "IETF - NON WORKING GROUP",
            "abstract": w.abstract_text,
            "pub_date": w.year.map(|y| format!("{month} {y}")),
            "keywords": [],
            "obsoletes": [],
            "obsoleted_by": [],
            "updates": [],
            "updated_by": [],
            "see_also": [],
            "doi": format!("10.17487/RFC{n:04}"),
            "errata_url": null
        }),
    )
}
