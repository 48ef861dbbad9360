//! The reference-string parser: any bytes that are UTF-8 parse without a panic,
//! and a DOI it reports starts like one.

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let fields = citeproof::parse::refstring::parse(text);
    if let Some(doi) = fields.doi {
        assert!(doi.starts_with("10."), "{doi}");
    }
}
