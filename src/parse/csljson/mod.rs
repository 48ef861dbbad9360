//! CSL-JSON bibliographies (pandoc `--bibliography refs.json`, Manubot's
//! `manual-references.json`): an array of items, each keyed by its `id`.
//!
//! Each item is located by a structural scan first and then read with serde_json
//! on its own, so one malformed item is reported with its position and the others
//! are still used.

mod fields;
mod scan;

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::diagnostic::input;
use crate::model::{FileId, RefFields, Reference, ReferenceOrigin, Span};
use crate::parse::{ParseOptions, Parsed};

/// Parse one CSL-JSON file.
pub fn parse(file: FileId, text: &str, _options: &ParseOptions) -> Parsed {
    let mut out = Parsed::default();
    // A structural error comes after the items read before it, in text order.
    let mut scan_problem = None;
    let bytes = text.as_bytes();
    let start = scan::skip_ws(bytes, 0);
    let items = match bytes.get(start) {
        None => return out,
        Some(b'[') => {
            let (items, error) = scan::array_items(bytes, start);
            if let Some(error) = error {
                scan_problem = Some(input::malformed_entry(
                    file,
                    point(text, error.at),
                    None,
                    &format!(
                        "CSL-JSON: expected {} (the items after this point are not read)",
                        error.expected
                    ),
                ));
            }
            items
        }
        // A single item on its own.
        Some(b'{') => match scan::value_end(bytes, start) {
            Ok(end) => vec![Span::new(start, end)],
            Err(error) => {
                out.problems.push(input::malformed_entry(
                    file,
                    point(text, error.at),
                    None,
                    &format!("CSL-JSON: expected {}", error.expected),
                ));
                Vec::new()
            }
        },
        Some(_) => {
            out.problems.push(input::malformed_entry(
                file,
                point(text, start),
                None,
                "CSL-JSON: expected an array of items (`[{\"id\": …}, …]`)",
            ));
            Vec::new()
        }
    };
    for span in items {
        match item(file, text, span) {
            Ok(reference) => out.references.push(reference),
            Err(problem) => out.problems.push(*problem),
        }
    }
    out.problems.extend(scan_problem);
    out
}

/// The fields of one CSL-JSON item whose id is `id` (also read from the items
/// that Word files' Zotero and Mendeley fields carry).
pub fn item_fields(item: &Map<String, Value>, id: &str) -> RefFields {
    fields::fields(item, id)
}

/// One item: an object with an `id`; the problem (boxed: it is large) otherwise.
fn item(file: FileId, text: &str, span: Span) -> Result<Reference, Box<Diagnostic>> {
    let written = &text[span.start..span.end];
    let value: Value = serde_json::from_str(written).map_err(|e| {
        let at = offset_of(written, e.line(), e.column()) + span.start;
        let key = scan::key_value(text, span, "id").map(|id| &text[id.start..id.end]);
        Box::new(input::malformed_entry(
            file,
            point(text, at),
            key,
            &format!("CSL-JSON: {e}"),
        ))
    })?;
    let Value::Object(object) = value else {
        return Err(Box::new(input::malformed_entry(
            file,
            point(text, span.start),
            None,
            "CSL-JSON: an item must be an object",
        )));
    };
    let id = match object.get("id") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => {
            return Err(Box::new(input::malformed_entry(
                file,
                point(text, span.start),
                None,
                "CSL-JSON: the item has no `id`",
            )));
        }
    };
    // The id's span when it is written plainly (no escapes) as a string or number.
    let key_span = scan::key_value(text, span, "id").filter(|s| text[s.start..s.end] == id);
    Ok(Reference {
        fields: fields::fields(&object, &id),
        key: id,
        origin: ReferenceOrigin::CslJson,
        entry_type: object
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_string),
        file,
        span,
        key_span,
        raw: written.to_string(),
        field_spans: Vec::new(),
    })
}

/// A one-character span at byte `at` (empty at the end of the text).
fn point(text: &str, at: usize) -> Span {
    let at = at.min(text.len());
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    Span::new(at, end)
}

/// The byte offset of serde_json's 1-based line and column (column counts bytes).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let mut at = (line_start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_positions_map_to_bytes() {
        let text = "{\n  \"a\": 1,\n  \"b\": x\n}";
        let err = serde_json::from_str::<Value>(text).unwrap_err();
        let at = offset_of(text, err.line(), err.column());
        assert_eq!(&text[at..at + 1], "x");
    }
}
