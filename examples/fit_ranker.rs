//! Fits the learned passage ranker (`verify::rerank`) on the training splits and
//! writes its weights to src/verify/rank_weights.rs.
//!
//! `cargo run --release --example fit_ranker -- [--embedding-model DIR] [--eval dev]
//! [--write] [--cache PREFIX]`
//!
//! Passage lists come from Citation-Integrity (five excerpted sentences per cited
//! document, one passage each) and Check-COVID abstracts (one passage per sentence,
//! and chunked at 300 and 500 characters), each with its gold evidence sentences (see
//! `verify_eval`). The weights are fitted on **train only** by a listwise softmax: per
//! claim, the probability mass a softmax over its passages' scores gives to the gold
//! passages is maximised (with a small L2 penalty), over sentence lists and chunk lists
//! alike. `--eval dev` prints recall@3 on dev with the fitted weights (dev is tuning
//! data; test is held out and never read here). Without a model only the lexical
//! weights are fitted, and `--write` keeps the combined weights already in the file.
//! `--cache PREFIX` stores the computed features in PREFIX-SPLIT.json and reads them
//! back on the next run (delete the files after changing the features).

#[path = "support/verify_data.rs"]
#[allow(dead_code)]
mod verify_data;

#[path = "support/retrieval.rs"]
mod retrieval;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use citeproof::verify::background::Background;
use citeproof::verify::rank_weights::{COMBINED_WEIGHTS, LEXICAL_WEIGHTS};
use citeproof::verify::rerank::{
    COMBINED, LEXICAL, Measures, combined_features, lexical_features, measure, measure_semantic,
    semantic_features,
};
use citeproof::verify::sentence_model::{SentenceModel, TokenEmbeddings, dir_from_env};
use serde::{Deserialize, Serialize};
use verify_data::{Item, check_covid, citation_integrity, data_dir};

const SEED: u64 = 0x5EED_E7A1;
const K: usize = 3;
const L2: f64 = 1e-3;
const STEPS: usize = 3000;

/// One claim's passages: their measures and which hold gold evidence.
#[derive(Serialize, Deserialize)]
struct List {
    set: String,
    measures: Vec<Measures>,
    /// Whether the measures include the sentence model's.
    with_model: bool,
    gold: Vec<bool>,
}

fn main() {
    let mut model_dir: Option<PathBuf> = dir_from_env();
    let mut eval: Option<String> = None;
    let mut write = false;
    let mut cache: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--embedding-model" => model_dir = args.next().map(PathBuf::from),
            "--eval" => eval = args.next(),
            "--write" => write = true,
            "--cache" => cache = args.next(),
            other => {
                eprintln!(
                    "unknown argument {other}; usage: fit_ranker [--embedding-model DIR] \
                     [--eval dev] [--write] [--cache PREFIX]"
                );
                std::process::exit(2);
            }
        }
    }
    if eval.as_deref().is_some_and(|s| s != "train" && s != "dev") {
        eprintln!("--eval takes train or dev (test is held out)");
        std::process::exit(2);
    }
    let Some(dir) = data_dir() else {
        eprintln!("skipping: ../shared/data/claim_verification absent (../shared absent)");
        return;
    };
    let model = model_dir.map(|d| {
        SentenceModel::load(&d).unwrap_or_else(|e| panic!("cannot load the embedding model: {e}"))
    });
    let lists_of = |split: &str| -> Vec<List> {
        let path = cache
            .as_ref()
            .map(|p| PathBuf::from(format!("{p}-{split}.json")));
        if let Some(lists) = path.as_deref().and_then(read_cache) {
            return lists;
        }
        let lists = build_lists(&dir, split, model.as_ref());
        if let Some(path) = path {
            let json = serde_json::to_string(&lists).expect("serialise features");
            std::fs::write(&path, json)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        }
        lists
    };
    let train = lists_of("train");
    let with_model = train.iter().all(|l| l.with_model);
    let lexical = fit(&lexical_rows(&train));
    println!("lexical weights: {lexical:?}");
    let combined = with_model.then(|| fit(&combined_rows(&train)));
    if let Some(w) = &combined {
        println!("combined weights: {w:?}");
    }
    report("train", &train, &lexical, combined.as_ref());
    if let Some(split) = &eval {
        let lists = lists_of(split);
        report(split, &lists, &lexical, combined.as_ref());
    }
    if write {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/verify/rank_weights.rs");
        let combined = combined.unwrap_or(COMBINED_WEIGHTS.weights);
        std::fs::write(&path, weights_file(&lexical, &combined))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        println!("wrote {}", path.display());
    } else {
        println!(
            "shipped lexical {:?}\nshipped combined {:?}",
            LEXICAL_WEIGHTS.weights, COMBINED_WEIGHTS.weights
        );
    }
}

fn read_cache(path: &Path) -> Option<Vec<List>> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// The passage lists of one split: every item with gold sentences, as sentences and as
/// chunks (Check-COVID only: Citation-Integrity excerpts are five sentences).
fn build_lists(dir: &Path, split: &str, model: Option<&SentenceModel>) -> Vec<List> {
    let bg = Background::embedded();
    let mut lists = Vec::new();
    let datasets = [
        ("citation_integrity", citation_integrity(dir, split)),
        ("check_covid", check_covid(dir, split)),
    ];
    for (name, mut items) in datasets {
        items.retain(|i| !i.gold.is_empty());
        items.sort_by(|a, b| a.doc.cmp(&b.doc));
        // Sentences (None), and chunks (size, overlap) of Check-COVID abstracts.
        let mut chunkings: Vec<Option<(usize, usize)>> = vec![None];
        if name == "check_covid" {
            chunkings.extend([Some((300, 0)), Some((500, 100))]);
        }
        for chunking in chunkings {
            let set = match chunking {
                None => format!("{name} / sentences"),
                Some((size, overlap)) => format!("{name} / chunk({size}, {overlap})"),
            };
            let passages_of = |item: &Item| match chunking {
                None => retrieval::sentence_passages(item, SEED),
                Some((size, overlap)) => retrieval::chunk_passages(item, size, overlap),
            };
            // Check-COVID abstracts serve several claims: embed each once.
            let mut doc_embeddings: HashMap<String, TokenEmbeddings> = HashMap::new();
            let mut current_doc = String::new();
            for item in &items {
                let text = retrieval::joined(item);
                let gold_ranges = retrieval::gold_ranges(item);
                let passages = passages_of(item);
                if gold_ranges.is_empty() || passages.is_empty() {
                    continue;
                }
                let texts: Vec<&str> = passages.iter().map(|r| &text[r.clone()]).collect();
                let mut measures = measure(bg, &item.claim, &texts);
                if let Some(m) = model {
                    if current_doc != item.doc {
                        doc_embeddings.clear();
                        current_doc.clone_from(&item.doc);
                    }
                    // Sentence passages come in a per-claim order: look them up by text.
                    let missing: Vec<&str> = texts
                        .iter()
                        .copied()
                        .filter(|t| !doc_embeddings.contains_key(*t))
                        .collect();
                    let embedded = m.embed_tokens(&missing).expect("embed passages");
                    for (t, e) in missing.into_iter().zip(embedded) {
                        doc_embeddings.insert(t.to_string(), e);
                    }
                    let docs: Vec<TokenEmbeddings> =
                        texts.iter().map(|t| doc_embeddings[*t].clone()).collect();
                    let claim = m
                        .embed_tokens(&[item.claim.as_str()])
                        .expect("embed claim")
                        .pop()
                        .expect("one embedding");
                    measure_semantic(&mut measures, &claim, &docs);
                }
                lists.push(List {
                    set: set.clone(),
                    measures,
                    with_model: model.is_some(),
                    gold: passages
                        .iter()
                        .map(|p| retrieval::holds_gold(p, &gold_ranges))
                        .collect(),
                });
            }
            eprintln!("{split}: {set} done");
        }
    }
    lists
}

type Rows<const N: usize> = Vec<(Vec<[f64; N]>, Vec<bool>)>;

fn lexical_rows(lists: &[List]) -> Rows<LEXICAL> {
    lists
        .iter()
        .map(|l| (lexical_features(&l.measures), l.gold.clone()))
        .collect()
}

fn combined_rows(lists: &[List]) -> Rows<COMBINED> {
    lists
        .iter()
        .filter(|l| l.with_model)
        .map(|l| (combined_features(&l.measures), l.gold.clone()))
        .collect()
}

/// Listwise softmax fit by full-batch Adam: maximise, per list, the log of the softmax
/// mass on its gold passages, minus an L2 penalty.
fn fit<const N: usize>(rows: &Rows<N>) -> [f64; N] {
    let mut w = [0.0; N];
    let (mut m, mut v) = ([0.0; N], [0.0; N]);
    let (rate, beta1, beta2) = (0.05, 0.9, 0.999);
    for step in 1..=STEPS {
        let mut grad = [0.0; N];
        for (features, gold) in rows.iter().filter(|(_, g)| g.contains(&true)) {
            let scores: Vec<f64> = features
                .iter()
                .map(|f| w.iter().zip(f).map(|(a, b)| a * b).sum())
                .collect();
            let top = scores.iter().copied().fold(f64::MIN, f64::max);
            let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
            let all: f64 = exp.iter().sum();
            let golden: f64 = exp
                .iter()
                .zip(gold)
                .filter(|(_, g)| **g)
                .map(|(e, _)| e)
                .sum();
            for ((f, e), g) in features.iter().zip(&exp).zip(gold) {
                let target = if *g { e / golden } else { 0.0 };
                let p = e / all;
                for (gr, x) in grad.iter_mut().zip(f) {
                    *gr += (p - target) * x;
                }
            }
        }
        let n = rows.len().max(1) as f64;
        for i in 0..N {
            let g = grad[i] / n + 2.0 * L2 * w[i];
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            w[i] -= rate * m_hat / (v_hat.sqrt() + 1e-8);
        }
    }
    w.map(|x| (x * 10_000.0).round() / 10_000.0)
}

/// Whether one of the `K` best-scored passages (ties in list order) holds gold.
fn hit(scores: &[f64], gold: &[bool]) -> bool {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    order.iter().take(K).any(|&i| gold[i])
}

/// Recall@3 per passage set: BM25, the single model features, and the learned scores.
fn report(
    split: &str,
    lists: &[List],
    lexical: &[f64; LEXICAL],
    combined: Option<&[f64; COMBINED]>,
) {
    let mut sets: Vec<&str> = lists.iter().map(|l| l.set.as_str()).collect();
    sets.dedup();
    println!("\n{split}: recall@{K}");
    println!(
        "{:<34} {:>6} {:>8} {:>8} {:>8} {:>8} {:>9}",
        "passages", "claims", "bm25", "learned", "cosine", "maxsim", "combined"
    );
    for set in sets {
        let of_set: Vec<&List> = lists.iter().filter(|l| l.set == set).collect();
        let recall = |score: &dyn Fn(&List) -> Option<Vec<f64>>| -> String {
            let hits: Option<Vec<bool>> = of_set
                .iter()
                .map(|l| score(l).map(|s| hit(&s, &l.gold)))
                .collect();
            hits.map_or("-".into(), |h| {
                format!(
                    "{:.3}",
                    h.iter().filter(|x| **x).count() as f64 / h.len().max(1) as f64
                )
            })
        };
        let linear = |w: &[f64], f: &[f64]| -> f64 { w.iter().zip(f).map(|(a, b)| a * b).sum() };
        let model = |l: &List| l.with_model.then(|| semantic_features(&l.measures));
        println!(
            "{set:<34} {:>6} {:>8} {:>8} {:>8} {:>8} {:>9}",
            of_set.len(),
            recall(&|l| Some(l.measures.iter().map(|m| m.bm25).collect())),
            recall(&|l| Some(
                lexical_features(&l.measures)
                    .iter()
                    .map(|f| linear(lexical, f))
                    .collect()
            )),
            recall(&|l| model(l).map(|s| s.iter().map(|f| f[0]).collect())),
            recall(&|l| model(l).map(|s| s.iter().map(|f| f[3]).collect())),
            recall(&|l| {
                let w = combined?;
                l.with_model.then(|| {
                    combined_features(&l.measures)
                        .iter()
                        .map(|f| linear(w, f))
                        .collect()
                })
            }),
        );
    }
}

fn weights_file(lexical: &[f64; LEXICAL], combined: &[f64; COMBINED]) -> String {
    let list = |w: &[f64]| {
        w.iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "//! Generated by `cargo run --release --example fit_ranker -- --embedding-model DIR \
         --write`\n//! from the training splits; do not edit by hand.\n\n\
         use super::weights::RankWeights;\n\n\
         /// Weights over `rerank::lexical_features`.\n\
         pub const LEXICAL_WEIGHTS: RankWeights<{}> = RankWeights {{\n    weights: [{}],\n}};\n\n\
         /// Weights over `rerank::combined_features` (lexical then sentence-model features).\n\
         pub const COMBINED_WEIGHTS: RankWeights<{}> = RankWeights {{\n    weights: [{}],\n}};\n",
        lexical.len(),
        list(lexical),
        combined.len(),
        list(combined)
    )
}
