//! Fuzz the PDF reader: any bytes give a layout or a `PdfError`, never a panic (the
//! engine's own panics are caught and come back as `PdfError::Panicked`; a panic in
//! citeproof's code is a finding, see `engine_panics.rs`), and every
//! location it reports is 1-based and on a page of the document.
//!
//! Run with `cargo +nightly fuzz run pdf fixtures/pdf` from the crate root.
#![no_main]

mod engine_panics;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    engine_panics::tolerate();
    if let Ok(layout) = citeproof::read::pdf::read(data) {
        for line in &layout.body {
            assert!(line.page >= 1 && line.page <= layout.pages && line.line >= 1);
        }
        for reference in &layout.references {
            let (page, line) = reference.first;
            assert!(page >= 1 && page <= layout.pages && line >= 1);
        }
    }
});
