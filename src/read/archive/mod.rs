//! Submission bundles — `.zip` (an Overleaf download), `.tar.gz`/`.tgz`/`.tar`
//! (an arXiv source), a single gzipped source (arXiv's one-file e-prints) — read
//! in memory, never written to disk: the files a check reads (LaTeX, BibTeX,
//! `.bbl`, Markdown, Word, PDF) are taken out under limits, and the main `.tex`
//! is found ([`main_tex`]). An archive with a path that leaves it (`../x`, `/x`),
//! too many entries, or more bytes than the limits once expanded (a zip or gzip
//! bomb) is refused with an error that says which.

pub mod main_tex;
pub mod mount;

use std::io::{Cursor, Read};
use std::path::Path;

use super::zipped::Zipped;

/// An archive format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFormat {
    Zip,
    Tar,
    /// gzip: a `.tar.gz`, or one gzipped file.
    Gzip,
}

impl ArchiveFormat {
    /// By the file name: `.zip`, `.tar`, `.tar.gz`, `.tgz`, `.gz`.
    pub fn from_path(path: &Path) -> Option<ArchiveFormat> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if name.ends_with(".zip") {
            Some(ArchiveFormat::Zip)
        } else if name.ends_with(".tar") {
            Some(ArchiveFormat::Tar)
        } else if name.ends_with(".tgz") || name.ends_with(".gz") {
            Some(ArchiveFormat::Gzip)
        } else {
            None
        }
    }

    /// By the first bytes; a zip that is a Word or OpenDocument file is none.
    pub fn sniff(bytes: &[u8]) -> Option<ArchiveFormat> {
        if bytes.starts_with(b"\x1f\x8b") {
            Some(ArchiveFormat::Gzip)
        } else if is_tar(bytes) {
            Some(ArchiveFormat::Tar)
        } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            let mut zip = Zipped::open(bytes).ok()?;
            match super::docx::zip_kind(&mut zip) {
                Some(_) => None,
                None => Some(ArchiveFormat::Zip),
            }
        } else {
            None
        }
    }
}

fn is_tar(bytes: &[u8]) -> bool {
    bytes.get(257..262) == Some(b"ustar")
}

/// What an archive may hold and expand to.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Entries listed (read or not).
    pub max_entries: usize,
    /// Bytes of one file taken out.
    pub max_file: u64,
    /// Bytes taken out in all.
    pub max_taken: u64,
    /// Bytes a compressed stream may expand to (a `.tar.gz` is read through).
    pub max_expanded: u64,
}

pub const LIMITS: Limits = Limits {
    max_entries: 10_000,
    max_file: 64 << 20,
    max_taken: 256 << 20,
    max_expanded: 1 << 30,
};

/// The files taken out of an archive: (path inside it, `/`-separated and
/// checked, bytes), in archive order.
pub type Files = Vec<(String, Vec<u8>)>;

/// Take the files a check reads out of an archive. `stem` names the file a
/// single gzipped source becomes (`2401.01234` → `2401.01234.tex`).
pub fn unpack(
    bytes: &[u8],
    format: ArchiveFormat,
    stem: &str,
    limits: &Limits,
) -> Result<Files, String> {
    match format {
        ArchiveFormat::Zip => unzip(bytes, limits),
        ArchiveFormat::Tar => untar(bytes, limits),
        ArchiveFormat::Gzip => gunzip(bytes, stem, limits),
    }
}

/// Whether a file of this name is taken out: what a check reads, and arXiv's
/// `00README` that names the main file.
pub fn is_wanted(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "tex" | "ltx" | "latex" | "bib" | "bbl" | "md" | "markdown" | "docx" | "odt" | "pdf"
    ) || lower
        .rsplit('/')
        .next()
        .is_some_and(|base| base.starts_with("00readme"))
}

/// A stored name as a path inside the archive (`a/./b.tex` → `a/b.tex`), or why
/// it is refused: absolute, or leaving the archive through `..`.
pub fn inner_path(raw: &str) -> Result<String, String> {
    let refused = |why: &str| Err(format!("`{raw}` {why}; the archive is not read"));
    if raw.contains('\0') {
        return refused("holds a NUL byte");
    }
    let drive = raw.as_bytes().get(1) == Some(&b':') && raw.as_bytes()[0].is_ascii_alphabetic();
    if raw.starts_with(['/', '\\']) || drive {
        return refused("is an absolute path (path traversal)");
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in raw.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return refused("leaves the archive (path traversal)");
                }
            }
            part => parts.push(part),
        }
    }
    Ok(parts.join("/"))
}

fn unzip(bytes: &[u8], limits: &Limits) -> Result<Files, String> {
    let mut zip = Zipped::open(bytes)?;
    let entries = zip.entries();
    if entries.len() > limits.max_entries {
        return Err(too_many(limits));
    }
    let mut wanted = Vec::new();
    let mut claimed = 0u64;
    for entry in &entries {
        let name = inner_path(&entry.name)?;
        if entry.is_dir || entry.is_symlink || !is_wanted(&name) {
            continue;
        }
        if entry.encrypted {
            return Err(format!("`{name}` is encrypted (password-protected)"));
        }
        claimed = claimed.saturating_add(entry.size);
        wanted.push((entry.index, name));
    }
    if claimed > limits.max_taken {
        return Err(expands_past(limits.max_taken));
    }
    let mut out = Vec::new();
    let mut taken = 0u64;
    for (index, name) in wanted {
        let bytes = zip.read_index(index, limits.max_file)?;
        taken += bytes.len() as u64;
        if taken > limits.max_taken {
            return Err(expands_past(limits.max_taken));
        }
        out.push((name, bytes));
    }
    Ok(out)
}

fn untar(bytes: &[u8], limits: &Limits) -> Result<Files, String> {
    read_tar(Cursor::new(bytes), limits)
}

/// Read a tar stream, taking the wanted regular files out.
fn read_tar(reader: impl Read, limits: &Limits) -> Result<Files, String> {
    let mut archive = tar::Archive::new(reader);
    let entries = archive
        .entries()
        .map_err(|e| format!("not a readable tar archive ({e})"))?;
    let mut out = Vec::new();
    let mut taken = 0u64;
    for (n, entry) in entries.enumerate() {
        if n >= limits.max_entries {
            return Err(too_many(limits));
        }
        let entry = entry.map_err(|e| format!("not a readable tar archive ({e})"))?;
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let name = inner_path(&raw)?;
        if !entry.header().entry_type().is_file() || !is_wanted(&name) {
            continue;
        }
        let mut bytes = Vec::new();
        entry
            .take(limits.max_file + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("`{name}` cannot be read from the archive ({e})"))?;
        if bytes.len() as u64 > limits.max_file {
            return Err(format!(
                "`{name}` is over {} bytes; not read",
                limits.max_file
            ));
        }
        taken += bytes.len() as u64;
        if taken > limits.max_taken {
            return Err(expands_past(limits.max_taken));
        }
        out.push((name, bytes));
    }
    Ok(out)
}

/// A gzip stream: a tar inside, or one file (arXiv's single-file sources; a PDF).
fn gunzip(bytes: &[u8], stem: &str, limits: &Limits) -> Result<Files, String> {
    let mut stream = Capped {
        inner: flate2::read::MultiGzDecoder::new(bytes),
        left: limits.max_expanded,
    };
    let mut head = vec![0u8; 512];
    let mut filled = 0;
    while filled < head.len() {
        match stream.read(&mut head[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) => return Err(gzip_error(&e, limits)),
        }
    }
    head.truncate(filled);
    if is_tar(&head) {
        return read_tar(Cursor::new(head).chain(stream), limits).map_err(|e| {
            if e.contains(CAPPED) {
                expands_past(limits.max_expanded)
            } else {
                e
            }
        });
    }
    let mut whole = head;
    (&mut stream)
        .take(limits.max_file + 1 - whole.len().min(limits.max_file as usize) as u64)
        .read_to_end(&mut whole)
        .map_err(|e| gzip_error(&e, limits))?;
    if whole.len() as u64 > limits.max_file {
        return Err(expands_past(limits.max_file));
    }
    let name = if super::BinaryFormat::sniff(&whole) == Some(super::BinaryFormat::Pdf) {
        format!("{stem}.pdf")
    } else if memchr::memmem::find(&whole, b"\\documentclass").is_some()
        || memchr::memmem::find(&whole, b"\\documentstyle").is_some()
    {
        format!("{stem}.tex")
    } else {
        return Err("a gzip file that holds no tar archive, LaTeX source or PDF".into());
    };
    Ok(vec![(name, whole)])
}

/// The message a [`Capped`] stream fails with.
const CAPPED: &str = "expansion limit reached";

/// A reader that fails once it has given `left` bytes (a gzip bomb stops there).
struct Capped<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            // One byte more is an error, not the end of the stream.
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(std::io::Error::other(CAPPED)),
            };
        }
        let want = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut buf[..want])?;
        self.left -= n as u64;
        Ok(n)
    }
}

fn gzip_error(e: &std::io::Error, limits: &Limits) -> String {
    if e.to_string().contains(CAPPED) {
        expands_past(limits.max_expanded)
    } else {
        format!("not a readable gzip file ({e})")
    }
}

fn too_many(limits: &Limits) -> String {
    format!(
        "the archive holds more than {} entries; not read",
        limits.max_entries
    )
}

fn expands_past(limit: u64) -> String {
    format!("the archive expands past {limit} bytes (a zip or gzip bomb?); not read")
}

#[cfg(test)]
mod tests;
