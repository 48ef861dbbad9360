//! A local world for the verification tests, on 127.0.0.1: an OpenAI-compatible model
//! server (`/v1/chat/completions` with scripted answers keyed by text in the prompt,
//! `/v1/embeddings` with deterministic bag-of-words vectors) and a document store that
//! serves API records and full texts (arXiv HTML/PDF, JATS, publisher pages) by path.
//! The model server takes `response_format` as a chosen real server does
//! ([`servers::ServerKind`]). Every request is recorded.

#![allow(dead_code)]

pub mod local_server;
pub mod servers;
pub mod verify;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use citeproof::net::{Net, NetConfig, Rate};
use citeproof::resolve::sources::{Sources, SourcesSettings};
use citeproof::verify::fulltext::FullTextConfig;
use citeproof::verify::llm::ModelConfig;
use serde_json::{Value, json};
use servers::ServerKind;

pub const MAILTO: &str = "tests@example.org";

pub fn net() -> Net {
    Net::new(&NetConfig {
        mailto: Some(MAILTO.into()),
        ..NetConfig::default()
    })
    .expect("net")
}

/// One scripted reply of the model server.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A well-formed verdict object as the message content.
    Verdict {
        label: &'static str,
        rationale: &'static str,
        evidence: &'static str,
        confidence: f64,
    },
    /// This exact message content (chatty, fenced, malformed …).
    Raw(String),
    /// This content, cut off at the token limit (`finish_reason: "length"`).
    Cut(String),
    /// A message whose content is `null`.
    NoContent,
    /// The request's user message, repeated (small models do this).
    Echo,
    /// An HTTP error instead of a completion.
    Status(u16, String),
}

impl Reply {
    pub fn verdict(label: &'static str, evidence: &'static str) -> Reply {
        Reply::Verdict {
            label,
            rationale: "scripted rationale",
            evidence,
            confidence: 0.9,
        }
    }
}

/// Answers for requests to `model` (any when `None`) whose first user message
/// contains `needle`; replies are used in order, the last one repeats.
#[derive(Debug, Clone)]
struct Rule {
    model: Option<String>,
    needle: String,
    replies: Vec<Reply>,
    used: usize,
}

/// A document served at a path (query ignored unless registered with one).
#[derive(Debug, Clone)]
pub struct Doc {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
    /// A `Location` header (redirects).
    pub location: Option<String>,
}

#[derive(Debug, Default)]
pub struct WorldState {
    rules: Mutex<Vec<Rule>>,
    docs: Mutex<HashMap<String, Doc>>,
    /// Bodies of chat requests, in arrival order.
    pub chats: Mutex<Vec<Value>>,
    /// Bodies of embeddings requests.
    pub embeddings: Mutex<Vec<Value>>,
    /// Every other request: path with query.
    pub hits: Mutex<Vec<String>>,
    /// How `response_format` is taken (default: every form, as OpenAI does).
    pub server: Mutex<ServerKind>,
    /// Answer every model request with a 503.
    pub outage: AtomicBool,
    /// Hold every chat reply this long (for concurrency counting).
    pub chat_delay_ms: AtomicUsize,
    in_flight: AtomicUsize,
    pub max_in_flight: AtomicUsize,
}

/// The running world.
pub struct World {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    pub state: Arc<WorldState>,
}

impl World {
    pub async fn start() -> World {
        let state = Arc::new(WorldState::default());
        let app = Router::new()
            .route("/v1/chat/completions", post(chat))
            .route("/v1/embeddings", post(embeddings))
            .fallback(document)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("serve");
        });
        World {
            base: format!("http://{addr}"),
            state,
        }
    }

    /// Every source at `base/<name>`, fast and with a single quick retry.
    pub fn sources_settings(&self) -> SourcesSettings {
        let mut settings = SourcesSettings::all_at(&self.base).expect("settings");
        for s in &mut settings.sources {
            s.rate = Some(Rate::per_second(1000));
            s.max_concurrency = Some(8);
            s.retry.max_retries = 1;
            s.retry.base_delay = Duration::from_millis(5);
            s.mailto = Some(MAILTO.into());
        }
        settings
    }

    pub fn sources(&self, net: &Net) -> Sources {
        Sources::new(net, &self.sources_settings())
    }

    /// The cascade pointed at this world: arXiv's web site at `/arxiv-web`, and `/oa`
    /// configured as a trusted open-access mirror. `/publisher` is not configured.
    pub fn fulltext_config(&self) -> FullTextConfig {
        let mut c = FullTextConfig::for_sources(&self.sources_settings(), &self.url("/arxiv-web"));
        c.policy.trust(&self.url("/oa"));
        c.rate = Rate::per_second(1000);
        c.retry.max_retries = 0;
        c
    }

    /// A model at this world's `/v1`, with quick retries and no API key.
    pub fn model(&self, name: &str) -> ModelConfig {
        let mut m = ModelConfig::new(&self.llm_url(), name);
        m.api_key_env = None;
        m.retry.max_retries = 1;
        m.retry.base_delay = Duration::from_millis(5);
        m
    }

    /// The model server's base URL (with `/v1`).
    pub fn llm_url(&self) -> String {
        format!("{}/v1", self.base)
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Script the replies for prompts containing `needle` (to any model).
    pub fn script(&self, needle: &str, replies: Vec<Reply>) {
        self.script_for(None, needle, replies);
    }

    /// Script the replies of `model` for prompts containing `needle`.
    pub fn script_for(&self, model: Option<&str>, needle: &str, replies: Vec<Reply>) {
        self.state.rules.lock().unwrap().push(Rule {
            model: model.map(str::to_string),
            needle: needle.to_string(),
            replies,
            used: 0,
        });
    }

    /// Serve `body` at `path` (a path with `?query` matches only that query).
    pub fn serve(&self, path: &str, content_type: &str, body: impl Into<Vec<u8>>) {
        self.serve_status(path, 200, content_type, body);
    }

    pub fn serve_status(
        &self,
        path: &str,
        status: u16,
        content_type: &str,
        body: impl Into<Vec<u8>>,
    ) {
        self.state.docs.lock().unwrap().insert(
            path.to_string(),
            Doc {
                status,
                content_type: content_type.to_string(),
                body: body.into(),
                location: None,
            },
        );
    }

    /// Answer `path` with a 302 to `location`.
    pub fn redirect(&self, path: &str, location: &str) {
        self.state.docs.lock().unwrap().insert(
            path.to_string(),
            Doc {
                status: 302,
                content_type: "text/html".to_string(),
                body: Vec::new(),
                location: Some(location.to_string()),
            },
        );
    }

    pub fn serve_json(&self, path: &str, body: &Value) {
        self.serve(path, "application/json", body.to_string());
    }

    pub fn chats(&self) -> Vec<Value> {
        self.state.chats.lock().unwrap().clone()
    }

    pub fn chat_count(&self) -> usize {
        self.state.chats.lock().unwrap().len()
    }

    /// Take `response_format` as `kind` does.
    pub fn behave_like(&self, kind: ServerKind) {
        *self.state.server.lock().unwrap() = kind;
    }

    /// The structured-output form of each chat request, in order (`json_schema`,
    /// `json_object+schema`, `json_object`, `instructions`).
    pub fn chat_modes(&self) -> Vec<&'static str> {
        self.chats().iter().map(servers::mode_of).collect()
    }

    pub fn hits(&self) -> Vec<String> {
        self.state.hits.lock().unwrap().clone()
    }

    /// Requests whose path starts with `prefix`.
    pub fn hits_under(&self, prefix: &str) -> Vec<String> {
        self.hits()
            .into_iter()
            .filter(|h| h.starts_with(prefix))
            .collect()
    }
}

/// The text of every message of a chat request with this role, joined.
pub fn role_text(chat: &Value, role: &str) -> String {
    chat["messages"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .filter(|m| m["role"] == role)
                .filter_map(|m| m["content"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

fn first_user(chat: &Value) -> String {
    chat["messages"]
        .as_array()
        .and_then(|ms| ms.iter().find(|m| m["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

struct InFlight<'a>(&'a WorldState);

impl<'a> InFlight<'a> {
    fn enter(state: &'a WorldState) -> InFlight<'a> {
        let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        state.max_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(state)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn chat(State(state): State<Arc<WorldState>>, body: Bytes) -> Response {
    let _guard = InFlight::enter(&state);
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    state.chats.lock().unwrap().push(request.clone());
    let delay = state.chat_delay_ms.load(Ordering::SeqCst);
    if delay > 0 {
        tokio::time::sleep(Duration::from_millis(delay as u64)).await;
    }
    if state.outage.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, "model overloaded").into_response();
    }
    let kind = *state.server.lock().unwrap();
    if let Some((status, body)) = kind.refusal(&request) {
        return (
            StatusCode::from_u16(status).unwrap(),
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response();
    }
    let model = request["model"].as_str().unwrap_or_default().to_string();
    let prompt = first_user(&request);
    let reply = {
        let mut rules = state.rules.lock().unwrap();
        rules
            .iter_mut()
            .find(|r| r.model.as_deref().is_none_or(|m| m == model) && prompt.contains(&r.needle))
            .map(|r| {
                let reply = r.replies[r.used.min(r.replies.len() - 1)].clone();
                r.used += 1;
                reply
            })
    };
    let mut finish = "stop";
    let content = match reply {
        None => {
            return (StatusCode::BAD_REQUEST, format!("no scripted answer for model {model}"))
                .into_response();
        }
        Some(Reply::Status(status, body)) => {
            return (StatusCode::from_u16(status).unwrap(), body).into_response();
        }
        Some(Reply::Raw(text)) => Value::String(text),
        Some(Reply::Cut(text)) => {
            finish = "length";
            Value::String(text)
        }
        Some(Reply::NoContent) => Value::Null,
        Some(Reply::Echo) => Value::String(prompt.clone()),
        Some(Reply::Verdict {
            label,
            rationale,
            evidence,
            confidence,
        }) => Value::String(
            json!({"label": label, "rationale": rationale, "evidence": evidence, "confidence": confidence})
                .to_string(),
        ),
    };
    let prompt_tokens = request.to_string().len() / 4;
    axum::Json(json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 25, "total_tokens": prompt_tokens + 25}
    }))
    .into_response()
}

/// Dimensions of the test embeddings.
const DIMS: usize = 256;

/// A bag-of-words vector: each lowercase word of four letters or more hashed to a slot.
pub fn embed_text(text: &str) -> Vec<f32> {
    let mut v = vec![0.0f32; DIMS];
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 4)
    {
        let hash = word.to_lowercase().bytes().fold(2166136261u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(16777619)
        });
        v[hash as usize % DIMS] += 1.0;
    }
    v
}

async fn embeddings(State(state): State<Arc<WorldState>>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    state.embeddings.lock().unwrap().push(request.clone());
    if state.outage.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, "down").into_response();
    }
    let inputs: Vec<String> = match &request["input"] {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": embed_text(t)}))
        .collect();
    axum::Json(json!({"object": "list", "data": data, "model": request["model"], "usage": {"prompt_tokens": 10, "total_tokens": 10}}))
        .into_response()
}

async fn document(State(state): State<Arc<WorldState>>, uri: Uri) -> Response {
    let full = uri
        .path_and_query()
        .map_or(uri.path().to_string(), |p| p.to_string());
    state.hits.lock().unwrap().push(full.clone());
    let doc = {
        let docs = state.docs.lock().unwrap();
        docs.get(&full).or_else(|| docs.get(uri.path())).cloned()
    };
    match doc {
        Some(d) => {
            let mut response = (
                StatusCode::from_u16(d.status).unwrap(),
                [(header::CONTENT_TYPE, d.content_type)],
                d.body,
            )
                .into_response();
            if let Some(location) = d.location {
                response
                    .headers_mut()
                    .insert(header::LOCATION, location.parse().unwrap());
            }
            response
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// One of the fixtures in fixtures/fulltext.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fulltext")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A real recorded body from ../shared, or `None` (with a message) when it is absent.
pub fn shared(rel: &str) -> Option<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(rel);
    match std::fs::read(&path) {
        Ok(body) => Some(body),
        Err(_) => {
            eprintln!("skipping: {rel} (../shared absent)");
            None
        }
    }
}

/// A PDF with one line per entry of `lines` (Helvetica, about 45 lines a page), built
/// with lopdf.
pub fn pdf_document(lines: &[&str]) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let mut kids: Vec<Object> = Vec::new();
    for page_lines in lines.chunks(45) {
        let mut ops = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 10.into()]),
            Operation::new("TL", vec![14.into()]),
            Operation::new("Td", vec![50.into(), 780.into()]),
        ];
        for line in page_lines {
            ops.push(Operation::new("Tj", vec![Object::string_literal(*line)]));
            ops.push(Operation::new("T*", vec![]));
        }
        ops.push(Operation::new("ET", vec![]));
        let content = Content { operations: ops };
        let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        });
        kids.push(page_id.into());
    }
    let count = kids.len() as i64;
    let pages = dictionary! {
        "Type" => "Pages", "Kids" => kids, "Count" => count, "Resources" => resources_id,
        "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
    };
    doc.objects.insert(pages_id, Object::Dictionary(pages));
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("PDF written");
    out
}

/// A Semantic Scholar paper object.
pub fn s2_paper(
    title: &str,
    doi: Option<&str>,
    abstract_text: Option<&str>,
    oa_pdf: Option<&str>,
) -> Value {
    json!({
        "paperId": "0123456789abcdef0123456789abcdef01234567",
        "externalIds": {"DOI": doi},
        "title": title,
        "abstract": abstract_text,
        "year": 2020,
        "authors": [{"authorId": "1", "name": "Adaeze Okafor"}],
        "openAccessPdf": oa_pdf.map(|u| json!({"url": u, "status": "GREEN"})),
    })
}

/// An Unpaywall DOI object whose best location is `url`.
pub fn unpaywall_record(doi: &str, title: &str, url: &str) -> Value {
    json!({
        "doi": doi, "title": title, "year": 2020, "is_oa": true,
        "best_oa_location": {"url": url, "url_for_pdf": null, "host_type": "repository"},
        "oa_locations": [],
    })
}

/// An OpenAlex work whose open-access URL is `url`.
pub fn openalex_work(doi: &str, title: &str, url: &str) -> Value {
    json!({
        "id": "https://openalex.org/W1234567890",
        "doi": format!("https://doi.org/{doi}"),
        "title": title, "publication_year": 2020,
        "open_access": {"is_oa": true, "oa_url": url},
    })
}
