//! Benchmark of an offline index (`citeproof index build`): identifier lookup and title
//! search latency (p50/p99), how often a misquoted title still finds its own work, and
//! the resolution of the labelled development references
//! (`../shared/bench/refs_dev.jsonl`) offline against the index, scored as
//! `resolve_bench` scores the online cascade, with its peak resident and anonymous
//! memory.
//!
//! ```text
//! cargo run --release --example index_bench -- --index target/bench-data/idx-1m [--samples 2000]
//! cargo run --release --example index_bench -- --index postgres://localhost/idx \
//!     --sample-from target/bench-data/idx-1m
//! ```
//!
//! `--index` is a folder or a `postgres://` URL; the identifiers and titles timed are
//! drawn from an SQLite index (`--sample-from`, by default the index itself).

#[path = "support/bench_cases.rs"]
mod bench_cases;
#[path = "support/cpu_time.rs"]
mod cpu_time;
#[path = "support/peak_memory.rs"]
mod peak_memory;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use rusqlite::Connection;

use citeproof::model::IdScheme;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::index_titles::title_candidates;

use bench_cases::Scores;

#[derive(Parser)]
struct Args {
    #[arg(long)]
    index: PathBuf,
    /// The SQLite index the samples are drawn from (default: `--index`).
    #[arg(long)]
    sample_from: Option<PathBuf>,
    /// Identifiers and titles sampled for the latency figures.
    #[arg(long, default_value_t = 2000)]
    samples: usize,
    /// Runs of the reference set (the best is reported; the first warms the page cache).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Print the development set's misses and the titles not found again
    #[arg(long)]
    misses: bool,
    /// Write each reference's case, status, match and wrong fields here (JSON Lines),
    /// to compare engines reference by reference.
    #[arg(long)]
    statuses: Option<PathBuf>,
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "  {what:<34} p50 {:.3} ms  p99 {:.3} ms  ({} queries)",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.len()
    );
}

/// Whether the title search still finds a record's own work when the cited title is
/// misquoted: its last word dropped, or its longest word (a proxy for its rarest)
/// replaced by a word no title has. Recall over the sampled titles.
fn found_again(store: &dyn citeproof::index::WorkStore, titles: &[String], show_misses: bool) {
    let folded = |t: &str| citeproof::resolve::normalize::fold(t);
    type Misquote = fn(&[&str]) -> String;
    let misquotes: [(&str, Misquote); 2] = [
        ("last word dropped", |w| w[..w.len() - 1].join(" ")),
        ("longest word replaced", |w| {
            let longest = (0..w.len()).max_by_key(|&i| w[i].len()).unwrap_or(0);
            let mut out: Vec<&str> = w.to_vec();
            out[longest] = "qxzvw";
            out.join(" ")
        }),
    ];
    for (what, misquote) in misquotes {
        let (mut asked, mut found) = (0, 0);
        for title in titles {
            let words: Vec<&str> = title.split_whitespace().collect();
            if words.len() < 4 {
                continue;
            }
            asked += 1;
            let cited = misquote(&words);
            let works = title_candidates(store, Some(&cited), "", 5).unwrap();
            let own = folded(title);
            if works.iter().any(|w| folded(&w.title) == own) {
                found += 1;
            } else if show_misses {
                println!("    missed {what}: {title} (cited: {cited})");
            }
        }
        println!(
            "  title found again, {what:<22} {found}/{asked} = {:.1} %",
            100.0 * found as f64 / asked.max(1) as f64
        );
    }
}

fn main() {
    let args = Args::parse();
    let store = citeproof::index::open(&args.index).expect("index");
    let stats = store.stats().expect("stats");
    println!(
        "index {}: {} works, {} bytes ({:.0} bytes per work)",
        args.index.display(),
        stats.works,
        stats.bytes,
        stats.bytes as f64 / stats.works.max(1) as f64
    );
    // Samples drawn from the records themselves, spread over the whole file.
    let sample_from = args.sample_from.as_ref().unwrap_or(&args.index);
    let conn = Connection::open(sample_from.join("index.sqlite3")).expect("sqlite");
    let max_id: i64 = conn
        .query_row("SELECT MAX(id) FROM records", [], |r| r.get(0))
        .expect("max id");
    let step = (max_id / args.samples.max(1) as i64).max(1);
    let mut dois = Vec::new();
    let mut titles = Vec::new();
    let mut stmt = conn
        .prepare("SELECT doi, title FROM records WHERE id >= ?1 LIMIT 1")
        .expect("sample query");
    for k in 0..args.samples as i64 {
        if let Ok((doi, title)) = stmt.query_row([k * step + 1], |r| {
            Ok((r.get::<_, Option<String>>(0)?, r.get::<_, String>(1)?))
        }) {
            dois.extend(doi);
            titles.push(title);
        }
    }
    drop(stmt);
    // Bytes per table (when the SQLite build has the dbstat table).
    if let Ok(mut stmt) =
        conn.prepare("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")
    {
        println!("bytes per table:");
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .expect("dbstat");
        for (name, bytes) in rows.flatten() {
            println!(
                "  {name:<24} {bytes:>14} ({:.0} per work)",
                bytes as f64 / stats.works.max(1) as f64
            );
        }
    }
    println!("latency (one thread):");
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed()
    };
    let found: Vec<Duration> = dois
        .iter()
        .map(|d| time(&mut || assert!(!store.by_id(IdScheme::Doi, d).unwrap().is_empty())))
        .collect();
    report("DOI lookup, present", found);
    let absent: Vec<Duration> = dois
        .iter()
        .map(|d| {
            let missing = format!("{d}x");
            time(&mut || assert!(store.by_id(IdScheme::Doi, &missing).unwrap().is_empty()))
        })
        .collect();
    report("DOI lookup, absent", absent);
    let exact: Vec<Duration> = titles
        .iter()
        .map(|t| time(&mut || drop(title_candidates(store.as_ref(), Some(t), "", 5).unwrap())))
        .collect();
    report("title search, exact title", exact);
    let near: Vec<Duration> = titles
        .iter()
        .map(|t| {
            let words: Vec<&str> = t.split_whitespace().collect();
            let cut = words[..words.len().saturating_sub(1).max(1)].join(" ");
            time(&mut || drop(title_candidates(store.as_ref(), Some(&cut), "", 5).unwrap()))
        })
        .collect();
    report("title search, last word dropped", near);
    found_again(store.as_ref(), &titles, args.misses);
    let Some((cases, queries, options)) = bench_cases::against_index(store) else {
        eprintln!("index_bench: ../shared is absent; no resolution figures");
        return;
    };
    let mut best = Duration::MAX;
    // The least CPU a run took (user, system): steadier than wall time under load.
    let mut least_cpu: Option<(f64, f64)> = None;
    let mut resolutions = Vec::new();
    peak_memory::reset_peak();
    let anon = peak_memory::AnonPeak::start();
    for _ in 0..args.runs.max(1) {
        let (start, cpu_start) = (Instant::now(), cpu_time::user_system());
        let (r, _) = resolve_blocking(options.clone(), &queries).expect("resolver");
        best = best.min(start.elapsed());
        if let (Some((u0, s0)), Some((u1, s1))) = (cpu_start, cpu_time::user_system()) {
            let run = (u1 - u0, s1 - s0);
            if least_cpu.is_none_or(|(u, s)| run.0 + run.1 < u + s) {
                least_cpu = Some(run);
            }
        }
        resolutions = r;
    }
    if let Some(path) = &args.statuses {
        let lines: String = cases
            .iter()
            .zip(&resolutions)
            .map(|(case, r)| {
                let line = serde_json::json!([
                    case.case,
                    r.status,
                    r.work.as_ref().map(|w| (&w.title, w.year)),
                    r.fields_wrong
                ]);
                format!("{line}\n")
            })
            .collect();
        std::fs::write(path, lines).expect("write the statuses");
    }
    let scores = Scores::score(&cases, &resolutions);
    if args.misses {
        for m in &scores.misses {
            println!("{m}");
        }
    }
    println!("resolution of the development set offline against the index:");
    scores.print();
    println!(
        "  time {:.3} s, {:.0} references/s (best of {} runs)",
        best.as_secs_f64(),
        cases.len() as f64 / best.as_secs_f64(),
        args.runs.max(1)
    );
    if let Some((user, system)) = least_cpu {
        println!(
            "  CPU {:.3} ms per reference (user {:.2} s, system {:.2} s; the least of the runs)",
            (user + system) * 1000.0 / cases.len() as f64,
            user,
            system
        );
    }
    println!(
        "  {} ({}) while resolving",
        peak_memory::peak_text(),
        anon.stop()
    );
}
