//! A small relevance engine over the world: BM25-style scores over title, author, venue,
//! year and abstract tokens, plus a bonus for covering the whole title. Search services
//! return every scored hit in rank order (near-misses included), so the client's gate has
//! to do the real filtering, as it must against the real services.

use std::collections::{HashMap, HashSet};

use super::text::{content_tokens, fold, is_stop_word, tokens};
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

/// Token ids of one document, each list sorted (title also kept in order for phrases).
struct Doc {
    title: Vec<u32>,
    title_content: Vec<u32>,
    authors: Vec<u32>,
    venue: Vec<u32>,
    year: Option<u32>,
    abstract_tokens: Vec<u32>,
}

fn contains(sorted: &[u32], id: u32) -> bool {
    sorted.binary_search(&id).is_ok()
}

fn sorted_unique(mut ids: Vec<u32>) -> Vec<u32> {
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Tokens are interned to ids so that building the index over thousands of abstracts
/// allocates once per distinct word, not once per occurrence.
pub struct SearchIndex {
    vocab: HashMap<String, u32>,
    postings: Vec<Vec<u32>>,
    docs: Vec<Doc>,
    avg_title_len: f64,
}

impl SearchIndex {
    pub fn build(entries: &[Entry]) -> SearchIndex {
        let mut index = SearchIndex {
            vocab: HashMap::new(),
            postings: Vec::new(),
            docs: Vec::with_capacity(entries.len()),
            avg_title_len: 1.0,
        };
        for (i, e) in entries.iter().enumerate() {
            let w = &e.work;
            let title = index.intern_all(&w.title);
            let title_content = sorted_unique(
                index
                    .intern_all(&w.title)
                    .into_iter()
                    .zip(tokens(&w.title))
                    .filter(|(_, t)| !is_stop_word(t))
                    .map(|(id, _)| id)
                    .collect(),
            );
            let mut authors = Vec::new();
            for a in &w.authors {
                authors.extend(index.intern_all(&a.display_name()));
            }
            let authors = sorted_unique(authors);
            let venue = sorted_unique(
                w.venue
                    .as_deref()
                    .map(|v| index.intern_all(v))
                    .unwrap_or_default(),
            );
            let abstract_tokens = sorted_unique(
                w.abstract_text
                    .as_deref()
                    .map(|a| index.intern_all(a))
                    .unwrap_or_default(),
            );
            let year = w.year.map(|y| index.intern(&y.to_string()));
            let mut all: Vec<u32> = title.clone();
            all.extend(&authors);
            all.extend(&venue);
            all.extend(&abstract_tokens);
            all.extend(year);
            for id in sorted_unique(all) {
                index.postings[id as usize].push(i as u32);
            }
            index.docs.push(Doc {
                title,
                title_content,
                authors,
                venue,
                year,
                abstract_tokens,
            });
        }
        let total: usize = index.docs.iter().map(|d| d.title.len()).sum();
        index.avg_title_len = (total as f64 / index.docs.len().max(1) as f64).max(1.0);
        index
    }

    fn intern(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.vocab.get(token) {
            return id;
        }
        let id = self.postings.len() as u32;
        self.vocab.insert(token.to_string(), id);
        self.postings.push(Vec::new());
        id
    }

    fn intern_all(&mut self, text: &str) -> Vec<u32> {
        let folded = fold(text);
        folded
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
            .map(|t| self.intern(t))
            .collect()
    }

    fn id(&self, token: &str) -> Option<u32> {
        self.vocab.get(token).copied()
    }

    fn idf(&self, id: u32) -> f64 {
        let n = self.docs.len() as f64;
        let df = self.postings[id as usize].len() as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// Every document matching at least one term, best first, among those `accept` admits.
    pub fn rank(&self, terms: &[Term], accept: impl Fn(usize) -> bool) -> Vec<Hit> {
        let mut seen = HashSet::new();
        // Unknown tokens match nothing and add nothing.
        let terms: Vec<(u32, Fields)> = terms
            .iter()
            .filter_map(|t| self.id(&t.token).map(|id| (id, t.fields)))
            .filter(|&(id, f)| seen.insert((id, f.0)))
            .collect();
        let mut candidates: HashSet<u32> = HashSet::new();
        for &(id, _) in &terms {
            candidates.extend(self.postings[id as usize].iter().copied());
        }
        let title_query: Vec<u32> = sorted_unique(
            terms
                .iter()
                .filter(|(_, f)| f.has(Fields::TITLE))
                .map(|&(id, _)| id)
                .collect(),
        );
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

    fn score(&self, doc: usize, terms: &[(u32, Fields)], title_query: &[u32]) -> f64 {
        let d = &self.docs[doc];
        let (k1, b) = (1.2, 0.75);
        let len_norm = 1.0 - b + b * d.title.len() as f64 / self.avg_title_len;
        let mut score = 0.0;
        for &(id, fields) in terms {
            let idf = self.idf(id);
            if fields.has(Fields::TITLE) {
                let tf = d.title.iter().filter(|x| **x == id).count() as f64;
                if tf > 0.0 {
                    score += 2.0 * idf * tf * (k1 + 1.0) / (tf + k1 * len_norm);
                }
            }
            if fields.has(Fields::AUTHOR) && contains(&d.authors, id) {
                score += 1.2 * idf;
            }
            if fields.has(Fields::VENUE) && contains(&d.venue, id) {
                score += 0.6 * idf;
            }
            if fields.has(Fields::YEAR) && d.year == Some(id) {
                score += 1.5;
            }
            if fields.has(Fields::ABSTRACT) && contains(&d.abstract_tokens, id) {
                score += 0.3 * idf;
            }
        }
        if score > 0.0 && !d.title_content.is_empty() && !title_query.is_empty() {
            let covered = d
                .title_content
                .iter()
                .filter(|id| contains(title_query, **id))
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
            let Some(id) = self.id(&t.token) else {
                return false;
            };
            (t.fields.has(Fields::TITLE) && d.title.contains(&id))
                || (t.fields.has(Fields::AUTHOR) && contains(&d.authors, id))
                || (t.fields.has(Fields::VENUE) && contains(&d.venue, id))
                || (t.fields.has(Fields::YEAR) && d.year == Some(id))
                || (t.fields.has(Fields::ABSTRACT) && contains(&d.abstract_tokens, id))
        })
    }

    /// Whether the title contains these tokens contiguously.
    pub fn title_has_phrase(&self, doc: usize, phrase: &[String]) -> bool {
        let ids: Option<Vec<u32>> = phrase.iter().map(|t| self.id(t)).collect();
        let title = &self.docs[doc].title;
        match ids {
            Some(ids) if !ids.is_empty() => title.windows(ids.len()).any(|w| w == ids.as_slice()),
            _ => false,
        }
    }

    /// Dice coefficient of the content tokens of a title query and the document title.
    pub fn title_similarity(&self, doc: usize, query: &str) -> f64 {
        let q: HashSet<String> = content_tokens(query).into_iter().collect();
        let t = &self.docs[doc].title_content;
        if q.is_empty() || t.is_empty() {
            return 0.0;
        }
        let common = q
            .iter()
            .filter(|token| self.id(token).is_some_and(|id| contains(t, id)))
            .count() as f64;
        2.0 * common / (q.len() + t.len()) as f64
    }

    /// The documents among `held` that a fielded boolean clause matches: every word
    /// of `value` (every token of a `phrase`, contiguous in the title) in one of
    /// `fields` — PubMed's `value[tag]` and Europe PMC's `FIELD:value`. Its terms are
    /// added to `rank_terms`.
    pub fn fielded_clause(
        &self,
        held: &HashSet<usize>,
        value: &str,
        fields: Fields,
        phrase: bool,
        rank_terms: &mut Vec<Term>,
    ) -> HashSet<usize> {
        let required = if phrase {
            tokens(value)
        } else {
            content_tokens(value)
        };
        let terms: Vec<Term> = required
            .iter()
            .map(|t| Term {
                token: t.clone(),
                fields,
            })
            .collect();
        let found = self
            .candidates_all(&required)
            .into_iter()
            .filter(|i| held.contains(i))
            .filter(|&i| self.matches_all(i, &terms))
            .filter(|&i| !phrase || fields != Fields::TITLE || self.title_has_phrase(i, &required))
            .collect();
        rank_terms.extend(terms);
        found
    }

    /// Documents whose postings contain every token (candidates for boolean searches).
    pub fn candidates_all(&self, tokens: &[String]) -> Vec<usize> {
        let mut lists: Vec<&Vec<u32>> = Vec::new();
        for t in tokens {
            match self.id(t) {
                Some(id) => lists.push(&self.postings[id as usize]),
                None => return Vec::new(),
            }
        }
        lists.sort_by_key(|l| l.len());
        let Some((first, rest)) = lists.split_first() else {
            return Vec::new();
        };
        // Postings are sorted by document, so membership is a binary search.
        first
            .iter()
            .copied()
            .filter(|d| rest.iter().all(|l| l.binary_search(d).is_ok()))
            .map(|d| d as usize)
            .collect()
    }
}
