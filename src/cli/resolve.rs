//! `citeproof resolve`, and the resolution options `check` shares with it.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use toml::Value;

use citeproof::config::Resolved;
use citeproof::net::SourceStats;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::input;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::resolution::Resolution;
use citeproof::resolve::sources::SourceName;
use citeproof::rules::resolution::{describe, explain};

use super::flag_layers::{Layers, absolute, command_config};

/// How cited works are resolved (shared by `check`, `resolve`, `verify` and
/// `config`). Each flag sets configuration keys (shown in brackets) over the files and
/// the environment.
#[derive(Debug, Clone, Args)]
pub struct ResolveArgs {
    /// Use only the cache and local corpora: no network request is made
    /// [env: CITEPROOF_OFFLINE; config: resolve.offline].
    #[arg(long)]
    pub offline: bool,
    /// A local corpus of works consulted before any network source (repeatable):
    /// JSONL in the world schema, CSL-JSON, or BibTeX [config: resolve.corpora].
    #[arg(long = "corpus", value_name = "FILE")]
    pub corpora: Vec<PathBuf>,
    /// The corpora hold every work that may be cited: a work missing from them is
    /// reported as not found, and no network source is asked
    /// [config: resolve.corpus-complete].
    #[arg(long)]
    pub corpus_complete: bool,
    /// An offline index of the scholarly record (`citeproof index build`), consulted
    /// before any network source [env: CITEPROOF_INDEX; config: resolve.index].
    #[arg(long, value_name = "DIR")]
    pub index: Option<PathBuf>,
    /// The index holds every work that may be cited: a work missing from it is
    /// reported as not found, and no network source is asked
    /// [config: resolve.index-complete].
    #[arg(long)]
    pub index_complete: bool,
    /// Cache directory [default: the platform cache directory + citeproof;
    /// env: CITEPROOF_CACHE_DIR; config: cache.dir].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Neither read nor write the cache [config: cache.enabled = false].
    #[arg(long)]
    pub no_cache: bool,
    /// Ask again what an earlier run could not decide (a source failed or was
    /// rate-limited); otherwise it is asked again once `cache.retry-failed-after`
    /// (15 minutes) has passed [config: cache.retry-failed-after = "0s"].
    #[arg(long)]
    pub retry_unverified: bool,
    /// Contact e-mail sent to the APIs (Crossref's polite pool, NCBI, Unpaywall)
    /// [env: CITEPROOF_MAILTO; config: sources.mailto].
    #[arg(long, value_name = "EMAIL")]
    pub mailto: Option<String>,
    /// A source not to ask (repeatable): crossref, openalex, s2, arxiv, pubmed,
    /// europepmc, doi, datacite [config: sources.NAME.disabled].
    #[arg(long = "disable-source", value_name = "NAME")]
    pub disabled: Vec<SourceName>,
    /// Title-search order: tiers separated by `,`, sources asked in parallel joined by
    /// `+` [default: crossref+openalex,s2,europepmc+pubmed+arxiv; config:
    /// resolve.search-order].
    #[arg(long, value_name = "ORDER")]
    pub search_order: Option<String>,
    /// Time one attempt of one request may take (seconds, or `500ms`, `1min`)
    /// [env: CITEPROOF_TIMEOUT; config: sources.NAME.timeout].
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<String>,
    /// Retries of a request that failed transiently (429, 5xx, connection errors)
    /// [env: CITEPROOF_RETRIES; config: sources.NAME.retries].
    #[arg(long, value_name = "N")]
    pub retries: Option<u32>,
    /// Fetch cited URLs on private or loopback addresses too (intranet mirrors)
    /// [config: resolve.allow-private-urls].
    #[arg(long)]
    pub allow_private_urls: bool,
}

impl ResolveArgs {
    /// The flags as configuration layers.
    pub fn add_layers(&self, layers: &mut Layers) -> anyhow::Result<()> {
        if self.offline {
            layers.set("--offline", "resolve.offline", true)?;
        }
        if !self.corpora.is_empty() {
            let paths: Vec<Value> = self
                .corpora
                .iter()
                .map(|p| Value::String(absolute(p).display().to_string()))
                .collect();
            layers.set("--corpus", "resolve.corpora", paths)?;
        }
        if self.corpus_complete {
            layers.set("--corpus-complete", "resolve.corpus-complete", true)?;
        }
        if let Some(dir) = &self.index {
            layers.set_path("--index", "resolve.index", dir)?;
        }
        if self.index_complete {
            layers.set("--index-complete", "resolve.index-complete", true)?;
        }
        if let Some(dir) = &self.cache_dir {
            layers.set_path("--cache-dir", "cache.dir", dir)?;
        }
        if self.no_cache {
            layers.set("--no-cache", "cache.enabled", false)?;
        }
        if self.retry_unverified {
            layers.set("--retry-unverified", "cache.retry-failed-after", "0s")?;
        }
        if let Some(mailto) = &self.mailto {
            layers.set("--mailto", "sources.mailto", mailto.as_str())?;
        }
        for name in &self.disabled {
            layers.set(
                "--disable-source",
                &format!("sources.{name}.disabled"),
                true,
            )?;
        }
        if let Some(order) = &self.search_order {
            layers.set("--search-order", "resolve.search-order", order.as_str())?;
        }
        let every_source = |key: &str, value: Value| -> Vec<(String, Value)> {
            SourceName::ALL
                .iter()
                .map(|n| (format!("sources.{n}.{key}"), value.clone()))
                .collect()
        };
        if let Some(timeout) = &self.timeout {
            // A bare number is seconds; written with its unit, as a file would.
            let written = match timeout.trim().parse::<f64>() {
                Ok(_) => format!("{}s", timeout.trim()),
                Err(_) => timeout.clone(),
            };
            layers.push("--timeout", every_source("timeout", Value::String(written)))?;
        }
        if let Some(retries) = self.retries {
            layers.push(
                "--retries",
                every_source("retries", Value::Integer(retries.into())),
            )?;
        }
        if self.allow_private_urls {
            layers.set("--allow-private-urls", "resolve.allow-private-urls", true)?;
        }
        Ok(())
    }
}

/// The resolution options of a configuration; problems that do not stop the run
/// are printed on stderr.
pub fn resolve_options(config: &Resolved) -> anyhow::Result<ResolveOptions> {
    let setup = config.resolve_options()?;
    for w in setup.warnings {
        eprintln!("warning: {w}");
    }
    Ok(setup.options)
}

/// A progress bar on stderr drawn with `template`, hidden when stderr is not a
/// terminal.
pub fn stderr_bar(template: &'static str) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    bar.set_style(ProgressStyle::with_template(template).expect("static progress template"));
    bar
}

/// A progress bar of the references resolved (see [`stderr_bar`]).
pub fn with_progress(mut options: ResolveOptions) -> (ResolveOptions, ProgressBar) {
    let bar = stderr_bar("resolving {pos}/{len} references {wide_bar} {elapsed}");
    let shown = bar.clone();
    options.progress = Some(Arc::new(move |p| {
        shown.set_length(p.total as u64);
        shown.set_position(p.done as u64);
    }));
    (options, bar)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One readable line per reference and a summary.
    Text,
    /// One JSON object per reference: id, status, fields_wrong, expected, match, sources_tried.
    Jsonl,
}

#[derive(Debug, Args)]
pub struct ResolveCommandArgs {
    /// A .bib file, a text file with one reference string per line, or JSONL lines
    /// {"id", "reference"} or {"id", "bibtex"} (.jsonl); `-` reads lines from stdin.
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Use this configuration file (default: the nearest one to INPUT).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Resolve only the I-th of N contiguous blocks of the input (1-based), so that N
    /// processes split one job and their outputs, concatenated in order, are the
    /// unsharded output (`--format jsonl`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<citeproof::shard::Shard>,
    #[command(flatten)]
    pub resolution: ResolveArgs,
}

fn read_input(path: &Path) -> anyhow::Result<String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        return Ok(text);
    }
    citeproof::walk::read_text(path, 1 << 30)
        .map_err(|why| anyhow::anyhow!("cannot read `{}`: {why}", path.display()))
}

pub fn run(args: ResolveCommandArgs) -> anyhow::Result<ExitCode> {
    let text = read_input(&args.input)?;
    let (refs, warnings) = input::read(&args.input, &text);
    let refs = match args.shard {
        Some(shard) => shard.select(refs),
        None => refs,
    };
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let mut layers = Layers::default();
    args.resolution.add_layers(&mut layers)?;
    let configs = command_config(&args.input, args.config.clone(), layers.0)?;
    let (options, bar) = with_progress(resolve_options(configs.run())?);
    let queries: Vec<_> = refs.iter().map(|r| r.query.clone()).collect();
    let (resolutions, stats) = resolve_blocking(options, &queries)?;
    bar.finish_and_clear();
    if let Some(note) = unreachable_note(&stats) {
        eprintln!("{note}");
    }
    let mut text = String::new();
    for (r, resolution) in refs.iter().zip(&resolutions) {
        let line = match args.format {
            Format::Jsonl => resolution
                .to_json_line(&r.id, r.query.fields.kind)
                .to_string(),
            Format::Text => text_line(&r.id, resolution),
        };
        text.push_str(&line);
        text.push('\n');
    }
    if args.format == Format::Text {
        let statuses: Vec<Status> = resolutions.iter().map(|r| r.status).collect();
        text.push_str(&summary(&statuses));
        text.push('\n');
    }
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // A reader that stopped early (`| head`) is not an error of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => other.map(|()| ExitCode::SUCCESS).map_err(Into::into),
    }
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Verified => "verified",
        Status::Miscited => "miscited",
        Status::NotFound => "not found",
        Status::Retracted => "retracted",
        Status::Unverified => "unverified",
        Status::NotIndexed => "not indexed",
    }
}

fn text_line(id: &str, r: &Resolution) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(work) = &r.work {
        parts.push(format!("{} [{}]", describe(work), work.source));
    }
    parts.extend(explain(r));
    format!("{id}\t{}\t{}", status_name(r.status), parts.join("; "))
}

/// A note naming the sources that stopped answering during the run (their hosts'
/// breakers opened), so that a run without network says why everything is unverified.
pub fn unreachable_note(stats: &[SourceStats]) -> Option<String> {
    let down: Vec<&str> = stats
        .iter()
        .filter(|s| s.short_circuited > 0)
        .map(|s| s.source.as_str())
        .collect();
    (!down.is_empty()).then(|| {
        format!(
            "note: no answer from {}; what they would have checked is unverified. \
             Check the network, or run with --offline (cache and local corpora only) or --no-resolve.",
            down.join(", ")
        )
    })
}

pub use citeproof::pipeline::resolution_summary as summary;
