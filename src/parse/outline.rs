//! What a parser says, with its parse, about where that parse may be cut: the
//! clean points where [`super::splice`] may splice a re-parsed window in.

use crate::model::Span;

/// What a parser says about where its parse may be cut.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outline {
    /// Clean points, ascending.
    pub clean: Vec<usize>,
    /// Whether this parse may be spliced at all (nothing in it is read from
    /// elsewhere in the file, no search for a closer ran to the end).
    pub spliceable: bool,
    /// Definitions every block sees (Markdown link reference definitions and
    /// footnote labels): where each is written and the text that re-declares it
    /// for a window parsed alone.
    pub globals: Vec<Global>,
}

/// One file-wide definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Global {
    pub span: Span,
    /// Text that declares the same thing on its own (appended after a window).
    pub declaration: String,
}
