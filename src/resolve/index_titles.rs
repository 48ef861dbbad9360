//! Title candidates from any [`WorkStore`]: the engine proposes titles sharing words
//! with the cited title (or with a raw reference string), and they are re-scored here
//! with the title gate's own similarity, as the local corpus does — so every engine
//! gives the resolver the same candidates for the same titles.

use std::collections::HashSet;

use crate::model::Work;
use crate::resolve::normalize::{content_words, strip_retraction_prefix};
use crate::resolve::title_score::{PreparedTitle, prepared_score};
use crate::storage::works::{IndexError, TitleHit, WorkId, WorkStore};

/// Titles asked of the engine per query before re-scoring (the engine ranks by the
/// rarest shared words, so the closest titles come first; 32 and 64 gave the same
/// development-set results on a 1 M-work index, 32 at 1.5× the speed).
pub const ENGINE_HITS: usize = 32;

/// Words of a raw reference string that a record's title may lack and still be
/// "contained" in it (as the local corpus allows).
const RAW_MAX_MISSING: usize = 2;

/// A title this close to the cited one settles the search: the cheap conjunctive
/// search is enough, and the raw string need not be searched (it is searched for
/// references whose parsed title is wrong).
const SETTLED_SCORE: f64 = 0.9;

/// Distinct folded content words of a title.
pub fn title_words(title: &str) -> Vec<String> {
    let mut words = content_words(strip_retraction_prefix(title).0);
    let mut seen = HashSet::new();
    words.retain(|w| seen.insert(w.clone()));
    words
}

/// The records of the works whose titles come closest to `title` (at most `k` works),
/// and of those whose title the raw reference string contains.
pub fn title_candidates(
    store: &dyn WorkStore,
    title: Option<&str>,
    raw: &str,
    k: usize,
) -> Result<Vec<Work>, IndexError> {
    let mut chosen: Vec<WorkId> = Vec::new();
    let mut settled = false;
    if let Some(title) = title.filter(|t| !t.trim().is_empty()) {
        let (works, best) = closest(store, title, k)?;
        settled = best >= SETTLED_SCORE;
        chosen.extend(works);
    }
    let raw_words = if settled {
        Vec::new()
    } else {
        title_words(raw)
    };
    if raw_words.len() >= 2 {
        let present: HashSet<&str> = raw_words.iter().map(String::as_str).collect();
        let mut contained = Vec::new();
        for hit in store.title_hits(&raw_words, ENGINE_HITS)? {
            let words = title_words(&hit.title);
            let shared = words
                .iter()
                .filter(|w| present.contains(w.as_str()))
                .count();
            if shared > 0
                && shared + RAW_MAX_MISSING >= words.len()
                && !contained.contains(&hit.work)
            {
                contained.push(hit.work);
            }
        }
        chosen.extend(contained.into_iter().take(k));
    }
    chosen.sort_unstable();
    chosen.dedup();
    let mut works = Vec::new();
    for work in chosen {
        works.extend(store.records(work)?);
    }
    Ok(works)
}

/// The `k` works with the most similar titles, best first, and the best score: from
/// the titles containing the cited title's rarest words when one of them settles it,
/// else from those sharing any of its rarer words.
fn closest(store: &dyn WorkStore, title: &str, k: usize) -> Result<(Vec<WorkId>, f64), IndexError> {
    let words = title_words(title);
    if words.is_empty() {
        return Ok((Vec::new(), 0.0));
    }
    let prepared = PreparedTitle::new(title);
    let narrow = best_scored(
        &prepared,
        store.title_hits_with_all(&words, ENGINE_HITS)?,
        k,
    );
    if narrow.1 >= SETTLED_SCORE {
        return Ok(narrow);
    }
    Ok(best_scored(
        &prepared,
        store.title_hits(&words, ENGINE_HITS)?,
        k,
    ))
}

/// Hits re-scored with the title gate: the `k` best works and the best score.
fn best_scored(prepared: &PreparedTitle, hits: Vec<TitleHit>, k: usize) -> (Vec<WorkId>, f64) {
    let mut scored: Vec<(WorkId, f64)> = hits
        .into_iter()
        .map(|hit| {
            let score = prepared_score(prepared, &PreparedTitle::new(&hit.title)).0;
            (hit.work, score)
        })
        .filter(|(_, score)| *score > 0.0)
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let best = scored.first().map_or(0.0, |(_, s)| *s);
    let mut out: Vec<WorkId> = Vec::new();
    for (work, _) in scored {
        if !out.contains(&work) {
            out.push(work);
        }
        if out.len() == k {
            break;
        }
    }
    (out, best)
}
