//! Finding input files in directories and reading them safely.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::source::{FileKind, LineIndex};

/// Folders never searched: version control, build output, dependencies.
const SKIPPED_DIRS: &[&str] = &[
    "target",
    "node_modules",
    "_build",
    "build",
    "venv",
    "__pycache__",
];

/// Every supported file under `dir`, depth first, sorted by path for stable output.
/// Hidden entries and build/dependency folders are skipped.
pub fn supported_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = fs::read_dir(&current) else {
            continue;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for path in entries.into_iter().rev() {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                if !SKIPPED_DIRS.contains(&name) {
                    pending.push(path);
                }
            } else if is_searched_kind(&path) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Whether a file found in a searched folder is read: Markdown, LaTeX and BibTeX.
pub fn is_searched_kind(path: &Path) -> bool {
    matches!(
        FileKind::from_path(path),
        Some(FileKind::Markdown | FileKind::Latex | FileKind::Bibtex)
    )
}

/// Whether a path relative to a searched folder passes through a hidden entry or a
/// build/dependency folder, which a search skips.
pub fn is_skipped(relative: &Path) -> bool {
    let parts: Vec<&str> = relative
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    parts.iter().any(|name| name.starts_with('.'))
        || parts
            .iter()
            .take(parts.len().saturating_sub(1))
            .any(|name| SKIPPED_DIRS.contains(name))
}

/// A predicate on paths, shared between threads.
type PathPredicate = Arc<dyn Fn(&Path) -> bool + Send + Sync>;

/// Which files found in a searched folder are kept (configuration's include and
/// exclude globs). Keeps everything by default.
#[derive(Clone, Default)]
pub struct PathFilter(Option<PathPredicate>);

impl PathFilter {
    pub fn new(accepts: impl Fn(&Path) -> bool + Send + Sync + 'static) -> PathFilter {
        PathFilter(Some(Arc::new(accepts)))
    }

    pub fn accepts(&self, path: &Path) -> bool {
        self.0.as_ref().is_none_or(|f| f(path))
    }
}

impl std::fmt::Debug for PathFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "PathFilter(custom)"
        } else {
            "PathFilter(all)"
        })
    }
}

/// Root files that form one document.
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentGroup {
    pub parts: Vec<PathBuf>,
    /// Bibliographies the group implies (Manubot's `manual-references.json`).
    pub bibliographies: Vec<PathBuf>,
}

/// Manubot splits a manuscript into numbered Markdown sections (`01.abstract.md`,
/// `02.intro.md`, …) that are concatenated into one document; tags defined in one
/// section are cited in the others. Group such files per folder; every other root is
/// a document of its own.
pub fn group_manubot(roots: Vec<PathBuf>, is_file: impl Fn(&Path) -> bool) -> Vec<DocumentGroup> {
    let is_section = |p: &Path| is_manubot_section(p);
    let mut groups: Vec<DocumentGroup> = Vec::new();
    for root in roots {
        let dir = root.parent().map(Path::to_path_buf);
        if is_section(&root)
            && let Some(group) = groups.iter_mut().find(|g| {
                is_section(&g.parts[0]) && g.parts[0].parent().map(Path::to_path_buf) == dir
            })
        {
            group.parts.push(root);
            continue;
        }
        groups.push(DocumentGroup {
            parts: vec![root],
            bibliographies: Vec::new(),
        });
    }
    for group in &mut groups {
        if group.parts.len() > 1 {
            group.parts.sort();
            if let Some(dir) = group.parts[0].parent() {
                let manual = dir.join("manual-references.json");
                if is_file(&manual) {
                    group.bibliographies.push(manual);
                }
            }
        }
    }
    groups
}

/// A Manubot section: a Markdown file named with leading digits and a dot
/// (`02.intro.md`).
pub fn is_manubot_section(path: &Path) -> bool {
    FileKind::from_path(path) == Some(FileKind::Markdown)
        && path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|name| {
                let digits = name.chars().take_while(char::is_ascii_digit).count();
                digits > 0 && name[digits..].starts_with('.')
            })
}

/// Read a text file, refusing what is not text: too large, binary, not UTF-8.
/// The error says what is wrong and where.
pub fn read_text(path: &Path, max_size: u64) -> Result<String, String> {
    decode_text(read_bytes(path, max_size)?)
}

/// Read a file's bytes, refusing folders and files over `max_size` bytes.
pub fn read_bytes(path: &Path, max_size: u64) -> Result<Vec<u8>, String> {
    let metadata = fs::metadata(path).map_err(|e| describe_io(&e))?;
    if metadata.is_dir() {
        return Err("is a directory".into());
    }
    if metadata.len() > max_size {
        return Err(over_limit(metadata.len(), max_size));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    fs::File::open(path)
        .and_then(|f| f.take(max_size + 1).read_to_end(&mut bytes))
        .map_err(|e| describe_io(&e))?;
    if bytes.len() as u64 > max_size {
        return Err(format!("file is over the {max_size} byte limit"));
    }
    Ok(bytes)
}

/// The error for a file of `size` bytes over the `max_size` limit.
pub fn over_limit(size: u64, max_size: u64) -> String {
    format!(
        "file is {size} bytes, over the {max_size} byte limit (raise `max-file-size` to read it)"
    )
}

/// A file's bytes as text, refusing what is not text: binary (NUL bytes), not
/// UTF-8 (the error names the line and column). A UTF-8 byte-order mark is dropped.
pub fn decode_text(bytes: Vec<u8>) -> Result<String, String> {
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err("binary file (contains NUL bytes), not text".into());
    }
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .map(<[u8]>::to_vec)
        .unwrap_or(bytes);
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // The valid prefix is text: locate the bad byte by line and column in it.
        let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or("");
        let pos = LineIndex::new(prefix).line_col(prefix, valid);
        format!(
            "not valid UTF-8 at line {}, column {} (byte {valid}); save the file as UTF-8",
            pos.line, pos.column
        )
    })
}

fn describe_io(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_binary_non_utf8_and_large_files() {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("a.md");
        fs::write(&binary, b"abc\0def").unwrap();
        assert!(read_text(&binary, 100).unwrap_err().contains("binary"));
        let latin1 = dir.path().join("b.md");
        fs::write(&latin1, b"line one\nna\xefve").unwrap();
        let err = read_text(&latin1, 100).unwrap_err();
        assert!(err.contains("line 2, column 3"), "{err}");
        let big = dir.path().join("c.md");
        fs::write(&big, "x".repeat(200)).unwrap();
        assert!(read_text(&big, 100).unwrap_err().contains("limit"));
        assert!(
            read_text(&dir.path().join("none.md"), 100)
                .unwrap_err()
                .contains("no such file")
        );
        let bom = dir.path().join("d.md");
        fs::write(&bom, b"\xEF\xBB\xBFhello").unwrap();
        assert_eq!(read_text(&bom, 100).unwrap(), "hello");
    }

    #[test]
    fn manubot_sections_form_one_document() {
        let roots = vec![
            PathBuf::from("content/01.abstract.md"),
            PathBuf::from("content/02.intro.md"),
            PathBuf::from("paper.md"),
            PathBuf::from("other/03.x.md"),
        ];
        let groups = group_manubot(roots, Path::is_file);
        assert_eq!(groups.len(), 3);
        assert_eq!(groups[0].parts.len(), 2);
        assert_eq!(groups[1].parts, vec![PathBuf::from("paper.md")]);
    }
}
