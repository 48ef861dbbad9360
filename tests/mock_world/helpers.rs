//! HTTP client and shape-comparison helpers for the mock's own tests.

use std::collections::BTreeSet;
use std::sync::Once;
use std::time::Duration;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::Value;

use crate::support::{MockWorld, Source, read_shared, shared_data_dir};

static CRYPTO: Once = Once::new();

thread_local! {
    // One client per test thread: each #[tokio::test] has its own runtime, and a client's
    // pooled connections belong to the runtime that opened them.
    static CLIENT: reqwest::Client = {
        CRYPTO.call_once(|| {
            let _ = rustls::crypto::ring::default_provider().install_default();
        });
        reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("reqwest client")
    };
}

/// A reqwest client like citeproof's (rustls, no proxy), with a short total timeout.
pub fn client() -> reqwest::Client {
    CLIENT.with(reqwest::Client::clone)
}

/// What a request came back with.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| {
            panic!("not JSON ({e}): {}", &self.body[..self.body.len().min(300)])
        })
    }
}

pub async fn send(request: reqwest::RequestBuilder) -> Reply {
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let content_type = headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = response.text().await.expect("body");
    Reply {
        status,
        content_type,
        headers,
        body,
    }
}

/// GET `{base_url(source)}{path}`.
pub async fn get(world: &MockWorld, source: Source, path: &str) -> Reply {
    send(client().get(format!("{}{path}", world.base_url(source)))).await
}

pub async fn get_accept(world: &MockWorld, source: Source, path: &str, accept: &str) -> Reply {
    send(
        client()
            .get(format!("{}{path}", world.base_url(source)))
            .header("Accept", accept),
    )
    .await
}

/// Every key path of a JSON value (`message.author[].family`); the word keys of an
/// `abstract_inverted_index` collapse to `*`.
pub fn key_paths(value: &Value) -> BTreeSet<String> {
    fn walk(v: &Value, path: &str, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(map) => {
                for (k, x) in map {
                    let q = if path.ends_with("abstract_inverted_index") {
                        format!("{path}.*")
                    } else if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    out.insert(q.clone());
                    walk(x, &q, out);
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|x| walk(x, &format!("{path}[]"), out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(value, "", &mut out);
    out
}

/// Element paths (`feed/entry/arxiv:doi`) and attribute paths (`feed/entry/link@href`) of
/// an XML document, parsed with quick-xml. Panics if the XML is malformed.
pub fn xml_paths(xml: &str) -> BTreeSet<String> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let mut out = BTreeSet::new();
    loop {
        let event = reader
            .read_event()
            .unwrap_or_else(|e| panic!("malformed XML at {}: {e}", reader.buffer_position()));
        let (element, opens) = match event {
            Event::Start(e) => (e, true),
            Event::Empty(e) => (e, false),
            Event::End(_) => {
                stack.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let name = element.name().into_inner().to_string();
        let path = match stack.last() {
            Some(parent) => format!("{parent}/{name}"),
            None => name,
        };
        for attr in element.attributes().flatten() {
            let key = attr.key.into_inner().to_string();
            if !key.starts_with("xmlns") {
                out.insert(format!("{path}@{key}"));
            }
        }
        out.insert(path.clone());
        if opens {
            stack.push(path);
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    out
}

/// Parsed JSON of a recorded body under ../shared/data/api_responses, if present.
pub fn recorded_json(rel: &str) -> Option<Value> {
    read_shared(&format!("api_responses/{rel}"))
        .map(|t| serde_json::from_str(&t).expect("recorded JSON"))
}

pub fn recorded_text(rel: &str) -> Option<String> {
    read_shared(&format!("api_responses/{rel}"))
}

/// True (after printing why) when ../shared is absent and a comparison must be skipped.
pub fn shared_absent(what: &str) -> bool {
    if shared_data_dir().join("api_responses").exists() {
        false
    } else {
        eprintln!("skipping: {what} (../shared absent)");
        true
    }
}

/// The mock's key paths must all occur in some recorded body (or be a documented extra), and
/// every key path that all recorded bodies share must occur in the mock, except those under
/// `no_data`: recorded fields whose data the world does not hold (volume, ISSN, topics, …).
pub fn assert_shape(
    what: &str,
    mock: &BTreeSet<String>,
    recorded: &[BTreeSet<String>],
    extras: &[&str],
    no_data: &[&str],
) {
    let union: BTreeSet<&String> = recorded.iter().flatten().collect();
    let invented: Vec<&String> = mock
        .iter()
        .filter(|k| !union.contains(k) && !extras.contains(&k.as_str()))
        .collect();
    assert!(
        invented.is_empty(),
        "{what}: key paths not in any recorded body: {invented:?}"
    );
    let excused = |k: &str| {
        no_data.iter().any(|p| {
            k == *p
                || k.strip_prefix(p)
                    .is_some_and(|rest| rest.starts_with(['.', '[', '/', '@']))
        })
    };
    let shared: Vec<&String> = match recorded.split_first() {
        Some((first, rest)) => first
            .iter()
            .filter(|k| rest.iter().all(|r| r.contains(*k)))
            .collect(),
        None => Vec::new(),
    };
    let missing: Vec<&&String> = shared
        .iter()
        .filter(|k| !mock.contains(**k) && !excused(k))
        .collect();
    assert!(
        missing.is_empty(),
        "{what}: key paths every recorded body has but the mock lacks: {missing:?}"
    );
}
