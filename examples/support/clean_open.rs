//! The open world of the clean benchmark: the labelled answers cleaned without their
//! sources, every reference resolved against the mock scholarly world serving the
//! world's works — once without faults and once with a share of every source's
//! requests failing in every way the mock knows. The figure that matters: no
//! citation removed in the faulted run that the fault-free run kept, and no real
//! work called `not_found`.
#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use citeproof::cache::Cache;
use citeproof::clean::{
    CleanOptions, CleanRequest, Cleaned, Cleaner, CleanerSettings, Status, Taken, clean_blocking,
};
use citeproof::net::Rate;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::sources::SourcesSettings;
use citeproof::verify::backend::VerifySettings;

use super::clean_gen::{Case, Kind};
use super::clean_score::Scores;
use crate::support::{FaultRule, MockConfig, MockWorld, Source};

pub struct OpenArgs {
    pub answers: usize,
    pub fault_rate: f64,
    pub seed: u64,
    pub misses: bool,
}

/// What a label means in the open world: a real work that was not retrieved is
/// simply cited (valid); the retracted flag was the sources' own.
fn open_kind(kind: Kind) -> Kind {
    match kind {
        Kind::NotRetrieved | Kind::Retracted => Kind::Valid,
        other => other,
    }
}

pub fn run(
    cases: &[Case],
    world: &Path,
    options: CleanOptions,
    verify: Option<VerifySettings>,
    args: &OpenArgs,
) {
    let cases = &cases[..args.answers.min(cases.len())];
    let clean_run = run_once(cases, world, &options, verify.clone(), None, args.seed);
    let scores = Scores::collect(cases, &clean_run.0, open_kind);
    println!(
        "\nopen world, no faults ({} answers, {:.1} s, {} upstream requests):",
        cases.len(),
        clean_run.1.as_secs_f64(),
        clean_run.2
    );
    scores.print();
    if args.misses {
        for m in &scores.misses {
            println!("  miss: {m}");
        }
    }
    let faulted = run_once(
        cases,
        world,
        &options,
        verify,
        Some(args.fault_rate),
        args.seed,
    );
    let fscores = Scores::collect(cases, &faulted.0, open_kind);
    println!(
        "\nopen world, {:.0} % of requests to every source failing ({:.1} s, {} upstream requests):",
        args.fault_rate * 100.0,
        faulted.1.as_secs_f64(),
        faulted.2
    );
    fscores.print();
    let mut newly_removed = 0;
    let mut real_not_found = 0;
    let mut unverified = 0;
    for (a, b) in scores.decisions.iter().zip(&fscores.decisions) {
        if b.action == Some(Taken::Removed) && a.action != Some(Taken::Removed) {
            newly_removed += 1;
            println!("  removed only under faults: {:?} {}", b.kind, b.note);
        }
        if b.status == Some(Status::NotFound) && !matches!(b.kind, Kind::Fabricated | Kind::Orphan)
        {
            real_not_found += 1;
        }
        unverified += usize::from(b.status == Some(Status::Unverified));
    }
    println!(
        "  citations removed under faults that the fault-free run kept: {newly_removed}; \
         real works called not_found: {real_not_found}; unverified (kept): {unverified}"
    );
}

/// Clean every answer in the open world; returns the results, the time taken and the
/// upstream requests made.
fn run_once(
    cases: &[Case],
    world_path: &Path,
    options: &CleanOptions,
    verify: Option<VerifySettings>,
    fault_rate: Option<f64>,
    seed: u64,
) -> (Vec<Cleaned>, Duration, usize) {
    let mut config = MockConfig::files(vec![world_path.to_path_buf()]).seed(seed);
    if let Some(rate) = fault_rate {
        for source in Source::ALL.into_iter().filter(|s| *s != Source::Landing) {
            config = config.fault(source, FaultRule::any_fault(rate));
        }
    }
    let world = MockWorld::start(config);
    let cache_dir = tempfile::tempdir().expect("temporary cache");
    let mut sources = SourcesSettings::all_at(world.origin()).expect("mock base URLs");
    for s in &mut sources.sources {
        s.rate = Some(Rate::per_second(10_000));
        s.max_concurrency = Some(64);
        s.timeout = Duration::from_secs(2);
    }
    let cleaner = Cleaner::new(CleanerSettings {
        defaults: options.clone(),
        resolve: Some(ResolveOptions {
            sources,
            cache: Some(Cache::open(cache_dir.path()).expect("cache")),
            ..ResolveOptions::default()
        }),
        verify,
        ..CleanerSettings::default()
    })
    .expect("cleaner");
    let start = Instant::now();
    let threads = 8;
    let mut results: Vec<Option<Cleaned>> = vec![None; cases.len()];
    std::thread::scope(|scope| {
        let chunks: Vec<_> = results
            .chunks_mut(cases.len().div_ceil(threads).max(1))
            .enumerate()
            .map(|(t, chunk)| {
                let cleaner = &cleaner;
                let size = cases.len().div_ceil(threads).max(1);
                scope.spawn(move || {
                    for (k, slot) in chunk.iter_mut().enumerate() {
                        let case = &cases[t * size + k];
                        let request = CleanRequest {
                            answer: case.answer.clone(),
                            ..CleanRequest::default()
                        };
                        *slot = Some(clean_blocking(cleaner, &request).expect("clean"));
                    }
                })
            })
            .collect();
        for c in chunks {
            c.join().expect("worker");
        }
    });
    let elapsed = start.elapsed();
    let requests = world.total_requests();
    (
        results.into_iter().map(|r| r.expect("cleaned")).collect(),
        elapsed,
        requests,
    )
}
