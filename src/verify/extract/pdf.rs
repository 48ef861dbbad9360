//! Text out of a PDF with the pure-Rust `pdf-extract`. PDFs carry no reliable section
//! structure, so sections are left to the chunker's heading detection; the title is
//! left unknown and the cited title is looked for in the first page instead.
//!
//! `pdf-extract` can panic on malformed files; the panic is caught and reported as an
//! unreadable document.

use super::{Extracted, collapse};

/// Extract the text of a PDF.
pub fn extract(bytes: &[u8]) -> Result<Extracted, String> {
    if !bytes.starts_with(b"%PDF") {
        return Err("not a PDF (no %PDF header)".to_string());
    }
    let owned = bytes.to_vec();
    let result = std::panic::catch_unwind(move || pdf_extract::extract_text_from_mem(&owned));
    let raw = match result {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => return Err(format!("unreadable PDF: {e}")),
        Err(_) => return Err("unreadable PDF: the extractor failed".to_string()),
    };
    Ok(Extracted {
        title: None,
        text: tidy(&raw),
        sections: Vec::new(),
        declared_type: Vec::new(),
    })
}

/// Lines joined into paragraphs: words hyphenated across a line break are rejoined,
/// blank lines stay paragraph breaks, runs of blank lines become one.
fn tidy(raw: &str) -> String {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in raw.lines() {
        let line = collapse(line);
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
            continue;
        }
        if current.ends_with('-')
            && current
                .chars()
                .rev()
                .nth(1)
                .is_some_and(char::is_alphabetic)
            && line.starts_with(char::is_lowercase)
        {
            current.pop();
        } else if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&line);
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_paragraphs_and_hyphens_rejoin() {
        let raw = "Results\n\n\nMice de-\nprived of sleep\nforgot.\n\nNext para.";
        assert_eq!(
            tidy(raw),
            "Results\n\nMice deprived of sleep forgot.\n\nNext para."
        );
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(extract(b"<html>not a pdf</html>").is_err());
        assert!(extract(b"%PDF-1.4\n%garbage that is not a pdf body").is_err());
    }
}
