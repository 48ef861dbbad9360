//! The articles a RAG pipeline retrieved (the closed world), in MicroTraitLLM's
//! `Article` fields: `pmcid`, `doi`, `title`, `abstract`, `journal`, `year`,
//! `citation_count`, `is_peer_reviewed`, `is_retracted`; also `pmid`, `arxiv`, `url`
//! and `authors` when a pipeline has them. Unknown fields are ignored; values are read
//! leniently (a year or a PMCID written as a number or a string).

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::CleanError;
use crate::model::{IdScheme, Person, Work};
use crate::parse::ids;

/// One retrieved article.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Article {
    #[serde(deserialize_with = "lenient_text")]
    pub pmcid: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub doi: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub pmid: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub arxiv: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub url: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub title: Option<String>,
    #[serde(rename = "abstract", deserialize_with = "lenient_text")]
    pub abstract_text: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub journal: Option<String>,
    #[serde(deserialize_with = "lenient_year")]
    pub year: Option<i32>,
    #[serde(deserialize_with = "lenient_count")]
    pub citation_count: Option<u64>,
    pub is_peer_reviewed: Option<bool>,
    #[serde(deserialize_with = "lenient_bool")]
    pub is_retracted: bool,
    /// Author names as written (`"Jane Smith"`, `"Smith, J."`), for author–year citations.
    #[serde(deserialize_with = "lenient_names")]
    pub authors: Vec<String>,
}

/// An article's identifiers, normalised for comparison.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArticleIds {
    pub doi: Option<String>,
    pub pmcid: Option<String>,
    pub pmid: Option<String>,
    pub arxiv: Option<String>,
    pub url: Option<String>,
}

impl Article {
    /// The identifiers in the forms the reference parsers produce: a bare lowercase
    /// DOI, `PMC` + digits, the PMID's digits, an arXiv id without version.
    pub fn ids(&self) -> ArticleIds {
        let doi = self.doi.as_deref().and_then(ids::normalize_doi);
        let pmcid = self.pmcid.as_deref().and_then(ids::normalize_pmcid);
        let pmid = self.pmid.as_deref().and_then(ids::normalize_pmid);
        let arxiv = self.arxiv.as_deref().and_then(ids::normalize_arxiv);
        let url = self
            .url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .map(str::to_string);
        // An identifier written only inside the URL counts too.
        let from_url = url.as_deref().map(ids_in_url).unwrap_or_default();
        let doi = doi.or(from_url.doi);
        // An arXiv DataCite DOI (`10.48550/arXiv.…`) names the arXiv id too.
        let arxiv_of_doi = doi
            .as_deref()
            .filter(|d| d.starts_with("10.48550/"))
            .and_then(ids::normalize_arxiv);
        ArticleIds {
            doi,
            pmcid: pmcid.or(from_url.pmcid),
            pmid: pmid.or(from_url.pmid),
            arxiv: arxiv.or(from_url.arxiv).or(arxiv_of_doi),
            url,
        }
    }

    /// The article's title, trimmed (empty when it has none).
    pub fn title(&self) -> &str {
        self.title.as_deref().map_or("", str::trim)
    }

    /// The abstract, trimmed (empty when it has none).
    pub fn abstract_text(&self) -> &str {
        self.abstract_text.as_deref().map_or("", str::trim)
    }

    /// The article as a scholarly record (for the LLM backend and the report).
    pub fn to_work(&self) -> Work {
        let ids = self.ids();
        Work {
            source: "sources".into(),
            title: self.title().to_string(),
            authors: self.authors.iter().map(|a| person(a)).collect(),
            year: self.year,
            venue: self.journal.clone(),
            doi: ids.doi,
            arxiv: ids.arxiv,
            pmid: ids.pmid,
            pmcid: ids.pmcid,
            url: ids.url,
            abstract_text: Some(self.abstract_text().to_string()).filter(|a| !a.is_empty()),
            is_retracted: self.is_retracted,
            ..Work::default()
        }
    }
}

/// Read a sources file: a JSON array of articles, or one article per line (JSONL).
/// An error names the line (or the array element) and what was wrong.
pub fn parse_sources(text: &str) -> Result<Vec<Article>, CleanError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let articles: Vec<Article> = if trimmed.starts_with('[') {
        serde_json::from_str(trimmed)
            .map_err(|e| CleanError::Sources(format!("not a JSON array of articles: {e}")))?
    } else {
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let article = serde_json::from_str(line)
                .map_err(|e| CleanError::Sources(format!("line {}: {e}", n + 1)))?;
            out.push(article);
        }
        out
    };
    check_sources(&articles)?;
    Ok(articles)
}

/// Every article needs a title or an identifier to be matched at all.
pub fn check_sources(articles: &[Article]) -> Result<(), CleanError> {
    for (i, a) in articles.iter().enumerate() {
        let ids = a.ids();
        let any_id = ids.doi.is_some()
            || ids.pmcid.is_some()
            || ids.pmid.is_some()
            || ids.arxiv.is_some()
            || ids.url.is_some();
        if a.title().is_empty() && !any_id {
            return Err(CleanError::Sources(format!(
                "source {} has neither a title nor an identifier (doi, pmcid, pmid, arxiv, url)",
                i + 1
            )));
        }
    }
    Ok(())
}

/// The identifier a URL names (doi.org, arXiv, PubMed, PMC, Europe PMC pages).
fn ids_in_url(url: &str) -> ArticleIds {
    let mut out = ArticleIds::default();
    match ids::identifier_from_url(url) {
        Some((IdScheme::Doi, v)) => out.doi = Some(v),
        Some((IdScheme::Pmcid, v)) => out.pmcid = Some(v),
        Some((IdScheme::Pmid, v)) => out.pmid = Some(v),
        Some((IdScheme::Arxiv, v)) => out.arxiv = Some(v),
        _ => {}
    }
    out
}

/// `Jane Smith` or `Smith, Jane` as a person.
fn person(name: &str) -> Person {
    let name = name.trim();
    match name.split_once(',') {
        Some((family, given)) => Person::new(Some(given.trim()), family.trim()),
        None => match name.rsplit_once(' ') {
            Some((given, family)) => Person::new(Some(given.trim()), family.trim()),
            None => Person::new(None, name),
        },
    }
}

/// A string, a number written as text, or nothing (`null`, `""`).
fn lenient_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        Some(serde_json::Value::String(s)) => Some(s).filter(|s| !s.trim().is_empty()),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        Some(serde_json::Value::Null) | None => None,
        Some(other) => {
            return Err(de::Error::custom(format!(
                "expected a string, found {other}"
            )));
        }
    })
}

/// A year as a number, or the first four digits of a date string (`2024 Feb 10`).
fn lenient_year<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        Some(serde_json::Value::Number(n)) => n.as_i64().and_then(|y| i32::try_from(y).ok()),
        Some(serde_json::Value::String(s)) => {
            let digits: String = s.trim().chars().take_while(char::is_ascii_digit).collect();
            (digits.len() == 4).then(|| digits.parse().ok()).flatten()
        }
        Some(serde_json::Value::Null) | None => None,
        Some(other) => return Err(de::Error::custom(format!("expected a year, found {other}"))),
    })
}

/// A non-negative count as a number or a numeric string.
fn lenient_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        Some(serde_json::Value::Number(n)) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64)),
        Some(serde_json::Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    })
}

/// `true`/`false`, `"true"`/`"false"`, 1/0; `null` is false.
fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        Some(serde_json::Value::Bool(b)) => b,
        Some(serde_json::Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(serde_json::Value::String(s)) => {
            matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "yes" | "1")
        }
        Some(serde_json::Value::Null) | None => false,
        Some(other) => {
            return Err(de::Error::custom(format!(
                "expected true or false, found {other}"
            )));
        }
    })
}

/// A list of names, or one string of names separated by `;`.
fn lenient_names<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        Some(serde_json::Value::Array(items)) => items
            .into_iter()
            .filter_map(|v| match v {
                serde_json::Value::String(s) => Some(s),
                serde_json::Value::Object(o) => {
                    let family = o.get("family").and_then(|f| f.as_str())?;
                    let given = o.get("given").and_then(|g| g.as_str()).unwrap_or("");
                    Some(format!("{family}, {given}"))
                }
                _ => None,
            })
            .collect(),
        Some(serde_json::Value::String(s)) => s
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microtrait_articles_and_jsonl_read_leniently() {
        let text = r#"[{"pmcid": "PMC123", "doi": "https://doi.org/10.1038/ABC", "title": "T",
            "abstract": "A", "journal": "J", "year": "2024 Feb 10", "citation_count": 3,
            "is_peer_reviewed": true, "is_retracted": false, "validation_score": 0.4}]"#;
        let a = &parse_sources(text).unwrap()[0];
        assert_eq!(a.year, Some(2024));
        let ids = a.ids();
        assert_eq!(ids.doi.as_deref(), Some("10.1038/abc"));
        assert_eq!(ids.pmcid.as_deref(), Some("PMC123"));
        let lines = "{\"title\": \"One\", \"pmcid\": 456}\n\n{\"doi\": \"10.1234/x\"}\n";
        let got = parse_sources(lines).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].ids().pmcid.as_deref(), Some("PMC456"));
    }

    #[test]
    fn errors_name_the_line_or_the_source() {
        let err = parse_sources("{\"title\": \"x\"}\n{oops}\n").unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
        let err = parse_sources("[{\"journal\": \"J\"}]").unwrap_err();
        assert!(err.to_string().contains("source 1"), "{err}");
        let err = parse_sources("[{\"title\": [1]}]").unwrap_err();
        assert!(err.to_string().contains("expected a string"), "{err}");
    }

    #[test]
    fn identifiers_in_urls_count() {
        let a = Article {
            url: Some("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC8435807/".into()),
            ..Article::default()
        };
        assert_eq!(a.ids().pmcid.as_deref(), Some("PMC8435807"));
    }
}
