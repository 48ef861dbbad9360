//! Fuzz the `.bbl` parser (BibTeX `\bibitem`s and biber `\entry` records): any UTF-8
//! input parses without a panic, and every span lies on character boundaries
//! inside the input.
//!
//! Run with `cargo +nightly fuzz run bbl fixtures/inputs/demo` from the crate root.
#![no_main]

mod spans;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| spans::run(data, citeproof::parse::bbl::parse));
