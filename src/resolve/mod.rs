//! Resolution: finding each cited work in the scholarly record.
//!
//! `sources` holds one client per scholarly API; the cascade, the title gate and the
//! field comparison build on them.

pub mod sources;
