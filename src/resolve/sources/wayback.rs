//! The Internet Archive's availability API: `GET /wayback/available?url=…` →
//! `archived_snapshots.closest` (`available`, `url`, `timestamp`, `status`), or an empty
//! `archived_snapshots` when the Wayback Machine holds no copy. A copy of a page that is
//! gone now shows that it existed.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::json::{parse_body, status_error, str_of};
use super::{Endpoint, Lookup, SourceError, SourceSettings};
use crate::net::{HttpReply, HttpRequest, Net};

/// An archived copy of a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// `http://web.archive.org/web/20130919044612/http://example.com/`
    pub url: String,
    /// `20130919044612`
    pub timestamp: String,
}

impl Snapshot {
    pub fn year(&self) -> Option<i32> {
        self.timestamp.get(..4).and_then(|y| y.parse().ok())
    }
}

#[derive(Debug, Clone)]
pub struct WaybackClient {
    ep: Endpoint,
}

impl WaybackClient {
    pub fn new(net: &Net, settings: SourceSettings) -> WaybackClient {
        WaybackClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// The closest archived copy of `page`.
    pub async fn closest(&self, page: &str) -> Result<Lookup<Snapshot>, SourceError> {
        let url = self.ep.url("/wayback/available", &[("url", page)])?;
        parse_available(&self.ep.send(HttpRequest::get(url)).await?)
    }
}

pub fn parse_available(reply: &HttpReply) -> Result<Lookup<Snapshot>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let snapshots = v.get("archived_snapshots").ok_or_else(|| {
        SourceError::Malformed("availability reply without archived_snapshots".into())
    })?;
    let Some(closest) = snapshots.get("closest") else {
        return Ok(Lookup::NotFound);
    };
    let available = closest.get("available").and_then(Value::as_bool) == Some(true);
    let status_ok =
        str_of(closest.get("status")).is_none_or(|s| s.starts_with('2') || s.starts_with('3'));
    match (available && status_ok, str_of(closest.get("url"))) {
        (true, Some(url)) => Ok(Lookup::Found(Snapshot {
            url,
            timestamp: str_of(closest.get("timestamp")).unwrap_or_default(),
        })),
        _ => Ok(Lookup::NotFound),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_or_none() {
        let found = r#"{"url": "example.com", "archived_snapshots": {"closest": {"status": "200", "available": true, "url": "http://web.archive.org/web/20130919044612/http://example.com/", "timestamp": "20130919044612"}}}"#;
        let Ok(Lookup::Found(s)) = parse_available(&HttpReply::new(200, None, found)) else {
            panic!("snapshot not read")
        };
        assert_eq!(s.year(), Some(2013));
        let none = r#"{"url": "nowhere.example", "archived_snapshots": {}}"#;
        assert_eq!(
            parse_available(&HttpReply::new(200, None, none)),
            Ok(Lookup::NotFound)
        );
        assert!(parse_available(&HttpReply::new(429, None, "slow down")).is_err());
    }
}
