//! citeproof: check citations in manuscripts and LLM answers.
//!
//! Pipeline: parse → resolve → verify → rules → emit (see DESIGN.md). The CLI, the
//! language server and the HTTP server are thin shells over this library.

pub mod accept;
pub mod baseline;
pub mod batch;
pub mod cache;
pub mod changed;
pub mod check;
pub mod clean;
pub mod config;
pub mod diagnostic;
pub mod document;
pub mod fix;
pub mod fs;
pub mod index;
pub mod link;
pub mod load;
pub mod lsp;
pub mod model;
pub mod net;
pub mod output;
pub mod panics;
pub mod parse;
pub mod pg;
pub mod pipeline;
pub mod policy;
#[cfg(test)]
pub(crate) mod proptest_config;
pub mod read;
pub mod report;
pub mod resolve;
pub mod rules;
pub mod serve;
pub mod settle;
pub mod severity;
pub mod shard;
pub mod source;
pub mod storage;
pub mod suppress;
pub mod validate;
pub mod venue_policy;
pub mod verify;
pub mod walk;
pub mod zotero;
