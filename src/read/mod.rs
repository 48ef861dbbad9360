//! Binary and bundled inputs turned into what the parsers read: a PDF, a Word or
//! OpenDocument file becomes a text (the body, then the reference list), a
//! [`LocationMap`] from that text back to pages and lines or paragraphs, and the
//! citations and references found in it ([`Converted`]). The loader registers the
//! text under the original file's path, so every rule, output format and exit
//! policy works on these files as on a `.md` or a `.tex`.
//!
//! Which reader reads a file is decided by its extension, or by its first bytes
//! when the extension says nothing ([`BinaryFormat::sniff`]).

pub mod archive;
pub(crate) mod compose;
pub mod docx;
pub mod fetch;
pub mod pdf;
pub mod pdf_document;
pub mod pdf_layout;
pub mod zipped;

use std::path::Path;

use crate::model::FileId;
use crate::parse::Parsed;
use crate::source::FileKind;

pub use crate::source::locations::{Location, LocationMap, Origin, Part};
use pdf_layout::{PdfError, PdfLayout};

/// A converted file: the text the report shows, where its pieces came from, and
/// what it cites (spans are byte ranges of `text`).
#[derive(Debug, Clone, Default)]
pub struct Converted {
    pub text: String,
    pub locations: LocationMap,
    pub parsed: Parsed,
    /// Parts of the file that could not be read (a PDF page the engine failed on),
    /// each with why; the rest was read. Reported as unreadable-file findings.
    pub unread: Vec<String>,
}

/// A file format that is not text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryFormat {
    Pdf,
    Docx,
    Odt,
}

impl BinaryFormat {
    /// The document format the first bytes of a file announce (`%PDF-`, a zip
    /// holding `word/document.xml` …), if any. A zip that is no document is
    /// none (an archive: see [`archive`]).
    pub fn sniff(bytes: &[u8]) -> Option<BinaryFormat> {
        // Readers accept up to 1 KiB of junk before the PDF header.
        let head = &bytes[..bytes.len().min(1024)];
        if memchr::memmem::find(head, b"%PDF-").is_some() {
            return Some(BinaryFormat::Pdf);
        }
        if bytes.starts_with(docx::COMPOUND_FILE) {
            // A password-protected Word file (its reader says so).
            return Some(BinaryFormat::Docx);
        }
        if bytes.starts_with(b"PK\x03\x04") {
            let mut zip = zipped::Zipped::open(bytes).ok()?;
            return docx::zip_kind(&mut zip).and_then(BinaryFormat::of_kind);
        }
        None
    }

    /// The parser kind of a file of this format.
    pub fn kind(self) -> FileKind {
        match self {
            BinaryFormat::Pdf => FileKind::Pdf,
            BinaryFormat::Docx => FileKind::Docx,
            BinaryFormat::Odt => FileKind::Odt,
        }
    }

    fn of_kind(kind: FileKind) -> Option<BinaryFormat> {
        match kind {
            FileKind::Pdf => Some(BinaryFormat::Pdf),
            FileKind::Docx => Some(BinaryFormat::Docx),
            FileKind::Odt => Some(BinaryFormat::Odt),
            _ => None,
        }
    }
}

/// The PDF layout engine (`src/read/pdf/`, see `README-interface.md`): builds that
/// lack it report every PDF as unreadable, naming why.
pub type PdfEngine = fn(&[u8]) -> Result<PdfLayout, PdfError>;

/// The engine this build reads PDFs with.
pub const PDF_ENGINE: Option<PdfEngine> = Some(pdf::read);

/// Read the bytes of a file of `kind` (a binary kind: [`FileKind::is_binary`]) as
/// file `file`. The error says why the file cannot be read, for an
/// `unreadable-file` finding.
pub fn convert(kind: FileKind, file: FileId, bytes: &[u8]) -> Result<Converted, String> {
    let Some(format) = BinaryFormat::of_kind(kind) else {
        return Err(format!("{kind:?} files are not read by a converter"));
    };
    // The readers are fuzzed not to panic; should one still, the file is reported
    // as unreadable and the run goes on.
    crate::panics::catch(|| convert_format(format, file, bytes))
        .unwrap_or_else(|why| Err(format!("the reader failed on this file ({why})")))
}

fn convert_format(format: BinaryFormat, file: FileId, bytes: &[u8]) -> Result<Converted, String> {
    match format {
        BinaryFormat::Pdf => {
            let Some(engine) = PDF_ENGINE else {
                return Err("this build of citeproof has no PDF reader".into());
            };
            let layout = engine(bytes).map_err(|e| e.to_string())?;
            pdf_document::convert(file, &layout)
        }
        BinaryFormat::Docx => docx::convert_docx(file, bytes),
        BinaryFormat::Odt => docx::convert_odt(file, bytes),
    }
}

/// The kind a file is read as when its extension names none (or names a text kind
/// but the bytes are not text): by its first bytes.
pub fn sniff_kind(bytes: &[u8]) -> Option<FileKind> {
    BinaryFormat::sniff(bytes).map(BinaryFormat::kind)
}

/// Whether `path`'s extension names a binary kind.
pub fn is_binary_path(path: &Path) -> bool {
    FileKind::from_path(path).is_some_and(FileKind::is_binary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdfs_are_known_by_their_header() {
        assert_eq!(
            BinaryFormat::sniff(b"%PDF-1.7\n%\xe2\xe3"),
            Some(BinaryFormat::Pdf)
        );
        assert_eq!(
            BinaryFormat::sniff(b"junk before\r\n%PDF-1.4"),
            Some(BinaryFormat::Pdf)
        );
        assert_eq!(BinaryFormat::sniff(b"# A Markdown file"), None);
        assert_eq!(BinaryFormat::sniff(b""), None);
    }
}
