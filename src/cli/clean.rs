//! `citeproof clean [ANSWER|-]`: the answer with its hallucinated and mismatched
//! citations removed, on standard output; the report as JSON. A thin shell over
//! [`citeproof::clean`]: flags become configuration layers, the configuration becomes
//! a [`Cleaner`], and the library does the rest.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use citeproof::accept;
use clap::{Args, ValueEnum};

use citeproof::clean::{
    CleanReport, CleanRequest, Cleaned, Cleaner, Status, Taken, clean_blocking, parse_sources,
};

use super::resolve::ResolveArgs;
use super::stage_args::{Layers, command_config};
use super::verify_flags::VerifyFlags;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CleanFormat {
    /// The cleaned answer as text.
    Text,
    /// `{"cleaned", "report"}` (and `references` with --references).
    Json,
}

#[derive(Debug, Args)]
pub struct CleanArgs {
    /// The answer (Markdown or plain text); `-` or nothing reads standard input.
    #[arg(value_name = "ANSWER", default_value = "-")]
    pub answer: PathBuf,
    /// The reference list in a file of its own (`[n] …` or `n. …` lines, URLs, DOIs).
    #[arg(long, value_name = "FILE")]
    pub references: Option<PathBuf>,
    /// Write the rewritten reference list of --references to FILE.
    #[arg(long, value_name = "FILE", requires = "references")]
    pub references_output: Option<PathBuf>,
    /// The articles the pipeline retrieved (JSONL or a JSON array with MicroTraitLLM's
    /// Article fields): citations are checked against them only, without network.
    #[arg(long, value_name = "FILE")]
    pub sources: Option<PathBuf>,
    /// Write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// What to print: the cleaned answer (text) or {"cleaned", "report"} (json).
    #[arg(long, short = 'f', value_enum, default_value = "text")]
    pub format: CleanFormat,
    /// Write the output to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Outcomes that make the run exit with 1: removed, marked, any, none, or statuses
    /// (not_found, mismatch, doubtful, retracted, unverified, not_indexed), comma-separated or repeated
    /// [default: none; config: clean.fail-on].
    #[arg(long, value_name = "OUTCOMES")]
    pub fail_on: Vec<String>,
    /// Use this configuration file (default: the nearest one to ANSWER).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub policy: PolicyFlags,
    /// Do not resolve references (open world: they stay unverified)
    /// [config: resolve.enabled = false].
    #[arg(long)]
    pub no_resolve: bool,
    #[command(flatten)]
    pub resolution: ResolveArgs,
    #[command(flatten)]
    pub verification: VerifyFlags,
}

/// Thresholds and the policy per status; each sets a `[clean]` key.
#[derive(Debug, Args)]
pub struct PolicyFlags {
    /// Named settings: microtrait (cosine of the 200 characters around the marker
    /// with title + abstract, valid from 0.6) [config: clean.preset].
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// How text and article are compared: score or cosine [config: clean.metric].
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// Similarity below which a found article is a mismatch: the judge's support, or
    /// the cosine [default: fitted per scoring mode; config: clean.threshold].
    #[arg(long, value_name = "0..1")]
    pub threshold: Option<f64>,
    /// Support below which a found article is doubtful (score metric)
    /// [default: fitted per scoring mode; config: clean.doubt-threshold].
    #[arg(long, value_name = "0..1")]
    pub doubt_threshold: Option<f64>,
    /// The text compared with the article: sentence or window [config: clean.context].
    #[arg(long, value_name = "CONTEXT")]
    pub context: Option<String>,
    /// Characters on either side of the marker for --context window [config: clean.window].
    #[arg(long, value_name = "CHARS")]
    pub window: Option<u32>,
    /// 1 turns off the judge's comparison of each sentence with the answer's other
    /// articles (rivals); other values leave it on [config: clean.swap-margin].
    #[arg(long, value_name = "0..1")]
    pub swap_margin: Option<f64>,
    /// Action for citations of works that are not found: remove, mark or keep
    /// [default: remove; config: clean.not-found].
    #[arg(long, value_name = "ACTION")]
    pub not_found: Option<String>,
    /// Action for mismatched citations [default: remove; config: clean.mismatch].
    #[arg(long, value_name = "ACTION")]
    pub mismatch: Option<String>,
    /// Action for citations the judge doubts without being sure (mark writes them with
    /// --mark-format, e.g. '{n}?') [default: keep; config: clean.doubtful].
    #[arg(long, value_name = "ACTION")]
    pub doubtful: Option<String>,
    /// Action for citations of retracted articles [default: mark; config: clean.retracted].
    #[arg(long, value_name = "ACTION")]
    pub retracted: Option<String>,
    /// Action for citations that could not be checked [default: keep;
    /// config: clean.unverified].
    #[arg(long, value_name = "ACTION")]
    pub unverified: Option<String>,
    /// Action for citations of works that no source asked has, where those sources
    /// hold the work's kind only partly (books, theses, software …) [default: keep;
    /// config: clean.not-indexed].
    #[arg(long, value_name = "ACTION")]
    pub not_indexed: Option<String>,
    /// How a marked number is written, `{n}` standing for it [default: {n}†;
    /// config: clean.mark-format].
    #[arg(long, value_name = "FORMAT")]
    pub mark_format: Option<String>,
    /// The note added at the end per marked reference ({marker}, {n}, {status},
    /// {reason}; "" for none) [config: clean.mark-note].
    #[arg(long, value_name = "TEMPLATE")]
    pub mark_note: Option<String>,
    /// Keep the numbers as written instead of renumbering 1..k [config: clean.renumber].
    #[arg(long)]
    pub no_renumber: bool,
    /// What numbers refer to: auto, references or sources [config: clean.numbering].
    #[arg(long, value_name = "WHAT")]
    pub numbering: Option<String>,
}

impl CleanArgs {
    fn layers(&self) -> anyhow::Result<Layers> {
        let mut layers = Layers::default();
        let p = &self.policy;
        let texts = [
            ("--preset", "clean.preset", &p.preset),
            ("--metric", "clean.metric", &p.metric),
            ("--context", "clean.context", &p.context),
            ("--not-found", "clean.not-found", &p.not_found),
            ("--mismatch", "clean.mismatch", &p.mismatch),
            ("--doubtful", "clean.doubtful", &p.doubtful),
            ("--retracted", "clean.retracted", &p.retracted),
            ("--unverified", "clean.unverified", &p.unverified),
            ("--not-indexed", "clean.not-indexed", &p.not_indexed),
            ("--mark-format", "clean.mark-format", &p.mark_format),
            ("--mark-note", "clean.mark-note", &p.mark_note),
            ("--numbering", "clean.numbering", &p.numbering),
        ];
        for (flag, key, value) in texts {
            if let Some(value) = value {
                // Names are matched in lowercase, as the library reads them.
                let value = if key.ends_with("mark-format") || key.ends_with("mark-note") {
                    value.clone()
                } else {
                    value.trim().to_ascii_lowercase().replace('-', "_")
                };
                layers.set(flag, key, value)?;
            }
        }
        if let Some(t) = p.threshold {
            layers.set("--threshold", "clean.threshold", t)?;
        }
        if let Some(t) = p.doubt_threshold {
            layers.set("--doubt-threshold", "clean.doubt-threshold", t)?;
        }
        if let Some(m) = p.swap_margin {
            layers.set("--swap-margin", "clean.swap-margin", m)?;
        }
        if let Some(w) = p.window {
            layers.set("--window", "clean.window", i64::from(w))?;
        }
        if p.no_renumber {
            layers.set("--no-renumber", "clean.renumber", false)?;
        }
        if !self.fail_on.is_empty() {
            layers.set("--fail-on", "clean.fail-on", self.fail_on.clone())?;
        }
        if self.no_resolve {
            layers.set("--no-resolve", "resolve.enabled", false)?;
        }
        self.resolution.add_layers(&mut layers)?;
        self.verification.add_layers(&mut layers)?;
        Ok(layers)
    }
}

pub fn run(args: CleanArgs) -> anyhow::Result<ExitCode> {
    let configs = command_config(&args.answer, args.config.clone(), args.layers()?.0)?;
    let config = configs.run();
    let (mut settings, mut warnings) = config.cleaner_settings()?;
    settings.accepted = accepted_works(&args.answer, &mut warnings);
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let fail_on = config.clean_fail_on();
    let answer = read_text(&args.answer)?;
    let references = args.references.as_deref().map(read_text).transpose()?;
    let sources = match &args.sources {
        Some(path) => Some(
            parse_sources(&read_text(path)?).with_context(|| format!("`{}`", path.display()))?,
        ),
        None => None,
    };
    let cleaner = Cleaner::new(settings)?;
    let request = CleanRequest {
        answer,
        references,
        sources,
        options: None,
    };
    let cleaned = clean_blocking(&cleaner, &request)?;
    if let Some(path) = &args.report {
        let json = serde_json::to_string_pretty(&cleaned.report)? + "\n";
        std::fs::write(path, json)
            .with_context(|| format!("cannot write the report to `{}`", path.display()))?;
    }
    if let (Some(path), Some(text)) = (&args.references_output, &cleaned.references) {
        std::fs::write(path, text)
            .with_context(|| format!("cannot write the references to `{}`", path.display()))?;
    }
    let rendered = match args.format {
        CleanFormat::Text => cleaned.cleaned.clone(),
        CleanFormat::Json => serde_json::to_string_pretty(&cleaned)? + "\n",
    };
    match &args.output {
        Some(path) => std::fs::write(path, rendered)
            .with_context(|| format!("cannot write `{}`", path.display()))?,
        None => std::io::stdout().lock().write_all(rendered.as_bytes())?,
    }
    eprintln!("{}", summary(&cleaned));
    Ok(if fail_on.fails(&cleaned.report) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A file's text, or standard input's for `-`; not UTF-8 is an error naming it.
fn read_text(path: &Path) -> anyhow::Result<String> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        return String::from_utf8(bytes).map_err(|e| {
            anyhow::anyhow!(
                "standard input is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )
        });
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "`{}` is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// One line for stderr: what was found and what was done.
fn summary(cleaned: &Cleaned) -> String {
    let report: &CleanReport = &cleaned.report;
    let s = &report.summary;
    let mut found: Vec<String> = Vec::new();
    for (n, status) in [
        (s.valid, Status::Valid),
        (s.mismatch, Status::Mismatch),
        (s.doubtful, Status::Doubtful),
        (s.not_found, Status::NotFound),
        (s.retracted, Status::Retracted),
        (s.unverified, Status::Unverified),
        (s.not_indexed, Status::NotIndexed),
    ] {
        if n > 0 {
            found.push(format!("{n} {}", status.as_str()));
        }
    }
    let mut done: Vec<String> = Vec::new();
    for (n, taken) in [
        (s.kept, Taken::Kept),
        (s.removed, Taken::Removed),
        (s.marked, Taken::Marked),
    ] {
        if n > 0 {
            let word = match taken {
                Taken::Kept => "kept",
                Taken::Removed => "removed",
                Taken::Marked => "marked",
            };
            done.push(format!("{n} {word}"));
        }
    }
    if s.citations == 0 {
        return "clean: no citation markers found".into();
    }
    format!(
        "clean ({} world, {}): {} citation(s): {}; {}",
        s.world,
        s.alignment,
        s.citations,
        found.join(", "),
        done.join(", ")
    )
}

/// The accepted works that apply to the answer (its folder's project, or the
/// working folder's for standard input, and the user's); what is wrong with their
/// files becomes warnings.
fn accepted_works(answer: &std::path::Path, warnings: &mut Vec<String>) -> accept::Accepted {
    let start = if answer.as_os_str() == "-" {
        std::env::current_dir().unwrap_or_default()
    } else {
        std::path::absolute(answer).unwrap_or_else(|_| answer.to_path_buf())
    };
    let files = accept::Accepted::read(
        &accept::Lookup::standard(),
        &*citeproof::fs::Vfs::disk(),
        &[start],
    );
    for file in &files {
        let index = citeproof::source::LineIndex::new(&file.text);
        for (span, why) in &file.read.problems {
            let at = index.line_col(&file.text, span.start);
            warnings.push(format!("{}:{}: {why}", file.path.display(), at.line));
        }
    }
    accept::Accepted::from_files(files)
}
