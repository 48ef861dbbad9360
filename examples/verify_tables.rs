//! Generates the embedded backend's tables from TUNING data only:
//! `src/verify/background_df.tsv` (document frequencies) and `src/verify/calibration.rs`
//! (logistic weights and thresholds).
//!
//! Background documents: the Citation-Integrity evidence documents cited by train
//! claims, the Check-COVID abstracts cited by train claims, and HealthVer dev evidence.
//! Calibration: every train claim paired with its own evidence (label 1) and with a
//! swapped one (label 0); a logistic model over the lexical features; the `unrelated`
//! threshold is the highest that keeps ≤ 1.5 % of originals below it on each dataset's
//! train split, the `related` threshold the lowest that keeps ≤ 1 % of swaps above it.
//!
//! `cargo run --release --example verify_tables` (writes the two files; rebuild after).

// Shared with verify_eval, which also reads the gold evidence this example does not.
#[path = "support/verify_data.rs"]
#[allow(dead_code)]
mod verify_data;

use std::collections::HashSet;
use std::path::Path;

use citeproof::verify::background::Background;
use citeproof::verify::embedded::{Calibration, EmbeddedScorer, FEATURES, Features};
use citeproof::verify::text::terms;
use verify_data::{Item, check_covid, citation_integrity, data_dir, healthver_dev_evidence};

/// Terms seen in fewer background documents are left out of the committed table.
const MIN_DF: u32 = 2;
/// Largest share of originals allowed below the `unrelated` threshold on train.
const ORIGINALS_FLAGGED: f64 = 0.015;
/// Largest share of swaps allowed at or above the `related` threshold on train.
const SWAPS_RELATED: f64 = 0.01;
const SEED: u64 = 0x5EED_C17E;

fn main() {
    let Some(dir) = data_dir() else {
        eprintln!("skipping: ../shared/data/claim_verification absent (../shared absent)");
        return;
    };
    let ci = citation_integrity(&dir, "train");
    let cc = check_covid(&dir, "train");

    let mut docs: Vec<Vec<String>> = Vec::new();
    let mut seen = HashSet::new();
    for item in ci.iter().chain(&cc) {
        if seen.insert(item.doc.clone()) {
            docs.push(terms(&item.work_text().join(" ")));
        }
    }
    let mut hv = HashSet::new();
    for evidence in healthver_dev_evidence(&dir) {
        if hv.insert(evidence.clone()) {
            docs.push(terms(&evidence));
        }
    }
    let full = Background::from_documents(docs.iter().map(Vec::as_slice));
    // Use the table exactly as it will be committed (rare terms dropped).
    let table = full.to_tsv(MIN_DF);
    let background = Background::parse(&table);
    println!("background: {} documents", background.docs());

    let mut per_dataset = Vec::new();
    for (name, items) in [("citation_integrity", &ci), ("check_covid", &cc)] {
        per_dataset.push((name, pairs(&background, items)));
    }
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for (_, (orig, swap)) in &per_dataset {
        for f in orig {
            xs.push(f.to_array());
            ys.push(1.0);
        }
        for f in swap {
            xs.push(f.to_array());
            ys.push(0.0);
        }
    }
    let (weights, bias) = fit_logistic(&xs, &ys);
    let mut calibration = Calibration {
        weights,
        bias,
        unrelated_below: 0.0,
        related_from: 1.0,
    };
    let mut unrelated_below = f64::INFINITY;
    let mut related_from: f64 = 0.0;
    for (name, (orig, swap)) in &per_dataset {
        let mut o: Vec<f64> = orig.iter().map(|f| calibration.score(f)).collect();
        let mut s: Vec<f64> = swap.iter().map(|f| calibration.score(f)).collect();
        o.sort_by(f64::total_cmp);
        s.sort_by(f64::total_cmp);
        let low = o[((o.len() as f64) * ORIGINALS_FLAGGED).floor() as usize];
        let high = s[((s.len() as f64) * (1.0 - SWAPS_RELATED)).ceil() as usize - 1];
        println!("{name}: 1st percentile of originals {low:.4}, 99th of swaps {high:.4}");
        unrelated_below = unrelated_below.min(low);
        related_from = related_from.max(high);
    }
    calibration.unrelated_below = round4(unrelated_below);
    calibration.related_from = round4(related_from.max(unrelated_below));
    for (name, (orig, swap)) in &per_dataset {
        let flagged = |fs: &[Features]| {
            fs.iter()
                .filter(|f| calibration.score(f) < calibration.unrelated_below)
                .count() as f64
                / fs.len() as f64
        };
        println!(
            "{name} train: swaps flagged {:.1} %, originals flagged {:.1} %",
            100.0 * flagged(swap),
            100.0 * flagged(orig)
        );
    }

    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/verify");
    std::fs::write(src.join("background_df.tsv"), table).expect("write background table");
    let calibration_file = src.join("calibration.rs");
    std::fs::write(&calibration_file, render(&calibration)).expect("write calibration");
    // Keep the generated file identical to what `cargo fmt` would leave.
    let formatted = std::process::Command::new("rustfmt")
        .args(["--edition", "2024"])
        .arg(&calibration_file)
        .status()
        .is_ok_and(|s| s.success());
    if !formatted {
        eprintln!("note: rustfmt unavailable; run `cargo fmt` before committing");
    }
    println!("wrote src/verify/background_df.tsv and src/verify/calibration.rs");
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// Features of every item with its own evidence and with its swap partner's.
fn pairs(background: &Background, items: &[Item]) -> (Vec<Features>, Vec<Features>) {
    let placeholder = Calibration::embedded();
    let scorer = EmbeddedScorer::new(background, placeholder);
    let partners = verify_data::swap_partners(items, SEED);
    let mut orig = Vec::new();
    let mut swap = Vec::new();
    for (item, &partner) in items.iter().zip(&partners) {
        let (f, _, _, ok) = scorer.measure(&item.claim, &item.work_text());
        let (g, _, _, ok2) = scorer.measure(&item.claim, &items[partner].work_text());
        if ok && ok2 {
            orig.push(f);
            swap.push(g);
        }
    }
    (orig, swap)
}

/// L2-regularised logistic regression by Newton's method on standardised features;
/// returns weights and bias on the raw feature scale.
fn fit_logistic(xs: &[[f64; FEATURES]], ys: &[f64]) -> ([f64; FEATURES], f64) {
    let n = xs.len() as f64;
    let mut mean = [0.0; FEATURES];
    let mut sd = [0.0; FEATURES];
    for x in xs {
        for j in 0..FEATURES {
            mean[j] += x[j] / n;
        }
    }
    for x in xs {
        for j in 0..FEATURES {
            sd[j] += (x[j] - mean[j]).powi(2) / n;
        }
    }
    for s in &mut sd {
        *s = s.sqrt().max(1e-9);
    }
    const D: usize = FEATURES + 1;
    let z: Vec<[f64; D]> = xs
        .iter()
        .map(|x| {
            let mut row = [1.0; D];
            for j in 0..FEATURES {
                row[j + 1] = (x[j] - mean[j]) / sd[j];
            }
            row
        })
        .collect();
    let lambda = 1e-3 * n;
    let mut beta = [0.0; D];
    for _ in 0..50 {
        let mut grad = [0.0; D];
        let mut hess = [[0.0; D]; D];
        for (row, &y) in z.iter().zip(ys) {
            let p = 1.0 / (1.0 + (-dot(row, &beta)).exp());
            let w = (p * (1.0 - p)).max(1e-9);
            for a in 0..D {
                grad[a] += (p - y) * row[a];
                for b in 0..D {
                    hess[a][b] += w * row[a] * row[b];
                }
            }
        }
        for a in 1..D {
            grad[a] += lambda * beta[a];
            hess[a][a] += lambda;
        }
        let step = solve(hess, grad);
        let mut change: f64 = 0.0;
        for a in 0..D {
            beta[a] -= step[a];
            change = change.max(step[a].abs());
        }
        if change < 1e-9 {
            break;
        }
    }
    let mut weights = [0.0; FEATURES];
    let mut bias = beta[0];
    for j in 0..FEATURES {
        weights[j] = round4(beta[j + 1] / sd[j]);
        bias -= beta[j + 1] * mean[j] / sd[j];
    }
    (weights, round4(bias))
}

fn dot<const D: usize>(a: &[f64; D], b: &[f64; D]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solve `a x = b` by Gaussian elimination with partial pivoting.
fn solve<const D: usize>(mut a: [[f64; D]; D], mut b: [f64; D]) -> [f64; D] {
    for col in 0..D {
        let pivot = (col..D)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let diag = a[col][col];
        if diag.abs() < 1e-12 {
            continue;
        }
        for row in col + 1..D {
            let factor = a[row][col] / diag;
            let pivot_row = a[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= factor * p;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; D];
    for row in (0..D).rev() {
        let rest: f64 = (row + 1..D).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row].abs() < 1e-12 {
            0.0
        } else {
            (b[row] - rest) / a[row][row]
        };
    }
    x
}

fn render(c: &Calibration) -> String {
    let weights: Vec<String> = c.weights.iter().map(|w| format!("{w:?}")).collect();
    format!(
        "//! Generated by `cargo run --release --example verify_tables` from tuning data;\n\
         //! do not edit by hand. Feature order: see `Features::to_array`.\n\
         \n\
         use super::embedded::Calibration;\n\
         \n\
         pub const EMBEDDED: Calibration = Calibration {{\n    \
             weights: [{}],\n    \
             bias: {:?},\n    \
             unrelated_below: {:?},\n    \
             related_from: {:?},\n\
         }};\n",
        weights.join(", "),
        c.bias,
        c.unrelated_below,
        c.related_from
    )
}
