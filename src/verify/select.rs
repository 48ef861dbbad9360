//! Choosing the passages of a full text that stage 2 reads: section-aware chunks
//! ([`passages::chunk`]) ranked for the claim by a local [`Ranker`] (by default the
//! learned ranking of [`rerank`] over lexical features, with a local sentence model's
//! features when one is configured; plain BM25, the model alone or fused with BM25 by
//! rank for comparison) or, when
//! an embeddings endpoint is configured, by cosine similarity of its embeddings (the
//! local ranker again if the embeddings request fails).

use std::sync::Arc;

use super::extract::Extracted;
use super::llm::{LlmClient, LlmError};
use super::passages::{self, Passage};
use super::rerank;
use super::sentence_model::{SentenceModel, SentenceModelError, similarity};

/// Inputs per embeddings request.
const EMBED_BATCH: usize = 64;

/// Reciprocal-rank-fusion constant (the customary 60).
const RRF_K: f64 = 60.0;

/// How passages are ranked without a model server.
#[derive(Debug, Clone, Default)]
pub enum Ranker {
    /// BM25 over the scientific tokeniser's terms.
    Bm25,
    /// The learned score over lexical features ([`rerank::lexical_features`]).
    #[default]
    Lexical,
    /// Cosine similarity of a local sentence model's embeddings.
    Local(Arc<SentenceModel>),
    /// Reciprocal-rank fusion of BM25 and the local model's ranking.
    Fused(Arc<SentenceModel>),
    /// The learned score over lexical and the local model's features (pooled cosine
    /// and token-level late interaction, [`rerank::semantic_features`]).
    Learned(Arc<SentenceModel>),
}

impl PartialEq for Ranker {
    fn eq(&self, other: &Ranker) -> bool {
        match (self, other) {
            (Ranker::Bm25, Ranker::Bm25) | (Ranker::Lexical, Ranker::Lexical) => true,
            (Ranker::Local(a), Ranker::Local(b))
            | (Ranker::Fused(a), Ranker::Fused(b))
            | (Ranker::Learned(a), Ranker::Learned(b)) => a.dir() == b.dir(),
            _ => false,
        }
    }
}

impl Ranker {
    /// The ranker used with `model` (see the issue note for the recall figures): the
    /// learned ranking, with the model's features when there is one.
    pub fn for_model(model: Option<Arc<SentenceModel>>) -> Ranker {
        match model {
            Some(m) => Ranker::Learned(m),
            None => Ranker::Lexical,
        }
    }

    /// `bm25`, `lexical`, `embeddings`, `fused` or `learned`.
    pub fn name(&self) -> &'static str {
        match self {
            Ranker::Bm25 => "bm25",
            Ranker::Lexical => "lexical",
            Ranker::Local(_) => "embeddings",
            Ranker::Fused(_) => "fused",
            Ranker::Learned(_) => "learned",
        }
    }

    /// A description for notes: the ranking and the model.
    pub fn describe(&self) -> String {
        match self {
            Ranker::Bm25 => "BM25".to_string(),
            Ranker::Lexical => "learned lexical ranking".to_string(),
            Ranker::Local(m) => format!("embeddings ({})", m.name()),
            Ranker::Fused(m) => format!("BM25 fused with embeddings ({})", m.name()),
            Ranker::Learned(m) => format!("learned ranking with embeddings ({})", m.name()),
        }
    }

    /// The `k` best passages for `claim`, best first, as (index, score); ties keep
    /// document order.
    pub fn rank<P: AsRef<str>>(
        &self,
        claim: &str,
        passages: &[P],
        k: usize,
    ) -> Result<Vec<(usize, f64)>, SentenceModelError> {
        let scores = match self {
            Ranker::Bm25 => return Ok(passages::rank(claim, passages, k)),
            Ranker::Lexical => rerank::lexical_scores(claim, passages),
            Ranker::Learned(model) => rerank::combined_scores(model, claim, passages)?,
            Ranker::Local(model) => similarities(model, claim, passages)?,
            Ranker::Fused(model) => {
                let by_model = order(similarities(model, claim, passages)?);
                let by_bm25 = order(passages::bm25_scores(claim, passages));
                let mut fused = vec![0.0; passages.len()];
                for ranking in [by_model, by_bm25] {
                    for (rank, i) in ranking.into_iter().enumerate() {
                        fused[i] += 1.0 / (RRF_K + rank as f64 + 1.0);
                    }
                }
                fused
            }
        };
        let mut ranked: Vec<(usize, f64)> = scores.into_iter().enumerate().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(k);
        Ok(ranked)
    }
}

/// Cosine similarity of the claim and every passage.
fn similarities<P: AsRef<str>>(
    model: &SentenceModel,
    claim: &str,
    passages: &[P],
) -> Result<Vec<f64>, SentenceModelError> {
    let query = model.embed_one(claim)?;
    let texts: Vec<&str> = passages.iter().map(AsRef::as_ref).collect();
    Ok(model
        .embed(&texts)?
        .iter()
        .map(|v| similarity(&query, v))
        .collect())
}

/// Indices by descending score, ties in document order.
fn order(scores: Vec<f64>) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    idx.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    idx
}

/// How passages were ranked.
#[derive(Debug, Clone, PartialEq)]
pub enum RankedBy {
    /// A local ranker (its description).
    Local(String),
    /// An embeddings endpoint (its model).
    Embeddings(String),
    /// The embeddings request failed (why); the local ranker was used.
    Fallback(String),
}

/// Chunk settings and how many passages to keep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PassageSettings {
    /// Characters per chunk.
    pub size: usize,
    /// Characters of whole sentences repeated between consecutive chunks.
    pub overlap: usize,
    /// Passages given to stage 2.
    pub top: usize,
}

impl Default for PassageSettings {
    fn default() -> Self {
        PassageSettings {
            size: passages::DEFAULT_SIZE,
            overlap: passages::DEFAULT_OVERLAP,
            top: 3,
        }
    }
}

/// The chunks of an extracted document (its own sections when it has them, headings
/// detected in the text otherwise).
pub fn chunks(doc: &Extracted, settings: &PassageSettings) -> Vec<Passage> {
    let sections = (!doc.sections.is_empty()).then_some(doc.sections.as_slice());
    passages::chunk(&doc.text, sections, settings.size, settings.overlap)
}

/// The best `top` chunks for `claim`, best first: by the embeddings endpoint when one
/// is given, else (or when it fails) by the local ranker.
pub async fn best_passages(
    claim: &str,
    chunks: Vec<Passage>,
    top: usize,
    embedder: Option<&LlmClient>,
    local: &Ranker,
) -> (Vec<Passage>, RankedBy) {
    let (order, how) = match embedder {
        Some(model) => match rank_by_embeddings(model, claim, &chunks, top).await {
            Ok(order) => (order, RankedBy::Embeddings(model.model().to_string())),
            Err(e) => (
                rank_locally(local, claim, &chunks, top),
                RankedBy::Fallback(e.to_string()),
            ),
        },
        None => (
            rank_locally(local, claim, &chunks, top),
            RankedBy::Local(local.describe()),
        ),
    };
    let mut slots: Vec<Option<Passage>> = chunks.into_iter().map(Some).collect();
    let best = order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
    (best, how)
}

/// The local ranking; BM25 when the sentence model fails (it runs in-process, so
/// that only happens on a broken model).
fn rank_locally(local: &Ranker, claim: &str, chunks: &[Passage], top: usize) -> Vec<usize> {
    let ranked = local
        .rank(claim, chunks, top)
        .unwrap_or_else(|_| passages::rank(claim, chunks, top));
    ranked.into_iter().map(|(i, _)| i).collect()
}

async fn rank_by_embeddings(
    model: &LlmClient,
    claim: &str,
    chunks: &[Passage],
    top: usize,
) -> Result<Vec<usize>, LlmError> {
    let query = model.embed(&[claim.to_string()]).await?;
    let query = query
        .first()
        .ok_or_else(|| LlmError::Malformed("no query embedding".into()))?;
    let mut scored: Vec<(usize, f64)> = Vec::with_capacity(chunks.len());
    for (batch_no, batch) in chunks.chunks(EMBED_BATCH).enumerate() {
        let texts: Vec<String> = batch.iter().map(|p| p.text.clone()).collect();
        let vectors = model.embed(&texts).await?;
        for (i, v) in vectors.iter().enumerate() {
            scored.push((batch_no * EMBED_BATCH + i, cosine(query, v)));
        }
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(scored.into_iter().take(top).map(|(i, _)| i).collect())
}

/// Cosine similarity; 0 for vectors of different length or zero norm.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_basics() {
        assert!((cosine(&[1.0, 0.0], &[2.0, 0.0]) - 1.0).abs() < 1e-9);
        assert!(cosine(&[1.0, 0.0], &[0.0, 1.0]).abs() < 1e-9);
        assert_eq!(cosine(&[1.0], &[1.0, 2.0]), 0.0);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 2.0]), 0.0);
    }

    #[test]
    fn the_learned_ranking_is_the_default() {
        assert_eq!(Ranker::default(), Ranker::Lexical);
        assert_eq!(Ranker::for_model(None), Ranker::Lexical);
        assert_eq!(Ranker::Lexical.name(), "lexical");
        let passages = [
            "Patients were recruited at two hospitals between March and May.",
            "Dexamethasone reduced 28-day mortality among ventilated patients.",
            "Mortality data were collected from hospital records.",
        ];
        let top = Ranker::Lexical
            .rank("dexamethasone reduced mortality", &passages, 2)
            .unwrap();
        assert_eq!(top.len(), 2);
        assert_eq!(top[0].0, 1);
        assert!(top[0].1 > top[1].1);
    }

    #[tokio::test]
    async fn bm25_picks_the_passage_about_the_claim() {
        let text = "Methods\n\nWe housed mice in cages with running wheels.\n\nResults\n\n\
                    Sleep deprivation reduced freezing by forty percent in the fear test.";
        let doc = Extracted {
            text: text.to_string(),
            ..Extracted::default()
        };
        let settings = PassageSettings {
            size: 80,
            overlap: 0,
            top: 1,
        };
        let chunks = chunks(&doc, &settings);
        assert!(chunks.len() >= 2);
        let (best, how) = best_passages(
            "sleep deprivation reduced freezing",
            chunks,
            1,
            None,
            &Ranker::Bm25,
        )
        .await;
        assert_eq!(how, RankedBy::Local("BM25".into()));
        assert!(best[0].text.contains("forty percent"), "{best:?}");
    }
}
