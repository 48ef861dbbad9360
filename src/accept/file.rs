//! The accepted-works file, `.citeproof/accepted.toml`: one `[[work]]` table per
//! work a person confirmed real, with the fields its fingerprint was made from, so
//! that a reader sees what was accepted and an edited record is caught:
//!
//! ```toml
//! version = 1
//!
//! [[work]]
//! fingerprint = "5b0c3f7a9d1e2c4b6a8f0e1d3c5b7a9f"
//! title = "Non-Cooperative Games"
//! authors = ["Nash"]
//! year = 1950
//! key = "nash1950"
//! note = "PhD thesis, Princeton; checked in the university catalogue"
//! ```

use serde::{Deserialize, Serialize};

use super::fingerprint::Identity;
use crate::model::Span;

/// Where a project keeps its accepted works, under the project's root.
pub const PROJECT_FILE: &str = ".citeproof/accepted.toml";

/// The version of the file format this citeproof reads and writes.
pub const VERSION: u32 = 1;

/// One accepted work, as written in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub fingerprint: String,
    pub title: String,
    /// Family names, in the reference's order.
    #[serde(default)]
    pub authors: Vec<String>,
    #[serde(default)]
    pub year: Option<i32>,
    /// The bibliography key it was accepted under (for readers; matching uses the
    /// fingerprint).
    #[serde(default)]
    pub key: Option<String>,
    /// Why it was accepted.
    #[serde(default)]
    pub note: Option<String>,
}

impl Entry {
    /// The entry for an identity: the fields as written, the fingerprint of their
    /// folded form.
    pub fn new(
        title: &str,
        authors: Vec<String>,
        year: Option<i32>,
        key: Option<String>,
    ) -> Result<Entry, String> {
        let identity = Identity::new(title, &authors, year)?;
        Ok(Entry {
            fingerprint: identity.fingerprint(),
            title: title.trim().to_string(),
            authors,
            year,
            key,
            note: None,
        })
    }

    /// The entry for a parsed reference: its title, the family names of its authors
    /// (editors where it names none) and its year.
    pub fn of_reference(key: &str, fields: &crate::model::RefFields) -> Result<Entry, String> {
        let title = fields.title.as_deref().unwrap_or("");
        Entry::new(
            title,
            super::fingerprint::families(fields),
            fields.year,
            Some(key.to_string()),
        )
    }

    /// `"Title" (Nash, Kuhn, 1950)`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self.authors.clone();
        if let Some(year) = self.year {
            parts.push(year.to_string());
        }
        if parts.is_empty() {
            format!("\"{}\"", self.title)
        } else {
            format!("\"{}\" ({})", self.title, parts.join(", "))
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    version: Option<u32>,
    #[serde(default)]
    work: Vec<toml::Spanned<Entry>>,
}

/// One entry read, with where it is written (its `[[work]]` header) and its folded identity (`None`: its
/// fields no longer make its fingerprint; see [`Read::problems`]).
#[derive(Debug, Clone)]
pub struct Record {
    pub entry: Entry,
    pub span: Span,
    pub identity: Option<Identity>,
}

/// What a file holds: its records, and what is wrong with it, each at its place.
#[derive(Debug, Clone, Default)]
pub struct Read {
    pub records: Vec<Record>,
    pub problems: Vec<(Span, String)>,
}

/// Read the text of an accepted-works file. Never fails: a file that is not valid
/// is one problem at the place the TOML reader names; a record whose fields were
/// edited so that they no longer make its fingerprint is a problem of its own and
/// accepts nothing.
pub fn read(text: &str) -> Read {
    let mut out = Read::default();
    let file: FileToml = match toml::from_str(text) {
        Ok(file) => file,
        Err(e) => {
            let span = e
                .span()
                .map_or(Span::new(0, 0), |r| Span::new(r.start, r.end));
            out.problems.push((
                span,
                format!("not a valid accepted-works file: {}", e.message()),
            ));
            return out;
        }
    };
    if let Some(version) = file.version.filter(|&v| v != VERSION) {
        out.problems.push((
            Span::new(0, 0),
            format!("version {version} of the accepted-works file is not known (this citeproof reads {VERSION})"),
        ));
        return out;
    }
    for spanned in file.work {
        let span = Span::new(spanned.span().start, spanned.span().end);
        let entry = spanned.into_inner();
        let identity = match Identity::new(&entry.title, &entry.authors, entry.year) {
            Ok(identity) if identity.fingerprint() == entry.fingerprint => Some(identity),
            Ok(_) => {
                out.problems.push((
                    span,
                    format!(
                        "the accepted work {} no longer matches its fingerprint {}: its title, \
                         authors or year were edited after it was accepted, so it accepts nothing; \
                         accept the reference again (`citeproof accept KEY`)",
                        entry.describe(),
                        entry.fingerprint
                    ),
                ));
                None
            }
            Err(why) => {
                out.problems.push((
                    span,
                    format!(
                        "the accepted work {} cannot be matched: {why}",
                        entry.describe()
                    ),
                ));
                None
            }
        };
        out.records.push(Record {
            entry,
            span,
            identity,
        });
    }
    out
}

/// `text` with `entry` added as a new `[[work]]` (comments and other records kept);
/// `None` when a record with its fingerprint is already there.
pub fn append(text: &str, entry: &Entry) -> Result<Option<String>, String> {
    let mut doc: toml_edit::DocumentMut =
        text.parse().map_err(|e| format!("not valid TOML: {e}"))?;
    if doc.is_empty() && text.trim().is_empty() {
        doc.decor_mut().set_prefix(
            "# Works confirmed real by hand (`citeproof accept`): their not-found and\n\
             # not-indexed findings are not reported. Commit this file with the manuscript.\n",
        );
        doc.insert("version", toml_edit::value(i64::from(VERSION)));
    }
    let works = doc
        .entry("work")
        .or_insert_with(|| toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()))
        .as_array_of_tables_mut()
        .ok_or("`work` is not an array of tables (`[[work]]`)")?;
    let known = works.iter().any(|t| {
        t.get("fingerprint")
            .and_then(|f| f.as_str())
            .is_some_and(|f| f == entry.fingerprint)
    });
    if known {
        return Ok(None);
    }
    let mut table = toml_edit::Table::new();
    table.insert("fingerprint", toml_edit::value(&entry.fingerprint));
    table.insert("title", toml_edit::value(&entry.title));
    let mut authors = toml_edit::Array::new();
    for author in &entry.authors {
        authors.push(author.as_str());
    }
    table.insert("authors", toml_edit::value(authors));
    if let Some(year) = entry.year {
        table.insert("year", toml_edit::value(i64::from(year)));
    }
    if let Some(key) = &entry.key {
        table.insert("key", toml_edit::value(key));
    }
    if let Some(note) = &entry.note {
        table.insert("note", toml_edit::value(note));
    }
    works.push(table);
    let out = doc.to_string();
    // Read back as every run reads it: an edit never makes the file invalid.
    let back = read(&out);
    if let Some((_, problem)) = back.problems.first() {
        return Err(problem.clone());
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nash() -> Entry {
        Entry::new(
            "Non-Cooperative Games",
            vec!["Nash".into()],
            Some(1950),
            Some("nash1950".into()),
        )
        .unwrap()
    }

    #[test]
    fn appends_and_reads_back() {
        let text = append("", &nash()).unwrap().unwrap();
        assert!(text.starts_with("# Works confirmed real"), "{text}");
        assert!(text.contains("version = 1"), "{text}");
        let read = read(&text);
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        assert_eq!(read.records.len(), 1);
        assert_eq!(read.records[0].entry, nash());
        assert!(read.records[0].identity.is_some());
        let at = read.records[0].span;
        // The record is placed at its `[[work]]` header.
        assert_eq!(&text[at.start..at.end], "[[work]]");
        // The same work again: nothing to add.
        assert_eq!(append(&text, &nash()).unwrap(), None);
    }

    #[test]
    fn keeps_what_is_there() {
        let text = "# ours\nversion = 1\n\n[[work]] # first\nfingerprint = \"x\"\ntitle = \"T\"\nyear = 2000\n";
        let out = append(text, &nash());
        // The existing record does not match its fingerprint: the file stays invalid
        // for it, and appending is refused with the reason.
        assert!(out.unwrap_err().contains("no longer matches"));
        let good = append("", &nash()).unwrap().unwrap();
        let other = Entry::new("Other", vec!["Kuhn".into()], Some(1953), None).unwrap();
        let both = append(&good, &other).unwrap().unwrap();
        assert!(both.starts_with(&good), "{both}");
        assert_eq!(read(&both).records.len(), 2);
    }

    #[test]
    fn an_edited_record_is_a_problem_and_accepts_nothing() {
        let text = append("", &nash()).unwrap().unwrap();
        let edited = text.replace("\"Nash\"", "\"Smith\"");
        let read = read(&edited);
        assert_eq!(read.records.len(), 1);
        assert!(read.records[0].identity.is_none());
        assert_eq!(read.problems.len(), 1);
        assert!(
            read.problems[0].1.contains("Smith"),
            "{}",
            read.problems[0].1
        );
    }

    #[test]
    fn invalid_files_are_one_problem_at_the_place() {
        let read = read("version = 1\n[[work]]\ntitle = 3\n");
        assert_eq!(read.problems.len(), 1);
        assert!(
            read.problems[0].1.contains("not a valid"),
            "{:?}",
            read.problems
        );
        assert!(read.problems[0].0.start > 0);
        let read = super::read("colour = 1\n");
        assert!(read.problems[0].1.contains("colour"), "{:?}", read.problems);
        assert!(
            super::read("version = 9\n").problems[0]
                .1
                .contains("version 9")
        );
    }
}
