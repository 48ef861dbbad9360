//! Resolution: finding each cited work in the scholarly record.
//!
//! `sources` holds one client per scholarly API; `gate` decides whether a candidate
//! record is the cited work, `compare` which cited fields disagree with it, and
//! `outcome` what the verdict is.

pub mod authors;
pub mod compare;
pub mod gate;
pub mod identifiers;
pub mod latex;
pub mod normalize;
pub mod outcome;
pub mod sources;
pub mod title_index;
pub mod venue_align;
pub mod venue_table;
pub mod venues;
