//! WordprocessingML (`word/document.xml`, `footnotes.xml`, `endnotes.xml`) read as
//! a stream into paragraphs of plain text, the fields whose results lie in them
//! (`ADDIN ZOTERO_ITEM CSL_CITATION {…}` …) and the places of note references.
//!
//! What a reader sees is kept: text runs, tabs and breaks as spaces, inserted
//! text; deleted text (tracked changes) and the fallback copies of text boxes are
//! left out. Field instructions are collected apart from the text.

use quick_xml::Reader;
use quick_xml::events::{BytesRef, BytesStart, Event};

/// A paragraph's text and its style.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Para {
    pub text: String,
    /// The paragraph style's id (`Heading1`, `Bibliography` …).
    pub style: Option<String>,
}

impl Para {
    /// Styled as a heading or a title (Word's `Heading1`…, pandoc's `Title`).
    pub fn is_heading(&self) -> bool {
        self.style.as_deref().is_some_and(|s| {
            let s = s.to_ascii_lowercase();
            s.starts_with("heading") || s == "title"
        })
    }

    /// Styled as an entry of a rendered bibliography (Word's and pandoc's
    /// `Bibliography` style).
    pub fn is_bibliography(&self) -> bool {
        self.style
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case("bibliography"))
    }
}

/// A place in the text: a paragraph and a byte offset in it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub paragraph: usize,
    pub offset: usize,
}

/// A field: its instruction and where its result (the text it shows) lies.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub instruction: String,
    pub start: Pos,
    pub end: Pos,
}

/// An internal hyperlink: the bookmark it goes to and where its text lies
/// (pandoc links citations to `ref-<key>` bookmarks on the entries, EndNote to
/// `_ENREF_<n>`).
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub anchor: String,
    pub start: Pos,
    pub end: Pos,
}

/// Footnote or endnote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    Footnote,
    Endnote,
}

/// A run of paragraphs: the body, or one note.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Story {
    pub paragraphs: Vec<Para>,
    pub fields: Vec<Field>,
    /// Note references in the text, in order, with the note's id.
    pub note_refs: Vec<(Pos, NoteKind, String)>,
    /// Internal hyperlinks (`w:hyperlink w:anchor`, `HYPERLINK \l` fields), in order.
    pub links: Vec<Link>,
    /// Bookmarks: name, and the paragraph they start in (or before).
    pub bookmarks: Vec<(String, usize)>,
}

/// Read the body of `document.xml`.
pub fn read_body(xml: &[u8]) -> Result<Story, String> {
    let mut walker = Walker::default();
    walker.walk(xml, None)?;
    Ok(walker.take_story())
}

/// Read the notes of `footnotes.xml` or `endnotes.xml`: (id, note) in file order,
/// separators left out.
pub fn read_notes(xml: &[u8], element: &str) -> Result<Vec<(String, Story)>, String> {
    let mut walker = Walker::default();
    walker.walk(xml, Some(element))?;
    Ok(walker.notes)
}

#[derive(Default)]
struct Walker {
    story: Story,
    notes: Vec<(String, Story)>,
    /// The note being read, when reading notes (`None` between notes and inside
    /// separators).
    note: Option<String>,
    /// Indices of the open paragraphs (a text box's paragraphs sit inside one).
    open: Vec<usize>,
    /// Open fields: instruction, and where the result starts once separated.
    fields: Vec<(String, Option<Pos>)>,
    /// Open `w:hyperlink` elements: the anchor and start of internal ones.
    hyperlinks: Vec<Option<(String, Pos)>>,
    in_text: bool,
    in_instruction: bool,
    /// Depth inside content that is not shown (deleted text, fallbacks).
    hidden: usize,
}

impl Story {
    /// Where text goes next: the end of the open paragraph, or between paragraphs the
    /// start of the next one.
    pub(super) fn end_of(&self, open: Option<usize>) -> Pos {
        match open {
            Some(paragraph) => Pos {
                paragraph,
                offset: self.paragraphs[paragraph].text.len(),
            },
            None => Pos {
                paragraph: self.paragraphs.len(),
                offset: 0,
            },
        }
    }
}

impl Walker {
    fn take_story(&mut self) -> Story {
        std::mem::take(&mut self.story)
    }

    fn pos(&self) -> Pos {
        self.story.end_of(self.open.last().copied())
    }

    fn push_text(&mut self, text: &str) {
        if self.hidden > 0 {
            return;
        }
        if self.in_instruction {
            if let Some((instruction, None)) = self.fields.last_mut() {
                instruction.push_str(text);
            }
        } else if self.in_text
            && let Some(&paragraph) = self.open.last()
        {
            let para = &mut self.story.paragraphs[paragraph];
            para.text
                .extend(text.chars().map(super::super::compose::flat_char));
        }
    }

    fn walk(&mut self, xml: &[u8], note_element: Option<&str>) -> Result<(), String> {
        let text = String::from_utf8_lossy(xml);
        let mut reader = Reader::from_str(&text);
        loop {
            let position = reader.buffer_position();
            let event = reader
                .read_event()
                .map_err(|e| format!("XML error after byte {position}: {e}"))?;
            match event {
                Event::Start(e) => self.start(&e, false, note_element),
                Event::Empty(e) => self.start(&e, true, note_element),
                Event::End(e) => self.end(e.name().0, note_element),
                Event::Text(t) => self.push_text(&t.xml10_content()),
                Event::CData(c) => self.push_text(&c.xml10_content()),
                Event::GeneralRef(r) => self.push_text(&entity_text(&r)),
                Event::Eof => break,
                _ => {}
            }
        }
        if let Some(id) = self.note.take() {
            let story = self.take_story();
            self.notes.push((id, story));
        }
        Ok(())
    }

    fn start(&mut self, e: &BytesStart, empty: bool, note_element: Option<&str>) {
        let name = e.name().0;
        if is_hidden(name) {
            if !empty {
                self.hidden += 1;
            }
            return;
        }
        if self.hidden > 0 {
            return;
        }
        match name {
            "w:p" => {
                self.story.paragraphs.push(Para::default());
                let index = self.story.paragraphs.len() - 1;
                if !empty {
                    self.open.push(index);
                }
            }
            "w:pStyle" => {
                if let (Some(&paragraph), Some(style)) = (self.open.last(), attr(e, "w:val")) {
                    self.story.paragraphs[paragraph].style = Some(style);
                }
            }
            "w:t" if !empty => self.in_text = true,
            "w:instrText" if !empty => self.in_instruction = true,
            "w:tab" | "w:br" | "w:cr" => {
                self.in_text = true;
                self.push_text(" ");
                self.in_text = false;
            }
            "w:noBreakHyphen" => {
                self.in_text = true;
                self.push_text("-");
                self.in_text = false;
            }
            "w:fldChar" => match attr(e, "w:fldCharType").as_deref() {
                Some("begin") => self.fields.push((String::new(), None)),
                Some("separate") => {
                    let pos = self.pos();
                    if let Some((_, start)) = self.fields.last_mut() {
                        *start = Some(pos);
                    }
                }
                Some("end") => self.close_field(),
                _ => {}
            },
            "w:fldSimple" => {
                let instruction = attr(e, "w:instr").unwrap_or_default();
                self.fields.push((instruction, Some(self.pos())));
                if empty {
                    self.close_field();
                }
            }
            "w:hyperlink" if !empty => {
                let anchor = attr(e, "w:anchor").filter(|a| !a.is_empty());
                self.hyperlinks.push(anchor.map(|a| (a, self.pos())));
            }
            "w:bookmarkStart" => {
                if let Some(name) = attr(e, "w:name") {
                    let paragraph = self.pos().paragraph;
                    self.story.bookmarks.push((name, paragraph));
                }
            }
            "w:footnoteReference" | "w:endnoteReference" => {
                let kind = if name == "w:footnoteReference" {
                    NoteKind::Footnote
                } else {
                    NoteKind::Endnote
                };
                if let Some(id) = attr(e, "w:id") {
                    let pos = self.pos();
                    self.story.note_refs.push((pos, kind, id));
                }
            }
            _ if note_element == Some(name) => {
                self.finish_note();
                // Separators and continuation notices carry a type; real notes none.
                if attr(e, "w:type").is_none_or(|t| t == "normal")
                    && let Some(id) = attr(e, "w:id")
                {
                    self.note = Some(id);
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, name: &str, note_element: Option<&str>) {
        if is_hidden(name) {
            self.hidden = self.hidden.saturating_sub(1);
            return;
        }
        if self.hidden > 0 {
            return;
        }
        match name {
            "w:p" => {
                self.open.pop();
            }
            "w:t" => self.in_text = false,
            "w:instrText" => self.in_instruction = false,
            "w:fldSimple" => self.close_field(),
            "w:hyperlink" => {
                if let Some(Some((anchor, start))) = self.hyperlinks.pop() {
                    let end = self.pos();
                    self.story.links.push(Link { anchor, start, end });
                }
            }
            _ if note_element == Some(name) => self.finish_note(),
            _ => {}
        }
    }

    fn close_field(&mut self) {
        let Some((instruction, start)) = self.fields.pop() else {
            return;
        };
        let end = self.pos();
        if let Some(anchor) = hyperlink_field(&instruction) {
            self.story.links.push(Link {
                anchor,
                start: start.unwrap_or(end),
                end,
            });
        }
        self.story.fields.push(Field {
            instruction,
            start: start.unwrap_or(end),
            end,
        });
    }

    /// End the note being read (its paragraphs become a story of their own).
    fn finish_note(&mut self) {
        let story = self.take_story();
        self.open.clear();
        self.fields.clear();
        self.hyperlinks.clear();
        if let Some(id) = self.note.take() {
            self.notes.push((id, story));
        }
    }
}

/// The bookmark a `HYPERLINK \l "name"` field instruction goes to.
fn hyperlink_field(instruction: &str) -> Option<String> {
    let mut words = instruction.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("HYPERLINK") {
        return None;
    }
    let rest: Vec<&str> = words.collect();
    let at = rest.iter().position(|w| *w == "\\l")?;
    let name = rest.get(at + 1)?.trim_matches('"');
    (!name.is_empty()).then(|| name.to_string())
}

/// Elements whose content a reader does not see: deleted text of tracked
/// changes, and the fallback copy of content given twice (text boxes).
fn is_hidden(name: &str) -> bool {
    matches!(
        name,
        "w:del" | "w:delText" | "w:delInstrText" | "mc:Fallback" | "w:moveFrom"
    )
}

/// An attribute's value, unescaped.
fn attr(e: &BytesStart, key: &str) -> Option<String> {
    e.attributes().flatten().find(|a| a.key.0 == key).map(|a| {
        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map(|v| v.into_owned())
            .unwrap_or_else(|_| a.value.to_string())
    })
}

/// The text an entity or character reference stands for (`&amp;`, `&#233;`); an
/// unknown entity stands for nothing.
pub(super) fn entity_text(r: &BytesRef) -> String {
    match r.resolve_char_ref() {
        Ok(Some(c)) => c.to_string(),
        _ => quick_xml::escape::resolve_predefined_entity(r)
            .unwrap_or("")
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(inner: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{inner}</w:body></w:document>"#
        )
    }

    #[test]
    fn paragraphs_runs_and_tracked_changes() {
        let xml = body(
            r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Intro</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Tom &amp; Jerry </w:t></w:r><w:r><w:tab/><w:t>said</w:t></w:r><w:del><w:r><w:delText>not this</w:delText></w:r></w:del><w:ins><w:r><w:t> this</w:t></w:r></w:ins></w:p>"#,
        );
        let story = read_body(xml.as_bytes()).unwrap();
        assert_eq!(story.paragraphs.len(), 2);
        assert!(story.paragraphs[0].is_heading());
        assert_eq!(story.paragraphs[1].text, "Tom & Jerry  said this");
    }

    #[test]
    fn internal_hyperlinks_and_bookmarks_are_kept() {
        // pandoc: a `w:hyperlink` to a bookmark set before the entry's paragraph;
        // EndNote: a `HYPERLINK \l` field; a link to a web page has no anchor.
        let xml = body(
            r#"<w:p><w:r><w:t>Seen</w:t></w:r><w:hyperlink w:anchor="ref-a"><w:r><w:t>1</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> and </w:t></w:r><w:fldSimple w:instr=" HYPERLINK \l &quot;_ENREF_2&quot; "><w:r><w:t>[2]</w:t></w:r></w:fldSimple><w:hyperlink r:id="rId9"><w:r><w:t>web</w:t></w:r></w:hyperlink></w:p>
<w:bookmarkStart w:id="1" w:name="ref-a"/><w:p><w:r><w:t>1. An entry.</w:t></w:r></w:p><w:bookmarkEnd w:id="1"/>"#,
        );
        let story = read_body(xml.as_bytes()).unwrap();
        let text = &story.paragraphs[0].text;
        assert_eq!(text, "Seen1 and [2]web");
        let shown: Vec<(&str, &str)> = story
            .links
            .iter()
            .map(|l| (l.anchor.as_str(), &text[l.start.offset..l.end.offset]))
            .collect();
        assert_eq!(shown, [("ref-a", "1"), ("_ENREF_2", "[2]")]);
        assert_eq!(story.bookmarks, [("ref-a".to_string(), 1)]);
    }

    #[test]
    fn complex_and_simple_fields_keep_their_results() {
        let xml = body(
            r#"<w:p><w:r><w:t xml:space="preserve">As shown </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ADDIN ZOTERO_ITEM CSL_CITATION {"a":</w:instrText></w:r><w:r><w:instrText>1}</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>(Smith, 2020)</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t>. Also </w:t></w:r><w:fldSimple w:instr=" REF x "><w:r><w:t>here</w:t></w:r></w:fldSimple><w:r><w:footnoteReference w:id="2"/></w:r></w:p>"#,
        );
        let story = read_body(xml.as_bytes()).unwrap();
        let text = &story.paragraphs[0].text;
        assert_eq!(text, "As shown (Smith, 2020). Also here");
        let zotero = &story.fields[0];
        assert_eq!(
            zotero.instruction,
            " ADDIN ZOTERO_ITEM CSL_CITATION {\"a\":1}"
        );
        assert_eq!(
            &text[zotero.start.offset..zotero.end.offset],
            "(Smith, 2020)"
        );
        let simple = &story.fields[1];
        assert_eq!(simple.instruction, " REF x ");
        assert_eq!(&text[simple.start.offset..simple.end.offset], "here");
        assert_eq!(story.note_refs[0].2, "2");
        assert_eq!(story.note_refs[0].0.offset, text.len());
    }

    #[test]
    fn notes_without_separators() {
        let xml = r#"<w:footnotes xmlns:w="x"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="2"><w:p><w:r><w:t>See Smith (2020).</w:t></w:r></w:p></w:footnote></w:footnotes>"#;
        let notes = read_notes(xml.as_bytes(), "w:footnote").unwrap();
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].0, "2");
        assert_eq!(notes[0].1.paragraphs[0].text, "See Smith (2020).");
    }

    #[test]
    fn broken_xml_is_an_error_not_a_panic() {
        let error = read_body(b"<w:document><w:body><w:p></w:r>").unwrap_err();
        assert!(error.contains("XML error"), "{error}");
    }
}
