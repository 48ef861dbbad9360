//! `citeproof batch`: many submissions, one summary — a thin shell over
//! [`citeproof::batch::run`], which checks each submission as `check` does.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{HumanDuration, ProgressBar};

use citeproof::batch::{self, BatchSetup, Observer, Status, SubmissionLine, submissions};
use citeproof::shard::Shard;

use super::ReadArgs;
use super::resolve::stderr_bar;
use super::session::PolicyArgs;
use super::stage_args::StageArgs;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BatchArgs {
    #[command(subcommand)]
    pub command: Option<BatchCommand>,
    /// Folders of submissions (each entry — a sub-folder, a .zip/.tar.gz archive, a
    /// .tex or .md file, a PDF or Word file — is one submission), single submissions,
    /// or list files (`.list`, `.lst`: one path per line, relative to the list).
    #[arg(value_name = "SUBMISSIONS", required_unless_present = "list")]
    pub submissions: Vec<PathBuf>,
    /// A list file of submissions, whatever its name: one path per line (repeatable).
    #[arg(long, value_name = "FILE")]
    pub list: Vec<PathBuf>,
    /// The output folder: summary.jsonl, summary.csv, reports/<id>.json and .html,
    /// and the journal a rerun resumes from.
    #[arg(long, value_name = "DIR", required = true)]
    pub out: Option<PathBuf>,
    /// Submissions checked at once [default: the number of cores].
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<NonZeroUsize>,
    /// Check only the I-th of N contiguous blocks of the submissions (in id order),
    /// so that N machines split one batch; their summaries concatenated in order
    /// 1..N are the whole batch's.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Findings listed per submission in the summary (the worst first).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub worst: usize,
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub exit_policy: PolicyArgs,
    #[command(flatten)]
    pub stages: StageArgs,
}

/// What `batch` does besides checking submissions.
#[derive(Debug, Subcommand)]
pub enum BatchCommand {
    /// Merge the output folders of `batch --shard I/N` runs into one summary with
    /// totals, naming missing, duplicated or unfinished shards and submissions.
    Merge(super::batch_merge::MergeArgs),
}

pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    if let Some(BatchCommand::Merge(merge)) = args.command {
        return super::batch_merge::run(merge);
    }
    let Some(out) = args.out.clone() else {
        anyhow::bail!("--out DIR is required: the folder the summary and reports go to");
    };
    let overrides = args.exit_policy.overrides(&args.read, &args.stages)?;
    let found = submissions::find(&args.submissions, &args.list, &out)?;
    if !found.skipped.is_empty() {
        let names: Vec<String> = found
            .skipped
            .iter()
            .map(|p| format!("`{}`", p.display()))
            .collect();
        eprintln!(
            "citeproof: {} folder entr{} not checked (no archive, folder or document): {}",
            names.len(),
            if names.len() == 1 { "y is" } else { "ies are" },
            names.join(", ")
        );
    }
    let batch_submissions = found.submissions.len();
    let submissions = match args.shard {
        Some(shard) => shard.select(found.submissions),
        None => found.submissions,
    };
    let jobs = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let setup = BatchSetup {
        submissions,
        out: out.clone(),
        jobs,
        worst: args.worst,
        bibliographies: args.read.bibliographies.clone(),
        overrides,
        shard: args.shard,
        batch_submissions,
    };
    let progress = Progress::new();
    let outcome = batch::run(&setup, &progress)?;
    progress.bar.finish_and_clear();
    let count = |f: &dyn Fn(&SubmissionLine) -> bool| outcome.lines.iter().filter(|l| f(l)).count();
    let failed = count(&|l| l.status == Status::Failed);
    let failing = count(&|l| l.failing);
    eprintln!(
        "citeproof: {} submission(s){}: {} checked, {failed} could not be checked, \
         {failing} with failing findings; summary in `{}`",
        outcome.lines.len(),
        match outcome.resumed {
            0 => String::new(),
            n => format!(" ({n} finished by an earlier run)"),
        },
        outcome.lines.len() - failed,
        out.join(batch::files::SUMMARY_CSV).display()
    );
    Ok(if failed > 0 {
        ExitCode::from(2)
    } else if failing > 0 && !args.exit_policy.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A progress line on stderr when it is a terminal: done/total, submissions per
/// minute and the time left; nothing otherwise.
struct Progress {
    bar: ProgressBar,
    start: Instant,
    resumed: std::sync::atomic::AtomicU64,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            bar: stderr_bar("{pos}/{len} submissions {wide_bar} {msg}"),
            start: Instant::now(),
            resumed: Default::default(),
        }
    }
}

impl Observer for Progress {
    fn started(&self, total: usize, resumed: usize) {
        self.bar.set_length(total as u64);
        self.bar.set_position(resumed as u64);
        self.resumed
            .store(resumed as u64, std::sync::atomic::Ordering::Relaxed);
    }

    fn finished(&self, _line: &SubmissionLine) {
        self.bar.inc(1);
        let resumed = self.resumed.load(std::sync::atomic::Ordering::Relaxed);
        let done_now = self.bar.position().saturating_sub(resumed) as f64;
        let minutes = self.start.elapsed().as_secs_f64() / 60.0;
        if minutes > 0.0 && done_now > 0.0 {
            let rate = done_now / minutes;
            let left = self.bar.length().unwrap_or(0) - self.bar.position();
            let eta = std::time::Duration::from_secs_f64(left as f64 / rate * 60.0);
            self.bar
                .set_message(format!("{rate:.1}/min · ETA {}", HumanDuration(eta)));
        }
    }

    fn warning(&self, text: &str) {
        self.bar.suspend(|| eprintln!("warning: {text}"));
    }
}
