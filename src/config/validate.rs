//! The `[validate]` section: how `citeproof validate-sources` (and the HTTP service
//! and Python bindings over the same library call) scores retrieved articles, and
//! from the merged configuration to the [`ValidateOptions`] a validator starts from.

use serde::{Deserialize, Serialize};

use super::Resolved;
use super::origin::Origin;
use super::values::Fraction;
use crate::clean::Metric;
use crate::validate::options::{
    CitationScale, JournalTier, Preset, Settled, ValidateOptions, Weights,
};

/// `[validate]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ValidateSection {
    /// Named settings applied before the other keys (`microtrait`).
    pub preset: Option<Preset>,
    /// `[validate.weights]`: recency, reputation, citations, relevance.
    pub weights: Option<WeightsSection>,
    /// Journal tiers: `[{ name = "Cell", score = 1.0 }, …]` (replaces the built-in list).
    pub journals: Option<Vec<JournalTierValue>>,
    pub peer_reviewed: Option<Fraction>,
    pub not_peer_reviewed: Option<Fraction>,
    pub unknown_review: Option<Fraction>,
    /// Age in years at which recency reaches 0.
    pub recency_years: Option<u32>,
    /// The year recency is counted from (default: this year).
    pub current_year: Option<i32>,
    /// `absolute` or `relative`.
    pub citation_scale: Option<CitationScale>,
    /// Citations that score 1 on the absolute scale.
    pub citation_saturation: Option<u64>,
    /// `cosine` or `score` (default: cosine with a sentence model).
    pub relevance: Option<Metric>,
    pub high: Option<Fraction>,
    pub medium: Option<Fraction>,
    /// Articles scored below this are filtered (default: the medium threshold).
    pub min_score: Option<Fraction>,
    pub check_identifiers: Option<bool>,
    pub keep_all: Option<bool>,
}

/// `[validate.weights]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct WeightsSection {
    pub recency: Option<f64>,
    pub reputation: Option<f64>,
    pub citations: Option<f64>,
    pub relevance: Option<f64>,
}

/// One journal tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalTierValue {
    pub name: String,
    pub score: Fraction,
}

/// The `[validate]` defaults as TOML, for the defaults layer (`citeproof config`
/// shows them).
pub(super) fn defaults_text() -> String {
    let s = Settled::default();
    let w = s.weights;
    let journals: Vec<String> = s
        .journals
        .iter()
        .map(|j| {
            format!(
                "{{ name = {}, score = {:?} }}",
                toml::Value::String(j.name.clone()),
                j.score
            )
        })
        .collect();
    format!(
        "[validate]\njournals = [{}]\npeer-reviewed = {:?}\nnot-peer-reviewed = {:?}\n\
         unknown-review = {:?}\nrecency-years = {}\ncitation-scale = \"{}\"\n\
         citation-saturation = {}\nhigh = {:?}\nmedium = {:?}\ncheck-identifiers = {}\n\
         keep-all = {}\n[validate.weights]\nrecency = {:?}\nreputation = {:?}\n\
         citations = {:?}\nrelevance = {:?}\n",
        journals.join(", "),
        s.peer_reviewed,
        s.not_peer_reviewed,
        s.unknown_review,
        s.recency_years,
        s.citation_scale.as_str(),
        s.citation_saturation,
        s.high,
        s.medium,
        s.check_identifiers,
        s.keep_all,
        w.recency,
        w.reputation,
        w.citations,
        w.relevance,
    )
}

impl Resolved {
    /// The `[validate]` options set by a file, the environment or a flag (the
    /// built-in defaults are left to [`Settled`], so that they do not undo a preset).
    pub fn validate_options(&self) -> ValidateOptions {
        let v = self.config.validate.clone().unwrap_or_default();
        let set = |key: &str| {
            !matches!(
                self.origin(&format!("validate.{key}")),
                None | Some(Origin::Default)
            )
        };
        let fraction = |f: Option<Fraction>, key: &str| f.map(|f| f.0).filter(|_| set(key));
        let w = v.weights.unwrap_or_default();
        let weights = Weights {
            recency: w.recency.filter(|_| set("weights.recency")),
            reputation: w.reputation.filter(|_| set("weights.reputation")),
            citations: w.citations.filter(|_| set("weights.citations")),
            relevance: w.relevance.filter(|_| set("weights.relevance")),
        };
        ValidateOptions {
            preset: v.preset.filter(|_| set("preset")),
            weights: Some(weights).filter(|w| *w != Weights::default()),
            journals: v.journals.filter(|_| set("journals")).map(|list| {
                list.into_iter()
                    .map(|j| JournalTier {
                        name: j.name,
                        score: j.score.0,
                    })
                    .collect()
            }),
            peer_reviewed: fraction(v.peer_reviewed, "peer-reviewed"),
            not_peer_reviewed: fraction(v.not_peer_reviewed, "not-peer-reviewed"),
            unknown_review: fraction(v.unknown_review, "unknown-review"),
            recency_years: v.recency_years.filter(|_| set("recency-years")),
            current_year: v.current_year.filter(|_| set("current-year")),
            citation_scale: v.citation_scale.filter(|_| set("citation-scale")),
            citation_saturation: v.citation_saturation.filter(|_| set("citation-saturation")),
            relevance: v.relevance.filter(|_| set("relevance")),
            high: fraction(v.high, "high"),
            medium: fraction(v.medium, "medium"),
            min_score: fraction(v.min_score, "min-score"),
            check_identifiers: v.check_identifiers.filter(|_| set("check-identifiers")),
            keep_all: v.keep_all.filter(|_| set("keep-all")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigFile, Overrides};
    use crate::settle::Settle;

    #[test]
    fn the_section_reads_and_rejects_unknown_keys() {
        let file: ConfigFile = toml::from_str(
            "[validate]\npreset = \"microtrait\"\nmin-score = 0.2\n\
             journals = [{ name = \"eLife\", score = 0.9 }]\n\
             [validate.weights]\nrelevance = 0.6\n",
        )
        .unwrap();
        let v = file.validate.unwrap();
        assert_eq!(v.preset, Some(Preset::Microtrait));
        assert_eq!(v.journals.unwrap()[0].name, "eLife");
        assert_eq!(v.weights.unwrap().relevance, Some(0.6));
        for (text, named) in [
            ("[validate]\nmin-scor = 0.5\n", "min-scor"),
            ("[validate]\nhigh = 1.5\n", "between 0 and 1"),
            ("[validate]\ncitation-scale = \"log\"\n", "log"),
            ("[validate.weights]\nrecent = 1.0\n", "recent"),
            ("[validate]\njournals = [{ name = \"Cell\" }]\n", "score"),
        ] {
            let err = toml::from_str::<ConfigFile>(text).unwrap_err().to_string();
            assert!(err.contains(named), "{text}: {err}");
        }
    }

    #[test]
    fn files_override_the_defaults_and_the_defaults_do_not_undo_a_preset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("citeproof.toml");
        std::fs::write(
            &path,
            "[validate]\npreset = \"microtrait\"\nkeep-all = true\n\
             journals = [{ name = \"eLife\", score = 0.9 }]\n[validate.weights]\nrecency = 0.0\n",
        )
        .unwrap();
        let resolved =
            Resolved::build(&crate::fs::Disk, Some(&path), &Overrides::default()).unwrap();
        let options = resolved.validate_options();
        assert_eq!(options.citation_scale, None);
        assert_eq!(options.high, None);
        let settled = Settled::from_layers([&options]).unwrap();
        assert_eq!(settled.citation_scale, CitationScale::Relative);
        assert_eq!(settled.min_score(), 0.15);
        assert!(settled.keep_all);
        assert_eq!(settled.weights.recency, 0.0);
        assert_eq!(settled.weights.relevance, 0.30);
        assert_eq!(settled.journals.len(), 1);
        let defaults = Resolved::build(&crate::fs::Disk, None, &Overrides::default()).unwrap();
        assert_eq!(defaults.validate_options(), ValidateOptions::default());
        assert_eq!(
            Settled::from_layers([&defaults.validate_options()]).unwrap(),
            Settled::default()
        );
    }
}
