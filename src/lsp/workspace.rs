//! Which documents are checked as roots, what each root's check found per file, and
//! what is published: a file's diagnostics are the union of what the roots that
//! read it found (a `.bib` shared by two open papers), sent again only when they
//! change.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{Diagnostic as LspDiagnostic, Uri};

use crate::fs::{Overlay, Vfs};
use crate::load::Project;
use crate::pipeline::{CheckSetup, Checked, Checker, Stages};
use crate::report::Facts;

use super::diagnostics::to_lsp;
use super::documents::{Documents, path_to_uri, uri_to_path};
use super::encoding::Encoding;
use super::settings::Settings;

/// One root's last check.
#[derive(Debug, Default)]
#[allow(dead_code)] // `project` and `facts` are read by the request handlers.
pub struct RootCheck {
    /// Every file the check read (the root, its includes, its bibliographies).
    pub files: Vec<PathBuf>,
    /// Diagnostics per file, converted for the client.
    pub diagnostics: HashMap<PathBuf, Vec<LspDiagnostic>>,
    /// What was read: documents, citations, references, spans (for hover,
    /// completion, navigation and code actions).
    pub project: Arc<Project>,
    /// What resolution and verification learned (empty after a local check).
    pub facts: Arc<Facts>,
}

/// The checks of every root and what was last published per file.
#[derive(Debug, Default)]
pub struct Workspace {
    pub roots: BTreeMap<PathBuf, RootCheck>,
    published: HashMap<PathBuf, Vec<LspDiagnostic>>,
}

/// A file whose published diagnostics changed: send these.
#[derive(Debug)]
pub struct Publish {
    pub uri: Uri,
    pub version: Option<i32>,
    pub diagnostics: Vec<LspDiagnostic>,
}

impl Workspace {
    /// The roots to check when `path` changed: the roots that read it, or the file
    /// itself when no root does.
    pub fn roots_reading(&self, path: &Path) -> Vec<PathBuf> {
        let readers: Vec<PathBuf> = self
            .roots
            .iter()
            .filter(|(root, check)| root.as_path() == path || check.files.iter().any(|f| f == path))
            .map(|(root, _)| root.clone())
            .collect();
        if readers.is_empty() {
            vec![path.to_path_buf()]
        } else {
            readers
        }
    }

    /// Whether `path` is read by a root other than itself.
    pub fn read_by_other_root(&self, path: &Path) -> bool {
        self.roots
            .iter()
            .any(|(root, check)| root.as_path() != path && check.files.iter().any(|f| f == path))
    }

    pub fn set_root(&mut self, root: PathBuf, check: RootCheck) {
        self.roots.insert(root, check);
    }

    pub fn remove_root(&mut self, root: &Path) {
        self.roots.remove(root);
    }

    /// Publish this file's diagnostics again at the next change, even if unchanged:
    /// a client that just opened it may have dropped what was sent before (eglot
    /// keeps no diagnostics for files it does not visit), and they now carry the
    /// document's version.
    pub fn forget_published(&mut self, path: &Path) {
        self.published.remove(path);
    }

    /// The union per file over every root, compared with what was published.
    pub fn changes(&mut self, documents: &Documents) -> Vec<Publish> {
        let mut now: HashMap<PathBuf, Vec<LspDiagnostic>> = HashMap::new();
        for check in self.roots.values() {
            for (file, diagnostics) in &check.diagnostics {
                let entry = now.entry(file.clone()).or_default();
                for d in diagnostics {
                    if !entry.contains(d) {
                        entry.push(d.clone());
                    }
                }
            }
        }
        let checked = self.roots.keys();
        let files: HashSet<PathBuf> = now
            .keys()
            .chain(self.published.keys())
            .chain(checked)
            .cloned()
            .collect();
        let mut out = Vec::new();
        for file in files {
            let new = now.remove(&file).unwrap_or_default();
            let old = self.published.get(&file);
            let open = documents.by_path(&file);
            // An open document is told once that it is clean; a file never published
            // needs no empty list.
            if old == Some(&new) || (old.is_none() && new.is_empty() && open.is_none()) {
                continue;
            }
            let uri = match open {
                Some(doc) => doc.uri.clone(),
                None => match path_to_uri(&file) {
                    Some(uri) => uri,
                    None => continue,
                },
            };
            out.push(Publish {
                uri,
                version: open.map(|d| d.version),
                diagnostics: new.clone(),
            });
            if new.is_empty() && open.is_none() {
                self.published.remove(&file);
            } else {
                self.published.insert(file, new);
            }
        }
        out.sort_by(|a, b| a.uri.cmp(&b.uri));
        out
    }
}

/// The open documents as buffers over the disk.
pub fn overlay(documents: &Documents) -> Overlay {
    let mut overlay = Overlay::new(Vfs::disk());
    for doc in documents.iter() {
        overlay.set_with_kind(&doc.path, doc.text.clone(), Some(doc.kind));
    }
    overlay
}

/// Check one root through the open buffers with the given stages.
pub fn check_root(
    root: &Path,
    documents: &Documents,
    settings: &Settings,
    stages: &Stages,
) -> anyhow::Result<(Project, Checked)> {
    let checker = Checker::new(CheckSetup {
        inputs: vec![root.to_path_buf()],
        bibliographies: Vec::new(),
        overrides: settings.overrides()?,
        fs: Vfs::new(overlay(documents)),
    })?;
    checker.run(stages)
}

/// A root's check as the client sees it: diagnostics per file, ranges in the
/// negotiated encoding over the text that was checked.
pub fn root_check(project: Project, checked: Checked, encoding: Encoding) -> RootCheck {
    let mut diagnostics: HashMap<PathBuf, Vec<LspDiagnostic>> = HashMap::new();
    for d in &checked.diagnostics {
        let file = project.sources.get(d.file);
        diagnostics
            .entry(crate::fs::normalize(&file.path))
            .or_default()
            .push(to_lsp(d, &project.sources, encoding));
    }
    RootCheck {
        files: project
            .sources
            .files()
            .iter()
            .map(|f| crate::fs::normalize(&f.path))
            .collect(),
        diagnostics,
        project: Arc::new(project),
        facts: Arc::new(checked.facts),
    }
}

/// The path a URI names, as the workspace keys it.
pub fn key(uri: &Uri) -> PathBuf {
    uri_to_path(uri)
}
