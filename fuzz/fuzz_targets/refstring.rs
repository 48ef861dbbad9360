//! Fuzz the reference-string parser: what is checked is in `body/refstring.rs`, which
//! tests/fuzz_regressions.rs shares to replay the inputs that once crashed it.
//!
//! Run with `cargo +nightly fuzz run refstring` from the crate root.
#![no_main]

#[path = "body/refstring.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
