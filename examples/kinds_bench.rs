//! Every kind of work: the hand-written development set `fixtures/kinds/cases.jsonl`
//! (real books, theses, RFCs, standards, packages, pages… and fabricated
//! counterparts) resolved against the mock world serving `fixtures/kinds/world.jsonl`
//! (and `../shared/data/world/works.jsonl` too when present, so searches meet real
//! scholarly records), then each real string cited in an answer and `clean`ed.
//!
//! ```text
//! cargo run --release --example kinds_bench -- [--no-shared-world] [--misses]
//! ```
//!
//! Prints, per kind: real works accused (not found, mis-cited, an identifier said to
//! name another work, a bad ISBN) and removed by `clean` — the goal is 0 —, and
//! fabricated counterparts caught (not found, identifier naming another work, bad
//! ISBN, unreleased version) or only flagged as not indexed.

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use citeproof::cache::Cache;
use citeproof::clean::{
    CleanOptions, CleanRequest, Cleaner, CleanerSettings, Taken, clean_blocking,
};
use citeproof::model::FileId;
use citeproof::net::Rate;
use citeproof::parse::ParseOptions;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::mismatch::Field;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::query::{QueryKind, RefQuery};
use citeproof::resolve::resolution::Resolution;
use citeproof::resolve::sources::SourcesSettings;
use clap::Parser;
use serde_json::Value;
use support::{MockConfig, MockWorld};

#[derive(Parser)]
struct Args {
    /// Leave out the shared world of 5,008 real scholarly works.
    #[arg(long)]
    no_shared_world: bool,
    /// Print every real work accused and every fabrication missed.
    #[arg(long)]
    misses: bool,
}

struct Case {
    id: String,
    kind: String,
    real: bool,
    string: bool,
    input: String,
    fabrication: String,
    query: RefQuery,
}

fn load(path: &PathBuf) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("case line");
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            let input = s("input");
            let string = s("input_kind") != "bibtex";
            let query = if string {
                RefQuery::from_string(&input)
            } else {
                let parsed =
                    citeproof::parse::bibtex::parse(FileId(0), &input, &ParseOptions::default());
                let r = parsed
                    .references
                    .first()
                    .unwrap_or_else(|| panic!("{}: BibTeX not read", s("case")));
                RefQuery::new(r.fields.clone(), r.raw.clone(), QueryKind::Entry)
            };
            Case {
                id: s("case"),
                kind: s("kind"),
                real: s("truth") == "REAL",
                string,
                input,
                fabrication: s("fabrication"),
                query,
            }
        })
        .collect()
}

/// What a verdict says about the cited work, in the bench's terms.
fn outcome(case: &Case, r: &Resolution) -> &'static str {
    let version = r.mismatches.iter().any(|m| m.field == Field::Version);
    let named_other = r.identifier_work.is_some()
        || r.mismatches.iter().any(|m| {
            m.kind == citeproof::resolve::mismatch::MismatchKind::IdentifierNamesAnotherWork
        });
    if case.query.fields.invalid_isbn.is_some() {
        return "invalid_isbn";
    }
    match r.status {
        Status::NotFound => "not_found",
        _ if named_other => "identifier_names_another_work",
        _ if version => "unreleased_version",
        Status::Miscited => "miscited",
        Status::Retracted => "retracted",
        Status::Verified => "verified",
        Status::NotIndexed => "not_indexed",
        Status::Unverified => "unverified",
    }
}

fn accusation(outcome: &str) -> bool {
    matches!(
        outcome,
        "not_found"
            | "identifier_names_another_work"
            | "unreleased_version"
            | "miscited"
            | "invalid_isbn"
    )
}

/// The verdict's particulars: the record, the wrong fields, the sources asked.
fn detail(r: &Resolution) -> String {
    let mut parts: Vec<String> = r
        .mismatches
        .iter()
        .map(|m| format!("{}: {} / {}", m.field.as_str(), m.cited, m.record))
        .collect();
    if let Some(w) = &r.work {
        parts.push(format!(
            "record [{}] \"{}\" {:?}",
            w.source, w.title, w.year
        ));
    }
    parts.push(
        r.sources_tried
            .iter()
            .map(|t| format!("{}={:?}", t.source, t.outcome))
            .collect::<Vec<_>>()
            .join(","),
    );
    format!("({})", parts.join("; "))
}

#[derive(Default)]
struct Row {
    real: usize,
    accused: usize,
    removed: usize,
    real_strings: usize,
    verified: usize,
    not_indexed: usize,
    fabricated: usize,
    caught: usize,
    flagged: usize,
}

fn main() {
    let args = Args::parse();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cases = load(&root.join("fixtures/kinds/cases.jsonl"));
    let mut worlds = vec![root.join("fixtures/kinds/world.jsonl")];
    if let Some(shared) = support::shared_world_path().filter(|_| !args.no_shared_world) {
        worlds.push(shared);
    }
    let world = MockWorld::start(MockConfig::files(worlds));
    let mut sources = SourcesSettings::all_at(world.origin()).expect("mock base URLs");
    for s in &mut sources.sources {
        s.rate = Some(Rate::per_second(10_000));
        s.max_concurrency = Some(32);
        s.timeout = Duration::from_secs(5);
    }
    let cache_dir = tempfile::tempdir().expect("temporary cache");
    let options = ResolveOptions {
        sources: sources.clone(),
        cache: Some(Cache::open(cache_dir.path()).expect("cache")),
        ..ResolveOptions::default()
    };
    let queries: Vec<RefQuery> = cases.iter().map(|c| c.query.clone()).collect();
    let (resolutions, _) = resolve_blocking(options, &queries).expect("resolver");
    let cleaner = Cleaner::new(CleanerSettings {
        defaults: CleanOptions::default(),
        resolve: Some(ResolveOptions {
            sources,
            cache: Some(Cache::open(cache_dir.path()).expect("cache")),
            ..ResolveOptions::default()
        }),
        verify: None,
        ..CleanerSettings::default()
    })
    .expect("cleaner");
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut misses = Vec::new();
    for (case, r) in cases.iter().zip(&resolutions) {
        let o = outcome(case, r);
        let row = rows.entry(case.kind.clone()).or_default();
        if case.real {
            row.real += 1;
            row.verified += usize::from(o == "verified");
            row.not_indexed += usize::from(o == "not_indexed");
            if accusation(o) {
                row.accused += 1;
                misses.push(format!(
                    "ACCUSED {} [{}] {o} {}: {}",
                    case.id,
                    case.kind,
                    detail(r),
                    case.input.replace('\n', " ")
                ));
            }
            if case.string {
                row.real_strings += 1;
                // A sentence about the cited work, as an answer citing it would have.
                let topic = r
                    .work
                    .as_ref()
                    .map(|w| w.title.clone())
                    .or_else(|| case.query.fields.title.clone())
                    .unwrap_or_default();
                let request = CleanRequest {
                    answer: format!(
                        "{topic} is the standard reference on this [1].\n\nReferences\n\n[1] {}\n",
                        case.input
                    ),
                    ..CleanRequest::default()
                };
                let cleaned = clean_blocking(&cleaner, &request).expect("clean");
                if let Some(c) = cleaned
                    .report
                    .citations
                    .iter()
                    .find(|c| c.action == Taken::Removed)
                {
                    row.removed += 1;
                    misses.push(format!(
                        "REMOVED {} [{}] {}: {}",
                        case.id, case.kind, c.reason, case.input
                    ));
                }
            }
        } else {
            row.fabricated += 1;
            if accusation(o) {
                row.caught += 1;
            } else {
                if matches!(o, "not_indexed" | "unverified") {
                    row.flagged += 1;
                }
                misses.push(format!(
                    "MISSED {} [{} / {}] {o}: {}",
                    case.id,
                    case.kind,
                    case.fabrication,
                    case.input.replace('\n', " ")
                ));
            }
        }
    }
    println!(
        "| kind | real | accused | removed by clean (of strings) | verified | not indexed | fabricated | caught | flagged only |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut total = Row::default();
    for (kind, row) in &rows {
        println!(
            "| {kind} | {} | {} | {} ({}) | {} | {} | {} | {} | {} |",
            row.real,
            row.accused,
            row.removed,
            row.real_strings,
            row.verified,
            row.not_indexed,
            row.fabricated,
            row.caught,
            row.flagged
        );
        total.real += row.real;
        total.accused += row.accused;
        total.removed += row.removed;
        total.real_strings += row.real_strings;
        total.verified += row.verified;
        total.not_indexed += row.not_indexed;
        total.fabricated += row.fabricated;
        total.caught += row.caught;
        total.flagged += row.flagged;
    }
    println!(
        "| **all** | {} | **{}** | **{}** ({}) | {} | {} | {} | **{}** | {} |",
        total.real,
        total.accused,
        total.removed,
        total.real_strings,
        total.verified,
        total.not_indexed,
        total.fabricated,
        total.caught,
        total.flagged
    );
    println!(
        "\nupstream requests: {} ({} cases)",
        world.total_requests(),
        cases.len()
    );
    if args.misses {
        for m in &misses {
            println!("{m}");
        }
    }
}
