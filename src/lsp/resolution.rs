//! The main loop's side of the background runs: which roots to resolve (on open,
//! on save, after a bibliography changed on disk or the settings changed — never
//! on a keystroke), their jobs, `$/progress` while they run, and what they learned.
//!
//! A finished run's diagnostics are never published as such: they were computed
//! for the text the run started with. What it learned is keyed by content
//! ([`Learned`]) and merged into the session's knowledge; the root is then checked
//! again on the current text, which replays every resolution and judgement whose
//! reference or claim is unchanged. A run for a version that is no longer current
//! therefore still helps every reference the writer did not touch, and says
//! nothing about the ones they did. A run from before a change of settings is
//! dropped whole.

use std::collections::BTreeSet;
use std::path::PathBuf;

use lsp_types::MessageType;
use serde_json::json;

use super::background::{Cancel, Event, Job, Outcome};
use super::client::Pending;
use super::runs::RunningJob;
use super::server::Server;

impl Server {
    /// Start the background runs the batch asked for.
    pub(super) fn start_background(&mut self) {
        if self.resolution.wanted.is_empty() && !self.resolution.want_all {
            return;
        }
        let wanted = std::mem::take(&mut self.resolution.wanted);
        let all = std::mem::take(&mut self.resolution.want_all);
        if self.shutdown_requested {
            return;
        }
        let roots: BTreeSet<PathBuf> = if all {
            self.workspace.roots.keys().cloned().collect()
        } else {
            wanted
                .iter()
                .flat_map(|path| self.workspace.readers(path))
                .collect()
        };
        let overrides = match self.settings.overrides() {
            Ok(overrides) => overrides,
            Err(e) => {
                self.log(MessageType::ERROR, format!("citeproof settings: {e:#}"));
                return;
            }
        };
        for root in roots {
            let Some(check) = self.workspace.roots.get(&root) else {
                continue;
            };
            if !check.resolves {
                continue;
            }
            self.resolution.next_job += 1;
            let id = self.resolution.next_job;
            let cancel = Cancel::default();
            let job = Job {
                id,
                root: root.clone(),
                inputs: check.inputs.clone(),
                buffers: self.documents.buffers().snapshot(),
                overrides: overrides.clone(),
                cancel: cancel.clone(),
            };
            let generation = self.resolution.generation;
            if self.resolution.worker().submit(job) {
                self.resolution.jobs.insert(
                    id,
                    RunningJob {
                        root,
                        generation,
                        cancel,
                        token: None,
                        percentage: 0,
                    },
                );
            }
        }
    }

    /// An event from the worker.
    pub(super) fn on_event(&mut self, event: Event) {
        match event {
            Event::Started { job } => self.job_started(job),
            Event::Progress { job, done, total } => self.job_progress(job, done, total),
            Event::Finished { job, outcome } => self.job_finished(job, outcome),
        }
    }

    fn job_started(&mut self, id: u64) {
        if !self.client.work_done_progress {
            return;
        }
        let Some(job) = self.resolution.jobs.get(&id) else {
            return;
        };
        let token = format!("citeproof/resolve/{id}");
        let name = job
            .root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.request_client(
            "window/workDoneProgress/create",
            json!({ "token": token }),
            Pending::ProgressToken(token.clone()),
        );
        self.progress(
            &token,
            json!({"kind": "begin", "title": "citeproof: checking citations",
                   "message": name, "percentage": 0, "cancellable": false}),
        );
        if let Some(job) = self.resolution.jobs.get_mut(&id) {
            job.token = Some(token);
        }
    }

    fn job_progress(&mut self, id: u64, done: usize, total: usize) {
        let Some(job) = self.resolution.jobs.get_mut(&id) else {
            return;
        };
        let Some(token) = job.token.clone() else {
            return;
        };
        let percentage = (done * 100).checked_div(total).unwrap_or(100).min(100) as u32;
        // One report per percent at most.
        if percentage == job.percentage {
            return;
        }
        job.percentage = percentage;
        self.progress(
            &token,
            json!({"kind": "report", "message": format!("{done}/{total} references"),
                   "percentage": percentage}),
        );
    }

    fn job_finished(&mut self, id: u64, outcome: Result<Outcome, String>) {
        let Some(job) = self.resolution.jobs.remove(&id) else {
            return;
        };
        let end = match &outcome {
            Ok(o) if o.cancelled => "cancelled".to_string(),
            Ok(o) => o.summary.clone(),
            Err(_) => "failed".to_string(),
        };
        if let Some(token) = &job.token {
            self.progress(token, json!({"kind": "end", "message": end}));
        }
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(why) => {
                self.show_once(
                    MessageType::ERROR,
                    format!("citeproof: cannot resolve `{}`: {why}", job.root.display()),
                );
                return;
            }
        };
        if outcome.cancelled || job.generation != self.resolution.generation {
            return;
        }
        for warning in outcome.warnings {
            self.show_once(MessageType::WARNING, format!("citeproof: {warning}"));
        }
        if outcome.engines_key.is_empty() {
            return;
        }
        let key = outcome.engines_key;
        let learned = self.resolution.learned.entry(key.clone()).or_default();
        learned.merge(outcome.learned);
        // Keep what the current texts use; old versions of edited references go.
        let projects: Vec<_> = self
            .workspace
            .roots
            .values()
            .filter(|check| check.engines_key == key)
            .map(|check| check.project.clone())
            .collect();
        let projects: Vec<&crate::load::Project> = projects.iter().map(|p| &**p).collect();
        learned.retain_used(&projects);
        self.mark_changed(&job.root);
    }

    fn progress(&self, token: &str, value: serde_json::Value) {
        let _ = self.sender.send(
            lsp_server::Notification::new(
                "$/progress".into(),
                json!({"token": token, "value": value}),
            )
            .into(),
        );
    }
}
