//! The scored components — recency, citation count — and how the components, the
//! identifier check and the thresholds make the validation score and the label.

use super::options::{CitationScale, Settled};
use super::report::{Access, Component, Components, Label};

/// Components worth less than this share of the total weight leave too little to
/// judge an article by: it is labelled `unknown`.
const MIN_SCORED_WEIGHT: f64 = 0.5;

/// Recency: 1 in the current year, falling linearly to 0 at `recency_years`.
pub fn recency(year: Option<i32>, current_year: i32, settled: &Settled) -> (Option<f64>, String) {
    let Some(year) = year else {
        return (None, "no publication year given".into());
    };
    let age = current_year - year;
    if age < 0 {
        return (
            Some(1.0),
            format!("published {year}, after {current_year}: counted as this year"),
        );
    }
    let horizon = f64::from(settled.recency_years);
    let score = (1.0 - f64::from(age) / horizon).clamp(0.0, 1.0);
    let years = if age == 1 { "year" } else { "years" };
    (
        Some(score),
        format!(
            "published {year}, {age} {years} before {current_year} (0 at {} years)",
            settled.recency_years
        ),
    )
}

/// The range of `ln(1 + count)` over the articles validated together, for the
/// relative scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CountRange {
    pub min: u64,
    pub max: u64,
}

impl CountRange {
    pub fn of(counts: impl IntoIterator<Item = Option<u64>>) -> Option<CountRange> {
        let counts: Vec<u64> = counts.into_iter().flatten().collect();
        Some(CountRange {
            min: *counts.iter().min()?,
            max: *counts.iter().max()?,
        })
    }
}

/// Citations: the log-scaled count, on the absolute or the relative scale.
pub fn citations(
    count: Option<u64>,
    range: Option<CountRange>,
    settled: &Settled,
) -> (Option<f64>, String) {
    let Some(count) = count else {
        return (None, "no citation count given".into());
    };
    let ln = |c: u64| (c as f64).ln_1p();
    match (settled.citation_scale, range) {
        (CitationScale::Relative, Some(CountRange { min, max })) => {
            if max <= min {
                return (
                    Some(0.0),
                    format!("{count} citations; every article has {min}: nothing to rank by"),
                );
            }
            let score = ((ln(count) - ln(min)) / (ln(max) - ln(min))).clamp(0.0, 1.0);
            (
                Some(score),
                format!("{count} citations, log-scaled between the set's {min} and {max}"),
            )
        }
        _ => {
            let saturation = settled.citation_saturation;
            let score = (ln(count) / ln(saturation)).clamp(0.0, 1.0);
            (
                Some(score),
                format!("{count} citations, log-scaled (1 from {saturation})"),
            )
        }
    }
}

/// A component with its configured weight; contributions are set by [`combine`].
pub fn component(score: Option<f64>, weight: f64, explanation: String) -> Component {
    Component {
        score: score.map(round),
        weight,
        contribution: 0.0,
        explanation,
    }
}

/// The configured weights divided by their sum.
pub fn normalised_weights(settled: &Settled) -> [f64; 4] {
    let w = &settled.weights;
    let raw = [w.recency, w.reputation, w.citations, w.relevance];
    let total: f64 = raw.iter().sum();
    raw.map(|x| x / total)
}

/// The validation score: the weighted mean of the components that could be scored.
/// Sets each component's contribution; returns the score and the share of the
/// weight that was scored.
pub fn combine(components: &mut Components) -> (f64, f64) {
    let parts = [
        &mut components.recency,
        &mut components.reputation,
        &mut components.citations,
        &mut components.relevance,
    ];
    let scored: f64 = parts
        .iter()
        .filter(|c| c.score.is_some())
        .map(|c| c.weight)
        .sum();
    let mut score = 0.0;
    for part in parts {
        part.contribution = match part.score {
            Some(s) if scored > 0.0 => round(part.weight / scored * s),
            _ => 0.0,
        };
        if let Some(s) = part.score
            && scored > 0.0
        {
            score += part.weight / scored * s;
        }
    }
    (round(score.clamp(0.0, 1.0)), scored)
}

/// The label and the reason for it.
pub fn label(
    score: f64,
    scored_weight: f64,
    access: Access,
    access_why: &str,
    settled: &Settled,
) -> (Label, String) {
    if access.is_invalid() {
        return (Label::InvalidId, access_why.to_string());
    }
    if access == Access::Unverified {
        return (
            Label::Unknown,
            format!("the identifier could not be checked: {access_why}"),
        );
    }
    if scored_weight < MIN_SCORED_WEIGHT {
        return (
            Label::Unknown,
            format!(
                "only {:.0}% of the weight could be scored: too little metadata to judge",
                scored_weight * 100.0
            ),
        );
    }
    if score >= settled.high {
        (Label::High, format!("score {score} ≥ {}", settled.high))
    } else if score >= settled.medium {
        (Label::Medium, format!("score {score} ≥ {}", settled.medium))
    } else {
        (Label::Low, format!("score {score} < {}", settled.medium))
    }
}

/// Whether an article passes the filter: `invalid_id` never, `unknown` always (a
/// failure to check is no reason to drop an article), others from `min_score`.
pub fn kept(label: Label, score: f64, settled: &Settled) -> bool {
    settled.keep_all
        || match label {
            Label::InvalidId => false,
            Label::Unknown => true,
            _ => score >= settled.min_score(),
        }
}

/// Four decimals: stable output, no float noise.
pub fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recency_falls_linearly_and_future_years_count_as_now() {
        let s = Settled::default();
        assert_eq!(recency(Some(2025), 2025, &s).0, Some(1.0));
        assert_eq!(recency(Some(2020), 2025, &s).0, Some(0.5));
        assert_eq!(recency(Some(1990), 2025, &s).0, Some(0.0));
        assert_eq!(recency(Some(2026), 2025, &s).0, Some(1.0));
        assert_eq!(recency(None, 2025, &s).0, None);
    }

    #[test]
    fn citations_on_both_scales() {
        let mut s = Settled::default();
        assert_eq!(citations(Some(0), None, &s).0, Some(0.0));
        assert_eq!(citations(Some(1000), None, &s).0, Some(1.0));
        assert_eq!(citations(Some(50_000), None, &s).0, Some(1.0));
        let (mid, _) = citations(Some(30), None, &s);
        assert!((mid.unwrap() - (31f64.ln() / 1001f64.ln())).abs() < 1e-12);
        s.citation_scale = CitationScale::Relative;
        let range = CountRange::of([Some(1), None, Some(100)]);
        assert_eq!(range, Some(CountRange { min: 1, max: 100 }));
        assert_eq!(citations(Some(100), range, &s).0, Some(1.0));
        assert_eq!(citations(Some(1), range, &s).0, Some(0.0));
        let same = CountRange::of([Some(5), Some(5)]);
        let (score, why) = citations(Some(5), same, &s);
        assert_eq!(score, Some(0.0));
        assert!(why.contains("nothing to rank by"), "{why}");
    }

    #[test]
    fn missing_components_give_their_weight_to_the_others() {
        let s = Settled::default();
        let [r, p, c, v] = normalised_weights(&s);
        let mut components = Components {
            recency: component(Some(1.0), r, String::new()),
            reputation: component(Some(0.5), p, String::new()),
            citations: component(None, c, String::new()),
            relevance: component(Some(0.0), v, String::new()),
        };
        let (score, scored) = combine(&mut components);
        assert!((scored - 0.8).abs() < 1e-12);
        assert_eq!(score, round((0.25 * 1.0 + 0.25 * 0.5) / 0.8));
        assert_eq!(components.citations.contribution, 0.0);
        let total = components.recency.contribution
            + components.reputation.contribution
            + components.relevance.contribution;
        assert!((total - score).abs() < 1e-3);
    }

    #[test]
    fn labels_and_the_filter() {
        let s = Settled::default();
        assert_eq!(label(0.8, 1.0, Access::Resolved, "", &s).0, Label::High);
        assert_eq!(
            label(0.6, 1.0, Access::NoIdentifier, "", &s).0,
            Label::Medium
        );
        assert_eq!(label(0.2, 1.0, Access::NotChecked, "", &s).0, Label::Low);
        assert_eq!(
            label(0.9, 1.0, Access::NotFound, "x", &s).0,
            Label::InvalidId
        );
        assert_eq!(
            label(0.9, 1.0, Access::Unverified, "x", &s).0,
            Label::Unknown
        );
        assert_eq!(label(0.9, 0.3, Access::Resolved, "", &s).0, Label::Unknown);
        assert!(kept(Label::Unknown, 0.0, &s));
        assert!(!kept(Label::Low, 0.2, &s));
        assert!(!kept(Label::InvalidId, 0.9, &s));
        let all = Settled {
            keep_all: true,
            ..Settled::default()
        };
        assert!(kept(Label::InvalidId, 0.0, &all));
    }
}
