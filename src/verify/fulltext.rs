//! The full-text cascade: the citation's own URL, arXiv HTML then PDF, Europe PMC and
//! PMC JATS XML, then the open-access links that Semantic Scholar, Unpaywall and
//! OpenAlex know (asked lazily, only when everything before failed). The first text
//! that is accepted (long enough, not a notice, plausibly the cited work) wins; every
//! attempt is recorded with the reason it failed.
//!
//! Downloads go through a client of their own whose DNS answers and redirects follow
//! the [`UrlPolicy`], with a size cap and a timeout.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use url::Url;

use super::acceptance::{NotAccepted, accept};
use super::evidence::{Asked, Evidence};
use super::extract::{Extracted, html, jats, pdf};
use super::verdict::TextFormat;
use crate::net::urlpolicy::{REFUSAL_MARKS, UrlPolicy, UrlRefusal};
use crate::net::{
    HttpReply, HttpRequest, Net, NetError, Rate, RetryPolicy, SourceHandle, SourcePolicy,
};
use crate::resolve::gate::GateThresholds;
use crate::resolve::sources::{SourceName, Sources, SourcesSettings, encode_path};

/// arXiv's web site (HTML and PDF renderings), as opposed to its API.
pub const DEFAULT_ARXIV_WEB: &str = "https://arxiv.org";

/// Settings of the cascade.
#[derive(Debug, Clone, PartialEq)]
pub struct FullTextConfig {
    /// Texts shorter than this (in characters) are not accepted.
    pub min_chars: usize,
    /// Least title similarity between the document's title and the cited work's.
    pub min_title_similarity: f64,
    /// Larger downloads fail.
    pub max_bytes: u64,
    pub timeout: Duration,
    pub retry: RetryPolicy,
    pub rate: Rate,
    pub max_concurrency: usize,
    /// Base of `/html/{id}` and `/pdf/{id}`.
    pub arxiv_web: String,
    /// Base of `/webservices/rest/{PMCID}/fullTextXML`.
    pub europepmc: String,
    /// Base of `/entrez/eutils/efetch.fcgi?db=pmc&id=…`.
    pub pubmed: String,
    /// Where downloads may go (configured bases are added as trusted).
    pub policy: UrlPolicy,
    pub mailto: Option<String>,
}

impl Default for FullTextConfig {
    fn default() -> Self {
        FullTextConfig::for_sources(&SourcesSettings::default(), DEFAULT_ARXIV_WEB)
    }
}

impl FullTextConfig {
    /// Defaults using the sources' base URLs (all of which are trusted).
    pub fn for_sources(settings: &SourcesSettings, arxiv_web: &str) -> FullTextConfig {
        let mut policy = settings.url_policy();
        policy.trust(arxiv_web);
        FullTextConfig {
            min_chars: 2000,
            min_title_similarity: GateThresholds::default().accept,
            max_bytes: 25 * 1024 * 1024,
            timeout: Duration::from_secs(60),
            retry: RetryPolicy {
                max_retries: 1,
                ..RetryPolicy::default()
            },
            rate: Rate::per_second(2),
            max_concurrency: 4,
            arxiv_web: arxiv_web.trim_end_matches('/').to_string(),
            europepmc: settings.get(SourceName::EuropePmc).base_url.clone(),
            pubmed: settings.get(SourceName::Pubmed).base_url.clone(),
            policy,
            mailto: settings.get(SourceName::Unpaywall).mailto.clone(),
        }
    }
}

/// A place to try.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    pub url: String,
    /// `citation_url`, `arxiv_html`, `arxiv_pdf`, `europepmc_xml`, `pmc_xml`,
    /// `open_access:<source>`.
    pub origin: String,
}

/// Why a candidate gave no usable text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Rejection {
    #[error("refused: {0}")]
    Refused(#[from] UrlRefusal),
    #[error("download failed: {0}")]
    Download(NetError),
    #[error("HTTP {0}")]
    Status(u16),
    #[error("unsupported content type {0}")]
    Format(String),
    #[error("unreadable: {0}")]
    Unreadable(String),
    #[error("not accepted: {0}")]
    NotAccepted(#[from] NotAccepted),
}

/// One candidate tried.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    pub candidate: Candidate,
    pub outcome: Result<(), Rejection>,
}

/// An accepted full text.
#[derive(Debug, Clone, PartialEq)]
pub struct FullText {
    pub url: String,
    pub origin: String,
    pub format: TextFormat,
    pub doc: Extracted,
}

/// The outcome of the cascade.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Search {
    pub found: Option<FullText>,
    pub attempts: Vec<Attempt>,
}

/// Downloads and accepts full texts. Cheap to clone.
#[derive(Clone)]
pub struct FullTextFetcher {
    config: Arc<FullTextConfig>,
    http: SourceHandle,
    _net: Arc<Net>,
}

impl std::fmt::Debug for FullTextFetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FullTextFetcher")
            .field("config", &self.config)
            .finish()
    }
}

impl FullTextFetcher {
    pub fn new(config: FullTextConfig) -> Result<FullTextFetcher, NetError> {
        let net = Arc::new(config.policy.clone()).guarded_net(config.mailto.clone())?;
        let http = net.source(
            "fulltext",
            SourcePolicy {
                rate: config.rate,
                max_concurrency: config.max_concurrency,
                timeout: config.timeout,
                retry: config.retry.clone(),
                max_body_bytes: config.max_bytes,
                ..SourcePolicy::default()
            },
        );
        Ok(FullTextFetcher {
            config: Arc::new(config),
            http,
            _net: Arc::new(net),
        })
    }

    pub fn config(&self) -> &FullTextConfig {
        &self.config
    }

    /// The candidates known from the evidence so far, in cascade order.
    pub fn candidates(&self, ev: &Evidence, citation_url: Option<&str>) -> Vec<Candidate> {
        let c = &self.config;
        let mut out = Vec::new();
        let mut push = |url: String, origin: &str| {
            out.push(Candidate {
                url,
                origin: origin.to_string(),
            });
        };
        if let Some(url) = citation_url.map(str::trim).filter(|u| !u.is_empty()) {
            push(url.to_string(), "citation_url");
        }
        if let Some(id) = &ev.work.arxiv {
            push(
                format!("{}/html/{}", c.arxiv_web, encode_path(id)),
                "arxiv_html",
            );
            push(
                format!("{}/pdf/{}", c.arxiv_web, encode_path(id)),
                "arxiv_pdf",
            );
        }
        if let Some(pmcid) = &ev.work.pmcid {
            push(
                format!(
                    "{}/webservices/rest/{}/fullTextXML",
                    c.europepmc,
                    encode_path(pmcid)
                ),
                "europepmc_xml",
            );
            let digits = pmcid.trim_start_matches("PMC");
            push(
                format!("{}/entrez/eutils/efetch.fcgi?db=pmc&id={digits}", c.pubmed),
                "pmc_xml",
            );
        }
        for (url, source) in ev.open_access_links() {
            push(url, &format!("open_access:{source}"));
        }
        out
    }

    /// Run the cascade for the work in `ev`, asking `sources` for more links when the
    /// known candidates fail.
    pub async fn find(
        &self,
        ev: &mut Evidence,
        sources: Option<&Sources>,
        citation_url: Option<&str>,
    ) -> Search {
        let mut search = Search::default();
        let mut tried: HashSet<String> = HashSet::new();
        loop {
            for candidate in self.candidates(ev, citation_url) {
                if !tried.insert(candidate.url.clone()) {
                    continue;
                }
                match self.fetch(&candidate, &ev.work.title).await {
                    Ok(text) => {
                        search.attempts.push(Attempt {
                            candidate,
                            outcome: Ok(()),
                        });
                        search.found = Some(text);
                        return search;
                    }
                    Err(rejection) => search.attempts.push(Attempt {
                        candidate,
                        outcome: Err(rejection),
                    }),
                }
            }
            let next = [Asked::S2, Asked::Unpaywall, Asked::OpenAlex]
                .into_iter()
                .find(|s| !ev.has_asked(*s));
            match (sources, next) {
                (Some(sources), Some(source)) => {
                    ev.ask(sources, source).await;
                }
                _ => return search,
            }
        }
    }

    /// Download one candidate, extract its text and accept it for the work titled
    /// `cited_title`.
    pub async fn fetch(
        &self,
        candidate: &Candidate,
        cited_title: &str,
    ) -> Result<FullText, Rejection> {
        let url = Url::parse(&candidate.url)
            .map_err(|e| UrlRefusal::Malformed(format!("{}: {e}", candidate.url)))?;
        self.config.policy.check(&url).await?;
        let accept_header = match candidate.origin.as_str() {
            "arxiv_pdf" => "application/pdf",
            "europepmc_xml" | "pmc_xml" => "application/xml, text/xml",
            _ => "text/html, application/xhtml+xml, application/pdf;q=0.9, application/xml;q=0.8",
        };
        let request = HttpRequest::get(url).header("accept", accept_header);
        let reply = self.http.send(&request).await.map_err(|e| match e {
            // The resolver or the redirect policy refused a hop: a refusal, not a
            // transient download failure.
            NetError::Connect(m) | NetError::Unreachable { last: m, .. }
                if REFUSAL_MARKS.iter().any(|mark| m.contains(mark)) =>
            {
                Rejection::Refused(UrlRefusal::WhileConnecting(m))
            }
            e => Rejection::Download(e),
        })?;
        if reply.status != 200 {
            return Err(Rejection::Status(reply.status));
        }
        let format = sniff(&reply)?;
        let doc = match format {
            TextFormat::Pdf => {
                let body = reply.body.clone();
                tokio::task::spawn_blocking(move || pdf::extract(&body))
                    .await
                    .map_err(|e| Rejection::Unreadable(e.to_string()))?
                    .map_err(Rejection::Unreadable)?
            }
            TextFormat::Jats => jats::extract(&reply.body).map_err(Rejection::Unreadable)?,
            TextFormat::Html => html::extract(&reply.text()),
        };
        accept(
            &doc,
            cited_title,
            self.config.min_chars,
            self.config.min_title_similarity,
        )?;
        Ok(FullText {
            url: if reply.url.is_empty() {
                candidate.url.clone()
            } else {
                reply.url.clone()
            },
            origin: candidate.origin.clone(),
            format,
            doc,
        })
    }
}

/// The format of a reply, from its bytes first and its content type second.
fn sniff(reply: &HttpReply) -> Result<TextFormat, Rejection> {
    let head: String = String::from_utf8_lossy(&reply.body[..reply.body.len().min(4096)])
        .trim_start_matches('\u{feff}')
        .trim_start()
        .to_ascii_lowercase();
    let ct = reply
        .content_type
        .as_deref()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if reply.body.starts_with(b"%PDF") || (ct.contains("pdf") && head.starts_with("%pdf")) {
        return Ok(TextFormat::Pdf);
    }
    if head.contains("<article")
        && !head.contains("<html")
        && (head.starts_with("<?xml")
            || head.starts_with("<!doctype pmc")
            || head.starts_with("<pmc-articleset")
            || head.starts_with("<article")
            || ct.contains("xml"))
    {
        return Ok(TextFormat::Jats);
    }
    if ct.contains("html")
        || head.starts_with("<!doctype html")
        || head.starts_with("<html")
        || head.contains("<html")
    {
        return Ok(TextFormat::Html);
    }
    Err(Rejection::Format(if ct.is_empty() {
        "(none)".to_string()
    } else {
        ct
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(ct: &str, body: &str) -> HttpReply {
        HttpReply::new(200, Some(ct), body.as_bytes().to_vec())
    }

    #[test]
    fn formats_are_sniffed_from_bytes_and_type() {
        assert_eq!(
            sniff(&reply("application/octet-stream", "%PDF-1.5\n")),
            Ok(TextFormat::Pdf)
        );
        assert_eq!(
            sniff(&reply(
                "text/xml",
                "<?xml version=\"1.0\"?>\n<!DOCTYPE pmc-articleset><pmc-articleset><article>"
            )),
            Ok(TextFormat::Jats)
        );
        assert_eq!(
            sniff(&reply("text/html; charset=utf-8", "<!DOCTYPE html><html>")),
            Ok(TextFormat::Html)
        );
        assert_eq!(
            sniff(&reply(
                "application/xhtml+xml",
                "<?xml version=\"1.0\"?><html><body><article>"
            )),
            Ok(TextFormat::Html)
        );
        assert!(matches!(
            sniff(&reply("image/png", "\u{89}PNG")),
            Err(Rejection::Format(_))
        ));
    }

    #[test]
    fn candidates_follow_the_cascade_order() {
        let fetcher = FullTextFetcher::new(FullTextConfig::default()).unwrap();
        let ev = Evidence::new(&crate::model::Work {
            source: "crossref".into(),
            arxiv: Some("2101.00001".into()),
            pmcid: Some("PMC123".into()),
            oa_url: Some("https://example.org/paper.pdf".into()),
            ..Default::default()
        });
        let origins: Vec<String> = fetcher
            .candidates(&ev, Some("https://publisher.example/article"))
            .into_iter()
            .map(|c| c.origin)
            .collect();
        assert_eq!(
            origins,
            [
                "citation_url",
                "arxiv_html",
                "arxiv_pdf",
                "europepmc_xml",
                "pmc_xml",
                "open_access:crossref"
            ]
        );
        let urls: Vec<String> = fetcher
            .candidates(&ev, None)
            .into_iter()
            .map(|c| c.url)
            .collect();
        assert_eq!(urls[0], "https://arxiv.org/html/2101.00001");
        assert_eq!(
            urls[2],
            "https://www.ebi.ac.uk/europepmc/webservices/rest/PMC123/fullTextXML"
        );
        assert_eq!(
            urls[3],
            "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi?db=pmc&id=123"
        );
    }
}
