//! OpenAlex: `/works/doi:{doi}`, `/works/pmid:{pmid}`, `filter=doi:a|b|…` batches of at
//! most 50, and `search`. Abstracts come as an inverted index and are rebuilt; open
//! access links come from `open_access` / `best_oa_location`.

use futures::future::join_all;
use serde_json::Value;

use super::json::{is_html, list, parse_body, status_error, str_of, year_of};
use super::text::{finish, split_name, strip_markup};
use super::{
    BatchResult, ChunkAnswers, Endpoint, Lookup, LookupResult, SourceError, SourceSettings,
    batches, doi_key, encode_path, fail_all, in_order, match_ids,
};
use crate::model::Work;
use crate::net::{HttpReply, HttpRequest, Net};
use crate::parse::ids::normalize_arxiv;

/// The API's maximum for `per-page` and for ids in one `filter`.
pub const MAX_BATCH: usize = 50;

#[derive(Debug, Clone)]
pub struct OpenAlexClient {
    ep: Endpoint,
    pub batch_size: usize,
}

impl OpenAlexClient {
    pub fn new(net: &Net, settings: SourceSettings) -> OpenAlexClient {
        OpenAlexClient {
            ep: Endpoint::new(net, settings),
            batch_size: MAX_BATCH,
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    fn request(&self, path: &str, query: &[(&str, &str)]) -> Result<HttpRequest, SourceError> {
        let mut query = query.to_vec();
        if let Some(key) = &self.ep.settings.api_key {
            query.push(("api_key", key));
        }
        if let Some(mailto) = &self.ep.settings.mailto {
            query.push(("mailto", mailto));
        }
        Ok(HttpRequest::get(self.ep.url(path, &query)?))
    }

    /// `GET /works/doi:{doi}`.
    pub async fn lookup_doi(&self, doi: &str) -> LookupResult {
        let request = self.request(&format!("/works/doi:{}", encode_path(doi)), &[])?;
        parse_work(&self.ep.send(request).await?)
    }

    /// `GET /works/pmid:{pmid}`.
    pub async fn lookup_pmid(&self, pmid: &str) -> LookupResult {
        let request = self.request(&format!("/works/pmid:{}", encode_path(pmid)), &[])?;
        parse_work(&self.ep.send(request).await?)
    }

    /// `GET /works?filter=doi:a|b|…&per-page=50`, at most 50 DOIs per request.
    pub async fn lookup_dois(&self, dois: &[String]) -> BatchResult {
        let size = self.batch_size.clamp(1, MAX_BATCH);
        let chunks = batches(dois, size, &[',', '|']);
        let answers = join_all(chunks.into_iter().map(|c| self.lookup_chunk(c))).await;
        in_order(dois, answers)
    }

    async fn lookup_chunk(&self, chunk: Vec<&String>) -> ChunkAnswers {
        // One DOI (or one the filter syntax cannot carry) goes to the single-work path.
        if let [doi] = chunk.as_slice() {
            return vec![((*doi).clone(), self.lookup_doi(doi).await)];
        }
        let filter = format!(
            "doi:{}",
            chunk
                .iter()
                .map(|d| d.as_str())
                .collect::<Vec<_>>()
                .join("|")
        );
        let per_page = MAX_BATCH.to_string();
        let outcome = async {
            let request =
                self.request("/works", &[("filter", &filter), ("per-page", &per_page)])?;
            parse_list(&self.ep.send(request).await?)
        }
        .await;
        match outcome {
            Ok(works) => match_ids(&chunk, works, doi_key, |w| w.doi.clone()),
            Err(e) => fail_all(&chunk, &e),
        }
    }

    /// `GET /works?search={q}&per-page={k}`.
    pub async fn search(&self, query: &str, per_page: usize) -> Result<Vec<Work>, SourceError> {
        let per_page = per_page.clamp(1, 200).to_string();
        let request = self.request("/works", &[("search", query), ("per-page", &per_page)])?;
        parse_list(&self.ep.send(request).await?)
    }
}

/// The reply to `/works/{id}`.
pub fn parse_work(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 => {
            let v = parse_body(reply)?;
            let id = v.get("id").and_then(Value::as_str).unwrap_or("");
            let local = id.rsplit('/').next().unwrap_or("");
            if !local.starts_with('W') {
                return Err(SourceError::Malformed(format!(
                    "expected an OpenAlex work, got entity `{id}`"
                )));
            }
            Ok(Lookup::Found(work_from_json(&v)))
        }
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// The reply to `/works?…`: `{"meta": …, "results": […]}`.
pub fn parse_list(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let results = v
        .get("results")
        .and_then(Value::as_array)
        .ok_or_else(|| SourceError::Malformed("OpenAlex list without `results`".into()))?;
    Ok(results.iter().map(work_from_json).collect())
}

/// Rebuild an abstract from `{"word": [positions]}`.
pub fn rebuild_abstract(index: &Value) -> Option<String> {
    let map = index.as_object()?;
    let mut slots: Vec<Option<&str>> = Vec::new();
    for (word, positions) in map {
        for p in list(Some(positions)).iter().filter_map(Value::as_u64) {
            let p = usize::try_from(p).ok().filter(|p| *p < 100_000)?;
            if slots.len() <= p {
                slots.resize(p + 1, None);
            }
            slots[p] = Some(word);
        }
    }
    let text = slots.into_iter().flatten().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

/// The last path segment of an id URL (`https://pubmed.ncbi.nlm.nih.gov/29456894`).
fn id_tail(v: Option<&Value>) -> Option<String> {
    let s = str_of(v)?;
    Some(
        s.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(&s)
            .to_string(),
    )
}

/// An OpenAlex work object as a [`Work`].
pub fn work_from_json(v: &Value) -> Work {
    let title = str_of(v.get("title"))
        .or_else(|| str_of(v.get("display_name")))
        .map(|t| strip_markup(&t))
        .unwrap_or_default();
    let authors = list(v.get("authorships"))
        .iter()
        .filter_map(|a| {
            str_of(a.pointer("/author/display_name")).or_else(|| str_of(a.get("raw_author_name")))
        })
        .map(|name| split_name(&name))
        .collect();
    let source_name = |loc: &str| {
        v.pointer(&format!("/{loc}/source/display_name"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let venue =
        source_name("primary_location").or_else(|| str_of(v.pointer("/host_venue/display_name")));
    let arxiv = list(v.get("locations"))
        .iter()
        .filter_map(|l| l.get("landing_page_url").and_then(Value::as_str))
        .find(|u| u.contains("arxiv.org/"))
        .and_then(normalize_arxiv);
    let oa_url = str_of(v.pointer("/open_access/oa_url"))
        .or_else(|| str_of(v.pointer("/best_oa_location/pdf_url")))
        .or_else(|| str_of(v.pointer("/best_oa_location/landing_page_url")));
    let work = Work {
        source: "openalex".to_string(),
        title,
        authors,
        year: year_of(v.get("publication_year")).or_else(|| year_of(v.get("publication_date"))),
        venue,
        work_type: str_of(v.get("type")),
        doi: str_of(v.get("doi")).or_else(|| str_of(v.pointer("/ids/doi"))),
        arxiv,
        pmid: id_tail(v.pointer("/ids/pmid")),
        pmcid: id_tail(v.pointer("/ids/pmcid")),
        url: str_of(v.pointer("/primary_location/landing_page_url"))
            .or_else(|| str_of(v.get("id"))),
        abstract_text: v.get("abstract_inverted_index").and_then(rebuild_abstract),
        is_retracted: v
            .get("is_retracted")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        has_concern: false,
        oa_url,
        // `publication_year` is the earliest date; the date's year rarely differs.
        other_years: year_of(v.get("publication_date")).into_iter().collect(),
        // Lists and searches give the first 100 authorships and say so.
        authors_truncated: v
            .get("is_authors_truncated")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        ..Work::default()
    };
    finish(work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inverted_index_is_rebuilt_in_order() {
        let idx = json!({"world": [1], "Hello": [0], "again": [3], "hello": [2]});
        assert_eq!(
            rebuild_abstract(&idx).as_deref(),
            Some("Hello world hello again")
        );
        assert_eq!(rebuild_abstract(&json!({})), None);
        assert_eq!(rebuild_abstract(&Value::Null), None);
    }

    #[test]
    fn nulls_and_missing_fields_are_fine() {
        let w = work_from_json(&json!({"id": "https://openalex.org/W1", "title": null,
            "display_name": "A title", "publication_year": null, "authorships": [{"author": {"display_name": null}, "raw_author_name": "Ludwig van Beethoven"}],
            "primary_location": null, "ids": {"pmcid": "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC123/"}}));
        assert_eq!(w.title, "A title");
        assert_eq!(w.authors[0].family, "van Beethoven");
        assert_eq!(w.pmcid.as_deref(), Some("PMC123"));
        assert_eq!(w.year, None);
    }
}
