//! The ACL Anthology: `GET /{id}.bib`, the BibTeX the Anthology publishes for each
//! paper (`2023.acl-long.123`, or an old-style id such as `P19-1001`). The Anthology
//! has no search API; its titles are searched in the offline index, which imports
//! the Anthology's full BibTeX export (`citeproof index build --acl anthology.bib.gz`).
//!
//! The Anthology is a static site: its "not found" is an HTML 404 page, so a 404 is
//! read as not found whatever its body; a 200 that is not BibTeX is a failure.

use std::sync::LazyLock;

use regex::Regex;

use super::json::{body_is_html, snippet, status_error};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings};
use crate::model::{FileId, Work};
use crate::net::{HttpReply, HttpRequest, Net};

/// New-style (`2023.acl-long.123`, `2020.findings-emnlp.1`) and old-style (`P19-1001`,
/// `W18-5446`) Anthology ids.
static ANTHOLOGY_ID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:[12][0-9]{3}\.[a-z0-9]+(?:-[a-z0-9]+)*\.[0-9]+|[A-Z][0-9]{2}-[0-9]{4})$")
        .expect("anthology id regex")
});

#[derive(Debug, Clone)]
pub struct AclClient {
    ep: Endpoint,
}

impl AclClient {
    pub fn new(net: &Net, settings: SourceSettings) -> AclClient {
        AclClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /{id}.bib`.
    pub async fn lookup(&self, id: &str) -> LookupResult {
        if !is_anthology_id(id) {
            return Err(SourceError::Config(format!(
                "`{id}` is not an ACL Anthology id"
            )));
        }
        let url = self.ep.url(&format!("/{id}.bib"), &[])?;
        parse_bib(&self.ep.send(HttpRequest::get(url)).await?)
    }
}

pub fn is_anthology_id(id: &str) -> bool {
    ANTHOLOGY_ID.is_match(id)
}

/// The Anthology id a cited URL or DOI names: `https://aclanthology.org/2023.acl-long.123`
/// (`.pdf`, `/` and the old `aclweb.org/anthology/` host included) or the DOI
/// `10.18653/v1/2023.acl-long.123`.
pub fn anthology_id_of(text: &str) -> Option<String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .unwrap_or(&lower);
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let start = [
        "aclanthology.org/",
        "aclweb.org/anthology/",
        "doi.org/10.18653/v1/",
        "10.18653/v1/",
    ]
    .iter()
    .find_map(|p| rest.strip_prefix(p))?;
    // The id as written (old-style ids are upper case).
    let offset = t.len() - start.len();
    let id = t[offset..]
        .split(['?', '#'])
        .next()?
        .trim_end_matches('/')
        .trim_end_matches(".pdf")
        .trim_end_matches(".bib");
    let id = if id.len() == 8 && id.as_bytes()[0].is_ascii_lowercase() {
        id.to_ascii_uppercase()
    } else {
        id.to_string()
    };
    is_anthology_id(&id).then_some(id)
}

/// The reply to `/{id}.bib`.
pub fn parse_bib(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 if body_is_html(&reply.body) => Err(SourceError::Malformed(format!(
            "HTML page instead of BibTeX: {}",
            snippet(&reply.body)
        ))),
        200 => {
            let text = String::from_utf8_lossy(&reply.body);
            works_of_bibtex(&text)
                .into_iter()
                .next()
                .map(Lookup::Found)
                .ok_or_else(|| {
                    SourceError::Malformed(format!(
                        "no BibTeX entry with a title: {}",
                        snippet(&reply.body)
                    ))
                })
        }
        404 | 410 => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// Every entry of Anthology BibTeX with a title, as records of the Anthology (one
/// `.bib` page, or the whole `anthology.bib` export).
pub fn works_of_bibtex(text: &str) -> Vec<Work> {
    let parsed = crate::parse::bibtex::parse(FileId(0), text, &Default::default());
    parsed
        .references
        .iter()
        .filter_map(crate::resolve::corpus::work_of_entry)
        .map(|mut w| {
            w.source = "acl".into();
            w
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIB: &str = r#"@inproceedings{touvron-etal-2023-example,
    title = "An Example of {ACL} Anthology {B}ib{T}e{X}",
    author = "Touvron, Hugo  and
      M{\"u}ller, Anna",
    editor = "Rogers, Anna  and
      Boyd-Graber, Jordan",
    booktitle = "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)",
    month = jul,
    year = "2023",
    address = "Toronto, Canada",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2023.acl-long.123",
    doi = "10.18653/v1/2023.acl-long.123",
    pages = "1--10",
}
"#;

    #[test]
    fn anthology_bibtex_is_a_record() {
        let reply = HttpReply::new(200, Some("text/plain; charset=utf-8"), BIB);
        let work = parse_bib(&reply).unwrap().found().unwrap();
        assert_eq!(work.source, "acl");
        assert_eq!(work.title, "An Example of ACL Anthology BibTeX");
        assert_eq!(work.authors.len(), 2);
        assert_eq!(work.authors[1].family, "Müller");
        assert_eq!(work.year, Some(2023));
        assert!(
            work.venue
                .as_deref()
                .unwrap()
                .contains("Computational Linguistics")
        );
        assert_eq!(work.doi.as_deref(), Some("10.18653/v1/2023.acl-long.123"));
    }

    #[test]
    fn not_found_html_and_empty_bodies() {
        let page = HttpReply::new(
            404,
            Some("text/html"),
            "<!DOCTYPE html><html>Not Found</html>",
        );
        assert_eq!(parse_bib(&page).unwrap(), Lookup::NotFound);
        let html = HttpReply::new(200, Some("text/html"), "<html><body>login</body></html>");
        assert!(matches!(parse_bib(&html), Err(SourceError::Malformed(_))));
        let empty = HttpReply::new(200, Some("text/plain"), "");
        assert!(parse_bib(&empty).is_err());
        let down = HttpReply::new(503, Some("text/plain"), "busy");
        assert!(parse_bib(&down).is_err());
    }

    #[test]
    fn ids_from_urls_and_dois() {
        for (text, id) in [
            (
                "https://aclanthology.org/2023.acl-long.123",
                "2023.acl-long.123",
            ),
            (
                "https://aclanthology.org/2023.acl-long.123.pdf",
                "2023.acl-long.123",
            ),
            ("http://www.aclweb.org/anthology/P19-1001/", "P19-1001"),
            ("https://aclanthology.org/p19-1001", "P19-1001"),
            ("10.18653/v1/2020.findings-emnlp.1", "2020.findings-emnlp.1"),
            ("https://doi.org/10.18653/v1/N19-1423", "N19-1423"),
        ] {
            assert_eq!(anthology_id_of(text).as_deref(), Some(id), "{text}");
        }
        assert_eq!(
            anthology_id_of("https://aclanthology.org/events/acl-2023/"),
            None
        );
        assert_eq!(
            anthology_id_of("https://example.org/2023.acl-long.123"),
            None
        );
        assert!(!is_anthology_id("../etc/passwd"));
    }
}
