//! The Word and OpenDocument readers: any bytes give a converted document or an
//! error, never a panic; every span of what was found lies on character boundaries
//! inside the converted text, and every place maps back to a paragraph.
//!
//! The first byte chooses what the rest is: the whole file (zip parsing), or the
//! XML of `word/document.xml`, of `word/footnotes.xml` (beside a fixed body) or of
//! an `.odt`'s `content.xml`, put in a zip here so that the fuzzer works on the
//! markup rather than on deflate streams.

use std::io::Write;

use citeproof::model::FileId;
use citeproof::read::{Converted, docx};

const BODY: &[u8] = br#"<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>Text</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p></w:body></w:document>"#;

fn zipped(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in files {
        writer.start_file(*name, stored).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn check(converted: &Converted) {
    crate::spans::check_parsed(&converted.text, &converted.parsed);
    for (offset, _) in converted.locations.marks() {
        assert!(*offset <= converted.text.len());
    }
    for r in &converted.parsed.references {
        assert!(
            converted
                .locations
                .locate(&converted.text, r.span.start)
                .is_some()
        );
    }
}

pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let result = match mode % 4 {
        0 => docx::convert_docx(FileId(0), rest),
        1 => docx::convert_docx(FileId(0), &zipped(&[("word/document.xml", rest)])),
        2 => docx::convert_docx(
            FileId(0),
            &zipped(&[("word/document.xml", BODY), ("word/footnotes.xml", rest)]),
        ),
        _ => docx::convert_odt(
            FileId(0),
            &zipped(&[
                ("mimetype", b"application/vnd.oasis.opendocument.text"),
                ("content.xml", rest),
            ]),
        ),
    };
    if let Ok(converted) = result {
        check(&converted);
    }
}
