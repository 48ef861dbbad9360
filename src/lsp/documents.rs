//! The editor's open documents: text, version, language, line index, and the
//! incremental edits that keep them in step with the client.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{TextDocumentContentChangeEvent, Uri};

use super::buffers::LiveBuffers;
use super::encoding::Encoding;
use crate::source::{FileKind, LineIndex};

/// One open document.
#[derive(Debug, Clone)]
pub struct OpenDocument {
    pub uri: Uri,
    /// Where the loader finds it (a real path for `file:` URIs, a stand-in for
    /// unsaved `untitled:` buffers).
    pub path: PathBuf,
    pub version: i32,
    /// The parser that reads it, from the language id (or the extension).
    pub kind: FileKind,
    pub text: Arc<str>,
    pub index: LineIndex,
}

impl OpenDocument {
    /// Apply the client's changes in order. A change without a range replaces the
    /// whole text; ranges are clamped into the text as it is at that change. Each
    /// ranged change copies the text once and moves the line index with it.
    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>, encoding: Encoding) {
        let mut edited: Option<(String, LineIndex)> = None;
        for change in changes {
            let (text, index) = edited
                .as_ref()
                .map_or((&*self.text, &self.index), |(t, i)| (t.as_str(), i));
            edited = Some(match change.range {
                None => {
                    let index = LineIndex::new(&change.text);
                    (change.text, index)
                }
                Some(range) => {
                    let span = encoding.span(text, index, range);
                    let mut next =
                        String::with_capacity(text.len() - span.len() + change.text.len());
                    next.push_str(&text[..span.start]);
                    next.push_str(&change.text);
                    next.push_str(&text[span.end..]);
                    (next, index.replaced(span, &change.text))
                }
            });
        }
        if let Some((text, index)) = edited {
            self.text = Arc::from(text);
            self.index = index;
        }
    }
}

/// Every open document, by URI, and their texts as a file-system view.
#[derive(Default)]
pub struct Documents {
    open: HashMap<Uri, OpenDocument>,
    /// Path → URI of every open document.
    paths: HashMap<PathBuf, Uri>,
    buffers: LiveBuffers,
}

impl std::fmt::Debug for Documents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.open.iter().map(|(u, d)| (u.as_str(), d.version)))
            .finish()
    }
}

impl Documents {
    pub fn open(&mut self, uri: Uri, language: &str, version: i32, text: String) -> &OpenDocument {
        let path = uri_to_path(&uri);
        let kind = kind_of(language, &path);
        let index = LineIndex::new(&text);
        let doc = OpenDocument {
            uri: uri.clone(),
            path,
            version,
            kind,
            text: Arc::from(text),
            index,
        };
        if let Some(old) = self.open.insert(uri.clone(), doc)
            && old.path != self.open[&uri].path
        {
            self.buffers.remove(&old.path);
            self.paths.remove(&old.path);
        }
        let doc = &self.open[&uri];
        self.paths.insert(doc.path.clone(), uri.clone());
        self.buffers.set(&doc.path, doc.text.clone(), doc.kind);
        doc
    }

    /// Apply the client's changes to an open document; `None` when it is not open.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: Encoding,
    ) -> Option<&OpenDocument> {
        let doc = self.open.get_mut(uri)?;
        doc.apply(changes, encoding);
        doc.version = version;
        self.buffers.set(&doc.path, doc.text.clone(), doc.kind);
        Some(doc)
    }

    pub fn close(&mut self, uri: &Uri) -> Option<OpenDocument> {
        let doc = self.open.remove(uri)?;
        self.buffers.remove(&doc.path);
        self.paths.remove(&doc.path);
        Some(doc)
    }

    /// The open buffers over the disk, as checkers read them.
    pub fn buffers(&self) -> &LiveBuffers {
        &self.buffers
    }

    pub fn iter(&self) -> impl Iterator<Item = &OpenDocument> {
        self.open.values()
    }

    /// The open document at a path.
    pub fn by_path(&self, path: &Path) -> Option<&OpenDocument> {
        let uri = match self.paths.get(path) {
            Some(uri) => uri,
            None => self.paths.get(&crate::fs::normalize(path))?,
        };
        self.open.get(uri)
    }
}

/// The parser for a file: its extension when that names a format (a `.bib` is
/// never Markdown, whatever the client says: eglot before 1.10 sends one language
/// id, the first buffer's, for every file of a server), else the language id, else
/// plain text (LLM answers).
pub fn kind_of(language: &str, path: &Path) -> FileKind {
    if let Some(kind) = FileKind::from_path(path).filter(|k| *k != FileKind::Text) {
        return kind;
    }
    match language.to_ascii_lowercase().as_str() {
        "markdown" | "quarto" | "rmd" | "rmarkdown" | "mdx" | "pandoc" => FileKind::Markdown,
        "latex" | "tex" | "context" => FileKind::Latex,
        "bibtex" | "biblatex" | "bib" => FileKind::Bibtex,
        "csl-json" | "csljson" => FileKind::CslJson,
        _ => FileKind::Text,
    }
}

/// The path of a `file:` URI; other schemes (`untitled:`) get a stand-in path
/// under a folder no real file lives in, so includes resolve nowhere.
pub fn uri_to_path(uri: &Uri) -> PathBuf {
    let text = uri.as_str();
    if let Ok(url) = url::Url::parse(text)
        && url.scheme() == "file"
        && let Ok(path) = url.to_file_path()
    {
        return crate::fs::normalize(&path);
    }
    let name: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    PathBuf::from("/nonexistent-citeproof-buffers").join(name)
}

/// The `file:` URI of a path.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let url = url::Url::from_file_path(path).ok()?;
    url.as_str().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    #[test]
    fn incremental_edits_apply_in_order() {
        let mut docs = Documents::default();
        let uri: Uri = "file:///tmp/a.md".parse().unwrap();
        docs.open(uri.clone(), "markdown", 1, "héllo\nworld\n".into());
        let doc = docs
            .change(
                &uri,
                2,
                vec![
                    TextDocumentContentChangeEvent {
                        range: Some(Range::new(Position::new(1, 0), Position::new(1, 5))),
                        range_length: None,
                        text: "there".into(),
                    },
                    TextDocumentContentChangeEvent {
                        range: Some(Range::new(Position::new(0, 2), Position::new(0, 2))),
                        range_length: None,
                        text: "é".into(),
                    },
                    // Past the end: appended.
                    TextDocumentContentChangeEvent {
                        range: Some(Range::new(Position::new(9, 0), Position::new(9, 3))),
                        range_length: None,
                        text: "!".into(),
                    },
                ],
                Encoding::Utf16,
            )
            .unwrap();
        assert_eq!(&*doc.text, "hééllo\nthere\n!");
        assert_eq!(doc.version, 2);
        assert_eq!(doc.kind, FileKind::Markdown);
        assert_eq!(doc.path, PathBuf::from("/tmp/a.md"));
    }

    #[test]
    fn languages_and_paths() {
        assert_eq!(kind_of("latex", Path::new("x.txt")), FileKind::Latex);
        assert_eq!(kind_of("plaintext", Path::new("a.bib")), FileKind::Bibtex);
        assert_eq!(kind_of("plaintext", Path::new("answer")), FileKind::Text);
        assert_eq!(kind_of("json", Path::new("refs.json")), FileKind::CslJson);
        assert_eq!(kind_of("markdown", Path::new("refs.bib")), FileKind::Bibtex);
        assert_eq!(kind_of("bibtex", Path::new("paper.md")), FileKind::Markdown);
        assert_eq!(
            kind_of("markdown", Path::new("answer.txt")),
            FileKind::Markdown
        );
        let untitled: Uri = "untitled:Untitled-1".parse().unwrap();
        assert!(uri_to_path(&untitled).starts_with("/nonexistent-citeproof-buffers"));
        let spaced: Uri = "file:///tmp/my%20paper.md".parse().unwrap();
        assert_eq!(uri_to_path(&spaced), PathBuf::from("/tmp/my paper.md"));
        assert_eq!(path_to_uri(Path::new("/tmp/my paper.md")).unwrap(), spaced);
    }
}
