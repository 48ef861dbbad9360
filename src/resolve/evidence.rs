//! What the cascade has learnt about one reference so far: the candidate records with
//! the gate's verdict on each, what became of each cited identifier, whether the title
//! search heard from every source it needed, and which sources were asked.

use std::future::Future;

use futures::StreamExt;

use crate::model::Work;
use crate::resolve::gate::{GateDecision, GateThresholds};
use crate::resolve::lookup::Answer;
use crate::resolve::mismatch::Field;
use crate::resolve::query::{CitedId, RefQuery};
use crate::resolve::resolution::{SourceTry, TryOutcome};

/// How a candidate was found; also the order of preference between accepted ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Via {
    Corpus,
    Identifier(Field),
    Search,
    Url,
}

#[derive(Debug, Clone)]
pub struct Candidate {
    pub work: Work,
    pub via: Via,
    pub decision: GateDecision,
}

/// What is known about a cited identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdConclusion {
    /// Some source has a record for it.
    Found,
    /// The scheme's authority (or every source asked) says no such identifier exists.
    NotFound,
    /// Sources failed or were not asked: existence unknown.
    Unknown,
}

#[derive(Debug, Clone)]
pub struct IdEvidence {
    pub id: CitedId,
    pub conclusion: IdConclusion,
}

#[derive(Debug, Clone, Default)]
pub struct Evidence {
    pub candidates: Vec<Candidate>,
    pub ids: Vec<IdEvidence>,
    /// `None`: no title search was made; `Some(false)`: a needed source failed.
    pub search_complete: Option<bool>,
    pub tries: Vec<SourceTry>,
    pub failures: Vec<String>,
    pub notes: Vec<String>,
    /// An authority that holds every work of the cited kind (the RFC index, a package
    /// registry) answered that it has no such one: why, in a phrase.
    pub kind_absent: Option<String>,
    /// A source that could establish a work of the cited kind (its book catalogue, its
    /// registry, the cited URL) failed: absence cannot be concluded.
    pub kind_incomplete: bool,
    /// The book a cited chapter is in was found: the chapter itself, absent from the
    /// indexes, is only unconfirmed.
    pub container_found: bool,
    /// A local corpus declared complete settled the search: its silence is final for
    /// every kind of work.
    pub declared_complete: bool,
}

impl Evidence {
    /// Gate a record and keep it; returns whether it was accepted.
    pub fn add(&mut self, q: &RefQuery, work: Work, via: Via, t: &GateThresholds) -> bool {
        let decision = q.judge(&work, t);
        // The same record found twice (by DOI and by search) is kept once.
        let same = |c: &Candidate| c.work.source == work.source && c.work == work;
        if !self.candidates.iter().any(same) {
            self.candidates.push(Candidate {
                work,
                via,
                decision,
            });
        }
        decision.accepted
    }

    /// Keep a record whose acceptance was decided by what identifies it (a package
    /// name, an RFC number) rather than by the title gate.
    pub fn add_decided(&mut self, work: Work, via: Via, decision: GateDecision) -> bool {
        let same = |c: &Candidate| c.work.source == work.source && c.work == work;
        if !self.candidates.iter().any(same) {
            self.candidates.push(Candidate {
                work,
                via,
                decision,
            });
        }
        decision.accepted
    }

    pub fn has_accepted(&self) -> bool {
        self.candidates.iter().any(|c| c.decision.accepted)
    }

    pub fn tried(&mut self, source: &str, outcome: TryOutcome) {
        self.tries.push(SourceTry {
            source: source.to_string(),
            outcome,
        });
    }

    /// Record a search answer: its hits become candidates; returns whether one was
    /// accepted and whether the source answered.
    pub fn add_hits(
        &mut self,
        q: &RefQuery,
        source: &str,
        answer: Answer<Vec<Work>>,
        t: &GateThresholds,
    ) -> (bool, bool) {
        match answer {
            Answer::Found(works) => {
                let mut accepted = false;
                for work in works {
                    accepted |= self.add(q, work, Via::Search, t);
                }
                let outcome = if accepted {
                    TryOutcome::Found
                } else {
                    TryOutcome::Rejected
                };
                self.tried(source, outcome);
                (accepted, true)
            }
            Answer::NotFound => {
                self.tried(source, TryOutcome::NotFound);
                (false, true)
            }
            Answer::Failed(why) => {
                self.tried(source, TryOutcome::Failed);
                self.failures.push(format!("{source}: {why}"));
                (false, false)
            }
            Answer::Offline => {
                self.tried(source, TryOutcome::Offline);
                (false, false)
            }
        }
    }

    /// Every cited identifier's existence is settled one way or the other.
    pub fn ids_settled(&self) -> bool {
        self.ids
            .iter()
            .all(|i| i.conclusion != IdConclusion::Unknown)
    }

    pub fn id_concluded(&self, id: &CitedId) -> bool {
        self.ids
            .iter()
            .any(|e| e.id == *id && e.conclusion != IdConclusion::Unknown)
    }
}

/// Run `consult` on the evidence of every reference `select` picks, `concurrency` at a
/// time: each reference's evidence is moved into its task and put back when it is done.
pub async fn consult_selected<Fut>(
    evidence: &mut [Evidence],
    concurrency: usize,
    mut select: impl FnMut(usize, &Evidence) -> bool,
    consult: impl Fn(usize, Evidence) -> Fut,
) where
    Fut: Future<Output = Evidence>,
{
    let jobs: Vec<(usize, Evidence)> = evidence
        .iter_mut()
        .enumerate()
        .filter(|(i, ev)| select(*i, ev))
        .map(|(i, ev)| (i, std::mem::take(ev)))
        .collect();
    let consult = &consult;
    let done: Vec<(usize, Evidence)> = futures::stream::iter(jobs)
        .map(|(i, ev)| async move { (i, consult(i, ev).await) })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    for (i, ev) in done {
        evidence[i] = ev;
    }
}
