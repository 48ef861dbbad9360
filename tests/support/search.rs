//! A small relevance engine over the world: BM25-style scores over title, author, venue,
//! year and abstract tokens, plus a bonus for covering the whole title. Search services
//! return every scored hit in rank order (near-misses included), so the client's gate has
//! to do the real filtering, as it must against the real services.

use std::collections::{HashMap, HashSet};

use super::text::{content_tokens, tokens};
use super::world::Entry;

/// Which fields a query term may match (a bit set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields(u8);

impl Fields {
    pub const TITLE: Fields = Fields(1);
    pub const AUTHOR: Fields = Fields(2);
    pub const VENUE: Fields = Fields(4);
    pub const YEAR: Fields = Fields(8);
    pub const ABSTRACT: Fields = Fields(16);
    /// What a bibliographic reference string can match.
    pub const BIBLIOGRAPHIC: Fields = Fields(1 | 2 | 4 | 8);
    pub const ALL: Fields = Fields(31);

    pub fn has(self, other: Fields) -> bool {
        self.0 & other.0 != 0
    }

    pub fn union(self, other: Fields) -> Fields {
        Fields(self.0 | other.0)
    }
}

/// One query token and the fields it may match.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub token: String,
    pub fields: Fields,
}

/// Terms for every token of a free-text query.
pub fn terms(text: &str, fields: Fields) -> Vec<Term> {
    tokens(text)
        .into_iter()
        .map(|token| Term { token, fields })
        .collect()
}

#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub entry: usize,
    pub score: f64,
}

struct Doc {
    title: Vec<String>,
    title_content: HashSet<String>,
    authors: HashSet<String>,
    venue: HashSet<String>,
    year: Option<String>,
    abstract_tokens: HashSet<String>,
}

pub struct SearchIndex {
    docs: Vec<Doc>,
    postings: HashMap<String, Vec<u32>>,
    avg_title_len: f64,
}

impl SearchIndex {
    pub fn build(entries: &[Entry]) -> SearchIndex {
        let mut docs = Vec::with_capacity(entries.len());
        let mut postings: HashMap<String, Vec<u32>> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            let w = &e.work;
            let title = tokens(&w.title);
            let authors: HashSet<String> = w
                .authors
                .iter()
                .flat_map(|a| tokens(&a.display_name()))
                .collect();
            let venue: HashSet<String> = w
                .venue
                .as_deref()
                .map(tokens)
                .unwrap_or_default()
                .into_iter()
                .collect();
            let abstract_tokens: HashSet<String> = w
                .abstract_text
                .as_deref()
                .map(tokens)
                .unwrap_or_default()
                .into_iter()
                .collect();
            let year = w.year.map(|y| y.to_string());
            let mut all: HashSet<&String> = title.iter().collect();
            all.extend(authors.iter());
            all.extend(venue.iter());
            all.extend(abstract_tokens.iter());
            all.extend(year.iter());
            for t in all {
                postings.entry(t.clone()).or_default().push(i as u32);
            }
            docs.push(Doc {
                title_content: content_tokens(&w.title).into_iter().collect(),
                title,
                authors,
                venue,
                year,
                abstract_tokens,
            });
        }
        let total: usize = docs.iter().map(|d| d.title.len()).sum();
        let avg_title_len = (total as f64 / docs.len().max(1) as f64).max(1.0);
        SearchIndex {
            docs,
            postings,
            avg_title_len,
        }
    }

    fn idf(&self, token: &str) -> f64 {
        let n = self.docs.len() as f64;
        let df = self.postings.get(token).map_or(0, Vec::len) as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// Every document matching at least one term, best first, among those `accept` admits.
    pub fn rank(&self, terms: &[Term], accept: impl Fn(usize) -> bool) -> Vec<Hit> {
        let mut seen = HashSet::new();
        let terms: Vec<&Term> = terms
            .iter()
            .filter(|t| seen.insert((t.token.clone(), t.fields.0)))
            .collect();
        let mut candidates: HashSet<u32> = HashSet::new();
        for t in &terms {
            if let Some(list) = self.postings.get(&t.token) {
                candidates.extend(list.iter().copied());
            }
        }
        let title_query: HashSet<&str> = terms
            .iter()
            .filter(|t| t.fields.has(Fields::TITLE))
            .map(|t| t.token.as_str())
            .collect();
        let mut hits: Vec<Hit> = candidates
            .into_iter()
            .map(|c| c as usize)
            .filter(|&c| accept(c))
            .filter_map(|c| {
                let score = self.score(c, &terms, &title_query);
                (score > 0.0).then_some(Hit { entry: c, score })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.entry.cmp(&b.entry)));
        hits
    }

    fn score(&self, doc: usize, terms: &[&Term], title_query: &HashSet<&str>) -> f64 {
        let d = &self.docs[doc];
        let (k1, b) = (1.2, 0.75);
        let len_norm = 1.0 - b + b * d.title.len() as f64 / self.avg_title_len;
        let mut score = 0.0;
        for t in terms {
            let idf = self.idf(&t.token);
            if t.fields.has(Fields::TITLE) {
                let tf = d.title.iter().filter(|x| **x == t.token).count() as f64;
                if tf > 0.0 {
                    score += 2.0 * idf * tf * (k1 + 1.0) / (tf + k1 * len_norm);
                }
            }
            if t.fields.has(Fields::AUTHOR) && d.authors.contains(&t.token) {
                score += 1.2 * idf;
            }
            if t.fields.has(Fields::VENUE) && d.venue.contains(&t.token) {
                score += 0.6 * idf;
            }
            if t.fields.has(Fields::YEAR) && d.year.as_deref() == Some(t.token.as_str()) {
                score += 1.5;
            }
            if t.fields.has(Fields::ABSTRACT) && d.abstract_tokens.contains(&t.token) {
                score += 0.3 * idf;
            }
        }
        if score > 0.0 && !d.title_content.is_empty() && !title_query.is_empty() {
            let covered = d
                .title_content
                .iter()
                .filter(|t| title_query.contains(t.as_str()))
                .count() as f64;
            let coverage = covered / d.title_content.len() as f64;
            score += 6.0 * coverage * coverage;
        }
        score
    }

    /// Whether every term occurs in one of its fields (boolean AND search).
    pub fn matches_all(&self, doc: usize, terms: &[Term]) -> bool {
        let d = &self.docs[doc];
        terms.iter().all(|t| {
            (t.fields.has(Fields::TITLE) && d.title.contains(&t.token))
                || (t.fields.has(Fields::AUTHOR) && d.authors.contains(&t.token))
                || (t.fields.has(Fields::VENUE) && d.venue.contains(&t.token))
                || (t.fields.has(Fields::YEAR) && d.year.as_deref() == Some(t.token.as_str()))
                || (t.fields.has(Fields::ABSTRACT) && d.abstract_tokens.contains(&t.token))
        })
    }

    /// Whether the title contains these tokens contiguously.
    pub fn title_has_phrase(&self, doc: usize, phrase: &[String]) -> bool {
        let title = &self.docs[doc].title;
        !phrase.is_empty() && title.windows(phrase.len()).any(|w| w == phrase)
    }

    /// Dice coefficient of the content tokens of a title query and the document title.
    pub fn title_similarity(&self, doc: usize, query: &str) -> f64 {
        let q: HashSet<String> = content_tokens(query).into_iter().collect();
        let t = &self.docs[doc].title_content;
        if q.is_empty() || t.is_empty() {
            return 0.0;
        }
        let common = q.intersection(t).count() as f64;
        2.0 * common / (q.len() + t.len()) as f64
    }

    /// Documents whose postings contain every token (candidates for boolean searches).
    pub fn candidates_all(&self, tokens: &[String]) -> Vec<usize> {
        let mut lists: Vec<&Vec<u32>> = Vec::new();
        for t in tokens {
            match self.postings.get(t) {
                Some(list) => lists.push(list),
                None => return Vec::new(),
            }
        }
        lists.sort_by_key(|l| l.len());
        let Some((first, rest)) = lists.split_first() else {
            return Vec::new();
        };
        let sets: Vec<HashSet<u32>> = rest.iter().map(|l| l.iter().copied().collect()).collect();
        first
            .iter()
            .copied()
            .filter(|d| sets.iter().all(|s| s.contains(d)))
            .map(|d| d as usize)
            .collect()
    }
}
