//! The computing platforms' exports as index records: the ACL Anthology's full BibTeX
//! export (`anthology.bib.gz`, or `anthology+abstracts.bib.gz`) and a dump of
//! OpenReview notes (JSON Lines, one API v2 note a line, or a saved `/notes` reply).
//! OpenReview records keep their decision, so a rejected submission cited as a paper
//! of its venue is a wrong venue offline too.

use std::io::BufRead;
use std::path::Path;

use serde_json::Value;

use super::input::input_error;
use super::merge::{fnv1a, folded_title};
use super::{DumpSource, IndexError, Record};
use crate::resolve::sources::acl::{anthology_id_of, works_of_bibtex};
use crate::resolve::sources::openreview::work_from_note;

pub fn is_anthology_file(name: &str) -> bool {
    name.ends_with(".bib") || name.ends_with(".bib.gz")
}

pub fn is_openreview_file(name: &str) -> bool {
    [".jsonl", ".jsonl.gz", ".json", ".json.gz"]
        .iter()
        .any(|x| name.ends_with(x))
}

/// Read the Anthology's BibTeX export (one document: read whole, then split into
/// entries by the BibTeX parser).
pub fn read_anthology(
    path: &Path,
    stream: &mut dyn BufRead,
    emit: &mut dyn FnMut(Record),
    warn: &mut dyn FnMut(String),
) -> Result<(), IndexError> {
    let mut text = String::new();
    stream
        .read_to_string(&mut text)
        .map_err(|e| input_error(path, format!("not UTF-8 BibTeX: {e}")))?;
    let works = works_of_bibtex(&text);
    if works.is_empty() && !text.trim().is_empty() {
        warn(format!("{}: no BibTeX entry with a title", path.display()));
    }
    for mut work in works {
        let key = work
            .url
            .as_deref()
            .and_then(anthology_id_of)
            .or_else(|| work.doi.as_deref().and_then(anthology_id_of))
            .unwrap_or_else(|| {
                format!(
                    "title:{:016x}",
                    fnv1a(&format!("{}|{:?}", folded_title(&work.title), work.year))
                )
            });
        work.source = DumpSource::Acl.as_str().into();
        emit(Record {
            source: DumpSource::Acl,
            key,
            updated: None,
            work,
            notices: Vec::new(),
        });
    }
    Ok(())
}

/// Read a dump of OpenReview notes: JSON Lines of notes, or one JSON document (a
/// `{"notes": [...]}` reply or an array of notes).
pub fn read_openreview(
    path: &Path,
    stream: &mut dyn BufRead,
    emit: &mut dyn FnMut(Record),
    warn: &mut dyn FnMut(String),
) -> Result<(), IndexError> {
    let mut text = String::new();
    stream
        .read_to_string(&mut text)
        .map_err(|e| input_error(path, format!("not UTF-8 JSON: {e}")))?;
    let mut one = |note: &Value, place: &str, warn: &mut dyn FnMut(String)| match record_of(note) {
        Some(record) => emit(record),
        None => warn(format!(
            "{}{place}: not an OpenReview note with an id and a title, skipped",
            path.display()
        )),
    };
    if let Ok(document) = serde_json::from_str::<Value>(&text) {
        let notes = match &document {
            Value::Array(notes) => notes.as_slice(),
            Value::Object(o) if o.contains_key("notes") => {
                document["notes"].as_array().map_or(&[][..], Vec::as_slice)
            }
            // A single note on one line of a JSON Lines file.
            Value::Object(_) => std::slice::from_ref(&document),
            _ => return Err(input_error(path, "expected OpenReview notes")),
        };
        for (n, note) in notes.iter().enumerate() {
            one(note, &format!(" (note {})", n + 1), warn);
        }
        return Ok(());
    }
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(note) => one(&note, &format!(":{}", n + 1), warn),
            Err(e) => warn(format!(
                "{}:{}: not JSON ({e}), skipped",
                path.display(),
                n + 1
            )),
        }
    }
    Ok(())
}

fn record_of(note: &Value) -> Option<Record> {
    let id = note
        .get("forum")
        .or_else(|| note.get("id"))
        .and_then(Value::as_str)?
        .to_string();
    let mut work = work_from_note(note)?;
    work.source = DumpSource::OpenReview.as_str().into();
    let updated = note
        .get("mdate")
        .or_else(|| note.get("tmdate"))
        .and_then(Value::as_i64)
        .map(|ms| format!("{ms:015}"));
    Some(Record {
        source: DumpSource::OpenReview,
        key: id,
        updated,
        work,
        notices: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SubmissionOutcome;

    fn collect(read: super::super::build::ReaderFn, text: &str) -> (Vec<Record>, Vec<String>) {
        let (mut records, mut warnings) = (Vec::new(), Vec::new());
        read(
            Path::new("dump"),
            &mut text.as_bytes(),
            &mut |r| records.push(r),
            &mut |w| warnings.push(w),
        )
        .unwrap();
        (records, warnings)
    }

    #[test]
    fn anthology_export_entries_are_keyed_by_anthology_id() {
        let bib = "@inproceedings{a-2023-x,\n title = \"First Paper\",\n author = \"Doe, Jane\",\n booktitle = \"Findings of the Association for Computational Linguistics: EMNLP 2023\",\n year = \"2023\",\n url = \"https://aclanthology.org/2023.findings-emnlp.1\",\n}\n\
                   @inproceedings{b-2019-y,\n title = \"Second Paper\",\n author = \"Roe, Richard\",\n year = \"2019\",\n doi = \"10.18653/v1/P19-1001\",\n}\n";
        let (records, warnings) = collect(read_anthology, bib);
        assert!(warnings.is_empty(), "{warnings:?}");
        let keys: Vec<&str> = records.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, vec!["2023.findings-emnlp.1", "P19-1001"]);
        assert_eq!(records[0].work.source, "acl");
        assert_eq!(records[1].work.year, Some(2019));
    }

    #[test]
    fn openreview_dumps_keep_decisions_in_lines_or_replies() {
        let line = |id: &str, venueid: &str| {
            format!(
                r#"{{"id":"{id}","forum":"{id}","mdate":1700000000000,"content":{{"title":{{"value":"Paper {id}"}},"authors":{{"value":["Ada Lovelace"]}},"venue":{{"value":"v"}},"venueid":{{"value":"{venueid}"}}}}}}"#
            )
        };
        let jsonl = format!(
            "{}\nnot json\n{}\n",
            line("a1", "ICLR.cc/2025/Conference/Rejected_Submission"),
            line("b2", "ICLR.cc/2025/Conference")
        );
        let (records, warnings) = collect(read_openreview, &jsonl);
        assert_eq!(records.len(), 2);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("dump:2"), "{warnings:?}");
        let decision = records[0].work.not_accepted.as_ref().unwrap();
        assert_eq!(decision.outcome, SubmissionOutcome::Rejected);
        assert!(records[1].work.not_accepted.is_none());
        let reply = format!(r#"{{"notes":[{}],"count":1}}"#, line("c3", "TMLR"));
        let (records, _) = collect(read_openreview, &reply);
        assert_eq!(records[0].key, "c3");
        assert_eq!(records[0].work.source, "openreview");
    }
}
