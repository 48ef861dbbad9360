//! The judge's table for the clean benchmark: per set of answers (copied from
//! abstracts, paraphrased by people), mismatch recall — easy (the sentence's work is
//! of another field) and hard (of the same field) — valid citations kept, the
//! precision of removals among valid and mismatched citations, citations left
//! doubtful; then the curve over the removal threshold on the judge's support.
#![allow(dead_code)]

use citeproof::clean::{Status, Taken};

use super::clean_gen::Kind;
use super::clean_score::{Decision, Scores};

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

/// (valid kept, valid, easy removed, easy, hard removed, hard, doubtful) when
/// everything with support below `t` is removed (`None`: as the cleaner decided).
fn tally(decisions: &[Decision], t: Option<f64>) -> [usize; 7] {
    let mut out = [0usize; 7];
    for d in decisions {
        let removed = match t {
            None => d.action == Some(Taken::Removed),
            Some(t) => match d.status {
                Some(Status::NotFound) => true,
                _ => d.similarity.is_some_and(|s| s < t),
            },
        };
        match d.kind {
            Kind::Valid => {
                out[1] += 1;
                out[0] += usize::from(!removed);
            }
            Kind::MismatchEasy => {
                out[3] += 1;
                out[2] += usize::from(removed);
            }
            Kind::MismatchHard => {
                out[5] += 1;
                out[4] += usize::from(removed);
            }
            _ => continue,
        }
        out[6] += usize::from(d.status == Some(Status::Doubtful));
    }
    out
}

fn row(name: &str, c: [usize; 7]) {
    let [kept, valid, easy_r, easy, hard_r, hard, doubtful] = c;
    let removed_right = easy_r + hard_r;
    let removed_wrong = valid - kept;
    println!(
        "  {name:<24} {:>6.3} ({kept}/{valid}) {:>6.3} ({easy_r}/{easy}) {:>6.3} ({hard_r}/{hard}) {:>6.3} ({removed_right}/{}) {:>9.3} {:>8}",
        ratio(kept, valid),
        ratio(easy_r, easy),
        ratio(hard_r, hard),
        ratio(removed_right, easy + hard),
        easy + hard,
        ratio(removed_right, removed_right + removed_wrong),
        doubtful
    );
}

/// Print the table for each named set, then each set's curve.
pub fn print(sets: &[(&str, &Scores)]) {
    println!(
        "  {:<24} {:>17} {:>17} {:>17} {:>17} {:>9} {:>8}",
        "set", "valid kept", "recall easy", "recall hard", "recall all", "precision", "doubtful"
    );
    for (name, scores) in sets {
        row(name, tally(&scores.decisions, None));
    }
    for (name, scores) in sets {
        println!("  curve, {name} (removed when support < t):");
        for t in [
            0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
        ] {
            row(&format!("t={t}"), tally(&scores.decisions, Some(t)));
        }
    }
}
