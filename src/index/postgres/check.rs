//! `citeproof index check` of a PostgreSQL index: the invariants both backends keep
//! ([`crate::index::check::shared`], the searched words of every record among them),
//! and the word counts a title search picks its rarest words by. PostgreSQL keeps its
//! own pages sound (write-ahead log, and page checksums where the cluster has them).

use std::collections::HashSet;

use postgres::Client;
use postgres::fallible_iterator::FallibleIterator;

use super::read::store_error;
use crate::index::IndexError;
use crate::index::check::{CheckedTables, IndexCheck, RecordRow, shared};
use crate::pg::{error_text, redacted};

struct Tables<'c>(&'c mut Client);

fn err(e: postgres::Error) -> IndexError {
    store_error(error_text(&e))
}

impl CheckedTables for Tables<'_> {
    fn prefix(&self) -> &'static str {
        "citeproof_index_"
    }

    fn number(&mut self, sql: &str) -> Result<i64, IndexError> {
        Ok(self.0.query_one(sql, &[]).map_err(err)?.get(0))
    }

    fn meta(&mut self) -> Result<Vec<(String, String)>, IndexError> {
        let rows = self
            .0
            .query("SELECT key, value FROM citeproof_index_meta", &[])
            .map_err(err)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn title_keys(&mut self) -> Result<HashSet<i64>, IndexError> {
        let rows = self
            .0
            .query("SELECT key FROM citeproof_index_title_keys", &[])
            .map_err(err)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn each_record(&mut self, f: &mut dyn FnMut(RecordRow)) -> Result<(), IndexError> {
        let none: [&str; 0] = [];
        let mut rows = self
            .0
            .query_raw(
                "SELECT id, work, title, authors, year, words FROM citeproof_index_records \
                 ORDER BY id",
                none,
            )
            .map_err(err)?;
        while let Some(row) = rows.next().map_err(err)? {
            f(RecordRow {
                id: row.get(0),
                work: row.get(1),
                title: row.get(2),
                authors: row.get(3),
                year: row.get(4),
                words: Some(row.get(5)),
            });
        }
        Ok(())
    }
}

/// Check the index in the database at `url`.
pub fn check(url: &str) -> Result<IndexCheck, IndexError> {
    let open_error = |message: String| IndexError::Open {
        path: redacted(url).into(),
        message,
    };
    let mut client = crate::pg::connect(url).map_err(open_error)?;
    let present: bool = client
        .query_one(
            "SELECT to_regclass('citeproof_index_words') IS NOT NULL",
            &[],
        )
        .map_err(err)?
        .get(0);
    if !present {
        return Err(open_error(
            "no citeproof index of this version here (build one, or bring it up to date, \
             with `citeproof index build`)"
                .into(),
        ));
    }
    let mut report = IndexCheck::new(redacted(url), "postgres");
    shared(&mut Tables(&mut client), &mut report)?;
    word_counts(&mut client, &mut report)?;
    Ok(report)
}

/// The number of records carrying each word, as the words table says, against the
/// records' words.
fn word_counts(client: &mut Client, report: &mut IndexCheck) -> Result<(), IndexError> {
    let row = client
        .query_one(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE COALESCE(c.n, 0) <> COALESCE(w.records, 0)) \
             FROM (SELECT word, COUNT(DISTINCT id) AS n FROM citeproof_index_records, \
                   unnest(string_to_array(words, ' ')) AS word WHERE word <> '' GROUP BY word) c \
             FULL OUTER JOIN citeproof_index_words w USING (word)",
            &[],
        )
        .map_err(err)?;
    let (words, wrong): (i64, i64) = (row.get(0), row.get(1));
    report.push(
        "the words table counts the records carrying each title word",
        words as u64,
        wrong as u64,
        "words counted wrongly: a title search picks the wrong rarest words".into(),
    );
    Ok(())
}
