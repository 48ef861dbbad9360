//! The offline scholarly record: bulk dumps (the OpenAlex works snapshot, the Crossref
//! public data file, the DBLP XML dump, local corpora) imported into one on-disk index,
//! which the resolver consults before any network source.
//!
//! - `input` streams dump files (gzip or plain, folders searched recursively);
//! - `openalex`, `crossref`, `dblp`, `platforms` (ACL Anthology BibTeX, OpenReview notes),
//!   `corpus` turn each dump's records into [`Record`]s;
//! - `merge` says which records describe the same work (identifiers, or normalised
//!   title + year + first author);
//! - `store` is the storage trait the resolver reads through ([`WorkStore`], defined in
//!   [`crate::storage::works`] so that the resolver does not depend on the index) and the one
//!   a build writes through ([`StoreWriter`]); `sqlite` implements both (SQLite with an
//!   FTS5 title index, chosen by measurement: docs/index.md), and `postgres` both in
//!   PostgreSQL for a store shared by many machines (connections: `crate::pg`);
//! - `put` holds the merge rules both writers apply, written once;
//! - `build` runs the importers into a writer with a progress bar; `stats` reports.

pub mod build;
pub mod check;
pub(crate) mod codec;
pub mod corpus;
pub mod crossref;
pub mod dblp;
pub mod input;
pub mod merge;
pub mod openalex;
pub mod platforms;
pub mod postgres;
pub mod put;
pub mod sqlite;
pub mod stats;
pub mod store;
pub mod title_engine;

use std::path::Path;
use std::sync::Arc;

pub use store::{IndexStats, StoreWriter, WorkStore};

use crate::model::Work;
use crate::storage::Location;

pub use crate::storage::works::{INDEX_SOURCE, IndexError};

/// The dump a record came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DumpSource {
    OpenAlex,
    Crossref,
    Dblp,
    Corpus,
    /// The ACL Anthology's BibTeX export.
    Acl,
    /// A dump of OpenReview notes.
    OpenReview,
}

impl DumpSource {
    /// In the order of the codes an index stores (new sources go last).
    pub const ALL: [DumpSource; 6] = [
        DumpSource::OpenAlex,
        DumpSource::Crossref,
        DumpSource::Dblp,
        DumpSource::Corpus,
        DumpSource::Acl,
        DumpSource::OpenReview,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DumpSource::OpenAlex => "openalex",
            DumpSource::Crossref => "crossref",
            DumpSource::Dblp => "dblp",
            DumpSource::Corpus => "corpus",
            DumpSource::Acl => "acl",
            DumpSource::OpenReview => "openreview",
        }
    }

    pub fn parse(name: &str) -> Option<DumpSource> {
        DumpSource::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The `source` the resolver sees on this dump's records.
    pub fn record_source(self) -> String {
        format!("{INDEX_SOURCE}:{}", self.as_str())
    }
}

/// What a retraction or correction notice says about the work it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    Retraction,
    Concern,
}

/// A notice (Crossref `update-to`) about another work, known by its DOI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub target_doi: String,
    pub kind: NoticeKind,
}

/// One record of one dump.
#[derive(Debug, Clone)]
pub struct Record {
    pub source: DumpSource,
    /// The record's key in its dump (OpenAlex `W…`, a Crossref DOI, a DBLP key); a newer
    /// record with the same source and key replaces the older one.
    pub key: String,
    /// When the dump last changed the record (OpenAlex `updated_date`, Crossref
    /// `indexed`, DBLP `mdate`); an import never replaces a record by an older one.
    pub updated: Option<String>,
    pub work: Work,
    /// Notices this record carries about other works.
    pub notices: Vec<Notice>,
}

/// Check the index at `location` (a folder or a `postgres://…` URL): `citeproof index
/// check`. Dispatched here, beside `open`, so the shared checks in [`check`] never
/// import the backends that use them.
pub fn check_index(location: &Path) -> Result<check::IndexCheck, IndexError> {
    match Location::of(location) {
        Location::Postgres(url) => postgres::check(&url),
        Location::Folder(dir) => sqlite::check(&dir),
    }
}

/// Whether `location` names an index that a build without dumps may bring up to date
/// (a folder holding an index, or a PostgreSQL URL).
pub fn exists(location: &Path) -> bool {
    match Location::of(location) {
        Location::Postgres(_) => true,
        Location::Folder(dir) => sqlite::db_path(&dir).is_file(),
    }
}

/// Open the index at `location` for reading: a folder built by `citeproof index build`,
/// or a PostgreSQL database given by its `postgres://…` URL.
pub fn open(location: &Path) -> Result<Arc<dyn WorkStore>, IndexError> {
    Ok(match Location::of(location) {
        Location::Postgres(url) => Arc::new(postgres::PgStore::open(&url)?),
        Location::Folder(dir) => Arc::new(sqlite::SqliteStore::open(&dir)?),
    })
}

/// Open the index at `location` for a build, creating it when missing. A folder's title
/// index may need indexing again first (an older build, or an interrupted one):
/// `reindexing` is told its progress.
pub fn open_writer(
    location: &Path,
    reindexing: &dyn Fn(&sqlite::ReindexProgress),
) -> Result<Box<dyn StoreWriter>, IndexError> {
    Ok(match Location::of(location) {
        Location::Postgres(url) => Box::new(postgres::PgWriter::open(&url)?),
        Location::Folder(dir) => Box::new(sqlite::SqliteWriter::open_reporting(&dir, reindexing)?),
    })
}
