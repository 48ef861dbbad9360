//! A language-server client for the tests: the server runs on a thread over
//! `lsp_server::Connection::memory()`; the client sends requests and notifications,
//! waits (with a deadline, never a sleep) for responses and notifications, and keeps
//! the notifications it was not waiting for.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use citeproof::lsp::{Ending, serve};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

/// How long a test waits for one message before failing.
pub const DEADLINE: Duration = Duration::from_secs(20);

pub struct Client {
    connection: Connection,
    server: Option<JoinHandle<anyhow::Result<Ending>>>,
    next_id: i32,
    /// Messages received while waiting for something else.
    inbox: VecDeque<Message>,
    pub initialize_result: Value,
}

/// `file://` URI of a path.
pub fn uri(path: &Path) -> String {
    url::Url::from_file_path(path).unwrap().to_string()
}

impl Client {
    /// Start a server and initialize it with these capabilities and options.
    pub fn start(capabilities: Value, options: Value) -> Client {
        Client::start_with(capabilities, options, |_| {})
    }

    /// Start a server; `before` may queue messages the server will find already
    /// waiting after `initialize` (to test batching and cancellation).
    pub fn start_with(
        capabilities: Value,
        options: Value,
        before: impl FnOnce(&Connection),
    ) -> Client {
        Client::launch(
            json!({"processId": null, "rootUri": null, "capabilities": capabilities,
                   "initializationOptions": options}),
            before,
        )
    }

    /// Start a server on a workspace folder.
    pub fn start_in(folder: &Path, capabilities: Value, options: Value) -> Client {
        let folder = uri(folder);
        Client::launch(
            json!({"processId": null, "rootUri": folder, "capabilities": capabilities,
                   "workspaceFolders": [{"uri": folder, "name": "project"}],
                   "initializationOptions": options}),
            |_| {},
        )
    }

    fn launch(initialize: Value, before: impl FnOnce(&Connection)) -> Client {
        let (client, server) = Connection::memory();
        let mut me = Client {
            connection: client,
            server: None,
            next_id: 1,
            inbox: VecDeque::new(),
            initialize_result: Value::Null,
        };
        let id = me.send_request("initialize", initialize);
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

    fn next_message(&mut self, deadline: Instant) -> Message {
        let left = deadline.saturating_duration_since(Instant::now());
        self.connection
            .receiver
            .recv_timeout(left)
            .expect("a message from the server before the deadline")
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
        if let Some(i) = self.inbox.iter().position(
            |m| matches!(m, Message::Notification(n) if n.method == method && wanted(&n.params)),
        ) {
            let Some(Message::Notification(n)) = self.inbox.remove(i) else {
                unreachable!()
            };
            return n.params;
        }
        let deadline = Instant::now() + DEADLINE;
        loop {
            match self.next_message(deadline) {
                Message::Notification(n) if n.method == method && wanted(&n.params) => {
                    return n.params;
                }
                other => self.inbox.push_back(other),
            }
        }
    }

    /// The next `publishDiagnostics` for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Value {
        self.notification("textDocument/publishDiagnostics", |p| p["uri"] == uri)
    }

    pub fn open(&self, uri: &str, language: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}}),
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

/// Codes of a `publishDiagnostics`' diagnostics.
pub fn codes(params: &Value) -> Vec<String> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}
