//! Fuzz the LaTeX parser: what is checked is in `body/latex.rs`, which
//! tests/fuzz_regressions.rs shares to replay the inputs that once crashed it.
//!
//! Run with `cargo +nightly fuzz run latex` from the crate root.
#![no_main]

#[path = "body/latex.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
