//! One judge for citations: is a citing sentence about the work it cites? Used by
//! `clean` for every occurrence of a citation in an answer, and — through the same
//! scorer and specific-content check — by `verify` and `check --verify`.
//!
//! A citation is a sentence–work pair, and each occurrence is judged on its own
//! sentence with the evidence it rests on ([`Evidence`]):
//!
//! - the scorer of the embedded backend ([`Scorer`]: lexical, or with the local
//!   sentence model) scores the sentence against the cited work's title and abstract
//!   sentence by sentence, and names the best passage;
//! - the sentence's specific content (numbers with units, entities, acronyms, rare
//!   terms; [`specific`]) is looked up in the work, with paraphrase tolerated;
//! - every other work the answer cites or retrieved is a possible *rival*: an LLM that
//!   writes from retrieved articles attaches a sentence to the wrong number far more
//!   often than it invents it, and then the work it came from is right there. Works
//!   cited in the same sentence are never rivals (a sentence may cite several works
//!   for several clauses), and no rival is sought when the evidence of a work cited in
//!   the sentence is incomplete (a source failed).
//!
//! When a rival was compared, a fitted logistic model ([`decision`]) turns these
//! signals into the support of the citation in [0, 1]; per backend, two thresholds
//! fitted on development data (`examples/clean_bench.rs --calibrate`, see
//! docs/judge.md) make a confident mismatch (removed by `clean`'s default policy) and a
//! doubtful citation (kept or marked, by policy). With no rival — one claim and the
//! one work it cites, as `verify` sees it, or an answer with a single source — the
//! support is the scorer's calibrated score and its own thresholds (fitted on human
//! citing sentences against their cited and swapped works, `verify_tables`) make the
//! call: one judge, whichever shell asks.

pub mod decision;
mod fitted;
pub mod specific;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::verify::Relation;
use crate::verify::embedded::Assessment;
use crate::verify::hybrid::{Scorer, ScoringMode};
use crate::verify::sentence_model::SentenceModelError;
use decision::{DecisionModel, Signals};
use specific::{SpecificCheck, SpecificTerm, TermSet};

/// How much better than the cited work a document's other cited work must hold a
/// claim before `verify` calls the citation a mismatch on its account. A manuscript's
/// cited works are often close to each other and a claim is often held by several, so
/// a rival that is merely better is no evidence. Fitted on Citation-Integrity train
/// (`verify_eval --split train`, "swap test in documents", 10 works per document;
/// `scripts/calibrate-judge.sh`): the smallest margin at which the rivals add at most
/// one false flag in two thousand originals (lexical: 0.19 % alone, 0.23 % at 0.6,
/// 0.52 % with no margin) — swaps flagged rise from 79.7 % alone to 95.4 %.
pub const RIVAL_MARGIN: f64 = 0.6;

/// One work a citation may name or be compared with.
#[derive(Debug, Clone)]
pub struct Candidate<'a> {
    /// How the report names it (`source 3`, `reference [4]`).
    pub name: String,
    pub title: &'a str,
    pub abstract_text: &'a str,
}

impl Candidate<'_> {
    fn has_text(&self) -> bool {
        !self.title.trim().is_empty() || !self.abstract_text.trim().is_empty()
    }

    fn passages(&self) -> Vec<&str> {
        [self.title, self.abstract_text]
            .into_iter()
            .filter(|t| !t.trim().is_empty())
            .collect()
    }
}

/// One occurrence of a citation: its sentence and the candidate it names.
#[derive(Debug, Clone)]
pub struct Occurrence {
    pub sentence: String,
    pub cited: usize,
    /// Every candidate cited in the same sentence (the cited one included): never
    /// rivals of each other.
    pub cited_here: Vec<usize>,
    /// Whether rivals may be sought: false when what a citation of the sentence names
    /// is known only in part because a source failed.
    pub rivals_allowed: bool,
}

/// What the judge concluded about one occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    /// The sentence is about the cited work.
    Supported,
    /// It may not be: below the judge's confidence for a mismatch.
    Doubtful,
    /// The judge is confident the sentence is not about the cited work.
    Mismatch,
}

/// Another work that holds the sentence better than the cited one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RivalEvidence {
    pub name: String,
    pub title: String,
    /// The scorer's score of the sentence against the rival (the cited work's is in
    /// [`Evidence::score`]).
    pub score: f64,
    /// The rival's passage closest to the sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage: Option<String>,
    /// Specific terms of the sentence the rival holds.
    #[serde(default)]
    pub found: Vec<String>,
}

/// The evidence a verdict rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// The scorer's calibrated score of the sentence against the cited work.
    pub score: f64,
    /// The cited work's passage (sentence of the title or abstract) closest to the
    /// sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage: Option<String>,
    /// Specific terms of the sentence (numbers, entities, rare terms) the cited work
    /// holds, and those it does not.
    #[serde(default)]
    pub found: Vec<String>,
    #[serde(default)]
    pub missing: Vec<String>,
    /// The best other work, when one holds the sentence better than the cited one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rival: Option<RivalEvidence>,
}

impl DecisionModel {
    /// The model fitted for a scoring mode (`fitted.rs`, generated by the calibration;
    /// read here so the model's definition does not import its fitted values).
    pub fn for_mode(mode: ScoringMode) -> DecisionModel {
        match mode {
            ScoringMode::Lexical => fitted::LEXICAL,
            ScoringMode::Hybrid => fitted::HYBRID,
            ScoringMode::Embeddings => fitted::EMBEDDINGS,
        }
    }
}

/// The verdict on one occurrence.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    pub call: Call,
    /// How well the cited work supports the sentence, in [0, 1].
    pub support: f64,
    pub evidence: Evidence,
    /// What the decision model read (for calibration).
    pub signals: Signals,
}

/// The judge: a scorer and the decision model fitted for it. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Judge {
    scorer: Scorer,
    decision: DecisionModel,
    /// How much better a document's other cited work must hold a sentence in
    /// [`Judge::judge_assessed_among`] ([`RIVAL_MARGIN`] unless set for calibration).
    rival_margin: f64,
}

impl Default for Judge {
    /// The lexical judge (no sentence model).
    fn default() -> Judge {
        Judge::new(Scorer::lexical())
    }
}

/// What one sentence–work comparison measured.
#[derive(Debug, Clone)]
struct Measured {
    score: f64,
    /// The scorer's own call on the pair (its calibration, for a judgement without rival).
    relation: Relation,
    coverage: f64,
    passage: Option<String>,
    specific: SpecificCheck,
}

impl Judge {
    /// The judge for `scorer`, with the decision model fitted for its mode.
    pub fn new(scorer: Scorer) -> Judge {
        let decision = DecisionModel::for_mode(scorer.mode());
        Judge {
            scorer,
            decision,
            rival_margin: RIVAL_MARGIN,
        }
    }

    /// The same judge with another rival margin (for calibration).
    pub fn with_rival_margin(mut self, margin: f64) -> Judge {
        self.rival_margin = margin;
        self
    }

    /// The same judge with another decision model (for calibration).
    pub fn with_decision(mut self, decision: DecisionModel) -> Judge {
        self.decision = decision;
        self
    }

    pub fn scorer(&self) -> &Scorer {
        &self.scorer
    }

    pub fn mode(&self) -> ScoringMode {
        self.scorer.mode()
    }

    pub fn decision(&self) -> &DecisionModel {
        &self.decision
    }

    /// How sentences and works are compared, for reports.
    pub fn name(&self) -> String {
        self.scorer.name()
    }

    /// Judge every occurrence against `candidates`: `None` where the sentence or the
    /// cited work has nothing to compare. Each sentence is compared with each work
    /// once.
    pub fn judge_all(
        &self,
        candidates: &[Candidate],
        occurrences: &[Occurrence],
    ) -> Result<Vec<Option<Judgement>>, SentenceModelError> {
        let background = crate::verify::background::Background::embedded();
        let texts: Vec<TermSet> = candidates
            .iter()
            .map(|c| TermSet::of(&c.passages()))
            .collect();
        let mut terms_of: HashMap<&str, Vec<SpecificTerm>> = HashMap::new();
        let mut memo: HashMap<(&str, usize), Option<Measured>> = HashMap::new();
        let mut out = Vec::with_capacity(occurrences.len());
        for occurrence in occurrences {
            let sentence = occurrence.sentence.as_str();
            if sentence.trim().is_empty() || !candidates[occurrence.cited].has_text() {
                out.push(None);
                continue;
            }
            let terms = terms_of
                .entry(sentence)
                .or_insert_with(|| specific::specific_terms(sentence, background))
                .clone();
            let mut measure = |j: usize| -> Result<Option<Measured>, SentenceModelError> {
                if let Some(m) = memo.get(&(sentence, j)) {
                    return Ok(m.clone());
                }
                let m = self.measure(sentence, &candidates[j], &terms, &texts[j])?;
                memo.insert((sentence, j), m.clone());
                Ok(m)
            };
            let Some(own) = measure(occurrence.cited)? else {
                out.push(None);
                continue;
            };
            let mut rival: Option<(usize, Measured)> = None;
            if occurrence.rivals_allowed {
                for (j, candidate) in candidates.iter().enumerate() {
                    if occurrence.cited_here.contains(&j) || !candidate.has_text() {
                        continue;
                    }
                    if let Some(m) = measure(j)?
                        && rival.as_ref().is_none_or(|(_, r)| m.score > r.score)
                    {
                        rival = Some((j, m));
                    }
                }
            }
            out.push(Some(self.decide(&own, rival, candidates, &terms)));
        }
        Ok(out)
    }

    fn measure(
        &self,
        sentence: &str,
        candidate: &Candidate,
        terms: &[SpecificTerm],
        text: &TermSet,
    ) -> Result<Option<Measured>, SentenceModelError> {
        let assessment = self.scorer.assess(sentence, &candidate.passages())?;
        Ok(measured(assessment, terms, text))
    }

    /// The verdict on a sentence the scorer has already assessed against one work's
    /// `texts`, with no rival: `verify`'s case, a claim and the work it cites (its
    /// abstract, or the best passages of its full text). `None` when the two share
    /// nothing to compare.
    pub fn judge_assessed<P: AsRef<str>>(
        &self,
        sentence: &str,
        assessment: Assessment,
        texts: &[P],
    ) -> Option<Judgement> {
        // With no rival to measure, nothing can fail.
        self.judge_assessed_among(sentence, assessment, texts, &[])
            .ok()
            .flatten()
    }

    /// As [`Judge::judge_assessed`], with `rivals`: the other works the document cites
    /// (never those cited beside this one). The best of them that holds the sentence
    /// is weighed against the cited work, as [`Judge::judge_all`] does for `clean`; its
    /// mismatch stands only when the rival holds the sentence plainly better (its score
    /// at least the rival margin, [`RIVAL_MARGIN`], above the cited work's), else the call is the one
    /// without rivals.
    pub fn judge_assessed_among<P: AsRef<str>>(
        &self,
        sentence: &str,
        assessment: Assessment,
        texts: &[P],
        rivals: &[Candidate],
    ) -> Result<Option<Judgement>, SentenceModelError> {
        let background = crate::verify::background::Background::embedded();
        let terms = specific::specific_terms(sentence, background);
        let Some(own) = measured(assessment, &terms, &TermSet::of(texts)) else {
            return Ok(None);
        };
        let mut best: Option<(usize, Measured)> = None;
        for (j, rival) in rivals.iter().enumerate().filter(|(_, r)| r.has_text()) {
            let text = TermSet::of(&rival.passages());
            if let Some(m) = self.measure(sentence, rival, &terms, &text)?
                && best.as_ref().is_none_or(|(_, b)| m.score > b.score)
            {
                best = Some((j, m));
            }
        }
        let alone = self.decide(&own, None, &[], &terms);
        let Some((j, rival)) = best else {
            return Ok(Some(alone));
        };
        let plainly_better = rival.score - own.score >= self.rival_margin;
        let among = self.decide(&own, Some((j, rival)), rivals, &terms);
        Ok(Some(if among.call == Call::Mismatch && plainly_better {
            among
        } else {
            alone
        }))
    }

    fn decide(
        &self,
        own: &Measured,
        rival: Option<(usize, Measured)>,
        candidates: &[Candidate],
        terms: &[SpecificTerm],
    ) -> Judgement {
        let signals = Signals {
            score: own.score,
            coverage: own.coverage,
            missing: own.specific.missing_share,
            has_specific: !terms.is_empty(),
            rival: rival.as_ref().map(|(_, r)| decision::RivalSignals {
                score: r.score,
                coverage: r.coverage,
                missing: r.specific.missing_share,
            }),
        };
        // The decision model weighs the cited work against its rival; alone, the
        // scorer's calibration is the judge (see the module's documentation).
        let (support, call) = match rival {
            Some(_) => {
                let support = self.decision.support(&signals);
                (support, self.decision.call(support))
            }
            None => {
                let call = call_alone(own.relation);
                let support =
                    on_decision_scale(own.score, call, self.scorer.thresholds(), &self.decision);
                (support, call)
            }
        };
        // A rival is evidence only when it holds the sentence better than the cited work.
        let rival = rival
            .filter(|(_, r)| r.score > own.score || r.coverage > own.coverage)
            .map(|(j, r)| RivalEvidence {
                name: candidates[j].name.clone(),
                title: candidates[j].title.to_string(),
                score: round4(r.score),
                passage: r.passage,
                found: r.specific.found,
            });
        Judgement {
            call,
            support,
            signals,
            evidence: Evidence {
                score: round4(own.score),
                passage: own.passage.clone(),
                found: own.specific.found.clone(),
                missing: own.specific.missing.clone(),
                rival,
            },
        }
    }
}

/// What one assessment measured, with the specific content of the sentence checked
/// against the work's text; `None` when there was nothing to compare.
fn measured(assessment: Assessment, terms: &[SpecificTerm], text: &TermSet) -> Option<Measured> {
    assessment.judgeable.then(|| Measured {
        score: assessment.score,
        relation: assessment.relation,
        coverage: assessment.features.coverage,
        passage: assessment.best.map(|b| b.text.trim().to_string()),
        specific: specific::check(terms, text),
    })
}

/// The call the scorer's calibration makes without a rival: `unrelated` is a confident
/// mismatch, `uncertain` (a low score, or a negation that disagrees) a doubt.
fn call_alone(relation: Relation) -> Call {
    match relation {
        Relation::Unrelated => Call::Mismatch,
        Relation::Uncertain => Call::Doubtful,
        Relation::Related => Call::Supported,
    }
}

/// A score of the scorer's calibration, carried onto the decision model's scale so
/// that its thresholds mean the same there: piecewise linear, `unrelated_below` onto
/// `remove_below` and `related_from` onto `doubt_below`, and kept inside the band of
/// `call` (a negation that disagrees makes a high score doubtful).
fn on_decision_scale(
    score: f64,
    call: Call,
    (unrelated, related): (f64, f64),
    d: &DecisionModel,
) -> f64 {
    let (r, dt) = (d.remove_below, d.doubt_below);
    let lerp = |x: f64, (x0, x1): (f64, f64), (y0, y1): (f64, f64)| {
        if x1 > x0 {
            y0 + (x - x0) / (x1 - x0) * (y1 - y0)
        } else {
            y0
        }
    };
    let mapped = if score < unrelated {
        lerp(score, (0.0, unrelated), (0.0, r))
    } else if score < related {
        lerp(score, (unrelated, related), (r, dt))
    } else {
        lerp(score, (related, 1.0), (dt, 1.0))
    };
    // Just under a band's upper edge, so the band's own test (`< edge`) holds.
    let below = |edge: f64| edge - 1e-6;
    let (lo, hi) = match call {
        Call::Mismatch => (0.0, below(r)),
        Call::Doubtful => (r, below(dt)),
        Call::Supported => (dt, 1.0),
    };
    mapped.clamp(lo, hi.max(lo))
}

impl Call {
    /// The relation `verify` reports for a call.
    pub fn relation(self) -> Relation {
        match self {
            Call::Mismatch => Relation::Unrelated,
            Call::Doubtful => Relation::Uncertain,
            Call::Supported => Relation::Related,
        }
    }
}

/// Four decimals: stable across platforms, and all a reader can use.
pub fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates() -> Vec<Candidate<'static>> {
        vec![
            Candidate {
                name: "source 1".into(),
                title: "Exercise training improves sleep quality in older adults",
                abstract_text: "This systematic review found that exercise training improved \
                                sleep quality in older adults with sleep problems, as measured \
                                by the Pittsburgh Sleep Quality Index.",
            },
            Candidate {
                name: "source 2".into(),
                title: "Deep residual learning for image recognition",
                abstract_text: "We present a residual learning framework to ease the training \
                                of deep neural networks; a 152-layer ResNet reaches 3.57% top-5 \
                                error on ImageNet.",
            },
        ]
    }

    fn at(sentence: &str, cited: usize) -> Occurrence {
        Occurrence {
            sentence: sentence.into(),
            cited,
            cited_here: vec![cited],
            rivals_allowed: true,
        }
    }

    #[test]
    fn each_occurrence_is_judged_on_its_own_sentence() {
        let judge = Judge::default();
        let right = "A 152-layer ResNet reached 3.57% top-5 error on ImageNet.";
        let wrong = "Exercise training improved sleep quality in older adults.";
        let out = judge
            .judge_all(&candidates(), &[at(right, 1), at(wrong, 1)])
            .unwrap();
        let (a, b) = (out[0].as_ref().unwrap(), out[1].as_ref().unwrap());
        assert_eq!(a.call, Call::Supported, "{a:?}");
        assert_eq!(b.call, Call::Mismatch, "{b:?}");
        assert!(a.support > b.support);
        // The evidence: the right sentence's figures are found in its work …
        assert!(a.evidence.found.iter().any(|t| t == "3.57%"), "{a:?}");
        assert!(a.evidence.missing.is_empty(), "{a:?}");
        // … and the wrong one's work is named as the rival, with its passage.
        let rival = b.evidence.rival.as_ref().expect("rival");
        assert_eq!(rival.name, "source 1");
        assert!(rival.passage.as_deref().unwrap().contains("sleep"), "{b:?}");
    }

    #[test]
    fn works_cited_in_the_same_sentence_are_not_rivals() {
        let judge = Judge::default();
        let sentence = "Exercise improved sleep quality in older adults, and a 152-layer \
                        ResNet reached 3.57% top-5 error on ImageNet.";
        let mut first = at(sentence, 0);
        first.cited_here = vec![0, 1];
        let out = judge.judge_all(&candidates(), &[first]).unwrap();
        assert_eq!(out[0].as_ref().unwrap().evidence.rival, None);
    }

    #[test]
    fn without_a_rival_the_scorers_calibration_decides_on_the_same_scale() {
        // One work only (verify's case, or an answer with one source): an unrelated
        // sentence is still a confident mismatch, and the support stays below the
        // decision model's removal threshold, so `clean`'s thresholds agree.
        let judge = Judge::default();
        let one = &candidates()[..1];
        let wrong = "A 152-layer ResNet reached 3.57% top-5 error on ImageNet.";
        let right = "Exercise training improved sleep quality in older adults, as measured \
                     by the Pittsburgh Sleep Quality Index.";
        let out = judge.judge_all(one, &[at(wrong, 0), at(right, 0)]).unwrap();
        let (w, r) = (out[0].as_ref().unwrap(), out[1].as_ref().unwrap());
        assert_eq!(w.call, Call::Mismatch, "{w:?}");
        assert!(w.support < judge.decision().remove_below, "{w:?}");
        assert_eq!(r.call, Call::Supported, "{r:?}");
        assert!(r.support >= judge.decision().doubt_below, "{r:?}");
        assert_eq!(w.evidence.rival, None);
        // verify's path gives the same call for the same pair.
        let texts = one[0].passages();
        let assessed = judge.scorer().assess(wrong, &texts).unwrap();
        let alone = judge.judge_assessed(wrong, assessed, &texts).unwrap();
        assert_eq!(alone.call, Call::Mismatch);
        assert_eq!(alone.call.relation(), Relation::Unrelated);
    }

    #[test]
    fn the_decision_scale_keeps_each_call_in_its_band() {
        let d = DecisionModel::for_mode(ScoringMode::Lexical);
        let t = (0.2, 0.6);
        let at = |score, call| on_decision_scale(score, call, t, &d);
        assert!(at(0.1, Call::Mismatch) < d.remove_below);
        assert_eq!(at(0.2, Call::Doubtful), d.remove_below);
        assert!(at(0.59, Call::Doubtful) < d.doubt_below);
        assert_eq!(at(0.6, Call::Supported), d.doubt_below);
        assert_eq!(at(1.0, Call::Supported), 1.0);
        // A negation that disagrees keeps a high score doubtful.
        let negated = at(0.9, Call::Doubtful);
        assert!(negated >= d.remove_below && negated < d.doubt_below);
    }

    #[test]
    fn nothing_to_compare_is_no_judgement() {
        let judge = Judge::default();
        let out = judge.judge_all(&candidates(), &[at("  ", 0)]).unwrap();
        assert!(out[0].is_none());
    }
}
