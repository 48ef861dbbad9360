//! CSL-JSON item fields → [`RefFields`].

use serde_json::{Map, Value};

use crate::model::{IdScheme, Person, RefFields};
use crate::parse::ids;

/// A string field, also accepting numbers and the first element of an array.
fn text(item: &Map<String, Value>, name: &str) -> Option<String> {
    let value = match item.get(name)? {
        Value::Array(values) => values.first()?,
        v => v,
    };
    let s = match value {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!s.is_empty()).then_some(s)
}

fn persons(item: &Map<String, Value>, name: &str) -> Vec<Person> {
    let Some(Value::Array(list)) = item.get(name) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|p| {
            let p = p.as_object()?;
            if let Some(literal) = text(p, "literal") {
                return Some(Person::new(None, &literal));
            }
            let family = text(p, "family")?;
            let family = match text(p, "non-dropping-particle") {
                Some(particle) => format!("{particle} {family}"),
                None => family,
            };
            let given = text(p, "given").map(|g| match text(p, "dropping-particle") {
                Some(particle) => format!("{g} {particle}"),
                None => g,
            });
            Some(Person::new(given.as_deref(), &family))
        })
        .collect()
}

/// The year of a CSL date: `date-parts`, `raw`, `literal` or a plain string.
fn year(item: &Map<String, Value>, name: &str) -> Option<i32> {
    let date = item.get(name)?;
    let from_text = |s: &str| {
        s.split(|c: char| !c.is_ascii_digit())
            .find(|w| w.len() == 4)
            .and_then(|w| w.parse().ok())
    };
    match date {
        Value::Object(d) => {
            let first = d
                .get("date-parts")
                .and_then(Value::as_array)
                .and_then(|parts| parts.first())
                .and_then(Value::as_array)
                .and_then(|part| part.first());
            match first {
                Some(Value::Number(n)) => n.as_i64().and_then(|y| i32::try_from(y).ok()),
                Some(Value::String(s)) => s.trim().parse().ok(),
                _ => None,
            }
            .or_else(|| text(d, "raw").as_deref().and_then(from_text))
            .or_else(|| text(d, "literal").as_deref().and_then(from_text))
        }
        Value::String(s) => from_text(s),
        Value::Number(n) => n.as_i64().and_then(|y| i32::try_from(y).ok()),
        _ => None,
    }
}

/// The fields of one CSL-JSON item; `id` adds what a Manubot-style prefixed id
/// (`doi:…`, `pmid:…`, `arxiv:…`, `url:…`) says when the fields do not.
pub fn fields(item: &Map<String, Value>, id: &str) -> RefFields {
    let mut f = RefFields {
        title: text(item, "title"),
        authors: persons(item, "author"),
        editors: persons(item, "editor"),
        year: year(item, "issued"),
        venue: text(item, "container-title").or_else(|| text(item, "event-title")),
        volume: text(item, "volume"),
        issue: text(item, "issue"),
        pages: text(item, "page"),
        publisher: text(item, "publisher"),
        doi: text(item, "DOI").and_then(|d| ids::normalize_doi(&d)),
        pmid: text(item, "PMID").and_then(|p| ids::normalize_pmid(&p)),
        pmcid: text(item, "PMCID").and_then(|p| ids::normalize_pmcid(&p)),
        isbn: text(item, "ISBN").and_then(|i| i.split([' ', ',']).find_map(ids::normalize_isbn)),
        url: text(item, "URL"),
        ..RefFields::default()
    };
    if f.year.is_none() {
        f.year = year(item, "original-date");
    }
    f.arxiv = f
        .doi
        .as_deref()
        .and_then(ids::normalize_arxiv)
        .or_else(|| {
            f.url
                .as_deref()
                .and_then(ids::identifier_from_url)
                .filter(|(s, _)| *s == IdScheme::Arxiv)
                .map(|(_, v)| v)
        })
        .or_else(|| {
            text(item, "number")
                .as_deref()
                .and_then(ids::normalize_arxiv)
        });
    if let Some((scheme, value)) = ids::parse_prefixed(id) {
        f.identifier_mut(scheme).get_or_insert(value);
    }
    if f.isbn.is_none() {
        f.invalid_isbn = text(item, "ISBN").and_then(|i| ids::invalid_isbn(&i));
    }
    let csl_type = text(item, "type").unwrap_or_default();
    let get = |name: &str| text(item, name);
    crate::parse::kind::of_csl(&csl_type, &get, &f).apply(&mut f);
    f
}
