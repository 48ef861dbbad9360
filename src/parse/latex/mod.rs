//! The LaTeX parser: citations (the configurable `\cite` family, natbib and
//! biblatex forms), the sentence each one sits in, `\bibliography` and
//! `\addbibresource` requests, `\input`/`\include`/`\subfile` requests,
//! `thebibliography` items, and suppression comments.
//!
//! Two passes. The first ([`scan`]) jumps between `\` and `%` with memchr and reads
//! only the commands that matter; comments, verbatim environments and `\iffalse`
//! blocks are skipped. The second ([`prose`]) reads only the paragraphs that hold a
//! citation, to pair each citation with its sentence. Both are iterative.

mod args;
mod bibitem;
mod cite;
mod commands;
mod prose;
mod requests;
mod scan;
mod skips;

use crate::model::FileId;
use crate::parse::{ParseOptions, Parsed};

use commands::CiteTable;

/// Parse one LaTeX file. Never fails: half-typed constructs become
/// `unterminated-construct` problems and the rest of the file is still read.
pub fn parse(file: FileId, text: &str, options: &ParseOptions) -> Parsed {
    let cites = CiteTable::new(&options.cite_commands);
    let mut scan = scan::Scanner::new(file, text, cites).run();
    let mut claims = Vec::new();
    prose::attach(text, file, &scan.skips, &mut scan.citations, &mut claims);
    Parsed {
        citations: scan.citations,
        references: scan.references,
        claims,
        suppressions: scan.suppressions,
        bibliographies: scan.bibliographies,
        includes: scan.includes,
        problems: scan.problems,
        cite_commands: scan.defined,
    }
}
