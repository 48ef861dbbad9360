//! `citeproof batch merge`: the output folders of `batch --shard I/N` runs made into
//! one — a thin shell over [`citeproof::batch::merge`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use citeproof::batch::files::SUMMARY_CSV;
use citeproof::batch::merge::{self, TOTALS_FILE, Totals};

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' output folders (`batch --shard I/N --out DIR`), in any order.
    #[arg(value_name = "OUT_DIRS", required = true)]
    pub dirs: Vec<PathBuf>,
    /// The merged folder: summary.jsonl, summary.csv, totals.json, reports/.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Exit with 0 even when submissions have failing findings (an incomplete merge
    /// or submissions that could not be checked still exit with 2).
    #[arg(long)]
    pub exit_zero: bool,
}

pub fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let out = std::path::absolute(&args.out)?;
    for dir in &args.dirs {
        if std::path::absolute(dir)? == out {
            anyhow::bail!(
                "--out `{}` is one of the folders merged: give another folder",
                args.out.display()
            );
        }
    }
    let merged = merge::merge(&args.dirs)?;
    merged.write(&args.out)?;
    let t = &merged.totals;
    for problem in problems(t) {
        eprintln!("citeproof: {problem}");
    }
    eprintln!(
        "citeproof: merged {} of {} submission(s) from {} folder(s){}: {} checked, {} could \
         not be checked, {} with failing findings, {} references; summary in `{}`, totals in `{}`",
        t.submissions,
        t.batch_submissions,
        args.dirs.len(),
        if t.complete { "" } else { " (INCOMPLETE)" },
        t.checked,
        t.failed,
        t.failing,
        t.references,
        args.out.join(SUMMARY_CSV).display(),
        args.out.join(TOTALS_FILE).display(),
    );
    Ok(if !t.complete || t.failed > 0 {
        ExitCode::from(2)
    } else if t.failing > 0 && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// What keeps the merge from being the whole batch, one sentence each.
fn problems(t: &Totals) -> Vec<String> {
    let list = |ids: &[String]| {
        let shown: Vec<&str> = ids.iter().take(10).map(String::as_str).collect();
        let more = ids.len().saturating_sub(shown.len());
        match more {
            0 => shown.join(", "),
            n => format!("{} and {n} more", shown.join(", ")),
        }
    };
    let mut out = t.mismatches.clone();
    if !t.missing_shards.is_empty() {
        out.push(format!("missing shard(s): {}", list(&t.missing_shards)));
    }
    if !t.duplicate_shards.is_empty() {
        out.push(format!(
            "shard(s) given more than once: {}",
            list(&t.duplicate_shards)
        ));
    }
    for dir in &t.unfinished {
        out.push(format!(
            "`{dir}` has not finished (no summary.jsonl): run its batch again with the same \
             arguments to resume it"
        ));
    }
    if !t.missing_submissions.is_empty() {
        out.push(format!(
            "submission(s) missing from their shard's summary: {}",
            list(&t.missing_submissions)
        ));
    }
    if !t.duplicate_submissions.is_empty() {
        out.push(format!(
            "submission(s) in more than one folder (the first kept): {}",
            list(&t.duplicate_submissions)
        ));
    }
    out
}
