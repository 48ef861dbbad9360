//! Archives among a run's inputs opened for the loader: each archive's files are
//! put in an [`Overlay`] over the file-system view, under the archive's own path
//! (`bundle.zip/main.tex`, `bundle.zip/refs.bib`), and the archive is replaced by
//! its main `.tex` — or, in a bundle without one, by the documents it holds
//! (Markdown, Word, PDF). Reports then name `bundle.zip/main.tex:12:3`, includes
//! and bibliographies are found inside the bundle, and nothing is written to disk.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::fs::{Overlay, Vfs};
use crate::source::FileKind;

use super::{ArchiveFormat, LIMITS, main_tex, unpack};

/// The inputs with their archives opened.
#[derive(Debug, Default)]
pub struct Mounted {
    pub inputs: Vec<PathBuf>,
    /// The view that holds the archives' files, when an archive was opened.
    pub fs: Option<Vfs>,
    /// Archives that could not be read, and why.
    pub failures: Vec<(PathBuf, String)>,
}

/// Open the archives among `inputs` (by name, or by their first bytes when the
/// name says nothing), reading through `fs` files of at most `max_size` bytes.
pub fn mount(inputs: &[PathBuf], fs: &Vfs, max_size: u64) -> Mounted {
    let mut out = Mounted::default();
    let mut overlay: Option<Overlay> = None;
    for input in inputs {
        let Some((format, bytes)) = archive_input(input, fs, max_size) else {
            out.inputs.push(input.clone());
            continue;
        };
        let opened = bytes.and_then(|bytes| {
            let stem = stem(input);
            let files = unpack(&bytes, format, &stem, &LIMITS)?;
            let documents = documents(&files);
            if documents.is_empty() {
                return Err(
                    "no LaTeX main file (with \\documentclass) or other document inside".into(),
                );
            }
            let overlay = overlay.get_or_insert_with(|| Overlay::new(fs.clone()));
            for (name, bytes) in files {
                put(overlay, &input.join(&name), bytes);
            }
            Ok(documents)
        });
        match opened {
            Ok(documents) => out
                .inputs
                .extend(documents.iter().map(|name| input.join(name))),
            Err(why) => out.failures.push((input.clone(), why)),
        }
    }
    out.fs = overlay.map(Vfs::new);
    out
}

/// An input that is an archive, with its bytes (or why they cannot be read).
fn archive_input(
    path: &Path,
    fs: &Vfs,
    max_size: u64,
) -> Option<(ArchiveFormat, Result<Vec<u8>, String>)> {
    if fs.is_dir(path) {
        return None;
    }
    if let Some(format) = ArchiveFormat::from_path(path) {
        return Some((format, fs.read_bytes(path, max_size)));
    }
    // A name without a known kind (an e-print saved as `2401.01234`): the bytes tell.
    if FileKind::from_path(path).is_some() || !fs.is_file(path) {
        return None;
    }
    let bytes = fs.read_bytes(path, max_size).ok()?;
    ArchiveFormat::sniff(&bytes).map(|format| (format, Ok(bytes)))
}

/// The documents to check in a bundle: its main `.tex`, else every Markdown,
/// Word, OpenDocument and PDF file.
fn documents(files: &[(String, Vec<u8>)]) -> Vec<String> {
    if let Some(main) = main_tex::main_tex(files) {
        return vec![main];
    }
    files
        .iter()
        .map(|(name, _)| name)
        .filter(|name| {
            matches!(
                FileKind::from_path(Path::new(name.as_str())),
                Some(FileKind::Markdown | FileKind::Docx | FileKind::Odt | FileKind::Pdf)
            )
        })
        .cloned()
        .collect()
}

/// Put one file in the overlay: bytes for converted kinds, text for the rest
/// (UTF-8, else Latin-1, as older LaTeX sources are written).
fn put(overlay: &mut Overlay, path: &Path, bytes: Vec<u8>) {
    if FileKind::from_path(path).is_some_and(FileKind::is_binary) {
        overlay.set_bytes(path, Arc::from(bytes), None);
        return;
    }
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().iter().map(|&b| b as char).collect());
    overlay.set(path, Arc::from(text));
}

/// The name an archive's single file takes: `2401.01234.gz` → `2401.01234`.
fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    for ext in [".tar.gz", ".tgz", ".gz", ".tar", ".zip"] {
        if lower.ends_with(ext) {
            return name[..name.len() - ext.len()].to_string();
        }
    }
    name
}
