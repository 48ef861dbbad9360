//! dblp.org `/search/publ/api?q=…&format=json&h=n`: DBLP's publication search, in the
//! documented JSON shape (`result.hits.hit[].info`, a single author as an object, no
//! `hit` list when nothing matched). Nothing is recorded in `api_responses/`; the
//! shape follows DBLP's FAQ "How to use the dblp search API" and its public replies.
//! Authors with a DBLP homonym number carry one (`Wei Wang 0001`) when the work's id
//! hash says so, as DBLP numbers common names.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::search::{Fields, terms};
use super::service::{AppState, Source, json as json_reply};
use super::text::{param, query_pairs};
use super::world::{Entry, Kind};

const JSON: &str = "application/json; charset=utf-8";

pub fn router() -> Router<AppState> {
    Router::new().route("/search/publ/api", get(search))
}

async fn search(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let query = param(&pairs, "q").unwrap_or("");
    if param(&pairs, "format") != Some("json") {
        // DBLP answers XML without `format=json`; the client always asks for JSON.
        return json_reply(StatusCode::BAD_REQUEST, JSON, &json!({"error": "format"}));
    }
    let size: usize = param(&pairs, "h")
        .and_then(|h| h.parse().ok())
        .unwrap_or(30)
        .min(1000);
    let world = &state.world;
    let ranked = world.index.rank(&terms(query, Fields::TITLE), |i| {
        world.entry(i).held_by(Source::Dblp)
    });
    let hits: Vec<Value> = ranked
        .iter()
        .take(size)
        .enumerate()
        .map(|(n, h)| hit(world.entry(h.entry), n, h.score))
        .collect();
    let mut result = json!({
        "query": query,
        "status": {"@code": "200", "text": "OK"},
        "time": {"@unit": "msecs", "text": "1.23"},
        "completions": {"@total": "0", "@computed": "0", "@sent": "0"},
        "hits": {"@total": ranked.len().to_string(), "@computed": ranked.len().to_string(),
                 "@sent": hits.len().to_string(), "@first": "0"},
    });
    if !hits.is_empty() {
        result["hits"]["hit"] = Value::Array(hits);
    }
    json_reply(StatusCode::OK, JSON, &json!({"result": result}))
}

/// DBLP's type name of a work.
fn dblp_type(e: &Entry) -> &'static str {
    match e.kind {
        Kind::Proceedings => "Conference and Workshop Papers",
        Kind::Preprint => "Informal and Other Publications",
        Kind::Chapter => "Parts in Books or Collections",
        Kind::Book | Kind::Thesis => "Books and Theses",
        _ => "Journal Articles",
    }
}

/// The name DBLP gives the work's `i`-th author: with a homonym number (`Wei Wang
/// 0001`) for about one author in four, as the work's id hash says.
pub fn author_name(e: &Entry, i: usize) -> String {
    let name = e.work.authors[i].display_name();
    if e.salt(&format!("dblp-homonym-{i}")).is_multiple_of(4) {
        format!("{name} {:04}", 1 + e.salt("n") % 12)
    } else {
        name
    }
}

fn hit(e: &Entry, rank: usize, score: f64) -> Value {
    let w = &e.work;
    let key = w.dblp.clone().unwrap_or_default();
    let authors: Vec<Value> = w
        .authors
        .iter()
        .enumerate()
        .map(|(i, _)| {
            json!({"@pid": format!("{:x}/{i}", e.salt("pid") % 0xffff), "text": author_name(e, i)})
        })
        .collect();
    // One author is written as an object, several as an array.
    let author = match authors.len() {
        1 => authors[0].clone(),
        _ => Value::Array(authors),
    };
    let venue = if key.starts_with("journals/corr/") {
        "CoRR".to_string()
    } else {
        w.venue.clone().unwrap_or_default()
    };
    let mut info = json!({
        "authors": {"author": author},
        "title": format!("{}.", w.title),
        "venue": venue,
        "year": w.year.map(|y| y.to_string()),
        "type": dblp_type(e),
        "access": if e.is_open_access() { "open" } else { "closed" },
        "key": key,
        "url": format!("https://dblp.org/rec/{key}"),
    });
    if let Some(doi) = &w.doi {
        info["doi"] = json!(doi);
        info["ee"] = json!(format!("https://doi.org/{doi}"));
    } else if let Some(a) = &w.arxiv {
        info["ee"] = json!([format!("https://arxiv.org/abs/{a}")]);
        info["volume"] = json!(format!("abs/{a}"));
    }
    json!({"@score": format!("{:.0}", score.max(1.0)), "@id": (rank + 1).to_string(), "info": info,
           "url": format!("URL#{}", rank + 1)})
}
