//! A Zotero item as the local API (`/api/users/0/items`, the shape of the Zotero web
//! API v3) returns it, read leniently, and written out as a BibTeX entry.

use serde_json::Value;

/// A person or organisation of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Creator {
    /// `author`, `editor`, `contributor`, …
    pub role: String,
    /// Family name, or the whole name of a single-field creator (an organisation).
    pub family: String,
    pub given: Option<String>,
}

/// One bibliographic item (attachments, notes and annotations are not items here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The item key (`ABCD2345`).
    pub key: String,
    /// Zotero's item type (`journalArticle`, `book`, …).
    pub item_type: String,
    pub title: String,
    pub creators: Vec<Creator>,
    /// The date as written (`2019-05-01`, `May 2019`).
    pub date: Option<String>,
    /// Every other non-empty text field, by its Zotero name (`DOI`, `publicationTitle`).
    pub fields: Vec<(String, String)>,
}

const NOT_ITEMS: [&str; 3] = ["attachment", "note", "annotation"];

impl Item {
    /// The item of one element of an items response (`{"key", "data": {…}}`, or the
    /// `data` object itself); `None` for attachments, notes and annotations, or
    /// what is not an item.
    pub fn from_json(value: &Value) -> Option<Item> {
        let data = value.get("data").unwrap_or(value);
        let key = data.get("key")?.as_str()?.to_string();
        let item_type = data.get("itemType")?.as_str()?.to_string();
        if NOT_ITEMS.contains(&item_type.as_str()) {
            return None;
        }
        let text = |name: &str| {
            data.get(name)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let creators = data
            .get("creators")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(creator).collect())
            .unwrap_or_default();
        let skip = ["key", "version", "itemType", "title", "creators", "date"];
        let fields = data
            .as_object()
            .map(|o| {
                o.iter()
                    .filter(|(name, _)| !skip.contains(&name.as_str()))
                    .filter_map(|(name, v)| {
                        let v = v.as_str()?.trim();
                        (!v.is_empty()).then(|| (name.clone(), v.to_string()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(Item {
            key,
            item_type,
            title: text("title").unwrap_or_default(),
            creators,
            date: text("date"),
            fields,
        })
    }

    /// A field by its Zotero name.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The authors, or the editors of an item without authors.
    pub fn authors(&self) -> Vec<&Creator> {
        let of = |role: &str| -> Vec<&Creator> {
            self.creators.iter().filter(|c| c.role == role).collect()
        };
        let authors = of("author");
        if authors.is_empty() {
            of("editor")
        } else {
            authors
        }
    }

    /// Where the item appeared: journal, proceedings, book, else publisher.
    pub fn venue(&self) -> Option<&str> {
        [
            "publicationTitle",
            "proceedingsTitle",
            "bookTitle",
            "websiteTitle",
            "university",
            "institution",
            "publisher",
        ]
        .iter()
        .find_map(|name| self.field(name))
    }

    /// `zotero://select/library/items/KEY`: opens the item in Zotero.
    pub fn uri(&self) -> String {
        format!("zotero://select/library/items/{}", self.key)
    }

    /// The first four-digit year of the date.
    pub fn year(&self) -> Option<i32> {
        let date = self.date.as_deref()?;
        let bytes = date.as_bytes();
        (0..bytes.len().saturating_sub(3)).find_map(|i| {
            let run = &bytes[i..i + 4];
            let before = i == 0 || !bytes[i - 1].is_ascii_digit();
            let after = bytes.get(i + 4).is_none_or(|b| !b.is_ascii_digit());
            (before && after && run.iter().all(u8::is_ascii_digit))
                .then(|| date[i..i + 4].parse().ok())
                .flatten()
        })
    }

    /// The citation key pinned in `extra` (`Citation Key: smith2019`, as Better
    /// BibTeX and Zotero 7 write it).
    pub fn pinned_key(&self) -> Option<String> {
        self.field("extra")?.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            let name = name.trim().to_ascii_lowercase();
            (name == "citation key" || name == "bibtex")
                .then(|| value.trim().to_string())
                .filter(|v| !v.is_empty() && !v.contains(char::is_whitespace))
        })
    }

    /// A key for an item without one: first author's family name, year, first
    /// title word (`nash1950noncooperative`), ASCII lowercase.
    pub fn fallback_key(&self) -> String {
        let ascii = |s: &str| -> String {
            crate::resolve::normalize::fold(s)
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect()
        };
        let who = self
            .creators
            .first()
            .map(|c| ascii(&c.family))
            .unwrap_or_default();
        let year = self.year().map(|y| y.to_string()).unwrap_or_default();
        let word = crate::resolve::normalize::fold(&self.title)
            .split(' ')
            .find(|w| w.len() > 3)
            .map(ascii)
            .unwrap_or_default();
        let key = format!("{who}{year}{word}");
        if key.is_empty() {
            self.key.to_ascii_lowercase()
        } else {
            key
        }
    }

    /// The item as a BibTeX entry under `key`.
    pub fn bibtex(&self, key: &str) -> String {
        let entry_type = match self.item_type.as_str() {
            "journalArticle" | "magazineArticle" | "newspaperArticle" => "article",
            "book" => "book",
            "bookSection" => "incollection",
            "conferencePaper" => "inproceedings",
            "thesis" => "phdthesis",
            "report" => "techreport",
            _ => "misc",
        };
        let mut fields: Vec<(&str, String)> = Vec::new();
        let names = |role: &str| -> Option<String> {
            let list: Vec<String> = self
                .creators
                .iter()
                .filter(|c| c.role == role)
                .map(|c| match &c.given {
                    Some(given) => format!("{}, {given}", c.family),
                    None => format!("{{{}}}", c.family),
                })
                .collect();
            (!list.is_empty()).then(|| list.join(" and "))
        };
        if let Some(authors) = names("author") {
            fields.push(("author", authors));
        }
        if !self.title.is_empty() {
            fields.push(("title", self.title.clone()));
        }
        if let Some(editors) = names("editor") {
            fields.push(("editor", editors));
        }
        let venue = match entry_type {
            "article" => Some(("journal", "publicationTitle")),
            "inproceedings" => Some(("booktitle", "proceedingsTitle")),
            "incollection" => Some(("booktitle", "bookTitle")),
            _ => None,
        };
        if let Some((name, zotero)) = venue
            && let Some(value) = self
                .field(zotero)
                .or_else(|| self.field("publicationTitle"))
        {
            fields.push((name, value.to_string()));
        }
        if let Some(year) = self.year() {
            fields.push(("year", year.to_string()));
        }
        for (name, zotero) in [
            ("volume", "volume"),
            ("number", "issue"),
            ("pages", "pages"),
            ("publisher", "publisher"),
            ("school", "university"),
            ("institution", "institution"),
            ("doi", "DOI"),
            ("isbn", "ISBN"),
            ("url", "url"),
        ] {
            if let Some(value) = self.field(zotero) {
                fields.push((name, value.to_string()));
            }
        }
        let mut out = format!("@{entry_type}{{{key},\n");
        for (name, value) in fields {
            out.push_str(&format!("  {name} = {{{}}},\n", braced(&value)));
        }
        out.push_str("}\n");
        out
    }
}

fn creator(value: &Value) -> Option<Creator> {
    let role = value
        .get("creatorType")
        .and_then(Value::as_str)
        .unwrap_or("author")
        .to_string();
    let text = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    match (text("lastName"), text("name")) {
        (Some(family), _) => Some(Creator {
            role,
            family: family.to_string(),
            given: text("firstName").map(str::to_string),
        }),
        (None, Some(name)) => Some(Creator {
            role,
            family: name.to_string(),
            given: None,
        }),
        (None, None) => None,
    }
}

/// A value that can sit between braces: unbalanced braces are dropped.
fn braced(value: &str) -> String {
    let mut depth = 0i32;
    let balanced = value.chars().all(|c| {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        depth >= 0
    }) && depth == 0;
    let text = if balanced {
        value.to_string()
    } else {
        value.replace(['{', '}'], "")
    };
    text.replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nash() -> Value {
        json!({
            "key": "X7Q2ABCD", "version": 12,
            "library": {"type": "user", "id": 0, "name": "My Library"},
            "data": {
                "key": "X7Q2ABCD", "version": 12, "itemType": "journalArticle",
                "title": "Equilibrium points in n-person games",
                "creators": [{"creatorType": "author", "firstName": "John F.", "lastName": "Nash"},
                             {"creatorType": "editor", "name": "National Academy of Sciences"}],
                "publicationTitle": "Proceedings of the National Academy of Sciences",
                "volume": "36", "issue": "1", "pages": "48-49", "date": "1950-01-15",
                "DOI": "10.1073/pnas.36.1.48", "url": "", "extra": "Citation Key: nash1950equilibrium\ntex.note: x",
                "collections": ["COLL1234"], "tags": []
            }
        })
    }

    #[test]
    fn reads_an_item_and_writes_bibtex() {
        let item = Item::from_json(&nash()).unwrap();
        assert_eq!(item.key, "X7Q2ABCD");
        assert_eq!(item.year(), Some(1950));
        assert_eq!(item.pinned_key().as_deref(), Some("nash1950equilibrium"));
        assert_eq!(item.uri(), "zotero://select/library/items/X7Q2ABCD");
        assert_eq!(item.authors().len(), 1);
        assert_eq!(item.authors()[0].family, "Nash");
        assert_eq!(
            item.venue(),
            Some("Proceedings of the National Academy of Sciences")
        );
        assert_eq!(item.fallback_key(), "nash1950equilibrium");
        let bib = item.bibtex("nash1950");
        assert!(bib.starts_with("@article{nash1950,\n"), "{bib}");
        for part in [
            "author = {Nash, John F.}",
            "editor = {{National Academy of Sciences}}",
            "journal = {Proceedings of the National Academy of Sciences}",
            "number = {1}",
            "doi = {10.1073/pnas.36.1.48}",
        ] {
            assert!(bib.contains(part), "{part} in {bib}");
        }
        assert!(!bib.contains("url"), "empty fields are left out: {bib}");
        let parsed = crate::parse::bibtex::parse(
            crate::model::FileId(0),
            &bib,
            &crate::parse::ParseOptions::default(),
        );
        assert_eq!(parsed.references.len(), 1);
        assert_eq!(parsed.references[0].fields.year, Some(1950));
    }

    #[test]
    fn attachments_and_odd_values() {
        let attachment = json!({"key": "A", "data": {"key": "A", "itemType": "attachment"}});
        assert!(Item::from_json(&attachment).is_none());
        assert!(Item::from_json(&json!({"nothing": 1})).is_none());
        assert_eq!(braced("a {b} c"), "a {b} c");
        assert_eq!(braced("a } b {"), "a  b ");
        let undated =
            Item::from_json(&json!({"key": "K", "itemType": "book", "title": "T"})).unwrap();
        assert_eq!(undated.year(), None);
        assert_eq!(undated.fallback_key(), "k");
    }
}
