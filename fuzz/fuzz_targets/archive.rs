//! Fuzz the archive reader: what is checked is in `body/archive.rs`, which
//! tests/fuzz_regressions.rs shares to replay the inputs that once crashed it.
//!
//! Run with `cargo +nightly fuzz run archive` from the crate root.
#![no_main]

#[path = "body/archive.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
