//! HALLMARK (dev_public split only) through the resolver, against the mock world serving
//! `../shared/data/world/works.jsonl` plus the split's VALID entries as works (the real
//! papers the benchmark cites are not in the world; without them every entry would be
//! "not found").
//!
//! ```text
//! cargo run --release --example hallmark_bench [-- --misses]
//! ```
//!
//! Prints, per label and per hallucination type, the share flagged (not found,
//! mis-cited or retracted) and the share left unverified. The VALID figure is a
//! consistency check (those works are served by construction); the HALLUCINATED figure
//! counts a perturbed real paper whose original is not served as flagged too ("not
//! found" where "mis-cited" would name the error better).

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;

use citeproof::model::FileId;
use citeproof::net::Rate;
use citeproof::parse::ParseOptions;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::query::{QueryKind, RefQuery};
use citeproof::resolve::sources::SourcesSettings;
use serde_json::Value;
use support::{Author, MockConfig, MockWorld, Work};

struct Entry {
    label: String,
    kind: String,
    query: RefQuery,
}

/// The entry as BibTeX, read by the crate's parser.
fn query_of(v: &Value) -> Option<RefQuery> {
    let fields = v["fields"].as_object()?;
    let kind = v["bibtex_type"].as_str().unwrap_or("misc");
    let key = v["bibtex_key"].as_str().unwrap_or("k");
    let mut text = format!("@{kind}{{{key},\n");
    for (name, value) in fields {
        let value = value.as_str().unwrap_or_default().replace(['{', '}'], "");
        text.push_str(&format!("  {name} = {{{value}}},\n"));
    }
    text.push_str("}\n");
    let parsed = citeproof::parse::bibtex::parse(FileId(0), &text, &ParseOptions::default());
    let r = parsed.references.first()?;
    Some(RefQuery::new(
        r.fields.clone(),
        r.raw.clone(),
        QueryKind::Entry,
    ))
}

/// A VALID entry as a world work.
fn work_of(n: usize, q: &RefQuery) -> Option<Work> {
    let f = &q.fields;
    let title = f.title.clone()?;
    let line = serde_json::json!({
        "id": format!("h{n:06}"), "doi": f.doi, "arxiv": f.arxiv, "pmid": f.pmid, "pmcid": f.pmcid,
        "s2": null, "openalex": null, "title": title,
        "authors": f.authors.iter().map(|a| Author { given: a.given.clone(), family: a.family.clone() }).collect::<Vec<_>>(),
        "year": f.year, "venue": f.venue, "type": null, "abstract": null, "is_retracted": false,
        "oa_url": null, "sources": ["hallmark"],
    });
    serde_json::from_value(line).ok()
}

fn main() {
    let misses = std::env::args().any(|a| a == "--misses");
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    let split = shared.join("hallucinated_refs/hallmark/dev_public.jsonl");
    let Ok(text) = std::fs::read_to_string(&split) else {
        eprintln!(
            "hallmark_bench: {} is absent; nothing to measure",
            split.display()
        );
        return;
    };
    let mut entries = Vec::new();
    let mut unread = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("HALLMARK line");
        match query_of(&v) {
            Some(query) => entries.push(Entry {
                label: v["label"].as_str().unwrap_or("?").to_string(),
                kind: v["hallucination_type"].as_str().unwrap_or("-").to_string(),
                query,
            }),
            None => unread += 1,
        }
    }
    let world_text =
        std::fs::read_to_string(shared.join("world/works.jsonl")).expect("world works");
    let mut works: Vec<Work> = world_text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("world line"))
        .collect();
    let valid: Vec<Work> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.label == "VALID")
        .filter_map(|(i, e)| work_of(i, &e.query))
        .collect();
    let served_valid = valid.len();
    works.extend(valid);
    let world = MockWorld::start(MockConfig::works(works));
    let mut sources = SourcesSettings::all_at(world.origin()).expect("mock base URLs");
    for s in &mut sources.sources {
        s.rate = Some(Rate::per_second(10_000));
        s.max_concurrency = Some(64);
    }
    let options = ResolveOptions {
        sources,
        ..ResolveOptions::default()
    };
    let queries: Vec<RefQuery> = entries.iter().map(|e| e.query.clone()).collect();
    let (resolutions, _) = resolve_blocking(options, &queries).expect("resolver");
    println!(
        "HALLMARK dev_public: {} entries read ({unread} unreadable), {served_valid} VALID entries served as works",
        entries.len()
    );
    let mut table: BTreeMap<(String, String), (usize, usize, usize)> = BTreeMap::new();
    for (e, r) in entries.iter().zip(&resolutions) {
        let flagged = matches!(
            r.status,
            Status::NotFound | Status::Miscited | Status::Retracted
        );
        let unverified = r.status == Status::Unverified;
        for key in [
            (e.label.clone(), "all".to_string()),
            (e.label.clone(), e.kind.clone()),
        ] {
            let row = table.entry(key).or_default();
            row.0 += 1;
            row.1 += flagged as usize;
            row.2 += unverified as usize;
        }
        if misses && (flagged == (e.label == "VALID")) {
            println!(
                "miss {} {} -> {:?} {:?} {:?}",
                e.label, e.kind, r.status, r.fields_wrong, e.query.fields.title
            );
        }
    }
    for ((label, kind), (n, flagged, unverified)) in &table {
        println!(
            "  {label:<12} {kind:<24} {n:>4}  flagged {flagged:>4} ({:.1} %)  unverified {unverified}",
            100.0 * *flagged as f64 / *n as f64
        );
    }
}
