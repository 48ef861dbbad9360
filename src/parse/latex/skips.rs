//! Regions of a LaTeX file that are not running text.

use crate::model::Span;

/// What a skipped region stands for in the text around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SkipKind {
    /// A block of its own (a verbatim environment): it ends the paragraph.
    Block,
    /// Part of a line (`\verb|x|`, a definition, an `\iffalse` block): the text it
    /// holds, if any, stays in the sentence as written.
    Inline(Option<Span>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Skip {
    pub span: Span,
    pub kind: SkipKind,
}
