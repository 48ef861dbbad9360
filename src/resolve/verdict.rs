//! From evidence to a [`Resolution`]: pick the accepted record that best agrees with the
//! reference, compare the fields, detect a cited identifier that names another work,
//! and decide the status — `not_found` only when every identifier is settled and the
//! search heard from every source it needed.

use crate::resolve::compare::{CompareOptions, compare, years_agree};
use crate::resolve::conflation::identifier_conflation;
use crate::resolve::evidence::{Candidate, Evidence, IdConclusion, Via};
use crate::resolve::gate::GateThresholds;
use crate::resolve::kinds;
use crate::resolve::mismatch::{Comparison, Field, Mismatch, MismatchKind};
use crate::resolve::outcome::{self, Coverage, Matched, Status};
use crate::resolve::published;
use crate::resolve::query::RefQuery;
use crate::resolve::resolution::Resolution;
use crate::resolve::title_score::GateMethod;

fn comparison_of(
    q: &RefQuery,
    ev: &Evidence,
    i: usize,
    t: &GateThresholds,
    options: &CompareOptions,
) -> Comparison {
    let c = &ev.candidates[i];
    compare(&q.fields_for(&c.work, t), &c.work, options)
}

/// The accepted candidate to report: the one with the fewest disagreements (a
/// preprint and its published version may both pass the gate; the one the reference
/// describes is the one it agrees with), then the fewest benign differences (a
/// preprint's year), then by how it was found, then by title similarity.
pub fn choose(
    q: &RefQuery,
    ev: &Evidence,
    t: &GateThresholds,
    options: &CompareOptions,
) -> Option<usize> {
    ev.candidates
        .iter()
        .enumerate()
        .filter(|(i, c)| c.decision.accepted && !published::set_aside(&q.fields, ev, *i))
        .map(|(i, c)| {
            let comparison = comparison_of(q, ev, i, t, options);
            let key = (comparison.mismatches.len(), comparison.notes.len(), c.via);
            (i, key, c.decision.similarity)
        })
        .min_by(|a, b| a.1.cmp(&b.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)))
        .map(|(i, ..)| i)
}

/// Whether an accepted candidate agrees with the reference on its title (a close
/// title that differs in words may be a different version whose exact record another
/// source has).
pub fn title_settled(
    q: &RefQuery,
    ev: &Evidence,
    t: &GateThresholds,
    options: &CompareOptions,
) -> bool {
    (0..ev.candidates.len())
        .filter(|&i| ev.candidates[i].decision.accepted)
        .any(|i| {
            comparison_of(q, ev, i, t, options)
                .mismatch(Field::Title)
                .is_none()
        })
}

/// A rejected candidate that differs from the reference only by a subtitle (the
/// cited `ProtT3` for the record `ProtT3: Protein-to-Text …`) and whose year does not
/// contradict it: the gate wants more to accept it, but it shows that the cited title
/// exists.
fn main_title_only(q: &RefQuery, c: &Candidate) -> bool {
    c.decision.method == GateMethod::Subtitle && years_agree(&q.fields, &c.work)
}

/// Decide the resolution of `q` with `chosen` (from [`choose`]) as the cited work.
pub fn decide(
    q: &RefQuery,
    ev: Evidence,
    chosen: Option<usize>,
    t: &GateThresholds,
    options: &CompareOptions,
) -> Resolution {
    let unresolved: Vec<(Field, String)> = ev
        .ids
        .iter()
        .filter(|i| i.conclusion == IdConclusion::NotFound)
        .map(|i| (i.id.field, i.id.value.clone()))
        .collect();
    let rejected_by_id = ev
        .candidates
        .iter()
        .filter(|c| matches!(c.via, Via::Identifier(_) | Via::Corpus) && !c.decision.accepted)
        .filter(|c| crate::resolve::identifiers::identifiers_agree(&q.fields, &c.work));
    let Some(i) = chosen else {
        let identifier_work = rejected_by_id.map(|c| c.work.clone()).next();
        let coverage = match (ev.ids_settled(), ev.search_complete) {
            (true, Some(true)) => Coverage::Complete,
            // An identifier cited on its own: settling it is the whole search.
            (true, None) if !ev.ids.is_empty() => Coverage::Complete,
            _ => Coverage::Incomplete,
        };
        let decided = outcome::decide(None, coverage);
        let mut notes = ev.notes;
        let mut status = decided.status;
        if let Some(why) = ev.kind_absent {
            // An authority that holds every work of the kind has no such one.
            status = Status::NotFound;
            notes.push(why);
        } else if status == Status::NotFound && ev.kind_incomplete {
            status = Status::Unverified;
        } else if status == Status::NotFound
            && !ev.declared_complete
            && (!kinds::absence_is_evidence(&q.fields, &q.raw) || ev.container_found)
        {
            status = Status::NotIndexed;
        }
        if status == Status::NotIndexed
            && let Some((field, value)) = unresolved.first()
        {
            // Whatever the kind, an identifier its registry never issued is the
            // reference's one checkable claim, and it is false.
            status = Status::NotFound;
            notes.push(format!(
                "the cited {} {value} was never issued",
                field.as_str()
            ));
        }
        if status == Status::NotFound
            && let Some(c) = ev.candidates.iter().find(|c| main_title_only(q, c))
        {
            // A record whose main title is the cited title exists: absence is not
            // established, only the match is unconfirmed.
            status = Status::Unverified;
            notes.push(format!(
                "\"{}\" has the cited title as its main title, but nothing else in the \
                 reference ties it to the record",
                c.work.title
            ));
        }
        return Resolution {
            status,
            fields_wrong: Vec::new(),
            mismatches: Vec::new(),
            notes,
            work: None,
            gate: None,
            identifier_work,
            unresolved,
            expression_of_concern: false,
            sources_tried: ev.tries,
            failures: ev.failures,
        };
    };
    let chosen = &ev.candidates[i];
    let fields = q.fields_for(&chosen.work, t);
    let mut comparison = compare(&fields, &chosen.work, options);
    let mut identifier_work = None;
    for other in rejected_by_id {
        if let Some(c) = identifier_conflation(&fields, &q.raw, &other.work, Some(&chosen.work), t)
        {
            comparison.add_conflation(&c);
            identifier_work.get_or_insert_with(|| other.work.clone());
        }
    }
    // A cited identifier that names nothing is wrong even when the record has none.
    for (field, value) in &unresolved {
        if comparison.mismatch(*field).is_none() {
            comparison.mismatches.push(Mismatch {
                field: *field,
                kind: MismatchKind::WrongIdentifier,
                cited: value.clone(),
                record: String::new(),
                detail: format!("{value} does not resolve"),
            });
        }
    }
    let decided = outcome::decide(
        Some(Matched {
            gate: &chosen.decision,
            comparison: &comparison,
            work: &chosen.work,
        }),
        Coverage::Complete,
    );
    let covered = ev.search_complete != Some(false) && ev.ids_settled();
    let mut notes = comparison.notes;
    notes.extend(ev.notes);
    // A record found by search that disagrees with the reference is only conclusive
    // when every source that could hold a better-agreeing version answered.
    let authoritative = matches!(chosen.via, Via::Identifier(_) | Via::Corpus);
    let (status, fields_wrong, mismatches) =
        if decided.status == Status::Miscited && !authoritative && !covered {
            let fields: Vec<&str> = decided.fields_wrong.iter().map(|f| f.as_str()).collect();
            notes.push(format!(
                "the closest record, \"{}\", differs in {}, but a source failed: not concluded",
                chosen.work.title,
                fields.join(", ")
            ));
            (Status::Unverified, Vec::new(), Vec::new())
        } else {
            (decided.status, decided.fields_wrong, comparison.mismatches)
        };
    Resolution {
        status,
        fields_wrong,
        mismatches,
        notes,
        work: Some(std::sync::Arc::new(chosen.work.clone())),
        gate: Some(chosen.decision),
        identifier_work,
        unresolved,
        expression_of_concern: decided.expression_of_concern,
        sources_tried: ev.tries,
        failures: ev.failures,
    }
}
