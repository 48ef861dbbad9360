//! Cited works given by identifier (the `verify` command's `doi` / `arxiv` / `pmid` /
//! `pmcid` inputs), looked up with batch requests: Semantic Scholar's paper batch for
//! every identifier first (its records carry abstracts), then, for those it did not
//! give, Crossref (DOIs), arXiv (`id_list`), PubMed (`id=` lists) and Europe PMC
//! (PMCIDs). A source that fails makes the answer "unknown", never "not found".

use std::collections::HashMap;

use crate::model::{IdScheme, Work};
use crate::parse::ids::{normalize_arxiv, normalize_doi, normalize_pmcid, normalize_pmid};
use crate::resolve::sources::{BatchResult, Lookup, LookupResult, Sources, s2};

/// What the sources said about one identifier.
#[derive(Debug, Clone, PartialEq)]
pub enum IdLookup {
    Found(Box<Work>),
    /// Every source asked answered, and none has it.
    NotFound,
    /// No source had it and at least one could not be asked (we do not know).
    Failed(String),
}

/// The identifier in its normal form, or `None` when it is not one of its scheme.
pub fn normalize(scheme: IdScheme, raw: &str) -> Option<String> {
    match scheme {
        IdScheme::Doi => normalize_doi(raw),
        IdScheme::Arxiv => normalize_arxiv(raw),
        IdScheme::Pmid => normalize_pmid(raw),
        IdScheme::Pmcid => normalize_pmcid(raw),
        IdScheme::Isbn | IdScheme::Url => None,
    }
}

#[derive(Default)]
struct Tally {
    found: Option<Work>,
    failures: Vec<String>,
}

impl Tally {
    fn take(&mut self, source: &str, answer: LookupResult) {
        match answer {
            Ok(Lookup::Found(w)) if self.found.is_none() => self.found = Some(w),
            Ok(_) => {}
            Err(e) => self.failures.push(format!("{source}: {e}")),
        }
    }
}

/// Look up normalised identifiers; one answer per identifier, in order.
pub async fn works_by_id(sources: &Sources, ids: &[(IdScheme, String)]) -> Vec<IdLookup> {
    let mut tallies: Vec<Tally> = ids.iter().map(|_| Tally::default()).collect();
    let s2_ids: Vec<(usize, String)> = ids
        .iter()
        .enumerate()
        .filter_map(|(i, (scheme, id))| s2::paper_id(*scheme, id).map(|p| (i, p)))
        .collect();
    let asked: Vec<String> = s2_ids.iter().map(|(_, p)| p.clone()).collect();
    if !asked.is_empty() {
        let answers = sources.s2.lookup_batch(&asked).await;
        for ((i, _), (_, answer)) in s2_ids.iter().zip(answers) {
            tallies[*i].take("s2", answer);
        }
    }
    let missing = |scheme: IdScheme, tallies: &[Tally]| -> Vec<(usize, String)> {
        ids.iter()
            .enumerate()
            .filter(|(i, (s, _))| *s == scheme && tallies[*i].found.is_none())
            .map(|(i, (_, id))| (i, id.clone()))
            .collect()
    };
    for scheme in [IdScheme::Doi, IdScheme::Arxiv, IdScheme::Pmid, IdScheme::Pmcid] {
        let wanted = missing(scheme, &tallies);
        if wanted.is_empty() {
            continue;
        }
        let list: Vec<String> = wanted.iter().map(|(_, id)| id.clone()).collect();
        let (name, answers): (&str, BatchResult) = match scheme {
            IdScheme::Doi => ("crossref", sources.crossref.lookup_dois(&list).await),
            IdScheme::Arxiv => ("arxiv", sources.arxiv.lookup_ids(&list).await),
            IdScheme::Pmid => ("pubmed", sources.pubmed.lookup_pmids(&list).await),
            _ => {
                let mut out = Vec::new();
                for id in &list {
                    out.push((id.clone(), sources.europepmc.lookup_pmcid(id).await));
                }
                ("europepmc", out)
            }
        };
        let by_id: HashMap<String, LookupResult> = answers.into_iter().collect();
        for (i, id) in wanted {
            if let Some(answer) = by_id.get(&id) {
                tallies[i].take(name, answer.clone());
            }
        }
    }
    tallies
        .into_iter()
        .map(|t| match (t.found, t.failures.is_empty()) {
            (Some(w), _) => IdLookup::Found(Box::new(w)),
            (None, true) => IdLookup::NotFound,
            (None, false) => IdLookup::Failed(t.failures.join("; ")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_normalised_per_scheme() {
        assert_eq!(
            normalize(IdScheme::Doi, "https://doi.org/10.1038/NPHYS1170").as_deref(),
            Some("10.1038/nphys1170")
        );
        assert_eq!(
            normalize(IdScheme::Arxiv, "arXiv:1706.03762v5").as_deref(),
            Some("1706.03762")
        );
        assert_eq!(normalize(IdScheme::Pmid, "PMID: 123").as_deref(), Some("123"));
        assert_eq!(normalize(IdScheme::Pmid, "abc"), None);
        assert_eq!(normalize(IdScheme::Url, "https://x.org"), None);
    }
}
