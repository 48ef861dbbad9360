//! Learned passage ranking: a linear score over features of a passage *within its
//! set* (BM25 relative to the best passage, IDF-weighted claim coverage, shared
//! bigrams, numbers and entities, length, result and method cue words, and with a
//! sentence model the pooled cosine and token-level late interaction), with weights
//! fitted by `examples/fit_ranker.rs` on the training splits (a listwise softmax over
//! each claim's passages) and shipped in [`super::rank_weights`].

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use serde::{Deserialize, Serialize};

use super::background::Background;
use super::passages::bm25_scores_with;
use super::rank_weights::{COMBINED_WEIGHTS, LEXICAL_WEIGHTS};
use super::sentence_model::{SentenceModel, SentenceModelError, TokenEmbeddings, similarity};
use super::text::{Token, TokenKind, tokenize};

/// Lexical features per passage ([`lexical_features`]).
pub const LEXICAL: usize = 11;
/// Sentence-model features per passage ([`semantic_features`]).
pub const SEMANTIC: usize = 6;
/// Lexical then sentence-model features.
pub const COMBINED: usize = LEXICAL + SEMANTIC;

/// Words that mark a finding (results, conclusions) rather than a method or background.
static RESULT_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:we (?:found|show|showed|demonstrate|observed|report)|found|showed|shows|revealed?|demonstrated?|significant(?:ly)?|associated with|increased?|decreased?|reduced?|higher|lower|improved?|suggests?|suggested|indicated?|indicates|conclud(?:e|ed|es)|conclusions?|results?|compared (?:with|to)|odds ratio|hazard ratio|risk|effective|p ?[<=])",
    )
    .expect("result cue regex")
});

/// Words that mark methods, aims or background.
static METHOD_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:methods?|we (?:used|performed|conducted|collected|enrolled|recruited|analy[sz]ed|aimed|investigated|examined)|were (?:collected|enrolled|recruited|included|analy[sz]ed|obtained|randomi[sz]ed)|retrospective(?:ly)?|prospective(?:ly)?|cohort|aims?|aimed|objectives?|purpose|background|here,? we|in this (?:study|paper|article|review))\b",
    )
    .expect("method cue regex")
});

/// What the lexical features need of one passage.
struct Bag {
    terms: HashSet<String>,
    bigrams: HashSet<(String, String)>,
    numbers: bool,
    len: f64,
}

/// The tokens of `text` the features read (negations are not terms).
fn terms_of(text: &str) -> Vec<Token> {
    tokenize(text)
        .into_iter()
        .filter(|t| t.kind != TokenKind::Negation)
        .collect()
}

fn bag(tokens: Vec<Token>) -> Bag {
    Bag {
        bigrams: tokens
            .windows(2)
            .map(|w| (w[0].term.clone(), w[1].term.clone()))
            .collect(),
        numbers: tokens.iter().any(|t| t.kind == TokenKind::Number),
        len: tokens.len() as f64,
        terms: tokens.into_iter().map(|t| t.term).collect(),
    }
}

/// Share of `wanted` found in `have`; 0 when nothing is wanted.
fn share<T: Eq + std::hash::Hash>(wanted: &HashSet<T>, have: &HashSet<T>) -> f64 {
    if wanted.is_empty() {
        0.0
    } else {
        wanted.iter().filter(|t| have.contains(*t)).count() as f64 / wanted.len() as f64
    }
}

/// `1 / (1 + rank)` of every score among `scores` (ties share the better rank).
fn reciprocal_ranks(scores: &[f64]) -> Vec<f64> {
    scores
        .iter()
        .map(|s| 1.0 / (1.0 + scores.iter().filter(|o| *o > s).count() as f64))
        .collect()
}

/// Standard scores within the set (all 0 when the values do not vary).
fn standardised(values: &[f64]) -> Vec<f64> {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    values
        .iter()
        .map(|v| if sd > 1e-9 { (v - mean) / sd } else { 0.0 })
        .collect()
}

/// What is measured of one passage for a claim, before it is put in relation to the
/// other passages of its set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Measures {
    /// BM25 (IDF from the background table and the set).
    pub bm25: f64,
    /// IDF-weighted share of the claim's terms present.
    pub coverage: f64,
    /// Share of the claim's term bigrams present.
    pub bigrams: f64,
    /// Claim numbers present, over two, at most 1.
    pub numbers: f64,
    /// 1 when the passage has a number.
    pub has_number: f64,
    /// Share of the claim's entities and acronyms present.
    pub specific: f64,
    /// Content terms in the passage.
    pub terms: f64,
    /// Result cue words, over two, at most 1.
    pub result_cue: f64,
    /// Method or background cue words, over two, at most 1.
    pub method_cue: f64,
    /// Cosine of the pooled sentence-model embeddings, when a model is used.
    pub cosine: f64,
    /// Late interaction ([`max_sim`]), when a model is used.
    pub max_sim: f64,
}

/// The lexical [`Measures`] of every passage for `claim` (the model's left at 0).
pub fn measure<P: AsRef<str>>(bg: &Background, claim: &str, passages: &[P]) -> Vec<Measures> {
    let bm25 = bm25_scores_with(bg, claim, passages);
    let claim_tokens = terms_of(claim);
    let numbers: HashSet<String> = claim_tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Number)
        .map(|t| t.term.clone())
        .collect();
    let specific: HashSet<String> = claim_tokens
        .iter()
        .filter(|t| matches!(t.kind, TokenKind::Entity | TokenKind::Acronym))
        .map(|t| t.term.clone())
        .collect();
    let claim_bag = bag(claim_tokens);
    let bags: Vec<Bag> = passages.iter().map(|p| bag(terms_of(p.as_ref()))).collect();
    let n = u32::try_from(bags.len()).unwrap_or(u32::MAX);
    let idf: Vec<(&String, f64)> = claim_bag
        .terms
        .iter()
        .map(|t| {
            let df = bags.iter().filter(|b| b.terms.contains(t)).count();
            (t, bg.idf_with(t, n, u32::try_from(df).unwrap_or(u32::MAX)))
        })
        .collect();
    let idf_total: f64 = idf.iter().map(|(_, w)| w).sum();
    let capped = |count: usize| (count as f64 / 2.0).min(1.0);
    bags.iter()
        .zip(passages)
        .zip(bm25)
        .map(|((b, text), bm25)| {
            let covered: f64 = idf
                .iter()
                .filter(|(t, _)| b.terms.contains(*t))
                .map(|(_, w)| w)
                .sum();
            let text = text.as_ref();
            Measures {
                bm25,
                coverage: if idf_total > 0.0 {
                    covered / idf_total
                } else {
                    0.0
                },
                bigrams: share(&claim_bag.bigrams, &b.bigrams),
                numbers: capped(numbers.iter().filter(|t| b.terms.contains(*t)).count()),
                has_number: f64::from(u8::from(b.numbers)),
                specific: share(&specific, &b.terms),
                terms: b.len,
                result_cue: capped(RESULT_CUE.find_iter(text).count()),
                method_cue: capped(METHOD_CUE.find_iter(text).count()),
                cosine: 0.0,
                max_sim: 0.0,
            }
        })
        .collect()
}

/// Fill in the model's measures from the claim's and the passages' embeddings.
pub fn measure_semantic(
    measures: &mut [Measures],
    claim: &TokenEmbeddings,
    passages: &[TokenEmbeddings],
) {
    for (m, p) in measures.iter_mut().zip(passages) {
        m.cosine = similarity(&claim.pooled, &p.pooled);
        m.max_sim = max_sim(claim, p);
    }
}

/// [`measure`] and [`measure_semantic`] with `model`.
pub fn measure_with_model<P: AsRef<str>>(
    bg: &Background,
    model: &SentenceModel,
    claim: &str,
    passages: &[P],
) -> Result<Vec<Measures>, SentenceModelError> {
    let mut measures = measure(bg, claim, passages);
    let query = model
        .embed_tokens(&[claim])?
        .pop()
        .unwrap_or(TokenEmbeddings {
            pooled: Vec::new(),
            tokens: Vec::new(),
        });
    let docs = model.embed_tokens(passages)?;
    measure_semantic(&mut measures, &query, &docs);
    Ok(measures)
}

/// Lexical features of every passage of a set, in order: BM25 over the set's best,
/// BM25 standardised in the set, BM25 reciprocal rank, coverage, bigrams, numbers,
/// has a number, entities, log length relative to the set's mean, result cues,
/// method cues.
pub fn lexical_features(set: &[Measures]) -> Vec<[f64; LEXICAL]> {
    let bm25: Vec<f64> = set.iter().map(|m| m.bm25).collect();
    let best = bm25.iter().copied().fold(0.0, f64::max);
    let z = standardised(&bm25);
    let ranks = reciprocal_ranks(&bm25);
    let mean_len = set.iter().map(|m| m.terms).sum::<f64>() / set.len().max(1) as f64;
    set.iter()
        .enumerate()
        .map(|(i, m)| {
            [
                if best > 0.0 { m.bm25 / best } else { 0.0 },
                z[i],
                ranks[i],
                m.coverage,
                m.bigrams,
                m.numbers,
                m.has_number,
                m.specific,
                ((1.0 + m.terms) / (1.0 + mean_len)).ln(),
                m.result_cue,
                m.method_cue,
            ]
        })
        .collect()
}

/// Sentence-model features of every passage of a set, in order: cosine, cosine
/// standardised in the set, cosine reciprocal rank, then the same of MaxSim.
pub fn semantic_features(set: &[Measures]) -> Vec<[f64; SEMANTIC]> {
    let cos: Vec<f64> = set.iter().map(|m| m.cosine).collect();
    let sim: Vec<f64> = set.iter().map(|m| m.max_sim).collect();
    let (cos_z, cos_r) = (standardised(&cos), reciprocal_ranks(&cos));
    let (sim_z, sim_r) = (standardised(&sim), reciprocal_ranks(&sim));
    (0..set.len())
        .map(|i| [cos[i], cos_z[i], cos_r[i], sim[i], sim_z[i], sim_r[i]])
        .collect()
}

/// Lexical then sentence-model features of every passage of a set.
pub fn combined_features(set: &[Measures]) -> Vec<[f64; COMBINED]> {
    lexical_features(set)
        .iter()
        .zip(semantic_features(set))
        .map(|(lexical, semantic)| {
            let mut out = [0.0; COMBINED];
            out[..LEXICAL].copy_from_slice(lexical);
            out[LEXICAL..].copy_from_slice(&semantic);
            out
        })
        .collect()
}

/// The learned lexical score of every passage for `claim`.
pub fn lexical_scores<P: AsRef<str>>(claim: &str, passages: &[P]) -> Vec<f64> {
    lexical_features(&measure(Background::embedded(), claim, passages))
        .iter()
        .map(|f| LEXICAL_WEIGHTS.score(f))
        .collect()
}

/// The learned score over lexical and `model`'s features of every passage for `claim`.
pub fn combined_scores<P: AsRef<str>>(
    model: &SentenceModel,
    claim: &str,
    passages: &[P],
) -> Result<Vec<f64>, SentenceModelError> {
    let measures = measure_with_model(Background::embedded(), model, claim, passages)?;
    Ok(combined_features(&measures)
        .iter()
        .map(|f| COMBINED_WEIGHTS.score(f))
        .collect())
}

/// Late interaction (ColBERT's MaxSim): for each claim token the best cosine with a
/// passage token, averaged over the claim's tokens.
pub fn max_sim(claim: &TokenEmbeddings, passage: &TokenEmbeddings) -> f64 {
    if claim.tokens.is_empty() || passage.tokens.is_empty() {
        return 0.0;
    }
    let total: f64 = claim
        .tokens
        .iter()
        .map(|q| {
            passage
                .tokens
                .iter()
                .map(|d| similarity(q, d))
                .fold(f64::MIN, f64::max)
        })
        .sum();
    total / claim.tokens.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    const PASSAGES: [&str; 4] = [
        "We enrolled 120 patients in a retrospective cohort at two hospitals.",
        "Remdesivir shortened recovery by 31 % compared with placebo (p < 0.001).",
        "The trial was funded by the national institutes.",
        "Recovery was measured daily.",
    ];

    #[test]
    fn measures_describe_the_matching_passage() {
        let claim = "Remdesivir shortened recovery by 31 %.";
        let m = measure(Background::embedded(), claim, &PASSAGES);
        assert_eq!(m.len(), PASSAGES.len());
        // The passage with the claim's words: full coverage, a shared bigram, the
        // shared number and entity, a result cue.
        assert!(m[1].coverage > 0.99, "{:?}", m[1]);
        assert!(m[1].bigrams > 0.0);
        assert!(m[1].numbers > 0.0);
        assert_eq!(m[1].has_number, 1.0);
        assert_eq!(m[1].specific, 1.0);
        assert!(m[1].result_cue > 0.0);
        // The funding sentence shares nothing.
        assert_eq!(m[2].bm25, 0.0);
        assert_eq!(m[2].coverage, 0.0);
        assert_eq!(m[2].specific, 0.0);
        // The method sentence has method cues and no result cue.
        assert!(m[0].method_cue > 0.0);
        assert_eq!(m[0].result_cue, 0.0);
        // A partial match sits in between.
        assert!(m[3].coverage > 0.0 && m[3].coverage < m[1].coverage);
    }

    #[test]
    fn features_put_measures_in_relation_to_the_set() {
        let claim = "Remdesivir shortened recovery by 31 %.";
        let f = lexical_features(&measure(Background::embedded(), claim, &PASSAGES));
        // BM25's best passage: relative score 1, reciprocal rank 1, the highest
        // standard score; a passage without a shared term scores 0.
        assert_eq!(f[1][0], 1.0);
        assert_eq!(f[1][2], 1.0);
        assert!(f.iter().all(|g| g[1] <= f[1][1]));
        assert_eq!(f[2][0], 0.0);
        assert!(f[2][1] < 0.0);
        // Identical passages get identical features, and the learned score ranks
        // the matching passage first.
        let same = lexical_features(&measure(Background::embedded(), claim, &["a b c", "a b c"]));
        assert_eq!(same[0], same[1]);
        let scores = lexical_scores(claim, &PASSAGES);
        let best = (0..scores.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b]));
        assert_eq!(best, Some(1), "{scores:?}");
    }

    #[test]
    fn standardised_scores_have_zero_mean_and_survive_constants() {
        let z = standardised(&[1.0, 2.0, 3.0]);
        assert!(z.iter().sum::<f64>().abs() < 1e-9);
        assert!(z[0] < 0.0 && z[2] > 0.0);
        assert_eq!(standardised(&[4.0, 4.0]), vec![0.0, 0.0]);
    }

    #[test]
    fn reciprocal_ranks_share_ties() {
        assert_eq!(reciprocal_ranks(&[1.0, 3.0, 1.0]), vec![0.5, 1.0, 0.5]);
    }

    #[test]
    fn max_sim_averages_best_token_matches() {
        let e = |tokens: Vec<Vec<f32>>| TokenEmbeddings {
            pooled: vec![1.0, 0.0],
            tokens,
        };
        let claim = e(vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
        let both = e(vec![vec![0.0, 1.0], vec![1.0, 0.0]]);
        let one = e(vec![vec![1.0, 0.0]]);
        assert!((max_sim(&claim, &both) - 1.0).abs() < 1e-9);
        assert!((max_sim(&claim, &one) - 0.5).abs() < 1e-9);
        assert_eq!(max_sim(&claim, &e(Vec::new())), 0.0);
    }
}
