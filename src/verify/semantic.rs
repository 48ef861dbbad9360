//! The similarity signals between a claim and its evidence in a sentence model's
//! embedding space, with the background works' (see [`super::hybrid`]).

use serde::Serialize;

use super::background_works::{BACKGROUND_FEATURES, BackgroundSimilarity};

/// Number of similarity signals between the claim and the evidence.
pub const SEMANTIC_FEATURES: usize = 2;
/// Similarity signals with the background ones.
pub const SEMANTIC_BACKGROUND_FEATURES: usize = SEMANTIC_FEATURES + BACKGROUND_FEATURES;

/// How close the claim is to the evidence in embedding space.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct SemanticFeatures {
    /// Cosine similarity of the claim and its closest evidence sentence.
    pub best_similarity: f64,
    /// Cosine similarity of the claim and the mean of the evidence sentences.
    pub evidence_similarity: f64,
    /// How close the claim comes to the background works, when the model is the one
    /// they were embedded with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<BackgroundSimilarity>,
}

impl SemanticFeatures {
    /// The claim–evidence signals.
    pub fn to_array(&self) -> [f64; SEMANTIC_FEATURES] {
        [self.best_similarity, self.evidence_similarity]
    }

    /// The claim–evidence signals, then the background ones (zero when absent).
    pub fn with_background(&self) -> [f64; SEMANTIC_BACKGROUND_FEATURES] {
        concat(
            &self.to_array(),
            &self.background.unwrap_or_default().to_array(),
        )
    }
}

/// `a` then `b` (`N` must be `A + B`).
pub(super) fn concat<const A: usize, const B: usize, const N: usize>(
    a: &[f64; A],
    b: &[f64; B],
) -> [f64; N] {
    assert_eq!(A + B, N, "feature vector lengths");
    let mut out = [0.0; N];
    out[..A].copy_from_slice(a);
    out[A..].copy_from_slice(b);
    out
}
