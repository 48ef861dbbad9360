//! doi.org content negotiation: `GET {base}/{doi}` with
//! `Accept: application/vnd.citationstyles.csl+json`, redirects followed to the
//! registration agency (Crossref, DataCite, mEDRA …), which answers with CSL-JSON.
//! A 404 from doi.org itself means the DOI is not registered; a landing page instead of
//! CSL-JSON means the DOI resolves but its agency offers no metadata.

use serde_json::Value;

use super::crossref::work_from_json as csl_work;
use super::json::{body_is_html, is_html, parse_body, status_error, str_of};
use super::text::{finish, strip_markup};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings, encode_path};
use crate::net::{HttpReply, HttpRequest, Net};

pub const CSL_JSON: &str = "application/vnd.citationstyles.csl+json";

#[derive(Debug, Clone)]
pub struct DoiClient {
    ep: Endpoint,
}

impl DoiClient {
    pub fn new(net: &Net, settings: SourceSettings) -> DoiClient {
        DoiClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /{doi}` as CSL-JSON.
    pub async fn lookup(&self, doi: &str) -> LookupResult {
        let url = self.ep.url(&format!("/{}", encode_path(doi)), &[])?;
        let requested = url.to_string();
        let reply = self
            .ep
            .send(HttpRequest::get(url).header("Accept", CSL_JSON))
            .await?;
        // doi.org redirected, so the DOI exists; the agency just had nothing for us.
        if reply.status == 404 && !reply.url.is_empty() && reply.url != requested {
            return Err(SourceError::NoMetadata { url: reply.url });
        }
        parse_csl(&reply)
    }
}

/// The reply to a CSL-JSON request.
pub fn parse_csl(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 if body_is_html(&reply.body) || is_html(reply) => Err(SourceError::NoMetadata {
            url: reply.url.clone(),
        }),
        200 => {
            let v = parse_body(reply)?;
            // Some agencies wrap the item in a list.
            let item = match &v {
                Value::Array(items) => items.first().cloned().unwrap_or(Value::Null),
                other => other.clone(),
            };
            if item.get("title").is_none() && item.get("DOI").is_none() {
                return Err(SourceError::Malformed(
                    "CSL-JSON without title or DOI".into(),
                ));
            }
            let mut work = csl_work(&item, "doi");
            if work.venue.is_none() {
                // DataCite items (arXiv, Zenodo) name their repository as publisher.
                work.venue = str_of(item.get("publisher")).map(|p| strip_markup(&p));
            }
            Ok(Lookup::Found(finish(work)))
        }
        404 => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datacite_csl_uses_publisher_as_venue() {
        let body = r#"{"type":"article","id":"https://doi.org/10.48550/arxiv.1706.03762","author":[{"family":"Vaswani","given":"Ashish"}],
            "issued":{"date-parts":[[2017]]},"DOI":"10.48550/ARXIV.1706.03762","publisher":"arXiv","title":"Attention Is All You Need"}"#;
        let w = parse_csl(&HttpReply::new(200, Some(CSL_JSON), body))
            .unwrap()
            .found()
            .unwrap();
        assert_eq!(w.venue.as_deref(), Some("arXiv"));
        assert_eq!(w.arxiv.as_deref(), Some("1706.03762"));
        assert_eq!(w.year, Some(2017));
    }

    #[test]
    fn landing_page_means_no_metadata_and_404_not_found() {
        let page = HttpReply::new(200, Some("text/html"), "<!DOCTYPE html><html></html>");
        assert!(matches!(
            parse_csl(&page),
            Err(SourceError::NoMetadata { .. })
        ));
        let missing = HttpReply::new(404, Some("text/html"), "<html>DOI not found</html>");
        assert_eq!(parse_csl(&missing), Ok(Lookup::NotFound));
        let bad = HttpReply::new(400, Some("text/html"), "<html>bad</html>");
        assert!(matches!(
            parse_csl(&bad),
            Err(SourceError::Status { status: 400, .. })
        ));
    }
}
