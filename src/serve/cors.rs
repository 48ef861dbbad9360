//! The CORS policy: closed unless `[serve] cors-origins` names the origins whose pages
//! may call the service from a browser. Closed means no CORS headers at all, so a
//! browser keeps every cross-origin answer from the page that asked.

use std::time::Duration;

use axum::http::{HeaderName, HeaderValue, Method, header};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::serve_access::CorsOrigins;

/// The layer for `origins`; `None` when the policy is closed.
pub fn layer(origins: &CorsOrigins) -> Option<CorsLayer> {
    let allow = match origins {
        CorsOrigins::Closed => return None,
        CorsOrigins::Any => AllowOrigin::any(),
        CorsOrigins::List(list) => AllowOrigin::list(
            list.iter()
                .filter_map(|o| HeaderValue::from_str(o).ok())
                .collect::<Vec<_>>(),
        ),
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE, header::ACCEPT])
            .expose_headers([
                header::RETRY_AFTER,
                HeaderName::from_static("x-citeproof-findings"),
                HeaderName::from_static("x-citeproof-failing"),
                HeaderName::from_static("x-citeproof-summary"),
            ])
            .max_age(Duration::from_secs(600)),
    )
}
