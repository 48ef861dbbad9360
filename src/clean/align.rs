//! The text a citation is judged by (its sentence, or a window of characters around
//! its marker), and the similarities that are not the judge's: the sentence model's
//! cosine similarity of that text and an article's title and abstract (`cosine`,
//! MicroTraitLLM's measure, for the `microtrait` preset) and the scorer's score
//! (`validate`'s relevance). Whether a citation is about its article is decided by the
//! shared judge ([`crate::verify::judge`]) for the `score` metric.

use std::sync::Arc;

use crate::model::Span;
use crate::verify::hybrid::Scorer;
use crate::verify::sentence_model::{SentenceModel, SentenceModelError, similarity};

use super::CleanError;
use super::options::{Context, Metric, Settled};
use super::read::Reading;

/// Compares citing text with articles. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Aligner {
    scorer: Scorer,
}

impl Default for Aligner {
    /// Lexical scoring, no sentence model.
    fn default() -> Aligner {
        Aligner {
            scorer: Scorer::lexical(),
        }
    }
}

impl Aligner {
    pub fn new(scorer: Scorer) -> Aligner {
        Aligner { scorer }
    }

    pub fn model(&self) -> Option<&Arc<SentenceModel>> {
        self.scorer.model()
    }

    /// Whether `metric` can be used: `cosine` needs a sentence model.
    pub fn check(&self, metric: Metric) -> Result<(), CleanError> {
        if metric == Metric::Cosine && self.model().is_none() {
            return Err(CleanError::Options(
                "the cosine metric (and the microtrait preset) needs a local sentence model \
                 (--embedding-model DIR, CITEPROOF_EMBEDDING_MODEL or \
                 verify.local-embedding-model)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// How the comparison is made, for the report.
    pub fn describe(&self, metric: Metric) -> String {
        match (metric, self.model()) {
            (Metric::Cosine, Some(m)) => format!("cosine:{}", m.name()),
            _ => self.scorer.name(),
        }
    }

    /// How close `context` is to an article with this title and abstract; `None`
    /// when either side has nothing to compare.
    pub fn similarity(
        &self,
        metric: Metric,
        context: &str,
        title: &str,
        abstract_text: &str,
    ) -> Result<Option<f64>, SentenceModelError> {
        if context.trim().is_empty() || (title.trim().is_empty() && abstract_text.trim().is_empty())
        {
            return Ok(None);
        }
        match (metric, self.model()) {
            (Metric::Cosine, Some(model)) => {
                let article = format!("{title} {abstract_text}");
                let a = model.embed_one(context)?;
                let b = model.embed_one(article.trim())?;
                Ok(Some(similarity(&a, &b).clamp(0.0, 1.0)))
            }
            _ => {
                let evidence: Vec<&str> = [title, abstract_text]
                    .into_iter()
                    .filter(|t| !t.trim().is_empty())
                    .collect();
                let assessment = self.scorer.assess(context, &evidence)?;
                Ok(assessment.judgeable.then_some(assessment.score))
            }
        }
    }
}

/// The text a citation is judged by: its sentence with markers removed, or the
/// characters around its marker as written.
pub fn context_of(answer: &str, reading: &Reading, cite: usize, settled: &Settled) -> String {
    let citation = &reading.cites[cite].citation;
    let claim = citation.claim.and_then(|c| reading.claims.get(c));
    match (settled.context, claim) {
        (Context::Sentence, Some(claim)) => claim.text.clone(),
        _ => window(answer, citation.group_span, settled.window).to_string(),
    }
}

/// `chars` characters on either side of `span`.
fn window(text: &str, span: Span, chars: usize) -> &str {
    let start = text[..span.start]
        .char_indices()
        .rev()
        .nth(chars.saturating_sub(1))
        .map_or(0, |(i, _)| i);
    let end = text[span.end..]
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| span.end + i);
    &text[text.floor_char_boundary(start)..text.floor_char_boundary(end)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_count_characters() {
        let text = "ééé [1] üüü";
        let at = text.find('[').unwrap();
        let span = Span::new(at, at + 3);
        assert_eq!(window(text, span, 2), "é [1] ü");
        assert_eq!(window(text, span, 100), text);
    }

    #[test]
    fn lexical_similarity_tells_related_from_unrelated() {
        let aligner = Aligner::default();
        let context = "Regular aerobic exercise improves sleep quality in older adults.";
        let related = aligner
            .similarity(
                Metric::Score,
                context,
                "Exercise training improves sleep quality in middle-aged and older adults",
                "This systematic review found that exercise training improved sleep quality \
                 in older adults with sleep problems.",
            )
            .unwrap()
            .unwrap();
        let unrelated = aligner
            .similarity(
                Metric::Score,
                context,
                "Deep residual learning for image recognition",
                "We present a residual learning framework to ease the training of deep \
                 neural networks for image classification.",
            )
            .unwrap()
            .unwrap();
        assert!(related > 0.5 && unrelated < 0.05, "{related} {unrelated}");
        assert_eq!(
            aligner.similarity(Metric::Score, "  ", "T", "A").unwrap(),
            None
        );
        assert!(aligner.check(Metric::Cosine).is_err());
    }
}
