//! The background runs the main loop has started (see `resolution.rs`, which
//! starts them and takes their events): their jobs and settings generation, the
//! roots wanted at the end of the batch, and what finished runs learned.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crossbeam_channel::Sender;

use super::background::{Background, Cancel, Event};
use crate::pipeline::Learned;

/// Background runs and what they learned.
pub struct Resolution {
    events: Sender<Event>,
    background: Option<Background>,
    /// Settings generation: jobs of an older one are dropped whole.
    pub(super) generation: u64,
    pub(super) next_job: u64,
    /// Files opened or saved in this batch, whose roots are resolved at its end.
    pub(super) wanted: BTreeSet<PathBuf>,
    /// Every root is resolved at the end of the batch.
    pub(super) want_all: bool,
    pub(super) jobs: HashMap<u64, RunningJob>,
    /// Engines key → what runs with that configuration learned.
    pub(super) learned: HashMap<String, Learned>,
}

pub(super) struct RunningJob {
    pub(super) root: PathBuf,
    pub(super) generation: u64,
    pub(super) cancel: Cancel,
    /// The progress token, once the job started and the client takes progress.
    pub(super) token: Option<String>,
    pub(super) percentage: u32,
}

impl Resolution {
    pub fn new(events: Sender<Event>) -> Resolution {
        Resolution {
            events,
            background: None,
            generation: 0,
            next_job: 0,
            wanted: BTreeSet::new(),
            want_all: false,
            jobs: HashMap::new(),
            learned: HashMap::new(),
        }
    }

    /// Resolve the roots that read `path` at the end of the batch.
    pub fn want(&mut self, path: &Path) {
        self.wanted.insert(crate::fs::normalize(path));
    }

    pub fn want_all(&mut self) {
        self.want_all = true;
    }

    /// Settings changed: running and queued jobs are cancelled, and what they
    /// would learn is dropped when they end.
    pub fn new_generation(&mut self) {
        self.generation += 1;
        for job in self.jobs.values() {
            job.cancel.cancel();
        }
    }

    /// A root is no longer checked: its jobs are cancelled.
    pub fn cancel_root(&mut self, root: &Path) {
        for job in self.jobs.values().filter(|j| j.root == root) {
            job.cancel.cancel();
        }
    }

    /// What runs with this configuration learned.
    pub fn learned(&self, engines_key: &str) -> Option<&Learned> {
        self.learned.get(engines_key)
    }

    /// The client refused a progress token: the job reports nothing more.
    pub fn progress_refused(&mut self, token: &str) {
        for job in self.jobs.values_mut() {
            if job.token.as_deref() == Some(token) {
                job.token = None;
            }
        }
    }

    /// End of the session: cancel everything and let the worker go.
    pub fn stop(&mut self) {
        for job in self.jobs.values() {
            job.cancel.cancel();
        }
        self.background.take();
    }

    pub(super) fn worker(&mut self) -> &Background {
        self.background
            .get_or_insert_with(|| Background::start(self.events.clone()))
    }
}
