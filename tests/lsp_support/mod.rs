//! A language-server client for the tests: the server runs on a thread over
//! `lsp_server::Connection::memory()`; the client sends requests and notifications,
//! waits (with a deadline, never a sleep) for responses and notifications, answers
//! the server's own requests (`workspace/configuration` with its settings, the
//! others with `null`) and keeps what it was not waiting for.
//!
//! Every client runs offline against an empty cache of its own, with Zotero off,
//! unless the test's settings say otherwise (`env` in the `citeproof` section), so
//! no test can reach the real network or read the user's cache or library.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use citeproof::lsp::{Ending, serve};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

/// How long a test waits for one message before failing.
pub const DEADLINE: Duration = Duration::from_secs(30);

pub struct Client {
    connection: Connection,
    server: Option<JoinHandle<anyhow::Result<Ending>>>,
    next_id: i32,
    /// Messages received while waiting for something else.
    inbox: VecDeque<Message>,
    pub initialize_result: Value,
    /// What `workspace/configuration` is answered with (the `citeproof` section).
    pub configuration: Value,
    /// Requests the server sent, in order.
    pub server_requests: Vec<Request>,
    _cache: tempfile::TempDir,
}

/// `file://` URI of a path.
pub fn uri(path: &Path) -> String {
    url::Url::from_file_path(path).unwrap().to_string()
}

/// Settings with the test defaults under them: offline, a cache of the client's own.
fn with_defaults(options: Value, cache: &Path) -> Value {
    let mut options = match options {
        Value::Null => json!({}),
        other => other,
    };
    let section = options
        .as_object_mut()
        .expect("settings are an object")
        .entry("citeproof")
        .or_insert_with(|| json!({}));
    let env = section
        .as_object_mut()
        .expect("the citeproof section is an object")
        .entry("env")
        .or_insert_with(|| json!({}));
    let env = env.as_object_mut().expect("env is an object");
    env.entry("CITEPROOF_OFFLINE").or_insert(json!("1"));
    // No test reads the Zotero of the machine it runs on.
    env.entry("CITEPROOF_ZOTERO").or_insert(json!("0"));
    env.entry("CITEPROOF_CACHE_DIR")
        .or_insert(json!(cache.display().to_string()));
    options
}

impl Client {
    /// Start a server and initialize it with these capabilities and options.
    pub fn start(capabilities: Value, options: Value) -> Client {
        Client::start_with(capabilities, options, |_| {})
    }

    /// Start a server whose workspace folder is `root`.
    pub fn start_in(root: &Path, capabilities: Value, options: Value) -> Client {
        Client::boot(Some(root), capabilities, options, |_| {})
    }

    /// Start a server; `before` may queue messages the server will find already
    /// waiting after `initialize` (to test batching and cancellation).
    pub fn start_with(
        capabilities: Value,
        options: Value,
        before: impl FnOnce(&Connection),
    ) -> Client {
        Client::boot(None, capabilities, options, before)
    }

    fn boot(
        root: Option<&Path>,
        capabilities: Value,
        options: Value,
        before: impl FnOnce(&Connection),
    ) -> Client {
        let cache = tempfile::tempdir().unwrap();
        let options = with_defaults(options, cache.path());
        let (client, server) = Connection::memory();
        let mut me = Client {
            connection: client,
            server: None,
            next_id: 1,
            inbox: VecDeque::new(),
            initialize_result: Value::Null,
            configuration: options["citeproof"].clone(),
            server_requests: Vec::new(),
            _cache: cache,
        };
        let root_uri = root.map(uri).map_or(Value::Null, Value::String);
        let id = me.send_request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "capabilities": capabilities,
                   "initializationOptions": options}),
        );
        me.notify("initialized", json!({}));
        before(&me.connection);
        me.server = Some(std::thread::spawn(move || serve(server)));
        let response = me.response(id);
        me.initialize_result = response.response_result.expect("initialize succeeds");
        me
    }

    pub fn send_request(&mut self, method: &str, params: Value) -> RequestId {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.connection
            .sender
            .send(Request::new(id.clone(), method.to_string(), params).into())
            .unwrap();
        id
    }

    /// Send a request and wait for its response.
    pub fn request(&mut self, method: &str, params: Value) -> Response {
        let id = self.send_request(method, params);
        self.response(id)
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.connection
            .sender
            .send(Notification::new(method.to_string(), params).into())
            .unwrap();
    }

    /// The next message; the server's requests are answered and recorded.
    fn next_message(&mut self, deadline: Instant) -> Message {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = match self.connection.receiver.recv_timeout(left) {
            Ok(message) => message,
            Err(e) => panic!(
                "no message from the server before the deadline ({e}); received meanwhile: {:#?}",
                self.inbox
            ),
        };
        if let Message::Request(request) = &message {
            let result = match request.method.as_str() {
                "workspace/configuration" => json!([self.configuration]),
                _ => Value::Null,
            };
            self.connection
                .sender
                .send(Response::new_ok(request.id.clone(), result).into())
                .unwrap();
            self.server_requests.push(request.clone());
        }
        message
    }

    /// Wait for the response to `id`, keeping everything else.
    pub fn response(&mut self, id: RequestId) -> Response {
        if let Some(i) = self
            .inbox
            .iter()
            .position(|m| matches!(m, Message::Response(r) if r.id == id))
        {
            let Some(Message::Response(r)) = self.inbox.remove(i) else {
                unreachable!()
            };
            return r;
        }
        let deadline = Instant::now() + DEADLINE;
        loop {
            match self.next_message(deadline) {
                Message::Response(r) if r.id == id => return r,
                other => self.inbox.push_back(other),
            }
        }
    }

    /// Wait for a notification of `method` whose parameters satisfy `wanted`.
    pub fn notification(&mut self, method: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let i = self.wait_in_inbox(method, wanted);
        let Some(Message::Notification(n)) = self.inbox.remove(i) else {
            unreachable!()
        };
        n.params
    }

    /// Wait for a notification like [`Self::notification`], leaving it in the
    /// inbox (in its place among the others) for [`Self::take_notifications`].
    pub fn await_notification(&mut self, method: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let i = self.wait_in_inbox(method, wanted);
        let Message::Notification(n) = &self.inbox[i] else {
            unreachable!()
        };
        n.params.clone()
    }

    /// The inbox position of the first matching notification, once it came.
    fn wait_in_inbox(&mut self, method: &str, wanted: impl Fn(&Value) -> bool) -> usize {
        let matches = |m: &Message| matches!(m, Message::Notification(n) if n.method == method && wanted(&n.params));
        if let Some(i) = self.inbox.iter().position(matches) {
            return i;
        }
        let deadline = Instant::now() + DEADLINE;
        loop {
            let message = self.next_message(deadline);
            let found = matches(&message);
            self.inbox.push_back(message);
            if found {
                return self.inbox.len() - 1;
            }
        }
    }

    /// Wait for a request of `method` from the server (already answered).
    pub fn server_request(&mut self, method: &str) -> Request {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(r) = self.server_requests.iter().find(|r| r.method == method) {
                return r.clone();
            }
            let message = self.next_message(deadline);
            if !matches!(message, Message::Request(_)) {
                self.inbox.push_back(message);
            }
        }
    }

    /// The next `publishDiagnostics` for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Value {
        self.notification("textDocument/publishDiagnostics", |p| p["uri"] == uri)
    }

    /// The next `publishDiagnostics` for `uri` whose codes satisfy `wanted`.
    pub fn diagnostics_where(&mut self, uri: &str, wanted: impl Fn(&[String]) -> bool) -> Value {
        self.notification("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri && wanted(&codes(p))
        })
    }

    /// Everything the server sent before the answer to a request sent now: the
    /// server handles messages in order, so whatever an earlier message caused
    /// has been sent by then.
    pub fn roundtrip(&mut self) {
        let response = self.request("citeproof/noSuchMethod", Value::Null);
        assert!(response.response_result.is_err());
    }

    /// Take every notification of `method` received so far (after a roundtrip).
    pub fn take_notifications(&mut self, method: &str) -> Vec<Value> {
        let mut out = Vec::new();
        self.inbox.retain(|m| match m {
            Message::Notification(n) if n.method == method => {
                out.push(n.params.clone());
                false
            }
            _ => true,
        });
        out
    }

    /// The latest diagnostics received per URI (after a roundtrip).
    pub fn latest_diagnostics(&mut self) -> HashMap<String, Value> {
        let mut out = HashMap::new();
        for p in self.take_notifications("textDocument/publishDiagnostics") {
            out.insert(p["uri"].as_str().unwrap_or_default().to_string(), p);
        }
        out
    }

    pub fn open(&self, uri: &str, language: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}}),
        );
    }

    /// Replace the whole text of an open document.
    pub fn replace(&self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
    }

    pub fn save(&self, uri: &str) {
        self.notify(
            "textDocument/didSave",
            json!({"textDocument": {"uri": uri}}),
        );
    }

    /// `shutdown`, then `exit`; how the server ended.
    pub fn shutdown(mut self) -> Ending {
        let response = self.request("shutdown", Value::Null);
        assert!(response.response_result.is_ok(), "{response:?}");
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap().unwrap()
    }

    /// `exit` without `shutdown`.
    pub fn exit(mut self) -> Ending {
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap().unwrap()
    }
}

/// `textDocument/hover` at `position`.
pub fn hover(client: &mut Client, uri: &str, position: Value) -> Value {
    client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position}),
        )
        .response_result
        .unwrap()
}

/// `textDocument/completion` at `position`.
pub fn complete(client: &mut Client, uri: &str, position: Value) -> Value {
    client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": position}),
        )
        .response_result
        .unwrap()
}

/// The labels of a completion list, in order.
pub fn labels(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

/// Codes of a `publishDiagnostics`' diagnostics.
pub fn codes(params: &Value) -> Vec<String> {
    params["diagnostics"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|d| d["code"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Settings that check locally only.
pub fn local() -> Value {
    json!({"citeproof": {"resolve": "off"}})
}

/// Settings that resolve against a mock world (`MockWorld::env()`), its rate limits
/// lifted, with a cache in `cache` (None: the client's own).
pub fn in_world(world_env: Vec<(String, String)>, cache: Option<&Path>) -> Value {
    let mut env = serde_json::Map::new();
    for (name, value) in world_env {
        if let Some(source) = name
            .strip_prefix("CITEPROOF_")
            .and_then(|n| n.strip_suffix("_URL"))
        {
            env.insert(format!("CITEPROOF_{source}_RATE"), json!("1000"));
        }
        env.insert(name, json!(value));
    }
    env.insert("CITEPROOF_OFFLINE".into(), json!("0"));
    env.insert("CITEPROOF_TIMEOUT".into(), json!("5"));
    env.insert("CITEPROOF_RETRIES".into(), json!("1"));
    env.insert("CITEPROOF_MAILTO".into(), json!("tests@example.org"));
    if let Some(cache) = cache {
        env.insert(
            "CITEPROOF_CACHE_DIR".into(),
            json!(cache.display().to_string()),
        );
    }
    json!({"citeproof": {"env": env}})
}
