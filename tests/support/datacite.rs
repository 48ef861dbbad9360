//! api.datacite.org `/dois/{doi}`: JSON:API records for DataCite DOIs (arXiv 10.48550,
//! Zenodo 10.5281, Dagstuhl 10.4230, …), following the DataCite REST API documentation
//! (nothing is recorded in `api_responses/`). An arXiv DOI of a work that was later
//! published names the published DOI in `relatedIdentifiers` (`IsVersionOf`).

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::ids::{self, Agency};
use super::search::{Fields, terms};
use super::service::{AppState, Source, json as json_reply};
use super::text::{param, percent_decode, query_pairs};
use super::world::{Entry, Kind};

const JSON_API: &str = "application/vnd.api+json; charset=utf-8";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/dois", get(search))
        .route("/dois/{*doi}", get(single))
        .fallback(|| async { not_found() })
}

fn not_found() -> Response {
    json_reply(
        StatusCode::NOT_FOUND,
        JSON_API,
        &json!({"errors": [{"status": "404", "title": "The resource you are looking for doesn't exist."}]}),
    )
}

async fn single(State(state): State<AppState>, uri: Uri) -> Response {
    let doi = ids::normalize_doi(&percent_decode(uri.path().trim_start_matches("/dois/")));
    let world = &state.world;
    match world.by_doi(&doi).map(|i| world.entry(i)) {
        Some(e) if e.held_by(Source::DataCite) && e.datacite_dois().any(|d| d == doi) => {
            json_reply(
                StatusCode::OK,
                JSON_API,
                &json!({"data": record(&state, e, &doi)}),
            )
        }
        _ => not_found(),
    }
}

/// `GET /dois?query=titles.title:(…)&page[size]=n`: DataCite's Elasticsearch query
/// string; the mock reads the words of the title clause and ranks the works it holds.
async fn search(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let query = param(&pairs, "query").unwrap_or("");
    let words = query
        .strip_prefix("titles.title:(")
        .and_then(|q| q.strip_suffix(')'))
        .unwrap_or(query);
    let size: usize = param(&pairs, "page[size]")
        .and_then(|s| s.parse().ok())
        .unwrap_or(25);
    let world = &state.world;
    let hits = world.index.rank(&terms(words, Fields::TITLE), |i| {
        world.entry(i).held_by(Source::DataCite)
    });
    let data: Vec<Value> = hits
        .iter()
        .take(size)
        .filter_map(|h| {
            let e = world.entry(h.entry);
            let doi = e.datacite_dois().next()?.to_string();
            Some(record(&state, e, &doi))
        })
        .collect();
    json_reply(
        StatusCode::OK,
        JSON_API,
        &json!({"data": data, "meta": {"total": data.len()}, "links": {}}),
    )
}

fn is_arxiv(doi: &str) -> bool {
    doi.starts_with("10.48550/")
}

/// Publisher of a DataCite DOI.
pub fn datacite_publisher(e: &Entry, doi: &str) -> String {
    match doi.split('/').next().unwrap_or("") {
        "10.48550" => "arXiv".into(),
        "10.5281" => "Zenodo".into(),
        "10.6084" => "figshare".into(),
        "10.4230" => "Schloss Dagstuhl – Leibniz-Zentrum für Informatik".into(),
        "10.17863" => "Apollo - University of Cambridge Repository".into(),
        _ => e.work.venue.clone().unwrap_or_else(|| "DataCite".into()),
    }
}

/// Publication year of a DataCite DOI (an arXiv DOI carries the arXiv submission year).
pub fn datacite_year(e: &Entry, doi: &str) -> Option<i32> {
    match &e.work.arxiv {
        Some(a) if is_arxiv(doi) => ids::arxiv_year_month(a).map(|(y, _)| y).or(e.work.year),
        _ => e.work.year,
    }
}

fn client(doi: &str) -> (&'static str, &'static str) {
    match doi.split('/').next().unwrap_or("") {
        "10.48550" => ("arxiv.content", "arxiv"),
        "10.5281" => ("cern.zenodo", "cern"),
        "10.6084" => ("figshare.ars", "figshare"),
        "10.4230" => ("dagstuhl.lipics", "dagstuhl"),
        _ => ("datacite.repository", "datacite"),
    }
}

fn record(state: &AppState, e: &Entry, doi: &str) -> Value {
    let w = &e.work;
    let year = datacite_year(e, doi);
    let creators: Vec<Value> = w
        .authors
        .iter()
        .map(|a| match &a.given {
            Some(g) => json!({"name": format!("{}, {g}", a.family), "nameType": "Personal", "givenName": g,
                              "familyName": a.family, "affiliation": [], "nameIdentifiers": []}),
            None => json!({"name": a.family, "nameType": "Organizational", "affiliation": [], "nameIdentifiers": []}),
        })
        .collect();
    let mut identifiers = Vec::new();
    let mut dates = Vec::new();
    let (url, types) = match &w.arxiv {
        Some(a) if is_arxiv(doi) => {
            identifiers
                .push(json!({"identifier": format!("arXiv:{a}"), "identifierType": "arXiv"}));
            let (y, m) = ids::arxiv_year_month(a).unwrap_or((year.unwrap_or(2020), 1));
            dates.push(json!({"date": format!("{y:04}-{m:02}-01T00:00:00Z"), "dateType": "Submitted", "dateInformation": "v1"}));
            (
                format!("https://arxiv.org/abs/{a}"),
                json!({"ris": "GEN", "bibtex": "misc", "citeproc": "article", "schemaOrg": "CreativeWork",
                       "resourceType": "Article", "resourceTypeGeneral": "Preprint"}),
            )
        }
        _ if e.kind == Kind::Dataset => (
            state.landing_url(e),
            json!({"ris": "DATA", "bibtex": "misc", "citeproc": "dataset", "schemaOrg": "Dataset",
                   "resourceTypeGeneral": "Dataset"}),
        ),
        _ => (
            state.landing_url(e),
            json!({"ris": "RPRT", "bibtex": "article", "citeproc": "article-journal", "schemaOrg": "ScholarlyArticle",
                   "resourceType": "Article", "resourceTypeGeneral": "Text"}),
        ),
    };
    if let Some(y) = year {
        dates.push(json!({"date": y.to_string(), "dateType": "Issued"}));
    }
    let related: Vec<Value> = w
        .doi
        .as_deref()
        .filter(|d| is_arxiv(doi) && ids::agency(d) == Agency::Crossref)
        .map(|d| json!({"relationType": "IsVersionOf", "relatedIdentifier": d, "relatedIdentifierType": "DOI"}))
        .into_iter()
        .collect();
    let descriptions: Vec<Value> = w
        .abstract_text
        .iter()
        .map(|a| json!({"description": a, "descriptionType": "Abstract"}))
        .collect();
    let stamp = format!("{}-01-15T00:00:00.000Z", year.unwrap_or(2020));
    let (client_id, provider_id) = client(doi);
    let mut attributes = json!({
        "doi": doi, "identifiers": identifiers, "creators": creators,
        "titles": [{"title": w.title}], "publisher": datacite_publisher(e, doi), "container": {},
        "publicationYear": year, "subjects": [], "contributors": [], "dates": dates, "language": "en",
        "types": types, "relatedIdentifiers": related, "relatedItems": [], "sizes": [], "formats": [],
        "version": if is_arxiv(doi) { Value::from("1") } else { Value::Null },
        "rightsList": [], "descriptions": descriptions, "geoLocations": [], "fundingReferences": [],
        "url": url, "contentUrl": null, "metadataVersion": 1,
    });
    let registry = json!({
        "schemaVersion": "http://datacite.org/schema/kernel-4", "source": "mds", "isActive": true,
        "state": "findable", "reason": null, "viewCount": 0, "downloadCount": 0, "referenceCount": 0,
        "citationCount": 0, "partCount": 0, "partOfCount": 0, "versionCount": 0, "versionOfCount": 0,
        "created": stamp, "registered": stamp, "published": year.map(|y| y.to_string()), "updated": stamp,
    });
    if let (Some(a), Value::Object(r)) = (attributes.as_object_mut(), registry) {
        a.extend(r);
    }
    json!({
        "id": doi,
        "type": "dois",
        "attributes": attributes,
        "relationships": {
            "client": {"data": {"id": client_id, "type": "clients"}},
            "provider": {"data": {"id": provider_id, "type": "providers"}},
        },
    })
}
