//! Resolution and verification off the main loop: one worker thread owns a tokio
//! runtime and runs one root's full check at a time — the same
//! [`Checker::check_with`] `citeproof check` runs, on a snapshot of the buffers —
//! and sends what it learned back to the main loop as an [`Event`]. The main loop
//! never waits for it.
//!
//! The engines (HTTP clients and their pools, per-source rate limiters and
//! breakers, the SQLite cache shared with the CLI, corpora, the verification
//! model) are built once per configuration and kept for the session. Jobs queued
//! for a root that has a newer job waiting are dropped unrun; a running job is
//! never cut short by an edit (what it learns is keyed by content, so it is still
//! of use), only by a change of settings, the root going away, or shutdown.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::config::Overrides;
use crate::fs::{Overlay, Vfs};
use crate::pipeline::{CheckSetup, Checker, Engines, Learned};
use crate::resolve::options::ProgressFn;
use crate::resolve::outcome::Status;

/// Most engine sets kept (one per configuration in use).
const MAX_ENGINES: usize = 4;

/// A request to check one root with the network stages.
#[derive(Debug)]
pub struct Job {
    pub id: u64,
    pub root: PathBuf,
    pub inputs: Vec<PathBuf>,
    /// The buffers as they were when the job was made.
    pub buffers: Overlay,
    pub overrides: Overrides,
    pub cancel: Cancel,
}

/// What the worker tells the main loop.
#[derive(Debug)]
pub enum Event {
    /// A job started.
    Started { job: u64 },
    /// References decided so far in a running job.
    Progress { job: u64, done: usize, total: usize },
    /// A job ended: what it learned, or why it could not run.
    Finished {
        job: u64,
        outcome: Result<Outcome, String>,
    },
}

/// What a finished job learned.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The configuration it ran with (see [`Checker::engines_key`]).
    pub engines_key: String,
    pub learned: Learned,
    /// What the reader should be told (a corpus that could not be read …).
    pub warnings: Vec<String>,
    /// `12 references: 11 verified, 1 miscited, …` — for the end of the progress report.
    pub summary: String,
    /// The job was cancelled before it finished: nothing was learned.
    pub cancelled: bool,
}

/// A cancellation signal a running job can wait on.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<(AtomicBool, tokio::sync::Notify)>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.0.store(true, Ordering::SeqCst);
        self.0.1.notify_waiters();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.0.load(Ordering::SeqCst)
    }

    async fn cancelled(&self) {
        loop {
            let notified = self.0.1.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// The worker thread and the channel to it.
pub struct Background {
    jobs: Option<Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Background {
    /// Start the worker; its events arrive on `events`.
    pub fn start(events: Sender<Event>) -> Background {
        let (jobs, queue) = unbounded();
        let thread = std::thread::Builder::new()
            .name("citeproof-background".into())
            .spawn(move || worker(queue, events))
            .ok();
        Background {
            jobs: Some(jobs),
            thread,
        }
    }

    /// Queue a job; `false` when the worker is gone.
    pub fn submit(&self, job: Job) -> bool {
        self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok())
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        // Closing the queue ends the worker after its current job (which the
        // caller has cancelled).
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn worker(queue: Receiver<Job>, events: Sender<Event>) {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("citeproof-resolve")
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            // Every job fails with the reason; the main loop reports it.
            for job in queue.iter() {
                let outcome = Err(format!("cannot start the background runtime: {e}"));
                let _ = events.send(Event::Finished {
                    job: job.id,
                    outcome,
                });
            }
            return;
        }
    };
    let current = Arc::new(AtomicU64::new(0));
    let mut engines = EnginesCache::new(progress_forwarder(events.clone(), current.clone()));
    let mut waiting: VecDeque<Job> = VecDeque::new();
    loop {
        if waiting.is_empty() {
            match queue.recv() {
                Ok(job) => waiting.push_back(job),
                Err(_) => break,
            }
        }
        waiting.extend(queue.try_iter());
        keep_latest_per_root(&mut waiting);
        let Some(job) = waiting.pop_front() else {
            continue;
        };
        if job.cancel.is_cancelled() {
            let outcome = Ok(Outcome {
                cancelled: true,
                ..Outcome::default()
            });
            let _ = events.send(Event::Finished {
                job: job.id,
                outcome,
            });
            continue;
        }
        current.store(job.id, Ordering::SeqCst);
        let _ = events.send(Event::Started { job: job.id });
        let outcome = crate::panics::catch(|| run(&runtime, &mut engines, &job))
            .unwrap_or_else(|why| Err(format!("internal error: {why}")));
        let _ = events.send(Event::Finished {
            job: job.id,
            outcome,
        });
    }
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
}

/// Drop queued jobs that a later job for the same root replaces.
fn keep_latest_per_root(waiting: &mut VecDeque<Job>) {
    let mut latest: HashMap<PathBuf, u64> = HashMap::new();
    for job in waiting.iter() {
        latest.insert(job.root.clone(), job.id);
    }
    waiting.retain(|job| latest.get(&job.root) == Some(&job.id));
}

/// The resolver's progress, sent as events of the job now running.
fn progress_forwarder(events: Sender<Event>, current: Arc<AtomicU64>) -> ProgressFn {
    Arc::new(move |p| {
        let _ = events.send(Event::Progress {
            job: current.load(Ordering::SeqCst),
            done: p.done,
            total: p.total,
        });
    })
}

/// One job: configure, load the snapshot, run the network stages.
fn run(
    runtime: &tokio::runtime::Runtime,
    engines: &mut EnginesCache,
    job: &Job,
) -> Result<Outcome, String> {
    let checker = Checker::new(CheckSetup {
        inputs: job.inputs.clone(),
        bibliographies: Vec::new(),
        overrides: job.overrides.clone(),
        fs: Vfs::new(job.buffers.clone()),
    })
    .map_err(|e| format!("{e:#}"))?;
    if !checker.resolves() {
        return Ok(Outcome::default());
    }
    let key = checker.engines_key();
    let (engines, warnings) = engines.get(&key, &checker, runtime)?;
    let mut project = checker.load().map_err(|e| format!("{e:#}"))?;
    let checked = runtime.block_on(async {
        tokio::select! {
            checked = checker.check_with(&mut project, &engines) => Some(checked),
            () = job.cancel.cancelled() => None,
        }
    });
    let Some(checked) = checked else {
        return Ok(Outcome {
            cancelled: true,
            ..Outcome::default()
        });
    };
    let checked = checked.map_err(|e| format!("{e:#}"))?;
    let statuses: Vec<Status> = checked
        .resolution
        .iter()
        .flat_map(|r| r.entries.iter().map(|e| e.resolution.status))
        .collect();
    Ok(Outcome {
        engines_key: key,
        learned: checked.learned,
        warnings,
        summary: crate::pipeline::resolution_summary(&statuses),
        cancelled: false,
    })
}

/// Engines per configuration, built on first use.
struct EnginesCache {
    progress: ProgressFn,
    built: Vec<(String, Arc<Engines>, Vec<String>)>,
}

impl EnginesCache {
    fn new(progress: ProgressFn) -> EnginesCache {
        EnginesCache {
            progress,
            built: Vec::new(),
        }
    }

    /// The engines for `key` and the warnings met building them (told once).
    fn get(
        &mut self,
        key: &str,
        checker: &Checker,
        runtime: &tokio::runtime::Runtime,
    ) -> Result<(Arc<Engines>, Vec<String>), String> {
        if let Some(i) = self.built.iter().position(|(k, _, _)| k == key) {
            let entry = self.built.remove(i);
            let out = (entry.1.clone(), Vec::new());
            self.built.push(entry);
            return Ok(out);
        }
        let planned = checker.stages().map_err(|e| format!("{e:#}"))?;
        let mut stages = planned.stages;
        if let Some(options) = &mut stages.resolve {
            options.progress = Some(self.progress.clone());
        }
        let engines = {
            let _inside = runtime.enter();
            Arc::new(Engines::new(stages).map_err(|e| e.to_string())?)
        };
        if self.built.len() == MAX_ENGINES {
            self.built.remove(0);
        }
        self.built
            .push((key.to_string(), engines.clone(), planned.warnings.clone()));
        Ok((engines, planned.warnings))
    }
}
