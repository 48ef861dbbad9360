//! Born-digital PDFs: the text of the body in reading order and the entries of the
//! reference list, with page and line locations.
//!
//! The engine is the pure-Rust `pdf-extract` (positioned glyphs, [`glyphs`]) over
//! `lopdf` (named destinations and link annotations, [`annotations`]). On the glyphs:
//! lines ([`lines`]), columns, reading order and running headers ([`layout`]), the
//! reference list's start and end ([`section`]), its entries ([`entries`]) and their
//! text ([`text`]). A scanned PDF without a text layer is an error, never an empty list.

mod annotations;
mod defuse;
mod entries;
mod glyphs;
mod layout;
mod lines;
mod section;
mod text;

use annotations::{CiteAnchor, LinkArea, Pages};
use layout::Placed;

/// What a PDF says: its body text and its reference list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PdfLayout {
    pub pages: u32,
    /// The text in reading order, without running headers, footers, page numbers and
    /// reference lists.
    pub body: Vec<TextLine>,
    pub references: Vec<PdfReference>,
    pub links: Vec<PdfLink>,
    /// Pages the engine could not read (the rest of the document was read), and why.
    pub unreadable_pages: Vec<(u32, String)>,
}

/// One line of the body.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextLine {
    /// 1-based.
    pub page: u32,
    /// 1-based on its page, in reading order (running headers counted).
    pub line: u32,
    pub text: String,
}

/// One entry of a reference list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PdfReference {
    /// `12` for `[12]`, `12.` or a raised 12; `Smi99` for `[Smi99]`; none in author–year lists.
    pub label: Option<String>,
    /// The entry's lines joined, hyphenation and ligatures undone, the label left out.
    pub text: String,
    /// Page and line of the entry's first line.
    pub first: (u32, u32),
    /// The cite key, from hyperref's `cite.<key>` destination at the entry.
    pub key: Option<String>,
    /// DOIs and URLs of the link annotations on the entry.
    pub uris: Vec<String>,
}

/// A link annotation: a citation marker pointing at `cite.<key>`, or a URL.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PdfLink {
    pub page: u32,
    pub line: u32,
    pub dest_key: Option<String>,
    pub uri: Option<String>,
}

/// Why a PDF could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PdfError {
    #[error("the PDF is encrypted with a password")]
    Encrypted,
    #[error("the PDF has no text layer ({pages} page(s) of images: a scan?); run OCR on it first")]
    NoTextLayer { pages: u32 },
    #[error("the PDF is malformed: {0}")]
    Malformed(String),
    #[error("the PDF engine failed on this file: {0}")]
    Panicked(String),
    #[error(
        "the PDF is too large to read (over {MAX_BYTES} bytes, {MAX_PAGES} pages or {MAX_GLYPHS} characters)"
    )]
    TooLarge,
}

/// Bounds on what one file may cost.
pub const MAX_BYTES: usize = 256 << 20;
pub const MAX_PAGES: usize = 5_000;
pub const MAX_GLYPHS: usize = 20_000_000;

/// Read a PDF. Never panics: the engine runs under `catch_unwind`, and a panic comes
/// back as [`PdfError::Panicked`] with its message.
pub fn read(bytes: &[u8]) -> Result<PdfLayout, PdfError> {
    if bytes.len() > MAX_BYTES {
        return Err(PdfError::TooLarge);
    }
    // The header may follow some junk, within the first kilobyte.
    if !bytes[..bytes.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
    {
        return Err(PdfError::Malformed(
            "not a PDF (no %PDF- header)".to_string(),
        ));
    }
    crate::panics::catch(|| read_document(bytes)).unwrap_or_else(|why| Err(PdfError::Panicked(why)))
}

/// Every line of the document as the reader placed it, one per output line: page,
/// number, column, box, size, whether it is a running header (`H`) or part of a
/// reference list (`R`), and the text. For looking into a misread file
/// (`examples/pdf_bench.rs --dump FILE`).
pub fn dump(bytes: &[u8]) -> Result<String, PdfError> {
    let ((flat, _), doc, _) =
        crate::panics::catch(|| placed_lines(bytes)).map_err(PdfError::Panicked)??;
    let lists = section::find(&flat);
    let mut out = String::new();
    for a in annotations::cite_anchors(&doc, &Pages::of(&doc)) {
        out += &format!("anchor {} p{} x{:?} y{:?}\n", a.key, a.page, a.x, a.y);
    }
    for (i, p) in flat.iter().enumerate() {
        let listed = lists.iter().any(|(h, r)| r.contains(&i) || *h == Some(i));
        let l = &p.line;
        out += &format!(
            "p{} l{} c{} x{:.0}-{:.0} y{:.0} s{:.1}{} {}{} | {}\n",
            l.page,
            p.number,
            p.column,
            l.x0,
            l.x1,
            l.y,
            l.size,
            if l.raised_prefix > 0 {
                format!(" ^{}", l.raised_prefix)
            } else {
                String::new()
            },
            if p.furniture { "H" } else { "" },
            if listed { "R" } else { "" },
            l.text
        );
    }
    Ok(out)
}

fn read_document(bytes: &[u8]) -> Result<PdfLayout, PdfError> {
    let (flat, doc, pages_u32) = placed_lines(bytes)?;
    let page_map = Pages::of(&doc);
    let anchors = annotations::cite_anchors(&doc, &page_map);
    let areas = annotations::link_areas(&doc, &page_map);
    let mut layout = assemble(&flat.0, &anchors, &areas);
    layout.pages = pages_u32;
    layout.unreadable_pages = flat.1;
    Ok(layout)
}

/// Pages the engine could not read, and why.
type Unreadable = Vec<(u32, String)>;

/// The lines of every page in reading order, running headers marked; the document;
/// its page count.
type Placement = ((Vec<Placed>, Unreadable), lopdf::Document, u32);

fn placed_lines(bytes: &[u8]) -> Result<Placement, PdfError> {
    let mut doc = lopdf::Document::load_mem(bytes).map_err(|e| match e {
        lopdf::Error::Decryption(_) | lopdf::Error::InvalidPassword => PdfError::Encrypted,
        other => PdfError::Malformed(other.to_string()),
    })?;
    if doc.trailer.get(b"Encrypt").is_ok() && doc.encryption_state.is_none() {
        return Err(PdfError::Encrypted);
    }
    let page_count = doc.get_pages().len();
    if page_count == 0 {
        return Err(PdfError::Malformed("no pages".to_string()));
    }
    if page_count > MAX_PAGES {
        return Err(PdfError::TooLarge);
    }
    defuse::defuse(&mut doc);
    let (pages, unreadable) = collect_glyphs(&doc, page_count)?;
    let pages_u32 = page_count as u32;
    let letters: usize = pages
        .iter()
        .map(|p| {
            p.glyphs
                .iter()
                .filter(|g| g.text.chars().any(char::is_alphanumeric))
                .count()
        })
        .sum();
    let with_text = pages.iter().filter(|p| !p.glyphs.is_empty()).count();
    if letters < 50 || with_text * 2 < page_count {
        return Err(PdfError::NoTextLayer { pages: pages_u32 });
    }
    let mut placed: Vec<Vec<Placed>> = pages
        .iter()
        .map(|page| {
            layout::reading_order(lines::page_lines(page))
                .into_iter()
                .enumerate()
                .map(|(k, (line, column))| Placed {
                    line,
                    number: k as u32 + 1,
                    column,
                    furniture: false,
                })
                .collect()
        })
        .collect();
    layout::mark_furniture(&mut placed);
    let flat: Vec<Placed> = placed.into_iter().flatten().collect();
    Ok(((flat, unreadable), doc, pages_u32))
}

/// Every page's glyphs, page by page, each page under its own `catch_unwind` so that
/// one page the engine cannot read costs that page only.
fn collect_glyphs(
    doc: &lopdf::Document,
    page_count: usize,
) -> Result<(Vec<glyphs::Page>, Unreadable), PdfError> {
    let mut collector = glyphs::Collector::new(MAX_GLYPHS);
    let mut unreadable = Vec::new();
    let numbers: Vec<u32> = doc.get_pages().keys().copied().collect();
    let mut last_panic = None;
    for number in numbers {
        let before = collector.pages.len();
        let outcome =
            crate::panics::catch(|| pdf_extract::output_doc_page(doc, &mut collector, number));
        if collector.over_budget {
            return Err(PdfError::TooLarge);
        }
        let reason = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => e.to_string(),
            Err(message) => {
                last_panic = Some(message.clone());
                message
            }
        };
        collector.pages.truncate(before);
        collector.pages.push(glyphs::Page {
            number,
            ..glyphs::Page::default()
        });
        unreadable.push((number, reason));
    }
    if unreadable.len() == page_count {
        let (_, reason) = unreadable.swap_remove(0);
        return Err(match last_panic {
            Some(message) => PdfError::Panicked(message),
            None => PdfError::Malformed(reason),
        });
    }
    Ok((collector.pages, unreadable))
}

/// The body, the reference lists and the links, from the lines in reading order.
fn assemble(flat: &[Placed], anchors: &[CiteAnchor], areas: &[LinkArea]) -> PdfLayout {
    let mut in_list = vec![false; flat.len()];
    let mut references = Vec::new();
    let mut entry_of_line: Vec<Option<usize>> = vec![None; flat.len()];
    for (heading, range) in section::find(flat) {
        if let Some(h) = heading {
            in_list[h] = true;
        }
        let lines: Vec<usize> = range.clone().filter(|&i| !flat[i].furniture).collect();
        for i in range {
            in_list[i] = true;
        }
        for entry in entries::split(flat, &lines, anchors) {
            let first = &flat[entry.lines[0]];
            let texts = entry.lines.iter().enumerate().map(|(k, &i)| {
                let t = flat[i].line.text.as_str();
                if k == 0 {
                    skip_chars(t, entry.label_len)
                } else {
                    t
                }
            });
            let joined = text::join_lines(texts);
            let text = crate::parse::refstring::clean_text(&joined)
                .trim()
                .to_string();
            if text.is_empty() {
                continue;
            }
            for &i in &entry.lines {
                entry_of_line[i] = Some(references.len());
            }
            references.push(PdfReference {
                label: entry.label,
                text,
                first: (first.line.page, first.number),
                key: entry.key,
                uris: Vec::new(),
            });
        }
    }
    let mut links = Vec::new();
    for area in areas {
        let Some(i) = line_of(flat, area) else {
            continue;
        };
        if let (Some(uri), Some(e)) = (&area.uri, entry_of_line[i])
            && !references[e].uris.contains(uri)
        {
            references[e].uris.push(uri.clone());
        }
        links.push(PdfLink {
            page: flat[i].line.page,
            line: flat[i].number,
            dest_key: area.dest_key.clone(),
            uri: area.uri.clone(),
        });
    }
    let body = flat
        .iter()
        .zip(&in_list)
        .filter(|(p, listed)| !p.furniture && !**listed)
        .map(|(p, _)| TextLine {
            page: p.line.page,
            line: p.number,
            text: p.line.text.clone(),
        })
        .collect();
    PdfLayout {
        pages: 0,
        body,
        references,
        links,
        unreadable_pages: Vec::new(),
    }
}

fn skip_chars(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[i..],
        None if n > 0 => "",
        None => s,
    }
}

/// The line a link's area sits on: the most overlap of the area with the line's box.
fn line_of(flat: &[Placed], area: &LinkArea) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for (i, p) in flat.iter().enumerate() {
        let l = &p.line;
        if l.page != area.page {
            continue;
        }
        let (top, bottom) = (l.y - 0.8 * l.size, l.y + 0.25 * l.size);
        let dy = bottom.min(area.bottom) - top.max(area.top);
        let dx = l.x1.min(area.x1) - l.x0.max(area.x0);
        if dy > 0.0 && dx > 0.0 && best.is_none_or(|(b, _)| dx * dy > b) {
            best = Some((dx * dy, i));
        }
    }
    best.map(|(_, i)| i)
}
