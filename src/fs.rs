//! The file-system view every read of a project goes through: configuration
//! discovery, `extend` chains, documents, includes and bibliographies.
//!
//! The CLI reads the disk ([`Vfs::disk`]); the language server reads the disk under
//! an [`Overlay`] of the editor's open buffers, so an unsaved edit of a `.bib`, an
//! `\input`-ed file or `citeproof.toml` changes what every document that uses it
//! reports, exactly as if it had been saved.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::source::FileKind;
/// A path with `.` and `..` folded away, so that `a/./b.bib` and `a/c/../b.bib` name
/// the same buffer (the source map's own normalisation).
pub use crate::source::normalize_path as normalize;

/// What the loader and the configuration need to know about files.
pub trait FileSystem: Send + Sync {
    /// The text of a file, refusing what is not text (see [`crate::walk::read_text`]
    /// for the errors: they say what is wrong and where).
    fn read_text(&self, path: &Path, max_size: u64) -> Result<String, String>;
    /// [`Self::read_text`] as a shared text: a view that holds the text already
    /// (an editor's buffer) hands it over without copying it.
    fn read_shared(&self, path: &Path, max_size: u64) -> Result<Arc<str>, String> {
        self.read_text(path, max_size).map(Arc::from)
    }
    /// The bytes of a file (a PDF, a Word file, an archive), refusing files over
    /// `max_size` bytes; the error says what is wrong.
    fn read_bytes(&self, path: &Path, max_size: u64) -> Result<Vec<u8>, String>;
    fn is_file(&self, path: &Path) -> bool;
    fn is_dir(&self, path: &Path) -> bool;
    /// Every supported file under `dir`, sorted (see [`crate::walk::supported_files`]).
    fn supported_files(&self, dir: &Path) -> Vec<PathBuf>;
    /// Which parser reads the file at `path`: by extension, unless the view knows
    /// better (an editor's buffer knows its language).
    fn kind(&self, path: &Path) -> Option<FileKind> {
        FileKind::from_path(path)
    }
}

/// The disk, as the operating system shows it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Disk;

impl FileSystem for Disk {
    fn read_text(&self, path: &Path, max_size: u64) -> Result<String, String> {
        crate::walk::read_text(path, max_size)
    }

    fn read_bytes(&self, path: &Path, max_size: u64) -> Result<Vec<u8>, String> {
        crate::walk::read_bytes(path, max_size)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn supported_files(&self, dir: &Path) -> Vec<PathBuf> {
        crate::walk::supported_files(dir)
    }
}

/// A shared handle on a file-system view; the disk by default.
#[derive(Clone)]
pub struct Vfs(Arc<dyn FileSystem>);

impl Vfs {
    pub fn new(fs: impl FileSystem + 'static) -> Vfs {
        Vfs(Arc::new(fs))
    }

    pub fn disk() -> Vfs {
        Vfs::new(Disk)
    }
}

impl Default for Vfs {
    fn default() -> Vfs {
        Vfs::disk()
    }
}

impl fmt::Debug for Vfs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Vfs")
    }
}

impl std::ops::Deref for Vfs {
    type Target = dyn FileSystem;

    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

/// Open buffers over another view: a buffer is read instead of the file at its
/// path, and exists even when the file was never saved. Paths are compared as
/// given after [`normalize`], so callers should register absolute paths.
#[derive(Clone, Default)]
pub struct Overlay {
    base: Option<Vfs>,
    buffers: HashMap<PathBuf, Buffer>,
}

#[derive(Clone)]
struct Buffer {
    content: Content,
    kind: Option<FileKind>,
}

/// What a buffer holds: an editor's text, the bytes of an uploaded or fetched
/// file, or why a file that stands in an input's place cannot be read.
#[derive(Clone)]
enum Content {
    Text(Arc<str>),
    Bytes(Arc<[u8]>),
    Unreadable(Arc<str>),
}

impl Content {
    fn len(&self) -> usize {
        match self {
            Content::Text(text) => text.len(),
            Content::Bytes(bytes) => bytes.len(),
            Content::Unreadable(_) => 0,
        }
    }
}

impl Overlay {
    /// Buffers over `base`.
    pub fn new(base: Vfs) -> Overlay {
        Overlay {
            base: Some(base),
            buffers: HashMap::new(),
        }
    }

    /// Set (or replace) the buffer at `path`; its kind follows its extension.
    pub fn set(&mut self, path: &Path, text: Arc<str>) {
        self.set_with_kind(path, text, None);
    }

    /// Set (or replace) the buffer at `path`, read as `kind` when given (the
    /// editor's language id) instead of by extension.
    pub fn set_with_kind(&mut self, path: &Path, text: Arc<str>, kind: Option<FileKind>) {
        let content = Content::Text(text);
        self.buffers
            .insert(normalize(path), Buffer { content, kind });
    }

    /// Set (or replace) a buffer of bytes at `path` (an uploaded PDF, Word file or
    /// archive), read as `kind` when given, else by extension or first bytes.
    pub fn set_bytes(&mut self, path: &Path, bytes: Arc<[u8]>, kind: Option<FileKind>) {
        let content = Content::Bytes(bytes);
        self.buffers
            .insert(normalize(path), Buffer { content, kind });
    }

    /// Make `path` a file that cannot be read, for the reason `why` (an input
    /// that names a paper which could not be fetched): reading it reports `why`.
    pub fn set_unreadable(&mut self, path: &Path, why: &str) {
        let content = Content::Unreadable(Arc::from(why));
        self.buffers.insert(
            normalize(path),
            Buffer {
                content,
                kind: None,
            },
        );
    }

    /// Forget the buffer at `path`: the file on the base view shows again.
    pub fn remove(&mut self, path: &Path) {
        self.buffers.remove(&normalize(path));
    }

    /// The text buffer at `path`, if one is open.
    pub fn buffer(&self, path: &Path) -> Option<&Arc<str>> {
        match &self.buffers.get(&normalize(path))?.content {
            Content::Text(text) => Some(text),
            Content::Bytes(_) | Content::Unreadable(_) => None,
        }
    }

    fn content(&self, path: &Path) -> Option<&Content> {
        self.buffers.get(&normalize(path)).map(|b| &b.content)
    }

    fn base(&self) -> &dyn FileSystem {
        match &self.base {
            Some(base) => &**base,
            None => &Disk,
        }
    }
}

impl fmt::Debug for Overlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut paths: Vec<&PathBuf> = self.buffers.keys().collect();
        paths.sort();
        f.debug_struct("Overlay").field("buffers", &paths).finish()
    }
}

impl FileSystem for Overlay {
    fn read_text(&self, path: &Path, max_size: u64) -> Result<String, String> {
        match self.content(path) {
            Some(content) if content.len() as u64 > max_size => {
                Err(crate::walk::over_limit(content.len() as u64, max_size))
            }
            Some(Content::Text(text)) => Ok(text.to_string()),
            Some(Content::Bytes(bytes)) => crate::walk::decode_text(bytes.to_vec()),
            Some(Content::Unreadable(why)) => Err(why.to_string()),
            None => self.base().read_text(path, max_size),
        }
    }

    fn read_shared(&self, path: &Path, max_size: u64) -> Result<Arc<str>, String> {
        match self.content(path) {
            Some(Content::Text(text)) if text.len() as u64 <= max_size => Ok(text.clone()),
            Some(_) => self.read_text(path, max_size).map(Arc::from),
            None => self.base().read_shared(path, max_size),
        }
    }

    fn read_bytes(&self, path: &Path, max_size: u64) -> Result<Vec<u8>, String> {
        match self.content(path) {
            Some(content) if content.len() as u64 > max_size => {
                Err(crate::walk::over_limit(content.len() as u64, max_size))
            }
            Some(Content::Text(text)) => Ok(text.as_bytes().to_vec()),
            Some(Content::Bytes(bytes)) => Ok(bytes.to_vec()),
            Some(Content::Unreadable(why)) => Err(why.to_string()),
            None => self.base().read_bytes(path, max_size),
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        self.content(path).is_some() || self.base().is_file(path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.content(path).is_none() && self.base().is_dir(path)
    }

    fn kind(&self, path: &Path) -> Option<FileKind> {
        match self.buffers.get(&normalize(path)) {
            Some(Buffer {
                kind: Some(kind), ..
            }) => Some(*kind),
            _ => self.base().kind(path),
        }
    }

    fn supported_files(&self, dir: &Path) -> Vec<PathBuf> {
        let dir = normalize(dir);
        let mut found: BTreeMap<PathBuf, ()> = self
            .base()
            .supported_files(&dir)
            .into_iter()
            .map(|p| (p, ()))
            .collect();
        for path in self.buffers.keys() {
            if path.starts_with(&dir)
                && !crate::walk::is_skipped(path.strip_prefix(&dir).unwrap_or(path))
                && crate::walk::is_searched_kind(path)
            {
                found.insert(path.clone(), ());
            }
        }
        found.into_keys().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_shadow_the_disk_and_exist_unsaved() {
        let dir = tempfile::tempdir().unwrap();
        let saved = dir.path().join("refs.bib");
        std::fs::write(&saved, "@article{a, title={On disk}}").unwrap();
        let mut overlay = Overlay::new(Vfs::disk());
        assert!(overlay.read_text(&saved, 1000).unwrap().contains("On disk"));
        overlay.set(&saved, Arc::from("@article{a, title={Unsaved}}"));
        let via_dots = dir.path().join("sub/../refs.bib");
        assert!(
            overlay
                .read_text(&via_dots, 1000)
                .unwrap()
                .contains("Unsaved")
        );
        let new = dir.path().join("new.md");
        assert!(!overlay.is_file(&new));
        overlay.set(&new, Arc::from("text"));
        assert!(overlay.is_file(&new));
        assert_eq!(
            overlay.supported_files(dir.path()),
            vec![new.clone(), saved.clone()]
        );
        assert!(overlay.read_text(&new, 2).unwrap_err().contains("limit"));
        overlay.remove(&saved);
        assert!(overlay.read_text(&saved, 1000).unwrap().contains("On disk"));
    }

    #[test]
    fn normalize_folds_dots() {
        assert_eq!(
            normalize(Path::new("/a/./b/../c.bib")),
            PathBuf::from("/a/c.bib")
        );
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
    }
}
