//! Text out of JATS XML (Europe PMC `fullTextXML`, PMC `efetch db=pmc`): the abstract
//! and the body's `sec`/`title`/`p`, with the reference list, back matter, tables,
//! figures and formulae left out. The article type and subject headings are kept so a
//! correction or retraction notice can be recognised.

use super::{Extracted, TextBuilder, collapse};
use crate::resolve::sources::xml::{self, Element, Node};

/// Elements whose content is not running text.
const SKIPPED: &[&str] = &[
    "ref-list",
    "back",
    "table-wrap",
    "table",
    "fig",
    "disp-formula",
    "inline-formula",
    "graphic",
    "media",
    "supplementary-material",
    "fn-group",
    "object-id",
    "label",
    "alternatives",
];

/// Extract a JATS article (or the first article of a `pmc-articleset`).
pub fn extract(body: &[u8]) -> Result<Extracted, String> {
    let root = xml::parse(body)?;
    let article = find(&root, "article").ok_or("no <article> element")?;
    let meta = article.path(&["front", "article-meta"]);
    let title = meta
        .and_then(|m| m.path(&["title-group", "article-title"]))
        .map(Element::text)
        .filter(|t| !t.is_empty());
    let mut declared_type: Vec<String> = article
        .attr("article-type")
        .map(str::to_string)
        .into_iter()
        .collect();
    if let Some(cats) = meta.and_then(|m| m.child("article-categories")) {
        collect_subjects(cats, &mut declared_type);
    }
    let mut out = TextBuilder::default();
    if let Some(abs) = meta.and_then(|m| m.child("abstract")) {
        out.heading("Abstract");
        walk(abs, &mut out);
    }
    if let Some(body) = article.child("body") {
        walk(body, &mut out);
    }
    let (text, sections) = out.finish();
    Ok(Extracted {
        title,
        text,
        sections,
        declared_type,
    })
}

fn find<'a>(e: &'a Element, name: &str) -> Option<&'a Element> {
    if e.name == name {
        return Some(e);
    }
    e.elements().find_map(|c| find(c, name))
}

fn collect_subjects(e: &Element, out: &mut Vec<String>) {
    for c in e.elements() {
        if c.name == "subject" {
            out.push(c.text());
        } else {
            collect_subjects(c, out);
        }
    }
}

/// Sections give headings, paragraphs give text; everything else is descended into.
fn walk(e: &Element, out: &mut TextBuilder) {
    for child in e.elements() {
        match child.name.as_str() {
            name if SKIPPED.contains(&name) => {}
            "title" => out.heading(&child.text()),
            "p" | "def" | "list-item" | "disp-quote" | "statement" => {
                out.paragraph(&inline_text(child));
            }
            _ => walk(child, out),
        }
    }
}

/// The running text of a paragraph, skipping formulae, tables and figures inside it.
fn inline_text(e: &Element) -> String {
    let mut s = String::new();
    collect_inline(e, &mut s);
    collapse(&s)
}

fn collect_inline(e: &Element, out: &mut String) {
    for node in &e.children {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::Element(c) if SKIPPED.contains(&c.name.as_str()) => {}
            Node::Element(c) if c.name == "list" => {
                out.push(' ');
                collect_inline(c, out);
            }
            Node::Element(c) => collect_inline(c, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_paragraphs_and_no_references() {
        let doc = br#"<?xml version="1.0"?>
<article article-type="research-article"><front><article-meta>
<title-group><article-title>Sleep &amp; memory</article-title></title-group>
<abstract><p>We studied sleep.</p></abstract></article-meta></front>
<body><sec><title>Methods</title><p>Mice<xref ref-type="bibr" rid="r1">1</xref> slept.</p>
<sec><title>Statistics</title><p>We used <inline-formula>x^2</inline-formula>tests.</p></sec>
<table-wrap><table><tr><td>cell</td></tr></table></table-wrap></sec>
<sec><title>Results</title><p>They remembered.</p></sec></body>
<back><ref-list><ref id="r1"><mixed-citation>Smith 2020</mixed-citation></ref></ref-list></back>
</article>"#;
        let x = extract(doc).unwrap();
        assert_eq!(x.title.as_deref(), Some("Sleep & memory"));
        assert_eq!(x.declared_type, ["research-article"]);
        assert!(!x.text.contains("Smith 2020") && !x.text.contains("cell"));
        let titles: Vec<&str> = x.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Abstract", "Methods", "Statistics", "Results"]);
        assert_eq!(&x.text[x.sections[1].body.clone()], "Mice1 slept.");
        assert_eq!(&x.text[x.sections[3].body.clone()], "They remembered.");
    }
}
