//! Clean's side of the shared judge ([`crate::verify::judge`]): the works a citation may name
//! or be compared with — the request's sources (closed world), or the works the
//! answer's references resolved to (open world) — and one occurrence per citation,
//! judged on its own sentence.
//!
//! Works cited in the same sentence (or, outside sentences, at the same marker) are
//! never rivals of each other, and no rival is sought for a sentence where a citation
//! could not be resolved or its article's abstract could not be fetched because a
//! source failed: the comparison would rest on incomplete evidence, and a failure must
//! never remove a citation.

use std::collections::{HashMap, HashSet};

use crate::model::Work;
use crate::verify::judge::{Candidate, Judge, Judgement, Occurrence};
use crate::verify::sentence_model::SentenceModelError;

use super::article::Article;
use super::find::{Finding, FoundWork};
use super::read::Reading;

fn found(f: &Finding) -> Option<&FoundWork> {
    match f {
        Finding::Found(found) => Some(found.as_ref()),
        _ => None,
    }
}

/// Whether what a citation names is known only in part because a source failed.
fn incomplete(finding: &Finding) -> bool {
    match finding {
        Finding::Unverified { .. } | Finding::NotIndexed { .. } => true,
        Finding::Found(found) => found.abstract_failed.is_some(),
        Finding::NotFound { .. } => false,
    }
}

/// Judge every citation that names a found work; `None` for the others and where
/// there was nothing to compare. `rivals` false compares each citation with its own
/// work only.
pub fn judge_citations(
    judge: &Judge,
    sources: Option<&[Article]>,
    reading: &Reading,
    findings: &[Finding],
    contexts: &[String],
    rivals: bool,
) -> Result<Vec<Option<Judgement>>, SentenceModelError> {
    let (candidates, candidate_of): (Vec<Candidate>, Vec<Option<usize>>) = match sources {
        Some(sources) => (
            sources
                .iter()
                .enumerate()
                .map(|(i, a)| Candidate {
                    name: format!("source {}", i + 1),
                    title: a.title(),
                    abstract_text: a.abstract_text(),
                })
                .collect(),
            findings
                .iter()
                .map(|f| found(f).and_then(|w| w.record.index))
                .collect(),
        ),
        None => {
            let mut works: Vec<&Work> = Vec::new();
            for f in findings.iter().filter_map(found) {
                if !works.iter().any(|w| w.same_record(&f.work)) {
                    works.push(&f.work);
                }
            }
            let index = findings
                .iter()
                .map(|f| found(f).and_then(|w| works.iter().position(|o| o.same_record(&w.work))))
                .collect();
            (
                works
                    .iter()
                    .map(|w| Candidate {
                        name: format!("the cited work \"{}\"", w.title),
                        title: &w.title,
                        abstract_text: w.abstract_text.as_deref().unwrap_or(""),
                    })
                    .collect(),
                index,
            )
        }
    };
    // The works cited at each place (sentence, or marker outside sentences).
    let place = |i: usize| {
        let c = &reading.cites[i].citation;
        c.claim.map_or((usize::MAX, c.group_span.start), |k| (k, 0))
    };
    let mut cited_at: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    let mut incomplete_at: HashSet<(usize, usize)> = HashSet::new();
    for (i, finding) in findings.iter().enumerate() {
        if incomplete(finding) {
            incomplete_at.insert(place(i));
        }
        if let Some(c) = candidate_of[i] {
            let set = cited_at.entry(place(i)).or_default();
            if !set.contains(&c) {
                set.push(c);
            }
        }
    }
    let mut asked: Vec<usize> = Vec::new();
    let mut occurrences: Vec<Occurrence> = Vec::new();
    for (i, cited) in candidate_of.iter().enumerate() {
        let Some(cited) = *cited else { continue };
        asked.push(i);
        occurrences.push(Occurrence {
            sentence: contexts[i].clone(),
            cited,
            cited_here: cited_at[&place(i)].clone(),
            rivals_allowed: rivals && !incomplete_at.contains(&place(i)),
        });
    }
    let judged = judge.judge_all(&candidates, &occurrences)?;
    let mut out = vec![None; findings.len()];
    for (i, j) in asked.into_iter().zip(judged) {
        out[i] = j;
    }
    Ok(out)
}
