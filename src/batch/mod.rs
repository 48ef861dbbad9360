//! Batch runs (`citeproof batch`): many submissions checked as `check` checks one,
//! in parallel on one machine with one shared resolver, each submission summarised
//! in one line (`summary.jsonl`, `summary.csv`) beside its own reports, and a journal
//! so that a killed run resumes without checking again what it finished. The summary
//! is ordered by submission id, never by when a check finished, so a resumed run and
//! an uninterrupted one write the same summary, and the shards of `--shard I/N`
//! concatenated in order are the unsharded summary.

pub mod files;
pub mod journal;
pub mod manifest;
pub mod merge;
mod one;
pub mod submissions;
pub mod summary;

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use crate::config::Overrides;
use crate::fs::Vfs;
use crate::pipeline::{CheckSetup, Checker};
use crate::shard::Shard;

pub use submissions::Submission;
pub use summary::{Status, SubmissionLine};

use journal::Journal;
use manifest::Manifest;

/// A batch to run.
#[derive(Debug, Clone)]
pub struct BatchSetup {
    /// The submissions to check, sorted by id (this shard's, with `--shard`).
    pub submissions: Vec<Submission>,
    /// The output folder (created when missing).
    pub out: PathBuf,
    /// Submissions checked at once.
    pub jobs: usize,
    /// Findings listed per submission in the summary.
    pub worst: usize,
    /// Bibliographies every submission uses (`--bib`).
    pub bibliographies: Vec<PathBuf>,
    /// The environment, `--config FILE` and the flags as layers, as for `check`.
    pub overrides: Overrides,
    /// This run's shard of the batch (`--shard I/N`), if any.
    pub shard: Option<Shard>,
    /// Submissions of the whole batch, before `--shard` took this run's block.
    pub batch_submissions: usize,
}

/// What the caller is told while the batch runs (from any thread).
pub trait Observer: Sync {
    /// `total` submissions, `resumed` of them finished by an earlier run.
    fn started(&self, total: usize, resumed: usize);
    /// One more submission finished (checked or failed).
    fn finished(&self, line: &SubmissionLine);
    /// Something about the configured stages the reader should know (told once).
    fn warning(&self, text: &str);
}

/// The summary of a finished batch, in submission-id order.
#[derive(Debug)]
pub struct BatchOutcome {
    pub lines: Vec<SubmissionLine>,
    /// Submissions an earlier run had finished.
    pub resumed: usize,
}

/// Run a batch: resume its journal, check what is left with `jobs` workers, write
/// the summary. Fails only for what stops the whole batch (an output folder or
/// journal that cannot be written, a journal of other settings); a submission that
/// cannot be checked is a `failed` line.
pub fn run(setup: &BatchSetup, observer: &dyn Observer) -> anyhow::Result<BatchOutcome> {
    std::fs::create_dir_all(setup.out.join(files::REPORTS_DIR)).map_err(|e| {
        anyhow::anyhow!(
            "cannot create the output folder `{}`: {e}",
            setup.out.display()
        )
    })?;
    let settings = settings_digest(setup)?;
    let shard = format!("shard={:?}", setup.shard.map(|s| s.to_string()));
    // The journal first: it refuses a folder of another batch before anything is written.
    let (mut journal, mut done) = Journal::open(&setup.out, &digest(&[&settings, &shard]))?;
    Manifest {
        shard: setup.shard.map(|s| s.to_string()),
        batch_submissions: setup.batch_submissions,
        settings,
        submissions: setup.submissions.iter().map(|s| s.id.clone()).collect(),
    }
    .write(&setup.out)?;
    // A line recorded for another path under the same id is not this submission's.
    done.retain(|id, line| {
        setup
            .submissions
            .iter()
            .any(|s| &s.id == id && one::display(&s.path) == line.path)
    });
    let todo: Vec<&Submission> = setup
        .submissions
        .iter()
        .filter(|s| !done.contains_key(&s.id))
        .collect();
    let resumed = setup.submissions.len() - todo.len();
    observer.started(setup.submissions.len(), resumed);
    let runtime = crate::resolve::cascade::runtime()?;
    let warn = |text: &str| observer.warning(text);
    let shared = one::Shared {
        setup,
        runtime: &runtime,
        engines: Mutex::new(Vec::new()),
        warn: &warn,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = crossbeam_channel::unbounded::<SubmissionLine>();
    let recorded = std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..setup.jobs.clamp(1, todo.len().max(1)) {
            let sender = sender.clone();
            let (shared, todo, next, stop) = (&shared, &todo, &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(submission) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let line = check_caught(shared, submission);
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for line in receiver {
            if let Err(e) = journal.record(&line) {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            observer.finished(&line);
            done.insert(line.id.clone(), line);
        }
        Ok(())
    });
    recorded?;
    // By id (the map's order), never by finishing time.
    let lines: Vec<SubmissionLine> = done.into_values().collect();
    files::write_summaries(&setup.out, &lines)?;
    Ok(BatchOutcome { lines, resumed })
}

/// One submission's line: its check, or why it failed (a panic included).
fn check_caught(shared: &one::Shared, submission: &Submission) -> SubmissionLine {
    let failed = |error: String| {
        SubmissionLine::failed(&submission.id, &one::display(&submission.path), error)
    };
    match crate::panics::catch(|| one::check(shared, submission)) {
        Ok(Ok(line)) => line,
        Ok(Err(error)) => failed(format!("{error:#}")),
        Err(panic) => failed(format!("internal error: {panic}")),
    }
}

/// A digest of everything that decides the summary lines but the shard: the
/// configuration that applies in the current folder (files, environment, flags: what
/// the engines are built from, the exit policy, whether suppression comments count),
/// the shared bibliographies and the number of worst findings. A digest, because the
/// sources' settings hold API keys. The journal adds the shard; the manifest keeps
/// this one, the same for every shard of a batch.
fn settings_digest(setup: &BatchSetup) -> anyhow::Result<String> {
    let checker = Checker::new(CheckSetup {
        inputs: vec![PathBuf::from(".")],
        bibliographies: setup.bibliographies.clone(),
        overrides: setup.overrides.clone(),
        fs: Vfs::disk(),
    })?;
    let fail_on = checker.fail_on();
    let text = format!(
        "{}|{}|{:?}|{:?}|{:?}|{}",
        checker.engines_key(),
        fail_on,
        fail_on.venue.as_ref().map(|v| &v.name),
        checker.configs().run().inline_suppressions(),
        setup.bibliographies,
        setup.worst,
    );
    Ok(digest(&[&text]))
}

/// The SHA-256 of the parts joined by `|`, in hex.
fn digest(parts: &[&str]) -> String {
    let digest = Sha256::digest(parts.join("|").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
