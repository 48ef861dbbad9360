//! Resolution benchmark: the labelled development references (`../shared/bench/
//! refs_dev.jsonl`) resolved against the mock scholarly world serving
//! `../shared/data/world/works.jsonl`, started in this process.
//!
//! ```text
//! cargo run --release --example resolve_bench -- [--subset all|ids|title] [--truth T]
//!     [--latency-ms 100] [--fault-rate 0.2] [--seed 7] [--fast] [--mailto me@x.org]
//!     [--timeout-s 30] [--warm] [--misses] [--mock-limits] [--against-fault-free]
//! ```
//!
//! Prints the accuracy figures, the time taken, references per second and upstream
//! requests per reference; `--warm` runs the same set again on the cache and prints the
//! requests the rerun made (the goal is none). `--fast` lifts every rate limit (for
//! quick accuracy runs); without it the sources' published limits apply.
//! `--mock-limits` makes the mock enforce the published limits too (answering 429 when
//! a source is asked faster), as the real services do. `--against-fault-free` (with
//! `--fault-rate`) first resolves the same set on a mock without faults and then
//! compares reference by reference: a real reference accused or a fabricated one
//! verified only under faults is counted, and so is every status the faults changed.

#[path = "support/bench_cases.rs"]
mod bench_cases;
#[path = "../tests/support/mod.rs"]
mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use citeproof::cache::Cache;
use citeproof::net::Rate;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::query::RefQuery;
use citeproof::resolve::resolution::Resolution;
use citeproof::resolve::sources::SourcesSettings;
use clap::Parser;
use support::{FaultRule, Latency, MockConfig, MockWorld, Source};

use bench_cases::{BenchCase, Scores};

#[derive(Parser)]
struct Args {
    /// Which references: all, those citing an identifier (ids), or title-only ones.
    #[arg(long, default_value = "all")]
    subset: String,
    /// Only reference strings or only BibTeX entries.
    #[arg(long)]
    kind: Option<String>,
    /// Only cases with this label (VERIFIED, MISCITED, FABRICATED, RETRACTED).
    #[arg(long)]
    truth: Option<String>,
    #[arg(long, default_value_t = 0)]
    latency_ms: u64,
    /// Share of requests (0–1) failing in one of the mock's fault kinds.
    #[arg(long, default_value_t = 0.0)]
    fault_rate: f64,
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Lift every rate limit.
    #[arg(long)]
    fast: bool,
    /// Contact e-mail (Crossref's polite pool: 10 requests/s instead of 5).
    #[arg(long)]
    mailto: Option<String>,
    /// Total time for one attempt of one request.
    #[arg(long, default_value_t = 30)]
    timeout_s: u64,
    /// Run again on the warm cache and report the upstream requests it made.
    #[arg(long)]
    warm: bool,
    /// Print every case that missed its expected verdict.
    #[arg(long)]
    misses: bool,
    /// The mock enforces each service's published rate limit (429 beyond it).
    #[arg(long)]
    mock_limits: bool,
    /// With --fault-rate: also resolve on a fault-free mock and compare per reference.
    #[arg(long)]
    against_fault_free: bool,
}

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    dir.join("bench/refs_dev.jsonl").exists().then_some(dir)
}

/// The mock world (with `fault_rate` of every source's requests failing) and resolver
/// options pointing at it, with a fresh cache (kept alive by the returned directory).
fn mock_and_options(
    args: &Args,
    shared: &std::path::Path,
    fault_rate: f64,
) -> (MockWorld, ResolveOptions, tempfile::TempDir) {
    let mut config = MockConfig::files(vec![shared.join("data/world/works.jsonl")])
        .seed(args.seed)
        .latency_all(Latency::fixed_ms(args.latency_ms));
    if args.mock_limits {
        config = config.published_rate_limits();
    }
    if fault_rate > 0.0 {
        for source in Source::ALL.into_iter().filter(|s| *s != Source::Landing) {
            config = config.fault(source, FaultRule::any_fault(fault_rate));
        }
    }
    let world = MockWorld::start(config);
    let cache_dir = tempfile::tempdir().expect("temporary cache directory");
    let cache = Cache::open(cache_dir.path()).expect("cache");
    let mut sources = SourcesSettings::all_at(world.origin()).expect("mock base URLs");
    for s in &mut sources.sources {
        s.mailto = args.mailto.clone();
        s.timeout = Duration::from_secs(args.timeout_s);
        if args.fast {
            s.rate = Some(Rate::per_second(10_000));
            s.max_concurrency = Some(64);
        }
    }
    let options = ResolveOptions {
        sources,
        cache: Some(cache),
        ..ResolveOptions::default()
    };
    (world, options, cache_dir)
}

fn main() {
    let args = Args::parse();
    let Some(shared) = shared() else {
        eprintln!("resolve_bench: ../shared is absent; nothing to measure");
        return;
    };
    let (cases, skipped) = bench_cases::load(&shared.join("bench/refs_dev.jsonl"));
    if !skipped.is_empty() {
        println!(
            "{} cases skipped: the BibTeX parser read no entry from them",
            skipped.len()
        );
    }
    let cases: Vec<BenchCase> = cases
        .into_iter()
        .filter(|c| match args.subset.as_str() {
            "ids" => c.has_identifier(),
            "title" => !c.has_identifier(),
            _ => true,
        })
        .filter(|c| args.kind.as_ref().is_none_or(|k| *k == c.input_kind))
        .filter(|c| args.truth.as_ref().is_none_or(|t| *t == c.truth))
        .collect();
    let (world, options, _cache_dir) = mock_and_options(&args, &shared, args.fault_rate);
    let queries: Vec<RefQuery> = cases.iter().map(|c| c.query.clone()).collect();
    println!(
        "{} references ({} citing an identifier) against {} works; latency {} ms, faults {:.0} %, rate limits {}{}",
        cases.len(),
        cases.iter().filter(|c| c.has_identifier()).count(),
        world.world().len(),
        args.latency_ms,
        args.fault_rate * 100.0,
        if args.fast {
            "lifted"
        } else {
            "published defaults"
        },
        if args.mock_limits {
            " (enforced by the mock)"
        } else {
            ""
        },
    );
    let start = Instant::now();
    let (resolutions, _) = resolve_blocking(options.clone(), &queries).expect("resolver");
    let elapsed = start.elapsed();
    let requests = world.total_requests();
    let scores = Scores::score(&cases, &resolutions);
    if args.misses {
        for m in &scores.misses {
            println!("{m}");
        }
    }
    scores.print();
    println!(
        "  time {:.1} s, {:.1} references/s, {} upstream requests ({:.2} per reference)",
        elapsed.as_secs_f64(),
        cases.len() as f64 / elapsed.as_secs_f64(),
        requests,
        requests as f64 / cases.len().max(1) as f64
    );
    for source in Source::ALL {
        let requests = world.requests(source);
        if requests.is_empty() {
            continue;
        }
        // What the mock did to them: rate-limited, or one of the injected faults.
        let mut troubles: std::collections::BTreeMap<String, usize> = Default::default();
        for r in &requests {
            if let Some(outcome) = &r.outcome {
                *troubles.entry(outcome.clone()).or_default() += 1;
            }
        }
        let troubles: Vec<String> = troubles.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "    {:<10} {}{}",
            source.name(),
            requests.len(),
            if troubles.is_empty() {
                String::new()
            } else {
                format!(" ({})", troubles.join(", "))
            }
        );
    }
    if args.against_fault_free && args.fault_rate > 0.0 {
        compare_with_fault_free(&args, &shared, &cases, &queries, &resolutions);
    }
    if args.warm {
        world.clear_requests();
        let start = Instant::now();
        let (again, _) = resolve_blocking(options, &queries).expect("resolver");
        let same = again
            .iter()
            .zip(&resolutions)
            .filter(|(a, b)| a.status == b.status)
            .count();
        println!(
            "  warm rerun: {:.2} s, {} upstream requests, {same}/{} statuses unchanged",
            start.elapsed().as_secs_f64(),
            world.total_requests(),
            cases.len()
        );
        for source in Source::ALL {
            for r in world.requests(source).iter().take(5) {
                println!("    {} {}", source.name(), r.path_and_query);
            }
        }
    }
}

/// Resolve the same references on a fault-free mock and print, reference by reference,
/// what the faults changed: accusations of real references (miscited, not found or
/// retracted where the fault-free run said otherwise), fabricated references verified,
/// and every status that moved (the goal: only to `unverified`).
fn compare_with_fault_free(
    args: &Args,
    shared: &std::path::Path,
    cases: &[BenchCase],
    queries: &[RefQuery],
    faulty: &[Resolution],
) {
    let (_world, options, _cache_dir) = mock_and_options(args, shared, 0.0);
    let (clean, _) = resolve_blocking(options, queries).expect("resolver");
    let name = |s: Status| {
        serde_json::to_value(s)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    };
    let accusing = |r: &Resolution| {
        matches!(
            r.status,
            Status::Miscited | Status::NotFound | Status::Retracted
        )
    };
    let mut moved: std::collections::BTreeMap<(String, String), usize> = Default::default();
    let (mut accused, mut fabricated_verified) = (0, 0);
    for ((case, f), k) in cases.iter().zip(faulty).zip(&clean) {
        if f.status == k.status && f.fields_wrong == k.fields_wrong {
            continue;
        }
        *moved.entry((name(k.status), name(f.status))).or_default() += 1;
        let new_accusation = accusing(f);
        if case.truth != "FABRICATED" && new_accusation {
            accused += 1;
            println!("    accused under faults: {} ({})", case.case, case.truth);
        }
        if case.truth == "FABRICATED" && f.status == Status::Verified {
            fabricated_verified += 1;
            println!("    fabricated verified under faults: {}", case.case);
        }
    }
    println!(
        "  against the fault-free run: {accused} real references accused, {fabricated_verified} fabricated verified, {} statuses changed",
        moved.values().sum::<usize>()
    );
    for ((from, to), n) in &moved {
        println!("    {from:<10} -> {to:<10} {n}");
    }
}
