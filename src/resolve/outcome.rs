//! The outcome of resolving one reference, decided from the gate, the comparison and
//! the record's retraction flags. "Not found" is only concluded when every relevant
//! source answered; a failure or timeout anywhere makes absence "unverified".

use serde::{Deserialize, Serialize};

use crate::model::Work;
use crate::resolve::gate::GateDecision;
use crate::resolve::mismatch::{Comparison, Field};
use crate::resolve::normalize::strip_retraction_prefix;

/// What citeproof concludes about a cited work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The work exists and every compared field agrees.
    Verified,
    /// The work exists but some field is wrong.
    Miscited,
    /// Every relevant source answered and none has the work: likely fabricated.
    NotFound,
    /// The work exists and its record says it was retracted.
    Retracted,
    /// Some source failed or timed out, so absence cannot be concluded.
    Unverified,
    /// Every source asked answered and none has the work, but its kind (a book, a
    /// thesis, a standard, software …) is one those sources hold only partly or not at
    /// all: absence is no evidence of fabrication. Never an accusation.
    NotIndexed,
}

impl Status {
    pub const ALL: [Status; 6] = [
        Status::Verified,
        Status::Miscited,
        Status::NotFound,
        Status::Retracted,
        Status::Unverified,
        Status::NotIndexed,
    ];

    /// The name in JSON and reports (`not_found`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Miscited => "miscited",
            Status::NotFound => "not_found",
            Status::Retracted => "retracted",
            Status::Unverified => "unverified",
            Status::NotIndexed => "not_indexed",
        }
    }
}

/// Whether every relevant source gave an answer (found or not found).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Coverage {
    /// Every source asked answered.
    Complete,
    /// At least one source failed, timed out or was rate-limited out.
    Incomplete,
}

/// The accepted candidate with its checks.
#[derive(Debug, Clone, Copy)]
pub struct Matched<'a> {
    pub gate: &'a GateDecision,
    pub comparison: &'a Comparison,
    pub work: &'a Work,
}

/// The decided outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub status: Status,
    /// Wrong fields (for `miscited`; also kept for `retracted`).
    pub fields_wrong: Vec<Field>,
    /// The record carries an expression of concern (a warning, not a status).
    pub expression_of_concern: bool,
}

/// Whether a record says its work is retracted: the flag, or a `RETRACTED:` title.
pub fn is_retracted(work: &Work) -> bool {
    work.is_retracted || strip_retraction_prefix(&work.title).1
}

/// Decide the status. `matched` is the candidate the cascade settled on (ignored if
/// the gate did not accept it); `coverage` says whether every relevant source
/// answered, which is what separates `not_found` from `unverified`.
pub fn decide(matched: Option<Matched<'_>>, coverage: Coverage) -> Outcome {
    let Some(m) = matched.filter(|m| m.gate.accepted) else {
        return Outcome {
            status: match coverage {
                Coverage::Complete => Status::NotFound,
                Coverage::Incomplete => Status::Unverified,
            },
            fields_wrong: Vec::new(),
            expression_of_concern: false,
        };
    };
    let fields_wrong = m.comparison.fields_wrong();
    let status = if is_retracted(m.work) {
        Status::Retracted
    } else if fields_wrong.is_empty() {
        Status::Verified
    } else {
        Status::Miscited
    };
    Outcome {
        status,
        fields_wrong,
        expression_of_concern: m.work.has_concern,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::mismatch::{Mismatch, MismatchKind};
    use crate::resolve::title_score::GateMethod;

    fn gate(accepted: bool) -> GateDecision {
        GateDecision {
            accepted,
            similarity: 0.9,
            method: GateMethod::WordOverlap,
        }
    }

    #[test]
    fn statuses_follow_gate_comparison_and_flags() {
        let work = Work {
            title: "A title".into(),
            ..Work::default()
        };
        let clean = Comparison::default();
        let wrong = Comparison {
            mismatches: vec![Mismatch {
                field: Field::Year,
                kind: MismatchKind::WrongYear,
                cited: "2020".into(),
                record: "2018".into(),
                detail: String::new(),
            }],
            notes: vec![],
        };
        let accepted = gate(true);
        let m = |c| {
            Some(Matched {
                gate: &accepted,
                comparison: c,
                work: &work,
            })
        };
        assert_eq!(
            decide(m(&clean), Coverage::Complete).status,
            Status::Verified
        );
        let miscited = decide(m(&wrong), Coverage::Complete);
        assert_eq!(miscited.status, Status::Miscited);
        assert_eq!(miscited.fields_wrong, vec![Field::Year]);
        let retracted = Work {
            title: "RETRACTED: A title".into(),
            ..Work::default()
        };
        let r = Matched {
            gate: &accepted,
            comparison: &clean,
            work: &retracted,
        };
        assert_eq!(
            decide(Some(r), Coverage::Complete).status,
            Status::Retracted
        );
        let concern = Work {
            has_concern: true,
            ..work.clone()
        };
        let c = Matched {
            gate: &accepted,
            comparison: &clean,
            work: &concern,
        };
        let outcome = decide(Some(c), Coverage::Complete);
        assert_eq!(
            (outcome.status, outcome.expression_of_concern),
            (Status::Verified, true)
        );
    }

    #[test]
    fn absence_is_not_found_only_with_complete_coverage() {
        assert_eq!(decide(None, Coverage::Complete).status, Status::NotFound);
        assert_eq!(
            decide(None, Coverage::Incomplete).status,
            Status::Unverified
        );
        let work = Work::default();
        let rejected = gate(false);
        let clean = Comparison::default();
        let m = Matched {
            gate: &rejected,
            comparison: &clean,
            work: &work,
        };
        assert_eq!(
            decide(Some(m), Coverage::Incomplete).status,
            Status::Unverified
        );
    }

    #[test]
    fn serde_names_are_snake_case() {
        let names: Vec<String> = [
            Status::Verified,
            Status::Miscited,
            Status::NotFound,
            Status::Retracted,
            Status::Unverified,
        ]
        .iter()
        .map(|s| serde_json::to_string(s).unwrap())
        .collect();
        assert_eq!(
            names,
            [
                "\"verified\"",
                "\"miscited\"",
                "\"not_found\"",
                "\"retracted\"",
                "\"unverified\""
            ]
        );
    }
}
