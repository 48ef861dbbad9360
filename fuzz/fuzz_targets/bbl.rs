//! Fuzz the `.bbl` parser: what is checked is in `body/bbl.rs`, which
//! tests/fuzz_regressions.rs shares to replay the inputs that once crashed it.
//!
//! Run with `cargo +nightly fuzz run bbl fixtures/inputs/demo` from the crate root.
#![no_main]

mod spans;
#[path = "body/bbl.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
