//! What a validation says about each article: the score, the label, whether it is
//! kept, and every component with its weight, contribution and explanation; and a
//! summary of the run.

use serde::{Deserialize, Serialize};

use crate::clean::{Identifier, Record};

/// How far an article can be trusted for answering the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    High,
    Medium,
    Low,
    /// Retracted, or an identifier that does not resolve or names another work.
    InvalidId,
    /// Could not be judged: the identifier could not be checked (a source failed),
    /// or the article has too little metadata to be scored.
    Unknown,
}

impl Label {
    pub const ALL: [Label; 5] = [
        Label::High,
        Label::Medium,
        Label::Low,
        Label::InvalidId,
        Label::Unknown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Label::High => "high",
            Label::Medium => "medium",
            Label::Low => "low",
            Label::InvalidId => "invalid_id",
            Label::Unknown => "unknown",
        }
    }
}

/// One scored component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Component {
    /// The component's score in [0, 1]; `null` when the article lacks what it needs
    /// (its weight then goes to the other components).
    pub score: Option<f64>,
    /// The weight as configured, divided by the sum of the configured weights.
    pub weight: f64,
    /// What it added to the validation score (its share of the weight of the
    /// components that could be scored, times its score).
    pub contribution: f64,
    pub explanation: String,
}

/// The four scored components.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Components {
    pub recency: Component,
    pub reputation: Component,
    pub citations: Component,
    pub relevance: Component,
}

/// What resolving the article's identifiers showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// The identifiers resolve to this article.
    Resolved,
    /// An identifier names no work.
    NotFound,
    /// An identifier names a different work.
    OtherWork,
    /// The record says the article was retracted.
    Retracted,
    /// A source failed or timed out: not known.
    Unverified,
    /// Not looked up (identifier checks or resolution off, offline and not cached).
    NotChecked,
    /// The article carries no DOI, PMCID, PMID or arXiv id.
    NoIdentifier,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Resolved => "resolved",
            Access::NotFound => "not_found",
            Access::OtherWork => "other_work",
            Access::Retracted => "retracted",
            Access::Unverified => "unverified",
            Access::NotChecked => "not_checked",
            Access::NoIdentifier => "no_identifier",
        }
    }

    /// Whether the outcome makes the article `invalid_id`.
    pub fn is_invalid(self) -> bool {
        matches!(
            self,
            Access::NotFound | Access::OtherWork | Access::Retracted
        )
    }
}

/// Identifier accessibility: a check, not a weighted component (an identifier that
/// does not resolve makes the article `invalid_id` whatever it scores).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdentifierCheck {
    pub status: Access,
    /// The identifier checked (the strongest the article carries).
    pub identifier: Option<Identifier>,
    /// The record the identifiers resolved to (or the other work one names).
    pub record: Option<Record>,
    /// Sources asked, in order.
    pub sources: Vec<String>,
    pub explanation: String,
}

/// The validation of one article.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Validation {
    /// Position of the article in the request (0-based).
    pub index: usize,
    pub validation_score: f64,
    pub confidence_label: Label,
    /// Whether the article passes the filter (always true with `keep_all`).
    pub kept: bool,
    pub components: Components,
    pub identifier: IdentifierCheck,
    /// One sentence on the label and the filter.
    pub reason: String,
}

/// Counts and settings of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub articles: usize,
    pub kept: usize,
    pub filtered: usize,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    pub invalid_id: usize,
    pub unknown: usize,
    /// How relevance was measured (`cosine:all-MiniLM-L6-v2`, `lexical`).
    pub relevance: String,
    /// Articles scored below this were filtered.
    pub min_score: f64,
    /// The year recency was counted from.
    pub current_year: i32,
}

impl Summary {
    /// Count the labels and the kept articles.
    pub fn count(&mut self, validations: &[Validation]) {
        self.articles = validations.len();
        self.kept = validations.iter().filter(|v| v.kept).count();
        self.filtered = self.articles - self.kept;
        let n = |l: Label| {
            validations
                .iter()
                .filter(|v| v.confidence_label == l)
                .count()
        };
        self.high = n(Label::High);
        self.medium = n(Label::Medium);
        self.low = n(Label::Low);
        self.invalid_id = n(Label::InvalidId);
        self.unknown = n(Label::Unknown);
    }
}
