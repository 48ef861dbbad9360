//! Article validation, for RAG pre-filtering: every article a pipeline retrieved is
//! scored on recency, source reputation (journal tiers, peer review), its log-scaled
//! citation count and its relevance to the query (the sentence model's cosine, or
//! the embedded backend's lexical score without a model), its identifiers are
//! resolved, and it gets a `validation_score` in [0, 1], a `confidence_label` (`high`,
//! `medium`, `low`, `invalid_id`, `unknown`) and a verdict on whether it is kept —
//! with every component explained.
//!
//! The CLI (`citeproof validate-sources`), the HTTP service and the Python bindings
//! call [`validate`] (or [`validate_blocking`]) with a [`Validator`] set up once and
//! one [`ValidateRequest`] per query.
//!
//! ```
//! use citeproof::validate::{validate_blocking, Label, ValidateRequest, Validator};
//!
//! let request: ValidateRequest = serde_json::from_value(serde_json::json!({
//!     "query": "Does exercise training improve sleep quality in older adults?",
//!     "articles": [
//!         {
//!             "pmcid": "PMC3321", "journal": "Science", "year": 2024,
//!             "citation_count": 250, "is_peer_reviewed": true, "is_retracted": false,
//!             "title": "Exercise training improves sleep quality in older adults",
//!             "abstract": "Exercise training improved sleep quality in older adults \
//!                          with sleep problems, as measured by the Pittsburgh Sleep \
//!                          Quality Index."
//!         },
//!         {
//!             "doi": "10.1000/retracted", "journal": "Cell", "year": 2023,
//!             "title": "Sleep and exercise", "is_retracted": true
//!         }
//!     ],
//!     "options": { "current_year": 2025 }
//! }))?;
//! let validator = Validator::default(); // lexical relevance
//! let validated = validate_blocking(&validator, &request, None)?; // no identifier checks
//! let first = &validated.articles[0];
//! assert_eq!(first.confidence_label, Label::High);
//! assert!(first.kept && first.validation_score >= 0.75);
//! assert_eq!(first.components.reputation.score, Some(1.0)); // Science is in a tier
//! assert_eq!(validated.articles[1].confidence_label, Label::InvalidId);
//! assert!(!validated.articles[1].kept);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod identifier;
pub mod journals;
pub mod options;
pub mod output;
pub mod report;
pub mod score;

use serde::{Deserialize, Serialize};

use crate::clean::align::Aligner;
use crate::clean::{CleanError, Metric};
use crate::resolve::cascade::Resolver;
use crate::settle::Settle;
use crate::verify::sentence_model::SentenceModelError;

pub use crate::clean::article::{Article, parse_sources};
pub use options::{CitationScale, JournalTier, Preset, Settled, ValidateOptions, Weights};
pub use report::{Access, Component, Components, IdentifierCheck, Label, Summary, Validation};

/// One query and the articles retrieved for it: the body of `POST /v1/validate`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateRequest {
    pub query: String,
    pub articles: Vec<Article>,
    /// Options over the validator's configured defaults.
    #[serde(default)]
    pub options: Option<ValidateOptions>,
}

/// Every article's validation, in request order (the filtered ones included, with
/// `kept: false`), and a summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Validated {
    pub articles: Vec<Validation>,
    pub summary: Summary,
}

impl Validated {
    /// The validations of the kept articles.
    pub fn kept(&self) -> impl Iterator<Item = &Validation> {
        self.articles.iter().filter(|v| v.kept)
    }
}

/// Why articles could not be validated (never a finding: those are in the report).
#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    #[error("invalid options: {0}")]
    Options(String),
    #[error("invalid request: {0}")]
    Request(String),
    #[error("sentence model: {0}")]
    Model(#[from] SentenceModelError),
    #[error("{0}")]
    Runtime(String),
}

impl ValidateError {
    /// Whether the request itself was wrong (HTTP 422) rather than the validator.
    pub fn is_bad_request(&self) -> bool {
        matches!(self, ValidateError::Options(_) | ValidateError::Request(_))
    }
}

/// The options every request starts from and the scorer relevance is measured with
/// (the sentence model, when one is loaded). Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Validator {
    defaults: ValidateOptions,
    aligner: Aligner,
}

impl Validator {
    /// `defaults` (usually the `[validate]` section) over the built-in settings;
    /// relevance through `aligner` (see [`Aligner::new`]; the default is lexical).
    pub fn new(defaults: ValidateOptions, aligner: Aligner) -> Validator {
        Validator { defaults, aligner }
    }

    pub fn defaults(&self) -> &ValidateOptions {
        &self.defaults
    }

    /// The options of a request settled over the defaults, and checked.
    pub fn settle(&self, options: Option<&ValidateOptions>) -> Result<Settled, ValidateError> {
        Settled::over(&self.defaults, options)
    }

    /// The relevance metric of settled options: as set, else cosine with a sentence
    /// model and the calibrated score without.
    fn metric(&self, settled: &Settled) -> Result<Metric, ValidateError> {
        let metric = settled.relevance.unwrap_or(match self.aligner.model() {
            Some(_) => Metric::Cosine,
            None => Metric::Score,
        });
        self.aligner.check(metric).map_err(|e| match e {
            CleanError::Options(why) => ValidateError::Options(why),
            other => ValidateError::Options(other.to_string()),
        })?;
        Ok(metric)
    }
}

/// Validate the articles of one request. With a `resolver`, every article's
/// identifiers are resolved (unless `check_identifiers` is off); without one they are
/// reported `not_checked`.
pub async fn validate(
    validator: &Validator,
    request: &ValidateRequest,
    resolver: Option<&Resolver>,
) -> Result<Validated, ValidateError> {
    let settled = validator.settle(request.options.as_ref())?;
    let query = request.query.trim();
    if query.is_empty() {
        return Err(ValidateError::Request("the query is empty".into()));
    }
    let metric = validator.metric(&settled)?;
    let current_year = settled.current_year.unwrap_or_else(this_year);
    let checks = match (settled.check_identifiers, resolver) {
        (true, Some(resolver)) => {
            identifier::check_all(&request.articles, Some(resolver), "").await
        }
        (false, _) => {
            identifier::check_all(&request.articles, None, "identifier checks are off").await
        }
        (true, None) => identifier::check_all(&request.articles, None, "resolution is off").await,
    };
    let range = score::CountRange::of(request.articles.iter().map(|a| a.citation_count));
    let [w_recency, w_reputation, w_citations, w_relevance] = score::normalised_weights(&settled);
    let mut articles = Vec::with_capacity(request.articles.len());
    for (index, (article, check)) in request.articles.iter().zip(checks).enumerate() {
        let (recency, recency_why) = score::recency(article.year, current_year, &settled);
        let (reputation, reputation_why) = journals::reputation(article, &settled);
        let (citations, citations_why) = score::citations(article.citation_count, range, &settled);
        let (relevance, relevance_why) = relevance(validator, metric, query, article)?;
        let mut components = Components {
            recency: score::component(recency, w_recency, recency_why),
            reputation: score::component(Some(reputation), w_reputation, reputation_why),
            citations: score::component(citations, w_citations, citations_why),
            relevance: score::component(relevance, w_relevance, relevance_why),
        };
        let (mut validation_score, scored) = score::combine(&mut components);
        let (access, access_why) = if article.is_retracted {
            (
                Access::Retracted,
                "the article is marked retracted (is_retracted)".to_string(),
            )
        } else {
            (check.status, check.explanation.clone())
        };
        let (label, mut reason) =
            score::label(validation_score, scored, access, &access_why, &settled);
        if label == Label::InvalidId {
            validation_score = 0.0;
        }
        let kept = score::kept(label, validation_score, &settled);
        reason.push_str(match (kept, label) {
            (true, _) if settled.keep_all => "; kept (keep_all)",
            (true, Label::Unknown) => "; kept (not enough is known to filter it)",
            (true, _) => "; kept",
            (false, Label::InvalidId) => "; filtered",
            (false, _) => "; filtered (below the least score kept)",
        });
        articles.push(Validation {
            index,
            validation_score,
            confidence_label: label,
            kept,
            components,
            identifier: check,
            reason,
        });
    }
    let mut summary = Summary {
        relevance: describe_metric(validator, metric),
        min_score: settled.min_score(),
        current_year,
        ..Summary::default()
    };
    summary.count(&articles);
    Ok(Validated { articles, summary })
}

/// [`validate`] for callers without a tokio runtime. Without a resolver it runs on the
/// calling thread; with one, on a runtime of its own. Not for use inside a tokio
/// runtime (await [`validate`] there).
pub fn validate_blocking(
    validator: &Validator,
    request: &ValidateRequest,
    resolver: Option<&Resolver>,
) -> Result<Validated, ValidateError> {
    if resolver.is_none() {
        return futures::executor::block_on(validate(validator, request, None));
    }
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(ValidateError::Runtime(
            "validate_blocking was called inside a tokio runtime: await `validate` instead".into(),
        ));
    }
    let runtime =
        crate::resolve::cascade::runtime().map_err(|e| ValidateError::Runtime(e.to_string()))?;
    runtime.block_on(validate(validator, request, resolver))
}

/// The query's relevance to the article's title and abstract, and how it was found.
fn relevance(
    validator: &Validator,
    metric: Metric,
    query: &str,
    article: &Article,
) -> Result<(Option<f64>, String), ValidateError> {
    let (title, abstract_text) = (article.title(), article.abstract_text());
    if title.is_empty() && abstract_text.is_empty() {
        return Ok((
            None,
            "no title or abstract to compare with the query".into(),
        ));
    }
    let compared = match (title.is_empty(), abstract_text.is_empty()) {
        (false, false) => "title + abstract",
        (false, true) => "title (no abstract)",
        _ => "abstract (no title)",
    };
    let similarity = validator
        .aligner
        .similarity(metric, query, title, abstract_text)?;
    let how = describe_metric(validator, metric);
    Ok(match similarity {
        Some(s) => (
            Some(s.clamp(0.0, 1.0)),
            format!("{how} {:.2} of the query with the {compared}", s),
        ),
        None => (
            None,
            format!("the query and the {compared} share nothing {how} can compare"),
        ),
    })
}

fn describe_metric(validator: &Validator, metric: Metric) -> String {
    match metric {
        Metric::Cosine => validator.aligner.describe(Metric::Cosine),
        Metric::Score => format!("{} score", validator.aligner.describe(Metric::Score)),
    }
}

/// The current year (UTC), from the system clock.
pub fn this_year() -> i32 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    year_of_day((secs / 86_400) as i64)
}

/// The proleptic Gregorian year of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn year_of_day(days: i64) -> i32 {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_of_days() {
        assert_eq!(year_of_day(0), 1970);
        assert_eq!(year_of_day(364), 1970);
        assert_eq!(year_of_day(365), 1971);
        // 2024-12-31 and 2025-01-01 (2024 is a leap year).
        assert_eq!(year_of_day(20_088), 2024);
        assert_eq!(year_of_day(20_089), 2025);
        assert!(this_year() >= 2024);
    }

    fn article(title: &str, abstract_text: &str) -> Article {
        Article {
            title: Some(title.into()),
            abstract_text: Some(abstract_text.into()),
            journal: Some("Journal of Sleep Research".into()),
            year: Some(2022),
            citation_count: Some(40),
            is_peer_reviewed: Some(true),
            ..Article::default()
        }
    }

    #[test]
    fn relevance_ranks_the_article_about_the_query_first() {
        let request = ValidateRequest {
            query: "Does exercise improve sleep quality in older adults?".into(),
            articles: vec![
                article(
                    "Deep residual learning for image recognition",
                    "We present a residual learning framework to ease the training of deep \
                     neural networks for image classification.",
                ),
                article(
                    "Exercise training improves sleep quality in older adults",
                    "A randomised trial: twelve weeks of aerobic exercise improved sleep \
                     quality in adults over sixty.",
                ),
            ],
            options: Some(ValidateOptions {
                current_year: Some(2025),
                ..ValidateOptions::default()
            }),
        };
        let validated = validate_blocking(&Validator::default(), &request, None).unwrap();
        let [unrelated, related] = &validated.articles[..] else {
            panic!("two validations");
        };
        let rel = |v: &Validation| v.components.relevance.score.unwrap();
        assert!(
            rel(related) > rel(unrelated) + 0.3,
            "{related:?}\n{unrelated:?}"
        );
        assert!(related.validation_score > unrelated.validation_score);
        assert_eq!(related.identifier.status, Access::NoIdentifier);
        assert_eq!(validated.summary.articles, 2);
        assert_eq!(validated.summary.current_year, 2025);
        let contributions: f64 = [
            &related.components.recency,
            &related.components.reputation,
            &related.components.citations,
            &related.components.relevance,
        ]
        .iter()
        .map(|c| c.contribution)
        .sum();
        assert!((contributions - related.validation_score).abs() < 1e-3);
    }

    #[test]
    fn bad_requests_say_what_was_wrong() {
        let validator = Validator::default();
        let empty = ValidateRequest {
            query: "  ".into(),
            ..ValidateRequest::default()
        };
        let err = validate_blocking(&validator, &empty, None).unwrap_err();
        assert!(
            err.is_bad_request() && err.to_string().contains("query"),
            "{err}"
        );
        let cosine = ValidateRequest {
            query: "q".into(),
            options: Some(ValidateOptions {
                preset: Some(Preset::Microtrait),
                ..ValidateOptions::default()
            }),
            ..ValidateRequest::default()
        };
        let err = validate_blocking(&validator, &cosine, None).unwrap_err();
        assert!(
            err.is_bad_request() && err.to_string().contains("sentence model"),
            "{err}"
        );
    }
}
