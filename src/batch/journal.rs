//! The batch journal: an append-only JSON Lines file in the output folder. Its first
//! line names the settings the batch runs with (as a digest: they hold API keys);
//! every submission checked adds one line, flushed to disk before the next is
//! written, so a run killed at any moment (`kill -9`, a power cut) resumes with every
//! submission it recorded and checks only the others. A line cut short by the kill
//! is the one the run was writing: it is dropped, and that submission is checked
//! again.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::summary::SubmissionLine;

/// The journal's name in the output folder.
pub const JOURNAL_FILE: &str = "journal.jsonl";

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Entry {
    /// The first line: the digest of the batch's settings.
    Started {
        settings: String,
    },
    Finished(Box<SubmissionLine>),
}

/// An open journal, appended to as submissions finish.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Open (or start) the journal in `out`, returning the submissions it records as
    /// finished, by id. A journal started with other settings is an error: its
    /// lines would not be what this run reports.
    pub fn open(
        out: &Path,
        settings: &str,
    ) -> anyhow::Result<(Journal, BTreeMap<String, SubmissionLine>)> {
        let path = out.join(JOURNAL_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| anyhow::anyhow!("cannot open the journal `{}`: {e}", path.display()))?;
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(|e| anyhow::anyhow!("cannot read the journal `{}`: {e}", path.display()))?;
        let (finished, kept) = read_entries(&path, &text, settings)?;
        if kept < text.len() {
            // The torn last line of a killed run.
            file.set_len(kept as u64)
                .and_then(|_| file.seek(SeekFrom::End(0)).map(drop))
                .map_err(|e| anyhow::anyhow!("cannot repair `{}`: {e}", path.display()))?;
        }
        let mut journal = Journal { path, file };
        if kept == 0 {
            journal.append(&Entry::Started {
                settings: settings.to_string(),
            })?;
            // The new file's name reaches the disk too.
            if let Ok(dir) = File::open(out) {
                let _ = dir.sync_all();
            }
        }
        Ok((journal, finished))
    }

    /// Record a finished submission; on disk when this returns.
    pub fn record(&mut self, line: &SubmissionLine) -> anyhow::Result<()> {
        self.append(&Entry::Finished(Box::new(line.clone())))
    }

    fn append(&mut self, entry: &Entry) -> anyhow::Result<()> {
        let mut text = serde_json::to_string(entry)?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| anyhow::anyhow!("cannot write the journal `{}`: {e}", self.path.display()))
    }
}

/// The finished submissions of a journal's text, and how many of its bytes are
/// whole lines worth keeping.
fn read_entries(
    path: &Path,
    text: &str,
    settings: &str,
) -> anyhow::Result<(BTreeMap<String, SubmissionLine>, usize)> {
    let mut finished = BTreeMap::new();
    let mut kept = 0;
    let mut rest = text;
    let mut number = 0;
    while !rest.is_empty() {
        number += 1;
        let (line, whole) = match rest.find('\n') {
            Some(end) => (&rest[..end], end + 1),
            None => (rest, rest.len()),
        };
        let terminated = whole > line.len();
        let entry = match serde_json::from_str::<Entry>(line) {
            Ok(entry) => entry,
            // Cut short by a kill: the run was writing it.
            Err(_) if !terminated => break,
            Err(e) => anyhow::bail!(
                "`{}` line {number} is not a journal entry ({e}); remove the journal to \
                 check every submission again",
                path.display()
            ),
        };
        match entry {
            Entry::Started { settings: was } if number == 1 => {
                if was != settings {
                    anyhow::bail!(
                        "`{}` was written by a batch with other settings (flags, \
                         configuration or sources): give another --out folder, or remove \
                         the journal to check every submission again",
                        path.display()
                    );
                }
            }
            Entry::Finished(line) if number > 1 => {
                finished.insert(line.id.clone(), *line);
            }
            _ => anyhow::bail!(
                "`{}` line {number}: a journal starts with its settings, then lists \
                 finished submissions",
                path.display()
            ),
        }
        kept += whole;
        rest = &rest[whole..];
    }
    Ok((finished, kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str) -> SubmissionLine {
        SubmissionLine::failed(id, &format!("{id}.pdf"), "unreadable".into())
    }

    #[test]
    fn records_survive_a_reopen_and_a_torn_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let (mut journal, done) = Journal::open(dir.path(), "s1").unwrap();
        assert!(done.is_empty());
        journal.record(&line("a")).unwrap();
        journal.record(&line("b")).unwrap();
        drop(journal);
        // A kill in the middle of writing the third line.
        let path = dir.path().join(JOURNAL_FILE);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(br#"{"finished":{"id":"c","pa"#).unwrap();
        drop(file);
        let (mut journal, done) = Journal::open(dir.path(), "s1").unwrap();
        assert_eq!(done.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(done["b"], line("b"));
        journal.record(&line("c")).unwrap();
        drop(journal);
        let (_, done) = Journal::open(dir.path(), "s1").unwrap();
        assert_eq!(done.keys().collect::<Vec<_>>(), ["a", "b", "c"]);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
    }

    #[test]
    fn other_settings_and_a_damaged_line_are_errors_naming_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let (mut journal, _) = Journal::open(dir.path(), "s1").unwrap();
        journal.record(&line("a")).unwrap();
        drop(journal);
        let other = Journal::open(dir.path(), "s2").unwrap_err().to_string();
        assert!(
            other.contains("journal.jsonl") && other.contains("other settings"),
            "{other}"
        );
        let path = dir.path().join(JOURNAL_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("{\"finished\"", "{oops", 1)).unwrap();
        let damaged = Journal::open(dir.path(), "s1").unwrap_err().to_string();
        assert!(damaged.contains("line 2"), "{damaged}");
    }
}
