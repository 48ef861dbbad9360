//! The rule families: each module builds the diagnostics (and their message text) for
//! its rules. The table itself ([`Rule`], [`RULES`], one static per rule) is
//! [`crate::diagnostic::rule`], re-exported here; input problems are
//! [`crate::diagnostic::input`].

pub mod accepted;
pub mod links;
pub mod meta;
pub mod reference;
pub mod resolution;
mod resolution_fix;
pub mod verification;

pub use crate::diagnostic::input;
pub use crate::diagnostic::rule::*;
