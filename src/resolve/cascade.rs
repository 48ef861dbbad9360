//! The cascade over a whole run of references:
//!
//! 1. local corpora (identifiers, then titles);
//! 2. every cited identifier of every unsettled reference, batched across the run;
//! 3. title / bibliographic search for references still without an accepted record
//!    (many references at once; each source's limiter paces its requests);
//! 4. the computing platforms: an OpenReview forum or ACL Anthology paper the reference
//!    links, and OpenReview's decision on a submission cited as a paper of its venue;
//! 5. the citation's URL (landing-page metadata);
//! 6. a retraction and expression-of-concern check of the chosen records that come
//!    from a source without that information (Crossref `updated-by`, batched);
//! 7. the verdict per reference.
//!
//! Identical references (a bibliography shared by two documents) are resolved once.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::StreamExt;

use crate::model::{IdScheme, Work};
use crate::net::{Net, NetConfig, NetError, SourceStats};
use crate::resolve::corpus::CORPUS_SOURCE;
use crate::resolve::evidence::{Evidence, IdConclusion, IdEvidence, Via, consult_selected};
use crate::resolve::identifiers::is_preprint_doi;
use crate::resolve::landing::{LANDING_SOURCE, LandingFetcher};
use crate::resolve::lookup::{Answer, Lookups};
use crate::resolve::options::{Progress, ResolveOptions, SourcePlan};
use crate::resolve::query::RefQuery;
use crate::resolve::resolution::{Resolution, TryOutcome};
use crate::resolve::sources::wayback::Snapshot;
use crate::resolve::sources::{SourceName, Sources};
use crate::resolve::{
    ids_phase, index_source, kind_phase, published, search_phase, venue_phase, verdict,
};

/// Resolves references; holds the HTTP clients, the cache and the corpora, so one
/// resolver can serve many runs (a language server keeps one).
pub struct Resolver {
    options: ResolveOptions,
    plan: SourcePlan,
    lookups: Lookups,
    landing: Option<LandingFetcher>,
    net: Arc<Net>,
}

/// A resolver that could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error("HTTP client: {0}")]
    Net(#[from] NetError),
    #[error("cannot start the resolution runtime: {0}")]
    Runtime(String),
}

impl Resolver {
    pub fn new(options: ResolveOptions) -> Result<Resolver, ResolveError> {
        let mailto = options
            .sources
            .sources
            .iter()
            .find_map(|s| s.mailto.clone());
        let net = Arc::new(Net::new(&NetConfig {
            mailto,
            ..NetConfig::default()
        })?);
        let sources = Sources::new(&net, &options.sources);
        let landing_timeout = options
            .sources
            .sources
            .first()
            .map_or(Duration::from_secs(30), |s| s.timeout);
        let landing = if options.uses_network() {
            Some(LandingFetcher::new(
                &options.sources,
                options.allow_private_urls,
                landing_timeout,
            )?)
        } else {
            None
        };
        Ok(Resolver {
            plan: options.effective_plan(),
            lookups: Lookups {
                sources,
                cache: options.cache.clone(),
                offline: !options.uses_network(),
            },
            landing,
            net,
            options,
        })
    }

    pub fn options(&self) -> &ResolveOptions {
        &self.options
    }

    /// The HTTP client, whose per-source limiters later stages (verification's
    /// full-text fetches) share, so a service's rate limit holds for the whole run.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The source clients, on [`Self::net`].
    pub fn sources(&self) -> &Sources {
        &self.lookups.sources
    }

    /// Requests sent upstream so far, per source.
    pub fn stats(&self) -> Vec<SourceStats> {
        self.net.stats()
    }

    /// Resolve every query; the result is in the order of `queries`.
    pub async fn resolve(&self, queries: &[RefQuery]) -> Vec<Resolution> {
        let mut unique: Vec<&RefQuery> = Vec::new();
        let mut slot_of: HashMap<String, usize> = HashMap::new();
        let slots: Vec<Option<usize>> = queries
            .iter()
            .map(|q| {
                if !q.is_resolvable() {
                    return None;
                }
                let key = format!("{:?}|{}|{:?}", q.fields, q.raw, q.kind);
                Some(*slot_of.entry(key).or_insert_with(|| {
                    unique.push(q);
                    unique.len() - 1
                }))
            })
            .collect();
        let resolved = self.resolve_unique(&unique).await;
        slots
            .into_iter()
            .map(|slot| match slot {
                Some(i) => resolved[i].clone(),
                None => Resolution::unresolvable(),
            })
            .collect()
    }

    async fn resolve_unique(&self, queries: &[&RefQuery]) -> Vec<Resolution> {
        let t = &self.options.gate;
        let done = AtomicUsize::new(0);
        let total = queries.len();
        let report = |n: usize| {
            let now = done.fetch_add(n, Ordering::Relaxed) + n;
            if let Some(progress) = &self.options.progress {
                progress(Progress { done: now, total });
            }
        };
        let mut evidence: Vec<Evidence> = queries.iter().map(|q| self.corpus(q)).collect();
        index_source::consult_all(&self.options, queries, &mut evidence);
        let network = !self.options.corpus_complete && !self.options.index_complete;
        if network {
            let open: Vec<bool> = evidence.iter().map(|e| !e.has_accepted()).collect();
            let open_queries: Vec<&RefQuery> = (0..queries.len())
                .filter(|&i| open[i])
                .map(|i| queries[i])
                .collect();
            let mut open_evidence: Vec<&mut Evidence> = evidence
                .iter_mut()
                .enumerate()
                .filter(|(i, _)| open[*i])
                .map(|(_, e)| e)
                .collect();
            ids_phase::run(
                &self.lookups,
                &self.plan,
                &open_queries,
                &mut open_evidence,
                t,
            )
            .await;
            self.search_all(queries, &mut evidence, &report).await;
            kind_phase::run(&self.lookups, queries, &mut evidence, t).await;
            venue_phase::run(&self.lookups, queries, &mut evidence, t).await;
            self.urls(queries, &mut evidence).await;
        } else {
            report(queries.len());
        }
        let chosen: Vec<Option<usize>> = queries
            .iter()
            .zip(&evidence)
            .map(|(q, ev)| verdict::choose(q, ev, t, &self.options.compare))
            .collect();
        if network {
            self.check_retractions(&mut evidence, &chosen).await;
        }
        queries
            .iter()
            .zip(evidence)
            .zip(chosen)
            .map(|((q, ev), c)| verdict::decide(q, ev, c, t, &self.options.compare))
            .collect()
    }

    /// Local corpora: records carrying a cited identifier, then title matches.
    fn corpus(&self, q: &RefQuery) -> Evidence {
        let mut ev = Evidence::default();
        let Some(corpus) = &self.options.corpus else {
            return ev;
        };
        let t = &self.options.gate;
        let complete = self.options.corpus_complete;
        for id in q.cited_ids() {
            match corpus.by_id(id.scheme, &id.value) {
                Some(work) => {
                    ev.add(q, work.clone(), Via::Corpus, t);
                    ev.ids.push(IdEvidence {
                        id,
                        conclusion: IdConclusion::Found,
                    });
                }
                None if complete => ev.ids.push(IdEvidence {
                    id,
                    conclusion: IdConclusion::NotFound,
                }),
                None => {}
            }
        }
        if !ev.has_accepted() && !q.is_identifier_only() {
            for work in corpus.title_candidates(q.fields.title.as_deref(), &q.raw, 5) {
                ev.add(q, work.clone(), Via::Corpus, t);
            }
        }
        let outcome = match (ev.has_accepted(), ev.candidates.is_empty()) {
            (true, _) => TryOutcome::Found,
            (false, false) => TryOutcome::Rejected,
            (false, true) => TryOutcome::NotFound,
        };
        ev.tried(CORPUS_SOURCE, outcome);
        if complete {
            ev.search_complete = Some(true);
            ev.declared_complete = true;
        }
        ev
    }

    /// Title search for every reference without an accepted record, many at once.
    async fn search_all(
        &self,
        queries: &[&RefQuery],
        evidence: &mut [Evidence],
        report: &(impl Fn(usize) + Sync),
    ) {
        let t = &self.options.gate;
        // A preprint found for a reference that names a journal or conference cannot
        // check that venue: the published version is searched for. A reference not
        // searched counts as done at once.
        let wants_search = |i: usize, ev: &Evidence| {
            let settled =
                ev.has_accepted() && !published::wants_published_version(&queries[i].fields, ev);
            let search = !settled && queries[i].is_searchable();
            if !search {
                report(1);
            }
            search
        };
        consult_selected(
            evidence,
            self.options.concurrency,
            wants_search,
            |i, mut ev| async move {
                search_phase::run(
                    &self.lookups,
                    &self.plan,
                    queries[i],
                    &mut ev,
                    t,
                    &self.options.compare,
                )
                .await;
                report(1);
                ev
            },
        )
        .await;
    }

    /// The citation's URL, for references that are still without a record.
    async fn urls(&self, queries: &[&RefQuery], evidence: &mut [Evidence]) {
        let Some(landing) = &self.landing else {
            return;
        };
        let t = &self.options.gate;
        let wanted: Vec<(usize, &str)> = queries
            .iter()
            .enumerate()
            .filter(|(i, _)| !evidence[*i].has_accepted())
            .filter_map(|(i, q)| q.landing_url().map(|u| (i, u)))
            .collect();
        let cache = self.lookups.cache.as_ref();
        let answers: Vec<(usize, Answer<Work>)> =
            futures::stream::iter(wanted)
                .map(|(i, url)| async move {
                    (i, landing.fetch(url, cache, self.lookups.offline).await)
                })
                .buffer_unordered(8)
                .collect()
                .await;
        let mut gone: Vec<(usize, &str)> = Vec::new();
        for (i, answer) in answers {
            let ev = &mut evidence[i];
            let outcome = match answer {
                Answer::Found(work) => {
                    if ev.add(queries[i], work, Via::Url, t) {
                        TryOutcome::Found
                    } else {
                        TryOutcome::Rejected
                    }
                }
                Answer::NotFound => {
                    gone.extend(queries[i].landing_url().map(|u| (i, u)));
                    TryOutcome::NotFound
                }
                // A page that could not be read establishes nothing either way.
                Answer::Failed(why) => {
                    ev.failures.push(format!("{LANDING_SOURCE}: {why}"));
                    ev.kind_incomplete = true;
                    TryOutcome::Failed
                }
                Answer::Offline => {
                    ev.kind_incomplete = true;
                    TryOutcome::Offline
                }
            };
            ev.tried(LANDING_SOURCE, outcome);
        }
        self.archived(landing, queries, evidence, gone).await;
    }

    /// Cited pages that are gone: the Wayback Machine's closest copy, read as the page.
    async fn archived(
        &self,
        landing: &LandingFetcher,
        queries: &[&RefQuery],
        evidence: &mut [Evidence],
        gone: Vec<(usize, &str)>,
    ) {
        let t = &self.options.gate;
        let source = SourceName::Wayback.as_str();
        let wayback = &self.lookups.sources.wayback;
        let cache = self.lookups.cache.as_ref();
        let copies: Vec<(usize, Answer<Snapshot>, Option<Answer<Work>>)> =
            futures::stream::iter(gone)
                .map(|(i, url)| async move {
                    let key = format!("url:{url}");
                    let snapshot = self
                        .lookups
                        .through_cache(source, &key, || wayback.closest(url))
                        .await;
                    let page = match &snapshot {
                        Answer::Found(s) => {
                            Some(landing.fetch(&s.url, cache, self.lookups.offline).await)
                        }
                        _ => None,
                    };
                    (i, snapshot, page)
                })
                .buffer_unordered(4)
                .collect()
                .await;
        for (i, snapshot, page) in copies {
            let ev = &mut evidence[i];
            let outcome = match (snapshot, page) {
                (Answer::Found(s), Some(Answer::Found(mut work))) => {
                    ev.notes.push(format!(
                        "the cited page is gone; the Wayback Machine holds a copy{}: {}",
                        s.year().map(|y| format!(" from {y}")).unwrap_or_default(),
                        s.url
                    ));
                    work.source = source.to_string();
                    if ev.add(queries[i], work, Via::Url, t) {
                        TryOutcome::Found
                    } else {
                        TryOutcome::Rejected
                    }
                }
                (Answer::Found(s), _) => {
                    ev.notes.push(format!(
                        "the cited page is gone; the Wayback Machine holds a copy{} that could not be read: {}",
                        s.year().map(|y| format!(" from {y}")).unwrap_or_default(),
                        s.url
                    ));
                    ev.kind_incomplete = true;
                    TryOutcome::Failed
                }
                (Answer::NotFound, _) => {
                    ev.notes.push(
                        "the cited page is gone and the Wayback Machine holds no copy of it".into(),
                    );
                    TryOutcome::NotFound
                }
                (Answer::Failed(why), _) => {
                    ev.failures.push(format!("{source}: {why}"));
                    ev.kind_incomplete = true;
                    TryOutcome::Failed
                }
                (Answer::Offline, _) => TryOutcome::Offline,
            };
            ev.tried(source, outcome);
        }
    }

    /// Crossref's `updated-by` is the one place that records retractions (Retraction
    /// Watch included) and expressions of concern for every Crossref DOI; records from
    /// other sources are checked against it.
    async fn check_retractions(&self, evidence: &mut [Evidence], chosen: &[Option<usize>]) {
        if !self.plan.doi.contains(&SourceName::Crossref) {
            return;
        }
        let needs_check = |w: &Work| {
            w.source != SourceName::Crossref.as_str()
                && w.source != CORPUS_SOURCE
                && !w.source.starts_with(crate::storage::works::INDEX_SOURCE)
                && w.doi.as_deref().is_some_and(|d| !is_preprint_doi(d))
        };
        let mut dois: Vec<String> = evidence
            .iter()
            .zip(chosen)
            .filter_map(|(ev, c)| c.map(|i| &ev.candidates[i].work))
            .filter(|w| needs_check(w))
            .filter_map(|w| w.doi.clone())
            .collect();
        dois.sort();
        dois.dedup();
        if dois.is_empty() {
            return;
        }
        let answers = self
            .lookups
            .ids(SourceName::Crossref, IdScheme::Doi, &dois)
            .await;
        for (ev, c) in evidence.iter_mut().zip(chosen) {
            let Some(i) = *c else { continue };
            let work = &ev.candidates[i].work;
            if !needs_check(work) {
                continue;
            }
            let doi = work.doi.clone().unwrap_or_default();
            match answers.get(&doi) {
                Some(Answer::Found(record)) => {
                    let (retracted, concern) = (record.is_retracted, record.has_concern);
                    let work = &mut ev.candidates[i].work;
                    work.is_retracted |= retracted;
                    work.has_concern |= concern;
                }
                Some(Answer::Failed(why)) => ev
                    .notes
                    .push(format!("retraction status not checked: crossref: {why}")),
                _ => {}
            }
        }
    }
}

/// A runtime for callers without one.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, ResolveError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| ResolveError::Runtime(e.to_string()))
}

/// Resolve `queries` on a runtime of its own (for callers without one).
pub fn resolve_blocking(
    options: ResolveOptions,
    queries: &[RefQuery],
) -> Result<(Vec<Resolution>, Vec<SourceStats>), ResolveError> {
    runtime()?.block_on(async {
        let resolver = Resolver::new(options)?;
        let resolutions = resolver.resolve(queries).await;
        Ok((resolutions, resolver.stats()))
    })
}
