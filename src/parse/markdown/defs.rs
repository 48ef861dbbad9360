//! Definitions that become references: Manubot tag (alias) definitions
//! `[@tag:x]: doi:…`, numbered link definitions `[3]: https://…`, and footnote
//! definitions `[^1]: …`.

use crate::model::{FileId, IdScheme, RefFields, Reference, ReferenceOrigin, Span};
use crate::parse::reflist::trim_span;
use crate::parse::{ids, refstring};

/// A link reference definition as pulldown-cmark reports it.
pub struct LinkDefinition {
    pub dest: String,
    pub title: Option<String>,
    pub span: Span,
}

/// The reference a link definition makes, if it is a citation tag or a numbered
/// reference-list entry.
pub fn link_definition(file: FileId, text: &str, def: &LinkDefinition) -> Option<Reference> {
    let span = trim_span(text, def.span);
    let written = &text[span.start..span.end];
    // The label as written (pulldown-cmark may normalise it): `[` label `]:`.
    let close = written.find("]:")?;
    let label = written.get(1..close)?.trim();
    if let Some(key) = label.strip_prefix('@') {
        let key_start = span.start + 1 + written[1..].find('@')? + 1;
        let key_span = Span::new(key_start, key_start + key.len());
        return Some(Reference {
            key: key.to_string(),
            origin: ReferenceOrigin::TagDefinition,
            entry_type: None,
            file,
            span,
            key_span: Some(key_span),
            raw: written.to_string(),
            fields: identifier_fields(def.dest.trim()),
            field_spans: Vec::new(),
        });
    }
    if !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()) && !label.starts_with('0') {
        let key_start = span.start + written.find(label)?;
        let described = match &def.title {
            Some(title) if !title.is_empty() => format!("{title}. {}", def.dest),
            _ => def.dest.to_string(),
        };
        return Some(Reference {
            key: label.to_string(),
            origin: ReferenceOrigin::ReferenceList,
            entry_type: None,
            file,
            span,
            key_span: Some(Span::new(key_start, key_start + label.len())),
            raw: written.to_string(),
            fields: refstring::parse(&described),
            field_spans: Vec::new(),
        });
    }
    None
}

/// Fields of a tag definition's target: `doi:…`, `arxiv:…`, `pmid:…`, `url:…`, or
/// a bare DOI or URL.
fn identifier_fields(target: &str) -> RefFields {
    let id = ids::parse_prefixed(target)
        .or_else(|| ids::normalize_doi(target).map(|d| (IdScheme::Doi, d)))
        .or_else(|| ids::identifier_from_url(target))
        .or_else(|| {
            target
                .starts_with("http")
                .then(|| (IdScheme::Url, target.to_string()))
        });
    let mut fields = RefFields::default();
    if let Some((scheme, value)) = id {
        *fields.identifier_mut(scheme) = Some(value);
    }
    fields
}
