//! Local corpora (the formats `--corpus` reads) as index records. World-schema JSON
//! Lines are streamed line by line; CSL-JSON and BibTeX files, which are single
//! documents, go through the corpus reader.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::input::input_error;
use super::merge::{fnv1a, folded_title, ids_of};
use super::{DumpSource, IndexError, Record};
use crate::model::Work;
use crate::resolve::corpus::{Corpus, is_jsonl, work_from_world_line};

/// A record key for a corpus work: its strongest identifier, else a hash of its title
/// and year.
fn key_of(work: &Work) -> String {
    match ids_of(work).first() {
        Some((scheme, value)) => format!("{}:{value}", scheme.prefix()),
        None => format!(
            "title:{:016x}",
            fnv1a(&format!("{}|{:?}", folded_title(&work.title), work.year))
        ),
    }
}

fn record(work: Work) -> Record {
    let mut work = work;
    work.source = DumpSource::Corpus.as_str().into();
    Record {
        source: DumpSource::Corpus,
        key: key_of(&work),
        updated: None,
        work,
        notices: Vec::new(),
    }
}

/// Read one corpus file.
pub fn read(
    path: &Path,
    stream: &mut dyn BufRead,
    emit: &mut dyn FnMut(Record),
    warn: &mut dyn FnMut(String),
) -> Result<(), IndexError> {
    if is_jsonl(path) {
        for (n, line) in stream.lines().enumerate() {
            let line = line.map_err(|e| input_error(path, format!("line {}: {e}", n + 1)))?;
            if line.trim().is_empty() {
                continue;
            }
            match work_from_world_line(&line) {
                Ok(Some(work)) => emit(record(work)),
                Ok(None) => warn(format!(
                    "{}:{}: record without a title, skipped",
                    path.display(),
                    n + 1
                )),
                Err(e) => warn(format!(
                    "{}:{}: not a work record ({e}), skipped",
                    path.display(),
                    n + 1
                )),
            }
        }
        return Ok(());
    }
    let (corpus, warnings) =
        Corpus::load(&[PathBuf::from(path)]).map_err(|e| input_error(path, e.message))?;
    for w in warnings {
        warn(w);
    }
    for work in corpus.works() {
        emit(record(work.clone()));
    }
    Ok(())
}
