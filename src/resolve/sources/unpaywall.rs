//! Unpaywall v2: `GET /v2/{doi}?email={mailto}`. Used for open-access full-text links
//! (`best_oa_location.url_for_pdf`, else its `url`); the bibliographic fields come along.
//! The API requires a contact e-mail; without one the client refuses to ask.

use serde_json::Value;

use super::json::{is_html, list, parse_body, status_error, str_of, year_of};
use super::text::{finish, person, strip_markup};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings, encode_path};
use crate::model::Work;
use crate::net::{HttpReply, HttpRequest, Net};

#[derive(Debug, Clone)]
pub struct UnpaywallClient {
    ep: Endpoint,
}

impl UnpaywallClient {
    pub fn new(net: &Net, settings: SourceSettings) -> UnpaywallClient {
        UnpaywallClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /v2/{doi}?email={mailto}`.
    pub async fn lookup(&self, doi: &str) -> LookupResult {
        let email = self.ep.settings.mailto.clone().ok_or_else(|| {
            SourceError::Config("Unpaywall needs a contact e-mail (CITEPROOF_MAILTO)".into())
        })?;
        let url = self
            .ep
            .url(&format!("/v2/{}", encode_path(doi)), &[("email", &email)])?;
        parse(&self.ep.send(HttpRequest::get(url)).await?)
    }
}

/// The reply to `/v2/{doi}`: a DOI object, or the 404 JSON for an unknown DOI.
pub fn parse(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 => {
            let v = parse_body(reply)?;
            if v.get("doi").is_none() {
                return Err(SourceError::Malformed(
                    "Unpaywall reply without `doi`".into(),
                ));
            }
            Ok(Lookup::Found(work_from_json(&v)))
        }
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// The open-access link of a location: the PDF when known, else the page.
fn location_url(location: Option<&Value>) -> Option<String> {
    let location = location?;
    str_of(location.get("url_for_pdf"))
        .or_else(|| str_of(location.get("url")))
        .or_else(|| str_of(location.get("url_for_landing_page")))
}

/// An Unpaywall DOI object as a [`Work`].
pub fn work_from_json(v: &Value) -> Work {
    let oa_url = location_url(v.get("best_oa_location")).or_else(|| {
        list(v.get("oa_locations"))
            .iter()
            .find_map(|l| location_url(Some(l)))
    });
    let work = Work {
        source: "unpaywall".to_string(),
        title: str_of(v.get("title"))
            .map(|t| strip_markup(&t))
            .unwrap_or_default(),
        authors: list(v.get("z_authors"))
            .iter()
            .filter_map(|a| {
                let s = |k: &str| a.get(k).and_then(Value::as_str);
                person(s("given"), s("family"), s("raw_author_name"))
            })
            .collect(),
        year: year_of(v.get("year")).or_else(|| year_of(v.get("published_date"))),
        venue: str_of(v.get("journal_name")),
        work_type: str_of(v.get("genre")),
        doi: str_of(v.get("doi")),
        url: str_of(v.get("doi_url")),
        oa_url,
        ..Work::default()
    };
    finish(work)
}
