//! From what a citation names and how close its text is to the article, to a status
//! and an action. A failure never removes anything: what could not be checked is
//! `unverified`, and a low similarity measured without the abstract that a failing
//! source would have given is `unverified` too.

use crate::verify::verdict::{Label, Verdict};

use super::edit::Fate;
use super::find::Finding;
use super::options::{Action, Policy};
use super::report::{Status, Taken};
use super::rival::Rival;

/// The status of one citation with its explanation.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub status: Status,
    pub similarity: Option<f64>,
    pub reason: String,
}

/// Judge one citation. `similarity` is on the scale of the metric in use; `llm` is
/// the model's verdict on the abstract, when a model is configured.
pub fn judge(
    finding: &Finding,
    similarity: Option<f64>,
    threshold: f64,
    llm: Option<&Verdict>,
    rival: Option<&Rival>,
) -> Judged {
    let found = match finding {
        Finding::NotFound { reason } => {
            return Judged {
                status: Status::NotFound,
                similarity: None,
                reason: reason.clone(),
            };
        }
        Finding::Unverified { reason } => {
            return Judged {
                status: Status::Unverified,
                similarity: None,
                reason: reason.clone(),
            };
        }
        Finding::NotIndexed { reason } => {
            return Judged {
                status: Status::NotIndexed,
                similarity: None,
                reason: reason.clone(),
            };
        }
        Finding::Found(found) => found,
    };
    let title = &found.work.title;
    let aligned = |similarity: Option<f64>, why: String| {
        let status = if found.retracted() {
            Status::Retracted
        } else {
            Status::Valid
        };
        let reason = if status == Status::Retracted {
            format!("the article was retracted: \"{title}\"; {}", found.how)
        } else {
            format!("{why}; {}", found.how)
        };
        Judged {
            status,
            similarity,
            reason,
        }
    };
    match llm.map(|v| v.label) {
        Some(Label::Supports) => {
            return aligned(
                similarity,
                "the model finds the abstract supports the text".into(),
            );
        }
        Some(Label::Contradicts) => {
            return Judged {
                status: Status::Mismatch,
                similarity,
                reason: format!(
                    "the model finds the abstract of \"{title}\" contradicts the text; {}",
                    found.how
                ),
            };
        }
        _ => {}
    }
    let Some(s) = similarity else {
        return Judged {
            status: Status::Unverified,
            similarity: None,
            reason: format!(
                "nothing to compare: no citing text, or no title and abstract; {}",
                found.how
            ),
        };
    };
    if s >= threshold
        && let Some(r) = rival
    {
        return Judged {
            status: Status::Mismatch,
            similarity,
            reason: format!(
                "the text is about {} (\"{}\"), not \"{title}\": it holds {:.0} % of the \
                 text's terms against {:.0} %; {}",
                r.name,
                r.title,
                100.0 * r.best,
                100.0 * r.cited,
                found.how
            ),
        };
    }
    if s >= threshold {
        return aligned(
            similarity,
            format!("the text is about \"{title}\" (similarity {s:.3} ≥ {threshold:.3})"),
        );
    }
    if let Some(failed) = &found.abstract_failed {
        return Judged {
            status: Status::Unverified,
            similarity,
            reason: format!(
                "similarity {s:.3} to the title alone proves nothing: the abstract could \
                 not be fetched ({failed})"
            ),
        };
    }
    Judged {
        status: Status::Mismatch,
        similarity,
        reason: format!(
            "the text is not about \"{title}\" (similarity {s:.3} < {threshold:.3}); {}",
            found.how
        ),
    }
}

/// What the policy does with a status.
pub fn action(status: Status, policy: &Policy) -> (Fate, Taken) {
    let action = match status {
        Status::Valid => Action::Keep,
        Status::Mismatch => policy.mismatch,
        Status::NotFound => policy.not_found,
        Status::Retracted => policy.retracted,
        Status::Unverified => policy.unverified,
        Status::NotIndexed => policy.not_indexed,
    };
    match action {
        Action::Keep => (Fate::Keep, Taken::Kept),
        Action::Remove => (Fate::Remove, Taken::Removed),
        Action::Mark => (Fate::Mark, Taken::Marked),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::find::FoundWork;
    use crate::clean::report::Record;
    use crate::model::Work;
    use crate::verify::verdict::Stage;

    fn found(abstract_failed: Option<&str>, retracted: bool) -> Finding {
        let work = Work {
            title: "A title".into(),
            is_retracted: retracted,
            ..Work::default()
        };
        Finding::Found(Box::new(FoundWork {
            record: Record::from_work(&work, None),
            work,
            how: "test".into(),
            abstract_failed: abstract_failed.map(str::to_string),
        }))
    }

    #[test]
    fn thresholds_and_failures() {
        assert_eq!(
            judge(&found(None, false), Some(0.5), 0.2, None, None).status,
            Status::Valid
        );
        assert_eq!(
            judge(&found(None, false), Some(0.1), 0.2, None, None).status,
            Status::Mismatch
        );
        // Low similarity without the abstract a failing source would have given.
        assert_eq!(
            judge(
                &found(Some("s2: timed out"), false),
                Some(0.1),
                0.2,
                None,
                None
            )
            .status,
            Status::Unverified
        );
        assert_eq!(
            judge(&found(None, true), Some(0.5), 0.2, None, None).status,
            Status::Retracted
        );
        assert_eq!(
            judge(&found(None, true), Some(0.1), 0.2, None, None).status,
            Status::Mismatch
        );
        assert_eq!(
            judge(&found(None, false), None, 0.2, None, None).status,
            Status::Unverified
        );
    }

    #[test]
    fn a_model_verdict_overrides_the_similarity_only_when_it_is_definite() {
        let verdict = |label| Verdict {
            label,
            stage: Stage::Abstract,
            rationale: String::new(),
            evidence: None,
            passage: None,
            model: None,
            confidence: None,
            unverifiable: None,
            notes: Vec::new(),
        };
        let f = found(None, false);
        let v = verdict(Label::Supports);
        assert_eq!(
            judge(&f, Some(0.0), 0.2, Some(&v), None).status,
            Status::Valid
        );
        let v = verdict(Label::Contradicts);
        assert_eq!(
            judge(&f, Some(0.9), 0.2, Some(&v), None).status,
            Status::Mismatch
        );
        let v = verdict(Label::Unverifiable);
        assert_eq!(
            judge(&f, Some(0.1), 0.2, Some(&v), None).status,
            Status::Mismatch
        );
    }

    #[test]
    fn a_rival_that_holds_far_more_of_the_text_makes_a_mismatch() {
        let rival = Rival {
            name: "source 2".into(),
            title: "Other".into(),
            cited: 0.3,
            best: 0.9,
        };
        let j = judge(&found(None, false), Some(0.8), 0.2, None, Some(&rival));
        assert_eq!(j.status, Status::Mismatch);
        assert!(j.reason.contains("source 2"), "{}", j.reason);
        // A model that finds the abstract supports the text outweighs it.
        let v = Verdict {
            label: Label::Supports,
            stage: Stage::Abstract,
            rationale: String::new(),
            evidence: None,
            passage: None,
            model: None,
            confidence: None,
            unverifiable: None,
            notes: Vec::new(),
        };
        let j = judge(&found(None, false), Some(0.8), 0.2, Some(&v), Some(&rival));
        assert_eq!(j.status, Status::Valid);
    }

    #[test]
    fn the_default_policy() {
        let p = Policy::default();
        assert_eq!(action(Status::NotFound, &p).1, Taken::Removed);
        assert_eq!(action(Status::Mismatch, &p).1, Taken::Removed);
        assert_eq!(action(Status::Retracted, &p).1, Taken::Marked);
        assert_eq!(action(Status::Unverified, &p).1, Taken::Kept);
        assert_eq!(action(Status::Valid, &p).1, Taken::Kept);
    }
}
