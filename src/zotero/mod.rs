//! The user's Zotero library as a bibliography: items read through Zotero 7's
//! local API and Better BibTeX's citation keys ([`client`]), written out as BibTeX
//! ([`item`]) so the library is checked by the same pipeline as any `.bib` file,
//! each finding naming its item's `zotero://select/…` URI.

pub mod client;
pub mod item;
pub mod library;

use crate::diagnostic::Diagnostic;
use crate::model::Span;

pub use client::{Client, DEFAULT_URL, ENABLED_ENV, Keyed, URL_ENV, ZoteroError};
pub use item::Item;
pub use library::Library;

/// Where the user's Zotero is and whether to use it (`[sources.zotero]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoteroSettings {
    /// The base URL (no trailing `/`).
    pub url: String,
    /// `Some(false)`: never; `Some(true)`: always (a Zotero that does not answer
    /// is worth a warning); `None`: when Zotero answers.
    pub enabled: Option<bool>,
}

impl Default for ZoteroSettings {
    fn default() -> ZoteroSettings {
        ZoteroSettings {
            url: DEFAULT_URL.to_string(),
            enabled: None,
        }
    }
}

/// A library (or collection) written as one BibTeX text, with where each item's
/// entry is.
#[derive(Debug, Clone, Default)]
pub struct Bibliography {
    pub text: String,
    /// Each entry's bytes and its item.
    pub entries: Vec<(Span, Item)>,
}

impl Bibliography {
    /// The items under their keys, in order; a key given twice gets a suffix (`b`,
    /// `c`, …) so every item is checked.
    pub fn new(library: &[Keyed], title: &str) -> Bibliography {
        let mut text = format!("% {title}, read from Zotero by citeproof\n\n");
        let mut entries = Vec::new();
        let mut used = std::collections::HashSet::new();
        for keyed in library {
            let mut key = keyed.key.clone();
            let mut suffix = b'b';
            while !used.insert(key.clone()) && suffix <= b'z' {
                key = format!("{}{}", keyed.key, suffix as char);
                suffix += 1;
            }
            let start = text.len();
            text.push_str(&keyed.item.bibtex(&key));
            entries.push((Span::new(start, text.len()), keyed.item.clone()));
            text.push('\n');
        }
        Bibliography { text, entries }
    }

    /// The item whose entry holds `span`.
    pub fn item_at(&self, span: Span) -> Option<&Item> {
        self.entries
            .iter()
            .find(|(at, _)| at.start <= span.start && span.end <= at.end)
            .map(|(_, item)| item)
    }

    /// Name the item's Zotero URI in each finding about an entry of this text.
    pub fn annotate(&self, diagnostics: &mut [Diagnostic], is_ours: impl Fn(&Diagnostic) -> bool) {
        for d in diagnostics.iter_mut().filter(|d| is_ours(d)) {
            if let Some(item) = self.item_at(d.span) {
                d.message = format!("{} ({})", d.message, item.uri());
            }
        }
    }
}

/// Read the library (or the collection named or keyed `collection`) from the Zotero
/// at `base`, on a runtime of its own.
pub fn read_library(
    base: Option<&str>,
    collection: Option<&str>,
) -> Result<(String, Vec<Keyed>), ZoteroError> {
    let client = Client::new(base, std::time::Duration::from_secs(30))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ZoteroError::Unreachable {
            url: client.base().to_string(),
            why: e.to_string(),
        })?;
    let library = runtime.block_on(client.library(collection))?;
    Ok((client.base().to_string(), library))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_are_placed_and_duplicate_keys_kept_apart() {
        let item = |key: &str, title: &str| {
            Item::from_json(&json!({"key": key, "itemType": "book", "title": title,
                "creators": [{"creatorType": "author", "lastName": "Nash", "firstName": "J."}],
                "date": "1950"}))
            .unwrap()
        };
        let library = vec![
            Keyed {
                item: item("AAAA1111", "One"),
                key: "nash1950".into(),
                from_better_bibtex: false,
            },
            Keyed {
                item: item("BBBB2222", "Two"),
                key: "nash1950".into(),
                from_better_bibtex: false,
            },
        ];
        let bib = Bibliography::new(&library, "My Library");
        assert!(bib.text.contains("@book{nash1950,"), "{}", bib.text);
        assert!(bib.text.contains("@book{nash1950b,"), "{}", bib.text);
        let (span, _) = &bib.entries[1];
        assert!(bib.text[span.start..span.end].contains("Two"));
        let inside = Span::new(span.start + 2, span.start + 5);
        assert_eq!(bib.item_at(inside).unwrap().key, "BBBB2222");
        assert!(bib.item_at(Span::new(0, 1)).is_none());
    }
}
