//! The citable entries of a checked project, prepared once for matching what the
//! user types: each entry's key, its authors' family names and its title words,
//! lowercased without accents, per document and sorted by key. Built on the first
//! completion after a check and kept while that check is the current one, so a
//! keystroke in front of 10,000 entries costs a scan of short strings.
//!
//! Each entry's prepared words are kept across checks by what they are made of
//! (key, names, title): after a keystroke, in the paper or in one entry of the
//! bibliography, only entries whose words changed are prepared again; the others
//! are shared with the previous index.

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, Weak};

use unicode_normalization::UnicodeNormalization;

use crate::load::Project;
use crate::model::{Reference, ReferenceOrigin};

/// One citable entry of one document.
pub struct Indexed {
    /// Index of the document in the project, and of the entry in the document.
    pub doc: usize,
    pub reference: usize,
    words: Arc<Words>,
}

/// An entry's words as matched, and what they were made of.
struct Words {
    key: String,
    names: Vec<String>,
    title: Vec<String>,
    made_of: MadeOf,
}

/// What an entry's words are made of.
#[derive(PartialEq)]
struct MadeOf {
    key: String,
    families: Vec<String>,
    title: Option<String>,
}

impl MadeOf {
    /// Whether `reference` is made of the same.
    fn matches(&self, reference: &Reference) -> bool {
        self.key == reference.key
            && self.title == reference.fields.title
            && self
                .families
                .iter()
                .map(String::as_str)
                .eq(families(reference))
    }
}

fn families(reference: &Reference) -> impl Iterator<Item = &str> {
    reference
        .fields
        .authors
        .iter()
        .chain(&reference.fields.editors)
        .map(|p| p.family.as_str())
}

/// Per document of a project: its citable entries, one per key, sorted by key.
pub struct KeyIndex {
    per_doc: Vec<Vec<Indexed>>,
}

/// Lowercase without accents: `Schölkopf` matches `scholkopf`.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.nfd()
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
        .flat_map(char::to_lowercase)
        .collect()
}

fn words(text: &str, split: impl Fn(char) -> bool) -> Vec<String> {
    let mut out: Vec<String> = fold(text)
        .split(split)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

fn citable(reference: &Reference) -> bool {
    matches!(
        reference.origin,
        ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson | ReferenceOrigin::BibItem
    )
}

fn prepare(reference: &Reference) -> Words {
    Words::new(
        &reference.key,
        families(reference),
        reference.fields.title.as_deref(),
    )
}

impl Words {
    fn new<'f>(key: &str, families: impl Iterator<Item = &'f str>, title: Option<&str>) -> Words {
        let families: Vec<String> = families.map(str::to_string).collect();
        Words {
            key: fold(key),
            names: families
                .iter()
                .flat_map(|f| words(f, |c| c == ' ' || c == '-'))
                .collect(),
            title: title
                .map(|t| words(t, |c: char| !c.is_alphanumeric()))
                .unwrap_or_default(),
            made_of: MadeOf {
                key: key.to_string(),
                families,
                title: title.map(str::to_string),
            },
        }
    }

    fn rank(&self, prefix: &str) -> Option<u8> {
        if prefix.is_empty() || self.key.starts_with(prefix) {
            return Some(0);
        }
        if self.names.iter().any(|w| w.starts_with(prefix)) {
            return Some(1);
        }
        if self.title.iter().any(|w| w.starts_with(prefix)) {
            return Some(2);
        }
        self.key.contains(prefix).then_some(3)
    }
}

/// The words of something citable that is no bibliography entry (an item of the
/// user's Zotero library), matched as entries are.
pub struct Matchable(Words);

impl Matchable {
    pub fn new(key: &str, families: &[&str], title: Option<&str>) -> Matchable {
        Matchable(Words::new(key, families.iter().copied(), title))
    }

    /// As [`rank`].
    pub fn rank(&self, prefix: &str) -> Option<u8> {
        self.0.rank(prefix)
    }

    /// The key, folded as [`KeyIndex::defines`] takes it.
    pub fn folded_key(&self) -> &str {
        &self.0.key
    }
}

/// Prepared words by a hash of what they are made of (the entries of the last
/// index built: an entry that went away is forgotten with the next build).
#[derive(Default)]
struct Prepared {
    by_hash: HashMap<u64, Vec<Arc<Words>>>,
}

fn made_of_hash(reference: &Reference) -> u64 {
    let mut hasher = DefaultHasher::new();
    reference.key.hash(&mut hasher);
    reference.fields.title.hash(&mut hasher);
    for family in families(reference) {
        family.hash(&mut hasher);
    }
    hasher.finish()
}

impl Prepared {
    /// The words of `reference`: the kept ones when made of the same, else new;
    /// noted in `next`.
    fn words(&self, reference: &Reference, next: &mut Prepared) -> Arc<Words> {
        let hash = made_of_hash(reference);
        let kept = self
            .by_hash
            .get(&hash)
            .and_then(|list| list.iter().find(|w| w.made_of.matches(reference)));
        let words = match kept {
            Some(words) => Arc::clone(words),
            None => Arc::new(prepare(reference)),
        };
        let list = next.by_hash.entry(hash).or_default();
        if !list.iter().any(|w| Arc::ptr_eq(w, &words)) {
            list.push(Arc::clone(&words));
        }
        words
    }
}

impl KeyIndex {
    pub fn build(project: &Project) -> KeyIndex {
        let kept = PREPARED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_default();
        let mut next = Prepared::default();
        let index = KeyIndex::build_with(project, &kept, &mut next);
        *PREPARED.lock().unwrap_or_else(|e| e.into_inner()) = Some(next);
        index
    }

    fn build_with(project: &Project, kept: &Prepared, next: &mut Prepared) -> KeyIndex {
        let per_doc = project
            .documents
            .iter()
            .enumerate()
            .map(|(d, doc)| {
                let mut seen: HashSet<&str> = HashSet::new();
                let mut entries: Vec<Indexed> = doc
                    .references
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| citable(r) && seen.insert(&r.key))
                    .map(|(i, r)| Indexed {
                        doc: d,
                        reference: i,
                        words: kept.words(r, next),
                    })
                    .collect();
                entries.sort_by(|a, b| a.words.key.cmp(&b.words.key));
                entries
            })
            .collect();
        KeyIndex { per_doc }
    }

    pub fn entries(&self, doc: usize) -> &[Indexed] {
        self.per_doc.get(doc).map_or(&[], Vec::as_slice)
    }

    /// Whether document `doc` has an entry whose key, folded, is `folded`.
    pub fn defines(&self, doc: usize, folded: &str) -> bool {
        self.entries(doc)
            .binary_search_by(|e| e.words.key.as_str().cmp(folded))
            .is_ok()
    }
}

/// How well an entry matches a folded prefix (lower is better), or `None`: its key
/// starts with it, an author's name does, a title word does, its key holds it.
pub fn rank(entry: &Indexed, prefix: &str) -> Option<u8> {
    entry.words.rank(prefix)
}

/// The indexes of the last few checks asked for (a weak handle: a check that was
/// replaced is never matched again, even if its memory is reused).
static CACHE: Mutex<Vec<(Weak<Project>, Arc<KeyIndex>)>> = Mutex::new(Vec::new());

/// The entries' prepared words, kept from one index to the next.
static PREPARED: Mutex<Option<Prepared>> = Mutex::new(None);

/// How many projects' indexes are kept.
const KEPT: usize = 8;

/// The index of a checked project, built on first use.
pub fn index_of(project: &Arc<Project>) -> Arc<KeyIndex> {
    let weak = Arc::downgrade(project);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|(p, _)| p.strong_count() > 0);
    if let Some((_, index)) = cache.iter().find(|(p, _)| p.ptr_eq(&weak)) {
        return index.clone();
    }
    let index = Arc::new(KeyIndex::build(project));
    if cache.len() == KEPT {
        cache.remove(0);
    }
    cache.push((weak, index.clone()));
    index
}

/// Take the index of `project` out of the cache (its weak handle would keep the
/// project from being changed in place); give it back with [`restore`].
pub fn take(project: &Arc<Project>) -> Option<Arc<KeyIndex>> {
    let weak = Arc::downgrade(project);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let at = cache.iter().position(|(p, _)| p.ptr_eq(&weak))?;
    Some(cache.remove(at).1)
}

/// Keep `index` as the index of `project` again: its entries are the same (a
/// change that only moved places in a document, see `moved.rs`).
pub fn restore(project: &Arc<Project>, index: Arc<KeyIndex>) {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() == KEPT {
        cache.remove(0);
    }
    cache.push((Arc::downgrade(project), index));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::model::{FileId, Person, RefFields, Span};

    fn entry(key: &str, family: &str, title: &str) -> Reference {
        Reference {
            key: key.into(),
            origin: ReferenceOrigin::BibEntry,
            entry_type: Some("article".into()),
            file: FileId(0),
            span: Span::new(0, 1),
            key_span: None,
            raw: String::new(),
            fields: RefFields {
                title: Some(title.into()),
                authors: vec![Person::new(Some("A."), family)],
                ..RefFields::default()
            },
            field_spans: Vec::new(),
        }
    }

    #[test]
    fn ranks_key_then_authors_then_title_words() {
        let project = Arc::new(Project {
            documents: vec![Document {
                references: vec![
                    entry("vaswani2017", "Schölkopf", "Attention is all you need"),
                    entry("vaswani2017", "Other", "A duplicate key, left out"),
                    entry("adams2001", "Adams-Smith", "Zebras"),
                ],
                ..Document::default()
            }],
            ..Project::default()
        });
        let index = index_of(&project);
        assert!(Arc::ptr_eq(&index, &index_of(&project)), "built once");
        let entries = index.entries(0);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].words.key, "adams2001", "sorted by key");
        let r = &entries[1];
        assert_eq!(rank(r, "vas"), Some(0));
        assert_eq!(rank(r, "scholk"), Some(1));
        assert_eq!(rank(r, "atten"), Some(2));
        assert_eq!(rank(r, "2017"), Some(3));
        assert_eq!(rank(r, "zebra"), None);
        assert_eq!(rank(&entries[0], "smith"), Some(1));
        assert!(index.entries(5).is_empty());
        assert!(index.defines(0, "adams2001"));
        assert!(!index.defines(0, "adams200"));
        let zotero = Matchable::new("nash1950", &["Nash"], Some("Equilibrium points"));
        assert_eq!(zotero.rank("nas"), Some(0));
        assert_eq!(zotero.rank("equi"), Some(2));
        assert_eq!(zotero.rank("zebra"), None);
    }

    #[test]
    fn a_rebuild_prepares_only_the_entries_that_changed() {
        let project = |title_b: &str| Project {
            documents: vec![Document {
                references: vec![
                    entry("a2001", "Adams", "Zebras"),
                    entry("b2002", "Brown", title_b),
                    entry("c2003", "Cohen", "Yaks"),
                ],
                ..Document::default()
            }],
            ..Project::default()
        };
        let kept = Prepared::default();
        let mut first = Prepared::default();
        let before = KeyIndex::build_with(&project("Lions"), &kept, &mut first);
        let mut second = Prepared::default();
        let after = KeyIndex::build_with(&project("Tigers roar"), &first, &mut second);
        let (old, new) = (before.entries(0), after.entries(0));
        assert!(Arc::ptr_eq(&old[0].words, &new[0].words), "a2001 is shared");
        assert!(Arc::ptr_eq(&old[2].words, &new[2].words), "c2003 is shared");
        assert!(!Arc::ptr_eq(&old[1].words, &new[1].words), "b2002 is new");
        assert_eq!(new[1].words.title, vec!["roar", "tigers"]);
        assert_eq!(rank(&new[1], "tig"), Some(2));
        assert_eq!(rank(&new[1], "lio"), None);
        // What the next build keeps is what this one used.
        let used: usize = second.by_hash.values().map(Vec::len).sum();
        assert_eq!(used, 3);
    }
}
