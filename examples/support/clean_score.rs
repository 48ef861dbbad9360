//! Scoring cleaned answers against their labels: removal precision and recall,
//! not-found recall, what happened to each kind of citation, markers the cleaner saw
//! that were never planted, look-alikes left untouched.
#![allow(dead_code)]

use std::collections::BTreeMap;

use citeproof::clean::{Cleaned, Status, Taken};

use super::clean_gen::{Case, Kind};

/// One labelled marker number and what the cleaner did with it.
#[derive(Debug, Clone)]
pub struct Decision {
    pub kind: Kind,
    pub status: Option<Status>,
    pub action: Option<Taken>,
    pub similarity: Option<f64>,
    pub note: String,
}

#[derive(Debug, Default)]
pub struct Scores {
    pub labels: usize,
    pub decisions: Vec<Decision>,
    /// Report entries at places no label is (markers that were never planted).
    pub unplanted: usize,
    pub decoys: usize,
    pub decoys_intact: usize,
    pub misses: Vec<String>,
}

impl Scores {
    /// Decisions of a closed-world run, with the kinds as labelled.
    pub fn closed(cases: &[Case], cleaned: &[Cleaned]) -> Scores {
        Scores::collect(cases, cleaned, |k| k)
    }

    /// Decisions with each label's kind mapped (the open world's expectations).
    pub fn collect(cases: &[Case], cleaned: &[Cleaned], expect: impl Fn(Kind) -> Kind) -> Scores {
        let mut s = Scores::default();
        for (case, out) in cases.iter().zip(cleaned) {
            for label in &case.labels {
                s.labels += 1;
                let entry = out
                    .report
                    .citations
                    .iter()
                    .find(|c| c.span == label.span && c.number == Some(label.number));
                let kind = expect(label.kind);
                let d = Decision {
                    kind,
                    status: entry.map(|e| e.status),
                    action: entry.map(|e| e.action),
                    similarity: entry.and_then(|e| e.similarity),
                    note: entry
                        .map(|e| e.reason.clone())
                        .unwrap_or_else(|| "marker not read".into()),
                };
                let wrong = match d.action {
                    Some(Taken::Removed) => !kind.should_remove(),
                    Some(Taken::Marked) => kind != Kind::Retracted,
                    _ => kind.should_remove() || kind == Kind::Retracted,
                };
                if wrong {
                    s.misses.push(format!(
                        "{} [{}] {}: {:?} {:?} sim {:?}: {}",
                        case.id,
                        label.number,
                        kind.as_str(),
                        d.status,
                        d.action,
                        d.similarity.map(|x| (x * 1000.0).round() / 1000.0),
                        d.note
                    ));
                }
                s.decisions.push(d);
            }
            s.unplanted += out
                .report
                .citations
                .iter()
                .filter(|c| {
                    !case
                        .labels
                        .iter()
                        .any(|l| l.span == c.span && Some(l.number) == c.number)
                })
                .count();
            for decoy in &case.decoys {
                s.decoys += 1;
                s.decoys_intact += usize::from(out.cleaned.contains(decoy.as_str()));
            }
        }
        s
    }

    /// (true removals, false removals, missed removals).
    pub fn removal_counts(&self) -> (usize, usize, usize) {
        let mut tp = 0;
        let mut fp = 0;
        let mut missed = 0;
        for d in &self.decisions {
            let removed = d.action == Some(Taken::Removed);
            match (removed, d.kind.should_remove()) {
                (true, true) => tp += 1,
                (true, false) => fp += 1,
                (false, true) => missed += 1,
                _ => {}
            }
        }
        (tp, fp, missed)
    }

    pub fn print(&self) {
        let (tp, fp, missed) = self.removal_counts();
        let ratio = |a: usize, b: usize| {
            if b == 0 {
                f64::NAN
            } else {
                a as f64 / b as f64
            }
        };
        println!(
            "  removal precision {:.4} ({tp}/{}), recall {:.4} ({tp}/{})",
            ratio(tp, tp + fp),
            tp + fp,
            ratio(tp, tp + missed),
            tp + missed
        );
        let absent: Vec<&Decision> = self
            .decisions
            .iter()
            .filter(|d| d.kind.is_absent())
            .collect();
        let found_absent = absent
            .iter()
            .filter(|d| d.status == Some(Status::NotFound))
            .count();
        println!(
            "  not-found recall {:.4} ({found_absent}/{})",
            ratio(found_absent, absent.len()),
            absent.len()
        );
        let mut by_kind: BTreeMap<Kind, KindTally> = BTreeMap::new();
        for d in &self.decisions {
            let e = by_kind.entry(d.kind).or_default();
            e.0 += 1;
            e.1 += usize::from(d.action == Some(Taken::Removed));
            e.2 += usize::from(d.action == Some(Taken::Marked));
            *e.3.entry(d.status.map_or("unread", |s| s.as_str()))
                .or_default() += 1;
        }
        println!(
            "  {:<14} {:>6} {:>8} {:>7}  statuses",
            "kind", "n", "removed", "marked"
        );
        for (kind, (n, removed, marked, statuses)) in &by_kind {
            let statuses: Vec<String> = statuses.iter().map(|(s, c)| format!("{s} {c}")).collect();
            println!(
                "  {:<14} {n:>6} {:>7.1}% {:>6.1}%  {}",
                kind.as_str(),
                100.0 * *removed as f64 / *n as f64,
                100.0 * *marked as f64 / *n as f64,
                statuses.join(", ")
            );
        }
        println!("  similarity quantiles (p5 p25 p50 p75 p95) of the found articles:");
        for kind in Kind::ALL {
            let mut sims: Vec<f64> = self
                .decisions
                .iter()
                .filter(|d| d.kind == kind)
                .filter_map(|d| d.similarity)
                .collect();
            if sims.is_empty() {
                continue;
            }
            sims.sort_by(f64::total_cmp);
            let q = |p: f64| sims[((sims.len() - 1) as f64 * p).round() as usize];
            println!(
                "    {:<14} {:.3} {:.3} {:.3} {:.3} {:.3} (n={})",
                kind.as_str(),
                q(0.05),
                q(0.25),
                q(0.5),
                q(0.75),
                q(0.95),
                sims.len()
            );
        }
        println!(
            "  markers read that were never planted: {}; look-alikes left intact: {}/{}",
            self.unplanted, self.decoys_intact, self.decoys
        );
    }

    /// Precision and recall of removal if the threshold were `t` (found articles
    /// below it removed), for a range of thresholds.
    pub fn sweep(&self) {
        println!("  threshold sweep (found articles removed below t):");
        for t in [
            0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6,
        ] {
            let mut tp = 0;
            let mut fp = 0;
            let mut missed = 0;
            for d in &self.decisions {
                let removed = match d.status {
                    Some(Status::NotFound) => true,
                    Some(Status::Valid | Status::Mismatch | Status::Retracted) => {
                        d.similarity.is_some_and(|s| s < t)
                    }
                    _ => false,
                };
                match (removed, d.kind.should_remove()) {
                    (true, true) => tp += 1,
                    (true, false) => fp += 1,
                    (false, true) => missed += 1,
                    _ => {}
                }
            }
            println!(
                "    t={t:<5} precision {:.4} recall {:.4} (false removals {fp}, missed {missed})",
                tp as f64 / (tp + fp).max(1) as f64,
                tp as f64 / (tp + missed).max(1) as f64
            );
        }
    }
}

/// Per kind of citation: how many, removed, marked, and the statuses given.
type KindTally<'a> = (usize, usize, usize, BTreeMap<&'a str, usize>);
