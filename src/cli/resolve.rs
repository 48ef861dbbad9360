//! `citeproof resolve`, and the resolution options `check` shares with it.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use citeproof::cache::{self, Cache};
use citeproof::diagnostic::Diagnostic;
use citeproof::load::Project;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::corpus::Corpus;
use citeproof::resolve::input;
use citeproof::resolve::options::{ResolveOptions, SearchOrder, SourcePlan};
use citeproof::resolve::outcome::Status;
use citeproof::resolve::resolution::Resolution;
use citeproof::resolve::run::{ProjectResolution, resolve_project};
use citeproof::resolve::sources::{SourceName, SourcesSettings};
use citeproof::rules::resolution::{describe, diagnostics};

/// How cited works are resolved (shared by `check` and `resolve`).
#[derive(Debug, Clone, Args)]
pub struct ResolveArgs {
    /// Use only the cache and local corpora: no network request is made.
    #[arg(long, env = "CITEPROOF_OFFLINE", value_parser = clap::builder::FalseyValueParser::new())]
    pub offline: bool,
    /// A local corpus of works consulted before any network source (repeatable):
    /// JSONL in the world schema, CSL-JSON, or BibTeX.
    #[arg(long = "corpus", value_name = "FILE")]
    pub corpora: Vec<PathBuf>,
    /// The corpora hold every work that may be cited: a work missing from them is
    /// reported as not found, and no network source is asked.
    #[arg(long, requires = "corpora")]
    pub corpus_complete: bool,
    /// Cache directory [default: the platform cache directory + citeproof].
    #[arg(long, value_name = "DIR", env = "CITEPROOF_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Neither read nor write the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Contact e-mail sent to the APIs (Crossref's polite pool, NCBI, Unpaywall).
    #[arg(long, value_name = "EMAIL", env = "CITEPROOF_MAILTO")]
    pub mailto: Option<String>,
    /// A source not to ask (repeatable): crossref, openalex, s2, arxiv, pubmed,
    /// europepmc, doi, datacite.
    #[arg(long = "disable-source", value_name = "NAME")]
    pub disabled: Vec<SourceName>,
    /// Title-search order: tiers separated by `,`, sources asked in parallel joined by `+`.
    #[arg(long, value_name = "ORDER", default_value_t = SearchOrder(SourcePlan::default().search))]
    pub search_order: SearchOrder,
    /// Seconds one attempt of one request may take.
    #[arg(long, value_name = "SECONDS", env = "CITEPROOF_TIMEOUT")]
    pub timeout: Option<f64>,
    /// Retries of a request that failed transiently (429, 5xx, connection errors).
    #[arg(long, value_name = "N", env = "CITEPROOF_RETRIES")]
    pub retries: Option<u32>,
    /// Fetch cited URLs on private or loopback addresses too (intranet mirrors).
    #[arg(long)]
    pub allow_private_urls: bool,
}

impl ResolveArgs {
    /// The run's options; problems that do not stop it are printed on stderr.
    pub fn options(&self) -> anyhow::Result<ResolveOptions> {
        let mut sources = SourcesSettings::from_env()?;
        if let Some(t) = self.timeout
            && !(t.is_finite() && t > 0.0)
        {
            bail!("--timeout must be a positive number of seconds, not {t}");
        }
        for s in &mut sources.sources {
            if let Some(m) = &self.mailto {
                s.mailto = Some(m.clone()).filter(|m| !m.trim().is_empty());
            }
            if let Some(t) = self.timeout {
                s.timeout = Duration::from_secs_f64(t);
            }
            if let Some(r) = self.retries {
                s.retry.max_retries = r;
            }
            if self.disabled.contains(&s.name) {
                s.enabled = false;
            }
        }
        let plan = SourcePlan {
            search: self.search_order.0.clone(),
            ..SourcePlan::default()
        };
        let corpus = if self.corpora.is_empty() {
            None
        } else {
            let (corpus, warnings) = Corpus::load(&self.corpora)?;
            for w in warnings {
                eprintln!("warning: {w}");
            }
            Some(Arc::new(corpus))
        };
        Ok(ResolveOptions {
            sources,
            plan,
            offline: self.offline,
            corpus,
            corpus_complete: self.corpus_complete,
            cache: self.open_cache(),
            allow_private_urls: self.allow_private_urls,
            ..ResolveOptions::default()
        })
    }

    /// The cache, or none (with a warning) when it cannot be opened: a run without a
    /// cache is slower, not wrong.
    fn open_cache(&self) -> Option<Cache> {
        if self.no_cache {
            return None;
        }
        let dir = self.cache_dir.clone().or_else(cache::default_dir)?;
        match Cache::open(&dir) {
            Ok(cache) => {
                for w in cache.warnings() {
                    eprintln!("warning: {w}");
                }
                Some(cache)
            }
            Err(e) => {
                eprintln!("warning: running without a cache: {e}");
                None
            }
        }
    }
}

/// A progress bar on stderr, hidden when stderr is not a terminal.
fn with_progress(mut options: ResolveOptions) -> (ResolveOptions, ProgressBar) {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    bar.set_style(
        ProgressStyle::with_template("resolving {pos}/{len} references {wide_bar} {elapsed}")
            .expect("static progress template"),
    );
    let shown = bar.clone();
    options.progress = Some(Arc::new(move |p| {
        shown.set_length(p.total as u64);
        shown.set_position(p.done as u64);
    }));
    (options, bar)
}

/// The resolution diagnostics of a loaded, linked project (for `check`), with the
/// resolutions and the options they were made with (`check --verify` verifies against
/// the resolved works).
pub fn project_resolution(
    project: &Project,
    args: &ResolveArgs,
) -> anyhow::Result<(Vec<Diagnostic>, ProjectResolution, ResolveOptions)> {
    let (mut options, bar) = with_progress(args.options()?);
    let resolved = resolve_project(project, &options)?;
    bar.finish_and_clear();
    let statuses: Vec<Status> = resolved
        .entries
        .iter()
        .map(|e| e.resolution.status)
        .collect();
    if !statuses.is_empty() {
        eprintln!("resolved {}", summary(&statuses));
    }
    options.progress = None;
    Ok((diagnostics(project, &resolved), resolved, options))
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
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let (options, bar) = with_progress(args.resolution.options()?);
    let queries: Vec<_> = refs.iter().map(|r| r.query.clone()).collect();
    let (resolutions, _) = resolve_blocking(options, &queries)?;
    bar.finish_and_clear();
    let mut text = String::new();
    for (r, resolution) in refs.iter().zip(&resolutions) {
        let line = match args.format {
            Format::Jsonl => resolution.to_json_line(&r.id).to_string(),
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
    }
}

fn text_line(id: &str, r: &Resolution) -> String {
    let mut parts: Vec<String> = Vec::new();
    for m in &r.mismatches {
        let field = m.field.as_str();
        let record = if m.record.is_empty() {
            "none"
        } else {
            &m.record
        };
        parts.push(format!(
            "{field}: cited \"{}\", record \"{record}\"",
            m.cited
        ));
    }
    if let Some(work) = &r.work {
        parts.push(format!("{} [{}]", describe(work), work.source));
    }
    if r.expression_of_concern {
        parts.push("expression of concern".into());
    }
    if let Some(other) = &r.identifier_work {
        parts.push(format!("its identifier names {}", describe(other)));
    }
    for (field, value) in &r.unresolved {
        parts.push(format!("{} {value} does not resolve", field.as_str()));
    }
    if r.status == Status::NotFound {
        let mut asked: Vec<&str> = Vec::new();
        for t in &r.sources_tried {
            if !asked.contains(&t.source.as_str()) {
                asked.push(&t.source);
            }
        }
        parts.push(format!("no source has it (asked {})", asked.join(", ")));
    }
    if r.status == Status::Unverified {
        parts.extend(r.failures.iter().take(3).cloned());
        parts.extend(r.notes.iter().take(1).cloned());
    }
    format!("{id}\t{}\t{}", status_name(r.status), parts.join("; "))
}

fn summary(statuses: &[Status]) -> String {
    let count = |s: Status| statuses.iter().filter(|&&x| x == s).count();
    format!(
        "{} references: {} verified, {} miscited, {} not found, {} retracted, {} unverified",
        statuses.len(),
        count(Status::Verified),
        count(Status::Miscited),
        count(Status::NotFound),
        count(Status::Retracted),
        count(Status::Unverified)
    )
}
