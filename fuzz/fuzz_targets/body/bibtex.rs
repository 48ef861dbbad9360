//! The BibTeX parser: any UTF-8 input parses without a panic, every entry's span
//! slices to its raw text and its key span to its key.

use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = parse::bibtex::parse(FileId(0), text, &ParseOptions::default());
    for r in &parsed.references {
        assert_eq!(text.get(r.span.start..r.span.end), Some(r.raw.as_str()));
        let key = r.key_span.expect("bib entries have a key span");
        assert_eq!(text.get(key.start..key.end), Some(r.key.as_str()));
        for f in &r.field_spans {
            assert!(text.get(f.value.start..f.value.end).is_some());
        }
    }
}
