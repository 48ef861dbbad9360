//! The RFC index of the RFC Editor: `GET /rfc/rfc{n}.json` gives an RFC's metadata
//! (`doc_id`, `title`, `authors` as `"S. Bradner"`, `pub_date` as `"March 1997"`,
//! `doi`). The series is numbered and complete: a number the index does not have was
//! never issued.

use serde_json::Value;

use super::json::{is_html, list, parse_body, status_error, str_of};
use super::text::{finish, split_name, year_in};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings};
use crate::model::{Person, Work};
use crate::net::{HttpReply, HttpRequest, Net};

/// The source name of RFC index records.
pub const SOURCE: &str = "rfc";

#[derive(Debug, Clone)]
pub struct RfcClient {
    ep: Endpoint,
}

impl RfcClient {
    pub fn new(net: &Net, settings: SourceSettings) -> RfcClient {
        RfcClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /rfc/rfc{n}.json`.
    pub async fn lookup(&self, number: &str) -> LookupResult {
        let n: u32 = number
            .trim()
            .parse()
            .map_err(|_| SourceError::Config(format!("`{number}` is not an RFC number")))?;
        let url = self.ep.url(&format!("/rfc/rfc{n}.json"), &[])?;
        parse_rfc(&self.ep.send(HttpRequest::get(url)).await?, n)
    }
}

/// The DOI the RFC Editor registers for RFC `n`.
pub fn rfc_doi(n: u32) -> String {
    format!("10.17487/rfc{n:04}")
}

/// The reply to `/rfc/rfc{n}.json`. The RFC Editor answers an unissued number with its
/// 404 page (HTML): for this index, a 404 is the answer "no such RFC".
pub fn parse_rfc(reply: &HttpReply, n: u32) -> LookupResult {
    match reply.status {
        200 if !is_html(reply) => {
            let v = parse_body(reply)?;
            let title = str_of(v.get("title"))
                .ok_or_else(|| SourceError::Malformed("RFC index record without a title".into()))?;
            Ok(Lookup::Found(rfc_work(&v, title, n)))
        }
        404 => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

fn rfc_work(v: &Value, title: String, n: u32) -> Work {
    let authors: Vec<Person> = list(v.get("authors"))
        .iter()
        .filter_map(|a| str_of(Some(a)))
        .map(|a| split_name(a.trim_end_matches(", Ed.").trim_end_matches(" Ed.")))
        .collect();
    let doi = str_of(v.get("doi")).map(|d| d.to_lowercase());
    finish(Work {
        source: SOURCE.into(),
        title,
        authors,
        year: str_of(v.get("pub_date")).and_then(|d| year_in(&d)),
        venue: Some("RFC".into()),
        work_type: Some("rfc".into()),
        doi: doi.or_else(|| Some(rfc_doi(n))),
        url: Some(format!("https://www.rfc-editor.org/info/rfc{n}")),
        abstract_text: str_of(v.get("abstract")),
        ..Work::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reply(status: u16, body: &str, html: bool) -> HttpReply {
        let content_type = if html {
            "text/html"
        } else {
            "application/json"
        };
        HttpReply::new(status, Some(content_type), body.as_bytes().to_vec())
    }

    #[test]
    fn the_index_record_and_an_unissued_number() {
        let body = json!({
            "doc_id": "RFC2119",
            "title": "Key words for use in RFCs to Indicate Requirement Levels",
            "authors": ["S. Bradner"],
            "pub_date": "March 1997",
            "doi": "10.17487/RFC2119"
        });
        let Ok(Lookup::Found(w)) = parse_rfc(&reply(200, &body.to_string(), false), 2119) else {
            panic!("record not read");
        };
        assert_eq!(w.year, Some(1997));
        assert_eq!(w.authors, vec![Person::new(Some("S."), "Bradner")]);
        assert_eq!(w.doi.as_deref(), Some("10.17487/rfc2119"));
        assert_eq!(
            parse_rfc(&reply(404, "<html>Not Found</html>", true), 99999),
            Ok(Lookup::NotFound)
        );
        assert!(parse_rfc(&reply(200, "<html>maintenance</html>", true), 1).is_err());
        assert!(parse_rfc(&reply(500, "oops", false), 1).is_err());
    }
}
