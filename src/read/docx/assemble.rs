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
//! bibliography, or of a typed list, are never read as prose.

use std::collections::{HashMap, HashSet};

use crate::model::{CitationKind, FileId, Reference, ReferenceOrigin, Span};
use crate::parse::inline::{Found, Item, Items};
use crate::parse::{Parsed, csljson, reflist};

use super::fields::{self, FieldKind};
use super::wordml::{NoteKind, Story};
use crate::read::Converted;
use crate::read::compose::{Composer, Paragraph, read_prose};
use crate::read::locations::{Origin, Part};

/// A title line longer than this is prose, not a section title.
const MAX_TITLE: usize = 60;

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
        prose,
        mut references,
        ..
    } = state;
    let (text, locations) = composer.finish();
    if !has_fields && let Some(list) = list {
        reflist::read_into(file, &text, list, false, &mut references);
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
