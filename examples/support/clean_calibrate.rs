//! Where the mismatch threshold belongs, measured on human-written citing sentences
//! rather than generated ones: Citation-Integrity dev (sentences of papers with the
//! cited paper's text) and Check-COVID dev (claims with their abstract), each paired
//! with its own evidence and with another work's (a swap). For each threshold: the
//! share of true pairs that would be called a mismatch, and of swaps caught.
#![allow(dead_code)]

use citeproof::clean::{Aligner, Metric};

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
        ("Check-COVID dev", verify_data::distinct_pairs(&verify_data::check_covid(&dir, "dev"))),
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
        for t in [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7] {
            let below = |v: &[f64]| v.iter().filter(|s| **s < t).count() as f64 / v.len().max(1) as f64;
            println!(
                "  t={t:<5} true pairs below {:>5.1} %   swaps below {:>5.1} %",
                100.0 * below(&own),
                100.0 * below(&swapped)
            );
        }
    }
}
