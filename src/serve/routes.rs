//! The handlers. Each runs its library call on the service's worker threads (parsing,
//! rules and scoring are CPU work; see [`super::workers`]) with the shared runtime's
//! handle for the network parts, and keeps the request's [`Slot`] until that work ends.

use std::sync::Arc;

use axum::Extension;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::clean::{CleanRequest, clean};
use crate::resolve::input;
use crate::resolve::query::RefQuery;
use crate::validate::{self, ValidateRequest};

use super::Service;
use super::errors::{ApiError, JsonBody};
use super::limits::Slot;

/// Run `work` on the service's workers, holding `slot` until it ends.
async fn on_workers<T: Send + 'static>(
    service: Arc<Service>,
    slot: Slot,
    work: impl FnOnce(&Service) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let workers = service.workers.clone();
    workers
        .run(move || {
            let result = work(&service);
            drop(slot);
            result
        })
        .await
        .map_err(|e| ApiError::internal(format!("the request's work failed: {e}")))?
}

/// `POST /v1/check`: a JSON body (`text`, or `file` in base64) or a multipart
/// upload.
pub async fn check(
    State(service): State<Arc<Service>>,
    Extension(slot): Extension<Slot>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let request = super::upload::read(request).await?;
    let handle = tokio::runtime::Handle::current();
    let answer = on_workers(service, slot, move |service| {
        service
            .check
            .check(request, service.cleaner.resolver(), &handle)
    })
    .await?;
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(answer.content_type),
    );
    headers.insert("x-citeproof-findings", HeaderValue::from(answer.findings));
    headers.insert(
        "x-citeproof-failing",
        HeaderValue::from_static(if answer.failing { "true" } else { "false" }),
    );
    if let Ok(summary) = HeaderValue::from_str(&answer.summary) {
        headers.insert("x-citeproof-summary", summary);
    }
    Ok((headers, answer.body).into_response())
}

/// One reference of `POST /v1/resolve`: a formatted string, or an object.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ReferenceInput {
    Text(String),
    Entry(ReferenceEntry),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceEntry {
    #[serde(default)]
    pub id: Option<Value>,
    #[serde(default)]
    pub reference: Option<String>,
    #[serde(default)]
    pub bibtex: Option<String>,
}

/// The body of `POST /v1/resolve`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    #[serde(default)]
    pub references: Vec<ReferenceInput>,
    /// A whole BibTeX file: every entry is resolved, keyed by its key.
    #[serde(default)]
    pub bibtex: Option<String>,
}

/// Queries with the ids their results carry.
type IdQueries = Vec<(String, RefQuery)>;

/// The queries of a resolve request with their ids, and what could not be read.
fn resolve_queries(request: &ResolveRequest) -> Result<(IdQueries, Vec<String>), ApiError> {
    let mut queries = Vec::new();
    let mut warnings = Vec::new();
    for (i, item) in request.references.iter().enumerate() {
        let default_id = (i + 1).to_string();
        match item {
            ReferenceInput::Text(text) => {
                queries.push((default_id, RefQuery::from_string(text.trim())));
            }
            ReferenceInput::Entry(entry) => {
                let id = match &entry.id {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Number(n)) => n.to_string(),
                    None => default_id,
                    Some(other) => {
                        return Err(ApiError::unprocessable(format!(
                            "references[{i}].id: expected a string or a number, found {other}"
                        )));
                    }
                };
                match (&entry.reference, &entry.bibtex) {
                    (Some(text), None) => queries.push((id, RefQuery::from_string(text.trim()))),
                    (None, Some(bibtex)) => {
                        let (mut found, problems) =
                            input::read(std::path::Path::new("entry.bib"), bibtex);
                        warnings.extend(
                            problems
                                .into_iter()
                                .map(|p| format!("references[{i}]: {p}")),
                        );
                        if found.is_empty() {
                            return Err(ApiError::unprocessable(format!(
                                "references[{i}].bibtex: no BibTeX entry could be read"
                            )));
                        }
                        if found.len() > 1 {
                            warnings.push(format!(
                                "references[{i}]: {} BibTeX entries; only the first is resolved",
                                found.len()
                            ));
                        }
                        queries.push((id, found.swap_remove(0).query));
                    }
                    _ => {
                        return Err(ApiError::unprocessable(format!(
                            "references[{i}]: give exactly one of \"reference\" and \"bibtex\""
                        )));
                    }
                }
            }
        }
    }
    if let Some(bibtex) = &request.bibtex {
        let (found, problems) = input::read(std::path::Path::new("bibtex"), bibtex);
        warnings.extend(problems);
        queries.extend(found.into_iter().map(|r| (r.id, r.query)));
    }
    if queries.is_empty() {
        return Err(ApiError::unprocessable(
            "nothing to resolve: give \"references\" or \"bibtex\"",
        ));
    }
    Ok((queries, warnings))
}

/// `POST /v1/resolve`: one object per reference, each exactly a line of `citeproof
/// resolve --format jsonl` (as JSON Lines with `Accept: application/x-ndjson`).
pub async fn resolve(
    State(service): State<Arc<Service>>,
    Extension(slot): Extension<Slot>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<ResolveRequest>,
) -> Result<Response, ApiError> {
    let (queries, warnings) = resolve_queries(&request)?;
    if service.cleaner.resolver().is_none() {
        return Err(ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "resolution is off on this server (resolve.enabled = false)",
        ));
    }
    let handle = tokio::runtime::Handle::current();
    let lines = on_workers(service, slot, move |service| {
        let resolver = service.cleaner.resolver().expect("checked above");
        let only: Vec<RefQuery> = queries.iter().map(|(_, q)| q.clone()).collect();
        let resolutions = handle.block_on(resolver.resolve(&only));
        let lines: Vec<Value> = queries
            .iter()
            .zip(&resolutions)
            .map(|((id, q), r)| r.to_json_line(id, q.fields.kind))
            .collect();
        Ok(lines)
    })
    .await?;
    let ndjson = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson"));
    if ndjson {
        let mut body = String::new();
        for line in &lines {
            body.push_str(&line.to_string());
            body.push('\n');
        }
        return Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response());
    }
    Ok(axum::Json(json!({ "results": lines, "warnings": warnings })).into_response())
}

/// The body of `POST /v1/validate` as read: the articles kept as written, so that
/// the answer carries every field the client sent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawValidateRequest {
    pub query: String,
    pub articles: Vec<Value>,
    #[serde(default)]
    pub options: Option<validate::ValidateOptions>,
}

/// `POST /v1/validate`: the same JSON as `citeproof validate-sources --format json`.
pub async fn validate(
    State(service): State<Arc<Service>>,
    Extension(slot): Extension<Slot>,
    JsonBody(raw): JsonBody<RawValidateRequest>,
) -> Result<Response, ApiError> {
    let articles = validate::output::articles_of(&raw.articles).map_err(ApiError::unprocessable)?;
    let query = raw.query.clone();
    let request = ValidateRequest {
        query: raw.query,
        articles,
        options: raw.options,
    };
    let handle = tokio::runtime::Handle::current();
    let validated = on_workers(service, slot, move |service| {
        let resolver = service.cleaner.resolver();
        handle
            .block_on(validate::validate(&service.validator, &request, resolver))
            .map_err(|e| request_or_internal(e.is_bad_request(), e))
    })
    .await?;
    Ok(axum::Json(validate::output::report(&query, &raw.articles, &validated)).into_response())
}

/// 422 for what the request got wrong, 500 for the rest.
fn request_or_internal(bad_request: bool, error: impl std::fmt::Display) -> ApiError {
    if bad_request {
        ApiError::unprocessable(error.to_string())
    } else {
        ApiError::internal(error)
    }
}

/// `POST /v1/clean`: the same JSON as `citeproof clean --format json`.
pub async fn clean_answer(
    State(service): State<Arc<Service>>,
    Extension(slot): Extension<Slot>,
    JsonBody(request): JsonBody<CleanRequest>,
) -> Result<Response, ApiError> {
    let handle = tokio::runtime::Handle::current();
    let cleaned = on_workers(service, slot, move |service| {
        handle
            .block_on(clean(&service.cleaner, &request))
            .map_err(|e| request_or_internal(e.is_bad_request(), e))
    })
    .await?;
    Ok(axum::Json(cleaned).into_response())
}

/// `GET /healthz`.
pub async fn healthz(State(service): State<Arc<Service>>) -> Response {
    axum::Json(json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "resolution": service.cleaner.resolver().is_some(),
    }))
    .into_response()
}

/// `GET /metrics`.
pub async fn metrics(State(service): State<Arc<Service>>) -> Response {
    (
        [(header::CONTENT_TYPE, super::metrics::CONTENT_TYPE)],
        service.metrics.render(),
    )
        .into_response()
}

/// `GET /openapi.json`.
pub async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], super::OPENAPI).into_response()
}

/// `GET /`: a page to paste a document or an answer and see the HTML report.
pub async fn page() -> Html<&'static str> {
    Html(super::PAGE)
}
