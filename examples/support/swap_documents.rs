//! The swap test in documents, for `verify_eval`: claims grouped into documents that
//! cite several works, as a manuscript does, so that `verify` judges each claim with
//! the document's other cited works as rivals (`Judge::judge_assessed_among`).
//!
//! Each document cites `size` distinct works, one claim from each. An original is a
//! claim judged against its own work, with the others as rivals; a swap is the claim
//! cited to the next work of the same document, its own work then being among the
//! rivals. The same pairs are also judged alone, as before rivals, so the two columns
//! can be compared.

use citeproof::verify::Relation;
use citeproof::verify::judge::{Candidate, Judge};

use crate::verify_data::{Item, shuffled};

/// Documents of `size` items with distinct works, in a seeded order; items left over
/// (too few distinct works remain) are not used.
fn documents(items: &[Item], size: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut open: Vec<Vec<usize>> = Vec::new();
    let mut done = Vec::new();
    for i in shuffled(items.len(), seed) {
        let slot = open
            .iter()
            .position(|d| d.iter().all(|&j| items[j].work != items[i].work));
        match slot {
            Some(s) => open[s].push(i),
            None => open.push(vec![i]),
        }
        if let Some(full) = open.iter().position(|d| d.len() == size) {
            done.push(open.swap_remove(full));
        }
    }
    done
}

/// The call on `claim` cited to `cited`, with `rivals` (none: judged alone).
fn call(judge: &Judge, claim: &str, cited: &[String], rivals: &[Candidate]) -> Relation {
    let assessed = judge
        .scorer()
        .assess(claim, cited)
        .unwrap_or_else(|e| panic!("{e}"));
    judge
        .judge_assessed_among(claim, assessed, cited, rivals)
        .unwrap_or_else(|e| panic!("{e}"))
        .map_or(Relation::Uncertain, |j| j.call.relation())
}

fn share(count: usize, total: usize) -> String {
    format!("{:.1} %", 100.0 * count as f64 / total.max(1) as f64)
}

/// Claims judged, and swaps and originals called `unrelated`, alone and with rivals.
struct Counts {
    claims: usize,
    swaps: [usize; 2],
    originals: [usize; 2],
}

/// Judge every claim of documents of `size` works, alone and with rivals.
fn count(judge: &Judge, items: &[Item], size: usize, seed: u64) -> Counts {
    let texts: Vec<Vec<String>> = items.iter().map(Item::work_text).collect();
    let joined: Vec<String> = texts.iter().map(|t| t.join(" ")).collect();
    let candidate = |j: usize| Candidate {
        name: format!("work {j}"),
        title: "",
        abstract_text: &joined[j],
    };
    let mut c = Counts {
        claims: 0,
        swaps: [0; 2],
        originals: [0; 2],
    };
    let unrelated = |cited: usize, claim: &str, doc: &[usize], rivals: bool| {
        let rivals: Vec<Candidate> = match rivals {
            true => doc
                .iter()
                .filter(|&&j| j != cited)
                .map(|&j| candidate(j))
                .collect(),
            false => Vec::new(),
        };
        usize::from(call(judge, claim, &texts[cited], &rivals) == Relation::Unrelated)
    };
    for doc in documents(items, size, seed) {
        for (k, &i) in doc.iter().enumerate() {
            let partner = doc[(k + 1) % doc.len()];
            let claim = &items[i].claim;
            c.claims += 1;
            for (slot, rivals) in [(0, false), (1, true)] {
                c.originals[slot] += unrelated(i, claim, &doc, rivals);
                c.swaps[slot] += unrelated(partner, claim, &doc, rivals);
            }
        }
    }
    c
}

/// The header of [`document_row`]'s table.
pub fn print_header() {
    println!(
        "{:<20} {:<10} {:>6} {:>5} {:>6} {:>24} {:>28}",
        "dataset",
        "mode",
        "margin",
        "works",
        "claims",
        "swaps unr. alone/rivals",
        "originals unr. alone/rivals"
    );
}

/// One row: documents of `size` works judged by `judge` (its rival margin).
pub fn document_row(
    name: &str,
    judge: &Judge,
    margin: f64,
    items: &[Item],
    size: usize,
    seed: u64,
) {
    let judge = judge.clone().with_rival_margin(margin);
    let c = count(&judge, items, size, seed);
    println!(
        "{name:<20} {:<10} {margin:>6.2} {size:>5} {:>6} {:>24} {:>28}",
        judge.mode().as_str(),
        c.claims,
        format!(
            "{} / {}",
            share(c.swaps[0], c.claims),
            share(c.swaps[1], c.claims)
        ),
        format!(
            "{} / {}",
            share(c.originals[0], c.claims),
            share(c.originals[1], c.claims)
        ),
    );
}

/// Margins tried by [`fit_margin`].
pub const MARGINS: [f64; 9] = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

/// The calibration of the rival margin: the smallest of [`MARGINS`] at which the
/// rivals add at most one false flag in two thousand originals (documents of `size`):
/// precision first, as a manuscript's false alarm costs its author's trust.
pub fn fit_margin(judge: &Judge, items: &[Item], size: usize, seed: u64) -> Option<f64> {
    MARGINS.into_iter().find(|&m| {
        let c = count(&judge.clone().with_rival_margin(m), items, size, seed);
        let added = c.originals[1].saturating_sub(c.originals[0]);
        added as f64 <= 0.0005 * c.claims as f64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(work: &str) -> Item {
        Item {
            claim: String::new(),
            doc: work.to_string(),
            work: work.to_string(),
            evidence: Vec::new(),
            title: None,
            gold: Vec::new(),
        }
    }

    #[test]
    fn a_document_never_cites_one_work_twice() {
        let items: Vec<Item> = ["a", "a", "b", "c", "b", "d", "a"].map(item).to_vec();
        let docs = documents(&items, 2, 7);
        assert!(docs.len() >= 2, "{docs:?}");
        let mut used: Vec<usize> = docs.concat();
        used.sort_unstable();
        used.dedup();
        assert_eq!(
            used.len(),
            2 * docs.len(),
            "an item in two documents: {docs:?}"
        );
        for d in docs {
            assert_eq!(d.len(), 2);
            assert_ne!(items[d[0]].work, items[d[1]].work);
        }
    }
}
