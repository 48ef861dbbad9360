//! Fuzz the Word and OpenDocument readers: what is checked is in `body/docx.rs`, which
//! tests/fuzz_regressions.rs shares to replay the inputs that once crashed it.
//!
//! Run with `cargo +nightly fuzz run docx fixtures/inputs/demo` from the crate root.
#![no_main]

mod spans;
#[path = "body/docx.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
