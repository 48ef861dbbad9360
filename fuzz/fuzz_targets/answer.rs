//! Fuzz the answer parser: what is checked is in `body/answer.rs`, which
//! tests/fuzz_regressions.rs shares to replay the inputs that once crashed it.
//!
//! Run with `cargo +nightly fuzz run answer` from the crate root.
#![no_main]

mod spans;
#[path = "body/answer.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
