//! openlibrary.org: `/isbn/{isbn}.json` (302 to the edition `/books/{OLID}.json`, 404
//! with `{"error": "notfound"}` for an unknown ISBN) and `/search.json?title=…&author=…`
//! (`{"numFound", "docs": [...]}` with `title`, `author_name`, `first_publish_year`,
//! `publish_year`, `isbn`, `publisher`), following Open Library's API documentation.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::search::{Fields, terms};
use super::service::{AppState, Source, json as json_reply};
use super::text::{fold, param, query_pairs};
use super::world::Entry;

const JSON: &str = "application/json";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/isbn/{isbn}", get(by_isbn))
        .route("/books/{olid}", get(edition))
        .route("/search.json", get(search))
        .fallback(|| async { not_found("") })
}

fn not_found(key: &str) -> Response {
    json_reply(
        StatusCode::NOT_FOUND,
        JSON,
        &json!({"error": "notfound", "key": key}),
    )
}

fn digits(isbn: &str) -> String {
    isbn.chars()
        .filter(|c| c.is_ascii_digit() || *c == 'X')
        .collect()
}

/// The entry that holds an ISBN, and the edition key it is served under.
fn holder<'a>(state: &'a AppState, isbn: &str) -> Option<(&'a Entry, String)> {
    let wanted = digits(isbn);
    state.world.entries.iter().find_map(|e| {
        let n = e.work.isbn.iter().position(|i| digits(i) == wanted)?;
        e.held_by(Source::OpenLibrary)
            .then(|| (e, format!("OL{}{}M", e.corpus_id % 100_000_000, n)))
    })
}

async fn by_isbn(State(state): State<AppState>, uri: Uri) -> Response {
    let isbn = uri
        .path()
        .trim_start_matches("/isbn/")
        .trim_end_matches(".json")
        .to_string();
    match holder(&state, &isbn) {
        Some((_, olid)) => Response::builder()
            .status(StatusCode::FOUND)
            .header(header::LOCATION, format!("/openlibrary/books/{olid}.json"))
            .body("".into())
            .expect("redirect"),
        None => not_found(&format!("/isbn/{isbn}")),
    }
}

async fn edition(State(state): State<AppState>, uri: Uri) -> Response {
    let olid = uri
        .path()
        .trim_start_matches("/books/")
        .trim_end_matches(".json")
        .to_string();
    let found = state.world.entries.iter().find_map(|e| {
        (0..e.work.isbn.len()).find_map(|n| {
            let key = format!("OL{}{}M", e.corpus_id % 100_000_000, n);
            (key == olid && e.held_by(Source::OpenLibrary)).then_some((e, n))
        })
    });
    match found {
        Some((e, n)) => json_reply(StatusCode::OK, JSON, &edition_json(e, n, &olid)),
        None => not_found(&format!("/books/{olid}")),
    }
}

fn names(e: &Entry) -> Vec<String> {
    e.work.authors.iter().map(|a| a.display_name()).collect()
}

fn edition_json(e: &Entry, n: usize, olid: &str) -> Value {
    let w = &e.work;
    let isbn = digits(&w.isbn[n]);
    let (isbn_13, isbn_10): (Vec<String>, Vec<String>) = if isbn.len() == 13 {
        (vec![isbn], Vec::new())
    } else {
        (Vec::new(), vec![isbn])
    };
    let year = w
        .editions
        .get(n.saturating_sub(1))
        .copied()
        .filter(|_| n > 0)
        .or(w.year);
    let (title, subtitle) = match w.title.split_once(": ") {
        Some((t, s)) => (t.to_string(), Some(s.to_string())),
        None => (w.title.clone(), None),
    };
    let mut v = json!({
        "key": format!("/books/{olid}"),
        "title": title,
        "authors": w.authors.iter().enumerate().map(|(i, _)| json!({"key": format!("/authors/OL{}A", e.corpus_id % 1_000_000 + i as u64)})).collect::<Vec<_>>(),
        "by_statement": format!("{}.", names(e).join(" and ")),
        "publish_date": year.map(|y| y.to_string()),
        "publishers": w.publisher.iter().collect::<Vec<_>>(),
        "isbn_13": isbn_13,
        "isbn_10": isbn_10,
        "works": [{"key": format!("/works/OL{}W", e.corpus_id % 100_000_000)}],
    });
    if let Some(s) = subtitle {
        v["subtitle"] = json!(s);
    }
    v
}

async fn search(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let title = param(&pairs, "title")
        .or_else(|| param(&pairs, "q"))
        .unwrap_or("");
    let author = param(&pairs, "author").map(fold);
    let limit: usize = param(&pairs, "limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(100);
    let world = &state.world;
    let hits = world.index.rank(&terms(title, Fields::TITLE), |i| {
        let e = world.entry(i);
        e.held_by(Source::OpenLibrary)
            && author.as_deref().is_none_or(|a| {
                e.work
                    .authors
                    .iter()
                    .any(|p| fold(&p.family).contains(a) || a.contains(&fold(&p.family)))
            })
    });
    let docs: Vec<Value> = hits
        .iter()
        .take(limit)
        .map(|h| search_doc(world.entry(h.entry)))
        .collect();
    json_reply(
        StatusCode::OK,
        JSON,
        &json!({"numFound": docs.len(), "start": 0, "numFoundExact": true, "docs": docs}),
    )
}

fn search_doc(e: &Entry) -> Value {
    let w = &e.work;
    let mut years: Vec<i32> = w
        .year
        .into_iter()
        .chain(w.editions.iter().copied())
        .collect();
    years.sort_unstable();
    years.dedup();
    let (title, subtitle) = match w.title.split_once(": ") {
        Some((t, s)) => (t.to_string(), Some(s.to_string())),
        None => (w.title.clone(), None),
    };
    json!({
        "key": format!("/works/OL{}W", e.corpus_id % 100_000_000),
        "title": title,
        "subtitle": subtitle,
        "author_name": names(e),
        "first_publish_year": years.first(),
        "publish_year": years,
        "publisher": w.publisher.iter().collect::<Vec<_>>(),
        "isbn": w.isbn.iter().map(|i| digits(i)).collect::<Vec<_>>(),
        "edition_count": w.isbn.len().max(1),
    })
}
