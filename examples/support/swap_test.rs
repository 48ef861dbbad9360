//! The swap test of the embedded backend, for `verify_eval`: every claim judged
//! against the evidence it cites and against the evidence of other claims.
//!
//! One draw of swap partners gives a noisy swap share on a small split (139
//! Check-COVID dev pairs: one swap is 0.7 points), so the share is also given over
//! [`DRAWS`] seeded draws (the originals are the same in every draw). How hard a swap
//! is depends on how close the partner's work is to the claim's own: Check-COVID
//! abstracts are all about COVID-19 (median cosine similarity of a claim's abstract
//! and its partner's about 0.5, Citation-Integrity's about 0.2), so the swaps are
//! also broken down by that similarity ([`difficulty_rows`]).

use std::time::Instant;

use citeproof::verify::Relation;
use citeproof::verify::hybrid::{Scorer, evidence_vector};
use citeproof::verify::judge::Judge;
use citeproof::verify::sentence_model::{SentenceModel, similarity};

use crate::verify_data::{Item, swap_partners};

/// Partner draws for the averaged swap share.
pub const DRAWS: usize = 10;
/// Upper edges of the similarity bands of [`difficulty_rows`] (the last band is open).
const BANDS: [f64; 3] = [0.3, 0.45, 0.6];

/// [`DRAWS`] partner draws for `items`; the first is `swap_partners(items, seed)`.
pub fn partner_draws(items: &[Item], seed: u64) -> Vec<Vec<usize>> {
    (0..DRAWS as u64)
        .map(|k| swap_partners(items, seed.wrapping_add(k)))
        .collect()
}

fn share(count: usize, total: usize) -> String {
    format!("{:.1} %", 100.0 * count as f64 / total.max(1) as f64)
}

/// The relation `verify` reports: the shared judge's call on the pair (no rival).
fn judge(scorer: &Scorer, claim: &str, evidence: &[String]) -> Relation {
    let assessed = scorer
        .assess(claim, evidence)
        .unwrap_or_else(|e| panic!("{e}"));
    Judge::new(scorer.clone())
        .judge_assessed(claim, assessed, evidence)
        .map_or(Relation::Uncertain, |j| j.call.relation())
}

/// The header of [`swap_row`]'s table.
pub fn print_header() {
    println!(
        "{:<20} {:<10} {:>6} {:>17} {:>21} {:>15} {:>19} {:>9} {:>19}",
        "dataset",
        "mode",
        "pairs",
        "swaps unrelated",
        "originals unrelated",
        "swaps related",
        "originals related",
        "pairs/s",
        format!("swaps unr. {DRAWS} draws"),
    );
}

/// Judge every item against its own evidence and its partner's in the first draw
/// (the pairs per second are timed on these), then against its partners of the
/// other draws; print one row.
pub fn swap_row(name: &str, scorer: &Scorer, items: &[Item], draws: &[Vec<usize>]) {
    let started = Instant::now();
    let (mut su, mut ou, mut sr, mut or) = (0, 0, 0, 0);
    let first = draws.first().map(Vec::as_slice).unwrap_or_default();
    for (item, &partner) in items.iter().zip(first) {
        let original = judge(scorer, &item.claim, &item.work_text());
        let swapped = judge(scorer, &item.claim, &items[partner].work_text());
        su += usize::from(swapped == Relation::Unrelated);
        ou += usize::from(original == Relation::Unrelated);
        sr += usize::from(swapped == Relation::Related);
        or += usize::from(original == Relation::Related);
    }
    let n = items.len();
    let per_second = (2 * n) as f64 / started.elapsed().as_secs_f64();
    let mut all_unrelated = su;
    for partners in draws.iter().skip(1) {
        for (item, &partner) in items.iter().zip(partners) {
            let swapped = judge(scorer, &item.claim, &items[partner].work_text());
            all_unrelated += usize::from(swapped == Relation::Unrelated);
        }
    }
    println!(
        "{name:<20} {:<10} {n:>6} {:>17} {:>21} {:>15} {:>19} {per_second:>9.1} {:>19}",
        scorer.mode().as_str(),
        share(su, n),
        share(ou, n),
        share(sr, n),
        share(or, n),
        share(all_unrelated, n * draws.len()),
    );
}

/// The band of a similarity: its index in [`BANDS`], or `BANDS.len()` above them all.
fn band(similarity: f64) -> usize {
    BANDS
        .iter()
        .position(|&edge| similarity < edge)
        .unwrap_or(BANDS.len())
}

fn band_name(index: usize) -> String {
    match index {
        0 => format!("< {}", BANDS[0]),
        i if i == BANDS.len() => format!("≥ {}", BANDS[i - 1]),
        i => format!("{}–{}", BANDS[i - 1], BANDS[i]),
    }
}

/// The swaps of every draw, judged by `scorer` and grouped by the cosine similarity
/// of the claim's evidence and the partner's (`model`'s mean sentence direction):
/// one row per band with its share of the swaps and the share flagged `unrelated`.
pub fn difficulty_rows(
    name: &str,
    scorer: &Scorer,
    model: &SentenceModel,
    items: &[Item],
    draws: &[Vec<usize>],
) {
    let vectors: Vec<Option<Vec<f32>>> = items
        .iter()
        .map(|item| evidence_vector(model, &item.work_text()).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut swaps = [0usize; BANDS.len() + 1];
    let mut flagged = [0usize; BANDS.len() + 1];
    for partners in draws {
        for (i, (item, &partner)) in items.iter().zip(partners).enumerate() {
            let (Some(own), Some(other)) = (&vectors[i], &vectors[partner]) else {
                continue;
            };
            let b = band(similarity(own, other));
            swaps[b] += 1;
            let swapped = judge(scorer, &item.claim, &items[partner].work_text());
            flagged[b] += usize::from(swapped == Relation::Unrelated);
        }
    }
    let total: usize = swaps.iter().sum();
    for (b, (&n, &f)) in swaps.iter().zip(&flagged).enumerate() {
        println!(
            "{name:<20} {:<10} {:>11} {:>9} {:>17}",
            scorer.mode().as_str(),
            band_name(b),
            share(n, total),
            share(f, n)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_split_at_their_edges() {
        assert_eq!(band(-0.2), 0);
        assert_eq!(band(0.3), 1);
        assert_eq!(band(0.5), 2);
        assert_eq!(band(0.6), 3);
        assert_eq!(band_name(0), "< 0.3");
        assert_eq!(band_name(2), "0.45–0.6");
        assert_eq!(band_name(3), "≥ 0.6");
    }
}
