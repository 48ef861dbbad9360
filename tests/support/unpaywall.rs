//! api.unpaywall.org `/v2/{doi}?email=…`: the DOI object (Crossref DOIs only, as Unpaywall
//! covers only those), built from the work's `oa_url` and arXiv id. Follows the Unpaywall
//! data format documentation (nothing is recorded); 422 without `email`, 404 for unknown DOIs.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::crossref::crossref_type;
use super::ids;
use super::service::{AppState, Source, json as json_reply, publisher_for};
use super::text::{param, percent_decode, query_pairs};
use super::world::Entry;

pub fn router() -> Router<AppState> {
    Router::new().route("/v2/{*doi}", get(single))
}

fn error(status: StatusCode, message: String) -> Response {
    json_reply(
        status,
        "application/json",
        &json!({"HTTP_status_code": status.as_u16(), "error": true, "message": message}),
    )
}

async fn single(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    if param(&pairs, "email").is_none_or(|e| !e.contains('@')) {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Email address required in API call, see http://unpaywall.org/products/api".into(),
        );
    }
    let raw = percent_decode(uri.path().trim_start_matches("/v2/"));
    let doi = ids::normalize_doi(&raw);
    let world = &state.world;
    match world.by_doi(&doi).map(|i| world.entry(i)) {
        Some(e) if e.held_by(Source::Unpaywall) && e.work.doi.as_deref() == Some(doi.as_str()) => {
            json_reply(StatusCode::OK, "application/json", &doi_object(e))
        }
        _ => error(
            StatusCode::NOT_FOUND,
            format!(
                "'{raw}' isn't in Unpaywall. See https://support.unpaywall.org/a/solutions/articles/44001900286"
            ),
        ),
    }
}

fn oa_location(url: &str, host_type: &str, version: &str, is_best: bool, landing: String) -> Value {
    let is_pdf = url.ends_with(".pdf") || url.contains("/pdf");
    json!({
        "url": url,
        "url_for_pdf": if is_pdf { Value::from(url) } else { Value::Null },
        "url_for_landing_page": landing,
        "evidence": if host_type == "repository" { "oa repository (via OAI-PMH doi match)" } else { "open (via free pdf)" },
        "license": null,
        "version": version,
        "host_type": host_type,
        "is_best": is_best,
        "pmh_id": null,
        "endpoint_id": null,
        "repository_institution": null,
        "oa_date": null,
        "updated": "2026-01-15T00:00:00.000000",
    })
}

fn doi_object(e: &Entry) -> Value {
    let w = &e.work;
    let doi = w.doi.clone().unwrap_or_default();
    let doi_url = format!("https://doi.org/{doi}");
    let mut locations = Vec::new();
    if let Some(u) = w.oa_url.as_deref().filter(|u| !u.contains("arxiv.org")) {
        locations.push(oa_location(
            u,
            "publisher",
            "publishedVersion",
            true,
            doi_url.clone(),
        ));
    }
    if let Some(a) = &w.arxiv {
        locations.push(oa_location(
            &format!("https://arxiv.org/pdf/{a}"),
            "repository",
            "submittedVersion",
            locations.is_empty(),
            format!("https://arxiv.org/abs/{a}"),
        ));
    }
    let best = locations.first().cloned().unwrap_or(Value::Null);
    let oa_status = match locations.first().and_then(|l| l["host_type"].as_str()) {
        None => "closed",
        Some("repository") => "green",
        Some(_) => "gold",
    };
    let authors: Vec<Value> = w
        .authors
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let sequence = if i == 0 { "first" } else { "additional" };
            match &a.given {
                Some(g) => json!({"given": g, "family": a.family, "sequence": sequence}),
                None => json!({"name": a.family, "sequence": sequence}),
            }
        })
        .collect();
    json!({
        "doi": doi,
        "doi_url": doi_url,
        "title": w.title,
        "genre": crossref_type(e),
        "is_paratext": false,
        "published_date": w.year.map(|y| format!("{y}-01-01")),
        "year": w.year,
        "journal_name": w.venue,
        "journal_issns": null,
        "journal_issn_l": null,
        "journal_is_oa": false,
        "journal_is_in_doaj": false,
        "publisher": publisher_for(&doi),
        "is_oa": !locations.is_empty(),
        "oa_status": oa_status,
        "has_repository_copy": w.arxiv.is_some(),
        "best_oa_location": best.clone(),
        "first_oa_location": best,
        "oa_locations": locations,
        "oa_locations_embargoed": [],
        "updated": "2026-01-15T00:00:00.000000",
        "data_standard": 2,
        "z_authors": authors,
    })
}
