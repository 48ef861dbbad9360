//! `citeproof index build|stats|check`: the offline scholarly record.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use citeproof::index::build::{BuildInputs, BuildProgress, build};
use citeproof::index::check_index;
use citeproof::index::sqlite::ReindexProgress;
use citeproof::index::stats::{human_bytes, render};
use citeproof::index::{self, StoreWriter};

#[derive(Debug, Args)]
pub struct IndexArgs {
    #[command(subcommand)]
    pub command: IndexCommand,
}

#[derive(Debug, Subcommand)]
pub enum IndexCommand {
    /// Import bulk dumps into an index folder (created when missing; a rerun adds new
    /// files and replaces records that changed).
    Build(BuildArgs),
    /// Print counts per source, size and build date.
    Stats(StatsArgs),
    /// Check that an index is sound (SQLite's integrity check, the identifiers, title
    /// keys, title index and counts against the records); exit 1 when it is broken.
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The index folder, or a PostgreSQL database (`postgres://user@host/db`).
    #[arg(value_name = "INDEX_DIR")]
    pub dir: PathBuf,
    /// The OpenAlex works snapshot (`data/works`, a partition folder or part files).
    #[arg(long, value_name = "PATH")]
    pub openalex: Vec<PathBuf>,
    /// The Crossref public data file (a folder of `*.json.gz`, or files).
    #[arg(long, value_name = "PATH")]
    pub crossref: Vec<PathBuf>,
    /// The DBLP XML dump (`dblp.xml.gz`).
    #[arg(long, value_name = "FILE")]
    pub dblp: Vec<PathBuf>,
    /// The ACL Anthology's BibTeX export (`anthology.bib.gz`).
    #[arg(long, value_name = "FILE")]
    pub acl: Vec<PathBuf>,
    /// A dump of OpenReview notes (JSON Lines of API v2 notes, or saved `/notes` replies).
    #[arg(long, value_name = "PATH")]
    pub openreview: Vec<PathBuf>,
    /// A local corpus: world-schema JSONL, CSL-JSON or BibTeX.
    #[arg(long, value_name = "FILE")]
    pub corpus: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[arg(value_name = "INDEX_DIR")]
    pub dir: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The index folder, or a PostgreSQL database (`postgres://user@host/db`); before
    /// `--index` when both are given.
    #[arg(value_name = "INDEX_DIR")]
    pub dir: Option<PathBuf>,
    /// The same, as `check` and `resolve` take it [env: CITEPROOF_INDEX].
    #[arg(long, value_name = "DIR|URL", env = "CITEPROOF_INDEX", hide_env = true)]
    pub index: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: IndexArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        IndexCommand::Build(args) => run_build(args),
        IndexCommand::Stats(args) => {
            let stats = index::open(&args.dir)?.stats()?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print!("{}", render(&stats));
            }
            Ok(ExitCode::SUCCESS)
        }
        IndexCommand::Check(args) => run_check(args),
    }
}

fn run_check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let Some(location) = args.dir.or(args.index) else {
        anyhow::bail!("which index? give its folder or URL (or --index, or CITEPROOF_INDEX)");
    };
    let report = check_index(&location)?;
    if args.json {
        let mut value = serde_json::to_value(&report)?;
        value["sound"] = report.sound().into();
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print!("{}", report.render());
    }
    Ok(if report.sound() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn run_build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let inputs = BuildInputs {
        openalex: args.openalex,
        crossref: args.crossref,
        dblp: args.dblp,
        corpus: args.corpus,
        acl: args.acl,
        openreview: args.openreview,
    };
    if inputs.openalex.is_empty()
        && inputs.crossref.is_empty()
        && inputs.dblp.is_empty()
        && inputs.corpus.is_empty()
        && inputs.acl.is_empty()
        && inputs.openreview.is_empty()
        && !index::exists(&args.dir)
    {
        anyhow::bail!(
            "nothing to import into a new index: give at least one of --openalex, --crossref, \
             --dblp, --acl, --openreview, --corpus"
        );
    }
    let mut writer = open_writer(&args.dir)?;
    let bar =
        progress_bar("importing {bytes}/{total_bytes} {wide_bar} {msg} {elapsed} (eta {eta})");
    let shown = bar.clone();
    let report = build(writer.as_mut(), &inputs, &move |p: &BuildProgress| {
        shown.set_length(p.bytes_total);
        shown.set_position(p.bytes_read);
        shown.set_message(format!("{} records", p.records));
    })
    .map_err(|e| stopped(&args.dir, &e))?;
    bar.finish_and_clear();
    for w in &report.first_warnings {
        eprintln!("warning: {w}");
    }
    if report.warnings > report.first_warnings.len() as u64 {
        eprintln!(
            "warning: {} more records skipped",
            report.warnings - report.first_warnings.len() as u64
        );
    }
    let secs = report.elapsed.as_secs_f64();
    eprintln!(
        "imported {} files ({} unchanged since the last build skipped): {} records read, \
         {} added, {} replaced, {} kept (the index had them already or newer), {:.1} s, {:.0} records/s",
        report.files,
        report.files_unchanged,
        report.records(),
        report.added,
        report.replaced,
        report.kept,
        secs,
        report.records() as f64 / secs.max(1e-9)
    );
    drop(writer);
    for failed in &report.incomplete_files {
        eprintln!("error: {failed}; the file will be read again by the next build");
    }
    let stats = index::open(&args.dir)?.stats()?;
    eprintln!(
        "index {}: {} works, {}",
        stats.location.display(),
        stats.works,
        human_bytes(stats.bytes)
    );
    if report.incomplete_files.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(2))
    }
}

/// Why a build stopped, and that it can be resumed: what was committed is kept (the
/// index is consistent at every commit), files imported before are skipped by the next
/// build, and a file cut short is read again.
fn stopped(dir: &std::path::Path, error: &index::IndexError) -> anyhow::Error {
    let text = error.to_string();
    let full = [
        "disk I/O error",
        "database or disk is full",
        "No space left",
        "File too large",
        "Disk quota exceeded",
    ]
    .iter()
    .any(|s| text.contains(s));
    anyhow::anyhow!(
        "the build of {} stopped: {text}{}; what it committed before is kept: run the same \
         `citeproof index build` again to resume",
        dir.display(),
        if full {
            " (is the disk full, or a file larger than the system allows?)"
        } else {
            ""
        }
    )
}

/// A progress bar on standard error when it is a terminal (hidden otherwise).
fn progress_bar(template: &str) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    bar.set_style(ProgressStyle::with_template(template).expect("static progress template"));
    bar
}

/// Open an index folder for building; a title index built by an older citeproof is
/// indexed again first, with its own progress bar.
fn open_writer(dir: &std::path::Path) -> anyhow::Result<Box<dyn StoreWriter>> {
    let bar = progress_bar("indexing titles again {pos}/{len} {wide_bar} {elapsed} (eta {eta})");
    let shown = bar.clone();
    let writer = index::open_writer(dir, &move |p: &ReindexProgress| {
        if p.done == 0 {
            shown.suspend(|| {
                eprintln!(
                    "the title index predates word pairs (an older citeproof built it, or \
                     indexing it again was interrupted): indexing every title again from the \
                     records, once"
                )
            });
        }
        shown.set_length(p.total);
        shown.set_position(p.done);
    })?;
    bar.finish_and_clear();
    Ok(writer)
}
