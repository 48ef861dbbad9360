//! Reference managers' fields in word-processor files: Zotero
//! (`ADDIN ZOTERO_ITEM CSL_CITATION {…}`) and Mendeley (`ADDIN CSL_CITATION {…}`)
//! citations carry the cited items as CSL-JSON (`citationItems[].itemData`), so a
//! manuscript written with either is checked as exactly as a `.bib`; their
//! bibliography fields (`ADDIN ZOTERO_BIBL`, `ADDIN Mendeley Bibliography
//! CSL_BIBLIOGRAPHY`) mark paragraphs that are the rendered list, not prose.

use serde_json::{Map, Value};

/// What a field is, for the reader.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// A citation: which manager wrote it and the items it cites.
    Citation {
        manager: &'static str,
        items: Vec<CslItem>,
    },
    /// A reference manager's rendered bibliography.
    Bibliography,
    Other,
}

/// One cited item: its key (the item's id) and its CSL-JSON data.
#[derive(Debug, Clone, PartialEq)]
pub struct CslItem {
    pub key: String,
    pub data: Map<String, Value>,
}

/// Read a field instruction.
pub fn classify(instruction: &str) -> FieldKind {
    let words: Vec<&str> = instruction.split_whitespace().take(3).collect();
    let manager = match words.as_slice() {
        ["ADDIN", "ZOTERO_ITEM", ..] => "zotero",
        ["ADDIN", "CSL_CITATION", ..] => "mendeley",
        ["ADDIN", "ZOTERO_BIBL", ..]
        | ["ADDIN", "Mendeley", "Bibliography"]
        | ["ADDIN", "CSL_BIBLIOGRAPHY", ..] => return FieldKind::Bibliography,
        _ => return FieldKind::Other,
    };
    let Some(brace) = instruction.find('{') else {
        return FieldKind::Other;
    };
    // The JSON object may be followed by more words (older Zotero: `RND…`).
    let Some(Ok(Value::Object(citation))) =
        serde_json::Deserializer::from_str(&instruction[brace..])
            .into_iter::<Value>()
            .next()
    else {
        return FieldKind::Other;
    };
    let items = citation
        .get("citationItems")
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(item).collect())
        .unwrap_or_default();
    FieldKind::Citation { manager, items }
}

/// A cited item with its data; items without data (nothing to check) are left out.
fn item(cited: &Value) -> Option<CslItem> {
    let data = cited.get("itemData")?.as_object()?.clone();
    let key = [data.get("id"), cited.get("id")]
        .into_iter()
        .flatten()
        .find_map(id_text)
        .or_else(|| {
            cited
                .get("uris")
                .and_then(Value::as_array)
                .and_then(|u| u.first())
                .and_then(id_text)
        })?;
    Some(CslItem { key, data })
}

fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zotero_and_mendeley_citations_give_their_items() {
        let zotero = r#" ADDIN ZOTERO_ITEM CSL_CITATION {"citationID":"x","properties":{"formattedCitation":"(Smith, 2020)","noteIndex":0},"citationItems":[{"id":1234,"uris":["http://zotero.org/users/1/items/AB"],"itemData":{"id":1234,"type":"article-journal","title":"A title"}},{"id":9,"uris":[]}],"schema":"https://github.com/citation-style-language/schema/raw/master/csl-citation.json"} RND0ab12"#;
        let FieldKind::Citation { manager, items } = classify(zotero) else {
            panic!("not a citation");
        };
        assert_eq!(manager, "zotero");
        assert_eq!(items.len(), 1, "the item without data is left out");
        assert_eq!(items[0].key, "1234");
        assert_eq!(items[0].data["title"], "A title");
        let mendeley = r#"ADDIN CSL_CITATION {"citationItems":[{"id":"ITEM-1","itemData":{"type":"book","title":"B"},"uris":["http://www.mendeley.com/documents/?uuid=u"]}],"mendeley":{},"properties":{"noteIndex":0}}"#;
        let FieldKind::Citation { manager, items } = classify(mendeley) else {
            panic!("not a citation");
        };
        assert_eq!((manager, items[0].key.as_str()), ("mendeley", "ITEM-1"));
    }

    #[test]
    fn bibliographies_and_other_fields() {
        assert_eq!(
            classify(r#" ADDIN ZOTERO_BIBL {"uncited":[]} CSL_BIBLIOGRAPHY "#),
            FieldKind::Bibliography
        );
        assert_eq!(
            classify("ADDIN Mendeley Bibliography CSL_BIBLIOGRAPHY "),
            FieldKind::Bibliography
        );
        assert_eq!(classify(" HYPERLINK \"https://x.org\" "), FieldKind::Other);
        assert_eq!(classify("ADDIN ZOTERO_ITEM {broken"), FieldKind::Other);
    }
}
