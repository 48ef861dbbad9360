//! aclanthology.org `/{id}.bib`: the BibTeX the ACL Anthology publishes for each paper
//! (held for works whose DOI is an Anthology DOI, `10.18653/v1/{id}`), written as the
//! Anthology writes it (`title = "…"`, authors `Family, Given  and`, `month = jul`). An
//! unknown id gets the static site's HTML 404 page.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;

use super::service::{AppState, Source, reply};
use super::world::Entry;

pub fn router() -> Router<AppState> {
    Router::new().route("/{file}", get(bib))
}

fn not_found() -> Response {
    reply(
        StatusCode::NOT_FOUND,
        "text/html; charset=utf-8",
        "<!DOCTYPE html><html lang=\"en-us\"><head><title>Page not found - ACL Anthology</title></head><body><h2>404: Page not found</h2></body></html>",
    )
}

async fn bib(State(state): State<AppState>, Path(file): Path<String>) -> Response {
    let Some(id) = file.strip_suffix(".bib") else {
        return not_found();
    };
    let world = &state.world;
    let found = world.entries.iter().find(|e| {
        e.held_by(Source::Acl) && e.anthology_id().is_some_and(|a| a.eq_ignore_ascii_case(id))
    });
    match found {
        Some(e) => reply(StatusCode::OK, "text/plain; charset=utf-8", bibtex(e, id)),
        None => not_found(),
    }
}

fn bibtex(e: &Entry, id: &str) -> String {
    let w = &e.work;
    let authors: Vec<String> = w
        .authors
        .iter()
        .map(|a| match &a.given {
            Some(g) => format!("{}, {g}", a.family),
            None => a.family.clone(),
        })
        .collect();
    let year = w.year.unwrap_or(2020);
    let first = w
        .authors
        .first()
        .map(|a| a.family.to_lowercase())
        .unwrap_or_else(|| "anon".into());
    let venue = w
        .venue
        .clone()
        .unwrap_or_else(|| "Proceedings of the Association for Computational Linguistics".into());
    format!(
        "@inproceedings{{{first}-etal-{year}-{salt},\n    title = \"{title}\",\n    author = \"{authors}\",\n    booktitle = \"{venue}\",\n    month = jul,\n    year = \"{year}\",\n    address = \"Online\",\n    publisher = \"Association for Computational Linguistics\",\n    url = \"https://aclanthology.org/{id}\",\n    doi = \"10.18653/v1/{id}\",\n    pages = \"1--12\",\n}}\n",
        salt = e.salt("key") % 1000,
        title = w.title,
        authors = authors.join("  and\n      "),
    )
}
