//! The labelled reference benchmark (`../shared/bench/refs_dev.jsonl`) as queries for
//! the resolver, and the figures a run is scored by.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use citeproof::index::WorkStore;
use citeproof::model::FileId;
use citeproof::parse::ParseOptions;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::query::{QueryKind, RefQuery};
use citeproof::resolve::resolution::Resolution;
use serde_json::Value;

pub struct BenchCase {
    pub case: String,
    pub input_kind: String,
    pub input: String,
    pub truth: String,
    pub error: Option<String>,
    pub fields_wrong: Vec<String>,
    pub query: RefQuery,
}

impl BenchCase {
    /// Whether the reference cites an identifier (DOI, arXiv id, PMID).
    pub fn has_identifier(&self) -> bool {
        !self.query.cited_ids().is_empty()
    }
}

/// The development cases (`../shared/bench/refs_dev.jsonl`) and their queries, with
/// options that resolve them offline against `index` alone; `None` when ../shared is
/// absent.
pub fn against_index(
    index: std::sync::Arc<dyn WorkStore>,
) -> Option<(Vec<BenchCase>, Vec<RefQuery>, ResolveOptions)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/refs_dev.jsonl");
    if !path.exists() {
        return None;
    }
    let (cases, _) = load(&path);
    let queries = cases.iter().map(|c| c.query.clone()).collect();
    let options = ResolveOptions {
        index: Some(index),
        index_complete: true,
        offline: true,
        ..ResolveOptions::default()
    };
    Some((cases, queries, options))
}

/// Read the cases; BibTeX cases go through the crate's BibTeX parser (a case whose
/// entry the parser cannot read is reported and skipped).
pub fn load(path: &Path) -> (Vec<BenchCase>, Vec<String>) {
    let text = std::fs::read_to_string(path).expect("refs_dev.jsonl");
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("case line");
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let input = s("input");
        let query = if s("input_kind") == "bibtex" {
            let parsed =
                citeproof::parse::bibtex::parse(FileId(0), &input, &ParseOptions::default());
            match parsed.references.first() {
                Some(r) => RefQuery::new(r.fields.clone(), r.raw.clone(), QueryKind::Entry),
                None => {
                    skipped.push(s("case"));
                    continue;
                }
            }
        } else {
            RefQuery::from_string(&input)
        };
        cases.push(BenchCase {
            case: s("case"),
            input_kind: s("input_kind"),
            input,
            truth: s("truth"),
            error: v["error"].as_str().map(str::to_string),
            fields_wrong: v["fields_wrong"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            query,
        });
    }
    (cases, skipped)
}

/// `hit / total` of one figure.
#[derive(Default, Clone, Copy)]
pub struct Share {
    pub hit: usize,
    pub total: usize,
}

impl Share {
    pub fn add(&mut self, ok: bool) {
        self.total += 1;
        self.hit += ok as usize;
    }

    pub fn pct(&self) -> f64 {
        100.0 * self.hit as f64 / self.total.max(1) as f64
    }

    pub fn line(&self, what: &str) -> String {
        format!("{what}: {}/{} = {:.1} %", self.hit, self.total, self.pct())
    }
}

fn status_name(s: Status) -> String {
    serde_json::to_value(s)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

fn field_names(r: &Resolution) -> Vec<String> {
    r.fields_wrong
        .iter()
        .map(|f| f.as_str().to_string())
        .collect()
}

/// The accuracy figures of one run, with the cases that missed.
#[derive(Default)]
pub struct Scores {
    pub verified_false_alarm: Share,
    pub verified_verified: Share,
    pub verified_unverified: Share,
    pub fabricated_not_found: Share,
    pub fabricated_verified: Share,
    pub miscited_right_field: Share,
    pub miscited_exact_fields: Share,
    pub retracted: Share,
    pub statuses: BTreeMap<(String, String), usize>,
    pub misses: Vec<String>,
}

impl Scores {
    pub fn score(cases: &[BenchCase], resolutions: &[Resolution]) -> Scores {
        let mut s = Scores::default();
        for (c, r) in cases.iter().zip(resolutions) {
            let status = status_name(r.status);
            let fields = field_names(r);
            *s.statuses
                .entry((c.truth.clone(), status.clone()))
                .or_default() += 1;
            let ok = match c.truth.as_str() {
                "VERIFIED" => {
                    let alarm = matches!(r.status, Status::Miscited | Status::NotFound);
                    s.verified_false_alarm.add(alarm);
                    s.verified_verified.add(r.status == Status::Verified);
                    s.verified_unverified.add(r.status == Status::Unverified);
                    r.status == Status::Verified
                }
                "FABRICATED" => {
                    s.fabricated_not_found.add(r.status == Status::NotFound);
                    s.fabricated_verified.add(r.status == Status::Verified);
                    r.status == Status::NotFound
                }
                "MISCITED" => {
                    let right = r.status == Status::Miscited
                        && c.fields_wrong.iter().all(|f| fields.contains(f));
                    s.miscited_right_field.add(right);
                    s.miscited_exact_fields
                        .add(r.status == Status::Miscited && fields == c.fields_wrong);
                    right
                }
                "RETRACTED" => {
                    s.retracted.add(r.status == Status::Retracted);
                    r.status == Status::Retracted
                }
                _ => true,
            };
            if !ok {
                let m = r
                    .mismatches
                    .iter()
                    .map(|m| format!("{:?}: {:?} vs {:?}", m.field, m.cited, m.record))
                    .collect::<Vec<_>>();
                s.misses.push(format!(
                    "{} {}/{} -> {status} {fields:?} {m:?} match={:?} tries={:?} failures={:?}\n    input: {}\n    parsed: title={:?} authors={:?} year={:?} venue={:?} doi={:?} arxiv={:?}",
                    c.case,
                    c.truth,
                    c.error.as_deref().unwrap_or("-"),
                    r.work.as_ref().map(|w| (&w.title, w.year, &w.source)),
                    r.sources_tried.iter().map(|t| format!("{}:{:?}", t.source, t.outcome)).collect::<Vec<_>>(),
                    r.failures,
                    c.input,
                    c.query.fields.title,
                    c.query.fields.authors.iter().map(|a| a.family.as_str()).collect::<Vec<_>>(),
                    c.query.fields.year,
                    c.query.fields.venue,
                    c.query.fields.doi,
                    c.query.fields.arxiv,
                ));
            }
        }
        s
    }

    pub fn print(&self) {
        println!(
            "  {}",
            self.verified_false_alarm
                .line("VERIFIED reported miscited or not_found (false alarms; goal <= 1 %)")
        );
        println!(
            "  {}",
            self.verified_verified.line("VERIFIED reported verified")
        );
        println!(
            "  {}",
            self.verified_unverified
                .line("VERIFIED reported unverified")
        );
        println!(
            "  {}",
            self.fabricated_not_found
                .line("FABRICATED reported not_found (goal >= 98 %)")
        );
        println!(
            "  {}",
            self.fabricated_verified
                .line("FABRICATED reported verified")
        );
        println!(
            "  {}",
            self.miscited_right_field
                .line("MISCITED reported miscited naming the labelled field (goal >= 90 %)")
        );
        println!(
            "  {}",
            self.miscited_exact_fields
                .line("MISCITED reported miscited with exactly the labelled field")
        );
        println!(
            "  {}",
            self.retracted
                .line("RETRACTED reported retracted (goal 100 %)")
        );
        println!("  truth -> status counts:");
        for ((truth, status), n) in &self.statuses {
            println!("    {truth:<10} -> {status:<10} {n}");
        }
    }
}
