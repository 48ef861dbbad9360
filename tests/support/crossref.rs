//! api.crossref.org: `/works/{doi}`, `/works/{doi}/agency`, `/works?filter=doi:…,doi:…`,
//! `/works?query.bibliographic=…` (relevance-ranked `work-list` with `score`), retractions
//! and expressions of concern in `updated-by`. Shapes follow the recorded bodies in
//! `api_responses/crossref/`.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Map, Value, json};

use super::ids::{self, Agency};
use super::search::{Fields, Term, terms};
use super::service::{AppState, Source, crossref_date, json as json_reply, publisher_for, reply};
use super::text::{param, percent_decode, query_pairs, xml_escape};
use super::world::{Entry, Kind};

const MAX_ROWS: usize = 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/works", get(list))
        .route("/works/{*rest}", get(single))
        .fallback(|| async { not_found() })
}

fn not_found() -> Response {
    reply(StatusCode::NOT_FOUND, "text/plain", "Resource not found.")
}

fn envelope(message_type: &str, message: Value) -> Response {
    json_reply(
        StatusCode::OK,
        "application/json",
        &json!({"status": "ok", "message-type": message_type, "message-version": "1.0.0", "message": message}),
    )
}

fn validation_failure(kind: &str, value: &str, message: &str) -> Response {
    json_reply(
        StatusCode::BAD_REQUEST,
        "application/json;charset=utf-8",
        &json!({"status": "failed", "message-type": "validation-failure",
                "message": [{"type": kind, "value": value, "message": message}]}),
    )
}

async fn single(State(state): State<AppState>, uri: Uri) -> Response {
    let rest = percent_decode(uri.path().trim_start_matches("/works/"));
    let pairs = query_pairs(uri.query());
    if pairs.iter().any(|(k, _)| k.starts_with("query")) {
        return validation_failure(
            "parameter-not-allowed",
            "query.*",
            "This route does not support field query parameters",
        );
    }
    if let Some(doi) = rest.strip_suffix("/agency") {
        return agency(&state, doi);
    }
    let world = &state.world;
    match world.by_doi(&rest).map(|i| world.entry(i)) {
        Some(e)
            if e.held_by(Source::Crossref)
                && e.work.doi.as_deref() == Some(&*ids::normalize_doi(&rest)) =>
        {
            envelope("work", work_message(&state, e, 1.0))
        }
        _ => not_found(),
    }
}

fn agency(state: &AppState, doi: &str) -> Response {
    let doi = ids::normalize_doi(doi);
    let known = state.world.by_doi(&doi).is_some();
    if !known || !ids::looks_like_doi(&doi) {
        return not_found();
    }
    let (id, label) = match ids::agency(&doi) {
        Agency::Crossref => ("crossref", "Crossref"),
        Agency::DataCite => ("datacite", "DataCite"),
    };
    envelope(
        "work-agency",
        json!({"DOI": doi, "agency": {"id": id, "label": label}}),
    )
}

async fn list(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let rows = match param(&pairs, "rows").map(str::parse::<usize>) {
        None => 20,
        Some(Ok(n)) if n <= MAX_ROWS => n,
        Some(_) => {
            let v = param(&pairs, "rows").unwrap_or("");
            return validation_failure(
                "integer-not-valid",
                v,
                &format!(
                    "Integer specified as {v} but must be a positive integer less than or equal to {MAX_ROWS}. "
                ),
            );
        }
    };
    let offset = param(&pairs, "offset")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0usize);
    if let Some(cursor) = param(&pairs, "cursor").filter(|c| *c != "*") {
        return json_reply(
            StatusCode::NOT_FOUND,
            "application/json",
            &json!({"status": "failed", "message-type": "resource-failure",
                    "message": [{"type": "cursor-invalid", "value": cursor, "message": "Cursor specified but it is invalid"}]}),
        );
    }
    let mut query_terms: Vec<Term> = Vec::new();
    let mut search_terms: Vec<&str> = Vec::new();
    for (key, value) in &pairs {
        let fields = match key.as_str() {
            "query" | "query.bibliographic" => Fields::BIBLIOGRAPHIC,
            "query.title" => Fields::TITLE,
            "query.author" => Fields::AUTHOR,
            "query.container-title" => Fields::VENUE,
            k if k.starts_with("query.") => {
                return validation_failure(
                    "unknown-parameter",
                    k,
                    &format!(
                        "Field query {k} specified but there is no such field query for this route."
                    ),
                );
            }
            _ => continue,
        };
        query_terms.extend(terms(value, fields));
        search_terms.push(value);
    }
    let filters = match parse_filters(param(&pairs, "filter").unwrap_or("")) {
        Ok(f) => f,
        Err(response) => return *response,
    };
    let world = &state.world;
    let admitted = |i: usize| {
        let e = world.entry(i);
        e.held_by(Source::Crossref) && filters.iter().all(|f| f.admits(e))
    };
    let hits: Vec<(usize, f64)> = if query_terms.is_empty() {
        (0..world.len())
            .filter(|&i| admitted(i))
            .map(|i| (i, 1.0))
            .collect()
    } else {
        world
            .index
            .rank(&query_terms, admitted)
            .into_iter()
            .map(|h| (h.entry, (h.score * 8.0 * 1000.0).round() / 1000.0))
            .collect()
    };
    let select: Option<Vec<&str>> = param(&pairs, "select").map(|s| s.split(',').collect());
    let items: Vec<Value> = hits
        .iter()
        .skip(offset)
        .take(rows)
        .map(|&(i, score)| {
            let full = work_message(&state, world.entry(i), score);
            match &select {
                Some(keys) => select_keys(full, keys),
                None => full,
            }
        })
        .collect();
    let search = if search_terms.is_empty() {
        Value::Null
    } else {
        json!(search_terms.join(" "))
    };
    let mut message = json!({
        "facets": {},
        "total-results": hits.len(),
        "items": items,
        "items-per-page": rows,
        "query": {"start-index": offset, "search-terms": search},
    });
    if param(&pairs, "cursor") == Some("*") {
        message["next-cursor"] = json!("DnF1ZXJ5VGhlbkZldGNoBgAAAAAAAAAB");
    }
    envelope("work-list", message)
}

fn select_keys(full: Value, keys: &[&str]) -> Value {
    let Value::Object(map) = full else {
        return full;
    };
    Value::Object(
        map.into_iter()
            .filter(|(k, _)| keys.contains(&k.as_str()))
            .collect::<Map<String, Value>>(),
    )
}

enum Filter {
    Dois(Vec<String>),
    Type(String),
    FromYear(i32),
    UntilYear(i32),
    HasAbstract(bool),
    Prefix(String),
}

impl Filter {
    fn admits(&self, e: &Entry) -> bool {
        let doi = e.work.doi.as_deref().unwrap_or("");
        match self {
            Filter::Dois(dois) => dois.iter().any(|d| d == doi),
            Filter::Type(t) => crossref_type(e) == t,
            Filter::FromYear(y) => e.work.year.is_some_and(|w| w >= *y),
            Filter::UntilYear(y) => e.work.year.is_some_and(|w| w <= *y),
            Filter::HasAbstract(want) => crossref_abstract(e).is_some() == *want,
            Filter::Prefix(p) => doi.split('/').next() == Some(p.as_str()),
        }
    }
}

/// `doi:a,doi:b,type:journal-article` — several `doi` filters are OR'ed, others AND'ed.
fn parse_filters(raw: &str) -> Result<Vec<Filter>, Box<Response>> {
    let mut dois = Vec::new();
    let mut filters = Vec::new();
    for part in raw.split(',').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once(':').unwrap_or((part, ""));
        let year = || {
            value
                .get(0..4)
                .and_then(|y| y.parse::<i32>().ok())
                .unwrap_or(0)
        };
        match name {
            "doi" => dois.push(ids::normalize_doi(value)),
            "type" => filters.push(Filter::Type(value.to_string())),
            "from-pub-date" => filters.push(Filter::FromYear(year())),
            "until-pub-date" => filters.push(Filter::UntilYear(year())),
            "has-abstract" => filters.push(Filter::HasAbstract(value == "true" || value == "1")),
            "prefix" => filters.push(Filter::Prefix(value.to_string())),
            other => {
                return Err(Box::new(validation_failure(
                    "filter-not-available",
                    other,
                    &format!(
                        "Filter {other} specified but there is no such filter for this route. Valid filters for this route are: doi, type, from-pub-date, until-pub-date, has-abstract, prefix"
                    ),
                )));
            }
        }
    }
    if !dois.is_empty() {
        filters.push(Filter::Dois(dois));
    }
    Ok(filters)
}

const CROSSREF_TYPES: &[&str] = &[
    "journal-article",
    "proceedings-article",
    "posted-content",
    "book-chapter",
    "book",
    "monograph",
    "edited-book",
    "reference-entry",
    "dataset",
    "dissertation",
    "report",
    "peer-review",
    "component",
    "other",
    "standard",
    "book-part",
    "book-section",
];

/// The Crossref type: the recorded one when the record came from Crossref, else mapped.
pub fn crossref_type(e: &Entry) -> &'static str {
    if let Some(t) = e.work.kind.as_deref()
        && let Some(known) = CROSSREF_TYPES.iter().find(|k| **k == t)
    {
        return known;
    }
    match e.kind {
        Kind::Journal => "journal-article",
        Kind::Proceedings => "proceedings-article",
        Kind::Preprint => "posted-content",
        Kind::Chapter => "book-chapter",
        Kind::Book => "book",
        Kind::Dataset => "dataset",
        Kind::Thesis => "dissertation",
        Kind::Other => "other",
    }
}

/// JATS abstract, only for works whose record came from Crossref (not every deposit has one).
fn crossref_abstract(e: &Entry) -> Option<String> {
    let text = e.work.abstract_text.as_deref()?;
    e.work
        .sources
        .iter()
        .any(|s| s == "crossref")
        .then(|| format!("<jats:p>{}</jats:p>", xml_escape(text)))
}

fn date_parts(year: Option<i32>) -> Value {
    json!({"date-parts": [[year]]})
}

/// The Crossref `message` of a work.
pub fn work_message(state: &AppState, e: &Entry, score: f64) -> Value {
    let w = &e.work;
    let doi = w.doi.clone().unwrap_or_default();
    let prefix = doi.split('/').next().unwrap_or("").to_string();
    let year = w.year.unwrap_or(2000);
    let authors: Vec<Value> = w
        .authors
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let sequence = if i == 0 { "first" } else { "additional" };
            match &a.given {
                Some(given) => json!({"given": given, "family": a.family, "sequence": sequence, "affiliation": [],
                                      "role": [{"role": "author", "vocabulary": "crossref"}]}),
                None => json!({"name": a.family, "sequence": sequence, "affiliation": [],
                               "role": [{"role": "author", "vocabulary": "crossref"}]}),
            }
        })
        .collect();
    let mut m = json!({
        "indexed": {"date-parts": [[2026, 1, 15]], "date-time": "2026-01-15T08:00:00Z", "timestamp": 1_768_464_000_000u64, "version": "3.54.1"},
        "reference-count": 0,
        "publisher": publisher_for(&doi),
        "content-domain": {"domain": [], "crossmark-restriction": !e.updates.is_empty()},
        "short-container-title": [],
        "DOI": doi,
        "type": crossref_type(e),
        "created": crossref_date(year, 1, 15),
        "source": "Crossref",
        "is-referenced-by-count": e.salt("crossref-cites") % 500,
        "title": [w.title],
        "prefix": prefix,
        "member": format!("{}", 100 + ids::stable_hash(&["crossref-member", &prefix]) % 40_000),
        "container-title": w.venue.iter().collect::<Vec<_>>(),
        "original-title": [],
        "language": "en",
        "link": [{"URL": state.landing_url(e), "content-type": "text/html",
                  "content-version": "vor", "intended-application": "similarity-checking"}],
        "deposited": crossref_date(year, 2, 1),
        "score": score,
        "resource": {"primary": {"URL": state.landing_url(e)}},
        "subtitle": [],
        "short-title": [],
        "issued": date_parts(w.year),
        "references-count": 0,
        "URL": format!("https://doi.org/{}", w.doi.as_deref().unwrap_or("")),
        "relation": {},
        "subject": [],
        "published": date_parts(w.year),
        "published-online": date_parts(w.year),
    });
    if let Some(print) = w.published_print {
        // Online first in `year`: `issued` and `published` are the earlier date.
        m["published-print"] = date_parts(Some(print));
        m["journal-issue"] = json!({"issue": "1", "published-print": date_parts(Some(print))});
    }
    if !authors.is_empty() {
        m["author"] = Value::Array(authors);
    }
    if let Some(abstract_jats) = crossref_abstract(e) {
        m["abstract"] = json!(abstract_jats);
    }
    if crossref_type(e) == "posted-content" {
        m["subtype"] = json!("preprint");
    }
    if !e.updates.is_empty() {
        m["update-policy"] = json!(format!("https://doi.org/{prefix}/crossmark_policy"));
        let updates: Vec<Value> = e
            .updates
            .iter()
            .map(|u| {
                let (y, mo, d) = u.date_parts();
                let mut v = json!({"DOI": u.doi, "type": u.kind, "label": u.label(),
                                   "source": u.source, "updated": crossref_date(y, mo, d)});
                if let Some(id) = &u.record_id {
                    v["record-id"] = json!(id);
                }
                v
            })
            .collect();
        m["updated-by"] = Value::Array(updates);
    }
    m
}
