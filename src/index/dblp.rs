//! The DBLP XML dump (`dblp.xml.gz`), streamed with quick-xml. DBLP writes accented
//! letters as entities its DTD declares (`&uuml;`, `&eacute;` — the HTML Latin-1
//! names), which are resolved without reading the DTD. `<ee>` links give DOIs and
//! arXiv ids; a CoRR key (`journals/corr/abs-2402-17944`) gives the arXiv id too.

use std::io::BufRead;
use std::path::Path;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::{DumpSource, IndexError, Record};
use crate::model::{IdScheme, Work};
use crate::parse::ids::identifier_from_url;
use crate::resolve::sources::dblp::{corr_arxiv, without_homonym_number};
use crate::resolve::sources::text::{collapse_whitespace, finish, split_name};

/// Publication elements (children of `<dblp>`); `www` (person pages) and `data` are
/// not works one cites.
const RECORDS: &[&str] = &[
    "article",
    "inproceedings",
    "proceedings",
    "book",
    "incollection",
    "phdthesis",
    "mastersthesis",
];

pub fn is_dump_file(name: &str) -> bool {
    name.ends_with(".xml.gz") || name.ends_with(".xml")
}

/// A record being read.
#[derive(Default)]
struct Pending {
    element: String,
    key: String,
    mdate: Option<String>,
    publtype: Option<String>,
    authors: Vec<String>,
    title: Option<String>,
    year: Option<String>,
    journal: Option<String>,
    booktitle: Option<String>,
    ee: Vec<String>,
}

impl Pending {
    fn set(&mut self, field: &str, text: String) {
        match field {
            "author" => self.authors.push(text),
            "title" => self.title = Some(text),
            "year" => self.year = Some(text),
            "journal" => self.journal = Some(text),
            "booktitle" => self.booktitle = Some(text),
            "ee" => self.ee.push(text),
            _ => {}
        }
    }

    fn into_record(self) -> Option<Record> {
        let title = collapse_whitespace(self.title.as_deref()?);
        let title = title.strip_suffix('.').unwrap_or(&title).to_string();
        if title.is_empty() {
            return None;
        }
        let mut work = Work {
            source: DumpSource::Dblp.as_str().into(),
            title,
            authors: self
                .authors
                .iter()
                .map(|a| split_name(&without_homonym_number(a)))
                .collect(),
            year: self.year.as_deref().and_then(|y| y.trim().parse().ok()),
            venue: self.journal.clone().or(self.booktitle.clone()),
            work_type: Some(
                dblp_type(
                    &self.element,
                    self.publtype.as_deref(),
                    self.journal.as_deref(),
                )
                .into(),
            ),
            url: Some(format!("https://dblp.org/rec/{}", self.key)),
            ..Work::default()
        };
        for link in &self.ee {
            match identifier_from_url(link) {
                Some((IdScheme::Doi, doi)) if work.doi.is_none() => work.doi = Some(doi),
                Some((IdScheme::Arxiv, id)) if work.arxiv.is_none() => work.arxiv = Some(id),
                _ => {}
            }
        }
        if work.arxiv.is_none() {
            work.arxiv = corr_arxiv(&self.key);
        }
        Some(Record {
            source: DumpSource::Dblp,
            key: self.key,
            updated: self.mdate,
            work: finish(work),
            notices: Vec::new(),
        })
    }
}

/// DBLP's own publication types (as its search API names them).
fn dblp_type(element: &str, publtype: Option<&str>, journal: Option<&str>) -> &'static str {
    let informal = publtype == Some("informal") || journal == Some("CoRR");
    match element {
        _ if informal => "Informal and Other Publications",
        "article" => "Journal Articles",
        "inproceedings" => "Conference and Workshop Papers",
        "incollection" => "Parts in Books or Collections",
        "proceedings" => "Editorship",
        _ => "Books and Theses",
    }
}

fn attr(start: &BytesStart, name: &str) -> Option<String> {
    start.try_get_attribute(name).ok().flatten().and_then(|a| {
        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .ok()
            .map(|v| v.into_owned())
    })
}

/// An entity reference as text: character references, the XML five, and the HTML
/// names DBLP's DTD declares.
fn resolve_entity(name: &str) -> String {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => num.parse().ok(),
        };
        return code
            .and_then(char::from_u32)
            .map(String::from)
            .unwrap_or_default();
    }
    quick_xml::escape::resolve_predefined_entity(name)
        .or_else(|| quick_xml::escape::resolve_html5_entity(name))
        .map_or_else(|| format!("&{name};"), str::to_string)
}

/// Stream one dump file.
pub fn read(
    path: &Path,
    stream: &mut dyn BufRead,
    emit: &mut dyn FnMut(Record),
    warn: &mut dyn FnMut(String),
) -> Result<(), IndexError> {
    let mut reader = Reader::from_reader(stream);
    reader.config_mut().expand_empty_elements = true;
    let mut buf = Vec::new();
    let mut depth = 0usize;
    let mut record: Option<Pending> = None;
    // The field being read (a child of the record) and its text so far.
    let mut field: Option<(String, String)> = None;
    loop {
        let position = reader.buffer_position();
        let event = match reader.read_event_into(&mut buf) {
            Ok(event) => event,
            Err(e) => {
                warn(format!(
                    "{}: XML error after byte {position} ({e}); the rest of the file is skipped",
                    path.display()
                ));
                return Ok(());
            }
        };
        match event {
            Event::Start(start) => {
                depth += 1;
                let name = start.local_name().as_ref().to_string();
                if depth == 2 && RECORDS.contains(&name.as_str()) {
                    record = Some(Pending {
                        element: name,
                        key: attr(&start, "key").unwrap_or_default(),
                        mdate: attr(&start, "mdate"),
                        publtype: attr(&start, "publtype"),
                        ..Pending::default()
                    });
                } else if depth == 3 && record.is_some() {
                    field = Some((name, String::new()));
                }
            }
            Event::End(_) => {
                if depth == 3
                    && let (Some(r), Some((name, text))) = (record.as_mut(), field.take())
                {
                    r.set(&name, collapse_whitespace(&text));
                } else if depth == 2
                    && let Some(r) = record.take()
                {
                    let key = r.key.clone();
                    match r.into_record() {
                        Some(rec) => emit(rec),
                        None => warn(format!("{}: {key}: no title, skipped", path.display())),
                    }
                }
                depth = depth.saturating_sub(1);
            }
            Event::Text(t) => {
                if let Some((_, text)) = field.as_mut() {
                    text.push_str(&t.xml10_content());
                }
            }
            Event::CData(c) => {
                if let Some((_, text)) = field.as_mut() {
                    text.push_str(&c.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                if let Some((_, text)) = field.as_mut() {
                    text.push_str(&resolve_entity(&r));
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if depth != 0 {
        warn(format!(
            "{}: the file ends inside an element (truncated?)",
            path.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities() {
        assert_eq!(resolve_entity("uuml"), "ü");
        assert_eq!(resolve_entity("#233"), "é");
        assert_eq!(resolve_entity("#x00E9"), "é");
        assert_eq!(resolve_entity("amp"), "&");
    }
}
