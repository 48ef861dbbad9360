//! Fixes for resolution findings in BibTeX entries: replace one field's value with the
//! record's, or add a missing DOI. Only entries with field positions get fixes.

use crate::diagnostic::{Applicability, Edit, Fix};
use crate::model::{FieldSpan, Reference, Work};
use crate::resolve::mismatch::Field;
use crate::resolve::resolution::person_name;
use crate::source::SourceMap;

/// The BibTeX/BibLaTeX field names a compared field may be written under.
fn field_names(field: Field) -> &'static [&'static str] {
    match field {
        Field::Title => &["title"],
        Field::Authors => &["author"],
        Field::Year => &["year", "date"],
        Field::Venue => &["journal", "journaltitle", "booktitle"],
        Field::Doi => &["doi"],
        Field::Arxiv => &["eprint", "arxiv", "arxivid"],
        Field::Pmid => &["pmid"],
        Field::Isbn => &["isbn"],
        Field::Number => &["number", "howpublished"],
        Field::Package => &["url", "howpublished"],
        Field::Version => &["version"],
    }
}

/// Where the reference writes `field`.
pub fn field_span(reference: &Reference, field: Field) -> Option<&FieldSpan> {
    field_names(field)
        .iter()
        .find_map(|name| reference.field_span(name))
}

/// Text safe inside a braced BibTeX value: braces dropped (they could unbalance the
/// entry), TeX specials escaped (a backslash too), double quotes made TeX quotes.
fn bib_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '{' | '}' => {}
            '&' | '%' | '#' | '_' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '"' => out.push_str("''"),
            '\\' => out.push_str("\\textbackslash{}"),
            _ => out.push(c),
        }
    }
    out
}

/// The record's value of `field` as it should be written in the entry.
pub fn record_value(field: Field, work: &Work) -> Option<String> {
    match field {
        Field::Title => Some(bib_text(&work.title)).filter(|t| !t.is_empty()),
        Field::Authors => (!work.authors.is_empty()).then(|| {
            work.authors
                .iter()
                .map(|p| bib_text(&person_name(p)))
                .collect::<Vec<_>>()
                .join(" and ")
        }),
        Field::Year => work.year.map(|y| y.to_string()),
        Field::Venue => work.venue.as_deref().map(bib_text),
        // Identifiers are verbatim fields: no escaping.
        Field::Doi => work.doi.clone(),
        Field::Arxiv => work.arxiv.clone(),
        Field::Pmid => work.pmid.clone(),
        Field::Isbn => work.isbn.first().cloned(),
        // The number of an RFC is part of its record's DOI, never rewritten blindly.
        Field::Number | Field::Package => None,
        Field::Version => work.releases.last().map(|r| r.version.clone()),
    }
}

/// Replace the value of `field` in the entry with `value`.
pub fn replace_value(
    sources: &SourceMap,
    reference: &Reference,
    field: Field,
    value: &str,
    applicability: Applicability,
) -> Option<Fix> {
    let span = field_span(reference, field)?;
    let text = &sources.get(reference.file).text;
    let current = text.get(span.value.start..span.value.end)?;
    // A biblatex date or a bare macro is not rewritten blindly.
    if span.name == "date" && !current.trim().chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if current == value {
        return None;
    }
    Some(Fix {
        applicability,
        description: format!("replace {} with `{value}`", span.name),
        edits: vec![Edit {
            file: reference.file,
            span: span.value,
            replacement: value.to_string(),
        }],
    })
}

/// Add `doi = {…}` after the entry's last field, indented like it.
pub fn add_doi(
    sources: &SourceMap,
    reference: &Reference,
    doi: &str,
    applicability: Applicability,
) -> Option<Fix> {
    let last = reference.field_spans.iter().max_by_key(|f| f.whole.end)?;
    let text = &sources.get(reference.file).text;
    let line_start = text
        .get(..last.whole.start)?
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let indent: String = text[line_start..last.whole.start]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let separator = if indent.is_empty() { " " } else { "\n" };
    Some(Fix {
        applicability,
        description: format!("add doi = {{{doi}}}"),
        edits: vec![Edit {
            file: reference.file,
            span: crate::model::Span::new(last.whole.end, last.whole.end),
            replacement: format!(",{separator}{indent}doi = {{{doi}}}"),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Person, RefFields, ReferenceOrigin, Span};
    use crate::source::FileKind;

    fn entry(sources: &mut SourceMap, text: &str) -> Reference {
        let file = sources.add("refs.bib".into(), FileKind::Bibtex, text.to_string());
        let field = |name: &str| {
            let start = text.find(&format!("{name} = ")).unwrap();
            let open = start + name.len() + 3;
            let (value_start, value_end, whole_end) = if text[open..].starts_with('{') {
                let close = open + text[open..].find('}').unwrap();
                (open + 1, close, close + 1)
            } else {
                let end = open + text[open..].find(|c: char| !c.is_ascii_digit()).unwrap();
                (open, end, end)
            };
            FieldSpan {
                name: name.into(),
                value: Span::new(value_start, value_end),
                whole: Span::new(start, whole_end),
            }
        };
        Reference {
            key: "k".into(),
            origin: ReferenceOrigin::BibEntry,
            entry_type: Some("article".into()),
            file,
            span: Span::new(0, text.len()),
            key_span: None,
            raw: text.into(),
            fields: RefFields::default(),
            field_spans: vec![field("title"), field("year")],
        }
    }

    fn apply(text: &str, fix: &Fix) -> String {
        let e = &fix.edits[0];
        format!(
            "{}{}{}",
            &text[..e.span.start],
            e.replacement,
            &text[e.span.end..]
        )
    }

    #[test]
    fn replaces_a_value_and_adds_a_doi_with_the_entry_indent() {
        let text = "@article{k,\n  title = {Deep learning},\n  year = 2020\n}\n";
        let mut sources = SourceMap::default();
        let r = entry(&mut sources, text);
        let fix = replace_value(&sources, &r, Field::Year, "2018", Applicability::Unsafe).unwrap();
        assert_eq!(apply(text, &fix), text.replace("2020", "2018"));
        let fix = add_doi(&sources, &r, "10.1/x", Applicability::Safe).unwrap();
        assert_eq!(
            apply(text, &fix),
            "@article{k,\n  title = {Deep learning},\n  year = 2020,\n  doi = {10.1/x}\n}\n"
        );
        assert!(replace_value(&sources, &r, Field::Doi, "10.1/x", Applicability::Unsafe).is_none());
    }

    #[test]
    fn record_values_are_escaped_for_bibtex() {
        let work = Work {
            title: "Cats & dogs: {100%} \"real\"".into(),
            authors: vec![
                Person::new(Some("Ada"), "Lovelace"),
                Person::new(None, "CERN"),
            ],
            ..Work::default()
        };
        assert_eq!(
            record_value(Field::Title, &work).unwrap(),
            "Cats \\& dogs: 100\\% ''real''"
        );
        assert_eq!(
            record_value(Field::Authors, &work).unwrap(),
            "Lovelace, Ada and CERN"
        );
    }
}
