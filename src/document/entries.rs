//! What is derived from a document's references as read (before linking appends
//! the inline ones): their keys for linking, the findings of the entries on their
//! own (duplicates, missing fields …) and their content keys. Made once and kept
//! with the document while those references do not change, so a keystroke in a
//! paper does not index its 10,000-entry bibliography again. Whoever moves or
//! changes the references of a file moves it along ([`EntriesMemo::move_places`])
//! or forgets it.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Reference, ReferenceOrigin};

/// The kept [`Entries`] of a document, if any.
#[derive(Clone, Default)]
pub struct EntriesMemo(Option<Arc<Entries>>);

/// A cache says nothing about the document: two documents read alike print alike,
/// whether or not one of them was indexed already.
impl fmt::Debug for EntriesMemo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EntriesMemo")
    }
}

/// The index of a document's first `count` references.
#[derive(Debug)]
pub struct Entries {
    count: usize,
    /// The files those references were read from: an edit of another file leaves
    /// them as they are.
    files: Vec<FileId>,
    /// The first reference under each key (the first definition wins, as in BibTeX).
    pub by_key: Arc<HashMap<String, usize>>,
    /// The same, under the key in lower case.
    pub by_folded_key: Arc<HashMap<String, usize>>,
    /// The findings of these references on their own, made by the rules on first use.
    pub findings: OnceLock<Vec<Diagnostic>>,
    /// The finding each of them gets when nothing cites it, made on first use
    /// (shared: moving the index copies only those in the edited file).
    pub uncited: OnceLock<Vec<Option<Arc<Diagnostic>>>>,
    /// Their [`Reference::content_key`]s, made on first use.
    content_keys: OnceLock<Arc<Vec<u64>>>,
}

impl Entries {
    /// Index `references`.
    pub fn new(references: &[Reference]) -> Entries {
        let mut by_key = HashMap::with_capacity(references.len());
        let mut files = Vec::new();
        for (i, reference) in references.iter().enumerate() {
            by_key.entry(reference.key.clone()).or_insert(i);
            if !files.contains(&reference.file) {
                files.push(reference.file);
            }
        }
        Entries {
            count: references.len(),
            files,
            by_key: Arc::new(by_key),
            by_folded_key: Arc::new(folded_keys(references)),
            findings: OnceLock::new(),
            uncited: OnceLock::new(),
            content_keys: OnceLock::new(),
        }
    }

    /// The content keys of `references`, the ones indexed.
    pub fn content_keys(&self, references: &[Reference]) -> &[u64] {
        self.content_keys
            .get_or_init(|| Arc::new(references.iter().map(Reference::content_key).collect()))
    }

    /// How many references it indexes: the document's first ones.
    pub fn count(&self) -> usize {
        self.count
    }
}

/// Keys in lower case → the first reference with that key.
pub fn folded_keys(references: &[Reference]) -> HashMap<String, usize> {
    let mut out = HashMap::with_capacity(references.len());
    for (i, reference) in references.iter().enumerate() {
        out.entry(reference.key.to_lowercase()).or_insert(i);
    }
    out
}

/// A copy of a list made on first use, moved by `move_all` (`None` when a place
/// could not move).
fn moved<T: Clone>(
    list: &OnceLock<Vec<T>>,
    move_all: impl FnOnce(&mut Vec<T>) -> bool,
) -> Option<OnceLock<Vec<T>>> {
    let out = OnceLock::new();
    if let Some(old) = list.get() {
        let mut copy = old.clone();
        if !move_all(&mut copy) {
            return None;
        }
        let _ = out.set(copy);
    }
    Some(out)
}

impl EntriesMemo {
    /// The index of `references`, a document's before linking (no inline ones):
    /// the kept one, or one made now and kept.
    pub fn of(&mut self, references: &[Reference]) -> Arc<Entries> {
        if let Some(kept) = self.0.as_ref().filter(|e| e.count == references.len()) {
            return Arc::clone(kept);
        }
        let made = Arc::new(Entries::new(references));
        self.0 = Some(Arc::clone(&made));
        made
    }

    /// The kept index, if it still describes `references` (the document's, after
    /// linking: its references as read, then only inline ones).
    pub fn kept(&self, references: &[Reference]) -> Option<&Entries> {
        let kept = self.0.as_deref()?;
        let read_only = match references.get(kept.count) {
            None => references.len() == kept.count,
            Some(next) => next.origin == ReferenceOrigin::Inline,
        };
        read_only.then_some(kept)
    }

    /// Follow an edit of `file` that moves its references without changing them:
    /// the keys stay, the findings' places are moved by `move_finding` (`false`
    /// when a place cannot move, and the index is forgotten).
    pub fn move_places(
        &mut self,
        file: FileId,
        mut move_finding: impl FnMut(&mut Diagnostic) -> bool,
    ) {
        let Some(kept) = self.0.as_deref().filter(|e| e.files.contains(&file)) else {
            return;
        };
        let findings = moved(&kept.findings, |list| {
            list.iter_mut().all(&mut move_finding)
        });
        let uncited = moved(&kept.uncited, |list| {
            list.iter_mut()
                .flatten()
                .all(|d| !d.files().any(|f| f == file) || move_finding(Arc::make_mut(d)))
        });
        let (Some(findings), Some(uncited)) = (findings, uncited) else {
            self.0 = None;
            return;
        };
        self.0 = Some(Arc::new(Entries {
            count: kept.count,
            files: kept.files.clone(),
            by_key: Arc::clone(&kept.by_key),
            by_folded_key: Arc::clone(&kept.by_folded_key),
            findings,
            uncited,
            // Where a reference is written is not part of its content.
            content_keys: kept.content_keys.clone(),
        }));
    }

    /// Forget the index: references were added or removed.
    pub fn forget(&mut self) {
        self.0 = None;
    }
}
