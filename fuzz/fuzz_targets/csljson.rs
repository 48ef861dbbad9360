//! Fuzz the csljson parser: any UTF-8 input parses without a panic, and every span it
//! returns lies on character boundaries inside the input.
//!
//! Run with `cargo +nightly fuzz run csljson` from the crate root.
#![no_main]

use citeproof::model::{FileId, Span};
use citeproof::parse::{self, ParseOptions};
use libfuzzer_sys::fuzz_target;

fn check(text: &str, span: Span) {
    assert!(span.start <= span.end && span.end <= text.len());
    assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = parse::csljson::parse(FileId(0), text, &ParseOptions::default());
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
});
