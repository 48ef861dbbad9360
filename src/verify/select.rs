//! Choosing the passages of a full text that stage 2 reads: section-aware chunks
//! ([`passages::chunk`]) ranked for the claim by BM25 ([`passages::rank`]) or, when an
//! embeddings model is configured, by cosine similarity of embeddings (BM25 again if
//! the embeddings request fails).

use super::extract::Extracted;
use super::llm::{LlmClient, LlmError};
use super::passages::{self, Passage};

/// Inputs per embeddings request.
const EMBED_BATCH: usize = 64;

/// How passages were ranked.
#[derive(Debug, Clone, PartialEq)]
pub enum RankedBy {
    Bm25,
    Embeddings(String),
    /// The embeddings request failed; BM25 was used.
    Bm25Fallback(String),
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

/// The best `top` chunks for `claim`, best first.
pub async fn best_passages(
    claim: &str,
    chunks: Vec<Passage>,
    top: usize,
    embedder: Option<&LlmClient>,
) -> (Vec<Passage>, RankedBy) {
    let (order, how) = match embedder {
        Some(model) => match rank_by_embeddings(model, claim, &chunks, top).await {
            Ok(order) => (order, RankedBy::Embeddings(model.model().to_string())),
            Err(e) => (
                bm25(claim, &chunks, top),
                RankedBy::Bm25Fallback(e.to_string()),
            ),
        },
        None => (bm25(claim, &chunks, top), RankedBy::Bm25),
    };
    let mut slots: Vec<Option<Passage>> = chunks.into_iter().map(Some).collect();
    let best = order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
    (best, how)
}

fn bm25(claim: &str, chunks: &[Passage], top: usize) -> Vec<usize> {
    passages::rank(claim, chunks, top)
        .into_iter()
        .map(|(i, _)| i)
        .collect()
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
        let (best, how) =
            best_passages("sleep deprivation reduced freezing", chunks, 1, None).await;
        assert_eq!(how, RankedBy::Bm25);
        assert!(best[0].text.contains("forty percent"), "{best:?}");
    }
}
