//! `citeproof validate-sources --query TEXT SOURCES`: score the articles a RAG pipeline
//! retrieved and keep the trustworthy ones. A thin shell over
//! [`citeproof::validate`]: flags become `[validate]` configuration layers, the
//! configuration becomes a validator and a resolver, the library does the rest.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use serde_json::Value;

use citeproof::clean::align::Aligner;
use citeproof::clean::{Cleaner, CleanerSettings};
use citeproof::resolve::cascade::Resolver;
use citeproof::validate::{self, ValidateRequest, Validated, Validator, output};
use citeproof::verify::backend::VerifySettings;

use super::resolve::{ResolveArgs, resolve_options, unreachable_note};
use super::stage_args::{Layers, command_config};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValidateFormat {
    /// One kept article per line, as sent plus `validation_score`, `confidence_label`
    /// and `validation`.
    Jsonl,
    /// `{"query", "articles", "filtered", "summary"}`.
    Json,
    /// One readable line per article and a summary.
    Text,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The query the articles were retrieved for.
    #[arg(long, short = 'q', value_name = "TEXT")]
    pub query: String,
    /// The articles: JSONL or a JSON array in MicroTraitLLM's Article fields; `-` reads
    /// standard input.
    #[arg(value_name = "SOURCES", default_value = "-")]
    pub sources: PathBuf,
    #[arg(long, short = 'f', value_enum, default_value = "jsonl")]
    pub format: ValidateFormat,
    /// Write the output to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Keep every article, low-confidence and invalid ones included
    /// [config: validate.keep-all].
    #[arg(long)]
    pub keep_all: bool,
    /// Named settings: microtrait (citations min–max scaled over the set, cosine
    /// relevance, kept from 0.15) [config: validate.preset].
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Articles scored below this are filtered [default: the medium threshold, 0.5;
    /// config: validate.min-score].
    #[arg(long, value_name = "SCORE")]
    pub min_score: Option<f64>,
    /// Component weights, e.g. `recency=0.2,relevance=0.5` [config: validate.weights].
    #[arg(long, value_name = "NAME=W,…")]
    pub weights: Option<String>,
    /// How the query is compared with title + abstract: cosine (needs a sentence
    /// model) or score [config: validate.relevance].
    #[arg(long, value_name = "METRIC")]
    pub relevance: Option<String>,
    /// The year recency is counted from [default: this year; config:
    /// validate.current-year].
    #[arg(long, value_name = "YEAR")]
    pub current_year: Option<i32>,
    /// Do not resolve the articles' identifiers [config: validate.check-identifiers =
    /// false].
    #[arg(long)]
    pub no_check_identifiers: bool,
    /// A local sentence-embedding model directory for relevance (all-MiniLM-L6-v2)
    /// [env: CITEPROOF_EMBEDDING_MODEL; config: verify.local-embedding-model].
    #[arg(long, value_name = "DIR")]
    pub embedding_model: Option<PathBuf>,
    /// Use this configuration file (default: the nearest one to SOURCES).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Do not resolve identifiers (they are reported not checked)
    /// [config: resolve.enabled = false].
    #[arg(long)]
    pub no_resolve: bool,
    #[command(flatten)]
    pub resolution: ResolveArgs,
}

impl ValidateArgs {
    fn layers(&self) -> anyhow::Result<Layers> {
        let mut layers = Layers::default();
        if self.keep_all {
            layers.set("--keep-all", "validate.keep-all", true)?;
        }
        if let Some(preset) = &self.preset {
            layers.set(
                "--preset",
                "validate.preset",
                preset.trim().to_ascii_lowercase(),
            )?;
        }
        if let Some(score) = self.min_score {
            layers.set("--min-score", "validate.min-score", score)?;
        }
        if let Some(weights) = &self.weights {
            let mut entries = Vec::new();
            for part in weights.split(',').filter(|p| !p.trim().is_empty()) {
                let (name, value) = part.split_once('=').with_context(|| {
                    format!("--weights: `{part}` is not NAME=WEIGHT (e.g. relevance=0.5)")
                })?;
                let value: f64 = value
                    .trim()
                    .parse()
                    .with_context(|| format!("--weights: `{}` is not a number", value.trim()))?;
                entries.push((format!("validate.weights.{}", name.trim()), value.into()));
            }
            layers.push("--weights", entries)?;
        }
        if let Some(metric) = &self.relevance {
            layers.set(
                "--relevance",
                "validate.relevance",
                metric.trim().to_ascii_lowercase(),
            )?;
        }
        if let Some(year) = self.current_year {
            layers.set("--current-year", "validate.current-year", i64::from(year))?;
        }
        if self.no_check_identifiers {
            layers.set(
                "--no-check-identifiers",
                "validate.check-identifiers",
                false,
            )?;
        }
        if let Some(dir) = &self.embedding_model {
            layers.set_path("--embedding-model", "verify.local-embedding-model", dir)?;
        }
        if self.no_resolve {
            layers.set("--no-resolve", "resolve.enabled", false)?;
        }
        self.resolution.add_layers(&mut layers)?;
        Ok(layers)
    }
}

/// The relevance scorer of the `[verify]` settings — the sentence model when one is
/// configured, lexical otherwise — set up as `clean` sets up its alignment.
pub fn aligner(settings: VerifySettings) -> anyhow::Result<Aligner> {
    let cleaner = Cleaner::new(CleanerSettings {
        verify: Some(settings),
        ..CleanerSettings::default()
    })?;
    Ok(cleaner.aligner().clone())
}

pub fn run(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let configs = command_config(&args.sources, args.config.clone(), args.layers()?.0)?;
    let config = configs.run();
    let text = read_text(&args.sources)?;
    let originals = values_of(&text).with_context(|| format!("`{}`", args.sources.display()))?;
    let articles = output::articles_of(&originals)
        .map_err(|e| anyhow::anyhow!("`{}`: {e}", args.sources.display()))?;
    let validator = Validator::new(
        config.validate_options(),
        aligner(config.verify_settings()?)?,
    );
    let request = ValidateRequest {
        query: args.query.clone(),
        articles,
        options: None,
    };
    let settled = validator.settle(None)?;
    let wants_resolver = settled.check_identifiers && config.resolve_enabled();
    let (validated, stats) = if wants_resolver {
        let options = resolve_options(config)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        runtime.block_on(async {
            let resolver = Resolver::new(options)?;
            let validated = validate::validate(&validator, &request, Some(&resolver)).await?;
            anyhow::Ok((validated, resolver.stats()))
        })?
    } else {
        (
            validate::validate_blocking(&validator, &request, None)?,
            Vec::new(),
        )
    };
    if let Some(note) = unreachable_note(&stats) {
        eprintln!("{note}");
    }
    let rendered = render(args.format, &args.query, &originals, &validated);
    match &args.output {
        Some(path) => std::fs::write(path, rendered)
            .with_context(|| format!("cannot write `{}`", path.display()))?,
        None => std::io::stdout().lock().write_all(rendered.as_bytes())?,
    }
    let s = &validated.summary;
    eprintln!(
        "validated {} article(s): {} high, {} medium, {} low, {} invalid_id, {} unknown; kept {}, filtered {}",
        s.articles, s.high, s.medium, s.low, s.invalid_id, s.unknown, s.kept, s.filtered
    );
    Ok(ExitCode::SUCCESS)
}

fn render(
    format: ValidateFormat,
    query: &str,
    originals: &[Value],
    validated: &Validated,
) -> String {
    match format {
        ValidateFormat::Json => {
            let report = output::report(query, originals, validated);
            serde_json::to_string_pretty(&report).expect("JSON serialises") + "\n"
        }
        ValidateFormat::Jsonl => {
            let mut out = String::new();
            for v in validated.kept() {
                out.push_str(&output::annotated(&originals[v.index], v).to_string());
                out.push('\n');
            }
            out
        }
        ValidateFormat::Text => {
            let mut out = String::new();
            for v in &validated.articles {
                let c = &v.components;
                let show = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{s:.2}"));
                let title = originals[v.index]["title"].as_str().unwrap_or("(no title)");
                out.push_str(&format!(
                    "{}\t{:.2}\t{}\t{}\trecency {} reputation {} citations {} relevance {}\tid {}\t{}\n",
                    v.index + 1,
                    v.validation_score,
                    v.confidence_label.as_str(),
                    if v.kept { "kept" } else { "filtered" },
                    show(c.recency.score),
                    show(c.reputation.score),
                    show(c.citations.score),
                    show(c.relevance.score),
                    v.identifier.status.as_str(),
                    title,
                ));
            }
            out
        }
    }
}

/// JSONL, or a JSON array, as values; an error names the line.
fn values_of(text: &str) -> anyhow::Result<Vec<Value>> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('[') {
        return serde_json::from_str(trimmed).context("not a JSON array of articles");
    }
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(serde_json::from_str(line).with_context(|| format!("line {}", n + 1))?);
    }
    Ok(out)
}

fn read_text(path: &Path) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        bytes = std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "`{}` is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}
