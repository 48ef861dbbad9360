//! The citable entries of a checked project, prepared once for matching what the
//! user types: each entry's key, its authors' family names and its title words,
//! lowercased without accents, per document and sorted by key. Built on the first
//! completion after a check and kept while that check is the current one, so a
//! keystroke in front of 10,000 entries costs a scan of short strings.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, Weak};

use unicode_normalization::UnicodeNormalization;

use crate::load::Project;
use crate::model::{Reference, ReferenceOrigin};

/// One citable entry of one document.
pub struct Indexed {
    /// Index of the document in the project, and of the entry in the document.
    pub doc: usize,
    pub reference: usize,
    key: String,
    names: Vec<String>,
    title: Vec<String>,
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

impl KeyIndex {
    pub fn build(project: &Project) -> KeyIndex {
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
                        key: fold(&r.key),
                        names: r
                            .fields
                            .authors
                            .iter()
                            .chain(&r.fields.editors)
                            .flat_map(|p| words(&p.family, |c| c == ' ' || c == '-'))
                            .collect(),
                        title: r
                            .fields
                            .title
                            .as_deref()
                            .map(|t| words(t, |c: char| !c.is_alphanumeric()))
                            .unwrap_or_default(),
                    })
                    .collect();
                entries.sort_by(|a, b| a.key.cmp(&b.key));
                entries
            })
            .collect();
        KeyIndex { per_doc }
    }

    pub fn entries(&self, doc: usize) -> &[Indexed] {
        self.per_doc.get(doc).map_or(&[], Vec::as_slice)
    }
}

/// How well an entry matches a folded prefix (lower is better), or `None`: its key
/// starts with it, an author's name does, a title word does, its key holds it.
pub fn rank(entry: &Indexed, prefix: &str) -> Option<u8> {
    if prefix.is_empty() || entry.key.starts_with(prefix) {
        return Some(0);
    }
    if entry.names.iter().any(|w| w.starts_with(prefix)) {
        return Some(1);
    }
    if entry.title.iter().any(|w| w.starts_with(prefix)) {
        return Some(2);
    }
    entry.key.contains(prefix).then_some(3)
}

/// The indexes of the last few checks asked for (a weak handle: a check that was
/// replaced is never matched again, even if its memory is reused).
static CACHE: Mutex<Vec<(Weak<Project>, Arc<KeyIndex>)>> = Mutex::new(Vec::new());

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Document, FileId, Person, RefFields, Span};

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
        assert_eq!(entries[0].key, "adams2001", "sorted by key");
        let r = &entries[1];
        assert_eq!(rank(r, "vas"), Some(0));
        assert_eq!(rank(r, "scholk"), Some(1));
        assert_eq!(rank(r, "atten"), Some(2));
        assert_eq!(rank(r, "2017"), Some(3));
        assert_eq!(rank(r, "zebra"), None);
        assert_eq!(rank(&entries[0], "smith"), Some(1));
        assert!(index.entries(5).is_empty());
    }
}
