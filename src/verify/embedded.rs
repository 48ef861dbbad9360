//! The embedded offline verification backend: a lexical judge of whether a cited work
//! is about what the citing sentence says.
//!
//! It measures how much of the claim's informative content (IDF-weighted terms,
//! entities, acronyms, numbers, adjacent term pairs) the evidence contains, overall
//! and in its best sentence, and maps these signals through a logistic model fitted
//! on tuning data to a score in [0, 1]. Thresholds on that score give `unrelated`,
//! `uncertain` or `related`. It never says SUPPORTS or CONTRADICTS: lexical overlap
//! can show a work is about something else, not that it agrees.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;

use serde::Serialize;

use super::Relation;
use super::background::Background;
use super::calibration;
use super::semantic::SemanticFeatures;
use super::text::{Token, TokenKind, tokenize};
use super::weights::Calibration;
use crate::parse::sentence::sentences;

/// Number of features the logistic model reads.
pub const FEATURES: usize = 9;

/// The lexical signals measured for one claim–evidence pair.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Features {
    /// IDF-weighted share of the claim's distinct terms found anywhere in the evidence.
    pub coverage: f64,
    /// The same share within the best single sentence.
    pub best_coverage: f64,
    /// Share of the claim's entities, acronyms and numbers found in the evidence.
    pub specific_share: f64,
    /// 1 when the claim has entities, acronyms or numbers, else 0.
    pub has_specific: f64,
    /// Share of the claim's adjacent content-term pairs found adjacent in the evidence.
    pub bigram_share: f64,
    /// Summed IDF of the matched terms, divided by 10.
    pub matched_weight: f64,
    /// Coverage times ln(1 + number of content tokens in the evidence): lets the model
    /// discount coverage that long evidence reaches by chance, while zero overlap
    /// stays zero however short the evidence is.
    pub coverage_by_size: f64,
    /// ln(1 + number of distinct content terms in the claim).
    pub claim_size: f64,
    /// The coverage a typical background document would give by chance: the
    /// IDF-weighted mean of the claim terms' background document frequencies.
    pub chance_coverage: f64,
}

impl Features {
    /// The features in the order the calibration weights expect.
    pub fn to_array(&self) -> [f64; FEATURES] {
        [
            self.coverage,
            self.best_coverage,
            self.specific_share,
            self.has_specific,
            self.bigram_share,
            self.matched_weight,
            self.coverage_by_size,
            self.claim_size,
            self.chance_coverage,
        ]
    }
}

impl Calibration<FEATURES> {
    /// The calibration compiled into the crate (see `examples/verify_tables.rs`).
    pub fn embedded() -> Calibration<FEATURES> {
        calibration::EMBEDDED
    }
}

/// The evidence sentence that best matches the claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BestSentence {
    /// Index of the evidence passage it comes from.
    pub passage: usize,
    /// Byte range of the sentence within that passage.
    pub range: Range<usize>,
    pub text: String,
}

/// What the embedded backend can honestly say about one claim–evidence pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    pub relation: Relation,
    /// Calibrated score in [0, 1]: higher means the evidence is more plainly about the claim.
    pub score: f64,
    pub best: Option<BestSentence>,
    /// The claim and its best evidence sentence disagree on negation (one negates, the
    /// other does not); such a pair is never called `related`.
    pub negation_mismatch: bool,
    pub features: Features,
    /// Whether both the claim and the evidence had content to compare (when not, the
    /// relation is `uncertain`).
    pub judgeable: bool,
    /// Embedding similarities, when a sentence model took part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic: Option<SemanticFeatures>,
}

/// Scores claims against evidence with a background table and a calibration.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedScorer<'a> {
    background: &'a Background,
    calibration: Calibration<FEATURES>,
}

impl Default for EmbeddedScorer<'static> {
    fn default() -> Self {
        EmbeddedScorer::new(Background::embedded(), Calibration::embedded())
    }
}

struct EvidenceSentence {
    passage: usize,
    range: Range<usize>,
    terms: HashSet<String>,
    negated: bool,
}

/// Adjacent content-term pairs, hashed (a collision only risks a spurious match).
fn content_bigrams(tokens: &[Token]) -> HashSet<u64> {
    let content: Vec<&Token> = tokens.iter().filter(|t| t.is_content()).collect();
    content
        .windows(2)
        .map(|w| {
            let mut hasher = DefaultHasher::new();
            (&w[0].term, &w[1].term).hash(&mut hasher);
            hasher.finish()
        })
        .collect()
}

/// Credit for a term that occurs only as a near form (same first letters, e.g.
/// `transmit`/`transmiss`, `diagnos`/`diagnosi`): derivations the stemmer keeps apart.
const NEAR_FORM_CREDIT: f64 = 0.5;
const NEAR_FORM_PREFIX: usize = 5;

/// 1 for a term present in `terms`, [`NEAR_FORM_CREDIT`] for one that shares a long
/// prefix with a present term, else 0.
pub fn match_factor(term: &str, terms: &HashSet<String>) -> f64 {
    if terms.contains(term) {
        return 1.0;
    }
    let len = term.chars().count();
    if len < NEAR_FORM_PREFIX || term.starts_with(|c: char| c.is_ascii_digit()) {
        return 0.0;
    }
    let head = &term.as_bytes()[..NEAR_FORM_PREFIX.min(term.len())];
    let near = terms.iter().any(|other| {
        if !other.as_bytes().starts_with(head) {
            return false;
        }
        let common = term
            .chars()
            .zip(other.chars())
            .take_while(|(a, b)| a == b)
            .count();
        let shorter = len.min(other.chars().count());
        common >= NEAR_FORM_PREFIX && 4 * common >= 3 * shorter
    });
    if near { NEAR_FORM_CREDIT } else { 0.0 }
}

impl<'a> EmbeddedScorer<'a> {
    pub fn new(background: &'a Background, calibration: Calibration<FEATURES>) -> Self {
        EmbeddedScorer {
            background,
            calibration,
        }
    }

    pub fn calibration(&self) -> &Calibration<FEATURES> {
        &self.calibration
    }

    /// Judge `claim` (the citing sentence, markers removed) against `evidence`: an
    /// abstract as one passage, or several full-text passages.
    pub fn assess<P: AsRef<str>>(&self, claim: &str, evidence: &[P]) -> Assessment {
        let (features, best, negation_mismatch, judgeable) = self.measure(claim, evidence);
        if !judgeable {
            // No content in the claim or no evidence text: nothing to judge by.
            return Assessment {
                relation: Relation::Uncertain,
                score: 0.5,
                best,
                negation_mismatch,
                features,
                judgeable,
                semantic: None,
            };
        }
        let score = self.calibration.score(&features.to_array());
        Assessment {
            relation: self.calibration.relation(score, negation_mismatch),
            score,
            best,
            negation_mismatch,
            features,
            judgeable,
            semantic: None,
        }
    }

    /// Measure the features of a pair; also returns the best sentence, the negation
    /// mismatch flag and whether both sides had content to compare.
    pub fn measure<P: AsRef<str>>(
        &self,
        claim: &str,
        evidence: &[P],
    ) -> (Features, Option<BestSentence>, bool, bool) {
        let claim_tokens = tokenize(claim);
        let mut claim_terms: Vec<(&str, f64, bool)> = Vec::new();
        let mut chance = 0.0;
        let docs = f64::from(self.background.docs().max(1));
        for token in claim_tokens.iter().filter(|t| t.is_content()) {
            if claim_terms.iter().all(|(t, _, _)| *t != token.term) {
                let idf = self.background.idf(&token.term);
                chance += idf * f64::from(self.background.df(&token.term)) / docs;
                claim_terms.push((&token.term, idf, token.is_specific()));
            }
        }
        let claim_negated = claim_tokens.iter().any(|t| t.kind == TokenKind::Negation);
        let claim_bigrams = content_bigrams(&claim_tokens);

        let mut sentences_seen = Vec::new();
        let mut evidence_terms: HashSet<String> = HashSet::new();
        let mut evidence_bigrams: HashSet<u64> = HashSet::new();
        let mut evidence_tokens = 0usize;
        for (index, passage) in evidence.iter().enumerate() {
            let passage = passage.as_ref();
            for range in sentences(passage) {
                let tokens = tokenize(&passage[range.clone()]);
                evidence_tokens += tokens.iter().filter(|t| t.is_content()).count();
                evidence_bigrams.extend(content_bigrams(&tokens));
                let negated = tokens.iter().any(|t| t.kind == TokenKind::Negation);
                let terms: HashSet<String> = tokens
                    .into_iter()
                    .filter(Token::is_content)
                    .map(|t| t.term)
                    .collect();
                evidence_terms.extend(terms.iter().cloned());
                sentences_seen.push(EvidenceSentence {
                    passage: index,
                    range,
                    terms,
                    negated,
                });
            }
        }

        let total: f64 = claim_terms.iter().map(|(_, w, _)| w).sum();
        let judgeable = total > 0.0 && !sentences_seen.is_empty();
        let matched: f64 = claim_terms
            .iter()
            .map(|(t, w, _)| w * match_factor(t, &evidence_terms))
            .sum();
        let mut best_index = None;
        let mut best_weight = 0.0;
        for (i, sentence) in sentences_seen.iter().enumerate() {
            let weight: f64 = claim_terms
                .iter()
                .map(|(t, w, _)| w * match_factor(t, &sentence.terms))
                .sum();
            if best_index.is_none() || weight > best_weight {
                best_index = Some(i);
                best_weight = weight;
            }
        }
        let specific: Vec<&str> = claim_terms
            .iter()
            .filter(|(_, _, s)| *s)
            .map(|(t, _, _)| *t)
            .collect();
        let specific_found = specific
            .iter()
            .filter(|t| evidence_terms.contains(**t))
            .count();
        let bigrams_found = claim_bigrams
            .iter()
            .filter(|b| evidence_bigrams.contains(*b))
            .count();
        let share = |part: f64, whole: f64| if whole > 0.0 { part / whole } else { 0.0 };
        let features = Features {
            coverage: share(matched, total),
            best_coverage: share(best_weight, total),
            specific_share: share(specific_found as f64, specific.len() as f64),
            has_specific: if specific.is_empty() { 0.0 } else { 1.0 },
            bigram_share: share(bigrams_found as f64, claim_bigrams.len() as f64),
            matched_weight: matched / 10.0,
            coverage_by_size: share(matched, total) * (1.0 + evidence_tokens as f64).ln(),
            claim_size: (1.0 + claim_terms.len() as f64).ln(),
            chance_coverage: share(chance, total),
        };
        let best = best_index.map(|i| {
            let s = &sentences_seen[i];
            BestSentence {
                passage: s.passage,
                range: s.range.clone(),
                text: evidence[s.passage].as_ref()[s.range.clone()].to_string(),
            }
        });
        let negation_mismatch =
            best_index.is_some_and(|i| sentences_seen[i].negated != claim_negated);
        (features, best, negation_mismatch, judgeable)
    }
}

/// Judge `claim` against `evidence` with the embedded background and calibration.
pub fn assess<P: AsRef<str>>(claim: &str, evidence: &[P]) -> Assessment {
    EmbeddedScorer::default().assess(claim, evidence)
}
