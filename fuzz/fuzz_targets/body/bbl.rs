//! The `.bbl` parser (BibTeX `\bibitem`s and biber `\entry` records): any UTF-8
//! input parses without a panic, and every span lies on character boundaries
//! inside the input.

pub fn run(data: &[u8]) {
    crate::spans::run(data, citeproof::parse::bbl::parse);
}
