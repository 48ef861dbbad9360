//! arXiv API: `/api/query?id_list=a,b&max_results=n` batches and
//! `search_query=ti:"…"` title search. The Atom feed is read by namespace: an empty
//! feed means not found, the error entry (HTTP 400 for a malformed id) is a failure.

use std::sync::LazyLock;

use futures::future::join_all;
use regex::Regex;

use super::json::{body_is_html, snippet, status_error};
use super::text::{collapse_whitespace, finish, split_name, year_in};
use super::xml::{self, Element};
use super::{
    BatchResult, ChunkAnswers, Endpoint, Lookup, LookupResult, SourceError, SourceSettings,
    batches, fail_all, in_order, match_ids,
};
use crate::model::Work;
use crate::net::{HttpReply, HttpRequest, Net};

pub const ATOM_NS: &str = "http://www.w3.org/2005/Atom";
pub const ARXIV_NS: &str = "http://arxiv.org/schemas/atom";
/// Ids per `id_list` request.
pub const DEFAULT_BATCH_SIZE: usize = 50;

static VERSION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"v\d+$").expect("version regex"));
static WITHDRAWN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:this (?:paper|article|submission|manuscript|preprint) (?:has been|is) withdrawn|withdrawn by (?:the )?(?:author|arxiv))")
        .expect("withdrawn regex")
});

/// An arXiv id without its version, lowercase (`1707.08567`, `astro-ph/0601001`).
pub fn base_id(id: &str) -> String {
    VERSION.replace(id.trim(), "").to_lowercase()
}

#[derive(Debug, Clone)]
pub struct ArxivClient {
    ep: Endpoint,
    pub batch_size: usize,
}

impl ArxivClient {
    pub fn new(net: &Net, settings: SourceSettings) -> ArxivClient {
        ArxivClient {
            ep: Endpoint::new(net, settings),
            batch_size: DEFAULT_BATCH_SIZE,
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    async fn query(&self, query: &[(&str, &str)]) -> Result<Vec<Work>, SourceError> {
        let url = self.ep.url("/api/query", query)?;
        parse_feed(&self.ep.send(HttpRequest::get(url)).await?)
    }

    /// `GET /api/query?id_list=a,b&max_results=n`. Versions are accepted and ignored in
    /// matching. A batch arXiv rejects (one malformed id) is retried one id at a time.
    pub async fn lookup_ids(&self, ids: &[String]) -> BatchResult {
        let chunks = batches(ids, self.batch_size, &[',']);
        let answers = join_all(chunks.into_iter().map(|c| self.lookup_chunk(c))).await;
        in_order(ids, answers)
    }

    async fn lookup_chunk(&self, chunk: Vec<&String>) -> ChunkAnswers {
        let id_list = chunk
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(",");
        let max = chunk.len().to_string();
        match self
            .query(&[("id_list", &id_list), ("max_results", &max)])
            .await
        {
            Ok(works) => match_ids(&chunk, works, base_id, |w| {
                w.arxiv.as_deref().map(str::to_lowercase)
            }),
            Err(SourceError::Api(_)) if chunk.len() > 1 => {
                let singles = chunk
                    .iter()
                    .map(|id| async move { ((*id).clone(), self.lookup_id(id).await) });
                join_all(singles).await
            }
            Err(e) => fail_all(&chunk, &e),
        }
    }

    /// One id (`GET /api/query?id_list={id}&max_results=1`).
    pub async fn lookup_id(&self, id: &str) -> LookupResult {
        let works = self.query(&[("id_list", id), ("max_results", "1")]).await?;
        let wanted = base_id(id);
        Ok(works
            .into_iter()
            .find(|w| w.arxiv.as_deref().map(str::to_lowercase).as_deref() == Some(wanted.as_str()))
            .map_or(Lookup::NotFound, Lookup::Found))
    }

    /// `GET /api/query?search_query=ti:"…"&max_results={k}`.
    pub async fn search_title(
        &self,
        title: &str,
        max_results: usize,
    ) -> Result<Vec<Work>, SourceError> {
        let search = format!("ti:\"{}\"", search_words(title));
        let max = max_results.clamp(1, 100).to_string();
        self.query(&[("search_query", &search), ("max_results", &max)])
            .await
    }
}

/// A title reduced to words the arXiv query parser accepts inside a phrase.
fn search_words(title: &str) -> String {
    let cleaned: String = title
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    collapse_whitespace(&cleaned)
}

/// An arXiv Atom feed: its entries (none for an unknown id), or the error entry as a
/// failure.
pub fn parse_feed(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if body_is_html(&reply.body) {
        return Err(SourceError::Malformed(format!(
            "HTML page instead of an Atom feed (HTTP {}): {}",
            reply.status,
            snippet(&reply.body)
        )));
    }
    if !matches!(reply.status, 200 | 400) {
        return Err(status_error(reply));
    }
    let root =
        xml::parse(&reply.body).map_err(|e| SourceError::Malformed(format!("arXiv feed: {e}")))?;
    if root.name != "feed" || root.ns.as_deref() != Some(ATOM_NS) {
        return Err(SourceError::Malformed(format!(
            "expected an Atom feed, got <{}>",
            root.name
        )));
    }
    let entries: Vec<&Element> = root.elements().filter(|e| is_atom(e, "entry")).collect();
    if let Some(error) = entries
        .iter()
        .find(|e| atom_text(e, "id").is_some_and(|id| id.contains("/api/errors")))
    {
        let message = atom_text(error, "summary").unwrap_or_else(|| "arXiv API error".into());
        return Err(SourceError::Api(message));
    }
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    Ok(entries.into_iter().filter_map(work_from_entry).collect())
}

fn is_atom(e: &Element, name: &str) -> bool {
    e.name == name && e.ns.as_deref() == Some(ATOM_NS)
}

fn atom_text(e: &Element, name: &str) -> Option<String> {
    e.child_ns(ATOM_NS, name)
        .map(Element::text)
        .filter(|t| !t.is_empty())
}

/// One Atom entry as a [`Work`]; `None` for an entry without id and title.
pub fn work_from_entry(entry: &Element) -> Option<Work> {
    let abs_id = atom_text(entry, "id")?;
    let id = abs_id
        .split_once("/abs/")
        .map(|(_, rest)| rest.to_string())
        .unwrap_or(abs_id);
    let title = atom_text(entry, "title")?;
    let arxiv_text = |name: &str| {
        entry
            .child_ns(ARXIV_NS, name)
            .map(Element::text)
            .filter(|t| !t.is_empty())
    };
    let links: Vec<&Element> = entry.elements().filter(|e| is_atom(e, "link")).collect();
    let link = |pred: &dyn Fn(&Element) -> bool| {
        links
            .iter()
            .find(|l| pred(l))
            .and_then(|l| l.attr("href"))
            .map(str::to_string)
    };
    let withdrawn = arxiv_text("comment").is_some_and(|c| WITHDRAWN.is_match(&c));
    let work = Work {
        source: "arxiv".to_string(),
        title,
        authors: entry
            .elements()
            .filter(|e| is_atom(e, "author"))
            .filter_map(|a| atom_text(a, "name"))
            .map(|n| split_name(&n))
            .collect(),
        year: atom_text(entry, "published").and_then(|p| year_in(&p)),
        venue: Some(arxiv_text("journal_ref").unwrap_or_else(|| "arXiv".to_string())),
        work_type: Some("preprint".to_string()),
        doi: arxiv_text("doi"),
        arxiv: Some(base_id(&id)),
        url: link(&|l| l.attr("rel") == Some("alternate")),
        abstract_text: atom_text(entry, "summary"),
        is_retracted: withdrawn,
        oa_url: link(&|l| {
            l.attr("title") == Some("pdf") || l.attr("type") == Some("application/pdf")
        }),
        ..Work::default()
    };
    Some(finish(work))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_ids() {
        assert_eq!(base_id("2104.12255v1"), "2104.12255");
        assert_eq!(base_id("quant-ph/0201082v1"), "quant-ph/0201082");
        assert_eq!(base_id("1605.08386"), "1605.08386");
    }

    #[test]
    fn search_words_drop_punctuation() {
        assert_eq!(
            search_words("BERT: Pre-training of \"Deep\" Transformers"),
            "BERT Pre training of Deep Transformers"
        );
    }

    #[test]
    fn not_a_feed_is_malformed() {
        let reply = HttpReply::new(200, Some("application/xml"), "<rss></rss>");
        assert!(matches!(parse_feed(&reply), Err(SourceError::Malformed(_))));
        let truncated = HttpReply::new(
            200,
            Some("application/atom+xml"),
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>",
        );
        assert!(matches!(
            parse_feed(&truncated),
            Err(SourceError::Malformed(_))
        ));
    }
}
