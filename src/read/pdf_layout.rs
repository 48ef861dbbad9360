//! What the PDF layout engine (`src/read/pdf/`) hands to the readers: the body's
//! lines and the reference list of a typeset paper, with their pages and lines.
//! The agreement between the engine and [`super::pdf_document`] is written in
//! `src/read/README-interface.md`; change both together.

/// A PDF read into lines and references.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PdfLayout {
    /// Pages in the file.
    pub pages: u32,
    /// The text outside the reference list, in reading order (running headers,
    /// footers and page numbers removed).
    pub body: Vec<TextLine>,
    /// The reference list's entries, in order.
    pub references: Vec<PdfReference>,
    /// Link annotations (internal `cite.<key>` destinations and URIs) by place.
    pub links: Vec<PdfLink>,
}

/// One line of text on a page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextLine {
    /// 1-based page.
    pub page: u32,
    /// 1-based line on its page.
    pub line: u32,
    pub text: String,
}

/// One entry of the reference list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PdfReference {
    /// The label as printed, without brackets: `12` for `[12]` or `12.`.
    pub label: Option<String>,
    /// The entry's text, lines joined, hyphenation undone.
    pub text: String,
    /// Page and line where the entry starts.
    pub first: (u32, u32),
    /// The cite key of a LaTeX PDF's `cite.<key>` named destination for the entry.
    pub key: Option<String>,
    /// DOIs and URLs of the link annotations inside the entry.
    pub uris: Vec<String>,
}

/// A link annotation, placed on the body line it covers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PdfLink {
    pub page: u32,
    pub line: u32,
    /// The key of an internal link to a `cite.<key>` destination.
    pub dest_key: Option<String>,
    /// The target of a URI link.
    pub uri: Option<String>,
}

/// Why a PDF could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PdfError {
    #[error("the PDF is encrypted")]
    Encrypted,
    #[error(
        "no text layer on any of its {pages} page(s) (a scanned PDF?): nothing to check without OCR"
    )]
    NoTextLayer { pages: u32 },
    #[error("not a readable PDF: {0}")]
    Malformed(String),
    #[error("the PDF reader failed on this file: {0}")]
    Panicked(String),
    #[error("the PDF is too large to read")]
    TooLarge,
}
