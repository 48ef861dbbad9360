//! Where the mismatch threshold belongs, measured on human-written citing sentences
//! rather than generated ones: Citation-Integrity dev (sentences of papers with the
//! cited paper's text) and Check-COVID dev (claims with their abstract), each paired
//! with its own evidence and with another work's (a swap). For each threshold: the
//! share of true pairs that would be called a mismatch, and of swaps caught.
#![allow(dead_code)]

use std::collections::HashMap;

use citeproof::clean::rival::MIN_RIVAL_COVERAGE;
use citeproof::clean::{Aligner, Metric};
use citeproof::verify::embedded::EmbeddedScorer;

use super::verify_data::{self, Item};

pub fn run(aligner: &Aligner, metric: Metric) {
    let Some(dir) = verify_data::data_dir() else {
        println!("calibration: ../shared/data/claim_verification is absent");
        return;
    };
    for (name, items) in [
        (
            "Citation-Integrity dev",
            verify_data::citation_integrity(&dir, "dev"),
        ),
        (
            "Check-COVID dev",
            verify_data::distinct_pairs(&verify_data::check_covid(&dir, "dev")),
        ),
    ] {
        let partners = verify_data::swap_partners(&items, 7);
        let score = |claim: &str, item: &Item| {
            let title = item.title.clone().unwrap_or_default();
            aligner
                .similarity(metric, claim, &title, &item.evidence.join(" "))
                .expect("similarity")
        };
        let own: Vec<f64> = items.iter().filter_map(|i| score(&i.claim, i)).collect();
        let swapped: Vec<f64> = items
            .iter()
            .zip(&partners)
            .filter_map(|(i, &p)| score(&i.claim, &items[p]))
            .collect();
        println!(
            "\n{name}: {} true pairs, {} swaps ({}):",
            own.len(),
            swapped.len(),
            aligner.describe(metric)
        );
        swaps_against_the_other_works(&items, &partners);
        for t in [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7] {
            let below =
                |v: &[f64]| v.iter().filter(|s| **s < t).count() as f64 / v.len().max(1) as f64;
            println!(
                "  t={t:<5} true pairs below {:>5.1} %   swaps below {:>5.1} %",
                100.0 * below(&own),
                100.0 * below(&swapped)
            );
        }
    }
}

/// The swap rule on human-written sentences: every other work of the split stands in
/// for the other sources of an answer (more of them, and as topical, as a retriever
/// returns). A true pair is falsely called a swap when another work holds `margin`
/// more of the sentence's terms (and at least the minimum); a swapped pair is caught
/// when the work it came from does.
fn swaps_against_the_other_works(items: &[Item], partners: &[usize]) {
    let scorer = EmbeddedScorer::default();
    let mut works: Vec<&str> = Vec::new();
    let mut text_of: HashMap<&str, String> = HashMap::new();
    for item in items {
        if !text_of.contains_key(item.work.as_str()) {
            works.push(&item.work);
            let title = item.title.clone().unwrap_or_default();
            text_of.insert(&item.work, format!("{title} {}", item.evidence.join(" ")));
        }
    }
    let coverage =
        |claim: &str, work: &str| scorer.measure(claim, &[text_of[work].as_str()]).0.coverage;
    let margins = [0.2, 0.3, 0.4, 0.5];
    let minimums = [MIN_RIVAL_COVERAGE, 0.7, 0.8];
    let mut false_swaps = [[0usize; 4]; 3];
    let mut caught = [[0usize; 4]; 3];
    for (item, &p) in items.iter().zip(partners) {
        let own = coverage(&item.claim, &item.work);
        let cited_wrongly = coverage(&item.claim, &items[p].work);
        let best_other = works
            .iter()
            .filter(|w| **w != item.work)
            .map(|w| coverage(&item.claim, w))
            .fold(0.0f64, f64::max);
        for (a, min) in minimums.iter().enumerate() {
            for (k, m) in margins.iter().enumerate() {
                false_swaps[a][k] += usize::from(best_other >= *min && best_other - own >= *m);
                caught[a][k] += usize::from(own >= *min && own - cited_wrongly >= *m);
            }
        }
    }
    println!(
        "  swap rule against all {} other works of the split:",
        works.len() - 1
    );
    for (a, min) in minimums.iter().enumerate() {
        for (k, m) in margins.iter().enumerate() {
            println!(
                "    coverage ≥ {min}, margin {m}: true pairs called swaps {:>5.1} %   swapped pairs caught {:>5.1} %",
                100.0 * false_swaps[a][k] as f64 / items.len() as f64,
                100.0 * caught[a][k] as f64 / items.len() as f64
            );
        }
    }
}
