//! The specific content of a citing sentence — numbers (with their units), named
//! entities (genes, proteins, drugs, strains), acronyms and rare terms — and whether a
//! work's text holds it. Topical similarity cannot tell two papers of one field
//! apart; the figures, names and rare words a sentence repeats from its source can.
//!
//! Paraphrase is tolerated: terms are compared after the scientific tokeniser's
//! folding and stemming (`transmitted` meets `transmission` as a near form), numbers
//! by value (`42.3 %` meets `42.3%`, `0.50` meets `0.5`), and the share of missing
//! content is weighted by rarity, so one reworded word weighs less than a missing
//! figure.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::verify::background::Background;
use crate::verify::embedded::match_factor;
use crate::verify::text::{TokenKind, tokenize};

/// Background IDF from which a plain word counts as rare (a document frequency of
/// about 0.7 % of the background documents or less).
pub const RARE_IDF: f64 = 5.0;
/// Specific terms reported per list at most (the report stays readable).
const MAX_LISTED: usize = 8;

/// One specific term of a sentence: the word as written and its normalised term.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecificTerm {
    pub written: String,
    pub term: String,
    pub kind: TokenKind,
    /// Its weight (background IDF).
    pub weight: f64,
}

/// The specific terms of `sentence`, each once, in order.
pub fn specific_terms(sentence: &str, background: &Background) -> Vec<SpecificTerm> {
    let mut out: Vec<SpecificTerm> = Vec::new();
    for token in tokenize(sentence) {
        let idf = background.idf(&token.term);
        let rare_word = token.kind == TokenKind::Word && idf >= RARE_IDF;
        if !(token.is_specific() || rare_word) || out.iter().any(|t| t.term == token.term) {
            continue;
        }
        // Bare small integers (list positions, "two groups") identify nothing.
        if token.kind == TokenKind::Number && is_small_integer(&token.term) {
            continue;
        }
        out.push(SpecificTerm {
            written: sentence[token.start..token.end].to_string(),
            term: token.term,
            kind: token.kind,
            weight: idf,
        });
    }
    out
}

fn is_small_integer(term: &str) -> bool {
    term.parse::<u32>().is_ok_and(|n| n < 10)
}

/// The normalised terms of a text, for [`check`].
#[derive(Debug, Clone, Default)]
pub struct TermSet {
    terms: HashSet<String>,
    numbers: Vec<f64>,
}

impl TermSet {
    pub fn of<P: AsRef<str>>(texts: &[P]) -> TermSet {
        let mut set = TermSet::default();
        for text in texts {
            for token in tokenize(text.as_ref()) {
                if token.kind == TokenKind::Number
                    && let Some(v) = number_value(&token.term)
                {
                    set.numbers.push(v);
                }
                set.terms.insert(token.term);
            }
        }
        set
    }

    /// Whether the text holds `term` (its number by value, a word or a near form).
    fn holds(&self, term: &SpecificTerm) -> bool {
        if term.kind == TokenKind::Number {
            return self.terms.contains(&term.term)
                || number_value(&term.term)
                    .is_some_and(|v| self.numbers.iter().any(|n| (n - v).abs() < 1e-9));
        }
        match_factor(&term.term, &self.terms) > 0.0
    }
}

/// The numeric value of a number term (`42.3%` → 42.3; p-values are compared as
/// written).
fn number_value(term: &str) -> Option<f64> {
    term.trim_end_matches('%').replace(',', "").parse().ok()
}

/// What a work's text holds of a sentence's specific content.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpecificCheck {
    /// Specific terms of the sentence the text holds, as written in the sentence.
    pub found: Vec<String>,
    /// Those it does not hold.
    pub missing: Vec<String>,
    /// IDF-weighted share of the specific content that is missing (0 when the
    /// sentence has none).
    pub missing_share: f64,
}

/// Check `terms` (a sentence's specific content) against a text.
pub fn check(terms: &[SpecificTerm], text: &TermSet) -> SpecificCheck {
    let mut out = SpecificCheck::default();
    let (mut missing, mut total) = (0.0, 0.0);
    for term in terms {
        total += term.weight;
        if text.holds(term) {
            if out.found.len() < MAX_LISTED {
                out.found.push(term.written.clone());
            }
        } else {
            missing += term.weight;
            if out.missing.len() < MAX_LISTED {
                out.missing.push(term.written.clone());
            }
        }
    }
    out.missing_share = if total > 0.0 { missing / total } else { 0.0 };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_entities_and_rare_words_are_specific() {
        let bg = Background::embedded();
        let terms = specific_terms(
            "Remdesivir lowered mortality to 42.3% in 1,062 patients with COVID-19 in 2 arms.",
            bg,
        );
        let written: Vec<&str> = terms.iter().map(|t| t.written.as_str()).collect();
        assert!(written.contains(&"Remdesivir"), "{written:?}");
        assert!(written.contains(&"42.3%"), "{written:?}");
        assert!(written.contains(&"COVID-19"), "{written:?}");
        assert!(!written.contains(&"2"), "{written:?}");
        assert!(!written.contains(&"patients"), "{written:?}");
    }

    #[test]
    fn paraphrase_is_tolerated_and_missing_content_reported() {
        let bg = Background::embedded();
        let terms = specific_terms("Remdesivir reduced mortality to 42.3 % in COVID-19.", bg);
        let own = TermSet::of(&["Treatment with remdesivir: mortality was 42.3% (COVID-19)."]);
        let c = check(&terms, &own);
        assert!(c.missing.is_empty(), "{c:?}");
        assert_eq!(c.missing_share, 0.0);
        let other =
            TermSet::of(&["Dexamethasone lowered 28-day mortality in ventilated patients."]);
        let c = check(&terms, &other);
        assert!(c.missing.contains(&"Remdesivir".to_string()), "{c:?}");
        assert!(c.missing_share > 0.9, "{c:?}");
    }
}
