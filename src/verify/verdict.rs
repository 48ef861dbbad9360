//! The outcome of verifying one claim against one cited work.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What the model concluded, or that no conclusion could be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Label {
    Supports,
    Contradicts,
    NotEnoughInfo,
    /// No evidence could be obtained or the model failed: we do not know. Never an
    /// accusation.
    Unverifiable,
}

impl Label {
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Supports => "SUPPORTS",
            Label::Contradicts => "CONTRADICTS",
            Label::NotEnoughInfo => "NOT_ENOUGH_INFO",
            Label::Unverifiable => "UNVERIFIABLE",
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Which evidence the verdict was reached on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Abstract,
    FullText,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Abstract => "abstract",
            Stage::FullText => "full_text",
        }
    }
}

/// Why a verdict is [`Label::Unverifiable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unverifiable {
    /// Neither an abstract nor an acceptable full text was found.
    NoEvidence,
    /// The model server failed or timed out.
    ModelFailure,
    /// The model answered, but not in a form that could be read (empty, no JSON
    /// object, no label, the prompt echoed back), also after a corrective follow-up.
    InvalidOutput,
    /// The configured request or token budget did not allow another request.
    RateLimited,
}

impl Unverifiable {
    pub fn describe(self) -> &'static str {
        match self {
            Unverifiable::NoEvidence => "no abstract and no full text could be obtained",
            Unverifiable::ModelFailure => "the model could not be queried",
            Unverifiable::InvalidOutput => "the model's answer could not be read",
            Unverifiable::RateLimited => "the model request budget was exhausted",
        }
    }
}

/// The kind of document a passage was taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextFormat {
    Html,
    Jats,
    Pdf,
}

impl TextFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            TextFormat::Html => "html",
            TextFormat::Jats => "jats",
            TextFormat::Pdf => "pdf",
        }
    }
}

/// Where in the full text the decisive passage is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PassageRef {
    /// The URL the full text was downloaded from.
    pub source: String,
    /// Which step of the cascade found it (`citation_url`, `arxiv_html`, …).
    pub origin: String,
    pub format: TextFormat,
    pub section: Option<String>,
    /// Byte offset of the passage in the extracted text.
    pub offset: usize,
    pub text: String,
}

/// The verdict for one claim–work pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub label: Label,
    pub stage: Stage,
    pub rationale: String,
    /// A verbatim quote from the evidence (checked to occur in it).
    pub evidence: Option<String>,
    pub passage: Option<PassageRef>,
    /// The model that gave the final answer.
    pub model: Option<String>,
    pub confidence: Option<f64>,
    pub unverifiable: Option<Unverifiable>,
    /// What happened on the way (sources asked, full texts rejected and why).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// How every "could not be verified" rationale begins, whichever backend
/// wrote it; the rules strip it again ([`unverifiable_reason`]) to word the
/// reason in their own message.
const UNVERIFIABLE_PREFIX: &str = "could not be verified: ";

/// The rationale of a pair that could not be judged, for `reason`.
pub fn unverifiable_rationale(reason: &str) -> String {
    format!("{UNVERIFIABLE_PREFIX}{reason}")
}

/// The reason in a rationale written by [`unverifiable_rationale`]; any other
/// rationale as it is.
pub fn unverifiable_reason(rationale: &str) -> &str {
    rationale
        .strip_prefix(UNVERIFIABLE_PREFIX)
        .unwrap_or(rationale)
}

impl Verdict {
    /// A "could not be verified" verdict.
    pub fn unverifiable(stage: Stage, why: Unverifiable, detail: &str) -> Verdict {
        let rationale = if detail.is_empty() {
            unverifiable_rationale(why.describe())
        } else {
            unverifiable_rationale(&format!("{} ({detail})", why.describe()))
        };
        Verdict {
            label: Label::Unverifiable,
            stage,
            rationale,
            evidence: None,
            passage: None,
            model: None,
            confidence: None,
            unverifiable: Some(why),
            notes: Vec::new(),
        }
    }

    /// Whether the verdict was settled on the full text.
    pub fn is_full_text(&self) -> bool {
        self.stage == Stage::FullText
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_serialise_as_the_issue_spells_them() {
        let v = serde_json::to_value(Label::NotEnoughInfo).unwrap();
        assert_eq!(v, "NOT_ENOUGH_INFO");
        assert_eq!(serde_json::to_value(Stage::FullText).unwrap(), "full_text");
        let back: Label = serde_json::from_value("CONTRADICTS".into()).unwrap();
        assert_eq!(back, Label::Contradicts);
    }

    #[test]
    fn unverifiable_says_could_not_be_verified() {
        let v = Verdict::unverifiable(Stage::Abstract, Unverifiable::ModelFailure, "HTTP 500");
        assert_eq!(v.label, Label::Unverifiable);
        assert!(v.rationale.starts_with("could not be verified"));
        assert!(v.rationale.contains("HTTP 500"));
    }

    #[test]
    fn the_reason_comes_back_out_of_an_unverifiable_rationale() {
        let why = "no abstract and no full text could be obtained";
        assert_eq!(unverifiable_reason(&unverifiable_rationale(why)), why);
        let judged = "the abstract states the claim";
        assert_eq!(unverifiable_reason(judged), judged);
    }
}
