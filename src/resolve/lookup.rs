//! Source lookups behind the cache: every identifier lookup and every search a run
//! makes goes through here, is answered from the cache when a live entry exists, and
//! is stored after its answer (found for 30 days, not found for 1 day by default). A
//! lookup that got no answer (rate-limited, timed out, an error page) is remembered for
//! a short while (15 minutes by default, `cache.retry-failed-after`), so that a rerun
//! makes no request and reaches the same "unverified"; `--retry-unverified` asks again
//! at once. Offline, whatever is not cached is not asked at all.

use std::collections::HashMap;

use futures::future::join_all;
use serde::{Deserialize, Serialize};

use crate::cache::{Cache, Cached};
use crate::model::{IdScheme, Work};
use crate::resolve::query::RefQuery;
use crate::resolve::sources::{
    BatchResult, Lookup, LookupResult, SourceError, SourceName, Sources, s2,
};

/// Hits asked of a search source.
const SEARCH_ROWS: usize = 5;

/// A source's answer for one identifier or one search.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer<T> {
    Found(T),
    NotFound,
    /// The source could not be asked or gave no usable answer (the message says why).
    Failed(String),
    /// Offline, and not in the cache.
    Offline,
}

impl<T> From<Cached<T>> for Answer<T> {
    fn from(cached: Cached<T>) -> Answer<T> {
        match cached {
            Cached::Found(value) => Answer::Found(value),
            Cached::NotFound => Answer::NotFound,
            Cached::Failed(why) => Answer::Failed(remembered(&why)),
        }
    }
}

/// The reason of a failure read back from the cache, saying so.
fn remembered(why: &str) -> String {
    format!(
        "{why} (in an earlier run; asked again after `cache.retry-failed-after` or with --retry-unverified)"
    )
}

impl<T: Clone> Answer<T> {
    /// What is stored of an answer; an offline answer is not (nothing was asked).
    pub fn to_cached(&self) -> Option<Cached<T>> {
        match self {
            Answer::Found(value) => Some(Cached::Found(value.clone())),
            Answer::NotFound => Some(Cached::NotFound),
            Answer::Failed(why) => Some(Cached::Failed(why.clone())),
            Answer::Offline => None,
        }
    }
}

/// A search answer as cached: the hits in rank order.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Hits(Vec<Work>);

/// Whether `source` can look identifiers of `scheme` up.
pub fn supports(source: SourceName, scheme: IdScheme) -> bool {
    use SourceName as S;
    match scheme {
        IdScheme::Doi => matches!(
            source,
            S::Crossref | S::OpenAlex | S::Doi | S::DataCite | S::S2 | S::Pubmed | S::EuropePmc
        ),
        IdScheme::Arxiv => matches!(source, S::Arxiv | S::S2 | S::DataCite | S::Doi),
        IdScheme::Pmid => matches!(source, S::Pubmed | S::EuropePmc | S::S2 | S::OpenAlex),
        IdScheme::Pmcid => matches!(source, S::EuropePmc | S::S2),
        IdScheme::Isbn | IdScheme::Url => false,
    }
}

/// Whether `source` has a title or bibliographic search.
pub fn searches(source: SourceName) -> bool {
    !matches!(
        source,
        SourceName::Doi | SourceName::DataCite | SourceName::Unpaywall | SourceName::Acl
    )
}

/// The source clients with the cache in front.
#[derive(Clone)]
pub struct Lookups {
    pub sources: Sources,
    pub cache: Option<Cache>,
    pub offline: bool,
}

fn cache_key(scheme: IdScheme, id: &str) -> String {
    format!("{}:{id}", scheme.prefix())
}

fn failure(error: &SourceError) -> String {
    error.to_string()
}

impl Lookups {
    fn cached<T: serde::de::DeserializeOwned>(&self, ns: &str, key: &str) -> Option<Cached<T>> {
        // An unreadable entry is treated as absent: the source is asked again.
        self.cache.as_ref()?.get_as::<T>(ns, key).ok().flatten()
    }

    /// Write answers to the cache on the blocking pool: a commit must not hold up the
    /// runtime's few workers while other requests are in flight.
    async fn store(&self, ns: &str, entries: Vec<(String, bool, serde_json::Value)>) {
        if let (Some(cache), false) = (&self.cache, entries.is_empty()) {
            // A cache that cannot be written only costs a later rerun its speed.
            let _ = cache.put_many_async(ns, entries).await;
        }
    }

    /// Remember lookups that got no answer (key, reason) for the short failure
    /// lifetime. A request the client refused to make (a configuration error) is not
    /// a failure of the source.
    async fn store_failures(&self, ns: &str, failures: Vec<(String, String)>) {
        if let (Some(cache), false) = (&self.cache, failures.is_empty()) {
            let _ = cache.put_failures_async(ns, failures).await;
        }
    }

    /// One lookup of any kind through the cache under `ns`/`key`: a live entry answers,
    /// else (unless offline) `fetch` asks the source and its answer is stored — found,
    /// not found, or a failure for the short failure lifetime.
    pub async fn through_cache<T, Fut>(
        &self,
        ns: &str,
        key: &str,
        fetch: impl FnOnce() -> Fut,
    ) -> Answer<T>
    where
        T: Serialize + serde::de::DeserializeOwned + Clone,
        Fut: std::future::Future<Output = Result<Lookup<T>, SourceError>>,
    {
        match self.cached::<T>(ns, key) {
            Some(cached) => return cached.into(),
            None if self.offline => return Answer::Offline,
            None => {}
        }
        match fetch().await {
            Ok(Lookup::Found(value)) => {
                let stored = serde_json::to_value(&value).unwrap_or_default();
                self.store(ns, vec![(key.to_string(), true, stored)]).await;
                Answer::Found(value)
            }
            Ok(Lookup::NotFound) => {
                self.store(ns, vec![(key.to_string(), false, serde_json::Value::Null)])
                    .await;
                Answer::NotFound
            }
            Err(e) => {
                if remember_failure(&e) {
                    self.store_failures(ns, vec![(key.to_string(), failure(&e))])
                        .await;
                }
                Answer::Failed(failure(&e))
            }
        }
    }

    /// Look identifiers of one scheme up in one source: cached answers first, the rest
    /// in the source's batches.
    pub async fn ids(
        &self,
        source: SourceName,
        scheme: IdScheme,
        ids: &[String],
    ) -> HashMap<String, Answer<Work>> {
        let ns = source.as_str();
        let mut answers = HashMap::new();
        let mut pending = Vec::new();
        for id in ids {
            match self.cached::<Work>(ns, &cache_key(scheme, id)) {
                Some(cached) => {
                    answers.insert(id.clone(), cached.into());
                }
                None if self.offline => {
                    answers.insert(id.clone(), Answer::Offline);
                }
                None if !answers.contains_key(id) && !pending.contains(id) => {
                    pending.push(id.clone())
                }
                None => {}
            }
        }
        if pending.is_empty() {
            return answers;
        }
        let mut results = self.fetch_ids(source, scheme, &pending).await;
        let garbled: Vec<String> = results
            .iter()
            .filter(|(_, r)| is_garbled(r))
            .map(|(id, _)| id.clone())
            .collect();
        if !garbled.is_empty() {
            let again: HashMap<String, LookupResult> = self
                .fetch_ids(source, scheme, &garbled)
                .await
                .into_iter()
                .collect();
            for (id, result) in &mut results {
                if let Some(retried) = again.get(id) {
                    *result = retried.clone();
                }
            }
        }
        let mut store = Vec::new();
        let mut failed = Vec::new();
        for (id, result) in results {
            let answer = match result {
                Ok(Lookup::Found(work)) => {
                    let value = serde_json::to_value(&work).unwrap_or_default();
                    store.push((cache_key(scheme, &id), true, value));
                    Answer::Found(work)
                }
                Ok(Lookup::NotFound) => {
                    store.push((cache_key(scheme, &id), false, serde_json::Value::Null));
                    Answer::NotFound
                }
                Err(e) => {
                    if remember_failure(&e) {
                        failed.push((cache_key(scheme, &id), failure(&e)));
                    }
                    Answer::Failed(failure(&e))
                }
            };
            answers.insert(id, answer);
        }
        self.store(ns, store).await;
        self.store_failures(ns, failed).await;
        answers
    }

    async fn fetch_ids(&self, source: SourceName, scheme: IdScheme, ids: &[String]) -> BatchResult {
        let s = &self.sources;
        let arxiv_doi = |x: &str| format!("10.48550/arxiv.{x}");
        match (source, scheme) {
            (SourceName::Crossref, IdScheme::Doi) => s.crossref.lookup_dois(ids).await,
            (SourceName::OpenAlex, IdScheme::Doi) => s.openalex.lookup_dois(ids).await,
            (SourceName::Pubmed, IdScheme::Doi) => s.pubmed.lookup_dois(ids).await,
            (SourceName::Pubmed, IdScheme::Pmid) => s.pubmed.lookup_pmids(ids).await,
            (SourceName::Arxiv, IdScheme::Arxiv) => s.arxiv.lookup_ids(ids).await,
            (SourceName::S2, _) => self.s2_batch(scheme, ids).await,
            (SourceName::Doi, IdScheme::Doi) => singles(ids, |d| s.doi.lookup(d)).await,
            (SourceName::Doi, IdScheme::Arxiv) => {
                singles(ids, |x| async move { s.doi.lookup(&arxiv_doi(x)).await }).await
            }
            (SourceName::DataCite, IdScheme::Doi) => singles(ids, |d| s.datacite.lookup(d)).await,
            (SourceName::DataCite, IdScheme::Arxiv) => {
                singles(
                    ids,
                    |x| async move { s.datacite.lookup(&arxiv_doi(x)).await },
                )
                .await
            }
            (SourceName::EuropePmc, IdScheme::Doi) => {
                singles(ids, |d| s.europepmc.lookup_doi(d)).await
            }
            (SourceName::EuropePmc, IdScheme::Pmid) => {
                singles(ids, |p| s.europepmc.lookup_pmid(p)).await
            }
            (SourceName::EuropePmc, IdScheme::Pmcid) => {
                singles(ids, |p| s.europepmc.lookup_pmcid(p)).await
            }
            (SourceName::OpenAlex, IdScheme::Pmid) => {
                singles(ids, |p| s.openalex.lookup_pmid(p)).await
            }
            _ => {
                let error = SourceError::Config(format!(
                    "{source} cannot look up {} identifiers",
                    scheme.prefix()
                ));
                ids.iter()
                    .map(|id| (id.clone(), Err(error.clone())))
                    .collect()
            }
        }
    }

    /// Semantic Scholar's batch endpoint takes `DOI:…`, `ARXIV:…`, `PMID:…` ids.
    async fn s2_batch(&self, scheme: IdScheme, ids: &[String]) -> BatchResult {
        let paper_ids: Vec<String> = ids
            .iter()
            .map(|id| s2::paper_id(scheme, id).unwrap_or_else(|| id.clone()))
            .collect();
        let answers = self.sources.s2.lookup_batch(&paper_ids).await;
        ids.iter()
            .cloned()
            .zip(answers.into_iter().map(|(_, r)| r))
            .collect()
    }

    /// Search one source for a reference: its best hits (possibly none).
    pub async fn search(&self, source: SourceName, q: &RefQuery) -> Answer<Vec<Work>> {
        let (key, query) = match source {
            SourceName::Crossref => ("bibliographic", q.bibliographic_query()),
            SourceName::S2 if q.fields.title.is_some() => ("match", q.title_query()),
            _ => ("title", q.title_query()),
        };
        if query.trim().is_empty() {
            return Answer::NotFound;
        }
        let key = format!("{key}:{query}");
        let ns = source.as_str();
        match self.cached::<Hits>(ns, &key) {
            Some(Cached::Found(Hits(works))) => return Answer::Found(works),
            Some(Cached::NotFound) => return Answer::NotFound,
            Some(Cached::Failed(why)) => return Answer::Failed(remembered(&why)),
            None if self.offline => return Answer::Offline,
            None => {}
        }
        let mut result = self.fetch_search(source, &key, &query).await;
        if matches!(result, Err(SourceError::Malformed(_))) {
            result = self.fetch_search(source, &key, &query).await;
        }
        match result {
            Ok(works) if works.is_empty() => {
                self.store(ns, vec![(key, false, serde_json::Value::Null)])
                    .await;
                Answer::NotFound
            }
            Ok(works) => {
                let value = serde_json::to_value(Hits(works.clone())).unwrap_or_default();
                self.store(ns, vec![(key, true, value)]).await;
                Answer::Found(works)
            }
            Err(e) => {
                if remember_failure(&e) {
                    self.store_failures(ns, vec![(key, failure(&e))]).await;
                }
                Answer::Failed(failure(&e))
            }
        }
    }

    async fn fetch_search(
        &self,
        source: SourceName,
        key: &str,
        query: &str,
    ) -> Result<Vec<Work>, SourceError> {
        let s = &self.sources;
        match source {
            SourceName::Crossref => s.crossref.search(query, SEARCH_ROWS).await,
            SourceName::OpenAlex => s.openalex.search(query, SEARCH_ROWS).await,
            SourceName::S2 if key.starts_with("match:") => {
                s.s2.match_title(query)
                    .await
                    .map(|l| l.found().into_iter().collect())
            }
            SourceName::S2 => s.s2.search(query, SEARCH_ROWS).await,
            SourceName::Pubmed => s.pubmed.search_title(query, SEARCH_ROWS).await,
            SourceName::EuropePmc => s.europepmc.search_title(query, SEARCH_ROWS).await,
            SourceName::Arxiv => s.arxiv.search_title(query, SEARCH_ROWS).await,
            SourceName::Dblp => s.dblp.search(query, SEARCH_ROWS).await,
            SourceName::OpenReview => s.openreview.search(query, SEARCH_ROWS).await,
            other => Err(SourceError::Config(format!("{other} has no search"))),
        }
    }
}

/// Whether a failure is the source's (remembered for a while) rather than a request
/// this client cannot make at all.
fn remember_failure(error: &SourceError) -> bool {
    !matches!(error, SourceError::Config(_) | SourceError::Disabled)
}

/// An answer that arrived but could not be read (an HTML error page with status 200,
/// an empty or cut-off body): worth one more try, unlike a refusal.
fn is_garbled(result: &LookupResult) -> bool {
    matches!(result, Err(SourceError::Malformed(_)))
}

/// One request per id, all at once (the source's limiter spaces them).
async fn singles<'a, F, Fut>(ids: &'a [String], lookup: F) -> BatchResult
where
    F: Fn(&'a str) -> Fut,
    Fut: std::future::Future<Output = LookupResult>,
{
    let answers = join_all(ids.iter().map(|id| lookup(id))).await;
    ids.iter().cloned().zip(answers).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_matrix() {
        assert!(supports(SourceName::Crossref, IdScheme::Doi));
        assert!(!supports(SourceName::Crossref, IdScheme::Arxiv));
        assert!(supports(SourceName::DataCite, IdScheme::Arxiv));
        assert!(!supports(SourceName::Unpaywall, IdScheme::Doi));
        assert!(searches(SourceName::S2) && !searches(SourceName::Doi));
    }
}
