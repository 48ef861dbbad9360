//! Benchmarks of the embedded verification backend and of passage retrieval.
//!
//! `cargo run --release --example verify_eval -- [--split train|dev|test]
//! [--embedding-model DIR] [--without-background-works] [--documents-only]` (default
//! dev; `--documents-only` runs the swap test in documents alone; the model
//! directory may also be given by `CITEPROOF_EMBEDDING_MODEL`; the last flag scores the
//! model modes with their calibrations fitted without the background works, to
//! compare). Tune on train/dev only; test is held out and read
//! here to report figures only.
//!
//! 1. Swap test: every distinct claim–document pair is judged once against the evidence
//!    it cites and once against the evidence of a random other claim that cites a
//!    different work (seeded shuffle; Citation-Integrity numbers the evidence documents
//!    of one cited paper in one block of a thousand, see `verify_data`); reports the
//!    share of each flagged `unrelated` (and `related`) and the pairs judged per second
//!    (each mode with a fresh model, so embedding time counts). With a sentence model,
//!    every row is repeated for the `embeddings` and `hybrid` modes. The last column
//!    is the swap share over ten seeded partner draws (the first is the one of the
//!    other columns), and with a model the `hybrid` swaps of all draws are broken down
//!    by how similar the two works are (see `support/swap_test.rs`).
//! 2. Retrieval recall@3: share of claims with gold evidence for which one of the
//!    three top-ranked passages contains a gold sentence: BM25 (`passages::rank`), the
//!    learned lexical ranking (`select::Ranker::Lexical`, the default without a model),
//!    and with a sentence model the model's ranking, the rank fusion with BM25 and the
//!    learned ranking over lexical and model features (`Ranker::Learned`, the default
//!    with a model; fitted on train by `fit_ranker`).
//!    Citation-Integrity evidence documents are five sentences excerpted from the
//!    cited paper, so each sentence is one passage; the gold sentence is always the
//!    first, so sentence passages are ranked in a seeded shuffled order (ties must not
//!    favour it). Check-COVID abstracts are ranked both as one passage per sentence and
//!    as `passages::chunk` output (sizes below); a chunk contains a gold sentence when
//!    it covers at least half of its bytes. The `random` column is the expected recall
//!    of three passages drawn at random, the last the share of the text the top three
//!    cover (chunks of an abstract cover most of it).
//! 3. Swap test in documents (`support/swap_documents.rs`): claims grouped into
//!    documents of 5 and 10 cited works, each judged alone and with the document's other
//!    works as rivals, as `check --verify` judges them; on train also the curve over the
//!    rival margin and the margin the calibration's criterion fits.

// Shared with verify_tables, which uses the HealthVer reader this example does not.
#[path = "support/swap_documents.rs"]
mod swap_documents;
#[path = "support/swap_test.rs"]
mod swap_test;
#[path = "support/verify_data.rs"]
#[allow(dead_code)]
mod verify_data;

#[path = "support/retrieval.rs"]
mod retrieval;

use std::ops::Range;

use std::path::PathBuf;
use std::sync::Arc;

use citeproof::verify::hybrid::{Scorer, ScoringMode};
use citeproof::verify::judge::{Judge, RIVAL_MARGIN};
use citeproof::verify::passages;
use citeproof::verify::select::Ranker;
use citeproof::verify::sentence_model::{SentenceModel, dir_from_env};
use verify_data::{Item, check_covid, citation_integrity, data_dir, distinct_pairs};

const SEED: u64 = 0x5EED_E7A1;
const K: usize = 3;
/// Chunk sizes (characters) and overlaps evaluated on Check-COVID abstracts; the last
/// is the product's default.
/// Works cited per document in the swap test in documents.
const DOCUMENT_SIZES: [usize; 2] = [5, 10];
const CHUNKINGS: &[(usize, usize)] = &[
    (300, 0),
    (500, 100),
    (passages::DEFAULT_SIZE, passages::DEFAULT_OVERLAP),
];

fn main() {
    let mut split = "dev".to_string();
    let mut model_dir: Option<PathBuf> = dir_from_env();
    let mut background_works = true;
    let mut documents_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--split" => split = args.next().unwrap_or_default(),
            "--embedding-model" => model_dir = args.next().map(PathBuf::from),
            "--without-background-works" => background_works = false,
            "--documents-only" => documents_only = true,
            other => {
                eprintln!(
                    "unknown argument {other}; usage: verify_eval [--split train|dev|test] \
                     [--embedding-model DIR] [--without-background-works] [--documents-only]"
                );
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
    // A fresh model (empty memo) per use, so every row pays for its own embeddings.
    let load = || {
        model_dir.as_ref().map(|d| {
            let m = SentenceModel::load(d)
                .unwrap_or_else(|e| panic!("cannot load the embedding model: {e}"))
                .with_memo_capacity(200_000);
            Arc::new(m)
        })
    };
    let model = load();
    let mut scorers = vec![Scorer::lexical()];
    for mode in [ScoringMode::Embeddings, ScoringMode::Hybrid] {
        if let Some(m) = load() {
            let scorer = Scorer::with_model(m, mode);
            scorers.push(if background_works {
                scorer
            } else {
                scorer.without_background()
            });
        }
    }

    println!("split: {split}");
    match &model {
        Some(m) => println!(
            "sentence model: {} ({}); background works {}",
            m.name(),
            m.dir().display(),
            if scorers.iter().any(Scorer::uses_background) {
                "used"
            } else {
                "not used (--without-background-works, or built with another model)"
            }
        ),
        None => println!("sentence model: none (lexical only; see --embedding-model)"),
    }
    let ci_pairs = distinct_pairs(&ci);
    let cc_pairs = distinct_pairs(&cc);
    if documents_only {
        documents_section(&split, &scorers, &ci_pairs, &cc_pairs);
        return;
    }
    println!("\nswap test (embedded backend)");
    swap_test::print_header();
    let ci_draws = swap_test::partner_draws(&ci_pairs, SEED);
    let cc_draws = swap_test::partner_draws(&cc_pairs, SEED);
    for scorer in &scorers {
        swap_test::swap_row("citation_integrity", scorer, &ci_pairs, &ci_draws);
        swap_test::swap_row("check_covid", scorer, &cc_pairs, &cc_draws);
    }
    if let (Some(m), Some(scorer)) = (&model, scorers.last()) {
        println!(
            "\nswaps by similarity of the two works ({} draws)",
            swap_test::DRAWS
        );
        println!(
            "{:<20} {:<10} {:>11} {:>9} {:>17}",
            "dataset", "mode", "similarity", "swaps", "flagged unrelated"
        );
        swap_test::difficulty_rows("citation_integrity", scorer, m, &ci_pairs, &ci_draws);
        swap_test::difficulty_rows("check_covid", scorer, m, &cc_pairs, &cc_draws);
    }

    documents_section(&split, &scorers, &ci_pairs, &cc_pairs);

    let mut rankers = vec![Ranker::Bm25, Ranker::Lexical];
    if let Some(m) = &model {
        rankers.push(Ranker::Local(m.clone()));
        rankers.push(Ranker::Fused(m.clone()));
        rankers.push(Ranker::Learned(m.clone()));
    }
    println!("\npassage retrieval, recall@{K}");
    println!(
        "{:<34} {:<10} {:>6} {:>10} {:>8} {:>22}",
        "dataset / passages", "ranking", "claims", "recall@3", "random", "top-3 share of text"
    );
    for ranker in &rankers {
        retrieval_row("citation_integrity / sentences", ranker, &ci, |item| {
            retrieval::sentence_passages(item, SEED)
        });
        retrieval_row("check_covid / sentences", ranker, &cc, |item| {
            retrieval::sentence_passages(item, SEED)
        });
        for &(size, overlap) in CHUNKINGS {
            retrieval_row(
                &format!("check_covid / chunk({size}, {overlap})"),
                ranker,
                &cc,
                |item| retrieval::chunk_passages(item, size, overlap),
            );
        }
    }
}

/// Rank the passages of every item with gold sentences and print recall@3, the
/// expected recall of a random top 3, and the share of the text the top 3 cover.
fn retrieval_row(
    name: &str,
    ranker: &Ranker,
    items: &[Item],
    passages_of: impl Fn(&Item) -> Vec<Range<usize>>,
) {
    let (mut claims, mut hits) = (0usize, 0usize);
    let (mut random, mut covered) = (0.0, 0.0);
    for item in items.iter().filter(|i| !i.gold.is_empty()) {
        let text = retrieval::joined(item);
        let gold = retrieval::gold_ranges(item);
        if gold.is_empty() {
            continue;
        }
        let passages = passages_of(item);
        if passages.is_empty() {
            continue;
        }
        let contains = |p: &Range<usize>| retrieval::holds_gold(p, &gold);
        let texts: Vec<&str> = passages.iter().map(|r| &text[r.clone()]).collect();
        let top = ranker
            .rank(&item.claim, &texts, K)
            .unwrap_or_else(|e| panic!("{e}"));
        claims += 1;
        hits += usize::from(top.iter().any(|&(i, _)| contains(&passages[i])));
        let relevant = passages.iter().filter(|p| contains(p)).count();
        random += expected_random_hit(passages.len(), relevant, K);
        let top_len: usize = top.iter().map(|&(i, _)| passages[i].len()).sum();
        covered += (top_len as f64 / text.len().max(1) as f64).min(1.0);
    }
    let n = claims.max(1) as f64;
    println!(
        "{name:<34} {:<10} {claims:>6} {:>10.3} {:>8.3} {:>21.0}%",
        ranker.name(),
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

/// The swap test in documents (item 3 of the module's documentation).
fn documents_section(split: &str, scorers: &[Scorer], ci_pairs: &[Item], cc_pairs: &[Item]) {
    println!(
        "\nswap test in documents (each claim judged with the document's other cited works \
         as rivals; `alone`: without them)"
    );
    swap_documents::print_header();
    for scorer in scorers {
        let judge = Judge::new(scorer.clone());
        for size in DOCUMENT_SIZES {
            swap_documents::document_row(
                "citation_integrity",
                &judge,
                RIVAL_MARGIN,
                ci_pairs,
                size,
                SEED,
            );
        }
        swap_documents::document_row("check_covid", &judge, RIVAL_MARGIN, cc_pairs, 10, SEED);
        if split == "train" {
            // The rival margin's calibration (train only): the curve and the fitted value.
            for &m in &swap_documents::MARGINS {
                swap_documents::document_row("citation_integrity", &judge, m, ci_pairs, 10, SEED);
            }
            match swap_documents::fit_margin(&judge, ci_pairs, 10, SEED) {
                Some(m) => println!("fitted rival margin ({}): {m:.2}", scorer.mode().as_str()),
                None => println!("no margin meets the criterion ({})", scorer.mode().as_str()),
            }
        }
    }
}
