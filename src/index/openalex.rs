//! The OpenAlex works snapshot: `data/works/updated_date=YYYY-MM-DD/part_NNN.gz`, JSON
//! Lines of Work objects in the API's shape, read with the same parser as the API
//! client (so a snapshot record and an API answer give the same [`Work`]).

use std::io::BufRead;
use std::path::Path;

use serde_json::Value;

use super::input::input_error;
use super::{DumpSource, IndexError, Record};
use crate::resolve::sources::openalex::work_from_json;

/// The snapshot's data files (`part_000.gz`), or JSON Lines given directly.
pub fn is_dump_file(name: &str) -> bool {
    name.ends_with(".gz") || name.ends_with(".jsonl") || name.ends_with(".json")
}

/// One Work object as a record; `None` for an object that is not a work with a title.
pub fn record_of(v: &Value) -> Option<Record> {
    let id = v.get("id").and_then(Value::as_str)?;
    let key = id.rsplit('/').next().filter(|k| k.starts_with('W'))?;
    let work = work_from_json(v);
    if work.title.trim().is_empty() {
        return None;
    }
    Some(Record {
        source: DumpSource::OpenAlex,
        key: key.to_string(),
        updated: v
            .get("updated_date")
            .and_then(Value::as_str)
            .map(str::to_string),
        work,
        notices: Vec::new(),
    })
}

/// Read one snapshot file line by line; lines that are not works are counted and
/// reported with their place.
pub fn read(
    path: &Path,
    stream: &mut dyn BufRead,
    emit: &mut dyn FnMut(Record),
    warn: &mut dyn FnMut(String),
) -> Result<(), IndexError> {
    let mut line = String::new();
    let mut n = 0usize;
    loop {
        line.clear();
        n += 1;
        match stream.read_line(&mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                warn(format!("{}:{n}: not UTF-8, skipped", path.display()));
                continue;
            }
            Err(e) => return Err(input_error(path, format!("line {n}: {e}"))),
        }
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(&line) {
            Ok(v) => match record_of(&v) {
                Some(record) => emit(record),
                None => warn(format!(
                    "{}:{n}: not an OpenAlex work with a title, skipped",
                    path.display()
                )),
            },
            Err(e) => warn(format!("{}:{n}: not JSON ({e}), skipped", path.display())),
        }
    }
}
