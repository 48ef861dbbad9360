//! The embedded backend with a local sentence-embedding model: the lexical signals of
//! [`super::embedded`] together with how close the claim's embedding is to the
//! evidence's (best sentence and whole evidence), through one fitted logistic model.
//!
//! Three scoring modes share one interface, [`Scorer`]: `lexical` (no model), `embeddings`
//! (the two similarity signals alone) and `hybrid` (both). Each has its own calibration,
//! fitted on tuning data by `examples/verify_tables.rs`; `examples/verify_eval.rs` runs
//! the swap test for all three. [`DEFAULT_MODE_WITH_MODEL`] is the mode used when a
//! model is configured; without one the backend is lexical.

use std::sync::Arc;

use serde::Serialize;

use super::calibration;
use super::embedded::{Assessment, Calibration, EmbeddedScorer, FEATURES};
use super::sentence_model::{SentenceModel, SentenceModelError, similarity};
use crate::parse::sentence::sentences;

/// Number of similarity signals.
pub const SEMANTIC_FEATURES: usize = 2;
/// Lexical and similarity signals together.
pub const HYBRID_FEATURES: usize = FEATURES + SEMANTIC_FEATURES;
/// Evidence sentences embedded at most per assessment (the first ones): bounds the
/// cost of long evidence.
const MAX_SENTENCES: usize = 96;

/// The model name reported for the lexical scorer.
pub const LEXICAL_NAME: &str = "embedded-lexical";

/// How the claim and its evidence are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoringMode {
    Lexical,
    Embeddings,
    Hybrid,
}

impl ScoringMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ScoringMode::Lexical => "lexical",
            ScoringMode::Embeddings => "embeddings",
            ScoringMode::Hybrid => "hybrid",
        }
    }

    pub fn parse(text: &str) -> Option<ScoringMode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "lexical" => Some(ScoringMode::Lexical),
            "embeddings" => Some(ScoringMode::Embeddings),
            "hybrid" => Some(ScoringMode::Hybrid),
            _ => None,
        }
    }
}

/// The mode used when a sentence model is configured: the one with the better swap
/// test on the dev splits (see the issue note and `examples/verify_eval.rs`).
pub const DEFAULT_MODE_WITH_MODEL: ScoringMode = ScoringMode::Hybrid;

/// How close the claim is to the evidence in embedding space.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct SemanticFeatures {
    /// Cosine similarity of the claim and its closest evidence sentence.
    pub best_similarity: f64,
    /// Cosine similarity of the claim and the mean of the evidence sentences.
    pub evidence_similarity: f64,
}

impl SemanticFeatures {
    pub fn to_array(&self) -> [f64; SEMANTIC_FEATURES] {
        [self.best_similarity, self.evidence_similarity]
    }
}

/// The sentences of the evidence passages, in order, at most [`MAX_SENTENCES`].
fn evidence_sentences<P: AsRef<str>>(evidence: &[P]) -> Vec<&str> {
    evidence
        .iter()
        .flat_map(|p| {
            let p = p.as_ref();
            sentences(p).into_iter().map(move |r| &p[r])
        })
        .filter(|s| !s.trim().is_empty())
        .take(MAX_SENTENCES)
        .collect()
}

/// Measure the similarity signals of a claim and its evidence.
pub fn measure_semantic<P: AsRef<str>>(
    model: &SentenceModel,
    claim: &str,
    evidence: &[P],
) -> Result<SemanticFeatures, SentenceModelError> {
    let sentences = evidence_sentences(evidence);
    if sentences.is_empty() || claim.trim().is_empty() {
        return Ok(SemanticFeatures::default());
    }
    let query = model.embed_one(claim)?;
    let vectors = model.embed(&sentences)?;
    let best = vectors
        .iter()
        .map(|v| similarity(&query, v))
        .fold(f64::NEG_INFINITY, f64::max);
    let mut mean = vec![0.0f64; model.dims()];
    for v in &vectors {
        for (m, x) in mean.iter_mut().zip(v.iter()) {
            *m += f64::from(*x);
        }
    }
    let norm = mean.iter().map(|x| x * x).sum::<f64>().sqrt();
    let whole = if norm > 0.0 {
        query
            .iter()
            .zip(&mean)
            .map(|(q, m)| f64::from(*q) * m / norm)
            .sum()
    } else {
        0.0
    };
    Ok(SemanticFeatures {
        best_similarity: best,
        evidence_similarity: whole,
    })
}

/// The embedded backend's judge in any [`ScoringMode`]. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Scorer {
    mode: ScoringMode,
    lexical: EmbeddedScorer<'static>,
    model: Option<Arc<SentenceModel>>,
    semantic: Calibration<SEMANTIC_FEATURES>,
    hybrid: Calibration<HYBRID_FEATURES>,
}

impl Default for Scorer {
    fn default() -> Self {
        Scorer::lexical()
    }
}

impl Scorer {
    /// Lexical scoring, no model.
    pub fn lexical() -> Scorer {
        Scorer {
            mode: ScoringMode::Lexical,
            lexical: EmbeddedScorer::default(),
            model: None,
            semantic: calibration::SEMANTIC,
            hybrid: calibration::HYBRID,
        }
    }

    /// Scoring with `model` in `mode` (`Lexical` ignores the model).
    pub fn with_model(model: Arc<SentenceModel>, mode: ScoringMode) -> Scorer {
        let mut s = Scorer::lexical();
        if mode != ScoringMode::Lexical {
            s.mode = mode;
            s.model = Some(model);
        }
        s
    }

    /// The default scorer: [`DEFAULT_MODE_WITH_MODEL`] with a model, lexical without.
    pub fn for_model(model: Option<Arc<SentenceModel>>) -> Scorer {
        match model {
            Some(m) => Scorer::with_model(m, DEFAULT_MODE_WITH_MODEL),
            None => Scorer::lexical(),
        }
    }

    pub fn mode(&self) -> ScoringMode {
        self.mode
    }

    pub fn model(&self) -> Option<&Arc<SentenceModel>> {
        self.model.as_ref()
    }

    /// What verdicts report as their model: `embedded-lexical`, or the sentence
    /// model's name (with `+lexical` in hybrid mode).
    pub fn name(&self) -> String {
        match (&self.model, self.mode) {
            (Some(m), ScoringMode::Hybrid) => format!("{}+lexical", m.name()),
            (Some(m), _) => m.name().to_string(),
            (None, _) => LEXICAL_NAME.to_string(),
        }
    }

    /// Judge `claim` against `evidence` (an abstract as one passage, or passages).
    pub fn assess<P: AsRef<str>>(
        &self,
        claim: &str,
        evidence: &[P],
    ) -> Result<Assessment, SentenceModelError> {
        let lexical = self.lexical.assess(claim, evidence);
        let Some(model) = &self.model else {
            return Ok(lexical);
        };
        let semantic = measure_semantic(model, claim, evidence)?;
        let mut out = lexical;
        out.semantic = Some(semantic);
        if !out.judgeable {
            return Ok(out);
        }
        out.score = match self.mode {
            ScoringMode::Lexical => out.score,
            ScoringMode::Embeddings => self.semantic.score(&semantic.to_array()),
            ScoringMode::Hybrid => self.hybrid.score(&hybrid_features(
                &out.features.to_array(),
                &semantic.to_array(),
            )),
        };
        out.relation = match self.mode {
            ScoringMode::Lexical => out.relation,
            ScoringMode::Embeddings => self.semantic.relation(out.score, out.negation_mismatch),
            ScoringMode::Hybrid => self.hybrid.relation(out.score, out.negation_mismatch),
        };
        Ok(out)
    }
}

/// The hybrid feature vector: lexical features, then similarity features.
pub fn hybrid_features(
    lexical: &[f64; FEATURES],
    semantic: &[f64; SEMANTIC_FEATURES],
) -> [f64; HYBRID_FEATURES] {
    let mut out = [0.0; HYBRID_FEATURES];
    out[..FEATURES].copy_from_slice(lexical);
    out[FEATURES..].copy_from_slice(semantic);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_print() {
        for mode in [
            ScoringMode::Lexical,
            ScoringMode::Embeddings,
            ScoringMode::Hybrid,
        ] {
            assert_eq!(ScoringMode::parse(mode.as_str()), Some(mode));
        }
        assert_eq!(ScoringMode::parse("bm25"), None);
    }

    #[test]
    fn without_a_model_the_scorer_is_lexical() {
        let s = Scorer::for_model(None);
        assert_eq!(s.mode(), ScoringMode::Lexical);
        assert_eq!(s.name(), LEXICAL_NAME);
        let claim = "Sleep deprivation impairs fear memory consolidation in mice.";
        let a = s
            .assess(claim, &["Sleep deprivation impaired fear memory in mice."])
            .unwrap();
        assert_eq!(
            a,
            EmbeddedScorer::default()
                .assess(claim, &["Sleep deprivation impaired fear memory in mice."])
        );
        assert!(a.semantic.is_none());
    }

    #[test]
    fn hybrid_features_keep_the_order() {
        let lexical = [1.0; FEATURES];
        let f = hybrid_features(&lexical, &[0.5, 0.25]);
        assert_eq!(f[FEATURES - 1], 1.0);
        assert_eq!(&f[FEATURES..], &[0.5, 0.25]);
    }
}
