//! Load benchmark of `citeproof serve`: a bounded load generator on loopback.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example serve_load -- [--requests 100000] [--connections 32]
//!     [--route clean|validate|check] [--bin target/release/citeproof] [--url http://…]
//! ```
//!
//! Starts the release binary (`serve --listen 127.0.0.1:0 --no-resolve
//! --no-access-log --max-queue 1024`) unless `--url` names a running server (`--pid`
//! to sample its memory), then sends `--requests`
//! closed-world requests over `--connections` keep-alive connections: LLM answers
//! with three citations each (two of articles among the sources, with sentences
//! from their abstracts; one hallucinated) built from the real titles and abstracts
//! of the world of works (`../shared/data/world/works.jsonl`, else the bundled
//! `fixtures/world`). Prints throughput, latency percentiles, errors and the
//! server's resident memory (VmRSS) sampled every tenth of the run.

use std::path::PathBuf;
use std::process::{Child, Command};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;

#[path = "support/serve_bodies.rs"]
mod serve_bodies;
use serve_bodies::{body, load_works, rss_kib, spawn_serve};

#[derive(Parser)]
struct Args {
    /// Requests to send in all (after a warm-up of 1,000).
    #[arg(long, default_value_t = 100_000)]
    requests: usize,
    /// Concurrent keep-alive connections.
    #[arg(long, default_value_t = 32)]
    connections: usize,
    /// Which route to load.
    #[arg(long, default_value = "clean")]
    route: String,
    /// The binary to start.
    #[arg(long, default_value = "target/release/citeproof")]
    bin: PathBuf,
    /// A server already running.
    #[arg(long)]
    url: Option<String>,
    /// The process id of the server at `--url`, to sample its memory.
    #[arg(long)]
    pid: Option<u32>,
    /// Distinct request bodies to cycle through.
    #[arg(long, default_value_t = 200)]
    bodies: usize,
}

fn start(bin: &PathBuf) -> (Child, String) {
    let mut command = Command::new(bin);
    command
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--no-resolve",
            "--no-access-log",
        ])
        .args(["--max-queue", "1024"]);
    spawn_serve(command, false)
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let works = load_works();
    assert!(works.len() >= 2, "no works with abstracts found");
    let bodies: Vec<String> = (0..args.bodies)
        .map(|i| {
            let a = &works[(i * 2) % works.len()];
            let b = &works[(i * 2 + 1) % works.len()];
            body(&args.route, a, b, i).to_string()
        })
        .collect();
    let (server, base) = match &args.url {
        Some(url) => (None, url.trim_end_matches('/').to_string()),
        None => {
            let (child, base) = start(&args.bin);
            (Some(child), base)
        }
    };
    let pid = server.as_ref().map(Child::id).or(args.pid);
    let client = serve_bodies::ready_client(
        &base,
        args.connections,
        Duration::from_secs(60),
        Duration::from_secs(30),
    )
    .await;
    let url = format!("{base}/v1/{}", args.route);
    let bodies = Arc::new(bodies);
    println!(
        "route /v1/{}, {} distinct bodies of {}–{} bytes, {} connections, {} works",
        args.route,
        bodies.len(),
        bodies.iter().map(String::len).min().unwrap_or(0),
        bodies.iter().map(String::len).max().unwrap_or(0),
        args.connections,
        works.len()
    );
    // Warm-up.
    run(&client, &url, &bodies, 1_000, args.connections, None).await;
    let rss_start = pid.and_then(rss_kib);
    let started = Instant::now();
    let (mut latencies, errors, samples) =
        run(&client, &url, &bodies, args.requests, args.connections, pid).await;
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    let pct = |p: f64| {
        let i = ((latencies.len() as f64 * p).ceil() as usize).clamp(1, latencies.len()) - 1;
        latencies[i].as_secs_f64() * 1000.0
    };
    println!(
        "{} requests in {:.2} s: {:.0} requests/s, {} errors",
        args.requests,
        elapsed.as_secs_f64(),
        args.requests as f64 / elapsed.as_secs_f64(),
        errors
    );
    if !latencies.is_empty() {
        println!(
            "latency ms: p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
            pct(0.50),
            pct(0.90),
            pct(0.99),
            latencies.last().unwrap().as_secs_f64() * 1000.0
        );
    }
    if let Some(start) = rss_start {
        let shown: Vec<String> = samples
            .iter()
            .map(|(n, kib)| format!("{n}: {:.1}", *kib as f64 / 1024.0))
            .collect();
        println!(
            "server RSS MiB: after warm-up {:.1}; after requests {}",
            start as f64 / 1024.0,
            shown.join(", ")
        );
    }
    if let Some(mut child) = server {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let _ = child.wait();
    }
}

/// Send `total` requests over `connections` workers; latencies, errors and, with a
/// pid, the server's RSS after each tenth.
async fn run(
    client: &reqwest::Client,
    url: &str,
    bodies: &Arc<Vec<String>>,
    total: usize,
    connections: usize,
    pid: Option<u32>,
) -> (Vec<Duration>, usize, Vec<(usize, u64)>) {
    let next = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let samples = Arc::new(std::sync::Mutex::new(Vec::new()));
    let step = (total / 10).max(1);
    let mut workers = Vec::new();
    for _ in 0..connections {
        let (client, url, bodies) = (client.clone(), url.to_string(), bodies.clone());
        let (next, done, samples) = (next.clone(), done.clone(), samples.clone());
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut errors = 0usize;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let body = bodies[i % bodies.len()].clone();
                let t = Instant::now();
                let ok = match client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                {
                    Ok(r) => {
                        let ok = r.status().is_success();
                        ok && r.bytes().await.is_ok()
                    }
                    Err(_) => false,
                };
                latencies.push(t.elapsed());
                if !ok {
                    errors += 1;
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n % step == 0
                    && let Some(kib) = pid.and_then(rss_kib)
                {
                    samples.lock().unwrap().push((n, kib));
                }
            }
            (latencies, errors)
        }));
    }
    let mut latencies = Vec::with_capacity(total);
    let mut errors = 0;
    for w in workers {
        let (l, e) = w.await.expect("worker");
        latencies.extend(l);
        errors += e;
    }
    let mut samples = samples.lock().unwrap().clone();
    samples.sort_unstable();
    (latencies, errors, samples)
}
