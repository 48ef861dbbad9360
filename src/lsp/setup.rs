//! What the server learns from the client beyond the documents: settings pulled
//! with `workspace/configuration` (or pushed with `didChangeConfiguration`),
//! files changed on disk (`workspace/didChangeWatchedFiles`, registered
//! dynamically for configuration files, bibliographies and LaTeX files), and
//! workspace folders.

use lsp_types::{DidChangeWatchedFilesParams, DidChangeWorkspaceFoldersParams, FileChangeType};
use serde_json::{Value, json};

use super::client::Pending;
use super::documents::uri_to_path;
use super::refresh::is_config_file;
use super::server::Server;
use crate::source::FileKind;

/// The files whose changes on disk matter: configuration (every root), and what
/// documents read (bibliographies, CSL-JSON, included LaTeX files).
pub const WATCHED: &[&str] = &[
    "**/citeproof.toml",
    "**/.citeproof.toml",
    "**/.citeproof/accepted.toml",
    "**/*.{bib,bibtex,biblatex}",
    "**/*.json",
    "**/*.{tex,ltx,latex}",
];

impl Server {
    /// `initialized`: pull the settings and watch files, when the client can.
    pub(super) fn initialized(&mut self) {
        if self.client.configuration {
            self.pull_configuration();
        }
        if self.client.watch_files {
            let watchers: Vec<Value> = WATCHED.iter().map(|g| json!({"globPattern": g})).collect();
            self.request_client(
                "client/registerCapability",
                json!({"registrations": [{
                    "id": "citeproof-watched-files",
                    "method": "workspace/didChangeWatchedFiles",
                    "registerOptions": {"watchers": watchers},
                }]}),
                Pending::Register,
            );
        }
    }

    fn pull_configuration(&mut self) {
        self.request_client(
            "workspace/configuration",
            json!({"items": [{"section": "citeproof"}]}),
            Pending::Configuration,
        );
    }

    /// `workspace/didChangeConfiguration`: the `citeproof` section it carries, or
    /// (from a client that answers `workspace/configuration`, which often sends
    /// none) a new pull. Settings without the section (`null`, `{}`, another
    /// server's) change nothing: they would wipe `initializationOptions`.
    pub(super) fn configuration_changed(&mut self, settings: &Value) {
        let carried = settings.get("citeproof").is_some_and(|s| !s.is_null());
        if carried || super::settings::Settings::looks_like_section(settings) {
            self.apply_settings(settings);
        } else if self.client.configuration {
            self.pull_configuration();
        }
    }

    /// Files changed on disk. Configuration: every root again. A file a root reads:
    /// that root again, and resolved again when it is a bibliography. Created or
    /// deleted files: every root again (a missing include may now exist), and main
    /// files and Manubot folders are looked for again.
    pub(super) fn watched_files_changed(&mut self, params: DidChangeWatchedFilesParams) {
        for change in params.changes {
            let path = uri_to_path(&change.uri);
            if self.documents.by_path(&path).is_some() && change.typ == FileChangeType::CHANGED {
                // The buffer is what counts while the document is open.
                continue;
            }
            if change.typ != FileChangeType::CHANGED {
                self.roots.forget_layout();
                self.mark_all_dirty();
            }
            if FileKind::from_path(&path) == Some(FileKind::Latex) {
                self.roots.forget_layout();
            }
            self.mark_changed(&path);
            if is_config_file(&path) {
                self.resolution.want_all();
                self.configure_zotero();
            } else if matches!(
                FileKind::from_path(&path),
                Some(FileKind::Bibtex | FileKind::CslJson)
            ) {
                self.resolution.want(&path);
            }
        }
    }

    /// Point the Zotero reader at the Zotero the settings and the configuration
    /// name (`[sources.zotero]`, read from the first workspace folder up). An
    /// invalid configuration is reported by the checks; Zotero then keeps the
    /// settings it had.
    pub(super) fn configure_zotero(&mut self) {
        let Ok(overrides) = self.settings.overrides() else {
            return;
        };
        let first = self.folders.first().map(std::path::PathBuf::as_path);
        let Ok(config) = crate::config::ConfigSet::load(first, overrides) else {
            return;
        };
        self.zotero.configure(config.run().zotero(), &self.sender);
    }

    pub(super) fn workspace_folders_changed(&mut self, params: DidChangeWorkspaceFoldersParams) {
        let removed: Vec<_> = params
            .event
            .removed
            .iter()
            .map(|f| uri_to_path(&f.uri))
            .collect();
        self.folders.retain(|f| !removed.contains(f));
        for folder in params.event.added {
            let path = uri_to_path(&folder.uri);
            if !self.folders.contains(&path) {
                self.folders.push(path);
            }
        }
        self.roots.forget_layout();
        self.mark_all_dirty();
    }
}
