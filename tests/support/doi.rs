//! doi.org content negotiation: CSL-JSON for `application/vnd.citationstyles.csl+json`
//! (Crossref-flavoured for Crossref DOIs as recorded, DataCite-flavoured for DataCite DOIs),
//! BibTeX for `application/x-bibtex` (Crossref's one-line form as recorded, DataCite's
//! multi-line form), otherwise a 302 "Handle Redirect" to the landing page; 404 for unknown
//! DOIs, 400 for strings that are not DOIs.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::crossref::{crossref_type, work_message};
use super::datacite::{datacite_publisher, datacite_year};
use super::ids::{self, Agency};
use super::service::{AppState, Source, json as json_reply, reply};
use super::text::{ascii_letters, percent_decode, xml_escape};
use super::world::Entry;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/{*doi}", get(resolve))
        .fallback(|| async { not_found() })
}

fn not_found() -> Response {
    reply(
        StatusCode::NOT_FOUND,
        "text/html;charset=utf-8",
        "<!DOCTYPE html>\n<html lang=\"en\"><head><title>Error: DOI Not Found</title></head>\n<body><h1>DOI Not Found</h1><p>This DOI cannot be found in the DOI System.</p></body></html>\n",
    )
}

async fn resolve(State(state): State<AppState>, uri: Uri, headers: HeaderMap) -> Response {
    let raw = percent_decode(uri.path().trim_start_matches('/'));
    let doi = ids::normalize_doi(&raw);
    if !ids::looks_like_doi(&doi) {
        return reply(
            StatusCode::BAD_REQUEST,
            "text/html;charset=UTF-8",
            "<!DOCTYPE html>\n<html lang=\"en\"><head><title>Error: Invalid DOI</title></head>\n<body><h1>Invalid DOI</h1></body></html>\n",
        );
    }
    let world = &state.world;
    let Some(e) = world
        .by_doi(&doi)
        .map(|i| world.entry(i))
        .filter(|e| e.held_by(Source::Doi))
    else {
        return not_found();
    };
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_lowercase();
    let datacite = ids::agency(&doi) == Agency::DataCite;
    if accept.contains("application/vnd.citationstyles.csl+json")
        || accept.contains("application/citeproc+json")
    {
        let csl = if datacite {
            datacite_csl(&state, e, &doi)
        } else {
            crossref_csl(&state, e)
        };
        return json_reply(
            StatusCode::OK,
            "application/vnd.citationstyles.csl+json",
            &csl,
        );
    }
    if accept.contains("application/x-bibtex") {
        let bib = if datacite {
            datacite_bibtex(&state, e, &doi)
        } else {
            crossref_bibtex(e)
        };
        return reply(StatusCode::OK, "application/x-bibtex; charset=utf-8", bib);
    }
    let target = state.landing_url(e);
    let mut response = reply(
        StatusCode::FOUND,
        "text/html;charset=utf-8",
        format!(
            "<html><head><title>Handle Redirect</title></head>\n<body><a href=\"{0}\">{0}</a></body></html>",
            xml_escape(&target)
        ),
    );
    if let Ok(v) = HeaderValue::from_str(&target) {
        response.headers_mut().insert(header::LOCATION, v);
    }
    response
}

/// Crossref's CSL-JSON: its work message with string `title`/`container-title`.
fn crossref_csl(state: &AppState, e: &Entry) -> Value {
    let mut m = work_message(state, e, 1.0);
    let doi = e.work.doi.clone().unwrap_or_default();
    m["title"] = json!(e.work.title);
    match &e.work.venue {
        Some(v) => m["container-title"] = json!(v),
        None => {
            m.as_object_mut().map(|o| o.remove("container-title"));
        }
    }
    if let Some(o) = m.as_object_mut() {
        o.remove("short-container-title");
    }
    m["alternative-id"] = json!([doi]);
    m["URL"] = json!(format!("http://dx.doi.org/{doi}"));
    m
}

fn datacite_csl(state: &AppState, e: &Entry, doi: &str) -> Value {
    let w = &e.work;
    let authors: Vec<Value> = w
        .authors
        .iter()
        .map(|a| match &a.given {
            Some(g) => json!({"family": a.family, "given": g}),
            None => json!({"literal": a.family}),
        })
        .collect();
    let url = match &w.arxiv {
        Some(a) if doi.starts_with("10.48550/") => format!("https://arxiv.org/abs/{a}"),
        _ => state.landing_url(e),
    };
    let mut csl = json!({
        "type": if doi.starts_with("10.48550/") { "article" } else { "article-journal" },
        "id": format!("https://doi.org/{doi}"),
        "author": authors,
        "issued": {"date-parts": [[datacite_year(e, doi)]]},
        "DOI": doi.to_uppercase(),
        "publisher": datacite_publisher(e, doi),
        "title": w.title,
        "URL": url,
    });
    if let Some(a) = &w.abstract_text {
        csl["abstract"] = json!(a);
    }
    csl
}

fn bibtex_key(e: &Entry) -> String {
    let first = e
        .work
        .authors
        .first()
        .map_or("Anonymous".to_string(), |a| a.family.clone());
    let mut letters = ascii_letters(&first);
    if letters.is_empty() {
        letters = "Anonymous".into();
    }
    format!(
        "{}_{}",
        letters,
        e.work.year.map(|y| y.to_string()).unwrap_or_default()
    )
}

fn bibtex_authors(e: &Entry) -> String {
    e.work
        .authors
        .iter()
        .map(|a| match &a.given {
            Some(g) => format!("{}, {g}", a.family),
            None => format!("{{{}}}", a.family),
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Crossref's current BibTeX: one line with a leading space.
fn crossref_bibtex(e: &Entry) -> String {
    let w = &e.work;
    let doi = w.doi.clone().unwrap_or_default();
    let (entry_type, venue_field) = match crossref_type(e) {
        "journal-article" => ("article", "journal"),
        "proceedings-article" => ("inproceedings", "booktitle"),
        "book-chapter" => ("inbook", "booktitle"),
        "book" | "monograph" => ("book", "series"),
        "dissertation" => ("phdthesis", "school"),
        _ => ("misc", "howpublished"),
    };
    let mut fields = vec![
        format!("title={{{}}}", w.title),
        format!("url={{http://dx.doi.org/{doi}}}"),
        format!("DOI={{{doi}}}"),
    ];
    if let Some(v) = &w.venue {
        fields.push(format!("{venue_field}={{{v}}}"));
    }
    fields.push(format!(
        "publisher={{{}}}",
        super::service::publisher_for(&doi)
    ));
    if !w.authors.is_empty() {
        fields.push(format!("author={{{}}}", bibtex_authors(e)));
    }
    if let Some(y) = w.year {
        fields.push(format!("year={{{y}}}"));
    }
    format!(
        " @{entry_type}{{{}, {} }}\n",
        bibtex_key(e),
        fields.join(", ")
    )
}

/// DataCite's BibTeX: multi-line, keyed by the DOI URL.
fn datacite_bibtex(state: &AppState, e: &Entry, doi: &str) -> String {
    let w = &e.work;
    let url = match &w.arxiv {
        Some(a) if doi.starts_with("10.48550/") => format!("https://arxiv.org/abs/{a}"),
        _ => state.landing_url(e),
    };
    let mut s = format!(
        "@misc{{https://doi.org/{doi},\n  doi = {{{}}},\n  url = {{{url}}},\n",
        doi.to_uppercase()
    );
    if !w.authors.is_empty() {
        s.push_str(&format!("  author = {{{}}},\n", bibtex_authors(e)));
    }
    s.push_str(&format!(
        "  title = {{{}}},\n  publisher = {{{}}},\n  year = {{{}}}\n}}\n",
        w.title,
        datacite_publisher(e, doi),
        datacite_year(e, doi)
            .map(|y| y.to_string())
            .unwrap_or_default()
    ));
    s
}
