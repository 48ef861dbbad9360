//! A small XML tree built with quick-xml, for the XML services (arXiv Atom, PubMed
//! E-utilities). Element names are kept with their resolved namespace, so Atom and
//! `arxiv:` elements are told apart by namespace, not by prefix.

use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use quick_xml::reader::NsReader;

/// The deepest nesting accepted; deeper documents are refused rather than recursed into.
const MAX_DEPTH: usize = 256;

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Element(Element),
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Element {
    /// Namespace URI, when the element is in one.
    pub ns: Option<String>,
    /// Local name (without prefix).
    pub name: String,
    /// Attributes by local name, values unescaped.
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Node>,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Child elements.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// Child elements with this local name.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.elements().filter(move |e| e.name == name)
    }

    /// The first child element with this local name.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.elements().find(|e| e.name == name)
    }

    /// The first child with this local name in namespace `ns`.
    pub fn child_ns(&self, ns: &str, name: &str) -> Option<&Element> {
        self.elements()
            .find(|e| e.name == name && e.ns.as_deref() == Some(ns))
    }

    /// Follow child names from here (`["Article", "Journal", "Title"]`).
    pub fn path(&self, names: &[&str]) -> Option<&Element> {
        names.iter().try_fold(self, |e, name| e.child(name))
    }

    /// All text inside, tags dropped, whitespace collapsed.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.collect_text(&mut out);
        super::text::collapse_whitespace(&out)
    }

    fn collect_text(&self, out: &mut String) {
        for node in &self.children {
            match node {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) => e.collect_text(out),
            }
        }
    }

    /// Text of the first child with this name, if not empty.
    pub fn child_text(&self, name: &str) -> Option<String> {
        self.child(name)
            .map(Element::text)
            .filter(|t| !t.is_empty())
    }
}

/// Parse a document and return its root element.
pub fn parse(body: &[u8]) -> Result<Element, String> {
    let text = String::from_utf8_lossy(body);
    let mut reader = NsReader::from_str(&text);
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let position = reader.buffer_position();
        let (ns, event) = reader
            .read_resolved_event()
            .map_err(|e| format!("XML error after byte {position}: {e}"))?;
        let ns = match ns {
            ResolveResult::Bound(n) => Some(n.0.to_string()),
            _ => None,
        };
        match event {
            Event::Start(start) => {
                if stack.len() > MAX_DEPTH {
                    return Err(format!("XML nested deeper than {MAX_DEPTH} levels"));
                }
                stack.push(element_from(ns, &start));
            }
            Event::Empty(start) => push_child(&mut stack, Node::Element(element_from(ns, &start))),
            Event::End(_) => {
                if stack.len() < 2 {
                    return Err("unbalanced closing tag".to_string());
                }
                let done = stack.pop().expect("checked above");
                push_child(&mut stack, Node::Element(done));
            }
            Event::Text(t) => push_text(&mut stack, &t.xml10_content()),
            Event::CData(c) => push_text(&mut stack, &c.xml10_content()),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(ch)) => ch.to_string(),
                    _ => quick_xml::escape::resolve_predefined_entity(&r)
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("&{};", &*r)),
                };
                push_text(&mut stack, &resolved);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err(format!(
            "document ends inside <{}>",
            stack.last().map(|e| e.name.as_str()).unwrap_or("")
        ));
    }
    let document = stack.pop().expect("document node");
    document
        .children
        .into_iter()
        .find_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
        .ok_or_else(|| "no root element".to_string())
}

fn element_from(ns: Option<String>, start: &quick_xml::events::BytesStart<'_>) -> Element {
    let mut element = Element {
        ns,
        name: start.local_name().as_ref().to_string(),
        attrs: Vec::new(),
        children: Vec::new(),
    };
    for attr in start.attributes().flatten() {
        if attr.key.as_ref().starts_with("xmlns") {
            continue;
        }
        let key = attr.key.local_name().as_ref().to_string();
        let value = attr
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map(|v| v.into_owned())
            .unwrap_or_else(|_| attr.value.to_string());
        element.attrs.push((key, value));
    }
    element
}

fn push_child(stack: &mut [Element], node: Node) {
    if let Some(parent) = stack.last_mut() {
        parent.children.push(node);
    }
}

fn push_text(stack: &mut [Element], text: &str) {
    if let Some(parent) = stack.last_mut() {
        if let Some(Node::Text(last)) = parent.children.last_mut() {
            last.push_str(text);
        } else {
            parent.children.push(Node::Text(text.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_entities_and_empty_elements() {
        let doc = br#"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
            <entry><title>A &amp; B &#233;</title><link href="x" rel="alternate"/><arxiv:doi>10.1/x</arxiv:doi></entry></feed>"#;
        let root = parse(doc).unwrap();
        assert_eq!(root.name, "feed");
        assert_eq!(root.ns.as_deref(), Some("http://www.w3.org/2005/Atom"));
        let entry = root.child("entry").unwrap();
        assert_eq!(entry.child_text("title").as_deref(), Some("A & B é"));
        assert_eq!(entry.child("link").unwrap().attr("href"), Some("x"));
        assert!(entry.child("link").unwrap().children.is_empty());
        let doi = entry
            .child_ns("http://arxiv.org/schemas/atom", "doi")
            .unwrap();
        assert_eq!(doi.text(), "10.1/x");
        assert!(
            entry
                .child_ns("http://www.w3.org/2005/Atom", "doi")
                .is_none()
        );
    }

    #[test]
    fn broken_documents_are_errors() {
        assert!(parse(b"<a><b></a>").is_err());
        assert!(parse(b"<a><b>").is_err());
        assert!(parse(b"").is_err());
    }
}
