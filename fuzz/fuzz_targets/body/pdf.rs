//! The PDF reader: any bytes give a layout or a `PdfError`, never a panic (the
//! engine's own panics are caught and come back as `PdfError::Panicked`; a panic in
//! citeproof's code is a finding, see `engine_panics.rs`), and every location it
//! reports is 1-based and on a page of the document.

pub fn run(data: &[u8]) {
    crate::engine_panics::tolerate();
    let Ok(layout) = citeproof::read::pdf::read(data) else {
        return;
    };
    for line in &layout.body {
        assert!(line.page >= 1 && line.page <= layout.pages && line.line >= 1);
    }
    for reference in &layout.references {
        let (page, line) = reference.first;
        assert!(page >= 1 && page <= layout.pages && line >= 1);
    }
}
