//! `citeproof cache stats` and `citeproof cache clear`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};

use citeproof::cache::{self, Cache};

#[derive(Debug, Args)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub action: CacheAction,
    /// Cache directory [default: the platform cache directory + citeproof].
    #[arg(long, value_name = "DIR", env = "CITEPROOF_CACHE_DIR", global = true)]
    pub cache_dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum CacheAction {
    /// Where the cache is, its size, and its entries per source.
    Stats {
        /// Print the statistics as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Remove cached entries (all of them, or one source's).
    Clear {
        /// Only this source's entries (crossref, openalex, s2, …, landing).
        #[arg(long, value_name = "NAME")]
        source: Option<String>,
    },
}

pub fn run(args: CacheArgs) -> anyhow::Result<ExitCode> {
    let dir = args
        .cache_dir
        .or_else(cache::default_dir)
        .context("no cache directory: set --cache-dir or CITEPROOF_CACHE_DIR")?;
    let cache =
        Cache::open(&dir).with_context(|| format!("cannot open the cache in {}", dir.display()))?;
    for w in cache.warnings() {
        eprintln!("warning: {w}");
    }
    match args.action {
        CacheAction::Stats { json } => {
            let stats = cache.stats()?;
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
                return Ok(ExitCode::SUCCESS);
            }
            println!("cache: {}", stats.path.display());
            println!("size: {} bytes", stats.size_bytes);
            println!("entries: {}", stats.entries());
            for ns in &stats.namespaces {
                println!(
                    "  {:<10} {:>7} live ({} found, {} not found, {} failed), {} stale",
                    ns.namespace, ns.entries, ns.found, ns.not_found, ns.failed, ns.stale
                );
            }
        }
        CacheAction::Clear { source } => {
            let removed = cache.clear(source.as_deref())?;
            println!("removed {removed} entries from {}", cache.path().display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
