//! Fuzz the answer parser: any UTF-8 input parses without a panic, and every span it
//! returns lies on character boundaries inside the input.
//!
//! Run with `cargo +nightly fuzz run answer` from the crate root.
#![no_main]

mod spans;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| spans::run(data, citeproof::parse::answer::parse));
