//! The user's library held in memory (by the language server): every item under
//! its citation key, and Better BibTeX's own BibTeX for the items it exported, so
//! an entry can be written into a `.bib` without asking Zotero again.

use std::collections::HashMap;

use super::client::{Client, Keyed, ZoteroError};

/// One read of a library.
#[derive(Debug, Clone, Default)]
pub struct Library {
    /// The Zotero it was read from.
    pub url: String,
    items: Vec<Keyed>,
    /// Citation key → position in `items` (the first item of a key given twice).
    by_key: HashMap<String, usize>,
    /// Citation key → Better BibTeX's export of the item.
    exported: HashMap<String, String>,
}

impl Library {
    pub fn new(url: &str, items: Vec<Keyed>, exported: HashMap<String, String>) -> Library {
        let mut by_key = HashMap::with_capacity(items.len());
        for (i, keyed) in items.iter().enumerate() {
            by_key.entry(keyed.key.clone()).or_insert(i);
        }
        Library {
            url: url.to_string(),
            items,
            by_key,
            exported,
        }
    }

    /// Read the whole library: items, citation keys, and Better BibTeX's export of
    /// the items it keys (our own writer covers the rest).
    pub async fn read(client: &Client) -> Result<Library, ZoteroError> {
        let items = client.library(None).await?;
        let keys: Vec<String> = items
            .iter()
            .filter(|k| k.from_better_bibtex)
            .map(|k| k.key.clone())
            .collect();
        let exported = client.export_bibtex(&keys).await;
        Ok(Library::new(client.base(), items, exported))
    }

    pub fn items(&self) -> &[Keyed] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The item cited by `key`.
    pub fn get(&self, key: &str) -> Option<&Keyed> {
        self.by_key.get(key).map(|&i| &self.items[i])
    }

    /// The BibTeX entry of the item cited by `key`: Better BibTeX's export when it
    /// gave one, else written from the item's fields.
    pub fn bibtex(&self, key: &str) -> Option<String> {
        let keyed = self.get(key)?;
        Some(match self.exported.get(key) {
            Some(text) => {
                let mut text = text.trim_end().to_string();
                text.push('\n');
                text
            }
            None => keyed.item.bibtex(key),
        })
    }

    /// Whether Better BibTeX's export is what [`Self::bibtex`] gives for `key`.
    pub fn is_exported(&self, key: &str) -> bool {
        self.exported.contains_key(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zotero::Item;
    use crate::zotero::client::split_entries;
    use serde_json::json;

    fn keyed(key: &str, item_key: &str, title: &str) -> Keyed {
        Keyed {
            item: Item::from_json(&json!({"key": item_key, "itemType": "book", "title": title,
                "creators": [{"creatorType": "author", "lastName": "Nash", "firstName": "J."}],
                "date": "1950"}))
            .unwrap(),
            key: key.into(),
            from_better_bibtex: true,
        }
    }

    #[test]
    fn entries_by_key_from_the_export_or_our_writer() {
        let export = "@book{nash1950,\n  title = {Exported by BBT},\n}\n\n@article{other,\n  title = {X},\n}\n";
        let exported = split_entries(export);
        assert_eq!(exported.len(), 2);
        assert!(exported["nash1950"].starts_with("@book{nash1950,"));
        assert!(exported["nash1950"].trim_end().ends_with('}'));
        let library = Library::new(
            "http://z",
            vec![
                keyed("nash1950", "AAAA1111", "One"),
                keyed("nash1950", "BBBB2222", "Two"),
                keyed("nash1951", "CCCC3333", "Three"),
            ],
            exported,
        );
        assert_eq!(library.len(), 3);
        assert_eq!(library.get("nash1950").unwrap().item.key, "AAAA1111");
        assert!(
            library
                .bibtex("nash1950")
                .unwrap()
                .contains("Exported by BBT")
        );
        assert!(library.is_exported("nash1950"));
        let own = library.bibtex("nash1951").unwrap();
        assert!(own.starts_with("@book{nash1951,"), "{own}");
        assert!(own.contains("title = {Three}"), "{own}");
        assert!(library.bibtex("nobody").is_none());
    }
}
