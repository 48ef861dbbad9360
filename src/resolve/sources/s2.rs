//! Semantic Scholar Graph API v1: `/paper/{DOI:…|ARXIV:…|PMID:…|PMCID:…}`,
//! `POST /paper/batch` (at most 500 ids; `null` for an unknown id), `/paper/search/match`
//! (404 "Title match not found") and `/paper/search`. The key goes in `x-api-key`.
//! Its 429 carries no Retry-After, so the network layer's backoff applies.

use futures::future::join_all;
use serde_json::{Value, json};

use super::json::{first_str, is_html, list, parse_body, status_error, str_of, year_of};
use super::text::{finish, split_name, strip_markup};
use super::{
    BatchResult, ChunkAnswers, Endpoint, Lookup, LookupResult, SourceError, SourceSettings,
    encode_path, fail_all, in_order,
};
use crate::model::{IdScheme, Work};
use crate::net::{HttpReply, HttpRequest, Net};

/// The paper fields requested everywhere.
pub const FIELDS: &str = "paperId,externalIds,title,abstract,venue,publicationVenue,year,publicationDate,journal,publicationTypes,authors,url,isOpenAccess,openAccessPdf";
/// The API's maximum number of ids per batch request.
pub const MAX_BATCH: usize = 500;

/// The S2 paper id for an identifier (`DOI:10.1/x`, `ARXIV:1706.03762`, `PMID:123`,
/// `PMCID:2323736`); `None` for schemes S2 does not look up.
pub fn paper_id(scheme: IdScheme, value: &str) -> Option<String> {
    match scheme {
        IdScheme::Doi => Some(format!("DOI:{value}")),
        IdScheme::Arxiv => Some(format!("ARXIV:{value}")),
        IdScheme::Pmid => Some(format!("PMID:{value}")),
        IdScheme::Pmcid => {
            let digits = value.trim_start_matches("PMC").trim_start_matches("pmc");
            Some(format!("PMCID:{digits}"))
        }
        IdScheme::Isbn | IdScheme::Url => None,
    }
}

#[derive(Debug, Clone)]
pub struct S2Client {
    ep: Endpoint,
    pub batch_size: usize,
}

impl S2Client {
    pub fn new(net: &Net, settings: SourceSettings) -> S2Client {
        S2Client {
            ep: Endpoint::new(net, settings),
            batch_size: MAX_BATCH,
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    fn with_key(&self, request: HttpRequest) -> HttpRequest {
        match &self.ep.settings.api_key {
            Some(key) => request.header("x-api-key", key),
            None => request,
        }
    }

    /// `GET /graph/v1/paper/{id}?fields=…` for an identifier.
    pub async fn lookup(&self, scheme: IdScheme, value: &str) -> LookupResult {
        let id = paper_id(scheme, value).ok_or_else(|| {
            SourceError::Config(format!(
                "Semantic Scholar cannot look up {}",
                scheme.prefix()
            ))
        })?;
        // The `DOI:` prefix stays readable; the identifier itself is percent-encoded.
        let (prefix, rest) = id.split_once(':').unwrap_or(("", &id));
        let path = format!("/graph/v1/paper/{prefix}:{}", encode_path(rest));
        let url = self.ep.url(&path, &[("fields", FIELDS)])?;
        parse_paper(&self.ep.send(self.with_key(HttpRequest::get(url))).await?)
    }

    /// `POST /graph/v1/paper/batch?fields=…` with `{"ids": […]}` (ids as [`paper_id`]
    /// writes them), at most 500 per request.
    pub async fn lookup_batch(&self, ids: &[String]) -> BatchResult {
        let size = self.batch_size.clamp(1, MAX_BATCH);
        let chunks: Vec<Vec<&String>> = ids.chunks(size).map(|c| c.iter().collect()).collect();
        let answers = join_all(chunks.into_iter().map(|c| self.batch_chunk(c))).await;
        in_order(ids, answers)
    }

    async fn batch_chunk(&self, chunk: Vec<&String>) -> ChunkAnswers {
        let outcome = async {
            let url = self
                .ep
                .url("/graph/v1/paper/batch", &[("fields", FIELDS)])?;
            let request = HttpRequest::post_json(url, &json!({ "ids": chunk }));
            parse_batch(&self.ep.send(self.with_key(request)).await?, chunk.len())
        }
        .await;
        match outcome {
            Ok(papers) => chunk
                .iter()
                .zip(papers)
                .map(|(id, paper)| {
                    (
                        (*id).clone(),
                        Ok(paper.map_or(Lookup::NotFound, Lookup::Found)),
                    )
                })
                .collect(),
            Err(e) => fail_all(&chunk, &e),
        }
    }

    /// `GET /graph/v1/paper/search/match?query=…&fields=…`: the single best title match.
    pub async fn match_title(&self, title: &str) -> LookupResult {
        let url = self.ep.url(
            "/graph/v1/paper/search/match",
            &[("query", title), ("fields", FIELDS)],
        )?;
        parse_match(&self.ep.send(self.with_key(HttpRequest::get(url))).await?)
    }

    /// `GET /graph/v1/paper/search?query=…&limit=…&fields=…`.
    pub async fn search(&self, query: &str, limit: usize) -> Result<Vec<Work>, SourceError> {
        let limit = limit.clamp(1, 100).to_string();
        let url = self.ep.url(
            "/graph/v1/paper/search",
            &[("query", query), ("limit", &limit), ("fields", FIELDS)],
        )?;
        parse_search(&self.ep.send(self.with_key(HttpRequest::get(url))).await?)
    }
}

fn paper_or_error(v: &Value) -> Result<Work, SourceError> {
    if v.get("paperId").and_then(Value::as_str).is_none() {
        return Err(SourceError::Malformed(
            "Semantic Scholar paper without `paperId`".into(),
        ));
    }
    Ok(work_from_json(v))
}

/// The reply to `/paper/{id}`.
pub fn parse_paper(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 => Ok(Lookup::Found(paper_or_error(&parse_body(reply)?)?)),
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// The reply to `/paper/batch`: one slot per id asked, `None` where S2 has no paper.
pub fn parse_batch(reply: &HttpReply, expected: usize) -> Result<Vec<Option<Work>>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let slots = v.as_array().ok_or_else(|| {
        SourceError::Malformed("Semantic Scholar batch reply is not a list".into())
    })?;
    if slots.len() != expected {
        return Err(SourceError::Malformed(format!(
            "Semantic Scholar batch returned {} slots for {expected} ids",
            slots.len()
        )));
    }
    slots
        .iter()
        .map(|slot| match slot {
            Value::Null => Ok(None),
            paper => paper_or_error(paper).map(Some),
        })
        .collect()
}

/// The reply to `/paper/search`: `{"total", "offset", "data": […]}` (no `data` when empty).
pub fn parse_search(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    if v.get("data").is_none() && v.get("total").is_none() {
        return Err(SourceError::Malformed(
            "Semantic Scholar search reply without `data`".into(),
        ));
    }
    list(v.get("data")).iter().map(paper_or_error).collect()
}

/// The reply to `/paper/search/match`: `{"data": [paper]}`, or 404 "Title match not found".
pub fn parse_match(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 => {
            let v = parse_body(reply)?;
            match list(v.get("data")).first() {
                Some(paper) => Ok(Lookup::Found(paper_or_error(paper)?)),
                None if v.get("data").is_some() => Ok(Lookup::NotFound),
                None => Err(SourceError::Malformed(
                    "title match reply without `data`".into(),
                )),
            }
        }
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// A Semantic Scholar paper object as a [`Work`].
pub fn work_from_json(v: &Value) -> Work {
    let ext = |k: &str| str_of(v.pointer(&format!("/externalIds/{k}")));
    let venue = str_of(v.get("venue"))
        .or_else(|| str_of(v.pointer("/journal/name")))
        .or_else(|| str_of(v.pointer("/publicationVenue/name")));
    let work = Work {
        source: "s2".to_string(),
        title: str_of(v.get("title"))
            .map(|t| strip_markup(&t))
            .unwrap_or_default(),
        authors: list(v.get("authors"))
            .iter()
            .filter_map(|a| str_of(a.get("name")))
            .map(|n| split_name(&n))
            .collect(),
        year: year_of(v.get("year")).or_else(|| year_of(v.get("publicationDate"))),
        venue,
        work_type: first_str(v.get("publicationTypes")),
        doi: ext("DOI"),
        arxiv: ext("ArXiv"),
        pmid: ext("PubMed"),
        pmcid: ext("PubMedCentral"),
        url: str_of(v.get("url")),
        abstract_text: str_of(v.get("abstract")),
        is_retracted: false,
        has_concern: false,
        oa_url: str_of(v.pointer("/openAccessPdf/url")),
        // `year` and `publicationDate` disagree for some articles published online
        // in one year and in an issue the next.
        other_years: year_of(v.get("publicationDate")).into_iter().collect(),
        authors_truncated: false,
        ..Work::default()
    };
    finish(work)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_ids() {
        assert_eq!(
            paper_id(IdScheme::Pmcid, "PMC2323736").as_deref(),
            Some("PMCID:2323736")
        );
        assert_eq!(
            paper_id(IdScheme::Arxiv, "1706.03762").as_deref(),
            Some("ARXIV:1706.03762")
        );
        assert_eq!(paper_id(IdScheme::Isbn, "9780262035613"), None);
    }

    #[test]
    fn batch_slot_count_must_match() {
        let reply = HttpReply::new(200, Some("application/json"), "[null]");
        assert!(matches!(
            parse_batch(&reply, 2),
            Err(SourceError::Malformed(_))
        ));
        assert_eq!(parse_batch(&reply, 1).unwrap(), vec![None]);
    }
}
