//! `citeproof serve` as the real binary on 127.0.0.1 (one test binary for the routes,
//! the limits and the page, so the crate is linked once for them).

mod chromium_support;
mod serve_support;
mod support;

#[path = "serve_http/api.rs"]
mod api;
#[path = "serve_http/auth.rs"]
mod auth;
#[path = "serve_http/limits.rs"]
mod limits;
#[path = "serve_http/page.rs"]
mod page;
#[path = "serve_http/uploads.rs"]
mod uploads;
