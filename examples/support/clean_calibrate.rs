//! The judge's calibration (docs/judge.md): the decision model's weights and its two
//! thresholds, fitted per backend on development answers only — Citation-Integrity
//! train claims (human paraphrase) and answers copied from the abstracts of the
//! world's development half (another seed than the figures') — and written to
//! `src/verify/judge/fitted.rs`.
//!
//! 1. Every citation of every answer is judged as `clean` judges it (same reading,
//!    sources, sentences and rivals); valid citations and mismatches (easy and hard)
//!    are the samples.
//! 2. A logistic model over the judge's signals is fitted, each of the two sets and
//!    within it valid citations and mismatches weighing equally (L2-regularised,
//!    standardised features, gradient descent).
//! 3. `remove_below` is the support below which at most [`VALID_REMOVED`] of the valid
//!    citations of either set fall (precision first); `doubt_below` the one for
//!    [`VALID_DOUBTED`].
#![allow(dead_code)]

use citeproof::clean::article::Article;
use citeproof::clean::options::{Numbering, Settled};
use citeproof::clean::{Cleaner, align, find, judging, read};
use citeproof::verify::hybrid::ScoringMode;
use citeproof::verify::judge::decision::{DecisionModel, FEATURES};

use super::clean_gen::{Case, Kind};

/// Share of valid citations the fitted removal threshold may cut, per set.
pub const VALID_REMOVED: f64 = 0.01;
/// Share of valid citations that may be doubtful or removed, per set.
pub const VALID_DOUBTED: f64 = 0.05;

/// One judged citation with its label.
#[derive(Debug, Clone)]
pub struct Sample {
    pub features: [f64; FEATURES],
    pub valid: bool,
    pub set: usize,
}

/// The judged valid and mismatched citations of `cases` (set `set`).
pub fn samples(cleaner: &Cleaner, cases: &[Case], set: usize) -> Vec<Sample> {
    let settled = Settled::default();
    let mut out = Vec::new();
    for case in cases {
        let sources: Vec<Article> = case
            .sources
            .iter()
            .map(|s| serde_json::from_value(s.clone()).expect("article"))
            .collect();
        let reading = read::read(&case.answer, None, Some(sources.len()), Numbering::Auto);
        let findings = find::closed(&reading, &sources);
        let contexts: Vec<String> = (0..reading.cites.len())
            .map(|i| align::context_of(&case.answer, &reading, i, &settled))
            .collect();
        let judged = judging::judge_citations(
            cleaner.judge(),
            Some(&sources),
            &reading,
            &findings,
            &contexts,
            true,
        )
        .expect("judge");
        for label in &case.labels {
            let valid = match label.kind {
                Kind::Valid => true,
                Kind::MismatchEasy | Kind::MismatchHard => false,
                _ => continue,
            };
            let at = reading.cites.iter().position(|c| {
                let g = c.citation.group_span;
                [g.start, g.end] == label.span && c.number == Some(label.number)
            });
            if let Some(j) = at.and_then(|i| judged[i].as_ref()) {
                out.push(Sample {
                    features: j.signals.to_array(),
                    valid,
                    set,
                });
            }
        }
    }
    out
}

/// Fit the decision model on `samples` (see the module notes).
pub fn fit(samples: &[Sample]) -> DecisionModel {
    let n = samples.len().max(1) as f64;
    let mut mean = [0.0; FEATURES];
    let mut sd = [0.0; FEATURES];
    for s in samples {
        for (m, x) in mean.iter_mut().zip(&s.features) {
            *m += x / n;
        }
    }
    for s in samples {
        for ((v, x), m) in sd.iter_mut().zip(&s.features).zip(&mean) {
            *v += (x - m).powi(2) / n;
        }
    }
    let sd: Vec<f64> = sd.iter().map(|v| v.sqrt().max(1e-6)).collect();
    // Each (set, class) group weighs one quarter (or its share of the groups present).
    let mut groups = std::collections::HashMap::new();
    for s in samples {
        *groups.entry((s.set, s.valid)).or_insert(0.0) += 1.0;
    }
    let group_count = groups.len() as f64;
    let weight = |s: &Sample| 1.0 / (groups[&(s.set, s.valid)] * group_count);
    let mut w = [0.0; FEATURES];
    let mut b = 0.0;
    let lambda = 1e-3;
    let rate = 0.5;
    for _ in 0..4000 {
        let mut gw = [0.0; FEATURES];
        let mut gb = 0.0;
        for s in samples {
            let x: Vec<f64> = (0..FEATURES)
                .map(|k| (s.features[k] - mean[k]) / sd[k])
                .collect();
            let z = b + (0..FEATURES).map(|k| w[k] * x[k]).sum::<f64>();
            let p = 1.0 / (1.0 + (-z).exp());
            let err = (p - if s.valid { 1.0 } else { 0.0 }) * weight(s);
            for k in 0..FEATURES {
                gw[k] += err * x[k];
            }
            gb += err;
        }
        for k in 0..FEATURES {
            w[k] -= rate * (gw[k] + lambda * w[k]);
        }
        b -= rate * gb;
    }
    // Back to the raw feature scale.
    let mut weights = [0.0; FEATURES];
    let mut bias = b;
    for k in 0..FEATURES {
        weights[k] = w[k] / sd[k];
        bias -= w[k] * mean[k] / sd[k];
    }
    let model = DecisionModel {
        weights: weights.map(round4),
        bias: round4(bias),
        remove_below: 0.0,
        doubt_below: 0.0,
    };
    let sets: Vec<usize> = {
        let mut s: Vec<usize> = samples.iter().map(|s| s.set).collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    let quantile = |share: f64| {
        sets.iter()
            .map(|&set| {
                let mut v: Vec<f64> = samples
                    .iter()
                    .filter(|s| s.set == set && s.valid)
                    .map(|s| support_of(&model, s))
                    .collect();
                v.sort_by(f64::total_cmp);
                // The support below which at most `share` of them lie.
                let k = (share * v.len() as f64).floor() as usize;
                v.get(k).copied().unwrap_or(0.0)
            })
            .fold(1.0f64, f64::min)
    };
    let remove_below = round4(quantile(VALID_REMOVED));
    let doubt_below = round4(quantile(VALID_DOUBTED).max(remove_below));
    DecisionModel {
        remove_below,
        doubt_below,
        ..model
    }
}

fn support_of(model: &DecisionModel, s: &Sample) -> f64 {
    let z = model.bias
        + model
            .weights
            .iter()
            .zip(&s.features)
            .map(|(w, x)| w * x)
            .sum::<f64>();
    1.0 / (1.0 + (-z).exp())
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The constant of `src/verify/judge/fitted.rs` a mode's model is written to.
pub fn constant_name(mode: ScoringMode) -> &'static str {
    match mode {
        ScoringMode::Lexical => "LEXICAL",
        ScoringMode::Hybrid => "HYBRID",
        ScoringMode::Embeddings => "EMBEDDINGS",
    }
}

/// Replace the mode's constant in `src/verify/judge/fitted.rs`.
pub fn write(mode: ScoringMode, model: &DecisionModel, note: &str) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/verify/judge/fitted.rs");
    let text = std::fs::read_to_string(&path).expect("fitted.rs");
    let name = constant_name(mode);
    let start = text
        .find(&format!("pub const {name}: DecisionModel"))
        .expect("constant in fitted.rs");
    // Its doc comment, if any, goes too.
    let start = text[..start]
        .rfind("\n\n")
        .map_or(start, |i| i + 2)
        .min(start);
    let end = start + text[start..].find("};\n").expect("end of constant") + 3;
    let weights: Vec<String> = model.weights.iter().map(|w| format!("{w:?}")).collect();
    let constant = format!(
        "/// {note}\npub const {name}: DecisionModel = DecisionModel {{\n    weights: [{}],\n    bias: {:?},\n    remove_below: {:?},\n    doubt_below: {:?},\n}};\n",
        weights.join(", "),
        model.bias,
        model.remove_below,
        model.doubt_below
    );
    let out = format!("{}{}{}", &text[..start], constant, &text[end..]);
    std::fs::write(&path, out).expect("write fitted.rs");
    path
}
