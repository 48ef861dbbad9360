//! Word (`.docx`) and OpenDocument (`.odt`) files: body, footnotes and endnotes as
//! paragraphs, reference managers' fields read as CSL-JSON, a typed reference list
//! read by the reference-list parser; locations are paragraphs and characters.

mod assemble;
pub mod fields;
pub mod odt;
pub mod wordml;

use crate::model::FileId;

use super::Converted;
use super::zipped::Zipped;

/// Largest expanded size of one XML part read.
const MAX_PART: u64 = 64 * 1024 * 1024;

/// The first bytes of an OLE compound file: what Word writes for a
/// password-protected document (and for the old binary `.doc`).
pub const COMPOUND_FILE: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// Read a Word file as `file`; the error says why it cannot be read.
pub fn convert_docx(file: FileId, bytes: &[u8]) -> Result<Converted, String> {
    if bytes.starts_with(COMPOUND_FILE) {
        return Err(
            "an encrypted (password-protected) Word file, or an old binary .doc: \
                    save it as .docx without a password"
                .into(),
        );
    }
    let mut zip = Zipped::open(bytes)?;
    let main = main_part(&mut zip)?;
    let document = zip
        .read(&main, MAX_PART)?
        .ok_or_else(|| format!("not a Word document: `{main}` is missing"))?;
    let body = wordml::read_body(&document).map_err(|e| format!("{main}: {e}"))?;
    let mut notes = |name: &str, element: &str| -> Result<Vec<_>, String> {
        match zip.read(name, MAX_PART)? {
            Some(xml) => wordml::read_notes(&xml, element).map_err(|e| format!("{name}: {e}")),
            None => Ok(Vec::new()),
        }
    };
    let footnotes = notes("word/footnotes.xml", "w:footnote")?;
    let endnotes = notes("word/endnotes.xml", "w:endnote")?;
    Ok(assemble::assemble(file, body, footnotes, endnotes))
}

/// Read an OpenDocument text file as `file`.
pub fn convert_odt(file: FileId, bytes: &[u8]) -> Result<Converted, String> {
    let mut zip = Zipped::open(bytes)?;
    let content = zip
        .read("content.xml", MAX_PART)?
        .ok_or("not an OpenDocument text: `content.xml` is missing")?;
    let (body, footnotes, endnotes) =
        odt::read_content(&content).map_err(|e| format!("content.xml: {e}"))?;
    Ok(assemble::assemble(file, body, footnotes, endnotes))
}

/// The main document part: the `officeDocument` relationship of `_rels/.rels`,
/// else `word/document.xml`.
fn main_part(zip: &mut Zipped) -> Result<String, String> {
    let fallback = "word/document.xml".to_string();
    let Some(rels) = zip.read("_rels/.rels", MAX_PART)? else {
        return Ok(fallback);
    };
    let rels = String::from_utf8_lossy(&rels);
    let mut reader = quick_xml::Reader::from_str(&rels);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Empty(e) | quick_xml::events::Event::Start(e))
                if e.local_name().as_ref() == "Relationship" =>
            {
                let value = |key: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.0 == key)
                        .map(|a| a.value.to_string())
                };
                let is_main = value("Type").is_some_and(|t| t.ends_with("/officeDocument"));
                if let (true, Some(target)) = (is_main, value("Target")) {
                    let target = target.trim_start_matches('/').to_string();
                    return Ok(if zip.has(&target) { target } else { fallback });
                }
            }
            Ok(quick_xml::events::Event::Eof) | Err(_) => return Ok(fallback),
            Ok(_) => {}
        }
    }
}

/// Whether a zip holds a Word document or an OpenDocument text (by its entries).
pub fn zip_kind(zip: &mut Zipped) -> Option<crate::source::FileKind> {
    if zip.has("word/document.xml") {
        return Some(crate::source::FileKind::Docx);
    }
    let mimetype = zip.read("mimetype", 256).ok().flatten()?;
    (mimetype.trim_ascii() == b"application/vnd.oasis.opendocument.text")
        .then_some(crate::source::FileKind::Odt)
}
