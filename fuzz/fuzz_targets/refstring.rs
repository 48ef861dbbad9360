//! Fuzz the reference-string parser: any bytes that are UTF-8 must parse without a
//! panic, and a DOI it reports must start like one.
//!
//! Run with `cargo +nightly fuzz run refstring` from the crate root.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let fields = citeproof::parse::refstring::parse(text);
        if let Some(doi) = fields.doi {
            assert!(doi.starts_with("10."), "{doi}");
        }
    }
});
