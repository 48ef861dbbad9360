//! Support for the gate/compare benchmark test: the shared world of works, the
//! labelled reference cases, and small test-local readers for their BibTeX entries
//! and reference strings (the crate's own parsers are measured elsewhere).

pub mod bibtex;
pub mod refstring;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use citeproof::model::{Person, Work};
use serde_json::Value;

pub fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    dir.join("data/world/works.jsonl").exists().then_some(dir)
}

/// The world of works with lookups by id, DOI and arXiv id.
pub struct World {
    pub works: Vec<Work>,
    pub ids: Vec<String>,
    pub by_id: HashMap<String, usize>,
    pub by_doi: HashMap<String, usize>,
    pub by_arxiv: HashMap<String, usize>,
}

fn string(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

impl World {
    pub fn load(shared: &Path) -> World {
        let text =
            std::fs::read_to_string(shared.join("data/world/works.jsonl")).expect("works.jsonl");
        let mut world = World {
            works: Vec::new(),
            ids: Vec::new(),
            by_id: HashMap::new(),
            by_doi: HashMap::new(),
            by_arxiv: HashMap::new(),
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).expect("world line");
            let authors = v["authors"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|p| {
                            Person::new(p["given"].as_str(), p["family"].as_str().unwrap_or(""))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let work = Work {
                source: "world".into(),
                title: string(&v, "title").unwrap_or_default(),
                authors,
                year: v["year"].as_i64().map(|y| y as i32),
                venue: string(&v, "venue"),
                work_type: string(&v, "type"),
                doi: string(&v, "doi"),
                arxiv: string(&v, "arxiv"),
                pmid: string(&v, "pmid"),
                pmcid: string(&v, "pmcid"),
                is_retracted: v["is_retracted"].as_bool().unwrap_or(false),
                ..Work::default()
            };
            let index = world.works.len();
            let id = string(&v, "id").expect("world id");
            world.by_id.insert(id.clone(), index);
            if let Some(d) = &work.doi {
                world.by_doi.insert(d.to_lowercase(), index);
            }
            if let Some(a) = &work.arxiv {
                world.by_arxiv.insert(a.clone(), index);
            }
            world.ids.push(id);
            world.works.push(work);
        }
        world
    }

    pub fn get(&self, id: &str) -> Option<&Work> {
        self.by_id.get(id).map(|&i| &self.works[i])
    }
}

/// One labelled case of refs_dev.jsonl.
pub struct Case {
    pub case: String,
    pub input_kind: String,
    pub input: String,
    pub truth: String,
    pub error: Option<String>,
    pub world_id: Option<String>,
    pub fields_wrong: Vec<String>,
    pub note: String,
}

impl Case {
    pub fn style(&self) -> &str {
        self.note
            .strip_prefix("style=")
            .and_then(|s| s.split(';').next())
            .unwrap_or("")
    }

    /// A quoted value that follows `marker` in the note (`changed to '…'`).
    pub fn note_quote(&self, marker: &str) -> Option<String> {
        let rest = &self.note[self.note.find(marker)? + marker.len()..];
        let rest = rest.trim_start();
        let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let body = &rest[1..];
        let end = body
            .find(&format!("{quote} "))
            .or_else(|| body.rfind(quote))?;
        Some(body[..end].to_string())
    }
}

pub fn load_cases(shared: &Path) -> Vec<Case> {
    let text =
        std::fs::read_to_string(shared.join("bench/refs_dev.jsonl")).expect("refs_dev.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("case line");
            Case {
                case: string(&v, "case").unwrap_or_default(),
                input_kind: string(&v, "input_kind").unwrap_or_default(),
                input: string(&v, "input").unwrap_or_default(),
                truth: string(&v, "truth").unwrap_or_default(),
                error: string(&v, "error"),
                world_id: string(&v, "world_id"),
                fields_wrong: v["fields_wrong"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                note: string(&v, "note").unwrap_or_default(),
            }
        })
        .collect()
}
