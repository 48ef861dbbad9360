//! From what a citation names and how close its text is to the article, to a status
//! and an action. A failure never removes anything: what could not be checked is
//! `unverified`, and a low similarity measured without the abstract that a failing
//! source would have given is `unverified` too.

use crate::verify::judge::{Evidence, Judgement};
use crate::verify::verdict::{Label, Verdict};

use super::edit::Fate;
use super::find::Finding;
use super::options::{Action, Policy};
use super::report::{Status, Taken};

/// The status of one citation with its explanation.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub status: Status,
    pub similarity: Option<f64>,
    pub reason: String,
    pub evidence: Option<Evidence>,
}

/// How the citing text was compared with the article.
#[derive(Debug, Clone, Copy)]
pub enum Measured<'a> {
    /// A similarity on the scale of the metric in use (the `cosine` metric).
    Similarity(Option<f64>),
    /// The shared judge's verdict (the `score` metric); `None` when there was nothing
    /// to compare.
    Judged(Option<&'a Judgement>),
}

/// Supports below `remove_below` are mismatches, below `doubt_below` doubtful.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    pub remove_below: f64,
    pub doubt_below: f64,
}

/// Judge one citation. `llm` is the model's verdict on the abstract, when a model is
/// configured.
pub fn judge(
    finding: &Finding,
    measured: Measured,
    thresholds: Thresholds,
    llm: Option<&Verdict>,
) -> Judged {
    let plain = |status, reason: &String| Judged {
        status,
        similarity: None,
        reason: reason.clone(),
        evidence: None,
    };
    let found = match finding {
        Finding::NotFound { reason } => return plain(Status::NotFound, reason),
        Finding::Unverified { reason } => return plain(Status::Unverified, reason),
        Finding::NotIndexed { reason } => return plain(Status::NotIndexed, reason),
        Finding::Found(found) => found,
    };
    let (similarity, evidence) = match measured {
        Measured::Similarity(s) => (s, None),
        Measured::Judged(j) => (j.map(|j| j.support), j.map(|j| j.evidence.clone())),
    };
    let title = &found.work.title;
    let judged = |status, reason: String| Judged {
        status,
        similarity,
        reason,
        evidence: evidence.clone(),
    };
    let aligned = |why: String| {
        if found.retracted() {
            judged(
                Status::Retracted,
                format!("the article was retracted: \"{title}\"; {}", found.how),
            )
        } else {
            judged(Status::Valid, format!("{why}; {}", found.how))
        }
    };
    match llm.map(|v| v.label) {
        Some(Label::Supports) => {
            return aligned("the model finds the abstract supports the text".into());
        }
        Some(Label::Contradicts) => {
            return judged(
                Status::Mismatch,
                format!(
                    "the model finds the abstract of \"{title}\" contradicts the text; {}",
                    found.how
                ),
            );
        }
        _ => {}
    }
    let Some(s) = similarity else {
        return judged(
            Status::Unverified,
            format!(
                "nothing to compare: no citing text, or no title and abstract; {}",
                found.how
            ),
        );
    };
    let t = thresholds;
    if s >= t.doubt_below {
        return aligned(format!(
            "the text is about \"{title}\" (support {s:.3} ≥ {:.3}){}",
            t.doubt_below,
            terms_note(evidence.as_ref())
        ));
    }
    if let Some(failed) = &found.abstract_failed {
        return judged(
            Status::Unverified,
            format!(
                "support {s:.3} from the title alone proves nothing: the abstract could \
                 not be fetched ({failed})"
            ),
        );
    }
    let rival = evidence.as_ref().and_then(|e| e.rival.as_ref());
    let about = |sure: bool| match rival {
        Some(r) => format!(
            "the text {} about {} (\"{}\", score {:.3} against {:.3})",
            if sure { "is" } else { "may be" },
            r.name,
            r.title,
            r.score,
            evidence.as_ref().map_or(0.0, |e| e.score)
        ),
        None => format!(
            "the text {} about \"{title}\"",
            if sure { "is not" } else { "may not be" }
        ),
    };
    if s < t.remove_below {
        judged(
            Status::Mismatch,
            format!(
                "{} (support {s:.3} < {:.3}){}; {}",
                about(true),
                t.remove_below,
                terms_note(evidence.as_ref()),
                found.how
            ),
        )
    } else {
        judged(
            Status::Doubtful,
            format!(
                "{} (support {s:.3} < {:.3}, not low enough to be sure){}; {}",
                about(false),
                t.doubt_below,
                terms_note(evidence.as_ref()),
                found.how
            ),
        )
    }
}

/// `; lacks: …` for the specific terms the cited work does not hold.
fn terms_note(evidence: Option<&Evidence>) -> String {
    match evidence {
        Some(e) if !e.missing.is_empty() => format!("; the article lacks {}", e.missing.join(", ")),
        _ => String::new(),
    }
}

/// What the policy does with a status.
pub fn action(status: Status, policy: &Policy) -> (Fate, Taken) {
    let action = match status {
        Status::Valid => Action::Keep,
        Status::Mismatch => policy.mismatch,
        Status::Doubtful => policy.doubtful,
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
    use crate::verify::judge::{Call, RivalEvidence};
    use crate::verify::verdict::Stage;

    const T: Thresholds = Thresholds {
        remove_below: 0.2,
        doubt_below: 0.4,
    };

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

    fn sim(s: f64) -> Measured<'static> {
        Measured::Similarity(Some(s))
    }

    #[test]
    fn thresholds_and_failures() {
        let status = |f: &Finding, m| judge(f, m, T, None).status;
        assert_eq!(status(&found(None, false), sim(0.5)), Status::Valid);
        assert_eq!(status(&found(None, false), sim(0.1)), Status::Mismatch);
        assert_eq!(status(&found(None, false), sim(0.3)), Status::Doubtful);
        // Low support without the abstract a failing source would have given.
        assert_eq!(
            status(&found(Some("s2: timed out"), false), sim(0.1)),
            Status::Unverified
        );
        assert_eq!(status(&found(None, true), sim(0.5)), Status::Retracted);
        assert_eq!(status(&found(None, true), sim(0.1)), Status::Mismatch);
        assert_eq!(
            status(&found(None, false), Measured::Similarity(None)),
            Status::Unverified
        );
    }

    fn verdict(label: Label) -> Verdict {
        Verdict {
            label,
            stage: Stage::Abstract,
            rationale: String::new(),
            evidence: None,
            passage: None,
            model: None,
            confidence: None,
            unverifiable: None,
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_model_verdict_overrides_the_judge_only_when_it_is_definite() {
        let f = found(None, false);
        let v = verdict(Label::Supports);
        assert_eq!(judge(&f, sim(0.0), T, Some(&v)).status, Status::Valid);
        let v = verdict(Label::Contradicts);
        assert_eq!(judge(&f, sim(0.9), T, Some(&v)).status, Status::Mismatch);
        let v = verdict(Label::Unverifiable);
        assert_eq!(judge(&f, sim(0.1), T, Some(&v)).status, Status::Mismatch);
    }

    #[test]
    fn the_judges_evidence_is_carried_and_explained() {
        let j = Judgement {
            call: Call::Mismatch,
            support: 0.05,
            signals: Default::default(),
            evidence: Evidence {
                score: 0.3,
                passage: Some("Another finding.".into()),
                found: vec![],
                missing: vec!["42.3%".into()],
                rival: Some(RivalEvidence {
                    name: "source 2".into(),
                    title: "Other".into(),
                    score: 0.9,
                    passage: None,
                    found: vec!["42.3%".into()],
                }),
            },
        };
        let out = judge(&found(None, false), Measured::Judged(Some(&j)), T, None);
        assert_eq!(out.status, Status::Mismatch);
        assert!(out.reason.contains("source 2"), "{}", out.reason);
        assert!(out.reason.contains("lacks 42.3%"), "{}", out.reason);
        assert_eq!(out.evidence.as_ref(), Some(&j.evidence));
        // A model that finds the abstract supports the text outweighs it.
        let v = verdict(Label::Supports);
        let out = judge(&found(None, false), Measured::Judged(Some(&j)), T, Some(&v));
        assert_eq!(out.status, Status::Valid);
    }

    #[test]
    fn the_default_policy() {
        let p = Policy::default();
        assert_eq!(action(Status::NotFound, &p).1, Taken::Removed);
        assert_eq!(action(Status::Mismatch, &p).1, Taken::Removed);
        assert_eq!(action(Status::Doubtful, &p).1, Taken::Kept);
        assert_eq!(action(Status::Retracted, &p).1, Taken::Marked);
        assert_eq!(action(Status::Unverified, &p).1, Taken::Kept);
        assert_eq!(action(Status::Valid, &p).1, Taken::Kept);
    }
}
