//! DataCite REST API: `GET /dois/{doi}` (JSON:API; 404 = not found). arXiv DOIs
//! (`10.48550/arXiv.*`), Zenodo, figshare and most dataset DOIs live here.

use serde_json::Value;

use super::json::{is_html, list, parse_body, status_error, str_of, year_of};
use super::text::{finish, person, split_name, strip_markup};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings, encode_path};
use crate::model::{Person, Work};
use crate::net::{HttpReply, HttpRequest, Net};
use crate::parse::ids::normalize_arxiv;

#[derive(Debug, Clone)]
pub struct DataCiteClient {
    ep: Endpoint,
}

impl DataCiteClient {
    pub fn new(net: &Net, settings: SourceSettings) -> DataCiteClient {
        DataCiteClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /dois?query=titles.title:(…)`: records whose titles share the words, best
    /// first (theses, reports, datasets and software in repositories).
    pub async fn search(&self, title: &str, rows: usize) -> Result<Vec<Work>, SourceError> {
        let words: Vec<String> = title
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() > 2)
            .map(str::to_lowercase)
            .take(12)
            .collect();
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let query = format!("titles.title:({})", words.join(" "));
        let size = rows.to_string();
        let url = self.ep.url(
            "/dois",
            &[("query", query.as_str()), ("page[size]", size.as_str())],
        )?;
        parse_search(&self.ep.send(HttpRequest::get(url)).await?)
    }

    /// `GET /dois/{doi}`.
    pub async fn lookup(&self, doi: &str) -> LookupResult {
        let url = self.ep.url(&format!("/dois/{}", encode_path(doi)), &[])?;
        parse_doi(&self.ep.send(HttpRequest::get(url)).await?)
    }
}

/// The reply to `/dois/{doi}`.
pub fn parse_doi(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 => {
            let v = parse_body(reply)?;
            let data = v
                .get("data")
                .filter(|d| d.get("attributes").is_some())
                .ok_or_else(|| {
                    SourceError::Malformed("DataCite reply without data.attributes".into())
                })?;
            Ok(Lookup::Found(work_from_json(data)))
        }
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// The reply to `/dois?query=…`: a JSON:API list.
pub fn parse_search(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let data = v
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| SourceError::Malformed("DataCite search reply without data".into()))?;
    Ok(data.iter().map(work_from_json).collect())
}

fn creator(c: &Value) -> Option<Person> {
    let s = |k: &str| c.get(k).and_then(Value::as_str);
    let name = s("name").map(strip_markup).filter(|n| !n.is_empty());
    if s("nameType") == Some("Organizational") {
        return name.map(|n| Person::new(None, &n));
    }
    if s("familyName").is_some() {
        return person(s("givenName"), s("familyName"), s("name"));
    }
    name.map(|n| split_name(&n))
}

/// A JSON:API `data` object of type `dois` as a [`Work`].
pub fn work_from_json(data: &Value) -> Work {
    let attrs = data.get("attributes").unwrap_or(&Value::Null);
    let titles = list(attrs.get("titles"));
    let title = titles
        .iter()
        .find(|t| t.get("titleType").is_none_or(Value::is_null))
        .or(titles.first())
        .and_then(|t| str_of(t.get("title")))
        .map(|t| strip_markup(&t))
        .unwrap_or_default();
    let publisher = match attrs.get("publisher") {
        Some(Value::Object(p)) => str_of(p.get("name")),
        other => str_of(other),
    };
    let abstract_text = list(attrs.get("descriptions"))
        .iter()
        .filter(|d| d.get("descriptionType").and_then(Value::as_str) == Some("Abstract"))
        .find_map(|d| str_of(d.get("description")))
        .map(|d| strip_markup(&d));
    let issued = list(attrs.get("dates"))
        .iter()
        .find(|d| d.get("dateType").and_then(Value::as_str) == Some("Issued"))
        .and_then(|d| year_of(d.get("date")));
    let arxiv = list(attrs.get("relatedIdentifiers"))
        .iter()
        .filter(|r| r.get("relatedIdentifierType").and_then(Value::as_str) == Some("arXiv"))
        .find_map(|r| {
            r.get("relatedIdentifier")
                .and_then(Value::as_str)
                .and_then(normalize_arxiv)
        });
    let work = Work {
        source: "datacite".to_string(),
        title,
        authors: list(attrs.get("creators"))
            .iter()
            .filter_map(creator)
            .collect(),
        year: year_of(attrs.get("publicationYear")).or(issued),
        venue: str_of(attrs.pointer("/container/title")).or(publisher),
        work_type: str_of(attrs.pointer("/types/resourceTypeGeneral"))
            .or_else(|| str_of(attrs.pointer("/types/resourceType"))),
        doi: str_of(attrs.get("doi")).or_else(|| str_of(data.get("id"))),
        arxiv,
        url: str_of(attrs.get("url")),
        abstract_text,
        ..Work::default()
    };
    finish(work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn organisations_publisher_objects_and_typed_titles() {
        let data = json!({"id": "10.5281/zenodo.1", "attributes": {
            "titles": [{"title": "Sub", "titleType": "Subtitle"}, {"title": "Main"}],
            "creators": [{"name": "CERN", "nameType": "Organizational"}, {"name": "Doe, Jane", "nameType": "Personal"}],
            "publisher": {"name": "Zenodo"}, "publicationYear": "2020"}});
        let w = work_from_json(&data);
        assert_eq!(w.title, "Main");
        assert_eq!(
            w.authors,
            vec![Person::new(None, "CERN"), Person::new(Some("Jane"), "Doe")]
        );
        assert_eq!(w.venue.as_deref(), Some("Zenodo"));
        assert_eq!(w.year, Some(2020));
        assert_eq!(w.doi.as_deref(), Some("10.5281/zenodo.1"));
    }
}
