//! Shared set-up of the client tests: fast settings pointed at a local server, and the
//! recorded bodies (when ../shared is present) or our own fixture bodies.

#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use citeproof::net::{Net, NetConfig, Rate};
use citeproof::resolve::sources::{SourceName, SourceSettings};

pub const MAILTO: &str = "tests@example.org";

pub fn net() -> Arc<Net> {
    Arc::new(
        Net::new(&NetConfig {
            mailto: Some(MAILTO.into()),
            ..NetConfig::default()
        })
        .expect("net"),
    )
}

/// Settings for `name` at `base`, with a fast rate and short backoff for tests.
pub fn settings(name: SourceName, base: &str) -> SourceSettings {
    let mut s = SourceSettings::new(name)
        .with_base_url(base)
        .expect("base url");
    s.rate = Some(Rate::per_second(1000));
    s.max_concurrency = Some(4);
    s.retry.base_delay = Duration::from_millis(5);
    s.retry.max_retries = 1;
    s
}

/// A recorded body, or `None` (with a message) when ../shared is absent.
pub fn recorded(rel: &str) -> Option<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/api_responses")
        .join(rel);
    match std::fs::read(&path) {
        Ok(body) => Some(body),
        Err(_) => {
            eprintln!("skipping: recorded body {rel} (../shared absent)");
            None
        }
    }
}

/// One of our own bodies in fixtures/api.
pub fn fixture(rel: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/api")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn fixture_json(rel: &str) -> serde_json::Value {
    serde_json::from_slice(&fixture(rel)).expect("fixture JSON")
}

/// `(key, value)` pairs as owned strings, sorted.
pub fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = items
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    v.sort();
    v
}
