//! What a LaTeX PDF says about its own citations beyond the text: hyperref's named
//! destinations `cite.<key>` (one at each bibliography entry) and the link annotations
//! (a marker in the text pointing at `cite.<key>`, a DOI or URL in an entry).

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

/// A named destination `cite.<key>`: where the entry for `key` starts.
#[derive(Debug, Clone, PartialEq)]
pub struct CiteAnchor {
    pub key: String,
    pub page: u32,
    pub x: Option<f64>,
    /// Down from the page's top.
    pub y: Option<f64>,
}

/// A link annotation's area and target.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkArea {
    pub page: u32,
    pub x0: f64,
    pub x1: f64,
    /// Top and bottom, down from the page's top.
    pub top: f64,
    pub bottom: f64,
    pub dest_key: Option<String>,
    pub uri: Option<String>,
}

/// Bounds on the walk through a hostile file's object graph.
const MAX_TREE_NODES: usize = 200_000;
const MAX_DEPTH: usize = 64;

/// The page number of each page object, and each page's top (MediaBox upper y).
pub struct Pages {
    number: HashMap<ObjectId, u32>,
    top: HashMap<u32, f64>,
}

impl Pages {
    pub fn of(doc: &Document) -> Pages {
        let mut number = HashMap::new();
        let mut top = HashMap::new();
        for (n, id) in doc.get_pages() {
            number.insert(id, n);
            if let Ok(page) = doc.get_dictionary(id) {
                top.insert(n, media_top(doc, page).unwrap_or(792.0));
            }
        }
        Pages { number, top }
    }

    fn top(&self, page: u32) -> f64 {
        self.top.get(&page).copied().unwrap_or(792.0)
    }
}

fn media_top<'a>(doc: &'a Document, mut page: &'a Dictionary) -> Option<f64> {
    for _ in 0..MAX_DEPTH {
        if let Ok(obj) = page.get(b"MediaBox") {
            let arr = resolve(doc, obj).as_array().ok()?;
            let nums: Vec<f64> = arr.iter().filter_map(|o| number(resolve(doc, o))).collect();
            return (nums.len() == 4).then(|| nums[1].max(nums[3]));
        }
        let parent = page.get(b"Parent").ok()?.as_reference().ok()?;
        page = doc.get_dictionary(parent).ok()?;
    }
    None
}

fn resolve<'a>(doc: &'a Document, obj: &'a Object) -> &'a Object {
    let mut obj = obj;
    for _ in 0..8 {
        match obj {
            Object::Reference(id) => match doc.get_object(*id) {
                Ok(o) => obj = o,
                Err(_) => return obj,
            },
            _ => return obj,
        }
    }
    obj
}

fn number(obj: &Object) -> Option<f64> {
    match obj {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) => Some(f64::from(*r)),
        _ => None,
    }
    .filter(|v| v.is_finite())
}

/// A PDF text string: UTF-16BE with its byte-order mark, or PDFDocEncoding (read as
/// Latin-1, which agrees on the characters that keys and URLs use).
pub fn text_string(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xfe, 0xff]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

fn name_or_string(obj: &Object) -> Option<String> {
    match obj {
        Object::String(bytes, _) | Object::Name(bytes) => Some(text_string(bytes)),
        _ => None,
    }
}

/// The cite key of a destination name: `cite.key` (hyperref with BibTeX),
/// `cite.0@key` (biblatex, refsection 0) or `ref-key` (pandoc's citeproc).
pub fn cite_key(name: &str) -> Option<String> {
    let rest = name
        .strip_prefix("cite.")
        .or_else(|| name.strip_prefix("ref-"))?;
    let key = match rest.split_once('@') {
        Some((section, key)) if section.bytes().all(|b| b.is_ascii_digit()) => key,
        _ => rest,
    };
    (!key.is_empty()).then(|| key.to_string())
}

/// Every `cite.*` named destination, from the catalogue's name tree and its older
/// `/Dests` dictionary.
pub fn cite_anchors(doc: &Document, pages: &Pages) -> Vec<CiteAnchor> {
    let mut named: Vec<(String, Object)> = Vec::new();
    let Ok(catalog) = doc.catalog() else {
        return Vec::new();
    };
    if let Ok(names) = catalog.get(b"Names")
        && let Ok(names) = resolve(doc, names).as_dict()
        && let Ok(tree) = names.get(b"Dests")
    {
        let mut seen = HashSet::new();
        walk_name_tree(doc, tree, 0, &mut seen, &mut named);
    }
    if let Ok(dests) = catalog.get(b"Dests")
        && let Ok(dests) = resolve(doc, dests).as_dict()
    {
        for (name, value) in dests.iter() {
            named.push((text_string(name), value.clone()));
        }
    }
    let mut anchors = Vec::new();
    let mut keys = HashSet::new();
    for (name, value) in named {
        let Some(key) = cite_key(&name) else { continue };
        let Some(mut anchor) = destination(doc, pages, &value) else {
            continue;
        };
        if keys.insert(key.clone()) {
            anchor.key = key;
            anchors.push(anchor);
        }
    }
    anchors
}

fn walk_name_tree(
    doc: &Document,
    node: &Object,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
    out: &mut Vec<(String, Object)>,
) {
    if depth > MAX_DEPTH || seen.len() > MAX_TREE_NODES {
        return;
    }
    if let Object::Reference(id) = node
        && !seen.insert(*id)
    {
        return;
    }
    let Ok(dict) = resolve(doc, node).as_dict() else {
        return;
    };
    if let Ok(kids) = dict.get(b"Kids")
        && let Ok(kids) = resolve(doc, kids).as_array()
    {
        for kid in kids {
            walk_name_tree(doc, kid, depth + 1, seen, out);
        }
    }
    if let Ok(names) = dict.get(b"Names")
        && let Ok(names) = resolve(doc, names).as_array()
    {
        for pair in names.chunks_exact(2) {
            if let Some(name) = name_or_string(resolve(doc, &pair[0]))
                && (name.starts_with("cite.") || name.starts_with("ref-"))
            {
                out.push((name, pair[1].clone()));
            }
        }
    }
}

/// Where a destination points: `[page /XYZ left top zoom]`, `[page /FitH top]`, …,
/// or a dictionary holding one under `/D`.
fn destination(doc: &Document, pages: &Pages, value: &Object) -> Option<CiteAnchor> {
    let value = resolve(doc, value);
    let array = match value {
        Object::Dictionary(d) => resolve(doc, d.get(b"D").ok()?).as_array().ok()?,
        Object::Array(a) => a,
        _ => return None,
    };
    let page_id = array.first()?.as_reference().ok()?;
    let page = *pages.number.get(&page_id)?;
    let kind = array
        .get(1)
        .and_then(|o| o.as_name().ok())
        .unwrap_or(b"XYZ");
    let coord = |i: usize| array.get(i).and_then(|o| number(resolve(doc, o)));
    let (x, y_up) = match kind {
        b"XYZ" => (coord(2), coord(3)),
        b"FitH" | b"FitBH" => (None, coord(2)),
        b"FitR" => (coord(2), coord(5)),
        _ => (None, None),
    };
    Some(CiteAnchor {
        key: String::new(),
        page,
        x,
        y: y_up.map(|y| pages.top(page) - y),
    })
}

/// The link annotations of every page, with their targets.
pub fn link_areas(doc: &Document, pages: &Pages) -> Vec<LinkArea> {
    let mut out = Vec::new();
    for (&page_id, &page) in &pages.number {
        let Ok(dict) = doc.get_dictionary(page_id) else {
            continue;
        };
        let Ok(annots) = dict.get(b"Annots") else {
            continue;
        };
        let Ok(annots) = resolve(doc, annots).as_array() else {
            continue;
        };
        for annot in annots.iter().take(100_000) {
            if let Some(link) = link_area(doc, pages, page, resolve(doc, annot)) {
                out.push(link);
            }
        }
    }
    out.sort_by(|a, b| {
        (a.page, a.top, a.x0)
            .partial_cmp(&(b.page, b.top, b.x0))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out
}

fn link_area(doc: &Document, pages: &Pages, page: u32, annot: &Object) -> Option<LinkArea> {
    let dict = annot.as_dict().ok()?;
    if dict.get(b"Subtype").ok()?.as_name().ok()? != b"Link" {
        return None;
    }
    let rect: Vec<f64> = resolve(doc, dict.get(b"Rect").ok()?)
        .as_array()
        .ok()?
        .iter()
        .filter_map(|o| number(resolve(doc, o)))
        .collect();
    if rect.len() != 4 {
        return None;
    }
    let top = pages.top(page);
    let mut area = LinkArea {
        page,
        x0: rect[0].min(rect[2]),
        x1: rect[0].max(rect[2]),
        top: top - rect[1].max(rect[3]),
        bottom: top - rect[1].min(rect[3]),
        dest_key: None,
        uri: None,
    };
    let target = |obj: &Object| -> Option<String> { name_or_string(resolve(doc, obj)) };
    if let Ok(dest) = dict.get(b"Dest") {
        area.dest_key = target(dest).and_then(|n| cite_key(&n));
    }
    if let Ok(action) = dict.get(b"A")
        && let Ok(action) = resolve(doc, action).as_dict()
    {
        match action.get(b"S").and_then(Object::as_name) {
            Ok(b"URI") => area.uri = action.get(b"URI").ok().and_then(target),
            Ok(b"GoTo") => {
                area.dest_key = action
                    .get(b"D")
                    .ok()
                    .and_then(target)
                    .and_then(|n| cite_key(&n));
            }
            _ => {}
        }
    }
    (area.dest_key.is_some() || area.uri.is_some()).then_some(area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cite_keys_of_bibtex_and_biblatex_anchors() {
        assert_eq!(cite_key("cite.smith2020").as_deref(), Some("smith2020"));
        assert_eq!(cite_key("cite.0@smith2020").as_deref(), Some("smith2020"));
        assert_eq!(cite_key("cite.a@b").as_deref(), Some("a@b"));
        assert_eq!(cite_key("ref-smith2020").as_deref(), Some("smith2020"));
        assert_eq!(cite_key("section.2"), None);
        assert_eq!(cite_key("cite."), None);
    }

    #[test]
    fn text_strings_in_both_encodings() {
        assert_eq!(text_string(b"cite.x"), "cite.x");
        assert_eq!(text_string(&[0xfe, 0xff, 0, b'a', 0, b'b']), "ab");
        assert_eq!(text_string(&[0xe9]), "é");
    }
}
