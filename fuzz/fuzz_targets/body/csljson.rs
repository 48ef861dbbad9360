//! The CSL-JSON parser: any UTF-8 input parses without a panic, and every span it
//! returns lies on character boundaries inside the input.

pub fn run(data: &[u8]) {
    crate::spans::run(data, citeproof::parse::csljson::parse);
}
