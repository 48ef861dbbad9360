//! citeproof: check citations in manuscripts and LLM answers.
//!
//! Pipeline: parse → resolve → verify → rules → emit (see DESIGN.md). The CLI, the
//! language server and the HTTP server are thin shells over this library.

pub mod diagnostic;
pub mod model;
pub mod parse;
pub mod resolve;
pub mod rules;
pub mod source;
pub mod suppress;
