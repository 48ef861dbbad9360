//! Publisher landing pages `/{world id}`: HTML with Highwire `citation_*` meta tags and a
//! schema.org JSON-LD block, the two things a URL fallback reads.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use serde_json::json;

use super::service::{AppState, Source, reply};
use super::text::xml_escape;
use super::world::Entry;

const HTML: &str = "text/html; charset=utf-8";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/{id}", get(page))
        .fallback(|| async { not_found() })
}

fn not_found() -> Response {
    reply(
        StatusCode::NOT_FOUND,
        HTML,
        "<!DOCTYPE html>\n<html><head><title>Page not found</title></head><body><h1>404 - Page not found</h1></body></html>\n",
    )
}

async fn page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let world = &state.world;
    match world.by_world_id(&id).map(|i| world.entry(i)) {
        Some(e) if e.held_by(Source::Landing) => reply(StatusCode::OK, HTML, landing_html(e)),
        _ => not_found(),
    }
}

fn meta(name: &str, content: &str) -> String {
    format!(
        "  <meta name=\"{name}\" content=\"{}\">\n",
        xml_escape(content)
    )
}

pub fn landing_html(e: &Entry) -> String {
    let w = &e.work;
    let mut head = String::new();
    head.push_str(&meta("citation_title", &w.title));
    for a in &w.authors {
        let name = match &a.given {
            Some(g) => format!("{}, {g}", a.family),
            None => a.family.clone(),
        };
        head.push_str(&meta("citation_author", &name));
    }
    if let Some(y) = w.year {
        head.push_str(&meta("citation_publication_date", &y.to_string()));
    }
    if let Some(v) = &w.venue {
        head.push_str(&meta("citation_journal_title", v));
    }
    if let Some(d) = e.any_doi() {
        head.push_str(&meta("citation_doi", d));
    }
    if let Some(a) = &w.arxiv {
        head.push_str(&meta("citation_arxiv_id", a));
    }
    if let Some(p) = &w.pmid {
        head.push_str(&meta("citation_pmid", p));
    }
    if let Some(u) = &w.oa_url {
        head.push_str(&meta("citation_pdf_url", u));
    }
    if let Some(a) = &w.abstract_text {
        head.push_str(&meta("citation_abstract", a));
        head.push_str(&meta("description", a));
    }
    let authors: Vec<_> = w
        .authors
        .iter()
        .map(|a| match &a.given {
            Some(g) => json!({"@type": "Person", "name": a.display_name(), "givenName": g, "familyName": a.family}),
            None => json!({"@type": "Organization", "name": a.family}),
        })
        .collect();
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "headline": w.title,
        "name": w.title,
        "author": authors,
    });
    if let Some(y) = w.year {
        ld["datePublished"] = json!(y.to_string());
    }
    if let Some(v) = &w.venue {
        ld["isPartOf"] = json!({"@type": "Periodical", "name": v});
    }
    if let Some(d) = e.any_doi() {
        ld["identifier"] = json!({"@type": "PropertyValue", "propertyID": "DOI", "value": d});
        ld["sameAs"] = json!(format!("https://doi.org/{d}"));
    }
    // `</` cannot occur inside the script element.
    let ld_text = ld.to_string().replace("</", "<\\/");
    let body_abstract = w
        .abstract_text
        .as_deref()
        .map(|a| {
            format!(
                "<section class=\"abstract\"><h2>Abstract</h2><p>{}</p></section>\n",
                xml_escape(a)
            )
        })
        .unwrap_or_default();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n  <title>{title}</title>\n{head}  <script type=\"application/ld+json\">{ld_text}</script>\n</head>\n<body>\n<article>\n<h1>{title}</h1>\n<p class=\"authors\">{authors}</p>\n{body_abstract}</article>\n</body>\n</html>\n",
        title = xml_escape(&w.title),
        authors = xml_escape(
            &w.authors
                .iter()
                .map(|a| a.display_name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}
