//! OpenDocument text (`content.xml` of an `.odt`) read into the same paragraphs,
//! fields and notes as a Word file: `text:p` and `text:h` paragraphs, `text:s`
//! runs of spaces, tabs and line breaks as spaces; notes (`text:note`) written
//! inside a paragraph become notes of their own, with a reference at their place.
//! Zotero marks its citations in OpenDocument with reference marks named
//! `ZOTERO_ITEM CSL_CITATION {…}` and its bibliography with a section named
//! `ZOTERO_BIBL …`: both read as the fields of a Word file are.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::wordml::{Field, NoteKind, Para, Pos, Story, entity_text};

/// Most spaces one `text:s` element stands for.
const MAX_SPACES: usize = 1024;

type Notes = Vec<(String, Story)>;

/// The body, footnotes and endnotes of `content.xml`.
pub fn read_content(xml: &[u8]) -> Result<(Story, Notes, Notes), String> {
    let text = String::from_utf8_lossy(xml);
    let mut reader = Reader::from_str(&text);
    let mut walker = Walker::default();
    loop {
        let position = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| format!("XML error after byte {position}: {e}"))?;
        match event {
            Event::Start(e) => walker.start(&e, false),
            Event::Empty(e) => walker.start(&e, true),
            Event::End(e) => walker.end(e.name().0),
            Event::Text(t) => walker.push_text(&t.xml10_content()),
            Event::CData(c) => walker.push_text(&c.xml10_content()),
            Event::GeneralRef(r) => walker.push_text(&entity_text(&r)),
            Event::Eof => break,
            _ => {}
        }
    }
    let body = walker
        .stories
        .into_iter()
        .next()
        .map(|c| c.story)
        .unwrap_or_default();
    Ok((body, walker.footnotes, walker.endnotes))
}

/// One story being read (the body; a note inside it) with its open paragraphs
/// and marks.
#[derive(Default)]
struct Context {
    story: Story,
    open: Vec<usize>,
    /// Open reference marks and sections: name, start.
    marks: Vec<(String, Pos)>,
    note: Option<(NoteKind, String)>,
}

impl Context {
    fn pos(&self) -> Pos {
        self.story.end_of(self.open.last().copied())
    }
}

struct Walker {
    /// The body, then the notes being read inside it (innermost last).
    stories: Vec<Context>,
    footnotes: Notes,
    endnotes: Notes,
    /// Inside `text:note-citation` (the note's number, not text of the paragraph).
    in_citation: usize,
    next_note: u32,
    /// Open sections, `true` for pandoc's `refs`; how many of those are open.
    sections: Vec<bool>,
    in_refs: usize,
}

impl Default for Walker {
    fn default() -> Walker {
        Walker {
            stories: vec![Context::default()],
            footnotes: Vec::new(),
            endnotes: Vec::new(),
            in_citation: 0,
            next_note: 0,
            sections: Vec::new(),
            in_refs: 0,
        }
    }
}

impl Walker {
    fn current(&mut self) -> &mut Context {
        self.stories.last_mut().expect("the body is never closed")
    }

    fn push_text(&mut self, text: &str) {
        if self.in_citation > 0 {
            return;
        }
        let context = self.current();
        if let Some(&paragraph) = context.open.last() {
            let para = &mut context.story.paragraphs[paragraph];
            para.text
                .extend(text.chars().map(crate::read::compose::flat_char));
        }
    }

    fn start(&mut self, e: &BytesStart, empty: bool) {
        match e.name().0 {
            name @ ("text:p" | "text:h") => {
                let style = if name == "text:h" {
                    Some("Heading".to_string())
                } else if self.in_refs > 0 {
                    // pandoc writes its bibliography in a section named `refs`.
                    Some("Bibliography".to_string())
                } else {
                    None
                };
                let context = self.current();
                context.story.paragraphs.push(Para {
                    text: String::new(),
                    style,
                });
                if !empty {
                    let index = context.story.paragraphs.len() - 1;
                    context.open.push(index);
                }
            }
            "text:s" => {
                let count = attr(e, "text:c")
                    .and_then(|c| c.parse::<usize>().ok())
                    .unwrap_or(1)
                    .clamp(1, MAX_SPACES);
                self.push_text(&" ".repeat(count));
            }
            "text:tab" | "text:line-break" => self.push_text(" "),
            "text:note" if !empty => {
                let kind = match attr(e, "text:note-class").as_deref() {
                    Some("endnote") => NoteKind::Endnote,
                    _ => NoteKind::Footnote,
                };
                self.next_note += 1;
                let id = attr(e, "text:id").unwrap_or_else(|| self.next_note.to_string());
                let context = self.current();
                let pos = context.pos();
                context.story.note_refs.push((pos, kind, id.clone()));
                self.stories.push(Context {
                    note: Some((kind, id)),
                    ..Context::default()
                });
            }
            "text:note-citation" if !empty => self.in_citation += 1,
            "text:reference-mark-start" | "text:reference-mark" => {
                if let Some(name) = attr(e, "text:name") {
                    let context = self.current();
                    let pos = context.pos();
                    context.marks.push((name, pos));
                }
            }
            "text:reference-mark-end" => {
                if let Some(name) = attr(e, "text:name") {
                    self.close_mark(&name);
                }
            }
            "text:section" if !empty => {
                let name = attr(e, "text:name").unwrap_or_default();
                self.sections.push(name == "refs");
                self.in_refs += usize::from(name == "refs");
                let context = self.current();
                let pos = context.pos();
                context.marks.push((format!("section:{name}"), pos));
            }
            _ => {}
        }
    }

    fn end(&mut self, name: &str) {
        match name {
            "text:p" | "text:h" => {
                self.current().open.pop();
            }
            "text:note" if self.stories.len() > 1 => {
                let context = self.stories.pop().expect("checked above");
                if let Some((kind, id)) = context.note {
                    let notes = match kind {
                        NoteKind::Footnote => &mut self.footnotes,
                        NoteKind::Endnote => &mut self.endnotes,
                    };
                    notes.push((id, context.story));
                }
            }
            "text:note-citation" => self.in_citation = self.in_citation.saturating_sub(1),
            "text:section" => {
                if self.sections.pop() == Some(true) {
                    self.in_refs -= 1;
                }
                let context = self.current();
                if let Some(k) = context
                    .marks
                    .iter()
                    .rposition(|(n, _)| n.starts_with("section:"))
                {
                    let (name, _) = context.marks[k].clone();
                    self.close_mark(&name);
                }
            }
            _ => {}
        }
    }

    /// Close the mark or section `name`: a field whose instruction is its name
    /// (`ZOTERO_ITEM CSL_CITATION {…}` read as `ADDIN ZOTERO_ITEM …`).
    fn close_mark(&mut self, name: &str) {
        let context = self.current();
        let Some(k) = context.marks.iter().rposition(|(n, _)| n == name) else {
            return;
        };
        let (name, start) = context.marks.remove(k);
        let end = context.pos();
        let written = name.strip_prefix("section:").unwrap_or(&name);
        context.story.fields.push(Field {
            instruction: format!("ADDIN {written}"),
            start,
            end,
        });
    }
}

fn attr(e: &BytesStart, key: &str) -> Option<String> {
    e.attributes().flatten().find(|a| a.key.0 == key).map(|a| {
        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map(|v| v.into_owned())
            .unwrap_or_else(|_| a.value.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_notes_and_zotero_marks() {
        let xml = r#"<office:document-content xmlns:office="o" xmlns:text="t"><office:body><office:text>
<text:h text:outline-level="1">Intro</text:h>
<text:p>Two<text:s text:c="2"/>spaces <text:reference-mark-start text:name="ZOTERO_ITEM CSL_CITATION {&quot;citationItems&quot;:[{&quot;id&quot;:7,&quot;itemData&quot;:{&quot;id&quot;:7,&quot;title&quot;:&quot;T&quot;}}]} RNDx"/>(Smith, 2020)<text:reference-mark-end text:name="ZOTERO_ITEM CSL_CITATION {&quot;citationItems&quot;:[{&quot;id&quot;:7,&quot;itemData&quot;:{&quot;id&quot;:7,&quot;title&quot;:&quot;T&quot;}}]} RNDx"/> here<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>A note [3].</text:p></text:note-body></text:note>.</text:p>
</office:text></office:body></office:document-content>"#;
        let (body, footnotes, endnotes) = read_content(xml.as_bytes()).unwrap();
        assert!(body.paragraphs[0].is_heading());
        let text = &body.paragraphs[1].text;
        assert_eq!(text, "Two  spaces (Smith, 2020) here.");
        let field = &body.fields[0];
        assert!(
            field
                .instruction
                .starts_with("ADDIN ZOTERO_ITEM CSL_CITATION {")
        );
        assert_eq!(&text[field.start.offset..field.end.offset], "(Smith, 2020)");
        assert_eq!(footnotes.len(), 1);
        assert_eq!(footnotes[0].1.paragraphs[0].text, "A note [3].");
        assert_eq!(body.note_refs[0].2, "ftn1");
        assert!(endnotes.is_empty());
    }
}
