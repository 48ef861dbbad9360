//! The BibTeX/BibLaTeX parser, tolerant per entry.
//!
//! [`scan`] splits the file into entries itself, so a malformed or half-typed entry
//! is reported (`malformed-entry`, with the place and what was expected) while every
//! other entry is still read. Values are expanded in file order (`@string` macros,
//! the month macros, `#` concatenation), `crossref`/`xdata` parents fill the fields a
//! child lacks ([`inherit`]), and [`fields`] turns the values into [`RefFields`]
//! with the biblatex crate's name and date rules.

mod fields;
mod inherit;
mod names;
mod scan;

use std::borrow::Cow;
use std::collections::HashMap;

use crate::diagnostic::input;
use crate::model::{FieldSpan, FileId, Reference, ReferenceOrigin, Span, Suppression};
use crate::parse::comments;
use crate::parse::outline::Outline;
use crate::parse::{ParseOptions, Parsed};

use scan::{Item, Part, RawEntry, Scanner};

/// One entry with its values expanded.
struct Entry<'t> {
    raw: RawEntry,
    /// Lowercase entry type.
    entry_type: String,
    /// (lowercase name, value) in written order, then inherited ones.
    values: Vec<(Cow<'t, str>, Cow<'t, str>)>,
}

impl fields::Fields for Entry<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_ref())
    }
}

/// Named values as a `.bib` entry writes them (braces and LaTeX kept).
struct Pairs<'a>(&'a [(String, String)]);

impl fields::Fields for Pairs<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The fields of an entry of `entry_type` given as (lowercase name, value) pairs
/// written as in a `.bib` file: the structured entries of a biblatex `.bbl` are
/// read with the same rules as `.bib` entries.
pub fn ref_fields_of(entry_type: &str, values: &[(String, String)]) -> crate::model::RefFields {
    fields::ref_fields(entry_type, &Pairs(values))
}

/// Parse one .bib file. Never fails: broken entries become problems.
pub fn parse(file: FileId, text: &str, options: &ParseOptions) -> Parsed {
    parse_outlined(file, text, options).0
}

/// Parse one .bib file with its outline (see [`crate::parse::splice`]): the lines
/// where an item starts after the previous one ended. A file with `@string`
/// macros or `crossref`/`xdata` parents is not spliced (an entry reads values
/// defined elsewhere), nor one with items in parentheses (their closer is looked
/// for across entries).
pub fn parse_outlined(file: FileId, text: &str, options: &ParseOptions) -> (Parsed, Outline) {
    let _ = options;
    let mut parsed = Parsed::default();
    let mut macros: HashMap<String, Cow<'_, str>> = HashMap::new();
    let mut entries: Vec<Entry<'_>> = Vec::new();
    let mut scanner = Scanner::new(text);
    let mut clean = Vec::new();
    let mut spliceable = true;
    // Where the last malformed item's problem is reported: it may be on the line
    // of the next item (the `@` that showed the entry was never closed), and a
    // block starting there would lose it.
    let mut reported = None;
    loop {
        let before = scanner.pos();
        let Some(item) = scanner.next_item() else {
            break;
        };
        let at = scanner.last_at;
        let line = memchr::memrchr(b'\n', &text.as_bytes()[..at]).map_or(0, |i| i + 1);
        if line >= before
            && scanner.at_line_start(at)
            && reported.is_none_or(|place: usize| place < line)
        {
            clean.push(line);
        }
        if let Item::Malformed { at, .. } = &item {
            reported = Some(at.start);
        }
        match item {
            Item::String { name, parts } => {
                spliceable = false;
                let value = expand(text, &parts, &macros);
                macros.insert(slice(text, name).to_ascii_lowercase(), value);
            }
            Item::Entry(raw) => {
                let values = raw
                    .fields
                    .iter()
                    .map(|f| {
                        (
                            lowercase(slice(text, f.name)),
                            expand(text, &f.parts, &macros),
                        )
                    })
                    .collect();
                entries.push(Entry {
                    entry_type: slice(text, raw.entry_type).to_ascii_lowercase(),
                    raw,
                    values,
                });
            }
            Item::Malformed { at, key, expected } => {
                let key = key.map(|k| slice(text, k));
                parsed
                    .problems
                    .push(input::malformed_entry(file, at, key, &expected));
            }
        }
    }
    spliceable &= !scanner.saw_parenthesis && !inherit::inherit(text, &mut entries);
    parsed.references = entries
        .iter()
        .filter(|e| e.entry_type != "xdata")
        .map(|e| reference(file, text, e))
        .collect();
    parsed.suppressions = suppressions(file, text);
    let outline = Outline {
        clean,
        spliceable,
        globals: Vec::new(),
    };
    (parsed, outline)
}

fn slice(text: &str, span: Span) -> &str {
    &text[span.start..span.end]
}

fn lowercase(name: &str) -> Cow<'_, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}

/// The standard month macros, as BibTeX defines them.
fn month(name: &str) -> Option<&'static str> {
    Some(match name {
        "jan" => "January",
        "feb" => "February",
        "mar" => "March",
        "apr" => "April",
        "may" => "May",
        "jun" => "June",
        "jul" => "July",
        "aug" => "August",
        "sep" => "September",
        "oct" => "October",
        "nov" => "November",
        "dec" => "December",
        _ => return None,
    })
}

/// A value's parts joined, macros replaced by what was defined before this point.
/// An undefined macro stands for its own name (BibTeX would warn and drop it).
fn expand<'t>(
    text: &'t str,
    parts: &[Part],
    macros: &HashMap<String, Cow<'t, str>>,
) -> Cow<'t, str> {
    let one = |part: &Part| -> Cow<'t, str> {
        match *part {
            Part::Text(span) | Part::Number(span) => Cow::Borrowed(slice(text, span)),
            Part::Macro(span) => {
                let name = slice(text, span);
                let lower = name.to_ascii_lowercase();
                match macros.get(&lower) {
                    Some(value) => value.clone(),
                    None => Cow::Borrowed(month(&lower).unwrap_or(name)),
                }
            }
        }
    };
    match parts {
        [single] => one(single),
        _ => Cow::Owned(parts.iter().map(one).collect::<Vec<_>>().concat()),
    }
}

fn reference(file: FileId, text: &str, entry: &Entry<'_>) -> Reference {
    let raw = &entry.raw;
    Reference {
        key: slice(text, raw.key).to_string(),
        origin: ReferenceOrigin::BibEntry,
        entry_type: Some(entry.entry_type.clone()),
        file,
        span: raw.span,
        key_span: Some(raw.key),
        raw: slice(text, raw.span).to_string(),
        fields: fields::ref_fields(&entry.entry_type, entry),
        field_spans: raw
            .fields
            .iter()
            .map(|f| FieldSpan {
                name: slice(text, f.name).to_ascii_lowercase(),
                value: f.value,
                whole: f.whole,
            })
            .collect(),
    }
}

/// `% citeproof: ignore[…]` comments anywhere in the file.
fn suppressions(file: FileId, text: &str) -> Vec<Suppression> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for found in memchr::memmem::find_iter(bytes, b"citeproof:") {
        let line_start = memchr::memrchr(b'\n', &bytes[..found]).map_or(0, |i| i + 1);
        let prefix = &text[line_start..found];
        let Some(percent) = prefix.find('%') else {
            continue;
        };
        if !prefix[percent..]
            .trim_start_matches(['%', ' ', '\t'])
            .is_empty()
            || !prefix[..percent].trim().is_empty()
        {
            continue;
        }
        let line_end = memchr::memchr(b'\n', &bytes[found..]).map_or(text.len(), |i| found + i);
        let comment = &text[found..line_end];
        if let Some((kind, rules)) = comments::parse_directive(comment) {
            let start = line_start + percent;
            out.push(Suppression {
                file,
                span: Span::new(start, found + comment.trim_end().len()),
                kind,
                rules,
            });
        }
    }
    out
}
