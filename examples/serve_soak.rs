//! Soak test of `citeproof serve`: a mixed load for a long time, sampled per minute.
//!
//! ```text
//! cargo build --release --bin citeproof --example serve_soak
//! target/release/examples/serve_soak [--minutes 30] [--connections 64]
//!     [--mix check,resolve,clean,validate] [--bin target/release/citeproof]
//! ```
//!
//! Starts the mock scholarly world (tests/support, on 127.0.0.1) serving the world of
//! works the bodies are built from, and the release binary `serve` resolving against
//! it (its rate limits lifted, a cache of its own, one bearer token so the token path
//! is on the hot path too). Then `--connections` keep-alive clients send requests
//! round-robin over the routes of `--mix` (check, resolve, clean, validate; bodies from
//! `support/serve_bodies.rs`) until `--minutes` have passed. Every minute it prints the
//! requests answered, errors (any answer but 2xx, or no answer), p50 / p99 / max
//! latency of that minute and the server's resident memory (VmRSS); at the end, the
//! growth of memory from the first minute after warm-up to the last.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

#[path = "support/serve_bodies.rs"]
mod serve_bodies;

use std::path::PathBuf;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use serve_bodies::{body, load_works, rss_kib, spawn_serve, world_files};
use support::{MockConfig, MockWorld};

const TOKEN: &str = "soak-token-7f3a9c2e5b1d4680";

#[derive(Parser)]
struct Args {
    /// How long to run.
    #[arg(long, default_value_t = 30)]
    minutes: u64,
    /// Concurrent keep-alive connections.
    #[arg(long, default_value_t = 64)]
    connections: usize,
    /// The routes, taken in turn.
    #[arg(long, default_value = "check,resolve,clean,validate")]
    mix: String,
    /// Distinct request bodies per route.
    #[arg(long, default_value_t = 200)]
    bodies: usize,
    /// The binary to start.
    #[arg(long, default_value = "target/release/citeproof")]
    bin: PathBuf,
    /// Seconds per sample (60: one line a minute).
    #[arg(long, default_value_t = 60)]
    sample_seconds: u64,
}

/// What the clients saw since the last sample.
#[derive(Default)]
struct Window {
    latencies: Vec<Duration>,
    errors: usize,
    statuses: std::collections::BTreeMap<u16, usize>,
}

fn start_server(bin: &PathBuf, world: &MockWorld, cache: &std::path::Path) -> (Child, String) {
    let mut command = Command::new(bin);
    for (key, _) in std::env::vars() {
        if key.starts_with("CITEPROOF_") {
            command.env_remove(key);
        }
    }
    for (name, url) in world.env() {
        command.env(name.replace("_URL", "_RATE"), "1000");
        command.env(name, url);
    }
    command
        .env("CITEPROOF_CACHE_DIR", cache)
        .env("CITEPROOF_TIMEOUT", "10")
        .env("CITEPROOF_MAILTO", "soak@example.org")
        .env("CITEPROOF_SERVE_TOKENS", TOKEN)
        .args(["serve", "--listen", "127.0.0.1:0", "--no-access-log"])
        .args(["--max-queue", "1024"]);
    spawn_serve(command, true)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let works = load_works();
    assert!(works.len() >= 2, "no works with abstracts found");
    let routes: Vec<String> = args.mix.split(',').map(|r| r.trim().to_string()).collect();
    let bodies: Arc<Vec<(String, Vec<String>)>> = Arc::new(
        routes
            .iter()
            .map(|route| {
                let list = (0..args.bodies)
                    .map(|i| {
                        let a = &works[(i * 2) % works.len()];
                        let b = &works[(i * 2 + 1) % works.len()];
                        body(route, a, b, i).to_string()
                    })
                    .collect();
                (format!("/v1/{route}"), list)
            })
            .collect(),
    );
    let world = MockWorld::start(MockConfig::files(world_files()));
    let cache = tempfile::tempdir().expect("cache dir");
    let (mut server, base) = start_server(&args.bin, &world, cache.path());
    let pid = server.id();
    let client = serve_bodies::ready_client(
        &base,
        args.connections,
        Duration::from_secs(120),
        Duration::from_secs(60),
    )
    .await;
    println!(
        "soak: {} min, {} connections, routes {}, {} bodies each, {} works, server pid {pid}",
        args.minutes,
        args.connections,
        routes.join(","),
        args.bodies,
        works.len()
    );
    let window = Arc::new(Mutex::new(Window::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..args.connections {
        let (client, base, bodies) = (client.clone(), base.clone(), bodies.clone());
        let (window, stop, next) = (window.clone(), stop.clone(), next.clone());
        workers.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let (path, list) = &bodies[i % bodies.len()];
                let payload = list[(i / bodies.len()) % list.len()].clone();
                let t = Instant::now();
                let status = match client
                    .post(format!("{base}{path}"))
                    .header("content-type", "application/json")
                    .header("authorization", format!("Bearer {TOKEN}"))
                    .body(payload)
                    .send()
                    .await
                {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        if r.bytes().await.is_ok() { status } else { 0 }
                    }
                    Err(_) => 0,
                };
                let elapsed = t.elapsed();
                let mut w = window.lock().unwrap();
                w.latencies.push(elapsed);
                *w.statuses.entry(status).or_default() += 1;
                if !(200..300).contains(&status) {
                    w.errors += 1;
                }
            }
        }));
    }
    let started = Instant::now();
    let mut rss_series = Vec::new();
    let mut p99_series = Vec::new();
    let (mut total, mut total_errors) = (0usize, 0usize);
    let mut minute = 0;
    while started.elapsed() < Duration::from_secs(args.minutes * 60) {
        tokio::time::sleep(Duration::from_secs(args.sample_seconds)).await;
        minute += 1;
        let mut w = std::mem::take(&mut *window.lock().unwrap());
        w.latencies.sort_unstable();
        let rss = rss_kib(pid).map_or(0.0, |k| k as f64 / 1024.0);
        total += w.latencies.len();
        total_errors += w.errors;
        rss_series.push(rss);
        p99_series.push(pct(&w.latencies, 0.99));
        let odd: Vec<String> = w
            .statuses
            .iter()
            .filter(|(s, _)| !(200..300).contains(*s))
            .map(|(s, n)| format!("{s}×{n}"))
            .collect();
        println!(
            "sample {minute:>3} ({:>5.0} s): {:>6} requests ({:>5.0}/s), {} errors{}, \
             p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms, RSS {rss:.1} MiB",
            started.elapsed().as_secs_f64(),
            w.latencies.len(),
            w.latencies.len() as f64 / args.sample_seconds as f64,
            w.errors,
            if odd.is_empty() {
                String::new()
            } else {
                format!(" ({})", odd.join(", "))
            },
            pct(&w.latencies, 0.50),
            pct(&w.latencies, 0.99),
            w.latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
        );
    }
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        let _ = w.await;
    }
    // Warm-up: the first sample (caches fill, the allocator reaches its working set).
    if rss_series.len() >= 2 {
        let after_warm_up = rss_series[1];
        let last = *rss_series.last().unwrap();
        let max = rss_series.iter().cloned().fold(0.0, f64::max);
        let p99_after: Vec<f64> = p99_series[1..].to_vec();
        println!(
            "summary: {total} requests, {total_errors} errors; RSS after warm-up {after_warm_up:.1} MiB, \
             last {last:.1} MiB ({:+.1} %), max {max:.1} MiB; p99 after warm-up min {:.1} ms, max {:.1} ms",
            (last - after_warm_up) / after_warm_up * 100.0,
            p99_after.iter().cloned().fold(f64::INFINITY, f64::min),
            p99_after.iter().cloned().fold(0.0, f64::max),
        );
    }
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let _ = server.wait();
}
