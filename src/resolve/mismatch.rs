//! What comparing a reference with a record finds: the wrong fields
//! ([`Mismatch`], collected in a [`Comparison`]) and an identifier that names
//! another work ([`Conflation`]). The types only: `compare.rs`, `identifiers.rs`
//! and `conflation.rs` find them.

use serde::{Deserialize, Serialize};

use crate::resolve::authors::AuthorIssue;

/// A compared field (names as in the world schema and the `resolve` output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Field {
    Title,
    Authors,
    Year,
    Venue,
    Doi,
    Arxiv,
    Pmid,
    Isbn,
    /// The number of an RFC, a standard, a report or a patent.
    Number,
    /// The registry package software is cited as.
    Package,
    /// The cited version of software.
    Version,
}

impl Field {
    /// The name used in reports and in the world schema (`title`, `authors`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Authors => "authors",
            Field::Year => "year",
            Field::Venue => "venue",
            Field::Doi => "doi",
            Field::Arxiv => "arxiv",
            Field::Pmid => "pmid",
            Field::Isbn => "isbn",
            Field::Number => "number",
            Field::Package => "package",
            Field::Version => "version",
        }
    }
}

pub use crate::model::MismatchKind;

impl From<AuthorIssue> for MismatchKind {
    fn from(issue: AuthorIssue) -> MismatchKind {
        match issue {
            AuthorIssue::SwappedAuthors => MismatchKind::SwappedAuthors,
            AuthorIssue::PartialAuthorList => MismatchKind::PartialAuthorList,
            AuthorIssue::PlaceholderAuthors => MismatchKind::PlaceholderAuthors,
            AuthorIssue::UnknownAuthors => MismatchKind::UnknownAuthors,
        }
    }
}

/// One wrong field: what the reference says and what the record says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    pub field: Field,
    pub kind: MismatchKind,
    pub cited: String,
    pub record: String,
    pub detail: String,
}

/// The result of comparing a reference with a record.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Comparison {
    pub mismatches: Vec<Mismatch>,
    /// Benign differences worth showing (preprint year, omitted subtitle, …).
    pub notes: Vec<String>,
}

impl Comparison {
    pub fn is_clean(&self) -> bool {
        self.mismatches.is_empty()
    }

    /// The wrong fields, each once, in field order.
    pub fn fields_wrong(&self) -> Vec<Field> {
        let mut fields: Vec<Field> = self.mismatches.iter().map(|m| m.field).collect();
        fields.sort_unstable();
        fields.dedup();
        fields
    }

    pub fn mismatch(&self, field: Field) -> Option<&Mismatch> {
        self.mismatches.iter().find(|m| m.field == field)
    }

    /// Record that the cited identifier names another work (see
    /// `conflation::identifier_conflation`); replaces a plain identifier mismatch on that field.
    pub fn add_conflation(&mut self, conflation: &Conflation) {
        self.mismatches.retain(|m| m.field != conflation.field);
        let detail = match &conflation.title_work_title {
            Some(t) => format!(
                "{} resolves to \"{}\"; the cited title is \"{t}\"",
                conflation.identifier, conflation.identifier_work_title
            ),
            None => format!(
                "{} resolves to \"{}\"",
                conflation.identifier, conflation.identifier_work_title
            ),
        };
        self.mismatches.push(Mismatch {
            field: conflation.field,
            kind: MismatchKind::IdentifierNamesAnotherWork,
            cited: conflation.identifier.clone(),
            record: conflation.title_work_identifier.clone().unwrap_or_default(),
            detail,
        });
    }
}

/// An identifier that names a different work than the cited title.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflation {
    pub field: Field,
    /// The identifier as cited (normalised).
    pub identifier: String,
    /// Title of the work the identifier resolves to.
    pub identifier_work_title: String,
    /// Title of the work the cited title matched, when one did.
    pub title_work_title: Option<String>,
    /// That work's identifier of the same scheme, when it has one.
    pub title_work_identifier: Option<String>,
}
