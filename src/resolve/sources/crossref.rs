//! Crossref REST API: `/works/{doi}`, `filter=doi:a,doi:b` batches, `query.bibliographic`
//! search, the registration agency of a DOI, and the notices that update a DOI.
//! Retractions and expressions of concern come from `updated-by` (publisher or
//! Retraction Watch), `update-to` and `relation`, and from `RETRACTED:` title prefixes.

use std::sync::LazyLock;

use futures::future::join_all;

use regex::Regex;
use serde_json::Value;

use super::json::{date_parts_year, first_str, is_html, list, parse_body, status_error, str_of};
use super::text::{finish, person, strip_markup};
use super::{
    BatchResult, ChunkAnswers, Endpoint, Lookup, LookupResult, SourceError, SourceSettings,
    batches, doi_key, encode_path, fail_all, in_order, match_ids,
};
use crate::model::{Person, Work};
use crate::net::{HttpReply, HttpRequest, Net};
use crate::parse::ids::normalize_doi;

/// DOIs per `filter=doi:` request.
pub const DEFAULT_BATCH_SIZE: usize = 20;

#[derive(Debug, Clone)]
pub struct CrossrefClient {
    ep: Endpoint,
    pub batch_size: usize,
}

impl CrossrefClient {
    pub fn new(net: &Net, settings: SourceSettings) -> CrossrefClient {
        CrossrefClient {
            ep: Endpoint::new(net, settings),
            batch_size: DEFAULT_BATCH_SIZE,
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    fn request(&self, path: &str, query: &[(&str, &str)]) -> Result<HttpRequest, SourceError> {
        let mut query = query.to_vec();
        if let Some(mailto) = &self.ep.settings.mailto {
            query.push(("mailto", mailto));
        }
        let mut request = HttpRequest::get(self.ep.url(path, &query)?);
        if let Some(token) = &self.ep.settings.api_key {
            request = request.header("Crossref-Plus-API-Token", &format!("Bearer {token}"));
        }
        Ok(request)
    }

    /// `GET /works/{doi}`.
    pub async fn lookup_doi(&self, doi: &str) -> LookupResult {
        let request = self.request(&format!("/works/{}", encode_path(doi)), &[])?;
        parse_work(&self.ep.send(request).await?)
    }

    /// `GET /works?filter=doi:a,doi:b&rows=n`, in batches of [`Self::batch_size`]. A
    /// batch the API rejects (4xx) is retried one DOI at a time.
    pub async fn lookup_dois(&self, dois: &[String]) -> BatchResult {
        let chunks = batches(dois, self.batch_size, &[',']);
        let answers = join_all(chunks.into_iter().map(|c| self.lookup_chunk(c))).await;
        in_order(dois, answers)
    }

    async fn lookup_chunk(&self, chunk: Vec<&String>) -> ChunkAnswers {
        // One DOI (or one the filter syntax cannot carry) goes to the single-work path.
        if let [doi] = chunk.as_slice() {
            return vec![((*doi).clone(), self.lookup_doi(doi).await)];
        }
        let filter = chunk
            .iter()
            .map(|d| format!("doi:{d}"))
            .collect::<Vec<_>>()
            .join(",");
        let rows = chunk.len().to_string();
        let outcome = async {
            let request = self.request("/works", &[("filter", &filter), ("rows", &rows)])?;
            parse_list(&self.ep.send(request).await?)
        }
        .await;
        match outcome {
            Ok(works) => match_ids(&chunk, works, doi_key, |w| w.doi.clone()),
            Err(SourceError::Status { status, .. })
                if (400..500).contains(&status) && status != 429 =>
            {
                let singles = chunk
                    .iter()
                    .map(|d| async move { ((*d).clone(), self.lookup_doi(d).await) });
                join_all(singles).await
            }
            Err(e) => fail_all(&chunk, &e),
        }
    }

    /// `GET /works?query.bibliographic={q}&rows={k}`: best matches first.
    pub async fn search(&self, query: &str, rows: usize) -> Result<Vec<Work>, SourceError> {
        let rows = rows.clamp(1, 1000).to_string();
        let request = self.request("/works", &[("query.bibliographic", query), ("rows", &rows)])?;
        parse_list(&self.ep.send(request).await?)
    }

    /// `GET /works/{doi}/agency`: the registration agency (`crossref`, `datacite`, `medra` …).
    pub async fn agency(&self, doi: &str) -> Result<Lookup<String>, SourceError> {
        let request = self.request(&format!("/works/{}/agency", encode_path(doi)), &[])?;
        parse_agency(&self.ep.send(request).await?)
    }

    /// `GET /works?filter=updates:{doi}`: notices (retractions, corrections, expressions
    /// of concern) that update `doi`.
    pub async fn updates_for(&self, doi: &str) -> Result<Vec<Work>, SourceError> {
        let filter = format!("updates:{doi}");
        let request = self.request("/works", &[("filter", &filter), ("rows", "20")])?;
        parse_list(&self.ep.send(request).await?)
    }
}

fn message<'a>(v: &'a Value, kind: &str) -> Result<&'a Value, SourceError> {
    let found_kind = v.get("message-type").and_then(Value::as_str).unwrap_or("");
    if v.get("status").and_then(Value::as_str) != Some("ok") || found_kind != kind {
        return Err(SourceError::Malformed(format!(
            "expected a Crossref `{kind}` message, got `{found_kind}`"
        )));
    }
    v.get("message")
        .ok_or_else(|| SourceError::Malformed("Crossref reply without `message`".into()))
}

/// The reply to `/works/{doi}`: a work, or the 404 "Resource not found.".
pub fn parse_work(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 => {
            let v = parse_body(reply)?;
            Ok(Lookup::Found(work_from_json(
                message(&v, "work")?,
                "crossref",
            )))
        }
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// The reply to a `/works?…` query: its items (none is a valid answer).
pub fn parse_list(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let items = list(message(&v, "work-list")?.get("items"));
    let mut works: Vec<Work> = items
        .iter()
        .map(|i| work_from_json(i, "crossref"))
        .collect();
    // A retraction notice in the same answer names the work it retracts.
    for item in items {
        for (target, flag) in update_to(item) {
            for work in works
                .iter_mut()
                .filter(|w| w.doi.as_deref() == Some(target.as_str()))
            {
                flag.apply(work);
            }
        }
    }
    Ok(works)
}

/// The reply to `/works/{doi}/agency`.
pub fn parse_agency(reply: &HttpReply) -> Result<Lookup<String>, SourceError> {
    match reply.status {
        200 => {
            let v = parse_body(reply)?;
            let agency = message(&v, "work-agency")?
                .pointer("/agency/id")
                .and_then(Value::as_str)
                .ok_or_else(|| SourceError::Malformed("agency reply without agency.id".into()))?;
            Ok(Lookup::Found(agency.to_string()))
        }
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// What an update notice says about the work it updates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateFlag {
    Retracted,
    Concern,
}

impl UpdateFlag {
    /// Crossref update types (`retraction`, `withdrawal`, `expression_of_concern` …).
    pub fn from_type(kind: &str) -> Option<UpdateFlag> {
        let kind = kind.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        match kind.as_str() {
            "retraction" | "withdrawal" | "removal" | "retracted" => Some(UpdateFlag::Retracted),
            "expression_of_concern" | "partial_retraction" => Some(UpdateFlag::Concern),
            _ => None,
        }
    }

    fn apply(self, work: &mut Work) {
        match self {
            UpdateFlag::Retracted => work.is_retracted = true,
            UpdateFlag::Concern => work.has_concern = true,
        }
    }
}

fn entry_flag(entry: &Value) -> Option<UpdateFlag> {
    entry
        .get("type")
        .and_then(Value::as_str)
        .and_then(UpdateFlag::from_type)
        .or_else(|| {
            entry
                .get("label")
                .and_then(Value::as_str)
                .and_then(UpdateFlag::from_type)
        })
}

/// The `update-to` entries of a notice: (updated DOI, what it says).
pub fn update_to(v: &Value) -> Vec<(String, UpdateFlag)> {
    list(v.get("update-to"))
        .iter()
        .filter_map(|e| {
            let doi = e
                .get("DOI")
                .and_then(Value::as_str)
                .and_then(normalize_doi)?;
            Some((doi, entry_flag(e)?))
        })
        .collect()
}

/// Retraction and concern flags a record carries about itself.
fn own_flags(v: &Value, own_doi: Option<&str>) -> Vec<UpdateFlag> {
    let mut flags: Vec<UpdateFlag> = list(v.get("updated-by"))
        .iter()
        .filter_map(entry_flag)
        .collect();
    // Some publishers turn the original record into the notice (update-to itself).
    flags.extend(
        update_to(v)
            .into_iter()
            .filter(|(doi, _)| Some(doi.as_str()) == own_doi)
            .map(|(_, f)| f),
    );
    if let Some(relation) = v.get("relation").and_then(Value::as_object) {
        for key in relation.keys() {
            let key = key.to_ascii_lowercase();
            if key.contains("retracted-by") || key.contains("is-retracted") {
                flags.push(UpdateFlag::Retracted);
            } else if key.contains("concern") {
                flags.push(UpdateFlag::Concern);
            }
        }
    }
    flags
}

static ABSTRACT_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)^\s*<(?:jats:)?title>\s*(?:abstract|summary)\s*</(?:jats:)?title>")
        .expect("abstract heading regex")
});

/// A Crossref work or a CSL-JSON item (same field names; lists or strings) as a [`Work`].
pub fn work_from_json(v: &Value, source: &str) -> Work {
    let title = first_str(v.get("title"))
        .map(|t| strip_markup(&t))
        .unwrap_or_default();
    let authors = list(v.get("author"))
        .iter()
        .filter_map(|a| {
            let s = |k: &str| a.get(k).and_then(Value::as_str);
            match (s("given"), s("family")) {
                // `name` (Crossref) and `literal` (CSL) hold organisations.
                (None, None) => s("name")
                    .or(s("literal"))
                    .map(strip_markup)
                    .filter(|n| !n.is_empty())
                    .map(|n| Person::new(None, &n)),
                (given, family) => person(given, family, None),
            }
        })
        .collect();
    // `published` is the earliest of print and online; an online-first article cited
    // by its print year is cited rightly, so every date is kept.
    let years: Vec<i32> = [
        "/published",
        "/issued",
        "/published-print",
        "/published-online",
        "/posted",
        "/journal-issue/published-print",
        "/journal-issue/published-online",
    ]
    .iter()
    .filter_map(|k| date_parts_year(v.pointer(k)))
    .collect();
    let year = years.first().copied();
    let venue = first_str(v.get("container-title"))
        .or_else(|| first_str(v.get("group-title")))
        .or_else(|| {
            list(v.get("institution"))
                .iter()
                .find_map(|i| str_of(i.get("name")))
        })
        .or_else(|| {
            v.pointer("/event/name")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .map(|t| strip_markup(&t));
    let doi = str_of(v.get("DOI")).and_then(|d| normalize_doi(&d));
    let abstract_text = str_of(v.get("abstract"))
        .map(|a| strip_markup(&ABSTRACT_HEADING.replace(&a, "")))
        .filter(|a| !a.is_empty());
    let url = v
        .pointer("/resource/primary/URL")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| str_of(v.get("URL")));
    let mut work = Work {
        source: source.to_string(),
        title,
        authors,
        year,
        venue,
        work_type: str_of(v.get("type")),
        doi,
        url,
        abstract_text,
        other_years: years,
        ..Work::default()
    };
    for flag in own_flags(v, work.doi.as_deref()) {
        flag.apply(&mut work);
    }
    finish(work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn retraction_watch_update_marks_the_work() {
        let v = json!({"DOI": "10.1000/A", "title": ["T"], "updated-by": [
            {"DOI": "10.1000/notice", "type": "retraction", "source": "retraction-watch", "record-id": 1}
        ]});
        let w = work_from_json(&v, "crossref");
        assert!(w.is_retracted && !w.has_concern);
        assert_eq!(w.doi.as_deref(), Some("10.1000/a"));
    }

    #[test]
    fn corrections_do_not_mark_and_concern_is_separate() {
        let v = json!({"title": "T", "updated-by": [{"type": "correction"}, {"type": "expression_of_concern"}]});
        let w = work_from_json(&v, "doi");
        assert!(!w.is_retracted && w.has_concern);
    }

    #[test]
    fn self_update_to_and_notice_in_list() {
        let v = json!({"DOI": "10.1000/x", "title": ["T"], "update-to": [{"DOI": "10.1000/X", "type": "retraction"}]});
        assert!(work_from_json(&v, "crossref").is_retracted);
        let body = json!({"status": "ok", "message-type": "work-list", "message": {"items": [
            {"DOI": "10.1000/orig", "title": ["Original"]},
            {"DOI": "10.1000/notice", "title": ["Retraction notice"], "update-to": [{"DOI": "10.1000/orig", "type": "retraction"}]}
        ]}});
        let works = parse_list(&HttpReply::new(
            200,
            Some("application/json"),
            body.to_string(),
        ))
        .unwrap();
        assert!(works[0].is_retracted);
        assert!(!works[1].is_retracted);
    }

    #[test]
    fn jats_abstract_heading_dropped() {
        let v = json!({"title": ["T"], "abstract": "<jats:title>Abstract</jats:title><jats:p>We show <jats:italic>x</jats:italic>.</jats:p>"});
        assert_eq!(
            work_from_json(&v, "crossref").abstract_text.as_deref(),
            Some("We show x.")
        );
    }
}
