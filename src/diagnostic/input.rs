//! Input problems: files that cannot be read, entries that cannot be parsed.

use super::Diagnostic;
use super::rule::{INCLUDE_CYCLE, MALFORMED_ENTRY, UNREADABLE_FILE, UNTERMINATED};
use crate::model::{FileId, Span};

/// A named file (include, bibliography, command-line input) could not be read.
/// `at` is where the file was requested; `what` names the failure ("not found" …).
pub fn unreadable_file(file: FileId, at: Span, path: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        &UNREADABLE_FILE,
        file,
        at,
        format!("cannot read `{path}`: {what}"),
    )
    .with_key(path)
}

/// A bibliography entry with a syntax error; `detail` says what was expected.
pub fn malformed_entry(file: FileId, at: Span, key: Option<&str>, detail: &str) -> Diagnostic {
    let message = match key {
        Some(key) => format!("malformed entry `{key}`: {detail}; the entry is skipped"),
        None => format!("malformed entry: {detail}; the entry is skipped"),
    };
    let diagnostic = Diagnostic::new(&MALFORMED_ENTRY, file, at, message);
    match key {
        Some(key) => diagnostic.with_key(key),
        None => diagnostic,
    }
}

/// An unclosed construct (`what`: "brace group of \\cite", "verbatim environment" …).
pub fn unterminated(file: FileId, at: Span, what: &str) -> Diagnostic {
    Diagnostic::new(&UNTERMINATED, file, at, format!("unterminated {what}"))
}

/// An include that would recurse (`path` is already being read).
pub fn include_cycle(file: FileId, at: Span, path: &str) -> Diagnostic {
    Diagnostic::new(
        &INCLUDE_CYCLE,
        file,
        at,
        format!("`{path}` includes itself through this chain; not followed"),
    )
    .with_key(path)
}
