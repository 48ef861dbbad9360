//! Findings about works accepted as real (see [`crate::accept`]).

use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Span};
use crate::rules::{ACCEPTED_WORK_CHANGED, INVALID_ACCEPTED_WORK};

/// A record of an accepted-works file that accepts nothing (`why` says what is wrong).
pub fn invalid_record(file: FileId, span: Span, why: &str) -> Diagnostic {
    Diagnostic::new(&INVALID_ACCEPTED_WORK, file, span, why)
}

/// A reference with the key or title of an accepted work but not its fingerprint.
/// `record`: the accepted work described; `differences`: how the reference differs;
/// `at`: where the record is written.
pub fn changed(
    file: FileId,
    span: Span,
    key: &str,
    record: &str,
    differences: &str,
    at: Option<(FileId, Span)>,
) -> Diagnostic {
    let d = Diagnostic::new(
        &ACCEPTED_WORK_CHANGED,
        file,
        span,
        format!(
            "`{key}` is not accepted as real: the accepted work is {record}, and this reference \
             differs in {differences}; if the change is right, accept it again (`citeproof accept {key}`)"
        ),
    )
    .with_key(key);
    match at {
        Some((file, span)) => d.with_related(file, span, format!("{record} is accepted here")),
        None => d,
    }
}
