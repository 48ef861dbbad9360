//! Text out of an HTML article (publisher pages, arXiv's LaTeXML HTML) with a real HTML
//! parser: navigation, scripts, styles, forms, figures and reference lists are dropped;
//! headings become section markers; paragraphs are separated by blank lines.

use scraper::{ElementRef, Html, Node, Selector};

use super::{Extracted, TextBuilder, collapse, is_skipped_title};

/// Elements whose content is never article text.
const DROPPED_TAGS: &[&str] = &[
    "script", "style", "noscript", "nav", "header", "footer", "aside", "form", "button", "select",
    "svg", "iframe", "template", "figure", "table", "math", "object", "canvas", "head",
];

/// Class or id fragments of page furniture and reference lists.
const DROPPED_MARKERS: &[&str] = &[
    "ltx_bibliography",
    "ltx_page_header",
    "ltx_page_footer",
    "ltx_authors",
    "ltx_dates",
    "ltx_role_affiliation",
    "ref-list",
    "references",
    "bibliography",
    "citation-list",
    "cookie",
    "sidebar",
    "breadcrumb",
    "navbar",
    "skip-link",
];

/// Elements that end a paragraph.
const BLOCK_TAGS: &[&str] = &[
    "p",
    "div",
    "section",
    "article",
    "main",
    "li",
    "ul",
    "ol",
    "dl",
    "dd",
    "dt",
    "blockquote",
    "pre",
    "br",
    "hr",
    "figcaption",
    "details",
    "summary",
    "body",
];

fn selector(css: &str) -> Selector {
    Selector::parse(css).expect("static selector")
}

/// Extract the article text of an HTML page.
pub fn extract(html: &str) -> Extracted {
    let doc = Html::parse_document(html);
    let meta = |name: &str| {
        let sel = selector(&format!("meta[name=\"{name}\" i]"));
        doc.select(&sel)
            .filter_map(|m| m.value().attr("content"))
            .map(collapse)
            .find(|c| !c.is_empty())
    };
    let first_text = |css: &str| {
        doc.select(&selector(css))
            .map(|e| collapse(&e.text().collect::<String>()))
            .find(|t| !t.is_empty())
    };
    let title = meta("citation_title")
        .or_else(|| meta("dc.title"))
        .or_else(|| first_text("h1.ltx_title_document"))
        .or_else(|| first_text("h1"))
        .or_else(|| first_text("title"));
    let declared_type = ["citation_article_type", "dc.type", "prism.section"]
        .iter()
        .filter_map(|n| meta(n))
        .collect();
    let root = [
        "article",
        "main",
        "[role=main]",
        ".ltx_page_content",
        "body",
    ]
    .iter()
    .find_map(|css| doc.select(&selector(css)).next())
    .unwrap_or_else(|| doc.root_element());
    let mut walker = Walker::default();
    walker.element(root);
    walker.flush();
    let (text, sections) = walker.out.finish();
    Extracted {
        title,
        text,
        sections,
        declared_type,
    }
}

#[derive(Default)]
struct Walker {
    out: TextBuilder,
    paragraph: String,
}

impl Walker {
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.paragraph);
        self.out.paragraph(&text);
    }

    fn element(&mut self, element: ElementRef<'_>) {
        let el = element.value();
        let name = el.name();
        if DROPPED_TAGS.contains(&name) || is_furniture(element) {
            return;
        }
        if matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
            self.flush();
            let title = collapse(&element.text().collect::<String>());
            // A document title is the page's name, not a section.
            if !el.classes().any(|c| c == "ltx_title_document") {
                self.out.heading(&title);
            }
            return;
        }
        if name == "section" && section_is_apparatus(element) {
            return;
        }
        let block = BLOCK_TAGS.contains(&name);
        if block {
            self.flush();
        }
        for child in element.children() {
            match child.value() {
                Node::Text(t) => {
                    self.paragraph.push_str(t);
                }
                Node::Element(_) => {
                    if let Some(e) = ElementRef::wrap(child) {
                        self.element(e);
                    }
                }
                _ => {}
            }
        }
        if block {
            self.flush();
        } else if matches!(
            name,
            "span" | "a" | "em" | "i" | "b" | "strong" | "sup" | "sub"
        ) {
            // Inline: nothing to separate.
        } else {
            self.paragraph.push(' ');
        }
    }
}

/// Navigation roles and elements whose class or id marks page furniture.
fn is_furniture(element: ElementRef<'_>) -> bool {
    let el = element.value();
    if matches!(
        el.attr("role"),
        Some("navigation" | "banner" | "contentinfo" | "complementary" | "doc-bibliography")
    ) || el.attr("aria-hidden") == Some("true")
    {
        return true;
    }
    let marks = el
        .classes()
        .chain(el.id())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>();
    // LaTeXML classes are exact names (`ltx_authors` must not match the document's
    // `ltx_authors_1line`); other markers match inside longer names.
    marks.iter().any(|m| {
        DROPPED_MARKERS.iter().any(|d| {
            if d.starts_with("ltx_") {
                m == d
            } else {
                m.contains(d)
            }
        })
    })
}

/// A `<section>` whose own heading names a references or acknowledgements section.
fn section_is_apparatus(section: ElementRef<'_>) -> bool {
    let heading = selector("h1, h2, h3, h4, h5, h6");
    section
        .select(&heading)
        .next()
        .map(|h| is_skipped_title(&h.text().collect::<String>()))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_furniture_and_keeps_headings() {
        let html = r#"<html><head><title>Page</title>
            <meta name="citation_title" content="Sleep and memory">
            <meta name="citation_article_type" content="Research Article">
            <script>var x = "not text";</script><style>p {}</style></head>
            <body><nav><a href="/">Home</a> Menu</nav>
            <article><h1>Sleep and memory</h1>
            <p>Lead <em>para</em>graph.</p>
            <h2>Results</h2><div class="para"><p>Mice slept.</p><p>They  remembered.</p></div>
            <section><h2>References</h2><ol><li>Smith 2020.</li></ol></section>
            <h2>Discussion</h2><p>It matters.</p>
            <figure><figcaption>Figure 1</figcaption></figure>
            </article><footer>Copyright</footer></body></html>"#;
        let x = extract(html);
        assert_eq!(x.title.as_deref(), Some("Sleep and memory"));
        assert_eq!(x.declared_type, ["Research Article"]);
        for gone in [
            "not text",
            "Menu",
            "Smith 2020",
            "Copyright",
            "Figure 1",
            "p {}",
        ] {
            assert!(!x.text.contains(gone), "{gone} in {:?}", x.text);
        }
        let titles: Vec<&str> = x.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Sleep and memory", "Results", "Discussion"]);
        let results = &x.sections[1];
        assert_eq!(
            &x.text[results.body.clone()],
            "Mice slept.\n\nThey remembered."
        );
        assert!(x.text.contains("Lead paragraph."));
    }
}
