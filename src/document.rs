//! A root document with everything it pulled in, and the index kept of its
//! references. Above the model (citations, references, works) and the findings,
//! since a document holds both: what it cites and the problems met reading it.

mod entries;
pub use entries::{Entries, EntriesMemo, folded_keys};

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::model::{BibliographyRequest, Citation, Claim, FileId, Reference, Span, Suppression};

/// One root document with everything it pulled in: included files, bibliographies,
/// its citations, references, claims and suppressions, and the problems met reading it.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub root: FileId,
    /// The root first, then included files and bibliography files in load order.
    pub files: Vec<FileId>,
    pub citations: Vec<Citation>,
    pub references: Vec<Reference>,
    pub claims: Vec<Claim>,
    pub suppressions: Vec<Suppression>,
    pub bibliographies: Vec<BibliographyRequest>,
    /// Problems found while reading and parsing (malformed entries, missing files …).
    pub problems: Vec<Diagnostic>,
    /// Where the document names a file it read (`\input{ch1}`, `\bibliography{refs}`,
    /// `bibliography: refs.bib`), for going from the name to the file.
    pub file_links: Vec<FileLink>,
    /// The LaTeX citation commands a LaTeX document was read with (configured and
    /// defined by the document itself); empty for other documents.
    pub cite_commands: Vec<String>,
    /// The index of `references` as read, kept while they do not change.
    pub entries: EntriesMemo,
}

/// A place that names another file, and the file that was read for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileLink {
    pub file: FileId,
    /// Bytes of the command or the name, as the parser reported the request.
    pub span: Span,
    pub target: FileId,
}

impl Document {
    /// The [`Reference::content_key`] of reference `i`, kept with the index of
    /// the references as read while they do not change.
    pub fn reference_key(&self, i: usize) -> u64 {
        match self.entries.kept(&self.references) {
            Some(entries) if i < entries.count() => {
                entries.content_keys(&self.references[..entries.count()])[i]
            }
            _ => self.references[i].content_key(),
        }
    }

    /// Claim–citation pairs: every citation that sits in a sentence, with that sentence.
    pub fn pairs(&self) -> impl Iterator<Item = (&Claim, &Citation)> {
        self.citations
            .iter()
            .filter_map(|c| c.claim.map(|i| (&self.claims[i], c)))
    }
}
