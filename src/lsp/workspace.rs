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
    pub diagnostics: HashMap<PathBuf, List>,
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
    /// both are current (see `moved.rs`).
    pub checker: Option<Arc<crate::pipeline::Checker>>,
    pub learned_version: u64,
}

/// A file's diagnostics as converted for the client. Each one is shared: the next
/// check keeps the conversion of every finding it has in common with this one.
pub type List = Arc<Vec<Arc<LspDiagnostic>>>;

/// The checks of every root and what was last published per file.
#[derive(Debug, Default)]
pub struct Workspace {
    pub roots: BTreeMap<PathBuf, RootCheck>,
    /// Diagnostics that come from no root's check: an invalid `citeproof.toml`.
    pub extra: HashMap<PathBuf, Vec<LspDiagnostic>>,
    published: HashMap<PathBuf, List>,
}

/// A file whose published diagnostics changed: the parameters of
/// `textDocument/publishDiagnostics`, over the shared list (a large
/// bibliography's findings are not copied to be sent).
#[derive(Debug, Serialize)]
pub struct Publish {
    pub uri: Uri,
    pub diagnostics: List,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i32>,
}

/// What [`Workspace::changes`] found to publish.
#[derive(Debug, Default)]
pub struct Changes {
    /// Sorted by URI.
    pub publish: Vec<Publish>,
    /// A file that is not open changed and was held back: it is still changed
    /// the next time.
    pub held: bool,
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
        let union = self.shared_union_for(file);
        union.iter().map(|d| LspDiagnostic::clone(d)).collect()
    }

    /// [`Self::union_for`], shared with the root's list when one root alone
    /// reports on the file (the common case: no copy of a large bibliography's).
    fn shared_union_for(&self, file: &Path) -> List {
        let from_roots: Vec<&List> = self
            .roots
            .values()
            .filter_map(|check| check.diagnostics.get(file))
            .filter(|l| !l.is_empty())
            .collect();
        let extra = self.extra.get(file).filter(|l| !l.is_empty());
        if let ([only], None) = (from_roots.as_slice(), extra) {
            return Arc::clone(only);
        }
        let extra: Vec<Arc<LspDiagnostic>> = extra
            .into_iter()
            .flatten()
            .map(|d| Arc::new(d.clone()))
            .collect();
        let lists = from_roots
            .iter()
            .map(|l| l.as_slice())
            .chain(Some(extra.as_slice()));
        let mut out: Vec<Arc<LspDiagnostic>> = Vec::new();
        for list in lists {
            if out.is_empty() {
                out.extend(list.iter().cloned());
                continue;
            }
            for d in list {
                if !out.contains(d) {
                    out.push(Arc::clone(d));
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
    /// version even when they are the same). With `hold_closed`, a changed file
    /// that is not open is left out and stays changed (see [`Changes::held`]).
    pub fn changes(
        &mut self,
        documents: &Documents,
        always: &HashSet<PathBuf>,
        hold_closed: bool,
    ) -> Changes {
        let mut out = Changes::default();
        let mut files = self.files();
        files.extend(documents.iter().map(|d| d.path.clone()));
        for file in files {
            let new = self.shared_union_for(&file);
            let old = self.published.get(&file);
            let open = documents.by_path(&file);
            if hold_closed && open.is_none() {
                // Not compared while the client types (a large bibliography's list,
                // once changed, would be compared again at every keystroke).
                let unchanged = old.map_or(new.is_empty(), |old| Arc::ptr_eq(old, &new));
                out.held |= !unchanged;
                continue;
            }
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
            out.publish.push(Publish {
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
        out.publish.sort_by(|a, b| a.uri.cmp(&b.uri));
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

/// Which findings of the previous check keep their conversion when equal to one
/// of the new check's.
#[derive(Debug, Clone, Copy)]
pub enum Reuse {
    /// Those whose files (the file, related places, fix edits) have the same path
    /// and text as before.
    SameTexts,
    /// Those that place nothing in this file, the only one edited since (the
    /// previous check's project was edited in place and no longer holds the old
    /// text).
    Except(FileId),
}

/// A root's check as the client sees it: diagnostics per file, ranges in the
/// negotiated encoding over the text that was checked. A finding that `previous`
/// (the root's last check) has too, over the same texts, keeps its conversion: a
/// keystroke that cites one more entry of a large bibliography converts the one
/// finding that went, not the thousands that stayed.
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
    let previous = previous.filter(|p| p.encoding == encoding && p.policy == policy);
    let unchanged = previous.map(|p| unchanged_files(reuse, &p.project.sources, &project.sources));
    let convert = |d: &Diagnostic| to_lsp(d, &project.sources, encoding, policy.as_deref());
    let diagnostics: HashMap<PathBuf, List> = found
        .iter()
        .map(|(path, list)| {
            let old = previous.and_then(|p| Some((p.found.get(path)?, p.diagnostics.get(path)?)));
            let converted = match (old, &unchanged) {
                (Some((old, converted)), Some(unchanged)) => {
                    let same = |f: FileId| unchanged.get(f.index()).copied().unwrap_or(false);
                    let kept = |d: &Diagnostic| d.files().all(same);
                    reconverted(list, old, converted, kept, convert)
                }
                _ => Arc::new(list.iter().map(|d| Arc::new(convert(d))).collect()),
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

/// `list` converted, taking the conversion of each finding equal to one of `old`
/// (converted as `converted`) that `kept` allows; the old list itself when every
/// finding is kept. Both lists are in the order of [`Diagnostic::sort_key`].
fn reconverted(
    list: &[Diagnostic],
    old: &[Diagnostic],
    converted: &List,
    kept: impl Fn(&Diagnostic) -> bool,
    convert: impl Fn(&Diagnostic) -> LspDiagnostic,
) -> List {
    let mut out = Vec::with_capacity(list.len());
    let mut all_kept = list.len() == old.len();
    let mut i = 0;
    for d in list {
        while old.get(i).is_some_and(|o| o.sort_key() < d.sort_key()) {
            i += 1;
        }
        let same = old.get(i).is_some_and(|o| o == d) && kept(d);
        match converted.get(i).filter(|_| same) {
            Some(item) => {
                out.push(Arc::clone(item));
                i += 1;
            }
            None => {
                all_kept = false;
                out.push(Arc::new(convert(d)));
            }
        }
    }
    match all_kept {
        true => Arc::clone(converted),
        false => Arc::new(out),
    }
}

/// Whether each file of the new load (by id) converts as it did in the old (see
/// [`Reuse`]).
fn unchanged_files(reuse: Reuse, old: &SourceMap, new: &SourceMap) -> Vec<bool> {
    match reuse {
        Reuse::SameTexts => new
            .files()
            .iter()
            .map(|b| {
                old.files()
                    .get(b.id.index())
                    .is_some_and(|a| a.path == b.path && a.kind == b.kind && a.text == b.text)
            })
            .collect(),
        Reuse::Except(edited) => new.files().iter().map(|f| f.id != edited).collect(),
    }
}

/// The path a URI names, as the workspace keys it.
pub fn key(uri: &Uri) -> PathBuf {
    uri_to_path(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(message: &str) -> List {
        Arc::new(vec![Arc::new(LspDiagnostic {
            message: message.into(),
            ..LspDiagnostic::default()
        })])
    }

    fn with_lists(lists: &[(&str, &str)]) -> Workspace {
        let mut check = RootCheck::default();
        for (path, message) in lists {
            check
                .diagnostics
                .insert(PathBuf::from(path), listing(message));
        }
        let mut workspace = Workspace::default();
        workspace.set_root(PathBuf::from("/w/paper.md"), check);
        workspace
    }

    fn uris(changes: &Changes) -> Vec<&str> {
        changes.publish.iter().map(|p| p.uri.as_str()).collect()
    }

    #[test]
    fn a_closed_file_is_held_while_typing_and_published_after() {
        let mut documents = Documents::default();
        let paper: Uri = "file:///w/paper.md".parse().unwrap();
        documents.open(paper, "markdown", 1, String::new());
        let edited = HashSet::from([PathBuf::from("/w/paper.md")]);
        let mut workspace = with_lists(&[("/w/paper.md", "p1"), ("/w/refs.bib", "b1")]);

        let typing = workspace.changes(&documents, &edited, true);
        assert_eq!(uris(&typing), ["file:///w/paper.md"]);
        assert!(typing.held);
        // Still changed, so still held, however often the client types.
        let again = workspace.changes(&documents, &edited, true);
        assert_eq!(uris(&again), ["file:///w/paper.md"]);
        assert!(again.held);

        let pause = workspace.changes(&documents, &HashSet::new(), false);
        assert_eq!(uris(&pause), ["file:///w/refs.bib"]);
        assert!(!pause.held);
        // Published: nothing is held any more.
        let after = workspace.changes(&documents, &edited, true);
        assert_eq!(uris(&after), ["file:///w/paper.md"]);
        assert!(!after.held);
    }
}
