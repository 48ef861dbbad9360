//! From what the judge measured to a verdict: a logistic model over the signals of one
//! occurrence ([`Signals`]) gives the support of the citation in [0, 1]; below
//! `remove_below` the judge is confident of a mismatch, below `doubt_below` it doubts.
//! Weights and thresholds are fitted per backend on development data
//! (`cargo run --release --example clean_bench -- --calibrate`, written to
//! `src/verify/judge/fitted.rs`; the procedure is in docs/judge.md).

use super::Call;

/// Number of features the decision model reads.
pub const FEATURES: usize = 8;

/// The best rival's measurements.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RivalSignals {
    pub score: f64,
    pub coverage: f64,
    pub missing: f64,
}

/// What was measured for one occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Signals {
    /// The scorer's calibrated score against the cited work.
    pub score: f64,
    /// IDF-weighted share of the sentence's terms the cited work holds.
    pub coverage: f64,
    /// IDF-weighted share of the sentence's specific content the cited work lacks.
    pub missing: f64,
    pub has_specific: bool,
    /// The best other work, when rivals were sought and one had text.
    pub rival: Option<RivalSignals>,
}

impl Signals {
    /// The features in the order the weights expect.
    pub fn to_array(&self) -> [f64; FEATURES] {
        let r = self.rival.unwrap_or(RivalSignals {
            score: 0.0,
            coverage: 0.0,
            missing: 1.0,
        });
        [
            self.score,
            self.coverage,
            self.missing,
            if self.has_specific { 1.0 } else { 0.0 },
            r.score,
            (r.score - self.score).max(0.0),
            (r.coverage - self.coverage).max(0.0),
            (self.missing - r.missing).max(0.0),
        ]
    }
}

/// A fitted decision model: weights, bias and the two thresholds on the support.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecisionModel {
    pub weights: [f64; FEATURES],
    pub bias: f64,
    /// Support below which the judge is confident of a mismatch.
    pub remove_below: f64,
    /// Support below which the judge doubts the citation.
    pub doubt_below: f64,
}

impl DecisionModel {
    /// The support of a citation in [0, 1].
    pub fn support(&self, signals: &Signals) -> f64 {
        let z = self.bias
            + self
                .weights
                .iter()
                .zip(signals.to_array())
                .map(|(w, x)| w * x)
                .sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    }

    /// The verdict a support stands for.
    pub fn call(&self, support: f64) -> Call {
        if support < self.remove_below {
            Call::Mismatch
        } else if support < self.doubt_below {
            Call::Doubtful
        } else {
            Call::Supported
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::hybrid::ScoringMode;

    #[test]
    fn a_rival_that_holds_the_sentence_lowers_the_support() {
        for mode in [
            ScoringMode::Lexical,
            ScoringMode::Hybrid,
            ScoringMode::Embeddings,
        ] {
            let m = DecisionModel::for_mode(mode);
            assert!(m.remove_below <= m.doubt_below, "{mode:?}");
            let alone = Signals {
                score: 0.4,
                coverage: 0.4,
                missing: 0.5,
                has_specific: true,
                rival: None,
            };
            let rivalled = Signals {
                rival: Some(RivalSignals {
                    score: 0.99,
                    coverage: 0.95,
                    missing: 0.0,
                }),
                ..alone
            };
            assert!(m.support(&rivalled) < m.support(&alone), "{mode:?}");
        }
    }
}
