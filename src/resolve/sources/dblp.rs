//! DBLP's publication search: `GET /search/publ/api?q=…&format=json&h=N`. Hits carry
//! DBLP's venue keys (`ICLR`, `NeurIPS`, `CoRR`), record keys (`conf/nips/VaswaniSPUJGKP17`)
//! and homonym-numbered author names (`Wei Wang 0001`), whose numbers are dropped.
//! No hit at all is an answer (the result has no `hit` list), not a failure.

use serde_json::Value;

use super::json::{parse_body, status_error, str_of};
use super::text::{decode_entities, finish, split_name};
use super::{Endpoint, SourceError, SourceSettings};
use crate::model::{IdScheme, Work};
use crate::net::{HttpReply, HttpRequest, Net};
use crate::parse::ids::{identifier_from_url, normalize_arxiv};

#[derive(Debug, Clone)]
pub struct DblpClient {
    ep: Endpoint,
}

impl DblpClient {
    pub fn new(net: &Net, settings: SourceSettings) -> DblpClient {
        DblpClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /search/publ/api?q=TITLE&format=json&h=ROWS`: publications whose titles
    /// share the words, best first.
    pub async fn search(&self, title: &str, rows: usize) -> Result<Vec<Work>, SourceError> {
        let query = search_terms(title);
        if query.is_empty() {
            return Ok(Vec::new());
        }
        let rows = rows.to_string();
        let url = self.ep.url(
            "/search/publ/api",
            &[
                ("q", query.as_str()),
                ("format", "json"),
                ("h", rows.as_str()),
            ],
        )?;
        parse_search(&self.ep.send(HttpRequest::get(url)).await?)
    }
}

/// DBLP's search treats `-`, `|` and `$` as operators: a title is asked as its words.
fn search_terms(title: &str) -> String {
    title
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The reply to `/search/publ/api?…&format=json`.
pub fn parse_search(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let result = v
        .get("result")
        .ok_or_else(|| SourceError::Malformed("DBLP reply without result".into()))?;
    let code = str_of(result.pointer("/status/@code"));
    if code.as_deref().is_some_and(|c| c != "200") {
        let text = str_of(result.pointer("/status/text")).unwrap_or_default();
        return Err(SourceError::Api(format!(
            "DBLP status {}: {text}",
            code.unwrap_or_default()
        )));
    }
    let hits = result
        .get("hits")
        .ok_or_else(|| SourceError::Malformed("DBLP reply without hits".into()))?;
    Ok(one_or_many(hits.get("hit"))
        .into_iter()
        .filter_map(|hit| hit.get("info"))
        .filter_map(work_from_info)
        .collect())
}

/// DBLP's JSON writes a single child as an object and several as an array.
fn one_or_many(v: Option<&Value>) -> Vec<&Value> {
    match v {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(Value::Null) | None => Vec::new(),
        Some(one) => vec![one],
    }
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(_) => str_of(v.get("text")),
        _ => None,
    }
}

/// One hit's `info` object as a [`Work`].
pub fn work_from_info(info: &Value) -> Option<Work> {
    let title = decode_entities(&str_of(info.get("title"))?);
    let title = title.trim().trim_end_matches('.').to_string();
    if title.is_empty() {
        return None;
    }
    let authors = one_or_many(info.pointer("/authors/author"))
        .into_iter()
        .filter_map(text_of)
        .map(|name| split_name(&without_homonym_number(&decode_entities(&name))))
        .collect();
    let venue = one_or_many(info.get("venue"))
        .into_iter()
        .filter_map(text_of)
        .next();
    let key = str_of(info.get("key"));
    let mut work = Work {
        source: "dblp".into(),
        title,
        authors,
        year: str_of(info.get("year")).and_then(|y| y.trim().parse().ok()),
        venue,
        work_type: str_of(info.get("type")),
        doi: str_of(info.get("doi")),
        url: str_of(info.get("url"))
            .or_else(|| key.as_ref().map(|k| format!("https://dblp.org/rec/{k}"))),
        ..Work::default()
    };
    for link in one_or_many(info.get("ee")).into_iter().filter_map(text_of) {
        match identifier_from_url(&link) {
            Some((IdScheme::Doi, doi)) if work.doi.is_none() => work.doi = Some(doi),
            Some((IdScheme::Arxiv, id)) if work.arxiv.is_none() => work.arxiv = Some(id),
            _ => {}
        }
    }
    if work.arxiv.is_none() {
        work.arxiv = key.as_deref().and_then(corr_arxiv);
    }
    Some(finish(work))
}

/// `Jiani Zhang 0003` → `Jiani Zhang` (DBLP numbers homonyms).
pub fn without_homonym_number(name: &str) -> String {
    let name = name.trim();
    match name.rsplit_once(' ') {
        Some((rest, n)) if n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()) => rest.into(),
        _ => name.into(),
    }
}

/// `journals/corr/abs-2402-17944` → `2402.17944`.
pub fn corr_arxiv(key: &str) -> Option<String> {
    let tail = key.strip_prefix("journals/corr/abs-")?;
    let (yymm, number) = tail.split_once('-')?;
    normalize_arxiv(&format!("{yymm}.{number}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn homonym_numbers_and_corr_keys() {
        assert_eq!(without_homonym_number("Jiani Zhang 0003"), "Jiani Zhang");
        assert_eq!(without_homonym_number("Ada Lovelace"), "Ada Lovelace");
        assert_eq!(
            corr_arxiv("journals/corr/abs-2402-17944").as_deref(),
            Some("2402.17944")
        );
        assert_eq!(corr_arxiv("conf/nips/X20"), None);
    }
    use crate::model::Person;

    fn reply(body: &str) -> HttpReply {
        HttpReply::new(200, Some("application/json"), body)
    }

    #[test]
    fn hits_with_homonym_numbers_single_authors_and_corr_keys() {
        let body = r#"{"result":{"query":"attention","status":{"@code":"200","text":"OK"},
          "hits":{"@total":"2","@sent":"2","@first":"0","hit":[
            {"@score":"9","@id":"1","info":{"authors":{"author":[
                {"@pid":"1","text":"Ashish Vaswani"},{"@pid":"2","text":"Wei Wang 0001"}]},
              "title":"Attention is All you Need.","venue":"NIPS","pages":"5998-6008",
              "year":"2017","type":"Conference and Workshop Papers","key":"conf/nips/VaswaniSPUJGKP17",
              "ee":"https://proceedings.neurips.cc/paper/2017/hash/3f5ee243547dee91fbd053c1c4a845aa-Abstract.html",
              "url":"https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17"}},
            {"@score":"8","@id":"2","info":{"authors":{"author":{"@pid":"3","text":"Jane Roe 0002"}},
              "title":"Attention Is All You Need.","venue":"CoRR","volume":"abs/1706.03762",
              "year":"2017","type":"Informal and Other Publications","key":"journals/corr/VaswaniSPUJGKP17",
              "ee":["https://arxiv.org/abs/1706.03762"],"url":"https://dblp.org/rec/journals/corr/VaswaniSPUJGKP17"}}
          ]}}}"#;
        let works = parse_search(&reply(body)).unwrap();
        assert_eq!(works.len(), 2);
        assert_eq!(works[0].title, "Attention is All you Need");
        assert_eq!(works[0].authors[1], Person::new(Some("Wei"), "Wang"));
        assert_eq!(works[0].venue.as_deref(), Some("NIPS"));
        assert_eq!(works[0].year, Some(2017));
        assert_eq!(works[1].authors, vec![Person::new(Some("Jane"), "Roe")]);
        assert_eq!(works[1].arxiv.as_deref(), Some("1706.03762"));
    }

    #[test]
    fn no_hits_is_an_empty_answer_and_a_bad_status_is_a_failure() {
        let empty = r#"{"result":{"status":{"@code":"200","text":"OK"},"hits":{"@total":"0","@sent":"0"}}}"#;
        assert!(parse_search(&reply(empty)).unwrap().is_empty());
        let bad = r#"{"result":{"status":{"@code":"500","text":"Internal error"},"hits":{}}}"#;
        assert!(matches!(
            parse_search(&reply(bad)),
            Err(SourceError::Api(_))
        ));
        assert!(parse_search(&HttpReply::new(200, Some("text/html"), "<html>")).is_err());
        assert!(parse_search(&HttpReply::new(429, Some("text/plain"), "slow down")).is_err());
    }

    #[test]
    fn operators_are_not_sent() {
        assert_eq!(
            search_terms("Self-attention | GANs: $x$"),
            "Self attention GANs x"
        );
    }
}
