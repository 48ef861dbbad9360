//! Passage lists of the retrieval benchmarks (verify_eval, fit_ranker): an item's
//! evidence joined into one text, its gold sentences as byte ranges of that text, and
//! its passages as sentences (in a seeded shuffled order, so ties never favour the
//! gold sentence Citation-Integrity lists first) or as `passages::chunk` output.

use std::ops::Range;

use citeproof::verify::passages::chunk;

use super::verify_data::{Item, sentence_order};

/// The evidence as one text, sentences joined by a space.
pub fn joined(item: &Item) -> String {
    item.evidence.join(" ")
}

/// Byte range of every evidence sentence in [`joined`].
fn sentence_ranges(item: &Item) -> Vec<Range<usize>> {
    let mut at = 0;
    item.evidence
        .iter()
        .map(|s| {
            let r = at..at + s.len();
            at += s.len() + 1;
            r
        })
        .collect()
}

/// Byte ranges of the gold sentences in [`joined`].
pub fn gold_ranges(item: &Item) -> Vec<Range<usize>> {
    sentence_ranges(item)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| item.gold.contains(i))
        .map(|(_, r)| r)
        .collect()
}

/// One passage per sentence, in the item's seeded shuffled order.
pub fn sentence_passages(item: &Item, seed: u64) -> Vec<Range<usize>> {
    let ranges = sentence_ranges(item);
    sentence_order(item, seed)
        .into_iter()
        .map(|i| ranges[i].clone())
        .collect()
}

/// The chunks of [`joined`] (no sections: abstracts).
pub fn chunk_passages(item: &Item, size: usize, overlap: usize) -> Vec<Range<usize>> {
    chunk(&joined(item), None, size, overlap)
        .into_iter()
        .map(|p| p.offset..p.offset + p.text.len())
        .collect()
}

/// Whether a passage holds a gold sentence: it covers at least half of its bytes.
pub fn holds_gold(passage: &Range<usize>, gold: &[Range<usize>]) -> bool {
    gold.iter().any(|g| {
        let inter = passage
            .end
            .min(g.end)
            .saturating_sub(passage.start.max(g.start));
        2 * inter >= g.len()
    })
}
