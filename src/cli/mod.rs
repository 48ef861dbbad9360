//! Command-line arguments and dispatch to one module per command.

mod accept;
mod batch;
mod batch_merge;
mod cache;
mod check;
mod clean;
mod config;
mod extract;
mod flag_layers;
mod index;
mod lsp;
mod resolve;
mod rules;
mod serve;
mod session;
mod stage_args;
mod validate;
mod verify;
mod verify_flags;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use citeproof::load::LoadOptions;
use citeproof::parse::ParseOptions;

/// Check citations in manuscripts and LLM answers: undefined keys, fabricated or
/// mis-cited references, retracted work, unsupported claims.
#[derive(Debug, Parser)]
#[command(name = "citeproof", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check documents and report diagnostics.
    Check(check::CheckArgs),
    /// Check many submissions (a folder of them, or a list): one summary line each
    /// (JSONL and CSV), per-submission reports, resumable after a crash.
    Batch(Box<batch::BatchArgs>),
    /// Print what was parsed: documents, references, claim–citation pairs (JSON).
    Extract(extract::ExtractArgs),
    /// Resolve references (a .bib file, reference strings, JSONL) against the
    /// scholarly record and print one verdict per reference.
    Resolve(resolve::ResolveCommandArgs),
    /// Inspect or clear the resolution cache.
    Cache(cache::CacheArgs),
    /// List every rule.
    Rules(rules::RulesArgs),
    /// Explain one rule (by code or name).
    Explain(rules::ExplainArgs),
    /// Verify claims against the works they cite (JSONL in, JSONL out).
    Verify(verify::VerifyArgs),
    /// Print the effective configuration and where each value came from.
    Config(config::ConfigArgs),
    /// Run the language server on standard input and output (for editors).
    Lsp(lsp::LspArgs),
    /// Build or inspect an offline index of the scholarly record (OpenAlex, Crossref,
    /// DBLP dumps and local corpora).
    Index(index::IndexArgs),
    /// Remove hallucinated and mismatched citations from an LLM answer; print the
    /// cleaned answer and (--report) a JSON report per citation.
    Clean(Box<clean::CleanArgs>),
    /// Score retrieved articles for a query (recency, reputation, citations,
    /// relevance, identifiers) and keep the trustworthy ones (JSONL in, JSONL out).
    ValidateSources(validate::ValidateArgs),
    /// Serve the checks over HTTP (check, resolve, validate, clean; metrics, OpenAPI).
    Serve(serve::ServeArgs),
    /// Record a reference as a work confirmed real (`.citeproof/accepted.toml`): its
    /// not-found, not-indexed and unverified findings are no longer reported.
    Accept(accept::AcceptArgs),
}

/// Input options shared by the commands that read documents.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Files or directories (directories are searched for .md, .tex and .bib files).
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// How documents are read (`check`, `batch`, `extract`, `accept`).
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// A bibliography file every document uses (repeatable).
    #[arg(long = "bib", value_name = "FILE")]
    pub bibliographies: Vec<PathBuf>,
    /// Files larger than this are not read (bytes; suffixes K, M, G allowed; default 50M).
    #[arg(long, value_name = "SIZE", value_parser = citeproof::config::values::parse_size)]
    pub max_file_size: Option<u64>,
    /// LaTeX citation commands in addition to the defaults (repeatable; no backslash).
    #[arg(long = "cite-command", value_name = "NAME")]
    pub cite_commands: Vec<String>,
}

impl InputArgs {
    pub fn load_options(&self) -> LoadOptions {
        self.read.load_options()
    }
}

impl ReadArgs {
    pub fn load_options(&self) -> LoadOptions {
        let mut parse = ParseOptions::default();
        if let Some(size) = self.max_file_size {
            parse.max_file_size = size;
        }
        parse
            .cite_commands
            .extend(self.cite_commands.iter().cloned());
        LoadOptions {
            parse,
            bibliographies: self.bibliographies.clone(),
            ..LoadOptions::default()
        }
    }
}

/// The inputs with those that name a paper (`arXiv:…`, `doi:…`, an OpenReview
/// forum URL) fetched, and the file-system view that holds what was fetched. The
/// configuration nearest to the working folder (or `--config`) says where from.
pub fn fetch_named_papers(
    paths: &[PathBuf],
    overrides: &citeproof::config::Overrides,
) -> anyhow::Result<(Vec<PathBuf>, citeproof::fs::Vfs)> {
    use citeproof::read::fetch;
    if !paths.iter().any(|p| fetch::is_identifier(p)) {
        return Ok((paths.to_vec(), citeproof::fs::Vfs::disk()));
    }
    let configs = citeproof::config::ConfigSet::load(None, overrides.clone())?;
    let settings = configs.run().fetch_settings();
    let (inputs, fs) = fetch::fetch_inputs(paths, &citeproof::fs::Vfs::disk(), &settings);
    Ok((inputs, fs.unwrap_or_default()))
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Batch(args) => batch::run(*args),
        Command::Extract(args) => extract::run(args),
        Command::Resolve(args) => resolve::run(args),
        Command::Cache(args) => cache::run(args),
        Command::Rules(args) => rules::list(args),
        Command::Explain(args) => rules::explain(args),
        Command::Verify(args) => verify::run(args),
        Command::Config(args) => config::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Index(args) => index::run(args),
        Command::Clean(args) => clean::run(*args),
        Command::ValidateSources(args) => validate::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Accept(args) => accept::run(args),
    }
}
