//! Settings of a resolution run: which sources to ask and in what order, whether the
//! network may be used, local corpora, the cache, and the gate's and comparison's bars.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::cache::Cache;
use crate::model::IdScheme;
use crate::resolve::compare::CompareOptions;
use crate::resolve::corpus::Corpus;
use crate::resolve::gate::GateThresholds;
use crate::resolve::sources::{SettingsError, SourceName, SourcesSettings};
use crate::storage::works::WorkStore;

/// The order in which sources are asked.
///
/// Identifier chains are asked source by source until one has the work or the
/// scheme's authority (doi.org for DOIs, arXiv for arXiv ids, PubMed for PMIDs) says
/// it does not exist; each step is one batched request per source for the whole run.
/// Title search goes tier by tier, the sources of a tier in parallel, and stops at the
/// first tier that yields an accepted match.
#[derive(Debug, Clone, PartialEq)]
pub struct SourcePlan {
    pub doi: Vec<SourceName>,
    pub arxiv: Vec<SourceName>,
    pub pmid: Vec<SourceName>,
    pub pmcid: Vec<SourceName>,
    pub search: Vec<Vec<SourceName>>,
}

impl Default for SourcePlan {
    fn default() -> Self {
        use SourceName::*;
        SourcePlan {
            doi: vec![Crossref, Doi, OpenAlex],
            arxiv: vec![S2, Arxiv, DataCite],
            pmid: vec![Pubmed, EuropePmc],
            pmcid: vec![EuropePmc, S2],
            search: vec![
                vec![Crossref, OpenAlex],
                vec![S2],
                vec![EuropePmc, Pubmed, Arxiv],
                vec![Dblp, OpenReview],
            ],
        }
    }
}

impl SourcePlan {
    /// The identifier chain for a scheme (none for ISBNs and URLs).
    pub fn chain(&self, scheme: IdScheme) -> &[SourceName] {
        match scheme {
            IdScheme::Doi => &self.doi,
            IdScheme::Arxiv => &self.arxiv,
            IdScheme::Pmid => &self.pmid,
            IdScheme::Pmcid => &self.pmcid,
            IdScheme::Isbn | IdScheme::Url => &[],
        }
    }

    /// The plan without the given sources.
    pub fn without(&self, disabled: &[SourceName]) -> SourcePlan {
        let keep = |list: &Vec<SourceName>| -> Vec<SourceName> {
            list.iter()
                .copied()
                .filter(|s| !disabled.contains(s))
                .collect()
        };
        SourcePlan {
            doi: keep(&self.doi),
            arxiv: keep(&self.arxiv),
            pmid: keep(&self.pmid),
            pmcid: keep(&self.pmcid),
            search: self
                .search
                .iter()
                .map(keep)
                .filter(|tier| !tier.is_empty())
                .collect(),
        }
    }
}

/// The search order as written on the command line: tiers separated by `,`, the
/// sources of one tier joined by `+` (`crossref+openalex,s2,europepmc+pubmed+arxiv`).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOrder(pub Vec<Vec<SourceName>>);

impl FromStr for SearchOrder {
    type Err = SettingsError;

    fn from_str(s: &str) -> Result<SearchOrder, SettingsError> {
        let tiers = s
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|tier| {
                tier.split('+')
                    .map(str::parse::<SourceName>)
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SearchOrder(tiers))
    }
}

impl fmt::Display for SearchOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self
            .0
            .iter()
            .map(|tier| {
                tier.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect();
        f.write_str(&text.join(","))
    }
}

/// Where a resolution run stands, for progress bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// References decided so far.
    pub done: usize,
    pub total: usize,
}

/// Called from the run's tasks whenever a reference is decided.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// Everything a resolution run needs.
#[derive(Clone)]
pub struct ResolveOptions {
    /// Base URLs, keys, mailto, rate limits and the enabled flag of every source.
    pub sources: SourcesSettings,
    pub plan: SourcePlan,
    /// Use the cache and local corpora only; absence is then `unverified` unless the
    /// corpora are declared complete.
    pub offline: bool,
    /// Local works consulted before any network source.
    pub corpus: Option<Arc<Corpus>>,
    /// The corpora hold every work that may be cited: absence from them is `not_found`,
    /// and no network source is asked.
    pub corpus_complete: bool,
    /// An offline index of the scholarly record (`citeproof index build`), consulted
    /// after the corpora and before any network source.
    pub index: Option<Arc<dyn WorkStore>>,
    /// The index holds every work that may be cited: absence from it is `not_found`,
    /// and no network source is asked.
    pub index_complete: bool,
    pub cache: Option<Cache>,
    pub gate: GateThresholds,
    pub compare: CompareOptions,
    /// Fetch a citation's URL even when its host is an internal address (intranet
    /// mirrors, tests).
    pub allow_private_urls: bool,
    /// References searched at once (the per-source limits still apply).
    pub concurrency: usize,
    pub progress: Option<ProgressFn>,
}

impl fmt::Debug for ResolveOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResolveOptions")
            .field("plan", &self.plan)
            .field("offline", &self.offline)
            .field("corpus", &self.corpus.as_ref().map(|c| c.len()))
            .field("corpus_complete", &self.corpus_complete)
            .field("index", &self.index.is_some())
            .field("index_complete", &self.index_complete)
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

impl Default for ResolveOptions {
    fn default() -> Self {
        ResolveOptions {
            sources: SourcesSettings::default(),
            plan: SourcePlan::default(),
            offline: false,
            corpus: None,
            corpus_complete: false,
            index: None,
            index_complete: false,
            cache: None,
            gate: GateThresholds::default(),
            compare: CompareOptions::default(),
            allow_private_urls: false,
            concurrency: 64,
            progress: None,
        }
    }
}

impl ResolveOptions {
    /// Whether network sources are asked at all.
    pub fn uses_network(&self) -> bool {
        !self.offline && !self.corpus_complete && !self.index_complete
    }

    /// The plan restricted to enabled sources.
    pub fn effective_plan(&self) -> SourcePlan {
        let disabled: Vec<SourceName> = self
            .sources
            .sources
            .iter()
            .filter(|s| !s.enabled)
            .map(|s| s.name)
            .collect();
        self.plan.without(&disabled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_order_round_trips_and_names_bad_sources() {
        let order: SearchOrder = "crossref+openalex, s2 ,arxiv".parse().unwrap();
        assert_eq!(order.0.len(), 3);
        assert_eq!(order.0[0], vec![SourceName::Crossref, SourceName::OpenAlex]);
        assert_eq!(order.to_string(), "crossref+openalex,s2,arxiv");
        let err = "crossref+scholar".parse::<SearchOrder>().unwrap_err();
        assert!(err.to_string().contains("scholar"));
    }

    #[test]
    fn disabling_removes_sources_and_empty_tiers() {
        let plan = SourcePlan::default().without(&[SourceName::S2, SourceName::Doi]);
        assert_eq!(plan.doi, vec![SourceName::Crossref, SourceName::OpenAlex]);
        assert!(plan.search.iter().all(|t| !t.contains(&SourceName::S2)));
        // The tier that held only S2 is gone; the others stay.
        assert_eq!(plan.search.len(), SourcePlan::default().search.len() - 1);
    }
}
