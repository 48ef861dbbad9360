//! `citeproof index check`: whether an index is sound. The invariants the merge rules
//! ([`super::put`]) keep are checked the same way in both backends, by the same SQL
//! over their tables: every identifier points at a work one of whose records carries
//! it, every record's identifiers and title key are looked up, every title key points
//! at a work, and a finished build's counts are the tables' counts. Each backend adds
//! its own: SQLite's `PRAGMA integrity_check` and the tantivy title index against the
//! records (`sqlite::check`); PostgreSQL's word counts and searched words against the
//! titles (`postgres::check`).

use std::collections::HashSet;
use std::fmt::Write as _;

use serde::Serialize;

use super::codec::{decode_authors, indexed_words, source_code};
use super::merge::{SCHEMES, id_column, title_key};
use super::{DumpSource, IndexError};
use crate::model::Work;

/// The meta key a build sets when it starts and removes when it finishes: while it is
/// there, the counts of the last finished build are not those of the tables, and an
/// SQLite title index may still hold titles of records that never committed.
pub const UNFINISHED_BUILD: &str = "build_unfinished";

/// What a check found about one invariant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What was checked, in words.
    pub what: String,
    /// How many items (rows, titles, pages) it looked at.
    pub checked: u64,
    /// How many break it.
    pub problems: u64,
    /// What the problems are, and what to do (empty when none).
    pub detail: String,
    /// Whether a problem here is expected of an unfinished build, which the next build
    /// mends (not a broken index).
    pub mended_by_next_build: bool,
}

/// The check of one index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IndexCheck {
    pub location: String,
    pub engine: &'static str,
    /// When the build that has not finished started, if one has not.
    pub unfinished_build: Option<String>,
    pub findings: Vec<Finding>,
}

impl IndexCheck {
    /// Whether the index is sound: no problem but those an unfinished build leaves.
    pub fn sound(&self) -> bool {
        self.findings
            .iter()
            .all(|f| f.problems == 0 || (f.mended_by_next_build && self.unfinished_build.is_some()))
    }

    pub(crate) fn push(&mut self, what: &str, checked: u64, problems: u64, detail: String) {
        self.findings.push(Finding {
            what: what.to_string(),
            checked,
            problems,
            detail: if problems == 0 { String::new() } else { detail },
            mended_by_next_build: false,
        });
    }

    /// A finding that an unfinished build may leave (its next run mends it).
    pub(crate) fn push_mendable(
        &mut self,
        what: &str,
        checked: u64,
        problems: u64,
        detail: String,
    ) {
        self.push(what, checked, problems, detail);
        if let Some(last) = self.findings.last_mut() {
            last.mended_by_next_build = true;
        }
    }

    /// The check as lines of text.
    pub fn render(&self) -> String {
        let mut out = format!("index {} ({})\n", self.location, self.engine);
        if let Some(started) = &self.unfinished_build {
            let _ = writeln!(
                out,
                "note: a build started {started} has not finished: run `citeproof index build` \
                 on this index again to finish it"
            );
        }
        for f in &self.findings {
            let mark = match (
                f.problems,
                f.mended_by_next_build && self.unfinished_build.is_some(),
            ) {
                (0, _) => "ok  ",
                (_, true) => "note",
                (_, false) => "FAIL",
            };
            let _ = writeln!(out, "{mark} {} ({} checked)", f.what, f.checked);
            if f.problems > 0 {
                let _ = writeln!(out, "     {} wrong: {}", f.problems, f.detail);
            }
        }
        out.push_str(if self.sound() {
            "the index is sound\n"
        } else {
            "the index is broken: rebuild it (or restore a copy); a build resumed on it keeps \
             what is wrong\n"
        });
        out
    }
}

/// One record as the checks read it.
pub(crate) struct RecordRow {
    pub id: i64,
    pub work: i64,
    pub title: String,
    pub authors: String,
    pub year: Option<i32>,
    /// The words the title is searched by, where the backend stores them beside it.
    pub words: Option<String>,
}

/// What the shared checks need of a backend: its tables' names and a way to run SQL.
pub(crate) trait CheckedTables {
    /// The prefix of the index's table names (`citeproof_index_` in PostgreSQL).
    fn prefix(&self) -> &'static str;
    /// The one number a `SELECT COUNT(*) …` (or another single integer) returns.
    fn number(&mut self, sql: &str) -> Result<i64, IndexError>;
    /// Every row of the meta table.
    fn meta(&mut self) -> Result<Vec<(String, String)>, IndexError>;
    /// Every title key.
    fn title_keys(&mut self) -> Result<HashSet<i64>, IndexError>;
    /// Every record, in the order of their ids.
    fn each_record(&mut self, f: &mut dyn FnMut(RecordRow)) -> Result<(), IndexError>;
}

impl IndexCheck {
    /// A check with nothing found yet.
    pub(crate) fn new(location: String, engine: &'static str) -> IndexCheck {
        IndexCheck {
            location,
            engine,
            unfinished_build: None,
            findings: Vec::new(),
        }
    }
}

/// The invariants both backends keep, checked by the same SQL over their tables.
pub(crate) fn shared(
    tables: &mut dyn CheckedTables,
    report: &mut IndexCheck,
) -> Result<(), IndexError> {
    report.unfinished_build = tables
        .meta()?
        .into_iter()
        .find(|(k, _)| k == UNFINISHED_BUILD)
        .map(|(_, v)| v);
    let p = tables.prefix();
    let records = tables.number(&format!("SELECT COUNT(*) FROM {p}records"))?;
    let ids = tables.number(&format!("SELECT COUNT(*) FROM {p}ids"))?;
    let carried_by = SCHEMES
        .iter()
        .map(|(scheme, code)| format!("(i.scheme = {code} AND r.{} = i.value)", id_column(*scheme)))
        .collect::<Vec<_>>()
        .join(" OR ");
    let dangling = tables.number(&format!(
        "SELECT COUNT(*) FROM {p}ids i WHERE NOT EXISTS \
         (SELECT 1 FROM {p}records r WHERE r.work = i.work AND ({carried_by}))"
    ))?;
    report.push(
        "every identifier points at a work one of whose records carries it",
        ids as u64,
        dangling as u64,
        "identifiers point at works none of whose records carries them: a lookup by them \
         finds the wrong work"
            .into(),
    );
    let mut unlooked = 0;
    for (scheme, code) in SCHEMES {
        let column = id_column(scheme);
        unlooked += tables.number(&format!(
            "SELECT COUNT(*) FROM {p}records r WHERE r.{column} IS NOT NULL AND NOT EXISTS \
             (SELECT 1 FROM {p}ids i WHERE i.scheme = {code} AND i.value = r.{column})"
        ))?;
    }
    report.push(
        "every record's identifiers are looked up",
        records as u64,
        unlooked as u64,
        "identifiers that records carry are in no lookup: a citation by them is not found".into(),
    );
    let keys = tables.number(&format!("SELECT COUNT(*) FROM {p}title_keys"))?;
    let orphan_keys = tables.number(&format!(
        "SELECT COUNT(*) FROM {p}title_keys t WHERE NOT EXISTS \
         (SELECT 1 FROM {p}records r WHERE r.work = t.work)"
    ))?;
    report.push(
        "every title key points at a work with records",
        keys as u64,
        orphan_keys as u64,
        "title keys point at works that have no record".into(),
    );
    title_keys_present(tables, report)?;
    counts(tables, report)
}

/// Every record with a title, year and first author has its title key looked up.
fn title_keys_present(
    tables: &mut dyn CheckedTables,
    report: &mut IndexCheck,
) -> Result<(), IndexError> {
    let keys = tables.title_keys()?;
    let (mut keyed, mut missing) = (0u64, 0u64);
    let (mut stored_words, mut stale_words) = (0u64, 0u64);
    tables.each_record(&mut |row| {
        if let Some(words) = &row.words {
            stored_words += 1;
            if *words != indexed_words(&row.title) {
                stale_words += 1;
            }
        }
        let work = Work {
            title: row.title,
            authors: decode_authors(&row.authors),
            year: row.year,
            ..Work::default()
        };
        if let Some(key) = title_key(&work) {
            keyed += 1;
            if !keys.contains(&key) {
                missing += 1;
            }
        }
    })?;
    report.push(
        "every record's title key (title, year, first author) is looked up",
        keyed,
        missing,
        "records whose title key is in no lookup: their work is not merged with a later record \
         of the same title"
            .into(),
    );
    if stored_words > 0 {
        report.push(
            "every record's searched words are its title's",
            stored_words,
            stale_words,
            "records searched by words that are not their title's: a title search misses them"
                .into(),
        );
    }
    Ok(())
}

/// A finished build's counts (`index stats`) against the tables' counts.
fn counts(tables: &mut dyn CheckedTables, report: &mut IndexCheck) -> Result<(), IndexError> {
    let p = tables.prefix();
    let meta = tables.meta()?;
    if !meta.iter().any(|(k, _)| k == "built") {
        report.push_mendable(
            "the counts of the last build are the tables' counts",
            0,
            1,
            "no build has finished on this index: run `citeproof index build` on it again".into(),
        );
        return Ok(());
    }
    let recorded = |key: &str| meta.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let mut wanted = Vec::new();
    for source in DumpSource::ALL {
        wanted.push((
            format!("records.{}", source.as_str()),
            format!(
                "SELECT COUNT(*) FROM {p}records WHERE source = {}",
                source_code(source)
            ),
        ));
    }
    wanted.push((
        "works".into(),
        format!("SELECT COUNT(DISTINCT work) FROM {p}records"),
    ));
    wanted.push(("notices".into(), format!("SELECT COUNT(*) FROM {p}notices")));
    let mut differ = Vec::new();
    for (key, sql) in &wanted {
        let counted = tables.number(sql)?.to_string();
        let said = recorded(key).unwrap_or_else(|| "0".into());
        if said != counted {
            differ.push(format!("{key} {said} recorded, {counted} counted"));
        }
    }
    report.push_mendable(
        "the counts of the last build are the tables' counts",
        wanted.len() as u64,
        differ.len() as u64,
        format!(
            "{} (a build that did not finish leaves them so: run `citeproof index build` on \
             this index again)",
            differ.join("; ")
        ),
    );
    Ok(())
}
