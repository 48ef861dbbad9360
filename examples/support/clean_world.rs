//! Material for the labelled clean benchmark: the world's real works with abstracts
//! (split into two halves by id, one for the development set, one for the held-out
//! set), their nearest neighbours by TF-IDF over title and abstract (what a retriever
//! would return for one topic), and real LLM prose from ExpertQA answers with their
//! markers taken out (the uncited text between cited sentences).
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::path::Path;

use citeproof::parse::sentence::sentences;
use serde_json::Value;

/// One real work of the world.
#[derive(Debug, Clone)]
pub struct WorkRec {
    pub id: String,
    pub doi: Option<String>,
    pub pmcid: Option<String>,
    pub pmid: Option<String>,
    pub arxiv: Option<String>,
    pub title: String,
    /// (given, family)
    pub authors: Vec<(String, String)>,
    pub year: Option<i32>,
    pub venue: Option<String>,
    pub abstract_text: String,
    pub is_retracted: bool,
}

/// Works with a usable English abstract and a title no other work shares, of one
/// half of the world (`half` 0 or 1, by a hash of the id).
pub fn load_works(path: &Path, half: u64) -> Vec<WorkRec> {
    let text = std::fs::read_to_string(path).expect("world works.jsonl");
    let mut all: Vec<WorkRec> = Vec::new();
    let mut title_count: HashMap<String, usize> = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("world line");
        let s = |k: &str| v[k].as_str().map(str::to_string);
        let title = s("title").unwrap_or_default();
        *title_count.entry(normal_title(&title)).or_default() += 1;
        let authors = v["authors"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| {
                        (
                            p["given"].as_str().unwrap_or("").to_string(),
                            p["family"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        all.push(WorkRec {
            id: s("id").unwrap_or_default(),
            doi: s("doi"),
            pmcid: s("pmcid"),
            pmid: s("pmid"),
            arxiv: s("arxiv"),
            title,
            authors,
            year: v["year"].as_i64().map(|y| y as i32),
            venue: s("venue"),
            abstract_text: s("abstract").unwrap_or_default(),
            is_retracted: v["is_retracted"].as_bool().unwrap_or(false),
        });
    }
    all.into_iter()
        .filter(|w| title_count[&normal_title(&w.title)] == 1)
        .filter(usable)
        .filter(|w| hash(&w.id) % 2 == half)
        .collect()
}

fn normal_title(t: &str) -> String {
    t.to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// An English abstract long enough to cite from, a title of a few words, authors.
fn usable(w: &WorkRec) -> bool {
    let a = &w.abstract_text;
    let ascii = a.chars().filter(char::is_ascii).count() as f64 / a.chars().count().max(1) as f64;
    a.len() >= 400
        && ascii > 0.97
        && w.title.split_whitespace().count() >= 4
        && !w.authors.is_empty()
        && !w.title.to_lowercase().starts_with("retracted")
        && claim_sentences(a).len() >= 2
}

/// A stable hash (FNV-1a).
pub fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

/// Sentences of an abstract fit to be cited: 8–45 words, no brackets, URLs,
/// identifiers, author–year parentheticals, headings or first sentences that only
/// announce the paper.
pub fn claim_sentences(text: &str) -> Vec<String> {
    sentences(text)
        .into_iter()
        .map(|r| text[r].trim().to_string())
        .filter(|s| {
            let words = s.split_whitespace().count();
            let lower = s.to_lowercase();
            (8..=45).contains(&words)
                && !s.contains(['[', ']', '{', '}', '<', '>', '@', '|', '\\', '$'])
                && ![
                    "http",
                    "doi",
                    "arxiv",
                    "pmid",
                    "et al",
                    "www.",
                    "©",
                    "copyright",
                ]
                .iter()
                .any(|bad| lower.contains(bad))
                && !has_parenthesised_year(s)
                && !lower.starts_with("references")
                && s.ends_with('.')
                && !s.contains(':')
        })
        .collect()
}

/// A year inside parentheses (`(Smith, 2020)`): an author–year citation to keep out.
fn has_parenthesised_year(s: &str) -> bool {
    let mut rest = s;
    while let Some(open) = rest.find('(') {
        let inner = &rest[open + 1..];
        let close = inner.find(')').unwrap_or(inner.len());
        let year = inner[..close]
            .split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")));
        if year {
            return true;
        }
        rest = &inner[close.min(inner.len())..];
    }
    false
}

const STOP: &[&str] = &[
    "the", "of", "and", "in", "to", "a", "for", "on", "with", "is", "are", "we", "that", "this",
    "by", "as", "from", "an", "be", "at", "our", "or", "which", "these", "was", "were", "can",
    "it", "its", "has", "have", "not", "but", "also", "their", "than", "using", "based", "paper",
    "study", "results", "show", "new", "two", "such", "more",
];

fn terms(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2 && !STOP.contains(w))
        .map(str::to_string)
        .collect()
}

/// Each work's nearest neighbours (indices, most similar first) by the cosine of
/// TF-IDF vectors over title and abstract.
pub fn neighbours(works: &[WorkRec], k: usize) -> Vec<Vec<usize>> {
    let docs: Vec<HashMap<String, f64>> = works
        .iter()
        .map(|w| {
            let mut tf: HashMap<String, f64> = HashMap::new();
            for t in terms(&format!("{} {} {}", w.title, w.title, w.abstract_text)) {
                *tf.entry(t).or_default() += 1.0;
            }
            tf
        })
        .collect();
    let mut df: HashMap<&str, f64> = HashMap::new();
    for d in &docs {
        for t in d.keys() {
            *df.entry(t.as_str()).or_default() += 1.0;
        }
    }
    let n = docs.len() as f64;
    let vectors: Vec<HashMap<&str, f64>> = docs
        .iter()
        .map(|d| {
            let mut v: HashMap<&str, f64> = d
                .iter()
                .map(|(t, tf)| (t.as_str(), (1.0 + tf.ln()) * (n / df[t.as_str()]).ln()))
                .collect();
            let norm = v.values().map(|x| x * x).sum::<f64>().sqrt().max(1e-9);
            v.values_mut().for_each(|x| *x /= norm);
            v
        })
        .collect();
    // An inverted index keeps the pairwise products sparse.
    let mut postings: HashMap<&str, Vec<(usize, f64)>> = HashMap::new();
    for (i, v) in vectors.iter().enumerate() {
        for (t, x) in v {
            postings.entry(t).or_default().push((i, *x));
        }
    }
    vectors
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let mut scores: HashMap<usize, f64> = HashMap::new();
            for (t, x) in v {
                for (j, y) in &postings[t] {
                    if *j != i {
                        *scores.entry(*j).or_default() += x * y;
                    }
                }
            }
            let mut ranked: Vec<(usize, f64)> = scores.into_iter().collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            ranked.into_iter().take(k).map(|(j, _)| j).collect()
        })
        .collect()
}

/// Uncited sentences of ExpertQA answers (markers removed), 8–40 words.
pub fn expertqa_prose(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("ExpertQA answers");
    let mut out: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("ExpertQA line");
        let Some(answers) = v["answers"].as_object() else {
            continue;
        };
        for answer in answers.values() {
            let Some(body) = answer["answer_string"].as_str() else {
                continue;
            };
            for r in sentences(body) {
                let s = strip_markers(body[r].trim());
                let words = s.split_whitespace().count();
                let lower = s.to_lowercase();
                let clean = (8..=40).contains(&words)
                    && !s.contains(['[', ']', '*', '#', '\n', '(', ')', '`', '@', '<'])
                    && !lower.contains("http")
                    && !lower.contains("source")
                    && !lower.contains("reference")
                    && !lower.contains("context")
                    && s.ends_with('.');
                if clean && seen.insert(s.clone()) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// `text` without `[n]` markers and the spaces before them.
fn strip_markers(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']').map(|c| open + c);
        match close {
            Some(close)
                if rest[open + 1..close]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == ',' || c == ' ' || c == '-') =>
            {
                out.push_str(rest[..open].trim_end());
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}
