//! `citeproof index check` of an index folder: SQLite's own `PRAGMA integrity_check`,
//! the invariants both backends keep ([`crate::index::check::shared`]), and the title
//! index against the records: each record with searchable title words exactly once,
//! with its work, and no title of a record that is not there.

use std::collections::HashSet;
use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::{FILE_NAME, db_path, open_error, prepare};
use crate::index::IndexError;
use crate::index::check::{CheckedTables, IndexCheck, RecordRow, shared};
use crate::index::codec::indexed_words;
use crate::index::title_engine::{self, RecordHit, TitleSearch};

/// Rows of `PRAGMA integrity_check` shown (it stops at 100).
const SHOWN_PROBLEMS: usize = 5;

struct Tables<'c>(&'c Connection);

impl CheckedTables for Tables<'_> {
    fn prefix(&self) -> &'static str {
        ""
    }

    fn number(&mut self, sql: &str) -> Result<i64, IndexError> {
        Ok(self.0.query_row(sql, [], |r| r.get(0))?)
    }

    fn meta(&mut self) -> Result<Vec<(String, String)>, IndexError> {
        let mut stmt = self.0.prepare("SELECT key, value FROM meta")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn title_keys(&mut self) -> Result<HashSet<i64>, IndexError> {
        let mut stmt = self.0.prepare("SELECT key FROM title_keys")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn each_record(&mut self, f: &mut dyn FnMut(RecordRow)) -> Result<(), IndexError> {
        let mut stmt = self
            .0
            .prepare("SELECT id, work, title, authors, year FROM records ORDER BY id")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            f(RecordRow {
                id: row.get(0)?,
                work: row.get(1)?,
                title: row.get(2)?,
                authors: row.get(3)?,
                year: row.get(4)?,
                words: None,
            });
        }
        Ok(())
    }
}

/// Check the index in `dir`.
pub fn check(dir: &Path) -> Result<IndexCheck, IndexError> {
    if !db_path(dir).is_file() {
        return Err(open_error(
            dir,
            format!("no index here (expected {FILE_NAME})"),
        ));
    }
    let conn = Connection::open_with_flags(db_path(dir), OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| open_error(dir, e))?;
    let mut report = IndexCheck::new(dir.display().to_string(), "sqlite");
    // A damaged file can fail any later query: its own check comes first, alone.
    if !integrity(&conn, &mut report)? {
        return Ok(report);
    }
    prepare(&conn, dir, false)?;
    shared(&mut Tables(&conn), &mut report)?;
    titles(&conn, dir, &mut report)?;
    Ok(report)
}

/// SQLite's check of its pages, indexes and constraints; whether it passed. A file too
/// damaged for the check to run fails it with SQLite's error.
fn integrity(conn: &Connection, report: &mut IndexCheck) -> Result<bool, IndexError> {
    let run = || -> rusqlite::Result<(i64, Vec<String>)> {
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let mut stmt = conn.prepare("PRAGMA integrity_check")?;
        let lines = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok((pages, lines))
    };
    let (pages, problems) = match run() {
        Ok((pages, lines)) => (pages, lines.into_iter().filter(|l| l != "ok").collect()),
        Err(e) => (0, vec![e.to_string()]),
    };
    let shown: Vec<&str> = problems
        .iter()
        .take(SHOWN_PROBLEMS)
        .map(String::as_str)
        .collect();
    report.push(
        "SQLite's integrity check (PRAGMA integrity_check) of index.sqlite3",
        pages as u64,
        problems.len() as u64,
        format!("the file is damaged: {}", shown.join("; ")),
    );
    Ok(problems.is_empty())
}

/// The title index against the records table.
fn titles(conn: &Connection, dir: &Path, report: &mut IndexCheck) -> Result<(), IndexError> {
    const WHAT: &str = "the title index holds each record with title words once, with its work";
    let mut entries: Vec<RecordHit> = if title_engine::exists(dir) {
        TitleSearch::open(dir)?.all_records()
    } else {
        Vec::new()
    };
    entries.sort_by_key(|e| (e.record, e.work));
    let mut next = entries.iter().peekable();
    let (mut titled, mut missing, mut extra, mut wrong_work) = (0u64, 0u64, 0u64, 0u64);
    Tables(conn).each_record(&mut |row| {
        while next.next_if(|e| e.record < row.id).is_some() {
            extra += 1;
        }
        let has_words = !indexed_words(&row.title).is_empty();
        titled += u64::from(has_words);
        match next.next_if(|e| e.record == row.id) {
            Some(entry) if has_words => wrong_work += u64::from(entry.work != row.work),
            Some(_) => extra += 1,
            None => missing += u64::from(has_words),
        }
        while next.next_if(|e| e.record == row.id).is_some() {
            extra += 1;
        }
    })?;
    extra += next.count() as u64;
    report.push_mendable(
        WHAT,
        titled,
        missing + extra + wrong_work,
        format!(
            "{missing} records without their title entry (not found by title), {extra} \
             entries of no such record, {wrong_work} naming another work"
        ),
    );
    Ok(())
}
