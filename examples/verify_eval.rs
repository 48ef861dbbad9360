//! Benchmarks of the embedded verification backend and of passage retrieval.
//!
//! `cargo run --release --example verify_eval -- [--split train|dev|test]` (default dev).
//! Tune on train/dev only; test is held out and read here to report figures only.
//!
//! 1. Swap test: every claim is judged once against the evidence it cites and once
//!    against the evidence of another claim (seeded shuffle, never the same document);
//!    reports the share of each flagged `unrelated` (and `related`). On
//!    Citation-Integrity a harder variant swaps with the neighbouring claim in file
//!    order (usually cited by the same paper, so often on a nearby topic).
//! 2. Retrieval recall@3: share of claims with gold evidence for which one of the
//!    three top-ranked passages (BM25, `passages::rank`) contains a gold sentence.
//!    Citation-Integrity evidence documents are five disjoint sentences excerpted from
//!    the cited paper, so each sentence is one passage. Check-COVID abstracts are
//!    ranked both as one passage per sentence and as `passages::chunk` output (sizes
//!    below); a chunk contains a gold sentence when it covers at least half of its bytes.

// Shared with verify_tables, which uses the HealthVer reader this example does not.
#[path = "support/verify_data.rs"]
#[allow(dead_code)]
mod verify_data;

use std::ops::Range;
use std::time::Instant;

use citeproof::verify::Relation;
use citeproof::verify::embedded::EmbeddedScorer;
use citeproof::verify::passages::{chunk, rank};
use verify_data::{Item, check_covid, citation_integrity, data_dir, swap_partners};

const SEED: u64 = 0x5EED_E7A1;
const K: usize = 3;
/// Chunk sizes (characters) and overlaps evaluated on Check-COVID abstracts.
const CHUNKINGS: &[(usize, usize)] = &[(300, 0), (500, 100)];

fn main() {
    let mut split = "dev".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--split" => split = args.next().unwrap_or_default(),
            other => {
                eprintln!("unknown argument {other}; usage: verify_eval [--split train|dev|test]");
                std::process::exit(2);
            }
        }
    }
    if !matches!(split.as_str(), "train" | "dev" | "test") {
        eprintln!("--split must be train, dev or test");
        std::process::exit(2);
    }
    let Some(dir) = data_dir() else {
        eprintln!("skipping: ../shared/data/claim_verification absent (../shared absent)");
        return;
    };
    let ci = citation_integrity(&dir, &split);
    let cc = check_covid(&dir, &split);
    let scorer = EmbeddedScorer::default();

    println!("split: {split}");
    println!("\nswap test (embedded lexical backend)");
    println!(
        "{:<34} {:>6} {:>17} {:>21} {:>15} {:>19}",
        "dataset",
        "pairs",
        "swaps unrelated",
        "originals unrelated",
        "swaps related",
        "originals related"
    );
    let mut pairs = 0usize;
    let started = Instant::now();
    let random = swap_partners(&ci, SEED);
    pairs += swap_row("citation_integrity", &scorer, &ci, &random);
    pairs += swap_row(
        "citation_integrity (neighbour)",
        &scorer,
        &ci,
        &neighbour_partners(&ci),
    );
    pairs += swap_row("check_covid", &scorer, &cc, &swap_partners(&cc, SEED));
    let elapsed = started.elapsed().as_secs_f64();

    println!("\npassage retrieval (BM25), recall@{K}");
    println!(
        "{:<34} {:>6} {:>10} {:>8} {:>22}",
        "dataset / passages", "claims", "recall@3", "random", "top-3 share of text"
    );
    let sentence_passages = |item: &Item| -> Vec<Range<usize>> {
        let mut at = 0;
        item.evidence
            .iter()
            .map(|s| {
                let r = at..at + s.len();
                at += s.len() + 1;
                r
            })
            .collect()
    };
    retrieval_row("citation_integrity / sentences", &ci, |item| {
        sentence_passages(item)
    });
    retrieval_row("check_covid / sentences", &cc, |item| {
        sentence_passages(item)
    });
    for &(size, overlap) in CHUNKINGS {
        retrieval_row(
            &format!("check_covid / chunk({size}, {overlap})"),
            &cc,
            |item| {
                let text = item.evidence.join(" ");
                chunk(&text, None, size, overlap)
                    .into_iter()
                    .map(|p| p.offset..p.offset + p.text.len())
                    .collect()
            },
        );
    }
    println!(
        "\nthroughput: {pairs} claim–evidence pairs in {elapsed:.2} s = {:.0} pairs/s (one thread)",
        pairs as f64 / elapsed
    );
}

/// Partner = the next claim in file order whose document differs.
fn neighbour_partners(items: &[Item]) -> Vec<usize> {
    (0..items.len())
        .map(|i| {
            (1..items.len())
                .map(|step| (i + step) % items.len())
                .find(|&j| items[j].doc != items[i].doc)
                .unwrap_or(i)
        })
        .collect()
}

fn share(count: usize, total: usize) -> String {
    format!("{:.1} %", 100.0 * count as f64 / total.max(1) as f64)
}

/// Judge every item against its own and its partner's evidence; print one row and
/// return the number of pairs judged.
fn swap_row(name: &str, scorer: &EmbeddedScorer, items: &[Item], partners: &[usize]) -> usize {
    let (mut su, mut ou, mut sr, mut or) = (0, 0, 0, 0);
    for (item, &partner) in items.iter().zip(partners) {
        let original = scorer.assess(&item.claim, &item.work_text()).relation;
        let swapped = scorer
            .assess(&item.claim, &items[partner].work_text())
            .relation;
        su += usize::from(swapped == Relation::Unrelated);
        ou += usize::from(original == Relation::Unrelated);
        sr += usize::from(swapped == Relation::Related);
        or += usize::from(original == Relation::Related);
    }
    let n = items.len();
    println!(
        "{name:<34} {n:>6} {:>17} {:>21} {:>15} {:>19}",
        share(su, n),
        share(ou, n),
        share(sr, n),
        share(or, n)
    );
    2 * n
}

/// Rank the passages of every item with gold sentences and print recall@3, the
/// expected recall of a random top 3, and the share of the text the top 3 cover.
fn retrieval_row(name: &str, items: &[Item], passages_of: impl Fn(&Item) -> Vec<Range<usize>>) {
    let (mut claims, mut hits) = (0usize, 0usize);
    let (mut random, mut covered) = (0.0, 0.0);
    for item in items.iter().filter(|i| !i.gold.is_empty()) {
        let text = item.evidence.join(" ");
        let mut at = 0;
        let gold: Vec<Range<usize>> = item
            .evidence
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let r = at..at + s.len();
                at += s.len() + 1;
                (i, r)
            })
            .filter(|(i, _)| item.gold.contains(i))
            .map(|(_, r)| r)
            .collect();
        if gold.is_empty() {
            continue;
        }
        let passages = passages_of(item);
        if passages.is_empty() {
            continue;
        }
        let contains = |p: &Range<usize>| {
            gold.iter().any(|g| {
                let inter = p.end.min(g.end).saturating_sub(p.start.max(g.start));
                2 * inter >= g.len()
            })
        };
        let texts: Vec<&str> = passages.iter().map(|r| &text[r.clone()]).collect();
        let top = rank(&item.claim, &texts, K);
        claims += 1;
        hits += usize::from(top.iter().any(|&(i, _)| contains(&passages[i])));
        let relevant = passages.iter().filter(|p| contains(p)).count();
        random += expected_random_hit(passages.len(), relevant, K);
        let top_len: usize = top.iter().map(|&(i, _)| passages[i].len()).sum();
        covered += (top_len as f64 / text.len().max(1) as f64).min(1.0);
    }
    let n = claims.max(1) as f64;
    println!(
        "{name:<34} {claims:>6} {:>10.3} {:>8.3} {:>21.0}%",
        hits as f64 / n,
        random / n,
        100.0 * covered / n
    );
}

/// Probability that `k` passages drawn at random from `n` include one of `relevant`.
fn expected_random_hit(n: usize, relevant: usize, k: usize) -> f64 {
    if relevant == 0 {
        return 0.0;
    }
    let k = k.min(n);
    // 1 - C(n - relevant, k) / C(n, k)
    let mut miss = 1.0;
    for i in 0..k {
        if n - i <= relevant {
            return 1.0;
        }
        miss *= (n - relevant - i) as f64 / (n - i) as f64;
    }
    1.0 - miss
}
