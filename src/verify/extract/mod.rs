//! Plain text out of downloaded full texts (HTML, JATS XML, PDF), with section headings
//! kept as markers: each heading stands on its own line and the extractor records the
//! byte range of the body that follows it.

pub mod html;
pub mod jats;
pub mod pdf;

pub use crate::verify::passages::Section;

/// The text of one document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extracted {
    /// The document's own title, when it names one.
    pub title: Option<String>,
    pub text: String,
    /// Sections in order; empty when the format has no reliable structure (PDF).
    pub sections: Vec<Section>,
    /// What the document declares itself to be, where it does (JATS `article-type`,
    /// HTML `citation_article_type`, a subject heading such as "Author Correction").
    pub declared_type: Vec<String>,
}

/// Section titles whose content is not the work's own text.
const SKIPPED_TITLES: &[&str] = &[
    "references",
    "reference",
    "bibliography",
    "literature cited",
    "works cited",
    "references and notes",
    "notes and references",
    "acknowledgements",
    "acknowledgments",
    "acknowledgement",
    "acknowledgment",
    "funding",
    "author contributions",
    "competing interests",
    "conflict of interest",
    "conflicts of interest",
    "declaration of competing interest",
    "footnotes",
    "supplementary material",
    "supplementary information",
    "additional information",
    "data availability",
    "code availability",
    "ethics declarations",
    "rights and permissions",
    "about this article",
    "citation",
    "cited by",
    "similar articles",
    "related articles",
];

/// Whether a section with this heading holds apparatus (references, acknowledgements …)
/// rather than the work's text. Leading numbering is ignored.
pub fn is_skipped_title(title: &str) -> bool {
    let bare: String = title
        .trim()
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c.is_whitespace())
        .trim_end_matches([':', '.'])
        .to_lowercase();
    SKIPPED_TITLES.contains(&bare.trim())
}

/// Builds text with section markers.
#[derive(Debug, Default)]
pub(crate) struct TextBuilder {
    text: String,
    sections: Vec<Section>,
    open: Option<(String, usize)>,
    /// Inside a skipped section: paragraphs are dropped until the next heading.
    skipping: bool,
}

impl TextBuilder {
    /// Start a section. Apparatus sections are dropped with their content.
    pub(crate) fn heading(&mut self, title: &str) {
        let title = collapse(title);
        if title.is_empty() {
            return;
        }
        self.close();
        self.skipping = is_skipped_title(&title);
        if self.skipping {
            return;
        }
        self.separate();
        self.text.push_str(&title);
        self.text.push_str("\n\n");
        self.open = Some((title, self.text.len()));
    }

    pub(crate) fn paragraph(&mut self, text: &str) {
        let text = collapse(text);
        if text.is_empty() || self.skipping {
            return;
        }
        self.separate();
        self.text.push_str(&text);
    }

    fn separate(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with("\n\n") {
            self.text.push_str("\n\n");
        }
    }

    fn close(&mut self) {
        if let Some((title, start)) = self.open.take() {
            let end = self.text.trim_end().len().max(start);
            self.sections.push(Section {
                title,
                body: start..end,
            });
        }
    }

    pub(crate) fn finish(mut self) -> (String, Vec<Section>) {
        self.close();
        let len = self.text.trim_end().len();
        self.text.truncate(len);
        if let Some(first) = self.sections.first()
            && first.body.start > 0
        {
            // Text before the first heading is a section without a title.
            let lead_end = self.text[..first.body.start]
                .trim_end()
                .rfind("\n\n")
                .unwrap_or(0);
            if lead_end > 0 {
                self.sections.insert(
                    0,
                    Section {
                        title: String::new(),
                        body: 0..lead_end,
                    },
                );
            }
        }
        (self.text, self.sections)
    }
}

/// Whitespace collapsed to single spaces, trimmed.
pub(crate) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_cover_their_bodies_and_apparatus_is_dropped() {
        let mut b = TextBuilder::default();
        b.paragraph("Lead text.");
        b.heading("1. Introduction");
        b.paragraph("First   paragraph.");
        b.paragraph("Second paragraph.");
        b.heading("References");
        b.paragraph("[1] Someone. A paper. 2020.");
        b.heading("Appendix");
        b.paragraph("More.");
        let (text, sections) = b.finish();
        assert!(!text.contains("Someone"));
        let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["", "1. Introduction", "Appendix"]);
        assert_eq!(&text[sections[0].body.clone()], "Lead text.");
        assert_eq!(
            &text[sections[1].body.clone()],
            "First paragraph.\n\nSecond paragraph."
        );
        assert_eq!(&text[sections[2].body.clone()], "More.");
    }

    #[test]
    fn skipped_titles_ignore_numbering() {
        assert!(is_skipped_title("7 References"));
        assert!(is_skipped_title("Acknowledgments:"));
        assert!(!is_skipped_title("Results"));
    }
}
