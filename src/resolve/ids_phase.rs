//! The identifier phase: every identifier of every reference in the run, looked up
//! before any search, one batched request per source and chain step. A chain asks its
//! sources in order until one has the identifier or the scheme's authority says it does
//! not exist (doi.org for DOIs — it covers Crossref, DataCite, mEDRA …; arXiv and
//! DataCite for arXiv ids; PubMed for PMIDs; Europe PMC for PMCIDs).

use std::collections::{BTreeSet, HashMap};

use futures::future::join_all;

use crate::model::{IdScheme, Work};
use crate::resolve::evidence::{Evidence, IdConclusion, IdEvidence, Via};
use crate::resolve::gate::GateThresholds;
use crate::resolve::lookup::{Answer, Lookups, supports};
use crate::resolve::options::SourcePlan;
use crate::resolve::query::RefQuery;
use crate::resolve::resolution::TryOutcome;
use crate::resolve::sources::SourceName;

/// Whether a source's "not found" settles that an identifier of `scheme` does not exist.
pub fn is_authority(source: SourceName, scheme: IdScheme) -> bool {
    matches!(
        (scheme, source),
        (IdScheme::Doi, SourceName::Doi)
            | (IdScheme::Arxiv, SourceName::Arxiv | SourceName::DataCite)
            | (IdScheme::Pmid, SourceName::Pubmed)
            | (IdScheme::Pmcid, SourceName::EuropePmc)
    )
}

/// One chain step for one identifier.
#[derive(Debug, Clone)]
pub struct Step {
    pub source: SourceName,
    pub answer: Answer<()>,
}

/// What the chain found out about one identifier.
#[derive(Debug, Clone)]
pub struct ChainResult {
    pub conclusion: IdConclusion,
    pub work: Option<Work>,
    pub steps: Vec<Step>,
    pub failures: Vec<String>,
}

/// Run one scheme's chain for a set of identifiers.
async fn chain(
    lookups: &Lookups,
    scheme: IdScheme,
    sources: &[SourceName],
    ids: Vec<String>,
) -> HashMap<String, ChainResult> {
    let mut results: HashMap<String, ChainResult> = ids
        .iter()
        .map(|id| {
            let r = ChainResult {
                conclusion: IdConclusion::Unknown,
                work: None,
                steps: Vec::new(),
                failures: Vec::new(),
            };
            (id.clone(), r)
        })
        .collect();
    let mut pending = ids;
    for &source in sources.iter().filter(|s| supports(**s, scheme)) {
        if pending.is_empty() {
            break;
        }
        let answers = lookups.ids(source, scheme, &pending).await;
        let mut still = Vec::new();
        for id in pending {
            let r = results.get_mut(&id).expect("every pending id has a result");
            let answer = answers
                .get(&id)
                .cloned()
                .unwrap_or_else(|| Answer::Failed("no answer".into()));
            let step_answer = match answer {
                Answer::Found(work) => {
                    r.conclusion = IdConclusion::Found;
                    r.work = Some(work);
                    Answer::Found(())
                }
                Answer::NotFound => {
                    if is_authority(source, scheme) {
                        r.conclusion = IdConclusion::NotFound;
                    }
                    Answer::NotFound
                }
                Answer::Failed(why) => {
                    r.failures.push(format!("{source}: {why}"));
                    Answer::Failed(why)
                }
                Answer::Offline => Answer::Offline,
            };
            r.steps.push(Step {
                source,
                answer: step_answer,
            });
            if r.conclusion == IdConclusion::Unknown {
                still.push(id);
            }
        }
        pending = still;
    }
    // Left undecided: "not found" only if every source asked said so (the authority
    // was disabled or cannot look this scheme up).
    for id in pending {
        let r = results.get_mut(&id).expect("result");
        if !r.steps.is_empty() && r.steps.iter().all(|s| s.answer == Answer::NotFound) {
            r.conclusion = IdConclusion::NotFound;
        }
    }
    results
}

/// Look up every identifier the references cite (those the evidence has not settled),
/// and add what was found to each reference's evidence.
pub async fn run(
    lookups: &Lookups,
    plan: &SourcePlan,
    queries: &[&RefQuery],
    evidence: &mut [&mut Evidence],
    t: &GateThresholds,
) {
    let mut wanted: HashMap<IdScheme, BTreeSet<String>> = HashMap::new();
    for (q, ev) in queries.iter().zip(evidence.iter()) {
        for id in q.cited_ids() {
            if !ev.id_concluded(&id) {
                wanted.entry(id.scheme).or_default().insert(id.value);
            }
        }
    }
    let chains = wanted.into_iter().map(|(scheme, ids)| async move {
        let results = chain(
            lookups,
            scheme,
            plan.chain(scheme),
            ids.into_iter().collect(),
        )
        .await;
        (scheme, results)
    });
    let results: HashMap<IdScheme, HashMap<String, ChainResult>> =
        join_all(chains).await.into_iter().collect();
    for (q, ev) in queries.iter().zip(evidence.iter_mut()) {
        for id in q.cited_ids() {
            if ev.id_concluded(&id) {
                continue;
            }
            let Some(r) = results.get(&id.scheme).and_then(|m| m.get(&id.value)) else {
                continue;
            };
            let accepted = match &r.work {
                Some(work) => ev.add(q, work.clone(), Via::Identifier(id.field), t),
                None => false,
            };
            for step in &r.steps {
                let outcome = match step.answer {
                    Answer::Found(()) if accepted => TryOutcome::Found,
                    Answer::Found(()) => TryOutcome::Rejected,
                    Answer::NotFound => TryOutcome::NotFound,
                    Answer::Failed(_) => TryOutcome::Failed,
                    Answer::Offline => TryOutcome::Offline,
                };
                ev.tried(step.source.as_str(), outcome);
            }
            ev.failures.extend(r.failures.iter().cloned());
            ev.ids.push(IdEvidence {
                id,
                conclusion: r.conclusion,
            });
        }
    }
}
