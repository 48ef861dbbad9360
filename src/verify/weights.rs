//! Fitted weights over feature vectors, apart from the code that measures the
//! features and from the generated files that hold the fitted values
//! (`calibration.rs` by `examples/verify_tables.rs`, `rank_weights.rs` by
//! `examples/fit_ranker.rs`): both the scorers and those files use these types,
//! so neither has to import the other.

use super::Relation;

/// A logistic model over `N` features and the two thresholds on its output. The
/// lexical scorer reads the `FEATURES` of `embedded::Features`; the scorers with a
/// sentence model read more (see `super::hybrid`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration<const N: usize> {
    pub weights: [f64; N],
    pub bias: f64,
    /// Scores below this are `unrelated`.
    pub unrelated_below: f64,
    /// Scores at or above this are `related` (unless negation disagrees).
    pub related_from: f64,
}

impl<const N: usize> Calibration<N> {
    /// Logistic score of a feature vector.
    pub fn score(&self, features: &[f64; N]) -> f64 {
        let z: f64 = self.bias
            + self
                .weights
                .iter()
                .zip(features)
                .map(|(w, x)| w * x)
                .sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    }

    /// The relation a score stands for.
    pub fn relation(&self, score: f64, negation_mismatch: bool) -> Relation {
        if score < self.unrelated_below {
            Relation::Unrelated
        } else if score >= self.related_from && !negation_mismatch {
            Relation::Related
        } else {
            Relation::Uncertain
        }
    }
}

/// Weights of a linear passage score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankWeights<const N: usize> {
    pub weights: [f64; N],
}

impl<const N: usize> RankWeights<N> {
    /// The score of one passage's features (higher ranks first).
    pub fn score(&self, features: &[f64; N]) -> f64 {
        self.weights.iter().zip(features).map(|(w, x)| w * x).sum()
    }
}
