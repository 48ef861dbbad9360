//! A mock of Zotero 7's local API (`/api/users/0/…`, the Zotero web API v3 shapes:
//! items as `{key, version, library, links, meta, data}`, paging with `start`/`limit`
//! and a `Total-Results` header) and of Better BibTeX's JSON-RPC
//! (`/better-bibtex/json-rpc`, `item.citationkey`), on 127.0.0.1, with a request log.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use serde_json::{Value, json};

/// One library item: its key, Better BibTeX key (`None`: BBT does not know it),
/// collections and `data` fields.
#[derive(Debug, Clone)]
pub struct MockItem {
    pub key: String,
    pub citation_key: Option<String>,
    pub collections: Vec<String>,
    pub data: Value,
}

impl MockItem {
    /// A journal article by `authors` (family, given).
    pub fn article(
        key: &str,
        citation_key: Option<&str>,
        title: &str,
        authors: &[(&str, &str)],
        date: &str,
        journal: &str,
    ) -> MockItem {
        let creators: Vec<Value> = authors
            .iter()
            .map(|(family, given)| json!({"creatorType": "author", "firstName": given, "lastName": family}))
            .collect();
        MockItem {
            key: key.into(),
            citation_key: citation_key.map(str::to_string),
            collections: Vec::new(),
            data: json!({
                "itemType": "journalArticle", "title": title, "creators": creators,
                "abstractNote": "", "publicationTitle": journal, "volume": "", "issue": "",
                "pages": "", "date": date, "series": "", "language": "en", "DOI": "",
                "ISSN": "", "shortTitle": "", "url": "", "accessDate": "", "archive": "",
                "libraryCatalog": "", "callNumber": "", "rights": "", "extra": "",
                "tags": [], "relations": {}, "dateAdded": "2024-03-01T10:00:00Z",
                "dateModified": "2024-03-01T10:00:00Z"
            }),
        }
    }

    /// He et al. 2016, keyed `he2016deep` by Better BibTeX (the editor tests' item).
    pub fn residual_learning() -> MockItem {
        MockItem::article(
            "HE2016AA",
            Some("he2016deep"),
            "Deep Residual Learning for Image Recognition",
            &[("He", "Kaiming"), ("Zhang", "Xiangyu")],
            "2016-06",
            "Proceedings of CVPR",
        )
    }

    pub fn in_collection(mut self, collection: &str) -> MockItem {
        self.collections.push(collection.into());
        self
    }

    /// Set one `data` field (`extra`, `DOI`, `itemType`, …).
    pub fn with(mut self, field: &str, value: Value) -> MockItem {
        self.data[field] = value;
        self
    }

    fn json(&self) -> Value {
        let mut data = self.data.clone();
        data["key"] = json!(self.key);
        data["version"] = json!(7);
        data["collections"] = json!(self.collections);
        json!({
            "key": self.key, "version": 7,
            "library": {"type": "user", "id": 0, "name": "My Library",
                        "links": {"alternate": {"href": "https://www.zotero.org/", "type": "text/html"}}},
            "links": {"self": {"href": format!("http://localhost:23119/api/users/0/items/{}", self.key),
                               "type": "application/json"}},
            "meta": {"creatorSummary": "", "numChildren": 0},
            "data": data
        })
    }
}

/// A collection: key and name.
#[derive(Debug, Clone)]
pub struct MockCollection {
    pub key: String,
    pub name: String,
}

#[derive(Default)]
struct Library {
    items: Vec<MockItem>,
    collections: Vec<MockCollection>,
    /// An attachment child of the first item, which readers must skip.
    attachment: bool,
    log: Mutex<Vec<String>>,
}

/// The running mock; stops with the test process.
pub struct MockZotero {
    addr: SocketAddr,
    library: Arc<Library>,
}

impl MockZotero {
    pub fn start(items: Vec<MockItem>, collections: Vec<MockCollection>) -> MockZotero {
        let library = Arc::new(Library {
            items,
            collections,
            attachment: true,
            log: Mutex::new(Vec::new()),
        });
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let app = Router::new()
            .route("/api/users/0/items", get(all_items))
            .route("/api/users/0/items/top", get(top_items))
            .route("/api/users/0/collections", get(list_collections))
            .route(
                "/api/users/0/collections/{key}/items/top",
                get(collection_items),
            )
            .route("/better-bibtex/json-rpc", post(json_rpc))
            .with_state(library.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app).await.unwrap();
            });
        });
        MockZotero { addr, library }
    }

    /// The base URL (`http://127.0.0.1:PORT`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The paths asked so far, in order.
    pub fn requests(&self) -> Vec<String> {
        self.library.log.lock().unwrap().clone()
    }
}

fn page(list: Vec<Value>, query: &HashMap<String, String>) -> axum::response::Response {
    let start: usize = query.get("start").and_then(|s| s.parse().ok()).unwrap_or(0);
    let limit: usize = query
        .get("limit")
        .and_then(|s| s.parse().ok())
        .unwrap_or(25)
        .min(100);
    let total = list.len();
    let shown: Vec<Value> = list.into_iter().skip(start).take(limit).collect();
    let mut headers = HeaderMap::new();
    headers.insert("Total-Results", HeaderValue::from(total));
    headers.insert("Zotero-API-Version", HeaderValue::from_static("3"));
    (headers, axum::Json(Value::Array(shown))).into_response()
}

fn log(library: &Library, path: String, query: &HashMap<String, String>) {
    let mut keys: Vec<_> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
    keys.sort();
    library
        .log
        .lock()
        .unwrap()
        .push(format!("{path}?{}", keys.join("&")));
}

async fn top_items(
    State(library): State<Arc<Library>>,
    Query(query): Query<HashMap<String, String>>,
) -> impl IntoResponse {
    log(&library, "/api/users/0/items/top".into(), &query);
    page(library.items.iter().map(MockItem::json).collect(), &query)
}

async fn all_items(
    State(library): State<Arc<Library>>,
    Query(query): Query<HashMap<String, String>>,
) -> impl IntoResponse {
    log(&library, "/api/users/0/items".into(), &query);
    let mut list: Vec<Value> = library.items.iter().map(MockItem::json).collect();
    if library.attachment
        && let Some(first) = library.items.first()
    {
        list.push(json!({"key": "ATTACH01", "version": 7, "library": {"type": "user", "id": 0},
            "data": {"key": "ATTACH01", "version": 7, "itemType": "attachment", "parentItem": first.key,
                     "linkMode": "imported_file", "title": "Full Text PDF", "contentType": "application/pdf"}}));
    }
    page(list, &query)
}

async fn list_collections(
    State(library): State<Arc<Library>>,
    Query(query): Query<HashMap<String, String>>,
) -> impl IntoResponse {
    log(&library, "/api/users/0/collections".into(), &query);
    let list = library
        .collections
        .iter()
        .map(|c| {
            let count = library.items.iter().filter(|i| i.collections.contains(&c.key)).count();
            json!({"key": c.key, "version": 3, "library": {"type": "user", "id": 0, "name": "My Library"},
                   "meta": {"numCollections": 0, "numItems": count},
                   "data": {"key": c.key, "version": 3, "name": c.name, "parentCollection": false, "relations": {}}})
        })
        .collect();
    page(list, &query)
}

async fn collection_items(
    State(library): State<Arc<Library>>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> axum::response::Response {
    log(
        &library,
        format!("/api/users/0/collections/{key}/items/top"),
        &query,
    );
    if !library.collections.iter().any(|c| c.key == key) {
        return (axum::http::StatusCode::NOT_FOUND, "Collection not found").into_response();
    }
    let list = library
        .items
        .iter()
        .filter(|i| i.collections.contains(&key))
        .map(MockItem::json)
        .collect();
    page(list, &query)
}

async fn json_rpc(
    State(library): State<Arc<Library>>,
    axum::Json(request): axum::Json<Value>,
) -> impl IntoResponse {
    library.log.lock().unwrap().push(format!(
        "/better-bibtex/json-rpc {}",
        request["method"].as_str().unwrap_or_default()
    ));
    let id = request["id"].clone();
    if request["method"] == "item.export" {
        return axum::Json(export(&library, &request, id));
    }
    if request["method"] != "item.citationkey" {
        return axum::Json(json!({"jsonrpc": "2.0", "id": id,
            "error": {"code": -32601, "message": "Method not found"}}));
    }
    let wanted: Vec<String> = request["params"][0]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|k| k.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let mut result = serde_json::Map::new();
    for key in wanted {
        if let Some(found) = library
            .items
            .iter()
            .find(|i| i.key == key)
            .and_then(|i| i.citation_key.clone())
        {
            result.insert(key, json!(found));
        }
    }
    axum::Json(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// `item.export(citekeys, translator)`: the items as the `Better BibTeX` translator
/// writes them (titles in double braces); like Better BibTeX, the whole call fails
/// when one key is unknown.
fn export(library: &Library, request: &Value, id: Value) -> Value {
    let keys: Vec<&str> = request["params"][0]
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut text = String::new();
    for key in &keys {
        let Some(item) = library
            .items
            .iter()
            .find(|i| i.citation_key.as_deref() == Some(*key))
        else {
            return json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32602, "message": format!("{key} not found")}});
        };
        let authors: Vec<String> = item.data["creators"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|c| {
                        format!(
                            "{}, {}",
                            c["lastName"].as_str().unwrap_or_default(),
                            c["firstName"].as_str().unwrap_or_default()
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let year: String = item.data["date"]
            .as_str()
            .unwrap_or_default()
            .chars()
            .take(4)
            .collect();
        text.push_str(&format!(
            "@article{{{key},\n  title = {{{{{}}}}},\n  author = {{{}}},\n  year = {{{year}}},\n  journal = {{{}}},\n}}\n\n",
            item.data["title"].as_str().unwrap_or_default(),
            authors.join(" and "),
            item.data["publicationTitle"].as_str().unwrap_or_default(),
        ));
    }
    json!({"jsonrpc": "2.0", "id": id, "result": text})
}
