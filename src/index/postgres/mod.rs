//! The PostgreSQL engine: the same works, identifiers, title keys and notices as the
//! SQLite file, in tables shared by every process pointed at the database; titles are
//! searched by word postings. `read` answers the resolver ([`PgStore`]), `write` builds
//! ([`PgWriter`]) a batch at a time (`batch`); `check` is `citeproof index check` of a database.

mod batch;
mod check;
mod read;
mod write;

pub use check::check;
pub use read::PgStore;
pub use write::PgWriter;
