//! Every error answer is JSON, `{"status": 422, "error": "what was wrong"}`: the
//! handlers' own errors ([`ApiError`]), the body extractor's rejections ([`JsonBody`]:
//! 400 not JSON, 413 too large, 415 not `application/json`, 422 JSON of the wrong
//! shape), and — through [`json_errors`] — what the router and the middleware answer
//! on their own (404, 405, 504 …).

use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

/// An error answer.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 422: the request is JSON of the right shape but says something unusable.
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 500: the service failed (the message says how).
    pub fn internal(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_error(self.status, &self.message)
    }
}

/// The JSON body of an error answer.
pub fn json_error(status: StatusCode, message: &str) -> Response {
    let body = json!({ "status": status.as_u16(), "error": message });
    (status, axum::Json(body)).into_response()
}

/// A JSON request body whose rejections say what was wrong, as JSON.
pub struct JsonBody<T>(pub T);

impl<T, S> FromRequest<S> for JsonBody<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(rejected(rejection)),
        }
    }
}

fn rejected(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match &rejection {
        JsonRejection::MissingJsonContentType(_) => {
            "expected a JSON body with `Content-Type: application/json`".to_string()
        }
        JsonRejection::JsonSyntaxError(e) => {
            format!("the body is not valid JSON: {}", source_text(e))
        }
        JsonRejection::JsonDataError(e) => {
            format!(
                "the body does not have the expected fields: {}",
                source_text(e)
            )
        }
        JsonRejection::BytesRejection(_) if status == StatusCode::PAYLOAD_TOO_LARGE => {
            "the body is larger than this server accepts ([serve] max-body-size)".to_string()
        }
        other => other.body_text(),
    };
    ApiError::new(status, message)
}

/// The message of what axum wraps (serde's, with the path, line and column), without
/// axum's prefix.
fn source_text(error: &(dyn std::error::Error + 'static)) -> String {
    error
        .source()
        .map_or_else(|| error.to_string(), |inner| inner.to_string())
}

/// Turn error answers that are not JSON (the router's 404 and 405, a layer's 408,
/// 413 or 504, a caught panic) into JSON errors that say what happened.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let message = match status {
        StatusCode::NOT_FOUND => {
            format!("no route {method} {path} (the routes are listed at GET /openapi.json)")
        }
        StatusCode::METHOD_NOT_ALLOWED => {
            let allowed: Vec<String> = super::ROUTES
                .iter()
                .filter(|(_, p)| *p == path)
                .map(|(m, _)| m.to_ascii_uppercase())
                .collect();
            format!(
                "{path} does not accept {method}; it accepts {}",
                allowed.join(", ")
            )
        }
        StatusCode::REQUEST_TIMEOUT | StatusCode::GATEWAY_TIMEOUT => {
            "the request took longer than this server allows ([serve] request-timeout)".into()
        }
        StatusCode::PAYLOAD_TOO_LARGE => {
            "the body is larger than this server accepts ([serve] max-body-size)".into()
        }
        other => other
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_string(),
    };
    let (mut parts, _) = response.into_parts();
    let mut rebuilt = json_error(status, &message);
    // Keep what the original answer said in its headers (Allow, Retry-After).
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(value) = parts.headers.remove(&name) {
            rebuilt.headers_mut().insert(name, value);
        }
    }
    if method == Method::HEAD {
        *rebuilt.body_mut() = Body::empty();
    }
    rebuilt
}

/// The answer to a panic in a handler (the process keeps serving).
pub fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let mut response = json_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal error while handling the request (see the server's log)",
    );
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
