//! Europe PMC REST search: `/webservices/rest/search?query=…&format=json&resultType=core`
//! by `DOI:"…"`, `EXT_ID:… AND SRC:MED`, `PMCID:…` or `TITLE:"…"`. Core results carry
//! abstracts, publication types ("retracted publication"), comments/corrections and
//! full-text links.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::json::{int_of, list, parse_body, status_error, str_of, year_of};
use super::text::{collapse_whitespace, finish, medline_name, person, strip_markup};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings};
use crate::model::{Person, Work};
use crate::net::{HttpReply, HttpRequest, Net};
use crate::parse::ids::{normalize_doi, normalize_pmcid};

#[derive(Debug, Clone)]
pub struct EuropePmcClient {
    ep: Endpoint,
}

impl EuropePmcClient {
    pub fn new(net: &Net, settings: SourceSettings) -> EuropePmcClient {
        EuropePmcClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /webservices/rest/search?query={q}&format=json&resultType=core&pageSize={k}`.
    pub async fn search(&self, query: &str, page_size: usize) -> Result<Vec<Work>, SourceError> {
        let size = page_size.clamp(1, 1000).to_string();
        let url = self.ep.url(
            "/webservices/rest/search",
            &[
                ("query", query),
                ("format", "json"),
                ("resultType", "core"),
                ("pageSize", &size),
            ],
        )?;
        parse_search(&self.ep.send(HttpRequest::get(url)).await?)
    }

    async fn lookup(&self, query: &str, matches: impl Fn(&Work) -> bool) -> LookupResult {
        let works = self.search(query, 5).await?;
        Ok(works
            .into_iter()
            .find(matches)
            .map_or(Lookup::NotFound, Lookup::Found))
    }

    /// `DOI:"…"`.
    pub async fn lookup_doi(&self, doi: &str) -> LookupResult {
        let wanted = normalize_doi(doi).unwrap_or_else(|| doi.to_lowercase());
        self.lookup(&format!("DOI:\"{}\"", doi.replace('"', "")), |w| {
            w.doi.as_deref() == Some(wanted.as_str())
        })
        .await
    }

    /// `EXT_ID:{pmid} AND SRC:MED`.
    pub async fn lookup_pmid(&self, pmid: &str) -> LookupResult {
        let pmid = pmid.trim();
        self.lookup(&format!("EXT_ID:{pmid} AND SRC:MED"), |w| {
            w.pmid.as_deref() == Some(pmid)
        })
        .await
    }

    /// `PMCID:{pmcid}`.
    pub async fn lookup_pmcid(&self, pmcid: &str) -> LookupResult {
        let wanted = normalize_pmcid(pmcid).unwrap_or_else(|| pmcid.to_string());
        self.lookup(&format!("PMCID:{wanted}"), |w| {
            w.pmcid.as_deref() == Some(wanted.as_str())
        })
        .await
    }

    /// `TITLE:"…"`.
    pub async fn search_title(
        &self,
        title: &str,
        page_size: usize,
    ) -> Result<Vec<Work>, SourceError> {
        let phrase = collapse_whitespace(&title.replace(['"', '\\'], " "));
        self.search(&format!("TITLE:\"{phrase}\""), page_size).await
    }
}

/// A search reply: its results (none is a valid answer).
pub fn parse_search(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    if let Some(message) = str_of(v.get("errMsg")) {
        return Err(SourceError::Api(message));
    }
    match v.pointer("/resultList/result") {
        Some(results) => Ok(list(Some(results)).iter().map(work_from_json).collect()),
        None if int_of(v.get("hitCount")) == Some(0) => Ok(Vec::new()),
        None => Err(SourceError::Malformed(
            "Europe PMC reply without resultList".into(),
        )),
    }
}

static HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)<h[1-6][^>]*>(.*?)</h[1-6]>").expect("heading regex"));

/// `<h4>Objective</h4>This study…` → `Objective: This study…`.
fn abstract_text(raw: &str) -> String {
    strip_markup(&HEADING.replace_all(raw, " $1: "))
}

fn pub_types(v: &Value) -> Vec<String> {
    let mut types: Vec<String> = list(v.pointer("/pubTypeList/pubType"))
        .iter()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect();
    if let Some(s) = str_of(v.get("pubType")) {
        types.extend(
            s.split(';')
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty()),
        );
    }
    types
}

fn authors(v: &Value) -> Vec<Person> {
    let listed: Vec<Person> = list(v.pointer("/authorList/author"))
        .iter()
        .filter_map(|a| {
            let s = |k: &str| a.get(k).and_then(Value::as_str);
            match s("collectiveName") {
                Some(c) if s("lastName").is_none() => Some(Person::new(None, &strip_markup(c))),
                _ => person(
                    s("firstName").or(s("initials")),
                    s("lastName"),
                    s("fullName"),
                ),
            }
        })
        .collect();
    if !listed.is_empty() {
        return listed;
    }
    str_of(v.get("authorString"))
        .map(|s| {
            s.trim_end_matches('.')
                .split(", ")
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(medline_name)
                .collect()
        })
        .unwrap_or_default()
}

fn open_access_url(v: &Value) -> Option<String> {
    let links: Vec<&Value> = list(v.pointer("/fullTextUrlList/fullTextUrl"))
        .iter()
        .filter(|l| {
            matches!(
                l.get("availabilityCode").and_then(Value::as_str),
                Some("OA" | "F")
            )
        })
        .collect();
    ["pdf", "html"]
        .iter()
        .find_map(|style| {
            links
                .iter()
                .find(|l| l.get("documentStyle").and_then(Value::as_str) == Some(style))
        })
        .or(links.first())
        .and_then(|l| str_of(l.get("url")))
}

/// A Europe PMC result (core or lite) as a [`Work`].
pub fn work_from_json(v: &Value) -> Work {
    let types = pub_types(v);
    let url = match (str_of(v.get("source")), str_of(v.get("id"))) {
        (Some(src), Some(id)) => Some(format!("https://europepmc.org/article/{src}/{id}")),
        _ => None,
    };
    let mut work = Work {
        source: "europepmc".to_string(),
        title: str_of(v.get("title"))
            .map(|t| strip_markup(&t))
            .unwrap_or_default(),
        authors: authors(v),
        year: year_of(v.get("pubYear"))
            .or_else(|| year_of(v.pointer("/journalInfo/yearOfPublication")))
            .or_else(|| year_of(v.get("firstPublicationDate"))),
        other_years: [
            "/journalInfo/printPublicationDate",
            "/journalInfo/yearOfPublication",
            "/electronicPublicationDate",
            "/firstPublicationDate",
        ]
        .iter()
        .filter_map(|k| year_of(v.pointer(k)))
        .collect(),
        venue: str_of(v.pointer("/journalInfo/journal/title"))
            .or_else(|| str_of(v.get("journalTitle")))
            .or_else(|| str_of(v.pointer("/bookOrReportDetails/publisher"))),
        work_type: types.first().cloned(),
        doi: str_of(v.get("doi")),
        pmid: str_of(v.get("pmid")),
        pmcid: str_of(v.get("pmcid")),
        url,
        abstract_text: str_of(v.get("abstractText")).map(|a| abstract_text(&a)),
        oa_url: open_access_url(v),
        ..Work::default()
    };
    if types
        .iter()
        .any(|t| t.eq_ignore_ascii_case("retracted publication"))
    {
        work.is_retracted = true;
    }
    for c in list(v.pointer("/commentCorrectionList/commentCorrection")) {
        let kind = c
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_ascii_lowercase();
        if kind.starts_with("retraction in") || kind.starts_with("retracted and republished in") {
            work.is_retracted = true;
        } else if kind.starts_with("expression of concern in") {
            work.has_concern = true;
        }
    }
    finish(work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn headings_become_labels() {
        assert_eq!(
            abstract_text("<h4>Objective</h4>We test.<h4>Design</h4>A trial."),
            "Objective: We test. Design: A trial."
        );
    }

    #[test]
    fn retraction_and_concern() {
        let w = work_from_json(
            &json!({"title": "T", "pubType": "retracted publication; journal article"}),
        );
        assert!(w.is_retracted);
        let w = work_from_json(
            &json!({"title": "T", "commentCorrectionList": {"commentCorrection": [{"type": "Expression of concern in"}]}}),
        );
        assert!(w.has_concern && !w.is_retracted);
    }

    #[test]
    fn author_string_fallback() {
        let w = work_from_json(
            &json!({"title": "T", "authorString": "Schoenfeld JD, Haas-Kogan DA, O'Neill AF."}),
        );
        let families: Vec<&str> = w.authors.iter().map(|p| p.family.as_str()).collect();
        assert_eq!(families, ["Schoenfeld", "Haas-Kogan", "O'Neill"]);
    }
}
