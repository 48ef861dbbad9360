//! The index merge rules where two works carry the same identifier: when a newer
//! version of one work's record drops the identifier, the lookup moves to the other
//! work that still carries it instead of being lost. Run against SQLite, and against
//! PostgreSQL when a server can be started here (tests/pg_server).

mod pg_server;

use std::path::Path;

use citeproof::index::{DumpSource, Record, check_index, open, open_writer};
use citeproof::model::{IdScheme, Work};
use pg_server::PgServer;

const SHARED_PMID: &str = "12345678";

fn record(key: &str, updated: &str, title: &str, doi: &str, pmid: Option<&str>) -> Record {
    Record {
        source: DumpSource::OpenAlex,
        key: key.to_string(),
        updated: Some(updated.to_string()),
        work: Work {
            title: title.to_string(),
            year: Some(2020),
            doi: Some(doi.to_string()),
            pmid: pmid.map(str::to_string),
            ..Work::default()
        },
        notices: Vec::new(),
    }
}

/// Titles of the records of the work `id` is looked up to.
fn titles_by_id(location: &Path, scheme: IdScheme, value: &str) -> Vec<String> {
    let store = open(location).unwrap();
    let mut titles: Vec<String> = store
        .by_id(scheme, value)
        .unwrap()
        .into_iter()
        .map(|w| w.title)
        .collect();
    titles.sort();
    titles
}

/// Build the two works sharing a PMID, then drop it from the work its lookup points at.
fn drop_shared_identifier(location: &Path) {
    let mut writer = open_writer(location, &|_| {}).unwrap();
    // Work A holds the PMID; work B has its own DOI and no PMID yet.
    writer
        .put(&record(
            "W1",
            "2024-01-01",
            "Alpha",
            "10.1234/alpha",
            Some(SHARED_PMID),
        ))
        .unwrap();
    writer
        .put(&record("W2", "2024-01-01", "Beta", "10.1234/beta", None))
        .unwrap();
    writer.commit().unwrap();
    // B's newer version carries the PMID too: it stays in B (its DOI), and the
    // lookup stays with A, which held it first.
    writer
        .put(&record(
            "W2",
            "2024-06-01",
            "Beta",
            "10.1234/beta",
            Some(SHARED_PMID),
        ))
        .unwrap();
    writer.commit().unwrap();
    assert_eq!(
        titles_by_id(location, IdScheme::Pmid, SHARED_PMID),
        ["Alpha"]
    );
    // A's newer version drops the PMID: only B carries it now.
    writer
        .put(&record("W1", "2024-06-01", "Alpha", "10.1234/alpha", None))
        .unwrap();
    writer.finish().unwrap();
}

/// The same four versions put as one batch (PostgreSQL applies a batch in memory).
fn drop_shared_identifier_in_one_batch(location: &Path) {
    let mut writer = open_writer(location, &|_| {}).unwrap();
    writer
        .put_batch(&[
            record(
                "W1",
                "2024-01-01",
                "Alpha",
                "10.1234/alpha",
                Some(SHARED_PMID),
            ),
            record("W2", "2024-01-01", "Beta", "10.1234/beta", None),
            record(
                "W2",
                "2024-06-01",
                "Beta",
                "10.1234/beta",
                Some(SHARED_PMID),
            ),
            record("W1", "2024-06-01", "Alpha", "10.1234/alpha", None),
        ])
        .unwrap();
    writer.finish().unwrap();
}

fn assert_lookup_moved_to_the_work_still_carrying_it(location: &Path) {
    // `index check`: every record's identifiers are looked up.
    let check = check_index(location).unwrap();
    assert!(check.sound(), "{check:#?}");
    assert_eq!(
        titles_by_id(location, IdScheme::Pmid, SHARED_PMID),
        ["Beta"],
        "the PMID must be looked up to the work whose record still carries it"
    );
    assert_eq!(
        titles_by_id(location, IdScheme::Doi, "10.1234/alpha"),
        ["Alpha"]
    );
    assert_eq!(
        titles_by_id(location, IdScheme::Doi, "10.1234/beta"),
        ["Beta"]
    );
}

#[test]
fn sqlite_lookup_moves_to_the_other_work_carrying_a_dropped_identifier() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("index");
    drop_shared_identifier(&index);
    assert_lookup_moved_to_the_work_still_carrying_it(&index);
    let batched = dir.path().join("batched");
    drop_shared_identifier_in_one_batch(&batched);
    assert_lookup_moved_to_the_work_still_carrying_it(&batched);
}

#[test]
fn postgres_lookup_moves_to_the_other_work_carrying_a_dropped_identifier() {
    let Some(server) = PgServer::start() else {
        return;
    };
    let url = server.database("index_merge");
    let location = Path::new(&url);
    drop_shared_identifier(location);
    assert_lookup_moved_to_the_work_still_carrying_it(location);
    let url = server.database("index_merge_batched");
    let location = Path::new(&url);
    drop_shared_identifier_in_one_batch(location);
    assert_lookup_moved_to_the_work_still_carrying_it(location);
}
