//! A token inverted index over a set of titles (a local corpus, the test world), so
//! the most similar titles to a cited one are found without scoring every title.

use std::collections::HashMap;

use crate::resolve::normalize::{content_words, strip_retraction_prefix};
use crate::resolve::title_score::{PreparedTitle, prepared_score};

/// Titles indexed by their content words.
#[derive(Debug, Clone, Default)]
pub struct TitleIndex {
    titles: Vec<String>,
    prepared: Vec<PreparedTitle>,
    /// Distinct content words per title.
    sizes: Vec<usize>,
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
        self.sizes.push(words.len());
        for w in words {
            self.postings.entry(w).or_default().push(id as u32);
        }
        self.prepared.push(PreparedTitle::new(&title));
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

    /// Titles with at most `max_missing` of their content words absent from `text`
    /// (and at least one present): the titles a raw reference string may contain.
    pub fn contained_in(&self, text: &str, max_missing: usize) -> Vec<usize> {
        let shared = self.shared_counts(text);
        let mut ids: Vec<usize> = shared
            .into_iter()
            .filter(|&(id, n)| n + max_missing >= self.sizes[id as usize])
            .map(|(id, _)| id as usize)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// For every title sharing a content word with `text`: how many it shares.
    fn shared_counts(&self, text: &str) -> HashMap<u32, usize> {
        let mut words = content_words(text);
        words.sort_unstable();
        words.dedup();
        let mut shared: HashMap<u32, usize> = HashMap::new();
        for w in &words {
            for &id in self.postings.get(w).into_iter().flatten() {
                *shared.entry(id).or_default() += 1;
            }
        }
        shared
    }

    /// Titles sharing at least a quarter of the cited title's content words (and at
    /// least one), most shared first, at most `limit` of them.
    pub fn candidates(&self, cited: &str, limit: usize) -> Vec<usize> {
        let mut words = content_words(cited);
        words.sort_unstable();
        words.dedup();
        let need = words.len().div_ceil(4).max(1);
        let mut ids: Vec<(usize, usize)> = self
            .shared_counts(cited)
            .into_iter()
            .filter(|&(_, n)| n >= need)
            .map(|(id, n)| (id as usize, n))
            .collect();
        ids.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ids.truncate(limit);
        ids.into_iter().map(|(id, _)| id).collect()
    }

    /// The `k` most similar titles with their similarity, best first, scored among the
    /// 200 candidates that share the most content words (a title that shares fewer
    /// words than those cannot come close).
    pub fn best(&self, cited: &str, k: usize) -> Vec<(usize, f64)> {
        let prepared = PreparedTitle::new(cited);
        let mut scored: Vec<(usize, f64)> = self
            .candidates(cited, 200)
            .into_iter()
            .map(|id| (id, prepared_score(&prepared, &self.prepared[id]).0))
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
        assert_eq!(
            index.best("A 1D CNN for motor imagery classification", 1)[0],
            (2, 1.0)
        );
        assert!(
            index
                .best("Protein folding with language models", 3)
                .is_empty()
        );
        let raw = "He K, Zhang X. Deep residual learning for image recognition. CVPR. 2016.";
        assert_eq!(index.contained_in(raw, 0), vec![1]);
    }
}
