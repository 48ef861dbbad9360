//! The offline index (`--index`) as one more local source, consulted like the local
//! corpus before any network source: the records of the work carrying a cited
//! identifier, then the works with the closest titles, every record through the same
//! title gate and comparisons as any other source's.

use crate::resolve::evidence::{Evidence, IdConclusion, IdEvidence, Via};
use crate::resolve::gate::GateThresholds;
use crate::resolve::index_titles::title_candidates;
use crate::resolve::options::ResolveOptions;
use crate::resolve::query::RefQuery;
use crate::resolve::resolution::TryOutcome;
use crate::storage::works::{INDEX_SOURCE, WorkStore};

/// Works proposed per title search (as for the local corpus).
const TITLE_CANDIDATES: usize = 5;

/// Below this many references the index is consulted on the calling thread.
const PARALLEL_FROM: usize = 64;

/// Consult the index for every reference that has no accepted record yet, on as many
/// threads as there are cores (the index is read through a pool of connections).
pub fn consult_all(options: &ResolveOptions, queries: &[&RefQuery], evidence: &mut [Evidence]) {
    let Some(store) = options.index.as_deref() else {
        return;
    };
    let (t, complete) = (&options.gate, options.index_complete);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if queries.len() < PARALLEL_FROM || threads < 2 {
        for (q, ev) in queries.iter().zip(evidence.iter_mut()) {
            consult(store, q, ev, t, complete);
        }
        return;
    }
    // References are handed out one at a time: their costs differ by orders of
    // magnitude (an identifier lookup against title searches), so fixed shares idle.
    let next = std::sync::Mutex::new(queries.iter().zip(evidence.iter_mut()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let item = next.lock().map(|mut it| it.next());
                    let Ok(Some((q, ev))) = item else { break };
                    consult(store, q, ev, t, complete);
                }
            });
        }
    });
}

/// One reference: identifiers, then titles. A failing index leaves the reference
/// open (unverified unless another source settles it), never "not found".
pub fn consult(
    store: &dyn WorkStore,
    q: &RefQuery,
    ev: &mut Evidence,
    t: &GateThresholds,
    complete: bool,
) {
    if ev.has_accepted() {
        return;
    }
    let before = ev.candidates.len();
    let mut failed = None;
    for id in q.cited_ids() {
        match store.by_id(id.scheme, &id.value) {
            Ok(works) if !works.is_empty() => {
                for work in works {
                    ev.add(q, work, Via::Corpus, t);
                }
                ev.ids
                    .retain(|e| !(e.id == id && e.conclusion == IdConclusion::NotFound));
                if !ev.id_concluded(&id) {
                    ev.ids.push(IdEvidence {
                        id,
                        conclusion: IdConclusion::Found,
                    });
                }
            }
            Ok(_) if complete && !ev.id_concluded(&id) => ev.ids.push(IdEvidence {
                id,
                conclusion: IdConclusion::NotFound,
            }),
            Ok(_) => {}
            Err(e) => failed = Some(e.to_string()),
        }
    }
    if !ev.has_accepted() && !q.is_identifier_only() {
        match title_candidates(store, q.fields.title.as_deref(), &q.raw, TITLE_CANDIDATES) {
            Ok(works) => {
                for work in works {
                    ev.add(q, work, Via::Corpus, t);
                }
            }
            Err(e) => failed = Some(e.to_string()),
        }
    }
    let outcome = match (&failed, ev.has_accepted(), ev.candidates.len() > before) {
        (_, true, _) => TryOutcome::Found,
        (Some(_), false, _) => TryOutcome::Failed,
        (None, false, true) => TryOutcome::Rejected,
        (None, false, false) => TryOutcome::NotFound,
    };
    ev.tried(INDEX_SOURCE, outcome);
    match failed {
        Some(why) => {
            ev.failures.push(format!("{INDEX_SOURCE}: {why}"));
            if complete {
                ev.search_complete = Some(false);
            }
        }
        None if complete => ev.search_complete = Some(true),
        None => {}
    }
}
