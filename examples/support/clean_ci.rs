//! Labelled answers whose citing sentences are human paraphrase: Citation-Integrity
//! claims (sentences of papers citing one of 100 cited papers, markers removed), each
//! source a cited paper's evidence excerpt (the sentences of its full text the claim
//! rests on). The "field" of a cited paper is read from its excerpts: the papers
//! nearest to it by TF-IDF over all of their excerpts in the split.
//!
//! An answer is built around one cited paper A, with its two nearest papers and one
//! far paper (not among A's five nearest) as sources, one excerpt each. Labels:
//!
//! - `valid`: a claim cited with the source holding its own excerpt;
//! - `mismatch_hard`: another claim of a topical paper cited with the source of a
//!   paper of the same field (one of the cited paper's three nearest), its own paper
//!   among the sources or, now and then, absent;
//! - `mismatch_easy`: the same with a paper of another field.
//!
//! Only claims labelled ACCURATE with an evidence excerpt are used (a NOT_ACCURATE
//! citation of the right paper is neither a valid citation nor a mismatch here).
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use super::clean_gen::{Case, Kind, Label};
use super::verify_data::strip_markers;

/// One usable claim: its text and its excerpt.
#[derive(Debug, Clone)]
struct Claim {
    text: String,
    doc: u64,
    excerpt: String,
}

pub struct CiGenerator {
    /// Claims per cited paper (block of a thousand document ids).
    papers: Vec<Vec<Claim>>,
    /// Each paper's other papers, nearest first.
    nearest: Vec<Vec<usize>>,
    rng: StdRng,
}

fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

impl CiGenerator {
    /// The claims of `split` (`train` or `dev`; never `test`) from `dir`
    /// (`claim_verification/citation_integrity`).
    pub fn new(dir: &Path, split: &str, seed: u64) -> CiGenerator {
        assert!(
            matches!(split, "train" | "dev"),
            "Citation-Integrity answers are built from train or dev only"
        );
        let corpus: HashMap<u64, String> = read_jsonl(&dir.join("corpus.jsonl"))
            .iter()
            .map(|d| {
                let sentences: Vec<&str> = d["abstract"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                (
                    d["doc_id"].as_u64().unwrap_or_default(),
                    sentences.join(" "),
                )
            })
            .collect();
        let mut by_paper: BTreeMap<u64, Vec<Claim>> = BTreeMap::new();
        for claim in read_jsonl(&dir.join(format!("claims_{split}.jsonl"))) {
            let text = strip_markers(claim["claim"].as_str().unwrap_or_default());
            let Some(evidence) = claim["evidence"].as_object() else {
                continue;
            };
            for (doc, sets) in evidence {
                let accurate = sets
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|s| s["label"] == "ACCURATE");
                let Ok(doc) = doc.parse::<u64>() else {
                    continue;
                };
                let Some(excerpt) = corpus.get(&doc).filter(|e| !e.trim().is_empty()) else {
                    continue;
                };
                if accurate && text.split_whitespace().count() >= 6 {
                    by_paper.entry(doc / 1000).or_default().push(Claim {
                        text: text.clone(),
                        doc,
                        excerpt: excerpt.clone(),
                    });
                }
            }
        }
        let papers: Vec<Vec<Claim>> = by_paper.into_values().filter(|c| c.len() >= 3).collect();
        let nearest = nearest_papers(&papers);
        CiGenerator {
            papers,
            nearest,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    pub fn papers(&self) -> usize {
        self.papers.len()
    }

    fn pick(&mut self, paper: usize, not: Option<u64>) -> Claim {
        let choices: Vec<&Claim> = self.papers[paper]
            .iter()
            .filter(|c| Some(c.doc) != not)
            .collect();
        (*choices.choose(&mut self.rng).expect("a claim")).clone()
    }

    /// Whether `b` is of `a`'s field: one of its three nearest papers.
    fn same_field(&self, a: usize, b: usize) -> bool {
        self.nearest[a].iter().take(3).any(|&x| x == b)
    }

    /// One labelled answer.
    pub fn case(&mut self, id: String) -> Case {
        let anchor = self.rng.random_range(0..self.papers.len());
        let near: Vec<usize> = self.nearest[anchor].iter().copied().take(2).collect();
        let far_choices: Vec<usize> = self.nearest[anchor].iter().copied().skip(5).collect();
        let far = *far_choices.choose(&mut self.rng).expect("a far paper");
        let mut papers: Vec<usize> = vec![anchor, near[0], near[1], far];
        papers.shuffle(&mut self.rng);
        let excerpts: Vec<Claim> = papers.iter().map(|&p| self.pick(p, None)).collect();
        let number_of = |paper: usize| papers.iter().position(|&p| p == paper).expect("source") + 1;
        // (sentence, cited paper, kind)
        let mut sentences: Vec<(String, usize, Kind)> = Vec::new();
        for (k, &p) in papers.iter().enumerate() {
            if p != far || self.rng.random_bool(0.4) {
                sentences.push((excerpts[k].text.clone(), p, Kind::Valid));
            }
        }
        let topical = [anchor, near[0], near[1]];
        for _ in 0..2 {
            // A claim of a topical paper, or now and then of a paper not among the
            // sources, cited with a source of the same field or of another.
            let own = if self.rng.random_bool(0.8) {
                *topical.choose(&mut self.rng).expect("topical")
            } else {
                self.outsider(&papers)
            };
            let shown = papers
                .iter()
                .position(|&p| p == own)
                .map(|k| excerpts[k].doc);
            let claim = self.pick(own, shown);
            let others: Vec<usize> = papers.iter().copied().filter(|&p| p != own).collect();
            let hard: Vec<usize> = others
                .iter()
                .copied()
                .filter(|&p| self.same_field(own, p))
                .collect();
            let easy: Vec<usize> = others
                .iter()
                .copied()
                .filter(|&p| !self.same_field(own, p))
                .collect();
            let want_hard = self.rng.random_bool(0.5);
            let (cited, kind) = match (
                want_hard,
                hard.choose(&mut self.rng),
                easy.choose(&mut self.rng),
            ) {
                (true, Some(&h), _) | (false, Some(&h), None) => (h, Kind::MismatchHard),
                (_, _, Some(&e)) => (e, Kind::MismatchEasy),
                (_, None, None) => continue,
            };
            sentences.push((claim.text, cited, kind));
        }
        sentences.shuffle(&mut self.rng);
        let mut answer = String::new();
        let mut labels = Vec::new();
        for (text, paper, kind) in sentences {
            if !answer.is_empty() {
                answer.push(' ');
            }
            let body = text
                .trim()
                .trim_end_matches(['.', ';', ',', ':'])
                .trim_end();
            answer.push_str(body);
            answer.push(' ');
            let n = number_of(paper) as u32;
            let start = answer.len();
            answer.push_str(&format!("[{n}]"));
            labels.push(Label {
                span: [start, answer.len()],
                number: n,
                kind,
                work: Some(format!("ci-{}", self.papers[paper][0].doc / 1000)),
            });
            answer.push('.');
        }
        answer.push('\n');
        let sources = excerpts
            .iter()
            .map(|c| json!({"doi": format!("10.5555/ci.{}", c.doc), "abstract": c.excerpt}))
            .collect();
        Case {
            id,
            answer,
            sources,
            labels,
            decoys: Vec::new(),
        }
    }

    fn outsider(&mut self, papers: &[usize]) -> usize {
        loop {
            let p = self.rng.random_range(0..self.papers.len());
            if !papers.contains(&p) {
                return p;
            }
        }
    }
}

/// Each paper's others, nearest first, by cosine similarity of TF-IDF vectors over
/// all its excerpts.
fn nearest_papers(papers: &[Vec<Claim>]) -> Vec<Vec<usize>> {
    let bags: Vec<HashMap<String, f64>> = papers
        .iter()
        .map(|claims| {
            let mut seen = std::collections::HashSet::new();
            let mut bag = HashMap::new();
            for c in claims.iter().filter(|c| seen.insert(c.doc)) {
                for t in citeproof::verify::text::terms(&c.excerpt) {
                    *bag.entry(t).or_insert(0.0) += 1.0;
                }
            }
            bag
        })
        .collect();
    let mut df: HashMap<&str, f64> = HashMap::new();
    for bag in &bags {
        for t in bag.keys() {
            *df.entry(t).or_insert(0.0) += 1.0;
        }
    }
    let n = bags.len() as f64;
    let vectors: Vec<HashMap<&str, f64>> = bags
        .iter()
        .map(|bag| {
            let mut v: HashMap<&str, f64> = bag
                .iter()
                .map(|(t, tf)| (t.as_str(), (1.0 + tf.ln()) * (n / df[t.as_str()]).ln()))
                .collect();
            let norm = v.values().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
            v.values_mut().for_each(|x| *x /= norm);
            v
        })
        .collect();
    (0..vectors.len())
        .map(|a| {
            let mut others: Vec<(usize, f64)> = (0..vectors.len())
                .filter(|&b| b != a)
                .map(|b| {
                    let dot = vectors[a]
                        .iter()
                        .filter_map(|(t, x)| vectors[b].get(t).map(|y| x * y))
                        .sum::<f64>();
                    (b, dot)
                })
                .collect();
            others.sort_by(|x, y| y.1.total_cmp(&x.1));
            others.into_iter().map(|(b, _)| b).collect()
        })
        .collect()
}
