//! A build: the dump files are read and parsed on one thread and written into the
//! store on another, in batches over a bounded channel (so memory does not grow with
//! the dumps). Files imported before and unchanged since are skipped; a file's import
//! is recorded once all its records are written.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::bounded;

use super::input::{files_under, open_stream, stamp};
use super::store::{FileStamp, PutOutcome, StoreWriter};
use super::{DumpSource, IndexError, Record, corpus, crossref, dblp, openalex, platforms};

/// Records sent to the writer at once.
const BATCH: usize = 1_000;
/// Records written between commits.
const COMMIT_EVERY: u64 = 20_000;
/// Warnings kept for the report (the rest are counted).
const KEPT_WARNINGS: usize = 20;

/// The dumps to import (each path a file or a folder).
#[derive(Debug, Clone, Default)]
pub struct BuildInputs {
    pub openalex: Vec<PathBuf>,
    pub crossref: Vec<PathBuf>,
    pub dblp: Vec<PathBuf>,
    pub corpus: Vec<PathBuf>,
    /// The ACL Anthology's BibTeX export.
    pub acl: Vec<PathBuf>,
    /// Dumps of OpenReview notes.
    pub openreview: Vec<PathBuf>,
}

/// Where a build stands, for a progress bar.
#[derive(Debug, Clone)]
pub struct BuildProgress {
    /// Bytes of the dump files read so far (compressed) and in all.
    pub bytes_read: u64,
    pub bytes_total: u64,
    pub records: u64,
}

#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    pub files: usize,
    /// Files skipped because they were imported before and have not changed.
    pub files_unchanged: usize,
    pub added: u64,
    pub replaced: u64,
    /// Records the index already held in this version or a newer one.
    pub kept: u64,
    pub warnings: u64,
    pub first_warnings: Vec<String>,
    /// Files that could not be read to the end (what was read before is kept; they
    /// are read again by the next build), with the reason.
    pub incomplete_files: Vec<String>,
    pub elapsed: Duration,
}

impl BuildReport {
    pub fn records(&self) -> u64 {
        self.added + self.replaced + self.kept
    }
}

pub type ReaderFn = fn(
    &Path,
    &mut dyn std::io::BufRead,
    &mut dyn FnMut(Record),
    &mut dyn FnMut(String),
) -> Result<(), IndexError>;

fn reader_of(source: DumpSource) -> (ReaderFn, fn(&str) -> bool) {
    match source {
        DumpSource::OpenAlex => (openalex::read, openalex::is_dump_file),
        DumpSource::Crossref => (crossref::read, crossref::is_dump_file),
        DumpSource::Dblp => (dblp::read, dblp::is_dump_file),
        DumpSource::Corpus => (corpus::read, |_| true),
        DumpSource::Acl => (platforms::read_anthology, platforms::is_anthology_file),
        DumpSource::OpenReview => (platforms::read_openreview, platforms::is_openreview_file),
    }
}

enum Message {
    Records(Vec<Record>),
    Warning(String),
    FileDone(FileStamp, DumpSource, u64),
    Failed(String),
}

/// The files of every input, in import order: OpenAlex (oldest partition first), then
/// Crossref, DBLP and the corpora.
fn plan(inputs: &BuildInputs) -> Result<Vec<(DumpSource, PathBuf, FileStamp)>, IndexError> {
    let mut out = Vec::new();
    let groups = [
        (DumpSource::OpenAlex, &inputs.openalex),
        (DumpSource::Crossref, &inputs.crossref),
        (DumpSource::Dblp, &inputs.dblp),
        (DumpSource::Acl, &inputs.acl),
        (DumpSource::OpenReview, &inputs.openreview),
        (DumpSource::Corpus, &inputs.corpus),
    ];
    for (source, paths) in groups {
        let (_, wanted) = reader_of(source);
        for path in paths {
            for file in files_under(path, wanted)? {
                let stamp = stamp(&file)?;
                out.push((source, file, stamp));
            }
        }
    }
    Ok(out)
}

/// Import `inputs` into `writer`; `progress` is called as records are written.
pub fn build(
    writer: &mut dyn StoreWriter,
    inputs: &BuildInputs,
    progress: &dyn Fn(&BuildProgress),
) -> Result<BuildReport, IndexError> {
    let start = Instant::now();
    let mut report = BuildReport::default();
    let mut files = Vec::new();
    for (source, path, stamp) in plan(inputs)? {
        if writer.already_imported(&stamp)? {
            report.files_unchanged += 1;
        } else {
            files.push((source, path, stamp));
        }
    }
    report.files = files.len();
    let bytes_total: u64 = files.iter().map(|(_, _, s)| s.size).sum();
    let bytes_read = Arc::new(AtomicU64::new(0));
    let (tx, rx) = bounded::<Message>(4);
    let counter = bytes_read.clone();
    let producer = std::thread::spawn(move || {
        for (source, path, stamp) in files {
            let (read, _) = reader_of(source);
            let mut batch = Vec::with_capacity(BATCH);
            let mut count = 0u64;
            let mut warnings = Vec::new();
            let result = open_stream(&path, counter.clone()).and_then(|mut stream| {
                read(
                    &path,
                    &mut *stream,
                    &mut |record| {
                        count += 1;
                        batch.push(record);
                        if batch.len() == BATCH {
                            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                            let _ = tx.send(Message::Records(full));
                        }
                    },
                    &mut |w| warnings.push(w),
                )
            });
            let _ = tx.send(Message::Records(batch));
            for w in warnings {
                let _ = tx.send(Message::Warning(w));
            }
            // A file that cannot be read to the end (a truncated download) keeps what
            // was read, is not marked imported (a rerun reads it again), and the other
            // files are still imported.
            match result {
                Ok(()) => {
                    let _ = tx.send(Message::FileDone(stamp, source, count));
                }
                Err(e) => {
                    let _ = tx.send(Message::Failed(format!("{e} ({count} records kept)")));
                }
            }
        }
    });
    let mut since_commit = 0u64;
    for message in rx {
        match message {
            Message::Records(records) => {
                for outcome in writer.put_batch(&records)? {
                    match outcome {
                        PutOutcome::Added => report.added += 1,
                        PutOutcome::Replaced => report.replaced += 1,
                        PutOutcome::Kept => report.kept += 1,
                    }
                }
                since_commit += records.len() as u64;
                if since_commit >= COMMIT_EVERY {
                    writer.commit()?;
                    since_commit = 0;
                }
                progress(&BuildProgress {
                    bytes_read: bytes_read.load(Ordering::Relaxed),
                    bytes_total,
                    records: report.records(),
                });
            }
            Message::Warning(w) => {
                report.warnings += 1;
                if report.first_warnings.len() < KEPT_WARNINGS {
                    report.first_warnings.push(w);
                }
            }
            Message::FileDone(stamp, source, count) => {
                writer.mark_imported(&stamp, source.as_str(), count)?;
                writer.commit()?;
                since_commit = 0;
            }
            Message::Failed(e) => report.incomplete_files.push(e),
        }
    }
    let _ = producer.join();
    writer.commit()?;
    writer.finish()?;
    report.elapsed = start.elapsed();
    Ok(report)
}
