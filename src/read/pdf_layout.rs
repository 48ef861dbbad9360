//! What the PDF layout engine (`src/read/pdf/`) hands to the readers: the body's
//! lines and the reference list of a typeset paper, with their pages and lines. The
//! types are the engine's own; this module names them for [`super::pdf_document`].
//! The agreement is written in `src/read/README-interface.md`; change both together.

pub use super::pdf::{PdfError, PdfLayout, PdfLink, PdfReference, TextLine};
