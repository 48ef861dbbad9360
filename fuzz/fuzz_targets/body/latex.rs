//! The LaTeX parser: any UTF-8 input parses without a panic, and every citation
//! span slices to its key.

use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = parse::latex::parse(FileId(0), text, &ParseOptions::default());
    for c in &parsed.citations {
        assert_eq!(text.get(c.span.start..c.span.end), Some(c.key.as_str()));
    }
    for claim in &parsed.claims {
        assert!(text.get(claim.span.start..claim.span.end).is_some());
    }
}
