//! Open Library: books. `GET /isbn/{isbn}.json` gives the edition an ISBN names (the
//! service redirects to `/books/{OLID}.json`; 404 = no such edition there), `GET
//! /search.json?title=…&author=…` finds works by title and author. Open Library holds
//! millions of books but not every one: its "not found" is never proof of absence.

use serde_json::Value;

use super::json::{is_html, list, parse_body, status_error, str_of};
use super::text::{finish, split_name, year_in};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings};
use crate::model::{Person, Work};
use crate::net::{HttpReply, HttpRequest, Net};

/// The source name of Open Library records.
pub const SOURCE: &str = "openlibrary";

/// Fields asked of the search (the default reply is large).
const SEARCH_FIELDS: &str =
    "key,title,subtitle,author_name,first_publish_year,publish_year,publisher,isbn,edition_count";

#[derive(Debug, Clone)]
pub struct OpenLibraryClient {
    ep: Endpoint,
}

impl OpenLibraryClient {
    pub fn new(net: &Net, settings: SourceSettings) -> OpenLibraryClient {
        OpenLibraryClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /isbn/{isbn}.json`: the edition with that ISBN.
    pub async fn lookup_isbn(&self, isbn: &str) -> LookupResult {
        let url = self.ep.url(&format!("/isbn/{isbn}.json"), &[])?;
        let mut work = parse_edition(&self.ep.send(HttpRequest::get(url)).await?)?;
        if let Lookup::Found(w) = &mut work
            && !w.isbn.iter().any(|i| i == isbn)
        {
            w.isbn.push(isbn.to_string());
        }
        Ok(work)
    }

    /// `GET /search.json?title=…&author=…`: the best matching works.
    pub async fn search(
        &self,
        title: &str,
        author: Option<&str>,
        rows: usize,
    ) -> Result<Vec<Work>, SourceError> {
        let limit = rows.to_string();
        let mut query = vec![
            ("title", title),
            ("fields", SEARCH_FIELDS),
            ("limit", limit.as_str()),
        ];
        if let Some(a) = author {
            query.push(("author", a));
        }
        let url = self.ep.url("/search.json", &query)?;
        parse_search(&self.ep.send(HttpRequest::get(url)).await?)
    }
}

/// The reply to `/isbn/{isbn}.json` (after the redirect to the edition).
pub fn parse_edition(reply: &HttpReply) -> LookupResult {
    match reply.status {
        200 => {
            let v = parse_body(reply)?;
            if v.get("error").and_then(Value::as_str) == Some("notfound") {
                return Ok(Lookup::NotFound);
            }
            if v.get("title").is_none() {
                return Err(SourceError::Malformed(
                    "Open Library edition without a title".into(),
                ));
            }
            Ok(Lookup::Found(edition_work(&v)))
        }
        // Open Library answers an unknown ISBN with a 404 page of its own.
        404 => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// An edition record: title (+ subtitle), the `by_statement`'s names, the publish
/// date's year, publishers and ISBNs.
pub fn edition_work(v: &Value) -> Work {
    let strings = |key: &str| -> Vec<String> {
        list(v.get(key))
            .iter()
            .filter_map(|x| str_of(Some(x)))
            .collect()
    };
    let mut isbn = strings("isbn_13");
    isbn.extend(strings("isbn_10"));
    let authors = str_of(v.get("by_statement"))
        .map(|s| by_statement(&s))
        .unwrap_or_default();
    finish(Work {
        source: SOURCE.into(),
        title: full_title(v),
        authors,
        year: str_of(v.get("publish_date")).and_then(|d| year_in(&d)),
        venue: None,
        work_type: Some("book".into()),
        url: str_of(v.get("key")).map(|k| format!("https://openlibrary.org{k}")),
        isbn,
        ..Work::default()
    })
}

fn full_title(v: &Value) -> String {
    let title = str_of(v.get("title")).unwrap_or_default();
    match str_of(v.get("subtitle")) {
        Some(sub) if !sub.is_empty() => format!("{}: {sub}", title.trim_end_matches([':', ' '])),
        _ => title,
    }
}

/// `by Christopher M. Bishop.` / `Christopher M. Bishop and Hinrich Schütze` → people.
fn by_statement(text: &str) -> Vec<Person> {
    let cleaned = text
        .trim()
        .trim_start_matches("by ")
        .trim_end_matches('.')
        .replace(" and ", ", ")
        .replace(" & ", ", ");
    cleaned
        .split([',', ';'])
        .map(str::trim)
        .filter(|n| n.contains(' ') && !n.to_lowercase().contains("edited"))
        .map(split_name)
        .collect()
}

/// The reply to `/search.json`: `{"numFound": n, "docs": [...]}`.
pub fn parse_search(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if reply.status != 200 || is_html(reply) {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let docs = v
        .get("docs")
        .and_then(Value::as_array)
        .ok_or_else(|| SourceError::Malformed("Open Library search without docs".into()))?;
    Ok(docs.iter().map(search_work).collect())
}

fn search_work(doc: &Value) -> Work {
    let strings = |key: &str| -> Vec<String> {
        list(doc.get(key))
            .iter()
            .filter_map(|x| str_of(Some(x)))
            .collect()
    };
    let int = |v: &Value| v.as_i64().and_then(|y| i32::try_from(y).ok());
    let year = doc.get("first_publish_year").and_then(int);
    // Every edition's year: a book is rightly cited by the edition used.
    let mut other_years: Vec<i32> = list(doc.get("publish_year"))
        .iter()
        .filter_map(int)
        .collect();
    other_years.sort_unstable();
    other_years.dedup();
    other_years.retain(|y| Some(*y) != year);
    finish(Work {
        source: SOURCE.into(),
        title: full_title(doc),
        authors: strings("author_name")
            .iter()
            .map(|n| split_name(n))
            .collect(),
        year,
        work_type: Some("book".into()),
        url: str_of(doc.get("key")).map(|k| format!("https://openlibrary.org{k}")),
        isbn: strings("isbn").into_iter().take(50).collect(),
        other_years,
        ..Work::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reply(status: u16, body: &str) -> HttpReply {
        HttpReply::new(status, None, body.as_bytes().to_vec())
    }

    #[test]
    fn an_edition_and_its_absence() {
        let body = json!({
            "title": "Pattern recognition and machine learning",
            "by_statement": "Christopher M. Bishop.",
            "publish_date": "2006",
            "publishers": ["Springer"],
            "isbn_13": ["9780387310732"],
            "isbn_10": ["0387310738"],
            "key": "/books/OL7353617M"
        });
        let Ok(Lookup::Found(w)) = parse_edition(&reply(200, &body.to_string())) else {
            panic!("edition not read");
        };
        assert_eq!(w.title, "Pattern recognition and machine learning");
        assert_eq!(w.year, Some(2006));
        assert_eq!(
            w.authors,
            vec![Person::new(Some("Christopher M."), "Bishop")]
        );
        assert!(w.isbn.contains(&"0387310738".to_string()));
        assert_eq!(
            parse_edition(&reply(404, "{\"error\": \"notfound\"}")),
            Ok(Lookup::NotFound)
        );
        assert!(parse_edition(&reply(503, "busy")).is_err());
    }

    #[test]
    fn search_documents() {
        let body = json!({"numFound": 1, "docs": [{
            "key": "/works/OL1W", "title": "Deep Learning",
            "author_name": ["Ian Goodfellow", "Yoshua Bengio", "Aaron Courville"],
            "first_publish_year": 2016, "isbn": ["9780262035613"]}]});
        let works = parse_search(&reply(200, &body.to_string())).expect("search read");
        assert_eq!(works.len(), 1);
        assert_eq!(works[0].authors.len(), 3);
        assert_eq!(works[0].year, Some(2016));
        assert!(parse_search(&reply(200, "<html>blocked</html>")).is_err());
    }
}
