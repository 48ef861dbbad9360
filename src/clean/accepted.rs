//! Works confirmed real by hand ([`crate::accept`]) in the open world: a reference
//! whose fingerprint is accepted is not removed as not found (or not indexed, or
//! unverified); it stands for a work made from its own fields, whose text was not
//! fetched — so a low similarity to the citing sentence makes it `unverified`, never
//! a mismatch to remove.

use crate::accept::{Accepted, Judgement};
use crate::model::Reference;

use super::find::{Finding, FoundWork};
use super::read::{Reading, Target};
use super::report::Record;

/// `findings` (one per citation of `reading`) with the accepted works found.
pub fn apply(reading: &Reading, findings: Vec<Finding>, accepted: &Accepted) -> Vec<Finding> {
    if accepted.is_empty() {
        return findings;
    }
    findings
        .into_iter()
        .zip(&reading.cites)
        .map(|(finding, cite)| {
            let absent = matches!(
                finding,
                Finding::NotFound { .. } | Finding::NotIndexed { .. } | Finding::Unverified { .. }
            );
            match cite.target {
                Target::Reference(r) if absent => {
                    let reference = &reading.references[r];
                    match accepted.judge(&reference.key, &reference.fields) {
                        Judgement::Accepted(placed) => found(reference, &placed.path),
                        _ => finding,
                    }
                }
                _ => finding,
            }
        })
        .collect()
}

fn found(reference: &Reference, file: &std::path::Path) -> Finding {
    let f = &reference.fields;
    let work = f.to_work("accepted", f.title.clone().unwrap_or_default());
    Finding::Found(Box::new(FoundWork {
        record: Record::from_work(&work, None),
        work,
        how: format!("accepted as real in `{}`", file.display()),
        abstract_failed: Some(
            "the work was accepted by hand; its text was not fetched to compare".into(),
        ),
    }))
}
