//! Binary and bundled inputs turned into text and locations.

pub mod pdf;
