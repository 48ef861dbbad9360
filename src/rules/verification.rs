//! Verification rules: a claim–citation pair judged against the cited work (an LLM
//! [`Verdict`] or an embedded-backend [`Relation`]) as a diagnostic at the citation,
//! with the claim as related information and the evidence in the message.

use crate::diagnostic::Diagnostic;
use crate::model::{Citation, Claim, Work};
use crate::rules::{
    CITED_WORK_UNRELATED, CLAIM_CONTRADICTED, CLAIM_UNSUPPORTED, CLAIM_UNVERIFIABLE, Rule,
    SUPPORTED_IN_FULL_TEXT,
};
use crate::verify::Relation;
use crate::verify::backend::Judgement;
use crate::verify::judge::RivalEvidence;
use crate::verify::verdict::{Label, Stage, Verdict, unverifiable_reason};

/// Longest excerpt of a claim or passage put into a message.
const EXCERPT_CHARS: usize = 240;

fn excerpt(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

fn at_citation(
    rule: &'static Rule,
    citation: &Citation,
    claim: &Claim,
    message: String,
) -> Diagnostic {
    Diagnostic::new(rule, citation.file, citation.span, message)
        .with_key(&citation.key)
        .with_related(
            claim.file,
            claim.span,
            format!("the claim: {}", excerpt(&claim.text)),
        )
}

fn with_work(d: Diagnostic, work: Option<&Work>) -> Diagnostic {
    match work {
        Some(w) => d.with_record(w.clone()),
        None => d,
    }
}

/// Where the evidence came from, for messages: `the abstract` or the passage's section
/// and source.
fn evidence_place(verdict: &Verdict) -> String {
    match (&verdict.stage, &verdict.passage) {
        (Stage::FullText, Some(p)) => match &p.section {
            Some(section) => format!("the full text ({section}, {})", p.source),
            None => format!("the full text ({})", p.source),
        },
        (Stage::FullText, None) => "the full text".to_string(),
        (Stage::Abstract, _) => "the abstract".to_string(),
    }
}

fn quoted(verdict: &Verdict) -> String {
    match &verdict.evidence {
        Some(q) => format!(": \"{}\"", excerpt(q)),
        None => String::new(),
    }
}

/// CP301: the cited work contradicts the claim.
pub fn claim_contradicted(citation: &Citation, claim: &Claim, verdict: &Verdict) -> Diagnostic {
    let message = format!(
        "`{}` contradicts the claim according to {}{} ({})",
        citation.key,
        evidence_place(verdict),
        quoted(verdict),
        verdict.rationale
    );
    at_citation(&CLAIM_CONTRADICTED, citation, claim, message)
}

/// CP302: not supported by the abstract nor by the full text's best passages.
pub fn claim_unsupported(citation: &Citation, claim: &Claim, verdict: &Verdict) -> Diagnostic {
    let message = format!(
        "`{}` does not support the claim: neither its abstract nor the most relevant passages \
         of its full text state it ({})",
        citation.key, verdict.rationale
    );
    let d = at_citation(&CLAIM_UNSUPPORTED, citation, claim, message);
    match &verdict.passage {
        Some(p) => d.with_related(
            claim.file,
            claim.span,
            format!("closest passage read ({}): {}", p.source, excerpt(&p.text)),
        ),
        None => d,
    }
}

/// CP303: the embedded backend finds the cited work unrelated to the claim.
/// `missing`: the claim's specific terms (figures, names, rare terms) the work lacks;
/// `rival`: another cited work that holds the claim better.
pub fn cited_work_unrelated(
    citation: &Citation,
    claim: &Claim,
    evidence: Option<&str>,
    missing: &[String],
    rival: Option<&RivalEvidence>,
) -> Diagnostic {
    let mut message = match evidence {
        Some(e) => format!(
            "`{}` appears unrelated to the claim; its closest text is: \"{}\"",
            citation.key,
            excerpt(e)
        ),
        None => format!("`{}` appears unrelated to the claim", citation.key),
    };
    if !missing.is_empty() {
        message.push_str(&format!("; it lacks the claim's {}", missing.join(", ")));
    }
    if let Some(r) = rival {
        message.push_str(&format!(
            "; the claim matches `{}` (\"{}\") better",
            r.name,
            excerpt(&r.title)
        ));
    }
    at_citation(&CITED_WORK_UNRELATED, citation, claim, message)
}

/// CP304: supported, but only by a passage of the full text.
pub fn supported_in_full_text(citation: &Citation, claim: &Claim, verdict: &Verdict) -> Diagnostic {
    let message = format!(
        "`{}` supports the claim in {}{}",
        citation.key,
        evidence_place(verdict),
        quoted(verdict)
    );
    let d = at_citation(&SUPPORTED_IN_FULL_TEXT, citation, claim, message);
    match &verdict.passage {
        Some(p) => d.with_related(
            claim.file,
            claim.span,
            format!(
                "passage at byte {} of the {} text from {}: {}",
                p.offset,
                p.format.as_str(),
                p.source,
                excerpt(&p.text)
            ),
        ),
        None => d,
    }
}

/// CP305: no judgement could be made (never an accusation).
pub fn claim_unverifiable(citation: &Citation, claim: &Claim, reason: &str) -> Diagnostic {
    let message = format!(
        "the claim citing `{}` could not be verified: {reason}",
        citation.key
    );
    at_citation(&CLAIM_UNVERIFIABLE, citation, claim, message)
}

/// The diagnostic at the citation for what either backend concluded, if the
/// judgement calls for one.
pub fn from_judgement(
    judgement: &Judgement,
    citation: &Citation,
    claim: &Claim,
    work: Option<&Work>,
) -> Option<Diagnostic> {
    match judgement {
        Judgement::Llm(v) => from_verdict(citation, claim, work, v),
        Judgement::Embedded(v) if v.unverifiable.is_some() => {
            let reason = unverifiable_reason(&v.rationale);
            Some(with_work(claim_unverifiable(citation, claim, reason), work))
        }
        Judgement::Embedded(v) => from_relation(
            citation,
            claim,
            work,
            v.relation,
            v.evidence.as_deref(),
            v.specific.as_ref().map_or(&[], |s| s.missing.as_slice()),
            v.rival.as_ref(),
        ),
    }
}

/// The diagnostic for an LLM verdict, if it calls for one (a claim the abstract
/// supports needs none).
pub fn from_verdict(
    citation: &Citation,
    claim: &Claim,
    work: Option<&Work>,
    verdict: &Verdict,
) -> Option<Diagnostic> {
    let d = match (verdict.label, verdict.stage) {
        (Label::Contradicts, _) => claim_contradicted(citation, claim, verdict),
        (Label::NotEnoughInfo, Stage::FullText) => claim_unsupported(citation, claim, verdict),
        (Label::NotEnoughInfo, Stage::Abstract) => claim_unverifiable(
            citation,
            claim,
            "the abstract does not settle it and no full text could be obtained",
        ),
        (Label::Supports, Stage::FullText) => supported_in_full_text(citation, claim, verdict),
        (Label::Supports, Stage::Abstract) => return None,
        (Label::Unverifiable, _) => {
            claim_unverifiable(citation, claim, unverifiable_reason(&verdict.rationale))
        }
    };
    Some(with_work(d, work))
}

/// The diagnostic for an embedded-backend relation: only `unrelated` is reported.
pub fn from_relation(
    citation: &Citation,
    claim: &Claim,
    work: Option<&Work>,
    relation: Relation,
    evidence: Option<&str>,
    missing: &[String],
    rival: Option<&RivalEvidence>,
) -> Option<Diagnostic> {
    match relation {
        Relation::Unrelated => Some(with_work(
            cited_work_unrelated(citation, claim, evidence, missing, rival),
            work,
        )),
        Relation::Related | Relation::Uncertain => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::model::{CitationKind, FileId, Span};
    use crate::verify::verdict::{PassageRef, TextFormat, Unverifiable};

    fn pair() -> (Citation, Claim) {
        let citation = Citation {
            key: "kim2021".into(),
            kind: CitationKind::Key,
            file: FileId::default(),
            span: Span::new(40, 47),
            group_span: Span::new(38, 48),
            command: None,
            id: None,
            narrative: false,
            claim: Some(0),
            reference: Some(0),
        };
        let claim = Claim {
            file: FileId::default(),
            span: Span::new(0, 49),
            text: "Sleep loss cut freezing by 40 %.".into(),
        };
        (citation, claim)
    }

    fn verdict(label: Label, stage: Stage) -> Verdict {
        Verdict {
            label,
            stage,
            rationale: "the passage reports it".into(),
            evidence: Some("a 40% reduction in freezing".into()),
            passage: (stage == Stage::FullText).then(|| PassageRef {
                source: "https://arxiv.org/html/2101.00001".into(),
                origin: "arxiv_html".into(),
                format: TextFormat::Html,
                section: Some("Results".into()),
                offset: 1234,
                text: "Mice showed a 40% reduction in freezing.".into(),
            }),
            model: Some("m".into()),
            confidence: None,
            unverifiable: None,
            notes: vec![],
        }
    }

    #[test]
    fn each_verdict_maps_to_its_rule_at_the_citation() {
        let (c, claim) = pair();
        let cases = [
            (Label::Contradicts, Stage::Abstract, Some("CP301")),
            (Label::NotEnoughInfo, Stage::FullText, Some("CP302")),
            (Label::Supports, Stage::FullText, Some("CP304")),
            (Label::NotEnoughInfo, Stage::Abstract, Some("CP305")),
            (Label::Supports, Stage::Abstract, None),
        ];
        for (label, stage, code) in cases {
            let d = from_verdict(&c, &claim, None, &verdict(label, stage));
            assert_eq!(d.as_ref().map(|d| d.rule.code), code, "{label} {stage:?}");
            if let Some(d) = d {
                assert_eq!(d.span, c.span);
                assert_eq!(d.key.as_deref(), Some("kim2021"));
                assert!(d.related[0].message.contains("Sleep loss cut freezing"));
            }
        }
    }

    #[test]
    fn messages_carry_the_evidence_and_never_accuse_on_failure() {
        let (c, claim) = pair();
        let d = from_verdict(&c, &claim, None, &verdict(Label::Supports, Stage::FullText)).unwrap();
        assert_eq!(d.severity, Severity::Info);
        assert!(d.message.contains("Results") && d.message.contains("40% reduction"));
        assert!(d.related.iter().any(|r| r.message.contains("byte 1234")));
        let down = Verdict::unverifiable(Stage::Abstract, Unverifiable::ModelFailure, "HTTP 500");
        let d = from_verdict(&c, &claim, None, &down).unwrap();
        assert_eq!((d.rule.code, d.severity), ("CP305", Severity::Info));
        assert!(
            d.message
                .contains("could not be verified: the model could not be queried")
        );
        let contra = from_verdict(
            &c,
            &claim,
            None,
            &verdict(Label::Contradicts, Stage::Abstract),
        )
        .unwrap();
        assert_eq!(contra.severity, Severity::Error);
        assert!(contra.message.contains("the abstract"));
    }

    #[test]
    fn only_unrelated_relations_are_reported() {
        let (c, claim) = pair();
        let d = from_relation(
            &c,
            &claim,
            None,
            Relation::Unrelated,
            Some("galaxy rotation"),
            &["40 %".to_string()],
            None,
        )
        .unwrap();
        assert!(
            d.message.ends_with("it lacks the claim's 40 %"),
            "{}",
            d.message
        );
        let rival = RivalEvidence {
            name: "lee2019".into(),
            title: "Sleep and fear memory".into(),
            score: 0.8,
            passage: None,
            found: vec!["40 %".into()],
        };
        let d = from_relation(
            &c,
            &claim,
            None,
            Relation::Unrelated,
            None,
            &[],
            Some(&rival),
        )
        .unwrap();
        assert!(
            d.message
                .ends_with("the claim matches `lee2019` (\"Sleep and fear memory\") better"),
            "{}",
            d.message
        );
        assert_eq!((d.rule.code, d.severity), ("CP303", Severity::Warning));
        assert!(from_relation(&c, &claim, None, Relation::Related, None, &[], None).is_none());
        assert!(from_relation(&c, &claim, None, Relation::Uncertain, None, &[], None).is_none());
    }
}
