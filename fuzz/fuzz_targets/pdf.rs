//! Fuzz the PDF reader: what is checked is in `body/pdf.rs`, which
//! tests/fuzz_regressions.rs shares to replay the inputs that once crashed it.
//!
//! Run with `cargo +nightly fuzz run pdf fixtures/pdf` from the crate root.
#![no_main]

mod engine_panics;
#[path = "body/pdf.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
