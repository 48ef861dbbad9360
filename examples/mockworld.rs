//! A standalone mock scholarly world for benchmarks and manual testing.
//!
//! ```text
//! cargo run --example mockworld -- [--world PATH]... [--port N] [--latency-ms 100]
//!     [--jitter-ms 20] [--fault-rate 0.2] [--seed 7] [--rate-limits] [--down SOURCE]...
//! ```
//!
//! Prints `CITEPROOF_<NAME>_URL=…` for every service (ready to `export`), then serves until
//! killed. Request counts: `GET {origin}/_mock/requests`; reset them: `POST {origin}/_mock/reset`.

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::PathBuf;

use clap::Parser;
use support::{FaultRule, Latency, MockConfig, MockWorld, Source};

#[derive(Parser)]
#[command(about = "Serve the mock scholarly world on 127.0.0.1")]
struct Args {
    /// JSONL file(s) or directories of works (default: fixtures/world).
    #[arg(long)]
    world: Vec<PathBuf>,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Latency added to every response, in milliseconds.
    #[arg(long, default_value_t = 0)]
    latency_ms: u64,
    /// Uniform jitter added on top of the latency, in milliseconds.
    #[arg(long, default_value_t = 0)]
    jitter_ms: u64,
    /// Share of requests (0–1) that fail in one of the fault kinds.
    #[arg(long, default_value_t = 0.0)]
    fault_rate: f64,
    /// Seed for every random choice (faults, jitter).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Enforce each service's published rate limit with 429s.
    #[arg(long)]
    rate_limits: bool,
    /// Take a service down (connections reset): crossref, openalex, s2, arxiv, pubmed, …
    #[arg(long)]
    down: Vec<String>,
}

fn main() {
    let args = Args::parse();
    let mut config = if args.world.is_empty() {
        MockConfig::fixtures()
    } else {
        MockConfig::files(args.world.clone())
    };
    config = config
        .port(args.port)
        .seed(args.seed)
        .latency_all(Latency::jittered_ms(args.latency_ms, args.jitter_ms));
    if args.fault_rate > 0.0 {
        for source in Source::ALL.into_iter().filter(|s| *s != Source::Landing) {
            config = config.fault(source, FaultRule::any_fault(args.fault_rate));
        }
    }
    if args.rate_limits {
        config = config.published_rate_limits();
    }
    for name in &args.down {
        match Source::from_name(name) {
            Some(source) => config = config.down(source),
            None => {
                eprintln!("mockworld: unknown source {name:?}");
                std::process::exit(2);
            }
        }
    }
    let world = MockWorld::start(config);
    for (name, url) in world.env() {
        println!("{name}={url}");
    }
    println!("MOCKWORLD_ORIGIN={}", world.origin());
    eprintln!(
        "mockworld: {} works on {} (requests: {}/_mock/requests)",
        world.world().len(),
        world.origin(),
        world.origin()
    );
    loop {
        std::thread::park();
    }
}
