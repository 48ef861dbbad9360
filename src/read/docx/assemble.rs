//! A word-processor document (its body and notes, read by [`super::wordml`] or
//! [`super::odt`]) as a converted text: one line per non-empty paragraph — the
//! body, then footnotes, then endnotes — each marked with its part and paragraph
//! number.
//!
//! Citations come from reference-manager fields when there are any (Zotero,
//! Mendeley: each cited item becomes a CSL-JSON reference, cited by its key), and
//! otherwise from the markers the prose scanners find. A typed reference list (the
//! paragraphs after a "References" title) is read by the reference-list parser
//! when no field says what is cited; the paragraphs of a manager's rendered
//! bibliography, or of a typed list, are never read as prose. Internal hyperlinks
//! from the prose to an entry of the typed list whose text is a number (pandoc's
//! superscript `¹` or parenthesised `(1)` markers, EndNote's links) cite that entry.

use std::collections::{HashMap, HashSet};

use crate::model::{CitationKind, FileId, Reference, ReferenceOrigin, Span};
use crate::parse::inline::{Found, Item, Items};
use crate::parse::{Parsed, csljson, reflist};

use super::fields::{self, FieldKind};
use super::wordml::{NoteKind, Story};
use crate::read::Converted;
use crate::read::compose::{Composer, Paragraph, read_prose};
use crate::source::locations::{Origin, Part};

/// A title line longer than this is prose, not a section title.
const MAX_TITLE: usize = 60;

/// Most entries one linked range (`[5]–[7]`) stands for.
const MAX_RANGE: u32 = 50;

/// The converted text of a document read as `file`.
pub fn assemble(
    file: FileId,
    body: Story,
    footnotes: Vec<(String, Story)>,
    endnotes: Vec<(String, Story)>,
) -> Converted {
    let mut state = State {
        file,
        composer: Composer::new(),
        prose: Vec::new(),
        references: Vec::new(),
        cited: HashMap::new(),
        links: Vec::new(),
    };
    let has_fields = std::iter::once(&body)
        .chain(footnotes.iter().map(|(_, s)| s))
        .chain(endnotes.iter().map(|(_, s)| s))
        .flat_map(|s| &s.fields)
        .any(|f| matches!(fields::classify(&f.instruction), FieldKind::Citation { items, .. } if !items.is_empty()));
    let list = state.body(&body);
    for (kind, notes) in [
        (NoteKind::Footnote, footnotes),
        (NoteKind::Endnote, endnotes),
    ] {
        for (n, story) in in_reference_order(&body, kind, notes)
            .into_iter()
            .enumerate()
        {
            let n = n as u32 + 1;
            let part = match kind {
                NoteKind::Footnote => Part::Footnote(n),
                NoteKind::Endnote => Part::Endnote(n),
            };
            state.story(&story, part, &HashSet::new());
        }
    }
    let State {
        composer,
        mut prose,
        mut references,
        links,
        ..
    } = state;
    let (text, locations) = composer.finish();
    if !has_fields && let Some(list) = list {
        reflist::read_into(file, &text, list, false, &mut references);
        add_known(&mut prose, linked_markers(&text, &references, &links));
    }
    let (citations, claims) = read_prose(file, &text, prose);
    Converted {
        text,
        locations,
        parsed: Parsed {
            citations,
            claims,
            references,
            ..Parsed::default()
        },
        unread: Vec::new(),
    }
}

struct State {
    file: FileId,
    composer: Composer,
    prose: Vec<Paragraph>,
    references: Vec<Reference>,
    /// Keys of the items cited so far → their reference.
    cited: HashMap<String, usize>,
    /// Internal hyperlinks from the body's prose to its typed list: the link's
    /// text and the line of the paragraph its bookmark is on, in text order.
    links: Vec<(Span, Span)>,
}

impl State {
    /// Write the body; returns the span of its typed reference list, if any.
    fn body(&mut self, body: &Story) -> Option<Span> {
        let mut not_prose = bibliography_paragraphs(body);
        let list = reference_section(body, &not_prose);
        let title = list.as_ref().and_then(|(title, _)| *title);
        let list_paragraphs: Vec<usize> = list.map(|(_, list)| list).unwrap_or_default();
        not_prose.extend(title);
        not_prose.extend(list_paragraphs.iter().copied());
        let lines = self.story(body, Part::Body, &not_prose);
        self.links = list_links(body, &lines, &list_paragraphs, &not_prose);
        let spans: Vec<Span> = list_paragraphs
            .iter()
            .filter_map(|p| lines.get(p).copied())
            .collect();
        Some(Span::new(spans.first()?.start, spans.last()?.end))
    }

    /// Write a story's non-empty paragraphs as lines, numbered within `part`;
    /// those not in `not_prose` are prose, with the citations of their fields.
    /// Returns each written paragraph's line.
    fn story(
        &mut self,
        story: &Story,
        part: Part,
        not_prose: &HashSet<usize>,
    ) -> HashMap<usize, Span> {
        let mut lines = HashMap::new();
        let mut number = 0;
        for (p, para) in story.paragraphs.iter().enumerate() {
            if para.text.trim().is_empty() {
                continue;
            }
            number += 1;
            let origin = Origin::Paragraph {
                part: part.clone(),
                paragraph: number,
            };
            lines.insert(p, self.composer.line(origin, &para.text));
        }
        let mut known: HashMap<usize, Vec<Found>> = HashMap::new();
        for field in &story.fields {
            let FieldKind::Citation { manager, items } = fields::classify(&field.instruction)
            else {
                continue;
            };
            let p = field.start.paragraph;
            let Some(line) = lines.get(&p).filter(|_| !not_prose.contains(&p)) else {
                continue;
            };
            let end = if field.end.paragraph == p {
                field.end.offset
            } else {
                line.len()
            };
            let group = Span::new(
                line.start + field.start.offset.min(line.len()),
                line.start + end.clamp(field.start.offset.min(line.len()), line.len()),
            );
            let mut cited = Items::new();
            for item in items {
                self.reference(&item, group);
                cited.push(Item {
                    key: item.key,
                    kind: CitationKind::Key,
                    span: group,
                    id: None,
                    narrative: false,
                    command: manager,
                });
            }
            if !cited.is_empty() {
                known.entry(p).or_default().push(Found {
                    group,
                    items: cited,
                });
            }
        }
        let mut written: Vec<(&usize, &Span)> = lines.iter().collect();
        written.sort();
        for (p, span) in written {
            if not_prose.contains(p) {
                continue;
            }
            let mut found = known.remove(p).unwrap_or_default();
            found.sort_by_key(|f| (f.group.start, f.group.end));
            self.prose.push(Paragraph {
                span: *span,
                known: found,
            });
        }
        lines
    }

    /// The reference of a cited item, made the first time the item is cited.
    fn reference(&mut self, item: &fields::CslItem, at: Span) {
        if self.cited.contains_key(&item.key) {
            return;
        }
        self.cited.insert(item.key.clone(), self.references.len());
        self.references.push(Reference {
            fields: csljson::item_fields(&item.data, &item.key),
            key: item.key.clone(),
            origin: ReferenceOrigin::CslJson,
            entry_type: item
                .data
                .get("type")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string),
            file: self.file,
            span: at,
            key_span: None,
            raw: serde_json::Value::Object(item.data.clone()).to_string(),
            field_spans: Vec::new(),
        });
    }
}

/// The body's internal hyperlinks from a prose paragraph to a bookmark on a
/// paragraph of the typed list `list`: (the link's text, the target's line).
fn list_links(
    body: &Story,
    lines: &HashMap<usize, Span>,
    list: &[usize],
    not_prose: &HashSet<usize>,
) -> Vec<(Span, Span)> {
    let targets: HashMap<&str, Span> = body
        .bookmarks
        .iter()
        .filter(|(_, p)| list.contains(p))
        .filter_map(|(name, p)| Some((name.as_str(), *lines.get(p)?)))
        .collect();
    body.links
        .iter()
        .filter_map(|link| {
            let p = link.start.paragraph;
            if link.end.paragraph != p || not_prose.contains(&p) {
                return None;
            }
            let (line, target) = (lines.get(&p)?, *targets.get(link.anchor.as_str())?);
            let start = link.start.offset.min(line.len());
            let end = link.end.offset.clamp(start, line.len());
            Some((Span::new(line.start + start, line.start + end), target))
        })
        .collect()
}

/// Numeric citations from links whose text is a number (`1`, `[1]`, `(1)`), each
/// citing the entry of `references` that starts on its target line; two such
/// links joined by a dash (`[5]–[7]`, `⁵⁻⁷`) cite the entries numbered between too.
fn linked_markers(text: &str, references: &[Reference], links: &[(Span, Span)]) -> Vec<Found> {
    let entry = |line: Span| {
        references
            .iter()
            .find(|r| line.start <= r.span.start && r.span.start <= line.end)
    };
    let numbered = |k: usize| {
        let (span, target) = *links.get(k)?;
        let digits = marker_digits(text, span)?;
        Some((span, digits, entry(target)?))
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < links.len() {
        let Some((span, digits, first)) = numbered(k) else {
            k += 1;
            continue;
        };
        let range = numbered(k + 1).and_then(|(next, _, last)| {
            let between = text.get(span.end..next.start)?.trim();
            let (a, b) = (
                first.key.parse::<u32>().ok()?,
                last.key.parse::<u32>().ok()?,
            );
            (matches!(between, "–" | "-" | "—" | "⁻") && a < b && b - a <= MAX_RANGE)
                .then_some((next, a, b))
        });
        let (group, items) = match range {
            Some((next, a, b)) => {
                let group = Span::new(span.start, next.end);
                let items = (a..=b).map(|n| numeric_item(n.to_string(), group));
                k += 2;
                (group, items.collect())
            }
            None => {
                k += 1;
                (
                    span,
                    Items::from_iter([numeric_item(first.key.clone(), digits)]),
                )
            }
        };
        out.push(Found { group, items });
    }
    out
}

/// The digits of a link's text that is a number, bracketed or not.
fn marker_digits(text: &str, span: Span) -> Option<Span> {
    let written = text.get(span.start..span.end)?;
    let digits = written.trim_matches(|c: char| c.is_whitespace() || "[]()".contains(c));
    let ok = (1..=4).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
    let start = span.start + (digits.as_ptr() as usize - written.as_ptr() as usize);
    ok.then(|| Span::new(start, start + digits.len()))
}

fn numeric_item(key: String, span: Span) -> Item {
    Item {
        key,
        kind: CitationKind::Numeric,
        span,
        id: None,
        narrative: false,
        command: "numeric",
    }
}

/// Add citations to the prose paragraphs that hold them, where no known citation
/// is already.
fn add_known(prose: &mut [Paragraph], found: Vec<Found>) {
    for f in found {
        let (start, end) = (f.group.start, f.group.end);
        let Some(paragraph) = prose
            .iter_mut()
            .find(|p| p.span.start <= start && end <= p.span.end)
        else {
            continue;
        };
        if paragraph
            .known
            .iter()
            .any(|k| k.group.start < end && start < k.group.end)
        {
            continue;
        }
        paragraph.known.push(f);
        paragraph
            .known
            .sort_by_key(|f| (f.group.start, f.group.end));
    }
}

/// The paragraphs a reference manager's bibliography field covers.
fn bibliography_paragraphs(story: &Story) -> HashSet<usize> {
    let mut out = HashSet::new();
    for field in &story.fields {
        if fields::classify(&field.instruction) != FieldKind::Bibliography {
            continue;
        }
        let last = if field.end.offset == 0 && field.end.paragraph > field.start.paragraph {
            field.end.paragraph - 1
        } else {
            field.end.paragraph
        };
        out.extend(field.start.paragraph..=last);
    }
    out
}

/// The body's typed reference list: the paragraphs after its last "References"
/// (or "Bibliography" …) title up to the next heading, else the paragraphs styled
/// `Bibliography` (pandoc writes its list so, without a title) — without the
/// paragraphs of a manager's bibliography. Returns the title, if any, and the list.
fn reference_section(
    body: &Story,
    bibliography: &HashSet<usize>,
) -> Option<(Option<usize>, Vec<usize>)> {
    let paragraphs = &body.paragraphs;
    let title = paragraphs.iter().rposition(|p| {
        let text = p.text.trim();
        text.len() <= MAX_TITLE && reflist::is_section_title(text)
    });
    let list: Vec<usize> = match title {
        Some(title) => {
            let end = paragraphs[title + 1..]
                .iter()
                .position(|p| p.is_heading())
                .map_or(paragraphs.len(), |k| title + 1 + k);
            (title + 1..end).collect()
        }
        None => (0..paragraphs.len())
            .filter(|&p| paragraphs[p].is_bibliography())
            .collect(),
    };
    let list: Vec<usize> = list
        .into_iter()
        .filter(|p| !bibliography.contains(p))
        .collect();
    (title.is_some() || !list.is_empty()).then_some((title, list))
}

/// Notes of one kind in the order the body refers to them (Word numbers them so);
/// notes never referred to come last, in file order.
fn in_reference_order(body: &Story, kind: NoteKind, notes: Vec<(String, Story)>) -> Vec<Story> {
    let mut by_id: Vec<Option<(String, Story)>> = notes.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for (_, k, id) in &body.note_refs {
        if *k != kind {
            continue;
        }
        if let Some(slot) = by_id
            .iter_mut()
            .find(|n| n.as_ref().is_some_and(|(note_id, _)| note_id == id))
        {
            out.extend(slot.take().map(|(_, story)| story));
        }
    }
    out.extend(by_id.into_iter().flatten().map(|(_, story)| story));
    out
}

#[cfg(test)]
mod tests {
    use super::super::wordml;
    use super::*;

    /// The body of a Word file: `inner` inside `w:body`.
    fn story(inner: &str) -> Story {
        let xml = format!(
            r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{inner}</w:body></w:document>"#
        );
        wordml::read_body(xml.as_bytes()).unwrap()
    }

    fn run(text: &str) -> String {
        let text = text.replace('&', "&amp;");
        format!(r#"<w:r><w:t xml:space="preserve">{text}</w:t></w:r>"#)
    }

    fn heading(text: &str) -> String {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>{}</w:p>"#,
            run(text)
        )
    }

    /// A superscript marker linked to bookmark `ref-KEY`.
    fn sup(number: u32, key: &str) -> String {
        format!(
            r#"<w:hyperlink w:anchor="ref-{key}"><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>{number}</w:t></w:r></w:hyperlink>"#
        )
    }

    fn entry(number: u32, key: &str, text: &str) -> String {
        format!(
            r#"<w:bookmarkStart w:id="{number}" w:name="ref-{key}"/><w:p><w:pPr><w:pStyle w:val="Bibliography"/></w:pPr>{}</w:p><w:bookmarkEnd w:id="{number}"/>"#,
            run(&format!("{number}. {text}"))
        )
    }

    #[test]
    fn linked_superscript_markers_cite_the_entries_they_link_to() {
        // pandoc's Nature style: superscript numbers, a range written with the
        // first and last linked, and parenthesised numbers (Vancouver) alike.
        let dash = r#"<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>–</w:t></w:r>"#;
        let first = [
            run("Attention replaced recurrence"),
            sup(1, "vaswani"),
            run(","),
            sup(2, "he"),
            run("."),
        ];
        let second = [
            run("Three works agree"),
            sup(2, "he"),
            dash.to_string(),
            sup(4, "lecun"),
            run(" and one more ("),
            sup(3, "kingma"),
            run(")."),
        ];
        let body = [
            format!("<w:p>{}</w:p>", first.concat()),
            format!("<w:p>{}</w:p>", second.concat()),
            heading("References"),
            entry(
                1,
                "vaswani",
                "Vaswani, A. et al. Attention is all you need. NeurIPS (2017).",
            ),
            entry(
                2,
                "he",
                "He, K. et al. Deep residual learning for image recognition. CVPR (2016).",
            ),
            entry(
                3,
                "kingma",
                "Kingma, D. P. & Ba, J. Adam: A method for stochastic optimization. ICLR (2015).",
            ),
            entry(
                4,
                "lecun",
                "LeCun, Y., Bengio, Y. & Hinton, G. Deep learning. Nature 521, 436–444 (2015).",
            ),
        ]
        .concat();
        let converted = assemble(FileId(0), story(&body), Vec::new(), Vec::new());
        let parsed = &converted.parsed;
        assert_eq!(parsed.references.len(), 4, "{}", converted.text);
        let cited: Vec<(&str, CitationKind)> = parsed
            .citations
            .iter()
            .map(|c| (c.key.as_str(), c.kind))
            .collect();
        let numeric = CitationKind::Numeric;
        assert_eq!(
            cited,
            [
                ("1", numeric),
                ("2", numeric),
                ("2", numeric),
                ("3", numeric),
                ("4", numeric),
                ("3", numeric)
            ]
        );
        // The marker's place is its digits; a range's items are the whole range.
        let first = &parsed.citations[0];
        assert_eq!(&converted.text[first.span.start..first.span.end], "1");
        let range = &parsed.citations[2];
        assert_eq!(
            &converted.text[range.group_span.start..range.group_span.end],
            "2–4"
        );
        // The claim is the sentence the markers sit in.
        assert!(first.claim.is_some());
    }

    #[test]
    fn links_to_other_places_and_worded_links_are_left_to_the_scanners() {
        let body = format!(
            "<w:p>{}{}{}{}</w:p>{}{}",
            run("As argued "),
            r#"<w:hyperlink w:anchor="ref-he"><w:r><w:t>(He et al., 2016)</w:t></w:r></w:hyperlink>"#,
            run(", see section "),
            r#"<w:hyperlink w:anchor="sec-2"><w:r><w:t>2</w:t></w:r></w:hyperlink>"#,
            heading("References"),
            entry(
                1,
                "he",
                "He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. In CVPR."
            ),
        );
        let converted = assemble(FileId(0), story(&body), Vec::new(), Vec::new());
        let cited: Vec<(&str, CitationKind)> = converted
            .parsed
            .citations
            .iter()
            .map(|c| (c.key.as_str(), c.kind))
            .collect();
        assert_eq!(cited, [("He et al., 2016", CitationKind::AuthorYear)]);
    }
}
