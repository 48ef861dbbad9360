//! The URL fallback: a cited URL that is not an identifier is fetched, and the page's
//! bibliographic metadata read — Highwire `citation_*` meta tags (what Google Scholar
//! reads), Dublin Core `dc.*`, then a schema.org JSON-LD `ScholarlyArticle`. URLs come
//! from documents, so the download goes through the same address guard as full text.

use std::sync::Arc;
use std::time::Duration;

use scraper::{Html, Selector};
use serde_json::Value;
use url::Url;

use crate::cache::Cache;
use crate::model::{Person, Work};
use crate::net::urlpolicy::UrlPolicy;
use crate::net::{HttpRequest, Net, NetError, Rate, RetryPolicy, SourceHandle, SourcePolicy};
use crate::resolve::lookup::Answer;
use crate::resolve::sources::SourcesSettings;
use crate::resolve::sources::text::{finish, split_name, year_in};

/// Source name of landing-page records (and their cache namespace).
pub const LANDING_SOURCE: &str = "landing";

/// Downloads landing pages under the address guard. Cheap to clone.
#[derive(Clone)]
pub struct LandingFetcher {
    http: SourceHandle,
    policy: Arc<UrlPolicy>,
    /// Where cited URLs are fetched through (see [`SourcesSettings::web`]).
    web: Option<String>,
    _net: Arc<Net>,
}

impl LandingFetcher {
    /// A fetcher trusting the configured source base URLs; `allow_private` lets it
    /// reach internal addresses too.
    pub fn new(
        settings: &SourcesSettings,
        allow_private: bool,
        timeout: Duration,
    ) -> Result<LandingFetcher, NetError> {
        let mut policy = settings.url_policy();
        if let Some(web) = &settings.web {
            policy.trust(web);
        }
        policy.allow_private = allow_private;
        let policy = Arc::new(policy);
        let mailto = settings.sources.iter().find_map(|s| s.mailto.clone());
        let net = policy.guarded_net(mailto)?;
        let http = net.source(
            LANDING_SOURCE,
            SourcePolicy {
                rate: Rate::per_second(2),
                max_concurrency: 4,
                timeout,
                retry: RetryPolicy {
                    max_retries: 1,
                    ..RetryPolicy::default()
                },
                max_body_bytes: 8 * 1024 * 1024,
                ..SourcePolicy::default()
            },
        );
        Ok(LandingFetcher {
            http,
            policy,
            web: settings.web.clone(),
            _net: Arc::new(net),
        })
    }

    /// The record a landing page describes: found, not found (no metadata, 404/410),
    /// failed, or offline when not cached.
    pub async fn fetch(&self, url: &str, cache: Option<&Cache>, offline: bool) -> Answer<Work> {
        let key = format!("url:{url}");
        match cache.and_then(|c| c.get_as::<Work>(LANDING_SOURCE, &key).ok().flatten()) {
            Some(cached) => return cached.into(),
            None if offline => return Answer::Offline,
            None => {}
        }
        let answer = self.download(url).await;
        if let (Some(cache), Some(value)) = (cache, answer.to_cached()) {
            let _ = cache.put_as(LANDING_SOURCE, &key, &value);
        }
        answer
    }

    async fn download(&self, url: &str) -> Answer<Work> {
        let parsed = match Url::parse(url) {
            Ok(u) => u,
            Err(e) => return Answer::Failed(format!("not a URL: {e}")),
        };
        let parsed = match self.web.as_deref().filter(|web| !same_host(web, &parsed)) {
            Some(web) => match through(web, &parsed) {
                Some(u) => u,
                None => return Answer::Failed(format!("cannot fetch {url} through {web}")),
            },
            None => parsed,
        };
        if let Err(refusal) = self.policy.check(&parsed).await {
            return Answer::Failed(refusal.to_string());
        }
        let request = HttpRequest::get(parsed).header("accept", "text/html, application/xhtml+xml");
        match self.http.send(&request).await {
            Ok(reply) if reply.status == 200 => {
                let html = reply.text();
                if let Some(wall) = crate::resolve::web_page::bot_wall(&html) {
                    return Answer::Failed(format!("the site answered with {wall}, not the page"));
                }
                match page_work(&html).or_else(|| crate::resolve::web_page::page_as_work(&html)) {
                    Some(mut work) => {
                        work.source = LANDING_SOURCE.into();
                        work.url = Some(url.to_string());
                        Answer::Found(work)
                    }
                    None => Answer::NotFound,
                }
            }
            Ok(reply) if matches!(reply.status, 404 | 410) => Answer::NotFound,
            Ok(reply) => Answer::Failed(format!("HTTP {}", reply.status)),
            Err(e) => Answer::Failed(e.to_string()),
        }
    }
}

/// A URL on the web proxy's own host is fetched as it is.
fn same_host(web: &str, url: &Url) -> bool {
    Url::parse(web).is_ok_and(|w| {
        w.host_str() == url.host_str() && w.port_or_known_default() == url.port_or_known_default()
    })
}

/// `https://host:8080/a/b?c` fetched through `web` as `{web}/https/host:8080/a/b?c`.
fn through(web: &str, url: &Url) -> Option<Url> {
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str()?;
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    let query = url.query().map(|q| format!("?{q}")).unwrap_or_default();
    Url::parse(&format!(
        "{web}/{}/{host}{port}{}{query}",
        url.scheme(),
        url.path()
    ))
    .ok()
}

fn selector(css: &str) -> Selector {
    Selector::parse(css).expect("static selector")
}

/// The work a landing page describes, if it carries a title in its metadata.
pub fn page_work(html: &str) -> Option<Work> {
    let doc = Html::parse_document(html);
    let metas = |name: &str| -> Vec<String> {
        let sel = selector(&format!(
            "meta[name=\"{name}\" i], meta[property=\"{name}\" i]"
        ));
        doc.select(&sel)
            .filter_map(|m| m.value().attr("content"))
            .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|c| !c.is_empty())
            .collect()
    };
    let first = |names: &[&str]| names.iter().find_map(|n| metas(n).into_iter().next());
    let title = first(&["citation_title", "dc.title"]);
    let from_meta = title.map(|title| Work {
        source: LANDING_SOURCE.into(),
        title,
        authors: {
            let mut names = metas("citation_author");
            if names.is_empty() {
                names = metas("dc.creator");
            }
            names.iter().map(|n| meta_person(n)).collect()
        },
        year: first(&[
            "citation_publication_date",
            "citation_date",
            "citation_online_date",
            "citation_year",
            "dc.date",
        ])
        .and_then(|d| year_in(&d)),
        venue: first(&[
            "citation_journal_title",
            "citation_conference_title",
            "citation_inbook_title",
            "citation_technical_report_institution",
            "citation_dissertation_institution",
        ]),
        doi: first(&["citation_doi", "dc.identifier"]),
        arxiv: first(&["citation_arxiv_id"]),
        pmid: first(&["citation_pmid"]),
        oa_url: first(&["citation_pdf_url"]),
        ..Work::default()
    });
    let work = from_meta.or_else(|| json_ld_work(&doc))?;
    let mut work = finish(work);
    if work.doi.is_none()
        && let Some(d) = json_ld_work(&doc).and_then(|w| w.doi)
    {
        work.doi = crate::parse::ids::normalize_doi(&d);
    }
    Some(work)
}

/// `Family, Given` or `Given Family`.
fn meta_person(name: &str) -> Person {
    match name.split_once(',') {
        Some((family, given)) => Person::new(Some(given.trim()), family.trim()),
        None => split_name(name),
    }
}

const ARTICLE_TYPES: &[&str] = &[
    "ScholarlyArticle",
    "Article",
    "Report",
    "Book",
    "Chapter",
    "Thesis",
    "MedicalScholarlyArticle",
    "TechArticle",
    "CreativeWork",
];

fn json_ld_work(doc: &Html) -> Option<Work> {
    let sel = selector("script[type=\"application/ld+json\"]");
    doc.select(&sel).find_map(|s| {
        let v: Value = serde_json::from_str(&s.text().collect::<String>()).ok()?;
        let items: Vec<&Value> = match &v {
            Value::Array(a) => a.iter().collect(),
            Value::Object(o) => match o.get("@graph").and_then(Value::as_array) {
                Some(graph) => graph.iter().collect(),
                None => vec![&v],
            },
            _ => Vec::new(),
        };
        items.into_iter().find_map(ld_item)
    })
}

fn ld_item(v: &Value) -> Option<Work> {
    let type_ok = match v.get("@type") {
        Some(Value::String(t)) => ARTICLE_TYPES.contains(&t.as_str()),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .any(|t| ARTICLE_TYPES.contains(&t)),
        _ => false,
    };
    if !type_ok {
        return None;
    }
    let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let title = text("headline").or_else(|| text("name"))?;
    let authors = match v.get("author") {
        Some(Value::Array(list)) => list.iter().filter_map(ld_person).collect(),
        Some(one) => ld_person(one).into_iter().collect(),
        None => Vec::new(),
    };
    let doi = match v.get("identifier") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Object(o)) => o.get("value").and_then(Value::as_str).map(str::to_string),
        Some(Value::Array(list)) => list.iter().find_map(|i| {
            let id = i.get("propertyID").and_then(Value::as_str)?;
            id.eq_ignore_ascii_case("doi")
                .then(|| i.get("value").and_then(Value::as_str).map(str::to_string))?
        }),
        _ => None,
    }
    .or_else(|| text("sameAs").filter(|s| s.contains("doi.org/")));
    Some(Work {
        source: LANDING_SOURCE.into(),
        title,
        authors,
        year: text("datePublished").and_then(|d| year_in(&d)),
        venue: v
            .pointer("/isPartOf/name")
            .and_then(Value::as_str)
            .map(str::to_string),
        doi,
        ..Work::default()
    })
}

fn ld_person(v: &Value) -> Option<Person> {
    match v {
        Value::String(name) => Some(split_name(name)),
        Value::Object(o) => {
            let s = |k: &str| o.get(k).and_then(Value::as_str);
            match (s("familyName"), s("givenName"), s("name")) {
                (Some(f), given, _) => Some(Person::new(given, f)),
                (None, _, Some(name)) if s("@type") == Some("Organization") => {
                    Some(Person::new(None, name))
                }
                (None, _, Some(name)) => Some(split_name(name)),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highwire_meta_tags_give_the_record() {
        let html = r#"<html><head>
            <meta name="citation_title" content="Deep residual learning  for image recognition">
            <meta name="citation_author" content="He, Kaiming">
            <meta name="citation_author" content="Xiangyu Zhang">
            <meta name="citation_publication_date" content="2016/06/27">
            <meta name="citation_conference_title" content="CVPR">
            <meta name="citation_doi" content="10.1109/CVPR.2016.90">
            </head><body></body></html>"#;
        let w = page_work(html).unwrap();
        assert_eq!(w.title, "Deep residual learning for image recognition");
        assert_eq!(w.authors[0], Person::new(Some("Kaiming"), "He"));
        assert_eq!(w.authors[1].family, "Zhang");
        assert_eq!(w.year, Some(2016));
        assert_eq!(w.venue.as_deref(), Some("CVPR"));
        assert_eq!(w.doi.as_deref(), Some("10.1109/cvpr.2016.90"));
        assert_eq!(w.source, LANDING_SOURCE);
    }

    #[test]
    fn json_ld_when_no_meta_tags() {
        let html = r#"<html><head><script type="application/ld+json">
            {"@context": "https://schema.org", "@graph": [{"@type": "WebSite", "name": "Journal"},
             {"@type": "ScholarlyArticle", "headline": "A study of things",
              "author": [{"@type": "Person", "givenName": "Ada", "familyName": "Lovelace"},
                         {"@type": "Organization", "name": "The Consortium"}],
              "datePublished": "2019-03-01", "isPartOf": {"@type": "Periodical", "name": "J. Things"},
              "identifier": {"@type": "PropertyValue", "propertyID": "DOI", "value": "10.5555/abc"}}]}
            </script></head><body><h1>A study of things</h1></body></html>"#;
        let w = page_work(html).unwrap();
        assert_eq!(w.title, "A study of things");
        assert_eq!(w.authors.len(), 2);
        assert_eq!(w.authors[1], Person::new(None, "The Consortium"));
        assert_eq!(w.year, Some(2019));
        assert_eq!(w.venue.as_deref(), Some("J. Things"));
        assert_eq!(w.doi.as_deref(), Some("10.5555/abc"));
    }

    #[test]
    fn page_without_metadata_gives_nothing() {
        assert!(
            page_work("<html><head><title>Home</title></head><body>hi</body></html>").is_none()
        );
        assert!(page_work("not html at all \u{0}").is_none());
    }
}
