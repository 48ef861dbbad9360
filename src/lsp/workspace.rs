//! Which documents are checked as roots, what each root's check found per file, and
//! what is published: a file's diagnostics are the union of what the roots that
//! read it found (a `.bib` shared by two open papers), sent again only when they
//! change.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{Diagnostic as LspDiagnostic, Uri};
use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::load::Project;
use crate::model::FileId;
use crate::pipeline::Checked;
use crate::report::Facts;
use crate::source::SourceMap;
use crate::venue_policy::VenuePolicy;

use super::diagnostics::to_lsp;
use super::documents::{Documents, path_to_uri, uri_to_path};
use super::encoding::Encoding;

/// One root's last check.
#[derive(Debug, Default)]
pub struct RootCheck {
    /// What `citeproof check` would be given to check this root (the root itself,
    /// or the sections of a Manubot folder).
    pub inputs: Vec<PathBuf>,
    /// Whether its configuration resolves (background runs start for it).
    pub resolves: bool,
    /// Its configuration's network settings (see `Checker::engines_key`).
    pub engines_key: String,
    /// Every file the check read (the root, its includes, its bibliographies).
    pub files: Vec<PathBuf>,
    /// Diagnostics per file, converted for the client (shared with what was
    /// published and with the next check while a file's findings stay the same).
    pub diagnostics: HashMap<PathBuf, Arc<Vec<LspDiagnostic>>>,
    /// The library's diagnostics per file, as converted into [`Self::diagnostics`]
    /// (the next check compares with them to reuse the conversion).
    pub found: HashMap<PathBuf, Vec<Diagnostic>>,
    /// The position encoding the diagnostics were converted in.
    pub encoding: Encoding,
    /// What was read: documents, citations, references, spans (for hover,
    /// completion, navigation and code actions).
    pub project: Arc<Project>,
    /// What resolution and verification learned (empty after a local check).
    pub facts: Arc<Facts>,
    /// The venue policy the diagnostics were classified by (`policy`), if any.
    pub policy: Option<Arc<VenuePolicy>>,
    /// The checker that made it and the version of what was learned that it
    /// replayed: an edit that only moves results is applied to this check while
    /// both are current (see `super::moved`).
    pub checker: Option<Arc<crate::pipeline::Checker>>,
    pub learned_version: u64,
}

/// The checks of every root and what was last published per file.
#[derive(Debug, Default)]
pub struct Workspace {
    pub roots: BTreeMap<PathBuf, RootCheck>,
    /// Diagnostics that come from no root's check: an invalid `citeproof.toml`.
    pub extra: HashMap<PathBuf, Vec<LspDiagnostic>>,
    published: HashMap<PathBuf, Arc<Vec<LspDiagnostic>>>,
}

/// A file whose published diagnostics changed: the parameters of
/// `textDocument/publishDiagnostics`, over the shared list (a large
/// bibliography's findings are not copied to be sent).
#[derive(Debug, Serialize)]
pub struct Publish {
    pub uri: Uri,
    pub diagnostics: Arc<Vec<LspDiagnostic>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i32>,
}

impl Workspace {
    pub fn set_root(&mut self, root: PathBuf, check: RootCheck) {
        self.roots.insert(root, check);
    }

    pub fn remove_root(&mut self, root: &Path) {
        self.roots.remove(root);
    }

    /// What every root (and [`Self::extra`]) reports for one file.
    pub fn union_for(&self, file: &Path) -> Vec<LspDiagnostic> {
        Arc::unwrap_or_clone(self.shared_union_for(file))
    }

    /// [`Self::union_for`], shared with the root's list when one root alone
    /// reports on the file (the common case: no copy of a large bibliography's).
    fn shared_union_for(&self, file: &Path) -> Arc<Vec<LspDiagnostic>> {
        let from_roots: Vec<&Arc<Vec<LspDiagnostic>>> = self
            .roots
            .values()
            .filter_map(|check| check.diagnostics.get(file))
            .filter(|l| !l.is_empty())
            .collect();
        let extra = self.extra.get(file).filter(|l| !l.is_empty());
        if let ([only], None) = (from_roots.as_slice(), extra) {
            return Arc::clone(only);
        }
        let lists = from_roots
            .iter()
            .map(|l| l.as_slice())
            .chain(extra.map(Vec::as_slice));
        let mut out: Vec<LspDiagnostic> = Vec::new();
        for list in lists {
            if out.is_empty() {
                out.extend(list.iter().cloned());
                continue;
            }
            for d in list {
                if !out.contains(d) {
                    out.push(d.clone());
                }
            }
        }
        Arc::new(out)
    }

    /// Every file that has, or had, diagnostics, or is a root (open documents are
    /// added by the caller).
    fn files(&self) -> HashSet<PathBuf> {
        self.roots
            .values()
            .flat_map(|check| check.diagnostics.keys())
            .chain(self.extra.keys())
            .chain(self.published.keys())
            .chain(self.roots.keys())
            .cloned()
            .collect()
    }

    /// The union per file over every root, compared with what was published:
    /// the files whose diagnostics changed, and the open documents in `always`
    /// (a document the client just edited is told its diagnostics for the new
    /// version even when they are the same).
    pub fn changes(&mut self, documents: &Documents, always: &HashSet<PathBuf>) -> Vec<Publish> {
        let mut out = Vec::new();
        let mut files = self.files();
        files.extend(documents.iter().map(|d| d.path.clone()));
        for file in files {
            let new = self.shared_union_for(&file);
            let old = self.published.get(&file);
            let open = documents.by_path(&file);
            let forced = open.is_some() && always.contains(&file);
            // An open document is told once that it is clean; a file never published
            // needs no empty list.
            // Unchanged lists are usually the very same shared list: no comparison.
            let same = old.is_some_and(|old| Arc::ptr_eq(old, &new) || old == &new);
            if !forced && (same || (old.is_none() && new.is_empty() && open.is_none())) {
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
                diagnostics: Arc::clone(&new),
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

    /// Forget what was published (the client now pulls instead); the files that
    /// had diagnostics, to be cleared.
    pub fn forget_published(&mut self) -> Vec<PathBuf> {
        self.published
            .drain()
            .filter(|(_, d)| !d.is_empty())
            .map(|(file, _)| file)
            .collect()
    }

    /// The roots that read `file` (the root itself, an include, a bibliography).
    pub fn readers(&self, file: &Path) -> Vec<PathBuf> {
        self.roots
            .iter()
            .filter(|(root, check)| root.as_path() == file || check.files.iter().any(|f| f == file))
            .map(|(root, _)| root.clone())
            .collect()
    }
}

/// When a file's list, equal to the previous check's, keeps its conversion.
#[derive(Debug, Clone, Copy)]
pub enum Reuse {
    /// Every file it places something in has the same path and text as before.
    SameTexts,
    /// It places nothing in this file, the only one edited since (the previous
    /// check's project was edited in place and no longer holds the old text).
    Except(FileId),
}

/// A root's check as the client sees it: diagnostics per file, ranges in the
/// negotiated encoding over the text that was checked. A file whose findings are
/// those of `previous` (the root's last check), over the same texts, keeps its
/// converted list: a keystroke in a paper does not convert again the findings of
/// the large bibliography it reads.
pub fn root_check(
    project: Project,
    checked: Checked,
    encoding: Encoding,
    inputs: Vec<PathBuf>,
    policy: Option<Arc<VenuePolicy>>,
    previous: Option<&RootCheck>,
    reuse: Reuse,
) -> RootCheck {
    let mut found: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
    for d in checked.diagnostics {
        let file = project.sources.get(d.file);
        found
            .entry(crate::fs::normalize(&file.path))
            .or_default()
            .push(d);
    }
    let diagnostics = found
        .iter()
        .map(|(path, list)| {
            let kept = previous
                .filter(|p| p.encoding == encoding && p.policy == policy)
                .and_then(|p| Some((p.found.get(path)?, p.diagnostics.get(path)?, p)))
                .filter(|(old, _, p)| {
                    *old == list
                        && match reuse {
                            Reuse::SameTexts => {
                                same_sources(list, &p.project.sources, &project.sources)
                            }
                            Reuse::Except(edited) => !files_of(list).any(|f| f == edited),
                        }
                });
            let converted = match kept {
                Some((_, converted, _)) => Arc::clone(converted),
                None => Arc::new(
                    list.iter()
                        .map(|d| to_lsp(d, &project.sources, encoding, policy.as_deref()))
                        .collect(),
                ),
            };
            (path.clone(), converted)
        })
        .collect();
    RootCheck {
        inputs,
        resolves: false,
        engines_key: String::new(),
        files: project
            .sources
            .files()
            .iter()
            .map(|f| crate::fs::normalize(&f.path))
            .collect(),
        diagnostics,
        found,
        encoding,
        project: Arc::new(project),
        facts: Arc::new(checked.facts),
        policy,
        checker: None,
        learned_version: 0,
    }
}

/// Whether every file the diagnostics place something in (the file, related
/// places, fix edits) has the same path and text in both loads, so that their
/// conversion (URIs, ranges) is the same.
fn same_sources(diagnostics: &[Diagnostic], old: &SourceMap, new: &SourceMap) -> bool {
    let mut ids: Vec<FileId> = files_of(diagnostics).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter().all(
        |id| match (old.files().get(id.index()), new.files().get(id.index())) {
            (Some(a), Some(b)) => a.path == b.path && a.kind == b.kind && a.text == b.text,
            _ => false,
        },
    )
}

/// Every file the diagnostics place something in (with repeats).
fn files_of(diagnostics: &[Diagnostic]) -> impl Iterator<Item = FileId> + '_ {
    diagnostics.iter().flat_map(|d| {
        let related = d.related.iter().map(|r| r.file);
        let edits = d.fix.iter().flat_map(|f| f.edits.iter().map(|e| e.file));
        std::iter::once(d.file).chain(related).chain(edits)
    })
}

/// The path a URI names, as the workspace keys it.
pub fn key(uri: &Uri) -> PathBuf {
    uri_to_path(uri)
}
