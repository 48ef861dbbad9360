//! The gate in front of every service: logs the request, adds latency, and applies the
//! down switch, the rate limit and the fault rules decided by [`Control`].

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use super::knobs::{Arrival, Control, Decision, FaultKind};
use super::server::ConnControl;
use super::service::{Source, reply};

/// Largest request body the gate buffers (S2 batches of 500 ids are far below this).
const MAX_REQUEST_BODY: usize = 16 << 20;

/// How long a "never completes" request hangs before its connection is reset, so that a
/// long benchmark run does not accumulate hung connections (far beyond any client timeout).
const HANG_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

#[derive(Clone)]
pub struct Gate {
    pub control: Arc<Control>,
    pub source: Source,
}

pub async fn gate(State(gate): State<Gate>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_REQUEST_BODY)
        .await
        .unwrap_or_default();
    let arrival = Arrival {
        method: parts.method.to_string(),
        path_and_query: parts
            .uri
            .path_and_query()
            .map_or_else(|| "/".to_string(), |p| p.as_str().to_string()),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: String::from_utf8_lossy(&bytes).into_owned(),
    };
    let conn = parts.extensions.get::<ConnControl>().cloned();
    let (decision, latency, index) = gate.control.admit(gate.source, arrival);
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let request = Request::from_parts(parts, Body::from(bytes));
    let response = match decision {
        Decision::Pass => next.run(request).await,
        Decision::Down | Decision::Fault(FaultKind::ConnectionReset) => reset(conn).await,
        Decision::Fault(FaultKind::Timeout) => {
            tokio::time::sleep(HANG_LIMIT).await;
            reset(conn).await
        }
        Decision::RateLimited { retry_after_secs } => {
            too_many_requests(gate.source, retry_after_secs)
        }
        Decision::Fault(FaultKind::Status(code)) => error_status(gate.source, code),
        Decision::Fault(FaultKind::HtmlErrorPage) => maintenance_page(gate.source),
        Decision::Fault(FaultKind::EmptyBody) => empty_body(next.run(request).await),
        Decision::Fault(FaultKind::TruncatedBody) => truncated(next.run(request).await).await,
    };
    gate.control
        .finish(gate.source, index, response.status().as_u16());
    response
}

/// Reset the connection; the response never comes.
async fn reset(conn: Option<ConnControl>) -> Response {
    if let Some(conn) = conn {
        conn.reset();
    }
    std::future::pending::<Response>().await
}

/// A 429 in the service's own style.
fn too_many_requests(source: Source, retry_after_secs: u64) -> Response {
    let mut response = match source {
        Source::S2 => reply(
            StatusCode::TOO_MANY_REQUESTS,
            "application/json",
            r#"{"message": "Too Many Requests. Please wait and try again or apply for a key for higher rate limits. https://www.semanticscholar.org/product/api#api-key-form", "code": "429"}"#,
        ),
        Source::Pubmed => reply(
            StatusCode::TOO_MANY_REQUESTS,
            "application/json",
            r#"{"error":"API rate limit exceeded","count":"4","limit":"3"}"#,
        ),
        Source::OpenAlex => reply(
            StatusCode::TOO_MANY_REQUESTS,
            "application/json",
            r#"{"error": "Rate limit exceeded", "message": "Too many requests, please slow down."}"#,
        ),
        _ => reply(
            StatusCode::TOO_MANY_REQUESTS,
            "text/plain;charset=utf-8",
            "Too Many Requests",
        ),
    };
    if source.sends_retry_after() {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
    }
    response
}

/// An error status as a gateway in front of the service sends it.
fn error_status(source: Source, code: u16) -> Response {
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let reason = status.canonical_reason().unwrap_or("Error");
    if source == Source::S2 {
        let message = if code == 504 {
            "Endpoint request timed out"
        } else {
            "Internal server error"
        };
        return reply(
            status,
            "application/json",
            format!(r#"{{"message":"{message}"}}"#),
        );
    }
    reply(
        status,
        "text/html",
        format!(
            "<html>\r\n<head><title>{code} {reason}</title></head>\r\n<body>\r\n<center><h1>{code} {reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
        ),
    )
}

/// HTTP 200 with an HTML maintenance page, as a CDN or a captive portal serves it.
fn maintenance_page(source: Source) -> Response {
    reply(
        StatusCode::OK,
        "text/html; charset=utf-8",
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Service temporarily unavailable</title></head>\n<body>\n<h1>We&rsquo;ll be back soon</h1>\n<p>The {} service is undergoing scheduled maintenance. Please try again later.</p>\n</body>\n</html>\n",
            source.name()
        ),
    )
}

/// Keep the headers, drop the body.
fn empty_body(response: Response) -> Response {
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::empty())
}

/// Announce the full length, send half, then break the connection.
async fn truncated(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let full = bytes.len();
    let half = Bytes::copy_from_slice(&bytes[..full / 2]);
    parts
        .headers
        .insert(header::CONTENT_LENGTH, HeaderValue::from(full));
    // Half the body, then (after giving the connection a chance to flush it) an error, on
    // which hyper closes the connection mid-body.
    let chunks = futures::stream::unfold(0u8, move |step| {
        let half = half.clone();
        async move {
            match step {
                0 => Some((Ok(half), 1)),
                1 => {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    Some((
                        Err(std::io::Error::new(
                            std::io::ErrorKind::ConnectionAborted,
                            "mock: truncated body",
                        )),
                        2,
                    ))
                }
                _ => None,
            }
        }
    });
    Response::from_parts(parts, Body::from_stream(chunks))
}
