//! Fuzz the LaTeX parser: any UTF-8 input parses without a panic, and every
//! citation span slices to its key.
//!
//! Run with `cargo +nightly fuzz run latex` from the crate root.
#![no_main]

use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let parsed = parse::latex::parse(FileId(0), text, &ParseOptions::default());
        for c in &parsed.citations {
            assert_eq!(text.get(c.span.start..c.span.end), Some(c.key.as_str()));
        }
        for claim in &parsed.claims {
            assert!(text.get(claim.span.start..claim.span.end).is_some());
        }
    }
});
