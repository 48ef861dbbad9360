//! Reading the user's library from Zotero 7's local API (read-only) and the citation
//! keys from Better BibTeX's JSON-RPC, both on Zotero's own port. A short connect
//! timeout: when Zotero is not running, the answer comes at once.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use super::item::Item;

/// Where Zotero listens unless configured otherwise (the base URL; the standard
/// paths `/api/users/0/…` and `/better-bibtex/json-rpc` are appended).
pub const DEFAULT_URL: &str = "http://localhost:23119";

/// The environment variable that sets the base URL.
pub const URL_ENV: &str = "CITEPROOF_ZOTERO_URL";

/// The environment variable that turns the Zotero features on or off
/// (`[sources.zotero] enabled`).
pub const ENABLED_ENV: &str = "CITEPROOF_ZOTERO";

/// Items per page (the API's maximum).
const PAGE: usize = 100;

/// Why the library could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ZoteroError {
    #[error(
        "Zotero is not reachable at {url} (is Zotero 7 running, with the local API on?): {why}"
    )]
    Unreachable { url: String, why: String },
    #[error("Zotero answered {status} for {url}")]
    Status { url: String, status: u16 },
    #[error("Zotero's answer for {url} is not what the local API returns: {why}")]
    Shape { url: String, why: String },
    #[error("no collection is named or keyed `{0}` in the Zotero library")]
    NoCollection(String),
}

/// One library item with the citation key it is cited by.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyed {
    pub item: Item,
    pub key: String,
    /// The key is Better BibTeX's (which can then export the item).
    pub from_better_bibtex: bool,
}

/// A client of one Zotero instance.
#[derive(Debug, Clone)]
pub struct Client {
    base: String,
    http: reqwest::Client,
}

impl Client {
    /// A client of the Zotero at `base` (`None`: `$CITEPROOF_ZOTERO_URL`, else
    /// [`DEFAULT_URL`]).
    pub fn new(base: Option<&str>, timeout: Duration) -> Result<Client, ZoteroError> {
        let base = base
            .map(str::to_string)
            .or_else(|| std::env::var(URL_ENV).ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| DEFAULT_URL.to_string());
        let base = base.trim_end_matches('/').to_string();
        crate::net::ensure_crypto_provider();
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_millis(500).min(timeout))
            .timeout(timeout)
            .no_proxy()
            .build()
            .map_err(|e| ZoteroError::Unreachable {
                url: base.clone(),
                why: e.to_string(),
            })?;
        Ok(Client { base, http })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    async fn get(&self, path: &str) -> Result<(Value, Option<usize>), ZoteroError> {
        let url = format!("{}{path}", self.base);
        let response = self
            .http
            .get(&url)
            .header("Zotero-API-Version", "3")
            .send()
            .await
            .map_err(|e| ZoteroError::Unreachable {
                url: self.base.clone(),
                why: e.to_string(),
            })?;
        let status = response.status();
        if !status.is_success() {
            return Err(ZoteroError::Status {
                url,
                status: status.as_u16(),
            });
        }
        let total = response
            .headers()
            .get("Total-Results")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse().ok());
        let body = response
            .json::<Value>()
            .await
            .map_err(|e| ZoteroError::Shape {
                url: url.clone(),
                why: e.to_string(),
            })?;
        Ok((body, total))
    }

    /// Every element of a paged list (`start`/`limit`, `Total-Results`).
    async fn all(&self, path: &str) -> Result<Vec<Value>, ZoteroError> {
        let mut out: Vec<Value> = Vec::new();
        loop {
            let sep = if path.contains('?') { '&' } else { '?' };
            let page_path = format!("{path}{sep}format=json&limit={PAGE}&start={}", out.len());
            let (body, total) = self.get(&page_path).await?;
            let Value::Array(page) = body else {
                return Err(ZoteroError::Shape {
                    url: format!("{}{page_path}", self.base),
                    why: "expected a JSON array".into(),
                });
            };
            let got = page.len();
            out.extend(page);
            let done = got < PAGE || total.is_some_and(|t| out.len() >= t) || got == 0;
            if done {
                return Ok(out);
            }
        }
    }

    /// The key of the collection named (case-insensitively) or keyed `wanted`.
    pub async fn collection_key(&self, wanted: &str) -> Result<String, ZoteroError> {
        let collections = self.all("/api/users/0/collections").await?;
        collections
            .iter()
            .filter_map(|c| {
                let data = c.get("data").unwrap_or(c);
                let key = data.get("key")?.as_str()?;
                let name = data.get("name").and_then(Value::as_str).unwrap_or("");
                Some((key, name))
            })
            .find(|(key, name)| *key == wanted || name.eq_ignore_ascii_case(wanted.trim()))
            .map(|(key, _)| key.to_string())
            .ok_or_else(|| ZoteroError::NoCollection(wanted.to_string()))
    }

    /// The top-level items of the library, or of one collection (by name or key).
    pub async fn items(&self, collection: Option<&str>) -> Result<Vec<Item>, ZoteroError> {
        let path = match collection {
            Some(wanted) => {
                let key = self.collection_key(wanted).await?;
                format!("/api/users/0/collections/{key}/items/top")
            }
            None => "/api/users/0/items/top".to_string(),
        };
        Ok(self
            .all(&path)
            .await?
            .iter()
            .filter_map(Item::from_json)
            .collect())
    }

    /// Better BibTeX's citation keys of `items` (`item.citationkey`); empty when
    /// Better BibTeX is not installed or does not answer.
    pub async fn citation_keys(&self, items: &[Item]) -> HashMap<String, String> {
        if items.is_empty() {
            return HashMap::new();
        }
        let keys: Vec<&str> = items.iter().map(|i| i.key.as_str()).collect();
        let request =
            json!({"jsonrpc": "2.0", "method": "item.citationkey", "params": [keys], "id": 1});
        let url = format!("{}/better-bibtex/json-rpc", self.base);
        let Ok(response) = self.http.post(&url).json(&request).send().await else {
            return HashMap::new();
        };
        let Ok(body) = response.json::<Value>().await else {
            return HashMap::new();
        };
        body.get("result")
            .and_then(Value::as_object)
            .map(|result| {
                result
                    .iter()
                    .filter_map(|(item, key)| {
                        // Keys may come back prefixed with the library id (`1:ABCD2345`).
                        let item = item.rsplit(':').next().unwrap_or(item);
                        Some((item.to_string(), key.as_str()?.to_string()))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Better BibTeX's own BibTeX of the items cited by `keys` (its `item.export`
    /// with the `Better BibTeX` translator), by key; empty when Better BibTeX is
    /// not there or refuses (it refuses the whole list when one key is unknown).
    pub async fn export_bibtex(&self, keys: &[String]) -> HashMap<String, String> {
        if keys.is_empty() {
            return HashMap::new();
        }
        let request = json!({"jsonrpc": "2.0", "method": "item.export",
            "params": [keys, "Better BibTeX"], "id": 2});
        let url = format!("{}/better-bibtex/json-rpc", self.base);
        let Ok(response) = self.http.post(&url).json(&request).send().await else {
            return HashMap::new();
        };
        let Ok(body) = response.json::<Value>().await else {
            return HashMap::new();
        };
        // The text itself; versions before 6 answered `[status, type, text]`.
        let text = match body.get("result") {
            Some(Value::String(text)) => Some(text.as_str()),
            Some(Value::Array(parts)) => parts.last().and_then(Value::as_str),
            _ => None,
        };
        text.map(split_entries).unwrap_or_default()
    }

    /// The items with their citation keys: Better BibTeX's, else the key pinned in
    /// the item's `extra`, else one made from author, year and title.
    pub async fn library(&self, collection: Option<&str>) -> Result<Vec<Keyed>, ZoteroError> {
        let items = self.items(collection).await?;
        let bbt = self.citation_keys(&items).await;
        Ok(items
            .into_iter()
            .map(|item| match bbt.get(&item.key) {
                Some(key) => Keyed {
                    key: key.clone(),
                    item,
                    from_better_bibtex: true,
                },
                None => Keyed {
                    key: item.pinned_key().unwrap_or_else(|| item.fallback_key()),
                    item,
                    from_better_bibtex: false,
                },
            })
            .collect())
    }
}

/// Each entry of a BibTeX text (Better BibTeX's export) by its key.
pub fn split_entries(text: &str) -> HashMap<String, String> {
    let parsed = crate::parse::bibtex::parse(
        crate::model::FileId(0),
        text,
        &crate::parse::ParseOptions::default(),
    );
    parsed
        .references
        .into_iter()
        .filter_map(|r| {
            let entry = text.get(r.span.start..r.span.end)?;
            Some((r.key, entry.to_string()))
        })
        .collect()
}
