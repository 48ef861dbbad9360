//! What an article validation may be told: the weight of each component, the journal
//! tiers, how recency and citation counts are scaled, how relevance is measured, the
//! label thresholds and what is kept. [`ValidateOptions`] is plain data (every field
//! optional, unknown fields an error) so that the configuration's `[validate]`
//! section, the command line, an HTTP request body and the Python bindings all say
//! the same thing; layers of it are settled into one [`Settled`] set of values.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::ValidateError;
use crate::clean::Metric;
use crate::settle::{Layer, Settle, set};

/// The weight of each scored component; they need not sum to 1 (they are divided by
/// their sum, over the components an article can be scored on).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    pub recency: Option<f64>,
    pub reputation: Option<f64>,
    pub citations: Option<f64>,
    pub relevance: Option<f64>,
}

/// A journal and the reputation score (0–1) of the tier it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalTier {
    /// The journal's name; abbreviations (`Proc Natl Acad Sci U S A`) and acronyms
    /// (`PNAS`) of it match too.
    pub name: String,
    pub score: f64,
}

/// How a citation count becomes a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationScale {
    /// `ln(1 + count) / ln(1 + saturation)`, capped at 1: an article's score does not
    /// depend on the others it is validated with.
    Absolute,
    /// Min–max of `ln(1 + count)` over the articles validated together
    /// (MicroTraitLLM's measure; 0 for all when every count is the same).
    Relative,
}

impl CitationScale {
    pub fn as_str(self) -> &'static str {
        match self {
            CitationScale::Absolute => "absolute",
            CitationScale::Relative => "relative",
        }
    }
}

impl FromStr for CitationScale {
    type Err = String;
    fn from_str(s: &str) -> Result<CitationScale, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "absolute" => Ok(CitationScale::Absolute),
            "relative" => Ok(CitationScale::Relative),
            _ => Err(format!(
                "`{s}` is not a citation scale (absolute or relative)"
            )),
        }
    }
}

/// Named sets of settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// MicroTraitLLM's article validation: citation counts min–max scaled over the
    /// retrieved set, relevance as the sentence model's cosine, articles kept from a
    /// score of 0.15.
    Microtrait,
}

impl Preset {
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Microtrait => "microtrait",
        }
    }

    /// The options the preset stands for.
    pub fn options(self) -> ValidateOptions {
        match self {
            Preset::Microtrait => ValidateOptions {
                citation_scale: Some(CitationScale::Relative),
                relevance: Some(Metric::Cosine),
                min_score: Some(0.15),
                ..ValidateOptions::default()
            },
        }
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Preset, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "microtrait" | "microtraitllm" => Ok(Preset::Microtrait),
            _ => Err(format!("`{s}` is not a preset (microtrait)")),
        }
    }
}

/// Settings of one validation. Every field is optional: what is left out comes from
/// the layer below (the configuration's `[validate]` section, then the built-in
/// defaults). A `preset` is applied before the other fields of the same layer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ValidateOptions {
    pub preset: Option<Preset>,
    pub weights: Option<Weights>,
    /// Journal tiers; a layer that sets them replaces the list below it.
    pub journals: Option<Vec<JournalTier>>,
    /// Reputation of a peer-reviewed journal that is in no tier.
    pub peer_reviewed: Option<f64>,
    /// Reputation of a source known not to be peer reviewed (a preprint server).
    pub not_peer_reviewed: Option<f64>,
    /// Reputation when peer review is not known.
    pub unknown_review: Option<f64>,
    /// Age in years at which recency reaches 0 (linearly from 1 in the current year).
    pub recency_years: Option<u32>,
    /// The year recency is counted from (default: this year).
    pub current_year: Option<i32>,
    pub citation_scale: Option<CitationScale>,
    /// Citations that score 1 on the absolute scale.
    pub citation_saturation: Option<u64>,
    /// How the query is compared with title + abstract: `cosine` (the sentence
    /// model's embeddings) or `score` (the embedded backend's calibrated score,
    /// lexical without a model). Default: cosine with a model, score without.
    pub relevance: Option<Metric>,
    /// Least score labelled `high`.
    pub high: Option<f64>,
    /// Least score labelled `medium` (below: `low`).
    pub medium: Option<f64>,
    /// Articles scored below this are filtered out (default: the `medium` threshold,
    /// so `low` articles are filtered).
    pub min_score: Option<f64>,
    /// Resolve each article's identifiers (default true when resolution is on).
    pub check_identifiers: Option<bool>,
    /// Keep every article, `low` and `invalid_id` ones included.
    pub keep_all: Option<bool>,
}

/// The built-in weights (MicroTraitLLM's).
pub const DEFAULT_WEIGHTS: SettledWeights = SettledWeights {
    recency: 0.25,
    reputation: 0.25,
    citations: 0.20,
    relevance: 0.30,
};

/// The built-in journal tiers (MicroTraitLLM's).
pub fn default_journals() -> Vec<JournalTier> {
    [
        ("Nature Microbiology", 1.0),
        ("Science", 1.0),
        ("Cell", 1.0),
        ("Proceedings of the National Academy of Sciences", 0.9),
    ]
    .into_iter()
    .map(|(name, score)| JournalTier {
        name: name.to_string(),
        score,
    })
    .collect()
}

/// Weights with every value decided.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SettledWeights {
    pub recency: f64,
    pub reputation: f64,
    pub citations: f64,
    pub relevance: f64,
}

/// Options with every value decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settled {
    pub weights: SettledWeights,
    pub journals: Vec<JournalTier>,
    pub peer_reviewed: f64,
    pub not_peer_reviewed: f64,
    pub unknown_review: f64,
    pub recency_years: u32,
    /// `None`: this year.
    pub current_year: Option<i32>,
    pub citation_scale: CitationScale,
    pub citation_saturation: u64,
    /// `None`: cosine with a sentence model, score without.
    pub relevance: Option<Metric>,
    pub high: f64,
    pub medium: f64,
    /// `None`: the `medium` threshold.
    pub min_score: Option<f64>,
    pub check_identifiers: bool,
    pub keep_all: bool,
}

impl Default for Settled {
    fn default() -> Settled {
        Settled {
            weights: DEFAULT_WEIGHTS,
            journals: default_journals(),
            peer_reviewed: 0.7,
            not_peer_reviewed: 0.3,
            unknown_review: 0.4,
            recency_years: 10,
            current_year: None,
            citation_scale: CitationScale::Absolute,
            citation_saturation: 1000,
            relevance: None,
            high: 0.75,
            medium: 0.5,
            min_score: None,
            check_identifiers: true,
            keep_all: false,
        }
    }
}

impl Settled {
    /// The least score an article is kept with.
    pub fn min_score(&self) -> f64 {
        self.min_score.unwrap_or(self.medium)
    }
}

impl Layer for ValidateOptions {
    fn preset(&self) -> Option<ValidateOptions> {
        self.preset.map(Preset::options)
    }
}

impl Settle for Settled {
    type Layer = ValidateOptions;
    type Error = ValidateError;

    fn apply(&mut self, o: &ValidateOptions) {
        if let Some(w) = &o.weights {
            set(&mut self.weights.recency, w.recency);
            set(&mut self.weights.reputation, w.reputation);
            set(&mut self.weights.citations, w.citations);
            set(&mut self.weights.relevance, w.relevance);
        }
        if let Some(journals) = &o.journals {
            self.journals.clone_from(journals);
        }
        set(&mut self.peer_reviewed, o.peer_reviewed);
        set(&mut self.not_peer_reviewed, o.not_peer_reviewed);
        set(&mut self.unknown_review, o.unknown_review);
        set(&mut self.recency_years, o.recency_years);
        if o.current_year.is_some() {
            self.current_year = o.current_year;
        }
        set(&mut self.citation_scale, o.citation_scale);
        set(&mut self.citation_saturation, o.citation_saturation);
        if o.relevance.is_some() {
            self.relevance = o.relevance;
        }
        set(&mut self.high, o.high);
        set(&mut self.medium, o.medium);
        if o.min_score.is_some() {
            self.min_score = o.min_score;
        }
        set(&mut self.check_identifiers, o.check_identifiers);
        set(&mut self.keep_all, o.keep_all);
    }

    fn check(&self) -> Result<(), ValidateError> {
        let bad = |what: String| Err(ValidateError::Options(what));
        let w = &self.weights;
        for (name, value) in [
            ("recency", w.recency),
            ("reputation", w.reputation),
            ("citations", w.citations),
            ("relevance", w.relevance),
        ] {
            if !value.is_finite() || value < 0.0 {
                return bad(format!(
                    "weights.{name} is {value}: a weight is a number of at least 0"
                ));
            }
        }
        if w.recency + w.reputation + w.citations + w.relevance <= 0.0 {
            return bad("every weight is 0: nothing would be scored".into());
        }
        let fractions = [
            ("peer_reviewed", self.peer_reviewed),
            ("not_peer_reviewed", self.not_peer_reviewed),
            ("unknown_review", self.unknown_review),
            ("high", self.high),
            ("medium", self.medium),
            ("min_score", self.min_score()),
        ];
        for (name, value) in fractions {
            check_fraction(name, value)?;
        }
        for (i, tier) in self.journals.iter().enumerate() {
            if tier.name.trim().is_empty() {
                return bad(format!("journals[{i}] has an empty name"));
            }
            check_fraction(&format!("journals[{i}] ({})", tier.name), tier.score)?;
        }
        if self.medium > self.high {
            return bad(format!(
                "the medium threshold ({}) is above the high threshold ({})",
                self.medium, self.high
            ));
        }
        if self.recency_years == 0 {
            return bad("recency_years must be at least 1".into());
        }
        if self.citation_saturation == 0 {
            return bad("citation_saturation must be at least 1".into());
        }
        Ok(())
    }
}

fn check_fraction(name: &str, value: f64) -> Result<(), ValidateError> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(ValidateError::Options(format!(
            "{name} is {value}: expected a number between 0 and 1"
        )))
    }
}

impl fmt::Display for SettledWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "recency {}, reputation {}, citations {}, relevance {}",
            self.recency, self.reputation, self.citations, self.relevance
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_settle_in_order_with_presets_first() {
        let config = ValidateOptions {
            preset: Some(Preset::Microtrait),
            min_score: Some(0.3),
            weights: Some(Weights {
                relevance: Some(0.5),
                ..Weights::default()
            }),
            ..ValidateOptions::default()
        };
        let request = ValidateOptions {
            keep_all: Some(true),
            ..ValidateOptions::default()
        };
        let s = Settled::from_layers([&config, &request]).unwrap();
        assert_eq!(s.citation_scale, CitationScale::Relative);
        assert_eq!(s.min_score(), 0.3);
        assert_eq!(s.weights.relevance, 0.5);
        assert_eq!(s.weights.recency, 0.25);
        assert!(s.keep_all);
        assert_eq!(Settled::default().min_score(), 0.5);
    }

    #[test]
    fn bad_values_are_named() {
        let check = |o: ValidateOptions| Settled::from_layers([&o]).unwrap_err().to_string();
        let err = check(ValidateOptions {
            high: Some(0.4),
            ..ValidateOptions::default()
        });
        assert!(err.contains("above the high threshold"), "{err}");
        let err = check(ValidateOptions {
            weights: Some(Weights {
                citations: Some(-1.0),
                ..Weights::default()
            }),
            ..ValidateOptions::default()
        });
        assert!(err.contains("weights.citations"), "{err}");
        let err = check(ValidateOptions {
            journals: Some(vec![JournalTier {
                name: "Cell".into(),
                score: 2.0,
            }]),
            ..ValidateOptions::default()
        });
        assert!(err.contains("journals[0] (Cell)"), "{err}");
        let err = serde_json::from_str::<ValidateOptions>(r#"{"keepall": true}"#).unwrap_err();
        assert!(err.to_string().contains("keepall"), "{err}");
    }
}
