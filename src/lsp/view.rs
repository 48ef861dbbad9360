//! What the request handlers read: the open documents and every root's last check,
//! and the questions they all ask of them — which check read a file, what is
//! written at a position (a citation, a bibliography entry, the name of a file),
//! and which citations anywhere cite an entry. Spans are converted to ranges on the
//! text that was checked, which is the client's text once pending edits are
//! checked (see `features::run`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use lsp_types::{ClientCapabilities, Location, Position, Range, Uri};

use super::documents::{Documents, path_to_uri};
use super::encoding::Encoding;
use super::server::Server;
use super::settings::Settings;
use super::workspace::{RootCheck, Workspace};
use crate::document::{Document, FileLink};
use crate::load::Project;
use crate::model::{Citation, FileId, Reference, ReferenceOrigin, Span};
use crate::source::SourceFile;

/// A read-only view of the server's state.
pub struct View<'a> {
    pub documents: &'a Documents,
    pub workspace: &'a Workspace,
    pub encoding: Encoding,
    pub client: &'a ClientCapabilities,
    pub folders: &'a [PathBuf],
    pub settings: &'a Settings,
    /// The user's Zotero library, when Zotero answered (see [`super::zotero`]).
    pub zotero: Option<std::sync::Arc<super::zotero::ZoteroIndex>>,
}

impl View<'_> {
    /// Whether the client shows a code action it cannot apply, greyed with the reason
    /// (`codeAction.disabledSupport`).
    pub fn shows_disabled_actions(&self) -> bool {
        self.client
            .text_document
            .as_ref()
            .and_then(|t| t.code_action.as_ref())
            .and_then(|c| c.disabled_support)
            .unwrap_or(false)
    }
}

impl Server {
    pub(super) fn view(&self) -> View<'_> {
        View {
            documents: &self.documents,
            workspace: &self.workspace,
            encoding: self.encoding,
            client: &self.client_capabilities,
            folders: &self.folders,
            settings: &self.settings,
            zotero: self.zotero.index(),
        }
    }
}

/// One file as one root's check read it.
#[derive(Clone, Copy)]
pub struct Read<'a> {
    pub check: &'a RootCheck,
    pub file: FileId,
}

impl<'a> Read<'a> {
    pub fn project(&self) -> &'a Project {
        &self.check.project
    }

    pub fn source(&self) -> &'a SourceFile {
        self.check.project.sources.get(self.file)
    }

    /// The documents of the check that contain the file.
    pub fn documents(&self) -> impl Iterator<Item = &'a Document> + 'a {
        let file = self.file;
        self.check
            .project
            .documents
            .iter()
            .filter(move |d| d.files.contains(&file))
    }
}

/// What is written at a position.
#[derive(Clone, Copy)]
pub enum Found<'a> {
    /// A citation; the cursor is on its key or marker.
    Citation {
        doc: &'a Document,
        citation: &'a Citation,
    },
    /// A bibliography entry or reference-list item; `on_key` when on its key.
    Entry {
        reference: &'a Reference,
        on_key: bool,
    },
    /// The name of a file the document reads (`\input{…}`, a bibliography).
    Link(&'a FileLink),
}

/// A bibliography entry wherever it is read: its file and place.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EntryId {
    pub path: PathBuf,
    pub span: Span,
}

impl EntryId {
    pub fn of(project: &Project, reference: &Reference) -> EntryId {
        EntryId {
            path: crate::fs::normalize(&project.sources.get(reference.file).path),
            span: reference.span,
        }
    }
}

/// A citation and the project and document it was read in.
#[derive(Clone, Copy)]
pub struct Cited<'a> {
    pub project: &'a Project,
    pub doc: &'a Document,
    pub citation: &'a Citation,
}

impl<'a> View<'a> {
    /// Every check that read `path`; the check whose root it is comes first.
    pub fn reads(&self, path: &Path) -> Vec<Read<'a>> {
        let mut out: Vec<Read<'a>> = Vec::new();
        for (root, check) in &self.workspace.roots {
            if let Some(file) = check.project.sources.find(path) {
                let read = Read { check, file };
                if root == path {
                    out.insert(0, read);
                } else {
                    out.push(read);
                }
            }
        }
        out
    }

    /// The first check that read the document a URI names.
    pub fn read(&self, uri: &Uri) -> Option<Read<'a>> {
        self.reads(&super::documents::uri_to_path(uri))
            .into_iter()
            .next()
    }

    /// A position of the client's as a byte offset into the checked text.
    pub fn offset(&self, read: Read, position: Position) -> usize {
        let source = read.source();
        self.encoding.offset(&source.text, &source.index, position)
    }

    pub fn range(&self, source: &SourceFile, span: Span) -> Range {
        self.encoding.range(&source.text, &source.index, span)
    }

    /// The URI the client knows a file by: the open document's (an `untitled:`
    /// buffer keeps its own), else its `file:` URI.
    pub fn uri_of(&self, path: &Path) -> Option<Uri> {
        match self.documents.by_path(path) {
            Some(doc) => Some(doc.uri.clone()),
            None => path_to_uri(path),
        }
    }

    pub fn location(&self, project: &Project, file: FileId, span: Span) -> Option<Location> {
        let source = project.sources.get(file);
        Some(Location::new(
            self.uri_of(&source.path)?,
            self.range(source, span),
        ))
    }

    /// The version of an open document (for edits that must apply to it).
    pub fn version_of(&self, uri: &Uri) -> Option<i32> {
        self.documents
            .iter()
            .find(|d| &d.uri == uri)
            .map(|d| d.version)
    }

    /// Every project the view holds: each root's check.
    pub fn projects(&self) -> impl Iterator<Item = &'a Project> + 'a {
        self.workspace.roots.values().map(|c| &*c.project)
    }
}

/// What is written at `offset` of `file` in a project.
pub fn found_at(project: &Project, file: FileId, offset: usize) -> Option<Found<'_>> {
    let touches = |span: Span| span.start <= offset && offset <= span.end;
    for doc in &project.documents {
        if let Some(citation) = doc
            .citations
            .iter()
            .find(|c| c.file == file && touches(c.span))
        {
            return Some(Found::Citation { doc, citation });
        }
    }
    for doc in &project.documents {
        if let Some(link) = doc
            .file_links
            .iter()
            .find(|l| l.file == file && touches(l.span))
        {
            return Some(Found::Link(link));
        }
    }
    for doc in &project.documents {
        let defined = doc
            .references
            .iter()
            .filter(|r| r.file == file && r.origin != ReferenceOrigin::Inline);
        for reference in defined {
            let on_key = reference.key_span.is_some_and(touches);
            if on_key || reference.span.contains(offset) {
                return Some(Found::Entry { reference, on_key });
            }
        }
    }
    None
}

/// The entry a citation points to, if it was linked to one that is written
/// somewhere (not a reference made from an inline identifier).
pub fn cited_entry<'p>(doc: &'p Document, citation: &Citation) -> Option<&'p Reference> {
    let reference = doc.references.get(citation.reference?)?;
    (reference.origin != ReferenceOrigin::Inline).then_some(reference)
}

/// Every citation in `projects` that `keep` accepts, each place once (a file read
/// by several roots is counted once).
fn citations_where<'p>(
    projects: impl IntoIterator<Item = &'p Project>,
    keep: impl Fn(&Project, &Document, &Citation) -> bool,
) -> Vec<Cited<'p>> {
    let mut seen: HashSet<(PathBuf, Span)> = HashSet::new();
    let mut out = Vec::new();
    for project in projects {
        for doc in &project.documents {
            for citation in doc.citations.iter().filter(|c| keep(project, doc, c)) {
                let path = crate::fs::normalize(&project.sources.get(citation.file).path);
                if seen.insert((path, citation.span)) {
                    out.push(Cited {
                        project,
                        doc,
                        citation,
                    });
                }
            }
        }
    }
    out
}

/// Every citation in `projects` that cites `entry`.
pub fn citations_of<'p>(
    projects: impl IntoIterator<Item = &'p Project>,
    entry: &EntryId,
) -> Vec<Cited<'p>> {
    citations_where(projects, |project, doc, citation| {
        cited_entry(doc, citation).is_some_and(|r| {
            r.span == entry.span && project.sources.find(&entry.path) == Some(r.file)
        })
    })
}

/// Every citation in `projects` written with `key` that no entry defines.
pub fn undefined_citations_of<'p>(
    projects: impl IntoIterator<Item = &'p Project>,
    key: &str,
) -> Vec<Cited<'p>> {
    citations_where(projects, |_, _, c| c.key == key && c.reference.is_none())
}
