//! A token inverted index over a set of titles (a local corpus, the test world), so
//! the most similar titles to a cited one are found without scoring every title.

use std::collections::HashMap;

use crate::resolve::gate::title_similarity;
use crate::resolve::normalize::{content_words, strip_retraction_prefix};

/// Titles indexed by their content words.
#[derive(Debug, Clone, Default)]
pub struct TitleIndex {
    titles: Vec<String>,
    postings: HashMap<String, Vec<u32>>,
}

impl TitleIndex {
    pub fn new<I, S>(titles: I) -> TitleIndex
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut index = TitleIndex::default();
        for title in titles {
            index.push(title.into());
        }
        index
    }

    /// Add a title; its position is its id.
    pub fn push(&mut self, title: String) -> usize {
        let id = self.titles.len();
        let mut words = content_words(strip_retraction_prefix(&title).0);
        words.sort_unstable();
        words.dedup();
        for w in words {
            self.postings.entry(w).or_default().push(id as u32);
        }
        self.titles.push(title);
        id
    }

    pub fn len(&self) -> usize {
        self.titles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.titles.is_empty()
    }

    pub fn title(&self, id: usize) -> &str {
        &self.titles[id]
    }

    /// Titles sharing at least a quarter of the cited title's content words (and at
    /// least one): every title that could reach a useful similarity.
    pub fn candidates(&self, cited: &str) -> Vec<usize> {
        let mut words = content_words(cited);
        words.sort_unstable();
        words.dedup();
        let mut shared: HashMap<u32, usize> = HashMap::new();
        for w in &words {
            for &id in self.postings.get(w).into_iter().flatten() {
                *shared.entry(id).or_default() += 1;
            }
        }
        let need = words.len().div_ceil(4).max(1);
        let mut ids: Vec<usize> = shared
            .into_iter()
            .filter(|&(_, n)| n >= need)
            .map(|(id, _)| id as usize)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The `k` most similar titles with their similarity, best first.
    pub fn best(&self, cited: &str, k: usize) -> Vec<(usize, f64)> {
        let mut scored: Vec<(usize, f64)> = self
            .candidates(cited)
            .into_iter()
            .map(|id| (id, title_similarity(cited, &self.titles[id])))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(k);
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_closest_title() {
        let index = TitleIndex::new([
            "Attention is all you need",
            "Deep residual learning for image recognition",
            "RETRACTED: A 1D CNN for motor imagery classification",
        ]);
        let best = index.best("Deep Residual Learning for Image Recognition", 2);
        assert_eq!(best[0], (1, 1.0));
        assert_eq!(index.best("A 1D CNN for motor imagery classification", 1)[0], (2, 1.0));
        assert!(index.best("Protein folding with language models", 3).is_empty());
    }
}
