//! Resolution: finding each cited work in the scholarly record.
//!
//! `sources` holds one client per scholarly API; `gate` decides whether a candidate
//! record is the cited work (on the scores of `title_score`), `compare` which cited
//! fields disagree with it (the findings are `mismatch`'s types), and `outcome`
//! what the verdict is.

pub mod authors;
pub mod cascade;
pub mod compare;
pub mod conflation;
pub mod container;
pub mod corpus;
pub mod evidence;
pub mod gate;
pub mod identifiers;
pub mod ids_phase;
pub mod index_source;
pub mod index_titles;
pub mod input;
pub mod kind_phase;
pub mod kinds;
pub mod landing;
pub mod lookup;
pub mod mismatch;
pub mod name_variants;
pub mod normalize;
pub mod options;
pub mod outcome;
pub mod published;
pub mod query;
pub mod resolution;
pub mod run;
pub mod search_phase;
pub mod sources;
pub mod title_index;
pub mod title_score;
pub mod venue_align;
pub mod venue_phase;
pub mod venue_table;
pub mod venues;
pub mod verdict;
pub mod web_page;
