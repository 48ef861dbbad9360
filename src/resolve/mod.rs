//! Resolution: matching parsed references to records of scholarly sources.

pub mod authors;
pub mod compare;
pub mod gate;
pub mod identifiers;
pub mod latex;
pub mod normalize;
pub mod outcome;
pub mod title_index;
pub mod venue_align;
pub mod venue_table;
pub mod venues;
