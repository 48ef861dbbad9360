//! What every parser fuzz target checks: no panic, and every span on character
//! boundaries inside the input. Included by the targets with `mod spans;`.

use citeproof::model::{FileId, Span};
use citeproof::parse::{ParseOptions, Parsed};

fn check(text: &str, span: Span) {
    assert!(span.start <= span.end && span.end <= text.len());
    assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
}

/// Parse `data` (when it is UTF-8) with `parse` and check the spans of the result.
#[allow(dead_code)]
pub fn run(data: &[u8], parse: fn(FileId, &str, &ParseOptions) -> Parsed) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = parse(FileId(0), text, &ParseOptions::default());
    check_parsed(text, &parsed);
}

/// Every span of `parsed` on character boundaries inside `text` (a file's text, or
/// the text a reader converted a binary file to).
pub fn check_parsed(text: &str, parsed: &Parsed) {
    for c in &parsed.citations {
        check(text, c.span);
        check(text, c.group_span);
    }
    for r in &parsed.references {
        check(text, r.span);
    }
    for c in &parsed.claims {
        check(text, c.span);
    }
    for p in &parsed.problems {
        check(text, p.span);
    }
}
