//! Emitters: render diagnostics and extraction results.

pub mod extract;
pub mod text;
