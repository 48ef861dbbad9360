//! Suppression comments that do not do what they say.

use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Span};
use crate::rules::{IGNORED_SUPPRESSION, INVALID_SUPPRESSION, UNUSED_SUPPRESSION};

/// A suppression whose rules report nothing in its range (`what`: the rule list).
pub fn unused_suppression(file: FileId, span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        &UNUSED_SUPPRESSION,
        file,
        span,
        format!("unused suppression: nothing from {what} is reported here"),
    )
}

/// A suppression that would hide findings of `hidden` (rule codes and names), in a
/// run that ignores in-document suppressions.
pub fn ignored_suppression(file: FileId, span: Span, hidden: &str) -> Diagnostic {
    Diagnostic::new(
        &IGNORED_SUPPRESSION,
        file,
        span,
        format!("suppression ignored (ignore-inline-suppressions): it would hide {hidden}"),
    )
}

/// An `enable[…]` with no open `disable[…]` for its rules.
pub fn unmatched_enable(file: FileId, span: Span) -> Diagnostic {
    Diagnostic::new(
        &UNUSED_SUPPRESSION,
        file,
        span,
        "`enable` without a matching `disable` before it",
    )
}

/// A suppression naming a rule that does not exist.
pub fn unknown_rule(file: FileId, span: Span, name: &str) -> Diagnostic {
    Diagnostic::new(
        &INVALID_SUPPRESSION,
        file,
        span,
        format!("unknown rule `{name}` in suppression comment (see `citeproof rules`)"),
    )
    .with_key(name)
}
