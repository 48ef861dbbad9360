//! Parsers: pure functions from one file's text to what it contains. They never
//! touch the filesystem or the network and never fail: what cannot be read becomes a
//! problem diagnostic and parsing goes on.

pub mod answer;
pub mod bbl;
pub mod bibtex;
pub mod collect;
pub mod comments;
pub mod csljson;
pub mod ids;
pub mod inline;
pub mod kind;
pub mod latex;
pub mod markdown;
pub mod markup;
pub mod outline;
pub mod reflist;
pub mod refstring;
pub mod sentence;
pub mod splice;

/// `\s` on an ASCII byte: the regexes' class, which (unlike
/// `u8::is_ascii_whitespace`) holds the vertical tab. For byte loops that stand in
/// for a regex.
pub(crate) const fn is_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// A byte-indexed table that holds `bytes`: for static lookup tables of byte loops.
pub(crate) const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut k = 0;
    while k < bytes.len() {
        table[bytes[k] as usize] = true;
        k += 1;
    }
    table
}

use crate::diagnostic::Diagnostic;
use crate::model::{BibliographyRequest, Citation, Claim, Reference, Span, Suppression};

/// LaTeX citation commands recognised by default (natbib, biblatex, and the `cite`
/// and apacite packages' extras); capitalised and starred forms are accepted for each.
pub const DEFAULT_CITE_COMMANDS: &[&str] = &[
    "cite",
    "citen",
    "citeA",
    "citeNP",
    "citep",
    "citet",
    "citealp",
    "citealt",
    "citeauthor",
    "citeyear",
    "citeyearpar",
    "citetitle",
    "citenum",
    "citeurl",
    "parencite",
    "textcite",
    "autocite",
    "footcite",
    "footcitetext",
    "smartcite",
    "supercite",
    "fullcite",
    "nocite",
    "cites",
    "parencites",
    "textcites",
    "autocites",
    "footcites",
    "smartcites",
    "supercites",
];

/// Options every parser may consult.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseOptions {
    /// LaTeX citation command names without the backslash.
    pub cite_commands: Vec<String>,
    /// Files larger than this many bytes are not read.
    pub max_file_size: u64,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            cite_commands: DEFAULT_CITE_COMMANDS
                .iter()
                .map(|c| c.to_string())
                .collect(),
            max_file_size: 50 * 1024 * 1024,
        }
    }
}

/// A file another file asks to include (`\input`, `\include`, `\subfile`).
#[derive(Debug, Clone, PartialEq)]
pub struct IncludeRequest {
    /// The path as written (no extension added).
    pub path: String,
    pub command: String,
    /// Where the request was written.
    pub at: Span,
}

/// What one file contains. `Citation::claim` indexes `claims` of the same `Parsed`.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub citations: Vec<Citation>,
    pub references: Vec<Reference>,
    pub claims: Vec<Claim>,
    pub suppressions: Vec<Suppression>,
    pub bibliographies: Vec<BibliographyRequest>,
    pub includes: Vec<IncludeRequest>,
    pub problems: Vec<Diagnostic>,
    /// LaTeX citation commands the file defines as wrappers of configured ones
    /// (`\newcommand{\mycite}[1]{\citep{#1}}`); files it includes use them too.
    pub cite_commands: Vec<String>,
}
