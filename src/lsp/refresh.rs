//! The local checks at the end of every batch: which roots the open documents
//! need (see [`super::roots`]), which of them changed, their checks through the
//! library's [`Checker`] over the open buffers — with what background runs learned
//! replayed on the current text — and the publication of what changed.
//!
//! A checker is built once per root and kept until the settings or a configuration
//! file change; it reads the live buffers and keeps the parses of files whose text
//! did not change, so an edit re-parses only the edited file.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{Diagnostic as LspDiagnostic, DiagnosticSeverity, MessageType, NumberOrString};

use super::diagnostics::SOURCE;
use super::kept::{KeptChecker, config_stamp};
use super::roots::{RootSpec, magic_root, manubot_sections};
use super::server::{Server, catch};
use super::workspace::{Changes, Reuse, RootCheck, root_check};
use crate::config::layers::ConfigFileError;
use crate::fs::{FileSystem, Vfs, normalize};
use crate::model::Span;
use crate::pipeline::{CheckSetup, Checker, Learned};
use crate::source::FileKind;

/// The code of the diagnostic on an invalid configuration file.
pub const INVALID_CONFIGURATION: &str = "invalid-configuration";

/// `citeproof.toml` or `.citeproof.toml`.
pub fn is_config_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == "citeproof.toml" || n == ".citeproof.toml")
}

impl Server {
    /// A file's text changed (an edit, a save, a change on disk): the roots that
    /// read it are checked again at the end of the batch.
    pub(super) fn mark_changed(&mut self, path: &Path) {
        let path = normalize(path);
        if is_config_file(&path) {
            self.roots.forget_checkers();
            self.roots.all = true;
        }
        self.roots.changed.insert(path);
    }

    /// Every root is checked again at the end of the batch.
    pub(super) fn mark_all_dirty(&mut self) {
        self.roots.all = true;
    }

    /// Check what changed and publish what that changed.
    pub(super) fn refresh(&mut self) {
        if self.roots.changed.is_empty() && !self.roots.all {
            return;
        }
        let changed = std::mem::take(&mut self.roots.changed);
        let all = std::mem::take(&mut self.roots.all);
        if all {
            self.workspace.extra.clear();
        }
        let mut done = HashSet::new();
        let mut wanted = self.document_roots();
        self.check_stale(&wanted, &changed, all, &mut done);
        // Bibliographies after the documents: one that an open document reads is
        // checked within it, alone only when none does.
        for spec in self.bibliography_roots(&wanted) {
            wanted.insert(spec.key.clone(), spec);
        }
        self.check_stale(&wanted, &changed, all, &mut done);
        let gone: Vec<PathBuf> = self
            .workspace
            .roots
            .keys()
            .filter(|k| !wanted.contains_key(*k))
            .cloned()
            .collect();
        for root in gone {
            self.workspace.remove_root(&root);
            self.roots.checkers.remove(&root);
            self.roots.failing.remove(&root);
            self.resolution.cancel_root(&root);
        }
        let failing: HashSet<&String> = self.roots.failing.values().collect();
        self.shown.retain(|m| failing.contains(m));
        self.publish();
    }

    /// Publish the files whose diagnostics changed (or, when the client pulls,
    /// ask it to pull again when something it did not edit changed). While the
    /// client types, a file that is not open waits for a pause (see
    /// [`Self::publish_held`]): a keystroke that cites another key of a large
    /// bibliography does not wait for that bibliography's list to be sent.
    fn publish(&mut self) {
        let hold = !self.edited.is_empty() && !self.pull.active;
        let changes = self.workspace.changes(&self.documents, &self.edited, hold);
        self.send_changes(changes);
    }

    /// Publish what was held back while the client typed.
    pub(super) fn publish_held(&mut self) {
        if self.held {
            let changes = self
                .workspace
                .changes(&self.documents, &HashSet::new(), false);
            self.send_changes(changes);
        }
    }

    fn send_changes(&mut self, changes: Changes) {
        self.held = changes.held;
        if self.pull.active {
            let edited: Vec<_> = self
                .edited
                .iter()
                .filter_map(|p| self.documents.by_path(p).map(|d| d.uri.clone()))
                .collect();
            if changes.publish.iter().any(|c| !edited.contains(&c.uri)) {
                self.request_pull_refresh();
            }
            return;
        }
        for publish in changes.publish {
            self.notify_with(PublishDiagnostics::METHOD, publish);
        }
    }

    /// Check each wanted root that is new or read a changed file.
    fn check_stale(
        &mut self,
        wanted: &BTreeMap<PathBuf, RootSpec>,
        changed: &HashSet<PathBuf>,
        all: bool,
        done: &mut HashSet<PathBuf>,
    ) {
        for spec in wanted.values() {
            if done.contains(&spec.key) {
                continue;
            }
            let stale = all
                || match self.workspace.roots.get(&spec.key) {
                    None => true,
                    Some(check) => {
                        check.inputs != spec.inputs
                            || changed.contains(&spec.key)
                            || check.files.iter().any(|f| changed.contains(f))
                            || spec.inputs.iter().any(|i| changed.contains(i))
                    }
                };
            if !stale {
                continue;
            }
            done.insert(spec.key.clone());
            if !all && self.edited_in_place(spec, changed) {
                self.roots.failing.remove(&spec.key);
                continue;
            }
            match catch(|| self.check_root(spec)) {
                Ok(Ok(check)) => {
                    self.roots.failing.remove(&spec.key);
                    self.workspace.set_root(spec.key.clone(), check);
                }
                Ok(Err(e)) => self.check_failed(&spec.key, e),
                Err(panic) => {
                    let message = format!(
                        "citeproof: internal error checking `{}`: {panic}",
                        spec.key.display()
                    );
                    self.roots.failing.insert(spec.key.clone(), message.clone());
                    self.show_once(MessageType::ERROR, message);
                }
            }
        }
    }

    /// One root's local check, with what was learned in the background replayed.
    fn check_root(&mut self, spec: &RootSpec) -> anyhow::Result<RootCheck> {
        let kept = self.checker_for(spec)?;
        let mut project = kept.checker.load()?;
        let none = Learned::default();
        let learned = self.resolution.learned(&kept.engines_key).unwrap_or(&none);
        let learned_version = learned.version();
        let checked = kept.checker.replay(&mut project, learned)?;
        let previous = self.workspace.roots.get(&spec.key);
        let mut check = root_check(
            project,
            checked,
            self.encoding,
            spec.inputs.clone(),
            kept.checker.fail_on().venue,
            previous,
            Reuse::SameTexts,
        );
        check.resolves = kept.resolves;
        check.engines_key = kept.engines_key.clone();
        check.checker = Some(Arc::clone(&kept.checker));
        check.learned_version = learned_version;
        Ok(check)
    }

    pub(super) fn checker_for(&mut self, spec: &RootSpec) -> anyhow::Result<KeptChecker> {
        // A configuration file written by a client that does not watch files
        // (a code action's `citeproof.toml`) is seen on the next check.
        let config_stamp = config_stamp(&spec.inputs, self.settings.config_file.as_deref());
        if let Some(kept) = self.roots.checkers.get(&spec.key)
            && kept.inputs == spec.inputs
            && kept.config_stamp == config_stamp
        {
            return Ok(kept.clone());
        }
        let checker = Checker::new(CheckSetup {
            inputs: spec.inputs.clone(),
            bibliographies: Vec::new(),
            overrides: self.settings.overrides()?,
            fs: Vfs::new(self.documents.buffers().clone()),
        })?
        .with_parse_cache(self.roots.parse_cache.clone());
        let kept = KeptChecker {
            inputs: spec.inputs.clone(),
            config_stamp,
            engines_key: checker.engines_key(),
            resolves: checker.resolves(),
            checker: Arc::new(checker),
        };
        self.roots.checkers.insert(spec.key.clone(), kept.clone());
        Ok(kept)
    }

    /// A root could not be checked. An invalid configuration file is reported on
    /// the file when it is open, else shown once; anything else is shown once.
    fn check_failed(&mut self, root: &Path, error: anyhow::Error) {
        let config = error
            .chain()
            .find_map(|e| e.downcast_ref::<ConfigFileError>());
        if let Some(config) = config {
            let path = normalize(&config.path);
            if let Some(doc) = self.documents.by_path(&path) {
                let span = config
                    .span
                    .as_ref()
                    .map(|r| Span::new(r.start, r.end))
                    .unwrap_or_default();
                let diagnostic = LspDiagnostic {
                    range: self.encoding.range(&doc.text, &doc.index, span),
                    severity: Some(DiagnosticSeverity::ERROR),
                    code: Some(NumberOrString::String(INVALID_CONFIGURATION.into())),
                    source: Some(SOURCE.into()),
                    message: config.message.trim().to_string(),
                    ..LspDiagnostic::default()
                };
                self.workspace.extra.insert(path, vec![diagnostic]);
                self.roots.failing.remove(root);
                return;
            }
        }
        let message = format!("citeproof: {error:#}");
        self.roots
            .failing
            .insert(root.to_path_buf(), message.clone());
        self.show_once(MessageType::ERROR, message);
    }

    /// The roots the open documents (other than bibliographies) are checked in.
    fn document_roots(&mut self) -> BTreeMap<PathBuf, RootSpec> {
        let fs = self.documents.buffers().clone();
        let mut wanted = BTreeMap::new();
        let mut alone = Vec::new();
        let docs: Vec<(PathBuf, FileKind, Option<PathBuf>)> = self
            .documents
            .iter()
            .map(|d| {
                let magic = (d.kind == FileKind::Latex)
                    .then(|| magic_root(&d.text, &d.path))
                    .flatten();
                (d.path.clone(), d.kind, magic)
            })
            .collect();
        for (path, kind, magic) in docs {
            if is_config_file(&path) {
                // Read as configuration, never checked as a document.
                continue;
            }
            let spec = match kind {
                // Bibliographies are read through documents; converted files (a PDF)
                // are not edited in an editor.
                FileKind::Bibtex | FileKind::CslJson | FileKind::Bbl => continue,
                FileKind::Pdf | FileKind::Docx | FileKind::Odt => continue,
                FileKind::Text => RootSpec::single(&path),
                FileKind::Markdown => match self.manubot_group(&path, &fs) {
                    Some(spec) => spec,
                    None => RootSpec::single(&path),
                },
                FileKind::Latex => {
                    let main = magic
                        .filter(|m| fs.is_file(m))
                        .or_else(|| self.roots.parents.main_of(&path, &self.folders, &fs));
                    match main {
                        Some(main) => RootSpec::single(&main),
                        None => {
                            alone.push(path);
                            continue;
                        }
                    }
                }
            };
            wanted.insert(spec.key.clone(), spec);
        }
        // A LaTeX file no main file was found for is still checked within an open
        // document that reads it (its last check read it).
        for path in alone {
            if !self.read_by_wanted(&wanted, &path) {
                let spec = RootSpec::single(&path);
                wanted.insert(spec.key.clone(), spec);
            }
        }
        wanted
    }

    /// Open bibliographies that no wanted root reads: roots of their own.
    fn bibliography_roots(&self, wanted: &BTreeMap<PathBuf, RootSpec>) -> Vec<RootSpec> {
        self.documents
            .iter()
            .filter(|d| matches!(d.kind, FileKind::Bibtex | FileKind::CslJson))
            .filter(|d| !self.read_by_wanted(wanted, &d.path))
            .map(|d| RootSpec::single(&d.path))
            .collect()
    }

    fn read_by_wanted(&self, wanted: &BTreeMap<PathBuf, RootSpec>, path: &Path) -> bool {
        wanted.keys().any(|key| {
            key != path
                && self
                    .workspace
                    .roots
                    .get(key)
                    .is_some_and(|check| check.files.iter().any(|f| f == path))
        })
    }

    fn manubot_group(&mut self, path: &Path, fs: &dyn FileSystem) -> Option<RootSpec> {
        let sections = self
            .roots
            .manubot
            .entry(path.to_path_buf())
            .or_insert_with(|| manubot_sections(path, fs))
            .clone()?;
        Some(RootSpec {
            key: path.parent()?.to_path_buf(),
            inputs: sections,
        })
    }
}
