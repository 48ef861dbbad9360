//! The Crossref public data file: `*.json.gz` files, each one JSON object
//! `{"items": [work, …]}` (read item by item, never a whole file at once), or JSON
//! Lines of items (`*.jsonl.gz`, as snapshots from the Metadata Plus service come).
//! Items are read with the API client's parser; a notice's `update-to` entries name
//! the works it retracts or raises concern about, so retractions are known offline.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::input::input_error;
use super::{DumpSource, IndexError, Notice, NoticeKind, Record};
use crate::resolve::sources::crossref::{UpdateFlag, update_to, work_from_json};

pub fn is_dump_file(name: &str) -> bool {
    name.ends_with(".json.gz")
        || name.ends_with(".jsonl.gz")
        || name.ends_with(".json")
        || name.ends_with(".jsonl")
}

/// One item as a record. An item without a title still carries its notices.
pub fn record_of(v: &Value) -> Option<Record> {
    let work = work_from_json(v, DumpSource::Crossref.as_str());
    let key = work.doi.clone()?;
    let notices = update_to(v)
        .into_iter()
        .filter(|(doi, _)| *doi != key)
        .map(|(target_doi, flag)| Notice {
            target_doi,
            kind: match flag {
                UpdateFlag::Retracted => NoticeKind::Retraction,
                UpdateFlag::Concern => NoticeKind::Concern,
            },
        })
        .collect();
    let updated = v
        .pointer("/indexed/date-time")
        .and_then(Value::as_str)
        .map(str::to_string);
    Some(Record {
        source: DumpSource::Crossref,
        key,
        updated,
        work,
        notices,
    })
}

/// Read one file: `{"items": […]}` streamed item by item, or JSON Lines (`.jsonl`).
pub fn read(
    path: &Path,
    stream: &mut dyn BufRead,
    emit: &mut dyn FnMut(Record),
    warn: &mut dyn FnMut(String),
) -> Result<(), IndexError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let mut handle = |v: Value, warn: &mut dyn FnMut(String)| match record_of(&v) {
        Some(record) => emit(record),
        None => warn(format!(
            "{}: an item without a DOI, skipped",
            path.display()
        )),
    };
    if name.contains(".jsonl") {
        for (n, line) in stream.lines().enumerate() {
            let line = line.map_err(|e| input_error(path, format!("line {}: {e}", n + 1)))?;
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Value>(&line) {
                Ok(v) => handle(v, warn),
                Err(e) => warn(format!(
                    "{}:{}: not JSON ({e}), skipped",
                    path.display(),
                    n + 1
                )),
            }
        }
        return Ok(());
    }
    let mut de = serde_json::Deserializer::from_reader(stream);
    let mut items = 0usize;
    let result = ItemsFile {
        each: &mut |v: Value| {
            items += 1;
            handle(v, &mut *warn);
        },
    }
    .deserialize(&mut de);
    if let Err(e) = result {
        // What was read before the error is kept; the rest of the file is not.
        warn(format!(
            "{}: not a Crossref data file from item {} on ({e}); the rest of the file is skipped",
            path.display(),
            items + 1
        ));
    }
    Ok(())
}

/// `{"items": [...], …}` with every item handed to `each` as it is parsed.
struct ItemsFile<'a> {
    each: &'a mut dyn FnMut(Value),
}

impl<'de> DeserializeSeed<'de> for ItemsFile<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ItemsFile<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object with an `items` list")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "items" {
                map.next_value_seed(Items { each: self.each })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

struct Items<'a> {
    each: &'a mut dyn FnMut(Value),
}

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of Crossref works")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element::<Value>()? {
            (self.each)(item);
        }
        Ok(())
    }
}
